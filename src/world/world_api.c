/* The world's life cycle and its bodies: defaults, range checks, create and destroy, adding and
 * removing balls and capsules (dense arrays behind slot tables), reading and setting them, and
 * the hash. The step lives in world_step.c. */
#include <math.h>
#include <string.h>

#include "world_internal.h"
#include "world_kinematic.h"

/* ---- defaults and ranges ---- */

c2d_world_def c2d_world_default_def(void) {
    return (c2d_world_def){
        .gravity = {0.0f, -10.0f},
        .substeps = 8,
        .contact_hertz = 120.0f,
        .contact_damping_ratio = 10.0f,
        .max_push_speed = 1.0f,
        .restitution_threshold = 1.0f,
        .hit_speed = 1.0f,
        .enable_sleep = true,
        .sleep_speed = 0.05f,
        .sleep_time = 0.3f,
        .wake_speed = 0.2f,
        .speculative_distance = 0.05f,
        .allocator = NULL,
        .worker_count = 1,
    };
}

c2d_ball_def c2d_ball_default_def(void) {
    return (c2d_ball_def){
        .radius = 0.5f,
        .density = 1.0f,
        .friction = 0.6f,
        .rolling_resistance = 0.05f,
        .category = C2D_FILTER_ALL,
        .mask = C2D_FILTER_ALL,
        .enable_sleep = true,
    };
}

c2d_capsule_def c2d_capsule_default_def(void) {
    return (c2d_capsule_def){
        .motion = C2D_STATIC,
        .restitution = 1.0f,
        .friction = 1.0f,
        .category = C2D_FILTER_ALL,
        .mask = C2D_FILTER_ALL,
    };
}

static bool finite(float v) {
    return isfinite(v);
}
static bool positive(float v) {
    return isfinite(v) && v > 0.0f;
}
static bool non_negative(float v) {
    return isfinite(v) && v >= 0.0f;
}
static bool finite_vec(c2d_vec2 v) {
    return isfinite(v.x) && isfinite(v.y);
}

static bool world_def_valid(const c2d_world_def *d) {
    bool tasks = (d->enqueue_task == NULL) == (d->finish_task == NULL);
    return finite_vec(d->gravity) && d->substeps >= 1 && d->substeps <= 64 &&
           positive(d->contact_hertz) && non_negative(d->contact_damping_ratio) &&
           positive(d->max_push_speed) && non_negative(d->restitution_threshold) &&
           non_negative(d->hit_speed) && positive(d->sleep_speed) && positive(d->sleep_time) &&
           finite(d->wake_speed) && d->wake_speed >= d->sleep_speed &&
           non_negative(d->speculative_distance) && d->worker_count >= 1 && d->worker_count <= 64 &&
           tasks;
}

/* A ball that moves needs a mass, its inverse and its inverse moment of inertia as finite
 * floats (add_balls computes them so): density 0 is a fixed ball; a radius so small or so large
 * that pi r^2 or m r^2 leaves the floats is refused. */
static bool mass_in_range(float density, float radius) {
    if (density == 0.0f) return true;
    float mass = density * (3.14159265f * radius * radius);
    return isfinite(mass) && mass > 0.0f && isfinite(1.0f / mass) &&
           isfinite(2.0f / (mass * radius * radius));
}

static bool ball_def_valid(const c2d_ball_def *d) {
    return finite_vec(d->position) && finite_vec(d->velocity) && finite(d->angular_velocity) &&
           positive(d->radius) && non_negative(d->density) && non_negative(d->restitution) &&
           non_negative(d->friction) && non_negative(d->rolling_resistance) &&
           mass_in_range(d->density, d->radius);
}

static bool shape_valid(c2d_capsule k) {
    return finite_vec(k.a) && finite_vec(k.b) && non_negative(k.radius);
}

static bool capsule_def_valid(const c2d_capsule_def *d) {
    if (!shape_valid(d->shape) || !non_negative(d->restitution) || !non_negative(d->friction))
        return false;
    if (d->motion == C2D_STATIC)
        return d->velocity.x == 0.0f && d->velocity.y == 0.0f && d->angular_velocity == 0.0f &&
               finite_vec(d->pivot);
    /* Sensors are static: the sensor scene is rebuilt only when capsules are added or removed. */
    return d->motion == C2D_KINEMATIC && !d->sensor && finite_vec(d->velocity) &&
           finite(d->angular_velocity) && finite_vec(d->pivot);
}

