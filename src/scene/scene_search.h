/* The candidate walk of the scene's region queries (scene_search.c), shared with the advance
 * (scene_advance.c): the capsules whose index boxes may meet a box. */
#ifndef C2D_SCENE_SEARCH_H
#define C2D_SCENE_SEARCH_H

#include "scene/scene_state.h"

/* Candidates a walk gathers from its cells before its caller scans every capsule instead. */
#define C2D_SCENE_BOX_CANDIDATES 1024

/* The capsules of the index cells that box b (lo_x, hi_x, lo_y, hi_y, rounded outward to
 * float) spans whose index boxes meet it, and the capsules the index holds everywhere, into
 * cand (C2D_SCENE_BOX_CANDIDATES entries): returns how many, in no order and with repeats
 * (a capsule listed in several cells), or SIZE_MAX when the box spans too many cells or they
 * hold too many capsules: then the caller looks at every capsule (those of kind GRID whose
 * index box meets b, and those of kind EVERYWHERE). Reads the scene only. */
C2D_INTERNAL size_t c2d_scene_box_candidates(const c2d_scene *s, const float b[4], uint32_t *cand);

#endif
