/* The W9 layouts and quality figures of the benchmark (bench/w9_layout.c, bench/w9_figures.c)
 * on hand-made cases whose answers are known, so the figures the peer and the world report are
 * proven: overlaps and their nearest-rank p99 (also against a brute-force count), touching,
 * energy, its largest rise and packing; W9b's grid and box as DESIGN.md section 15 fixes them,
 * and W9a's board equal to W7's (examples/pachinko.c, included as it is). */
#define PACHINKO_NO_MAIN
#include "../../examples/pachinko.c"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "w9_figures.h"
#include "w9_layout.h"
#include "workload.h"

#define PI 3.14159265358979323846

static w9_balls balls(const float *x, const float *y, const float *r, size_t n) {
    w9_balls b = {x, y, NULL, NULL, NULL, r, n};
    return b;
}

/* Three balls: A and B overlap by 0.1 (radius 1: 0.1), A and C by 0.1 (C's radius 0.5: 0.2),
 * B and C apart; a fourth ball D touches C within the tolerance (a pair, overlap 0) and a
 * fifth E is 0.01 (2% of D's radius) above D (no pair). */
static void overlap_three_balls(void **state) {
    (void)state;
    const float x[5] = {0.0f, 1.9f, 0.0f, 1.0f, 1.0f}, y[5] = {0.0f, 0.0f, 1.4f, 1.4f, 2.91f};
    const float r[5] = {1.0f, 1.0f, 0.5f, 0.5f, 1.0f};
    w9_figures *f = w9_figures_create();
    assert_non_null(f);
    w9_overlap o;
    w9_balls b = balls(x, y, r, 3);
    assert_int_equal(w9_overlaps(f, &b, &o), 0);
    assert_int_equal(o.pairs, 2);
    assert_float_equal(o.max, 0.2, 1e-5);
    assert_float_equal(o.p99, 0.2, 1e-5); /* rank ceil(0.99 * 2) = 2 */
    b = balls(x, y, r, 5);
    assert_int_equal(w9_overlaps(f, &b, &o), 0);
    assert_int_equal(o.pairs, 3); /* A-B, A-C, C-D (gap 0) ; D-E 0.01 apart: no */
    assert_float_equal(o.max, 0.2, 1e-5);
    w9_figures_destroy(f);
}

/* A chain of 101 balls of radius 1 whose k-th pair overlaps by k / 1000 (k = 1 .. 100): 100
 * pairs, max 0.1, nearest-rank p99 the 99th smallest, 0.099. */
static void overlap_percentile(void **state) {
    (void)state;
    float x[101], y[101], r[101];
    x[0] = 0.0f;
    for (int i = 0; i < 101; i++) {
        if (i > 0) x[i] = x[i - 1] + 2.0f - (float)i / 1000.0f;
        y[i] = 3.0f;
        r[i] = 1.0f;
    }
    w9_figures *f = w9_figures_create();
    assert_non_null(f);
    w9_overlap o;
    w9_balls b = balls(x, y, r, 101);
    assert_int_equal(w9_overlaps(f, &b, &o), 0);
    assert_int_equal(o.pairs, 100);
    assert_float_equal(o.max, 0.1, 1e-4);
    assert_float_equal(o.p99, 0.099, 1e-4);
    w9_figures_destroy(f);
}

/* 3,000 random balls (W9b's radii) in a 40 x 40 square: the grid finds exactly the pairs and
 * the largest overlap an all-pairs loop finds. */
static void overlap_brute_force(void **state) {
    (void)state;
    enum { N = 3000 };
    static float x[N], y[N], r[N];
    c2d_rng rng = {C2D_WORKLOAD_SEED};
    for (size_t i = 0; i < N; i++) {
        x[i] = c2d_rng_range(&rng, -20.0f, 20.0f);
        y[i] = c2d_rng_range(&rng, -20.0f, 20.0f);
        r[i] = c2d_rng_range(&rng, 0.4f, 0.6f);
    }
    size_t pairs = 0;
    double max = 0.0;
    for (size_t i = 0; i < N; i++)
        for (size_t j = i + 1; j < N; j++) {
            const double dx = (double)x[j] - x[i], dy = (double)y[j] - y[i];
            const double s = r[i] < r[j] ? r[i] : r[j];
            const double gap = sqrt(dx * dx + dy * dy) - r[i] - r[j];
            if (gap > (double)W9_TOUCH * s) continue;
            pairs++;
            if (-gap / s > max) max = -gap / s;
        }
    w9_figures *f = w9_figures_create();
    assert_non_null(f);
    w9_overlap o;
    w9_balls b = balls(x, y, r, N);
    assert_int_equal(w9_overlaps(f, &b, &o), 0);
    assert_true(pairs > 1000);
    assert_int_equal(o.pairs, pairs);
    assert_float_equal(o.max, max, 1e-12);
    w9_figures_destroy(f);
}

/* One w9_figures for a large set, then a small one (the world's mid-air check alternates the
 * pile and its sleeping part): the small set's grid is looked up with its own bucket count. */
