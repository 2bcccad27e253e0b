/* c2d_batch_collide and c2d_batch_collide_pairs on every available backend: the same bytes as
 * a loop over c2d_collide_circle_capsule(), in the documented order, for random, dense and
 * adversarial scenes, every tail length, misaligned and guard-paged arrays; truncation,
 * index errors, NULL arrays and oversized counts. */
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

/* ---- c2d_batch_collide: equivalence ------------------------------------------------------ */

static void collide_w1_like(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_make(&w, 1000, 64, C2D_WORKLOAD_SEED ^ 1), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    check_collide(&s, "W1-like 1000x64");
    scene_free(&s);
    scene_from_workload(&s, &w, LAYOUT_OFFSET);
    check_collide(&s, "W1-like 1000x64, misaligned");
    scene_free(&s);
    c2d_workload_free(&w);
}

/* Many hits: small area, large radii. */
static const random_spec dense_spec = {10.0f, 0.1f, 1.5f, 2.0f, 0.0f, 5.0f, 0.0f, 1.0f};

static void collide_dense(void **state) {
    (void)state;
    const size_t counts[] = {1000, 4099};
    for (size_t c = 0; c < 2; c++) {
        c2d_rng rng = {0xd0e5e + c};
        scene s;
        scene_init(&s, counts[c], 24, LAYOUT_ALIGNED);
        fill_random(&s, &rng, &dense_spec);
        c2d_pair_contact *ref;
        const size_t total = ref_collide(&s, &ref);
        free(ref);
        assert_true(total > counts[c]); /* really dense */
        check_collide(&s, "dense");
        scene t;
        scene_copy(&t, &s, LAYOUT_OFFSET);
        check_collide(&t, "dense, misaligned");
        scene_free(&t);
        scene_free(&s);
    }
}

/* Every circle count 0..70 (every tail of 4, 8, 16 lanes and of the 2-vector unrolled loop),
 * with the arrays ending right before a guard page, and again misaligned. */
static void collide_every_count(void **state) {
    (void)state;
    for (size_t n = 0; n <= 70; n++) {
        const size_t m = n % 10 == 3 ? 0 : 1 + n % 7;
        char label[64];
        c2d_rng rng = {0xc0417 + n};
        scene s;
        scene_init(&s, n, m, LAYOUT_GUARDED);
        fill_random(&s, &rng, &dense_spec);
        snprintf(label, sizeof label, "dense, %zu circles, guarded", n);
        check_collide(&s, label);
        scene_free(&s);

        scene_init(&s, n, m, LAYOUT_GUARDED);
        fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
        snprintf(label, sizeof label, "near touch, %zu circles, guarded", n);
        check_collide(&s, label);
        scene t;
        scene_copy(&t, &s, LAYOUT_OFFSET);
        sprinkle_tame(&t, &rng, 10, true, true, false);
        snprintf(label, sizeof label, "tame specials, %zu circles, misaligned", n);
        check_collide(&t, label);
        scene_free(&t);
        scene_copy(&t, &s, LAYOUT_GUARDED);
        sprinkle_special(&t, &rng, 10, true, true, false);
        snprintf(label, sizeof label, "specials, %zu circles, guarded", n);
        check_collide(&t, label);
        scene_free(&t);
        scene_free(&s);
    }
}

static void collide_large_counts(void **state) {
    (void)state;
    const size_t counts[] = {1000, 1023, 4099};
    for (size_t c = 0; c < 3; c++) {
        c2d_rng rng = {0x1a4e + c};
        scene s;
        scene_init(&s, counts[c], 16, c == 1 ? LAYOUT_GUARDED : LAYOUT_OFFSET);
        fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
        check_collide(&s, "near touch, large count");
        scene_free(&s);
    }
}

/* Circles at the touching distance of capsules (+-2 ulps), on endpoints, midpoints and axes,
 * at many scales and offsets: the culling must never drop what the exact test accepts. */
