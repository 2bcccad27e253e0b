/* c2d_batch_sweep on every available backend: for each circle the earliest
 * c2d_sweep_circle_capsule() hit over all capsules (ties to the lowest capsule index; no hit:
 * capsule C2D_NONE and an all-zero toi), byte for byte, for random moves, zero moves, grazing
 * paths (+-ulps), huge and NaN/Inf moves, special values, every tail length, and more
 * capsules than one 256-capsule chunk of the kernel. */
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

static uint32_t below(c2d_rng *rng, uint32_t n) {
    return (uint32_t)(c2d_rng_next(rng) % n);
}

static void sweep_w1_like(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_make(&w, 1000, 64, C2D_WORKLOAD_SEED ^ 3), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    check_sweep(&s, "W3-like 1000x64");
    scene_free(&s);
    scene_from_workload(&s, &w, LAYOUT_OFFSET);
    check_sweep(&s, "W3-like 1000x64, misaligned");
    scene_free(&s);
    c2d_workload_free(&w);
}

static const random_spec dense_spec = {20.0f, 0.05f, 1.0f, 10.0f, 0.0f, 5.0f, 0.0f, 1.0f};

static void sweep_dense_long_moves(void **state) {
    (void)state;
    c2d_rng rng = {0x10e9};
    scene s;
    scene_init(&s, 700, 40, LAYOUT_OFFSET);
    fill_random(&s, &rng, &dense_spec);
    c2d_circle_toi *ref = xmalloc(s.n * sizeof *ref);
    ref_sweep(&s, ref);
    size_t hits = 0, at_start = 0;
    for (size_t i = 0; i < s.n; i++) {
        hits += ref[i].capsule != C2D_NONE;
        at_start += ref[i].capsule != C2D_NONE && ref[i].toi.t == 0.0f;
    }
    free(ref);
    assert_true(hits > s.n / 2 && hits - at_start > s.n / 4); /* many real sweeps */
    check_sweep(&s, "dense, long moves");
    scene_free(&s);
}

/* ---- grazing paths ----------------------------------------------------------------------- */

static void sweep_grazing(void **state) {
    (void)state;
    static const float offsets[] = {0.0f, 1e5f, -1e9f, 1e12f};
    static const float scales[] = {1.0f, 1e-3f, 1e3f};
    for (size_t o = 0; o < 4; o++)
        for (size_t k = 0; k < 3; k++) {
            c2d_rng rng = {0x96a2e + 10 * o + k};
            scene s;
            grazing_scene(&s, 1000, 12, o % 2 ? LAYOUT_OFFSET : LAYOUT_ALIGNED, &rng, offsets[o],
                          -offsets[o], scales[k]);
            char label[96];
            snprintf(label, sizeof label, "grazing paths at offset %g, scale %g",
                     (double)offsets[o], (double)scales[k]);
            check_sweep(&s, label);
            scene_free(&s);
        }
}

/* A tangent pass exactly at the radius sum is a hit; one ulp further out is none. */
static void sweep_grazing_exact(void **state) {
    (void)state;
    scene s;
    scene_init(&s, 9, 1, LAYOUT_ALIGNED);
    s.ax[0] = 0.0f, s.ay[0] = 0.0f, s.bx[0] = 10.0f, s.by[0] = 0.0f, s.R[0] = 0.5f;
    /* moving along -y past end a at x = -0.75 = -(r + R): tangent to the end circle, then
     * one ulp further out and one ulp closer */
    const float xs_a[3] = {-0.75f, nextafterf(-0.75f, -1.0f), nextafterf(-0.75f, 0.0f)};
    for (size_t k = 0; k < 3; k++)
        s.x[k] = xs_a[k], s.y[k] = 1.0f, s.r[k] = 0.25f, s.mx[k] = 0.0f, s.my[k] = -2.0f;
    /* straight down onto the side at the very end of the span, x = 10 +- 1 ulp */
    const float xs[3] = {10.0f, nextafterf(10.0f, 11.0f), nextafterf(10.0f, 9.0f)};
    for (size_t k = 0; k < 3; k++)
        s.x[3 + k] = xs[k], s.y[3 + k] = 5.0f, s.r[3 + k] = 0.25f, s.mx[3 + k] = 0.0f,
                s.my[3 + k] = -10.0f;
    /* ending exactly at the touch: from y = 1.75 down by 1 (t = 1), and 1 ulp short */
    const float ms[3] = {-1.0f, nextafterf(-1.0f, 0.0f), nextafterf(-1.0f, -2.0f)};
    for (size_t k = 0; k < 3; k++)
        s.x[6 + k] = 5.0f, s.y[6 + k] = 1.75f, s.r[6 + k] = 0.25f, s.mx[6 + k] = 0.0f,
                s.my[6 + k] = ms[k];
    c2d_circle_toi ref[9];
    ref_sweep(&s, ref);
    assert_int_equal(ref[0].capsule, 0); /* tangent: touching counts */
    assert_int_equal(ref[1].capsule, C2D_NONE);
    assert_int_equal(ref[2].capsule, 0);
    assert_int_equal(ref[6].capsule, 0);
    assert_true(ref[6].toi.t == 1.0f);
    assert_int_equal(ref[7].capsule, C2D_NONE);
    assert_int_equal(ref[8].capsule, 0);
    check_sweep(&s, "exact grazing");
    scene_free(&s);
}

