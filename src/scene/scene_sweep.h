/* Sweeps against a scene's capsules (scene_sweep.c), through its sweep index when it is ready. */
#ifndef C2D_SCENE_SWEEP_H
#define C2D_SCENE_SWEEP_H

#include "scene/scene_state.h"

/* A capsule that moves during a sweep, with its sweep box grown to cover the move
 * (c2d_sweep_boxes_add_moves). */
typedef struct c2d_scene_mover {
    float lo_x, hi_x, lo_y, hi_y;
    uint32_t capsule;
} c2d_scene_mover;

/* The capsule moves of a sweep: every capsule's move, and the capsules whose move is not zero
 * (NaN included), which the index, built for the capsules at rest, cannot stand for. */
typedef struct c2d_scene_movers {
    const float *move_x, *move_y;
    const c2d_scene_mover *list;
    size_t count;
} c2d_scene_movers;

/* The sweep of circles [first, first+n) (arguments checked); out has n entries. */
C2D_INTERNAL void c2d_scene_sweep_circle_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                               const float *move_x, const float *move_y,
                                               size_t first, size_t n, c2d_circle_toi *out);
/* The same against capsules that move (movers NULL: c2d_scene_sweep_circle_range): the
 * answer of c2d_batch_sweep_moving_capsules() for those circles. */
C2D_INTERNAL void c2d_scene_sweep_moving_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                               const float *move_x, const float *move_y,
                                               const c2d_scene_movers *movers, size_t first,
                                               size_t n, c2d_circle_toi *out);

#endif
