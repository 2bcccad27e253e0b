/* The balls' own motion through the public API: damping against its formula, gravity scale
 * (floating, rising, falling faster without tunnelling), forces for one step, a tilted board
 * (c2d_world_set_gravity() wakes the pile), and weightless balls that sleep where they stop (a
 * top-down game). */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "collide2d/world.h"

static const float DT = 1.0f / 60.0f;

static c2d_world *world_with_gravity(float gx, float gy) {
    c2d_world_def def = c2d_world_default_def();
    def.gravity = (c2d_vec2){gx, gy};
    c2d_world *w = NULL;
    assert_int_equal(c2d_world_create(&def, &w), C2D_OK);
    return w;
}

static c2d_ball_id add_ball(c2d_world *w, c2d_ball_def d) {
    c2d_ball_id id;
    assert_int_equal(c2d_world_add_balls(w, &d, 1, &id), C2D_OK);
    return id;
}

static void add_wall(c2d_world *w, float ax, float ay, float bx, float by, float r) {
    c2d_capsule_def d = c2d_capsule_default_def();
    d.shape = (c2d_capsule){{ax, ay}, {bx, by}, r};
    assert_int_equal(c2d_world_add_capsules(w, &d, 1, NULL), C2D_OK);
}

static void steps(c2d_world *w, int n) {
    for (int i = 0; i < n; i++)
        assert_int_equal(c2d_world_step(w, DT), C2D_OK);
}

static c2d_ball_state state_of(const c2d_world *w, c2d_ball_id id) {
    c2d_ball_state s;
    assert_true(c2d_world_ball_state(w, id, &s));
    return s;
}

/* Linear and angular damping follow v (1 / (1 + h d)) each substep, as a double reference does
 * (within 1e-4: 480 float roundings), and so come within 1% of the exponential decay e^(-d t)
 * after 1 s; a spinning ball that does not move stays where it is, to the bit. */
static void damping_formula(void **state) {
    (void)state;
    c2d_world *w = world_with_gravity(0.0f, 0.0f);
    c2d_ball_def d = c2d_ball_default_def();
    d.velocity = (c2d_vec2){10.0f, 0.0f};
    d.linear_damping = 2.0f;
    const c2d_ball_id slide = add_ball(w, d);
    d = c2d_ball_default_def();
    d.position = (c2d_vec2){0.0f, 50.0f};
    d.angular_velocity = 5.0f;
    d.angular_damping = 3.0f;
    const c2d_ball_id spin = add_ball(w, d);

    const int substeps = c2d_world_default_def().substeps;
    const double h = (double)DT / substeps;
    double v = 10.0, x = 0.0, spin_ref = 5.0;
    for (int s = 0; s < 60 * substeps; s++) {
        v /= 1.0 + h * 2.0;
        x += v * h;
        spin_ref /= 1.0 + h * 3.0;
    }
    steps(w, 60);
    const c2d_ball_state a = state_of(w, slide), b = state_of(w, spin);
    print_message("# damping: v %.7f (reference %.7f, e^-2 x 10 = %.7f), x %.6f (%.6f), spin "
                  "%.7f (%.7f)\n",
                  (double)a.velocity.x, v, 10.0 * exp(-2.0), (double)a.position.x, x,
                  (double)b.angular_velocity, spin_ref);
    assert_true(fabs(a.velocity.x - v) <= 1e-4 * v); /* 480 float roundings */
    assert_true(a.velocity.y == 0.0f);
    assert_true(fabs(a.position.x - x) <= 1e-4 * x);
    assert_true(fabs(v - 10.0 * exp(-2.0)) <= 0.01 * v);
    assert_true(fabs(b.angular_velocity - spin_ref) <= 1e-4 * spin_ref);
    assert_true(fabs(spin_ref - 5.0 * exp(-3.0)) <= 0.01 * spin_ref);
    assert_true(b.position.x == 0.0f && b.position.y == 50.0f);
    c2d_world_destroy(w);
}

