/* Worked examples for the swept tests c2d_sweep_circles and c2d_sweep_circle_capsule.
 * Expected times, normals and points are worked out by hand from the contract (query.h,
 * docs/design.md section 3); most are chosen so that every step is exact in float. */
#include <string.h>

#include "scalar_test.h"
#include "workload.h"

/* ---- two circles ------------------------------------------------------------------------- */

static void circles_head_on(void **state) {
    (void)state;
    /* a from (0,0) by (8,0) toward b at (6,0), radii 1: touch when a is at (4,0), t = 1/2. */
    c2d_toi t;
    assert_true(c2d_sweep_circles(circle(0, 0, 1), v2(8, 0), circle(6, 0, 1), v2(0, 0), &t));
    CHECK_FEQ(t.t, 0.5f);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 5.0f, 0.0f);
    /* The same from above: b below a, normal (0, 1) toward a. */
    assert_true(c2d_sweep_circles(circle(0, 6, 1), v2(0, -8), circle(0, 0, 1), v2(0, 0), &t));
    CHECK_FEQ(t.t, 0.5f);
    CHECK_VEC_EQ(t.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(t.point, 0.0f, 1.0f);
    /* Diagonal, 3-4-5: |s| = 10, |v| = 10, radius sum 2: t = 0.8. */
    assert_true(
        c2d_sweep_circles(circle(-6, -8, 1.5f), v2(6, 8), circle(0, 0, 0.5f), v2(0, 0), &t));
    CHECK_NEAR(t.t, 0.8, 1e-7);
    CHECK_VEC_NEAR(t.normal, -0.6, -0.8, 1e-6);
    CHECK_VEC_NEAR(t.point, -0.3, -0.4, 1e-6);
}

static void circles_both_moving(void **state) {
    (void)state;
    /* a (0,0) by (4,0), b (6,0) by (-4,0): relative motion 8, gap 4: t = 1/2, a at (2,0),
     * b at (4,0). The point is on b's surface at time t. */
    c2d_toi t;
    assert_true(c2d_sweep_circles(circle(0, 0, 1), v2(4, 0), circle(6, 0, 1), v2(-4, 0), &t));
    CHECK_FEQ(t.t, 0.5f);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 3.0f, 0.0f);
    /* b chases a from behind, faster: same relative motion, different frame. */
    assert_true(c2d_sweep_circles(circle(6, 0, 1), v2(2, 0), circle(0, 0, 1), v2(10, 0), &t));
    CHECK_FEQ(t.t, 0.5f);
    CHECK_VEC_EQ(t.normal, 1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 6.0f, 0.0f); /* b at (5,0), a at (7,0) */
    /* Moving in the same direction at the same speed: no relative motion, no hit. */
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(5, 5), circle(3, 0, 1), v2(5, 5), &t));
}

static void circles_overlap_at_start(void **state) {
    (void)state;
    c2d_toi t;
    /* Overlapping and moving apart: no hit (it leaves; the contact query reports the overlap). */
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(-5, 0), circle(1, 0, 1), v2(0, 0), &t));
    /* Overlapping and moving deeper: a hit at t = 0, with c2d_collide_circles()' normal and
     * point. */
    assert_true(c2d_sweep_circles(circle(0, 0, 1), v2(5, 0), circle(1, 0, 1), v2(0, 0), &t));
    CHECK_FEQ(t.t, 0.0f);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 0.0f, 0.0f);
    /* The same when b does the moving: the relative move decides. */
    assert_true(c2d_sweep_circles(circle(0, 0, 1), v2(0, 0), circle(1, 0, 1), v2(-5, 0), &t));
    CHECK_FEQ(t.t, 0.0f);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 0.0f, 0.0f);
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(3, 0), circle(1, 0, 1), v2(5, 0), &t));
    /* Overlapping with no motion at all: no hit. */
    assert_false(c2d_sweep_circles(circle(0, 0.5f, 1), v2(0, 0), circle(0, 0, 1), v2(0, 0), &t));
    /* Coincident centres: normal (0, 1), so moving down goes deeper and sideways does not. */
    assert_true(c2d_sweep_circles(circle(3, 3, 1), v2(0, -1), circle(3, 3, 2), v2(0, 0), &t));
    CHECK_FEQ(t.t, 0.0f);
    CHECK_VEC_EQ(t.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(t.point, 3.0f, 5.0f);
    assert_false(c2d_sweep_circles(circle(3, 3, 1), v2(1, 0), circle(3, 3, 2), v2(0, 0), &t));
}

static void circles_no_hit_cases(void **state) {
    (void)state;
    c2d_toi t;
    /* Moving apart. */
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(-5, 0), circle(3, 0, 1), v2(0, 0), &t));
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(0, 0), circle(3, 0, 1), v2(5, 0), &t));
    /* No relative motion at all, separated. */
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(0, 0), circle(3, 0, 1), v2(0, 0), &t));
    /* Tangential motion (b = v.s = 0), separated. */
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(0, 5), circle(3, 0, 1), v2(0, 0), &t));
    /* Passing by: the closest approach is 3 > 2. */
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(10, 0), circle(5, 3, 1), v2(0, 0), &t));
    /* Stopping short: it would touch at t = 1.5. */
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(2, 0), circle(5, 0, 1), v2(0, 0), &t));
}

