/* The queries of the frozen index: awake balls' contacts with the held balls and their
 * earliest hits on them. Each query box's slots get the exact test the all-pairs kernels run
 * (c2d_capsule_contact on a zero-length capsule, c2d_sweep_circles), so the answers are theirs
 * by construction; contacts keep the kernels' two-step accept (their overlap prefilter, then
 * the exact contact), which is symmetric in the two balls. */
#include <math.h>

#include "balls/frozen_layout.h"
#include "balls/frozen_sweep_test.h"
#include "batch/kernels_balls.h"
#include "core/filter_words.h"
#include "core/lane_scalar.h"
#include "core/segment_formula.h"
#include "core/contact_formula.h"

/* The filter words of one awake ball, and the frozen ones (collide2d/filter.h). */
typedef struct filter_ctx {
    uint32_t category, mask;
    const uint32_t *words; /* per slot (c2d_frozen.words), or NULL: every layer */
    const frozen_slot *slots;
} filter_ctx;

/* Filter words for awake ball k of `circles`. */
static filter_ctx filter_of(const c2d_frozen *f, const c2d_circle_soa *circles, size_t k) {
    const filter_ctx w = {c2d_filter_word(circles->category, k), c2d_filter_word(circles->mask, k),
                          f->words, f->slots};
    return w;
}

/* Whether the awake ball meets frozen slot p. */
static inline bool meets_frozen(const filter_ctx *w, const frozen_slot *p) {
    const size_t s = (size_t)(p - w->slots);
    return c2d_filter_allows(w->category, w->mask, w->words ? w->words[2 * s] : C2D_FILTER_ALL,
                             w->words ? w->words[2 * s + 1] : C2D_FILTER_ALL);
}

/* contacts of one awake ball */
typedef struct collide_ctx {
    float x, y, r;
    uint32_t id;
    uint64_t *hits;
    size_t count;
    const frozen_slot *slots;
} collide_ctx;

/* The same with the awake ball's filter words (collide_visit_filtered). */
typedef struct filtered_collide_ctx {
    collide_ctx c;
    filter_ctx filter;
} filtered_collide_ctx;

static void collide_visit(void *vctx, const frozen_slot *p) {
    collide_ctx *c = vctx;
    const float qx = c->x - p->x, qy = c->y - p->y;
    /* no branch (c2d_frozen_visit_box_one_test): the entry is always written, and counted when
     * it meets; it is within the hits, as each slot is visited at most once */
    c->hits[c->count] = (uint64_t)p->id << 32 | (uint64_t)(p - c->slots);
    c->count += (size_t)((p->id != c->id) & radii_overlap(qx * qx + qy * qy, c->r, p->r));
}

static void collide_visit_filtered(void *vctx, const frozen_slot *p) {
    filtered_collide_ctx *c = vctx;
    if (meets_frozen(&c->filter, p)) collide_visit(&c->c, p);
}