static void collide_near_touch_scales(void **state) {
    (void)state;
    static const float offsets[] = {0.0f,  -37.5f, 1e5f,  -1e5f, 1e7f,  1e9f,  1e11f,
                                    1e12f, -1e12f, 2e12f, 1e15f, 1e18f, 1e19f, 1e30f};
    static const float scales[] = {1.0f, 1e-3f, 1e3f, 1e-20f, 1e-40f, 1e6f};
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
        for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++) {
            c2d_rng rng = {0x5ca1e + 100 * o + k};
            char label[96];
            snprintf(label, sizeof label, "near touch at offset %g, scale %g", (double)offsets[o],
                     (double)scales[k]);
            scene s;
            scene_init(&s, 200, 12, LAYOUT_ALIGNED);
            fill_near_touch(&s, &rng, offsets[o], offsets[o] * 0.5f, scales[k]);
            check_collide(&s, label);
            scene_free(&s);
        }
}

/* Special values: in capsules only with tame circles (the culled path), in circles (which
 * sends everything to the exact path), in both, tame ones only. */
static void collide_special_values(void **state) {
    (void)state;
    for (unsigned seed = 0; seed < 12; seed++) {
        for (unsigned flavour = 0; flavour < 5; flavour++) {
            c2d_rng rng = {0xbad0 + 16 * seed + flavour};
            char label[96];
            scene s;
            scene_init(&s, 67 + seed, 9 + seed % 4, seed % 2 ? LAYOUT_OFFSET : LAYOUT_GUARDED);
            fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
            switch (flavour) {
            case 0:
                sprinkle_special(&s, &rng, 25, false, true, false);
                break;
            case 1:
                sprinkle_tame(&s, &rng, 20, true, true, false);
                break;
            case 2:
                sprinkle_special(&s, &rng, 15, true, false, false);
                break;
            case 3:
                sprinkle_special(&s, &rng, 15, true, true, false);
                break;
            default:
                sprinkle_tame(&s, &rng, 5, true, false, false);
                sprinkle_special(&s, &rng, 30, false, true, false);
                break;
            }
            snprintf(label, sizeof label, "special values, seed %u flavour %u", seed, flavour);
            check_collide(&s, label);
            scene_free(&s);
        }
    }
}

/* Hand-made edge cases around one axis-aligned capsule (0,0)-(4,0), R = 0.5, and friends,
 * translated to several offsets. */
static void edge_scene(scene *s, float ox, float oy) {
    /* capsules */
    const float caps[][5] = {
        {0, 0, 4, 0, 0.5f},  /* horizontal */
        {1, 1, 1, 1, 0.5f},  /* zero length */
        {0, 0, 0, 4, 0.0f},  /* vertical, radius 0 (a segment) */
        {0, 0, 4, 0, -0.0f}, /* radius -0 */
        {0, 0, 4, 0, -0.5f}, /* negative radius: empty */
        {2, 2, 2, 2, 0.0f},  /* a point */
        {0, 0, 3, 4, 1.0f},  /* 3-4-5 diagonal */
    };
    const size_t m = sizeof caps / sizeof caps[0];
    /* circles: (x, y, r) before the ulp steps */
    const float circles[][3] = {
        {2, 0.75f, 0.25f}, {2, -0.75f, 0.25f}, {4.75f, 0, 0.25f}, {-0.75f, 0, 0.25f},
        {0, 0, 0.25f},     {4, 0, 0.25f},      {2, 0, 0.25f},     {2, 0, 0},
        {1, 1, 0},         {1, 1.5f, 0},       {1, 1.75f, 0.25f}, {1.5f, 1, 0},
        {0, 2, 0},         {0, 2, 0.25f},      {0.25f, 2, 0.25f}, {0, 4.5f, 0.5f},
        {2, 2, 0},         {2, 2.5f, 0.5f},    {1.5f, 2, 0},      {2, 0.5f, 0},
        {2, 0.5f, -0.0f},  {2, 0.5f, -0.25f},  {1.5f, 2, 1},      {-0.8f, 0.6f, 0},
        {3.8f, 4.6f, 0},   {1.5f, 2, 0},       {-4, 3, 4},        {2, 0.75f, 0.0f},
    };
    const size_t base = sizeof circles / sizeof circles[0];
    scene_init(s, base * 5, m, LAYOUT_ALIGNED);
    for (size_t j = 0; j < m; j++) {
        s->ax[j] = caps[j][0] + ox, s->ay[j] = caps[j][1] + oy;
        s->bx[j] = caps[j][2] + ox, s->by[j] = caps[j][3] + oy;
        s->R[j] = caps[j][4];
    }
    static const int steps[5][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (size_t v = 0; v < 5; v++)
        for (size_t i = 0; i < base; i++) {
            const size_t k = v * base + i;
            s->x[k] = ulp_step(circles[i][0] + ox, steps[v][0]);
            s->y[k] = ulp_step(circles[i][1] + oy, steps[v][1]);
            s->r[k] = circles[i][2];
        }
}

static void collide_edge_cases(void **state) {
    (void)state;
    static const float offsets[][2] = {{0, 0},          {1e5f, 0},  {0, -1e5f},    {1e9f, 1e9f},
                                       {1e12f, -1e12f}, {1e19f, 0}, {1e30f, 1e30f}};
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
        scene s;
        edge_scene(&s, offsets[o][0], offsets[o][1]);
        char label[96];
        snprintf(label, sizeof label, "edge cases at (%g, %g)", (double)offsets[o][0],
                 (double)offsets[o][1]);
        check_collide(&s, label);
        scene_free(&s);
    }
    /* the unshifted scene really has hits just inside and none just outside */
    c2d_contact c;
    const c2d_capsule k = {{0, 0}, {4, 0}, 0.5f};
    const c2d_circle touching = {{2, 0.75f}, 0.25f};
    const c2d_circle outside = {{2, nextafterf(0.75f, 1.0f)}, 0.25f};
    assert_true(c2d_collide_circle_capsule(touching, k, &c));
    assert_false(c2d_collide_circle_capsule(outside, k, &c));
}

