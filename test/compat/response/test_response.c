/* Tests of collide2d/response.h: contact lists resolved against structure-of-arrays bodies.
 * Worked examples, equality with a loop of c2d_apply_impulse() byte for byte on random lists,
 * order dependence, push-out, and bad input (errors change nothing). */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <stdbool.h>

#include <cmocka.h>

#include "collide2d.h"

enum { N = 64, PAIRS = 400 };

typedef struct world {
    float x[N], y[N], vx[N], vy[N], inv_mass[N], restitution[N];
    c2d_body_soa soa;
} world;

static void world_init(world *w, size_t count) {
    memset(w, 0, sizeof *w);
    for (size_t i = 0; i < N; i++) {
        w->inv_mass[i] = 1.0f;
        w->restitution[i] = 1.0f;
    }
    const c2d_body_soa s = {w->x, w->y, w->vx, w->vy, w->inv_mass, w->restitution, count};
    w->soa = s;
}

static c2d_contact contact(float nx, float ny, float depth) {
    const c2d_contact c = {{nx, ny}, depth, {0.0f, 0.0f}};
    return c;
}

static c2d_circle_pair_contact ball_pair(uint32_t a, uint32_t b, float nx, float ny, float depth) {
    const c2d_circle_pair_contact p = {a, b, contact(nx, ny, depth)};
    return p;
}

static c2d_pair_contact pin_hit(uint32_t ball, uint32_t pin, float nx, float ny, float depth) {
    const c2d_pair_contact p = {ball, pin, contact(nx, ny, depth)};
    return p;
}

/* xorshift32: reproducible random values without libc's rand(). */
static uint32_t next(uint32_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}
static float uniform(uint32_t *s, float lo, float hi) {
    return lo + (hi - lo) * (float)(next(s) >> 8) * (1.0f / 16777216.0f);
}

static void head_on_balls_swap_velocities(void **state) {
    (void)state;
    world w;
    world_init(&w, 2);
    w.vx[0] = 2.0f;  /* ball 0 on the left, moving right */
    w.vx[1] = -1.0f; /* ball 1 on the right, moving left */
    const c2d_circle_pair_contact p = ball_pair(0, 1, -1.0f, 0.0f, 0.5f);
    float j = 0.0f;
    assert_int_equal(c2d_resolve_circle_contacts(&w.soa, &p, 1, &j), C2D_OK);
    assert_true(j == 3.0f);
    assert_true(w.vx[0] == -1.0f && w.vx[1] == 2.0f);
    assert_true(w.vy[0] == 0.0f && w.vy[1] == 0.0f);
    /* Positions untouched by impulses. */
    assert_true(w.x[0] == 0.0f && w.x[1] == 0.0f);
}

static void ball_on_static_pin_with_combined_restitution(void **state) {
    (void)state;
    world w;
    world_init(&w, 1);
    w.vx[0] = 1.5f;
    w.vy[0] = -2.0f;
    w.inv_mass[0] = 0.5f;
    w.restitution[0] = 0.81f;
    const float pin_e[3] = {1.0f, 1.0f, 0.64f};
    const c2d_pair_contact p = pin_hit(0, 2, 0.0f, 1.0f, 0.1f);
    float j = 0.0f;
    assert_int_equal(c2d_resolve_capsule_contacts(&w.soa, &p, 1, pin_e, 3, &j), C2D_OK);
    /* e = sqrt(0.81 * 0.64) = 0.72: the ball leaves at 1.44 upward. */
    assert_true(fabs(j - 1.72 * 2.0 / 0.5) < 1e-5);
    assert_true(w.vx[0] == 1.5f);
    assert_true(fabs(w.vy[0] - 1.44) < 1e-6);
    /* NULL restitutions: capsules have e = 1, the pair sqrt(0.81) = 0.9. */
    w.vy[0] = -2.0f;
    assert_int_equal(c2d_resolve_capsule_contacts(&w.soa, &p, 1, NULL, 3, NULL), C2D_OK);
    assert_true(fabs(w.vy[0] - 1.8) < 1e-6);
}

