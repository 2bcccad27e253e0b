/* Tests of collide2d/world.h's API and bad input, black-box (the public header only): the
 * defaults, every def field's range, NULLs, ids, the control calls, dt, calls made during a
 * step, the status string, counts past the limit, failed allocations and determinism.
 * "Changes nothing" is checked on the whole observable state: every array of
 * c2d_world_get_balls() byte for byte, the counts, each ball's user data and awake flag, the
 * capsules' shapes and c2d_world_hash(). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collide2d.h"

#define DT (1.0f / 60.0f)

/* A non-NULL value for out-pointers that a refused create must set to NULL. */
static char sentinel;
#define NOT_A_WORLD ((c2d_world *)(void *)&sentinel)

static c2d_world *make_world(const c2d_world_def *def) {
    c2d_world *w = NULL;
    assert_int_equal(c2d_world_create(def, &w), C2D_OK);
    assert_non_null(w);
    return w;
}

static c2d_world *default_world(void) {
    const c2d_world_def def = c2d_world_default_def();
    return make_world(&def);
}

static c2d_ball_def ball_at(float x, float y, uint64_t user_data) {
    c2d_ball_def d = c2d_ball_default_def();
    d.position = (c2d_vec2){x, y};
    d.user_data = user_data;
    return d;
}

static c2d_ball_id add_ball_def(c2d_world *w, const c2d_ball_def *d) {
    c2d_ball_id id = C2D_NONE;
    assert_int_equal(c2d_world_add_balls(w, d, 1, &id), C2D_OK);
    assert_int_not_equal(id, C2D_NONE);
    return id;
}

static c2d_ball_id add_ball(c2d_world *w, float x, float y, uint64_t user_data) {
    const c2d_ball_def d = ball_at(x, y, user_data);
    return add_ball_def(w, &d);
}

static c2d_capsule_id add_capsule(c2d_world *w, const c2d_capsule_def *d) {
    c2d_capsule_id id = C2D_NONE;
    assert_int_equal(c2d_world_add_capsules(w, d, 1, &id), C2D_OK);
    assert_int_not_equal(id, C2D_NONE);
    return id;
}

/* A static floor whose top is at y = 0.5. */
static c2d_capsule_def floor_def(void) {
    c2d_capsule_def d = c2d_capsule_default_def();
    d.shape = (c2d_capsule){{-50.0f, 0.0f}, {50.0f, 0.0f}, 0.5f};
    return d;
}

/* A kinematic flipper turning about its left end, far from the balls. */
static c2d_capsule_def flipper_def(void) {
    c2d_capsule_def d = c2d_capsule_default_def();
    d.shape = (c2d_capsule){{20.0f, 5.0f}, {23.0f, 5.0f}, 0.25f};
    d.motion = C2D_KINEMATIC;
    d.pivot = (c2d_vec2){20.0f, 5.0f};
    d.angular_velocity = 1.0f;
    d.user_data = 0x123456789ABCDEF0u;
    return d;
}

