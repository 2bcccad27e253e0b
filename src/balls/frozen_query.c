/* The queries of the frozen index: awake balls' contacts with the held balls and their
 * earliest hits on them. The walks test a block's four lanes at once (SIMDe's SSE2 names:
 * native on x86-64, NEON on AArch64, SIMD128 or plain C on wasm; correctly rounded float
 * operations, so the same bytes everywhere). The balls found get the exact step the all-pairs
 * kernels run (the contact kernel ball_pair_contacts, c2d_sweep_circles), so the answers are
 * theirs by construction; contacts keep the kernels' two-step accept (their overlap prefilter,
 * then the exact contact), which is symmetric in the two balls. */
#include <math.h>
#include <string.h>

#include <simde/x86/sse2.h>

#include "balls/frozen_layout.h"
#include "balls/frozen_sweep_test.h"
#include "batch/dispatch.h"
#include "batch/kernels.h"
#include "batch/kernels_balls.h"
#include "core/filter_words.h"
#include "core/lane_scalar.h"
#include "core/segment_formula.h"
#include "core/contact_formula.h"

/* The filter words of one awake ball, and the frozen ones (collide2d/filter.h). */
typedef struct filter_ctx {
    uint32_t category, mask;
    const uint32_t *words; /* per slot (c2d_frozen.words), or NULL: every layer */
} filter_ctx;

/* Filter words for awake ball k of `circles`. */
static filter_ctx filter_of(const c2d_frozen *f, const c2d_circle_soa *circles, size_t k) {
    const filter_ctx w = {c2d_filter_word(circles->category, k), c2d_filter_word(circles->mask, k),
                          f->words};
    return w;
}

/* Whether the awake ball meets frozen slot s. */
static inline bool meets_frozen(const filter_ctx *w, size_t s) {
    return c2d_filter_allows(w->category, w->mask, w->words ? w->words[2 * s] : C2D_FILTER_ALL,
                             w->words ? w->words[2 * s + 1] : C2D_FILTER_ALL);
}

/* ---- contacts ----------------------------------------------------------------------------- */

/* One awake ball's walk: the candidates (frozen balls that pass the kernels' overlap
 * prefilter) collected in hits. */
typedef struct collide_ctx {
    simde__m128 x, y, r; /* the awake ball in every lane */
    simde__m128i id;
    frozen_hit *hits;
    size_t count;
    const filter_ctx *filter; /* NULL: every pair meets */
} collide_ctx;

/* The four lanes of block b: radii_overlap(q.q, r_awake, r_frozen), q = awake - frozen, in the
 * same float operations as the kernels' prefilter (an unused lane's NaN fails it; a listed
 * ball's radius is >= 0 and the awake one's was checked), the awake ball's own id left out.
 * Each lane is written to the hits as it is (the block's 4 x 4 values transposed) and counted
 * when it passed: no branch on the lanes. */
