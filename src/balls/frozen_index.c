/* The frozen index: resting balls (a scene's frozen balls, collide2d/frozen.h, whose entry
 * points are src/scene/scene_frozen.c) in an index that takes insertions and removals one ball
 * at a time. It knows nothing of scenes: its owner gives it the allocator hooks.
 *
 * The index: slots (one per frozen ball: its copy and its id) with a free list; a table from
 * id to slot; a hashed uniform grid, each cell's slots in a doubly linked list through the
 * slots (so a removal is O(1)); and a list of "special" slots tested against every awake ball
 * (values beyond C2D_TAME_LIMIT, or a radius larger than the cell). Slots with a NaN centre or
 * a radius that is not >= 0 are held but listed nowhere: they touch nothing.
 *
 * The grid only chooses which pairs get the exact test; the exact test is the scalar
 * reference function the all-pairs kernels run (c2d_capsule_contact on a zero-length capsule,
 * c2d_sweep_circles), so the answers are theirs by construction. Contacts keep the kernels'
 * two-step accept (their overlap prefilter, then the exact contact), which is symmetric in the
 * two balls. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "balls/frozen_index.h"
#include "batch/cull.h"
#include "batch/kernels_balls.h"
#include "core/filter_words.h"
#include "core/lane_scalar.h"
#include "core/segment_formula.h"
#include "core/contact_formula.h"

#define NIL UINT32_MAX
#define HOME_SPECIAL (UINT32_MAX - 1) /* on the special list */
#define HOME_DEAD UINT32_MAX          /* listed nowhere */

/* A query box spanning more cells than this scans every slot instead. */
#define SPAN_LIMIT 256

typedef struct frozen_slot {
    float x, y, r;
    uint32_t id;         /* NIL when the slot is free */
    uint32_t next, prev; /* the cell's (or special) list; next: free list when free */
    uint32_t home;       /* bucket, HOME_SPECIAL or HOME_DEAD */
    uint32_t key;        /* cell_key of its cell (grid slots) */
} frozen_slot;

struct c2d_frozen {
    frozen_slot *slots;
    size_t used, capacity; /* slots ever used (high water), allocated */
    uint32_t free_head;
    size_t count;            /* frozen balls */
    uint32_t *slot_of;       /* id -> slot, NIL */
    size_t id_capacity;      /* entries of slot_of */
    uint32_t *bucket;        /* head slot of each bucket, NIL */
    size_t buckets;          /* a power of two, or 0 before the first freeze */
    unsigned shift;          /* log2(nx): buckets are nx by ny */
    uint64_t mask_x, mask_y; /* nx - 1, ny - 1 */
    double cell, inv_cell;   /* grid cell side */
    float r_max;             /* the largest radius of a grid slot (stays until a rebuild) */
    uint32_t special_head;
    uint64_t *hits;  /* collide: one awake ball's frozen partners (capacity entries) */
    uint32_t *words; /* per slot its category and mask (2 s, 2 s + 1); NULL until a freeze
                      * brings a filter, and then kept (capacity pairs) */
};

static inline bool tame(float v) {
    return fabsf(v) <= C2D_TAME_LIMIT;
}

/* ---- the grid ---------------------------------------------------------------------------- */

/* floor(v / cell) as an integer (tame v: |v| <= 2^40, clamped far inside int64). */
static inline int64_t cell_coord(const c2d_frozen *f, double v) {
    double u = v * f->inv_cell;
    u = u < -4.0e18 ? -4.0e18 : (u > 4.0e18 ? 4.0e18 : u);
    const int64_t i = (int64_t)u; /* toward zero: one less below zero when u had a fraction */
    return i - ((double)i > u);
}

/* The bucket of cell (cx, cy): the cells tile a torus of nx by ny buckets, so neighbouring
 * cells are neighbouring buckets (a row of a query is contiguous memory); cells a multiple of
 * nx (or ny) apart share a bucket, and a query tells them apart by the slot's cell key. */
