/* c2d_apply_impulse_friction: worked examples (sliding, clamped and not; spin reaching rolling
 * without slipping), byte equality with c2d_apply_impulse() when there is no friction, the
 * Coulomb clamp |jt| <= mu jn and the unclamped "sliding stops" against a double reference on
 * random inputs, degenerate and huge input never giving NaN or infinity, and a ball on a slope
 * stepped frame by frame: rolling (v = -w r) with spin, decelerated sliding without; a locked
 * spin (inverse inertia 0) driving the ball like a conveyor belt. */
#include <float.h>
#include <string.h>

#include "scalar_test.h"
#include "workload.h"

static c2d_body body(float vx, float vy, float inv_mass, float restitution) {
    const c2d_body b = {{vx, vy}, inv_mass, restitution};
    return b;
}

static c2d_body_friction fric(float mu, float w, float inv_inertia, float radius) {
    const c2d_body_friction f = {mu, w, inv_inertia, radius};
    return f;
}

static void sliding_on_a_floor(void **state) {
    (void)state;
    /* A ball sliding right onto a static floor, e = 0: jn = 1. mu = sqrt(0.25 * 1) = 0.5, so
     * friction is clamped at 0.5 and the ball keeps sliding at 1.5. The tangent is (-1, 0). */
    c2d_body ball = body(2, -1, 1, 0), floor = body(0, 0, 0, 1);
    c2d_body_friction fb = fric(0.25f, 0, 0, 0), ff = fric(1, 0, 0, 0);
    float jt;
    const float jn = c2d_apply_impulse_friction(&ball, &fb, &floor, &ff, v2(0, 1), &jt);
    CHECK_FEQ(jn, 1.0f);
    CHECK_FEQ(jt, 0.5f);
    CHECK_VEC_EQ(ball.velocity, 1.5f, 0.0f);
    CHECK_VEC_EQ(floor.velocity, 0.0f, 0.0f);
    /* mu = 4: the full 2 is within the cone, the ball stops sliding. */
    ball = body(2, -1, 1, 0);
    fb = fric(4, 0, 0, 0);
    ff = fric(4, 0, 0, 0);
    CHECK_FEQ(c2d_apply_impulse_friction(&ball, &fb, &floor, &ff, v2(0, 1), &jt), 1.0f);
    CHECK_FEQ(jt, 2.0f);
    CHECK_VEC_EQ(ball.velocity, 0.0f, 0.0f);
    /* Sliding left: the sign follows. */
    ball = body(-2, -1, 1, 0);
    fb = fric(0.25f, 0, 0, 0);
    ff = fric(1, 0, 0, 0);
    c2d_apply_impulse_friction(&ball, &fb, &floor, &ff, v2(0, 1), &jt);
    CHECK_FEQ(jt, -0.5f);
    CHECK_VEC_EQ(ball.velocity, -1.5f, 0.0f);
}

/* inv_inertia = 0 means "the spin cannot change", not "there is no spin": a stored angular
 * velocity still moves the contact point, so friction drives the ball like a conveyor belt
 * toward v = -w r (issue 42, defect 4; the docs say so, the formula is unchanged). With the
 * angular velocity 0 the same ball only loses its sliding. Both through the scalar call and
 * through the contact list. */
