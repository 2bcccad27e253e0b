/* The bad-input rules of collide2d/query.h, through the batch layer on every backend (and the
 * scalar function it must equal): a NaN coordinate or radius gives no hit, a negative radius
 * gives no hit, a radius of -0 is a radius of 0. Each rule is tried on pairs that hit when the
 * input is good: overlapping at the start, and sweeping into a side and into either end.
 * Every violation is listed before the test fails. */
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

/* circle x, y, r, move x, y; capsule ax, ay, bx, by, R */
typedef struct pair_case {
    const char *name;
    float v[10];
} pair_case;

enum { X, Y, RADIUS, MX, MY, AX, AY, BX, BY, CAPSULE_RADIUS };
static const char *const slot_names[] = {"x",  "y",  "r",  "move x", "move y",
                                         "ax", "ay", "bx", "by",     "R"};

static const pair_case good_cases[] = {
    {"overlapping at the start, moving deeper",
     {0.5f, 0.2f, 0.5f, 1.0f, -0.5f, 0.0f, 0.0f, 2.0f, 0.0f, 0.5f}},
    {"sweeping into the side", {1.0f, 3.0f, 0.5f, 0.0f, -4.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.5f}},
    {"sweeping into end a", {-3.0f, 0.0f, 0.5f, 4.0f, 0.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.5f}},
    {"sweeping into end b", {5.0f, 0.0f, 0.5f, -4.0f, 0.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.5f}},
    {"overlapping end b, moving in",
     {2.5f, 0.1f, 0.25f, -3.0f, -1.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.5f}},
};
enum { N_CASES = sizeof good_cases / sizeof good_cases[0] };

/* Hits of one case: [0] c2d_collide_circle_capsule, [1] c2d_sweep_circle_capsule (the scalar
 * layer), [2] c2d_batch_collide, [3] c2d_batch_collide_pairs, [4] c2d_batch_sweep (the active
 * backend). */
static void hits_of(const float *v, bool hit[5]) {
    const c2d_circle c = {{v[X], v[Y]}, v[RADIUS]};
    const c2d_vec2 move = {v[MX], v[MY]};
    const c2d_capsule k = {{v[AX], v[AY]}, {v[BX], v[BY]}, v[CAPSULE_RADIUS]};
    c2d_contact contact;
    c2d_toi toi;
    hit[0] = c2d_collide_circle_capsule(c, k, &contact);
    hit[1] = c2d_sweep_circle_capsule(c, move, k, &toi);
    const c2d_circle_soa cs = {&v[X], &v[Y], &v[RADIUS], 1, NULL, NULL};
    const c2d_capsule_soa ks = {&v[AX], &v[AY], &v[BX], &v[BY], &v[CAPSULE_RADIUS],
                                1,      NULL,   NULL,   NULL};
    c2d_pair_contact out[1];
    size_t count = 99;
    assert_true(c2d_batch_collide(&cs, &ks, out, 1, &count) == C2D_OK);
    hit[2] = count != 0;
    const uint32_t zero = 0;
    count = 99;
    assert_true(c2d_batch_collide_pairs(&cs, &ks, &zero, &zero, 1, out, 1, &count) == C2D_OK);
    hit[3] = count != 0;
    c2d_circle_toi t;
    assert_int_equal(c2d_batch_sweep(&cs, &v[MX], &v[MY], &ks, &t), C2D_OK);
    hit[4] = t.capsule != C2D_NONE;
}

static const char *const query_names[5] = {"c2d_collide_circle_capsule", "c2d_sweep_circle_capsule",
                                           "c2d_batch_collide", "c2d_batch_collide_pairs",
                                           "c2d_batch_sweep"};

/* Checks that no query hits when slot `slot` of each good case holds `value`; returns the
 * number of violations (each printed). */
static int expect_no_hit(size_t slot, float value, const char *what) {
    int violations = 0;
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t k = 0; k < N_CASES; k++) {
        float v[10];
        memcpy(v, good_cases[k].v, sizeof v);
        bool good[5];
        use_backend(C2D_BACKEND_SCALAR);
        hits_of(v, good);
        assert_true(good[1] && good[4]); /* the good case hits */
        v[slot] = value;
        for (size_t b = 0; b < nb; b++) {
            use_backend(list[b]);
            bool hit[5];
            hits_of(v, hit);
            for (size_t q = 0; q < 5; q++) {
                if (!hit[q] || (q < 2 && b > 0)) /* the scalar layer: reported once */
                    continue;
                fprintf(stderr, "%s %s (%s = %a) in case \"%s\" gives a hit", query_names[q], what,
                        slot_names[slot], (double)value, good_cases[k].name);
                if (q >= 2) fprintf(stderr, " on backend %s", c2d_backend_name(list[b]));
                fprintf(stderr,
                        "\n  circle (%a, %a) r %a move (%a, %a); capsule (%a, %a)-(%a, %a) "
                        "R %a\n",
                        (double)v[X], (double)v[Y], (double)v[RADIUS], (double)v[MX], (double)v[MY],
                        (double)v[AX], (double)v[AY], (double)v[BX], (double)v[BY],
                        (double)v[CAPSULE_RADIUS]);
                violations++;
            }
        }
    }
    return violations;
}

