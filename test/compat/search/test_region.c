/* Region queries and point picking (collide2d/search.h): worked examples of
 * c2d_overlap_box_capsule(), its agreement with a double reference built another way (the
 * distance from the axis to the box's edges), and every batch query and scene query against
 * the scalar loop (query-major, then shape index) on every backend, with the count, capacity,
 * truncation and size-query rules; random, touching, special and every tail length. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "batch_check.h"
#include "dref.h"
#include "region_check.h"

static c2d_box box_of(float lx, float ly, float hx, float hy) {
    return (c2d_box){{lx, ly}, {hx, hy}};
}
static c2d_capsule cap_of(float ax, float ay, float bx, float by, float R) {
    return (c2d_capsule){{ax, ay}, {bx, by}, R};
}

static void worked_box(void **state) {
    (void)state;
    const c2d_box unit = box_of(0.0f, 0.0f, 1.0f, 1.0f);
    /* an end circle touching the right edge exactly, and one a hair short */
    assert_true(c2d_overlap_box_capsule(unit, cap_of(3.0f, 0.5f, 5.0f, 0.5f, 2.0f)));
    assert_false(c2d_overlap_box_capsule(unit, cap_of(3.0f, 0.5f, 5.0f, 0.5f, 1.999f)));
    /* the axis crossing the box with both ends outside, radius 0 */
    assert_true(c2d_overlap_box_capsule(unit, cap_of(-5.0f, 0.5f, 5.0f, 0.5f, 0.0f)));
    /* the axis through the corner (1, 1) exactly */
    assert_true(c2d_overlap_box_capsule(unit, cap_of(2.0f, 0.0f, 0.0f, 2.0f, 0.0f)));
    /* the axis x + y = 2.01: the corner (1, 1) is 0.00707 away */
    assert_false(c2d_overlap_box_capsule(unit, cap_of(2.01f, 0.0f, 0.0f, 2.01f, 0.005f)));
    assert_true(c2d_overlap_box_capsule(unit, cap_of(2.01f, 0.0f, 0.0f, 2.01f, 0.008f)));
    /* a capsule holding the whole box; a box holding the whole capsule */
    assert_true(c2d_overlap_box_capsule(unit, cap_of(-9.0f, 0.0f, 9.0f, 0.0f, 50.0f)));
    assert_true(c2d_overlap_box_capsule(box_of(-9, -9, 9, 9), cap_of(0, 0, 1, 1, 0.5f)));
    /* a point box on the surface, inside, outside */
    assert_true(c2d_overlap_box_capsule(box_of(5, 1, 5, 1), cap_of(0, 0, 10, 0, 1.0f)));
    assert_true(c2d_overlap_box_capsule(box_of(5, 0, 5, 0), cap_of(0, 0, 10, 0, 1.0f)));
    assert_false(c2d_overlap_box_capsule(box_of(5, 1.01f, 5, 1.01f), cap_of(0, 0, 10, 0, 1.0f)));
    /* empty boxes, NaN, negative radius */
    assert_false(c2d_overlap_box_capsule(box_of(1, 0, 0, 1), cap_of(0, 0, 1, 1, 5.0f)));
    assert_false(c2d_overlap_box_capsule(box_of(NAN, 0, 1, 1), cap_of(0, 0, 1, 1, 5.0f)));
    assert_false(c2d_overlap_box_capsule(unit, cap_of(0, NAN, 1, 1, 5.0f)));
    assert_false(c2d_overlap_box_capsule(unit, cap_of(0, 0, 1, 1, -1.0f)));
    assert_false(c2d_overlap_box_capsule(unit, cap_of(0, 0, 1, 1, NAN)));
    /* circles: the corner distance */
    const c2d_circle c = {{2.0f, 2.0f}, 1.4142f}, d = {{2.0f, 2.0f}, 1.4143f};
    assert_false(c2d_overlap_box_circle(unit, c));
    assert_true(c2d_overlap_box_circle(unit, d));
    assert_true(c2d_overlap_box_circle(unit, (c2d_circle){{0.5f, 0.5f}, 0.0f}));
    /* a zero-length capsule is the circle */
    assert_true(c2d_overlap_box_capsule(unit, cap_of(2, 2, 2, 2, 1.4143f)));
    assert_false(c2d_overlap_box_capsule(unit, cap_of(2, 2, 2, 2, 1.4142f)));
}

/* The distance from segment a-b to the box, another way: 0 when an end is inside, else the
 * smallest distance to the box's four edges (segments). */