static void separating_and_nan_contacts_change_nothing(void **state) {
    (void)state;
    world w;
    world_init(&w, 3);
    w.vx[0] = -1.0f; /* ball 0 moving away from ball 1 along the normal (-1, 0): separating */
    w.vy[2] = -3.0f;
    const c2d_circle_pair_contact p[3] = {
        ball_pair(0, 1, -1.0f, 0.0f, 0.5f),
        ball_pair(1, 2, NAN, 0.0f, 0.5f),
        ball_pair(0, 2, 0.0f, NAN, NAN),
    };
    float j[3] = {9, 9, 9};
    assert_int_equal(c2d_resolve_circle_contacts(&w.soa, p, 3, j), C2D_OK);
    assert_true(j[0] == 0.0f && j[1] == 0.0f && j[2] == 0.0f);
    assert_true(w.vx[0] == -1.0f && w.vy[2] == -3.0f && w.vx[1] == 0.0f);
    /* Push-out skips the NaN contacts too. */
    assert_int_equal(c2d_push_out_circle_contacts(&w.soa, p + 1, 2), C2D_OK);
    for (int i = 0; i < 3; i++)
        assert_true(w.x[i] == 0.0f && w.y[i] == 0.0f);
}

/* Random velocities, inverse masses (an eighth static) and restitutions, and the same bodies
 * as c2d_body values in ref. */
static void random_bodies(world *w, uint32_t *seed, c2d_body ref[N]) {
    for (size_t i = 0; i < N; i++) {
        w->vx[i] = uniform(seed, -5, 5);
        w->vy[i] = uniform(seed, -5, 5);
        w->inv_mass[i] = (next(seed) % 8 == 0) ? 0.0f : uniform(seed, 0.01f, 3);
        w->restitution[i] = uniform(seed, 0, 1);
        const c2d_body b = {{w->vx[i], w->vy[i]}, w->inv_mass[i], w->restitution[i]};
        ref[i] = b;
    }
}

/* Random ball pairs (a != b) with unit normals. */
static void random_pairs(c2d_circle_pair_contact pairs[PAIRS], uint32_t *seed) {
    for (size_t k = 0; k < PAIRS; k++) {
        uint32_t a = next(seed) % N, b = next(seed) % N;
        if (a == b) b = (b + 1) % N;
        const float angle = uniform(seed, 0, 6.283f);
        pairs[k] = ball_pair(a, b, cosf(angle), sinf(angle), uniform(seed, 0, 1));
    }
}

/* Random bodies and contacts; the list resolved by the library equals, byte for byte, a loop
 * of c2d_apply_impulse() over c2d_body values. */
static void equals_a_loop_of_apply_impulse(void **state) {
    (void)state;
    uint32_t seed = 12345u;
    for (int round = 0; round < 20; round++) {
        world w;
        world_init(&w, N);
        c2d_body ref[N];
        random_bodies(&w, &seed, ref);
        c2d_circle_pair_contact pairs[PAIRS];
        random_pairs(pairs, &seed);
        float j[PAIRS];
        assert_int_equal(c2d_resolve_circle_contacts(&w.soa, pairs, PAIRS, j), C2D_OK);
        size_t changed = 0;
        for (size_t k = 0; k < PAIRS; k++) {
            const float jr =
                c2d_apply_impulse(&ref[pairs[k].a], &ref[pairs[k].b], pairs[k].contact.normal);
            assert_memory_equal(&j[k], &jr, sizeof jr);
            changed += jr != 0.0f;
        }
        assert_true(changed > PAIRS / 8); /* the comparison covered real impulses */
        for (size_t i = 0; i < N; i++) {
            assert_memory_equal(&w.vx[i], &ref[i].velocity.x, sizeof(float));
            assert_memory_equal(&w.vy[i], &ref[i].velocity.y, sizeof(float));
        }
        /* The same for ball-against-capsule contacts, capsules static with their restitution. */
        float pin_e[16];
        for (size_t c = 0; c < 16; c++)
            pin_e[c] = uniform(&seed, 0, 1);
        c2d_pair_contact hits[PAIRS];
        for (size_t k = 0; k < PAIRS; k++) {
            const float angle = uniform(&seed, 0, 6.283f);
            hits[k] = pin_hit(next(&seed) % N, next(&seed) % 16, cosf(angle), sinf(angle), 0.1f);
        }
        assert_int_equal(c2d_resolve_capsule_contacts(&w.soa, hits, PAIRS, pin_e, 16, j), C2D_OK);
        for (size_t k = 0; k < PAIRS; k++) {
            c2d_body pin = {{0.0f, 0.0f}, 0.0f, pin_e[hits[k].capsule]};
            const float jr = c2d_apply_impulse(&ref[hits[k].circle], &pin, hits[k].contact.normal);
            assert_memory_equal(&j[k], &jr, sizeof jr);
        }
        for (size_t i = 0; i < N; i++) {
            assert_memory_equal(&w.vx[i], &ref[i].velocity.x, sizeof(float));
            assert_memory_equal(&w.vy[i], &ref[i].velocity.y, sizeof(float));
        }
    }
}

