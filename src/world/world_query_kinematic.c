/* The queries' index of the kinematic capsules: a scene of their shapes where the last step left
 * them, so a query's cost grows with the kinematic capsules near it, not with how many there
 * are (a drum of a thousand paddles). Brought up to date by the first query that needs it after
 * a step (c2d_scene_move_capsules: a world queried every frame keeps its memory, and a world
 * never queried never pays); built anew after the capsule scenes were (scenes_generation: the
 * kinematic list may have changed). Out of memory, the queries test every kinematic capsule. */
#include "world_query.h"

void c2d_world_query_kinematic_drop(c2d_world *w, bool renumber) {
    w->query_kinematic_fresh = false;
    if (!renumber) return;
    c2d_scene_destroy(w->query_kinematic);
    w->query_kinematic = NULL;
}

const c2d_scene *c2d_world_query_kinematic_scene(const c2d_world *w) {
    if (w->capsules_dirty || w->kinematic_count == 0) return NULL;
    if (!w->query_kinematic_fresh || w->query_kinematic_generation != w->scenes_generation) {
        /* The queries' scratch, which their one-at-a-time rule (world.h) lets them write: the
         * world is never a const object (c2d_world_create allocates it). */
        c2d_world *m = (c2d_world *)(uintptr_t)w;
        if (w->query_kinematic_generation != w->scenes_generation) /* listed anew */
            c2d_world_query_kinematic_drop(m, true);
        m->query_kinematic_generation = w->scenes_generation;
        if (c2d_world_capsule_scene(m, w->kinematic_list, w->kinematic_count,
                                    &m->query_kinematic) != C2D_OK) {
            c2d_world_query_kinematic_drop(m, true); /* (a failed move may leave it half moved) */
            return NULL;
        }
        m->query_kinematic_fresh = true;
    }
    return w->query_kinematic;
}
