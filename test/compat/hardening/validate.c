/* The validators of collide2d/validate.h: the first bad element and its defect, for every
 * defect kind and field; NULL sets and arrays; empty sets; -0 radius; the C2D_MAX_MAGNITUDE
 * boundary; c2d_defect_string. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collide2d.h"
#include "hard_util.h"

enum { N = 9 };

/* Nine valid circles and capsules, including a -0 radius, a zero-length capsule, subnormals
 * and values exactly at +-C2D_MAX_MAGNITUDE. */
typedef struct sets {
    float x[N], y[N], r[N];
    float ax[N], ay[N], bx[N], by[N], R[N];
} sets;

static void fill_valid(sets *s) {
    static const float coords[N] = {
        0.0f, -0.0f, 1.5f, -3.0f, 0x1p-149f, 1e6f, C2D_MAX_MAGNITUDE, -C2D_MAX_MAGNITUDE, 123.25f};
    static const float radii[N] = {0.5f,  -0.0f, 0.0f, 0x1p-149f, 2.0f, 1e9f, C2D_MAX_MAGNITUDE,
                                   0.25f, 1.0f};
    for (size_t i = 0; i < N; i++) {
        s->x[i] = coords[i], s->y[i] = coords[N - 1 - i], s->r[i] = radii[i];
        s->ax[i] = coords[(i + 3) % N], s->ay[i] = coords[(i + 5) % N];
        s->bx[i] = i == 4 ? s->ax[i] : coords[(i + 7) % N]; /* capsule 4: zero length */
        s->by[i] = i == 4 ? s->ay[i] : coords[i];
        s->R[i] = radii[(i + 2) % N];
    }
}

static c2d_circle_soa circles_of(const sets *s, size_t n) {
    const c2d_circle_soa c = {s->x, s->y, s->r, n, NULL, NULL};
    return c;
}

static c2d_capsule_soa capsules_of(const sets *s, size_t n) {
    const c2d_capsule_soa k = {s->ax, s->ay, s->bx, s->by, s->R, n, NULL, NULL, NULL};
    return k;
}

static void expect(c2d_validation v, c2d_defect defect, size_t index) {
    if (v.defect != defect || v.index != index)
        fail_msg("got %s at %zu, want %s at %zu", c2d_defect_string(v.defect), v.index,
                 c2d_defect_string(defect), index);
}

static void test_valid_sets(void **state) {
    (void)state;
    sets s;
    fill_valid(&s);
    const c2d_circle_soa c = circles_of(&s, N);
    const c2d_capsule_soa k = capsules_of(&s, N);
    expect(c2d_validate_circles(&c), C2D_DEFECT_NONE, 0);
    expect(c2d_validate_capsules(&k), C2D_DEFECT_NONE, 0);
}

/* The defect values of each kind, for coordinates and for radii. */
typedef struct bad_value {
    float v;
    c2d_defect coord, radius;
} bad_value;

static const bad_value bad_values[] = {
    {NAN, C2D_DEFECT_NAN, C2D_DEFECT_NAN},
    {-NAN, C2D_DEFECT_NAN, C2D_DEFECT_NAN},
    {INFINITY, C2D_DEFECT_INFINITE, C2D_DEFECT_INFINITE},
    {-INFINITY, C2D_DEFECT_INFINITE, C2D_DEFECT_INFINITE},
    {-1.0f, C2D_DEFECT_NONE, C2D_DEFECT_NEGATIVE_RADIUS},
    {-0x1p-149f, C2D_DEFECT_NONE, C2D_DEFECT_NEGATIVE_RADIUS},
    {0x1.000002p60f, C2D_DEFECT_HUGE, C2D_DEFECT_HUGE}, /* the next float above the limit */
    {-0x1.000002p60f, C2D_DEFECT_HUGE, C2D_DEFECT_NEGATIVE_RADIUS},
    {1e19f, C2D_DEFECT_HUGE, C2D_DEFECT_HUGE},
    {1e30f, C2D_DEFECT_HUGE, C2D_DEFECT_HUGE},
    {FLT_MAX, C2D_DEFECT_HUGE, C2D_DEFECT_HUGE},
    {-FLT_MAX, C2D_DEFECT_HUGE, C2D_DEFECT_NEGATIVE_RADIUS},
    {C2D_MAX_MAGNITUDE, C2D_DEFECT_NONE, C2D_DEFECT_NONE},
    {-C2D_MAX_MAGNITUDE, C2D_DEFECT_NONE, C2D_DEFECT_NEGATIVE_RADIUS},
    {-0.0f, C2D_DEFECT_NONE, C2D_DEFECT_NONE},
    {0x1p-149f, C2D_DEFECT_NONE, C2D_DEFECT_NONE},
};
enum { N_BAD = sizeof bad_values / sizeof bad_values[0] };

