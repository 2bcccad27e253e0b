/* A ball's kind for the ball grid (batch/kernels_balls.h, core/ball_bin_formula.h): the one
 * source of the kinds' values and of the per-ball rule the binning kernels follow. */
#ifndef C2D_CORE_BALL_KIND_H
#define C2D_CORE_BALL_KIND_H

#include <math.h>
#include <stdint.h>

#include "core/slack.h"

/* The ball grid's binning for contacts (kernels ball_classify and ball_bin). Every ball's
 * kind: dead (NaN centre, radius NaN or negative: it meets nothing), special (a value beyond
 * C2D_TAME_LIMIT) or a grid ball, whose cell number comes later (cell numbers stay below the
 * two kinds). */
#define C2D_BALL_GRID UINT32_C(0)
#define C2D_BALL_SPECIAL (UINT32_MAX - 1)
#define C2D_BALL_DEAD UINT32_MAX

static inline uint32_t c2d_ball_kind(float x, float y, float r) {
    if (x != x || y != y || !(r >= 0.0f)) return C2D_BALL_DEAD;
    if (!(fabsf(x) <= C2D_TAME_LIMIT && fabsf(y) <= C2D_TAME_LIMIT && fabsf(r) <= C2D_TAME_LIMIT))
        return C2D_BALL_SPECIAL;
    return C2D_BALL_GRID;
}

#endif
