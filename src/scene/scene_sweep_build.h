/* Building a scene's sweep index (scene_sweep_build.c). */
#ifndef C2D_SCENE_SWEEP_BUILD_H
#define C2D_SCENE_SWEEP_BUILD_H

#include "scene/scene_state.h"

/* Makes the sweep index fit the scene's capsules and these circles' swept boxes (built when
 * missing or stale, unless capsules keep moving; any failure leaves it unready, and sweeps use
 * the coarse index alone). c2d_sweep_index_free releases it. */
C2D_INTERNAL void c2d_sweep_prepare(c2d_scene *s, const c2d_circle_soa *circles,
                                    const float *move_x, const float *move_y);
C2D_INTERNAL void c2d_sweep_index_free(const c2d_allocator *a, c2d_sweep_index *w);

#endif
