/* No allocation in a warmed-up step (DESIGN section 14): once no count (balls, contacts, awake
 * balls, events) exceeds its earlier maximum, c2d_world_step() allocates nothing. The world
 * gets a counting allocator; a pile settles, then a steady motion (balls that never sleep
 * bouncing for ever on a floor of restitution 1, through a sensor, with events on) repeats
 * itself step after step: after a warm-up, its steps must allocate nothing, and so must a disc
 * query and a ray after each (a paddle spins far off: the queries' scene of the kinematic
 * capsules is moved, not built anew, each step). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

/* Figures as TAP comments: cmocka 1.1.5's print_message writes a bare line, which Meson's TAP
 * reader warns about. */
#undef print_message
#define print_message(...) (printf("# "), printf(__VA_ARGS__))

#include "collide2d/world.h"

static size_t allocations;

static void *counting_alloc(size_t size, void *user) {
    (void)user;
    allocations++;
    return malloc(size);
}

static void counting_free(void *p, void *user) {
    (void)user;
    free(p);
}

static void steady_steps_allocate_nothing(void **state) {
    (void)state;
    c2d_allocator a = {counting_alloc, counting_free, NULL};
    c2d_world_def def = c2d_world_default_def();
    def.allocator = &a;
    c2d_world *w;
    assert_int_equal(c2d_world_create(&def, &w), C2D_OK);
    /* A box with a pile on the left and a bouncing lane on the right, a sensor across it. */
    c2d_capsule_def caps[5];
    for (int i = 0; i < 5; i++)
        caps[i] = c2d_capsule_default_def();
    caps[0].shape = (c2d_capsule){{0, -1}, {40, -1}, 1};
    caps[1].shape = (c2d_capsule){{-1, -1}, {-1, 30}, 1};
    caps[2].shape = (c2d_capsule){{41, -1}, {41, 30}, 1};
    caps[3].shape = (c2d_capsule){{20, -1}, {20, 12}, 0.5f};
    caps[4].shape = (c2d_capsule){{21, 3}, {40, 3}, 0.1f};
    caps[4].sensor = true;
    caps[0].events = true;
    assert_int_equal(c2d_world_add_capsules(w, caps, 5, NULL), C2D_OK);
    c2d_capsule_def paddle = c2d_capsule_default_def();
    paddle.shape = (c2d_capsule){{60, 20}, {64, 20}, 0.2f};
    paddle.motion = C2D_KINEMATIC;
    paddle.pivot = paddle.shape.a;
    paddle.angular_velocity = 2.0f;
    assert_int_equal(c2d_world_add_capsules(w, &paddle, 1, NULL), C2D_OK);
    c2d_ball_def balls[220];
    for (int i = 0; i < 200; i++) {
        balls[i] = c2d_ball_default_def();
        balls[i].radius = 0.4f + 0.01f * (float)(i % 20);
        balls[i].position =
            (c2d_vec2){1.0f + 1.2f * (float)(i % 15), 1.0f + 1.2f * (float)(i / 15)};
    }
    for (int i = 200; i < 220; i++) {
        balls[i] = c2d_ball_default_def();
        balls[i].position = (c2d_vec2){22.0f + 0.9f * (float)(i - 200), 8.0f};
        balls[i].restitution = 1.0f;
        balls[i].friction = 0.0f;
        balls[i].rolling_resistance = 0.0f;
        balls[i].enable_sleep = false;
        balls[i].events = true;
    }
    assert_int_equal(c2d_world_add_balls(w, balls, 220, NULL), C2D_OK);
    for (int s = 0; s < 900; s++)
        assert_int_equal(c2d_world_step(w, 1.0f / 60.0f), C2D_OK);
    c2d_world_shape_ref refs[64];
    size_t n;
    c2d_world_ray_hit hit;
    for (int round = 0; round < 2; round++) { /* warm: then measured */
        size_t before = allocations;
        for (int s = 0; s < 600; s++) {
            assert_int_equal(c2d_world_step(w, 1.0f / 60.0f), C2D_OK);
            if (round == 0 && s < 300) continue; /* steps alone first */
            assert_int_equal(
                c2d_world_query_disc(w, (c2d_circle){{62.0f, 20.0f}, 3.0f}, ~0u, ~0u, refs, 64, &n),
                C2D_OK);
            assert_true(n >= 1); /* the paddle */
            assert_int_equal(c2d_world_cast_ray(w, (c2d_vec2){56.0f, 21.0f},
                                                (c2d_vec2){12.0f, -2.0f}, ~0u, ~0u, &hit),
                             C2D_OK);
        }
        if (round == 0) continue;
        print_message("allocations in 600 steady steps with a query and a ray after each: %zu\n",
                      allocations - before);
        assert_int_equal(allocations - before, 0);
    }
    size_t before = allocations;
    for (int s = 0; s < 600; s++)
        assert_int_equal(c2d_world_step(w, 1.0f / 60.0f), C2D_OK);
    print_message("allocations: %zu while warming up, %zu in 600 steady steps; awake %zu\n", before,
                  allocations - before, c2d_world_awake_count(w));
    assert_true(c2d_world_awake_count(w) >= 20);
    assert_int_equal(allocations - before, 0);
    c2d_world_destroy(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(steady_steps_allocate_nothing)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