static void locked_spin_is_a_conveyor(void **state) {
    (void)state;
    /* Landing straight down (jn = 1) with w = 2, r = 0.5 and the spin locked: vt = -w r = -1,
     * k = 1, jt = 1 (within mu jn = 1): the ball leaves sideways at -1 = -w r, w stays 2. */
    c2d_body ball = body(0, -1, 1, 0), floor = body(0, 0, 0, 1);
    c2d_body_friction fb = fric(1, 2, 0, 0.5f), ff = fric(1, 0, 0, 0);
    float jt;
    CHECK_FEQ(c2d_apply_impulse_friction(&ball, &fb, &floor, &ff, v2(0, 1), &jt), 1.0f);
    CHECK_FEQ(jt, 1.0f);
    CHECK_VEC_EQ(ball.velocity, -1.0f, 0.0f);
    CHECK_FEQ(fb.angular_velocity, 2.0f);
    /* The ball that must not turn passes w = 0: landing straight, no sideways push at all ... */
    ball = body(0, -1, 1, 0);
    fb = fric(1, 0, 0, 0.5f);
    CHECK_FEQ(c2d_apply_impulse_friction(&ball, &fb, &floor, &ff, v2(0, 1), &jt), 1.0f);
    CHECK_FEQ(jt, 0.0f);
    CHECK_VEC_EQ(ball.velocity, 0.0f, 0.0f);
    /* ... and sliding at 0.5, friction only takes the sliding away (never past rest). */
    ball = body(0.5f, -1, 1, 0);
    CHECK_FEQ(c2d_apply_impulse_friction(&ball, &fb, &floor, &ff, v2(0, 1), &jt), 1.0f);
    CHECK_FEQ(jt, 0.5f);
    CHECK_VEC_EQ(ball.velocity, 0.0f, 0.0f);
    CHECK_FEQ(fb.angular_velocity, 0.0f);

    /* The contact list: ball 0 with its spin locked at 2, ball 1 locked at 0, both landing on
     * capsule 0 (at rest, friction 1). */
    float x[2] = {0, 3}, y[2] = {0.5f, 0.5f}, vx[2] = {0, 0}, vy[2] = {-1, -1};
    const float inv_mass[2] = {1, 1}, e[2] = {0, 0}, mu[2] = {1, 1}, inv_i[2] = {0, 0};
    const float radius[2] = {0.5f, 0.5f};
    float w[2] = {2, 0};
    const c2d_body_soa balls = {
        .x = x, .y = y, .vx = vx, .vy = vy, .inv_mass = inv_mass, .restitution = e, .count = 2};
    const c2d_body_friction_soa spin = {
        .friction = mu, .angular_velocity = w, .inv_inertia = inv_i, .radius = radius};
    c2d_capsule_pair_contact hits[2];
    memset(hits, 0, sizeof hits);
    for (uint32_t i = 0; i < 2; i++) {
        hits[i].circle = i;
        hits[i].capsule = 0;
        hits[i].contact.normal = v2(0, 1);
        hits[i].contact.point = v2(x[i], 0);
    }
    const c2d_solve_def def = {.friction = &spin};
    assert_int_equal(c2d_solve_capsule_contacts(&balls, hits, 2, &def), C2D_OK);
    CHECK_FEQ(vx[0], -1.0f); /* driven by its locked spin */
    CHECK_FEQ(w[0], 2.0f);
    CHECK_FEQ(vx[1], 0.0f); /* w = 0: not pushed */
    CHECK_FEQ(w[1], 0.0f);
    CHECK_FEQ(vy[0], 0.0f);
    CHECK_FEQ(vy[1], 0.0f);
}

