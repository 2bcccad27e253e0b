/* The broad phase of balls against balls: a uniform grid rebuilt every frame in caller-given
 * scratch memory, whose answers are exactly the all-pairs kernels' (same pairs, order and
 * bytes). See docs/balls.md. */
#ifndef C2D_BALLS_BALL_GRID_H
#define C2D_BALLS_BALL_GRID_H

#include "batch/kernels.h"

/* Bytes of scratch that c2d_ball_grid_collide and c2d_ball_grid_sweep need for n balls
 * (n <= UINT32_MAX). The memory needs no particular alignment. */
C2D_INTERNAL size_t c2d_ball_grid_scratch_bytes(size_t n);

/* Every overlapping pair a < b of `circles` (arguments checked), ordered by a then b, as
 * kernels->collide_circles over all balls writes them: the first `capacity` to out; returns
 * the total. `scratch` holds c2d_ball_grid_scratch_bytes(circles->count) bytes. */
C2D_INTERNAL size_t c2d_ball_grid_collide(const c2d_kernels *kernels, const c2d_circle_soa *circles,
                                          void *scratch, c2d_circle_pair_contact *out,
                                          size_t capacity);

/* Each ball's earliest sweep hit, as kernels->sweep_circles over all balls; out has
 * circles->count entries. */
C2D_INTERNAL void c2d_ball_grid_sweep(const c2d_kernels *kernels, const c2d_circle_soa *circles,
                                      const float *move_x, const float *move_y, void *scratch,
                                      c2d_circle_hit *out);

#endif
