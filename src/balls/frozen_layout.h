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

/* A query box spanning more cells than this scans every slot instead. */
#define FROZEN_SPAN_LIMIT 256

typedef struct frozen_slot {
    float x, y, r;
    uint32_t id;         /* FROZEN_NIL when the slot is free */
    uint32_t next, prev; /* the cell's (or special) list; next: free list when free */
    uint32_t home;       /* bucket, HOME_SPECIAL or HOME_DEAD */
    uint32_t key;        /* cell_key of its cell (grid slots) */
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
    double cell, inv_cell;   /* grid cell side */
    float r_max;             /* the largest radius of a grid slot (stays until a rebuild) */
    uint32_t special_head;
    uint64_t *hits;  /* collide: one awake ball's frozen partners (capacity entries) */
    uint32_t *words; /* per slot its category and mask (2 s, 2 s + 1); NULL until a freeze
                      * brings a filter, and then kept (capacity pairs) */
};

static inline bool frozen_tame(float v) {
    return fabsf(v) <= C2D_TAME_LIMIT;
}

/* ---- the grid ---------------------------------------------------------------------------- */

/* floor(v / cell) as an integer (tame v: |v| <= 2^40, clamped far inside int64). */
static inline int64_t frozen_cell_coord(const c2d_frozen *f, double v) {
    double u = v * f->inv_cell;
    u = u < -4.0e18 ? -4.0e18 : (u > 4.0e18 ? 4.0e18 : u);
    const int64_t i = (int64_t)u; /* toward zero: one less below zero when u had a fraction */
    return i - ((double)i > u);
}

/* The bucket of cell (cx, cy): the cells tile a torus of nx by ny buckets, so neighbouring
 * cells are neighbouring buckets (a row of a query is contiguous memory); cells a multiple of
 * nx (or ny) apart share a bucket, and a query tells them apart by the slot's cell key. */
static inline uint32_t frozen_bucket_of(const c2d_frozen *f, int64_t cx, int64_t cy) {
    return (uint32_t)(((uint64_t)cx & f->mask_x) | (((uint64_t)cy & f->mask_y) << f->shift));
}

/* A slot's cell, told apart from every other cell of a query window (< 2^16 cells a side). */
static inline uint32_t frozen_cell_key(int64_t cx, int64_t cy) {
    return (uint32_t)((uint64_t)cx & 0xffffu) | (uint32_t)(((uint64_t)cy & 0xffffu) << 16);
}

/* Calls visit(ctx, slot) for every slot that may lie within the box [lo_x, hi_x] x [lo_y, hi_y]
 * (by centre) or is special; `all`: every listed slot. Each slot at most once. */
typedef void (*frozen_visit_fn)(void *ctx, const frozen_slot *p);

static inline void c2d_frozen_visit_all(const c2d_frozen *f, frozen_visit_fn visit, void *ctx) {
    for (size_t s = 0; s < f->used; s++)
        if (f->slots[s].id != FROZEN_NIL && f->slots[s].home != FROZEN_HOME_DEAD)
            visit(ctx, &f->slots[s]);
}

static inline void c2d_frozen_visit_box(const c2d_frozen *f, double lo_x, double hi_x, double lo_y,
                                        double hi_y, frozen_visit_fn visit, void *ctx) {
    const int64_t x0 = frozen_cell_coord(f, lo_x), x1 = frozen_cell_coord(f, hi_x);
    const int64_t y0 = frozen_cell_coord(f, lo_y), y1 = frozen_cell_coord(f, hi_y);
    if ((double)(x1 - x0 + 1) * (double)(y1 - y0 + 1) > FROZEN_SPAN_LIMIT) {
        c2d_frozen_visit_all(f, visit, ctx);
        return;
    }
    for (int64_t cy = y0; cy <= y1; cy++)
        for (int64_t cx = x0; cx <= x1; cx++) {
            const uint32_t key = frozen_cell_key(cx, cy);
            for (uint32_t s = f->bucket[frozen_bucket_of(f, cx, cy)]; s != FROZEN_NIL;
                 s = f->slots[s].next) {
                const frozen_slot *p = &f->slots[s];
                if (p->key != key) continue; /* another cell of the bucket */
                if (p->x >= lo_x && p->x <= hi_x && p->y >= lo_y && p->y <= hi_y) visit(ctx, p);
            }
        }
    for (uint32_t s = f->special_head; s != FROZEN_NIL; s = f->slots[s].next)
        visit(ctx, &f->slots[s]);
}

#endif
