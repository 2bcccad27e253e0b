/* Worked examples for c2d_apply_impulse: the textbook one-dimensional collision along the
 * normal, restitution combined as sqrt(ea*eb), and the cases that change nothing. */
#include "scalar_test.h"

static c2d_body body(float vx, float vy, float inv_mass, float restitution) {
    const c2d_body b = {{vx, vy}, inv_mass, restitution};
    return b;
}

static void equal_elastic_masses_swap_velocities(void **state) {
    (void)state;
    /* a on the left moving right, b on the right moving left; normal from b toward a. */
    c2d_body a = body(2, 0, 1, 1), b = body(-1, 0, 1, 1);
    const float j = c2d_apply_impulse(&a, &b, v2(-1, 0));
    CHECK_FEQ(j, 3.0f); /* -(1+1) * (-3) / 2 */
    CHECK_VEC_EQ(a.velocity, -1.0f, 0.0f);
    CHECK_VEC_EQ(b.velocity, 2.0f, 0.0f);
    CHECK_FEQ(a.inv_mass, 1.0f); /* mass and restitution are not changed */
    CHECK_FEQ(a.restitution, 1.0f);
    /* Along y, with the tangential components left alone. */
    a = body(0.5f, -3, 0.25f, 1);
    b = body(-2, 1, 0.25f, 1);
    c2d_apply_impulse(&a, &b, v2(0, 1)); /* a above b, approaching: vn = -4 */
    CHECK_VEC_EQ(a.velocity, 0.5f, 1.0f);
    CHECK_VEC_EQ(b.velocity, -2.0f, -3.0f);
}

static void perfectly_inelastic_meet_in_the_middle(void **state) {
    (void)state;
    /* e = sqrt(0 * 1) = 0, equal masses: both end with the mean normal velocity 1. */
    c2d_body a = body(3, 1, 0.5f, 0), b = body(-1, 2, 0.5f, 1);
    const float j = c2d_apply_impulse(&a, &b, v2(-1, 0));
    CHECK_FEQ(j, 4.0f); /* -(1+0) * (-4) / 1 */
    CHECK_VEC_EQ(a.velocity, 1.0f, 1.0f);
    CHECK_VEC_EQ(b.velocity, 1.0f, 2.0f);
}

static void static_wall_with_combined_restitution(void **state) {
    (void)state;
    /* A ball falling onto a static floor: e = sqrt(0.81 * 0.64) = 0.72, speed 2 -> 1.44 up. */
    c2d_body ball = body(1.5f, -2, 0.5f, 0.81f), wall = body(0, 0, 0, 0.64f);
    const float j = c2d_apply_impulse(&ball, &wall, v2(0, 1));
    CHECK_NEAR(j, (1.0 + 0.72) * 2.0 / 0.5, 1e-5);
    CHECK_FEQ(ball.velocity.x, 1.5f);
    CHECK_NEAR(ball.velocity.y, 1.44, 1e-6);
    CHECK_VEC_EQ(wall.velocity, 0.0f, 0.0f); /* infinite mass: not moved */
    /* The wall as the first body: the normal now points from the ball toward the wall. */
    ball = body(0, -2, 1, 1);
    wall = body(0, 0, 0, 0.25f);
    const float j2 = c2d_apply_impulse(&wall, &ball, v2(0, -1));
    CHECK_FEQ(j2, 3.0f); /* e = 0.5: -(1.5) * (-2) / 1 */
    CHECK_VEC_EQ(wall.velocity, 0.0f, 0.0f);
    CHECK_VEC_EQ(ball.velocity, 0.0f, 1.0f);
    /* A moving static body (a kinematic paddle) still gives its velocity to the ball. */
    c2d_body paddle = body(0, 3, 0, 1);
    ball = body(0, -1, 1, 1);
    c2d_apply_impulse(&ball, &paddle, v2(0, 1));
    CHECK_VEC_EQ(ball.velocity, 0.0f, 7.0f);
    CHECK_VEC_EQ(paddle.velocity, 0.0f, 3.0f);
}

