/* The shared parts of the search calls (collide2d/search.h): the batch calls
 * (src/batch/search_batch.c) and the scene calls (src/scene/scene_search.c) differ only in how
 * they find capsules, so both run the same code around it. */
#ifndef C2D_BATCH_SEARCH_INTERNAL_H
#define C2D_BATCH_SEARCH_INTERNAL_H

#include "collide2d/search.h"
#include "scalar/search.h"

/* Rays per pass of a capsule sweep: the pass gets the origins as circles of radius 0. */
#define C2D_RAY_CHUNK 512

/* The capsule part of a ray cast: the earliest capsule hit of `n` points (circles of radius 0)
 * moving by (dx, dy), written to out[0 .. n) as c2d_batch_sweep() writes it. */
typedef void (*c2d_ray_capsule_pass)(const void *ctx, const c2d_circle_soa *points, const float *dx,
                                     const float *dy, c2d_circle_toi *out);

/* Checks the arguments of a ray cast (NULL, then too large), with batch.h's rules. */
C2D_INTERNAL c2d_status c2d_ray_cast_check(const c2d_ray_soa *rays, const c2d_circle_soa *circles,
                                           const c2d_ray_hit *out);

/* The ray cast on checked arguments: the capsules through `pass` (NULL: no capsules), then
 * the circles (NULL: none), the earliest hit kept (ties to capsules, then the lowest index). */
C2D_INTERNAL void c2d_ray_cast_run(const c2d_ray_soa *rays, c2d_ray_capsule_pass pass,
                                   const void *ctx, const c2d_circle_soa *circles,
                                   c2d_ray_hit *out);

#endif
