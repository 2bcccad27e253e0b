/* Scene sweeps: the static capsule index and the earliest hit of each circle. */
#include "dispatch.h"
#include "scene/scene_internal.h"

c2d_status c2d_capsule_index_build(const c2d_scene *s, c2d_capsule_index *index) {
    (void)s;
    *index = (c2d_capsule_index){0};
    return C2D_OK;
}

void c2d_capsule_index_free(const c2d_scene *s, c2d_capsule_index *index) {
    (void)s;
    (void)index;
}

void c2d_scene_sweep_circle_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                  const float *move_x, const float *move_y, size_t first, size_t n,
                                  c2d_circle_toi *out) {
    if (n == 0) return;
    const c2d_circle_soa range = {circles->x + first, circles->y + first, circles->radius + first,
                                  n};
    c2d_active_kernels()->sweep(&range, move_x + first, move_y + first, &s->capsules, out);
}