/* Three balls in a row, touching: the order of the list decides the outcome (sequential
 * impulses, each seeing the previous ones' velocities). */
static void order_matters(void **state) {
    (void)state;
    world w1, w2;
    world_init(&w1, 3);
    w1.vx[0] = 1.0f; /* 0 -> hits 1 -> 1 next to 2 */
    w2 = w1;
    w2.soa.x = w2.x, w2.soa.y = w2.y, w2.soa.vx = w2.vx, w2.soa.vy = w2.vy;
    w2.soa.inv_mass = w2.inv_mass, w2.soa.restitution = w2.restitution;
    /* Normals toward a: a is on the left, so they point left. */
    const c2d_circle_pair_contact forward[2] = {ball_pair(0, 1, -1, 0, 0.1f),
                                                ball_pair(1, 2, -1, 0, 0.1f)};
    const c2d_circle_pair_contact backward[2] = {forward[1], forward[0]};
    assert_int_equal(c2d_resolve_circle_contacts(&w1.soa, forward, 2, NULL), C2D_OK);
    assert_int_equal(c2d_resolve_circle_contacts(&w2.soa, backward, 2, NULL), C2D_OK);
    /* Forward: Newton's cradle, the momentum passes along to ball 2. */
    assert_true(w1.vx[0] == 0.0f && w1.vx[1] == 0.0f && w1.vx[2] == 1.0f);
    /* Backward: the (1, 2) contact is at rest when it is looked at; only 0 and 1 exchange. */
    assert_true(w2.vx[0] == 0.0f && w2.vx[1] == 1.0f && w2.vx[2] == 0.0f);
}

static void push_out_splits_by_inverse_mass(void **state) {
    (void)state;
    world w;
    world_init(&w, 3);
    w.x[1] = 1.5f;
    w.inv_mass[0] = 1.0f;
    w.inv_mass[1] = 3.0f;
    /* Balls 0 and 1 of radius 1 at distance 1.5: depth 0.5, normal toward 0 is (-1, 0). */
    const c2d_circle_pair_contact p = ball_pair(0, 1, -1.0f, 0.0f, 0.5f);
    assert_int_equal(c2d_push_out_circle_contacts(&w.soa, &p, 1), C2D_OK);
    assert_true(w.x[0] == -0.125f && w.x[1] == 1.875f); /* 1/4 and 3/4 of the depth */
    assert_true(w.x[1] - w.x[0] == 2.0f);               /* now just touching */
    assert_true(w.y[0] == 0.0f && w.y[1] == 0.0f);
    assert_true(w.vx[0] == 0.0f && w.vx[1] == 0.0f); /* velocities untouched */
    /* Against a static capsule: the ball moves by the whole depth. */
    w.inv_mass[2] = 0.25f;
    const c2d_pair_contact h = pin_hit(2, 7, 0.6f, 0.8f, 0.5f);
    assert_int_equal(c2d_push_out_capsule_contacts(&w.soa, &h, 1), C2D_OK);
    assert_true(fabs(w.x[2] - 0.3) < 1e-7 && fabs(w.y[2] - 0.4) < 1e-7);
    /* Static ball, zero or negative depth: nothing moves. */
    w.inv_mass[2] = 0.0f;
    assert_int_equal(c2d_push_out_capsule_contacts(&w.soa, &h, 1), C2D_OK);
    const c2d_pair_contact flat[2] = {pin_hit(0, 0, 1, 0, 0.0f), pin_hit(0, 0, 1, 0, -1.0f)};
    assert_int_equal(c2d_push_out_capsule_contacts(&w.soa, flat, 2), C2D_OK);
    assert_true(fabs(w.x[2] - 0.3) < 1e-7 && w.x[0] == -0.125f);
    /* Both static: nothing; infinite inverse mass: nothing. */
    w.inv_mass[0] = 0.0f;
    w.inv_mass[1] = 0.0f;
    assert_int_equal(c2d_push_out_circle_contacts(&w.soa, &p, 1), C2D_OK);
    w.inv_mass[1] = INFINITY;
    assert_int_equal(c2d_push_out_circle_contacts(&w.soa, &p, 1), C2D_OK);
    assert_true(w.x[0] == -0.125f && w.x[1] == 1.875f);
}

static bool is_finite(float v) {
    return v >= -FLT_MAX && v <= FLT_MAX;
}