static void unequal_masses_textbook(void **state) {
    (void)state;
    /* m1 = 2, m2 = 4, u1 = 3, u2 = -1 along x, e = 0.5:
     * v1 = (m1 u1 + m2 u2 - m2 e (u1 - u2)) / (m1 + m2), v2 = (... + m1 e (u1 - u2)) / ... */
    const double m1 = 2, m2 = 4, u1 = 3, u2 = -1, e = 0.5;
    const double v1 = (m1 * u1 + m2 * u2 - m2 * e * (u1 - u2)) / (m1 + m2);
    const double v2x = (m1 * u1 + m2 * u2 + m1 * e * (u1 - u2)) / (m1 + m2);
    c2d_body a = body(3, 0.75f, 0.5f, 1), b = body(-1, -0.25f, 0.25f, 0.25f);
    const float j = c2d_apply_impulse(&a, &b, v2(-1, 0));
    CHECK_NEAR(a.velocity.x, v1, 1e-6);
    CHECK_NEAR(b.velocity.x, v2x, 1e-6);
    CHECK_FEQ(a.velocity.y, 0.75f);
    CHECK_FEQ(b.velocity.y, -0.25f);
    CHECK_NEAR(j, m1 * (u1 - v1), 1e-6); /* impulse = change of a's momentum */
    /* Momentum is conserved; relative normal speed is scaled by -e. */
    CHECK_NEAR(m1 * a.velocity.x + m2 * b.velocity.x, m1 * u1 + m2 * u2, 1e-5);
    CHECK_NEAR(a.velocity.x - b.velocity.x, -e * (u1 - u2), 1e-6);
    /* A diagonal normal: the same collision seen along (0.6, 0.8). */
    a = body(-0.6f * 3, -0.8f * 3, 0.5f, 1);
    b = body(0.6f * 1, 0.8f * 1, 0.25f, 0.25f);
    c2d_apply_impulse(&a, &b, v2(0.6f, 0.8f));
    CHECK_VEC_NEAR(a.velocity, -0.6 * v1, -0.8 * v1, 1e-5);
    CHECK_VEC_NEAR(b.velocity, -0.6 * v2x, -0.8 * v2x, 1e-5);
}

static void separating_or_resting_changes_nothing(void **state) {
    (void)state;
    c2d_body a = body(-1, 0.5f, 1, 1), b = body(1, -3, 1, 1);
    const c2d_body a0 = a, b0 = b;
    /* Moving apart along the normal. */
    CHECK_FEQ(c2d_apply_impulse(&a, &b, v2(-1, 0)), 0.0f);
    assert_memory_equal(&a, &a0, sizeof a);
    assert_memory_equal(&b, &b0, sizeof b);
    /* Resting: vn = 0 (moving only tangentially). */
    a = body(0, 5, 1, 1);
    b = body(0, -5, 1, 1);
    const c2d_body a1 = a, b1 = b;
    CHECK_FEQ(c2d_apply_impulse(&a, &b, v2(1, 0)), 0.0f);
    assert_memory_equal(&a, &a1, sizeof a);
    assert_memory_equal(&b, &b1, sizeof b);
}

static void both_static_returns_zero(void **state) {
    (void)state;
    c2d_body a = body(1, 0, 0, 1), b = body(-1, 0, 0, 1);
    const c2d_body a0 = a, b0 = b;
    CHECK_FEQ(c2d_apply_impulse(&a, &b, v2(-1, 0)), 0.0f);
    assert_memory_equal(&a, &a0, sizeof a);
    assert_memory_equal(&b, &b0, sizeof b);
}

