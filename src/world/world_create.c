/* The world's life cycle: c2d_world_create(), c2d_world_destroy(), which frees every array
 * that the other files of the world grew, and the one setting a world changes after it is
 * made, its gravity. */
#include <string.h>

#include "world_internal.h"

static void free_all(c2d_world *w, world_array_ref *refs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        c2d_free(&w->allocator, *refs[i].array);
        *refs[i].array = NULL;
    }
}

c2d_status c2d_world_create(const c2d_world_def *def, c2d_world **world) {
    if (world) *world = NULL;
    if (!def || !world) return C2D_ERROR_NULL;
    if (def->allocator && (!def->allocator->alloc || !def->allocator->free)) return C2D_ERROR_NULL;
    if (!c2d_world_def_valid(def)) return C2D_ERROR_VALUE;
    c2d_allocator a = c2d_allocator_or_malloc(def->allocator);
    c2d_world *w = c2d_alloc(&a, sizeof *w);
    if (!w) return C2D_ERROR_ALLOC;
    memset(w, 0, sizeof *w);
    w->def = *def;
    w->def.allocator = NULL; /* the copy below is the one used */
    w->allocator = a;
    atomic_init(&w->stepping, 0);
    w->step_index = 1; /* warm-start rows of "step 0" never match a ball's initial stamp */
    c2d_capsule_soa none = {0};
    if (c2d_scene_create(&none, &w->allocator, &w->balls_scene) != C2D_OK) {
        c2d_free(&a, w);
        return C2D_ERROR_ALLOC;
    }
    w->capsules_dirty = true;
    *world = w;
    return C2D_OK;
}

static void free_array(c2d_world *w, world_array *a) {
    c2d_free(&w->allocator, a->data);
    a->data = NULL;
    a->count = a->capacity = 0;
}

void c2d_world_destroy(c2d_world *w) {
    if (!w) return;
    world_array_ref balls[] = {BALL_ARRAYS(w)};
    free_all(w, balls, sizeof balls / sizeof balls[0]);
    world_array_ref capsules[] = {CAPSULE_ARRAYS(w)};
    free_all(w, capsules, sizeof capsules / sizeof capsules[0]);
    world_array_ref awake[] = {AWAKE_ARRAYS(w)};
    free_all(w, awake, sizeof awake / sizeof awake[0]);
    world_slots *slots[] = {&w->ball_slots, &w->capsule_slots};
    for (int i = 0; i < 2; i++) {
        c2d_free(&w->allocator, slots[i]->dense);
        c2d_free(&w->allocator, slots[i]->generation);
        c2d_free(&w->allocator, slots[i]->free_list);
    }
    c2d_world_query_free(w);
    c2d_scene_destroy(w->balls_scene);
    c2d_scene_destroy(w->static_scene);
    c2d_scene_destroy(w->sensor_scene);
    void *scratch[] = {w->strikes,         w->static_map,
                       w->sensor_map,      w->kinematic_list,
                       w->contacts,        w->contact_work,
                       w->capsule_soa,     w->capsule_words,
                       w->scratch,         w->near,
                       w->kin_start,       w->kin_step_start,
                       w->kin_step_end,    w->kin_reach,
                       w->kin_box,         w->kin_stamp,
                       w->kin_cell_start,  w->kin_cell_items,
                       w->kin_near,        w->sweep_buf,
                       w->matched,         w->warm[0].row_start,
                       w->warm[0].entries, w->warm[1].row_start,
                       w->warm[1].entries, w->rest_pool,
                       w->rest_owner};
    for (size_t i = 0; i < sizeof scratch / sizeof scratch[0]; i++)
        c2d_free(&w->allocator, scratch[i]);
    world_array *arrays[] = {&w->begins,      &w->ends,       &w->hits,          &w->enters,
                             &w->exits,       &w->touching,   &w->touching_next, &w->inside,
                             &w->inside_next, &w->swept_hits, &w->sensor_found};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free_array(w, arrays[i]);
    c2d_allocator a = w->allocator;
    c2d_free(&a, w);
}

c2d_status c2d_world_set_gravity(c2d_world *w, c2d_vec2 gravity) {
    if (!w) return C2D_ERROR_NULL;
    if (c2d_world_busy(w)) return C2D_ERROR_STATE;
    if (!c2d_world_finite_vec(gravity)) return C2D_ERROR_VALUE;
    if (gravity.x == w->def.gravity.x && gravity.y == w->def.gravity.y) return C2D_OK;
    w->def.gravity = gravity;
    /* A sleeping ball rests on what held it against the old gravity. */
    for (size_t k = 0; k < w->ball_count; k++)
        if (!(w->flags[k] & (WORLD_BALL_AWAKE | WORLD_BALL_FIXED)))
            c2d_world_wake_ball(w, (uint32_t)k);
    return C2D_OK;
}

c2d_vec2 c2d_world_gravity(const c2d_world *w) {
    return w && !c2d_world_busy(w) ? w->def.gravity : (c2d_vec2){0.0f, 0.0f};
}
