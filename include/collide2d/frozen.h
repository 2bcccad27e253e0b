/// @file collide2d/frozen.h
/// Frozen balls: resting balls that a scene holds as still circles, so a frame costs what its
/// awake balls cost. The program keeps its balls in full arrays; a ball's index there is its
/// id. Resting balls are frozen into the scene (copied); each frame the program compacts its
/// awake balls into an SoA with their ids, and asks for awake-vs-awake contacts
/// (c2d_scene_collide_circles) and awake-vs-frozen contacts (c2d_scene_collide_frozen).
///
/// Usage:
/// @code
/// c2d_scene_freeze_balls(scene, &resting, resting_ids);     // copies them, O(resting)
/// // each frame: awake = the awake balls, in increasing id order, awake_ids their ids
/// c2d_scene_collide_circles(scene, &awake, pairs, cap, &n);  // local indices: map by awake_ids
/// c2d_scene_collide_frozen(scene, &awake, awake_ids, more, cap2, &m); // global ids
/// // a pair whose id is frozen names a ball to thaw: c2d_scene_thaw_balls(scene, ids, k)
/// @endcode
///
/// The same bytes as if every ball were awake: with the awake balls in increasing id order,
/// the awake-vs-awake pairs (indices mapped to ids) together with the awake-vs-frozen pairs
/// are, once sorted by (a, b), exactly the pairs of c2d_batch_collide_circles over all balls
/// that involve an awake ball, contacts byte for byte, on every backend. For that the
/// awake-vs-frozen pairs keep the all-awake orientation: a < b are global ids and the contact
/// is c2d_collide_circles(ball a, ball b) whichever of the two is awake, so the normal points
/// toward the ball with the lower id (not always toward the awake one).
///
/// Sweeps likewise: an awake ball's earliest hit over the frozen balls is
/// c2d_sweep_circles(awake ball, its move, frozen ball, zero move) (c2d_scene_sweep_frozen(),
/// ties to the lowest frozen id); the earlier of it and the ball's c2d_scene_sweep_circles hit
/// over the awake balls (ties to the lowest id) is its c2d_batch_sweep_circles hit over all
/// balls where the frozen ones do not move.
///
/// Cost: freezing and thawing k balls costs O(k) (amortised: the index grows geometrically,
/// and only freezing allocates). The index is a hierarchical grid: level 0's cells are sized
/// from the spacing of the frozen centres (not their radii, so zero, tiny or huge radii do not
/// change it), each ball on the level whose cells fit its radius, each cell's balls packed in
/// blocks of four that a query tests at once; the cell is chosen again when the balls held
/// double or four times them have been frozen or thawed since (amortised O(1) a ball). A query
/// costs O(its cells + the frozen balls near it) on each level that holds a ball (a boulder
/// costs its own coarse level, not every query), so awake-vs-frozen costs O(awake balls +
/// their neighbours).
/// The index also keeps a hash map from id to slot, sized by the frozen balls (not by the
/// largest id: any id but C2D_NONE costs the same).
///
/// Waking policy (the program's, documented in docs/balls.md): freeze a ball once its speed
/// has stayed below a threshold for some frames; thaw the frozen balls that the contacts or
/// sweep hits of an awake ball faster than that threshold name.
#ifndef COLLIDE2D_FROZEN_H
#define COLLIDE2D_FROZEN_H

#include "balls.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Copies circles[k] into the scene's frozen balls under id `ids[k]` (`ids` NULL: id k), for k
/// in [0, circles->count). An id already frozen gets its new values (the last one wins when
/// an id repeats). Balls with NaN, negative radii or values beyond any range are held too
/// (thawed and counted like the others) and act as they would awake. All or nothing:
/// C2D_ERROR_NULL (scene, circles, or a needed array NULL), C2D_ERROR_TOO_LARGE (count above
/// UINT32_MAX), C2D_ERROR_INDEX (an id equal to C2D_NONE), C2D_ERROR_ALLOC (the index could not
/// grow) leave the frozen balls as they were. Allocates only when the index outgrows its
/// memory. Needs the scene to itself. The balls' filter words (collide2d/filter.h; NULL arrays:
/// every layer) are copied with them, and replaced when an id is frozen again.
C2D_API c2d_status c2d_scene_freeze_balls(c2d_scene *scene, const c2d_circle_soa *circles,
                                          const uint32_t *ids);

/// Removes the frozen balls `ids[0 .. count)` from the scene (ids not frozen are skipped), in
/// O(count), never allocating. C2D_ERROR_NULL when scene is NULL, or ids is NULL with
/// count > 0 (nothing removed). Needs the scene to itself.
C2D_API c2d_status c2d_scene_thaw_balls(c2d_scene *scene, const uint32_t *ids, size_t count);

/// How many balls the scene holds frozen (0 for NULL).
C2D_API size_t c2d_scene_frozen_count(const c2d_scene *scene);

/// Whether ball `id` is frozen; if so and `out` is not NULL, *out receives its frozen copy.
C2D_API bool c2d_scene_frozen_ball(const c2d_scene *scene, uint32_t id, c2d_circle *out);

/// Every overlapping pair of an awake ball (circles[k], global id ids[k], or k when `ids` is
/// NULL) and a frozen ball, as c2d_batch_collide_circles would report it if both were awake:
/// a < b are the two global ids and the contact is c2d_collide_circles(ball a, ball b).
/// Ordered by k (the awake ball's place in `circles`), then by the frozen id. A frozen ball
/// whose id equals the awake ball's is skipped. Counts, truncation and statuses as in
/// c2d_batch_collide_circles (`out` may be NULL when `capacity` is 0); C2D_ERROR_NULL also for
/// a NULL scene. Never allocates. Needs the scene to itself. A pair whose words (the awake
/// ball's against the frozen copy's, c2d_filter_allows) refuse it is neither written nor counted.
C2D_API c2d_status c2d_scene_collide_frozen(c2d_scene *scene, const c2d_circle_soa *circles,
                                            const uint32_t *ids, c2d_circle_pair_contact *out,
                                            size_t capacity, size_t *count);

/// For each awake ball k (circles[k] moving by (moves->x[k], moves->y[k]); global id ids[k],
/// or k when `ids` is NULL), its earliest c2d_sweep_circles(ball k, its move, frozen ball,
/// (0, 0)) hit over the frozen balls: out[k].other is the frozen ball's id (ties: the lowest),
/// or C2D_NONE with an all-zero toi. A frozen ball with the awake ball's own id is skipped.
/// `out` has circles->count entries. C2D_ERROR_NULL (`moves`, one of its arrays or `out` NULL
/// with balls) / C2D_ERROR_TOO_LARGE as in c2d_batch_sweep_circles (nothing written). Never
/// allocates. Frozen balls the filter words refuse are skipped (they never hide an allowed one).
C2D_API c2d_status c2d_scene_sweep_frozen(const c2d_scene *scene, const c2d_circle_soa *circles,
                                          const uint32_t *ids, const c2d_move_soa *moves,
                                          c2d_circle_hit *out);

#ifdef __cplusplus
}
#endif

#define COLLIDE2D_FROZEN_DECLARED /* complete: compat.h may declare its old names */
#include "compat.h"

#endif