static float from_bits(uint32_t bits) {
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* NaN in a circle's position or radius: no hit from any query. */
static void nan_circle_gives_no_hit(void **state) {
    (void)state;
    const float nans[] = {NAN, -NAN, from_bits(0x7fa12345u)};
    const size_t slots[] = {X, Y, RADIUS};
    int violations = 0;
    for (size_t s = 0; s < 3; s++)
        for (size_t n = 0; n < 3; n++)
            violations += expect_no_hit(slots[s], nans[n], "with a NaN circle");
    assert_int_equal(violations, 0);
}

/* NaN in a capsule's endpoints or radius: no hit from any query. */
static void nan_capsule_gives_no_hit(void **state) {
    (void)state;
    const float nans[] = {NAN, -NAN, from_bits(0x7fa12345u)};
    const size_t slots[] = {AX, AY, BX, BY, CAPSULE_RADIUS};
    int violations = 0;
    for (size_t s = 0; s < 5; s++)
        for (size_t n = 0; n < 3; n++)
            violations += expect_no_hit(slots[s], nans[n], "with a NaN capsule");
    assert_int_equal(violations, 0);
}

/* A negative radius (however small or large) is an empty shape. */
static void negative_radius_gives_no_hit(void **state) {
    (void)state;
    const float negatives[] = {-1.0f, -FLT_MIN, -0x1p-149f, -1e30f, -INFINITY, -FLT_MAX};
    int violations = 0;
    for (size_t n = 0; n < sizeof negatives / sizeof negatives[0]; n++) {
        violations += expect_no_hit(RADIUS, negatives[n], "with a negative radius");
        violations += expect_no_hit(CAPSULE_RADIUS, negatives[n], "with a negative radius");
    }
    assert_int_equal(violations, 0);
}

/* -0 is a radius of 0: the same hits as +0 from every query and backend. */
static void negative_zero_radius_is_zero(void **state) {
    (void)state;
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t k = 0; k < N_CASES; k++)
        for (size_t slot = RADIUS; slot <= CAPSULE_RADIUS; slot += CAPSULE_RADIUS - RADIUS) {
            for (size_t b = 0; b < nb; b++) {
                use_backend(list[b]);
                float v[10];
                memcpy(v, good_cases[k].v, sizeof v);
                v[slot] = 0.0f;
                bool plus[5], minus[5];
                hits_of(v, plus);
                v[slot] = -0.0f;
                hits_of(v, minus);
                assert_memory_equal(plus, minus, sizeof plus);
            }
        }
}

/* ---- the count rules --------------------------------------------------------------------- */

/* A dense random scene: many contacts. */
static void dense_scene(scene *s, size_t n, size_t m, uint64_t seed) {
    scene_init(s, n, m, LAYOUT_ALIGNED);
    c2d_rng rng = {seed};
    const random_spec spec = {4.0f, 0.05f, 0.4f, 1.0f, 0.5f, 3.0f, 0.05f, 0.4f};
    fill_random(s, &rng, &spec);
}

/* The size query (out NULL, capacity 0) returns C2D_OK and the total; a buffer of that size
 * then receives every contact (C2D_OK); one entry less is a real truncation. */
static void size_query_returns_total(void **state) {
    (void)state;
    scene s;
    dense_scene(&s, 67, 9, 12);
    c2d_pair_contact *want;
    const size_t total = ref_collide(&s, &want);
    assert_true(total > 1);
    uint32_t ci[200], ki[200];
    for (size_t p = 0; p < 200; p++)
        ci[p] = (uint32_t)((p * 7) % s.n), ki[p] = (uint32_t)((p * 3) % s.m);
    c2d_pair_contact *want_pairs;
    const size_t total_pairs = ref_pairs(&s, ci, ki, 200, &want_pairs);
    assert_true(total_pairs > 1);
    c2d_pair_contact *out = xmalloc((total + total_pairs) * sizeof *out);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        size_t n = 12345;
        assert_int_equal(c2d_batch_collide(&s.circles, &s.capsules, NULL, 0, &n), C2D_OK);
        assert_int_equal(n, total);
        size_t got = 12345;
        assert_int_equal(c2d_batch_collide(&s.circles, &s.capsules, out, n, &got), C2D_OK);
        assert_int_equal(got, total);
        assert_true(compare_contacts(&s, want, out, total, "after a size query"));
        assert_int_equal(c2d_batch_collide(&s.circles, &s.capsules, out, n - 1, &got),
                         C2D_ERROR_TRUNCATED);
        assert_int_equal(got, total);

        n = 12345;
        assert_int_equal(c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, ki, 200, NULL, 0, &n),
                         C2D_OK);
        assert_int_equal(n, total_pairs);
        assert_int_equal(
            c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, ki, 200, out, n, &got), C2D_OK);
        assert_int_equal(got, total_pairs);
        assert_true(compare_contacts(&s, want_pairs, out, total_pairs, "pairs after a size query"));
        assert_int_equal(
            c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, ki, 200, out, 0, &got),
            C2D_ERROR_TRUNCATED);
        assert_int_equal(got, total_pairs);
    }
    free(out);
    free(want);
    free(want_pairs);
    scene_free(&s);
}

