/// @file collide2d/scene.h
/// Scenes: static capsules indexed once and queried every frame, so that a frame costs what
/// its circles, capsules and contacts cost instead of circles x capsules.
///
/// A scene's answers are exactly the batch layer's over the scene's capsules: the same
/// contacts in the same order with the same bytes, the same counts and truncation, on every
/// backend. c2d_batch_collide() and c2d_batch_sweep() are its oracle, filters included: a
/// scene call honours the circles' filter words and the scene's copy of the capsules' words
/// and sensors (collide2d/filter.h) as the batch call does for the two sets.
///
/// Usage:
/// @code
/// c2d_scene *scene;
/// c2d_capsule_soa pins = {.ax = ax, .ay = ay, .bx = bx, .by = by, .radius = pin_radii,
///                        .count = n_pins};
/// if (c2d_scene_create(&pins, NULL, &scene) != C2D_OK) abort();   // copies and indexes pins
/// for (;;) {                                                      // every frame
///     c2d_circle_soa balls = {.x = xs, .y = ys, .radius = radii, .count = n_balls};
///     size_t n;
///     c2d_status st = c2d_scene_collide(scene, &balls, hits, capacity, &n);
///     // hits[0..min(n, capacity)) == what c2d_batch_collide(&balls, &pins, ...) writes
/// }
/// c2d_scene_destroy(scene);
/// @endcode
///
/// Threads: one frame can be split. Call c2d_scene_bin() once (one thread), or split it with
/// c2d_scene_bin_begin(), c2d_scene_bin_part() on any number of threads, c2d_scene_bin_end();
/// then c2d_scene_collide_range() on any number of threads over disjoint capsule ranges; their
/// outputs, concatenated in range order, are c2d_scene_collide()'s. c2d_scene_sweep_range()
/// splits a sweep over circle ranges the same way and needs no binning. Range calls only read
/// the scene; every other scene call needs the scene to itself.
///
/// Frame protocol: begin, every part, end, then ranges; a new begin (or c2d_scene_bin(), or
/// c2d_scene_collide()) replaces the frame. A call out of this order, a range call with
/// another circle set than the binned one, and any frame begun or binned before a
/// c2d_scene_move_capsules() give C2D_ERROR_STATE ("bin the circles again"), never a stale
/// answer. C2D_ERROR_INDEX is kept for indices and ranges outside the scene or the frame.
///
/// Frame checks: a frame keeps the circles' pointers, not their values. Every range call checks
/// what is cheap: the frame's state, capsule moves, and the circle set's count and pointers.
/// Built with frame checks (meson option `frame_checks`: on by default for the debug and
/// debugoptimized build types, off for release), binning also takes a checksum of the
/// circles' x, y and radius bytes and every range call recomputes it over all the circles
/// (about 0.7 ns a circle, 0.18 ms a call at 262,144 circles, on one x86-64 core): a changed
/// value gives C2D_ERROR_STATE. What remains the caller's duty: keeping the binned arrays
/// alive and unchanged from binning until the frame's last range call; without frame checks a
/// changed value goes unseen (the answer may match neither the old nor the new circles); with
/// them, a value changed and restored before a range call, or changed while a range call runs
/// on another thread (a data race), is not seen either, and several changes can cancel with a
/// chance near 2^-32. Sweep ranges keep nothing between calls: they read the arrays they are
/// given.
///
/// Memory: the scene allocates (through its allocator) only in c2d_scene_create(), in
/// c2d_scene_move_capsules() when the index outgrows its memory, in a frame that needs more
/// scratch memory than every earlier frame (grown geometrically and kept), when a collide
/// frame builds the fine index and when a sweep builds the sweep index (see c2d_scene_sweep()).
/// A steady stream of similar frames allocates nothing.
///
/// Cost: the first collide frame after c2d_scene_create() also builds the scene's fine index
/// for small circles (docs/scenes.md), in time proportional to the capsules and the cells they
/// reach; so does a frame whose circles outgrow the radius bound it chose (which grows
/// geometrically, so this is rare). Capsules moved since the build (up to 32 of them: flippers)
/// are tested against every circle of each frame instead; moving more makes the next frame
/// rebuild the index, or, when moves keep undoing the builds, work without it for a while. A
/// failed allocation returns C2D_ERROR_ALLOC and leaves the scene's capsules and index as they
/// were (a frame that failed is not binned; the next call may simply try again); a fine or
/// sweep index that cannot be built is no error: the frame uses the capsule index alone, with
/// the same bytes.
#ifndef COLLIDE2D_SCENE_H
#define COLLIDE2D_SCENE_H