/* Each defect value in each field of each element: found at that element, with its kind. */
static void test_each_defect_each_field(void **state) {
    (void)state;
    for (size_t b = 0; b < N_BAD; b++)
        for (size_t i = 0; i < N; i++) {
            for (int f = 0; f < 3; f++) {
                sets s;
                fill_valid(&s);
                float *field[] = {s.x, s.y, s.r};
                field[f][i] = bad_values[b].v;
                const c2d_defect want = f == 2 ? bad_values[b].radius : bad_values[b].coord;
                const c2d_circle_soa c = circles_of(&s, N);
                expect(c2d_validate_circles(&c), want, want == C2D_DEFECT_NONE ? 0 : i);
                /* a set that ends before the bad element is valid */
                const c2d_circle_soa before = circles_of(&s, i);
                expect(c2d_validate_circles(&before), C2D_DEFECT_NONE, 0);
            }
            for (int f = 0; f < 5; f++) {
                sets s;
                fill_valid(&s);
                float *field[] = {s.ax, s.ay, s.bx, s.by, s.R};
                field[f][i] = bad_values[b].v;
                const c2d_defect want = f == 4 ? bad_values[b].radius : bad_values[b].coord;
                const c2d_capsule_soa k = capsules_of(&s, N);
                expect(c2d_validate_capsules(&k), want, want == C2D_DEFECT_NONE ? 0 : i);
                const c2d_capsule_soa before = capsules_of(&s, i);
                expect(c2d_validate_capsules(&before), C2D_DEFECT_NONE, 0);
            }
        }
}

/* Several defects: the first element wins; within an element, fields are checked in order
 * (x, y, radius; ax, ay, bx, by, radius). */
static void test_first_defect_wins(void **state) {
    (void)state;
    sets s;
    fill_valid(&s);
    s.r[6] = -1.0f;
    s.x[7] = NAN;
    s.y[3] = INFINITY;
    s.r[3] = NAN; /* same element as y: y comes first */
    c2d_circle_soa c = circles_of(&s, N);
    expect(c2d_validate_circles(&c), C2D_DEFECT_INFINITE, 3);
    s.y[3] = 0.0f;
    expect(c2d_validate_circles(&c), C2D_DEFECT_NAN, 3);
    s.r[3] = 1.0f;
    expect(c2d_validate_circles(&c), C2D_DEFECT_NEGATIVE_RADIUS, 6);
    s.x[6] = 1e30f; /* x before the radius of the same element */
    expect(c2d_validate_circles(&c), C2D_DEFECT_HUGE, 6);

    s.by[2] = -INFINITY;
    s.ax[2] = 2e18f;
    s.R[1] = -2.0f;
    c2d_capsule_soa k = capsules_of(&s, N);
    expect(c2d_validate_capsules(&k), C2D_DEFECT_NEGATIVE_RADIUS, 1);
    s.R[1] = 2.0f;
    expect(c2d_validate_capsules(&k), C2D_DEFECT_HUGE, 2); /* ax before by */
    s.ax[2] = 0.0f;
    expect(c2d_validate_capsules(&k), C2D_DEFECT_INFINITE, 2);
    s.bx[2] = NAN; /* bx before by */
    expect(c2d_validate_capsules(&k), C2D_DEFECT_NAN, 2);
}

static void test_null(void **state) {
    (void)state;
    expect(c2d_validate_circles(NULL), C2D_DEFECT_NULL, 0);
    expect(c2d_validate_capsules(NULL), C2D_DEFECT_NULL, 0);
    sets s;
    fill_valid(&s);
    for (int f = 0; f < 3; f++) {
        c2d_circle_soa c = circles_of(&s, N);
        const float **field[] = {&c.x, &c.y, &c.radius};
        *field[f] = NULL;
        expect(c2d_validate_circles(&c), C2D_DEFECT_NULL, 0);
        c.count = 0; /* NULL arrays are fine for an empty set */
        expect(c2d_validate_circles(&c), C2D_DEFECT_NONE, 0);
    }
    for (int f = 0; f < 5; f++) {
        c2d_capsule_soa k = capsules_of(&s, N);
        const float **field[] = {&k.ax, &k.ay, &k.bx, &k.by, &k.radius};
        *field[f] = NULL;
        expect(c2d_validate_capsules(&k), C2D_DEFECT_NULL, 0);
        k.count = 0;
        expect(c2d_validate_capsules(&k), C2D_DEFECT_NONE, 0);
    }
    /* a NULL array is reported even when an earlier element of another array is bad */
    s.x[0] = NAN;
    c2d_circle_soa c = circles_of(&s, N);
    c.radius = NULL;
    expect(c2d_validate_circles(&c), C2D_DEFECT_NULL, 0);
}

