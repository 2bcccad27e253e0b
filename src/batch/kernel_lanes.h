/* What the circle-against-capsule kernels share (batch/kernels.c: collide, collide_pairs;
 * batch/kernels_sweep.c: sweep, sweep_pairs): the lane count W, lane masks, a padded tail load
 * and the filters' lanes. Included by files compiled once per backend with the flags and macros
 * of kernels.c. */
#ifndef C2D_BATCH_KERNEL_LANES_H
#define C2D_BATCH_KERNEL_LANES_H

#include "batch/lane_simd.h"
#include "batch/kernels.h"
#include "core/filter_words.h"

enum { W = C2D_LANES };

static inline unsigned lowest_bit(uint32_t bits) {
    return (unsigned)__builtin_ctz(bits);
}

/* Lane mask of the first n lanes (n <= W). */
static inline uint32_t first_lanes(size_t n) {
    return n >= 32 ? UINT32_MAX : (uint32_t)((1u << n) - 1u);
}

/* A partial vector at the end of an array, padded with `pad` so no read goes past the end. */
static inline lane_t load_tail(const float *p, size_t n, float pad) {
    float buf[W];
    for (size_t j = 0; j < W; j++)
        buf[j] = j < n ? p[j] : pad;
    return lane_load(buf);
}

/* ---- filters (collide2d/filter.h) -------------------------------------------------------- */

/* The lanes among the first `lanes` circles from `first` that meet capsule j (the filter allows
 * the pair and j is no sensor). Runs only for sets with filters, and only where the boxes or
 * the exact test already found something: the unfiltered path never reads a filter word. */
static uint32_t meet_lanes(const c2d_circle_soa *c, size_t first, size_t lanes,
                           const c2d_capsule_soa *k, size_t j) {
    uint32_t bits = 0;
    for (size_t l = 0; l < lanes; l++)
        bits |= (uint32_t)c2d_circle_meets_capsule(c, first + l, k, j) << l;
    return bits;
}

#endif
