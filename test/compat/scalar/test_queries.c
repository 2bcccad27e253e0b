/* Worked examples for the scalar queries: closest point, overlap, contacts, capsule_from_axis,
 * and the rule that `out` is written only on a hit. Every expected value here is worked out by
 * hand from the contract (include/collide2d/query.h, docs/design.md section 3) and chosen to be
 * exact in float wherever the test compares bits. */
#include "scalar_test.h"

/* ---- closest point on a segment ---------------------------------------------------------- */

static void closest_interior_projection(void **state) {
    (void)state;
    const c2d_segment s = segment(0.0f, 0.0f, 10.0f, 0.0f);
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(3.0f, 5.0f), s), 3.0f, 0.0f);
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(7.5f, -2.0f), s), 7.5f, 0.0f);
    /* A diagonal segment: (0,4) projects onto the middle of (0,0)-(4,4). */
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(0.0f, 4.0f), segment(0, 0, 4, 4)), 2.0f, 2.0f);
    /* A point on the segment is its own closest point. */
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(1.0f, 1.0f), segment(0, 0, 4, 4)), 1.0f, 1.0f);
}

static void closest_clamps_before_a(void **state) {
    (void)state;
    const c2d_segment s = segment(1.0f, 2.0f, 5.0f, 2.0f);
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(-4.0f, 7.0f), s), 1.0f, 2.0f);
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(0.0f, 2.0f), s), 1.0f, 2.0f);
}

static void closest_clamps_past_b(void **state) {
    (void)state;
    const c2d_segment s = segment(1.0f, 2.0f, 5.0f, 2.0f);
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(15.0f, -1.0f), s), 5.0f, 2.0f);
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(6.0f, 2.0f), s), 5.0f, 2.0f);
}

static void closest_zero_length_segment_gives_a(void **state) {
    (void)state;
    const c2d_segment s = segment(2.0f, 3.0f, 2.0f, 3.0f);
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(7.0f, 7.0f), s), 2.0f, 3.0f);
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(2.0f, 3.0f), s), 2.0f, 3.0f);
    CHECK_VEC_EQ(c2d_closest_point_on_segment(v2(-1e6f, 5e5f), s), 2.0f, 3.0f);
}

static void closest_nan_point_gives_an_endpoint(void **state) {
    (void)state;
    /* Documented: a NaN p gives an endpoint (the clamp sends NaN to 0, so a). */
    const c2d_segment s = segment(1.0f, 2.0f, 5.0f, 6.0f);
    const c2d_vec2 c = c2d_closest_point_on_segment(v2(NAN, 0.0f), s);
    assert_true((c.x == 1.0f && c.y == 2.0f) || (c.x == 5.0f && c.y == 6.0f));
}

/* ---- overlap ----------------------------------------------------------------------------- */

static void overlap_circles_touching_counts(void **state) {
    (void)state;
    /* |ca-cb| = 3 = 1 + 2 exactly. */
    assert_true(c2d_overlap_circles(circle(0, 0, 1), circle(3, 0, 2)));
    assert_true(c2d_overlap_circles(circle(0, 0, 1), circle(0, -3, 2)));
    /* 3-4-5 triangle: |d| = 5 = 2 + 3. */
    assert_true(c2d_overlap_circles(circle(1, 1, 2), circle(4, 5, 3)));
    /* One float step further apart: no longer touching. */
    assert_false(c2d_overlap_circles(circle(0, 0, 1), circle(nextafterf(3.0f, 4.0f), 0, 2)));
    assert_false(c2d_overlap_circles(circle(0, 0, 1), circle(3, 0.001f, 2)));
    assert_true(c2d_overlap_circles(circle(0, 0, 1), circle(2.5f, 0, 2)));
    assert_false(c2d_overlap_circles(circle(0, 0, 1), circle(10, 10, 2)));
}