/* ---- counts, layouts --------------------------------------------------------------------- */

static void sweep_every_count(void **state) {
    (void)state;
    for (size_t n = 0; n <= 70; n++) {
        const size_t m = n % 10 == 3 ? 0 : 1 + n % 7;
        char label[64];
        c2d_rng rng = {0x5e0c + n};
        scene s;
        scene_init(&s, n, m, LAYOUT_GUARDED);
        fill_random(&s, &rng, &dense_spec);
        snprintf(label, sizeof label, "dense, %zu circles, guarded", n);
        check_sweep(&s, label);
        scene_free(&s);

        grazing_scene(&s, n, m, LAYOUT_GUARDED, &rng, 0.0f, 0.0f, 1.0f);
        snprintf(label, sizeof label, "grazing, %zu circles, guarded", n);
        check_sweep(&s, label);
        scene t;
        scene_copy(&t, &s, LAYOUT_OFFSET);
        sprinkle_tame(&t, &rng, 8, true, true, true);
        snprintf(label, sizeof label, "tame specials, %zu circles, misaligned", n);
        check_sweep(&t, label);
        scene_free(&t);
        scene_copy(&t, &s, LAYOUT_GUARDED);
        sprinkle_special(&t, &rng, 8, true, true, true);
        snprintf(label, sizeof label, "specials, %zu circles, guarded", n);
        check_sweep(&t, label);
        scene_free(&t);
        scene_free(&s);
    }
}

static void sweep_large_counts(void **state) {
    (void)state;
    const size_t counts[] = {1000, 1023, 4099};
    for (size_t c = 0; c < 3; c++) {
        c2d_rng rng = {0x1a45 + c};
        scene s;
        grazing_scene(&s, counts[c], 8, c == 1 ? LAYOUT_GUARDED : LAYOUT_OFFSET, &rng, 0.0f, 0.0f,
                      1.0f);
        check_sweep(&s, "grazing, large count");
        scene_free(&s);
    }
}

/* ---- special moves ----------------------------------------------------------------------- */

static void sweep_zero_moves(void **state) {
    (void)state;
    c2d_rng rng = {0x2e40};
    scene s;
    scene_init(&s, 300, 12, LAYOUT_OFFSET);
    fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
    for (size_t i = 0; i < s.n; i++) {
        s.mx[i] = i % 3 == 1 ? -0.0f : 0.0f;
        s.my[i] = i % 3 == 2 ? -0.0f : 0.0f;
    }
    c2d_circle_toi *ref = xmalloc(s.n * sizeof *ref);
    ref_sweep(&s, ref);
    /* a zero move never goes deeper: no hit, even for the circles touching at the start */
    size_t touching = 0;
    for (size_t i = 0; i < s.n; i++) {
        assert_true(ref[i].capsule == C2D_NONE);
        for (size_t j = 0; j < s.m; j++)
            touching += c2d_overlap_circle_capsule(
                (c2d_circle){{s.x[i], s.y[i]}, s.r[i]},
                (c2d_capsule){{s.ax[j], s.ay[j]}, {s.bx[j], s.by[j]}, s.R[j]});
    }
    free(ref);
    assert_true(touching > 0);
    check_sweep(&s, "zero moves");
    scene_free(&s);
}

