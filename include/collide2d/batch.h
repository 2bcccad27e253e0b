/// @file collide2d/batch.h
/// The batch layer: the scalar queries over structure-of-arrays inputs, run by the active
/// SIMD backend (see collide2d/backend.h). Every result equals, byte for byte, what the scalar
/// function returns for that pair, on every backend and architecture.
///
/// Rules shared by every batch call:
/// - Any count may be 0, and its arrays may then be NULL.
/// - Arrays need no particular alignment.
/// - A NULL array or output that is needed gives C2D_ERROR_NULL and writes nothing.
/// - A count above UINT32_MAX gives C2D_ERROR_TOO_LARGE and writes nothing.
/// - Calls that return a count: a size query (`out == NULL` and `capacity == 0`) returns C2D_OK
///   with `*count` = the total, as snprintf() does; a real truncation (`out` given, total >
///   capacity) returns C2D_ERROR_TRUNCATED with `*count` = the total; on every other error
///   `*count` is set to 0 (when `count` is not NULL). Nothing is written past `capacity`.
/// - No heap allocation and no global state but the backend choice: calls on separate
///   outputs may run on several threads at once.
#ifndef COLLIDE2D_BATCH_H
#define COLLIDE2D_BATCH_H

#include "filter.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Circles as parallel arrays: circle i is (x[i], y[i]) with radius radius[i].
/// Initialise it by name, and the optional filter stays NULL:
/// `{.x = xs, .y = ys, .radius = radii, .count = n}`.
typedef struct c2d_circle_soa {
    const float *x, *y, *radius;
    size_t count;
    /// Optional collision filter (collide2d/filter.h): circle i is on the layers
    /// category[i] and meets the layers mask[i]; NULL = C2D_FILTER_ALL for every circle.
    const uint32_t *category, *mask;
} c2d_circle_soa;

/// Capsules as parallel arrays: capsule i has axis (ax[i], ay[i])-(bx[i], by[i]), radius[i].
/// Initialise it by name, and the optional filter and sensors stay NULL:
/// `{.ax = ax, .ay = ay, .bx = bx, .by = by, .radius = r, .count = n}`.
typedef struct c2d_capsule_soa {
    const float *ax, *ay, *bx, *by, *radius;
    size_t count;
    /// Optional collision filter (collide2d/filter.h): capsule i is on the layers
    /// category[i] and meets the layers mask[i]; NULL = C2D_FILTER_ALL for every capsule.
    const uint32_t *category, *mask;
    /// Optional: sensor[i] != 0 makes capsule i a sensor (collide2d/filter.h), seen by the
    /// region queries only; NULL = no sensors.
    const uint8_t *sensor;
} c2d_capsule_soa;

/// One contact found by a batch call, with the indices of its pair: circle `circle` against
/// capsule `capsule`, and their c2d_collide_circle_capsule() contact.
typedef struct c2d_pair_contact {
    uint32_t circle, capsule;
    c2d_contact contact;
} c2d_pair_contact;

/// c2d_pair_contact under the name the naming rule gives it (docs/design.md, "Names"): a
/// contact pair is `c2d_<second shape>_pair_contact`, as c2d_circle_pair_contact is for two
/// circles. The same type: either name may be used.
typedef c2d_pair_contact c2d_capsule_pair_contact;

/// A circle's earliest hit in the sweeps against capsules (c2d_batch_sweep() and its
/// siblings): `capsule` is C2D_NONE when there is none (and `toi` is then all zeros). The
/// same record as c2d_circle_hit (whom, when), whose field is named for a capsule.
typedef struct c2d_circle_toi {
    uint32_t capsule;
    c2d_toi toi;
} c2d_circle_toi;

/// "No capsule": the index a c2d_circle_toi holds when its circle hits nothing.
#define C2D_NONE UINT32_MAX

/// Result of the batch and backend calls.
typedef enum c2d_status {
    C2D_OK = 0,            ///< Done.
    C2D_ERROR_NULL,        ///< A needed pointer was NULL; nothing was written, *count = 0.
    C2D_ERROR_INDEX,       ///< A pair index was out of range; nothing was written, *count = 0.
    C2D_ERROR_TRUNCATED,   ///< More results exist than `capacity`; the first `capacity` were
                           ///< written and *count is the total. Never returned by a size query.
    C2D_ERROR_UNSUPPORTED, ///< The backend is not available on this CPU or build.
    C2D_ERROR_TOO_LARGE,   ///< A count exceeds UINT32_MAX (a world's: C2D_WORLD_MAX_COUNT);
                           ///< nothing was written, *count = 0.
    C2D_ERROR_ALLOC,       ///< Memory allocation failed; nothing changed (scenes), *count = 0.
    C2D_ERROR_STATE,       ///< Scenes: a call out of order, or a stale frame (capsules moved,
                           ///< another circle set, or its circles changed since binned): bin
                           ///< the circles again. Nothing was written, *count = 0.
                           ///< The world (collide2d/world.h): a call made while a step runs.
    C2D_ERROR_VALUE        ///< World calls only: a value outside the range written beside its
                           ///< field (NaN, infinite, radius <= 0, dt <= 0, ...). Nothing changed.
} c2d_status;