static void overlap_circle_segment_touching_counts(void **state) {
    (void)state;
    const c2d_segment s = segment(0, 0, 10, 0);
    assert_true(c2d_overlap_circle_segment(circle(5, 1, 1), s)); /* side */
    assert_false(c2d_overlap_circle_segment(circle(5, nextafterf(1.0f, 2.0f), 1), s));
    assert_true(c2d_overlap_circle_segment(circle(13, 4, 5), s)); /* end, 3-4-5 */
    assert_false(c2d_overlap_circle_segment(circle(13, 4, nextafterf(5.0f, 0.0f)), s));
    assert_true(c2d_overlap_circle_segment(circle(5, 0, 0), s)); /* a point on the segment */
    /* Past the end but within the infinite line's band: the clamp matters. */
    assert_false(c2d_overlap_circle_segment(circle(12, 0.5f, 1), s));
}

static void overlap_capsule_is_segment_with_inflated_radius(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1.5f);
    const c2d_segment s = {k.a, k.b};
    /* Touching on the side: distance 2.5 = 1 + 1.5. */
    assert_true(c2d_overlap_circle_capsule(circle(4, 2.5f, 1), k));
    assert_false(c2d_overlap_circle_capsule(circle(4, nextafterf(2.5f, 3.0f), 1), k));
    /* Touching the end cap at b: (13,4)-(10,0) has length 5 = 3.5 + 1.5. */
    assert_true(c2d_overlap_circle_capsule(circle(13, 4, 3.5f), k));
    assert_false(c2d_overlap_circle_capsule(circle(13, nextafterf(4.0f, 5.0f), 3.5f), k));
    /* The same answers as the segment test on a circle inflated by R, on a grid of centres. */
    for (int i = -30; i <= 30; i++) {
        for (int j = -10; j <= 10; j++) {
            const float x = 0.5f * (float)i, y = 0.25f * (float)j;
            const c2d_circle c = circle(x, y, 0.75f);
            const c2d_circle inflated = circle(x, y, 0.75f + 1.5f);
            assert_int_equal(c2d_overlap_circle_capsule(c, k),
                             c2d_overlap_circle_segment(inflated, s));
        }
    }
}

static void point_in_capsule_boundary(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 0, 4, 1);
    assert_true(c2d_point_in_capsule(v2(1, 2), k));  /* on the side */
    assert_true(c2d_point_in_capsule(v2(0, 5), k));  /* on the cap at b */
    assert_true(c2d_point_in_capsule(v2(0, -1), k)); /* on the cap at a */
    assert_true(c2d_point_in_capsule(v2(0.5f, 3), k));
    assert_false(c2d_point_in_capsule(v2(nextafterf(1.0f, 2.0f), 2), k));
    assert_false(c2d_point_in_capsule(v2(0.8f, -0.8f), k)); /* 0.8^2 * 2 = 1.28 > 1 */
    assert_false(c2d_point_in_capsule(v2(0, 5.5f), k));
}

/* ---- contacts ---------------------------------------------------------------------------- */

static void contact_side_of_capsule(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1);
    c2d_contact c;
    assert_true(c2d_collide_circle_capsule(circle(4, 1.5f, 1), k, &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 0.5f);
    CHECK_VEC_EQ(c.point, 4.0f, 1.0f);
    /* The other side: the normal flips, still toward the circle. */
    assert_true(c2d_collide_circle_capsule(circle(7, -1.75f, 1), k, &c));
    CHECK_VEC_EQ(c.normal, 0.0f, -1.0f);
    CHECK_FEQ(c.depth, 0.25f);
    CHECK_VEC_EQ(c.point, 7.0f, -1.0f);
    /* A vertical capsule. */
    assert_true(c2d_collide_circle_capsule(circle(-2, 3, 1.5f), capsule(0, 0, 0, 8, 1), &c));
    CHECK_VEC_EQ(c.normal, -1.0f, 0.0f);
    CHECK_FEQ(c.depth, 0.5f);
    CHECK_VEC_EQ(c.point, -1.0f, 3.0f);
}

