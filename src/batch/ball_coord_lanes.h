/* The ball grid's cell coordinate over double lanes (batch/dlane_simd.h), shared by the binning
 * kernels and the 16-lane pair walk. */
#ifndef C2D_BATCH_BALL_COORD_LANES_H
#define C2D_BATCH_BALL_COORD_LANES_H

/* c2d_ball_grid_coord (batch/kernels_balls.h) before its conversion to an integer: the same
 * operations (-, *, then x86 max and min, each the second operand unless its compare holds),
 * so the same doubles. */
static inline dlane_t ball_grid_coord_dlanes(dlane_t v, dlane_t origin, dlane_t inv, dlane_t top) {
    return dlane_min(dlane_max(dlane_mul(dlane_sub(v, origin), inv), dlane_splat(0.0)), top);
}

#endif
