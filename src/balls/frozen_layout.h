/* The layout of the frozen index, shared by its maintenance (frozen_index.c) and its queries
 * (frozen_query.c): the slots, the hashed grid, and the visits of a query box (inline, so a
 * query's visitor is called directly). */
#ifndef C2D_BALLS_FROZEN_LAYOUT_H
#define C2D_BALLS_FROZEN_LAYOUT_H

#include <math.h>

#include "balls/frozen_ids.h"
#include "balls/frozen_index.h"
#include "batch/cull.h"

#define FROZEN_NIL UINT32_MAX
#define FROZEN_HOME_SPECIAL (UINT32_MAX - 1) /* on the special list */
#define FROZEN_HOME_DEAD UINT32_MAX          /* listed nowhere */

/* A query visits every listed slot instead of its cells when they outnumber both this and the
 * slots; a query box side stays below FROZEN_KEY_SIDE cells (the cell key tells them apart). */
#define FROZEN_SPAN_LIMIT 256
#define FROZEN_KEY_SIDE 4096

/* The grid's levels: level L has cells of side cell * 2^L and lists the balls whose radius is
 * at most that side but not the side below (level 0: every radius up to cell). */
#define FROZEN_LEVELS 24

typedef struct frozen_slot {
    float x, y, r;
    uint32_t id;         /* FROZEN_NIL when the slot is free */
    uint32_t next, prev; /* the cell's (or special) list; next: free list when free */
    uint32_t home;       /* bucket, HOME_SPECIAL or HOME_DEAD */
    uint32_t key;        /* frozen_cell_key of its cell (grid slots) */
} frozen_slot;

struct c2d_frozen {
    frozen_slot *slots;
    size_t used, capacity; /* slots ever used (high water), allocated */
    uint32_t free_head;
    size_t count;            /* frozen balls */
    frozen_ids slot_of;      /* id -> slot (balls/frozen_ids.h) */
    uint32_t *bucket;        /* head slot of each bucket, FROZEN_NIL */
    size_t buckets;          /* a power of two, or 0 before the first freeze */
    unsigned shift;          /* log2(nx): buckets are nx by ny */
    uint64_t mask_x, mask_y; /* nx - 1, ny - 1 */
    double cell;             /* level 0's cell side (a power of two: cell coordinates exact) */
    double inv_cell[FROZEN_LEVELS]; /* 1 / (cell * 2^L) */
    float r_max[FROZEN_LEVELS];     /* each level's largest radius (stays until a rebuild) */
    size_t level_count[FROZEN_LEVELS];
    uint32_t levels;    /* bit L: level L lists a ball */
    size_t changes;     /* balls frozen and thawed since the last rebuild */
    size_t rebuilt_for; /* balls the last rebuild chose the cell for */
    uint32_t special_head;
    uint64_t *hits;  /* collide: one awake ball's frozen partners (capacity entries) */
    uint32_t *words; /* per slot its category and mask (2 s, 2 s + 1); NULL until a freeze
                      * brings a filter, and then kept (capacity pairs) */
};

static inline bool frozen_tame(float v) {
    return fabsf(v) <= C2D_TAME_LIMIT;
}

/* ---- the grid ---------------------------------------------------------------------------- */

/* floor(v / side) as an integer, inv = 1 / side (tame v: |v| <= 2^40, clamped far inside
 * int64). */
static inline int64_t frozen_cell_coord(double inv, double v) {
    double u = v * inv;
    u = u < -4.0e18 ? -4.0e18 : (u > 4.0e18 ? 4.0e18 : u);
    const int64_t i = (int64_t)u; /* toward zero: one less below zero when u had a fraction */
    return i - ((double)i > u);
}

/* The bucket of cell (cx, cy) of level L: each level's cells tile a torus of nx by ny buckets
 * (shifted by the level, so that the levels' busy cells spread), so neighbouring cells are
 * neighbouring buckets (a row of a query is contiguous memory); cells a multiple of nx (or ny)
 * apart share a bucket, and a query tells them apart by the slot's cell key. */
static inline uint32_t frozen_bucket_of(const c2d_frozen *f, int64_t cx, int64_t cy, unsigned L) {
    const uint64_t ox = (uint64_t)L * 0x9E3779B9u, oy = (uint64_t)L * 0x7F4A7C15u;
    return (uint32_t)((((uint64_t)cx + ox) & f->mask_x) |
                      ((((uint64_t)cy + oy) & f->mask_y) << f->shift));
}

/* A slot's cell and level, told apart from every other cell of a query window (fewer than
 * FROZEN_KEY_SIDE cells a side). */
static inline uint32_t frozen_cell_key(int64_t cx, int64_t cy, unsigned L) {
    return (uint32_t)((uint64_t)cx & 0xfffu) | (uint32_t)(((uint64_t)cy & 0xfffu) << 12) |
           (uint32_t)L << 24;
}