static void spin_reaches_rolling(void **state) {
    (void)state;
    /* A solid disc, m = 1, r = 1: inverse inertia 2. Sliding right at 3 without spin onto a
     * floor: vt = -3, k = 1 + 2 = 3, jt = 1: v = 2 and w = -2, so the contact point is at
     * rest, v + w r = 0 (rolling clockwise). */
    c2d_body ball = body(3, -1, 1, 0), floor = body(0, 0, 0, 1);
    c2d_body_friction fb = fric(1, 0, 2, 1), ff = fric(1, 0, 0, 0);
    float jt;
    c2d_apply_impulse_friction(&ball, &fb, &floor, &ff, v2(0, 1), &jt);
    CHECK_FEQ(jt, 1.0f);
    CHECK_VEC_EQ(ball.velocity, 2.0f, 0.0f);
    CHECK_FEQ(fb.angular_velocity, -2.0f);
    CHECK_FEQ(ff.angular_velocity, 0.0f);
    /* Already rolling: no sliding, no friction, nothing written but the normal impulse. */
    ball = body(2, -1, 1, 0);
    fb = fric(1, -2, 2, 1);
    c2d_apply_impulse_friction(&ball, &fb, &floor, &ff, v2(0, 1), &jt);
    CHECK_FEQ(jt, 0.0f);
    CHECK_VEC_EQ(ball.velocity, 2.0f, 0.0f);
    CHECK_FEQ(fb.angular_velocity, -2.0f);
    /* Two spinning balls (b below a): equal and opposite spins w = 1, r = 1, no linear sliding;
     * a's contact point moves at -wa ra = -1 along t, b's at +wb rb = +1: vt = -2, k = 1+1+2+2,
     * jt = 1/3; each spin drops by jt * 2 * 1. */
    c2d_body a = body(0, -1, 1, 0), b = body(0, 1, 1, 0);
    c2d_body_friction fa = fric(1, 1, 2, 1), fbb = fric(1, 1, 2, 1);
    c2d_apply_impulse_friction(&a, &fa, &b, &fbb, v2(0, 1), &jt);
    CHECK_NEAR(jt, 1.0 / 3.0, 1e-7);
    CHECK_NEAR(fa.angular_velocity, 1.0 / 3.0, 1e-6);
    CHECK_NEAR(fbb.angular_velocity, 1.0 / 3.0, 1e-6);
    CHECK_NEAR(a.velocity.x, -1.0 / 3.0, 1e-7); /* t = (-1, 0): a gets jt t */
    CHECK_NEAR(b.velocity.x, 1.0 / 3.0, 1e-7);
}

/* Random bodies, some of them degenerate. */
/* (The draws are sequenced: the order in which a call's arguments are evaluated is
 * unspecified, and gcc and clang differ.) */
static c2d_body random_body(c2d_rng *s) {
    c2d_body b;
    b.velocity.x = c2d_rng_range(s, -10, 10);
    b.velocity.y = c2d_rng_range(s, -10, 10);
    b.inv_mass = c2d_rng_range(s, 0, 2);
    b.restitution = c2d_rng_range(s, 0, 1);
    if ((c2d_rng_next(s) & 7) == 0) b.inv_mass = 0.0f;
    return b;
}
static c2d_body_friction random_fric(c2d_rng *s) {
    c2d_body_friction f;
    f.friction = c2d_rng_range(s, 0, 1.5f);
    f.angular_velocity = c2d_rng_range(s, -20, 20);
    f.inv_inertia = c2d_rng_range(s, 0, 4);
    f.radius = c2d_rng_range(s, 0, 2);
    if ((c2d_rng_next(s) & 3) == 0) f.inv_inertia = 0.0f;
    return f;
}
static c2d_vec2 random_unit(c2d_rng *s) {
    const float a = c2d_rng_range(s, -3.14159265f, 3.14159265f);
    return v2(cosf(a), sinf(a));
}

static void no_friction_is_apply_impulse(void **state) {
    (void)state;
    c2d_rng s = {12345u};
    for (int i = 0; i < 100000; i++) {
        const c2d_body a0 = random_body(&s), b0 = random_body(&s);
        const c2d_vec2 n = random_unit(&s);
        c2d_body_friction fa = random_fric(&s), fb = random_fric(&s);
        const int which = i % 4; /* mu 0 on a, mu 0 on b, fa NULL, fb NULL */
        if (which == 0) fa.friction = 0.0f;
        if (which == 1) fb.friction = 0.0f;
        const c2d_body_friction fa0 = fa, fb0 = fb;
        c2d_body a = a0, b = b0, ra = a0, rb = b0;
        float jt = 1.0f;
        const float j = c2d_apply_impulse_friction(&a, which == 2 ? NULL : &fa, &b,
                                                   which == 3 ? NULL : &fb, n, &jt);
        const float jr = c2d_apply_impulse(&ra, &rb, n);
        assert_memory_equal(&j, &jr, sizeof j);
        assert_memory_equal(&a, &ra, sizeof a);
        assert_memory_equal(&b, &rb, sizeof b);
        assert_memory_equal(&fa, &fa0, sizeof fa);
        assert_memory_equal(&fb, &fb0, sizeof fb);
        CHECK_FEQ(jt, 0.0f);
    }
}