static void circles_touch_exactly_at_t1(void **state) {
    (void)state;
    /* Gap 1 closed by a move of exactly 1: c = 5, b = -3, disc = 4, t = 5 / (3 + 2) = 1. */
    c2d_toi t;
    assert_true(c2d_sweep_circles(circle(0, 0, 1), v2(1, 0), circle(3, 0, 1), v2(0, 0), &t));
    CHECK_FEQ(t.t, 1.0f);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 2.0f, 0.0f);
    /* A little short of it: no hit. */
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(0.999f, 0), circle(3, 0, 1), v2(0, 0), &t));
}

static void circles_start_near_contact(void **state) {
    (void)state;
    /* A gap of 1e-4 closed at speed 1: t = 1e-4 (up to the float rounding of 2.0001). */
    c2d_toi t;
    assert_true(c2d_sweep_circles(circle(0, 0, 1), v2(1, 0), circle(2.0001f, 0, 1), v2(0, 0), &t));
    assert_true(t.t > 0.0f);
    CHECK_NEAR(t.t, 1e-4, 1e-6);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_NEAR(t.point.x, 1.0001, 1e-6);
    /* The same gap, moving away: no hit. */
    assert_false(
        c2d_sweep_circles(circle(0, 0, 1), v2(-1, 0), circle(2.0001f, 0, 1), v2(0, 0), &t));
}

static void circles_fast_small(void **state) {
    (void)state;
    /* Radii 0.01, a flies 1000 straight through b: no tunnelling, and t is where they touch. */
    c2d_toi t;
    assert_true(
        c2d_sweep_circles(circle(0, 0, 0.01f), v2(1000, 0), circle(500, 0, 0.01f), v2(0, 0), &t));
    CHECK_NEAR(t.t, 0.49998, 1e-7);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
}

/* Long moves and small radii: s.s - (ra+rb)^2 in float loses the radius term once |s| is
 * large against ra+rb, so the clear hits below test the precision of the sweep, not only its
 * formula. Each ball passes within half the radius sum of the other's centre (a clear hit, not
 * a graze); the reported time must exist and place the balls within a tenth of the radius sum
 * of touching. */
static int long_move_failures(bool capsule_end, int cases, float length) {
    c2d_rng rng = {UINT64_C(0x10c6) + (uint64_t)capsule_end};
    int failures = 0;
    for (int i = 0; i < cases; i++) {
        const float ra = c2d_rng_range(&rng, 0.005f, 0.05f),
                    rb = c2d_rng_range(&rng, 0.005f, 0.05f);
        const c2d_vec2 dir = c2d_rng_direction(&rng);
        const float off = c2d_rng_range(&rng, -0.5f, 0.5f) * (ra + rb);
        const c2d_vec2 b = v2(c2d_rng_range(&rng, -100, 100), c2d_rng_range(&rng, -100, 100));
        const float before = c2d_rng_range(&rng, 0.2f, 0.8f);
        const c2d_circle a = circle(b.x - dir.x * length * before - dir.y * off,
                                    b.y - dir.y * length * before + dir.x * off, ra);
        const c2d_vec2 m = v2(dir.x * length, dir.y * length);
        c2d_toi t;
        bool hit;
        if (capsule_end) /* the cap at a of a capsule pointing away from the ball */
            hit =
                c2d_sweep_circle_capsule(a, m, capsule(b.x, b.y, b.x + dir.x, b.y + dir.y, rb), &t);
        else
            hit = c2d_sweep_circles(a, m, circle(b.x, b.y, rb), v2(0, 0), &t);
        double err = INFINITY;
        if (hit) {
            const double px = a.center.x + (double)t.t * m.x - b.x;
            const double py = a.center.y + (double)t.t * m.y - b.y;
            err = fabs(sqrt(px * px + py * py) - ((double)ra + rb));
        }
        if (!(err <= 0.1 * ((double)ra + rb))) {
            if (failures < 3)
                print_error("%s: ball (%a,%a) r %a move (%a,%a), target (%a,%a) r %a: %s "
                            "(distance error at t %.3g)\n",
                            capsule_end ? "capsule end" : "circles", (double)a.center.x,
                            (double)a.center.y, (double)ra, (double)m.x, (double)m.y, (double)b.x,
                            (double)b.y, (double)rb, hit ? "late or early" : "missed", err);
            failures++;
        }
    }
    return failures;
}

static void circles_long_move_small_radii(void **state) {
    (void)state;
    const int failures = long_move_failures(false, 2000, 1000.0f);
    if (failures) {
        print_error("%d of 2000 clear hits missed or misplaced\n", failures);
        fail();
    }
}

static void capsule_end_long_move_small_radii(void **state) {
    (void)state;
    const int failures = long_move_failures(true, 2000, 1000.0f);
    if (failures) {
        print_error("%d of 2000 clear hits missed or misplaced\n", failures);
        fail();
    }
}

/* ---- a circle and a capsule -------------------------------------------------------------- */

static void capsule_side_hit(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1);
    c2d_toi t;
    /* From above: distance 5, radius sum 2, move 6: t = 1/2. */
    assert_true(c2d_sweep_circle_capsule(circle(4, 5, 1), v2(0, -6), k, &t));
    CHECK_FEQ(t.t, 0.5f);
    CHECK_VEC_EQ(t.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(t.point, 4.0f, 1.0f);
    /* From below, diagonally: distance 4, sum 1.5, approach speed 4: t = 0.625 at (4.5,-1.5). */
    assert_true(c2d_sweep_circle_capsule(circle(2, -4, 0.5f), v2(4, 4), k, &t));
    CHECK_FEQ(t.t, 0.625f);
    CHECK_VEC_EQ(t.normal, 0.0f, -1.0f);
    CHECK_VEC_EQ(t.point, 4.5f, -1.0f);
    /* A vertical capsule hit from the left: normal (-1, 0). */
    assert_true(c2d_sweep_circle_capsule(circle(-8, 2, 1), v2(8, 0), capsule(0, -3, 0, 3, 1), &t));
    CHECK_FEQ(t.t, 0.75f);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, -1.0f, 2.0f);
}

