/* The ball grid's pair walk a lane a partner (walk_by_partner): the walk of 4 and 8 lanes
 * (batch/kernels_ball_pairs.c) and the fallback of the AVX-512 walk a lane a ball
 * (batch/x86/ball_pairs_avx512.h) for grids too large for blocks. Included by files compiled once
 * per backend with the flags and macros of kernels.c (C2D_LANES, C2D_BACKEND_TABLE). */
#ifndef C2D_BATCH_BALL_PAIR_WALK_H
#define C2D_BATCH_BALL_PAIR_WALK_H

#include <stddef.h>

#include "batch/lane_simd.h"
#include "core/contact_formula.h"

#include "batch/kernels_balls.h"

enum { W = C2D_LANES };

/* Ball p (its centre and radius in every lane, its index id) against the sorted entries
 * [lo, hi), a vector at a time (the arrays are padded, so a whole vector loads from any entry;
 * lanes past hi are masked off); the pairs found are appended as (min, max) after `count`,
 * written while below capacity, and counted in sizes[min] when `sized`. The overlap test is
 * radii_overlap of collide_row on the sorted copies, less its two sign tests: a grid ball's
 * radius is >= 0 (the others are dead), and the NaN padding fails the distance test alone.
 * When a whole vector of pairs has room, the hits are written without a capacity test each. */
static inline size_t span_pairs(const c2d_ball_cells *g, lane_t x, lane_t y, lane_t r, uint32_t id,
                                size_t lo, size_t hi, c2d_ball_pair *pairs, size_t capacity,
                                size_t count, bool sized) {
    for (size_t q = lo; q < hi; q += W) {
        const lane_t qx = lane_sub(x, lane_load(g->x + q)), qy = lane_sub(y, lane_load(g->y + q));
        const lane_t d2 = lane_add(lane_mul(qx, qx), lane_mul(qy, qy));
        const lane_t rs = lane_add(r, lane_load(g->r + q));
        const mask_t hit = lane_le(d2, lane_mul(rs, rs));
        if (!mask_any(hit)) continue;
        uint32_t bits = mask_bits(hit) & c2d_valid_lanes(hi - q);
        const uint32_t *other = g->id + q;
        if (count <= capacity && capacity - count >= W) {
            for (; bits; bits &= bits - 1, count++) {
                const uint32_t b = other[__builtin_ctz(bits)];
                pairs[count].a = id < b ? id : b;
                pairs[count].b = id < b ? b : id;
                if (sized) g->sizes[pairs[count].a]++;
            }
        } else {
            for (; bits; bits &= bits - 1) {
                const uint32_t b = other[__builtin_ctz(bits)];
                count = c2d_add_ball_pair(pairs, capacity, count, id, b);
                if (sized) g->sizes[id < b ? id : b]++;
            }
        }
    }
    return count;
}

/* The walk of c2d_ball_half_walk, a lane a partner, written out so that the count stays in a
 * register. */
C2D_FORMULA size_t walk_by_partner(const c2d_ball_cells *cells, c2d_ball_pair *pairs,
                                   size_t capacity, bool sized) {
    const uint32_t *start = cells->start;
    const uint32_t nx = cells->nx, ny = cells->ny;
    size_t count = 0;
    for (uint32_t cy = 0; cy < ny; cy++)
        for (uint32_t cx = 0; cx < nx; cx++) {
            const c2d_cell_spans s = c2d_ball_cell_spans(start, nx, ny, cx, cy);
            for (size_t p = s.lo; p < s.hi; p++) {
                const lane_t x = lane_splat(cells->x[p]), y = lane_splat(cells->y[p]);
                const lane_t r = lane_splat(cells->r[p]);
                const uint32_t id = cells->id[p];
                count =
                    span_pairs(cells, x, y, r, id, p + 1, s.east, pairs, capacity, count, sized);
                count =
                    span_pairs(cells, x, y, r, id, s.up_lo, s.up_hi, pairs, capacity, count, sized);
            }
        }
    return count;
}

#endif