/* The Coulomb clamp and the unclamped answer, against the formula in double. */
static void clamp_and_double_reference(void **state) {
    (void)state;
    c2d_rng s = {777u};
    int clamped = 0, free_ = 0;
    for (int i = 0; i < 200000; i++) {
        const c2d_body a0 = random_body(&s), b0 = random_body(&s);
        const c2d_vec2 n = random_unit(&s);
        c2d_body_friction fa = random_fric(&s), fb = random_fric(&s);
        const c2d_body_friction fa0 = fa, fb0 = fb;
        c2d_body a = a0, b = b0, ra = a0, rb = b0;
        float jt;
        const float jn = c2d_apply_impulse_friction(&a, &fa, &b, &fb, n, &jt);
        const float jr = c2d_apply_impulse(&ra, &rb, n);
        assert_memory_equal(&jn, &jr, sizeof jn); /* the normal part is c2d_apply_impulse's */
        const float mu = sqrtf(fa0.friction * fb0.friction);
        if (!(fabsf(jt) <= mu * jn)) {
            print_error("case %d: |jt| = %a > mu jn = %a\n", i, (double)fabsf(jt),
                        (double)(mu * jn));
            fail();
        }
        if (!(jn > 0.0f)) {
            CHECK_FEQ(jt, 0.0f);
            continue;
        }
        /* double reference from the bodies after the normal impulse */
        const double tx = -(double)n.y, ty = n.x;
        const double vt = ((double)ra.velocity.x - rb.velocity.x) * tx +
                          ((double)ra.velocity.y - rb.velocity.y) * ty -
                          (double)fa0.angular_velocity * fa0.radius -
                          (double)fb0.angular_velocity * fb0.radius;
        const double k = (double)a0.inv_mass + b0.inv_mass +
                         (double)fa0.inv_inertia * fa0.radius * fa0.radius +
                         (double)fb0.inv_inertia * fb0.radius * fb0.radius;
        const double lim = (double)mu * jn;
        double jd = -vt / k;
        const bool clamp = fabs(jd) > lim;
        if (clamp) jd = jd > 0 ? lim : -lim;
        clamped += clamp;
        free_ += !clamp;
        /* vt is a float sum of terms up to `terms`: its rounding error scales with them */
        const double terms = fabs(ra.velocity.x) + fabs(ra.velocity.y) + fabs(rb.velocity.x) +
                             fabs(rb.velocity.y) + fabs((double)fa0.angular_velocity * fa0.radius) +
                             fabs((double)fb0.angular_velocity * fb0.radius);
        const double scale = 1e-5 * ((fabs(vt) + terms) / k + lim + 1e-6);
        CHECK_NEAR(jt, jd, scale);
        CHECK_NEAR(a.velocity.x, ra.velocity.x + jd * a0.inv_mass * tx,
                   1e-5 * (fabs(ra.velocity.x) + 1) + scale * a0.inv_mass);
        CHECK_NEAR(b.velocity.y, rb.velocity.y - jd * b0.inv_mass * ty,
                   1e-5 * (fabs(rb.velocity.y) + 1) + scale * b0.inv_mass);
        CHECK_NEAR(fa.angular_velocity, fa0.angular_velocity - jd * fa0.inv_inertia * fa0.radius,
                   1e-5 * (fabs(fa0.angular_velocity) + 1) + scale * fa0.inv_inertia * fa0.radius);
        if (!clamp) { /* the contact points stop sliding */
            const double after = ((double)a.velocity.x - b.velocity.x) * tx +
                                 ((double)a.velocity.y - b.velocity.y) * ty -
                                 (double)fa.angular_velocity * fa.radius -
                                 (double)fb.angular_velocity * fb.radius;
            CHECK_NEAR(after, 0.0, 1e-5 * (fabs(vt) + terms + 1));
        }
    }
    /* both branches were exercised */
    assert_true(clamped > 1000);
    assert_true(free_ > 1000);
}

