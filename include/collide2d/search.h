/// @file collide2d/search.h
/// Queries a game asks of its world: ray casts (aiming, lasers, line of sight), region
/// queries (explosions, sensors, selection boxes) and point picking (the mouse), each as a
/// scalar reference function, a batch call over structure-of-arrays inputs and, for the
/// capsules of a scene, a scene call through its index.
///
/// Every batch and scene call returns the bytes that its scalar reference functions define,
/// on every backend and architecture (collide2d/batch.h), and follows batch.h's rules for
/// NULL arrays, counts above UINT32_MAX, counts, capacity, truncation and size queries.
/// A scene call returns exactly what the batch call returns for the scene's capsules.
///
/// Rays. A ray is the segment from its origin to origin + translation, travelled over
/// t in [0, 1] (Box2D's and Chipmunk's convention: the translation is the whole ray, not a
/// direction). A ray against a shape IS the sweep of a circle of radius 0 (query.h), so it
/// inherits the sweeps' rules:
/// - a ray touching a shape only at one point (grazing) hits it;
/// - a ray whose origin lies inside or on a shape hits it at t = 0 only when its translation
///   points deeper (`translation . n < 0`, n the shape's normal at the origin, from its axis
///   or centre toward the origin); pointing outward or along the surface, the ray gets no hit
///   from that shape and leaves it. Box2D ignores every shape that contains the origin; here a
///   ray that starts inside and heads into a shape is stopped at once, and one heading out is
///   not, as a ball would be (a laser from a gun touching a wall does not shoot through it);
/// - a zero-length (or NaN) translation hits nothing;
/// - the normal points from the shape toward the ray (against the ray's travel), the point is
///   on the shape's surface.
///
/// Region queries report (query, shape) pairs ordered by query index, then shape index.
///
/// Filters (collide2d/filter.h): every call honours the category and mask words of its rays
/// or query regions and of its shapes. A ray skips the shapes the rule refuses and every
/// sensor capsule (its earliest hit is taken over the rest); a region query leaves out the
/// pairs the rule refuses and sees sensors like any capsule.
#ifndef COLLIDE2D_SEARCH_H
#define COLLIDE2D_SEARCH_H

#include "batch.h"
#include "scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The closed axis-aligned box [lo.x, hi.x] x [lo.y, hi.y]. A box with lo > hi on an axis
/// (or a NaN bound) is empty: it overlaps nothing. lo == hi is allowed (a segment or point).
typedef struct c2d_box {
    c2d_vec2 lo, hi;
} c2d_box;

/// The first touch of the ray from `origin` to `origin + translation` with the capsule:
/// exactly c2d_sweep_circle_capsule() of a circle of radius 0 at `origin` moving by
/// `translation` (the same bytes; its start rule: a ray starting inside hits at t = 0 only
/// when heading deeper). Writes `*out` only on a hit.
C2D_API bool c2d_ray_capsule(c2d_vec2 origin, c2d_vec2 translation, c2d_capsule k, c2d_toi *out);

/// The first touch of the ray with the (static) circle: exactly c2d_sweep_circles() of a
/// circle of radius 0 at `origin` moving by `translation` against `c` not moving.
C2D_API bool c2d_ray_circle(c2d_vec2 origin, c2d_vec2 translation, c2d_circle c, c2d_toi *out);

/// True when the closed box and the capsule share a point: the distance from the capsule's
/// axis to the box is at most its radius (touching counts). Computed in double from the
/// float inputs: 0 when the axis meets the box (Liang-Barsky clipping of the axis against
/// the box), otherwise the smallest of the distances from the axis' ends to the box and from
/// the box's corners to the axis, squared and compared with R^2. Each step rounds once in
/// double, so the answer is exact except within a few double ulps (about 1e-16 relative to
/// the coordinates) of touching. An empty box, a NaN or a negative radius: false.
/// A zero-length axis is a circle (c2d_overlap_box_circle()).
C2D_API bool c2d_overlap_box_capsule(c2d_box b, c2d_capsule k);

/// True when the closed box and the circle share a point: c2d_overlap_box_capsule() with the
/// zero-length axis at the centre, i.e. the distance from the centre to the box (computed in
/// double) is at most the radius.
C2D_API bool c2d_overlap_box_circle(c2d_box b, c2d_circle c);

