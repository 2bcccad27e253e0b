/* The simulation's collision queries: balls against the static capsules (contacts and sweeps)
 * and balls against balls, through a scene, optionally split over threads. */
#ifndef GALTON_QUERIES_H
#define GALTON_QUERIES_H

#include <collide2d.h>

typedef struct galton_queries {
    c2d_capsule_soa capsules;
    int threads;
    void *impl;
} galton_queries;

/* 0 on success. `capsules` must stay alive while the queries are used. */
int galton_queries_init(galton_queries *q, const c2d_capsule_soa *capsules, int threads);
void galton_queries_free(galton_queries *q);

/* Every ball-capsule contact in the batch layer's order (capsule, then ball). `*broad` and
 * `*narrow` receive the seconds spent binning and testing. Status and counts as
 * c2d_scene_collide(). */
c2d_status galton_collide_pins(galton_queries *q, const c2d_circle_soa *balls,
                               c2d_capsule_pair_contact *out, size_t capacity, size_t *count,
                               double *broad, double *narrow);

/* Every overlapping ball pair a < b, ordered by a then b (c2d_batch_collide_circles()). */
c2d_status galton_collide_balls(galton_queries *q, const c2d_circle_soa *balls,
                                c2d_circle_pair_contact *out, size_t capacity, size_t *count);

/* Frozen balls (collide2d/frozen.h) held by the queries' scene, named by their index in the
 * simulation's arrays: freeze copies them, thaw removes them; collide_frozen gives every pair
 * of an awake ball (balls[k], id ids[k]) and a frozen one, as c2d_batch_collide_circles over
 * all balls would (a < b are ids). */
c2d_status galton_freeze(galton_queries *q, const c2d_circle_soa *balls, const uint32_t *ids);
c2d_status galton_thaw(galton_queries *q, const uint32_t *ids, size_t count);
c2d_status galton_collide_frozen(galton_queries *q, const c2d_circle_soa *balls,
                                 const uint32_t *ids, c2d_circle_pair_contact *out, size_t capacity,
                                 size_t *count);

/* Each ball's earliest hit against the capsules (c2d_batch_sweep()). */
c2d_status galton_sweep_pins(galton_queries *q, const c2d_circle_soa *balls, const float *move_x,
                             const float *move_y, c2d_circle_toi *out);

/* Each ball advanced by t[k] of its move into (out_x, out_y), which may be the balls' own
 * arrays (c2d_scene_advance(): never closer to a capsule than rounding would take it). */
c2d_status galton_advance_pins(galton_queries *q, const c2d_circle_soa *balls, const float *move_x,
                               const float *move_y, const float *t, float *out_x, float *out_y);

/* Seconds on a monotonic clock (timings only; never part of the state). */
double galton_now(void);

#endif
