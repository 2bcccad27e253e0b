/* The scene's numbered scratch slots (scene_scratch.c): per-frame memory, grown and kept. */
#ifndef C2D_SCENE_SCRATCH_H
#define C2D_SCENE_SCRATCH_H

#include "scene/scene_state.h"

/* Makes scratch slot `slot` hold at least `bytes` bytes (grown geometrically, kept) and sets
 * *ptr to it. Contents are not kept when it grows. C2D_ERROR_ALLOC: the slot is as before. */
C2D_INTERNAL c2d_status c2d_scene_reserve(c2d_scene *s, int slot, size_t bytes, void **ptr);

/* c2d_scene_reserve for n slots at once, all or nothing: on C2D_ERROR_ALLOC no slot changed. */
C2D_INTERNAL c2d_status c2d_scene_reserve_all(c2d_scene *s, size_t n, const int *slots,
                                              const size_t *bytes, void **ptrs);

#endif
