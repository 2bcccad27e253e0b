/* The frozen index (src/balls/frozen_index.c): resting balls held by id, with O(1) insertions
 * and removals, queried by awake balls. A scene owns one (src/scene/scene_frozen.c holds the
 * public entry points, collide2d/frozen.h); the index itself knows nothing of scenes. */
#ifndef C2D_BALLS_FROZEN_INDEX_H
#define C2D_BALLS_FROZEN_INDEX_H

#include "collide2d/balls.h"
#include "scalar/reference.h"

typedef struct c2d_frozen c2d_frozen;

/* An empty index from the hooks `a` (NULL: out of memory). */
C2D_INTERNAL c2d_frozen *c2d_frozen_new(const c2d_allocator *a);

/* Releases an index made with the same hooks (NULL: nothing). */
C2D_INTERNAL void c2d_frozen_free(const c2d_allocator *a, c2d_frozen *f);

/* Holds circles->count > 0 balls (arguments checked) under ids[k] (k when ids is NULL; none
 * is C2D_NONE); an id held already takes the new values. All or nothing:
 * C2D_ERROR_TOO_LARGE past the slot numbers, C2D_ERROR_ALLOC. */
C2D_INTERNAL c2d_status c2d_frozen_insert(c2d_frozen *f, const c2d_allocator *a,
                                          const c2d_circle_soa *circles, const uint32_t *ids);

/* Lets go of the balls of ids[0 .. count) (ids not held are skipped). */
C2D_INTERNAL void c2d_frozen_remove(c2d_frozen *f, const uint32_t *ids, size_t count);

/* Balls held (0 for NULL). */
C2D_INTERNAL size_t c2d_frozen_count(const c2d_frozen *f);

/* Is id held; its ball to *out (when not NULL). f may be NULL. */
C2D_INTERNAL bool c2d_frozen_get(const c2d_frozen *f, uint32_t id, c2d_circle *out);

/* The contacts of the awake `circles` (global ids[k], or k) against the held balls, as
 * c2d_scene_collide_frozen_circles reports them: the first `capacity` to out; the total. */
C2D_INTERNAL size_t c2d_frozen_collide(const c2d_frozen *f, const c2d_circle_soa *circles,
                                       const uint32_t *ids, c2d_circle_pair_contact *out,
                                       size_t capacity);

/* Each awake ball's earliest hit on a held ball (out has circles->count entries; f may be
 * NULL: no hits). */
C2D_INTERNAL void c2d_frozen_sweep(const c2d_frozen *f, const c2d_circle_soa *circles,
                                   const uint32_t *ids, const float *move_x, const float *move_y,
                                   c2d_circle_hit *out);

#endif