static void capsule_end_cap_hit(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1);
    c2d_toi t;
    /* Along the axis into the cap at b: gap 3 closed by a move of 6, t = 1/2. */
    assert_true(c2d_sweep_circle_capsule(circle(15, 0, 1), v2(-6, 0), k, &t));
    CHECK_FEQ(t.t, 0.5f);
    CHECK_VEC_EQ(t.normal, 1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 11.0f, 0.0f);
    /* Diagonally into the cap at a: |s| = 10, |v| = 10, sum 2, t = 0.8 at (-1.2,-1.6). The
     * side line y = -2 is reached earlier (t = 0.75) but outside the axis span. */
    assert_true(c2d_sweep_circle_capsule(circle(-6, -8, 1), v2(6, 8), k, &t));
    CHECK_NEAR(t.t, 0.8, 1e-7);
    CHECK_VEC_NEAR(t.normal, -0.6, -0.8, 1e-6);
    CHECK_VEC_NEAR(t.point, -0.6, -0.8, 1e-6);
    /* Off the end of a vertical capsule, from above. */
    assert_true(
        c2d_sweep_circle_capsule(circle(0, 9, 0.5f), v2(0, -10), capsule(0, -3, 0, 3, 1), &t));
    CHECK_FEQ(t.t, 0.45f);
    CHECK_VEC_EQ(t.normal, 0.0f, 1.0f);
    CHECK_VEC_NEAR(t.point, 0.0, 4.0, 1e-6);
}

static void capsule_overlap_at_start(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1);
    c2d_toi t;
    /* Overlapping the side, moving deeper: t = 0 with the contact's normal and point. */
    assert_true(c2d_sweep_circle_capsule(circle(5, 0.5f, 1), v2(0, -10), k, &t));
    CHECK_FEQ(t.t, 0.0f);
    CHECK_VEC_EQ(t.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(t.point, 5.0f, 1.0f);
    /* ... and moving out of it: no hit. */
    assert_false(c2d_sweep_circle_capsule(circle(5, 0.5f, 1), v2(0, 10), k, &t));
    /* No motion at all, overlapping the cap at a: no hit. */
    assert_false(c2d_sweep_circle_capsule(circle(-1.5f, 0, 1), v2(0, 0), k, &t));
    /* Overlapping the cap at a and moving along the axis into the capsule. */
    assert_true(c2d_sweep_circle_capsule(circle(-1.5f, 0, 1), v2(3, 0), k, &t));
    CHECK_FEQ(t.t, 0.0f);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, -1.0f, 0.0f);
    /* Centre on the axis: the axis' left perpendicular (0, 1) is the normal, so a move with a
     * downward part goes deeper and one with an upward part leaves. */
    assert_true(c2d_sweep_circle_capsule(circle(5, 0, 1), v2(3, -3), k, &t));
    CHECK_FEQ(t.t, 0.0f);
    CHECK_VEC_EQ(t.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(t.point, 5.0f, 1.0f);
    assert_false(c2d_sweep_circle_capsule(circle(5, 0, 1), v2(3, 3), k, &t));
}

static void capsule_no_hit_cases(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1);
    c2d_toi t;
    /* Moving apart. */
    assert_false(c2d_sweep_circle_capsule(circle(5, 3, 1), v2(0, 5), k, &t));
    assert_false(c2d_sweep_circle_capsule(circle(13, 0, 1), v2(5, 0), k, &t));
    /* No motion, separated. */
    assert_false(c2d_sweep_circle_capsule(circle(5, 3, 1), v2(0, 0), k, &t));
    /* Passing by, parallel to the axis, 3 away with radius sum 2. */
    assert_false(c2d_sweep_circle_capsule(circle(-5, 3, 1), v2(20, 0), k, &t));
    /* Passing by the cap diagonally. */
    assert_false(c2d_sweep_circle_capsule(circle(12, -3, 0.5f), v2(4, 4), k, &t));
    /* Stopping short of the side and of the cap. */
    assert_false(c2d_sweep_circle_capsule(circle(5, 5, 1), v2(0, -2), k, &t));
    assert_false(c2d_sweep_circle_capsule(circle(15, 0, 1), v2(-2.5f, 0), k, &t));
}

static void capsule_touch_exactly_at_t1(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1);
    c2d_toi t;
    assert_true(c2d_sweep_circle_capsule(circle(5, 3, 1), v2(0, -1), k, &t));
    CHECK_FEQ(t.t, 1.0f);
    CHECK_VEC_EQ(t.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(t.point, 5.0f, 1.0f);
    /* The cap at b: gap 1 closed by a move of 1 (c = 5, b = -3, disc = 4, t = 1). */
    assert_true(c2d_sweep_circle_capsule(circle(13, 0, 1), v2(-1, 0), k, &t));
    CHECK_FEQ(t.t, 1.0f);
    CHECK_VEC_EQ(t.normal, 1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 11.0f, 0.0f);
    assert_false(c2d_sweep_circle_capsule(circle(5, 3, 1), v2(0, -0.999f), k, &t));
    assert_false(c2d_sweep_circle_capsule(circle(13, 0, 1), v2(-0.999f, 0), k, &t));
}

