/* Scalar lanes for src/core/segment_formula.h and src/core/contact_formula.h: lane_t is one
 * float, mask_t a bool. */
#ifndef C2D_CORE_LANE_SCALAR_H
#define C2D_CORE_LANE_SCALAR_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

/* Every float expression must be evaluated in float, or scalar and SIMD results differ. */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "libcollide2d needs FLT_EVAL_METHOD == 0 (SSE or NEON float arithmetic)"
#endif

typedef float lane_t;
typedef bool mask_t;

static inline float lane_add(float a, float b) {
    return a + b;
}
static inline float lane_sub(float a, float b) {
    return a - b;
}
static inline float lane_mul(float a, float b) {
    return a * b;
}
static inline float lane_div(float a, float b) {
    return a / b;
}
/* x86 minps/maxps semantics: the second operand unless the compare holds (so on NaN).
 * On x86 the instruction itself, since compilers turn the conditional into a branch that
 * mispredicts on random data; elsewhere the conditional (one fcsel on AArch64). */
#if defined(__SSE__)
static inline float lane_min(float a, float b) {
    return _mm_cvtss_f32(_mm_min_ss(_mm_set_ss(a), _mm_set_ss(b)));
}
static inline float lane_max(float a, float b) {
    return _mm_cvtss_f32(_mm_max_ss(_mm_set_ss(a), _mm_set_ss(b)));
}
#else
static inline float lane_min(float a, float b) {
    return a < b ? a : b;
}
static inline float lane_max(float a, float b) {
    return a > b ? a : b;
}
#endif
/* Correctly rounded (IEEE); one instruction with -fno-math-errno (meson.build). */
static inline float lane_sqrt(float a) {
    return sqrtf(a);
}
static inline float lane_abs(float a) {
    return fabsf(a);
}
/* Flips the sign bit, as the SIMD lanes' xor with -0.0 does. */
static inline float lane_neg(float a) {
    return -a;
}
static inline float lane_select(bool m, float yes, float no) {
    return m ? yes : no;
}
static inline bool lane_gt(float a, float b) {
    return a > b;
}
static inline bool mask_all(bool m) {
    return m;
}
static inline bool lane_le(float a, float b) {
    return a <= b;
}
static inline bool lane_ge(float a, float b) {
    return a >= b;
}
/* !(a <= b): true for NaN, as the SIMD form (the complement of the compare) is. */
static inline bool lane_not_le(float a, float b) {
    return !(a <= b);
}
static inline bool mask_and(bool a, bool b) {
    return a && b;
}
static inline bool mask_or(bool a, bool b) {
    return a || b;
}
static inline bool mask_any(bool m) {
    return m;
}
static inline float lane_splat(float a) {
    return a;
}

#endif
