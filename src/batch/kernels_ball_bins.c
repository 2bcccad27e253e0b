/* The ball grid's binning (kernels ball_classify, ball_bin, ball_sweep_classify and
 * ball_sweep_bin; src/balls/ball_grid.c calls them), compiled once per backend with the flags
 * and macros of kernels.c. Each pass computes, lanes at a time, what the per-ball functions of
 * batch/kernels_balls.h and core/ball_bin_formula.h give one ball, in the same operations, so
 * the same bytes on every backend. */
#include <math.h>
#include <string.h>

#include "batch/lane_simd.h"
#include "batch/cull.h"
#include "batch/kernels_balls.h"
#include "batch/dlane_simd.h"
#include "batch/ball_coord_lanes.h"
#include "core/ball_bin_formula.h"

enum { W = C2D_LANES };

/* ---- the ball grid's binning for contacts ------------------------------------------------ */

/* Lanes to and from scalars: the W uint32_t bits of a vector, and the W floats. */
static inline void store_u32(uint32_t *p, lane_t v) {
    float buf[W];
    lane_store(buf, v);
    memcpy(p, buf, sizeof buf);
}

/* The box of c2d_ball_box_add from per-lane bounds and largest values (a lane with lo_x > hi_x
 * saw no grid ball): min and max are exact, so any order gives the same values (up to the sign
 * of a zero, which no cell depends on). */
static inline void box_from_lanes(lane_t lo_x, lane_t hi_x, lane_t lo_y, lane_t hi_y, lane_t top,
                                  float box[5]) {
    float v[5][W];
    lane_store(v[0], lo_x);
    lane_store(v[1], hi_x);
    lane_store(v[2], lo_y);
    lane_store(v[3], hi_y);
    lane_store(v[4], top);
    box[0] = box[2] = INFINITY;
    box[1] = box[3] = -INFINITY;
    box[4] = 0.0f;
    for (size_t j = 0; j < W; j++)
        if (v[0][j] <= v[1][j]) {
            c2d_ball_box_add(box, v[0][j], v[2][j], v[4][j]);
            c2d_ball_box_add(box, v[1][j], v[3][j], v[4][j]);
        }
}

/* c2d_ball_kind and c2d_ball_box_add, W balls a step: the kinds as selects of the three bit
 * patterns, the box as per-lane minima and maxima over the grid lanes (exact, so reduced in any
 * order at the end), the last balls one at a time. */
void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_classify)(const c2d_circle_soa *c, uint32_t *cell_of,
                                                       float box[5]) {
    const size_t n = c->count;
    const lane_t inf = lane_splat(INFINITY), ninf = lane_splat(-INFINITY), zero = lane_splat(0.0f);
    const lane_t limit = lane_splat(C2D_TAME_LIMIT);
    const lane_t grid_kind = lane_splat_u32(C2D_BALL_GRID);
    const lane_t special_kind = lane_splat_u32(C2D_BALL_SPECIAL);
    const lane_t dead_kind = lane_splat_u32(C2D_BALL_DEAD);
    lane_t lo_x = inf, hi_x = ninf, lo_y = inf, hi_y = ninf, r_max = zero;
    size_t i = 0;
    for (; i + W <= n; i += W) {
        const lane_t x = lane_load(c->x + i), y = lane_load(c->y + i), r = lane_load(c->radius + i);
        const mask_t live = mask_and(mask_and(lane_le(x, x), lane_le(y, y)), lane_ge(r, zero));
        const mask_t tame =
            mask_and(mask_and(lane_le(lane_abs(x), limit), lane_le(lane_abs(y), limit)),
                     lane_le(lane_abs(r), limit));
        const mask_t grid = mask_and(live, tame);
        store_u32(cell_of + i,
                  lane_select(live, lane_select(tame, grid_kind, special_kind), dead_kind));
        lo_x = lane_select(grid, lane_min(x, lo_x), lo_x);
        hi_x = lane_select(grid, lane_max(x, hi_x), hi_x);
        lo_y = lane_select(grid, lane_min(y, lo_y), lo_y);
        hi_y = lane_select(grid, lane_max(y, hi_y), hi_y);
        r_max = lane_select(grid, lane_max(r, r_max), r_max);
    }
    box_from_lanes(lo_x, hi_x, lo_y, hi_y, r_max, box);
    for (; i < n; i++) {
        cell_of[i] = c2d_ball_kind(c->x[i], c->y[i], c->radius[i]);
        if (cell_of[i] == C2D_BALL_GRID) c2d_ball_box_add(box, c->x[i], c->y[i], c->radius[i]);
    }
}

