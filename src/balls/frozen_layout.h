/* The layout of the frozen index, shared by its maintenance (frozen_index.c) and its queries
 * (frozen_query.c).
 *
 * Slots hold each frozen ball's copy and id (stable while it is held: the id map points at
 * them). The grid is hierarchical: level L has cells of side cell * 2^L and lists the balls
 * whose radius is at most that side but not the side below. Each level is a torus of nx by ny
 * buckets (powers of two, at least as many as the level's balls), cell (cx, cy) in bucket
 * (cx mod nx, cy mod ny), so a row of a query's cells is a run of consecutive buckets. A
 * bucket's balls sit in blocks of four lanes (x, y, r, id as four small arrays: a query tests a
 * block's lanes at once; an unused lane has a NaN centre, which fails every test): the first
 * block is the bucket's own, further ones (rare: more than four balls in a cell) are chained
 * from it and kept packed (a removal moves the bucket's last ball into the hole). Two bitmaps
 * say which buckets hold a ball and which hold more than four, so a query skips an empty row
 * of cells with one load and walks a chain only where there is one. */
#ifndef C2D_BALLS_FROZEN_LAYOUT_H
#define C2D_BALLS_FROZEN_LAYOUT_H

#include <math.h>
#include <string.h>

#include "balls/frozen_ids.h"
#include "balls/frozen_index.h"
#include "batch/cull.h"

#define FROZEN_NIL UINT32_MAX
#define FROZEN_HOME_SPECIAL (UINT32_MAX - 1) /* on the special list */
#define FROZEN_HOME_DEAD UINT32_MAX          /* listed nowhere */

/* A query visits every listed slot instead of its cells when they outnumber both this and the
 * balls held. */
#define FROZEN_SPAN_LIMIT 256

#define FROZEN_LEVELS 24
#define FROZEN_LANES 4

typedef struct frozen_block {
    float x[FROZEN_LANES], y[FROZEN_LANES], r[FROZEN_LANES];
    uint32_t id[FROZEN_LANES];
} frozen_block;

/* One level's torus of buckets and its blocks. */
typedef struct frozen_level {
    frozen_block *block;     /* the buckets' own blocks [0, buckets), then chained ones */
    uint32_t *lane_slot;     /* FROZEN_LANES per block: the slot in each used lane */
    uint32_t *next;          /* per block: the next block of its bucket, or FROZEN_NIL */
    uint32_t *fill;          /* per bucket: the balls it holds */
    uint64_t *occupied;      /* bit per bucket: fill > 0 (one spare word past the end) */
    uint64_t *chained;       /* bit per bucket: fill > FROZEN_LANES (one spare word too) */
    uint32_t *near;          /* per tile of 4 x 4 buckets: the balls of the 3 x 3 tiles about it */
    size_t buckets;          /* nx * ny, a power of two */
    size_t capacity;         /* blocks allocated: buckets + buckets / 4 + 1 (enough: see place) */
    size_t used;             /* blocks ever used (the buckets' own, then chained ones) */
    uint32_t free_block;     /* chained blocks freed, through next */
    unsigned shift;          /* log2(nx) */
    uint64_t mask_x, mask_y; /* nx - 1, ny - 1 */
    double inv_cell;         /* 1 / (cell * 2^L) */
    bool coarse;             /* inv_cell <= 2^19: cell coordinates need no clamp */
    size_t count;            /* balls listed */
    float r_max;             /* the largest radius listed since the level was laid out */
} frozen_level;

typedef struct frozen_slot {
    float x, y, r;
    uint32_t id;    /* FROZEN_NIL when the slot is free */
    uint32_t home;  /* its level, FROZEN_HOME_SPECIAL or FROZEN_HOME_DEAD */
    uint32_t where; /* grid: block * FROZEN_LANES + lane; special: its place in the list;
                     * free: the next free slot */
} frozen_slot;

/* A collide query's candidate: a frozen ball's values, as a block lane transposed. */
typedef struct frozen_hit {
    float x, y, r;
    uint32_t id;
} frozen_hit;

/* The contacts of one query call go to the contact kernel this many pairs at a time. */
#define FROZEN_CONTACT_CHUNK 64

