/* The world's life cycle: c2d_world_create(), and c2d_world_destroy(), which frees every array
 * that the other files of the world grew. */
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
    void *scratch[] = {w->static_map,
                       w->sensor_map,
                       w->kinematic_list,
                       w->awake,
                       w->ax,
                       w->ay,
                       w->ar,
                       w->ar_frozen,
                       w->margin,
                       w->margin_frozen,
                       w->ar_capsule,
                       w->margin_capsule,
                       w->acat,
                       w->amask,
                       w->start_x,
                       w->start_y,
                       w->bvx,
                       w->bvy,
                       w->bw,
                       w->binv_mass,
                       w->binv_inertia,
                       w->bdx,
                       w->bdy,
                       w->clearance,
                       w->travelled,
                       w->move_taken,
                       w->near_kinematic,
                       w->holds,
                       w->contacts,
                       w->contact_work,
                       w->capsule_soa,
                       w->capsule_words,
                       w->scratch,
                       w->near,
                       w->kin_start,
                       w->kin_step_start,
                       w->kin_step_end,
                       w->kin_reach,
                       w->kin_box,
                       w->kin_stamp,
                       w->kin_cell_start,
                       w->kin_cell_items,
                       w->kin_first,
                       w->kin_near,
                       w->sweep_buf,
                       w->matched,
                       w->warm[0].row_start,
                       w->warm[0].entries,
                       w->warm[1].row_start,
                       w->warm[1].entries};
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
