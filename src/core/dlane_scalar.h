/* Scalar double lanes for src/core/sweep_formula.h: dlane_t is one double, dmask_t a bool.
 * The companion of core/lane_scalar.h (float lanes), which must be included first. */
#ifndef C2D_CORE_DLANE_SCALAR_H
#define C2D_CORE_DLANE_SCALAR_H

#include <math.h>
#include <stdbool.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef double dlane_t;
typedef bool dmask_t;

/* A float lane holds one double lane (SIMD float lanes hold two, see batch/dlane_simd.h). */
#define DLANE_HALVES 1

static inline double dlane_add(double a, double b) {
    return a + b;
}
static inline double dlane_sub(double a, double b) {
    return a - b;
}
static inline double dlane_mul(double a, double b) {
    return a * b;
}
static inline double dlane_div(double a, double b) {
    return a / b;
}
/* Correctly rounded (IEEE); one instruction with -fno-math-errno (meson.build). */
static inline double dlane_sqrt(double a) {
    return sqrt(a);
}
static inline double dlane_abs(double a) {
    return fabs(a);
}
static inline double dlane_neg(double a) {
    return -a;
}
/* x86 minpd/maxpd semantics: the second operand unless the compare holds (so on NaN). */
#if defined(__SSE2__)
static inline double dlane_min(double a, double b) {
    return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(a), _mm_set_sd(b)));
}
static inline double dlane_max(double a, double b) {
    return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(a), _mm_set_sd(b)));
}
#else
static inline double dlane_min(double a, double b) {
    return a < b ? a : b;
}
static inline double dlane_max(double a, double b) {
    return a > b ? a : b;
}
#endif
static inline double dlane_splat(double a) {
    return a;
}
static inline double dlane_select(bool m, double yes, double no) {
    return m ? yes : no;
}
static inline bool dlane_lt(double a, double b) {
    return a < b;
}
static inline bool dlane_le(double a, double b) {
    return a <= b;
}
static inline bool dlane_gt(double a, double b) {
    return a > b;
}
static inline bool dlane_ge(double a, double b) {
    return a >= b;
}
static inline bool dmask_and(bool a, bool b) {
    return a && b;
}
static inline bool dmask_any(bool m) {
    return m;
}
/* The float lane as a double (exact), and back (rounded to nearest, as a C cast). */
static inline double dlane_from_lane(float a, int half) {
    (void)half;
    return (double)a;
}
static inline float lane_from_dlanes(double lo, double hi) {
    (void)hi;
    return (float)lo;
}

#endif