/* The adversarial search's reproducers: tiny inverse masses made depth / (ia + ib) overflow
 * and wrote NaN and infinite positions with status OK. */
static void push_out_tiny_inverse_masses(void **state) {
    (void)state;
    world w;
    world_init(&w, 2);
    w.inv_mass[0] = 0x1p-130f; /* "practically static", but the only one that moves */
    w.inv_mass[1] = 0.0f;
    const c2d_circle_pair_contact up = ball_pair(0, 1, 0.0f, 1.0f, 1.0f);
    assert_int_equal(c2d_push_out_circle_contacts(&w.soa, &up, 1), C2D_OK);
    assert_true(w.x[0] == 0.0f && w.y[0] == 1.0f); /* the whole depth */
    assert_true(w.x[1] == 0.0f && w.y[1] == 0.0f);
    world_init(&w, 2);
    w.x[0] = 1.0f, w.y[0] = 1.0f, w.x[1] = 2.0f, w.y[1] = 1.0f;
    w.inv_mass[0] = w.inv_mass[1] = 0x1.b38fb8p-127f;
    const c2d_circle_pair_contact left = ball_pair(0, 1, -1.0f, 0.0f, 8.0f);
    assert_int_equal(c2d_push_out_circle_contacts(&w.soa, &left, 1), C2D_OK);
    assert_true(w.x[0] == -3.0f && w.x[1] == 6.0f); /* half the depth each */
    assert_true(w.y[0] == 1.0f && w.y[1] == 1.0f);
    /* A push that would leave the floats is skipped, like an impulse too large for a float. */
    world_init(&w, 2);
    w.x[0] = 3e38f;
    w.inv_mass[1] = 0.0f;
    const c2d_circle_pair_contact far = ball_pair(0, 1, 1.0f, 0.0f, 1e38f);
    assert_int_equal(c2d_push_out_circle_contacts(&w.soa, &far, 1), C2D_OK);
    assert_true(w.x[0] == 3e38f);
    const c2d_pair_contact far_pin = pin_hit(0, 0, 1.0f, 0.0f, 1e38f);
    assert_int_equal(c2d_push_out_capsule_contacts(&w.soa, &far_pin, 1), C2D_OK);
    assert_true(w.x[0] == 3e38f);
}

/* No NaN or infinity from finite input, in any response call: random finite contact lists
 * where one inverse mass in eight is tiny (the search hit 1,096 of 12,345 such lists). */
static void finite_input_stays_finite(void **state) {
    (void)state;
    uint32_t seed = 0x5eed;
    const float tiny[] = {FLT_MIN, 0x1p-130f, 0x1.b38fb8p-127f, 0x1p-149f, 1e-30f};
    for (int list = 0; list < 4000; list++) {
        world w;
        world_init(&w, N);
        for (size_t i = 0; i < N; i++) {
            w.x[i] = uniform(&seed, -100, 100);
            w.y[i] = uniform(&seed, -100, 100);
            w.vx[i] = uniform(&seed, -50, 50);
            w.vy[i] = uniform(&seed, -50, 50);
            const uint32_t kind = next(&seed) % 8;
            w.inv_mass[i] = kind == 0   ? tiny[next(&seed) % 5]
                            : kind == 1 ? 0.0f
                                        : uniform(&seed, 0.01f, 4);
            w.restitution[i] = uniform(&seed, 0, 1);
        }
        c2d_circle_pair_contact pairs[32];
        c2d_pair_contact pins[32];
        for (size_t k = 0; k < 32; k++) {
            const uint32_t a = next(&seed) % N, b = (a + 1 + next(&seed) % (N - 1)) % N;
            const float angle_x = uniform(&seed, -1, 1), angle_y = uniform(&seed, -1, 1);
            const float len = sqrtf(angle_x * angle_x + angle_y * angle_y) + 1e-6f;
            const float depth = uniform(&seed, 0, 10);
            pairs[k] = ball_pair(a, b, angle_x / len, angle_y / len, depth);
            pins[k] = pin_hit(a, (uint32_t)k, angle_x / len, angle_y / len, depth);
        }
        assert_int_equal(c2d_resolve_circle_contacts(&w.soa, pairs, 32, NULL), C2D_OK);
        assert_int_equal(c2d_resolve_capsule_contacts(&w.soa, pins, 32, NULL, 32, NULL), C2D_OK);
        assert_int_equal(c2d_push_out_circle_contacts(&w.soa, pairs, 32), C2D_OK);
        assert_int_equal(c2d_push_out_capsule_contacts(&w.soa, pins, 32), C2D_OK);
        for (size_t i = 0; i < N; i++)
            assert_true(is_finite(w.x[i]) && is_finite(w.y[i]) && is_finite(w.vx[i]) &&
                        is_finite(w.vy[i]));
    }
}