static void sweep_huge_moves(void **state) {
    (void)state;
    static const float sizes[] = {1e3f,           1e6f,  1e12f, 0x1p40f,
                                  0x1.000002p40f, 1e19f, 1e30f, FLT_MAX};
    c2d_rng rng = {0x4a6e};
    scene s;
    scene_init(&s, 400, 10, LAYOUT_ALIGNED);
    fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
    for (size_t i = 0; i < s.n; i++) {
        const float size = sizes[i % 8];
        const size_t j = below(&rng, (uint32_t)s.m);
        const c2d_vec2 d = c2d_rng_direction(&rng);
        switch ((i / 8) % 4) {
        case 0: /* from near the capsule, far away in a random direction */
            s.mx[i] = d.x * size, s.my[i] = d.y * size;
            break;
        case 1: /* from far away, straight through the capsule and beyond */
            s.x[i] = s.ax[j] + d.x * size, s.y[i] = s.ay[j] + d.y * size;
            s.mx[i] = -d.x * size * 1.5f, s.my[i] = -d.y * size * 1.5f;
            break;
        case 2: /* from far away, stopping short of it */
            s.x[i] = s.ax[j] + d.x * size, s.y[i] = s.ay[j] + d.y * size;
            s.mx[i] = -d.x * size * 0.5f, s.my[i] = -d.y * size * 0.5f;
            break;
        default: /* one huge component */
            s.mx[i] = i % 2 ? size : 0.5f, s.my[i] = i % 2 ? -0.5f : -size;
            break;
        }
    }
    check_sweep(&s, "huge moves");
    scene_free(&s);
}

static void sweep_nan_inf_moves(void **state) {
    (void)state;
    static const float bad[] = {NAN, -NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX};
    c2d_rng rng = {0x7a7};
    scene s;
    scene_init(&s, 300, 10, LAYOUT_GUARDED);
    fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
    for (size_t i = 0; i < s.n; i++) {
        const float v = bad[below(&rng, 6)];
        switch (i % 3) {
        case 0:
            s.mx[i] = v;
            break;
        case 1:
            s.my[i] = v;
            break;
        default:
            s.mx[i] = v, s.my[i] = bad[below(&rng, 6)];
            break;
        }
    }
    check_sweep(&s, "NaN and Inf moves");
    scene_free(&s);
}

static void sweep_special_values(void **state) {
    (void)state;
    for (unsigned seed = 0; seed < 8; seed++)
        for (unsigned flavour = 0; flavour < 5; flavour++) {
            c2d_rng rng = {0x5bad + 16 * seed + flavour};
            scene s;
            grazing_scene(&s, 67 + seed, 9 + seed % 4, seed % 2 ? LAYOUT_OFFSET : LAYOUT_GUARDED,
                          &rng, 0.0f, 0.0f, 1.0f);
            switch (flavour) {
            case 0:
                sprinkle_special(&s, &rng, 25, false, true, false);
                break;
            case 1:
                sprinkle_tame(&s, &rng, 15, true, true, true);
                break;
            case 2:
                sprinkle_special(&s, &rng, 15, true, false, false);
                break;
            case 3:
                sprinkle_special(&s, &rng, 12, true, true, true);
                break;
            default:
                sprinkle_special(&s, &rng, 30, false, false, true);
                break;
            }
            char label[96];
            snprintf(label, sizeof label, "special values, seed %u flavour %u", seed, flavour);
            check_sweep(&s, label);
            scene_free(&s);
        }
}

static void sweep_near_touch_scales(void **state) {
    (void)state;
    static const float offsets[] = {0.0f, 1e5f, -1e7f, 1e11f, 1e12f, 2e12f, 1e18f, 1e30f};
    static const float scales[] = {1.0f, 1e-3f, 1e-20f, 1e-40f, 1e6f};
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
        for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
            c2d_rng rng = {0x5ca1f + 100 * o + k};
            scene s;
            scene_init(&s, 150, 10, LAYOUT_ALIGNED);
            fill_near_touch(&s, &rng, offsets[o], -offsets[o], scales[k]);
            char label[96];
            snprintf(label, sizeof label, "near touch at offset %g, scale %g", (double)offsets[o],
                     (double)scales[k]);
            check_sweep(&s, label);
            scene_free(&s);
        }
}

/* ---- many capsules, ties ----------------------------------------------------------------- */