/* A call on a world that is stepping (from a task or another thread) is refused. */
static bool busy(const c2d_world *w) {
    return atomic_load(&((c2d_world *)w)->stepping) != 0;
}

/* Every per-ball array with its element size, for growing them together. */
#define BALL_ARRAYS(w)                                                                             \
    {(void **)&(w)->x, sizeof(float)}, {(void **)&(w)->y, sizeof(float)},                          \
        {(void **)&(w)->vx, sizeof(float)}, {(void **)&(w)->vy, sizeof(float)},                    \
        {(void **)&(w)->angle, sizeof(float)}, {(void **)&(w)->angular_velocity, sizeof(float)},   \
        {(void **)&(w)->radius, sizeof(float)}, {(void **)&(w)->inv_mass, sizeof(float)},          \
        {(void **)&(w)->inv_inertia, sizeof(float)}, {(void **)&(w)->restitution, sizeof(float)},  \
        {(void **)&(w)->friction, sizeof(float)},                                                  \
        {(void **)&(w)->rolling_resistance, sizeof(float)},                                        \
        {(void **)&(w)->sleep_timer, sizeof(float)}, {(void **)&(w)->category, sizeof(uint32_t)},  \
        {(void **)&(w)->mask, sizeof(uint32_t)}, {(void **)&(w)->flags, sizeof(uint8_t)},          \
        {(void **)&(w)->user_data, sizeof(uint64_t)}, {(void **)&(w)->ids, sizeof(uint32_t)},      \
        {(void **)&(w)->warm_row, sizeof(uint32_t)}, {(void **)&(w)->warm_step, sizeof(uint64_t)}, \
        {(void **)&(w)->wake_queue, sizeof(uint32_t)}, {                                           \
        (void **)&(w)->local_of, sizeof(uint32_t)                                                  \
    }

#define CAPSULE_ARRAYS(w)                                                                          \
    {(void **)&(w)->shape, sizeof(c2d_capsule)}, {(void **)&(w)->motion, sizeof(uint8_t)},         \
        {(void **)&(w)->sensor, sizeof(uint8_t)},                                                  \
        {(void **)&(w)->capsule_events, sizeof(uint8_t)},                                          \
        {(void **)&(w)->capsule_restitution, sizeof(float)},                                       \
        {(void **)&(w)->capsule_friction, sizeof(float)},                                          \
        {(void **)&(w)->capsule_category, sizeof(uint32_t)},                                       \
        {(void **)&(w)->capsule_mask, sizeof(uint32_t)},                                           \
        {(void **)&(w)->capsule_user_data, sizeof(uint64_t)},                                      \
        {(void **)&(w)->capsule_ids, sizeof(uint32_t)},                                            \
        {(void **)&(w)->kin, sizeof(c2d_world_kin)}, {(void **)&(w)->kin_target, sizeof(uint8_t)}, \
    {                                                                                              \
        (void **)&(w)->kin_goal, sizeof(c2d_capsule)                                               \
    }

static void free_all(c2d_world *w, world_array_ref *refs, size_t n) {
    for (size_t i = 0; i < n; i++) {
        c2d_free(&w->allocator, *refs[i].array);
        *refs[i].array = NULL;
    }
}

/* ---- create, destroy ---- */