/// A short English description of `s` (never NULL; "unknown status" for other values).
C2D_API const char *c2d_status_string(c2d_status s);

/// Tests every circle against every capsule and reports each overlapping pair's
/// c2d_collide_circle_capsule() contact, ordered by capsule index, then circle index.
/// `*count` receives the total found; the first min(total, capacity) are written to `out`
/// and nothing past them. Returns C2D_ERROR_TRUNCATED when total > capacity and `out` is
/// given. `count` must not be NULL. Honours the sets' filters (collide2d/filter.h): refused
/// pairs and sensors are left out, and the total counts the pairs that remain.
///
/// Size query: with `out == NULL` and `capacity == 0` nothing is written and the call returns
/// C2D_OK with `*count` = the total, so a caller can size its buffer first:
/// @code
/// size_t n;
/// c2d_batch_collide(&balls, &pins, NULL, 0, &n);           // how many?
/// c2d_pair_contact *buf = malloc(n * sizeof *buf);
/// c2d_batch_collide(&balls, &pins, buf, n, &n);            // C2D_OK
/// @endcode
C2D_API c2d_status c2d_batch_collide(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                                     c2d_pair_contact *out, size_t capacity, size_t *count);

/// Tests the listed pairs (circle_index[i], capsule_index[i]) for i < pair_count, e.g. from a
/// broad phase, and reports the overlapping ones in input order, as c2d_batch_collide() does.
/// Any index out of range gives C2D_ERROR_INDEX, writes nothing and sets `*count = 0`.
/// The size query (`out == NULL`, `capacity == 0`) returns C2D_OK with the total. Listed
/// pairs that the filters refuse (collide2d/filter.h), or whose capsule is a sensor, are
/// skipped and not counted.
C2D_API c2d_status c2d_batch_collide_pairs(const c2d_circle_soa *circles,
                                           const c2d_capsule_soa *capsules,
                                           const uint32_t *circle_index,
                                           const uint32_t *capsule_index, size_t pair_count,
                                           c2d_pair_contact *out, size_t capacity, size_t *count);

/// For each circle i moving by (move_x[i], move_y[i]), its earliest
/// c2d_sweep_circle_capsule() hit over all (static) capsules; ties go to the lowest capsule
/// index. `out` has circles->count entries; a circle without a hit gets capsule = C2D_NONE
/// and an all-zero toi. Honours the filters (collide2d/filter.h): the earliest hit is taken
/// over the allowed pairs only, so a refused capsule or a sensor never hides one behind it.
C2D_API c2d_status c2d_batch_sweep(const c2d_circle_soa *circles, const float *move_x,
                                   const float *move_y, const c2d_capsule_soa *capsules,
                                   c2d_circle_toi *out);

/// The moves of a set over a frame, as parallel arrays: element i moves by (x[i], y[i]). It
/// has no count: it belongs to a set (circles, capsules) and has that set's count.
typedef struct c2d_move_soa {
    const float *x, *y;
} c2d_move_soa;

/// c2d_batch_sweep() against moving capsules: capsule k moves by
/// (capsule_moves->x[k], capsule_moves->y[k]) over the frame while circle i moves by
/// (moves->x[i], moves->y[i]). For each circle i, its earliest
/// c2d_sweep_circle_moving_capsule(circle i, move i, capsule k, capsule move k) hit over all
/// capsules; ties go to the lowest capsule index; `toi.point` is in world space at time t
/// (on the capsule where it then is). `capsule_moves` NULL, or both its arrays NULL: the
/// capsules are static and the answer is c2d_batch_sweep()'s, byte for byte; one array NULL
/// without the other (with capsules) gives C2D_ERROR_NULL, as does `moves` NULL or one of its
/// arrays NULL (with circles). `out` has circles->count entries. Every backend returns the
/// scalar loop's bytes. Filters and sensors as in c2d_batch_sweep().
C2D_API c2d_status c2d_batch_sweep_moving(const c2d_circle_soa *circles, const c2d_move_soa *moves,
                                          const c2d_capsule_soa *capsules,
                                          const c2d_move_soa *capsule_moves, c2d_circle_toi *out);

#ifdef __cplusplus
}
#endif

#define COLLIDE2D_BATCH_DECLARED /* complete: compat.h may declare its old names */
#include "compat.h"

#endif
