/* Small assertion helpers shared by the scalar-layer tests (cmocka underneath).
 *
 * cmocka's own assert_float_equal works in float and prints few digits; these compare in
 * double and print the values in full (%.9g) and in hex (%a), so a failure shows the exact
 * bits that went wrong. */
#ifndef C2D_SCALAR_TEST_H
#define C2D_SCALAR_TEST_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "collide2d.h"

/* |actual - expected| <= tol (false for NaN). */
#define CHECK_NEAR(actual, expected, tol)                                                          \
    c2d_check_near((double)(actual), (double)(expected), (double)(tol), #actual, __FILE__, __LINE__)
/* actual == expected as floats, bit for bit up to the sign of zero (false for NaN). */
#define CHECK_FEQ(actual, expected)                                                                \
    c2d_check_feq((float)(actual), (float)(expected), #actual, __FILE__, __LINE__)
/* Both components of a c2d_vec2 exactly equal to (ex, ey). */
#define CHECK_VEC_EQ(v, ex, ey)                                                                    \
    do {                                                                                           \
        CHECK_FEQ((v).x, (ex));                                                                    \
        CHECK_FEQ((v).y, (ey));                                                                    \
    } while (0)
/* Both components of a c2d_vec2 within tol of (ex, ey). */
#define CHECK_VEC_NEAR(v, ex, ey, tol)                                                             \
    do {                                                                                           \
        CHECK_NEAR((v).x, (ex), (tol));                                                            \
        CHECK_NEAR((v).y, (ey), (tol));                                                            \
    } while (0)

static inline void c2d_check_near(double a, double e, double tol, const char *what,
                                  const char *file, int line) {
    if (!(fabs(a - e) <= tol)) {
        print_error("%s = %.9g (%a), expected %.9g (%a) within %.3g\n", what, a, a, e, e, tol);
        _fail(file, line);
    }
}

static inline void c2d_check_feq(float a, float e, const char *what, const char *file, int line) {
    if (!(a == e)) {
        print_error("%s = %.9g (%a), expected exactly %.9g (%a)\n", what, (double)a, (double)a,
                    (double)e, (double)e);
        _fail(file, line);
    }
}

/* A byte pattern that no query writes by accident, for "out is untouched" checks. */
#define C2D_SENTINEL_BYTE 0xA5

/* Vector helpers for building inputs. */
static inline c2d_vec2 v2(float x, float y) {
    const c2d_vec2 v = {x, y};
    return v;
}
static inline c2d_circle circle(float x, float y, float r) {
    const c2d_circle c = {{x, y}, r};
    return c;
}
static inline c2d_segment segment(float ax, float ay, float bx, float by) {
    const c2d_segment s = {{ax, ay}, {bx, by}};
    return s;
}
static inline c2d_capsule capsule(float ax, float ay, float bx, float by, float r) {
    const c2d_capsule k = {{ax, ay}, {bx, by}, r};
    return k;
}

/* Runs a group with TAP output whether or not CMOCKA_MESSAGE_OUTPUT is set. */
#define C2D_RUN_TESTS(tests)                                                                       \
    (cmocka_set_message_output(CM_OUTPUT_TAP), cmocka_run_group_tests(tests, NULL, NULL))

#endif