/* Gravity scale: 0 floats (exactly still, and asleep where it stopped, since it feels no
 * gravity), -1 rises to a ceiling and sleeps against it, 2 falls twice as fast, and 40 falls
 * onto a capsule of radius 0.01 without passing through it. */
static void gravity_scale(void **state) {
    (void)state;
    c2d_world *w = world_with_gravity(0.0f, -10.0f);
    add_wall(w, -50.0f, 0.0f, 50.0f, 0.0f, 0.5f);   /* floor, top at 0.5 */
    add_wall(w, 5.0f, 10.0f, 15.0f, 10.0f, 0.5f);   /* ceiling over x = 10, face at 9.5 */
    add_wall(w, 25.0f, 25.0f, 35.0f, 25.0f, 0.01f); /* a thin bar over x = 30 */
    c2d_ball_def d = c2d_ball_default_def();
    d.position = (c2d_vec2){0.0f, 5.0f};
    d.gravity_scale = 0.0f;
    const c2d_ball_id floats = add_ball(w, d);
    d.position = (c2d_vec2){10.0f, 5.0f};
    d.gravity_scale = -1.0f;
    const c2d_ball_id rises = add_ball(w, d);
    d.position = (c2d_vec2){20.0f, 40.0f};
    d.gravity_scale = 2.0f;
    const c2d_ball_id falls = add_ball(w, d);
    d.position = (c2d_vec2){30.0f, 200.0f};
    d.gravity_scale = 40.0f;
    const c2d_ball_id heavy = add_ball(w, d);

    steps(w, 1);
    const float vy = state_of(w, falls).velocity.y;
    print_message("# gravity_scale 2: vy %.7f after one step (-20 dt = %.7f)\n", (double)vy,
                  (double)(-20.0f * DT));
    assert_true(fabsf(vy + 20.0f * DT) <= 1e-5f * 20.0f * DT);
    float lowest = INFINITY;
    for (int s = 1; s < 600; s++) {
        steps(w, 1);
        const float y = state_of(w, heavy).position.y;
        if (y < lowest) lowest = y;
        const c2d_ball_state f = state_of(w, floats);
        assert_true(f.position.x == 0.0f && f.position.y == 5.0f);
        assert_true(f.velocity.x == 0.0f && f.velocity.y == 0.0f);
    }
    const c2d_ball_state f = state_of(w, floats), r = state_of(w, rises);
    const c2d_ball_state h = state_of(w, heavy);
    print_message("# gravity_scale: 0 asleep %d at y %.3f; -1 asleep %d, gap to the ceiling %.5f; "
                  "40: lowest y %.4f (bar top 25.01, ball radius 0.5), now %.4f\n",
                  !f.awake, (double)f.position.y, !r.awake, (double)(9.5f - r.position.y - 0.5f),
                  (double)lowest, (double)h.position.y);
    assert_false(f.awake);
    assert_false(r.awake);
    assert_true(fabsf(9.5f - r.position.y - 0.5f) <= 0.005f * 0.5f);
    assert_true(lowest > 25.01f);
    assert_true(h.position.y > 25.01f + 0.5f * 0.99f);
    c2d_world_destroy(w);
}

/* A force lasts one step: one step of force f adds f / m x dt; a force applied every step for a
 * second adds f / m; the state reads it back until the step, then 0. Forces add up. A force
 * wakes a sleeping ball. */