/* More capsules than one 256-capsule chunk, with copies of a capsule at 5, 261 and the last
 * index: ties go to the lowest index across chunks. */
static void sweep_many_capsules(void **state) {
    (void)state;
    const size_t ms[] = {256, 257, 300, 513};
    for (size_t c = 0; c < 4; c++) {
        const size_t m = ms[c];
        c2d_rng rng = {0x3a2 + c};
        scene s;
        scene_init(&s, 120, m, c % 2 ? LAYOUT_OFFSET : LAYOUT_ALIGNED);
        fill_random(&s, &rng, &dense_spec);
        const size_t copies[] = {261, m - 1};
        for (size_t k = 0; k < 2; k++) {
            const size_t j = copies[k];
            if (j >= m) continue;
            s.ax[j] = s.ax[5], s.ay[j] = s.ay[5], s.bx[j] = s.bx[5], s.by[j] = s.by[5];
            s.R[j] = s.R[5];
        }
        /* a quarter of the circles aimed at capsule 5 (and so at its copies) */
        for (size_t i = 0; i < s.n; i += 4) {
            s.x[i] = s.ax[5] + 3.0f, s.y[i] = s.ay[5] - 4.0f;
            s.mx[i] = (s.ax[5] + s.bx[5]) * 0.5f - s.x[i];
            s.my[i] = (s.ay[5] + s.by[5]) * 0.5f - s.y[i];
        }
        /* a few aimed at the last capsule only, from its far side */
        for (size_t i = 1; i < s.n; i += 16) {
            const size_t j = m - 2;
            s.x[i] = s.ax[j] - 1e-3f, s.y[i] = s.ay[j] + 1e-3f;
            s.mx[i] = 0.0f, s.my[i] = 0.0f;
        }
        c2d_circle_toi *ref = xmalloc(s.n * sizeof *ref);
        ref_sweep(&s, ref);
        size_t beyond_first_chunk = 0;
        for (size_t i = 0; i < s.n; i++) {
            assert_true(ref[i].capsule == C2D_NONE || ref[i].capsule != 261);
            beyond_first_chunk += ref[i].capsule != C2D_NONE && ref[i].capsule >= 256;
        }
        free(ref);
        assert_true(m < 300 || beyond_first_chunk > 0);
        char label[64];
        snprintf(label, sizeof label, "%zu capsules", m);
        check_sweep(&s, label);
        scene_free(&s);
    }
}

/* Identical capsules everywhere: every hit is a tie and goes to the lowest index. */
static void sweep_ties(void **state) {
    (void)state;
    scene s;
    scene_init(&s, 33, 600, LAYOUT_ALIGNED);
    for (size_t j = 0; j < s.m; j++) {
        const bool decoy = j % 3 == 0; /* a different capsule, hit later or never */
        s.ax[j] = decoy ? 50.0f : 0.0f, s.ay[j] = 0.0f;
        s.bx[j] = decoy ? 51.0f : 4.0f, s.by[j] = 0.0f;
        s.R[j] = 0.5f;
    }
    for (size_t i = 0; i < s.n; i++) {
        s.x[i] = (float)(i % 11) * 0.5f - 0.5f, s.y[i] = 3.0f + (float)(i % 3);
        s.r[i] = 0.25f;
        s.mx[i] = 0.0f, s.my[i] = i % 4 == 3 ? 0.0f : -8.0f;
    }
    c2d_circle_toi ref[33];
    ref_sweep(&s, ref);
    for (size_t i = 0; i < s.n; i++)
        assert_int_equal(ref[i].capsule, s.my[i] == 0.0f ? C2D_NONE : 1);
    check_sweep(&s, "ties");
    scene_free(&s);
}

/* ---- reduced cases of problems found by these tests --------------------------------------- */

/* A one-capsule scene of n copies of one circle, so the circle sits in every lane position. */
static void one_pair_scene(scene *s, size_t n, const float v[10]) {
    scene_init(s, n, 1, LAYOUT_ALIGNED);
    for (size_t i = 0; i < n; i++)
        s->x[i] = v[0], s->y[i] = v[1], s->r[i] = v[2], s->mx[i] = v[3], s->my[i] = v[4];
    s->ax[0] = v[5], s->ay[0] = v[6], s->bx[0] = v[7], s->by[0] = v[8], s->R[0] = v[9];
}