static inline uint32_t bucket_of(const c2d_frozen *f, int64_t cx, int64_t cy) {
    return (uint32_t)(((uint64_t)cx & f->mask_x) | (((uint64_t)cy & f->mask_y) << f->shift));
}

/* A slot's cell, told apart from every other cell of a query window (< 2^16 cells a side). */
static inline uint32_t cell_key(int64_t cx, int64_t cy) {
    return (uint32_t)((uint64_t)cx & 0xffffu) | (uint32_t)(((uint64_t)cy & 0xffffu) << 16);
}

static void list_push(c2d_frozen *f, uint32_t *head, uint32_t s) {
    f->slots[s].prev = NIL;
    f->slots[s].next = *head;
    if (*head != NIL) f->slots[*head].prev = s;
    *head = s;
}

static void list_unlink(c2d_frozen *f, uint32_t *head, uint32_t s) {
    const frozen_slot *p = &f->slots[s];
    if (p->prev != NIL)
        f->slots[p->prev].next = p->next;
    else
        *head = p->next;
    if (p->next != NIL) f->slots[p->next].prev = p->prev;
}

/* Lists slot s where its values say (the slot's values are set). */
static void place(c2d_frozen *f, uint32_t s) {
    frozen_slot *p = &f->slots[s];
    if (p->x != p->x || p->y != p->y || !(p->r >= 0.0f)) {
        p->home = HOME_DEAD;
        return;
    }
    if (!(tame(p->x) && tame(p->y) && tame(p->r)) || (double)p->r > f->cell) {
        p->home = HOME_SPECIAL;
        list_push(f, &f->special_head, s);
        return;
    }
    const int64_t cx = cell_coord(f, p->x), cy = cell_coord(f, p->y);
    p->home = bucket_of(f, cx, cy);
    p->key = cell_key(cx, cy);
    list_push(f, &f->bucket[p->home], s);
    f->r_max = p->r > f->r_max ? p->r : f->r_max;
}

static void unplace(c2d_frozen *f, uint32_t s) {
    const uint32_t home = f->slots[s].home;
    if (home == HOME_SPECIAL)
        list_unlink(f, &f->special_head, s);
    else if (home != HOME_DEAD)
        list_unlink(f, &f->bucket[home], s);
}

/* The cell side for the balls held plus `extra` (their largest tame radius, doubled; a
 * power of two so the cell coordinate is exact). */
static double pick_cell(const c2d_frozen *f, const c2d_circle_soa *extra) {
    float r = 0.0f;
    for (size_t s = 0; s < f->used; s++)
        if (f->slots[s].id != NIL && tame(f->slots[s].r) && f->slots[s].r > r) r = f->slots[s].r;
    for (size_t k = 0; extra && k < extra->count; k++)
        if (tame(extra->radius[k]) && extra->radius[k] > r) r = extra->radius[k];
    const double want = 2.0 * (double)r;
    double cell = 0x1p-60;
    while (cell < want)
        cell *= 2.0;
    return cell;
}

/* Relists every slot in `buckets` buckets of side `cell` (bucket memory given). */
static void rebuild(c2d_frozen *f, uint32_t *bucket, size_t buckets, double cell) {
    f->bucket = bucket;
    f->buckets = buckets;
    unsigned log = 0;
    while (((size_t)1 << log) < buckets)
        log++;
    f->shift = (log + 1) / 2; /* nx >= ny */
    f->mask_x = ((uint64_t)1 << f->shift) - 1;
    f->mask_y = ((uint64_t)1 << (log - f->shift)) - 1;
    f->cell = cell;
    f->inv_cell = 1.0 / cell;
    f->r_max = 0.0f;
    f->special_head = NIL;
    for (size_t b = 0; b < buckets; b++)
        bucket[b] = NIL;
    for (size_t s = 0; s < f->used; s++)
        if (f->slots[s].id != NIL) place(f, (uint32_t)s);
}

/* ---- memory ------------------------------------------------------------------------------ */

static void *grow_array(const c2d_allocator *a, void *old, size_t old_bytes, size_t count,
                        size_t size) {
    void *fresh = c2d_alloc_array(a, count, size);
    if (fresh && old_bytes) memcpy(fresh, old, old_bytes);
    return fresh;
}