static void bad_input_changes_nothing(void **state) {
    (void)state;
    world w, before;
    world_init(&w, 4);
    for (int i = 0; i < 4; i++)
        w.vx[i] = (float)(i - 2), w.x[i] = (float)i;
    before = w;
    const c2d_circle_pair_contact good = ball_pair(0, 1, -1, 0, 0.5f);
    const c2d_circle_pair_contact list[3] = {good, ball_pair(2, 3, -1, 0, 0.5f),
                                             ball_pair(1, 4, -1, 0, 0.5f)}; /* 4: out of range */
    float j[3] = {7, 7, 7};
    assert_int_equal(c2d_resolve_circle_contacts(&w.soa, list, 3, j), C2D_ERROR_INDEX);
    assert_int_equal(c2d_push_out_circle_contacts(&w.soa, list, 3), C2D_ERROR_INDEX);
    const c2d_circle_pair_contact self = ball_pair(2, 2, -1, 0, 0.5f);
    assert_int_equal(c2d_resolve_circle_contacts(&w.soa, &self, 1, j), C2D_ERROR_INDEX);
    assert_int_equal(c2d_push_out_circle_contacts(&w.soa, &self, 1), C2D_ERROR_INDEX);
    const c2d_pair_contact hits[2] = {pin_hit(0, 1, 0, 1, 0.1f), pin_hit(1, 5, 0, 1, 0.1f)};
    assert_int_equal(c2d_resolve_capsule_contacts(&w.soa, hits, 2, NULL, 5, j), C2D_ERROR_INDEX);
    const c2d_pair_contact far = pin_hit(9, 0, 0, 1, 0.1f);
    assert_int_equal(c2d_resolve_capsule_contacts(&w.soa, &far, 1, NULL, 5, j), C2D_ERROR_INDEX);
    assert_int_equal(c2d_push_out_capsule_contacts(&w.soa, &far, 1), C2D_ERROR_INDEX);
    /* NULLs. */
    assert_int_equal(c2d_resolve_circle_contacts(NULL, &good, 1, j), C2D_ERROR_NULL);
    assert_int_equal(c2d_resolve_circle_contacts(&w.soa, NULL, 1, j), C2D_ERROR_NULL);
    assert_int_equal(c2d_resolve_capsule_contacts(NULL, hits, 1, NULL, 5, j), C2D_ERROR_NULL);
    assert_int_equal(c2d_push_out_circle_contacts(NULL, &good, 1), C2D_ERROR_NULL);
    assert_int_equal(c2d_push_out_capsule_contacts(&w.soa, NULL, 1), C2D_ERROR_NULL);
    c2d_body_soa no_v = w.soa;
    no_v.vy = NULL;
    assert_int_equal(c2d_resolve_circle_contacts(&no_v, &good, 1, j), C2D_ERROR_NULL);
    no_v = w.soa;
    no_v.restitution = NULL;
    assert_int_equal(c2d_resolve_capsule_contacts(&no_v, hits, 1, NULL, 5, j), C2D_ERROR_NULL);
    c2d_body_soa no_x = w.soa;
    no_x.x = NULL;
    assert_int_equal(c2d_push_out_circle_contacts(&no_x, &good, 1), C2D_ERROR_NULL);
    assert_int_equal(c2d_push_out_capsule_contacts(&no_x, hits, 1), C2D_ERROR_NULL);
    /* Nothing was written anywhere. */
    assert_memory_equal(w.x, before.x, sizeof w.x);
    assert_memory_equal(w.y, before.y, sizeof w.y);
    assert_memory_equal(w.vx, before.vx, sizeof w.vx);
    assert_memory_equal(w.vy, before.vy, sizeof w.vy);
    assert_true(j[0] == 7 && j[1] == 7 && j[2] == 7);
    /* Empty lists are fine with NULL pointers; push-out needs no velocities and vice versa. */
    assert_int_equal(c2d_resolve_circle_contacts(&w.soa, NULL, 0, NULL), C2D_OK);
    assert_int_equal(c2d_push_out_capsule_contacts(&w.soa, NULL, 0), C2D_OK);
    c2d_body_soa positions_only = {w.x, w.y, NULL, NULL, w.inv_mass, NULL, 4};
    assert_int_equal(c2d_push_out_circle_contacts(&positions_only, &good, 1), C2D_OK);
    c2d_body_soa velocities_only = {NULL, NULL, w.vx, w.vy, w.inv_mass, w.restitution, 4};
    assert_int_equal(c2d_resolve_circle_contacts(&velocities_only, &good, 1, NULL), C2D_OK);
}