C2D_FORMULA void collide_block(void *vctx, const frozen_level *lv, uint32_t b, unsigned lanes) {
    collide_ctx *c = vctx;
    const frozen_block *blk = &lv->block[b];
    simde__m128 bx = simde_mm_loadu_ps(blk->x), by = simde_mm_loadu_ps(blk->y);
    simde__m128 br = simde_mm_loadu_ps(blk->r);
    const simde__m128i bid = simde_mm_loadu_si128((const simde__m128i *)(const void *)blk->id);
    const simde__m128 qx = simde_mm_sub_ps(c->x, bx), qy = simde_mm_sub_ps(c->y, by);
    const simde__m128 d2 = simde_mm_add_ps(simde_mm_mul_ps(qx, qx), simde_mm_mul_ps(qy, qy));
    const simde__m128 rs = simde_mm_add_ps(c->r, br);
    const simde__m128 near = simde_mm_cmple_ps(d2, simde_mm_mul_ps(rs, rs));
    const simde__m128 self = simde_mm_castsi128_ps(simde_mm_cmpeq_epi32(bid, c->id));
    unsigned m = (unsigned)simde_mm_movemask_ps(simde_mm_andnot_ps(self, near)) & lanes;
    if (c->filter) /* (the lanes that passed are used ones) */
        for (unsigned rest = m; rest; rest &= rest - 1) {
            const unsigned j = (unsigned)__builtin_ctz(rest);
            if (!meets_frozen(c->filter, lv->lane_slot[(size_t)b * FROZEN_LANES + j]))
                m &= ~(1u << j);
        }
    simde__m128 bi = simde_mm_castsi128_ps(bid);
    SIMDE_MM_TRANSPOSE4_PS(bx, by, br, bi);
    frozen_hit *h = c->hits;
    size_t n = c->count;
    simde_mm_storeu_ps((float *)(void *)(h + n), bx);
    n += m & 1u;
    simde_mm_storeu_ps((float *)(void *)(h + n), by);
    n += (m >> 1) & 1u;
    simde_mm_storeu_ps((float *)(void *)(h + n), br);
    n += (m >> 2) & 1u;
    simde_mm_storeu_ps((float *)(void *)(h + n), bi);
    c->count = n + ((m >> 3) & 1u);
}

/* The same test for one listed slot (special slots, and the walk over every slot). */
static void collide_slot(collide_ctx *c, const c2d_frozen *f, uint32_t s) {
    const frozen_slot *p = &f->slots[s];
    const float x = simde_mm_cvtss_f32(c->x), y = simde_mm_cvtss_f32(c->y);
    const float r = simde_mm_cvtss_f32(c->r);
    const float qx = x - p->x, qy = y - p->y;
    const uint32_t id = (uint32_t)simde_mm_cvtsi128_si32(c->id);
    if (p->id != id && radii_overlap(qx * qx + qy * qy, r, p->r) &&
        (!c->filter || meets_frozen(c->filter, s))) {
        const frozen_hit hit = {p->x, p->y, p->r, p->id};
        c->hits[c->count++] = hit;
    }
}

/* Candidates by increasing id (few: insertion sort; heapsort past 32). */
static inline bool hit_before(const frozen_hit *a, const frozen_hit *b) {
    return a->id < b->id;
}

static void sift_down(frozen_hit *v, size_t root, size_t end) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= end) return;
        if (child + 1 < end && hit_before(&v[child], &v[child + 1])) child++;
        if (!hit_before(&v[root], &v[child])) return;
        const frozen_hit t = v[root];
        v[root] = v[child];
        v[child] = t;
        root = child;
    }
}

/* Orders keys a and b (branch-free: a compare and two selects). */
static inline void order_keys(uint64_t *a, uint64_t *b) {
    const uint64_t lo = *a < *b ? *a : *b, hi = *a < *b ? *b : *a;
    *a = lo;
    *b = hi;
}