static void sort_u64(uint64_t *v, size_t n) {
    if (n <= 32) {
        for (size_t i = 1; i < n; i++) {
            const uint64_t x = v[i];
            size_t j = i;
            for (; j > 0 && v[j - 1] > x; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    /* heapsort */
    for (size_t start = n / 2; start-- > 0;) {
        for (size_t root = start;;) {
            size_t child = 2 * root + 1;
            if (child >= n) break;
            if (child + 1 < n && v[child + 1] > v[child]) child++;
            if (v[root] >= v[child]) break;
            const uint64_t t = v[root];
            v[root] = v[child];
            v[child] = t;
            root = child;
        }
    }
    for (size_t end = n; end-- > 1;) {
        uint64_t t = v[0];
        v[0] = v[end];
        v[end] = t;
        for (size_t root = 0;;) {
            size_t child = 2 * root + 1;
            if (child >= end) break;
            if (child + 1 < end && v[child + 1] > v[child]) child++;
            if (v[root] >= v[child]) break;
            t = v[root];
            v[root] = v[child];
            v[child] = t;
            root = child;
        }
    }
}

/* The awake-vs-frozen pairs of c2d_frozen_collide; returns their total.
 * `filtered` (a constant in both callers): the awake balls' and frozen balls' filter words
 * refuse pairs before the overlap test. */
C2D_FORMULA size_t collide_frozen(const c2d_frozen *f, const c2d_circle_soa *circles,
                                  const uint32_t *ids, c2d_circle_pair_contact *out,
                                  size_t capacity, bool filtered) {
    size_t total = 0;
    for (size_t k = 0; k < circles->count; k++) {
        const float x = circles->x[k], y = circles->y[k], r = circles->radius[k];
        if (x != x || y != y || !(r >= 0.0f)) continue;
        collide_ctx c = {x, y, r, ids ? ids[k] : (uint32_t)k, f->hits, 0, f->slots};
        filtered_collide_ctx fc;
        void *ctx = &c;
        frozen_visit_fn visit = collide_visit;
        if (filtered) {
            fc.c = c;
            fc.filter = filter_of(f, circles, k);
            ctx = &fc;
            visit = collide_visit_filtered;
        }
        if (frozen_tame(x) && frozen_tame(y) && frozen_tame(r)) {
            double reach[FROZEN_LEVELS];
            for (uint32_t rest = f->levels; rest; rest &= rest - 1) {
                const unsigned L = frozen_lowest_level(rest);
                reach[L] = ((double)r + f->r_max[L]) * (1.0 + 1.0 / 512.0) + C2D_ABSOLUTE_SLACK;
            }
            c2d_frozen_visit_box_one_test(f, x, x, y, y, reach, visit, ctx);
        } else {
            c2d_frozen_visit_all(f, visit, ctx);
        }
        if (filtered) c.count = fc.c.count;
        if (c.count == 0) continue;
        sort_u64(c.hits, c.count);
        for (size_t h = 0; h < c.count; h++) {
            const frozen_slot *p = &f->slots[(uint32_t)c.hits[h]];
            const bool awake_first = c.id < p->id;
            const float xa = awake_first ? x : p->x, ya = awake_first ? y : p->y;
            const float ra = awake_first ? r : p->r;
            const float xb = awake_first ? p->x : x, yb = awake_first ? p->y : y;
            const float rb = awake_first ? p->r : r;
            c2d_contact contact;
            if (c2d_capsule_contact(xa, ya, ra, xb, yb, xb, yb, rb, &contact))
                c2d_emit_ball_pair(out, capacity, &total, awake_first ? c.id : p->id,
                                   awake_first ? p->id : c.id, &contact);
        }
    }
    return total;
}

size_t c2d_frozen_collide(const c2d_frozen *f, const c2d_circle_soa *circles, const uint32_t *ids,
                          c2d_circle_pair_contact *out, size_t capacity) {
    return f->words || c2d_circle_soa_filtered(circles)
               ? collide_frozen(f, circles, ids, out, capacity, true)
               : collide_frozen(f, circles, ids, out, capacity, false);
}

/* the sweep of one awake ball (balls/frozen_sweep_test.h) */
typedef frozen_sweep sweep_ctx;

/* The same with the awake ball's filter words (sweep_visit_filtered). */
typedef struct filtered_sweep_ctx {
    sweep_ctx c;
    filter_ctx filter;
} filtered_sweep_ctx;

static void sweep_visit(void *vctx, const frozen_slot *p) {
    frozen_sweep_one(vctx, p->x, p->y, p->r, p->id);
}

static void sweep_visit_filtered(void *vctx, const frozen_slot *p) {
    filtered_sweep_ctx *c = vctx;
    if (meets_frozen(&c->filter, p)) sweep_visit(&c->c, p);
}

/* The hits of c2d_frozen_sweep into out; `filtered` as in collide_frozen. */
C2D_FORMULA void sweep_frozen(const c2d_frozen *f, const c2d_circle_soa *circles,
                              const uint32_t *ids, const float *move_x, const float *move_y,
                              c2d_circle_hit *out, bool filtered) {
    for (size_t k = 0; k < circles->count; k++) {
        const float x = circles->x[k], y = circles->y[k], r = circles->radius[k];
        const float mx = move_x[k], my = move_y[k];
        sweep_ctx c;
        frozen_sweep_begin(&c, x, y, r, mx, my, ids ? ids[k] : (uint32_t)k);
        /* no move, no hit (frozen_sweep_test.h) */
        if (f && f->count > 0 && x == x && y == y && mx == mx && my == my && r >= 0.0f &&
            frozen_sweep_moves(mx, my)) {
            filtered_sweep_ctx fc;
            void *ctx = &c;
            frozen_visit_fn visit = sweep_visit;
            if (filtered) {
                fc.c = c;
                fc.filter = filter_of(f, circles, k);
                ctx = &fc;
                visit = sweep_visit_filtered;
            }
            if (frozen_tame(x) && frozen_tame(y) && frozen_tame(r) && frozen_tame(mx) &&
                frozen_tame(my)) {
                /* everything within r + r_max (the level's) of the path, with the kernels'
                 * sweep slack (sizes 2^-8, positions 2^-16) taken four times over */
                const double ex = (double)x + mx, ey = (double)y + my;
                double grow[FROZEN_LEVELS];
                for (uint32_t rest = f->levels; rest; rest &= rest - 1) {
                    const unsigned L = frozen_lowest_level(rest);
                    const double size = fabs((double)mx) + fabs((double)my) + r + f->r_max[L];
                    grow[L] = (double)r + f->r_max[L] + 4.0 * C2D_SWEEP_SIZE_SLACK * size +
                              4.0 * C2D_SWEEP_POSITION_SLACK *
                                  (fabs((double)x) + fabs((double)y) + 2.0 * size) +
                              C2D_ABSOLUTE_SLACK;
                }
                c2d_frozen_visit_box(f, x < ex ? x : ex, x > ex ? x : ex, y < ey ? y : ey,
                                     y > ey ? y : ey, grow, visit, ctx);
            } else {
                c2d_frozen_visit_all(f, visit, ctx);
            }
            if (filtered) c = fc.c;
        }
        out[k] = frozen_sweep_finish(&c);
    }
}

void c2d_frozen_sweep(const c2d_frozen *f, const c2d_circle_soa *circles, const uint32_t *ids,
                      const float *move_x, const float *move_y, c2d_circle_hit *out) {
    if (f && (f->words || c2d_circle_soa_filtered(circles)))
        sweep_frozen(f, circles, ids, move_x, move_y, out, true);
    else
        sweep_frozen(f, circles, ids, move_x, move_y, out, false);
}