c2d_frozen *c2d_frozen_new(const c2d_allocator *a) {
    c2d_frozen *f = c2d_alloc(a, sizeof *f);
    if (!f) return NULL;
    memset(f, 0, sizeof *f);
    f->free_head = NIL;
    f->special_head = NIL;
    return f;
}

void c2d_frozen_free(const c2d_allocator *a, c2d_frozen *f) {
    if (!f) return;
    c2d_free(a, f->slots);
    c2d_free(a, f->slot_of);
    c2d_free(a, f->bucket);
    c2d_free(a, f->hits);
    c2d_free(a, f->words);
    c2d_free(a, f);
}

/* Makes room for `more` balls and ids up to max_id, all or nothing. Rebuilds the grid when
 * the buckets would hold more than one ball each. */
static c2d_status reserve(const c2d_allocator *a, c2d_frozen *f, const c2d_circle_soa *c,
                          size_t more, uint32_t max_id) {
    const size_t slots_need = f->count + more; /* free slots are reused first */
    const size_t slot_cap =
        f->capacity >= slots_need ? f->capacity : c2d_grown(f->capacity, slots_need);
    const size_t id_cap =
        f->id_capacity > max_id ? f->id_capacity : c2d_grown(f->id_capacity, (size_t)max_id + 1);
    const size_t bucket_cap =
        f->buckets >= slots_need ? f->buckets : c2d_grown(f->buckets, slots_need);
    frozen_slot *slots = f->slots;
    uint32_t *slot_of = f->slot_of, *bucket = f->bucket;
    uint64_t *hits = f->hits;
    if (slot_cap != f->capacity) {
        slots = grow_array(a, f->slots, f->used * sizeof *slots, slot_cap, sizeof *slots);
        hits = c2d_alloc_array(a, slot_cap, sizeof *hits);
    }
    if (id_cap != f->id_capacity) {
        slot_of =
            grow_array(a, f->slot_of, f->id_capacity * sizeof *slot_of, id_cap, sizeof *slot_of);
        if (slot_of)
            for (size_t i = f->id_capacity; i < id_cap; i++)
                slot_of[i] = NIL;
    }
    if (bucket_cap != f->buckets) bucket = c2d_alloc_array(a, bucket_cap, sizeof *bucket);
    /* filter words: from the first freeze that brings a filter on (the balls held before it
     * get every layer), growing with the slots */
    const bool want_words = f->words || c2d_circle_soa_filtered(c);
    uint32_t *words = f->words;
    if (want_words && (!f->words || slot_cap != f->capacity)) {
        words = c2d_alloc_array(a, slot_cap, 2 * sizeof *words);
        for (size_t k = 0; words && k < 2 * f->used; k++)
            words[k] = f->words ? f->words[k] : C2D_FILTER_ALL;
    }
    if (!slots || !slot_of || !bucket || !hits || (want_words && !words)) {
        if (words != f->words) c2d_free(a, words);
        if (slots != f->slots) c2d_free(a, slots);
        if (hits != f->hits) c2d_free(a, hits);
        if (slot_of != f->slot_of) c2d_free(a, slot_of);
        if (bucket != f->bucket) c2d_free(a, bucket);
        return C2D_ERROR_ALLOC;
    }
    if (words != f->words) {
        c2d_free(a, f->words);
        f->words = words;
    }
    if (slots != f->slots) {
        c2d_free(a, f->slots);
        c2d_free(a, f->hits);
        f->slots = slots;
        f->hits = hits;
        f->capacity = slot_cap;
    }
    if (slot_of != f->slot_of) {
        c2d_free(a, f->slot_of);
        f->slot_of = slot_of;
        f->id_capacity = id_cap;
    }
    if (bucket != f->bucket) {
        c2d_free(a, f->bucket);
        rebuild(f, bucket, bucket_cap, pick_cell(f, c));
    }
    return C2D_OK;
}

/* ---- freeze and thaw --------------------------------------------------------------------- */

