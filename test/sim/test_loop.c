/* The frame loop of docs/frame_loop.md as a user copies it (examples/pachinko.c, included as is):
 * 5,000 balls on the walled pin board for 300 frames, with the real radii (no shrunken sweep
 * radius) and no step-out. Every frame it asserts what a player would see go wrong:
 * - no ball faster than FROZEN_SPEED ends the frame where it started (the sweep-in-a-loop
 *   issue: balls pushed out to touching were stopped at t = 0 forever);
 * - no ball leaves the board, no coordinate or velocity is NaN or infinite;
 * - no ball ends a frame deeper than two skins in a pin or wall.
 * C2D_LOOP_BALLS and C2D_LOOP_FRAMES make it longer (the long run in docs/simulation.md). */
#define PACHINKO_NO_MAIN
#include "../../examples/pachinko.c"

#include <float.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* A ball faster than this (units per second) must move in a frame: 1/60 s at 1 unit/s is
 * 0.017 units, far above any rounding. */
#define FROZEN_SPEED 1.0f
/* The depth a ball may end a frame in a pin: the sweeps stop a ball where it touches, so what
 * is left is the impulse solver's and push-out's error in a pile, bounded by a skin of 2% of
 * the smallest radius per frame. */
#define SKIN 0.003f

static size_t env_size(const char *name, size_t fallback) {
    const char *s = getenv(name);
    return s && *s ? (size_t)strtoul(s, NULL, 10) : fallback;
}

static int is_finite(float v) {
    return v >= -FLT_MAX && v <= FLT_MAX;
}

static void natural_loop_never_freezes(void **state) {
    (void)state;
    const size_t n = env_size("C2D_LOOP_BALLS", 5000);
    const size_t frames = env_size("C2D_LOOP_FRAMES", 300);
    board b;
    assert_int_equal(board_make(&b, n, 2463534242u), 0);
    float *x0 = malloc(n * sizeof *x0), *y0 = malloc(n * sizeof *y0);
    assert_non_null(x0);
    assert_non_null(y0);
    const float dt = 1.0f / 60.0f, gravity = -9.8f;
    size_t frozen_total = 0, deep_total = 0, worst_frozen = 0;
    float deepest = 0.0f;
    for (size_t f = 0; f < frames; f++) {
        memcpy(x0, b.x, n * sizeof *x0);
        memcpy(y0, b.y, n * sizeof *y0);
        assert_int_equal(board_frame(&b, dt, gravity), 0);
        size_t frozen = 0;
        for (size_t i = 0; i < n; i++) {
            assert_true(is_finite(b.x[i]) && is_finite(b.y[i]) && is_finite(b.vx[i]) &&
                        is_finite(b.vy[i]));
            if (!(b.x[i] > 0.0f && b.x[i] < b.width && b.y[i] > 0.0f && b.y[i] < b.height)) {
                print_message("# frame %zu: ball %zu left the board: (%g, %g) from (%g, %g)\n", f,
                              i, (double)b.x[i], (double)b.y[i], (double)x0[i], (double)y0[i]);
                fail();
            }
            const float speed2 = b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i];
            if (speed2 > FROZEN_SPEED * FROZEN_SPEED && b.x[i] == x0[i] && b.y[i] == y0[i]) {
                if (frozen < 3)
                    print_message("# frame %zu: ball %zu at (%g, %g) v (%g, %g) did not move\n", f,
                                  i, (double)b.x[i], (double)b.y[i], (double)b.vx[i],
                                  (double)b.vy[i]);
                frozen++;
            }
        }
        /* depth in the pins at the end of the frame: the next frame's contacts */
        const c2d_circle_soa balls = {b.x, b.y, b.r, b.n, NULL, NULL};
        size_t count = 0;
        assert_int_equal(c2d_scene_collide(b.scene, &balls, NULL, 0, &count), C2D_OK);
        c2d_pair_contact *c = malloc((count ? count : 1) * sizeof *c);
        assert_non_null(c);
        assert_int_equal(c2d_scene_collide(b.scene, &balls, c, count, &count), C2D_OK);
        for (size_t k = 0; k < count; k++) {
            if (c[k].contact.depth > deepest) deepest = c[k].contact.depth;
            deep_total += c[k].contact.depth > 2.0f * SKIN;
        }
        free(c);
        frozen_total += frozen;
        if (frozen > worst_frozen) worst_frozen = frozen;
    }
    print_message("# %zu balls, %zu frames: %zu swept hits (%zu at t = 0); frozen ball-frames "
                  "%zu (worst frame %zu); deepest in a pin %g (%zu contacts deeper than 2 "
                  "skins)\n",
                  n, frames, b.swept_hits, b.start_hits, frozen_total, worst_frozen,
                  (double)deepest, deep_total);
    assert_true(b.swept_hits > n); /* the balls did reach the pins */
    assert_int_equal(frozen_total, 0);
    assert_int_equal(deep_total, 0);
    free(x0);
    free(y0);
    board_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(natural_loop_never_freezes),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