c2d_status c2d_world_create(const c2d_world_def *def, c2d_world **world) {
    if (world) *world = NULL;
    if (!def || !world) return C2D_ERROR_NULL;
    if (def->allocator && (!def->allocator->alloc || !def->allocator->free)) return C2D_ERROR_NULL;
    if (!world_def_valid(def)) return C2D_ERROR_VALUE;
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
                       w->near_kinematic,
                       w->holds,
                       w->contacts,
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

/* ---- balls ---- */

c2d_status c2d_world_add_balls(c2d_world *w, const c2d_ball_def *defs, size_t count,
                               c2d_ball_id *ids) {
    if (!w || (!defs && count > 0)) return C2D_ERROR_NULL;
    if (busy(w)) return C2D_ERROR_STATE;
    if (count > C2D_WORLD_MAX_COUNT || w->ball_count + count > C2D_WORLD_MAX_COUNT)
        return C2D_ERROR_TOO_LARGE;
    for (size_t i = 0; i < count; i++)
        if (!ball_def_valid(&defs[i])) return C2D_ERROR_VALUE;
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
    w->sleep_timer[to] = w->sleep_timer[from];
    w->category[to] = w->category[from];
    w->mask[to] = w->mask[from];
    w->flags[to] = w->flags[from];
    w->user_data[to] = w->user_data[from];
    w->ids[to] = w->ids[from];
    w->warm_row[to] = w->warm_row[from];
    w->warm_step[to] = w->warm_step[from];
    w->ball_slots.dense[world_id_slot(w->ids[to])] = to;
}

static bool listed_twice(const uint32_t *ids, size_t i) {
    for (size_t j = 0; j < i; j++)
        if (ids[j] == ids[i]) return true;
    return false;
}

c2d_status c2d_world_remove_balls(c2d_world *w, const c2d_ball_id *ids, size_t count) {
    if (!w || (!ids && count > 0)) return C2D_ERROR_NULL;
    if (busy(w)) return C2D_ERROR_STATE;
    for (size_t i = 0; i < count; i++) {
        uint32_t k = 0;
        if (!c2d_world_lookup_ball(w, ids[i], &k)) return C2D_ERROR_INDEX;
        /* Duplicates: quadratic for short lists, a marker pass for long ones. */
        if (count <= 64 && listed_twice(ids, i)) return C2D_ERROR_INDEX;
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
    if (busy(w)) return C2D_ERROR_STATE;
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
    if (!w || busy(w) || !c2d_world_lookup_ball(w, id, &k)) return false;
    if (position) *position = (c2d_vec2){w->x[k], w->y[k]};
    if (velocity) *velocity = (c2d_vec2){w->vx[k], w->vy[k]};
    return true;
}

/* Looks up a ball for a call that changes it. */
static c2d_status ball_for_change(c2d_world *w, c2d_ball_id id, uint32_t *k) {
    if (!w) return C2D_ERROR_NULL;
    if (busy(w)) return C2D_ERROR_STATE;
    return c2d_world_lookup_ball(w, id, k) ? C2D_OK : C2D_ERROR_INDEX;
}

c2d_status c2d_world_set_ball_position(c2d_world *w, c2d_ball_id id, c2d_vec2 p) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!finite_vec(p)) return C2D_ERROR_VALUE;
    st = c2d_world_wake_neighbours(w, k);
    if (st != C2D_OK) return st;
    c2d_world_wake_ball(w, k);
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
    if (!finite_vec(v)) return C2D_ERROR_VALUE;
    if (w->flags[k] & WORLD_BALL_FIXED) return C2D_OK;
    st = c2d_world_wake_neighbours(w, k);
    if (st != C2D_OK) return st;
    c2d_world_wake_ball(w, k);
    w->vx[k] = v.x;
    w->vy[k] = v.y;
    return C2D_OK;
}

c2d_status c2d_world_apply_ball_impulse(c2d_world *w, c2d_ball_id id, c2d_vec2 impulse) {
    uint32_t k;
    c2d_status st = ball_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!finite_vec(impulse)) return C2D_ERROR_VALUE;
    if (w->flags[k] & WORLD_BALL_FIXED) return C2D_OK;
    float vx = w->vx[k] + impulse.x * w->inv_mass[k];
    float vy = w->vy[k] + impulse.y * w->inv_mass[k];
    if (!isfinite(vx) || !isfinite(vy)) return C2D_ERROR_VALUE;
    st = c2d_world_wake_neighbours(w, k);
    if (st != C2D_OK) return st;
    c2d_world_wake_ball(w, k);
    w->vx[k] = vx;
    w->vy[k] = vy;
    return C2D_OK;
}