static void force_one_step(void **state) {
    (void)state;
    c2d_world *w = world_with_gravity(0.0f, 0.0f);
    const c2d_ball_id id = add_ball(w, c2d_ball_default_def());
    const float m = state_of(w, id).mass;
    assert_int_equal(c2d_world_apply_ball_force(w, id, (c2d_vec2){m, 0.0f}), C2D_OK);
    assert_int_equal(c2d_world_apply_ball_force(w, id, (c2d_vec2){m, -m}), C2D_OK);
    c2d_ball_state s = state_of(w, id);
    assert_true(s.force.x == 2.0f * m && s.force.y == -m);
    steps(w, 1);
    s = state_of(w, id);
    assert_true(s.force.x == 0.0f && s.force.y == 0.0f);
    assert_true(fabsf(s.velocity.x - 2.0f * DT) <= 1e-5f * 2.0f * DT);
    assert_true(fabsf(s.velocity.y + DT) <= 1e-5f * DT);
    const c2d_vec2 after = s.velocity;
    steps(w, 1);
    s = state_of(w, id);
    assert_memory_equal(&s.velocity, &after, sizeof after); /* gone after its step */

    assert_int_equal(c2d_world_set_ball_velocity(w, id, (c2d_vec2){0.0f, 0.0f}), C2D_OK);
    for (int i = 0; i < 60; i++) {
        assert_int_equal(c2d_world_apply_ball_force(w, id, (c2d_vec2){3.0f * m, 0.0f}), C2D_OK);
        steps(w, 1);
    }
    s = state_of(w, id);
    print_message("# force: 3 m for 1 s: vx %.6f (3)\n", (double)s.velocity.x);
    assert_true(fabsf(s.velocity.x - 3.0f) <= 1e-4f * 3.0f);
    assert_true(s.awake);
    c2d_world_destroy(w);

    /* On a floor: asleep, then a force pushes it along. */
    w = world_with_gravity(0.0f, -10.0f);
    add_wall(w, -50.0f, 0.0f, 50.0f, 0.0f, 0.5f);
    c2d_ball_def d = c2d_ball_default_def();
    d.position = (c2d_vec2){0.0f, 1.0f};
    const c2d_ball_id rest = add_ball(w, d);
    for (int i = 0; i < 600 && c2d_world_ball_awake(w, rest); i++)
        steps(w, 1);
    assert_false(c2d_world_ball_awake(w, rest));
    assert_int_equal(c2d_world_apply_ball_force(w, rest, (c2d_vec2){40.0f * m, 0.0f}), C2D_OK);
    assert_true(c2d_world_ball_awake(w, rest));
    for (int i = 0; i < 30; i++) {
        assert_int_equal(c2d_world_apply_ball_force(w, rest, (c2d_vec2){40.0f * m, 0.0f}), C2D_OK);
        steps(w, 1);
    }
    s = state_of(w, rest);
    print_message("# force on the floor: x %.3f after 0.5 s\n", (double)s.position.x);
    assert_true(s.position.x > 1.0f);
    assert_true(fabsf(s.position.y - 1.0f) < 0.01f);
    c2d_world_destroy(w);
}

/* A box of balls sleeps; tilting gravity wakes every ball at once, the pile slides toward the
 * low wall, and no ball leaves the box. Setting the same gravity again changes nothing. */
static void tilted_board(void **state) {
    (void)state;
    c2d_world *w = world_with_gravity(0.0f, -10.0f);
    const float W = 16.0f;
    add_wall(w, 0.0f, -0.5f, W, -0.5f, 0.5f);
    add_wall(w, -0.5f, -0.5f, -0.5f, 30.0f, 0.5f);
    add_wall(w, W + 0.5f, -0.5f, W + 0.5f, 30.0f, 0.5f);
    enum { N = 120 };
    c2d_ball_def defs[N];
    for (int i = 0; i < N; i++) {
        defs[i] = c2d_ball_default_def();
        defs[i].radius = 0.4f + 0.002f * (float)(i % 50);
        defs[i].position =
            (c2d_vec2){0.6f + 1.25f * (float)(i % 12), 0.6f + 1.25f * (float)(i / 12)};
    }
    assert_int_equal(c2d_world_add_balls(w, defs, N, NULL), C2D_OK);
    int settle = 0;
    while (c2d_world_awake_count(w) > 0 && settle < 1800) {
        steps(w, 1);
        settle++;
    }
    assert_int_equal(c2d_world_awake_count(w), 0);
    const uint64_t hash = c2d_world_hash(w);
    assert_int_equal(c2d_world_set_gravity(w, (c2d_vec2){0.0f, -10.0f}), C2D_OK);
    assert_int_equal(c2d_world_awake_count(w), 0);
    assert_true(c2d_world_hash(w) == hash);

    c2d_world_balls b;
    assert_int_equal(c2d_world_get_balls(w, &b), C2D_OK);
    double mean_before = 0.0;
    for (size_t i = 0; i < b.count; i++)
        mean_before += b.x[i] / (double)b.count;
    assert_int_equal(c2d_world_set_gravity(w, (c2d_vec2){-6.0f, -8.0f}), C2D_OK);
    const c2d_vec2 g = c2d_world_gravity(w);
    assert_true(g.x == -6.0f && g.y == -8.0f);
    assert_int_equal(c2d_world_awake_count(w), N);
    steps(w, 180);
    assert_int_equal(c2d_world_get_balls(w, &b), C2D_OK);
    double mean_after = 0.0;
    for (size_t i = 0; i < b.count; i++) {
        mean_after += b.x[i] / (double)b.count;
        assert_true(b.x[i] > 0.0f && b.x[i] < W && b.y[i] > 0.0f);
    }
    print_message("# tilt: asleep after %d steps; mean x %.3f -> %.3f after 3 s at (-6, -8)\n",
                  settle, mean_before, mean_after);
    assert_true(mean_after < mean_before - 1.0);
    c2d_world_destroy(w);
}