static void contact_end_caps(void **state) {
    (void)state;
    const c2d_capsule k = capsule(0, 0, 10, 0, 1);
    c2d_contact c;
    /* Straight past b. */
    assert_true(c2d_collide_circle_capsule(circle(12, 0, 1.5f), k, &c));
    CHECK_VEC_EQ(c.normal, 1.0f, 0.0f);
    CHECK_FEQ(c.depth, 0.5f);
    CHECK_VEC_EQ(c.point, 11.0f, 0.0f);
    /* Straight before a. */
    assert_true(c2d_collide_circle_capsule(circle(-2.5f, 0, 2), k, &c));
    CHECK_VEC_EQ(c.normal, -1.0f, 0.0f);
    CHECK_FEQ(c.depth, 0.5f);
    CHECK_VEC_EQ(c.point, -1.0f, 0.0f);
    /* Diagonally off b: offset (3, 4), distance 5, normal (0.6, 0.8). */
    assert_true(c2d_collide_circle_capsule(circle(13, 4, 4.5f), k, &c));
    CHECK_VEC_NEAR(c.normal, 0.6, 0.8, 1e-7);
    CHECK_NEAR(c.depth, 0.5, 1e-6);
    CHECK_VEC_NEAR(c.point, 10.6, 0.8, 2e-6);
    /* Diagonally off a: offset (-4, -3). */
    assert_true(c2d_collide_circle_capsule(circle(-4, -3, 4.5f), k, &c));
    CHECK_VEC_NEAR(c.normal, -0.8, -0.6, 1e-7);
    CHECK_NEAR(c.depth, 0.5, 1e-6);
    CHECK_VEC_NEAR(c.point, -0.8, -0.6, 1e-6);
}