#include "batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A set of capsules with its spatial index and its scratch memory (opaque).
typedef struct c2d_scene c2d_scene;

/// Memory hooks. `alloc` returns `size` bytes aligned for any type, or NULL on failure;
/// `free` releases what `alloc` returned (never called with NULL). `user` is passed to both.
/// A NULL allocator means malloc() and free().
typedef struct c2d_allocator {
    void *(*alloc)(size_t size, void *user); ///< Allocates `size` bytes, or returns NULL.
    void (*free)(void *ptr, void *user);     ///< Releases memory from `alloc`.
    void *user;                              ///< Passed to both hooks.
} c2d_allocator;

/// Creates a scene holding a copy of `capsules` (any count, 0 included) and its index. The
/// copy includes the set's filter and sensor arrays when it has them (collide2d/filter.h):
/// every scene call honours them as the batch call does for the set.
/// `allocator` may be NULL (malloc/free); it is copied. On success `*scene` receives the
/// scene; on failure `*scene` is set to NULL (when `scene` is not NULL).
/// Returns C2D_ERROR_NULL for a NULL `capsules`, `scene` or needed array (or an allocator
/// with a NULL hook), C2D_ERROR_TOO_LARGE for more than UINT32_MAX capsules, C2D_ERROR_ALLOC
/// when memory runs out.
C2D_API c2d_status c2d_scene_create(const c2d_capsule_soa *capsules, const c2d_allocator *allocator,
                                    c2d_scene **scene);

/// Releases the scene and all its memory. NULL does nothing.
C2D_API void c2d_scene_destroy(c2d_scene *scene);

/// The number of capsules of the scene (0 for NULL).
C2D_API size_t c2d_scene_capsule_count(const c2d_scene *scene);

/// Replaces capsules first .. first + capsules->count - 1 of the scene with `capsules`
/// (flippers, moving platforms) and updates the index. Filter and sensor arrays the set
/// carries replace those capsules' words too (a gate that opens); an array it leaves NULL
/// keeps the scene's words for them. The range must lie inside the scene:
/// otherwise C2D_ERROR_INDEX and nothing changes. C2D_ERROR_ALLOC leaves the scene as it was.
/// A move of at least one capsule makes every frame begun or binned before it stale: its
/// bin_part, bin_end and range calls return C2D_ERROR_STATE until the circles are binned again.
/// A move of no capsules changes nothing.
C2D_API c2d_status c2d_scene_move_capsules(c2d_scene *scene, size_t first,
                                           const c2d_capsule_soa *capsules);

/// Exactly c2d_batch_collide(circles, scene's capsules, out, capacity, count): every
/// overlapping pair's contact, ordered by capsule index, then circle index; `*count` receives
/// the total; the first min(total, capacity) are written and nothing past them;
/// C2D_ERROR_TRUNCATED when total > capacity. A size query (`out` NULL and `capacity` 0)
/// returns C2D_OK with the total. On any other error `*count` is 0 (when `count` is not NULL).
/// Pairs the filter refuses, and sensors, are left out before counting (collide2d/filter.h).
/// Bins `circles` as c2d_scene_bin() does (it replaces a binned frame).
C2D_API c2d_status c2d_scene_collide(c2d_scene *scene, const c2d_circle_soa *circles,
                                     c2d_pair_contact *out, size_t capacity, size_t *count);

/// Exactly c2d_batch_sweep(circles, move_x, move_y, scene's capsules, out): each circle's
/// earliest hit (ties to the lowest capsule index); `out` has circles->count entries. Uses
/// only the scene's indices. It allocates only to build its sweep index: at the second sweep
/// after the scene was created or capsules moved (not again while capsules keep moving soon
/// after each build), and again when the moves outgrow it (looked at once in 16 sweeps of 256
/// circles or more: more than a quarter of a sample of 64 above its size limit); out of memory
/// there is no error: the call answers from the capsule index alone, with the same bytes. The
/// earliest hit is taken over the capsules the filter allows, sensors skipped (a refused capsule
/// never hides one behind it).
C2D_API c2d_status c2d_scene_sweep(c2d_scene *scene, const c2d_circle_soa *circles,
                                   const float *move_x, const float *move_y, c2d_circle_toi *out);