/* ---- the _ex calls: friction, spin, moving capsules ------------------------------------- */

typedef struct spin_arrays {
    float friction[N], w[N], inv_inertia[N], radius[N];
    c2d_body_friction_soa soa;
} spin_arrays;

static void spin_init(spin_arrays *s, uint32_t *seed, bool rotate) {
    for (size_t i = 0; i < N; i++) {
        s->friction[i] = uniform(seed, 0, 1.2f);
        s->w[i] = uniform(seed, -10, 10);
        s->radius[i] = uniform(seed, 0.1f, 2);
        s->inv_inertia[i] = (next(seed) % 4 == 0) ? 0.0f : uniform(seed, 0.1f, 4);
    }
    const c2d_body_friction_soa soa = {s->friction, rotate ? s->w : NULL, s->inv_inertia,
                                       s->radius};
    s->soa = soa;
}

static c2d_body_friction spin_of(const spin_arrays *s, size_t i) {
    const c2d_body_friction f = {s->friction[i], s->soa.angular_velocity ? s->w[i] : 0.0f,
                                 s->soa.angular_velocity ? s->inv_inertia[i] : 0.0f,
                                 s->soa.angular_velocity ? s->radius[i] : 0.0f};
    return f;
}

/* Random lists: the _ex calls equal a loop of c2d_apply_impulse_friction() byte for byte, with
 * and without rotation; with moving and turning capsules the capsule's velocity is taken at the
 * contact point; without friction they equal the plain calls. */
