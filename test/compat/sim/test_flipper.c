/* The flipper example (examples/flipper.c, included as it is): a capsule turning about its
 * hinge by substeps hits balls resting on it or falling onto it, from the hinge to the tip, at
 * several fall speeds and substep counts. After every substep it asserts that no ball is on the
 * far side of the flipper or deeper in it than a skin (no tunnelling), and at the end that each
 * ball leaves faster than it came and at least about as fast as the flipper's surface where it
 * was hit; nothing is NaN or infinite. */
#define FLIPPER_NO_MAIN
#include "../../examples/flipper.c"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* What a ball may be left inside the flipper after a substep: push-out leaves it touching. */
#define SKIN 1e-3f

/* The ball's signed distance from the flipper's axis line (positive on the side it starts),
 * and whether its centre projects onto the axis. */
static float side_of(const flipper_game *g, size_t i, int *within) {
    const double ux = (double)g->bx[0] - g->ax[0], uy = (double)g->by[0] - g->ay[0];
    const double len = sqrt(ux * ux + uy * uy);
    const double px = (double)g->x[i] - g->ax[0], py = (double)g->y[i] - g->ay[0];
    const double along = (px * ux + py * uy) / len;
    *within = along >= 0.0 && along <= len;
    return (float)((ux * py - uy * px) / len);
}

static int finite_f(float v) {
    return v >= -FLT_MAX && v <= FLT_MAX;
}

/* One ball at `along` from the hinge, falling at `fall`, the flipper swinging up with
 * `substeps` a frame; returns the ball's final speed, and fails on tunnelling. */
static float launch(float along, float fall, int substeps, size_t *hits) {
    flipper_game g;
    assert_int_equal(game_make(&g, 1), 0);
    place_ball(&g, 0, along, 0.25f, 0.05f, fall);
    g.target = 0.6f;
    const float dt = 1.0f / 60.0f, h = dt / (float)substeps;
    for (int k = 0; k < 12 * substeps; k++) {
        assert_int_equal(substep(&g, h, -9.8f), 0);
        int within;
        const float side = side_of(&g, 0, &within);
        assert_true(finite_f(g.x[0]) && finite_f(g.y[0]) && finite_f(g.vx[0]) && finite_f(g.vy[0]));
        if (within && !(side >= g.r[0] + g.R[0] - SKIN)) {
            print_error("ball at %g falling at %g, %d substeps: after substep %d it is %g from the "
                        "axis (radius sum %g)\n",
                        (double)along, (double)fall, substeps, k, (double)side,
                        (double)(g.r[0] + g.R[0]));
            fail();
        }
    }
    *hits += g.sweep_hits;
    const float speed = sqrtf(g.vx[0] * g.vx[0] + g.vy[0] * g.vy[0]);
    game_free(&g);
    return speed;
}

static void flipper_throws_balls_without_tunnelling(void **state) {
    (void)state;
    static const float falls[] = {0.0f, 1.0f, 5.0f, 20.0f, 100.0f};
    static const int substeps[] = {8, 16, 32};
    size_t hits = 0;
    for (int a = 0; a < 13; a++) {
        const float along = 0.5f + 0.2f * (float)a;
        for (size_t f = 0; f < 5; f++)
            for (size_t s = 0; s < 3; s++) {
                /* the tip may move at most r + R in a substep: 3 * 20 / (60 * 8) = 0.125 */
                const float speed = launch(along, falls[f], substeps[s], &hits);
                /* at least the flipper's own speed where it was hit (20 rad/s at `along`; the
                 * ball may slide outward first, only gaining), and faster than it came unless
                 * it came faster than that (then e < 1 takes its share) */
                const float bat = 20.0f * along;
                if (!(speed >= 0.9f * bat && (falls[f] >= bat || speed > falls[f]))) {
                    print_error("ball at %g falling at %g, %d substeps: leaves at %g\n",
                                (double)along, (double)falls[f], substeps[s], (double)speed);
                    fail();
                }
            }
    }
    assert_true(hits > 0); /* the sweeps, not only the contacts, met the flipper */
}

/* Without substeps the flipper's tip moves 1 unit a frame, twice the radius sum: the
 * condition of the example is broken, and a ball may be crossed. Printed, not asserted: it
 * shows why the substeps are there. */
static void one_substep_a_frame_for_comparison(void **state) {
    (void)state;
    int crossed = 0;
    for (int a = 0; a < 13; a++) {
        flipper_game g;
        assert_int_equal(game_make(&g, 1), 0);
        place_ball(&g, 0, 0.5f + 0.2f * (float)a, 0.25f, 0.05f, 0.0f);
        g.target = 0.6f;
        int bad = 0;
        for (int k = 0; k < 12; k++) {
            assert_int_equal(frame(&g, 1.0f / 60.0f, 1, -9.8f), 0);
            int within;
            const float side = side_of(&g, 0, &within);
            bad |= within && side < 0.0f;
        }
        crossed += bad;
        game_free(&g);
    }
    printf("# one substep a frame: %d of 13 balls ended a frame on the far side\n", crossed);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(flipper_throws_balls_without_tunnelling),
        cmocka_unit_test(one_substep_a_frame_for_comparison),
    };
    return cmocka_run_group_tests_name("flipper", tests, NULL, NULL);
}