/* A top-down game (gravity 0, drag): a ball that stops sleeps where it stops, in the open; a
 * ball shot into it wakes it and moves it; a weightless ball that a falling ball lands on
 * wakes (it is pushed, not a floating floor). */
static void weightless_sleep(void **state) {
    (void)state;
    c2d_world *w = world_with_gravity(0.0f, 0.0f);
    c2d_ball_def d = c2d_ball_default_def();
    d.velocity = (c2d_vec2){3.0f, 0.0f};
    d.linear_damping = 4.0f;
    const c2d_ball_id puck = add_ball(w, d);
    int t = 0;
    while (c2d_world_ball_awake(w, puck) && t < 600) {
        steps(w, 1);
        t++;
    }
    const c2d_ball_state s = state_of(w, puck);
    print_message("# top-down: the puck slept after %d steps at x %.4f (3 / 4 = 0.75 at most)\n", t,
                  (double)s.position.x);
    assert_false(s.awake);
    assert_true(s.position.x > 0.5f && s.position.x < 0.76f);
    d = c2d_ball_default_def();
    d.position = (c2d_vec2){s.position.x - 3.0f, 0.0f};
    d.velocity = (c2d_vec2){5.0f, 0.0f};
    d.linear_damping = 0.5f;
    add_ball(w, d);
    steps(w, 60);
    const c2d_ball_state hit = state_of(w, puck);
    assert_true(hit.awake);
    assert_true(hit.position.x > s.position.x + 0.5f);
    c2d_world_destroy(w);

    w = world_with_gravity(0.0f, -10.0f);
    d = c2d_ball_default_def();
    d.position = (c2d_vec2){0.0f, 5.0f};
    d.gravity_scale = 0.0f;
    const c2d_ball_id balloon = add_ball(w, d);
    steps(w, 60);
    assert_false(c2d_world_ball_awake(w, balloon));
    d = c2d_ball_default_def();
    d.position = (c2d_vec2){0.0f, 6.002f}; /* set down gently: no strike wakes it */
    add_ball(w, d);
    steps(w, 30);
    const c2d_ball_state b = state_of(w, balloon);
    print_message("# a ball set down on a weightless one: awake %d, y %.3f (was 5)\n", b.awake,
                  (double)b.position.y);
    assert_true(b.position.y < 4.9f);
    c2d_world_destroy(w);

    /* A floating ball holds nothing up: a ball that feels gravity, put to sleep on one, or
     * sinking on one held back by drag, never sleeps in mid-air (a reviewer's repro: it slept
     * at y 11 for good). */
    for (int drag = 0; drag < 2; drag++) {
        w = world_with_gravity(0.0f, -10.0f);
        d = c2d_ball_default_def();
        d.position = (c2d_vec2){0.0f, 10.0f};
        d.gravity_scale = 0.0f;
        d.linear_damping = drag ? 2000.0f : 0.0f;
        const c2d_ball_id floating = add_ball(w, d);
        steps(w, 30);
        assert_false(c2d_world_ball_awake(w, floating));
        d = c2d_ball_default_def();
        d.position = (c2d_vec2){0.0f, 11.0f};
        const c2d_ball_id on_top = add_ball(w, d);
        if (!drag) assert_int_equal(c2d_world_set_ball_awake(w, on_top, false), C2D_OK);
        int asleep_high = 0;
        for (int i = 0; i < 600; i++) {
            steps(w, 1);
            const c2d_ball_state t = state_of(w, on_top);
            asleep_high += !t.awake;
        }
        print_message("# on a floating ball (drag %d): steps asleep on it %d, y %.4f\n", drag,
                      asleep_high, (double)state_of(w, on_top).position.y);
        assert_int_equal(asleep_high, 0);
        c2d_world_destroy(w);
    }
}

