/* The scans of a collide frame (scene_scan.c): the candidate pairs of a part's circles, found
 * through the fine index or the coarse capsule index, with their exact tests. */
#ifndef C2D_SCENE_SCAN_H
#define C2D_SCENE_SCAN_H

#include "scene/scene_state.h"

/* Circles per block of the fine scan; a part keeps room for a block's candidates. */
enum { C2D_FINE_BLOCK = 1024 };

/* The coarse scan of a part's circles (no fine index); false: out of memory. */
C2D_INTERNAL bool c2d_scan_coarse(const c2d_scene *s, c2d_scene_part *p);

/* The fine scan of a part's circles (the fine index is ready); false: out of memory. */
C2D_INTERNAL bool c2d_scan_fine(const c2d_scene *s, c2d_scene_part *p);

#endif