/* One circle in a crowd of non-tame values: every capsule goes to the exact path. */
static void collide_inf_circle_forces_exact(void **state) {
    (void)state;
    c2d_rng rng = {0xe8ac7};
    for (size_t where = 0; where < 3; where++) {
        scene s;
        scene_init(&s, 45, 10, LAYOUT_OFFSET);
        fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
        const size_t i = where == 0 ? 0 : where == 1 ? 22 : 44;
        s.x[i] = where == 2 ? INFINITY : 3e12f;
        check_collide(&s, "one wild circle");
        s.x[i] = NAN; /* NaN alone keeps the culled path */
        check_collide(&s, "one NaN circle");
        s.r[i] = 1e13f; /* a huge radius */
        s.x[i] = 5.0f;
        check_collide(&s, "one huge radius");
        scene_free(&s);
    }
}

/* ---- c2d_batch_collide_pairs: equivalence ------------------------------------------------- */

/* Index arrays that end right before a guard page. */
typedef struct index_arrays {
    uint32_t *ci, *ki;
    void *base[2];
    size_t base_bytes[2];
} index_arrays;

static void index_init(index_arrays *a, size_t np) {
    a->ci = guarded_alloc(np * sizeof(uint32_t), &a->base[0], &a->base_bytes[0]);
    a->ki = guarded_alloc(np * sizeof(uint32_t), &a->base[1], &a->base_bytes[1]);
}

static void index_free(index_arrays *a) {
    guarded_free(a->base[0], a->base_bytes[0]);
    guarded_free(a->base[1], a->base_bytes[1]);
}

static void random_pairs(index_arrays *a, size_t np, const scene *s, c2d_rng *rng) {
    for (size_t p = 0; p < np; p++) {
        a->ci[p] = (uint32_t)(c2d_rng_next(rng) % s->n);
        a->ki[p] = (uint32_t)(c2d_rng_next(rng) % s->m);
    }
}

static void shuffle_pairs(uint32_t *ci, uint32_t *ki, size_t np, c2d_rng *rng) {
    for (size_t p = np; p > 1; p--) {
        const size_t q = (size_t)(c2d_rng_next(rng) % p);
        const uint32_t c = ci[p - 1], k = ki[p - 1];
        ci[p - 1] = ci[q], ki[p - 1] = ki[q];
        ci[q] = c, ki[q] = k;
    }
}

