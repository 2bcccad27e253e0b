/* The balls' calls: adding and removing them (dense arrays behind a slot table: a removal moves
 * the last ball into the hole), reading and setting them, and the world's ball counts. */
#include <math.h>

#include "world_internal.h"

c2d_status c2d_world_add_balls(c2d_world *w, const c2d_ball_def *defs, size_t count,
                               c2d_ball_id *ids) {
    if (!w || (!defs && count > 0)) return C2D_ERROR_NULL;
    if (c2d_world_busy(w)) return C2D_ERROR_STATE;
    if (count > C2D_WORLD_MAX_COUNT || w->ball_count + count > C2D_WORLD_MAX_COUNT)
        return C2D_ERROR_TOO_LARGE;
    for (size_t i = 0; i < count; i++)
        if (!c2d_world_ball_def_valid(&defs[i])) return C2D_ERROR_VALUE;
    if (count == 0) return C2D_OK;
    world_array_ref refs[] = {BALL_ARRAYS(w)};
    if (!c2d_world_reserve_all(w, refs, sizeof refs / sizeof refs[0], &w->ball_capacity,
                               w->ball_count + count) ||
        !c2d_world_slots_reserve(w, &w->ball_slots, count))
        return C2D_ERROR_ALLOC;
    for (size_t i = 0; i < count; i++) {
        const c2d_ball_def *d = &defs[i];
        uint32_t k = (uint32_t)w->ball_count++;
        w->x[k] = d->position.x;
        w->y[k] = d->position.y;
        w->vx[k] = d->velocity.x;
        w->vy[k] = d->velocity.y;
        w->angle[k] = 0.0f;
        w->angular_velocity[k] = d->angular_velocity;
        w->radius[k] = d->radius;
        if (d->radius > w->max_radius) w->max_radius = d->radius;
        float mass = d->density * (3.14159265f * d->radius * d->radius);
        bool fixed_ball = !(mass > 0.0f);
        w->inv_mass[k] = fixed_ball ? 0.0f : 1.0f / mass;
        /* A solid disc: I = m r^2 / 2. */
        w->inv_inertia[k] = fixed_ball ? 0.0f : 2.0f / (mass * d->radius * d->radius);
        w->restitution[k] = d->restitution;
        w->friction[k] = d->friction;
        w->rolling_resistance[k] = d->rolling_resistance;
        w->linear_damping[k] = d->linear_damping;
        w->angular_damping[k] = d->angular_damping;
        w->gravity_scale[k] = d->gravity_scale;
        w->force_x[k] = w->force_y[k] = 0.0f;
        w->motion_balls += c2d_world_own_motion(w, k);
        w->sleep_timer[k] = 0.0f;
        w->category[k] = d->category;
        w->mask[k] = d->mask;
        w->flags[k] = (uint8_t)((d->events ? WORLD_BALL_EVENTS : 0) |
                                (d->enable_sleep ? WORLD_BALL_SLEEPS : 0) |
                                (fixed_ball ? WORLD_BALL_FIXED : 0) | WORLD_BALL_AWAKE);
        if (fixed_ball) w->vx[k] = w->vy[k] = w->angular_velocity[k] = 0.0f;
        w->awake_count++;
        w->user_data[k] = d->user_data;
        w->warm_step[k] = UINT64_MAX;
        w->warm_row[k] = C2D_NONE;
        w->rest_count[k] = 0;
        w->local_of[k] = C2D_NONE;
        w->ids[k] = c2d_world_slots_take(&w->ball_slots, k);
        if (ids) ids[i] = w->ids[k];
        c2d_world_query_note_ball(w, k);
    }
    w->change_count++;
    return C2D_OK;
}

/* Moves ball `from`'s data to dense index `to` (a removal's hole). */
static void move_ball(c2d_world *w, uint32_t from, uint32_t to) {
    w->x[to] = w->x[from];
    w->y[to] = w->y[from];
    w->vx[to] = w->vx[from];
    w->vy[to] = w->vy[from];
    w->angle[to] = w->angle[from];
    w->angular_velocity[to] = w->angular_velocity[from];
    w->radius[to] = w->radius[from];
    w->inv_mass[to] = w->inv_mass[from];
    w->inv_inertia[to] = w->inv_inertia[from];
    w->restitution[to] = w->restitution[from];
    w->friction[to] = w->friction[from];
    w->rolling_resistance[to] = w->rolling_resistance[from];
    w->linear_damping[to] = w->linear_damping[from];
    w->angular_damping[to] = w->angular_damping[from];
    w->gravity_scale[to] = w->gravity_scale[from];
    w->force_x[to] = w->force_x[from];
    w->force_y[to] = w->force_y[from];
    w->sleep_timer[to] = w->sleep_timer[from];
    w->category[to] = w->category[from];
    w->mask[to] = w->mask[from];
    w->flags[to] = w->flags[from];
    w->user_data[to] = w->user_data[from];
    w->ids[to] = w->ids[from];
    w->warm_row[to] = w->warm_row[from];
    w->warm_step[to] = w->warm_step[from];
    w->rest_first[to] = w->rest_first[from];
    w->rest_count[to] = w->rest_count[from];
    if (w->rest_count[to] > 0) w->rest_owner[w->rest_first[to]] = to;
    w->ball_slots.dense[world_id_slot(w->ids[to])] = to;
}