static void ex_equals_a_loop_of_apply_impulse_friction(void **state) {
    (void)state;
    uint32_t seed = 4242u;
    for (int round = 0; round < 20; round++) {
        world w;
        world_init(&w, N);
        spin_arrays sp;
        spin_init(&sp, &seed, round % 2 == 0);
        c2d_body ref[N];
        c2d_body_friction fref[N];
        random_bodies(&w, &seed, ref);
        for (size_t i = 0; i < N; i++)
            fref[i] = spin_of(&sp, i);
        c2d_circle_pair_contact pairs[PAIRS];
        random_pairs(pairs, &seed);
        float j[PAIRS], jt[PAIRS];
        assert_int_equal(c2d_resolve_circle_contacts_ex(&w.soa, &sp.soa, pairs, PAIRS, j, jt),
                         C2D_OK);
        size_t rubbed = 0;
        for (size_t k = 0; k < PAIRS; k++) {
            float jtr;
            const float jr =
                c2d_apply_impulse_friction(&ref[pairs[k].a], &fref[pairs[k].a], &ref[pairs[k].b],
                                           &fref[pairs[k].b], pairs[k].contact.normal, &jtr);
            assert_memory_equal(&j[k], &jr, sizeof jr);
            assert_memory_equal(&jt[k], &jtr, sizeof jtr);
            rubbed += jtr != 0.0f;
        }
        assert_true(rubbed > PAIRS / 8);
        for (size_t i = 0; i < N; i++) {
            assert_memory_equal(&w.vx[i], &ref[i].velocity.x, sizeof(float));
            assert_memory_equal(&w.vy[i], &ref[i].velocity.y, sizeof(float));
            if (sp.soa.angular_velocity)
                assert_memory_equal(&sp.w[i], &fref[i].angular_velocity, sizeof(float));
        }
        /* Capsules: some moving, some turning about a pivot. */
        float pin_e[16], pin_mu[16], pvx[16], pvy[16], pw[16], ppx[16], ppy[16];
        for (size_t c = 0; c < 16; c++) {
            pin_e[c] = uniform(&seed, 0, 1);
            pin_mu[c] = uniform(&seed, 0, 1);
            pvx[c] = uniform(&seed, -3, 3);
            pvy[c] = uniform(&seed, -3, 3);
            pw[c] = uniform(&seed, -5, 5);
            ppx[c] = uniform(&seed, -2, 2);
            ppy[c] = uniform(&seed, -2, 2);
        }
        const c2d_capsule_bodies caps = {pin_e, pin_mu, pvx, pvy, pw, ppx, ppy, 16};
        c2d_pair_contact hits[PAIRS];
        for (size_t k = 0; k < PAIRS; k++) {
            const float angle = uniform(&seed, 0, 6.283f);
            hits[k] = pin_hit(next(&seed) % N, next(&seed) % 16, cosf(angle), sinf(angle), 0.1f);
            hits[k].contact.point.x = uniform(&seed, -3, 3);
            hits[k].contact.point.y = uniform(&seed, -3, 3);
        }
        assert_int_equal(
            c2d_resolve_capsule_contacts_ex(&w.soa, &sp.soa, hits, PAIRS, &caps, j, jt), C2D_OK);
        for (size_t k = 0; k < PAIRS; k++) {
            const uint32_t c = hits[k].capsule;
            const c2d_vec2 p = hits[k].contact.point;
            c2d_body pin = {
                {pvx[c] - pw[c] * (p.y - ppy[c]), pvy[c] + pw[c] * (p.x - ppx[c])}, 0.0f, pin_e[c]};
            c2d_body_friction fpin = {pin_mu[c], 0.0f, 0.0f, 0.0f};
            float jtr;
            const uint32_t i = hits[k].circle;
            const float jr = c2d_apply_impulse_friction(&ref[i], &fref[i], &pin, &fpin,
                                                        hits[k].contact.normal, &jtr);
            assert_memory_equal(&j[k], &jr, sizeof jr);
            assert_memory_equal(&jt[k], &jtr, sizeof jtr);
        }
        for (size_t i = 0; i < N; i++) {
            assert_memory_equal(&w.vx[i], &ref[i].velocity.x, sizeof(float));
            assert_memory_equal(&w.vy[i], &ref[i].velocity.y, sizeof(float));
            if (sp.soa.angular_velocity)
                assert_memory_equal(&sp.w[i], &fref[i].angular_velocity, sizeof(float));
        }
        /* Without friction, at rest: the plain calls' bytes. */
        world w2 = w;
        w2.soa.vx = w2.vx, w2.soa.vy = w2.vy, w2.soa.inv_mass = w2.inv_mass;
        w2.soa.restitution = w2.restitution, w2.soa.x = w2.x, w2.soa.y = w2.y;
        const c2d_body_friction_soa no_friction = {NULL, sp.w, sp.inv_inertia, sp.radius};
        const c2d_capsule_bodies at_rest = {pin_e, pin_mu, NULL, NULL, NULL, NULL, NULL, 16};
        float j2[PAIRS], jt2[PAIRS];
        assert_int_equal(c2d_resolve_circle_contacts_ex(&w.soa, &no_friction, pairs, PAIRS, j, jt),
                         C2D_OK);
        assert_int_equal(c2d_resolve_circle_contacts(&w2.soa, pairs, PAIRS, j2), C2D_OK);
        assert_memory_equal(j, j2, sizeof j);
        assert_int_equal(
            c2d_resolve_capsule_contacts_ex(&w.soa, NULL, hits, PAIRS, &at_rest, j, jt), C2D_OK);
        assert_int_equal(c2d_resolve_capsule_contacts(&w2.soa, hits, PAIRS, pin_e, 16, j2), C2D_OK);
        assert_memory_equal(j, j2, sizeof j);
        assert_int_equal(c2d_resolve_capsule_contacts_ex(&w.soa, NULL, hits, PAIRS, NULL, j, jt2),
                         C2D_OK);
        assert_int_equal(c2d_resolve_capsule_contacts(&w2.soa, hits, PAIRS, NULL, 16, j2), C2D_OK);
        assert_memory_equal(j, j2, sizeof j);
        for (size_t k = 0; k < PAIRS; k++)
            assert_true(jt[k] == 0.0f && jt2[k] == 0.0f);
        assert_memory_equal(w.vx, w2.vx, sizeof w.vx);
        assert_memory_equal(w.vy, w2.vy, sizeof w.vy);
    }
}

