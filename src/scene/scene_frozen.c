/* Frozen balls (collide2d/frozen.h): the public entry points. The scene owns one frozen index
 * (src/balls/frozen_index.c), made at the first freeze with the scene's allocator. */
#include "alloc.h"
#include "balls/frozen_index.h"
#include "collide2d/frozen.h"
#include "contract.h"
#include "scene/scene_state.h"

c2d_status c2d_scene_freeze_balls(c2d_scene *scene, const c2d_circle_soa *circles,
                                  const uint32_t *ids) {
    if (!scene) return C2D_ERROR_NULL;
    const c2d_status st = c2d_check_circles(circles);
    if (st != C2D_OK) return st;
    const size_t n = circles->count;
    if (n == 0) return C2D_OK;
    for (size_t k = 0; ids && k < n; k++) /* (ids NULL: k < n <= UINT32_MAX is never C2D_NONE) */
        if (ids[k] == C2D_NONE) return C2D_ERROR_INDEX;
    if (!scene->frozen) {
        scene->frozen = c2d_frozen_new(&scene->allocator);
        if (!scene->frozen) return C2D_ERROR_ALLOC;
    }
    return c2d_frozen_insert(scene->frozen, &scene->allocator, circles, ids);
}

c2d_status c2d_scene_thaw_balls(c2d_scene *scene, const uint32_t *ids, size_t count) {
    if (!scene || !c2d_array_given(count, ids)) return C2D_ERROR_NULL;
    if (scene->frozen) c2d_frozen_remove(scene->frozen, ids, count);
    return C2D_OK;
}

size_t c2d_scene_frozen_count(const c2d_scene *scene) {
    return scene ? c2d_frozen_count(scene->frozen) : 0;
}

bool c2d_scene_frozen_ball(const c2d_scene *scene, uint32_t id, c2d_circle *out) {
    return scene && c2d_frozen_get(scene->frozen, id, out);
}

c2d_status c2d_scene_collide_frozen(c2d_scene *scene, const c2d_circle_soa *circles,
                                    const uint32_t *ids, c2d_circle_pair_contact *out,
                                    size_t capacity, size_t *count) {
    c2d_status st = c2d_check_scene_counted(scene, circles, out, capacity, count);
    if (st != C2D_OK) return st;
    if (c2d_frozen_count(scene->frozen) == 0) return C2D_OK;
    const size_t total = c2d_frozen_collide(scene->frozen, circles, ids, out, capacity);
    return c2d_finish_count(total, out, capacity, count);
}

c2d_status c2d_scene_sweep_frozen(const c2d_scene *scene, const c2d_circle_soa *circles,
                                  const uint32_t *ids, const c2d_move_soa *moves,
                                  c2d_circle_hit *out) {
    const float *move_x = moves ? moves->x : NULL, *move_y = moves ? moves->y : NULL;
    if (!scene) return C2D_ERROR_NULL;
    c2d_status st = c2d_check_circles(circles);
    if (st == C2D_ERROR_NULL) return st; /* then missing moves before a count too large */
    st = c2d_check_both(c2d_check_moves(circles->count, move_x, move_y, out), st);
    if (st != C2D_OK) return st;
    c2d_frozen_sweep(scene->frozen, circles, ids, move_x, move_y, out);
    return C2D_OK;
}

/* The 0.1.0 names (collide2d/compat.h), each the call above in one line. */
c2d_status c2d_scene_freeze_circles(c2d_scene *scene, const c2d_circle_soa *circles,
                                    const uint32_t *ids) {
    return c2d_scene_freeze_balls(scene, circles, ids);
}

c2d_status c2d_scene_thaw_circles(c2d_scene *scene, const uint32_t *ids, size_t count) {
    return c2d_scene_thaw_balls(scene, ids, count);
}

bool c2d_scene_frozen_circle(const c2d_scene *scene, uint32_t id, c2d_circle *out) {
    return c2d_scene_frozen_ball(scene, id, out);
}

c2d_status c2d_scene_collide_frozen_circles(c2d_scene *scene, const c2d_circle_soa *circles,
                                            const uint32_t *ids, c2d_circle_pair_contact *out,
                                            size_t capacity, size_t *count) {
    return c2d_scene_collide_frozen(scene, circles, ids, out, capacity, count);
}

c2d_status c2d_scene_sweep_frozen_circles(const c2d_scene *scene, const c2d_circle_soa *circles,
                                          const uint32_t *ids, const float *move_x,
                                          const float *move_y, c2d_circle_hit *out) {
    const c2d_move_soa moves = {move_x, move_y};
    return c2d_scene_sweep_frozen(scene, circles, ids, &moves, out);
}
