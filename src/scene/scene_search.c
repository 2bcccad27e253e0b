/* The scene calls of collide2d/search.h: the batch calls' code (src/batch/search_batch.c)
 * with the scene's capsule index finding the capsules. A ray's capsule part is the scene
 * sweep (scene_sweep.c) of its origin as a circle of radius 0, which is c2d_batch_sweep()'s
 * answer, which is the batch ray cast's capsule part: the same bytes. */
#include "batch/search_internal.h"
#include "scene/scene_internal.h"

static void scene_pass(const void *ctx, const c2d_circle_soa *points, const float *dx,
                       const float *dy, c2d_circle_toi *out) {
    c2d_scene_sweep_circle_range(ctx, points, dx, dy, 0, points->count, out);
}

c2d_status c2d_scene_ray_cast(const c2d_scene *scene, const c2d_ray_soa *rays,
                              const c2d_circle_soa *circles, c2d_ray_hit *out) {
    if (!scene) return C2D_ERROR_NULL;
    const c2d_status st = c2d_ray_cast_check(rays, circles, out);
    if (st != C2D_OK) return st;
    c2d_ray_cast_run(rays, scene->capsule_count > 0 ? scene_pass : NULL, scene, circles, out);
    return C2D_OK;
}
