/* The capsules' scenes, through which the step and the queries find capsules: rebuilt from the
 * dense capsule arrays (c2d_world_refresh_scenes) before the next step or query after capsules
 * were added or removed. */
#include <math.h>

#include "world_internal.h"

/* A scene of the capsules map[0 .. m) (dense indices) as they are now (empty when m is 0): its
 * capsule j is map[j]. *scene NULL: a new one; else that scene (of m capsules) takes the
 * shapes, keeping its memory. */
c2d_status c2d_world_capsule_scene(c2d_world *w, const uint32_t *map, size_t m, c2d_scene **scene) {
    /* The SoA in scratch the world keeps (grown, never shrunk): a world queried every frame
     * moves its kinematic capsules' scene without allocating. */
    world_array_ref refs[] = {{(void **)&w->capsule_soa, 5 * sizeof(float)},
                              {(void **)&w->capsule_words, 2 * sizeof(uint32_t)}};
    if (!c2d_world_reserve_all(w, refs, 2, &w->capsule_soa_capacity, m ? m : 1))
        return C2D_ERROR_ALLOC;
    float *ax = w->capsule_soa, *ay = ax + m, *bx = ay + m, *by = bx + m, *r = by + m;
    uint32_t *cat = w->capsule_words, *msk = cat + m;
    for (size_t i = 0; i < m; i++) {
        c2d_capsule s = w->shape[map[i]];
        ax[i] = s.a.x;
        ay[i] = s.a.y;
        bx[i] = s.b.x;
        by[i] = s.b.y;
        r[i] = s.radius;
        cat[i] = w->capsule_category[map[i]];
        msk[i] = w->capsule_mask[map[i]];
    }
    c2d_capsule_soa soa = {.ax = ax,
                           .ay = ay,
                           .bx = bx,
                           .by = by,
                           .radius = r,
                           .count = m,
                           .category = cat,
                           .mask = msk};
    return *scene ? c2d_scene_move_capsules(*scene, 0, &soa)
                  : c2d_scene_create(&soa, &w->allocator, scene);
}

/* The scenes of the capsules, rebuilt after capsules were added or removed: static solid ones
 * in static_scene, sensors in sensor_scene (held solid there, so collide reports them), the
 * kinematic ones listed (few: flippers, paddles; tested by every ball near them; the queries
 * index them where each step left them, world_query_kinematic.c, built anew for each
 * generation of these scenes). */
c2d_status c2d_world_refresh_scenes(c2d_world *w) {
    if (!w->capsules_dirty) return C2D_OK;
    size_t n = w->capsule_count;
    size_t cap = 0;
    uint32_t *static_map = NULL, *sensor_map = NULL, *kinematic = NULL;
    c2d_status st = C2D_ERROR_ALLOC;
    c2d_scene *statics = NULL, *sensors = NULL;
    if (!c2d_world_reserve(w, (void **)&static_map, &cap, n + 1, 4) ||
        !c2d_world_reserve(w, (void **)&sensor_map, &(size_t){0}, n + 1, 4) ||
        !c2d_world_reserve(w, (void **)&kinematic, &(size_t){0}, n + 1, 4))
        goto done;
    size_t ns = 0, ne = 0, nk = 0;
    for (uint32_t k = 0; k < n; k++) {
        if (w->motion[k] == C2D_KINEMATIC && !w->sensor[k])
            kinematic[nk++] = k;
        else if (w->sensor[k])
            sensor_map[ne++] = k;
        else
            static_map[ns++] = k;
    }
    st = c2d_world_capsule_scene(w, static_map, ns, &statics);
    if (st == C2D_OK) st = c2d_world_capsule_scene(w, sensor_map, ne, &sensors);
    if (st != C2D_OK) goto done;
    w->scenes_generation++; /* (the queries' kinematic index is then built anew) */
    c2d_scene_destroy(w->static_scene);
    c2d_scene_destroy(w->sensor_scene);
    c2d_free(&w->allocator, w->static_map);
    c2d_free(&w->allocator, w->sensor_map);
    c2d_free(&w->allocator, w->kinematic_list);
    w->static_scene = statics;
    w->sensor_scene = sensors;
    statics = sensors = NULL;
    w->static_map = static_map;
    w->sensor_map = sensor_map;
    w->kinematic_list = kinematic;
    static_map = sensor_map = kinematic = NULL;
    w->static_count = ns;
    w->static_extent = 0.0f;
    for (size_t i = 0; i < ns; i++) {
        c2d_capsule s = w->shape[w->static_map[i]];
        float m = fmaxf(fmaxf(fabsf(s.a.x), fabsf(s.a.y)), fmaxf(fabsf(s.b.x), fabsf(s.b.y)));
        w->static_extent = fmaxf(w->static_extent, m + fabsf(s.radius));
    }
    w->sensor_count = ne;
    w->kinematic_count = nk;
    w->capsules_dirty = false;
    st = C2D_OK;
done:
    c2d_scene_destroy(statics);
    c2d_scene_destroy(sensors);
    c2d_free(&w->allocator, static_map);
    c2d_free(&w->allocator, sensor_map);
    c2d_free(&w->allocator, kinematic);
    return st;
}