static void capsule_start_near_contact(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1);
    c2d_toi t;
    /* 1e-4 above the side, moving down at speed 1. */
    assert_true(c2d_sweep_circle_capsule(circle(5, 2.0001f, 1), v2(0, -1), k, &t));
    assert_true(t.t > 0.0f);
    CHECK_NEAR(t.t, 1e-4, 1e-6);
    CHECK_VEC_EQ(t.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(t.point, 5.0f, 1.0f);
    /* 1e-4 beyond the cap at b. */
    assert_true(c2d_sweep_circle_capsule(circle(12.0001f, 0, 1), v2(-1, 0), k, &t));
    assert_true(t.t > 0.0f);
    CHECK_NEAR(t.t, 1e-4, 2e-6);
    CHECK_VEC_EQ(t.normal, 1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 11.0f, 0.0f);
    /* 1e-4 from a rotated capsule's side: (0,0)-(4,3) has left normal (-0.6, 0.8). */
    const c2d_capsule r = capsule(0, 0, 4, 3, 0.5f);
    const float gap = 1.5001f;
    assert_true(c2d_sweep_circle_capsule(circle(2.0f - 0.6f * gap, 1.5f + 0.8f * gap, 1),
                                         v2(0.6f, -0.8f), r, &t));
    assert_true(t.t > 0.0f);
    CHECK_NEAR(t.t, 1e-4, 2e-6);
    CHECK_VEC_NEAR(t.normal, -0.6, 0.8, 1e-6);
    CHECK_VEC_NEAR(t.point, 2.0 - 0.3, 1.5 + 0.4, 2e-6);
}

static void capsule_fast_ball_no_tunnelling(void **state) {
    (void)state;
    c2d_toi t;
    /* A move of 1000 across a capsule of radius 0.01 with a ball of radius 0.01. */
    assert_true(c2d_sweep_circle_capsule(circle(0, 0, 0.01f), v2(1000, 0),
                                         capsule(500, -1, 500, 1, 0.01f), &t));
    CHECK_NEAR(t.t, 0.49998, 1e-7);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_NEAR(t.point.x, 499.99, 1e-4);
    CHECK_NEAR(t.point.y, 0.0, 1e-6);
    /* The same, diagonally: move (600, 800) through the middle of a perpendicular capsule. */
    const c2d_capsule k =
        capsule(300.0f + 0.8f, 400.0f - 0.6f, 300.0f - 0.8f, 400.0f + 0.6f, 0.01f);
    assert_true(c2d_sweep_circle_capsule(circle(0, 0, 0.01f), v2(600, 800), k, &t));
    CHECK_NEAR(t.t, 0.49998, 1e-6);
    CHECK_VEC_NEAR(t.normal, -0.6, -0.8, 1e-5);
    /* A zero-radius ball against a zero-radius segment, crossing it far from the start. */
    assert_true(
        c2d_sweep_circle_capsule(circle(-1000, 0.25f, 0), v2(2000, 0), capsule(0, 0, 0, 1, 0), &t));
    CHECK_NEAR(t.t, 0.5, 1e-7);
    /* Many fast balls, each crossing a thin capsule's side somewhere along its length at an
     * angle of 30 degrees or more (flatter paths reach an end cap first: those are in
     * capsule_end_long_move_small_radii). */
    c2d_rng rng = {UINT64_C(0x7a11b0)};
    for (int i = 0; i < 2000; i++) {
        const c2d_vec2 d = c2d_rng_direction(&rng);
        const float s = c2d_rng_range(&rng, -0.9f, 0.9f); /* where along the axis it crosses */
        const c2d_vec2 mid = v2(c2d_rng_range(&rng, -50, 50), c2d_rng_range(&rng, -50, 50));
        const c2d_capsule thin = capsule(mid.x - d.x, mid.y - d.y, mid.x + d.x, mid.y + d.y, 0.01f);
        c2d_vec2 dir = c2d_rng_direction(&rng);
        while (fabsf(dir.x * d.y - dir.y * d.x) < 0.5f)
            dir = c2d_rng_direction(&rng);
        const float len = c2d_rng_range(&rng, 200, 1000), before = c2d_rng_range(&rng, 0.1f, 0.9f);
        const c2d_vec2 cross = v2(mid.x + d.x * s, mid.y + d.y * s);
        const c2d_circle ball =
            circle(cross.x - dir.x * len * before, cross.y - dir.y * len * before, 0.01f);
        if (!c2d_sweep_circle_capsule(ball, v2(dir.x * len, dir.y * len), thin, &t)) {
            print_error("tunnelled: case %d ball (%a,%a) move (%a,%a) capsule (%a,%a)-(%a,%a)\n", i,
                        (double)ball.center.x, (double)ball.center.y, (double)(dir.x * len),
                        (double)(dir.y * len), (double)thin.a.x, (double)thin.a.y, (double)thin.b.x,
                        (double)thin.b.y);
            fail();
        }
        assert_true(t.t <= before);
    }
}