c2d_status c2d_world_remove_balls(c2d_world *w, const c2d_ball_id *ids, size_t count) {
    if (!w || (!ids && count > 0)) return C2D_ERROR_NULL;
    if (c2d_world_busy(w)) return C2D_ERROR_STATE;
    for (size_t i = 0; i < count; i++) {
        uint32_t k = 0;
        if (!c2d_world_lookup_ball(w, ids[i], &k)) return C2D_ERROR_INDEX;
        /* Duplicates: quadratic for short lists, a marker pass for long ones. */
        if (count <= 64 && c2d_world_listed_twice(ids, i)) return C2D_ERROR_INDEX;
    }
    if (count > 64) {
        for (size_t i = 0; i < count; i++) {
            uint32_t k = 0;
            c2d_world_lookup_ball(w, ids[i], &k);
            if (w->flags[k] & 0x80) {
                for (size_t j = 0; j < i; j++) {
                    c2d_world_lookup_ball(w, ids[j], &k);
                    w->flags[k] &= 0x7F;
                }
                return C2D_ERROR_INDEX;
            }
            w->flags[k] |= 0x80;
        }
        for (size_t i = 0; i < count; i++) {
            uint32_t k = 0;
            c2d_world_lookup_ball(w, ids[i], &k);
            w->flags[k] &= 0x7F;
        }
    }
    /* The sleeping balls each removed ball touched wake (found first: that may allocate). */
    for (size_t i = 0; i < count; i++) {
        uint32_t k = 0;
        c2d_world_lookup_ball(w, ids[i], &k);
        c2d_status st = c2d_world_wake_neighbours(w, k);
        if (st != C2D_OK) return st;
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t k = 0;
        c2d_world_lookup_ball(w, ids[i], &k);
        /* Its sensor memberships and touching pairs end at the next step, which finds the id
         * gone; the frozen index forgets it now. */
        if (w->flags[k] & WORLD_BALL_AWAKE)
            w->awake_count--;
        else
            c2d_world_thaw_now(w, k);
        c2d_world_slots_release(&w->ball_slots, ids[i]);
        c2d_world_drop_rest(w, k);
        w->motion_balls -= c2d_world_own_motion(w, k);
        uint32_t last = (uint32_t)--w->ball_count;
        if (k != last) {
            bool frozen = !(w->flags[last] & WORLD_BALL_AWAKE);
            if (frozen) c2d_world_thaw_now(w, last);
            move_ball(w, last, k);
            /* Filed again under its new dense index; if the index cannot grow the ball simply
             * wakes (it may sleep again). */
            if (frozen && !c2d_world_freeze_now(w, k)) {
                w->flags[k] |= WORLD_BALL_AWAKE;
                w->awake_count++;
                c2d_world_query_note_ball(w, k);
            }
        }
    }
    w->change_count++;
    return C2D_OK;
}

c2d_status c2d_world_get_balls(const c2d_world *w, c2d_world_balls *out) {
    if (!w || !out) return C2D_ERROR_NULL;
    if (c2d_world_busy(w)) return C2D_ERROR_STATE;
    *out = (c2d_world_balls){.x = w->x,
                             .y = w->y,
                             .vx = w->vx,
                             .vy = w->vy,
                             .angle = w->angle,
                             .angular_velocity = w->angular_velocity,
                             .radius = w->radius,
                             .ids = w->ids,
                             .count = w->ball_count};
    return C2D_OK;
}

bool c2d_world_ball(const c2d_world *w, c2d_ball_id id, c2d_vec2 *position, c2d_vec2 *velocity) {
    uint32_t k;
    if (!w || c2d_world_busy(w) || !c2d_world_lookup_ball(w, id, &k)) return false;
    if (position) *position = (c2d_vec2){w->x[k], w->y[k]};
    if (velocity) *velocity = (c2d_vec2){w->vx[k], w->vy[k]};
    return true;
}