#if C2D_LANES == 16
#define dlane_store simde_mm512_storeu_pd
#elif C2D_LANES == 8
#define dlane_store simde_mm256_storeu_pd
#else
#define dlane_store simde_mm_storeu_pd
#endif

/* The clamped cell coordinates of c2d_ball_grid_coord for W values, in double lanes (the same
 * operations: the float converts exactly, then - and *, then x86 max and min), as doubles. */
static inline void grid_coords(lane_t v, double origin, double inv, uint32_t n, double out[W]) {
    const dlane_t o = dlane_splat(origin), s = dlane_splat(inv), top = dlane_splat((double)(n - 1));
    for (int h = 0; h < DLANE_HALVES; h++)
        dlane_store(out + h * (W / 2), ball_grid_coord_dlanes(dlane_from_lane(v, h), o, s, top));
}

/* c2d_ball_bin_one for the grid balls, W balls a step: the size test and the coordinates in
 * lanes, the cell number (the same casts of the same doubles) and the count a ball at a time. */
void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_bin)(const c2d_circle_soa *c, const c2d_ball_bins *b,
                                                  uint32_t *cell_of, uint32_t *count) {
    const size_t n = c->count;
    const lane_t big = lane_splat(b->big);
    size_t i = 0;
    for (; i + W <= n; i += W) {
        const mask_t grid = lane_eq_u32(lane_load_u32(cell_of + i), lane_splat_u32(C2D_BALL_GRID));
        if (!mask_any(grid)) continue;
        const uint32_t bits = mask_bits(grid);
        const uint32_t large = mask_bits(lane_ge(lane_load(c->radius + i), big));
        double cx[W], cy[W];
        grid_coords(lane_load(c->x + i), b->x0, b->inv, b->nx, cx);
        grid_coords(lane_load(c->y + i), b->y0, b->inv, b->ny, cy);
        for (size_t j = 0; j < W; j++) {
            if (!((bits >> j) & 1u)) continue;
            if ((large >> j) & 1u) {
                cell_of[i + j] = C2D_BALL_SPECIAL;
                continue;
            }
            const uint32_t cell = (uint32_t)cy[j] * b->nx + (uint32_t)cx[j];
            cell_of[i + j] = cell;
            count[cell + 2]++;
        }
    }
    for (; i < n; i++) {
        if (cell_of[i] != C2D_BALL_GRID) continue;
        cell_of[i] = c2d_ball_bin_one(b, c->x[i], c->y[i], c->radius[i]);
        if (cell_of[i] != C2D_BALL_SPECIAL) count[cell_of[i] + 2]++;
    }
}

/* ---- the ball grid's binning for sweeps -------------------------------------------------- */

/* The accumulated bounds of the grid balls' centres of move, per lane. */
typedef struct sweep_box_lanes {
    lane_t lo_x, hi_x, lo_y, hi_y, size;
} sweep_box_lanes;

/* W balls' c2d_ball_sweep_kind (core/ball_bin_formula.h) into kind (as bits), their centres of
 * move and swept sizes into the bounds and largest size of the grid lanes. */
static inline void sweep_classify_lanes(lane_t x, lane_t y, lane_t r, lane_t mx, lane_t my,
                                        lane_t *kind, sweep_box_lanes *b) {
    const mask_t live = ball_sweep_live_of(x, y, r, mx, my);
    const mask_t tame = ball_sweep_tame_of(x, y, r, mx, my);
    const mask_t grid = mask_and(live, tame);
    const lane_t size = ball_swept_size_of(x, y, r, mx, my);
    *kind = lane_select(
        grid, size,
        lane_select(live, lane_splat_u32(C2D_BALL_SPECIAL), lane_splat_u32(C2D_BALL_DEAD)));
    const lane_t cx = ball_sweep_centre_of(x, mx), cy = ball_sweep_centre_of(y, my);
    b->lo_x = lane_select(grid, lane_min(cx, b->lo_x), b->lo_x);
    b->hi_x = lane_select(grid, lane_max(cx, b->hi_x), b->hi_x);
    b->lo_y = lane_select(grid, lane_min(cy, b->lo_y), b->lo_y);
    b->hi_y = lane_select(grid, lane_max(cy, b->hi_y), b->hi_y);
    b->size = lane_select(grid, lane_max(size, b->size), b->size);
}

/* W balls a step; the last few copied into full vectors padded with dead balls (NaN), and
 * only their own kinds written back. The box reduced over the lanes at the end (min and max
 * are exact: any order gives the same values up to the sign of a zero). */