static void capsule_zero_length_is_a_circle(void **state) {
    (void)state;
    const c2d_capsule k = capsule(2, 1, 2, 1, 0.5f);
    c2d_toi t, u;
    assert_true(c2d_sweep_circle_capsule(circle(-4, 1, 0.5f), v2(10, 0), k, &t));
    CHECK_FEQ(t.t, 0.5f);
    CHECK_VEC_EQ(t.normal, -1.0f, 0.0f);
    CHECK_VEC_EQ(t.point, 1.5f, 1.0f);
    /* Diagonal, against the circle sweep. */
    assert_true(c2d_sweep_circle_capsule(circle(-1, -3, 0.5f), v2(4, 6), k, &t));
    assert_true(
        c2d_sweep_circles(circle(-1, -3, 0.5f), v2(4, 6), circle(2, 1, 0.5f), v2(0, 0), &u));
    CHECK_NEAR(t.t, u.t, 1e-7);
    CHECK_VEC_NEAR(t.normal, u.normal.x, u.normal.y, 1e-6);
    CHECK_VEC_NEAR(t.point, u.point.x, u.point.y, 1e-6);
    /* Far away: no hit. */
    assert_false(c2d_sweep_circle_capsule(circle(-40, 30, 0.5f), v2(4, 6), k, &t));
    assert_false(c2d_sweep_circle_capsule(circle(-40, 30, 0.5f), v2(0, 0), k, &t));
}

/* A ball in contact at the start and moving deeper: c2d_sweep_circles' hit (its start normal
 * taken without a projection, core/ball_sweep_formula.h) is byte for byte the hit of the same
 * sweep against b as a zero-length capsule, whose start normal projects onto the axis. Radii
 * from 2^-20 to 2^30, centres' magnitudes from 2^-40 to 2^30 apart from them (so a - b is often
 * not exact in float), gaps from deep to a few ulps, the move along -n. */
static void circles_start_hit_is_the_zero_length_capsules(void **state) {
    (void)state;
    c2d_rng rng = {UINT64_C(0x5eed)};
    for (int i = 0; i < 20000; i++) {
        const float scale = ldexpf(1.0f, (int)(c2d_rng_next(&rng) % 51) - 20);
        const float where = ldexpf(1.0f, (int)(c2d_rng_next(&rng) % 71) - 40);
        const c2d_vec2 b =
            v2(c2d_rng_range(&rng, -1, 1) * where, c2d_rng_range(&rng, -1, 1) * where);
        const float rb = c2d_rng_range(&rng, 0.01f, 1) * scale,
                    ra = c2d_rng_range(&rng, 0.01f, 1) * scale;
        const c2d_vec2 d = c2d_rng_direction(&rng);
        /* the gap as a share of the radius sum: deep, near touching, or a few ulps apart */
        const float share = i % 3 == 0   ? c2d_rng_range(&rng, 0.0f, 1.0f)
                            : i % 3 == 1 ? 1.0f - ldexpf(c2d_rng_range(&rng, 0, 1), -20)
                                         : c2d_rng_range(&rng, 0.999f, 1.0f);
        const float gap = (ra + rb) * share;
        const c2d_circle a = circle(b.x + d.x * gap, b.y + d.y * gap, ra);
        const c2d_vec2 move = v2(-d.x * (ra + rb), -d.y * (ra + rb));
        c2d_toi ball, cap;
        const bool hit_ball = c2d_sweep_circles(a, move, circle(b.x, b.y, rb), v2(0, 0), &ball);
        const bool hit_cap =
            c2d_sweep_circle_capsule(a, move, capsule(b.x, b.y, b.x, b.y, rb), &cap);
        assert_int_equal(hit_ball, hit_cap);
        if (!hit_ball || ball.t != 0.0f) continue;
        if (memcmp(&ball.normal, &cap.normal, sizeof ball.normal) != 0 ||
            memcmp(&ball.point, &cap.point, sizeof ball.point) != 0)
            fail_msg("ball a (%a, %a) r %a, b (%a, %a) r %a: normal (%a, %a) point (%a, %a), "
                     "as a capsule (%a, %a) (%a, %a)",
                     (double)a.center.x, (double)a.center.y, (double)ra, (double)b.x, (double)b.y,
                     (double)rb, (double)ball.normal.x, (double)ball.normal.y, (double)ball.point.x,
                     (double)ball.point.y, (double)cap.normal.x, (double)cap.normal.y,
                     (double)cap.point.x, (double)cap.point.y);
    }
}

/* A circle that starts touching a capsule's side (to the float precision of its position) and
 * moves straight through it must be stopped at (or right after) the start: touching counts,
 * and the capsule sweep promises no tunnelling. */
static void capsule_touching_start_moving_in_minimal(void **state) {
    (void)state;
    /* Segment (0,0)-(4,3), circle radius 1 centred at distance 1 from its middle, to the
     * nearest float: c2d_overlap_circle_segment reports the touch. The move (1.2, -1.6) is
     * along the inward normal and takes the circle right through the segment. */
    const c2d_capsule k = capsule(0, 0, 4, 3, 0);
    const c2d_segment s = {k.a, k.b};
    const c2d_circle c = circle(0x1.666586p+0f, 0x1.266612p+1f, 1.0f);
    assert_true(c2d_overlap_circle_segment(c, s));
    assert_true(c2d_overlap_circle_capsule(c, k));
    c2d_toi t;
    assert_true(c2d_sweep_circle_capsule(c, v2(1.2f, -1.6f), k, &t));
    assert_true(t.t <= 1e-6f);
}