bool c2d_world_ball_state(const c2d_world *w, c2d_ball_id id, c2d_ball_state *out) {
    uint32_t k;
    if (!w || c2d_world_busy(w) || !c2d_world_lookup_ball(w, id, &k)) return false;
    if (!out) return true;
    float im = w->inv_mass[k], ii = w->inv_inertia[k];
    uint8_t f = w->flags[k];
    *out = (c2d_ball_state){.position = {w->x[k], w->y[k]},
                            .velocity = {w->vx[k], w->vy[k]},
                            .angle = w->angle[k],
                            .angular_velocity = w->angular_velocity[k],
                            .radius = w->radius[k],
                            .mass = im > 0.0f ? 1.0f / im : 0.0f,
                            .inertia = ii > 0.0f ? 1.0f / ii : 0.0f,
                            .friction = w->friction[k],
                            .restitution = w->restitution[k],
                            .rolling_resistance = w->rolling_resistance[k],
                            .linear_damping = w->linear_damping[k],
                            .angular_damping = w->angular_damping[k],
                            .gravity_scale = w->gravity_scale[k],
                            .force = {w->force_x[k], w->force_y[k]},
                            .category = w->category[k],
                            .mask = w->mask[k],
                            .awake = (f & WORLD_BALL_AWAKE) != 0,
                            .enable_sleep = (f & WORLD_BALL_SLEEPS) != 0,
                            .events = (f & WORLD_BALL_EVENTS) != 0};
    return true;
}

/* Looks up a ball for a call that changes it. */
static c2d_status ball_for_change(c2d_world *w, c2d_ball_id id, uint32_t *k) {
    if (!w) return C2D_ERROR_NULL;
    if (c2d_world_busy(w)) return C2D_ERROR_STATE;
    return c2d_world_lookup_ball(w, id, k) ? C2D_OK : C2D_ERROR_INDEX;
}

/* Wakes a ball that a call changes, and the sleeping balls it touched (found first: that may
 * allocate, and a failure changes nothing). */
static c2d_status wake_with_neighbours(c2d_world *w, uint32_t k) {
    c2d_status st = c2d_world_wake_neighbours(w, k);
    if (st == C2D_OK) c2d_world_wake_ball(w, k);
    return st;
}

c2d_status c2d_world_set_ball_position(c2d_world *w, c2d_ball_id id, c2d_vec2 p) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!c2d_world_finite_vec(p)) return C2D_ERROR_VALUE;
    st = wake_with_neighbours(w, k);
    if (st != C2D_OK) return st;
    w->x[k] = p.x;
    w->y[k] = p.y;
    c2d_world_query_note_ball(w, k);
    w->change_count++;
    return C2D_OK;
}

c2d_status c2d_world_set_ball_velocity(c2d_world *w, c2d_ball_id id, c2d_vec2 v) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!c2d_world_finite_vec(v)) return C2D_ERROR_VALUE;
    if (w->flags[k] & WORLD_BALL_FIXED) return C2D_OK;
    st = wake_with_neighbours(w, k);
    if (st != C2D_OK) return st;
    w->vx[k] = v.x;
    w->vy[k] = v.y;
    return C2D_OK;
}

c2d_status c2d_world_apply_ball_impulse(c2d_world *w, c2d_ball_id id, c2d_vec2 impulse) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!c2d_world_finite_vec(impulse)) return C2D_ERROR_VALUE;
    if (w->flags[k] & WORLD_BALL_FIXED) return C2D_OK;
    float vx = w->vx[k] + impulse.x * w->inv_mass[k];
    float vy = w->vy[k] + impulse.y * w->inv_mass[k];
    if (!isfinite(vx) || !isfinite(vy)) return C2D_ERROR_VALUE;
    st = wake_with_neighbours(w, k);
    if (st != C2D_OK) return st;
    w->vx[k] = vx;
    w->vy[k] = vy;
    return C2D_OK;
}

c2d_status c2d_world_set_ball_angular_velocity(c2d_world *w, c2d_ball_id id,
                                               float angular_velocity) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!c2d_world_finite(angular_velocity)) return C2D_ERROR_VALUE;
    if (w->flags[k] & WORLD_BALL_FIXED) return C2D_OK;
    st = wake_with_neighbours(w, k);
    if (st != C2D_OK) return st;
    w->angular_velocity[k] = angular_velocity;
    return C2D_OK;
}