/* Every pair of the scene, in a scrambled order. Returns the count. */
static size_t all_pairs(index_arrays *a, const scene *s, c2d_rng *rng) {
    const size_t np = s->n * s->m;
    index_init(a, np);
    for (size_t j = 0, p = 0; j < s->m; j++)
        for (size_t i = 0; i < s->n; i++, p++)
            a->ci[p] = (uint32_t)i, a->ki[p] = (uint32_t)j;
    shuffle_pairs(a->ci, a->ki, np, rng);
    return np;
}

static void pairs_every_count(void **state) {
    (void)state;
    c2d_rng rng = {0x9a125};
    scene s;
    scene_init(&s, 300, 20, LAYOUT_GUARDED);
    fill_random(&s, &rng, &dense_spec);
    scene near;
    scene_init(&near, 300, 20, LAYOUT_OFFSET);
    fill_near_touch(&near, &rng, 0.0f, 0.0f, 1.0f);
    for (size_t np = 0; np <= 70; np++) {
        index_arrays a;
        index_init(&a, np);
        random_pairs(&a, np, &s, &rng);
        check_pairs(&s, a.ci, a.ki, np, "dense pairs, guarded");
        check_pairs(&near, a.ci, a.ki, np, "near-touch pairs, misaligned");
        index_free(&a);
    }
    const size_t large[] = {1000, 4099};
    for (size_t c = 0; c < 2; c++) {
        index_arrays a;
        index_init(&a, large[c]);
        random_pairs(&a, large[c], &s, &rng);
        check_pairs(&s, a.ci, a.ki, large[c], "dense pairs, large count");
        check_pairs(&near, a.ci, a.ki, large[c], "near-touch pairs, large count");
        index_free(&a);
    }
    scene_free(&near);
    scene_free(&s);
}

/* Scrambled and repeated pairs: the output follows the input order, duplicates included. */
static void pairs_scrambled_and_repeated(void **state) {
    (void)state;
    c2d_rng rng = {0x5c4a3};
    scene s;
    scene_init(&s, 40, 9, LAYOUT_ALIGNED);
    fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
    index_arrays a;
    const size_t np = all_pairs(&a, &s, &rng);
    check_pairs(&s, a.ci, a.ki, np, "all pairs, scrambled");

    /* each pair three times in a row, then the whole list repeated */
    const size_t nr = np * 3 + np;
    index_arrays r;
    index_init(&r, nr);
    for (size_t p = 0; p < np; p++)
        for (size_t k = 0; k < 3; k++)
            r.ci[3 * p + k] = a.ci[p], r.ki[3 * p + k] = a.ki[p];
    memcpy(r.ci + 3 * np, a.ci, np * sizeof(uint32_t));
    memcpy(r.ki + 3 * np, a.ki, np * sizeof(uint32_t));
    check_pairs(&s, r.ci, r.ki, nr, "repeated pairs");
    shuffle_pairs(r.ci, r.ki, nr, &rng);
    check_pairs(&s, r.ci, r.ki, nr, "repeated pairs, scrambled");

    /* one hitting pair, 70 times: a full answer of identical contacts */
    index_arrays one;
    index_init(&one, 70);
    size_t hit = SIZE_MAX;
    for (size_t p = 0; p < np && hit == SIZE_MAX; p++) {
        const c2d_circle c = {{s.x[a.ci[p]], s.y[a.ci[p]]}, s.r[a.ci[p]]};
        const c2d_capsule k = {
            {s.ax[a.ki[p]], s.ay[a.ki[p]]}, {s.bx[a.ki[p]], s.by[a.ki[p]]}, s.R[a.ki[p]]};
        if (c2d_collide_circle_capsule(c, k, NULL)) hit = p;
    }
    assert_true(hit != SIZE_MAX);
    for (size_t p = 0; p < 70; p++)
        one.ci[p] = a.ci[hit], one.ki[p] = a.ki[hit];
    check_pairs(&s, one.ci, one.ki, 70, "one pair 70 times");
    index_free(&one);
    index_free(&r);
    index_free(&a);
    scene_free(&s);
}