static void contact_centre_on_axis_uses_left_perpendicular(void **state) {
    (void)state;
    c2d_contact c;
    /* Axis (0,0)->(10,0): left perpendicular (0, 1). Depth is r + R. */
    assert_true(c2d_collide_circle_capsule(circle(5, 0, 1), capsule(0, 0, 10, 0, 0.5f), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 1.5f);
    CHECK_VEC_EQ(c.point, 5.0f, 0.5f);
    /* The reversed axis (10,0)->(0,0): (0, -1). */
    assert_true(c2d_collide_circle_capsule(circle(5, 0, 1), capsule(10, 0, 0, 0, 0.5f), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, -1.0f);
    CHECK_VEC_EQ(c.point, 5.0f, -0.5f);
    /* Axis (0,0)->(0,10): left perpendicular (-10, 0)/10 = (-1, 0). */
    assert_true(c2d_collide_circle_capsule(circle(0, 3, 1), capsule(0, 0, 0, 10, 2), &c));
    CHECK_VEC_EQ(c.normal, -1.0f, 0.0f);
    CHECK_FEQ(c.depth, 3.0f);
    CHECK_VEC_EQ(c.point, -2.0f, 3.0f);
    /* Axis (0,0)->(4,3), centre at its middle (2,1.5): (-3, 4)/5. */
    assert_true(c2d_collide_circle_capsule(circle(2, 1.5f, 1), capsule(0, 0, 4, 3, 1), &c));
    CHECK_VEC_NEAR(c.normal, -0.6, 0.8, 1e-7);
    CHECK_FEQ(c.depth, 2.0f);
    CHECK_VEC_NEAR(c.point, 1.4, 2.3, 1e-6);
    /* Centre exactly on an endpoint of the axis: distance 0, so the same rule applies. */
    assert_true(c2d_collide_circle_capsule(circle(10, 0, 1), capsule(0, 0, 10, 0, 0.5f), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    /* A segment is a capsule of radius 0: same normal, point on the axis. */
    assert_true(c2d_collide_circle_segment(circle(3, 0, 1), segment(0, 0, 10, 0), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 1.0f);
    CHECK_VEC_EQ(c.point, 3.0f, 0.0f);
}

static void contact_segment(void **state) {
    (void)state;
    c2d_contact c;
    assert_true(c2d_collide_circle_segment(circle(4, 0.75f, 1), segment(0, 0, 10, 0), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 0.25f);
    CHECK_VEC_EQ(c.point, 4.0f, 0.0f);
    /* Touching counts: a hit with depth 0. */
    assert_true(c2d_collide_circle_segment(circle(4, 1, 1), segment(0, 0, 10, 0), &c));
    CHECK_FEQ(c.depth, 0.0f);
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    /* The segment contact equals the capsule contact with R = 0, byte for byte. */
    c2d_contact k;
    assert_true(c2d_collide_circle_capsule(circle(11, 0.5f, 2), capsule(0, 0, 10, 0, 0), &k));
    assert_true(c2d_collide_circle_segment(circle(11, 0.5f, 2), segment(0, 0, 10, 0), &c));
    assert_memory_equal(&c, &k, sizeof c);
}

static void contact_circles(void **state) {
    (void)state;
    c2d_contact c;
    /* b at (1,1) radius 2, a at (4,5) radius 4: |d| = 5, depth 1, normal (0.6, 0.8). */
    assert_true(c2d_collide_circles(circle(4, 5, 4), circle(1, 1, 2), &c));
    CHECK_VEC_NEAR(c.normal, 0.6, 0.8, 1e-7);
    CHECK_NEAR(c.depth, 1.0, 1e-6);
    CHECK_VEC_NEAR(c.point, 2.2, 2.6, 1e-6);
    /* Axis-aligned, exact. */
    assert_true(c2d_collide_circles(circle(0, 0, 1), circle(1.5f, 0, 1), &c));
    CHECK_VEC_EQ(c.normal, -1.0f, 0.0f);
    CHECK_FEQ(c.depth, 0.5f);
    CHECK_VEC_EQ(c.point, 0.5f, 0.0f);
    /* Touching: hit with depth 0. */
    assert_true(c2d_collide_circles(circle(0, 3, 1), circle(0, 0, 2), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 0.0f);
    CHECK_VEC_EQ(c.point, 0.0f, 2.0f);
    assert_false(c2d_collide_circles(circle(0, 3.5f, 1), circle(0, 0, 2), &c));
}

static void contact_coincident_centres_normal_up(void **state) {
    (void)state;
    c2d_contact c;
    assert_true(c2d_collide_circles(circle(2, -3, 1), circle(2, -3, 0.5f), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 1.5f);
    CHECK_VEC_EQ(c.point, 2.0f, -2.5f);
    /* Zero radii too: two points at the same place touch. */
    assert_true(c2d_collide_circles(circle(0, 0, 0), circle(0, 0, 0), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 0.0f);
}

static void contact_zero_length_capsule_is_a_circle(void **state) {
    (void)state;
    const c2d_capsule k = capsule(1, 1, 1, 1, 1);
    c2d_contact c, d;
    assert_true(c2d_collide_circle_capsule(circle(3, 1, 1.5f), k, &c));
    CHECK_VEC_EQ(c.normal, 1.0f, 0.0f);
    CHECK_FEQ(c.depth, 0.5f);
    CHECK_VEC_EQ(c.point, 2.0f, 1.0f);
    assert_true(c2d_collide_circles(circle(3, 1, 1.5f), circle(1, 1, 1), &d));
    assert_memory_equal(&c, &d, sizeof c);
    /* Diagonal, compared with the circle-circle answer. */
    assert_true(c2d_collide_circle_capsule(circle(2, 2.5f, 1), k, &c));
    assert_true(c2d_collide_circles(circle(2, 2.5f, 1), circle(1, 1, 1), &d));
    assert_memory_equal(&c, &d, sizeof c);
    /* Centre on the point: normal (0, 1). */
    assert_true(c2d_collide_circle_capsule(circle(1, 1, 0.5f), k, &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 1.5f);
    CHECK_VEC_EQ(c.point, 1.0f, 2.0f);
    /* Far away: no hit, and the boolean queries agree. */
    assert_false(c2d_collide_circle_capsule(circle(5, 5, 1), k, &c));
    assert_false(c2d_overlap_circle_capsule(circle(5, 5, 1), k));
    assert_false(c2d_overlap_circle_capsule(circle(3.5f, 1, 1.4f), k));
    assert_true(c2d_overlap_circle_capsule(circle(3.5f, 1, 1.5f), k)); /* touching */
    /* A zero-length segment is a point. */
    assert_true(c2d_collide_circle_segment(circle(1, 3, 2), segment(1, 1, 1, 1), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 0.0f);
    CHECK_VEC_EQ(c.point, 1.0f, 1.0f);
}

static void contact_agrees_with_overlap(void **state) {
    (void)state;
    /* collide_* returns true exactly when the matching overlap_* does, on a grid. */
    const c2d_capsule k = capsule(-1.5f, 0.5f, 2.0f, -1.0f, 0.75f);
    const c2d_segment s = {k.a, k.b};
    const c2d_circle b = circle(0.25f, -0.5f, 1.25f);
    for (int i = -40; i <= 40; i++) {
        for (int j = -40; j <= 40; j++) {
            const c2d_circle c = circle(0.1f * (float)i, 0.1f * (float)j, 0.5f);
            c2d_contact out;
            assert_int_equal(c2d_collide_circle_capsule(c, k, &out),
                             c2d_overlap_circle_capsule(c, k));
            assert_int_equal(c2d_collide_circle_segment(c, s, &out),
                             c2d_overlap_circle_segment(c, s));
            assert_int_equal(c2d_collide_circles(c, b, &out), c2d_overlap_circles(c, b));
        }
    }
}

/* ---- out handling ------------------------------------------------------------------------ */

static void out_untouched_on_miss(void **state) {
    (void)state;
    c2d_contact c, pattern;
    memset(&pattern, C2D_SENTINEL_BYTE, sizeof pattern);
    memcpy(&c, &pattern, sizeof c);
    assert_false(c2d_collide_circles(circle(0, 0, 1), circle(5, 0, 1), &c));
    assert_memory_equal(&c, &pattern, sizeof c);
    assert_false(c2d_collide_circle_segment(circle(0, 2, 1), segment(-1, 0, 1, 0), &c));
    assert_memory_equal(&c, &pattern, sizeof c);
    assert_false(c2d_collide_circle_capsule(circle(0, 3, 1), capsule(-1, 0, 1, 0, 1.5f), &c));
    assert_memory_equal(&c, &pattern, sizeof c);
    /* Negative radius and NaN: misses too, out untouched. */
    assert_false(c2d_collide_circle_capsule(circle(0, 0, -1), capsule(-1, 0, 1, 0, 1), &c));
    assert_memory_equal(&c, &pattern, sizeof c);
    assert_false(c2d_collide_circles(circle(0, NAN, 1), circle(0, 0, 1), &c));
    assert_memory_equal(&c, &pattern, sizeof c);

    c2d_toi t, tpattern;
    memset(&tpattern, C2D_SENTINEL_BYTE, sizeof tpattern);
    memcpy(&t, &tpattern, sizeof t);
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(0, 1), circle(5, 0, 1), v2(0, 1), &t));
    assert_memory_equal(&t, &tpattern, sizeof t);
    assert_false(c2d_sweep_circle_capsule(circle(0, 5, 1), v2(1, 0), capsule(-1, 0, 1, 0, 1), &t));
    assert_memory_equal(&t, &tpattern, sizeof t);
    assert_false(c2d_sweep_circle_capsule(circle(0, 5, 1), v2(0, -2), capsule(-1, 0, 1, 0, 1), &t));
    assert_memory_equal(&t, &tpattern, sizeof t);
}

static void out_written_on_hit_and_may_be_null(void **state) {
    (void)state;
    c2d_contact c;
    memset(&c, C2D_SENTINEL_BYTE, sizeof c);
    assert_true(c2d_collide_circle_capsule(circle(4, 1.5f, 1), capsule(0, 0, 10, 0, 1), &c));
    CHECK_FEQ(c.depth, 0.5f); /* every field was written */
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_VEC_EQ(c.point, 4.0f, 1.0f);
    /* NULL out: the same answer, no crash. */
    assert_true(c2d_collide_circle_capsule(circle(4, 1.5f, 1), capsule(0, 0, 10, 0, 1), NULL));
    assert_false(c2d_collide_circle_capsule(circle(4, 5, 1), capsule(0, 0, 10, 0, 1), NULL));
    assert_true(c2d_collide_circle_segment(circle(4, 0.5f, 1), segment(0, 0, 10, 0), NULL));
    assert_false(c2d_collide_circle_segment(circle(4, 5, 1), segment(0, 0, 10, 0), NULL));
    assert_true(c2d_collide_circles(circle(0, 0, 1), circle(1, 0, 1), NULL));
    assert_false(c2d_collide_circles(circle(0, 0, 1), circle(3, 0, 1), NULL));
    assert_true(c2d_sweep_circles(circle(0, 0, 1), v2(4, 0), circle(5, 0, 1), v2(0, 0), NULL));
    assert_false(c2d_sweep_circles(circle(0, 0, 1), v2(1, 0), circle(5, 0, 1), v2(0, 0), NULL));
    assert_true(
        c2d_sweep_circle_capsule(circle(0, 5, 1), v2(0, -4), capsule(-1, 0, 1, 0, 1), NULL));
    assert_false(
        c2d_sweep_circle_capsule(circle(0, 5, 1), v2(0, -1), capsule(-1, 0, 1, 0, 1), NULL));
}

/* ---- capsule_from_axis ------------------------------------------------------------------- */

static void capsule_from_axis_endpoints(void **state) {
    (void)state;
    c2d_capsule k = c2d_capsule_from_axis(v2(1, 0), v2(1, 0), 2.0f, 0.5f);
    CHECK_VEC_EQ(k.a, 0.0f, 0.0f);
    CHECK_VEC_EQ(k.b, 2.0f, 0.0f);
    CHECK_FEQ(k.radius, 0.5f);
    k = c2d_capsule_from_axis(v2(3, -2), v2(0, -1), 6.0f, 1.25f);
    CHECK_VEC_EQ(k.a, 3.0f, 1.0f);
    CHECK_VEC_EQ(k.b, 3.0f, -5.0f);
    CHECK_FEQ(k.radius, 1.25f);
    /* A diagonal axis: centre -/+ (0.6, 0.8) * 5. */
    k = c2d_capsule_from_axis(v2(1, 2), v2(0.6f, 0.8f), 10.0f, 0.5f);
    CHECK_VEC_NEAR(k.a, -2.0, -2.0, 1e-6);
    CHECK_VEC_NEAR(k.b, 4.0, 6.0, 1e-6);
    /* The axis is used as given, not normalised: (2, 0) * 1/2 on each side. */
    k = c2d_capsule_from_axis(v2(0, 0), v2(2, 0), 1.0f, 0.0f);
    CHECK_VEC_EQ(k.a, -1.0f, 0.0f);
    CHECK_VEC_EQ(k.b, 1.0f, 0.0f);
    CHECK_FEQ(k.radius, 0.0f);
    /* Length 0: a circle at the centre. */
    k = c2d_capsule_from_axis(v2(7, 8), v2(0.6f, 0.8f), 0.0f, 2.0f);
    CHECK_VEC_EQ(k.a, 7.0f, 8.0f);
    CHECK_VEC_EQ(k.b, 7.0f, 8.0f);
    /* The usage example of collide2d.h: the ball touches the pin from above. */
    k = c2d_capsule_from_axis(v2(1, 0), v2(1, 0), 2.0f, 0.5f);
    c2d_contact c;
    assert_true(c2d_collide_circle_capsule(circle(1.0f, 0.5f, 0.25f), k, &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    CHECK_FEQ(c.depth, 0.25f);
    CHECK_VEC_EQ(c.point, 1.0f, 0.5f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(closest_interior_projection),
        cmocka_unit_test(closest_clamps_before_a),
        cmocka_unit_test(closest_clamps_past_b),
        cmocka_unit_test(closest_zero_length_segment_gives_a),
        cmocka_unit_test(closest_nan_point_gives_an_endpoint),
        cmocka_unit_test(overlap_circles_touching_counts),
        cmocka_unit_test(overlap_circle_segment_touching_counts),
        cmocka_unit_test(overlap_capsule_is_segment_with_inflated_radius),
        cmocka_unit_test(point_in_capsule_boundary),
        cmocka_unit_test(contact_side_of_capsule),
        cmocka_unit_test(contact_end_caps),
        cmocka_unit_test(contact_centre_on_axis_uses_left_perpendicular),
        cmocka_unit_test(contact_segment),
        cmocka_unit_test(contact_circles),
        cmocka_unit_test(contact_coincident_centres_normal_up),
        cmocka_unit_test(contact_zero_length_capsule_is_a_circle),
        cmocka_unit_test(contact_agrees_with_overlap),
        cmocka_unit_test(out_untouched_on_miss),
        cmocka_unit_test(out_written_on_hit_and_may_be_null),
        cmocka_unit_test(capsule_from_axis_endpoints),
    };
    return C2D_RUN_TESTS(tests);
}