static double ref_box_distance(c2d_box b, c2d_capsule k) {
    const dvec a = dvec_of(k.a), e = dvec_of(k.b);
    for (int i = 0; i < 2; i++) {
        const dvec p = i ? e : a;
        if (p.x >= b.lo.x && p.x <= b.hi.x && p.y >= b.lo.y && p.y <= b.hi.y) return 0.0;
    }
    const dvec c[4] = {dvec_make(b.lo.x, b.lo.y), dvec_make(b.hi.x, b.lo.y),
                       dvec_make(b.hi.x, b.hi.y), dvec_make(b.lo.x, b.hi.y)};
    double best = INFINITY;
    for (int i = 0; i < 4; i++) {
        const double d = dref_dist_segments(a, e, c[i], c[(i + 1) % 4]);
        best = d < best ? d : best;
    }
    return best;
}

static void box_properties(void **state) {
    (void)state;
    c2d_rng rng = {0xb0c5};
    size_t yes = 0, no = 0;
    for (int i = 0; i < 300000; i++) {
        const float x = c2d_rng_range(&rng, -10.0f, 10.0f), y = c2d_rng_range(&rng, -10.0f, 10.0f);
        const c2d_box b = box_of(x, y, x + c2d_rng_range(&rng, 0.0f, 6.0f) * (i % 7 != 0),
                                 y + c2d_rng_range(&rng, 0.0f, 6.0f) * (i % 5 != 0));
        c2d_capsule k =
            cap_of(c2d_rng_range(&rng, -12.0f, 12.0f), c2d_rng_range(&rng, -12.0f, 12.0f),
                   c2d_rng_range(&rng, -12.0f, 12.0f), c2d_rng_range(&rng, -12.0f, 12.0f),
                   c2d_rng_range(&rng, 0.0f, 3.0f));
        if (i % 9 == 0) k.b = k.a;
        const double d = ref_box_distance(b, k);
        const bool got = c2d_overlap_box_capsule(b, k);
        if (d < k.radius - 1e-9) assert_true(got);
        if (d > k.radius + 1e-9) assert_false(got);
        yes += got, no += !got;
        if (k.a.x == k.b.x && k.a.y == k.b.y) {
            const c2d_circle c = {k.a, k.radius};
            assert_true(c2d_overlap_box_circle(b, c) == got);
        }
    }
    assert_true(yes > 30000 && no > 30000);
}

/* ---- batch and scene against the scalar loops -------------------------------------------- */

static const random_spec board = {40.0f, 0.1f, 1.0f, 3.0f, 0.0f, 6.0f, 0.0f, 1.0f};

static void queries_random(void **state) {
    (void)state;
    c2d_rng rng = {0x9e61};
    scene s;
    scene_init(&s, 400, 300, LAYOUT_OFFSET);
    fill_random(&s, &rng, &board);
    queries q;
    queries_init(&q, 300);
    random_queries(&q, &rng, 40.0f, 5.0f);
    assert_true(check_queries(&q, &s, "random") > 1000);
    /* a few huge queries: every capsule, the scene's all-capsules path */
    random_queries(&q, &rng, 40.0f, 200.0f);
    assert_true(check_queries(&q, &s, "large") > 10000);
    queries_free(&q);
    scene_free(&s);
}

/* Queries touching shapes exactly: boxes whose edge lies on a capsule's extreme (an end plus
 * its radius), discs whose radius is the distance to an end (a few ulps either way), points
 * on ends and axes; then special values in everything. */
static void queries_touching(void **state) {
    (void)state;
    static const float offsets[] = {0.0f, 1e4f, -3e7f};
    for (size_t o = 0; o < 3; o++) {
        c2d_rng rng = {0x70c + o};
        scene s;
        scene_init(&s, 300, 60, LAYOUT_GUARDED);
        fill_near_touch(&s, &rng, offsets[o], -offsets[o], 3.0f);
        queries q;
        queries_init(&q, 400);
        for (size_t i = 0; i < q.n; i++) {
            const size_t k = c2d_rng_next(&rng) % s.m;
            const int ulps = (int)(i % 5) - 2;
            const float ex = i % 2 ? s.ax[k] : s.bx[k], ey = i % 2 ? s.ay[k] : s.by[k];
            const float w = c2d_rng_range(&rng, 0.0f, 4.0f);
            switch (i % 4) {
            case 0: /* left edge on the capsule's right extreme */
                q.x[i] = ulp_step(ex + s.R[k], ulps), q.hx[i] = q.x[i] + w;
                q.y[i] = ey - w, q.hy[i] = ey + w;
                break;
            case 1: /* bottom edge on the top extreme, a point box */
                q.x[i] = q.hx[i] = ex;
                q.y[i] = q.hy[i] = ulp_step(ey + s.R[k], ulps);
                break;
            case 2: /* a disc reaching an end's surface */
                q.x[i] = ex + w, q.y[i] = ey;
                q.hx[i] = q.x[i], q.hy[i] = q.y[i];
                break;
            default: /* on the axis */
                q.x[i] = q.hx[i] = s.ax[k] + 0.5f * (s.bx[k] - s.ax[k]);
                q.y[i] = q.hy[i] = s.ay[k] + 0.5f * (s.by[k] - s.ay[k]);
                break;
            }
            q.r[i] = ulp_step(i % 4 == 2 ? w - s.R[k] : s.R[k] * 0.5f, ulps);
            if (q.r[i] < 0.0f) q.r[i] = 0.0f;
        }
        char label[64];
        snprintf(label, sizeof label, "touching at offset %g", (double)offsets[o]);
        assert_true(check_queries(&q, &s, label) > 300);
        for (size_t i = 0; i < q.n; i += 3) { /* special values in the queries too */
            q.x[i] = special_value(&rng, false);
            q.hy[i] = special_value(&rng, false);
            q.r[i + 1 < q.n ? i + 1 : i] = special_value(&rng, false);
        }
        sprinkle_special(&s, &rng, 6, true, true, false);
        snprintf(label, sizeof label, "special values at offset %g", (double)offsets[o]);
        check_queries(&q, &s, label);
        queries_free(&q);
        scene_free(&s);
    }
}

