/* The layout of the fine index (built by scene_fine.c, read by the collide scan). */
#ifndef C2D_SCENE_FINE_INDEX_H
#define C2D_SCENE_FINE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fine index (scene_fine.c): for circles of radius at most rho, a grid of small cells
 * looked up by the circle's centre alone. Cell (cx, cy) lists, ascending, every capsule of kind
 * GRID (radius >= 0) that a circle of radius <= rho centred anywhere in the cell might touch,
 * so a small circle reads exactly one cell. Cells are found through one bit each: bits[w]
 * holds those of cells 64w .. 64w+63 and base[w] the number of listed cells before them (apart,
 * so the bits a frame reads stay compact); listed cell j (the rank of its bit) has slot[j]: its
 * one capsule, or C2D_FINE_MANY | e with multi[e] the count and multi[e + 1 ..] the capsules. */
#define C2D_FINE_MANY 0x80000000u

/* Moved capsules the fine index tracks before it is rebuilt: each is tested against every
 * circle of a frame instead (about 0.1 ns a circle), a rebuild costs far more. */
#define C2D_FINE_DIRTY_MAX 32

/* Long capsules (kind EVERYWHERE but tame: a floor as long as the world) the fine index lists;
 * with more, none is listed and the range calls test them against every circle. */
#define C2D_FINE_LONG_MAX 16

typedef struct c2d_fine_index {
    float x0, y0, inv_size; /* cell of a centre: as c2d_grid_coord (sub, mul, min, max, trunc) */
    float lo_x, hi_x, lo_y, hi_y; /* the region: centres outside it touch no listed capsule */
    float rho;                    /* the radius bound of the circles that use it */
    uint32_t nx, ny;              /* cells per row and column; nx * ny < 2^24 */
    uint32_t empty;               /* a cell index whose bit is always clear (outside the grid) */
    uint64_t *bits;               /* (nx * ny) / 64 + 2 words, then base */
    uint32_t *base;
    uint32_t *slot, *multi;         /* see above */
    uint32_t *start, *list, *cells; /* while building: offsets, capsules, (cell, capsule) */
    size_t word_capacity, slot_capacity, multi_capacity, start_capacity, list_capacity,
        cells_capacity;
    unsigned char *dirty; /* per capsule: moved since the build (its listings are stale) */
    size_t dirty_capacity, dirty_count;
    uint32_t dirty_list[C2D_FINE_DIRTY_MAX]; /* the moved capsules, dirty_count of them */
    uint32_t longs[C2D_FINE_LONG_MAX];       /* the long capsules listed (at the build) */
    size_t long_count;
    uint32_t age;        /* frames begun since the build */
    uint32_t pause;      /* frames to go on the coarse index (moves undid builds too soon) */
    uint32_t pause_next; /* the next pause (doubled while it recurs) */
    uint64_t generation; /* the scene generation it is current for */
    bool ready;          /* built, and usable while generation is the scene's */
    bool tried;          /* a build was attempted for `generation` (failed or declined) */
    bool regrow;         /* the last frame had many circles above rho: choose it again */
    bool declined;       /* the big circles' index could not be built for these capsules */
} c2d_fine_index;

/* Set bits of a 64-bit word (a bit trick where no instruction is sure to exist). */
static inline uint32_t c2d_popcount64(uint64_t x) {
#if defined(__POPCNT__) || defined(__aarch64__)
    return (uint32_t)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* The listed-cell number of cell c, whose bit is set. */
static inline uint32_t c2d_fine_rank(const c2d_fine_index *f, uint32_t c) {
    return f->base[c >> 6] + c2d_popcount64(f->bits[c >> 6] & ((UINT64_C(2) << (c & 63)) - 1)) - 1;
}

#endif
