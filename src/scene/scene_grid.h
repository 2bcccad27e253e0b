/* The uniform grids of the scene's indices (capsule, sweep): a cell of a coordinate, a box's
 * cell span, the cell that owns a pair, and four boxes against one query box at once. */
#ifndef C2D_SCENE_GRID_H
#define C2D_SCENE_GRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <simde/x86/sse2.h>

/* A uniform grid over a rectangle: cell (cx, cy) covers [x0 + cx*size, x0 + (cx+1)*size) x
 * [y0 + cy*size, ...) (up to rounding); coordinates outside are clamped to the border cells.
 * The cell of a coordinate is monotone in it (float subtraction, multiplication by a positive
 * constant and clamping all are), which is all the queries rely on: a point inside a box lies
 * in a cell between its corners' cells, as long as both use c2d_grid_coord. */
typedef struct c2d_grid {
    float x0, y0, inv_size, size;
    uint32_t nx, ny; /* cells per row and per column (>= 1) */
} c2d_grid;

/* Cell column of v (or row): (v - v0) * inv_size clamped to [0, n-1], truncated. Branch-free
 * (min and max); NaN maps to some valid cell. */
static inline uint32_t c2d_grid_coord(float v, float v0, float inv_size, uint32_t n) {
    float t = (v - v0) * inv_size;
    const float last = (float)(n - 1);
    t = t < last ? t : last;
    t = t > 0.0f ? t : 0.0f;
    return (uint32_t)t;
}

/* c2d_grid_coord on four values: the same operations (sub, mul, min, max, truncate), so the
 * same cells. */
static inline simde__m128i c2d_grid_coord4(simde__m128 v, float v0, float inv_size, uint32_t n) {
    simde__m128 t =
        simde_mm_mul_ps(simde_mm_sub_ps(v, simde_mm_set1_ps(v0)), simde_mm_set1_ps(inv_size));
    t = simde_mm_min_ps(t, simde_mm_set1_ps((float)(n - 1)));
    t = simde_mm_max_ps(t, simde_mm_setzero_ps());
    return simde_mm_cvttps_epi32(t);
}

/* Cell span of a box, and its cell count. */
typedef struct c2d_cell_span {
    uint32_t x0, x1, y0, y1;
} c2d_cell_span;
static inline c2d_cell_span c2d_grid_span(const c2d_grid *g, double lo_x, double hi_x, double lo_y,
                                          double hi_y) {
    return (c2d_cell_span){c2d_grid_coord(lo_x, g->x0, g->inv_size, g->nx),
                           c2d_grid_coord(hi_x, g->x0, g->inv_size, g->nx),
                           c2d_grid_coord(lo_y, g->y0, g->inv_size, g->ny),
                           c2d_grid_coord(hi_y, g->y0, g->inv_size, g->ny)};
}
static inline size_t c2d_span_cells(const c2d_cell_span *c) {
    return (size_t)(c->x1 - c->x0 + 1) * (c->y1 - c->y0 + 1);
}
/* Is cell (cx, cy) the one cell where a pair of boxes is reported: the cell of the low corner
 * of their overlap (a_lo = one box's low corner, b_lo = the other's), which both boxes cover,
 * so a pair seen from several shared cells is kept exactly once. */
static inline bool c2d_grid_owns(const c2d_grid *g, uint32_t cx, uint32_t cy, float a_lo_x,
                                 float a_lo_y, float b_lo_x, float b_lo_y) {
    const float ox = a_lo_x > b_lo_x ? a_lo_x : b_lo_x;
    const float oy = a_lo_y > b_lo_y ? a_lo_y : b_lo_y;
    return c2d_grid_coord(ox, g->x0, g->inv_size, g->nx) == cx &&
           c2d_grid_coord(oy, g->y0, g->inv_size, g->ny) == cy;
}
/* Bit j set when box j of four (lo_x[j], hi_x[j], lo_y[j], hi_y[j]) meets the box held in one
 * vector as (lo_x, hi_x, lo_y, hi_y): four boxes at once (SIMDe: SSE on x86, NEON on AArch64),
 * the query box's bounds splat by shuffles. A NaN compares false, as in scalar code. */
static inline unsigned c2d_slots_mask(const float *lo_x, const float *hi_x, const float *lo_y,
                                      const float *hi_y, simde__m128 box) {
    const simde__m128 bx0 = simde_mm_shuffle_ps(box, box, SIMDE_MM_SHUFFLE(0, 0, 0, 0));
    const simde__m128 bx1 = simde_mm_shuffle_ps(box, box, SIMDE_MM_SHUFFLE(1, 1, 1, 1));
    const simde__m128 by0 = simde_mm_shuffle_ps(box, box, SIMDE_MM_SHUFFLE(2, 2, 2, 2));
    const simde__m128 by1 = simde_mm_shuffle_ps(box, box, SIMDE_MM_SHUFFLE(3, 3, 3, 3));
    const simde__m128 x = simde_mm_and_ps(simde_mm_cmple_ps(bx0, simde_mm_loadu_ps(hi_x)),
                                          simde_mm_cmpge_ps(bx1, simde_mm_loadu_ps(lo_x)));
    const simde__m128 y = simde_mm_and_ps(simde_mm_cmple_ps(by0, simde_mm_loadu_ps(hi_y)),
                                          simde_mm_cmpge_ps(by1, simde_mm_loadu_ps(lo_y)));
    return (unsigned)simde_mm_movemask_ps(simde_mm_and_ps(x, y));
}

/* A query box spanning more cells than this visits every capsule instead. */
#define C2D_SCENE_SPAN_LIMIT 64

#endif