static void capsule_touching_start_moving_in_many(void **state) {
    (void)state;
    c2d_rng rng = {UINT64_C(0x70c4)};
    int missed = 0;
    for (int i = 0; i < 4000; i++) {
        const c2d_vec2 a = v2(c2d_rng_range(&rng, -50, 50), c2d_rng_range(&rng, -50, 50));
        const c2d_vec2 d = c2d_rng_direction(&rng);
        const float len = c2d_rng_range(&rng, 0.5f, 5), R = c2d_rng_range(&rng, 0, 0.5f);
        const float r = c2d_rng_range(&rng, 0.05f, 0.25f), s = c2d_rng_range(&rng, 0.2f, 0.8f);
        const c2d_capsule k = capsule(a.x, a.y, a.x + d.x * len, a.y + d.y * len, R);
        /* The centre at distance r + R from the axis' middle part, rounded to float. */
        const double ux = (double)k.b.x - k.a.x, uy = (double)k.b.y - k.a.y;
        const double ul = sqrt(ux * ux + uy * uy), nx = -uy / ul, ny = ux / ul;
        const double rs = (double)r + R;
        const c2d_circle c =
            circle((float)(k.a.x + s * ux + nx * rs), (float)(k.a.y + s * uy + ny * rs), r);
        const c2d_vec2 move = v2((float)(-nx * 2.0 * rs), (float)(-ny * 2.0 * rs));
        c2d_toi t;
        if (!c2d_sweep_circle_capsule(c, move, k, &t) || !(t.t <= 1e-3f)) {
            if (missed < 3)
                print_error(
                    "no hit at the start: capsule (%a,%a)-(%a,%a) R %a, circle (%a,%a) r %a, "
                    "move (%a,%a), overlap %d\n",
                    (double)k.a.x, (double)k.a.y, (double)k.b.x, (double)k.b.y, (double)R,
                    (double)c.center.x, (double)c.center.y, (double)r, (double)move.x,
                    (double)move.y, (int)c2d_overlap_circle_capsule(c, k));
            missed++;
        }
    }
    if (missed) {
        print_error("%d of 4000 circles touching a capsule and moving through it got no hit\n",
                    missed);
        fail();
    }
}

/* Circle c touches capsule k: an overlap, and a sweep hit at t = 0 with this normal and point. */
static void touching_capsule_hits_at_0(c2d_circle c, c2d_vec2 move, c2d_capsule k, c2d_vec2 n,
                                       c2d_vec2 point) {
    c2d_toi t;
    assert_true(c2d_overlap_circle_capsule(c, k));
    assert_true(c2d_sweep_circle_capsule(c, move, k, &t));
    CHECK_FEQ(t.t, 0.0f);
    CHECK_VEC_EQ(t.normal, n.x, n.y);
    CHECK_VEC_EQ(t.point, point.x, point.y);
}

/* Touching counts, in the sweeps as in the overlap and contact queries: a circle exactly r+R
 * from the other shape at the start is a hit at t = 0 whatever its move (none, tangential,
 * outward), the same answer c2d_overlap_* gives, and c2d_collide_* reports depth 0 there. */
static void touching_at_start(void **state) {
    (void)state;
    /* outward, tangential both ways, none: no hit; inward: a hit at t = 0 */
    const c2d_vec2 leaving[] = {v2(0, 5), v2(5, 0), v2(-5, 0), v2(0, 0)};
    c2d_toi t;
    c2d_contact ct;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1);
    const c2d_capsule seg = capsule(0, 0, 10, 0, 0);
    for (size_t i = 0; i < sizeof leaving / sizeof leaving[0]; i++) {
        /* two circles, centres 2 apart, radii 1 and 1: touching (depth 0) */
        assert_true(c2d_collide_circles(circle(0, 2, 1), circle(0, 0, 1), &ct));
        CHECK_FEQ(ct.depth, 0.0f);
        assert_false(c2d_sweep_circles(circle(0, 2, 1), leaving[i], circle(0, 0, 1), v2(0, 0), &t));
        /* a capsule's side, its end circle, and a point on a segment (r = 0, R = 0), whose
         * normal is the axis' left perpendicular (0, 1) */
        assert_false(c2d_sweep_circle_capsule(circle(5, 2, 1), leaving[i], k, &t));
        assert_false(c2d_sweep_circle_capsule(circle(5, 0, 0), leaving[i], seg, &t));
    }
    /* the end circle at b: outward is +x there, tangential is +-y */
    const c2d_vec2 leaving_b[] = {v2(5, 0), v2(0, 5), v2(0, -5), v2(0, 0)};
    for (size_t i = 0; i < sizeof leaving_b / sizeof leaving_b[0]; i++)
        assert_false(c2d_sweep_circle_capsule(circle(12, 0, 1), leaving_b[i], k, &t));
    /* Moving in, even slightly: t = 0 with the contact query's normal and point. */
    assert_true(c2d_sweep_circles(circle(0, 2, 1), v2(5, -0.001f), circle(0, 0, 1), v2(0, 0), &t));
    CHECK_FEQ(t.t, 0.0f);
    CHECK_VEC_EQ(t.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(t.point, 0.0f, 1.0f);
    touching_capsule_hits_at_0(circle(5, 2, 1), v2(5, -0.001f), k, v2(0, 1), v2(5, 1));
    touching_capsule_hits_at_0(circle(12, 0, 1), v2(-1, 3), k, v2(1, 0), v2(11, 0));
    touching_capsule_hits_at_0(circle(5, 0, 0), v2(1, -1), seg, v2(0, 1), v2(5, 0));
    /* A hair apart (1 ulp of 2) is apart: no hit moving away or along. */
    assert_false(
        c2d_sweep_circles(circle(0, 0x1.000002p+1f, 1), v2(5, 0), circle(0, 0, 1), v2(0, 0), &t));
    assert_false(c2d_sweep_circle_capsule(circle(5, 0x1.000002p+1f, 1), v2(5, 0), k, &t));
}

