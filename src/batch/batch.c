/* The batch API: argument checks, then the active backend's kernel. */
#include "dispatch.h"

const char *c2d_status_string(c2d_status s) {
    switch (s) {
    case C2D_OK:
        return "ok";
    case C2D_ERROR_NULL:
        return "a needed pointer is NULL";
    case C2D_ERROR_INDEX:
        return "a pair index is out of range";
    case C2D_ERROR_TRUNCATED:
        return "more results than capacity; output truncated";
    case C2D_ERROR_UNSUPPORTED:
        return "backend not available on this CPU or build";
    case C2D_ERROR_TOO_LARGE:
        return "a count exceeds UINT32_MAX";
    case C2D_ERROR_ALLOC:
        return "memory allocation failed; nothing changed";
    case C2D_ERROR_STATE:
        return "the call order is wrong or the frame is stale: bin the circles again";
    }
    return "unknown status";
}

/* Arrays of a set of n elements: all needed when n > 0. */
static bool arrays_present(size_t n, const float *const *arrays, size_t count) {
    if (n == 0) return true;
    for (size_t i = 0; i < count; i++)
        if (!arrays[i]) return false;
    return true;
}

static c2d_status check_circles(const c2d_circle_soa *c) {
    if (!c) return C2D_ERROR_NULL;
    const float *const arrays[] = {c->x, c->y, c->radius};
    if (!arrays_present(c->count, arrays, 3)) return C2D_ERROR_NULL;
    return c->count > UINT32_MAX ? C2D_ERROR_TOO_LARGE : C2D_OK;
}

static c2d_status check_capsules(const c2d_capsule_soa *k) {
    if (!k) return C2D_ERROR_NULL;
    const float *const arrays[] = {k->ax, k->ay, k->bx, k->by, k->radius};
    if (!arrays_present(k->count, arrays, 5)) return C2D_ERROR_NULL;
    return k->count > UINT32_MAX ? C2D_ERROR_TOO_LARGE : C2D_OK;
}

/* NULL is worse than too large: report it first, as nothing can be read at all. */
static c2d_status check_sets(const c2d_circle_soa *c, const c2d_capsule_soa *k) {
    const c2d_status sc = check_circles(c), sk = check_capsules(k);
    if (sc == C2D_ERROR_NULL || sk == C2D_ERROR_NULL) return C2D_ERROR_NULL;
    return sc != C2D_OK ? sc : sk;
}

/* A size query (no output, capacity 0) is answered with C2D_OK, as snprintf does; otherwise
 * more results than capacity is a truncation. */
static c2d_status finish(size_t total, const void *out, size_t capacity, size_t *count) {
    *count = total;
    if (!out && capacity == 0) return C2D_OK;
    return total > capacity ? C2D_ERROR_TRUNCATED : C2D_OK;
}

/* Every error leaves a defined count: 0. */
static c2d_status fail(c2d_status st, size_t *count) {
    if (count) *count = 0;
    return st;
}

c2d_status c2d_batch_collide(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                             c2d_pair_contact *out, size_t capacity, size_t *count) {
    if (!count || (!out && capacity > 0)) return fail(C2D_ERROR_NULL, count);
    const c2d_status st = check_sets(circles, capsules);
    if (st != C2D_OK) return fail(st, count);
    const size_t total = c2d_active_kernels()->collide(circles, capsules, out, capacity);
    return finish(total, out, capacity, count);
}

/* True when every index is below its set's count. Runs before anything is written. */
static bool indices_in_range(const uint32_t *index, size_t n, size_t limit) {
    if (limit > UINT32_MAX) return true; /* every uint32_t index is in range */
    /* 32-bit compares, branch-free: the compiler vectorises this (a 64-bit compare it did not,
     * and the check cost a fifth of a dense c2d_batch_collide_pairs call) */
    const uint32_t end = (uint32_t)limit;
    uint32_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad |= (uint32_t)(index[i] >= end);
    return bad == 0;
}

c2d_status c2d_batch_collide_pairs(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                                   const uint32_t *circle_index, const uint32_t *capsule_index,
                                   size_t pair_count, c2d_pair_contact *out, size_t capacity,
                                   size_t *count) {
    if (!count || (!out && capacity > 0)) return fail(C2D_ERROR_NULL, count);
    if (pair_count > 0 && (!circle_index || !capsule_index)) return fail(C2D_ERROR_NULL, count);
    const c2d_status st = check_sets(circles, capsules);
    if (st != C2D_OK) return fail(st, count);
    if (pair_count > UINT32_MAX) return fail(C2D_ERROR_TOO_LARGE, count);
    if (!indices_in_range(circle_index, pair_count, circles->count) ||
        !indices_in_range(capsule_index, pair_count, capsules->count))
        return fail(C2D_ERROR_INDEX, count);
    const size_t total = c2d_active_kernels()->collide_pairs(
        circles, capsules, circle_index, capsule_index, pair_count, out, capacity);
    return finish(total, out, capacity, count);
}

c2d_status c2d_batch_sweep(const c2d_circle_soa *circles, const float *move_x, const float *move_y,
                           const c2d_capsule_soa *capsules, c2d_circle_toi *out) {
    const c2d_status st = check_sets(circles, capsules);
    if (st != C2D_OK) return st;
    if (circles->count > 0 && (!move_x || !move_y || !out)) return C2D_ERROR_NULL;
    c2d_active_kernels()->sweep(circles, move_x, move_y, capsules, NULL, NULL, out);
    return C2D_OK;
}

c2d_status c2d_batch_sweep_moving_capsules(const c2d_circle_soa *circles, const float *move_x,
                                           const float *move_y, const c2d_capsule_soa *capsules,
                                           const float *capsule_move_x, const float *capsule_move_y,
                                           c2d_circle_toi *out) {
    const c2d_status st = check_sets(circles, capsules);
    if (st != C2D_OK) return st;
    if (circles->count > 0 && (!move_x || !move_y || !out)) return C2D_ERROR_NULL;
    if (capsules->count > 0 && !capsule_move_x != !capsule_move_y) return C2D_ERROR_NULL;
    /* no capsules: nothing reads the capsule moves */
    const bool moving = capsules->count > 0 && capsule_move_x;
    c2d_active_kernels()->sweep(circles, move_x, move_y, capsules, moving ? capsule_move_x : NULL,
                                moving ? capsule_move_y : NULL, out);
    return C2D_OK;
}

/* The move records' form (0.2.0, the naming rule): unpacked into the 0.1.0 call, which keeps
 * every status and byte. */
c2d_status c2d_batch_sweep_moving(const c2d_circle_soa *circles, const c2d_move_soa *moves,
                                  const c2d_capsule_soa *capsules,
                                  const c2d_move_soa *capsule_moves, c2d_circle_toi *out) {
    return c2d_batch_sweep_moving_capsules(
        circles, moves ? moves->x : NULL, moves ? moves->y : NULL, capsules,
        capsule_moves ? capsule_moves->x : NULL, capsule_moves ? capsule_moves->y : NULL, out);
}
