/// @file collide2d/balls.h
/// Balls against balls: every overlapping pair of one set of circles, and each moving
/// circle's earliest hit against the others, over structure-of-arrays inputs.
///
/// Usage:
/// @code
/// c2d_circle_soa balls = {.x = xs, .y = ys, .radius = radii, .count = n};
/// size_t total;
/// c2d_batch_collide_circles(&balls, NULL, 0, &total);   // size query: C2D_OK, total
/// c2d_circle_pair_contact *pairs = malloc(total * sizeof *pairs);
/// c2d_batch_collide_circles(&balls, pairs, total, &total);
/// for (size_t k = 0; k < total; k++) {   // pairs[k].a < pairs[k].b, ordered by a, then b
///     // pairs[k].contact.normal points from ball b toward ball a
/// }
/// c2d_circle_hit *hits = malloc(n * sizeof *hits);
/// c2d_batch_sweep_circles(&balls, move_x, move_y, hits); // earliest hit of each ball
/// @endcode
///
/// The batch calls test every pair (O(n^2), SIMD): they are the reference that faster paths
/// are tested against, and the right tool for a few thousand balls.
///
/// Counts and statuses: `*count` receives the total number of pairs; the first
/// min(total, capacity) are written and nothing past them; C2D_ERROR_TRUNCATED says more
/// exist. A size query (`out` NULL and `capacity` 0) returns C2D_OK with the total. On any
/// other error `*count` is set to 0 (when `count` is not NULL) and nothing is written.
#ifndef COLLIDE2D_BALLS_H
#define COLLIDE2D_BALLS_H

#include "batch.h"
#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One overlapping pair of balls a < b, with the contact c2d_collide_circles(ball a, ball b)
/// returns: the normal points from b toward a, `point` is on b's surface.
typedef struct c2d_circle_pair_contact {
    uint32_t a, b;
    c2d_contact contact;
} c2d_circle_pair_contact;

/// The hit record: a moving circle's earliest hit, whom and when. In the ball sweeps `other`
/// is the index (or id) of the ball it hits (C2D_NONE when there is none, and `toi` is then
/// all zeros) and `toi` what c2d_sweep_circles(this ball, its move, other ball, its move)
/// returns. New calls that report an earliest hit use this record; the sweeps against
/// capsules keep c2d_circle_toi, the same record whose field is named `capsule`.
typedef struct c2d_circle_hit {
    uint32_t other;
    c2d_toi toi;
} c2d_circle_hit;

/// Every pair a < b of `circles` that overlaps (c2d_overlap_circles, touching counts), ordered
/// by a, then b, with its c2d_collide_circles(a, b) contact, byte for byte on every backend.
/// Tests all n(n-1)/2 pairs with the active SIMD backend. NaN coordinates and negative radii
/// never overlap anything. `out` may be NULL when `capacity` is 0; `count` must not be NULL.
/// Honours the set's filter words (collide2d/filter.h): a pair the filter refuses is neither
/// written nor counted.
C2D_API c2d_status c2d_batch_collide_circles(const c2d_circle_soa *circles,
                                             c2d_circle_pair_contact *out, size_t capacity,
                                             size_t *count);

/// For each ball i moving by (move_x[i], move_y[i]) over the frame, its earliest
/// c2d_sweep_circles(ball i, move i, ball j, move j) hit over every j != i; ties go to the
/// lowest j. `out` has circles->count entries; a ball without a hit gets other = C2D_NONE and
/// an all-zero toi. Tests all pairs with the active SIMD backend. With filter words
/// (collide2d/filter.h) only the balls j that ball i meets count: a refused ball never hides
/// an allowed one behind it.
C2D_API c2d_status c2d_batch_sweep_circles(const c2d_circle_soa *circles, const float *move_x,
                                           const float *move_y, c2d_circle_hit *out);

/// Exactly c2d_batch_collide_circles(circles, out, capacity, count) (same pairs, order, bytes,
/// count, truncation and statuses), found through a uniform grid rebuilt every call in the
/// scene's scratch memory: time grows with the balls and their contacts, not their square.
/// The scene's capsules play no part (a scene of zero capsules is a pure ball system).
/// Allocates only when a call needs more scratch than every earlier one (C2D_ERROR_ALLOC:
/// nothing changed, *count = 0). Needs the scene to itself.
C2D_API c2d_status c2d_scene_collide_circles(c2d_scene *scene, const c2d_circle_soa *circles,
                                             c2d_circle_pair_contact *out, size_t capacity,
                                             size_t *count);

/// Exactly c2d_batch_sweep_circles(circles, move_x, move_y, out), through the scene's grid of
/// swept boxes (memory as c2d_scene_collide_circles()).
C2D_API c2d_status c2d_scene_sweep_circles(c2d_scene *scene, const c2d_circle_soa *circles,
                                           const float *move_x, const float *move_y,
                                           c2d_circle_hit *out);

#ifdef __cplusplus
}
#endif

#endif