static void pairs_special_values(void **state) {
    (void)state;
    for (unsigned seed = 0; seed < 8; seed++) {
        c2d_rng rng = {0x9a1b + seed};
        scene s;
        scene_init(&s, 37, 7, seed % 2 ? LAYOUT_OFFSET : LAYOUT_GUARDED);
        fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
        if (seed % 3 == 0)
            sprinkle_special(&s, &rng, 20, true, true, false);
        else if (seed % 3 == 1)
            sprinkle_tame(&s, &rng, 20, true, true, false);
        else
            sprinkle_special(&s, &rng, 30, false, true, false);
        index_arrays a;
        const size_t np = all_pairs(&a, &s, &rng);
        check_pairs(&s, a.ci, a.ki, np, "all pairs, special values");
        index_free(&a);
        scene_free(&s);
    }
    /* the hand-made edge cases, every pair, at several offsets */
    static const float offsets[][2] = {{0, 0}, {1e5f, 0}, {1e12f, -1e12f}, {1e30f, 1e30f}};
    for (size_t o = 0; o < 4; o++) {
        c2d_rng rng = {0xed6e + o};
        scene s;
        edge_scene(&s, offsets[o][0], offsets[o][1]);
        index_arrays a;
        const size_t np = all_pairs(&a, &s, &rng);
        check_pairs(&s, a.ci, a.ki, np, "all pairs, edge cases");
        index_free(&a);
        scene_free(&s);
    }
}

/* Zero-length capsules in every lane position: the SIMD pre-test must take the clamp of the
 * 0/0 quotient to 0 exactly as the scalar code does. */
static void pairs_zero_length_capsules(void **state) {
    (void)state;
    scene s;
    scene_init(&s, 16, 4, LAYOUT_ALIGNED);
    for (size_t j = 0; j < 4; j++) {
        s.ax[j] = s.bx[j] = 1.0f + (float)j;
        s.ay[j] = s.by[j] = -2.0f;
        s.R[j] = j == 3 ? 0.0f : 0.5f;
    }
    for (size_t i = 0; i < 16; i++) {
        const size_t j = i % 4;
        s.x[i] = s.ax[j] + (i / 4 == 1 ? 0.25f : 0.0f);
        s.y[i] = s.ay[j] + (i / 4 == 2 ? s.R[j] + 0.25f : 0.0f); /* exactly touching */
        s.r[i] = i / 4 == 3 ? 0.0f : 0.25f;
    }
    index_arrays a;
    index_init(&a, 64);
    for (size_t p = 0; p < 64; p++)
        a.ci[p] = (uint32_t)(p % 16), a.ki[p] = (uint32_t)((p % 16) % 4);
    c2d_pair_contact *ref;
    const size_t total = ref_pairs(&s, a.ci, a.ki, 64, &ref);
    free(ref);
    assert_int_equal(total, 64); /* every one of them touches */
    check_pairs(&s, a.ci, a.ki, 64, "zero-length capsules");
    check_collide(&s, "zero-length capsules");
    index_free(&a);
    scene_free(&s);
}

