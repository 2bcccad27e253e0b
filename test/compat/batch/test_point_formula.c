/* The ball formulas of src/core (point_gap, point_overlap, point_contact_lanes): a ball b is a
 * capsule whose axis has zero length, and these skip segment_closest's projection, whose t is
 * +0 for every such input. They must give the bytes of the general formulas with a = b
 * (capsule_gap, capsule_overlap, capsule_contact_lanes; NaNs equal as NaNs) for every input:
 * every combination of special values (zeros of both signs, subnormals, huge values,
 * infinities, NaNs) for the two centres, worked examples, and random bit patterns. The SIMD
 * kernels that use them are checked against the scalar layer by the ball tests (test/balls);
 * this pins the shortcut itself. */
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

#include "core/lane_scalar.h"
#include "core/contact_formula.h"
#include "workload.h"

static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Byte equality, so that zeros' signs count; any NaN equals any NaN. A NaN's sign and payload
 * follow the operand order the compiler picks (x86 passes on the first operand's NaN, and clang
 * commutes some products the two formulas share), and none reaches an emitted contact: a NaN
 * in c or q makes d2 NaN, which fails the overlap test. */
static void assert_same(float got, float want, const char *what, const float in[6]) {
    if (bits_of(got) == bits_of(want) || (got != got && want != want)) return;
    fail_msg("%s: %08x, want %08x, for p (%a, %a) r %a, b (%a, %a) R %a", what, bits_of(got),
             bits_of(want), (double)in[0], (double)in[1], (double)in[2], (double)in[3],
             (double)in[4], (double)in[5]);
}

/* in = px, py, r, bx, by, R. Returns whether the general formula found an overlap. */
static bool check_one(const float in[6]) {
    const float px = in[0], py = in[1], r = in[2], bx = in[3], by = in[4], R = in[5];
    float cx, cy, qx, qy, wx, wy, wqx, wqy;
    const float d2 = point_gap(px, py, bx, by, &cx, &cy, &qx, &qy);
    const float wd2 = capsule_gap(px, py, bx, by, bx, by, &wx, &wy, &wqx, &wqy);
    assert_same(cx, wx, "cx", in);
    assert_same(cy, wy, "cy", in);
    assert_same(qx, wqx, "qx", in);
    assert_same(qy, wqy, "qy", in);
    assert_same(d2, wd2, "d2", in);
    const bool over = point_overlap(px, py, r, bx, by, R);
    const bool want_over = capsule_overlap(px, py, r, bx, by, bx, by, R);
    if (over != want_over) fail_msg("overlap %d, want %d", over, want_over);
    contact_lanes k, w;
    const bool hit = point_contact_lanes(px, py, r, bx, by, R, &k);
    const bool want_hit = capsule_contact_lanes(px, py, r, bx, by, bx, by, R, &w);
    if (hit != want_hit) fail_msg("hit %d, want %d", hit, want_hit);
    assert_same(k.nx, w.nx, "nx", in);
    assert_same(k.ny, w.ny, "ny", in);
    assert_same(k.depth, w.depth, "depth", in);
    assert_same(k.px, w.px, "px", in);
    assert_same(k.py, w.py, "py", in);
    return want_hit;
}

static const uint32_t specials[] = {
    0x00000000u, 0x80000000u,              /* +0, -0 */
    0x00000001u, 0x80000001u,              /* smallest subnormals */
    0x00800000u, 0x80800000u,              /* FLT_MIN */
    0x3f800000u, 0xbf800000u, 0x3f000000u, /* 1, -1, 0.5 */
    0x3f800001u,                           /* 1 + ulp */
    0x1e3ce508u,                           /* 1e-20 */
    0x5368d4a5u, 0xd3800000u,              /* 1e12, -2^40 */
    0x7f7fffffu, 0xff7fffffu,              /* FLT_MAX, -FLT_MAX */
    0x7f800000u, 0xff800000u,              /* infinities */
    0x7fc00000u, 0xffc00000u, 0x7fa12345u  /* NaNs, one signalling with a payload */
};
enum { SPECIALS = sizeof specials / sizeof specials[0] };