c2d_status c2d_frozen_insert(c2d_frozen *f, const c2d_allocator *a, const c2d_circle_soa *circles,
                             const uint32_t *ids, uint32_t max_id) {
    const size_t n = circles->count;
    if (f->count + n >= (size_t)UINT32_MAX - 1) return C2D_ERROR_TOO_LARGE; /* slot numbers */
    const c2d_status rs = reserve(a, f, circles, n, max_id);
    if (rs != C2D_OK) return rs;
    for (size_t k = 0; k < n; k++) {
        const uint32_t id = ids ? ids[k] : (uint32_t)k;
        uint32_t s = f->slot_of[id];
        if (s != NIL) {
            unplace(f, s);
        } else {
            if (f->free_head != NIL) {
                s = f->free_head;
                f->free_head = f->slots[s].next;
            } else {
                s = (uint32_t)f->used++;
            }
            f->slot_of[id] = s;
            f->count++;
        }
        frozen_slot *p = &f->slots[s];
        p->x = circles->x[k];
        p->y = circles->y[k];
        p->r = circles->radius[k];
        p->id = id;
        p->key = 0;
        place(f, s);
    }
    if (f->words) /* the filter words, in a pass of their own (the last of a repeated id wins) */
        for (size_t k = 0; k < n; k++) {
            const size_t s = f->slot_of[ids ? ids[k] : (uint32_t)k];
            f->words[2 * s] = c2d_filter_word(circles->category, k);
            f->words[2 * s + 1] = c2d_filter_word(circles->mask, k);
        }
    return C2D_OK;
}

void c2d_frozen_remove(c2d_frozen *f, const uint32_t *ids, size_t count) {
    for (size_t k = 0; k < count; k++) {
        const uint32_t id = ids[k];
        if (id >= f->id_capacity || f->slot_of[id] == NIL) continue;
        const uint32_t s = f->slot_of[id];
        unplace(f, s);
        f->slot_of[id] = NIL;
        f->slots[s].id = NIL;
        f->slots[s].home = HOME_DEAD;
        f->slots[s].next = f->free_head;
        f->free_head = s;
        f->count--;
    }
}

size_t c2d_frozen_count(const c2d_frozen *f) {
    return f ? f->count : 0;
}

bool c2d_frozen_get(const c2d_frozen *f, uint32_t id, c2d_circle *out) {
    if (!f || id >= f->id_capacity || f->slot_of[id] == NIL) return false;
    const frozen_slot *p = &f->slots[f->slot_of[id]];
    if (out) {
        out->center.x = p->x;
        out->center.y = p->y;
        out->radius = p->r;
    }
    return true;
}

/* ---- queries ----------------------------------------------------------------------------- */

/* Calls visit(ctx, slot) for every slot that may lie within the box [lo_x, hi_x] x [lo_y, hi_y]
 * (by centre) or is special; `all`: every listed slot. Each slot at most once. */
typedef void (*visit_fn)(void *ctx, const frozen_slot *p);

static void visit_all(const c2d_frozen *f, visit_fn visit, void *ctx) {
    for (size_t s = 0; s < f->used; s++)
        if (f->slots[s].id != NIL && f->slots[s].home != HOME_DEAD) visit(ctx, &f->slots[s]);
}