void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_sweep_classify)(const c2d_circle_soa *c,
                                                             const float *mx, const float *my,
                                                             uint32_t *cell_of, float box[5]) {
    const size_t n = c->count;
    const lane_t inf = lane_splat(INFINITY), ninf = lane_splat(-INFINITY);
    sweep_box_lanes b = {inf, ninf, inf, ninf, lane_splat(0.0f)};
    lane_t kind;
    size_t i = 0;
    for (; i + W <= n; i += W) {
        sweep_classify_lanes(lane_load(c->x + i), lane_load(c->y + i), lane_load(c->radius + i),
                             lane_load(mx + i), lane_load(my + i), &kind, &b);
        store_u32(cell_of + i, kind);
    }
    if (i < n) {
        float t[5][W];
        for (size_t j = 0; j < W; j++) {
            const bool in = i + j < n;
            t[0][j] = in ? c->x[i + j] : NAN;
            t[1][j] = in ? c->y[i + j] : NAN;
            t[2][j] = in ? c->radius[i + j] : NAN;
            t[3][j] = in ? mx[i + j] : NAN;
            t[4][j] = in ? my[i + j] : NAN;
        }
        sweep_classify_lanes(lane_load(t[0]), lane_load(t[1]), lane_load(t[2]), lane_load(t[3]),
                             lane_load(t[4]), &kind, &b);
        uint32_t k[W];
        store_u32(k, kind);
        memcpy(cell_of + i, k, (n - i) * sizeof(uint32_t));
    }
    box_from_lanes(b.lo_x, b.hi_x, b.lo_y, b.hi_y, b.size, box);
}

/* The clamped cell coordinates of the centres of move p + m/2 in double lanes (the float
 * values convert exactly; then the operations of c2d_ball_sweep_bin_one), as doubles. */
static inline void centre_coords(lane_t p, lane_t m, double origin, double inv, uint32_t n,
                                 double out[W]) {
    const dlane_t o = dlane_splat(origin), s = dlane_splat(inv), top = dlane_splat((double)(n - 1));
    const dlane_t half = dlane_splat(0.5);
    for (int h = 0; h < DLANE_HALVES; h++) {
        const dlane_t v = dlane_add(dlane_from_lane(p, h), dlane_mul(half, dlane_from_lane(m, h)));
        dlane_store(out + h * (W / 2), ball_grid_coord_dlanes(v, o, s, top));
    }
}

/* W balls' c2d_ball_sweep_bin_one for the grid lanes (`grid` bits): the size test and the
 * coordinates in lanes, the cell number (the same casts of the same doubles) and the count a
 * ball at a time; the cell numbers written to cell[] (the other lanes left alone). */
static inline void sweep_bin_lanes(lane_t x, lane_t y, lane_t mx, lane_t my, lane_t size,
                                   const c2d_ball_bins *b, uint32_t *cell, uint32_t *count,
                                   size_t lanes) {
    /* a size is a positive finite float, the kinds NaN patterns */
    const uint32_t bits = mask_bits(lane_le(size, size));
    if (!bits) return;
    const uint32_t large = mask_bits(lane_ge(size, lane_splat(b->big)));
    double cx[W], cy[W];
    centre_coords(x, mx, b->x0, b->inv, b->nx, cx);
    centre_coords(y, my, b->y0, b->inv, b->ny, cy);
    for (size_t j = 0; j < lanes; j++) {
        if (!((bits >> j) & 1u)) continue;
        if ((large >> j) & 1u) {
            cell[j] = C2D_BALL_SPECIAL;
            continue;
        }
        const uint32_t k = (uint32_t)cy[j] * b->nx + (uint32_t)cx[j];
        cell[j] = k;
        count[k + 2]++;
    }
}

void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_sweep_bin)(const c2d_circle_soa *c, const float *mx,
                                                        const float *my, const c2d_ball_bins *b,
                                                        uint32_t *cell_of, uint32_t *count) {
    const size_t n = c->count;
    size_t i = 0;
    for (; i + W <= n; i += W)
        sweep_bin_lanes(lane_load(c->x + i), lane_load(c->y + i), lane_load(mx + i),
                        lane_load(my + i), lane_load_u32(cell_of + i), b, cell_of + i, count, W);
    if (i < n) {
        float t[4][W];
        uint32_t k[W];
        for (size_t j = 0; j < W; j++) {
            const bool in = i + j < n;
            t[0][j] = in ? c->x[i + j] : 0.0f;
            t[1][j] = in ? c->y[i + j] : 0.0f;
            t[2][j] = in ? mx[i + j] : 0.0f;
            t[3][j] = in ? my[i + j] : 0.0f;
            k[j] = in ? cell_of[i + j] : C2D_BALL_DEAD;
        }
        sweep_bin_lanes(lane_load(t[0]), lane_load(t[1]), lane_load(t[2]), lane_load(t[3]),
                        lane_load_u32(k), b, cell_of + i, count, n - i);
    }
}