static void moving_and_turning_capsules(void **state) {
    (void)state;
    world w;
    world_init(&w, 1);
    /* A ball at rest on a paddle moving up at 2, e = 1: it leaves at (1 + e) 2 = 4. */
    float vx[1] = {0.0f}, vy[1] = {2.0f};
    const c2d_pair_contact hit = pin_hit(0, 0, 0.0f, 1.0f, 0.0f);
    c2d_capsule_bodies paddle = {NULL, NULL, vx, vy, NULL, NULL, NULL, 1};
    float j;
    assert_int_equal(c2d_resolve_capsule_contacts_ex(&w.soa, NULL, &hit, 1, &paddle, &j, NULL),
                     C2D_OK);
    assert_true(w.vx[0] == 0.0f && w.vy[0] == 4.0f && j == 4.0f);
    /* A flipper turning counter-clockwise at 2 rad per unit of time about the origin: at the
     * contact point (3, 0.5) its surface moves at w x (3, 0.5) = (-1, 6); a ball at rest above
     * it (normal (0, 1)), e = sqrt(0.25 * 1) = 0.5: vn = -6, the ball leaves at 1.5 * 6 = 9. */
    world_init(&w, 1);
    w.restitution[0] = 0.25f;
    float wz[1] = {2.0f}, px[1] = {0.0f}, py[1] = {0.0f};
    c2d_pair_contact tip = pin_hit(0, 0, 0.0f, 1.0f, 0.0f);
    tip.contact.point.x = 3.0f;
    tip.contact.point.y = 0.5f;
    c2d_capsule_bodies flipper = {NULL, NULL, NULL, NULL, wz, px, py, 1};
    assert_int_equal(c2d_resolve_capsule_contacts_ex(&w.soa, NULL, &tip, 1, &flipper, NULL, NULL),
                     C2D_OK);
    assert_true(w.vx[0] == 0.0f && fabsf(w.vy[0] - 9.0f) < 1e-6f);
    /* With friction (ball mu 1, flipper mu 1, no spin): the flipper's surface slides left at 1
     * under the ball, and friction drags the ball along: e = 1, jn = 12, jt = -vt = 1 < mu jn. */
    world_init(&w, 1);
    float mu[1] = {1.0f};
    const c2d_body_friction_soa rough = {mu, NULL, NULL, NULL};
    float jt;
    assert_int_equal(c2d_resolve_capsule_contacts_ex(&w.soa, &rough, &tip, 1, &flipper, &j, &jt),
                     C2D_OK);
    assert_true(fabsf(w.vx[0] + 1.0f) < 1e-6f && fabsf(w.vy[0] - 12.0f) < 1e-5f);
    /* Errors write nothing: a velocity without its other half, a turn without pivots, a
     * capsule index beyond capsules->count, spin without inverse inertia. */
    world before = w;
    const c2d_capsule_bodies half = {NULL, NULL, vx, NULL, NULL, NULL, NULL, 1};
    const c2d_capsule_bodies no_pivot = {NULL, NULL, NULL, NULL, wz, px, NULL, 1};
    const c2d_pair_contact beyond = pin_hit(0, 1, 0.0f, 1.0f, 0.0f);
    const c2d_body_friction_soa no_inertia = {mu, wz, NULL, mu};
    j = 7.0f;
    assert_int_equal(c2d_resolve_capsule_contacts_ex(&w.soa, NULL, &hit, 1, &half, &j, NULL),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_resolve_capsule_contacts_ex(&w.soa, NULL, &hit, 1, &no_pivot, &j, NULL),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_resolve_capsule_contacts_ex(&w.soa, NULL, &beyond, 1, &paddle, &j, NULL),
                     C2D_ERROR_INDEX);
    assert_int_equal(c2d_resolve_capsule_contacts_ex(&w.soa, &no_inertia, &hit, 1, NULL, &j, NULL),
                     C2D_ERROR_NULL);
    const c2d_circle_pair_contact self = ball_pair(0, 0, 0, 1, 0.0f);
    assert_int_equal(c2d_resolve_circle_contacts_ex(&w.soa, &rough, &self, 1, &j, NULL),
                     C2D_ERROR_INDEX);
    assert_int_equal(c2d_resolve_circle_contacts_ex(&w.soa, &no_inertia, &self, 1, &j, NULL),
                     C2D_ERROR_NULL);
    assert_true(j == 7.0f);
    assert_memory_equal(w.vx, before.vx, sizeof w.vx);
    assert_memory_equal(w.vy, before.vy, sizeof w.vy);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(head_on_balls_swap_velocities),
        cmocka_unit_test(ball_on_static_pin_with_combined_restitution),
        cmocka_unit_test(separating_and_nan_contacts_change_nothing),
        cmocka_unit_test(equals_a_loop_of_apply_impulse),
        cmocka_unit_test(order_matters),
        cmocka_unit_test(push_out_splits_by_inverse_mass),
        cmocka_unit_test(push_out_tiny_inverse_masses),
        cmocka_unit_test(finite_input_stays_finite),
        cmocka_unit_test(bad_input_changes_nothing),
        cmocka_unit_test(ex_equals_a_loop_of_apply_impulse_friction),
        cmocka_unit_test(moving_and_turning_capsules),
    };
    return cmocka_run_group_tests_name("response", tests, NULL, NULL);
}