/* Every query count 0 .. 40, and shape counts around them. */
static void queries_tails(void **state) {
    (void)state;
    c2d_rng rng = {0x7a12};
    for (size_t n = 0; n <= 40; n++) {
        scene s;
        scene_init(&s, (n * 7) % 41, n, LAYOUT_GUARDED);
        fill_random(&s, &rng, &board);
        queries q;
        queries_init(&q, n);
        random_queries(&q, &rng, 40.0f, 8.0f);
        char label[48];
        snprintf(label, sizeof label, "%zu queries", n);
        check_queries(&q, &s, label);
        queries_free(&q);
        scene_free(&s);
    }
}

/* The W5 board's pins: explosions, selection boxes and mouse points over the board. */
static void queries_w5(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 512, 1024, C2D_W5_UNIFORM, C2D_WORKLOAD_SEED), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    c2d_rng rng = {0x5a};
    queries q;
    queries_init(&q, 500);
    for (size_t i = 0; i < q.n; i++) {
        const size_t k = c2d_rng_next(&rng) % s.n;
        q.x[i] = s.x[k], q.y[i] = s.y[k];
        q.hx[i] = q.x[i] + c2d_rng_range(&rng, 0.0f, 30.0f);
        q.hy[i] = q.y[i] + c2d_rng_range(&rng, 0.0f, 30.0f);
        q.r[i] = c2d_rng_range(&rng, 0.0f, 20.0f);
    }
    assert_true(check_queries(&q, &s, "W5") > 1000);
    queries_free(&q);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* W1's generator with 1,024 circles (256 capsules, C2D_WORKLOAD_SEED): boxes from each centre to
 * the centre plus (4r, 2r), discs of radius 3r, points at the centres, against the capsules and the
 * circles: FNV-1a-64 over the six pair lists in turn (box, disc, point; capsules, then
 * circles), one value on every backend and architecture: 3,541 pairs. */
#define GOLDEN_QUERIES_HASH UINT64_C(0x6e6f2428136ea2b3)

static void queries_golden(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_make(&w, 1024, 256, C2D_WORKLOAD_SEED), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    queries q;
    queries_init(&q, s.n);
    for (size_t i = 0; i < q.n; i++) {
        q.x[i] = s.x[i], q.y[i] = s.y[i];
        q.hx[i] = s.x[i] + 4.0f * s.r[i], q.hy[i] = s.y[i] + 2.0f * s.r[i];
        q.r[i] = 3.0f * s.r[i];
    }
    uint64_t hash = C2D_FNV_OFFSET;
    size_t total = 0;
    for (int kind = Q_BOX; kind <= Q_POINT; kind++)
        for (int circles = 0; circles < 2; circles++) {
            c2d_query_pair *want;
            const size_t n = ref_query((query_kind)kind, &q, &s, circles, &want);
            hash = c2d_fnv1a(hash, want, n * sizeof *want);
            total += n;
            free(want);
        }
    printf("# queries golden: 0x%016llx, %zu pairs\n", (unsigned long long)hash, total);
    assert_true(hash == GOLDEN_QUERIES_HASH);
    check_queries(&q, &s, "golden W1 queries");
    queries_free(&q);
    scene_free(&s);
    c2d_workload_free(&w);
}

