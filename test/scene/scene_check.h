/* Helpers of the scene tests: a scene's answers against the batch layer's (the oracle), byte
 * for byte, on every backend, with every capacity around the total and split into ranges. */
#ifndef C2D_TEST_SCENE_CHECK_H
#define C2D_TEST_SCENE_CHECK_H

#include "batch_check.h"

/* c2d_scene_collide, c2d_scene_collide_range (split into a few ranges) and c2d_scene_sweep /
 * c2d_scene_sweep_range of scene `sc` (built over s's capsules) against c2d_batch_collide and
 * c2d_batch_sweep over s, on the active backend. Asserts on any difference. */
void check_scene_once(c2d_scene *sc, const scene *s, const char *label);

/* check_scene_once on every available backend, with a scene created from s's capsules. */
void check_scene(const scene *s, const char *label);

#endif
