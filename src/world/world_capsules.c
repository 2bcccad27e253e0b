/* The capsules' calls: adding and removing them (dense arrays behind a slot table), setting a
 * kinematic capsule's motion or target, and reading them. Their scenes are rebuilt before the
 * next step or query (world_capsule_scenes.c). */
#include "world_internal.h"
#include "world_kinematic.h"

c2d_status c2d_world_add_capsules(c2d_world *w, const c2d_capsule_def *defs, size_t count,
                                  c2d_capsule_id *ids) {
    if (!w || (!defs && count > 0)) return C2D_ERROR_NULL;
    if (c2d_world_busy(w)) return C2D_ERROR_STATE;
    if (count > C2D_WORLD_MAX_COUNT || w->capsule_count + count > C2D_WORLD_MAX_COUNT)
        return C2D_ERROR_TOO_LARGE;
    for (size_t i = 0; i < count; i++)
        if (!c2d_world_capsule_def_valid(&defs[i])) return C2D_ERROR_VALUE;
    if (count == 0) return C2D_OK;
    world_array_ref refs[] = {CAPSULE_ARRAYS(w)};
    if (!c2d_world_reserve_all(w, refs, sizeof refs / sizeof refs[0], &w->capsule_capacity,
                               w->capsule_count + count) ||
        !c2d_world_slots_reserve(w, &w->capsule_slots, count))
        return C2D_ERROR_ALLOC;
    for (size_t i = 0; i < count; i++) {
        const c2d_capsule_def *d = &defs[i];
        uint32_t k = (uint32_t)w->capsule_count++;
        w->shape[k] = d->shape;
        w->motion[k] = (uint8_t)d->motion;
        w->sensor[k] = d->sensor;
        w->capsule_events[k] = d->events;
        w->capsule_restitution[k] = d->restitution;
        w->capsule_friction[k] = d->friction;
        w->capsule_category[k] = d->category;
        w->capsule_mask[k] = d->mask;
        w->capsule_user_data[k] = d->user_data;
        c2d_world_kin_init(&w->kin[k], d->shape, d->pivot, d->velocity, d->angular_velocity);
        w->kin_target[k] = 0;
        w->kin_goal[k] = d->shape;
        w->capsule_ids[k] = c2d_world_slots_take(&w->capsule_slots, k);
        if (ids) ids[i] = w->capsule_ids[k];
    }
    w->capsules_dirty = true;
    return C2D_OK;
}

static void move_capsule(c2d_world *w, uint32_t from, uint32_t to) {
    w->shape[to] = w->shape[from];
    w->motion[to] = w->motion[from];
    w->sensor[to] = w->sensor[from];
    w->capsule_events[to] = w->capsule_events[from];
    w->capsule_restitution[to] = w->capsule_restitution[from];
    w->capsule_friction[to] = w->capsule_friction[from];
    w->capsule_category[to] = w->capsule_category[from];
    w->capsule_mask[to] = w->capsule_mask[from];
    w->capsule_user_data[to] = w->capsule_user_data[from];
    w->capsule_ids[to] = w->capsule_ids[from];
    w->kin[to] = w->kin[from];
    w->kin_target[to] = w->kin_target[from];
    w->kin_goal[to] = w->kin_goal[from];
    w->capsule_slots.dense[world_id_slot(w->capsule_ids[to])] = to;
}

c2d_status c2d_world_remove_capsules(c2d_world *w, const c2d_capsule_id *ids, size_t count) {
    if (!w || (!ids && count > 0)) return C2D_ERROR_NULL;
    if (c2d_world_busy(w)) return C2D_ERROR_STATE;
    for (size_t i = 0; i < count; i++) {
        uint32_t k = 0;
        if (!c2d_world_lookup_capsule(w, ids[i], &k) || c2d_world_listed_twice(ids, i))
            return C2D_ERROR_INDEX;
    }
    /* Sleeping balls that rest on a removed capsule wake with every sleeping ball that rests
     * on them (the pile loses its floor); done first, while the capsules are still there. */
    for (size_t i = 0; i < count; i++) {
        uint32_t k = 0;
        c2d_world_lookup_capsule(w, ids[i], &k);
        c2d_status st = c2d_world_wake_capsule_support(w, k);
        if (st != C2D_OK) return st;
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t k = 0;
        c2d_world_lookup_capsule(w, ids[i], &k);
        c2d_world_slots_release(&w->capsule_slots, ids[i]);
        uint32_t last = (uint32_t)--w->capsule_count;
        if (k != last) move_capsule(w, last, k);
    }
    if (count > 0) w->capsules_dirty = true;
    return C2D_OK;
}

static c2d_status kinematic_for_change(c2d_world *w, c2d_capsule_id id, uint32_t *k) {
    if (!w) return C2D_ERROR_NULL;
    if (c2d_world_busy(w)) return C2D_ERROR_STATE;
    if (!c2d_world_lookup_capsule(w, id, k)) return C2D_ERROR_INDEX;
    return w->motion[*k] == C2D_KINEMATIC ? C2D_OK : C2D_ERROR_STATE;
}

c2d_status c2d_world_set_capsule_motion(c2d_world *w, c2d_capsule_id id, c2d_vec2 velocity,
                                        float angular_velocity) {
    uint32_t k;
    c2d_status st = kinematic_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!c2d_world_finite_vec(velocity) || !c2d_world_finite(angular_velocity))
        return C2D_ERROR_VALUE;
    w->kin[k].velocity = velocity;
    w->kin[k].angular_velocity = angular_velocity;
    w->kin_target[k] = 0;
    return C2D_OK;
}

c2d_status c2d_world_move_capsule_to(c2d_world *w, c2d_capsule_id id, c2d_capsule target) {
    uint32_t k;
    c2d_status st = kinematic_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!c2d_world_shape_valid(target) || target.radius != w->shape[k].radius)
        return C2D_ERROR_VALUE;
    w->kin_target[k] = 1;
    w->kin_goal[k] = target;
    return C2D_OK;
}

bool c2d_world_capsule(const c2d_world *w, c2d_capsule_id id, c2d_capsule *shape) {
    uint32_t k;
    if (!w || c2d_world_busy(w) || !c2d_world_lookup_capsule(w, id, &k)) return false;
    if (shape) *shape = w->shape[k];
    return true;
}

bool c2d_world_capsule_motion(const c2d_world *w, c2d_capsule_id id, c2d_capsule_motion *out) {
    uint32_t k;
    if (!w || c2d_world_busy(w) || !c2d_world_lookup_capsule(w, id, &k)) return false;
    if (!out) return true;
    *out = (c2d_capsule_motion){.motion = (c2d_motion)w->motion[k], .sensor = w->sensor[k] != 0};
    if (w->motion[k] == C2D_KINEMATIC) {
        out->pivot = w->kin[k].pivot;
        out->to_target = w->kin_target[k] != 0;
        if (!out->to_target) { /* (a target decides the next step's motion) */
            out->velocity = w->kin[k].velocity;
            out->angular_velocity = w->kin[k].angular_velocity;
        }
    }
    return true;
}

uint64_t c2d_world_capsule_user_data(const c2d_world *w, c2d_capsule_id id) {
    uint32_t k;
    if (!w || c2d_world_busy(w) || !c2d_world_lookup_capsule(w, id, &k)) return 0;
    return w->capsule_user_data[k];
}

size_t c2d_world_capsule_count(const c2d_world *w) {
    return w && !c2d_world_busy(w) ? w->capsule_count : 0;
}