/// Rays as parallel arrays: ray i goes from (x[i], y[i]) to (x[i] + dx[i], y[i] + dy[i]).
typedef struct c2d_ray_soa {
    const float *x, *y, *dx, *dy;
    size_t count;
    /// Optional collision filter (collide2d/filter.h) per ray; NULL = C2D_FILTER_ALL.
    const uint32_t *category, *mask;
} c2d_ray_soa;

/// Which kind of shape a query result refers to.
typedef enum c2d_shape_kind {
    C2D_SHAPE_NONE = 0,    ///< Nothing (a ray that hits nothing).
    C2D_SHAPE_CAPSULE = 1, ///< A capsule of the capsule set (or the scene).
    C2D_SHAPE_CIRCLE = 2   ///< A circle of the circle set.
} c2d_shape_kind;

/// A ray's earliest hit: `shape` is the index of the shape hit in its set, `kind` says which
/// set. No hit: `shape` = C2D_NONE, `kind` = C2D_SHAPE_NONE and `toi` all zeros.
typedef struct c2d_ray_hit {
    uint32_t shape;
    uint32_t kind; ///< Holds a c2d_shape_kind (a uint32_t, so the record keeps 0.1.0's layout).
    c2d_toi toi;
} c2d_ray_hit;

/// For each ray, its earliest hit over the capsules (c2d_ray_capsule()) and the circles
/// (c2d_ray_circle()); either set may be NULL (no shapes of that kind). Ties go to the
/// capsules, then to the lowest index: the capsules are taken in index order, then the
/// circles, and a later hit replaces the kept one only when strictly earlier (t compared as
/// floats). `out` has rays->count entries. The capsule part is c2d_batch_sweep() of the
/// origins as circles of radius 0 (the same kernel, the same bytes); the circle part tests
/// every ray against every circle (culled by boxes), rays x circles work: there is no index
/// of circles for rays (yet). C2D_ERROR_NULL for NULL `rays`, a NULL array of a set
/// with a count above 0, or a NULL `out` with rays; C2D_ERROR_TOO_LARGE for a count above
/// UINT32_MAX.
C2D_API c2d_status c2d_batch_ray_cast(const c2d_ray_soa *rays, const c2d_capsule_soa *capsules,
                                      const c2d_circle_soa *circles, c2d_ray_hit *out);

/// Exactly c2d_batch_ray_cast(rays, scene's capsules, circles, out): the same bytes, with the
/// capsules found through the scene's index (each ray walks its path through the index cells,
/// nearest first, and stops past its best hit; its capsule part is what c2d_scene_sweep()
/// returns for the origins as circles of radius 0). `circles` may be NULL; they are not
/// indexed (each ray tests each circle, as the batch call does). Reads the scene only: calls on
/// separate outputs may run on several threads at once. NULL `scene`: C2D_ERROR_NULL; the other
/// statuses as c2d_batch_ray_cast().
C2D_API c2d_status c2d_scene_ray_cast(const c2d_scene *scene, const c2d_ray_soa *rays,
                                      const c2d_circle_soa *circles, c2d_ray_hit *out);

/// Axis-aligned boxes as parallel arrays: box i is [lo_x[i], hi_x[i]] x [lo_y[i], hi_y[i]]
/// (c2d_box's rules: closed, empty when lo > hi or NaN).
typedef struct c2d_box_soa {
    const float *lo_x, *lo_y, *hi_x, *hi_y;
    size_t count;
    /// Optional collision filter (collide2d/filter.h) per box; NULL = C2D_FILTER_ALL.
    const uint32_t *category, *mask;
} c2d_box_soa;

/// Points as parallel arrays: point i is (x[i], y[i]).
typedef struct c2d_point_soa {
    const float *x, *y;
    size_t count;
    /// Optional collision filter (collide2d/filter.h) per point; NULL = C2D_FILTER_ALL.
    const uint32_t *category, *mask;
} c2d_point_soa;

/// One result of a region query: query `query` overlaps shape `shape` of the set queried.
typedef struct c2d_query_pair {
    uint32_t query, shape;
} c2d_query_pair;