static void pairs_w2_subset(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_make(&w, 4096, 256, C2D_WORKLOAD_SEED), 0);
    uint32_t *ci, *ki;
    assert_int_equal(c2d_workload_pairs(&w, 1 << 16, C2D_WORKLOAD_SEED, &ci, &ki), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    check_pairs(&s, ci, ki, 1 << 16, "W2 pairs (first 65536)");
    free(ci);
    free(ki);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* ---- errors ------------------------------------------------------------------------------ */

/* A scene where every pair overlaps: circles at the capsules' first endpoints. */
static void all_hit_scene(scene *s, size_t n, size_t m) {
    scene_init(s, n, m, LAYOUT_ALIGNED);
    for (size_t j = 0; j < m; j++) {
        s->ax[j] = 0.0f, s->ay[j] = 0.0f, s->bx[j] = 1.0f + (float)j, s->by[j] = 0.5f;
        s->R[j] = 0.5f;
    }
    for (size_t i = 0; i < n; i++)
        s->x[i] = 0.01f * (float)i, s->y[i] = 0.0f, s->r[i] = 0.5f;
}

static void pairs_index_out_of_range(void **state) {
    (void)state;
    scene s;
    all_hit_scene(&s, 20, 5);
    static const size_t lengths[] = {1, 5, 17, 40};
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        for (size_t l = 0; l < 4; l++) {
            const size_t np = lengths[l];
            const size_t positions[] = {0, np / 2, np - 1};
            for (size_t q = 0; q < 3; q++)
                for (unsigned kind = 0; kind < 5; kind++) {
                    index_arrays a;
                    index_init(&a, np);
                    for (size_t p = 0; p < np; p++)
                        a.ci[p] = (uint32_t)(p % 20), a.ki[p] = (uint32_t)(p % 5);
                    const size_t p = positions[q];
                    switch (kind) {
                    case 0:
                        a.ci[p] = 20;
                        break;
                    case 1:
                        a.ci[p] = UINT32_MAX;
                        break;
                    case 2:
                        a.ki[p] = 5;
                        break;
                    case 3:
                        a.ki[p] = UINT32_MAX;
                        break;
                    default:
                        a.ci[p] = 1000, a.ki[p] = 6;
                        break;
                    }
                    c2d_pair_contact out[41];
                    memset(out, CANARY_BYTE, sizeof out);
                    size_t count = 999;
                    assert_int_equal(c2d_batch_collide_pairs(&s.circles, &s.capsules, a.ci, a.ki,
                                                             np, out, 41, &count),
                                     C2D_ERROR_INDEX);
                    assert_int_equal(count, 0);
                    assert_true(bytes_are(out, sizeof out, CANARY_BYTE));
                    /* also with capacity 0 and no output at all */
                    count = 999;
                    assert_int_equal(c2d_batch_collide_pairs(&s.circles, &s.capsules, a.ci, a.ki,
                                                             np, NULL, 0, &count),
                                     C2D_ERROR_INDEX);
                    assert_int_equal(count, 0);
                    index_free(&a);
                }
        }
        /* empty sets: any index is out of range */
        const c2d_circle_soa none = {NULL, NULL, NULL, 0, NULL, NULL};
        const c2d_capsule_soa no_capsules = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
        const uint32_t zero = 0;
        c2d_pair_contact out[2];
        memset(out, CANARY_BYTE, sizeof out);
        size_t count = 999;
        assert_int_equal(
            c2d_batch_collide_pairs(&none, &s.capsules, &zero, &zero, 1, out, 2, &count),
            C2D_ERROR_INDEX);
        assert_int_equal(count, 0);
        count = 999;
        assert_int_equal(
            c2d_batch_collide_pairs(&s.circles, &no_capsules, &zero, &zero, 1, out, 2, &count),
            C2D_ERROR_INDEX);
        assert_int_equal(count, 0);
        assert_true(bytes_are(out, sizeof out, CANARY_BYTE));
    }
    scene_free(&s);
}