static bool finite_f(float v) {
    return v >= -FLT_MAX && v <= FLT_MAX;
}

static void degenerate_input_stays_finite(void **state) {
    (void)state;
    const float special[] = {0.0f,    -0.0f,    1.0f,     -1.0f,     FLT_MIN, 1e-30f,    1e30f,
                             FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN,     0x1p-149f, 3.0f};
    const size_t ns = sizeof special / sizeof special[0];
    c2d_rng s = {99u};
    for (int i = 0; i < 300000; i++) {
        float v[12];
        for (int k = 0; k < 12; k++)
            v[k] =
                (c2d_rng_next(&s) & 1) ? special[c2d_rng_next(&s) % ns] : c2d_rng_range(&s, -5, 5);
        c2d_body a = body(v[0], v[1], fabsf(v[2]), 0.5f), b = body(v[3], v[4], fabsf(v[5]), 0.5f);
        c2d_body_friction fa = fric(fabsf(v[6]), v[7], fabsf(v[8]), fabsf(v[9]));
        c2d_body_friction fb = fric(fabsf(v[10]), v[11], 0.0f, 0.0f);
        const c2d_vec2 n = (i & 1) ? random_unit(&s) : v2(0, 1);
        const bool finite_in = finite_f(v[0]) && finite_f(v[1]) && finite_f(v[3]) &&
                               finite_f(v[4]) && finite_f(v[7]) && finite_f(v[11]);
        float jt;
        const float jn = c2d_apply_impulse_friction(&a, &fa, &b, &fb, n, &jt);
        if (!finite_f(jt)) {
            print_error("case %d: jt = %a\n", i, (double)jt);
            fail();
        }
        if (finite_in && !(finite_f(jn) && finite_f(a.velocity.x) && finite_f(a.velocity.y) &&
                           finite_f(b.velocity.x) && finite_f(b.velocity.y) &&
                           finite_f(fa.angular_velocity) && finite_f(fb.angular_velocity))) {
            print_error("case %d gave a value that is not finite\n", i);
            fail();
        }
    }
    /* A zero tangential velocity: jt = 0, the tangential parts keep their bytes. */
    c2d_body a = body(-0.0f, -1, 1, 0), b = body(0, 0, 0, 1);
    c2d_body_friction fa = fric(1, -0.0f, 2, 1), fb = fric(1, 0, 0, 0);
    float jt;
    c2d_apply_impulse_friction(&a, &fa, &b, &fb, v2(0, 1), &jt);
    CHECK_FEQ(jt, 0.0f);
    CHECK_FEQ(a.velocity.x, 0.0f); /* (the normal impulse itself turns -0 into +0 here) */
    assert_true(signbit(fa.angular_velocity));
}

/* A ball on a 30 degree slope, stepped at 240 Hz for 2 s: gravity, the contact of the library
 * (the slope is a segment), the friction impulse with e = 0, the move, the push-out. */
typedef struct slope_run {
    float speed; /* along the slope, downhill positive */
    float slip;  /* speed of the contact point: v + w r along the slope */
    float w;
} slope_run;