static bool same_float(float a, float b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

/* The world most tests refuse calls on: a floor, a turning flipper, three balls (one resting,
 * two falling) and five steps taken, so that velocities, angles and the kinematic capsule's
 * endpoints are all in the hash. */
typedef struct fixture {
    c2d_world *w;
    c2d_ball_id ball[3];
    c2d_capsule_id floor, flipper;
} fixture;

static void fixture_make_def(fixture *f, const c2d_world_def *def) {
    f->w = make_world(def);
    const c2d_capsule_def fl = floor_def(), fp = flipper_def();
    f->floor = add_capsule(f->w, &fl);
    f->flipper = add_capsule(f->w, &fp);
    f->ball[0] = add_ball(f->w, 0.0f, 1.0f, 11);
    f->ball[1] = add_ball(f->w, 1.2f, 3.0f, 22);
    f->ball[2] = add_ball(f->w, -5.0f, 8.0f, 33);
    for (int i = 0; i < 5; i++)
        assert_int_equal(c2d_world_step(f->w, DT), C2D_OK);
}

static void fixture_make(fixture *f) {
    const c2d_world_def def = c2d_world_default_def();
    fixture_make_def(f, &def);
}

enum { SNAP_MAX = 64 };

typedef struct snapshot {
    uint64_t hash;
    size_t balls, capsules, awake;
    float arrays[7][SNAP_MAX]; /* x, y, vx, vy, angle, angular_velocity, radius */
    c2d_ball_id ids[SNAP_MAX];
    uint64_t user_data[SNAP_MAX];
    bool ball_awake[SNAP_MAX];
    c2d_capsule shape[2]; /* the floor, the flipper */
    uint64_t capsule_user_data[2];
} snapshot;

static void snap(const fixture *f, snapshot *s) {
    memset(s, 0, sizeof *s);
    s->hash = c2d_world_hash(f->w);
    s->balls = c2d_world_ball_count(f->w);
    s->capsules = c2d_world_capsule_count(f->w);
    s->awake = c2d_world_awake_count(f->w);
    c2d_world_balls b;
    assert_int_equal(c2d_world_get_balls(f->w, &b), C2D_OK);
    assert_int_equal(b.count, s->balls);
    assert_true(b.count <= SNAP_MAX);
    const float *arrays[7] = {b.x, b.y, b.vx, b.vy, b.angle, b.angular_velocity, b.radius};
    for (int a = 0; a < 7; a++)
        if (b.count > 0) memcpy(s->arrays[a], arrays[a], b.count * sizeof(float));
    if (b.count > 0) memcpy(s->ids, b.ids, b.count * sizeof(c2d_ball_id));
    for (size_t k = 0; k < b.count; k++) {
        s->user_data[k] = c2d_world_ball_user_data(f->w, b.ids[k]);
        s->ball_awake[k] = c2d_world_ball_awake(f->w, b.ids[k]);
    }
    const c2d_capsule_id caps[2] = {f->floor, f->flipper};
    for (int c = 0; c < 2; c++) {
        assert_true(c2d_world_capsule(f->w, caps[c], &s->shape[c]));
        s->capsule_user_data[c] = c2d_world_capsule_user_data(f->w, caps[c]);
    }
}

/* A test that tries many cases may collect its failures and report them all at its end
 * (end_collect), so that one wrong case does not hide the others. */
static struct {
    bool on;
    int count;
    size_t len;
    char text[8192];
} collected;

static void begin_collect(void) {
    memset(&collected, 0, sizeof collected);
    collected.on = true;
}

static void end_collect(void) {
    collected.on = false;
    if (collected.count > 0) fail_msg("%d case(s) failed:\n%s", collected.count, collected.text);
}

/* Fails now, or records the failure when collecting. */
static void failure(const char *fmt, ...) {
    char line[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(line, sizeof line, fmt, args);
    va_end(args);
    if (!collected.on) fail_msg("%s", line);
    collected.count++;
    const size_t room = sizeof collected.text - collected.len;
    const int n = snprintf(collected.text + collected.len, room, "  %s\n", line);
    if (n > 0) collected.len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Fails, naming `what`, when the world differs from `before` in any byte it shows. */
static bool expect_unchanged(const fixture *f, const snapshot *before, const char *what) {
    snapshot now;
    snap(f, &now);
    const char *diff = NULL;
    if (now.balls != before->balls)
        diff = "ball count";
    else if (now.capsules != before->capsules)
        diff = "capsule count";
    else if (now.awake != before->awake)
        diff = "awake count";
    else if (now.hash != before->hash)
        diff = "hash";
    else if (memcmp(now.ids, before->ids, sizeof now.ids) != 0)
        diff = "ids";
    else if (memcmp(now.user_data, before->user_data, sizeof now.user_data) != 0)
        diff = "user data";
    else if (memcmp(now.ball_awake, before->ball_awake, sizeof now.ball_awake) != 0)
        diff = "awake flags";
    else if (memcmp(now.shape, before->shape, sizeof now.shape) != 0)
        diff = "capsule shapes";
    else if (memcmp(now.capsule_user_data, before->capsule_user_data,
                    sizeof now.capsule_user_data) != 0)
        diff = "capsule user data";
    else
        for (int a = 0; a < 7 && !diff; a++)
            if (memcmp(now.arrays[a], before->arrays[a], sizeof now.arrays[a]) != 0)
                diff = "ball arrays";
    if (diff) failure("%s changed the world (%s)", what, diff);
    return diff == NULL;
}

static bool expect_status(c2d_status got, c2d_status want, const char *what) {
    if (got != want)
        failure("%s: got %d (%s), expected %d (%s)", what, (int)got, c2d_status_string(got),
                (int)want, c2d_status_string(want));
    return got == want;
}

/* ---- 1. Defaults ---------------------------------------------------------------------- */

static void test_defaults(void **state) {
    (void)state;
    const c2d_world_def d = c2d_world_default_def();
    assert_true(d.gravity.x == 0.0f && d.gravity.y == -10.0f);
    assert_int_equal(d.substeps, 8);
    assert_true(d.contact_hertz == 120.0f);
    assert_true(d.contact_damping_ratio == 10.0f);
    assert_true(d.max_push_speed == 1.0f);
    assert_true(d.restitution_threshold == 1.0f);
    assert_true(d.hit_speed == 1.0f);
    assert_true(d.enable_sleep);
    assert_true(d.sleep_speed == 0.05f);
    assert_true(d.sleep_time == 0.3f);
    assert_true(d.wake_speed == 0.2f);
    assert_true(d.speculative_distance == 0.05f);
    assert_true(d.max_speed == 10000.0f);
    assert_null(d.allocator);
    assert_int_equal(d.worker_count, 1);
    assert_null(d.enqueue_task);
    assert_null(d.finish_task);
    assert_null(d.user_task_context);

    const c2d_ball_def b = c2d_ball_default_def();
    assert_true(b.position.x == 0.0f && b.position.y == 0.0f);
    assert_true(b.velocity.x == 0.0f && b.velocity.y == 0.0f);
    assert_true(b.angular_velocity == 0.0f);
    assert_true(b.radius == 0.5f);
    assert_true(b.density == 1.0f);
    assert_true(b.restitution == 0.0f);
    assert_true(b.friction == 0.6f);
    assert_true(b.rolling_resistance == 0.05f);
    assert_true(b.linear_damping == 0.0f);
    assert_true(b.angular_damping == 0.0f);
    assert_true(b.gravity_scale == 1.0f);
    assert_int_equal(b.category, C2D_FILTER_ALL);
    assert_int_equal(b.mask, C2D_FILTER_ALL);
    assert_false(b.events);
    assert_true(b.enable_sleep);
    assert_int_equal(b.user_data, 0);

    const c2d_capsule_def c = c2d_capsule_default_def();
    const c2d_capsule zero = {{0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f};
    assert_memory_equal(&c.shape, &zero, sizeof zero);
    assert_int_equal(c.motion, C2D_STATIC);
    /* Unnamed in world.h, but a static capsule refuses any motion: they must be zero. */
    assert_true(c.velocity.x == 0.0f && c.velocity.y == 0.0f && c.angular_velocity == 0.0f);
    assert_true(c.restitution == 1.0f);
    assert_true(c.friction == 1.0f);
    assert_int_equal(c.category, C2D_FILTER_ALL);
    assert_int_equal(c.mask, C2D_FILTER_ALL);
    assert_false(c.sensor);
    assert_false(c.events);
    assert_int_equal(c.user_data, 0);

    /* The defaults are inside every range. */
    c2d_world *w = make_world(&d);
    c2d_ball_id bid;
    c2d_capsule_id cid;
    assert_int_equal(c2d_world_add_balls(w, &b, 1, &bid), C2D_OK);
    assert_int_equal(c2d_world_add_capsules(w, &c, 1, &cid), C2D_OK);
    assert_int_equal(c2d_world_step(w, DT), C2D_OK);
    c2d_world_destroy(w);
}

/* ---- 2. Ranges ------------------------------------------------------------------------ */

typedef enum range { FINITE, POSITIVE, NONNEG } range;

/* The setters of a ball's def fields after it was added, with each field's range and where
 * c2d_ball_state reads it back. */
typedef struct setter {
    const char *name;
    c2d_status (*set)(c2d_world *, c2d_ball_id, float);
    range range;
    size_t state_offset; /* in c2d_ball_state */
} setter;
enum { SETTER_COUNT = 6 };
static const setter setters[SETTER_COUNT] = {
    {"set_ball_friction", c2d_world_set_ball_friction, NONNEG, offsetof(c2d_ball_state, friction)},
    {"set_ball_restitution", c2d_world_set_ball_restitution, NONNEG,
     offsetof(c2d_ball_state, restitution)},
    {"set_ball_rolling_resistance", c2d_world_set_ball_rolling_resistance, NONNEG,
     offsetof(c2d_ball_state, rolling_resistance)},
    {"set_ball_linear_damping", c2d_world_set_ball_linear_damping, NONNEG,
     offsetof(c2d_ball_state, linear_damping)},
    {"set_ball_angular_damping", c2d_world_set_ball_angular_damping, NONNEG,
     offsetof(c2d_ball_state, angular_damping)},
    {"set_ball_gravity_scale", c2d_world_set_ball_gravity_scale, FINITE,
     offsetof(c2d_ball_state, gravity_scale)},
};

typedef struct field {
    const char *name;
    size_t offset;
    range range;
} field;

/* Outside: NaN, the infinities and the nearest bad finite values (-0 is not > 0). */
static const float bad_finite[] = {NAN, INFINITY, -INFINITY};
static const float bad_positive[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, -FLT_TRUE_MIN, -1.0f};
static const float bad_nonneg[] = {NAN, INFINITY, -INFINITY, -FLT_TRUE_MIN, -1.0f};
/* Just inside (-0 >= 0 holds). */
static const float ok_finite[] = {-FLT_MAX, FLT_MAX, 0.0f};
static const float ok_positive[] = {FLT_TRUE_MIN, FLT_MAX};
static const float ok_nonneg[] = {0.0f, -0.0f, FLT_MAX};

static const float *values(range r, bool ok, size_t *n) {
#define PICK(a)                                                                                    \
    do {                                                                                           \
        *n = sizeof(a) / sizeof(a[0]);                                                             \
        return a;                                                                                  \
    } while (0)
    switch (r) {
    case FINITE:
        if (ok) PICK(ok_finite);
        PICK(bad_finite);
    case POSITIVE:
        if (ok) PICK(ok_positive);
        PICK(bad_positive);
    case NONNEG:
        if (ok) PICK(ok_nonneg);
        PICK(bad_nonneg);
    }
#undef PICK
    *n = 0;
    return NULL;
}

static void set_float(void *def, size_t offset, float v) {
    memcpy((char *)def + offset, &v, sizeof v);
}

/* create(def) must return `want`; on a refusal *world is NULL. */
static void check_create(const c2d_world_def *def, c2d_status want, const char *what) {
    c2d_world *w = NOT_A_WORLD;
    const c2d_status got = c2d_world_create(def, &w);
    if (got == C2D_OK && w != NOT_A_WORLD) c2d_world_destroy(w);
    if (expect_status(got, want, what) && want != C2D_OK && w != NULL)
        failure("%s: *world is not NULL after a refusal", what);
}

static void *dummy_enqueue(c2d_task_fn *task, int item_count, int min_range, void *task_context,
                           void *user_context) {
    (void)min_range;
    (void)user_context;
    if (item_count > 0) task(0, item_count, 0, task_context);
    return NULL;
}

static void dummy_finish(void *user_task, void *user_context) {
    (void)user_task;
    (void)user_context;
}

static void *never_alloc(size_t size, void *user) {
    (void)size;
    (void)user;
    return NULL;
}

static void test_world_def_ranges(void **state) {
    (void)state;
    begin_collect();
    static const field fields[] = {
        {"gravity.x", offsetof(c2d_world_def, gravity.x), FINITE},
        {"gravity.y", offsetof(c2d_world_def, gravity.y), FINITE},
        {"contact_hertz", offsetof(c2d_world_def, contact_hertz), POSITIVE},
        {"contact_damping_ratio", offsetof(c2d_world_def, contact_damping_ratio), NONNEG},
        {"max_push_speed", offsetof(c2d_world_def, max_push_speed), POSITIVE},
        {"restitution_threshold", offsetof(c2d_world_def, restitution_threshold), NONNEG},
        {"hit_speed", offsetof(c2d_world_def, hit_speed), NONNEG},
        {"sleep_speed", offsetof(c2d_world_def, sleep_speed), POSITIVE},
        {"sleep_time", offsetof(c2d_world_def, sleep_time), POSITIVE},
        {"speculative_distance", offsetof(c2d_world_def, speculative_distance), NONNEG},
        {"max_speed", offsetof(c2d_world_def, max_speed), POSITIVE},
    };
    char what[128];
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        for (int ok = 0; ok < 2; ok++) {
            size_t n;
            const float *v = values(fields[f].range, ok, &n);
            for (size_t i = 0; i < n; i++) {
                c2d_world_def d = c2d_world_default_def();
                d.wake_speed = FLT_MAX; /* >= any finite sleep_speed */
                set_float(&d, fields[f].offset, v[i]);
                snprintf(what, sizeof what, "world_def.%s = %g", fields[f].name, (double)v[i]);
                check_create(&d, ok ? C2D_OK : C2D_ERROR_VALUE, what);
            }
        }
    }

    /* wake_speed >= sleep_speed and finite. */
    const c2d_world_def base = c2d_world_default_def();
    const float bad_wake[] = {NAN,  INFINITY, -INFINITY, nextafterf(base.sleep_speed, 0.0f),
                              0.0f, -1.0f};
    for (size_t i = 0; i < sizeof bad_wake / sizeof bad_wake[0]; i++) {
        c2d_world_def d = base;
        d.wake_speed = bad_wake[i];
        snprintf(what, sizeof what, "world_def.wake_speed = %.9g", (double)bad_wake[i]);
        check_create(&d, C2D_ERROR_VALUE, what);
    }
    c2d_world_def d = base;
    d.sleep_speed = base.wake_speed * 1.5f; /* now the default wake_speed is below it */
    check_create(&d, C2D_ERROR_VALUE, "sleep_speed above the default wake_speed");
    d = base;
    d.wake_speed = d.sleep_speed;
    check_create(&d, C2D_OK, "wake_speed == sleep_speed");
    d.wake_speed = FLT_MAX;
    check_create(&d, C2D_OK, "wake_speed = FLT_MAX");

    /* substeps and worker_count: 1 to 64. */
    const int bad_ints[] = {0, -1, 65, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof bad_ints / sizeof bad_ints[0]; i++) {
        d = base;
        d.substeps = bad_ints[i];
        snprintf(what, sizeof what, "world_def.substeps = %d", bad_ints[i]);
        check_create(&d, C2D_ERROR_VALUE, what);
        d = base;
        d.worker_count = bad_ints[i];
        snprintf(what, sizeof what, "world_def.worker_count = %d", bad_ints[i]);
        check_create(&d, C2D_ERROR_VALUE, what);
    }
    const int ok_ints[] = {1, 64};
    for (size_t i = 0; i < 2; i++) {
        d = base;
        d.substeps = ok_ints[i];
        snprintf(what, sizeof what, "world_def.substeps = %d", ok_ints[i]);
        check_create(&d, C2D_OK, what);
        d = base;
        d.worker_count = ok_ints[i];
        snprintf(what, sizeof what, "world_def.worker_count = %d", ok_ints[i]);
        check_create(&d, C2D_OK, what);
    }

    /* The task callbacks: both or neither. */
    d = base;
    d.worker_count = 2;
    d.enqueue_task = dummy_enqueue;
    check_create(&d, C2D_ERROR_VALUE, "enqueue_task without finish_task");
    d.enqueue_task = NULL;
    d.finish_task = dummy_finish;
    check_create(&d, C2D_ERROR_VALUE, "finish_task without enqueue_task");
    d.enqueue_task = dummy_enqueue;
    check_create(&d, C2D_OK, "enqueue_task and finish_task");

    /* An allocator with a NULL hook is a NULL pointer that is needed (as c2d_scene_create). */
    const c2d_allocator half = {never_alloc, NULL, NULL};
    d = base;
    d.allocator = &half;
    check_create(&d, C2D_ERROR_NULL, "allocator with a NULL free hook");
    end_collect();
}

static void test_ball_def_ranges(void **state) {
    (void)state;
    begin_collect();
    static const field fields[] = {
        {"position.x", offsetof(c2d_ball_def, position.x), FINITE},
        {"position.y", offsetof(c2d_ball_def, position.y), FINITE},
        {"velocity.x", offsetof(c2d_ball_def, velocity.x), FINITE},
        {"velocity.y", offsetof(c2d_ball_def, velocity.y), FINITE},
        {"angular_velocity", offsetof(c2d_ball_def, angular_velocity), FINITE},
        {"radius", offsetof(c2d_ball_def, radius), POSITIVE},
        {"density", offsetof(c2d_ball_def, density), NONNEG},
        {"restitution", offsetof(c2d_ball_def, restitution), NONNEG},
        {"friction", offsetof(c2d_ball_def, friction), NONNEG},
        {"rolling_resistance", offsetof(c2d_ball_def, rolling_resistance), NONNEG},
        {"linear_damping", offsetof(c2d_ball_def, linear_damping), NONNEG},
        {"angular_damping", offsetof(c2d_ball_def, angular_damping), NONNEG},
        {"gravity_scale", offsetof(c2d_ball_def, gravity_scale), FINITE},
    };
    fixture f;
    fixture_make(&f);
    char what[128];
    snapshot before;
    for (size_t fi = 0; fi < sizeof fields / sizeof fields[0]; fi++) {
        size_t n;
        const float *v = values(fields[fi].range, false, &n);
        for (size_t i = 0; i < n; i++) {
            /* Alone, and last of three good ones: all or nothing. */
            c2d_ball_def defs[3] = {ball_at(-10, 20, 1), ball_at(-12, 20, 2), ball_at(-14, 20, 3)};
            set_float(&defs[2], fields[fi].offset, v[i]);
            c2d_ball_id ids[3];
            snap(&f, &before);
            snprintf(what, sizeof what, "add_balls, ball_def.%s = %g", fields[fi].name,
                     (double)v[i]);
            expect_status(c2d_world_add_balls(f.w, &defs[2], 1, ids), C2D_ERROR_VALUE, what);
            expect_unchanged(&f, &before, what);
            snprintf(what, sizeof what, "add_balls of 3, the last with ball_def.%s = %g",
                     fields[fi].name, (double)v[i]);
            expect_status(c2d_world_add_balls(f.w, defs, 3, ids), C2D_ERROR_VALUE, what);
            expect_unchanged(&f, &before, what);
        }
        v = values(fields[fi].range, true, &n);
        for (size_t i = 0; i < n; i++) {
            c2d_ball_def d = ball_at(-10, 20, 1);
            set_float(&d, fields[fi].offset, v[i]);
            /* world.h: a moving ball's mass, inverse mass and inverse inertia must be finite;
             * a huge or tiny radius is accepted on a ball of density 0. */
            if (fields[fi].offset == offsetof(c2d_ball_def, radius) &&
                (v[i] > 1e18f || v[i] < 1e-9f))
                d.density = 0.0f;
            snprintf(what, sizeof what, "add_balls, ball_def.%s = %g", fields[fi].name,
                     (double)v[i]);
            const size_t count = c2d_world_ball_count(f.w);
            c2d_ball_id id;
            if (!expect_status(c2d_world_add_balls(f.w, &d, 1, &id), C2D_OK, what)) continue;
            assert_int_equal(c2d_world_ball_count(f.w), count + 1);
            expect_status(c2d_world_remove_balls(f.w, &id, 1), C2D_OK, what);
        }
    }
    c2d_world_destroy(f.w);
    end_collect();
}

/* Each setter refuses what its def field refuses, changing nothing (the state reads the old
 * value back), and takes what it takes (read back exactly); the filter takes any words. */
static void test_setter_ranges(void **state) {
    (void)state;
    begin_collect();
    fixture f;
    fixture_make(&f);
    const c2d_ball_id id = f.ball[1];
    char what[128];
    for (int si = 0; si < SETTER_COUNT; si++) {
        const setter *st = &setters[si];
        c2d_ball_state before, after;
        assert_true(c2d_world_ball_state(f.w, id, &before));
        snapshot world;
        snap(&f, &world);
        size_t n;
        const float *v = values(st->range, false, &n);
        for (size_t i = 0; i < n; i++) {
            snprintf(what, sizeof what, "%s(%g)", st->name, (double)v[i]);
            expect_status(st->set(f.w, id, v[i]), C2D_ERROR_VALUE, what);
            expect_unchanged(&f, &world, what);
            assert_true(c2d_world_ball_state(f.w, id, &after));
            /* (field by field: a struct's padding bytes are not its value) */
            if (memcmp((const char *)&before + st->state_offset,
                       (const char *)&after + st->state_offset, sizeof(float)) != 0 ||
                before.awake != after.awake)
                fail_msg("%s: a refused value changed the ball", what);
        }
        v = values(st->range, true, &n);
        for (size_t i = 0; i < n; i++) {
            snprintf(what, sizeof what, "%s(%g)", st->name, (double)v[i]);
            expect_status(st->set(f.w, id, v[i]), C2D_OK, what);
            assert_true(c2d_world_ball_state(f.w, id, &after));
            float got;
            memcpy(&got, (const char *)&after + st->state_offset, sizeof got);
            if (memcmp(&got, &v[i], sizeof got) != 0) fail_msg("%s: read back %g", what, got);
        }
    }
    expect_status(c2d_world_set_ball_filter(f.w, id, 0x5u, 0xFFFFFFF0u), C2D_OK, "set_filter");
    c2d_ball_state bs;
    assert_true(c2d_world_ball_state(f.w, id, &bs));
    assert_int_equal(bs.category, 0x5u);
    assert_int_equal(bs.mask, 0xFFFFFFF0u);
    c2d_world_destroy(f.w);
    end_collect();
}

static void test_capsule_def_ranges(void **state) {
    (void)state;
    begin_collect();
    static const field fields[] = {
        {"shape.a.x", offsetof(c2d_capsule_def, shape.a.x), FINITE},
        {"shape.a.y", offsetof(c2d_capsule_def, shape.a.y), FINITE},
        {"shape.b.x", offsetof(c2d_capsule_def, shape.b.x), FINITE},
        {"shape.b.y", offsetof(c2d_capsule_def, shape.b.y), FINITE},
        {"shape.radius", offsetof(c2d_capsule_def, shape.radius), NONNEG},
        {"restitution", offsetof(c2d_capsule_def, restitution), NONNEG},
        {"friction", offsetof(c2d_capsule_def, friction), NONNEG},
        /* Kinematic only (tried on a kinematic def). */
        {"velocity.x", offsetof(c2d_capsule_def, velocity.x), FINITE},
        {"velocity.y", offsetof(c2d_capsule_def, velocity.y), FINITE},
        {"angular_velocity", offsetof(c2d_capsule_def, angular_velocity), FINITE},
        {"pivot.x", offsetof(c2d_capsule_def, pivot.x), FINITE},
        {"pivot.y", offsetof(c2d_capsule_def, pivot.y), FINITE},
    };
    fixture f;
    fixture_make(&f);
    char what[160];
    snapshot before;
    c2d_capsule_def good[2] = {floor_def(), flipper_def()};
    for (size_t fi = 0; fi < sizeof fields / sizeof fields[0]; fi++) {
        for (int m = 0; m < 2; m++) {
            const bool kinematic = m == 1;
            if (fi >= 7 && !kinematic) continue;
            size_t n;
            const float *v = values(fields[fi].range, false, &n);
            for (size_t i = 0; i < n; i++) {
                c2d_capsule_def defs[3] = {floor_def(), flipper_def(), good[m]};
                set_float(&defs[2], fields[fi].offset, v[i]);
                c2d_capsule_id ids[3];
                snap(&f, &before);
                snprintf(what, sizeof what, "add_capsules, %s capsule_def.%s = %g",
                         kinematic ? "kinematic" : "static", fields[fi].name, (double)v[i]);
                expect_status(c2d_world_add_capsules(f.w, &defs[2], 1, ids), C2D_ERROR_VALUE, what);
                expect_unchanged(&f, &before, what);
                expect_status(c2d_world_add_capsules(f.w, defs, 3, ids), C2D_ERROR_VALUE, what);
                expect_unchanged(&f, &before, what);
            }
            v = values(fields[fi].range, true, &n);
            for (size_t i = 0; i < n; i++) {
                c2d_capsule_def d = good[m];
                set_float(&d, fields[fi].offset, v[i]);
                snprintf(what, sizeof what, "add_capsules, %s capsule_def.%s = %g",
                         kinematic ? "kinematic" : "static", fields[fi].name, (double)v[i]);
                const size_t count = c2d_world_capsule_count(f.w);
                c2d_capsule_id id;
                if (!expect_status(c2d_world_add_capsules(f.w, &d, 1, &id), C2D_OK, what)) continue;
                assert_int_equal(c2d_world_capsule_count(f.w), count + 1);
                expect_status(c2d_world_remove_capsules(f.w, &id, 1), C2D_OK, what);
            }
        }
    }

    /* A static capsule refuses any motion; a motion must be one of the two. */
    enum { BAD = 7 };
    c2d_capsule_def bad[BAD];
    const char *names[BAD] = {"static with velocity.x = 1",
                              "static with velocity.y = -1",
                              "static with angular_velocity = 1",
                              "motion = 2",
                              "motion = -1",
                              "a kinematic sensor",
                              "a kinematic sensor at rest"};
    for (int i = 0; i < BAD; i++)
        bad[i] = floor_def();
    bad[0].velocity.x = 1.0f;
    bad[1].velocity.y = -1.0f;
    bad[2].angular_velocity = 1.0f;
    bad[3].motion = (c2d_motion)2;
    bad[4].motion = (c2d_motion)-1;
    bad[5] = flipper_def();
    bad[5].sensor = true;
    bad[6] = bad[5];
    bad[6].angular_velocity = 0.0f;
    for (int i = 0; i < BAD; i++) {
        c2d_capsule_def defs[2] = {flipper_def(), bad[i]};
        snap(&f, &before);
        expect_status(c2d_world_add_capsules(f.w, defs, 2, NULL), C2D_ERROR_VALUE, names[i]);
        expect_unchanged(&f, &before, names[i]);
    }
    c2d_world_destroy(f.w);
    end_collect();
}

/* ---- 3. NULLs ------------------------------------------------------------------------- */

static void test_nulls(void **state) {
    (void)state;
    const c2d_world_def def = c2d_world_default_def();
    c2d_world *w = NOT_A_WORLD;
    assert_int_equal(c2d_world_create(NULL, &w), C2D_ERROR_NULL);
    assert_null(w);
    assert_int_equal(c2d_world_create(&def, NULL), C2D_ERROR_NULL);
    c2d_world_destroy(NULL);

    fixture f;
    fixture_make(&f);
    snapshot before;
    snap(&f, &before);
    const c2d_ball_def bd = c2d_ball_default_def();
    const c2d_capsule_def cd = floor_def();
    const c2d_ball_id bid = f.ball[0];
    const c2d_capsule_id cid = f.flipper;
    const c2d_capsule target = flipper_def().shape;
    const c2d_vec2 v = {1.0f, 1.0f};

    assert_int_equal(c2d_world_add_balls(NULL, &bd, 1, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_add_balls(f.w, NULL, 1, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_remove_balls(NULL, &bid, 1), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_remove_balls(f.w, NULL, 1), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_add_capsules(NULL, &cd, 1, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_add_capsules(f.w, NULL, 1, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_remove_capsules(NULL, &cid, 1), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_remove_capsules(f.w, NULL, 1), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_set_capsule_motion(NULL, cid, v, 0.0f), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_move_capsule_to(NULL, cid, target), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_step(NULL, DT), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_set_ball_position(NULL, bid, v), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_set_ball_velocity(NULL, bid, v), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_apply_ball_impulse(NULL, bid, v), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_apply_ball_force(NULL, bid, v), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_set_ball_angular_velocity(NULL, bid, 1.0f), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_set_gravity(NULL, v), C2D_ERROR_NULL);
    for (int i = 0; i < SETTER_COUNT; i++)
        assert_int_equal(setters[i].set(NULL, bid, 0.5f), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_set_ball_filter(NULL, bid, 1, 1), C2D_ERROR_NULL);
    const c2d_vec2 no_gravity = c2d_world_gravity(NULL);
    assert_true(no_gravity.x == 0.0f && no_gravity.y == 0.0f);
    assert_int_equal(c2d_world_set_ball_awake(NULL, bid, false), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_set_ball_enable_sleep(NULL, bid, false), C2D_ERROR_NULL);
    expect_unchanged(&f, &before, "the NULL calls");

    c2d_world_balls balls;
    assert_int_equal(c2d_world_get_balls(NULL, &balls), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_get_balls(f.w, NULL), C2D_ERROR_NULL);
    c2d_world_events events;
    assert_int_equal(c2d_world_get_events(NULL, &events), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_get_events(f.w, NULL), C2D_ERROR_NULL);
    c2d_world_profile profile;
    assert_int_equal(c2d_world_get_profile(NULL, &profile), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_get_profile(f.w, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_world_get_profile(f.w, &profile), C2D_OK);
    c2d_vec2 p;
    c2d_capsule shape;
    assert_false(c2d_world_ball(NULL, bid, &p, &p));
    assert_true(c2d_world_ball(f.w, bid, NULL, NULL));
    assert_false(c2d_world_capsule(NULL, cid, &shape));
    assert_true(c2d_world_capsule(f.w, cid, NULL));
    c2d_capsule_motion motion;
    assert_false(c2d_world_capsule_motion(NULL, cid, &motion));
    assert_true(c2d_world_capsule_motion(f.w, cid, NULL));
    c2d_ball_state ball_state;
    assert_false(c2d_world_ball_state(NULL, bid, &ball_state));
    assert_true(c2d_world_ball_state(f.w, bid, NULL));
    assert_false(c2d_world_ball_awake(NULL, bid));
    assert_int_equal(c2d_world_ball_user_data(NULL, bid), 0);
    assert_int_equal(c2d_world_capsule_user_data(NULL, cid), 0);
    assert_int_equal(c2d_world_awake_count(NULL), 0);
    assert_int_equal(c2d_world_ball_count(NULL), 0);
    assert_int_equal(c2d_world_capsule_count(NULL), 0);
    assert_int_equal(c2d_world_hash(NULL), 0);

    /* Count 0: NULL arrays are fine and nothing changes. */
    assert_int_equal(c2d_world_add_balls(f.w, NULL, 0, NULL), C2D_OK);
    assert_int_equal(c2d_world_remove_balls(f.w, NULL, 0), C2D_OK);
    assert_int_equal(c2d_world_add_capsules(f.w, NULL, 0, NULL), C2D_OK);
    assert_int_equal(c2d_world_remove_capsules(f.w, NULL, 0), C2D_OK);
    expect_unchanged(&f, &before, "the calls of count 0");
    /* ids may be NULL. */
    assert_int_equal(c2d_world_add_balls(f.w, &bd, 1, NULL), C2D_OK);
    assert_int_equal(c2d_world_add_capsules(f.w, &cd, 1, NULL), C2D_OK);
    assert_int_equal(c2d_world_ball_count(f.w), before.balls + 1);
    assert_int_equal(c2d_world_capsule_count(f.w), before.capsules + 1);
    c2d_world_destroy(f.w);
}

/* The queries' NULLs, under batch.h's rules: a NULL `count`, or `out` NULL with a capacity,
 * is NULL and *count is 0 after an error; `out` NULL with capacity 0 is a size query. */
static void test_query_nulls(void **state) {
    (void)state;
    fixture f;
    fixture_make(&f);
    c2d_world_ray_hit hit;
    const c2d_vec2 o = {-30.0f, 1.0f}, t = {60.0f, 0.0f};
    assert_int_equal(c2d_world_cast_ray(NULL, o, t, C2D_FILTER_ALL, C2D_FILTER_ALL, &hit),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_world_cast_ray(f.w, o, t, C2D_FILTER_ALL, C2D_FILTER_ALL, NULL),
                     C2D_ERROR_NULL);

    const c2d_box box = {{-100.0f, -100.0f}, {100.0f, 100.0f}};
    const c2d_circle disc = {{0.0f, 1.0f}, 100.0f};
    const c2d_vec2 point = {0.0f, 0.0f};
    c2d_world_shape_ref refs[16];
    const uint32_t all = C2D_FILTER_ALL;
    size_t n = 99;
    assert_int_equal(c2d_world_query_box(NULL, box, all, all, refs, 16, &n), C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_world_query_box(f.w, box, all, all, refs, 16, NULL), C2D_ERROR_NULL);
    n = 99;
    assert_int_equal(c2d_world_query_box(f.w, box, all, all, NULL, 16, &n), C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_world_query_box(f.w, box, all, all, NULL, 0, &n), C2D_OK);
    assert_int_equal(n, 5); /* three balls, the floor, the flipper */
    n = 99;
    assert_int_equal(c2d_world_query_disc(NULL, disc, all, all, refs, 16, &n), C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_world_query_disc(f.w, disc, all, all, refs, 16, NULL), C2D_ERROR_NULL);
    n = 99;
    assert_int_equal(c2d_world_query_disc(f.w, disc, all, all, NULL, 16, &n), C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_world_query_disc(f.w, disc, all, all, NULL, 0, &n), C2D_OK);
    assert_int_equal(n, 5);
    n = 99;
    assert_int_equal(c2d_world_query_point(NULL, point, all, all, refs, 16, &n), C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_world_query_point(f.w, point, all, all, refs, 16, NULL), C2D_ERROR_NULL);
    n = 99;
    assert_int_equal(c2d_world_query_point(f.w, point, all, all, NULL, 16, &n), C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_world_query_point(f.w, point, all, all, NULL, 0, &n), C2D_OK);
    assert_int_equal(n, 1); /* the floor's axis passes through the origin */

    c2d_world_destroy(f.w);
}

/* ---- 4. Ids --------------------------------------------------------------------------- */

static void expect_ball_refused(c2d_world *w, c2d_ball_id id, const char *what) {
    const c2d_vec2 v = {1.0f, 2.0f};
    char msg[160];
    snprintf(msg, sizeof msg, "%s: id 0x%08x", what, (unsigned)id);
    if (c2d_world_ball(w, id, NULL, NULL)) fail_msg("%s: c2d_world_ball is true", msg);
    c2d_ball_state state = {.radius = -1.0f};
    if (c2d_world_ball_state(w, id, &state) || state.radius != -1.0f)
        fail_msg("%s: c2d_world_ball_state is true or wrote", msg);
    if (c2d_world_ball_awake(w, id)) fail_msg("%s: c2d_world_ball_awake is true", msg);
    if (c2d_world_ball_user_data(w, id) != 0) fail_msg("%s: user data not 0", msg);
    expect_status(c2d_world_set_ball_position(w, id, v), C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_set_ball_velocity(w, id, v), C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_apply_ball_impulse(w, id, v), C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_apply_ball_force(w, id, v), C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_set_ball_angular_velocity(w, id, 1.0f), C2D_ERROR_INDEX, msg);
    for (int i = 0; i < SETTER_COUNT; i++)
        expect_status(setters[i].set(w, id, 0.5f), C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_set_ball_filter(w, id, 1, 1), C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_set_ball_awake(w, id, true), C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_set_ball_enable_sleep(w, id, false), C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_remove_balls(w, &id, 1), C2D_ERROR_INDEX, msg);
}

static void expect_capsule_refused(c2d_world *w, c2d_capsule_id id, const char *what) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s: capsule id 0x%08x", what, (unsigned)id);
    if (c2d_world_capsule(w, id, NULL)) fail_msg("%s: c2d_world_capsule is true", msg);
    if (c2d_world_capsule_motion(w, id, NULL))
        fail_msg("%s: c2d_world_capsule_motion is true", msg);
    if (c2d_world_capsule_user_data(w, id) != 0) fail_msg("%s: user data not 0", msg);
    expect_status(c2d_world_set_capsule_motion(w, id, (c2d_vec2){1.0f, 0.0f}, 0.0f),
                  C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_move_capsule_to(w, id, flipper_def().shape), C2D_ERROR_INDEX, msg);
    expect_status(c2d_world_remove_capsules(w, &id, 1), C2D_ERROR_INDEX, msg);
}

static void test_ids_unknown_and_removed(void **state) {
    (void)state;
    fixture f;
    fixture_make(&f);
    snapshot before;
    snap(&f, &before);
    /* Unknown: C2D_NONE, a slot never used, a known slot with another generation. */
    expect_ball_refused(f.w, C2D_NONE, "C2D_NONE");
    expect_ball_refused(f.w, 1000, "slot 1000");
    expect_ball_refused(f.w, f.ball[0] ^ 0x01000000u, "another generation");
    expect_capsule_refused(f.w, C2D_NONE, "C2D_NONE");
    expect_capsule_refused(f.w, 1000, "slot 1000");
    expect_capsule_refused(f.w, f.flipper ^ 0x01000000u, "another generation");
    expect_unchanged(&f, &before, "calls with unknown ids");

    /* Listed twice, or with an unknown id: nothing removed. */
    const c2d_ball_id twice[3] = {f.ball[0], f.ball[1], f.ball[0]};
    expect_status(c2d_world_remove_balls(f.w, twice, 3), C2D_ERROR_INDEX, "a ball listed twice");
    const c2d_ball_id unknown[2] = {f.ball[1], C2D_NONE};
    expect_status(c2d_world_remove_balls(f.w, unknown, 2), C2D_ERROR_INDEX,
                  "a good ball and C2D_NONE");
    const c2d_capsule_id ctwice[3] = {f.floor, f.flipper, f.flipper};
    expect_status(c2d_world_remove_capsules(f.w, ctwice, 3), C2D_ERROR_INDEX,
                  "a capsule listed twice");
    const c2d_capsule_id cunknown[2] = {f.floor, C2D_NONE};
    expect_status(c2d_world_remove_capsules(f.w, cunknown, 2), C2D_ERROR_INDEX,
                  "a good capsule and C2D_NONE");
    expect_unchanged(&f, &before, "removals refused");

    /* Removed. */
    assert_int_equal(c2d_world_remove_balls(f.w, &f.ball[1], 1), C2D_OK);
    assert_int_equal(c2d_world_ball_count(f.w), 2);
    expect_ball_refused(f.w, f.ball[1], "a removed ball");
    assert_int_equal(c2d_world_remove_capsules(f.w, &f.flipper, 1), C2D_OK);
    assert_int_equal(c2d_world_capsule_count(f.w), 1);
    expect_capsule_refused(f.w, f.flipper, "a removed capsule");
    /* Still refused after steps and after new balls and capsules fill the slots. */
    const c2d_capsule_def fp = flipper_def();
    add_ball(f.w, 5.0f, 5.0f, 0);
    add_capsule(f.w, &fp);
    for (int i = 0; i < 3; i++)
        assert_int_equal(c2d_world_step(f.w, DT), C2D_OK);
    expect_ball_refused(f.w, f.ball[1], "a removed ball, its slot reused");
    expect_capsule_refused(f.w, f.flipper, "a removed capsule, its slot reused");
    assert_true(c2d_world_ball(f.w, f.ball[0], NULL, NULL));
    assert_true(c2d_world_ball(f.w, f.ball[2], NULL, NULL));
    c2d_world_destroy(f.w);
}

/* A slot reused 255 times: every id it was given stays refused, none is C2D_NONE. */
static void test_ids_reuse(void **state) {
    (void)state;
    c2d_world *w = default_world();
    const c2d_ball_id keep = add_ball(w, 0.0f, 10.0f, 7);
    const c2d_capsule_def cdef = floor_def();
    enum { ROUNDS = 256 };
    c2d_ball_id ball_ids[ROUNDS];
    c2d_capsule_id capsule_ids[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
        ball_ids[r] = add_ball(w, 3.0f, 10.0f, (uint64_t)r + 100);
        capsule_ids[r] = add_capsule(w, &cdef);
        for (int q = 0; q < r; q++) {
            if (ball_ids[q] == ball_ids[r])
                fail_msg("round %d: ball id 0x%08x was given in round %d", r, (unsigned)ball_ids[r],
                         q);
            if (capsule_ids[q] == capsule_ids[r])
                fail_msg("round %d: capsule id 0x%08x was given in round %d", r,
                         (unsigned)capsule_ids[r], q);
        }
        assert_int_equal(c2d_world_ball_user_data(w, ball_ids[r]), (uint64_t)r + 100);
        assert_int_equal(c2d_world_remove_balls(w, &ball_ids[r], 1), C2D_OK);
        assert_int_equal(c2d_world_remove_capsules(w, &capsule_ids[r], 1), C2D_OK);
        if (r % 64 == 0) assert_int_equal(c2d_world_step(w, DT), C2D_OK);
        /* The first round's ids, refused through every later reuse. */
        if (c2d_world_ball(w, ball_ids[0], NULL, NULL))
            fail_msg("round %d: the first removed ball id is known again", r);
        if (c2d_world_capsule(w, capsule_ids[0], NULL))
            fail_msg("round %d: the first removed capsule id is known again", r);
    }
    for (int r = 0; r < ROUNDS; r++) {
        expect_ball_refused(w, ball_ids[r], "a removed ball, 255 reuses later");
        expect_capsule_refused(w, capsule_ids[r], "a removed capsule, 255 reuses later");
    }
    assert_int_equal(c2d_world_ball_user_data(w, keep), 7);
    assert_int_equal(c2d_world_ball_count(w), 1);
    c2d_world_destroy(w);

    /* Many at once: distinct ids, none C2D_NONE. */
    w = default_world();
    enum { MANY = 1000 };
    c2d_ball_def *defs = malloc(MANY * sizeof *defs);
    c2d_ball_id *ids = malloc(MANY * sizeof *ids);
    assert_non_null(defs);
    assert_non_null(ids);
    for (int i = 0; i < MANY; i++)
        defs[i] = ball_at((float)(i % 40), (float)(i / 40), 0);
    assert_int_equal(c2d_world_add_balls(w, defs, MANY, ids), C2D_OK);
    for (int i = 0; i < MANY; i++) {
        assert_int_not_equal(ids[i], C2D_NONE);
        for (int j = 0; j < i; j++)
            if (ids[i] == ids[j]) fail_msg("ids[%d] == ids[%d] == 0x%08x", i, j, (unsigned)ids[i]);
    }
    free(defs);
    free(ids);
    c2d_world_destroy(w);
}

/* Removing balls keeps the others' ids and data; get_balls' ids[k] names element k; the
 * removed holes are filled and added balls go to the end. */
static void test_ids_survive_removal(void **state) {
    (void)state;
    c2d_world_def def = c2d_world_default_def();
    def.gravity = (c2d_vec2){0.0f, 0.0f};
    c2d_world *w = make_world(&def);
    enum { N = 10 };
    c2d_ball_def defs[N];
    c2d_ball_id ids[N];
    for (int i = 0; i < N; i++) {
        defs[i] = ball_at(3.0f * (float)i, 1.0f + 0.25f * (float)i, 1000u + (uint64_t)i);
        defs[i].velocity = (c2d_vec2){0.5f * (float)i, -0.125f * (float)i};
        defs[i].radius = 0.25f + 0.0625f * (float)i;
    }
    assert_int_equal(c2d_world_add_balls(w, defs, N, ids), C2D_OK);
    c2d_world_balls b;
    assert_int_equal(c2d_world_get_balls(w, &b), C2D_OK);
    assert_int_equal(b.count, N);
    for (int i = 0; i < N; i++)
        assert_int_equal(b.ids[i], ids[i]); /* in the order added */

    const c2d_ball_id gone[3] = {ids[0], ids[9], ids[4]};
    assert_int_equal(c2d_world_remove_balls(w, gone, 3), C2D_OK);
    const c2d_ball_id added = add_ball(w, -7.0f, 2.0f, 5000);
    assert_int_equal(c2d_world_ball_count(w), N - 2);
    assert_int_equal(c2d_world_get_balls(w, &b), C2D_OK);
    assert_int_equal(b.count, N - 2);
    assert_int_equal(b.ids[b.count - 1], added); /* added at the end */
    bool seen[N] = {false};
    for (size_t k = 0; k < b.count; k++) {
        c2d_vec2 p, v;
        assert_true(c2d_world_ball(w, b.ids[k], &p, &v));
        assert_true(same_float(p.x, b.x[k]) && same_float(p.y, b.y[k]));
        assert_true(same_float(v.x, b.vx[k]) && same_float(v.y, b.vy[k]));
        if (b.ids[k] == added) continue;
        int i = 0;
        while (i < N && ids[i] != b.ids[k])
            i++;
        assert_true(i < N);
        assert_false(seen[i]);
        seen[i] = true;
        assert_true(i != 0 && i != 9 && i != 4);
        assert_true(same_float(b.x[k], defs[i].position.x));
        assert_true(same_float(b.y[k], defs[i].position.y));
        assert_true(same_float(b.vx[k], defs[i].velocity.x));
        assert_true(same_float(b.vy[k], defs[i].velocity.y));
        assert_true(same_float(b.radius[k], defs[i].radius));
        assert_int_equal(c2d_world_ball_user_data(w, b.ids[k]), defs[i].user_data);
    }
    for (int i = 0; i < N; i++)
        if (i != 0 && i != 9 && i != 4 && !seen[i]) fail_msg("ball %d is missing", i);
    c2d_world_destroy(w);
}

static bool ids_equal(const c2d_world *w, const c2d_ball_id *want, size_t n) {
    c2d_world_balls b;
    if (c2d_world_get_balls(w, &b) != C2D_OK || b.count != n) return false;
    return memcmp(b.ids, want, n * sizeof *want) == 0;
}

/* Balls resting on a floor sleep; the order of get_balls never changes by sleep or waking. */
static void test_order_kept_by_sleep(void **state) {
    (void)state;
    c2d_world *w = default_world();
    const c2d_capsule_def fl = floor_def();
    add_capsule(w, &fl);
    enum { N = 10 };
    c2d_ball_id ids[N];
    for (int i = 0; i < N; i++)
        ids[i] = add_ball(w, -9.0f + 2.0f * (float)i, 1.0f, 0);
    int step = 0;
    for (; step < 600 && c2d_world_awake_count(w) > 0; step++) {
        assert_int_equal(c2d_world_step(w, DT), C2D_OK);
        if (!ids_equal(w, ids, N)) fail_msg("the order changed at step %d", step);
    }
    if (c2d_world_awake_count(w) != 0)
        fail_msg("10 balls resting on a floor are not asleep after 10 s");
    for (int i = 0; i < N; i++)
        assert_false(c2d_world_ball_awake(w, ids[i]));
    assert_int_equal(c2d_world_set_ball_awake(w, ids[3], true), C2D_OK);
    assert_int_equal(c2d_world_set_ball_velocity(w, ids[7], (c2d_vec2){0.0f, 3.0f}), C2D_OK);
    assert_true(c2d_world_ball_awake(w, ids[3]));
    assert_true(c2d_world_ball_awake(w, ids[7]));
    assert_true(ids_equal(w, ids, N));
    for (int i = 0; i < 120; i++) {
        assert_int_equal(c2d_world_step(w, DT), C2D_OK);
        if (!ids_equal(w, ids, N)) fail_msg("the order changed %d steps after waking", i);
    }
    c2d_world_destroy(w);
}

/* ---- 5. Control calls ----------------------------------------------------------------- */

static void test_control_bad_values(void **state) {
    (void)state;
    begin_collect();
    fixture f;
    fixture_make(&f);
    snapshot before;
    snap(&f, &before);
    const c2d_ball_id id = f.ball[1];
    const c2d_vec2 bad[] = {{NAN, 0.0f}, {0.0f, NAN}, {INFINITY, 0.0f}, {0.0f, -INFINITY}};
    char what[96];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(what, sizeof what, "(%g, %g)", (double)bad[i].x, (double)bad[i].y);
        expect_status(c2d_world_set_ball_position(f.w, id, bad[i]), C2D_ERROR_VALUE, what);
        expect_status(c2d_world_set_ball_velocity(f.w, id, bad[i]), C2D_ERROR_VALUE, what);
        expect_status(c2d_world_apply_ball_impulse(f.w, id, bad[i]), C2D_ERROR_VALUE, what);
        expect_status(c2d_world_apply_ball_force(f.w, id, bad[i]), C2D_ERROR_VALUE, what);
        expect_status(c2d_world_set_gravity(f.w, bad[i]), C2D_ERROR_VALUE, what);
        expect_status(c2d_world_set_capsule_motion(f.w, f.flipper, bad[i], 0.0f), C2D_ERROR_VALUE,
                      what);
        c2d_capsule t = flipper_def().shape;
        t.a = bad[i];
        expect_status(c2d_world_move_capsule_to(f.w, f.flipper, t), C2D_ERROR_VALUE, what);
        t = flipper_def().shape;
        t.b = bad[i];
        expect_status(c2d_world_move_capsule_to(f.w, f.flipper, t), C2D_ERROR_VALUE, what);
        expect_unchanged(&f, &before, what);
    }
    const float bad_angular[] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++)
        expect_status(c2d_world_set_ball_angular_velocity(f.w, id, bad_angular[i]), C2D_ERROR_VALUE,
                      "set_ball_angular_velocity, not finite");
    const c2d_vec2 g = c2d_world_gravity(f.w);
    assert_true(g.x == 0.0f && g.y == -10.0f); /* refused: unchanged */
    /* Forces add up until the step; a sum, or an acceleration (sum / mass), past the floats is
     * refused and changes nothing (FLT_MAX on a light ball made its velocity inf). */
    c2d_ball_state bs;
    assert_true(c2d_world_ball_state(f.w, id, &bs));
    assert_true(bs.mass > 0.0f && bs.mass < 0.9f); /* so FLT_MAX / mass is not a float */
    expect_status(c2d_world_apply_ball_force(f.w, id, (c2d_vec2){FLT_MAX, 0.0f}), C2D_ERROR_VALUE,
                  "apply_ball_force(FLT_MAX, 0) on a ball of mass < 0.9");
    const float big = 0.6f * FLT_MAX * bs.mass;
    expect_status(c2d_world_apply_ball_force(f.w, id, (c2d_vec2){big, 1.0f}), C2D_OK,
                  "apply_ball_force(0.6 FLT_MAX m, 1)");
    expect_status(c2d_world_apply_ball_force(f.w, id, (c2d_vec2){big, 1.0f}), C2D_ERROR_VALUE,
                  "apply_ball_force(0.6 FLT_MAX m, 1) again: the acceleration overflows");
    expect_status(c2d_world_apply_ball_force(f.w, id, (c2d_vec2){-FLT_MAX, -FLT_MAX}),
                  C2D_ERROR_VALUE, "apply_ball_force(-FLT_MAX, -FLT_MAX)");
    assert_true(c2d_world_ball_state(f.w, id, &bs));
    assert_true(bs.force.x == big && bs.force.y == 1.0f);
    expect_status(c2d_world_apply_ball_force(f.w, id, (c2d_vec2){-big, -1.0f}), C2D_OK,
                  "apply_ball_force(-0.6 FLT_MAX m, -1)");
    assert_true(c2d_world_ball_state(f.w, id, &bs));
    assert_true(bs.force.x == 0.0f && bs.force.y == 0.0f);
    for (int i = 0; i < 3; i++)
        expect_status(
            c2d_world_set_capsule_motion(f.w, f.flipper, (c2d_vec2){0.0f, 0.0f}, bad_angular[i]),
            C2D_ERROR_VALUE, "set_capsule_motion, non-finite angular velocity");
    /* move_capsule_to: the radius must be the capsule's own. */
    const float bad_radius[] = {0.5f, nextafterf(0.25f, 1.0f), 0.0f, NAN, INFINITY};
    for (int i = 0; i < 5; i++) {
        c2d_capsule t = flipper_def().shape;
        t.radius = bad_radius[i];
        snprintf(what, sizeof what, "move_capsule_to with radius %.9g", (double)bad_radius[i]);
        expect_status(c2d_world_move_capsule_to(f.w, f.flipper, t), C2D_ERROR_VALUE, what);
    }
    /* A static capsule does not move. */
    expect_status(c2d_world_set_capsule_motion(f.w, f.floor, (c2d_vec2){1.0f, 0.0f}, 0.0f),
                  C2D_ERROR_STATE, "set_capsule_motion on a static capsule");
    expect_status(c2d_world_set_capsule_motion(f.w, f.floor, (c2d_vec2){0.0f, 0.0f}, 0.0f),
                  C2D_ERROR_STATE, "set_capsule_motion(0, 0) on a static capsule");
    expect_status(c2d_world_move_capsule_to(f.w, f.floor, floor_def().shape), C2D_ERROR_STATE,
                  "move_capsule_to on a static capsule");
    c2d_capsule moved = floor_def().shape;
    moved.a.y = 1.0f;
    expect_status(c2d_world_move_capsule_to(f.w, f.floor, moved), C2D_ERROR_STATE,
                  "move_capsule_to on a static capsule");
    expect_unchanged(&f, &before, "refused control calls");
    c2d_world_destroy(f.w);
    end_collect();
}

static void test_control_reads_back(void **state) {
    (void)state;
    fixture f;
    fixture_make(&f);
    c2d_vec2 p, v;
    /* Teleport and velocity: read back exactly. */
    const c2d_vec2 to = {-3.25f, 7.5f}, vel = {1.5f, -2.25f};
    assert_int_equal(c2d_world_set_ball_position(f.w, f.ball[2], to), C2D_OK);
    assert_int_equal(c2d_world_set_ball_velocity(f.w, f.ball[2], vel), C2D_OK);
    assert_true(c2d_world_ball(f.w, f.ball[2], &p, &v));
    assert_memory_equal(&p, &to, sizeof p);
    assert_memory_equal(&v, &vel, sizeof v);
    assert_true(c2d_world_ball_awake(f.w, f.ball[2]));

    /* Impulse: velocity += impulse / (density pi r^2). */
    c2d_ball_def heavy = ball_at(-20.0f, 30.0f, 0);
    heavy.density = 2.0f;
    heavy.velocity = (c2d_vec2){1.0f, 0.0f};
    const c2d_ball_id hid = add_ball_def(f.w, &heavy);
    assert_int_equal(c2d_world_apply_ball_impulse(f.w, hid, (c2d_vec2){0.5f, -1.0f}), C2D_OK);
    assert_true(c2d_world_ball(f.w, hid, NULL, &v));
    const float mass = 2.0f * 3.14159265f * 0.25f;
    assert_float_equal(v.x, 1.0f + 0.5f / mass, 1e-5f);
    assert_float_equal(v.y, -1.0f / mass, 1e-5f);

    /* The state reads back the def and the velocity; mass x dv as an impulse changes the
     * velocity by dv. */
    c2d_ball_state st;
    assert_true(c2d_world_ball_state(f.w, hid, &st));
    assert_memory_equal(&st.velocity, &v, sizeof v);
    assert_float_equal(st.radius, heavy.radius, 0.0f);
    assert_float_equal(st.mass, mass, 1e-5f * mass);
    assert_float_equal(st.inertia, 0.5f * mass * 0.25f, 1e-5f * mass);
    assert_float_equal(st.friction, heavy.friction, 0.0f);
    assert_float_equal(st.restitution, heavy.restitution, 0.0f);
    assert_float_equal(st.rolling_resistance, heavy.rolling_resistance, 0.0f);
    assert_float_equal(st.linear_damping, heavy.linear_damping, 0.0f);
    assert_float_equal(st.angular_damping, heavy.angular_damping, 0.0f);
    assert_float_equal(st.gravity_scale, heavy.gravity_scale, 0.0f);
    assert_int_equal(st.category, heavy.category);
    assert_int_equal(st.mask, heavy.mask);
    assert_true(st.awake);
    assert_true(st.enable_sleep == heavy.enable_sleep);
    assert_true(st.events == heavy.events);
    assert_int_equal(c2d_world_apply_ball_impulse(f.w, hid, (c2d_vec2){st.mass * 2.0f, 0.0f}),
                     C2D_OK);
    assert_true(c2d_world_ball(f.w, hid, NULL, &v));
    assert_float_equal(v.x, st.velocity.x + 2.0f, 1e-5f);
    assert_int_equal(c2d_world_set_ball_enable_sleep(f.w, hid, false), C2D_OK);
    assert_true(c2d_world_ball_state(f.w, hid, &st));
    assert_false(st.enable_sleep);

    /* Density 0: the impulse changes nothing. */
    c2d_ball_def fixed = ball_at(-30.0f, 30.0f, 0);
    fixed.density = 0.0f;
    const c2d_ball_id fid = add_ball_def(f.w, &fixed);
    snapshot before;
    snap(&f, &before);
    assert_int_equal(c2d_world_apply_ball_impulse(f.w, fid, (c2d_vec2){10.0f, 10.0f}), C2D_OK);
    assert_int_equal(c2d_world_apply_ball_force(f.w, fid, (c2d_vec2){10.0f, 10.0f}), C2D_OK);
    assert_int_equal(c2d_world_set_ball_angular_velocity(f.w, fid, 3.0f), C2D_OK);
    expect_unchanged(&f, &before, "an impulse, a force, a spin on a ball of density 0");
    assert_true(c2d_world_ball_state(f.w, fid, &st));
    assert_float_equal(st.mass, 0.0f, 0.0f);
    assert_float_equal(st.inertia, 0.0f, 0.0f);

    /* User data, balls and capsules, all 64 bits. */
    const c2d_ball_id uid = add_ball(f.w, -40.0f, 30.0f, UINT64_MAX);
    assert_int_equal(c2d_world_ball_user_data(f.w, uid), UINT64_MAX);
    assert_int_equal(c2d_world_ball_user_data(f.w, f.ball[1]), 22);
    assert_int_equal(c2d_world_capsule_user_data(f.w, f.flipper), 0x123456789ABCDEF0u);
    assert_int_equal(c2d_world_capsule_user_data(f.w, f.floor), 0);

    /* The capsules' motion as added: the floor static, the flipper turning about its hinge. */
    c2d_capsule_motion m;
    assert_true(c2d_world_capsule_motion(f.w, f.floor, &m));
    assert_int_equal(m.motion, C2D_STATIC);
    assert_true(m.velocity.x == 0.0f && m.velocity.y == 0.0f && m.angular_velocity == 0.0f);
    assert_false(m.to_target);
    assert_false(m.sensor);
    const c2d_capsule_def fd = flipper_def();
    assert_true(c2d_world_capsule_motion(f.w, f.flipper, &m));
    assert_int_equal(m.motion, C2D_KINEMATIC);
    assert_memory_equal(&m.pivot, &fd.pivot, sizeof m.pivot);
    assert_true(m.angular_velocity == fd.angular_velocity);

    /* set_capsule_motion: a kinematic capsule moves at its velocity; the motion reads back. */
    c2d_capsule s0, s1;
    assert_true(c2d_world_capsule(f.w, f.flipper, &s0));
    assert_int_equal(c2d_world_set_capsule_motion(f.w, f.flipper, (c2d_vec2){6.0f, 0.0f}, 0.0f),
                     C2D_OK);
    assert_true(c2d_world_capsule_motion(f.w, f.flipper, &m));
    assert_true(m.velocity.x == 6.0f && m.velocity.y == 0.0f && m.angular_velocity == 0.0f);
    assert_int_equal(c2d_world_step(f.w, DT), C2D_OK);
    assert_true(c2d_world_capsule(f.w, f.flipper, &s1));
    assert_float_equal(s1.a.x - s0.a.x, 0.1f, 1e-4f);
    assert_float_equal(s1.b.x - s0.b.x, 0.1f, 1e-4f);
    assert_float_equal(s1.a.y, s0.a.y, 1e-4f);
    assert_float_equal(s1.b.y, s0.b.y, 1e-4f);

    /* move_capsule_to: exactly there after the next step, then still. */
    const c2d_capsule target = {{s1.a.x, s1.a.y}, {s1.a.x, s1.a.y + 3.0f}, 0.25f};
    assert_int_equal(c2d_world_move_capsule_to(f.w, f.flipper, target), C2D_OK);
    assert_true(c2d_world_capsule_motion(f.w, f.flipper, &m));
    assert_true(m.to_target && m.velocity.x == 0.0f && m.angular_velocity == 0.0f);
    assert_int_equal(c2d_world_step(f.w, DT), C2D_OK);
    assert_true(c2d_world_capsule_motion(f.w, f.flipper, &m));
    assert_false(m.to_target);
    assert_memory_equal(&m.pivot, &target.a, sizeof m.pivot); /* the hinge at a stays */
    assert_true(c2d_world_capsule(f.w, f.flipper, &s1));
    assert_memory_equal(&s1, &target, sizeof s1);
    assert_int_equal(c2d_world_step(f.w, DT), C2D_OK);
    assert_true(c2d_world_capsule(f.w, f.flipper, &s1));
    assert_memory_equal(&s1, &target, sizeof s1);

    /* The pivot moves with a move_capsule_to (carried rigidly onto the target): moved away by
     * (5, 5) and then turned a quarter turn in 1 s, the capsule turns about its end a (the
     * pivot), not about where the pivot was before the move. */
    const c2d_capsule away = {{target.a.x + 5.0f, target.a.y + 5.0f},
                              {target.b.x + 5.0f, target.b.y + 5.0f},
                              target.radius};
    assert_int_equal(c2d_world_move_capsule_to(f.w, f.flipper, away), C2D_OK);
    assert_int_equal(c2d_world_step(f.w, DT), C2D_OK);
    assert_int_equal(
        c2d_world_set_capsule_motion(f.w, f.flipper, (c2d_vec2){0.0f, 0.0f}, 1.57079633f), C2D_OK);
    assert_true(c2d_world_capsule_motion(f.w, f.flipper, &m));
    assert_memory_equal(&m.pivot, &away.a, sizeof m.pivot);
    for (int k = 0; k < 60; k++)
        assert_int_equal(c2d_world_step(f.w, DT), C2D_OK);
    assert_true(c2d_world_capsule(f.w, f.flipper, &s1));
    assert_float_equal(s1.a.x, away.a.x, 1e-3f);
    assert_float_equal(s1.a.y, away.a.y, 1e-3f);
    assert_float_equal(s1.b.x, away.a.x - 3.0f, 1e-2f); /* b was 3 above a: now 3 left of it */
    assert_float_equal(s1.b.y, away.a.y, 1e-2f);

    /* A pivot at the middle: moved and turned a quarter turn, it is the target's middle. */
    c2d_capsule_def mid = flipper_def();
    mid.shape = (c2d_capsule){{0.0f, 10.0f}, {2.0f, 10.0f}, 0.25f};
    mid.pivot = (c2d_vec2){1.0f, 10.0f};
    mid.angular_velocity = 0.0f;
    c2d_capsule_id mid_id;
    assert_int_equal(c2d_world_add_capsules(f.w, &mid, 1, &mid_id), C2D_OK);
    const c2d_capsule moved = {{5.0f, 15.0f}, {5.0f, 17.0f}, 0.25f};
    assert_int_equal(c2d_world_move_capsule_to(f.w, mid_id, moved), C2D_OK);
    assert_int_equal(c2d_world_step(f.w, DT), C2D_OK);
    assert_true(c2d_world_capsule_motion(f.w, mid_id, &m));
    assert_float_equal(m.pivot.x, 5.0f, 1e-5f);
    assert_float_equal(m.pivot.y, 16.0f, 1e-5f);
    c2d_world_destroy(f.w);
}

static void test_awake_control(void **state) {
    (void)state;
    c2d_world *w = default_world();
    const c2d_capsule_def fl = floor_def();
    add_capsule(w, &fl);
    const c2d_ball_id rest = add_ball(w, 0.0f, 1.0f, 0);
    c2d_ball_def no_sleep = ball_at(5.0f, 1.0f, 0);
    no_sleep.enable_sleep = false;
    const c2d_ball_id player = add_ball_def(w, &no_sleep);
    const c2d_ball_id other = add_ball(w, 10.0f, 1.0f, 0);
    add_ball(w, -10.0f, 20.0f, 0); /* falling meanwhile */
    assert_int_equal(c2d_world_awake_count(w), 4);

    /* Put to sleep by the program (velocity zero), then woken. */
    assert_int_equal(c2d_world_set_ball_velocity(w, rest, (c2d_vec2){0.5f, 0.0f}), C2D_OK);
    assert_int_equal(c2d_world_set_ball_awake(w, rest, false), C2D_OK);
    assert_false(c2d_world_ball_awake(w, rest));
    assert_int_equal(c2d_world_awake_count(w), 3);
    c2d_vec2 v;
    assert_true(c2d_world_ball(w, rest, NULL, &v));
    assert_true(v.x == 0.0f && v.y == 0.0f);
    assert_int_equal(c2d_world_set_ball_awake(w, rest, true), C2D_OK);
    assert_true(c2d_world_ball_awake(w, rest));
    assert_int_equal(c2d_world_awake_count(w), 4);

    /* enable_sleep false (def) never sleeps; the default ones do. */
    int step = 0;
    for (; step < 600 && (c2d_world_ball_awake(w, rest) || c2d_world_ball_awake(w, other)); step++)
        assert_int_equal(c2d_world_step(w, DT), C2D_OK);
    if (c2d_world_ball_awake(w, rest) || c2d_world_ball_awake(w, other))
        fail_msg("balls resting on a floor are not asleep after 10 s");
    for (int i = 0; i < 120; i++)
        assert_int_equal(c2d_world_step(w, DT), C2D_OK);
    assert_true(c2d_world_ball_awake(w, player));

    /* set_ball_enable_sleep(false) wakes a sleeping ball and keeps it awake. */
    assert_false(c2d_world_ball_awake(w, other));
    assert_int_equal(c2d_world_set_ball_enable_sleep(w, other, false), C2D_OK);
    assert_true(c2d_world_ball_awake(w, other));
    /* ... and true lets the player's ball sleep. */
    assert_int_equal(c2d_world_set_ball_enable_sleep(w, player, true), C2D_OK);
    for (step = 0; step < 600 && c2d_world_ball_awake(w, player); step++)
        assert_int_equal(c2d_world_step(w, DT), C2D_OK);
    assert_false(c2d_world_ball_awake(w, player));
    assert_true(c2d_world_ball_awake(w, other));
    c2d_world_destroy(w);
}

/* Teleporting a sleeping ball wakes it and the sleeping balls it touched; a ball far away
 * sleeps on. */
static void test_teleport_wakes(void **state) {
    (void)state;
    c2d_world *w = default_world();
    const c2d_capsule_def fl = floor_def();
    add_capsule(w, &fl);
    const c2d_ball_id a = add_ball(w, 0.0f, 1.0f, 0), b = add_ball(w, 1.0f, 1.0f, 0);
    const c2d_ball_id far = add_ball(w, 20.0f, 1.0f, 0);
    for (int i = 0; i < 600 && c2d_world_awake_count(w) > 0; i++)
        assert_int_equal(c2d_world_step(w, DT), C2D_OK);
    assert_int_equal(c2d_world_awake_count(w), 0);
    assert_int_equal(c2d_world_set_ball_position(w, a, (c2d_vec2){-10.0f, 5.0f}), C2D_OK);
    assert_true(c2d_world_ball_awake(w, a));
    assert_true(c2d_world_ball_awake(w, b));
    assert_false(c2d_world_ball_awake(w, far));
    assert_int_equal(c2d_world_awake_count(w), 2);
    c2d_world_destroy(w);
}

/* set_ball_awake(false) puts a ball to sleep only where it rests: one in mid-air, and one of
 * density 0, stay awake and unchanged; one on the floor sleeps and stays asleep. */
static void test_sleep_in_mid_air(void **state) {
    (void)state;
    c2d_world *w = default_world();
    const c2d_capsule_def fl = floor_def();
    add_capsule(w, &fl);
    const c2d_ball_id air = add_ball(w, -10.0f, 20.0f, 0);
    const c2d_ball_id rest = add_ball(w, 0.0f, 1.0f, 0);
    c2d_ball_def fixed_def = ball_at(10.0f, 1.0f, 0);
    fixed_def.density = 0.0f;
    const c2d_ball_id fixed = add_ball_def(w, &fixed_def);
    for (int i = 0; i < 3; i++)
        assert_int_equal(c2d_world_step(w, DT), C2D_OK);
    c2d_vec2 p0, v0, p1, v1;
    assert_true(c2d_world_ball(w, air, &p0, &v0));
    assert_true(v0.y < 0.0f); /* falling */
    assert_int_equal(c2d_world_set_ball_awake(w, air, false), C2D_OK);
    assert_true(c2d_world_ball_awake(w, air));
    assert_true(c2d_world_ball(w, air, &p1, &v1));
    assert_memory_equal(&p0, &p1, sizeof p0);
    assert_memory_equal(&v0, &v1, sizeof v0);
    assert_int_equal(c2d_world_set_ball_awake(w, fixed, false), C2D_OK);
    assert_true(c2d_world_ball_awake(w, fixed));
    assert_int_equal(c2d_world_set_ball_awake(w, rest, false), C2D_OK);
    assert_false(c2d_world_ball_awake(w, rest));
    assert_true(c2d_world_ball(w, rest, NULL, &v1));
    assert_true(v1.x == 0.0f && v1.y == 0.0f);
    assert_int_equal(c2d_world_step(w, DT), C2D_OK);
    assert_false(c2d_world_ball_awake(w, rest));
    assert_true(c2d_world_ball_awake(w, air));
    assert_true(c2d_world_ball_awake(w, fixed));
    c2d_world_destroy(w);
}

/* ---- 6. dt ---------------------------------------------------------------------------- */

static void test_dt(void **state) {
    (void)state;
    begin_collect();
    fixture f;
    fixture_make(&f);
    snapshot before;
    snap(&f, &before);
    const float bad[] = {0.0f, -0.0f, -DT, -FLT_TRUE_MIN, NAN, INFINITY, -INFINITY};
    char what[64];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(what, sizeof what, "step(%g)", (double)bad[i]);
        expect_status(c2d_world_step(f.w, bad[i]), C2D_ERROR_VALUE, what);
        expect_unchanged(&f, &before, what);
    }
    /* Tiny steps are inside the range and give finite states. */
    const float tiny[] = {1e-6f, FLT_MIN};
    for (int i = 0; i < 2; i++) {
        snprintf(what, sizeof what, "step(%g)", (double)tiny[i]);
        expect_status(c2d_world_step(f.w, tiny[i]), C2D_OK, what);
        c2d_world_balls b;
        assert_int_equal(c2d_world_get_balls(f.w, &b), C2D_OK);
        for (size_t k = 0; k < b.count; k++)
            if (!isfinite(b.x[k]) || !isfinite(b.y[k]) || !isfinite(b.vx[k]) ||
                !isfinite(b.vy[k]) || !isfinite(b.angle[k]) || !isfinite(b.angular_velocity[k]))
                fail_msg("%s: ball %zu is not finite", what, k);
    }
    c2d_world_destroy(f.w);
    end_collect();
}

/* A scene for the step tests: a floor, a flipper turning fast, 60 balls falling and meeting. */
static uint32_t xorshift(uint32_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static float uniform(uint32_t *s, float lo, float hi) {
    return lo + (hi - lo) * (float)(xorshift(s) >> 8) * (1.0f / 16777216.0f);
}

static c2d_world *build_scene(const c2d_world_def *def, c2d_capsule_id *flipper) {
    c2d_world *w = make_world(def);
    const c2d_capsule_def fl = floor_def();
    c2d_capsule_def fp = flipper_def();
    fp.shape = (c2d_capsule){{-2.0f, 3.0f}, {2.0f, 3.0f}, 0.25f};
    fp.pivot = (c2d_vec2){-2.0f, 3.0f};
    fp.angular_velocity = 2.0f;
    add_capsule(w, &fl);
    const c2d_capsule_id fid = add_capsule(w, &fp);
    if (flipper) *flipper = fid;
    uint32_t seed = 12345;
    enum { N = 60 };
    c2d_ball_def defs[N];
    for (int i = 0; i < N; i++) {
        defs[i] = ball_at(uniform(&seed, -8.0f, 8.0f), uniform(&seed, 1.0f, 12.0f), 0);
        defs[i].radius = uniform(&seed, 0.2f, 0.5f);
        defs[i].velocity = (c2d_vec2){uniform(&seed, -3.0f, 3.0f), uniform(&seed, -3.0f, 3.0f)};
        defs[i].restitution = 0.3f;
    }
    assert_int_equal(c2d_world_add_balls(w, defs, N, NULL), C2D_OK);
    return w;
}

static void balls_equal(const c2d_world *a, const c2d_world *b) {
    c2d_world_balls x, y;
    assert_int_equal(c2d_world_get_balls(a, &x), C2D_OK);
    assert_int_equal(c2d_world_get_balls(b, &y), C2D_OK);
    assert_int_equal(x.count, y.count);
    const size_t n = x.count * sizeof(float);
    assert_memory_equal(x.x, y.x, n);
    assert_memory_equal(x.y, y.y, n);
    assert_memory_equal(x.vx, y.vx, n);
    assert_memory_equal(x.vy, y.vy, n);
    assert_memory_equal(x.angle, y.angle, n);
    assert_memory_equal(x.angular_velocity, y.angular_velocity, n);
    assert_memory_equal(x.ids, y.ids, x.count * sizeof(c2d_ball_id));
}

/* ---- 7. Calls during a step ----------------------------------------------------------- */

enum { PROBE_MAX = 48 };

/* A task system for tests: enqueue runs the task at once in `workers` ranges (last range
 * first: the order must not matter) and returns a handle that finish must be given. When
 * `probe` is set, the first enqueue also calls world functions on the world being stepped. */
typedef struct tasks {
    int workers;
    int enqueued, finished, foreign_handles;
    char handle;
    c2d_world *probe;
    c2d_ball_id ball;
    c2d_capsule_id capsule;
    int probes;
    struct {
        const char *call;
        int got, want;
    } result[PROBE_MAX];
} tasks;

#define PROBE(t, name, expr, expected)                                                             \
    do {                                                                                           \
        if ((t)->probes < PROBE_MAX) {                                                             \
            (t)->result[(t)->probes].call = (name);                                                \
            (t)->result[(t)->probes].got = (int)(expr);                                            \
            (t)->result[(t)->probes].want = (int)(expected);                                       \
            (t)->probes++;                                                                         \
        }                                                                                          \
    } while (0)

static void probe_world(tasks *t) {
    c2d_world *w = t->probe;
    const c2d_ball_def bd = ball_at(0.0f, 30.0f, 0);
    const c2d_capsule_def cd = floor_def();
    const c2d_vec2 far = {100.0f, 100.0f};
    c2d_world_balls balls;
    c2d_world_events events;
    c2d_world_profile profile;
    c2d_vec2 p, v;
    c2d_capsule shape;
    c2d_capsule_motion motion;
    const int STATE = C2D_ERROR_STATE;
    PROBE(t, "add_balls", c2d_world_add_balls(w, &bd, 1, NULL), STATE);
    PROBE(t, "remove_balls", c2d_world_remove_balls(w, &t->ball, 1), STATE);
    PROBE(t, "add_capsules", c2d_world_add_capsules(w, &cd, 1, NULL), STATE);
    PROBE(t, "remove_capsules", c2d_world_remove_capsules(w, &t->capsule, 1), STATE);
    PROBE(t, "set_capsule_motion", c2d_world_set_capsule_motion(w, t->capsule, far, 0.0f), STATE);
    PROBE(t, "move_capsule_to", c2d_world_move_capsule_to(w, t->capsule, flipper_def().shape),
          STATE);
    PROBE(t, "step", c2d_world_step(w, DT), STATE);
    PROBE(t, "set_ball_position", c2d_world_set_ball_position(w, t->ball, far), STATE);
    PROBE(t, "set_ball_velocity", c2d_world_set_ball_velocity(w, t->ball, far), STATE);
    PROBE(t, "apply_ball_impulse", c2d_world_apply_ball_impulse(w, t->ball, far), STATE);
    PROBE(t, "apply_ball_force", c2d_world_apply_ball_force(w, t->ball, far), STATE);
    PROBE(t, "set_ball_angular_velocity", c2d_world_set_ball_angular_velocity(w, t->ball, 1.0f),
          STATE);
    PROBE(t, "set_gravity", c2d_world_set_gravity(w, far), STATE);
    for (int i = 0; i < SETTER_COUNT; i++)
        PROBE(t, setters[i].name, setters[i].set(w, t->ball, 0.5f), STATE);
    PROBE(t, "set_ball_filter", c2d_world_set_ball_filter(w, t->ball, 1, 1), STATE);
    PROBE(t, "gravity", c2d_world_gravity(w).y == 0.0f, true);
    PROBE(t, "set_ball_awake", c2d_world_set_ball_awake(w, t->ball, false), STATE);
    PROBE(t, "set_ball_enable_sleep", c2d_world_set_ball_enable_sleep(w, t->ball, false), STATE);
    PROBE(t, "get_balls", c2d_world_get_balls(w, &balls), STATE);
    PROBE(t, "get_events", c2d_world_get_events(w, &events), STATE);
    PROBE(t, "get_profile", c2d_world_get_profile(w, &profile), STATE);
    const uint32_t all = C2D_FILTER_ALL;
    c2d_world_ray_hit hit;
    c2d_world_shape_ref refs[8];
    size_t n;
    PROBE(t, "cast_ray",
          c2d_world_cast_ray(w, (c2d_vec2){-30.0f, 1.0f}, (c2d_vec2){60.0f, 0.0f}, all, all, &hit),
          STATE);
    const c2d_box box = {{-100.0f, -100.0f}, {100.0f, 100.0f}};
    PROBE(t, "query_box", c2d_world_query_box(w, box, all, all, refs, 8, &n), STATE);
    PROBE(t, "query_disc",
          c2d_world_query_disc(w, (c2d_circle){{0.0f, 1.0f}, 100.0f}, all, all, refs, 8, &n),
          STATE);
    PROBE(t, "query_point", c2d_world_query_point(w, (c2d_vec2){0.0f, 0.0f}, all, all, refs, 8, &n),
          STATE);
    PROBE(t, "c2d_world_ball", c2d_world_ball(w, t->ball, &p, &v), false);
    PROBE(t, "c2d_world_capsule", c2d_world_capsule(w, t->capsule, &shape), false);
    PROBE(t, "capsule_motion", c2d_world_capsule_motion(w, t->capsule, &motion), false);
    PROBE(t, "ball_awake", c2d_world_ball_awake(w, t->ball), false);
    c2d_ball_state state;
    PROBE(t, "ball_state", c2d_world_ball_state(w, t->ball, &state), false);
}

static void *test_enqueue(c2d_task_fn *task, int item_count, int min_range, void *task_context,
                          void *user_context) {
    tasks *t = user_context;
    if (t->enqueued++ == 0 && t->probe) probe_world(t);
    int ranges = t->workers;
    if (min_range > 0 && item_count / min_range < ranges) ranges = item_count / min_range;
    if (ranges < 1) ranges = 1;
    for (int r = ranges - 1; r >= 0; r--) {
        const int start = (int)((long long)item_count * r / ranges);
        const int end = (int)((long long)item_count * (r + 1) / ranges);
        if (start < end) task(start, end, (uint32_t)r, task_context);
    }
    return &t->handle;
}

static void test_finish(void *user_task, void *user_context) {
    tasks *t = user_context;
    if (user_task == &t->handle)
        t->finished++;
    else
        t->foreign_handles++;
}

static c2d_world_def tasks_def(tasks *t, int workers) {
    memset(t, 0, sizeof *t);
    t->workers = workers;
    c2d_world_def d = c2d_world_default_def();
    d.worker_count = workers;
    d.enqueue_task = test_enqueue;
    d.finish_task = test_finish;
    d.user_task_context = t;
    return d;
}

/* Every world call made from inside a step (here from a task) is refused with
 * C2D_ERROR_STATE (the bool getters say false) and changes nothing: the world then steps to
 * the same bytes as one that was never probed. */
static void test_calls_during_step(void **state) {
    (void)state;
    tasks t, quiet;
    const c2d_world_def def = tasks_def(&t, 2), quiet_def = tasks_def(&quiet, 2);
    c2d_capsule_id flipper;
    c2d_world *w = build_scene(&def, &flipper), *ref = build_scene(&quiet_def, NULL);
    c2d_world_balls balls;
    assert_int_equal(c2d_world_get_balls(w, &balls), C2D_OK);
    t.probe = w;
    t.ball = balls.ids[1];
    t.capsule = flipper;
    assert_int_equal(c2d_world_step(w, DT), C2D_OK);
    t.probe = NULL;
    if (t.enqueued == 0) {
        c2d_world_destroy(w);
        c2d_world_destroy(ref);
        print_message("# c2d_world_step never called enqueue_task (worker_count 2): the calls "
                      "made during a step could not be tried\n");
        skip(); /* cmocka 1.1.5 prints "not ok # SKIP": Meson counts it as failed */
    }
    for (int i = 0; i < t.probes; i++)
        if (t.result[i].got != t.result[i].want)
            fail_msg("%s during a step: got %d, expected %d", t.result[i].call, t.result[i].got,
                     t.result[i].want);
    assert_int_equal(t.probes, 28 + SETTER_COUNT + 1);
    assert_int_equal(t.finished, t.enqueued);
    assert_int_equal(t.foreign_handles, 0);
    /* Nothing the probes asked for happened. */
    assert_int_equal(c2d_world_step(ref, DT), C2D_OK);
    assert_int_equal(c2d_world_ball_count(w), c2d_world_ball_count(ref));
    assert_int_equal(c2d_world_capsule_count(w), c2d_world_capsule_count(ref));
    assert_int_equal(c2d_world_hash(w), c2d_world_hash(ref));
    balls_equal(w, ref);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(c2d_world_step(w, DT), C2D_OK);
        assert_int_equal(c2d_world_step(ref, DT), C2D_OK);
    }
    assert_int_equal(c2d_world_hash(w), c2d_world_hash(ref));
    /* After the step, calls work again. */
    assert_int_equal(c2d_world_set_ball_position(w, t.ball, (c2d_vec2){3.0f, 4.0f}), C2D_OK);
    assert_int_equal(c2d_world_add_balls(w, NULL, 0, NULL), C2D_OK);
    assert_int_equal(c2d_world_step(w, DT), C2D_OK);
    assert_int_equal(t.finished, t.enqueued);
    c2d_world_destroy(w);
    c2d_world_destroy(ref);
}

/* ---- 8. The status string ------------------------------------------------------------- */

static void test_status_string(void **state) {
    (void)state;
    assert_int_equal(C2D_ERROR_VALUE, C2D_ERROR_STATE + 1);
    const char *value = c2d_status_string(C2D_ERROR_VALUE);
    const char *unknown = c2d_status_string((c2d_status)(C2D_ERROR_VALUE + 1));
    assert_non_null(value);
    assert_string_equal(unknown, "unknown status");
    assert_string_not_equal(value, unknown);
    for (int s = C2D_OK; s <= C2D_ERROR_STATE; s++)
        assert_string_not_equal(value, c2d_status_string((c2d_status)s));
}

/* ---- 9. Too large --------------------------------------------------------------------- */

static void test_too_large(void **state) {
    (void)state;
    fixture f;
    fixture_make(&f);
    snapshot before;
    snap(&f, &before);
    /* The count is checked before any def is read: the arrays hold one element. */
    const c2d_ball_def bd = c2d_ball_default_def();
    const c2d_capsule_def cd = c2d_capsule_default_def();
    const size_t counts[] = {C2D_WORLD_MAX_COUNT + 1, SIZE_MAX,
                             C2D_WORLD_MAX_COUNT - 1}; /* the last: with 3 held, past the max */
    for (int i = 0; i < 3; i++) {
        expect_status(c2d_world_add_balls(f.w, &bd, counts[i], NULL), C2D_ERROR_TOO_LARGE,
                      "add_balls past C2D_WORLD_MAX_COUNT");
        expect_status(c2d_world_add_capsules(f.w, &cd, counts[i], NULL), C2D_ERROR_TOO_LARGE,
                      "add_capsules past C2D_WORLD_MAX_COUNT");
    }
    expect_unchanged(&f, &before, "adds past C2D_WORLD_MAX_COUNT");
    c2d_world_destroy(f.w);
}

/* ---- 10. Failed allocations ----------------------------------------------------------- */

/* An allocator that succeeds `allowed` more times (-1: always), counting what is live. */
typedef struct budget {
    long allowed;
    long live, refused;
} budget;

static void *budget_alloc(size_t size, void *user) {
    budget *b = user;
    if (b->allowed == 0) {
        b->refused++;
        return NULL;
    }
    if (b->allowed > 0) b->allowed--;
    void *p = malloc(size > 0 ? size : 1);
    if (p) b->live++;
    return p;
}

static void budget_free(void *ptr, void *user) {
    budget *b = user;
    if (!ptr) return;
    b->live--;
    free(ptr);
}

enum { BUDGET_LIMIT = 5000 };

static c2d_world_def budget_def(const c2d_allocator *a) {
    c2d_world_def d = c2d_world_default_def();
    d.allocator = a;
    return d;
}

static void build_pile(c2d_world *w) {
    const c2d_capsule_def fl = floor_def(), fp = flipper_def();
    add_capsule(w, &fl);
    add_capsule(w, &fp);
    c2d_ball_def defs[48];
    for (int i = 0; i < 48; i++)
        defs[i] = ball_at(-6.0f + 0.9f * (float)(i % 12), 1.0f + 0.9f * (float)(i / 12), 0);
    assert_int_equal(c2d_world_add_balls(w, defs, 48, NULL), C2D_OK);
}

static void test_alloc_create(void **state) {
    (void)state;
    budget b = {0, 0, 0};
    const c2d_allocator a = {budget_alloc, budget_free, &b};
    const c2d_world_def d = budget_def(&a);
    long k = 0;
    for (;; k++) {
        assert_true(k < BUDGET_LIMIT);
        b.allowed = k;
        c2d_world *w = NOT_A_WORLD;
        const c2d_status s = c2d_world_create(&d, &w);
        if (s == C2D_OK) {
            c2d_world_destroy(w);
            break;
        }
        if (s != C2D_ERROR_ALLOC) fail_msg("create with %ld allocations: status %d", k, (int)s);
        if (w != NULL) fail_msg("create with %ld allocations: *world not NULL", k);
        if (b.live != 0) fail_msg("create with %ld allocations: %ld blocks leaked", k, b.live);
    }
    assert_true(k > 0); /* the world itself comes from the allocator */
    assert_int_equal(b.live, 0);
}

/* Runs `call` on the fixture world (on the budget allocator) with k = 0, 1, 2 ...
 * allocations allowed until it succeeds: each failure is C2D_ERROR_ALLOC, changes nothing,
 * and leaves a world that the same call then succeeds on, that steps, and that frees all. */
typedef c2d_status alloc_call(fixture *f);

static void alloc_sweep(alloc_call *call, const char *name) {
    budget b = {-1, 0, 0};
    const c2d_allocator a = {budget_alloc, budget_free, &b};
    const c2d_world_def d = budget_def(&a);
    char what[96];
    long k = 0;
    for (;; k++) {
        assert_true(k < BUDGET_LIMIT);
        b.allowed = -1;
        fixture f;
        fixture_make_def(&f, &d);
        snapshot before;
        snap(&f, &before);
        b.allowed = k;
        const c2d_status s = call(&f);
        b.allowed = -1;
        snprintf(what, sizeof what, "%s with %ld allocations allowed", name, k);
        if (s != C2D_OK) {
            expect_status(s, C2D_ERROR_ALLOC, what);
            expect_unchanged(&f, &before, what);
            assert_int_equal(c2d_world_step(f.w, DT), C2D_OK);
            expect_status(call(&f), C2D_OK, "the same call again, memory back");
        }
        assert_int_equal(c2d_world_step(f.w, DT), C2D_OK);
        c2d_world_destroy(f.w);
        if (b.live != 0) fail_msg("%s: %ld blocks not freed by destroy", what, b.live);
        if (s == C2D_OK) break;
    }
    if (k == 0) fail_msg("%s needed no memory: the sweep tried no failure", name);
}

/* Enough balls that no first capacity holds them, spread out so that a step is cheap. */
enum { MORE_BALLS = 4096, MORE_CAPSULES = 300 };

static c2d_status add_many_balls(fixture *f) {
    static c2d_ball_def more[MORE_BALLS];
    for (int i = 0; i < MORE_BALLS; i++)
        more[i] = ball_at(-48.0f + 1.5f * (float)(i % 64), 10.0f + 1.5f * (float)(i / 64), 0);
    const size_t count = c2d_world_ball_count(f->w);
    const c2d_status s = c2d_world_add_balls(f->w, more, MORE_BALLS, NULL);
    if (s == C2D_OK) assert_int_equal(c2d_world_ball_count(f->w), count + MORE_BALLS);
    return s;
}

static c2d_status add_many_capsules(fixture *f) {
    static c2d_capsule_def more[MORE_CAPSULES];
    for (int i = 0; i < MORE_CAPSULES; i++) {
        more[i] = c2d_capsule_default_def();
        const float x = -45.0f + 0.3f * (float)i;
        more[i].shape = (c2d_capsule){{x, 40.0f}, {x + 0.2f, 41.0f}, 0.05f};
        if (i % 3 == 0) more[i].motion = C2D_KINEMATIC;
        more[i].sensor = i % 3 != 0 && i % 7 == 1; /* sensors are static */
    }
    const size_t count = c2d_world_capsule_count(f->w);
    const c2d_status s = c2d_world_add_capsules(f->w, more, MORE_CAPSULES, NULL);
    if (s == C2D_OK) assert_int_equal(c2d_world_capsule_count(f->w), count + MORE_CAPSULES);
    return s;
}

/* Putting a ball to sleep freezes it into the sleeping balls' index, which may grow. */
static c2d_status sleep_one(fixture *f) {
    const c2d_status s = c2d_world_set_ball_awake(f->w, f->ball[0], false);
    if (s == C2D_OK) assert_false(c2d_world_ball_awake(f->w, f->ball[0]));
    return s;
}

static void test_alloc_add_balls(void **state) {
    (void)state;
    alloc_sweep(add_many_balls, "add_balls of 4096");
}

static void test_alloc_add_capsules(void **state) {
    (void)state;
    alloc_sweep(add_many_capsules, "add_capsules of 300");
}

static void test_alloc_sleep(void **state) {
    (void)state;
    alloc_sweep(sleep_one, "set_ball_awake(false)");
}

static void test_alloc_step(void **state) {
    (void)state;
    begin_collect();
    /* The reference: the same world on malloc, stepped 4 times. */
    c2d_world *ref = default_world();
    build_pile(ref);
    uint64_t ref_hash[5];
    ref_hash[0] = c2d_world_hash(ref);
    for (int i = 1; i < 5; i++) {
        assert_int_equal(c2d_world_step(ref, DT), C2D_OK);
        ref_hash[i] = c2d_world_hash(ref);
    }
    c2d_world_destroy(ref);

    budget b = {-1, 0, 0};
    const c2d_allocator a = {budget_alloc, budget_free, &b};
    const c2d_world_def d = budget_def(&a);
    long k = 0;
    for (;; k++) {
        assert_true(k < BUDGET_LIMIT);
        b.allowed = -1;
        c2d_world *w = make_world(&d);
        build_pile(w);
        assert_int_equal(c2d_world_hash(w), ref_hash[0]);
        b.allowed = k;
        const c2d_status s = c2d_world_step(w, DT);
        b.allowed = -1;
        int done = s == C2D_OK ? 1 : 0;
        if (s != C2D_OK) {
            expect_status(s, C2D_ERROR_ALLOC, "a step short of memory");
            const uint64_t h = c2d_world_hash(w);
            if (h != ref_hash[0])
                failure("a step that failed after %ld allocations changed the hash%s", k,
                        h == ref_hash[1] ? " (it took the whole step)" : "");
        }
        /* Usable, and as if the failed step had never been asked for. */
        for (; done < 4; done++)
            assert_int_equal(c2d_world_step(w, DT), C2D_OK);
        if (c2d_world_hash(w) != ref_hash[4])
            failure("after a step failed at %ld allocations, 4 steps differ from the reference", k);
        c2d_world_destroy(w);
        assert_int_equal(b.live, 0);
        if (s == C2D_OK) break;
    }
    end_collect();
    assert_true(k > 0); /* the first step needs scratch memory */
}

/* ---- 11. Determinism ------------------------------------------------------------------ */

static void test_determinism(void **state) {
    (void)state;
    const c2d_world_def def = c2d_world_default_def();
    c2d_world *a = build_scene(&def, NULL), *b = build_scene(&def, NULL);
    const uint64_t h0 = c2d_world_hash(a);
    assert_int_equal(c2d_world_hash(b), h0);
    for (int i = 0; i < 60; i++) {
        assert_int_equal(c2d_world_step(a, DT), C2D_OK);
        assert_int_equal(c2d_world_step(b, DT), C2D_OK);
    }
    const uint64_t h60 = c2d_world_hash(a);
    assert_int_equal(c2d_world_hash(b), h60);
    assert_int_not_equal(h60, h0);
    balls_equal(a, b);

    /* The same bytes with 2, 3 and 8 workers. */
    const int workers[] = {2, 3, 8};
    for (int i = 0; i < 3; i++) {
        tasks t;
        const c2d_world_def td = tasks_def(&t, workers[i]);
        c2d_world *c = build_scene(&td, NULL);
        for (int s = 0; s < 60; s++)
            assert_int_equal(c2d_world_step(c, DT), C2D_OK);
        if (c2d_world_hash(c) != h60) fail_msg("%d workers: another hash", workers[i]);
        balls_equal(a, c);
        assert_int_equal(t.finished, t.enqueued);
        c2d_world_destroy(c);
    }

    /* The hash sees a ball's position, velocity and awake flag move. */
    c2d_world_balls bl;
    assert_int_equal(c2d_world_get_balls(b, &bl), C2D_OK);
    const c2d_ball_id id = bl.ids[7];
    c2d_vec2 p, v;
    assert_true(c2d_world_ball(b, id, &p, &v));
    assert_int_equal(c2d_world_set_ball_position(b, id, (c2d_vec2){nextafterf(p.x, 1e9f), p.y}),
                     C2D_OK);
    const uint64_t h1 = c2d_world_hash(b);
    assert_int_not_equal(h1, h60);
    assert_int_equal(c2d_world_set_ball_position(a, id, (c2d_vec2){nextafterf(p.x, 1e9f), p.y}),
                     C2D_OK);
    assert_int_equal(c2d_world_hash(a), h1);
    assert_int_equal(c2d_world_set_ball_velocity(b, id, (c2d_vec2){v.x, v.y + 0.5f}), C2D_OK);
    const uint64_t h2 = c2d_world_hash(b);
    assert_int_not_equal(h2, h1);
    c2d_world_destroy(a);
    c2d_world_destroy(b);

    /* ... and the awake flag alone: a ball at rest on the floor, put to sleep. */
    a = default_world();
    const c2d_capsule_def fl = floor_def();
    add_capsule(a, &fl);
    const c2d_ball_id still = add_ball(a, 0.0f, 1.0f, 0);
    const uint64_t awake_hash = c2d_world_hash(a);
    assert_int_equal(c2d_world_set_ball_awake(a, still, false), C2D_OK);
    assert_false(c2d_world_ball_awake(a, still));
    assert_int_not_equal(c2d_world_hash(a), awake_hash);
    c2d_world_destroy(a);

    /* ... and a kinematic capsule's endpoints, with no ball at all. */
    a = default_world();
    const c2d_capsule_def fp = flipper_def();
    const c2d_capsule_id cid = add_capsule(a, &fp);
    const uint64_t k0 = c2d_world_hash(a);
    assert_int_equal(c2d_world_step(a, DT), C2D_OK);
    const uint64_t k1 = c2d_world_hash(a);
    assert_int_not_equal(k1, k0);
    assert_int_equal(c2d_world_set_capsule_motion(a, cid, (c2d_vec2){0.0f, 0.0f}, 0.0f), C2D_OK);
    assert_int_equal(c2d_world_step(a, DT), C2D_OK);
    assert_int_equal(c2d_world_hash(a), k1);
    c2d_world_destroy(a);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_world_def_ranges),
        cmocka_unit_test(test_ball_def_ranges),
        cmocka_unit_test(test_setter_ranges),
        cmocka_unit_test(test_capsule_def_ranges),
        cmocka_unit_test(test_nulls),
        cmocka_unit_test(test_query_nulls),
        cmocka_unit_test(test_ids_unknown_and_removed),
        cmocka_unit_test(test_ids_reuse),
        cmocka_unit_test(test_ids_survive_removal),
        cmocka_unit_test(test_order_kept_by_sleep),
        cmocka_unit_test(test_control_bad_values),
        cmocka_unit_test(test_control_reads_back),
        cmocka_unit_test(test_awake_control),
        cmocka_unit_test(test_sleep_in_mid_air),
        cmocka_unit_test(test_teleport_wakes),
        cmocka_unit_test(test_dt),
        cmocka_unit_test(test_calls_during_step),
        cmocka_unit_test(test_status_string),
        cmocka_unit_test(test_too_large),
        cmocka_unit_test(test_alloc_create),
        cmocka_unit_test(test_alloc_add_balls),
        cmocka_unit_test(test_alloc_add_capsules),
        cmocka_unit_test(test_alloc_sleep),
        cmocka_unit_test(test_alloc_step),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