static void null_arrays(void **state) {
    (void)state;
    scene s;
    all_hit_scene(&s, 9, 3);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    const uint32_t ci[2] = {0, 1}, ki[2] = {0, 1};
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        c2d_pair_contact out[32];
        c2d_circle_toi tois[16];
        memset(out, CANARY_BYTE, sizeof out);
        memset(tois, CANARY_BYTE, sizeof tois);
        size_t count = 999;

        /* a NULL set, count pointer or output */
        assert_int_equal(c2d_batch_collide(NULL, &s.capsules, out, 32, &count), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide(&s.circles, NULL, out, 32, &count), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide(&s.circles, &s.capsules, out, 32, NULL), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide(&s.circles, &s.capsules, NULL, 32, &count),
                         C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide_pairs(NULL, &s.capsules, ci, ki, 2, out, 32, &count),
                         C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide_pairs(&s.circles, NULL, ci, ki, 2, out, 32, &count),
                         C2D_ERROR_NULL);
        assert_int_equal(
            c2d_batch_collide_pairs(&s.circles, &s.capsules, NULL, ki, 2, out, 32, &count),
            C2D_ERROR_NULL);
        assert_int_equal(
            c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, NULL, 2, out, 32, &count),
            C2D_ERROR_NULL);
        assert_int_equal(
            c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, ki, 2, NULL, 32, &count),
            C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, ki, 2, out, 32, NULL),
                         C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_sweep(NULL, s.mx, s.my, &s.capsules, tois), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_sweep(&s.circles, s.mx, s.my, NULL, tois), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_sweep(&s.circles, NULL, s.my, &s.capsules, tois),
                         C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_sweep(&s.circles, s.mx, NULL, &s.capsules, tois),
                         C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_sweep(&s.circles, s.mx, s.my, &s.capsules, NULL),
                         C2D_ERROR_NULL);

        /* each array of a nonempty set NULL in turn */
        for (size_t a = 0; a < 3; a++) {
            c2d_circle_soa c = s.circles;
            const float **slot[] = {&c.x, &c.y, &c.radius};
            *slot[a] = NULL;
            assert_int_equal(c2d_batch_collide(&c, &s.capsules, out, 32, &count), C2D_ERROR_NULL);
            assert_int_equal(c2d_batch_collide_pairs(&c, &s.capsules, ci, ki, 2, out, 32, &count),
                             C2D_ERROR_NULL);
            assert_int_equal(c2d_batch_sweep(&c, s.mx, s.my, &s.capsules, tois), C2D_ERROR_NULL);
        }
        for (size_t a = 0; a < 5; a++) {
            c2d_capsule_soa k = s.capsules;
            const float **slot[] = {&k.ax, &k.ay, &k.bx, &k.by, &k.radius};
            *slot[a] = NULL;
            assert_int_equal(c2d_batch_collide(&s.circles, &k, out, 32, &count), C2D_ERROR_NULL);
            assert_int_equal(c2d_batch_collide_pairs(&s.circles, &k, ci, ki, 2, out, 32, &count),
                             C2D_ERROR_NULL);
            assert_int_equal(c2d_batch_sweep(&s.circles, s.mx, s.my, &k, tois), C2D_ERROR_NULL);
        }
        /* nothing was written anywhere; the count is 0 after an error */
        assert_int_equal(count, 0);
        assert_true(bytes_are(out, sizeof out, CANARY_BYTE));
        assert_true(bytes_are(tois, sizeof tois, CANARY_BYTE));
    }
    scene_free(&s);
}

/* Counts of 0 accept NULL arrays. */
static void zero_counts(void **state) {
    (void)state;
    scene s;
    all_hit_scene(&s, 9, 3);
    const c2d_circle_soa no_circles = {NULL, NULL, NULL, 0, NULL, NULL};
    const c2d_capsule_soa no_capsules = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        size_t count = 999;
        assert_int_equal(c2d_batch_collide(&no_circles, &no_capsules, NULL, 0, &count), C2D_OK);
        assert_int_equal(count, 0);
        count = 999;
        assert_int_equal(c2d_batch_collide(&no_circles, &s.capsules, NULL, 0, &count), C2D_OK);
        assert_int_equal(count, 0);
        count = 999;
        assert_int_equal(c2d_batch_collide(&s.circles, &no_capsules, NULL, 0, &count), C2D_OK);
        assert_int_equal(count, 0);
        c2d_pair_contact out[4];
        memset(out, CANARY_BYTE, sizeof out);
        count = 999;
        assert_int_equal(c2d_batch_collide(&s.circles, &no_capsules, out, 4, &count), C2D_OK);
        assert_int_equal(count, 0);
        assert_true(bytes_are(out, sizeof out, CANARY_BYTE));

        count = 999;
        assert_int_equal(
            c2d_batch_collide_pairs(&no_circles, &no_capsules, NULL, NULL, 0, NULL, 0, &count),
            C2D_OK);
        assert_int_equal(count, 0);
        count = 999;
        assert_int_equal(
            c2d_batch_collide_pairs(&s.circles, &s.capsules, NULL, NULL, 0, out, 4, &count),
            C2D_OK);
        assert_int_equal(count, 0);
        assert_true(bytes_are(out, sizeof out, CANARY_BYTE));

        assert_int_equal(c2d_batch_sweep(&no_circles, NULL, NULL, &no_capsules, NULL), C2D_OK);
        assert_int_equal(c2d_batch_sweep(&no_circles, NULL, NULL, &s.capsules, NULL), C2D_OK);
        /* circles but no capsules: every circle gets "no hit" */
        c2d_circle_toi tois[9];
        memset(tois, CANARY_BYTE, sizeof tois);
        assert_int_equal(c2d_batch_sweep(&s.circles, s.mx, s.my, &no_capsules, tois), C2D_OK);
        for (size_t i = 0; i < 9; i++) {
            assert_int_equal(tois[i].capsule, C2D_NONE);
            assert_true(bytes_are(&tois[i].toi, sizeof tois[i].toi, 0));
        }
    }
    scene_free(&s);
}