static void sort_hits(frozen_hit *v, size_t n) {
    if (n <= 4) { /* the usual count: a sorting network on (id, place) keys, no branch */
        uint64_t k[4];
        for (size_t i = 0; i < 4; i++)
            k[i] = i < n ? (uint64_t)v[i].id << 32 | i : UINT64_MAX;
        order_keys(&k[0], &k[1]);
        order_keys(&k[2], &k[3]);
        order_keys(&k[0], &k[2]);
        order_keys(&k[1], &k[3]);
        order_keys(&k[1], &k[2]);
        frozen_hit t[4];
        memcpy(t, v, n * sizeof *v);
        for (size_t i = 0; i < n; i++)
            v[i] = t[(uint32_t)k[i]];
        return;
    }
    if (n <= 32) {
        for (size_t i = 1; i < n; i++) {
            const frozen_hit x = v[i];
            size_t j = i;
            for (; j > 0 && hit_before(&x, &v[j - 1]); j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    for (size_t start = n / 2; start-- > 0;)
        sift_down(v, start, n);
    for (size_t end = n; end-- > 1;) {
        const frozen_hit t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift_down(v, 0, end);
    }
}

/* Pairs for the contact kernel (ball_pair_contacts, the all-pairs kernels' own contact step):
 * pair i is balls 2i (the lower id) and 2i + 1 of a small circle SoA; the kernel appends the
 * contacts of the pairs that overlap, in order, naming them 2i and 2i + 1, which are then
 * replaced by the global ids. */
typedef struct pair_queue {
    const c2d_kernels *kernels;
    size_t n;
    float x[2 * FROZEN_CONTACT_CHUNK], y[2 * FROZEN_CONTACT_CHUNK], r[2 * FROZEN_CONTACT_CHUNK];
    uint32_t id[2 * FROZEN_CONTACT_CHUNK];
    c2d_ball_pair pairs[FROZEN_CONTACT_CHUNK];
} pair_queue;

static size_t pairs_flush(pair_queue *q, c2d_circle_pair_contact *out, size_t capacity,
                          size_t total) {
    if (q->n == 0) return total;
    const c2d_circle_soa balls = {q->x, q->y, q->r, 2 * q->n, NULL, NULL};
    const size_t first = total;
    total = q->kernels->ball_pair_contacts(&balls, q->pairs, q->n, out, capacity, total);
    for (size_t t = first; t < total && t < capacity; t++) {
        const uint32_t i = out[t].a;
        out[t].a = q->id[i];
        out[t].b = q->id[i + 1];
    }
    q->n = 0;
    return total;
}

static void pairs_push(pair_queue *q, float xa, float ya, float ra, uint32_t ia, float xb, float yb,
                       float rb, uint32_t ib) {
    const size_t i = 2 * q->n;
    q->x[i] = xa;
    q->y[i] = ya;
    q->r[i] = ra;
    q->id[i] = ia;
    q->x[i + 1] = xb;
    q->y[i + 1] = yb;
    q->r[i + 1] = rb;
    q->id[i + 1] = ib;
    q->pairs[q->n].a = (uint32_t)i;
    q->pairs[q->n].b = (uint32_t)i + 1;
    q->n++;
}

/* How one awake ball's query goes: nothing to test, the windows of `levels` (and the special
 * slots), or every slot. */
typedef struct ball_plan {
    enum { PLAN_NONE, PLAN_WINDOWS, PLAN_ALL } how;
    uint32_t levels; /* the levels that hold a ball near it (frozen_near_none) */
    frozen_window win[FROZEN_LEVELS];
} ball_plan;

/* Adds level L's window of the box [x0, x1] x [y0, y1] to plan p (and its cells to *cells),
 * unless the level holds no ball within `reach` of (x, y), which the box lies within. */
static inline void plan_level(const c2d_frozen *f, unsigned L, double x, double y, double reach,
                              double x0, double x1, double y0, double y1, ball_plan *p,
                              double *cells) {
    const frozen_level *lv = &f->level[L];
    if (frozen_near_none(lv, x, y, reach)) return;
    p->levels |= 1u << L;
    *cells += frozen_window_of(lv, x0, x1, y0, y1, &p->win[L]);
}

/* The plan's verdict once its levels are in: the windows, or every slot when they hold more
 * cells than both FROZEN_SPAN_LIMIT and the balls held; nothing when no level and no special
 * slot is left. */
static inline void plan_finish(const c2d_frozen *f, double cells, ball_plan *p) {
    p->how = cells > FROZEN_SPAN_LIMIT && cells > (double)f->count ? PLAN_ALL
             : p->levels || f->special_count                       ? PLAN_WINDOWS
                                                                   : PLAN_NONE;
}

/* Whether slot s is listed (held, and not dead): the walk over every slot. */
static inline bool slot_listed(const c2d_frozen *f, size_t s) {
    return f->slots[s].id != FROZEN_NIL && f->slots[s].home != FROZEN_HOME_DEAD;
}

/* The plan of a collide query of ball (x, y, r) (its centre not NaN, r >= 0). */
static inline void collide_plan(const c2d_frozen *f, float x, float y, float r, ball_plan *p) {
    p->how = PLAN_ALL; /* untamed: every slot */
    p->levels = 0;
    if (!frozen_tame(x) || !frozen_tame(y) || !frozen_tame(r)) return;
    double cells = 0.0;
    for (uint32_t rest = f->levels; rest; rest &= rest - 1) {
        const unsigned L = frozen_lowest_level(rest);
        const double reach =
            ((double)r + f->level[L].r_max) * (1.0 + 1.0 / 512.0) + C2D_ABSOLUTE_SLACK;
        plan_level(f, L, x, y, reach, x - reach, x + reach, y - reach, y + reach, p, &cells);
    }
    plan_finish(f, cells, p);
}

/* Ball k's walk by its plan p (not PLAN_NONE) and its pairs to the queue; returns the total. */
C2D_FORMULA size_t collide_ball(const c2d_frozen *f, const c2d_circle_soa *circles,
                                const uint32_t *ids, size_t k, const ball_plan *p, pair_queue *q,
                                c2d_circle_pair_contact *out, size_t capacity, size_t total,
                                bool filtered) {
    const float x = circles->x[k], y = circles->y[k], r = circles->radius[k];
    const uint32_t id = ids ? ids[k] : (uint32_t)k;
    filter_ctx filter;
    if (filtered) filter = filter_of(f, circles, k);
    collide_ctx c = {simde_mm_set1_ps(x),
                     simde_mm_set1_ps(y),
                     simde_mm_set1_ps(r),
                     simde_mm_set1_epi32((int32_t)id),
                     f->hits,
                     0,
                     filtered ? &filter : NULL};
    if (p->how == PLAN_WINDOWS) {
        for (uint32_t rest = p->levels; rest; rest &= rest - 1) {
            const unsigned L = frozen_lowest_level(rest);
            frozen_walk_window(&f->level[L], &p->win[L], collide_block, &c);
        }
        for (size_t i = 0; i < f->special_count; i++)
            collide_slot(&c, f, f->special[i]);
    } else {
        for (size_t s = 0; s < f->used; s++)
            if (slot_listed(f, s)) collide_slot(&c, f, (uint32_t)s);
    }
    if (c.count == 0) return total;
    sort_hits(c.hits, c.count);
    const frozen_hit me = {x, y, r, id};
    for (size_t h = 0; h < c.count; h++) {
        const frozen_hit two[2] = {me, c.hits[h]}; /* the lower id first, no branch */
        const frozen_hit *lo = &two[c.hits[h].id < id], *hi = &two[c.hits[h].id > id];
        pairs_push(q, lo->x, lo->y, lo->r, lo->id, hi->x, hi->y, hi->r, hi->id);
        if (q->n == FROZEN_CONTACT_CHUNK) total = pairs_flush(q, out, capacity, total);
    }
    return total;
}

/* The awake-vs-frozen pairs of c2d_frozen_collide; returns their total.
 * `filtered` (a constant in both callers): the awake balls' and frozen balls' filter words
 * refuse pairs before the overlap test. */
C2D_FORMULA size_t collide_frozen(const c2d_frozen *f, const c2d_circle_soa *circles,
                                  const uint32_t *ids, c2d_circle_pair_contact *out,
                                  size_t capacity, bool filtered) {
    size_t total = 0;
    pair_queue q;
    q.kernels = c2d_active_kernels();
    q.n = 0;
    for (size_t k = 0; k < circles->count; k++) {
        const float x = circles->x[k], y = circles->y[k], r = circles->radius[k];
        if (x != x || y != y || !(r >= 0.0f)) continue;
        ball_plan p;
        collide_plan(f, x, y, r, &p);
        if (p.how != PLAN_NONE)
            total = collide_ball(f, circles, ids, k, &p, &q, out, capacity, total, filtered);
    }
    return pairs_flush(&q, out, capacity, total);
}
size_t c2d_frozen_collide(const c2d_frozen *f, const c2d_circle_soa *circles, const uint32_t *ids,
                          c2d_circle_pair_contact *out, size_t capacity) {
    return f->words || c2d_circle_soa_filtered(circles)
               ? collide_frozen(f, circles, ids, out, capacity, true)
               : collide_frozen(f, circles, ids, out, capacity, false);
}

/* ---- sweeps ------------------------------------------------------------------------------- */

/* The sweep of one awake ball (balls/frozen_sweep_test.h: the candidates' cull), its filter
 * words and the box of the level being walked. */
typedef struct sweep_ctx {
    frozen_sweep s;
    const filter_ctx *filter;   /* NULL: every pair meets */
    simde__m128 x0, x1, y0, y1; /* the level's query box, its bounds rounded outward to floats */
} sweep_ctx;

/* The lanes of block b whose centre lies in the box, one at a time. */
C2D_FORMULA void sweep_block(void *vctx, const frozen_level *lv, uint32_t b, unsigned lanes) {
    sweep_ctx *c = vctx;
    const frozen_block *blk = &lv->block[b];
    const simde__m128 bx = simde_mm_loadu_ps(blk->x), by = simde_mm_loadu_ps(blk->y);
    const simde__m128 in = simde_mm_and_ps(
        simde_mm_and_ps(simde_mm_cmpge_ps(bx, c->x0), simde_mm_cmple_ps(bx, c->x1)),
        simde_mm_and_ps(simde_mm_cmpge_ps(by, c->y0), simde_mm_cmple_ps(by, c->y1)));
    for (unsigned m = (unsigned)simde_mm_movemask_ps(in) & lanes; m; m &= m - 1) {
        const unsigned j = (unsigned)__builtin_ctz(m);
        if (c->filter && !meets_frozen(c->filter, lv->lane_slot[(size_t)b * FROZEN_LANES + j]))
            continue;
        frozen_sweep_one(&c->s, blk->x[j], blk->y[j], blk->r[j], blk->id[j]);
    }
}

/* The same for one listed slot (special slots, and the walk over every slot). */
static void sweep_slot(sweep_ctx *c, const c2d_frozen *f, uint32_t s) {
    const frozen_slot *p = &f->slots[s];
    if (!c->filter || meets_frozen(c->filter, s)) frozen_sweep_one(&c->s, p->x, p->y, p->r, p->id);
}

/* A double bound as a float no further in (below for a low bound, above for a high one): the
 * conversion is within 2^-24 of |v| (tame v: no overflow), and 2^-22 of it more is taken
 * outward (plus the smallest normal, for v near 0), so no call to nextafterf. */
static simde__m128 bound_below(double v) {
    const float g = (float)v;
    return simde_mm_set1_ps(g - (fabsf(g) * 0x1p-22f + 0x1p-126f));
}

static simde__m128 bound_above(double v) {
    const float g = (float)v;
    return simde_mm_set1_ps(g + (fabsf(g) * 0x1p-22f + 0x1p-126f));
}

/* The plan of a sweep query of ball (x, y, r) moving by (mx, my) (none NaN, r >= 0), with each
 * planned level's growth of the path's box in grow[]: everything within r + r_max (the
 * level's) of the path, with the kernels' sweep slack (sizes 2^-8, positions 2^-16) taken four
 * times over. */
static inline void sweep_plan(const c2d_frozen *f, float x, float y, float r, float mx, float my,
                              ball_plan *p, double *grow) {
    p->how = PLAN_ALL; /* untamed: every slot */
    p->levels = 0;
    if (!frozen_tame(x) || !frozen_tame(y) || !frozen_tame(r) || !frozen_tame(mx) ||
        !frozen_tame(my))
        return;
    const double ex = (double)x + mx, ey = (double)y + my;
    const double lo_x = x < ex ? x : ex, hi_x = x > ex ? x : ex;
    const double lo_y = y < ey ? y : ey, hi_y = y > ey ? y : ey;
    double cells = 0.0;
    for (uint32_t rest = f->levels; rest; rest &= rest - 1) {
        const unsigned L = frozen_lowest_level(rest);
        const double size = fabs((double)mx) + fabs((double)my) + r + f->level[L].r_max;
        const double g =
            (double)r + f->level[L].r_max + 4.0 * C2D_SWEEP_SIZE_SLACK * size +
            4.0 * C2D_SWEEP_POSITION_SLACK * (fabs((double)x) + fabs((double)y) + 2.0 * size) +
            C2D_ABSOLUTE_SLACK;
        grow[L] = g; /* the box lies within |m|_1 + g of the start on every side */
        plan_level(f, L, x, y, fabs((double)mx) + fabs((double)my) + g, lo_x - g, hi_x + g,
                   lo_y - g, hi_y + g, p, &cells);
    }
    plan_finish(f, cells, p);
}

/* The hits of c2d_frozen_sweep into out (f holds a ball); `filtered` as in collide_frozen. */
C2D_FORMULA void sweep_frozen(const c2d_frozen *f, const c2d_circle_soa *circles,
                              const uint32_t *ids, const float *move_x, const float *move_y,
                              c2d_circle_hit *out, bool filtered) {
    for (size_t k = 0; k < circles->count; k++) {
        const float x = circles->x[k], y = circles->y[k], r = circles->radius[k];
        const float mx = move_x[k], my = move_y[k];
        filter_ctx filter;
        if (filtered) filter = filter_of(f, circles, k);
        sweep_ctx c;
        frozen_sweep_begin(&c.s, x, y, r, mx, my, ids ? ids[k] : (uint32_t)k);
        c.filter = filtered ? &filter : NULL;
        c.x0 = c.x1 = c.y0 = c.y1 = simde_mm_setzero_ps();
        ball_plan p;
        double grow[FROZEN_LEVELS];
        p.how = PLAN_NONE; /* no move, no hit (frozen_sweep_test.h) */
        if (x == x && y == y && mx == mx && my == my && r >= 0.0f && frozen_sweep_moves(mx, my))
            sweep_plan(f, x, y, r, mx, my, &p, grow);
        if (p.how == PLAN_WINDOWS) {
            const double ex = (double)x + mx, ey = (double)y + my;
            const double lo_x = x < ex ? x : ex, hi_x = x > ex ? x : ex;
            const double lo_y = y < ey ? y : ey, hi_y = y > ey ? y : ey;
            for (uint32_t rest = p.levels; rest; rest &= rest - 1) {
                const unsigned L = frozen_lowest_level(rest);
                c.x0 = bound_below(lo_x - grow[L]);
                c.x1 = bound_above(hi_x + grow[L]);
                c.y0 = bound_below(lo_y - grow[L]);
                c.y1 = bound_above(hi_y + grow[L]);
                frozen_walk_window(&f->level[L], &p.win[L], sweep_block, &c);
            }
            for (size_t i = 0; i < f->special_count; i++)
                sweep_slot(&c, f, f->special[i]);
        } else if (p.how == PLAN_ALL) {
            for (size_t s = 0; s < f->used; s++)
                if (slot_listed(f, s)) sweep_slot(&c, f, (uint32_t)s);
        }
        out[k] = frozen_sweep_finish(&c.s);
    }
}

void c2d_frozen_sweep(const c2d_frozen *f, const c2d_circle_soa *circles, const uint32_t *ids,
                      const float *move_x, const float *move_y, c2d_circle_hit *out) {
    if (!f || f->count == 0) { /* nothing held: no hit, and no per-ball set-up to pay */
        const c2d_circle_hit none = c2d_no_ball_hit();
        for (size_t k = 0; k < circles->count; k++)
            out[k] = none;
        return;
    }
    if (f->words || c2d_circle_soa_filtered(circles))
        sweep_frozen(f, circles, ids, move_x, move_y, out, true);
    else
        sweep_frozen(f, circles, ids, move_x, move_y, out, false);
}
