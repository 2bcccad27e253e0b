/* Balls against balls in a scene: the ball grid in the scene's scratch memory. A scene's
 * capsules play no part, so a scene of zero capsules is a pure ball system. */
#include "balls/ball_grid.h"
#include "contract.h"
#include "batch/dispatch.h"
#include "scene/scene_scratch.h"

/* The scene scratch slot of the ball grid: the last one, away from the slots other topics
 * take from C2D_SCENE_SLOT_FREE up. */
enum { C2D_SCENE_SLOT_BALLS = C2D_SCENE_SLOTS - 1 };

/* The ball slot with at least `bytes` bytes (grown geometrically and kept by the scene). */
static c2d_status ball_scratch(c2d_scene *scene, size_t bytes, void **scratch, size_t *have) {
    const c2d_status st = c2d_scene_reserve(scene, C2D_SCENE_SLOT_BALLS, bytes, scratch);
    *have = scene->scratch[C2D_SCENE_SLOT_BALLS].bytes;
    return st;
}

c2d_status c2d_scene_collide_circles(c2d_scene *scene, const c2d_circle_soa *circles,
                                     c2d_circle_pair_contact *out, size_t capacity, size_t *count) {
    c2d_status st = c2d_check_scene_counted(scene, circles, out, capacity, count);
    if (st != C2D_OK || circles->count == 0) return st;
    /* room for what the slot already holds, at least 4 pairs a ball; more when a frame asks */
    size_t need = c2d_ball_grid_scratch_bytes(circles->count, 4 * circles->count), have;
    const size_t held = scene->scratch[C2D_SCENE_SLOT_BALLS].bytes;
    void *scratch;
    for (;;) {
        st = ball_scratch(scene, need > held ? need : held, &scratch, &have);
        if (st != C2D_OK) return st;
        size_t total;
        need = c2d_ball_grid_collide(c2d_active_kernels(), circles, scratch, have, out, capacity,
                                     &total);
        if (need == 0) return c2d_finish_count(total, out, capacity, count);
    }
}

c2d_status c2d_scene_sweep_circles(c2d_scene *scene, const c2d_circle_soa *circles,
                                   const float *move_x, const float *move_y, c2d_circle_hit *out) {
    if (!scene) return C2D_ERROR_NULL;
    c2d_status st = c2d_check_circles(circles);
    if (st == C2D_ERROR_NULL) return st; /* then missing moves before a count too large */
    st = c2d_check_both(c2d_check_moves(circles->count, move_x, move_y, out), st);
    if (st != C2D_OK || circles->count == 0) return st;
    void *scratch;
    size_t have;
    st = ball_scratch(scene, c2d_ball_grid_scratch_bytes(circles->count, 0), &scratch, &have);
    if (st != C2D_OK) return st;
    c2d_ball_grid_sweep(c2d_active_kernels(), circles, move_x, move_y, scratch, have, out);
    return C2D_OK;
}
