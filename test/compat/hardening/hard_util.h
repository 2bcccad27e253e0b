/* Small helpers shared by the hardening tests: float comparison with NaN as "both NaN", the
 * available backends, and canary-filled output. Header-only (static inline). */
#ifndef C2D_HARD_UTIL_H
#define C2D_HARD_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "collide2d.h"

static inline uint32_t hard_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float hard_float(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline bool hard_is_nan(float v) {
    return v != v;
}

/* finite: neither NaN nor infinite (without isfinite, which -ffinite-math-only could fold) */
static inline bool hard_finite(float v) {
    return v - v == 0.0f;
}

/* Same bits, or both NaN (x86 and ARM make different default NaN bits: docs/design.md section 6).
 */
static inline bool hard_same(float a, float b) {
    return (a != a && b != b) || hard_bits(a) == hard_bits(b);
}

static inline bool hard_same_vec(c2d_vec2 a, c2d_vec2 b) {
    return hard_same(a.x, b.x) && hard_same(a.y, b.y);
}

static inline bool hard_same_contact(const c2d_contact *a, const c2d_contact *b) {
    return hard_same_vec(a->normal, b->normal) && hard_same(a->depth, b->depth) &&
           hard_same_vec(a->point, b->point);
}

static inline bool hard_same_toi(const c2d_toi *a, const c2d_toi *b) {
    return hard_same(a->t, b->t) && hard_same_vec(a->normal, b->normal) &&
           hard_same_vec(a->point, b->point);
}

static inline bool hard_same_pair(const c2d_pair_contact *a, const c2d_pair_contact *b) {
    return a->circle == b->circle && a->capsule == b->capsule &&
           hard_same_contact(&a->contact, &b->contact);
}

static inline bool hard_same_circle_toi(const c2d_circle_toi *a, const c2d_circle_toi *b) {
    return a->capsule == b->capsule && hard_same_toi(&a->toi, &b->toi);
}

/* The byte every canary-filled output starts as. */
#define HARD_CANARY 0xa5

static inline bool hard_untouched(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != HARD_CANARY) return false;
    return true;
}

/* The available backends, scalar first; returns how many. */
static inline size_t hard_backends(c2d_backend out[C2D_BACKEND_COUNT]) {
    size_t n = 0;
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++)
        if (c2d_backend_available((c2d_backend)b)) out[n++] = (c2d_backend)b;
    return n;
}

#endif