struct c2d_frozen {
    frozen_slot *slots;
    size_t used, capacity; /* slots ever used (high water), allocated */
    uint32_t free_head;
    size_t count;       /* frozen balls */
    frozen_ids slot_of; /* id -> slot (balls/frozen_ids.h) */
    frozen_level level[FROZEN_LEVELS];
    uint32_t levels;    /* bit L: level L lists a ball */
    double cell;        /* level 0's cell side (a power of two: cell coordinates exact), 0 before
                         * the first freeze */
    size_t changes;     /* balls frozen and thawed since the cell was chosen */
    size_t rebuilt_for; /* balls the cell was chosen for */
    uint32_t *special;  /* slots tested against every awake ball (capacity entries) */
    size_t special_count;
    frozen_hit *hits; /* collide: one awake ball's candidates (capacity + FROZEN_LANES) */
    uint32_t *words;  /* per slot its category and mask (2 s, 2 s + 1); NULL until a freeze
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

/* The bucket of cell (cx, cy) of a level. */
static inline uint32_t frozen_bucket_of(const frozen_level *lv, int64_t cx, int64_t cy) {
    return (uint32_t)(((uint64_t)cx & lv->mask_x) | (((uint64_t)cy & lv->mask_y) << lv->shift));
}

/* The bucket of a level where a ball centred at (x, y) is listed. */
static inline uint32_t frozen_bucket_at(const frozen_level *lv, float x, float y) {
    return frozen_bucket_of(lv, frozen_cell_coord(lv->inv_cell, x),
                            frozen_cell_coord(lv->inv_cell, y));
}

/* Tiles of 4 x 4 buckets: near[t] counts the balls listed in the 3 x 3 tiles about tile t (on
 * the torus), so a query whose window lies within FROZEN_NEAR_REACH cells of its centre's cell
 * learns from one read that the level holds nothing near it (a stream's crater in a sleeping
 * pile: most awake balls). */
#define FROZEN_TILE_LOG 2
#define FROZEN_NEAR_REACH                                                                          \
    2.0 /* cells: the window then stays within the tiles about the centre's                        \
         */

static inline size_t frozen_tile_of(const frozen_level *lv, uint64_t bx, uint64_t by) {
    return (size_t)((by >> FROZEN_TILE_LOG) << (lv->shift - FROZEN_TILE_LOG) |
                    bx >> FROZEN_TILE_LOG);
}

/* Whether level lv holds no ball near a query of the ball centred at (x, y) reaching `reach`
 * on every side (tame values): true only when the reach is at most FROZEN_NEAR_REACH cells and
 * the centre's tile counts no ball about it. Then the window's cells, [floor((x - reach) / side),
 * floor((x + reach) / side)] and likewise in y, lie within 3 cells of the centre's cell (the
 * rounding of a coordinate below 2^40 cells is far below a cell), so within the 3 x 3 tiles
 * about the centre's tile. */
static inline bool frozen_near_none(const frozen_level *lv, double x, double y, double reach) {
    const double u = x * lv->inv_cell, v = y * lv->inv_cell;
    if (!(reach * lv->inv_cell <= FROZEN_NEAR_REACH) || !(fabs(u) <= 0x1p40) ||
        !(fabs(v) <= 0x1p40))
        return false;
    int64_t cx = (int64_t)u, cy = (int64_t)v;
    cx -= (double)cx > u;
    cy -= (double)cy > v;
    return lv->near[frozen_tile_of(lv, (uint64_t)cx & lv->mask_x, (uint64_t)cy & lv->mask_y)] == 0;
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

/* Bits [p, p + w) of a bitmap (w <= 57) as the low bits of the answer (the bitmaps have a
 * spare word past their end): on a little-endian machine one unaligned 8-byte read, else the
 * word of bit p and the next one. */
static inline uint64_t frozen_bits_at(const uint64_t *map, size_t p, unsigned w) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t v;
    memcpy(&v, (const unsigned char *)map + p / 8, sizeof v);
    v >>= p % 8;
#else
    const unsigned s = (unsigned)(p % 64);
    const uint64_t v = map[p / 64] >> s | (map[p / 64 + 1] << 1) << (63 - s);
#endif
    return v & (((uint64_t)1 << w) - 1);
}

/* A query window of one level: its cells [cx0, cx0 + w) x [cy0, cy0 + h), w <= nx, h <= ny
 * (a wider window covers every column or row of the torus: each bucket once). */
typedef struct frozen_window {
    int64_t cx0, cy0;
    uint64_t w, h;
} frozen_window;

/* floor(v * inv) for |v| < 2^43 and inv <= 2^19 (frozen_level.coarse): far inside int64, so
 * no clamp. */
static inline int64_t frozen_coarse_coord(double inv, double v) {
    const double u = v * inv;
    const int64_t i = (int64_t)u;
    return i - ((double)i > u);
}

/* The window of level lv for the box [x0, x1] x [y0, y1] (tame bounds); its cells. */
static inline double frozen_window_of(const frozen_level *lv, double x0, double x1, double y0,
                                      double y1, frozen_window *win) {
    int64_t cx1, cy1;
    if (lv->coarse) { /* the bounds are within 2^43 (tame values and reaches) */
        win->cx0 = frozen_coarse_coord(lv->inv_cell, x0);
        win->cy0 = frozen_coarse_coord(lv->inv_cell, y0);
        cx1 = frozen_coarse_coord(lv->inv_cell, x1);
        cy1 = frozen_coarse_coord(lv->inv_cell, y1);
    } else {
        win->cx0 = frozen_cell_coord(lv->inv_cell, x0);
        win->cy0 = frozen_cell_coord(lv->inv_cell, y0);
        cx1 = frozen_cell_coord(lv->inv_cell, x1);
        cy1 = frozen_cell_coord(lv->inv_cell, y1);
    }
    const uint64_t w = (uint64_t)(cx1 - win->cx0) + 1, h = (uint64_t)(cy1 - win->cy0) + 1;
    win->w = w <= lv->mask_x ? w : lv->mask_x + 1;
    win->h = h <= lv->mask_y ? h : lv->mask_y + 1;
    return (double)win->w * (double)win->h;
}

/* Calls block_fn(ctx, lv, b, lanes) for every block of the buckets of window `win` that hold a
 * ball, lanes = 0xf: each row of the window is one or two runs of consecutive buckets (two
 * where it wraps around the torus); a run whose buckets are all empty costs one bitmap read.
 * Runs of up to 3 buckets in rows 0-2 of a window (a query's usual shape: about the cell
 * side) go without a loop: 3 blocks from the run's first, those past its end with lanes = 0
 * (they exist: a level has spare blocks past its buckets), and 3 rows, those past the
 * window's end as runs of no bucket; so the branches do not follow the window's shape.
 * Inline, so the caller's block_fn is called directly. */
#if defined(__GNUC__) || defined(__clang__)
#define FROZEN_WALK static inline __attribute__((always_inline))
#else
#define FROZEN_WALK static inline
#endif
typedef void (*frozen_block_fn)(void *ctx, const frozen_level *lv, uint32_t b, unsigned lanes);

FROZEN_WALK void frozen_walk_chains(const frozen_level *lv, size_t p, uint64_t chained,
                                    frozen_block_fn block_fn, void *ctx) {
    for (uint64_t m = chained; m; m &= m - 1) {
        const uint32_t b = (uint32_t)(p + (size_t)__builtin_ctzll(m));
        for (uint32_t k = lv->next[b]; k != FROZEN_NIL; k = lv->next[k])
            block_fn(ctx, lv, k, 0xfu);
    }
}

FROZEN_WALK void frozen_walk_run(const frozen_level *lv, size_t p, uint64_t w,
                                 frozen_block_fn block_fn, void *ctx) {
    if (w <= 3) {
        const uint64_t in = ((uint64_t)1 << w) - 1;
        if (!(frozen_bits_at(lv->occupied, p, 3) & in)) return;
        block_fn(ctx, lv, (uint32_t)p, 0xfu);
        block_fn(ctx, lv, (uint32_t)p + 1, 0xfu & (0u - (unsigned)(w > 1)));
        block_fn(ctx, lv, (uint32_t)p + 2, 0xfu & (0u - (unsigned)(w > 2)));
        frozen_walk_chains(lv, p, frozen_bits_at(lv->chained, p, 3) & in, block_fn, ctx);
        return;
    }
    if (w <= 57) {
        if (!frozen_bits_at(lv->occupied, p, (unsigned)w)) return;
        for (uint64_t i = 0; i < w; i++)
            block_fn(ctx, lv, (uint32_t)(p + i), 0xfu);
        frozen_walk_chains(lv, p, frozen_bits_at(lv->chained, p, (unsigned)w), block_fn, ctx);
        return;
    }
    for (uint64_t i = 0; i < w; i++)
        for (uint32_t k = (uint32_t)(p + i); k != FROZEN_NIL && lv->fill[p + i]; k = lv->next[k])
            block_fn(ctx, lv, k, 0xfu);
}

FROZEN_WALK void frozen_walk_window(const frozen_level *lv, const frozen_window *win,
                                    frozen_block_fn block_fn, void *ctx) {
    const uint64_t nx = lv->mask_x + 1;
    const uint64_t c0 = (uint64_t)win->cx0 & lv->mask_x;
    const uint64_t first = nx - c0 < win->w ? nx - c0 : win->w; /* before the wrap */
    const uint64_t rows = win->h > 3 ? win->h : 3;              /* rows past h: no bucket */
    for (uint64_t i = 0; i < rows; i++) {
        const size_t row = (size_t)(((uint64_t)win->cy0 + i) & lv->mask_y) << lv->shift;
        frozen_walk_run(lv, row + (size_t)c0, i < win->h ? first : 0, block_fn, ctx);
        if (first < win->w && i < win->h) frozen_walk_run(lv, row, win->w - first, block_fn, ctx);
    }
}

#endif