static void visit_box(const c2d_frozen *f, double lo_x, double hi_x, double lo_y, double hi_y,
                      visit_fn visit, void *ctx) {
    const int64_t x0 = cell_coord(f, lo_x), x1 = cell_coord(f, hi_x);
    const int64_t y0 = cell_coord(f, lo_y), y1 = cell_coord(f, hi_y);
    if ((double)(x1 - x0 + 1) * (double)(y1 - y0 + 1) > SPAN_LIMIT) {
        visit_all(f, visit, ctx);
        return;
    }
    for (int64_t cy = y0; cy <= y1; cy++)
        for (int64_t cx = x0; cx <= x1; cx++) {
            const uint32_t key = cell_key(cx, cy);
            for (uint32_t s = f->bucket[bucket_of(f, cx, cy)]; s != NIL; s = f->slots[s].next) {
                const frozen_slot *p = &f->slots[s];
                if (p->key != key) continue; /* another cell of the bucket */
                if (p->x >= lo_x && p->x <= hi_x && p->y >= lo_y && p->y <= hi_y) visit(ctx, p);
            }
        }
    for (uint32_t s = f->special_head; s != NIL; s = f->slots[s].next)
        visit(ctx, &f->slots[s]);
}

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
    if (p->id == c->id || !radii_overlap(qx * qx + qy * qy, c->r, p->r)) return;
    c->hits[c->count++] = (uint64_t)p->id << 32 | (uint64_t)(p - c->slots);
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
        visit_fn visit = collide_visit;
        if (filtered) {
            fc.c = c;
            fc.filter = filter_of(f, circles, k);
            ctx = &fc;
            visit = collide_visit_filtered;
        }
        if (tame(x) && tame(y) && tame(r)) {
            const double reach = ((double)r + f->r_max) * (1.0 + 1.0 / 512.0) + C2D_ABSOLUTE_SLACK;
            visit_box(f, x - reach, x + reach, y - reach, y + reach, visit, ctx);
        } else {
            visit_all(f, visit, ctx);
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

/* the sweep of one awake ball */
typedef struct sweep_ctx {
    c2d_circle ball;
    c2d_vec2 move;
    uint32_t id;
    c2d_circle_hit best;
} sweep_ctx;

/* The same with the awake ball's filter words (sweep_visit_filtered). */
typedef struct filtered_sweep_ctx {
    sweep_ctx c;
    filter_ctx filter;
} filtered_sweep_ctx;

static void sweep_visit(void *vctx, const frozen_slot *p) {
    sweep_ctx *c = vctx;
    if (p->id == c->id) return;
    const c2d_circle other = {{p->x, p->y}, p->r};
    const c2d_vec2 still = {0.0f, 0.0f};
    c2d_toi toi;
    if (c2d_sweep_circles(c->ball, c->move, other, still, &toi))
        c2d_keep_earliest_ball(&c->best, p->id, &toi);
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
        sweep_ctx c = {{{x, y}, r}, {mx, my}, ids ? ids[k] : (uint32_t)k, c2d_no_ball_hit()};
        if (f && f->count > 0 && x == x && y == y && mx == mx && my == my && r >= 0.0f) {
            filtered_sweep_ctx fc;
            void *ctx = &c;
            visit_fn visit = sweep_visit;
            if (filtered) {
                fc.c = c;
                fc.filter = filter_of(f, circles, k);
                ctx = &fc;
                visit = sweep_visit_filtered;
            }
            if (tame(x) && tame(y) && tame(r) && tame(mx) && tame(my)) {
                /* everything within r + r_max of the path, with the kernels' sweep slack
                 * (sizes 2^-8, positions 2^-16) taken four times over */
                const double ex = (double)x + mx, ey = (double)y + my;
                const double size = fabs((double)mx) + fabs((double)my) + r + f->r_max;
                const double grow = (double)r + f->r_max + 4.0 * C2D_SWEEP_SIZE_SLACK * size +
                                    4.0 * C2D_SWEEP_POSITION_SLACK *
                                        (fabs((double)x) + fabs((double)y) + 2.0 * size) +
                                    C2D_ABSOLUTE_SLACK;
                visit_box(f, (x < ex ? x : ex) - grow, (x > ex ? x : ex) + grow,
                          (y < ey ? y : ey) - grow, (y > ey ? y : ey) + grow, visit, ctx);
            } else {
                visit_all(f, visit, ctx);
            }
            if (filtered) c.best = fc.c.best;
        }
        out[k] = c.best;
    }
}

void c2d_frozen_sweep(const c2d_frozen *f, const c2d_circle_soa *circles, const uint32_t *ids,
                      const float *move_x, const float *move_y, c2d_circle_hit *out) {
    if (f && (f->words || c2d_circle_soa_filtered(circles)))
        sweep_frozen(f, circles, ids, move_x, move_y, out, true);
    else
        sweep_frozen(f, circles, ids, move_x, move_y, out, false);
}