static slope_run roll(float mu, bool spin) {
    const float s30 = 0.5f, c30 = 0.866025404f, g = 10.0f, dt = 1.0f / 240.0f, r = 0.5f;
    const c2d_capsule slope = {{-100.0f * c30, 100.0f * s30}, {100.0f * c30, -100.0f * s30}, 0.0f};
    const c2d_vec2 nrm = {s30, c30}, down = {c30, -s30};
    c2d_circle ball = {{-20.0f * c30 + r * nrm.x, 20.0f * s30 + r * nrm.y}, r};
    c2d_body b = body(0, 0, 1, 0), wall = body(0, 0, 0, 0);
    c2d_body_friction fb = fric(mu, 0, spin ? 2.0f / (r * r) : 0.0f, r),
                      fw = fric(mu, 0, 0, 0); /* sqrt(mu mu) = mu */
    for (int step = 0; step < 480; step++) {
        b.velocity.y -= g * dt;
        c2d_contact c;
        /* a contact margin of r / 256: a ball pushed out to touching may round a hair apart */
        const c2d_circle margin = {ball.center, r + r / 256.0f};
        if (c2d_collide_circle_capsule(margin, slope, &c))
            c2d_apply_impulse_friction(&b, &fb, &wall, &fw, c.normal, NULL);
        ball.center.x += b.velocity.x * dt;
        ball.center.y += b.velocity.y * dt;
        if (c2d_collide_circle_capsule(ball, slope, &c)) {
            ball.center.x += c.normal.x * c.depth;
            ball.center.y += c.normal.y * c.depth;
        }
    }
    slope_run out;
    out.speed = b.velocity.x * down.x + b.velocity.y * down.y;
    /* the contact point is at -r nrm: w x (-r nrm) = w r (nrm.y, -nrm.x) = w r down */
    out.slip = out.speed + fb.angular_velocity * r;
    out.w = fb.angular_velocity;
    return out;
}

static void ball_rolling_down_a_slope(void **state) {
    (void)state;
    const double g = 10.0, T = 2.0, s30 = 0.5, c30 = sqrt(3.0) / 2.0;
    /* With spin and mu = 0.5 >= tan(30)/3: rolls without slipping at a = g sin / (1 + 1/2). */
    const slope_run rolling = roll(0.5f, true);
    CHECK_NEAR(rolling.speed, g * s30 / 1.5 * T, 0.01 * g * s30 / 1.5 * T);
    CHECK_NEAR(rolling.slip, 0.0, 1e-3 * rolling.speed);
    assert_true(rolling.w < 0.0f); /* rolling to the lower right turns clockwise */
    /* With spin but too little friction (mu = 0.1 < tan(30)/3): it slips, a = g(sin - mu cos),
     * and the spin grows at the rate friction allows. */
    const slope_run slipping = roll(0.1f, true);
    CHECK_NEAR(slipping.speed, g * (s30 - 0.1 * c30) * T, 0.01 * g * s30 * T);
    assert_true(slipping.slip > 0.1f * slipping.speed);
    /* Without spin: friction decelerates the sliding, a = g (sin - mu cos). */
    const slope_run sliding = roll(0.2f, false);
    CHECK_NEAR(sliding.speed, g * (s30 - 0.2 * c30) * T, 0.01 * g * s30 * T);
    CHECK_FEQ(sliding.w, 0.0f);
    /* Without spin and mu = 0.8 > tan(30): static friction holds it. */
    const slope_run held = roll(0.8f, false);
    CHECK_NEAR(held.speed, 0.0, 1e-4);
    /* Without friction it slides at g sin. */
    const slope_run free_ = roll(0.0f, true);
    CHECK_NEAR(free_.speed, g * s30 * T, 0.01 * g * s30 * T);
    CHECK_FEQ(free_.w, 0.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sliding_on_a_floor),
        cmocka_unit_test(spin_reaches_rolling),
        cmocka_unit_test(locked_spin_is_a_conveyor),
        cmocka_unit_test(no_friction_is_apply_impulse),
        cmocka_unit_test(clamp_and_double_reference),
        cmocka_unit_test(degenerate_input_stays_finite),
        cmocka_unit_test(ball_rolling_down_a_slope),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