/* Every error sets *count to 0 (and a NULL count is itself an error, not a crash). */
static void errors_set_count_to_zero(void **state) {
    (void)state;
    scene s;
    dense_scene(&s, 9, 3, 13);
    c2d_circle_soa big_c = s.circles, null_c = s.circles;
    c2d_capsule_soa big_k = s.capsules, null_k = s.capsules;
    big_c.count = SIZE_MAX;
    big_k.count = SIZE_MAX;
    null_c.radius = NULL;
    null_k.by = NULL;
    const uint32_t ci[2] = {0, 1}, ki[2] = {0, 1}, bad[2] = {0, 99};
    c2d_pair_contact out[8];
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        struct {
            c2d_status want, got;
            size_t count;
        } r[16];
        size_t k = 0;
#define COLLIDE(want_, c, kk, o, cap)                                                              \
    r[k].want = want_, r[k].count = 999, r[k].got = c2d_batch_collide(c, kk, o, cap, &r[k].count), \
    k++
#define PAIRS(want_, c, kk, i, j, np, o, cap)                                                      \
    r[k].want = want_, r[k].count = 999,                                                           \
    r[k].got = c2d_batch_collide_pairs(c, kk, i, j, np, o, cap, &r[k].count), k++
        COLLIDE(C2D_ERROR_NULL, NULL, &s.capsules, out, 8);
        COLLIDE(C2D_ERROR_NULL, &s.circles, NULL, out, 8);
        COLLIDE(C2D_ERROR_NULL, &null_c, &s.capsules, out, 8);
        COLLIDE(C2D_ERROR_NULL, &s.circles, &null_k, out, 8);
        COLLIDE(C2D_ERROR_NULL, &s.circles, &s.capsules, NULL, 8);
#if SIZE_MAX > UINT32_MAX /* a 32-bit size_t (wasm32) cannot hold a count above UINT32_MAX */
        COLLIDE(C2D_ERROR_TOO_LARGE, &big_c, &s.capsules, out, 8);
        COLLIDE(C2D_ERROR_TOO_LARGE, &s.circles, &big_k, out, 8);
#endif
        PAIRS(C2D_ERROR_NULL, NULL, &s.capsules, ci, ki, 2, out, 8);
        PAIRS(C2D_ERROR_NULL, &s.circles, &s.capsules, NULL, ki, 2, out, 8);
        PAIRS(C2D_ERROR_NULL, &s.circles, &s.capsules, ci, NULL, 2, out, 8);
        PAIRS(C2D_ERROR_NULL, &s.circles, &s.capsules, ci, ki, 2, NULL, 8);
#if SIZE_MAX > UINT32_MAX
        PAIRS(C2D_ERROR_TOO_LARGE, &big_c, &s.capsules, ci, ki, 2, out, 8);
        PAIRS(C2D_ERROR_TOO_LARGE, &s.circles, &s.capsules, ci, ki, SIZE_MAX, out, 8);
#else
        (void)big_c;
        (void)big_k;
#endif
        PAIRS(C2D_ERROR_INDEX, &s.circles, &s.capsules, ci, bad, 2, out, 8);
        PAIRS(C2D_ERROR_INDEX, &s.circles, &s.capsules, bad, ki, 2, NULL, 0);
#undef COLLIDE
#undef PAIRS
        for (size_t i = 0; i < k; i++) {
            if (r[i].got != r[i].want || r[i].count != 0)
                fprintf(stderr, "case %zu on %s: status %d (want %d), count %zu (want 0)\n", i,
                        c2d_backend_name(list[b]), (int)r[i].got, (int)r[i].want, r[i].count);
            assert_int_equal(r[i].got, r[i].want);
            assert_int_equal(r[i].count, 0);
        }
        /* no count pointer: refused, nothing to set */
        assert_int_equal(c2d_batch_collide(&s.circles, &s.capsules, out, 8, NULL), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, ki, 2, out, 8, NULL),
                         C2D_ERROR_NULL);
    }
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nan_circle_gives_no_hit),
        cmocka_unit_test(nan_capsule_gives_no_hit),
        cmocka_unit_test(negative_radius_gives_no_hit),
        cmocka_unit_test(negative_zero_radius_is_zero),
        cmocka_unit_test(size_query_returns_total),
        cmocka_unit_test(errors_set_count_to_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
