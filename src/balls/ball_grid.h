/* The broad phase of balls against balls: a uniform grid rebuilt every frame in caller-given
 * scratch memory, whose answers are exactly the all-pairs kernels' (same pairs, order and
 * bytes). See docs/balls.md. */
#ifndef C2D_BALLS_BALL_GRID_H
#define C2D_BALLS_BALL_GRID_H

#include "batch/kernels.h"

/* Bytes of scratch for n balls (n <= UINT32_MAX) and room for `pairs` overlapping pairs.
 * c2d_ball_grid_sweep needs no room for pairs. Any alignment of 8 bytes will do. */
C2D_INTERNAL size_t c2d_ball_grid_scratch_bytes(size_t n, size_t pairs);

/* Every overlapping pair a < b of `circles` (arguments checked), ordered by a then b, as
 * kernels->collide_circles over all balls writes them: the first `capacity` to out, the total
 * to *total. Returns 0, or, when the scratch had no room for the frame's pairs, the scratch
 * bytes it needs (nothing written to out, *total = 0: call again with that much). */
C2D_INTERNAL size_t c2d_ball_grid_collide(const c2d_kernels *kernels, const c2d_circle_soa *circles,
                                          void *scratch, size_t scratch_bytes,
                                          c2d_circle_pair_contact *out, size_t capacity,
                                          size_t *total);

/* Each ball's earliest sweep hit, as kernels->sweep_circles over all balls; out has
 * circles->count entries. The scratch holds c2d_ball_grid_scratch_bytes(n, 0) bytes. */
C2D_INTERNAL void c2d_ball_grid_sweep(const c2d_kernels *kernels, const c2d_circle_soa *circles,
                                      const float *move_x, const float *move_y, void *scratch,
                                      size_t scratch_bytes, c2d_circle_hit *out);

#endif