/// Every (box, capsule) pair with c2d_overlap_box_capsule() true, ordered by box index, then
/// capsule index. `*count` receives the total; the first min(total, capacity) are written and
/// nothing past them; C2D_ERROR_TRUNCATED when total > capacity and `out` is given; a size
/// query (`out` NULL, `capacity` 0) returns C2D_OK with the total; on any other error
/// `*count` is 0. `count` must not be NULL. Tests every box against every capsule (culled by
/// conservative boxes); a scene answers the same through its index (c2d_scene_query_box()).
C2D_API c2d_status c2d_batch_query_box_capsules(const c2d_box_soa *boxes,
                                                const c2d_capsule_soa *capsules,
                                                c2d_query_pair *out, size_t capacity,
                                                size_t *count);

/// As c2d_batch_query_box_capsules() for circles: the pairs with c2d_overlap_box_circle().
C2D_API c2d_status c2d_batch_query_box_circles(const c2d_box_soa *boxes,
                                               const c2d_circle_soa *circles, c2d_query_pair *out,
                                               size_t capacity, size_t *count);

/// Every (disc, capsule) pair with c2d_overlap_circle_capsule(disc, capsule) true (an
/// explosion's radius, a sensor), ordered by disc index, then capsule index; the count rules
/// of c2d_batch_query_box_capsules().
C2D_API c2d_status c2d_batch_query_disc_capsules(const c2d_circle_soa *discs,
                                                 const c2d_capsule_soa *capsules,
                                                 c2d_query_pair *out, size_t capacity,
                                                 size_t *count);

/// Every (disc, circle) pair with c2d_overlap_circles(disc, circle) true, ordered by disc
/// index, then circle index; the count rules of c2d_batch_query_box_capsules().
C2D_API c2d_status c2d_batch_query_disc_circles(const c2d_circle_soa *discs,
                                                const c2d_circle_soa *circles, c2d_query_pair *out,
                                                size_t capacity, size_t *count);

/// Point picking: every (point, capsule) pair with c2d_point_in_capsule() true (the capsules
/// under the mouse), ordered by point, then capsule. It is c2d_batch_query_disc_capsules()
/// with discs of radius 0, the same pairs: c2d_point_in_capsule(p, k) is by definition
/// c2d_overlap_circle_capsule() of the circle (p, 0). The count rules of
/// c2d_batch_query_box_capsules().
C2D_API c2d_status c2d_batch_query_point_capsules(const c2d_point_soa *points,
                                                  const c2d_capsule_soa *capsules,
                                                  c2d_query_pair *out, size_t capacity,
                                                  size_t *count);

/// Point picking among circles: the pairs with c2d_overlap_circles((p, 0), circle) true
/// (the point inside or on the circle), as c2d_batch_query_disc_circles() with discs of
/// radius 0.
C2D_API c2d_status c2d_batch_query_point_circles(const c2d_point_soa *points,
                                                 const c2d_circle_soa *circles, c2d_query_pair *out,
                                                 size_t capacity, size_t *count);

/// Exactly c2d_batch_query_box_capsules(boxes, scene's capsules, ...): the same pairs, order,
/// count and statuses, found through the scene's capsule index. Reads the scene only: calls
/// on separate outputs may run on several threads at once. NULL `scene`: C2D_ERROR_NULL.
C2D_API c2d_status c2d_scene_query_box(const c2d_scene *scene, const c2d_box_soa *boxes,
                                       c2d_query_pair *out, size_t capacity, size_t *count);

/// Exactly c2d_batch_query_disc_capsules(discs, scene's capsules, ...), through the index.
C2D_API c2d_status c2d_scene_query_disc(const c2d_scene *scene, const c2d_circle_soa *discs,
                                        c2d_query_pair *out, size_t capacity, size_t *count);

/// Exactly c2d_batch_query_point_capsules(points, scene's capsules, ...), through the index.
C2D_API c2d_status c2d_scene_query_point(const c2d_scene *scene, const c2d_point_soa *points,
                                         c2d_query_pair *out, size_t capacity, size_t *count);

#ifdef __cplusplus
}
#endif

#endif
