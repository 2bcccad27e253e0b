/* c2d_sweep_circle_moving_capsule: worked examples (a paddle rising into a resting ball, a
 * platform carrying a ball along, a capsule chasing a ball), and its definition checked byte for
 * byte on random and special input: c2d_sweep_circle_capsule() on the float relative move, the
 * point moved to where the capsule is at t. */
#include <float.h>

#include "scalar_test.h"
#include "workload.h"

static void paddle_rises_into_a_ball(void **state) {
    (void)state;
    /* A ball of radius 0.5 at rest at (0, 2); a paddle (-1,0)-(1,0), R 0.5, rising by 2. The gap
     * of 1 closes at t = 0.5; the paddle is then at y = 1, its surface at 1.5, the ball's bottom.
     */
    const c2d_circle ball = {{0, 2}, 0.5f};
    const c2d_capsule paddle = {{-1, 0}, {1, 0}, 0.5f};
    c2d_toi toi;
    assert_true(c2d_sweep_circle_moving_capsule(ball, v2(0, 0), paddle, v2(0, 2), &toi));
    CHECK_FEQ(toi.t, 0.5f);
    CHECK_VEC_EQ(toi.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(toi.point, 0.0f, 1.5f); /* world space at t: not the start frame's (0, 0.5) */
    /* The static sweep of the ball falling by 2 onto the paddle at rest: same t and normal,
     * the point in the start frame. */
    c2d_toi fall;
    assert_true(c2d_sweep_circle_capsule(ball, v2(0, -2), paddle, &fall));
    CHECK_FEQ(fall.t, 0.5f);
    CHECK_VEC_EQ(fall.point, 0.0f, 0.5f);
    /* The paddle moving down, away: no hit. */
    assert_false(c2d_sweep_circle_moving_capsule(ball, v2(0, 0), paddle, v2(0, -2), &toi));
}

static void platform_carries_a_ball(void **state) {
    (void)state;
    /* A ball resting (touching) on a platform, both moving right by 3: no relative move, no
     * hit. Falling onto it (the ball also moves down by 1): a hit at t = 0, as static. */
    const c2d_circle ball = {{0, 1}, 0.5f};
    const c2d_capsule platform = {{-2, 0}, {2, 0}, 0.5f};
    c2d_toi toi;
    assert_false(c2d_sweep_circle_moving_capsule(ball, v2(3, 0), platform, v2(3, 0), &toi));
    assert_true(c2d_sweep_circle_moving_capsule(ball, v2(3, -1), platform, v2(3, 0), &toi));
    CHECK_FEQ(toi.t, 0.0f);
    CHECK_VEC_EQ(toi.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(toi.point, 0.0f, 0.5f);
    /* The platform sliding away under the ball (the ball still): leaves it; the platform
     * rising into it: a hit at t = 0 (the capsule moves deeper into the ball). */
    assert_false(c2d_sweep_circle_moving_capsule(ball, v2(0, 0), platform, v2(5, 0), &toi));
    assert_true(c2d_sweep_circle_moving_capsule(ball, v2(0, 0), platform, v2(0, 0.25f), &toi));
    CHECK_FEQ(toi.t, 0.0f);
}

static void capsule_chases_a_ball(void **state) {
    (void)state;
    /* A ball at (4, 0) r 1 moving right by 2; a vertical capsule at x = 0, R 1, moving right
     * by 6: relative move -4, gap 2, t = 0.5; the capsule then at x = 3, its surface at 4,
     * the ball's centre at 5. */
    const c2d_circle ball = {{4, 0}, 1};
    const c2d_capsule wall = {{0, -1}, {0, 1}, 1};
    c2d_toi toi;
    assert_true(c2d_sweep_circle_moving_capsule(ball, v2(2, 0), wall, v2(6, 0), &toi));
    CHECK_FEQ(toi.t, 0.5f);
    CHECK_VEC_EQ(toi.normal, 1.0f, 0.0f);
    CHECK_VEC_EQ(toi.point, 4.0f, 0.0f);
}

static float special(c2d_rng *s) {
    static const float pool[] = {0.0f,     -0.0f,   NAN,       INFINITY, -INFINITY, FLT_MAX,
                                 -FLT_MAX, FLT_MIN, 0x1p-149f, 1e19f,    -1e30f,    0x1p40f};
    return pool[c2d_rng_next(s) % (sizeof pool / sizeof pool[0])];
}

/* The definition, byte for byte: on random and on special input. */
static void equals_static_sweep_of_relative_move(void **state) {
    (void)state;
    c2d_rng s = {2024u};
    int hits = 0;
    for (int i = 0; i < 400000; i++) {
        float v[11];
        for (int k = 0; k < 11; k++)
            v[k] =
                (i % 4 == 3 && c2d_rng_next(&s) % 6 == 0) ? special(&s) : c2d_rng_range(&s, -4, 4);
        const c2d_circle c = {{v[0], v[1]}, fabsf(v[2]) * 0.25f};
        const c2d_capsule k = {{v[3], v[4]}, {v[5], v[6]}, fabsf(v[7]) * 0.25f};
        const c2d_vec2 km = (i % 5 == 0) ? v2(0, 0) : v2(v[9], v[10]);
        const c2d_vec2 m = v2(v[8], c2d_rng_range(&s, -4, 4));
        c2d_toi got, want;
        memset(&got, C2D_SENTINEL_BYTE, sizeof got);
        memset(&want, C2D_SENTINEL_BYTE, sizeof want);
        const bool hit = c2d_sweep_circle_moving_capsule(c, m, k, km, &got);
        const bool hit_ref = c2d_sweep_circle_capsule(c, v2(m.x - km.x, m.y - km.y), k, &want);
        assert_int_equal(hit, hit_ref);
        if (hit) {
            want.point.x = want.point.x + want.t * km.x;
            want.point.y = want.point.y + want.t * km.y;
            hits++;
        }
        assert_memory_equal(&got, &want, sizeof got);
        /* no out: the same answer */
        assert_int_equal(c2d_sweep_circle_moving_capsule(c, m, k, km, NULL), hit);
    }
    assert_true(hits > 10000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paddle_rises_into_a_ball),
        cmocka_unit_test(platform_carries_a_ball),
        cmocka_unit_test(capsule_chases_a_ball),
        cmocka_unit_test(equals_static_sweep_of_relative_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