bool c2d_world_ball_awake(const c2d_world *w, c2d_ball_id id) {
    uint32_t k;
    if (!w || busy(w) || !c2d_world_lookup_ball(w, id, &k)) return false;
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

uint64_t c2d_world_ball_user_data(const c2d_world *w, c2d_ball_id id) {
    uint32_t k;
    if (!w || busy(w) || !c2d_world_lookup_ball(w, id, &k)) return 0;
    return w->user_data[k];
}

size_t c2d_world_awake_count(const c2d_world *w) {
    return w && !busy(w) ? w->awake_count : 0;
}
size_t c2d_world_ball_count(const c2d_world *w) {
    return w && !busy(w) ? w->ball_count : 0;
}
size_t c2d_world_capsule_count(const c2d_world *w) {
    return w && !busy(w) ? w->capsule_count : 0;
}

/* ---- capsules ---- */

c2d_status c2d_world_add_capsules(c2d_world *w, const c2d_capsule_def *defs, size_t count,
                                  c2d_capsule_id *ids) {
    if (!w || (!defs && count > 0)) return C2D_ERROR_NULL;
    if (busy(w)) return C2D_ERROR_STATE;
    if (count > C2D_WORLD_MAX_COUNT || w->capsule_count + count > C2D_WORLD_MAX_COUNT)
        return C2D_ERROR_TOO_LARGE;
    for (size_t i = 0; i < count; i++)
        if (!capsule_def_valid(&defs[i])) return C2D_ERROR_VALUE;
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
    if (busy(w)) return C2D_ERROR_STATE;
    for (size_t i = 0; i < count; i++) {
        uint32_t k = 0;
        if (!c2d_world_lookup_capsule(w, ids[i], &k) || listed_twice(ids, i))
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
    if (busy(w)) return C2D_ERROR_STATE;
    if (!c2d_world_lookup_capsule(w, id, k)) return C2D_ERROR_INDEX;
    return w->motion[*k] == C2D_KINEMATIC ? C2D_OK : C2D_ERROR_STATE;
}

c2d_status c2d_world_set_capsule_motion(c2d_world *w, c2d_capsule_id id, c2d_vec2 velocity,
                                        float angular_velocity) {
    uint32_t k;
    c2d_status st = kinematic_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!finite_vec(velocity) || !finite(angular_velocity)) return C2D_ERROR_VALUE;
    w->kin[k].velocity = velocity;
    w->kin[k].angular_velocity = angular_velocity;
    w->kin_target[k] = 0;
    return C2D_OK;
}

c2d_status c2d_world_move_capsule_to(c2d_world *w, c2d_capsule_id id, c2d_capsule target) {
    uint32_t k;
    c2d_status st = kinematic_for_change(w, id, &k);
    if (st != C2D_OK) return st;
    if (!shape_valid(target) || target.radius != w->shape[k].radius) return C2D_ERROR_VALUE;
    w->kin_target[k] = 1;
    w->kin_goal[k] = target;
    return C2D_OK;
}

bool c2d_world_capsule(const c2d_world *w, c2d_capsule_id id, c2d_capsule *shape) {
    uint32_t k;
    if (!w || busy(w) || !c2d_world_lookup_capsule(w, id, &k)) return false;
    if (shape) *shape = w->shape[k];
    return true;
}

uint64_t c2d_world_capsule_user_data(const c2d_world *w, c2d_capsule_id id) {
    uint32_t k;
    if (!w || busy(w) || !c2d_world_lookup_capsule(w, id, &k)) return 0;
    return w->capsule_user_data[k];
}

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
    w->static_radius_max = 0.0f;
    for (size_t i = 0; i < ns; i++)
        w->static_radius_max =
            fmaxf(w->static_radius_max, fabsf(w->shape[w->static_map[i]].radius));
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

/* ---- hash ---- */

/* FNV-1a over bytes, 64 bits: small, portable, and the same on every platform. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t fnv_float(uint64_t h, float v) {
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    unsigned char b[4] = {(unsigned char)bits, (unsigned char)(bits >> 8),
                          (unsigned char)(bits >> 16), (unsigned char)(bits >> 24)};
    return fnv(h, b, 4);
}

uint64_t c2d_world_hash(const c2d_world *w) {
    if (!w || busy(w)) return 0;
    uint64_t h = 0xcbf29ce484222325ull;
    /* In id order: slots ascending (an id is its slot plus a generation). */
    for (size_t s = 0; s < w->ball_slots.count; s++) {
        uint32_t k = w->ball_slots.dense[s];
        if (k == C2D_NONE) continue;
        uint32_t id = w->ids[k];
        unsigned char idb[4] = {(unsigned char)id, (unsigned char)(id >> 8),
                                (unsigned char)(id >> 16), (unsigned char)(id >> 24)};
        h = fnv(h, idb, 4);
        h = fnv_float(h, w->x[k]);
        h = fnv_float(h, w->y[k]);
        h = fnv_float(h, w->vx[k]);
        h = fnv_float(h, w->vy[k]);
        h = fnv_float(h, w->angle[k]);
        h = fnv_float(h, w->angular_velocity[k]);
        unsigned char awake = (w->flags[k] & WORLD_BALL_AWAKE) != 0;
        h = fnv(h, &awake, 1);
    }
    for (size_t s = 0; s < w->capsule_slots.count; s++) {
        uint32_t k = w->capsule_slots.dense[s];
        if (k == C2D_NONE || w->motion[k] != C2D_KINEMATIC) continue;
        h = fnv_float(h, w->shape[k].a.x);
        h = fnv_float(h, w->shape[k].a.y);
        h = fnv_float(h, w->shape[k].b.x);
        h = fnv_float(h, w->shape[k].b.y);
    }
    return h;
}
