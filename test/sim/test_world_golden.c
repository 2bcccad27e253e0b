/* The world's golden hashes (c2d_world_hash after 600 steps of 1/60 s), equal on every backend,
 * on AArch64 and in WebAssembly:
 *   - the pinball example (examples/world/pinball.c, included as it is): four balls shot up the
 *     lane, both flippers swinging on their scripted presses up to step 480
 *     (set_capsule_motion, then move_capsule_to at the limit), bumpers and the drain sensor;
 *   - W9b 2,500 (bench/w9_layout.c, DESIGN.md section 15): the pile on the world's defaults
 *     with only W9's fields set (gravity, dt) and W9's materials.
 * A deliberate change of the step moves these values: re-record them from this test's output
 * (it prints every backend's hash) after checking the change on every backend. */
#define PINBALL_NO_MAIN
#include "../../examples/world/pinball.c"

#include <stdlib.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "w9_layout.h"

#define GOLDEN_PINBALL UINT64_C(0x092a826807de8239)
#define GOLDEN_W9B_2500 UINT64_C(0x8c9a4e67f25597f6)

/* W9b's pile of n balls after `steps` steps; 0 when a call failed. */
static uint64_t w9b_hash(size_t n, int steps) {
    w9_layout l;
    if (w9_layout_pile(&l, n, W9B_PITCH) != 0) return 0;
    c2d_world_def def = c2d_world_default_def();
    def.gravity = (c2d_vec2){0.0f, W9_GRAVITY};
    c2d_world *world;
    uint64_t hash = 0;
    c2d_capsule_def *caps = malloc(l.m * sizeof *caps);
    c2d_ball_def *balls = malloc(l.n * sizeof *balls);
    if (caps && balls && c2d_world_create(&def, &world) == C2D_OK) {
        for (size_t k = 0; k < l.m; k++) {
            caps[k] = c2d_capsule_default_def();
            caps[k].shape = l.capsules[k];
            caps[k].friction = l.capsule_friction;
            caps[k].restitution = l.capsule_restitution;
        }
        for (size_t i = 0; i < l.n; i++) {
            balls[i] = c2d_ball_default_def();
            balls[i].position = (c2d_vec2){l.x[i], l.y[i]};
            balls[i].radius = l.radius[i];
            balls[i].density = l.density;
            balls[i].friction = l.friction;
            balls[i].restitution = l.restitution;
        }
        int ok = c2d_world_add_capsules(world, caps, l.m, NULL) == C2D_OK &&
                 c2d_world_add_balls(world, balls, l.n, NULL) == C2D_OK;
        for (int s = 0; s < steps && ok; s++)
            ok = c2d_world_step(world, W9_DT) == C2D_OK;
        if (ok) hash = c2d_world_hash(world);
        c2d_world_destroy(world);
    }
    free(caps);
    free(balls);
    w9_layout_free(&l);
    return hash;
}

/* Runs `run` on every available backend; fails unless each gives `golden` (all are printed
 * first, so a changed value shows on every backend at once). */
static void every_backend(const char *name, uint64_t (*run)(void), uint64_t golden) {
    bool all = true;
    size_t runs = 0;
    for (int b = 0; b < C2D_BACKEND_COUNT; b++) {
        if (!c2d_backend_available((c2d_backend)b)) continue;
        assert_int_equal(c2d_backend_select((c2d_backend)b), C2D_OK);
        const uint64_t h = run();
        fprintf(stderr, "%s %-12s: world hash 0x%016llx\n", name, c2d_backend_name((c2d_backend)b),
                (unsigned long long)h);
        all &= h == golden;
        runs++;
    }
    assert_true(runs > 0);
    assert_true(all);
}

static uint64_t pinball_600(void) {
    return pinball_run(600, NULL);
}
static uint64_t w9b_2500_600(void) {
    return w9b_hash(2500, 600);
}

static void pinball_golden(void **state) {
    (void)state;
    every_backend("pinball", pinball_600, GOLDEN_PINBALL);
}

static void w9b_golden(void **state) {
    (void)state;
    every_backend("W9b 2,500", w9b_2500_600, GOLDEN_W9B_2500);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(pinball_golden),
                                       cmocka_unit_test(w9b_golden)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
