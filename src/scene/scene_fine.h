/* The fine index of a scene (scene_fine.c): built lazily by frame begins. */
#ifndef C2D_SCENE_FINE_H
#define C2D_SCENE_FINE_H

#include "scene/scene_state.h"

/* Makes the fine index fit the scene's capsules and this frame's circles (rebuilt when the
 * capsules moved or rho must grow; allocates only when it needs more than before). On any
 * failure, or when it would be too large, the index is left unready and the scan uses the
 * coarse index alone. */
C2D_INTERNAL void c2d_fine_prepare(c2d_scene *s, const c2d_circle_soa *circles);
C2D_INTERNAL void c2d_fine_free(const c2d_allocator *a, c2d_fine_index *f);
/* Capsules [first, first + n) moved (after the scene's generation was bumped): a current fine
 * index marks them dirty, or becomes stale (rebuilt by the next frame) when too many are. */
C2D_INTERNAL void c2d_fine_moved(c2d_scene *s, size_t first, size_t n);
/* Is the fine index usable for the current capsules (and the big circles' one, which is used
 * only with it). */
static inline bool c2d_fine_ready(const c2d_scene *s) {
    return s->fine.ready && s->fine.generation == s->generation;
}
static inline bool c2d_fine_big_ready(const c2d_scene *s) {
    return c2d_fine_ready(s) && s->fine_big.ready && s->fine_big.generation == s->generation;
}
/* Does a usable fine index have dirty capsules; is capsule k one (its scan candidates are then
 * ignored: the frame tests it against every circle instead). */
static inline bool c2d_fine_dirty_any(const c2d_scene *s) {
    return s->fine.dirty_count > 0 && c2d_fine_ready(s);
}
static inline bool c2d_fine_dirty(const c2d_scene *s, size_t k) {
    return c2d_fine_dirty_any(s) && s->fine.dirty[k];
}
/* Is capsule k one of the long capsules the fine index lists (s->fine's list, shared by the
 * big circles' index). */
static inline bool c2d_fine_long(const c2d_scene *s, size_t k) {
    for (size_t j = 0; j < s->fine.long_count; j++)
        if (s->fine.longs[j] == k) return true;
    return false;
}

#endif