/* The lowest level of a nonzero level mask. */
static inline unsigned frozen_lowest_level(uint32_t levels) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctz(levels);
#else
    unsigned L = 0;
    while (!(levels >> L & 1u))
        L++;
    return L;
#endif
}

/* Calls visit(ctx, slot) for every slot that may lie within the query box (by centre) or is
 * special; `all`: every listed slot. Each slot at most once. */
typedef void (*frozen_visit_fn)(void *ctx, const frozen_slot *p);

static inline void c2d_frozen_visit_all(const c2d_frozen *f, frozen_visit_fn visit, void *ctx) {
    for (size_t s = 0; s < f->used; s++)
        if (f->slots[s].id != FROZEN_NIL && f->slots[s].home != FROZEN_HOME_DEAD)
            visit(ctx, &f->slots[s]);
}

/* The query box of level L: [lo_x - grow[L], hi_x + grow[L]] x [lo_y - grow[L], ...] (grow:
 * the awake ball's reach plus the level's largest radius; set for the levels of f->levels). */
/* c2d_frozen_visit_box's walk; `one_test` (a constant at each call): the cell and box tests of
 * a slot as one branch (for a cheap visit: about half the slots pass, in no pattern a
 * predictor learns, and five branches cost more mispredictions than one). */
static inline void frozen_visit_box_with(const c2d_frozen *f, double lo_x, double hi_x, double lo_y,
                                         double hi_y, const double *grow, frozen_visit_fn visit,
                                         void *ctx, bool one_test) {
    int64_t span[FROZEN_LEVELS][4];
    double cells = 0.0;
    bool wide = false;
    for (uint32_t rest = f->levels; rest; rest &= rest - 1) {
        const unsigned L = frozen_lowest_level(rest);
        const double inv = f->inv_cell[L], g = grow[L];
        int64_t *b = span[L];
        b[0] = frozen_cell_coord(inv, lo_x - g);
        b[1] = frozen_cell_coord(inv, hi_x + g);
        b[2] = frozen_cell_coord(inv, lo_y - g);
        b[3] = frozen_cell_coord(inv, hi_y + g);
        const double w = (double)(b[1] - b[0] + 1), h = (double)(b[3] - b[2] + 1);
        wide = wide || w >= FROZEN_KEY_SIDE || h >= FROZEN_KEY_SIDE;
        cells += w * h;
    }
    if (wide || (cells > FROZEN_SPAN_LIMIT && cells > (double)f->used)) {
        c2d_frozen_visit_all(f, visit, ctx);
        return;
    }
    for (uint32_t rest = f->levels; rest; rest &= rest - 1) {
        const unsigned L = frozen_lowest_level(rest);
        const double g = grow[L];
        const double bx0 = lo_x - g, bx1 = hi_x + g, by0 = lo_y - g, by1 = hi_y + g;
        const int64_t *b = span[L];
        for (int64_t cy = b[2]; cy <= b[3]; cy++)
            for (int64_t cx = b[0]; cx <= b[1]; cx++) {
                const uint32_t key = frozen_cell_key(cx, cy, L);
                for (uint32_t s = f->bucket[frozen_bucket_of(f, cx, cy, L)]; s != FROZEN_NIL;
                     s = f->slots[s].next) {
                    const frozen_slot *p = &f->slots[s];
                    if (one_test) {
                        if ((p->key == key) & (p->x >= bx0) & (p->x <= bx1) & (p->y >= by0) &
                            (p->y <= by1))
                            visit(ctx, p);
                        continue;
                    }
                    if (p->key != key) continue; /* another cell (or level) of the bucket */
                    if (p->x >= bx0 && p->x <= bx1 && p->y >= by0 && p->y <= by1) visit(ctx, p);
                }
            }
    }
    for (uint32_t s = f->special_head; s != FROZEN_NIL; s = f->slots[s].next)
        visit(ctx, &f->slots[s]);
}

static inline void c2d_frozen_visit_box(const c2d_frozen *f, double lo_x, double hi_x, double lo_y,
                                        double hi_y, const double *grow, frozen_visit_fn visit,
                                        void *ctx) {
    frozen_visit_box_with(f, lo_x, hi_x, lo_y, hi_y, grow, visit, ctx, false);
}

/* c2d_frozen_visit_box for a visit without branches (one_test above). */
static inline void c2d_frozen_visit_box_one_test(const c2d_frozen *f, double lo_x, double hi_x,
                                                 double lo_y, double hi_y, const double *grow,
                                                 frozen_visit_fn visit, void *ctx) {
    frozen_visit_box_with(f, lo_x, hi_x, lo_y, hi_y, grow, visit, ctx, true);
}

#endif