/* The setters act from the next step: a stack of two sleeping balls whose bottom ball's mask
 * is changed to pass through the floor: it falls through, and the top one wakes and falls onto
 * the floor; a ball given restitution 1 bounces where it stopped dead before; a gravity scale
 * of 0 set in flight stops the fall's acceleration; damping set on a sliding ball slows it. */
static void setters_act(void **state) {
    (void)state;
    c2d_world *w = world_with_gravity(0.0f, -10.0f);
    c2d_capsule_def floor = c2d_capsule_default_def();
    floor.shape = (c2d_capsule){{-50.0f, 0.0f}, {50.0f, 0.0f}, 0.5f};
    floor.category = 2u;
    assert_int_equal(c2d_world_add_capsules(w, &floor, 1, NULL), C2D_OK);
    c2d_ball_def d = c2d_ball_default_def();
    d.position = (c2d_vec2){0.0f, 1.0f};
    const c2d_ball_id bottom = add_ball(w, d);
    d.position = (c2d_vec2){0.0f, 2.0f};
    const c2d_ball_id top = add_ball(w, d);
    for (int i = 0; i < 600 && c2d_world_awake_count(w) > 0; i++)
        steps(w, 1);
    assert_int_equal(c2d_world_awake_count(w), 0);
    assert_int_equal(c2d_world_set_ball_filter(w, bottom, C2D_FILTER_ALL, C2D_FILTER_ALL & ~2u),
                     C2D_OK);
    assert_true(c2d_world_ball_awake(w, bottom) && c2d_world_ball_awake(w, top));
    steps(w, 60);
    const float yb = state_of(w, bottom).position.y, yt = state_of(w, top).position.y;
    print_message("# filter: the bottom ball at y %.2f, the top one at %.2f after 1 s\n",
                  (double)yb, (double)yt);
    assert_true(yb < -3.0f && fabsf(yt - 1.0f) < 0.01f); /* the top one falls onto the floor */
    c2d_world_destroy(w);

    /* Restitution: the same drop, before and after the setter. */
    float peak[2];
    for (int run = 0; run < 2; run++) {
        w = world_with_gravity(0.0f, -10.0f);
        add_wall(w, -50.0f, 0.0f, 50.0f, 0.0f, 0.5f);
        d = c2d_ball_default_def();
        d.position = (c2d_vec2){0.0f, 3.0f};
        const c2d_ball_id id = add_ball(w, d);
        if (run == 1) assert_int_equal(c2d_world_set_ball_restitution(w, id, 1.0f), C2D_OK);
        float low = INFINITY;
        peak[run] = -INFINITY;
        for (int i = 0; i < 90; i++) {
            steps(w, 1);
            const float y = state_of(w, id).position.y;
            if (y < low) low = y;
            if (low < 1.05f && y > peak[run]) peak[run] = y;
        }
        c2d_world_destroy(w);
    }
    print_message("# restitution: peak after the bounce %.3f at 0, %.3f at 1 (dropped from 3)\n",
                  (double)peak[0], (double)peak[1]);
    assert_true(peak[0] < 1.1f && peak[1] > 2.5f);

    /* Gravity scale set in flight; damping set on a sliding ball. */
    w = world_with_gravity(0.0f, -10.0f);
    d = c2d_ball_default_def();
    d.position = (c2d_vec2){0.0f, 100.0f};
    const c2d_ball_id fall = add_ball(w, d);
    d = c2d_ball_default_def();
    d.position = (c2d_vec2){10.0f, 100.0f};
    d.gravity_scale = 0.0f;
    d.velocity = (c2d_vec2){4.0f, 0.0f};
    const c2d_ball_id slide = add_ball(w, d);
    steps(w, 30);
    assert_int_equal(c2d_world_set_ball_gravity_scale(w, fall, 0.0f), C2D_OK);
    assert_int_equal(c2d_world_set_ball_linear_damping(w, slide, 3.0f), C2D_OK);
    const c2d_vec2 v0 = state_of(w, fall).velocity;
    steps(w, 30);
    const c2d_ball_state f = state_of(w, fall), sl = state_of(w, slide);
    print_message("# gravity scale 0 in flight: vy %.4f then %.4f; damping 3: vx 4 -> %.4f\n",
                  (double)v0.y, (double)f.velocity.y, (double)sl.velocity.x);
    assert_true(f.velocity.y == v0.y);
    assert_true(fabsf(sl.velocity.x - 4.0f * expf(-1.5f)) < 0.02f);
    assert_int_equal(c2d_world_set_ball_gravity_scale(w, fall, 1.0f), C2D_OK);
    steps(w, 1);
    assert_true(state_of(w, fall).velocity.y < v0.y);
    c2d_world_destroy(w);
}

