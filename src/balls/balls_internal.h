/* Shared by the ball entry points (balls.c) and the scene's ball calls. */
#ifndef C2D_BALLS_INTERNAL_H
#define C2D_BALLS_INTERNAL_H

#include "collide2d/balls.h"
#include "scalar/reference.h"

/* C2D_OK, or C2D_ERROR_NULL (no set, or a missing array) / C2D_ERROR_TOO_LARGE. */
C2D_INTERNAL c2d_status c2d_balls_check(const c2d_circle_soa *circles);

/* Sets *count = total and gives the status of a call that found `total` results: C2D_OK when
 * they fit or for a size query (out NULL, capacity 0), else C2D_ERROR_TRUNCATED. */
C2D_INTERNAL c2d_status c2d_balls_finish(size_t total, const void *out, size_t capacity,
                                         size_t *count);

#endif