/// The first step of a collide frame split across threads: finds the contacts of `circles`
/// for the range calls below, which copy them (one thread; may allocate scratch, see Memory
/// above). The scene keeps the
/// pointers of `circles`, not the values: the arrays must stay alive and unchanged until the
/// frame's c2d_scene_collide_range() calls are done (see Frame checks above).
C2D_API c2d_status c2d_scene_bin(c2d_scene *scene, const c2d_circle_soa *circles);

/// c2d_scene_bin() split into `parts` (1 to 64) for threads: c2d_scene_bin_begin() (one
/// thread), then c2d_scene_bin_part() once for each part 0 .. parts-1 (any threads, each part
/// once, all parts at the same time if wanted), then c2d_scene_bin_end() (one thread) makes the
/// frame ready for c2d_scene_collide_range(). Part p scans circles n*p/parts ..
/// n*(p+1)/parts - 1 and runs their exact tests: the parts hold a frame's work. The result
/// is c2d_scene_bin()'s. A part may allocate (its own buffer,
/// through the scene's allocator: with several threads the allocator must be thread-safe,
/// as malloc is). c2d_scene_bin_begin() replaces the frame binned before, even when it fails.
/// `parts` out of range: C2D_ERROR_INDEX, and the frame is left as it was.
C2D_API c2d_status c2d_scene_bin_begin(c2d_scene *scene, const c2d_circle_soa *circles,
                                       size_t parts);

/// Bins part `part` of the frame begun by c2d_scene_bin_begin(); calls for different parts
/// may run on different threads at once. No frame begun (or it was ended already), or a
/// capsule move since c2d_scene_bin_begin(): C2D_ERROR_STATE. A part outside the frame:
/// C2D_ERROR_INDEX.
C2D_API c2d_status c2d_scene_bin_part(c2d_scene *scene, size_t part);

/// Completes the frame begun by c2d_scene_bin_begin() once every part is binned (one thread;
/// may allocate). A part that failed: its status (C2D_ERROR_ALLOC); a part not binned, no
/// frame begun (or it was ended already), or a capsule move since c2d_scene_bin_begin():
/// C2D_ERROR_STATE. On failure no frame is binned; a part that failed or was missing may be
/// binned and c2d_scene_bin_end() called again (not after a capsule move: begin again).
C2D_API c2d_status c2d_scene_bin_end(c2d_scene *scene);

/// The contacts of capsules capsule_first .. capsule_first + capsule_count - 1 against the
/// circles of the last c2d_scene_bin(), in c2d_scene_collide()'s order, with its count,
/// truncation and size-query rules for this range. Reads the scene only: calls on separate
/// outputs may run on several threads at once. Outputs of consecutive ranges concatenated in
/// range order are c2d_scene_collide()'s output. A range outside the scene: C2D_ERROR_INDEX.
/// `circles` must be the binned set (the same pointers, filter arrays included, and count;
/// the filter words must stay unchanged too); otherwise, or when no
/// frame is binned completely, or capsules moved since it was begun, or (with frame checks)
/// the circles' values changed since binning: C2D_ERROR_STATE.
C2D_API c2d_status c2d_scene_collide_range(const c2d_scene *scene, const c2d_circle_soa *circles,
                                           size_t capsule_first, size_t capsule_count,
                                           c2d_pair_contact *out, size_t capacity, size_t *count);

/// Exactly c2d_batch_sweep_moving(circles, moves, scene's capsules, capsule_moves, out): the
/// sweep against capsules that move by (capsule_moves->x[k], capsule_moves->y[k]) over the
/// frame, a paddle or a platform (arrays of c2d_scene_capsule_count() entries; most entries
/// may be 0). Each circle's earliest hit, ties to the lowest capsule index, the point in world
/// space at time t, over the capsules the filter allows (sensors skipped), as
/// c2d_scene_sweep(). `capsule_moves` NULL or both its arrays NULL: c2d_scene_sweep(); one
/// array NULL without the other (with capsules): C2D_ERROR_NULL.
///
/// The index holds the capsules where they are; a capsule whose move is not zero is also
/// tried by every circle whose swept box meets the capsule's box grown by its move, so the
/// call costs about c2d_scene_sweep() plus circles x moving capsules box tests. Allocates only
/// when more capsules move than in any call before (C2D_ERROR_ALLOC: nothing written), and as
/// c2d_scene_sweep() does for its sweep index (which holds the capsules at rest).
C2D_API c2d_status c2d_scene_sweep_moving(c2d_scene *scene, const c2d_circle_soa *circles,
                                          const c2d_move_soa *moves,
                                          const c2d_move_soa *capsule_moves, c2d_circle_toi *out);