/* A spin of FLT_MAX rad/s (more than 2^23 turns a substep) keeps the drawing angle finite and
 * within [-pi, pi]; so does a spin of 10,000 rad/s (several turns a substep), which turns the
 * angle by its spin times the time, less whole turns. */
static void fast_spin_angle(void **state) {
    (void)state;
    c2d_world *w = world_with_gravity(0.0f, 0.0f);
    const c2d_ball_id a = add_ball(w, c2d_ball_default_def());
    c2d_ball_def d = c2d_ball_default_def();
    d.position = (c2d_vec2){10.0f, 0.0f};
    const c2d_ball_id b = add_ball(w, d);
    assert_int_equal(c2d_world_set_ball_angular_velocity(w, a, FLT_MAX), C2D_OK);
    assert_int_equal(c2d_world_set_ball_angular_velocity(w, b, 10000.0f), C2D_OK);
    steps(w, 60);
    const float pi = 3.14159265f;
    const c2d_ball_state sa = state_of(w, a), sb = state_of(w, b);
    print_message("# spin FLT_MAX: angle %g; spin 10,000: angle %.6f\n", (double)sa.angle,
                  (double)sb.angle);
    assert_true(sa.angle >= -pi && sa.angle <= pi);
    assert_true(sb.angle >= -pi && sb.angle <= pi);
    /* 10,000 rad/s for 1 s, less whole turns (in double; the float sum drifts by its rounding) */
    const double turns = 10000.0 / (2.0 * 3.14159265358979);
    double want = (turns - floor(turns)) * 2.0 * 3.14159265358979;
    if (want > 3.14159265358979) want -= 2.0 * 3.14159265358979;
    assert_true(fabs(sb.angle - want) < 0.01);
    c2d_world_destroy(w);
}

/* No ball moves faster than max_speed: a velocity of FLT_MAX comes back to it along its
 * direction in the first substep; a gravity scale of FLT_MAX, a gravity of (0, -FLT_MAX) and
 * the largest force the call takes leave every ball finite and at most at max_speed, and a ball
 * falling so onto a floor stays above it (the moves keep their precision). */