/* A NaN move component: no hit (query.h, since d6126e0), even for a circle that overlaps the
 * capsule at the start, and on every backend. Before d6126e0 the scalar layer reported t = 0
 * and the 4-lane kernels (SSE2, SSE4.1, NEON) dropped the lane: their "NaN or not tame" test
 * lane_not_le is simde_mm_cmpnle_ps, which SIMDe 0.7 implements as cmpgt (false on NaN). */
static void sweep_nan_move_overlapping_at_start(void **state) {
    (void)state;
    const float moves[][2] = {{NAN, 0.0f}, {0.0f, NAN}, {NAN, NAN}, {-NAN, 1.0f}};
    for (size_t k = 0; k < 4; k++) {
        /* circle (0,0) r 1 moving by the NaN move; capsule (0,0)-(1,0) R 1 */
        const float v[10] = {0.0f, 0.0f, 1.0f, moves[k][0], moves[k][1],
                             0.0f, 0.0f, 1.0f, 0.0f,        1.0f};
        scene s;
        one_pair_scene(&s, 19, v);
        c2d_circle_toi ref[19];
        ref_sweep(&s, ref);
        assert_int_equal(ref[0].capsule, C2D_NONE);
        check_sweep(&s, "NaN move, overlapping at the start");
        scene_free(&s);
    }
}

/* Large valid input (|values| <= 2e11, c2d_validate_* finds no defect) where the answer is "no
 * hit": b = v.s = -2e19, so the textbook discriminant b*b - (v.v)c overflowed to +inf and
 * gave t = c / inf = 0, a hit the culling boxes (rightly) dropped. Fixed in d6126e0 by the
 * (v.v)rs^2 - (v x s)^2 form; this guards it. (The same form still overflows when
 * (v.v)rs^2 does: test_sweep_extremes.c.) */
static void sweep_large_products(void **state) {
    (void)state;
    /* circle (0,0) r 1e11 moving (0, 1e8); point capsule at (0, 2e11): 1e11 apart after the
     * move */
    const float v[10] = {0.0f, 0.0f, 1e11f, 0.0f, 1e8f, 0.0f, 2e11f, 0.0f, 2e11f, 0.0f};
    scene s;
    one_pair_scene(&s, 5, v);
    const c2d_validation cv = c2d_validate_circles(&s.circles);
    const c2d_validation kv = c2d_validate_capsules(&s.capsules);
    assert_int_equal(cv.defect, C2D_DEFECT_NONE);
    assert_int_equal(kv.defect, C2D_DEFECT_NONE);
    c2d_circle_toi ref[5];
    ref_sweep(&s, ref);
    assert_int_equal(ref[0].capsule, C2D_NONE);
    check_sweep(&s, "sweep whose b*b overflows");
    scene_free(&s);
}

/* Random grazing scenes over the range of scales where the sweep's squares neither overflow
 * nor underflow (test_sweep_extremes.c covers the scales beyond). */
static void sweep_wide_scales(void **state) {
    (void)state;
    static const float scales[] = {1e-11f, 1e-9f, 1e-6f, 1e6f, 1e9f};
    for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
        c2d_rng rng = {0xe87e + k};
        scene s;
        grazing_scene(&s, 300, 10, LAYOUT_ALIGNED, &rng, 0.0f, 0.0f, scales[k]);
        char label[64];
        snprintf(label, sizeof label, "grazing paths at scale %g", (double)scales[k]);
        check_sweep(&s, label);
        scene_free(&s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_w1_like),
        cmocka_unit_test(sweep_dense_long_moves),
        cmocka_unit_test(sweep_grazing_exact),
        cmocka_unit_test(sweep_grazing),
        cmocka_unit_test(sweep_every_count),
        cmocka_unit_test(sweep_large_counts),
        cmocka_unit_test(sweep_zero_moves),
        cmocka_unit_test(sweep_huge_moves),
        cmocka_unit_test(sweep_nan_inf_moves),
        cmocka_unit_test(sweep_special_values),
        cmocka_unit_test(sweep_near_touch_scales),
        cmocka_unit_test(sweep_many_capsules),
        cmocka_unit_test(sweep_ties),
        cmocka_unit_test(sweep_nan_move_overlapping_at_start),
        cmocka_unit_test(sweep_large_products),
        cmocka_unit_test(sweep_wide_scales),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