c2d_status c2d_world_apply_ball_force(c2d_world *w, c2d_ball_id id, c2d_vec2 force) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!c2d_world_finite_vec(force)) return C2D_ERROR_VALUE;
    if (w->flags[k] & WORLD_BALL_FIXED) return C2D_OK;
    float fx = w->force_x[k] + force.x, fy = w->force_y[k] + force.y;
    /* The acceleration must be a float too (FLT_MAX on a light ball made its velocity inf). */
    if (!isfinite(fx * w->inv_mass[k]) || !isfinite(fy * w->inv_mass[k])) return C2D_ERROR_VALUE;
    st = wake_with_neighbours(w, k);
    if (st != C2D_OK) return st;
    w->force_x[k] = fx;
    w->force_y[k] = fy;
    w->forces = true;
    return C2D_OK;
}

bool c2d_world_ball_awake(const c2d_world *w, c2d_ball_id id) {
    uint32_t k;
    if (!w || c2d_world_busy(w) || !c2d_world_lookup_ball(w, id, &k)) return false;
    return (w->flags[k] & WORLD_BALL_AWAKE) != 0;
}

c2d_status c2d_world_set_ball_awake(c2d_world *w, c2d_ball_id id, bool awake) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (w->flags[k] & WORLD_BALL_FIXED) return C2D_OK;
    if (awake) {
        c2d_world_wake_ball(w, k);
        return C2D_OK;
    }
    if (!(w->flags[k] & WORLD_BALL_AWAKE)) return C2D_OK;
    c2d_status rs = c2d_world_refresh_scenes(w);
    if (rs != C2D_OK) return rs;
    return c2d_world_sleep_if_supported(w, k);
}

c2d_status c2d_world_set_ball_enable_sleep(c2d_world *w, c2d_ball_id id, bool enable) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!enable) c2d_world_wake_ball(w, k);
    w->flags[k] =
        (uint8_t)(enable ? w->flags[k] | WORLD_BALL_SLEEPS : w->flags[k] & ~WORLD_BALL_SLEEPS);
    w->sleep_timer[k] = 0.0f;
    return C2D_OK;
}

/* Sets one of a ball's def fields from the next step on, if `value` passes `valid`: the ball
 * wakes, and so do the sleeping balls it touched (the contacts they rest in change). */
static c2d_status set_ball_field(c2d_world *w, c2d_ball_id id, float *field, float value,
                                 bool (*valid)(float)) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!valid(value)) return C2D_ERROR_VALUE;
    st = wake_with_neighbours(w, k);
    if (st != C2D_OK) return st;
    w->motion_balls -= c2d_world_own_motion(w, k);
    field[k] = value;
    w->motion_balls += c2d_world_own_motion(w, k);
    return C2D_OK;
}

c2d_status c2d_world_set_ball_friction(c2d_world *w, c2d_ball_id id, float friction) {
    return set_ball_field(w, id, w ? w->friction : NULL, friction, c2d_world_non_negative);
}
c2d_status c2d_world_set_ball_restitution(c2d_world *w, c2d_ball_id id, float restitution) {
    return set_ball_field(w, id, w ? w->restitution : NULL, restitution, c2d_world_non_negative);
}
c2d_status c2d_world_set_ball_rolling_resistance(c2d_world *w, c2d_ball_id id, float rolling) {
    return set_ball_field(w, id, w ? w->rolling_resistance : NULL, rolling, c2d_world_non_negative);
}
c2d_status c2d_world_set_ball_linear_damping(c2d_world *w, c2d_ball_id id, float damping) {
    return set_ball_field(w, id, w ? w->linear_damping : NULL, damping, c2d_world_non_negative);
}
c2d_status c2d_world_set_ball_angular_damping(c2d_world *w, c2d_ball_id id, float damping) {
    return set_ball_field(w, id, w ? w->angular_damping : NULL, damping, c2d_world_non_negative);
}
c2d_status c2d_world_set_ball_gravity_scale(c2d_world *w, c2d_ball_id id, float scale) {
    return set_ball_field(w, id, w ? w->gravity_scale : NULL, scale, c2d_world_finite);
}

c2d_status c2d_world_set_ball_filter(c2d_world *w, c2d_ball_id id, uint32_t category,
                                     uint32_t mask) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    /* Awake, it leaves the frozen index, which kept its old words. */
    st = wake_with_neighbours(w, k);
    if (st != C2D_OK) return st;
    w->category[k] = category;
    w->mask[k] = mask;
    return C2D_OK;
}

uint64_t c2d_world_ball_user_data(const c2d_world *w, c2d_ball_id id) {
    uint32_t k;
    if (!w || c2d_world_busy(w) || !c2d_world_lookup_ball(w, id, &k)) return 0;
    return w->user_data[k];
}

size_t c2d_world_awake_count(const c2d_world *w) {
    return w && !c2d_world_busy(w) ? w->awake_count : 0;
}
size_t c2d_world_ball_count(const c2d_world *w) {
    return w && !c2d_world_busy(w) ? w->ball_count : 0;
}