static void max_speed_holds(void **state) {
    (void)state;
    c2d_world *w = world_with_gravity(0.0f, -10.0f);
    add_wall(w, -1000.0f, 0.0f, 1000.0f, 0.0f, 0.5f);
    const float max = c2d_world_default_def().max_speed;
    c2d_ball_def d = c2d_ball_default_def();
    d.position = (c2d_vec2){0.0f, 5.0f};
    d.gravity_scale = FLT_MAX;
    const c2d_ball_id heavy = add_ball(w, d);
    d.position = (c2d_vec2){-400.0f, 5.0f}; /* (far apart: no speculative contact) */
    d.gravity_scale = 1.0f;
    const c2d_ball_id fast = add_ball(w, d);
    d.position = (c2d_vec2){400.0f, 5.0f};
    const c2d_ball_id pushed = add_ball(w, d);
    assert_int_equal(c2d_world_set_ball_velocity(w, fast, (c2d_vec2){-FLT_MAX, FLT_MAX}), C2D_OK);
    const float m = state_of(w, pushed).mass;
    assert_int_equal(c2d_world_apply_ball_force(w, pushed, (c2d_vec2){0.0f, -FLT_MAX * m}), C2D_OK);
    steps(w, 1);
    const c2d_ball_state f = state_of(w, fast);
    const float speed = hypotf(f.velocity.x, f.velocity.y);
    print_message("# max_speed: a ball set to (-FLT_MAX, FLT_MAX) moves at %.3f (%g), direction "
                  "(%.6f, %.6f)\n",
                  (double)speed, (double)max, (double)(f.velocity.x / speed),
                  (double)(f.velocity.y / speed));
    assert_true(fabsf(speed - max) <= 1e-3f * max);
    assert_true(fabsf(f.velocity.x + f.velocity.y) <= 1e-3f * max);
    for (int i = 0; i < 120; i++) {
        steps(w, 1);
        const c2d_ball_id ids[3] = {heavy, fast, pushed};
        for (int k = 0; k < 3; k++) {
            const c2d_ball_state s = state_of(w, ids[k]);
            assert_true(isfinite(s.position.x) && isfinite(s.position.y));
            assert_true(hypotf(s.velocity.x, s.velocity.y) <= max * 1.0001f);
        }
    }
    const c2d_ball_state h = state_of(w, heavy), p = state_of(w, pushed);
    print_message("# gravity scale FLT_MAX: y %.4f; force -FLT_MAX m: y %.4f (floor top 0.5)\n",
                  (double)h.position.y, (double)p.position.y);
    assert_true(h.position.y > 0.99f && h.position.y < 1.01f);
    assert_true(p.position.y > 0.99f);
    assert_int_equal(c2d_world_set_gravity(w, (c2d_vec2){0.0f, -FLT_MAX}), C2D_OK);
    steps(w, 60);
    const c2d_ball_state g = state_of(w, pushed);
    assert_true(isfinite(g.position.y) && g.position.y > 0.99f);
    c2d_world_destroy(w);
}

/* A restitution far above 1 bounces no faster than max_speed: a ball of restitution 10^4, 10^8,
 * 10^20 or FLT_MAX between a floor and a ceiling, and two such balls meeting head-on, stay
 * finite, between the capsules and within max_speed (and |g| dt) at every step. At 10^4 a ball
 * left the floor at 10^6 units/s and ended under it; from 10^8 on the velocity became NaN. */