static void test_empty(void **state) {
    (void)state;
    const c2d_circle_soa c = {NULL, NULL, NULL, 0, NULL, NULL};
    const c2d_capsule_soa k = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    expect(c2d_validate_circles(&c), C2D_DEFECT_NONE, 0);
    expect(c2d_validate_capsules(&k), C2D_DEFECT_NONE, 0);
}

/* -0 radius is 0, valid; the exact limit is valid, the next float above is not. */
static void test_boundaries(void **state) {
    (void)state;
    assert_true(C2D_MAX_MAGNITUDE == 0x1p60f);
    const float above = hard_float(hard_bits(C2D_MAX_MAGNITUDE) + 1);
    const float below = hard_float(hard_bits(C2D_MAX_MAGNITUDE) - 1);
    const float cases[][2] = {
        /* value, radius: 1 when valid */
        {C2D_MAX_MAGNITUDE, 1}, {below, 1}, {above, 0}, {-C2D_MAX_MAGNITUDE, 1}, {-above, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const float v = cases[i][0];
        const bool valid = cases[i][1] != 0.0f;
        float x[1] = {v}, y[1] = {0.0f}, r[1] = {1.0f};
        const c2d_circle_soa c = {x, y, r, 1, NULL, NULL};
        expect(c2d_validate_circles(&c), valid ? C2D_DEFECT_NONE : C2D_DEFECT_HUGE, 0);
        float rr[1] = {v};
        const c2d_circle_soa cr = {y, y, rr, 1, NULL, NULL};
        const c2d_defect want_r = v < 0.0f ? C2D_DEFECT_NEGATIVE_RADIUS
                                  : valid  ? C2D_DEFECT_NONE
                                           : C2D_DEFECT_HUGE;
        expect(c2d_validate_circles(&cr), want_r, 0);
    }
    float zero[1] = {0.0f}, negzero[1] = {-0.0f};
    const c2d_circle_soa c = {zero, zero, negzero, 1, NULL, NULL};
    expect(c2d_validate_circles(&c), C2D_DEFECT_NONE, 0);
    const c2d_capsule_soa k = {negzero, zero, negzero, zero, negzero, 1, NULL, NULL, NULL};
    expect(c2d_validate_capsules(&k), C2D_DEFECT_NONE, 0);
}

/* Valid input really is safe: at +-C2D_MAX_MAGNITUDE the largest squared distance the
 * library forms stays finite, so contacts are finite (no overflow to inf or NaN). */
static void test_limit_is_safe(void **state) {
    (void)state;
    const float m = C2D_MAX_MAGNITUDE;
    c2d_contact c;
    /* a circle of radius m at -m reaching the capsule of radius m along x = m */
    const bool hit = c2d_collide_circle_capsule((c2d_circle){{-m, 0.0f}, m},
                                                (c2d_capsule){{m, -m}, {m, m}, m}, &c);
    assert_true(hit); /* touching: distance 2m = m + m */
    assert_true(hard_finite(c.depth) && hard_finite(c.point.x) && hard_finite(c.point.y));
    assert_true(c.depth == 0.0f && c.normal.x == -1.0f && c.normal.y == 0.0f);
}

static void test_defect_strings(void **state) {
    (void)state;
    const char *seen[6] = {0};
    for (int d = C2D_DEFECT_NONE; d <= C2D_DEFECT_NULL; d++) {
        const char *s = c2d_defect_string((c2d_defect)d);
        assert_non_null(s);
        assert_true(strlen(s) > 0);
        for (int e = 0; e < d; e++)
            assert_string_not_equal(s, seen[e]);
        seen[d] = s;
    }
    assert_non_null(c2d_defect_string((c2d_defect)99));
    assert_non_null(c2d_defect_string((c2d_defect)-1));
    assert_string_not_equal(c2d_defect_string((c2d_defect)99), c2d_defect_string(C2D_DEFECT_NONE));
}

/* Misaligned arrays are fine (the validators read floats one by one). */
static void test_misaligned(void **state) {
    (void)state;
    float *block = malloc((3 * N + 3) * sizeof *block);
    assert_non_null(block);
    for (size_t i = 0; i < 3 * N + 3; i++)
        block[i] = (float)i;
    block[1 + N + 4] = -NAN; /* y of element 4 */
    const c2d_circle_soa c = {block + 1, block + 1 + N, block + 2 + 2 * N, N, NULL, NULL};
    expect(c2d_validate_circles(&c), C2D_DEFECT_NAN, 4);
    free(block);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_sets),
        cmocka_unit_test(test_each_defect_each_field),
        cmocka_unit_test(test_first_defect_wins),
        cmocka_unit_test(test_null),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_boundaries),
        cmocka_unit_test(test_limit_is_safe),
        cmocka_unit_test(test_defect_strings),
        cmocka_unit_test(test_misaligned),
    };
    return cmocka_run_group_tests_name("validators", tests, NULL, NULL);
}
