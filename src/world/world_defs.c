/* The defs of the world, its balls and its capsules: their defaults, the ranges their values
 * must lie in, and the checks that the calls of the other files share (a world that is
 * stepping, an id listed twice). */
#include <math.h>

#include "world_internal.h"

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
        .max_speed = 10000.0f,
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
        .gravity_scale = 1.0f,
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

bool c2d_world_finite(float v) {
    return isfinite(v);
}
static bool positive(float v) {
    return isfinite(v) && v > 0.0f;
}
bool c2d_world_non_negative(float v) {
    return isfinite(v) && v >= 0.0f;
}
bool c2d_world_finite_vec(c2d_vec2 v) {
    return isfinite(v.x) && isfinite(v.y);
}

bool c2d_world_def_valid(const c2d_world_def *d) {
    bool tasks = (d->enqueue_task == NULL) == (d->finish_task == NULL);
    return c2d_world_finite_vec(d->gravity) && d->substeps >= 1 && d->substeps <= 64 &&
           positive(d->contact_hertz) && c2d_world_non_negative(d->contact_damping_ratio) &&
           positive(d->max_push_speed) && c2d_world_non_negative(d->restitution_threshold) &&
           c2d_world_non_negative(d->hit_speed) && positive(d->sleep_speed) &&
           positive(d->sleep_time) && c2d_world_finite(d->wake_speed) &&
           d->wake_speed >= d->sleep_speed && c2d_world_non_negative(d->speculative_distance) &&
           positive(d->max_speed) && d->worker_count >= 1 && d->worker_count <= 64 && tasks;
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

bool c2d_world_ball_def_valid(const c2d_ball_def *d) {
    return c2d_world_finite_vec(d->position) && c2d_world_finite_vec(d->velocity) &&
           c2d_world_finite(d->angular_velocity) && positive(d->radius) &&
           c2d_world_non_negative(d->density) && c2d_world_non_negative(d->restitution) &&
           c2d_world_non_negative(d->friction) && c2d_world_non_negative(d->rolling_resistance) &&
           c2d_world_non_negative(d->linear_damping) &&
           c2d_world_non_negative(d->angular_damping) && c2d_world_finite(d->gravity_scale) &&
           mass_in_range(d->density, d->radius);
}

bool c2d_world_shape_valid(c2d_capsule k) {
    return c2d_world_finite_vec(k.a) && c2d_world_finite_vec(k.b) &&
           c2d_world_non_negative(k.radius);
}

bool c2d_world_capsule_def_valid(const c2d_capsule_def *d) {
    if (!c2d_world_shape_valid(d->shape) || !c2d_world_non_negative(d->restitution) ||
        !c2d_world_non_negative(d->friction))
        return false;
    if (d->motion == C2D_STATIC)
        return d->velocity.x == 0.0f && d->velocity.y == 0.0f && d->angular_velocity == 0.0f &&
               c2d_world_finite_vec(d->pivot);
    /* Sensors are static: the sensor scene is rebuilt only when capsules are added or removed. */
    return d->motion == C2D_KINEMATIC && !d->sensor && c2d_world_finite_vec(d->velocity) &&
           c2d_world_finite(d->angular_velocity) && c2d_world_finite_vec(d->pivot);
}

/* A call on a world that is stepping (from a task or another thread) is refused. */
bool c2d_world_busy(const c2d_world *w) {
    return atomic_load(&((c2d_world *)w)->stepping) != 0;
}

bool c2d_world_listed_twice(const uint32_t *ids, size_t i) {
    for (size_t j = 0; j < i; j++)
        if (ids[j] == ids[i]) return true;
    return false;
}
