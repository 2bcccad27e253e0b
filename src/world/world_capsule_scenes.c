/* The capsules' scenes, through which the step and the queries find capsules: rebuilt from the
 * dense capsule arrays (c2d_world_refresh_scenes) before the next step or query after capsules
 * were added or removed. */
#include <math.h>

#include "world_internal.h"

/* The scenes of the capsules, rebuilt after capsules were added or removed: static solid ones
 * in static_scene, sensors in sensor_scene (held solid there, so collide reports them), the
 * kinematic ones listed (few: flippers, paddles; tested by every ball near them). */
c2d_status c2d_world_refresh_scenes(c2d_world *w) {
    if (!w->capsules_dirty) return C2D_OK;
    size_t n = w->capsule_count;
    size_t cap = 0;
    uint32_t *static_map = NULL, *sensor_map = NULL, *kinematic = NULL;
    float *arrays = c2d_alloc_array(&w->allocator, n ? 5 * n : 1, sizeof(float));
    uint32_t *words = c2d_alloc_array(&w->allocator, n ? 2 * n : 1, sizeof(uint32_t));
    c2d_status st = C2D_ERROR_ALLOC;
    c2d_scene *statics = NULL, *sensors = NULL;
    if (!arrays || !words || !c2d_world_reserve(w, (void **)&static_map, &cap, n + 1, 4) ||
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
    /* Builds one scene from the capsules `map` lists (SoA in `arrays`, words in `words`). */
    for (int pass = 0; pass < 2; pass++) {
        const uint32_t *map = pass == 0 ? static_map : sensor_map;
        size_t m = pass == 0 ? ns : ne;
        float *ax = arrays, *ay = ax + n, *bx = ay + n, *by = bx + n, *r = by + n;
        uint32_t *cat = words, *msk = words + n;
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
        st = c2d_scene_create(&soa, &w->allocator, pass == 0 ? &statics : &sensors);
        if (st != C2D_OK) goto done;
    }
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
    c2d_free(&w->allocator, arrays);
    c2d_free(&w->allocator, words);
    return st;
}
