/* Every internal header of src/scene/, for the tests that look inside a scene (its fine and
 * sweep indices). The library's own files include the headers they use, one way down:
 * scene_grid.h, scene_index.h and the layouts (scene_fine_index.h, scene_sweep_index.h,
 * scene_frame.h) under scene_state.h (struct c2d_scene), and the parts that work on a scene
 * above it (scene_scratch.h, scene_fine.h, scene_sweep.h, scene_sweep_build.h, scene_part.h,
 * scene_scan.h, scene_collide.h). */
#ifndef C2D_SCENE_INTERNAL_H
#define C2D_SCENE_INTERNAL_H

#include "scene/scene_collide.h"
#include "scene/scene_fine.h"
#include "scene/scene_scratch.h"
#include "scene/scene_sweep.h"
#include "scene/scene_sweep_build.h"

#endif