/// c2d_scene_sweep() for circles circle_first .. circle_first + circle_count - 1 only:
/// out[j] is circle circle_first + j's entry (out has circle_count entries). `circles`,
/// `move_x` and `move_y` are the whole frame's arrays. Reads the scene only (it uses the sweep
/// index a c2d_scene_sweep() built for the current capsules, and builds none): calls on
/// separate outputs may run on several threads at once; outputs of consecutive ranges
/// concatenated are c2d_scene_sweep()'s. A range outside the circles: C2D_ERROR_INDEX.
C2D_API c2d_status c2d_scene_sweep_range(const c2d_scene *scene, const c2d_circle_soa *circles,
                                         const float *move_x, const float *move_y,
                                         size_t circle_first, size_t circle_count,
                                         c2d_circle_toi *out);

/// Advances balls by a fraction of their moves without letting rounding push them into the
/// scene's capsules: the move step of the frame loop (README: "The frame loop"), after a sweep.
/// Ball i's new centre is written to (out_x[i], out_y[i]): its centre moved by t[i] of
/// (moves->x[i], moves->y[i]), as the float expression `x + move_x * t` gives it, unless that
/// point brings the ball closer to some capsule than the rule below allows; then it backs off
/// toward its start (bisection on t, a bounded number of steps, each point rounded to float;
/// never past the start, which always keeps the rule), and the rest of its move slides on from
/// there without its part into the lowest-indexed capsule the point broke the rule for (kept
/// only if every point of that slide keeps the rule, so a slide never jumps a thin capsule):
/// a ball moving along a wall it touches, with a speed into it that rounds to an ulp, keeps
/// its speed along the wall. It never moves farther than its move
/// but for that slide's outward nudge (an ulp or two of its coordinates) off the capsule.
///
/// The rule, for every capsule k the ball's filter words allow against k's (collide2d/filter.h,
/// as the sweeps apply them; sensors skipped: balls pass through them): the distance from the new
/// centre to k's axis is at least min(that distance at the start, r + R), r the ball's radius
/// and R the capsule's. The distance is computed in double from the floats: for a point p and
/// axis a-b, u = clamp(((p - a) . (b - a)) / |b - a|^2, 0, 1) (0 when a == b) and the distance
/// is |p - a - u (b - a)| (sqrt, no fused operations); r + R is their sum in double. So a ball
/// apart from a capsule never ends overlapping it, and a ball touching or overlapping it never
/// ends deeper: a ball wedged between two pins cannot ratchet through the gap a rounding a pass.
/// A ball far from every capsule moves exactly by `x + move_x * t`.
///
/// `t` holds ball i's fraction of its move (a sweep's hit time, 1 for no hit); NULL means 1 for
/// every ball (the whole move). Values are clamped to [0, 1]; NaN means 0. `out_x` and `out_y`
/// may be the very arrays `circles->x` and `circles->y` point to (each ball's centre is read
/// before it is written). A ball whose centre, radius or move is NaN or infinite stays where it
/// is (its outputs are its centre); a capsule with a value that is NaN or infinite is skipped
/// (the sweeps never hit a NaN one). Capsules are taken where the scene holds them: after a
/// sweep against capsules that move (c2d_scene_sweep_moving()), advance before moving them in
/// the scene; a ball that follows a capsule moving away may then lag it by a step.
///
/// Returns C2D_ERROR_NULL for a NULL `scene` or `circles`, a missing circle array, or (with
/// circles) a NULL `moves`, move array, `out_x` or `out_y`; C2D_ERROR_TOO_LARGE for more than
/// UINT32_MAX circles (after a NULL set or array). Nothing is written on error. Reads the scene
/// only and allocates nothing: calls may run on several threads at once (on separate outputs),
/// and a frame may be split by calling it on consecutive parts of the arrays. The same bytes on
/// every backend (plain C). Cost: a look-up per ball in the sweep index that the scene's last
/// sweeps built (or a region query through the capsule index), plus the exact distances to
/// the capsules near its path (more for a ball backing off): on the README loop's board about
/// 1.5 times a sweep's cost per ball.
C2D_API c2d_status c2d_scene_advance(const c2d_scene *scene, const c2d_circle_soa *circles,
                                     const c2d_move_soa *moves, const float *t, float *out_x,
                                     float *out_y);

#ifdef __cplusplus
}
#endif

#define COLLIDE2D_SCENE_DECLARED /* complete: compat.h may declare its old names */
#include "compat.h"

#endif
