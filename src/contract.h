/* The argument contract every entry point shares (collide2d/batch.h "Argument rules"): one
 * definition of each check, called by the batch, ball, scene, frozen, search and response
 * layers.
 *
 * Each entry point still chooses the order of its checks (the order is part of its contract:
 * for an input with several defects, the check that fires first decides the status), but every
 * check means the same everywhere:
 *   - a set (circles, capsules, rays, regions) is NULL, or misses an array while count > 0:
 *     C2D_ERROR_NULL; a count above UINT32_MAX: C2D_ERROR_TOO_LARGE (NULL is reported first,
 *     as nothing can be read at all);
 *   - an output with a count: `count` NULL, or `out` NULL with capacity > 0: C2D_ERROR_NULL;
 *     `out` NULL with capacity 0 is a size query; every error leaves *count = 0;
 *   - a range [first, first + n) past a count: C2D_ERROR_INDEX.
 * Ground floor: public types only. The checks run once a call, never per element (but the
 * index checks, which read each index once, before anything is written). */
#ifndef C2D_CONTRACT_H
#define C2D_CONTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collide2d/batch.h"
#include "collide2d/scene.h"

/* Are the `count` arrays of a set of n elements all given (none is needed when n is 0). */
static inline bool c2d_arrays_given(size_t n, const float *const *arrays, size_t count) {
    for (size_t i = 0; n > 0 && i < count; i++)
        if (!arrays[i]) return false;
    return true;
}

/* An array of n elements: needed when n > 0. */
static inline bool c2d_array_given(size_t n, const void *array) {
    return n == 0 || array != NULL;
}

/* A count the kernels' 32-bit indices can hold. */
static inline c2d_status c2d_check_count(size_t n) {
    return n > UINT32_MAX ? C2D_ERROR_TOO_LARGE : C2D_OK;
}

/* The worse of two checks: C2D_ERROR_NULL before any other defect, then the first one. */
static inline c2d_status c2d_check_both(c2d_status first, c2d_status second) {
    if (first == C2D_ERROR_NULL || second == C2D_ERROR_NULL) return C2D_ERROR_NULL;
    return first != C2D_OK ? first : second;
}

/* A circle set: NULL or a missing array, then too large. */
static inline c2d_status c2d_check_circles(const c2d_circle_soa *c) {
    if (!c) return C2D_ERROR_NULL;
    const float *const arrays[] = {c->x, c->y, c->radius};
    if (!c2d_arrays_given(c->count, arrays, 3)) return C2D_ERROR_NULL;
    return c2d_check_count(c->count);
}

/* A capsule set: NULL or a missing array, then too large. */
static inline c2d_status c2d_check_capsules(const c2d_capsule_soa *k) {
    if (!k) return C2D_ERROR_NULL;
    const float *const arrays[] = {k->ax, k->ay, k->bx, k->by, k->radius};
    if (!c2d_arrays_given(k->count, arrays, 5)) return C2D_ERROR_NULL;
    return c2d_check_count(k->count);
}

/* Circles against capsules: either set NULL first, then too large (the circles' first). */
static inline c2d_status c2d_check_sets(const c2d_circle_soa *c, const c2d_capsule_soa *k) {
    return c2d_check_both(c2d_check_circles(c), c2d_check_capsules(k));
}

/* The output of a call that counts its results: `count` is needed (and set to 0 here, so
 * every error leaves it 0); `out` is needed unless capacity is 0 (a size query). */
static inline c2d_status c2d_check_output(const void *out, size_t capacity, size_t *count) {
    if (!count) return C2D_ERROR_NULL;
    *count = 0;
    return !out && capacity > 0 ? C2D_ERROR_NULL : C2D_OK;
}

/* A scene call that counts its results for a circle set: the output first, then the scene,
 * then the set. */
static inline c2d_status c2d_check_scene_counted(const c2d_scene *scene,
                                                 const c2d_circle_soa *circles, const void *out,
                                                 size_t capacity, size_t *count) {
    const c2d_status st = c2d_check_output(out, capacity, count);
    if (st != C2D_OK) return st;
    return scene ? c2d_check_circles(circles) : C2D_ERROR_NULL;
}

/* Sets *count = total: C2D_OK when the results fit or for a size query (out NULL, capacity 0,
 * as snprintf answers), else C2D_ERROR_TRUNCATED (the first `capacity` were written). */
static inline c2d_status c2d_finish_count(size_t total, const void *out, size_t capacity,
                                          size_t *count) {
    *count = total;
    if (!out && capacity == 0) return C2D_OK;
    return total > capacity ? C2D_ERROR_TRUNCATED : C2D_OK;
}

/* The per-element outputs of a sweep of n elements: the moves and `out` are needed when n > 0. */
static inline c2d_status c2d_check_moves(size_t n, const float *move_x, const float *move_y,
                                         const void *out) {
    return n > 0 && (!move_x || !move_y || !out) ? C2D_ERROR_NULL : C2D_OK;
}

/* Optional moves of n shapes: both arrays or neither (none read when n is 0). */
static inline c2d_status c2d_check_move_pair(size_t n, const float *move_x, const float *move_y) {
    return n > 0 && !move_x != !move_y ? C2D_ERROR_NULL : C2D_OK;
}

/* The range [first, first + n) within `count` elements. */
static inline c2d_status c2d_check_range(size_t first, size_t n, size_t count) {
    return first > count || n > count - first ? C2D_ERROR_INDEX : C2D_OK;
}

/* A pair of two of n balls: both below n, and not one ball twice. */
static inline bool c2d_ball_pair_in(uint32_t a, uint32_t b, size_t n) {
    return a < n && b < n && a != b;
}

/* Is every one of n indices below `limit`. Reads each index once, before anything is written.
 * 32-bit compares, branch-free: compilers vectorise this (a 64-bit compare they did not, and
 * the check cost a fifth of a dense c2d_batch_collide_pairs call). */
static inline bool c2d_indices_below(const uint32_t *index, size_t n, size_t limit) {
    if (limit > UINT32_MAX) return true; /* every uint32_t index is in range */
    const uint32_t end = (uint32_t)limit;
    uint32_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= (uint32_t)(index[i] >= end);
    return bad == 0;
}

#endif