static void overlap_reuse(void **state) {
    (void)state;
    enum { N = 3000 };
    static float x[N], y[N], r[N];
    c2d_rng rng = {C2D_WORKLOAD_SEED};
    for (size_t i = 0; i < N; i++) {
        x[i] = c2d_rng_range(&rng, -20.0f, 20.0f);
        y[i] = c2d_rng_range(&rng, -20.0f, 20.0f);
        r[i] = c2d_rng_range(&rng, 0.4f, 0.6f);
    }
    w9_figures *f = w9_figures_create();
    assert_non_null(f);
    w9_overlap o;
    w9_balls b = balls(x, y, r, N);
    assert_int_equal(w9_overlaps(f, &b, &o), 0);
    /* overlap_three_balls's five: A-B, A-C, C-D */
    const float x5[5] = {0.0f, 1.9f, 0.0f, 1.0f, 1.0f}, y5[5] = {0.0f, 0.0f, 1.4f, 1.4f, 2.91f};
    const float r5[5] = {1.0f, 1.0f, 0.5f, 0.5f, 1.0f};
    b = balls(x5, y5, r5, 5);
    assert_int_equal(w9_overlaps(f, &b, &o), 0);
    assert_int_equal(o.pairs, 3);
    assert_float_equal(o.max, 0.2, 1e-5);
    unsigned char touched[5] = {0, 0, 0, 0, 0};
    assert_int_equal(w9_mark_touching(f, &b, NULL, 0, touched), 4);
    w9_figures_destroy(f);
}