static void null_body_returns_zero(void **state) {
    (void)state;
    c2d_body a = body(1, 0, 1, 1);
    const c2d_body a0 = a;
    CHECK_FEQ(c2d_apply_impulse(NULL, &a, v2(1, 0)), 0.0f);
    CHECK_FEQ(c2d_apply_impulse(&a, NULL, v2(-1, 0)), 0.0f);
    CHECK_FEQ(c2d_apply_impulse(NULL, NULL, v2(0, 1)), 0.0f);
    assert_memory_equal(&a, &a0, sizeof a);
}

static void nan_input_changes_nothing(void **state) {
    (void)state;
    /* Documented: any NaN input changes nothing and returns 0. */
    const c2d_body a0 = body(2, 0, 1, 1), b0 = body(-1, 0, 1, 1);
    for (int field = 0; field < 10; field++) {
        c2d_body a = a0, b = b0;
        c2d_vec2 n = v2(-1, 0);
        float *slots[10] = {&a.velocity.x, &a.velocity.y, &a.inv_mass, &a.restitution,
                            &b.velocity.x, &b.velocity.y, &b.inv_mass, &b.restitution,
                            &n.x,          &n.y};
        *slots[field] = NAN;
        const c2d_body a1 = a, b1 = b;
        const float j = c2d_apply_impulse(&a, &b, n);
        if (j != 0.0f || memcmp(&a, &a1, sizeof a) != 0 || memcmp(&b, &b1, sizeof b) != 0) {
            print_error("NaN in field %d: j = %g, bodies changed: %d\n", field, (double)j,
                        memcmp(&a, &a1, sizeof a) != 0 || memcmp(&b, &b1, sizeof b) != 0);
            fail();
        }
    }
    /* A negative restitution product gives e = NaN: no change either. */
    c2d_body a = body(2, 0, 1, -0.5f), b = body(-1, 0, 1, 0.5f);
    const c2d_body a1 = a, b1 = b;
    CHECK_FEQ(c2d_apply_impulse(&a, &b, v2(-1, 0)), 0.0f);
    assert_memory_equal(&a, &a1, sizeof a);
    assert_memory_equal(&b, &b1, sizeof b);
}

/* A finite impulse that would push a velocity past float range changes nothing: a at
 * 0x1.2cp+127 behind a static b at 0x1.c2p+127, e = 1: j = 0x1.2cp+127 is finite, but a's new
 * velocity 0x1.2cp+128 is not. */
static void overflowing_velocity_changes_nothing(void **state) {
    (void)state;
    c2d_body a = body(0x1.2cp+127f, 0, 1, 1), b = body(0x1.c2p+127f, 0, 0, 1);
    const c2d_body a1 = a, b1 = b;
    CHECK_FEQ(c2d_apply_impulse(&a, &b, v2(1, 0)), 0.0f);
    assert_memory_equal(&a, &a1, sizeof a);
    assert_memory_equal(&b, &b1, sizeof b);
    /* The same bodies at half the speeds stay in range and bounce: a ends at 0x1.2cp+127. */
    a = body(0x1.2cp+126f, 0, 1, 1), b = body(0x1.c2p+126f, 0, 0, 1);
    CHECK_FEQ(c2d_apply_impulse(&a, &b, v2(1, 0)), 0x1.2cp+126f);
    CHECK_FEQ(a.velocity.x, 0x1.2cp+127f);
    CHECK_FEQ(b.velocity.x, 0x1.c2p+126f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(equal_elastic_masses_swap_velocities),
        cmocka_unit_test(perfectly_inelastic_meet_in_the_middle),
        cmocka_unit_test(static_wall_with_combined_restitution),
        cmocka_unit_test(unequal_masses_textbook),
        cmocka_unit_test(separating_or_resting_changes_nothing),
        cmocka_unit_test(both_static_returns_zero),
        cmocka_unit_test(null_body_returns_zero),
        cmocka_unit_test(nan_input_changes_nothing),
        cmocka_unit_test(overflowing_velocity_changes_nothing),
    };
    return C2D_RUN_TESTS(tests);
}