static void query_statuses(void **state) {
    (void)state;
    const float v[2] = {0.0f, 1.0f};
    const c2d_box_soa boxes = {v, v, v + 1, v + 1, 1, NULL, NULL};
    const c2d_circle_soa discs = {v, v, v + 1, 1, NULL, NULL};
    const c2d_point_soa points = {v, v, 1, NULL, NULL};
    const c2d_capsule_soa caps = {v, v, v + 1, v + 1, v + 1, 1, NULL, NULL, NULL};
    c2d_query_pair out[2];
    size_t count = 5;
    assert_int_equal(c2d_batch_query_box_capsules(&boxes, &caps, out, 2, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_batch_query_box_capsules(NULL, &caps, out, 2, &count), C2D_ERROR_NULL);
    assert_int_equal(count, 0);
    count = 5;
    assert_int_equal(c2d_batch_query_box_capsules(&boxes, NULL, out, 2, &count), C2D_ERROR_NULL);
    assert_int_equal(count, 0);
    count = 5;
    assert_int_equal(c2d_batch_query_disc_circles(&discs, &discs, NULL, 2, &count), C2D_ERROR_NULL);
    assert_int_equal(count, 0);
    c2d_box_soa bad = boxes;
    bad.hi_y = NULL;
    assert_int_equal(c2d_batch_query_box_circles(&bad, &discs, out, 2, &count), C2D_ERROR_NULL);
    c2d_point_soa bad_points = points;
    bad_points.y = NULL;
    assert_int_equal(c2d_batch_query_point_capsules(&bad_points, &caps, out, 2, &count),
                     C2D_ERROR_NULL);
    /* discs with a NULL radius are not points: NULL */
    c2d_circle_soa bad_discs = discs;
    bad_discs.radius = NULL;
    assert_int_equal(c2d_batch_query_disc_capsules(&bad_discs, &caps, out, 2, &count),
                     C2D_ERROR_NULL);
    /* no queries: NULL arrays fine */
    const c2d_box_soa none = {NULL, NULL, NULL, NULL, 0, NULL, NULL};
    assert_int_equal(c2d_batch_query_box_capsules(&none, &caps, NULL, 0, &count), C2D_OK);
    assert_int_equal(count, 0);
    /* the answer: the unit box meets the capsule (0,0)-(1,1) */
    assert_int_equal(c2d_batch_query_box_capsules(&boxes, &caps, out, 2, &count), C2D_OK);
    assert_true(count == 1 && out[0].query == 0 && out[0].shape == 0);
    assert_int_equal(c2d_batch_query_point_circles(&points, &discs, NULL, 0, &count), C2D_OK);
    assert_int_equal(count, 1);
    assert_int_equal(c2d_batch_query_point_circles(&points, &discs, out, 0, &count),
                     C2D_ERROR_TRUNCATED);
    assert_int_equal(count, 1);
    if (SIZE_MAX > UINT32_MAX) {
        c2d_box_soa huge = boxes;
        huge.count = (size_t)UINT32_MAX + 1;
        count = 5;
        assert_int_equal(c2d_batch_query_box_capsules(&huge, &caps, out, 2, &count),
                         C2D_ERROR_TOO_LARGE);
        assert_int_equal(count, 0);
        c2d_capsule_soa lots = caps;
        lots.count = (size_t)UINT32_MAX + 1;
        assert_int_equal(c2d_batch_query_box_capsules(&boxes, &lots, out, 2, &count),
                         C2D_ERROR_TOO_LARGE);
        c2d_circle_soa many = discs;
        many.count = (size_t)UINT32_MAX + 1;
        assert_int_equal(c2d_batch_query_disc_circles(&discs, &many, out, 2, &count),
                         C2D_ERROR_TOO_LARGE);
        assert_int_equal(c2d_scene_query_disc(NULL, &many, out, 2, &count), C2D_ERROR_NULL);
    }
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&caps, NULL, &sc), C2D_OK);
    count = 5;
    assert_int_equal(c2d_scene_query_box(NULL, &boxes, out, 2, &count), C2D_ERROR_NULL);
    assert_int_equal(count, 0);
    assert_int_equal(c2d_scene_query_box(sc, NULL, out, 2, &count), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_query_point(sc, &bad_points, out, 2, &count), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_query_disc(sc, &discs, out, 2, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_query_point(sc, &points, out, 2, &count), C2D_OK);
    assert_true(count == 1 && out[0].shape == 0);
    c2d_scene_destroy(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_box),     cmocka_unit_test(box_properties),
        cmocka_unit_test(queries_random), cmocka_unit_test(queries_touching),
        cmocka_unit_test(queries_tails),  cmocka_unit_test(queries_w5),
        cmocka_unit_test(query_statuses), cmocka_unit_test(queries_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