/* On the floor (a capsule), in the air alone, and two touching in the air. */
static void touching(void **state) {
    (void)state;
    const c2d_capsule floor = {{-1.0f, -1.0f}, {11.0f, -1.0f}, 1.0f};
    const float x[4] = {1.0f, 5.0f, 8.0f, 9.0f}, y[4] = {0.5f, 5.0f, 5.0f, 5.0f};
    const float r[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    unsigned char touched[4] = {0, 0, 0, 0};
    w9_figures *f = w9_figures_create();
    assert_non_null(f);
    w9_balls b = balls(x, y, r, 4);
    assert_int_equal(w9_mark_touching(f, &b, &floor, 1, touched), 3);
    assert_int_equal(touched[0], 1);
    assert_int_equal(touched[1], 0);
    assert_int_equal(touched[2] & touched[3], 1);
    const float y2[4] = {3.0f, 0.5f, 9.0f, 12.0f}; /* ball 1 lands; 0 stays marked */
    b = balls(x, y2, r, 4);
    assert_int_equal(w9_mark_touching(f, &b, &floor, 1, touched), 4);
    w9_figures_destroy(f);
}

/* Support by each ball's own radius: balls of radius 1 and 0.5 apart by 0.004 (within 0.005
 * of 1, not of 0.5): the large one is supported, the small one not, and the pair rule marks
 * neither; a third ball on the floor is supported by it. */
static void supported(void **state) {
    (void)state;
    const c2d_capsule floor = {{-1.0f, -1.0f}, {11.0f, -1.0f}, 1.0f};
    const float x[3] = {0.0f, 1.504f, 8.0f}, y[3] = {5.0f, 5.0f, 0.5f};
    const float r[3] = {1.0f, 0.5f, 0.5f};
    w9_figures *f = w9_figures_create();
    assert_non_null(f);
    w9_balls b = balls(x, y, r, 3);
    unsigned char touched[3] = {0, 0, 0};
    assert_int_equal(w9_mark_supported(f, &b, &floor, 1, touched), 2);
    assert_int_equal(touched[0], 1);
    assert_int_equal(touched[1], 0);
    assert_int_equal(touched[2], 1);
    unsigned char pair[3] = {0, 0, 0};
    assert_int_equal(w9_mark_touching(f, &b, &floor, 1, pair), 1);
    assert_int_equal(pair[0] | pair[1], 0);
    w9_figures_destroy(f);
}

/* r = 1, density 2: m = 2 pi, I = pi; v = (3, 4), w = 2, 2 above a floor at y = -1:
 * E = 25 pi + 2 pi + 2 pi * 10 * 3 = 87 pi. A second ball at rest on the floor's top adds 0. */
static void energy(void **state) {
    (void)state;
    const float x[2] = {0.0f, 5.0f}, y[2] = {2.0f, -1.0f}, vx[2] = {3.0f, 0.0f},
                vy[2] = {4.0f, 0.0f}, w[2] = {2.0f, 0.0f}, r[2] = {1.0f, 0.5f};
    w9_balls b = {x, y, vx, vy, w, r, 2};
    assert_float_equal(w9_energy(&b, 2.0f, -10.0f, -1.0f), 87.0 * PI, 1e-9);
    b.w = NULL;
    assert_float_equal(w9_energy(&b, 2.0f, -10.0f, -1.0f), 85.0 * PI, 1e-9);
}

/* E = 100, 50, 200, 100, 101, 100.5 with first = 2: rises at k = 2, 3, 4 count (-0.5, 0.01,
 * -0.00495); the larger rises before k = 2 do not. */
static void energy_rise(void **state) {
    (void)state;
    const double e[6] = {100.0, 50.0, 200.0, 100.0, 101.0, 100.5};
    w9_rise r;
    w9_rise_start(&r, 2);
    for (int k = 0; k < 6; k++)
        w9_rise_add(&r, e[k]);
    assert_int_equal(r.counted, 3);
    assert_float_equal(r.max, 0.01, 1e-12);
    assert_int_equal(r.max_at, 3);
}

/* A square grid of 4 x 5 balls of radius 0.5 at pitch 1 in a box 4 wide: the tops are 1 .. 5,
 * the 19th of 20 is 5, so packing = 20 pi / 4 / (4 x 5) = pi / 4 (square packing). */
static void packing(void **state) {
    (void)state;
    float x[20], y[20], r[20];
    for (int i = 0; i < 20; i++) {
        x[i] = 0.5f + (float)(i % 4);
        y[i] = 10.5f + (float)(i / 4);
        r[i] = 0.5f;
    }
    w9_figures *f = w9_figures_create();
    assert_non_null(f);
    w9_balls b = balls(x, y, r, 20);
    assert_float_equal(w9_packing(f, &b, 4.0f, 10.0f), PI / 4.0, 1e-9);
    /* one ball thrown high is in the top 5%: the 95th percentile ignores it */
    y[19] = 1000.0f;
    assert_float_equal(w9_packing(f, &b, 4.0f, 10.0f), PI / 4.0, 1e-9);
    w9_figures_destroy(f);
}

/* W9b as section 15 fixes it, at 2,500 balls: W = 55, 42 columns, the grid, the radii, the
 * box's inner faces and the walls' height. */
static void pile_layout(void **state) {
    (void)state;
    w9_layout l;
    assert_int_equal(w9_layout_pile(&l, 2500, W9B_PITCH), 0);
    assert_int_equal(l.n, 2500);
    assert_float_equal(l.width, 55.0, 1e-4);
    float top = 0.0f;
    for (size_t i = 0; i < l.n; i++) {
        assert_true(l.radius[i] >= 0.4f && l.radius[i] <= 0.6f);
        const float gx = 0.65f + 1.3f * (float)(i % 42), gy = 0.7f + 1.3f * (float)(i / 42);
        assert_true(fabsf(l.x[i] - gx) <= 0.0501f);
        assert_float_equal(l.y[i], gy, 1e-4);
        assert_true(l.x[i] - l.radius[i] > 0.0f && l.x[i] + l.radius[i] < l.width);
        if (l.y[i] > top) top = l.y[i];
    }
    assert_int_equal(l.m, 3);
    const c2d_capsule *k = l.capsules;
    assert_float_equal(k[0].a.y + k[0].radius, 0.0, 0.0); /* floor's top */
    assert_float_equal(k[1].a.x + k[1].radius, 0.0, 0.0); /* left wall's inner face */
    assert_float_equal(k[2].a.x - k[2].radius, l.width, 1e-5);
    assert_float_equal(k[1].b.y, top + 20.0f, 1e-4);
    assert_float_equal(k[2].b.y, top + 20.0f, 1e-4);
    assert_float_equal(l.density, 1.0, 0.0);
    assert_float_equal(l.friction, 0.6, 1e-7);
    assert_float_equal(l.restitution, 0.0, 0.0);
    w9_layout_free(&l);
}

/* W9a: W7's board (board_make) pin for pin and ball for ball, at both sizes' scales. */
static void board_layout(void **state) {
    (void)state;
    const size_t sizes[2] = {5000, 16384};
    for (int s = 0; s < 2; s++) {
        board b;
        w9_layout l;
        assert_int_equal(board_make(&b, sizes[s], 2463534242u), 0);
        assert_int_equal(w9_layout_board(&l, sizes[s]), 0);
        assert_int_equal(l.n, b.n);
        assert_int_equal(l.m, b.m);
        assert_true(l.width == b.width);
        for (size_t k = 0; k < l.m; k++) {
            assert_true(l.capsules[k].a.x == b.ax[k] && l.capsules[k].a.y == b.ay[k]);
            assert_true(l.capsules[k].b.x == b.bx[k] && l.capsules[k].b.y == b.by[k]);
            assert_true(l.capsules[k].radius == b.R[k]);
        }
        for (size_t i = 0; i < l.n; i++)
            assert_true(l.x[i] == b.x[i] && l.y[i] == b.y[i] && l.radius[i] == b.r[i]);
        w9_layout_free(&l);
        board_free(&b);
    }
}

int main(void) {
    (void)board_frame; /* the frame loop comes with the board; only the board is used */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(overlap_three_balls),
        cmocka_unit_test(overlap_percentile),
        cmocka_unit_test(overlap_brute_force),
        cmocka_unit_test(overlap_reuse),
        cmocka_unit_test(touching),
        cmocka_unit_test(supported),
        cmocka_unit_test(energy),
        cmocka_unit_test(energy_rise),
        cmocka_unit_test(packing),
        cmocka_unit_test(pile_layout),
        cmocka_unit_test(board_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
