/* Balls against balls: the public entry points (argument checks, then a kernel or the grid). */
#include "balls/balls_internal.h"
#include "dispatch.h"

c2d_status c2d_balls_check(const c2d_circle_soa *c) {
    if (!c) return C2D_ERROR_NULL;
    if (c->count > 0 && (!c->x || !c->y || !c->radius)) return C2D_ERROR_NULL;
    return c->count > UINT32_MAX ? C2D_ERROR_TOO_LARGE : C2D_OK;
}

c2d_status c2d_balls_finish(size_t total, const void *out, size_t capacity, size_t *count) {
    *count = total;
    if (total <= capacity || (!out && capacity == 0)) /* fits, or a size query */
        return C2D_OK;
    return C2D_ERROR_TRUNCATED;
}

c2d_status c2d_batch_collide_circles(const c2d_circle_soa *circles, c2d_circle_pair_contact *out,
                                     size_t capacity, size_t *count) {
    if (!count) return C2D_ERROR_NULL;
    *count = 0;
    if (!out && capacity > 0) return C2D_ERROR_NULL;
    const c2d_status st = c2d_balls_check(circles);
    if (st != C2D_OK) return st;
    const size_t total =
        c2d_active_kernels()->collide_circles(circles, 0, circles->count, out, capacity, 0);
    return c2d_balls_finish(total, out, capacity, count);
}

c2d_status c2d_batch_sweep_circles(const c2d_circle_soa *circles, const float *move_x,
                                   const float *move_y, c2d_circle_hit *out) {
    const c2d_status st = c2d_balls_check(circles);
    if (st == C2D_ERROR_NULL) return st;
    if (circles->count > 0 && (!move_x || !move_y || !out)) return C2D_ERROR_NULL;
    if (st != C2D_OK) return st;
    c2d_active_kernels()->sweep_circles(circles, move_x, move_y, 0, circles->count, out);
    return C2D_OK;
}