/* The sweep and the contact query agree about the start: wherever the sweep reports t = 0 the
 * contact query's normal is the sweep's, and the move goes deeper along it. Also where the
 * double feature times call a start "a hair inside" that the float overlap test calls apart
 * (a circle pushed out to touching): the sweep still uses the direction rule, so a ball pushed
 * out by c2d_collide_circle_capsule()'s depth and moving away is never stopped. */
static void pushed_out_balls_leave(void **state) {
    (void)state;
    c2d_rng rng = {0x9e5e7};
    int hair_inside = 0;
    for (int i = 0; i < 20000; i++) {
        const c2d_vec2 a = v2(c2d_rng_range(&rng, 0, 100), c2d_rng_range(&rng, 0, 100));
        const c2d_vec2 d = c2d_rng_direction(&rng);
        const float len = c2d_rng_range(&rng, 0, 5), R = c2d_rng_range(&rng, 0, 0.5f);
        const c2d_capsule k = capsule(a.x, a.y, a.x + d.x * len, a.y + d.y * len, R);
        const float r = c2d_rng_range(&rng, 0.05f, 0.25f);
        /* a centre overlapping the capsule, pushed out along the contact */
        const float along = len * c2d_rng_unit(&rng);
        const float off_x = c2d_rng_range(&rng, -1, 1) * (r + R);
        const float off_y = c2d_rng_range(&rng, -1, 1) * (r + R);
        const c2d_vec2 near = v2(a.x + d.x * along + off_x, a.y + d.y * along + off_y);
        c2d_contact ct;
        if (!c2d_collide_circle_capsule(circle(near.x, near.y, r), k, &ct)) continue;
        const c2d_circle c =
            circle(near.x + ct.normal.x * ct.depth, near.y + ct.normal.y * ct.depth, r);
        const bool touching = c2d_overlap_circle_capsule(c, k);
        /* the contact query's normal at the new start (it does not depend on the radius, so a
         * slightly larger circle gives it whether or not the float test still says touching) */
        c2d_contact now;
        assert_true(
            c2d_collide_circle_capsule(circle(c.center.x, c.center.y, r * 1.01f + 1e-6f), k, &now));
        const c2d_vec2 n = now.normal, tan = v2(-n.y, n.x);
        /* move away (outward, with a tangential part) or along the surface */
        const float out = c2d_rng_range(&rng, 0, 2);
        const float side = c2d_rng_range(&rng, -3, 3);
        const c2d_vec2 move = v2(n.x * out + tan.x * side, n.y * out + tan.y * side);
        c2d_toi t;
        const bool hit = c2d_sweep_circle_capsule(c, move, k, &t);
        if (hit && t.t == 0.0f) { /* only a move that goes deeper, with the contact's normal */
            assert_true((double)move.x * n.x + (double)move.y * n.y < 0.0);
            CHECK_VEC_NEAR(t.normal, n.x, n.y, 1e-4);
        }
        /* A move with a clear outward part never stops at the start. */
        if (out > 0.01f) assert_false(hit && t.t == 0.0f);
        if (!touching) {
            c2d_toi probe;
            hair_inside +=
                c2d_sweep_circle_capsule(c, v2(-n.x, -n.y), k, &probe) && probe.t == 0.0f;
        }
    }
    /* the case the rule has to cover: apart in float, t = 0 in double */
    print_message("# pushed out, apart in float, t = 0 in double: %d\n", hair_inside);
    assert_true(hair_inside > 0);
}

/* The documented range (query.h): distances and radii below about 2^-75 count as touching
 * (the float squares underflow), in the overlap and contact queries and, deciding the start
 * by the same test, in the sweeps: far tiny shapes agree on a hit at t = 0. */
static void underflow_counts_as_touching_everywhere(void **state) {
    (void)state;
    const c2d_circle c = circle(0x1.6a09e6p-76f, 0, 0x1p-100f);
    const c2d_capsule k = capsule(0, 0, 0, 0, 0x1p-100f);
    c2d_contact ct;
    c2d_toi t;
    assert_true(c2d_overlap_circle_capsule(c, k));
    assert_true(c2d_collide_circle_capsule(c, k, &ct));
    CHECK_FEQ(ct.depth, 0x1p-99f);
    /* in contact at the start: moving in is a hit at t = 0, moving out is none */
    assert_true(c2d_sweep_circle_capsule(c, v2(-1, 0), k, &t));
    CHECK_FEQ(t.t, 0.0f);
    assert_false(c2d_sweep_circle_capsule(c, v2(1, 0), k, &t));
    const c2d_circle b = circle(0, 0, 0x1p-100f);
    assert_true(c2d_overlap_circles(c, b));
    assert_true(c2d_sweep_circles(c, v2(-1, 0), b, v2(0, 0), &t));
    CHECK_FEQ(t.t, 0.0f);
    assert_false(c2d_sweep_circles(c, v2(1, 0), b, v2(0, 0), &t));
    /* Above the range, at 2^-60, the same shapes are apart everywhere. */
    const c2d_circle far = circle(0x1p-60f, 0, 0x1p-100f);
    assert_false(c2d_overlap_circle_capsule(far, k));
    assert_false(c2d_sweep_circle_capsule(far, v2(1, 0), k, &t));
    assert_false(c2d_sweep_circles(far, v2(1, 0), b, v2(0, 0), &t));
}