static void huge_restitution(void **state) {
    (void)state;
    const float es[] = {1e4f, 1e8f, 1e20f, FLT_MAX};
    const float max = c2d_world_default_def().max_speed;
    for (size_t r = 0; r < sizeof es / sizeof es[0]; r++) {
        c2d_world *w = world_with_gravity(0.0f, -10.0f);
        add_wall(w, -50.0f, 0.0f, 50.0f, 0.0f, 0.5f);
        add_wall(w, -50.0f, 20.0f, 50.0f, 20.0f, 0.5f);
        add_wall(w, -50.0f, 0.0f, -50.0f, 20.0f, 0.5f);
        add_wall(w, 50.0f, 0.0f, 50.0f, 20.0f, 0.5f);
        c2d_ball_def d = c2d_ball_default_def();
        d.radius = 0.4f;
        d.restitution = es[r];
        d.position = (c2d_vec2){0.0f, 5.0f};
        const c2d_ball_id dropped = add_ball(w, d);
        d.position = (c2d_vec2){20.0f, 10.0f};
        d.velocity = (c2d_vec2){30.0f, 0.0f};
        const c2d_ball_id left = add_ball(w, d);
        d.position = (c2d_vec2){30.0f, 10.0f};
        d.velocity = (c2d_vec2){-30.0f, 0.0f};
        const c2d_ball_id right = add_ball(w, d);
        const c2d_ball_id ids[3] = {dropped, left, right};
        float fastest = 0.0f, lowest = INFINITY, highest = -INFINITY;
        float left_most = INFINITY, right_most = -INFINITY;
        for (int i = 0; i < 120; i++) {
            steps(w, 1);
            for (int k = 0; k < 3; k++) {
                const c2d_ball_state s = state_of(w, ids[k]);
                assert_true(isfinite(s.position.x) && isfinite(s.position.y));
                assert_true(isfinite(s.velocity.x) && isfinite(s.velocity.y));
                float v = hypotf(s.velocity.x, s.velocity.y);
                fastest = v > fastest ? v : fastest;
                lowest = s.position.y < lowest ? s.position.y : lowest;
                left_most = s.position.x < left_most ? s.position.x : left_most;
                right_most = s.position.x > right_most ? s.position.x : right_most;
                highest = s.position.y > highest ? s.position.y : highest;
            }
        }
        print_message("# restitution %g: fastest %.1f units/s, centres within x [%.4f, %.4f], "
                      "y [%.4f, %.4f]\n",
                      (double)es[r], (double)fastest, (double)left_most, (double)right_most,
                      (double)lowest, (double)highest);
        assert_true(fastest <= max * 1.0001f + 10.0f / 60.0f);
        assert_true(lowest >= 0.9f - 1e-3f && highest <= 19.1f + 1e-3f);
        assert_true(left_most >= -49.1f - 1e-3f && right_most <= 49.1f + 1e-3f);
        c2d_world_destroy(w);
    }
    /* At rest on a floor of the same restitution, with restitution_threshold 0: the mixed
     * restitution is inf, and inf x 0 (no approach) launched the ball at max_speed. */
    c2d_world_def def = c2d_world_default_def();
    def.restitution_threshold = 0.0f;
    c2d_world *w = NULL;
    assert_int_equal(c2d_world_create(&def, &w), C2D_OK);
    c2d_capsule_def floor = c2d_capsule_default_def();
    floor.shape = (c2d_capsule){{-10.0f, 0.0f}, {10.0f, 0.0f}, 0.5f};
    floor.restitution = 1e20f;
    assert_int_equal(c2d_world_add_capsules(w, &floor, 1, NULL), C2D_OK);
    c2d_ball_def d = c2d_ball_default_def();
    d.restitution = 1e20f;
    d.position = (c2d_vec2){0.0f, 1.0f};
    const c2d_ball_id resting = add_ball(w, d);
    float fastest = 0.0f;
    for (int i = 0; i < 120; i++) {
        steps(w, 1);
        const c2d_ball_state st = state_of(w, resting);
        float v = hypotf(st.velocity.x, st.velocity.y);
        assert_true(isfinite(v));
        fastest = v > fastest ? v : fastest;
    }
    print_message("# restitution 1e20 at rest, threshold 0: fastest %.3f units/s\n",
                  (double)fastest);
    assert_true(fastest < 1.0f);
    c2d_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(damping_formula),  cmocka_unit_test(gravity_scale),
        cmocka_unit_test(force_one_step),   cmocka_unit_test(tilted_board),
        cmocka_unit_test(weightless_sleep), cmocka_unit_test(setters_act),
        cmocka_unit_test(fast_spin_angle),  cmocka_unit_test(max_speed_holds),
        cmocka_unit_test(huge_restitution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
