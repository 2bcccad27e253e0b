/* The batch API: argument checks (contract.h), then the active backend's kernel. */
#include "contract.h"
#include "dispatch.h"

const char *c2d_status_string(c2d_status s) {
    switch (s) {
    case C2D_OK:
        return "ok";
    case C2D_ERROR_NULL:
        return "a needed pointer is NULL";
    case C2D_ERROR_INDEX:
        return "an index is out of range, or an id unknown or removed";
    case C2D_ERROR_TRUNCATED:
        return "more results than capacity; output truncated";
    case C2D_ERROR_UNSUPPORTED:
        return "backend not available on this CPU or build";
    case C2D_ERROR_TOO_LARGE:
        return "a count exceeds its limit (UINT32_MAX; in a world, C2D_WORLD_MAX_COUNT)";
    case C2D_ERROR_ALLOC:
        return "memory allocation failed; nothing changed";
    case C2D_ERROR_STATE:
        return "the call order is wrong or the frame is stale: bin the circles again";
    case C2D_ERROR_VALUE:
        return "a value is outside its field's range (NaN, infinite, or out of bounds)";
    }
    return "unknown status";
}

c2d_status c2d_batch_collide(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                             c2d_pair_contact *out, size_t capacity, size_t *count) {
    c2d_status st = c2d_check_output(out, capacity, count);
    if (st == C2D_OK) st = c2d_check_sets(circles, capsules);
    if (st != C2D_OK) return st;
    const size_t total = c2d_active_kernels()->collide(circles, capsules, out, capacity);
    return c2d_finish_count(total, out, capacity, count);
}

c2d_status c2d_batch_collide_pairs(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                                   const uint32_t *circle_index, const uint32_t *capsule_index,
                                   size_t pair_count, c2d_pair_contact *out, size_t capacity,
                                   size_t *count) {
    c2d_status st = c2d_check_output(out, capacity, count);
    if (st != C2D_OK) return st;
    if (!c2d_array_given(pair_count, circle_index) || !c2d_array_given(pair_count, capsule_index))
        return C2D_ERROR_NULL;
    st = c2d_check_sets(circles, capsules);
    if (st == C2D_OK) st = c2d_check_count(pair_count);
    if (st != C2D_OK) return st;
    /* every index read once, before anything is written */
    if (!c2d_indices_below(circle_index, pair_count, circles->count) ||
        !c2d_indices_below(capsule_index, pair_count, capsules->count))
        return C2D_ERROR_INDEX;
    const size_t total = c2d_active_kernels()->collide_pairs(
        circles, capsules, circle_index, capsule_index, pair_count, out, capacity);
    return c2d_finish_count(total, out, capacity, count);
}

c2d_status c2d_batch_sweep(const c2d_circle_soa *circles, const float *move_x, const float *move_y,
                           const c2d_capsule_soa *capsules, c2d_circle_toi *out) {
    c2d_status st = c2d_check_sets(circles, capsules);
    if (st == C2D_OK) st = c2d_check_moves(circles->count, move_x, move_y, out);
    if (st != C2D_OK) return st;
    c2d_active_kernels()->sweep(circles, move_x, move_y, capsules, NULL, NULL, out);
    return C2D_OK;
}

c2d_status c2d_batch_sweep_moving(const c2d_circle_soa *circles, const c2d_move_soa *moves,
                                  const c2d_capsule_soa *capsules,
                                  const c2d_move_soa *capsule_moves, c2d_circle_toi *out) {
    const float *move_x = moves ? moves->x : NULL, *move_y = moves ? moves->y : NULL;
    const float *capsule_move_x = capsule_moves ? capsule_moves->x : NULL;
    const float *capsule_move_y = capsule_moves ? capsule_moves->y : NULL;
    c2d_status st = c2d_check_sets(circles, capsules);
    if (st == C2D_OK) st = c2d_check_moves(circles->count, move_x, move_y, out);
    if (st == C2D_OK) st = c2d_check_move_pair(capsules->count, capsule_move_x, capsule_move_y);
    if (st != C2D_OK) return st;
    /* no capsules: nothing reads the capsule moves */
    const bool moving = capsules->count > 0 && capsule_move_x;
    c2d_active_kernels()->sweep(circles, move_x, move_y, capsules, moving ? capsule_move_x : NULL,
                                moving ? capsule_move_y : NULL, out);
    return C2D_OK;
}

/* The 0.1.0 name (collide2d/compat.h): its loose moves packed into records. */
c2d_status c2d_batch_sweep_moving_capsules(const c2d_circle_soa *circles, const float *move_x,
                                           const float *move_y, const c2d_capsule_soa *capsules,
                                           const float *capsule_move_x, const float *capsule_move_y,
                                           c2d_circle_toi *out) {
    const c2d_move_soa moves = {move_x, move_y}, capsule_moves = {capsule_move_x, capsule_move_y};
    return c2d_batch_sweep_moving(circles, &moves, capsules, &capsule_moves, out);
}

/* ---- balls against balls ------------------------------------------------------------------ */

c2d_status c2d_batch_collide_circles(const c2d_circle_soa *circles, c2d_circle_pair_contact *out,
                                     size_t capacity, size_t *count) {
    c2d_status st = c2d_check_output(out, capacity, count);
    if (st == C2D_OK) st = c2d_check_circles(circles);
    if (st != C2D_OK) return st;
    const size_t total =
        c2d_active_kernels()->collide_circles(circles, 0, circles->count, out, capacity, 0);
    return c2d_finish_count(total, out, capacity, count);
}

c2d_status c2d_batch_sweep_circles(const c2d_circle_soa *circles, const float *move_x,
                                   const float *move_y, c2d_circle_hit *out) {
    /* a NULL set first; then missing moves before a count too large */
    c2d_status st = c2d_check_circles(circles);
    if (st == C2D_ERROR_NULL) return st;
    st = c2d_check_both(c2d_check_moves(circles->count, move_x, move_y, out), st);
    if (st != C2D_OK) return st;
    c2d_active_kernels()->sweep_circles(circles, move_x, move_y, 0, circles->count, out);
    return C2D_OK;
}