/* c2d_slide_move: worked examples, then the property the loop relies on on random moves and
 * normals, including the normals of real sweep hits at t = 0: the result's part along the
 * normal is >= 0 exactly (the sweeps' own sign test), and it is the projection to within a few
 * float roundings. */
static void slide_move_removes_the_inward_part(void **state) {
    (void)state;
    c2d_vec2 s = c2d_slide_move(v2(3, -4), v2(0, 1)); /* into a floor: slide along it */
    CHECK_VEC_EQ(s, 3.0f, 0.0f);
    s = c2d_slide_move(v2(3, 4), v2(0, 1)); /* leaving: as it is */
    CHECK_VEC_EQ(s, 3.0f, 4.0f);
    s = c2d_slide_move(v2(5, 0), v2(0, 1)); /* along: as it is */
    CHECK_VEC_EQ(s, 5.0f, 0.0f);
    s = c2d_slide_move(v2(-2, 0), v2(1, 0)); /* straight in: nothing left */
    CHECK_VEC_EQ(s, 0.0f, 0.0f);
    s = c2d_slide_move(v2(NAN, 1), v2(0, -1)); /* NaN: as it is */
    assert_true(s.x != s.x && s.y == 1.0f);
    /* subnormal moves (the fuzzer's case): the push starts at the smallest float */
    const c2d_vec2 tiny_n = v2(-0x1.f26f36p-99f, -1.0f);
    s = c2d_slide_move(v2(0x1.714p-138f, 0x1.2e2p-137f), tiny_n);
    assert_true((double)s.x * tiny_n.x + (double)s.y * tiny_n.y >= 0.0);
    c2d_rng rng = {0x511de};
    int pushed = 0, hits = 0;
    for (int i = 0; i < 200000; i++) {
        c2d_vec2 n = c2d_rng_direction(&rng), m;
        const float len = c2d_rng_range(&rng, 0, 100);
        const c2d_vec2 d = c2d_rng_direction(&rng);
        m = v2(d.x * len, d.y * len);
        const bool from_sweep = i % 4 == 0;
        c2d_capsule k = {{0, 0}, {0, 0}, 0};
        c2d_circle c = {{0, 0}, 0};
        if (from_sweep) { /* a sweep's normal at t = 0, from a circle pushing into a capsule */
            const c2d_vec2 a = v2(c2d_rng_range(&rng, -100, 100), c2d_rng_range(&rng, -100, 100));
            k = capsule(a.x, a.y, a.x + d.x * 3, a.y - d.y * 2, 0.3f);
            c = circle(a.x + 1.0f, a.y + 0.2f, 0.4f);
            c2d_toi t;
            if (!c2d_sweep_circle_capsule(c, m, k, &t) || t.t != 0.0f) continue;
            n = t.normal;
            hits++;
        }
        const double into = (double)m.x * n.x + (double)m.y * n.y;
        s = c2d_slide_move(m, n);
        const double left = (double)s.x * n.x + (double)s.y * n.y;
        assert_true(left >= 0.0);
        if (into >= 0.0) {
            assert_true(s.x == m.x && s.y == m.y);
            continue;
        }
        /* the projection, to within a few ulps of the move */
        const double px = m.x - into * n.x, py = m.y - into * n.y;
        assert_true(fabs(s.x - px) <= 1e-6 * (len + 1) && fabs(s.y - py) <= 1e-6 * (len + 1));
        pushed += (float)px != s.x || (float)py != s.y;
        if (from_sweep) { /* the next sweep along the slid move is not stopped at t = 0 */
            c2d_toi again;
            assert_false(c2d_sweep_circle_capsule(c, s, k, &again) && again.t == 0.0f);
        }
    }
    print_message("# slide: %d of the inward moves needed the outward push; %d sweep normals\n",
                  pushed, hits);
    assert_true(pushed > 0 && hits > 1000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(circles_head_on),
        cmocka_unit_test(circles_both_moving),
        cmocka_unit_test(circles_overlap_at_start),
        cmocka_unit_test(circles_no_hit_cases),
        cmocka_unit_test(circles_touch_exactly_at_t1),
        cmocka_unit_test(circles_start_near_contact),
        cmocka_unit_test(circles_fast_small),
        cmocka_unit_test(circles_long_move_small_radii),
        cmocka_unit_test(capsule_side_hit),
        cmocka_unit_test(capsule_end_cap_hit),
        cmocka_unit_test(capsule_overlap_at_start),
        cmocka_unit_test(capsule_no_hit_cases),
        cmocka_unit_test(capsule_touch_exactly_at_t1),
        cmocka_unit_test(capsule_start_near_contact),
        cmocka_unit_test(capsule_fast_ball_no_tunnelling),
        cmocka_unit_test(capsule_end_long_move_small_radii),
        cmocka_unit_test(capsule_zero_length_is_a_circle),
        cmocka_unit_test(circles_start_hit_is_the_zero_length_capsules),
        cmocka_unit_test(capsule_touching_start_moving_in_minimal),
        cmocka_unit_test(capsule_touching_start_moving_in_many),
        cmocka_unit_test(touching_at_start),
        cmocka_unit_test(pushed_out_balls_leave),
        cmocka_unit_test(slide_move_removes_the_inward_part),
        cmocka_unit_test(underflow_counts_as_touching_everywhere),
    };
    return C2D_RUN_TESTS(tests);
}