/* Every combination of special values for both centres, with a few radii (a negative one and
 * NaN among them). */
static void every_special_centre(void **state) {
    (void)state;
    const float radii[][2] = {{0.5f, 0.5f},  {0.0f, 0.0f}, {1e30f, 2.0f},
                              {-1.0f, 1.0f}, {NAN, 1.0f},  {2.0f, INFINITY}};
    size_t hits = 0, runs = 0;
    for (size_t a = 0; a < SPECIALS; a++)
        for (size_t b = 0; b < SPECIALS; b++)
            for (size_t c = 0; c < SPECIALS; c++)
                for (size_t d = 0; d < SPECIALS; d++)
                    for (size_t q = 0; q < sizeof radii / sizeof radii[0]; q++) {
                        const float in[6] = {float_of(specials[a]), float_of(specials[b]),
                                             radii[q][0],           float_of(specials[c]),
                                             float_of(specials[d]), radii[q][1]};
                        hits += check_one(in);
                        runs++;
                    }
    /* the combinations reach overlaps and misses both */
    assert_true(hits > runs / 20);
    assert_true(hits < runs);
}

/* Worked examples: the offset and the contact of two balls. */
static void worked(void **state) {
    (void)state;
    float cx, cy, qx, qy;
    /* p (3, 4), b (0, 0): q = (3, 4), |q|^2 = 25 */
    assert_true(point_gap(3.0f, 4.0f, 0.0f, 0.0f, &cx, &cy, &qx, &qy) == 25.0f);
    assert_true(cx == 0.0f && cy == 0.0f && qx == 3.0f && qy == 4.0f);
    /* both zeros negative: c = -0 + 0 (-0 - -0) = +0, so q = -0 - +0 = -0 */
    point_gap(-0.0f, -0.0f, -0.0f, -0.0f, &cx, &cy, &qx, &qy);
    assert_int_equal(bits_of(cx), 0x00000000u);
    assert_int_equal(bits_of(qx), 0x80000000u);
    /* an infinite centre: c = inf + 0 (inf - inf) = NaN */
    point_gap(1.0f, 1.0f, INFINITY, 1.0f, &cx, &cy, &qx, &qy);
    assert_true(isnan(cx) && cy == 1.0f);
    /* radii 3 and 3 at distance 5: depth 1, normal (3, 4) / 5 toward p, point b + 3 n */
    contact_lanes k;
    assert_true(point_contact_lanes(3.0f, 4.0f, 3.0f, 0.0f, 0.0f, 3.0f, &k));
    assert_true(k.depth == 1.0f && k.nx == 0.6f && k.ny == 0.8f);
    assert_true(k.px == 0.6f * 3.0f && k.py == 0.8f * 3.0f);
    /* one centre: no direction, so (0, 1) (the zero-length axis has no normal either) */
    assert_true(point_contact_lanes(2.0f, 2.0f, 1.0f, 2.0f, 2.0f, 1.0f, &k));
    assert_true(k.nx == 0.0f && k.ny == 1.0f && k.depth == 2.0f);
    /* apart: no overlap */
    assert_false(point_overlap(3.0f, 4.0f, 2.0f, 0.0f, 0.0f, 2.0f));
}

/* Random bit patterns for the centres (every float, NaN and infinity included), and random
 * ordinary balls near each other. */
static void random_inputs(void **state) {
    (void)state;
    c2d_rng rng = {0x9017};
    size_t hits = 0;
    for (size_t n = 0; n < 2000000; n++) {
        float in[6];
        if (n % 2) {
            for (size_t j = 0; j < 6; j++)
                in[j] = float_of((uint32_t)c2d_rng_next(&rng));
        } else {
            const float scale = ldexpf(1.0f, (int)(c2d_rng_next(&rng) % 80) - 40);
            for (size_t j = 0; j < 6; j++)
                in[j] = c2d_rng_range(&rng, -scale, scale);
            in[2] = fabsf(in[2]);
            in[5] = fabsf(in[5]);
        }
        hits += check_one(in);
    }
    assert_true(hits > 100000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked),
        cmocka_unit_test(every_special_centre),
        cmocka_unit_test(random_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
