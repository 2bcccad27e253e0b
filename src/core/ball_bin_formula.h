/* The ball grid's sweep classification in lanes: each ball's swept box size and kind. The one
 * source of both: the per-ball reference (c2d_ball_sweep_kind, on one float lane of
 * core/lane_scalar.h) and every backend's ball_sweep_classify kernel (SIMD lanes). The
 * including file provides the lane types and operations (lane_t, mask_t, lane_add, ...). */
#ifndef C2D_CORE_BALL_BIN_FORMULA_H
#define C2D_CORE_BALL_BIN_FORMULA_H

#include <stdint.h>
#include <string.h>

#include "core/ball_kind.h"
#include "core/contact_formula.h"
#include "core/slack.h"

/* A tame ball's swept box is everything within r of its path, grown by core/slack.h's sweep slack:
 * g = r + 2^-8 (|mx| + |my| + r) + 2^-16 (|x| + |y|) + 2^-60 on each side. Two balls whose exact
 * sweep reports a hit have overlapping boxes. A box's centre is (x + mx/2, y + my/2) and its
 * larger side max(|mx|, |my|) + 2 g, so boxes that overlap have centres at most half the sum
 * of their larger sides apart on each axis. This is that side in float: every term is >= 0, so
 * its few roundings stay within 2^-21 of it, far inside the cells' relative slack (and it is a
 * positive finite float for tame inputs). */
C2D_FORMULA lane_t ball_swept_size_of(lane_t x, lane_t y, lane_t r, lane_t mx, lane_t my) {
    const lane_t ax = lane_abs(mx), ay = lane_abs(my);
    const lane_t grow = lane_add(
        lane_add(
            lane_add(r, lane_mul(lane_splat(C2D_SWEEP_SIZE_SLACK), lane_add(lane_add(ax, ay), r))),
            lane_mul(lane_splat(C2D_SWEEP_POSITION_SLACK), lane_add(lane_abs(x), lane_abs(y)))),
        lane_splat((float)C2D_ABSOLUTE_SLACK));
    return lane_add(lane_max(ax, ay), lane_mul(lane_splat(2.0f), grow));
}

/* The lanes of balls that can hit something: no NaN in the centre or the move, and r >= 0
 * (a NaN radius fails too). The others are dead. */
C2D_FORMULA mask_t ball_sweep_live_of(lane_t x, lane_t y, lane_t r, lane_t mx, lane_t my) {
    return mask_and(mask_and(mask_and(lane_le(x, x), lane_le(y, y)),
                             mask_and(lane_le(mx, mx), lane_le(my, my))),
                    lane_ge(r, lane_splat(0.0f)));
}

/* The lanes whose five values are all within C2D_TAME_LIMIT (NaN fails): live and tame balls
 * go to the grid, live and untamed ones are special. */
C2D_FORMULA mask_t ball_sweep_tame_of(lane_t x, lane_t y, lane_t r, lane_t mx, lane_t my) {
    const lane_t limit = lane_splat(C2D_TAME_LIMIT);
    return mask_and(mask_and(mask_and(lane_le(lane_abs(x), limit), lane_le(lane_abs(y), limit)),
                             mask_and(lane_le(lane_abs(mx), limit), lane_le(lane_abs(my), limit))),
                    lane_le(lane_abs(r), limit));
}

/* The centre of the swept box in float, for the bounds of the grid: p + m / 2. */
C2D_FORMULA lane_t ball_sweep_centre_of(lane_t p, lane_t m) {
    return lane_add(p, lane_mul(lane_splat(0.5f), m));
}

#ifdef C2D_CORE_LANE_SCALAR_H
/* A ball's entry of the sweep classification: a grid ball's swept size as its float bits (a
 * positive finite float, so below the two kinds), else C2D_BALL_SPECIAL or C2D_BALL_DEAD
 * (core/ball_kind.h). */
static inline uint32_t c2d_ball_sweep_kind(float x, float y, float r, float mx, float my) {
    if (!ball_sweep_live_of(x, y, r, mx, my)) return C2D_BALL_DEAD;
    if (!ball_sweep_tame_of(x, y, r, mx, my)) return C2D_BALL_SPECIAL;
    const float size = ball_swept_size_of(x, y, r, mx, my);
    uint32_t bits;
    memcpy(&bits, &size, sizeof bits);
    return bits;
}
#endif

#endif