/* Counts above UINT32_MAX: C2D_ERROR_TOO_LARGE before anything is read or written. */
static void counts_too_large(void **state) {
    (void)state;
#if SIZE_MAX > UINT32_MAX
    scene s;
    all_hit_scene(&s, 9, 3);
    const size_t huge = (size_t)UINT32_MAX + 1;
    c2d_circle_soa big_c = s.circles;
    big_c.count = huge;
    c2d_capsule_soa big_k = s.capsules;
    big_k.count = huge;
    const uint32_t ci[2] = {0, 1}, ki[2] = {0, 1};
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        c2d_pair_contact out[4];
        c2d_circle_toi tois[4];
        memset(out, CANARY_BYTE, sizeof out);
        memset(tois, CANARY_BYTE, sizeof tois);
        size_t count = 999;
        assert_int_equal(c2d_batch_collide(&big_c, &s.capsules, out, 4, &count),
                         C2D_ERROR_TOO_LARGE);
        assert_int_equal(c2d_batch_collide(&s.circles, &big_k, out, 4, &count),
                         C2D_ERROR_TOO_LARGE);
        assert_int_equal(c2d_batch_collide_pairs(&big_c, &s.capsules, ci, ki, 2, out, 4, &count),
                         C2D_ERROR_TOO_LARGE);
        assert_int_equal(c2d_batch_collide_pairs(&s.circles, &big_k, ci, ki, 2, out, 4, &count),
                         C2D_ERROR_TOO_LARGE);
        assert_int_equal(
            c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, ki, huge, out, 4, &count),
            C2D_ERROR_TOO_LARGE);
        assert_int_equal(c2d_batch_sweep(&big_c, s.mx, s.my, &s.capsules, tois),
                         C2D_ERROR_TOO_LARGE);
        assert_int_equal(c2d_batch_sweep(&s.circles, s.mx, s.my, &big_k, tois),
                         C2D_ERROR_TOO_LARGE);
        assert_int_equal(count, 0);
        assert_true(bytes_are(out, sizeof out, CANARY_BYTE));
        assert_true(bytes_are(tois, sizeof tois, CANARY_BYTE));
    }
    scene_free(&s);
#else
    /* a 32-bit size_t (wasm32) cannot hold a count above UINT32_MAX: nothing to refuse */
#endif
}

/* The output order is capsule-major, then circle index, whatever the backend. */
static void collide_order(void **state) {
    (void)state;
    scene s;
    all_hit_scene(&s, 37, 4);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        c2d_pair_contact out[37 * 4];
        size_t count = 0;
        assert_int_equal(c2d_batch_collide(&s.circles, &s.capsules, out, 37 * 4, &count), C2D_OK);
        assert_int_equal(count, 37 * 4);
        for (size_t k = 0; k < count; k++) {
            assert_int_equal(out[k].capsule, k / 37);
            assert_int_equal(out[k].circle, k % 37);
        }
    }
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(collide_order),
        cmocka_unit_test(collide_w1_like),
        cmocka_unit_test(collide_dense),
        cmocka_unit_test(collide_every_count),
        cmocka_unit_test(collide_large_counts),
        cmocka_unit_test(collide_near_touch_scales),
        cmocka_unit_test(collide_special_values),
        cmocka_unit_test(collide_edge_cases),
        cmocka_unit_test(collide_inf_circle_forces_exact),
        cmocka_unit_test(pairs_every_count),
        cmocka_unit_test(pairs_scrambled_and_repeated),
        cmocka_unit_test(pairs_special_values),
        cmocka_unit_test(pairs_zero_length_capsules),
        cmocka_unit_test(pairs_w2_subset),
        cmocka_unit_test(pairs_index_out_of_range),
        cmocka_unit_test(null_arrays),
        cmocka_unit_test(zero_counts),
        cmocka_unit_test(counts_too_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
