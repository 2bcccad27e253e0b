/// @file collide2d/world.h
/// The world: balls and capsules that step themselves. The program adds balls and capsules,
/// calls c2d_world_step() once a frame, and reads positions and events. The world runs the frame
/// a program would otherwise write on the layers below (scene, balls, frozen balls): contacts
/// once a step, substeps with a soft-contact stacking solver, swept moves against capsules,
/// sleep on the frozen-ball index, sensors and events, all deterministic.
///
/// Usage:
/// @code
/// c2d_world_def def = c2d_world_default_def();
/// c2d_world *world;
/// if (c2d_world_create(&def, &world) != C2D_OK) abort();
/// c2d_capsule_def floor = c2d_capsule_default_def();
/// floor.shape = (c2d_capsule){.a = {-20, 0}, .b = {20, 0}, .radius = 0.5f};
/// c2d_world_add_capsules(world, &floor, 1, NULL);
/// c2d_ball_def ball = c2d_ball_default_def();
/// ball.position = (c2d_vec2){0, 10};
/// c2d_ball_id id;
/// c2d_world_add_balls(world, &ball, 1, &id);
/// for (int frame = 0; frame < 600; frame++) {
///     c2d_world_step(world, 1.0f / 60.0f);
///     c2d_world_balls balls;
///     c2d_world_get_balls(world, &balls);     // draw balls.x[k], balls.y[k], balls.angle[k]
/// }
/// c2d_world_destroy(world);
/// @endcode
///
/// Scope: balls (solid discs) move; capsules are static or kinematic (moved by the program at a
/// velocity, or to a target, never pushed by balls). No polygons, no joints.
///
/// Units: the defaults suit metres and seconds with balls of radius about 0.1 to 2 (Box2D's
/// scale). A game in pixels scales the length fields by its pixels per unit: gravity,
/// max_push_speed, restitution_threshold, hit_speed, sleep_speed, wake_speed,
/// speculative_distance and max_speed (and positions, radii and velocities), and divides density
/// by the square of it if it wants the same masses. contact_hertz, the damping ratio,
/// sleep_time, the substeps and a ball's damping are free of units.
///
/// Statuses: C2D_ERROR_VALUE for a value outside the range written beside its field (NaN or
/// infinite included); C2D_ERROR_NULL for a NULL pointer that is needed; C2D_ERROR_INDEX for an
/// id that is unknown or removed; C2D_ERROR_STATE for a world call made while c2d_world_step()
/// runs; C2D_ERROR_TOO_LARGE past 2^24 - 1 balls or capsules; C2D_ERROR_ALLOC when memory runs
/// out. A refused call changes nothing.
///
/// Determinism: the same calls give the same bytes (c2d_world_hash()) on every SIMD backend, on
/// AArch64 and in WebAssembly, with any worker count. The step uses no libm (kinematic capsules
/// turn by a rotation built from + - x / and sqrt).
///
/// Memory: a step allocates only when a count (balls, awake balls, contacts, events) exceeds
/// its largest value so far; the buffers are kept.
#ifndef COLLIDE2D_WORLD_H
#define COLLIDE2D_WORLD_H

#include "frozen.h"
#include "search.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A world of balls and capsules (opaque).
typedef struct c2d_world c2d_world;

/// A ball's name: slot (low 24 bits) and generation (high 8 bits). A removed ball's id is
/// refused (C2D_ERROR_INDEX) for at least 255 reuses of its slot. C2D_NONE is never an id.
typedef uint32_t c2d_ball_id;
/// A capsule's name, made as a ball's is.
typedef uint32_t c2d_capsule_id;

/// The most balls (and, separately, capsules) a world holds: 2^24 - 1.
#define C2D_WORLD_MAX_COUNT ((size_t)0xFFFFFF)

/// A task: run items [start, end) of a job on worker `worker` (Box2D v3's shape).
typedef void c2d_task_fn(int start, int end, uint32_t worker, void *task_context);
/// Starts `task` over `item_count` items in ranges of at least `min_range` items on the
/// program's workers; returns a handle for c2d_finish_task_fn, or NULL when it ran the task
/// itself before returning.
typedef void *c2d_enqueue_task_fn(c2d_task_fn *task, int item_count, int min_range,
                                  void *task_context, void *user_context);
/// Waits until the task `user_task` (a handle enqueue returned) has finished.
typedef void c2d_finish_task_fn(void *user_task, void *user_context);

/// How a world steps. Get the defaults from c2d_world_default_def() and change fields by name.
/// Each field's range is beside it; a value outside it makes c2d_world_create() return
/// C2D_ERROR_VALUE.
typedef struct c2d_world_def {
    /// Acceleration of every ball, units/s^2; finite. Default (0, -10).
    c2d_vec2 gravity;
    /// Substeps a step, 1 to 64. Default 8: each substep integrates, solves contacts and moves
    /// the balls swept against the capsules.
    int substeps;
    /// Contact stiffness, Hz; > 0 and finite. Default 120. The world uses at most a quarter of
    /// the substep rate (substeps / dt / 4; 120 Hz at 8 substeps of 1/60 s): stiffer contacts
    /// than that jitter and never sleep. Overlap at rest falls with the square of it.
    float contact_hertz;
    /// Contact damping ratio; >= 0 and finite. Default 10 (heavily damped: piles do not bounce).
    float contact_damping_ratio;
    /// Speed at which overlap is pushed out, units/s; > 0 and finite. Default 1.
    float max_push_speed;
    /// Approach speeds below it do not bounce, units/s; >= 0 and finite. Default 1. Above it a
    /// pair leaves at restitution times its approach when the step began, but gets back at most
    /// restitution^2 times the energy its contact took out of that approach this step, so a
    /// crowd of bouncing balls never gains energy from its bounces.
    float restitution_threshold;
    /// Approach speed that makes a hit event, units/s; >= 0 and finite. Default 1.
    float hit_speed;
    /// Whether balls sleep. Default true.
    bool enable_sleep;
    /// A ball slower than this (its centre's speed plus its spin times its radius), units/s,
    /// for sleep_time seconds, that rests on a capsule or a sleeping ball, sleeps (not while a
    /// kinematic capsule that moves touches it); a ball that feels no gravity (gravity x its
    /// gravity_scale is 0) sleeps where it stops. > 0 and finite. Default 0.05.
    float sleep_speed;
    /// Seconds below sleep_speed before a ball sleeps; > 0 and finite. Default 0.3.
    float sleep_time;
    /// A sleeping ball wakes when a touching awake ball is faster than this, units/s (and
    /// before the solve when one approaches it faster than this and restitution_threshold:
    /// a struck ball moves as an awake one would);
    /// >= sleep_speed and finite. Default 0.2 (4 x sleep_speed). Setting it to sleep_speed
    /// gives DESIGN's literal rule; in piles of 40,000 that keeps the pile awake for ever
    /// (the top balls' settling twitches wake their neighbours, which twitch in turn).
    float wake_speed;
    /// Speculative contact distance a ball, units; >= 0 and finite. Default 0.05. Each step's
    /// contacts reach this far (plus a quarter of each ball's move in the step) beyond touching,
    /// so balls stop at a surface instead of landing inside it.
    float speculative_distance;
    /// Speed limit, units/s (Box2D v3's maximumLinearSpeed): a ball starts and leaves each step
    /// no faster (a faster velocity comes back to it along its direction), one with a force,
    /// damping or a gravity scale is held to it each substep, and a bounce off a capsule leaves
    /// no faster; otherwise gravity adds at most |g| dt within a step. It keeps a huge force,
    /// gravity scale, restitution or velocity from carrying a ball past what floats can sweep.
    /// > 0 and finite. Default 10,000.
    float max_speed;
    /// Memory hooks; NULL: malloc and free. Copied.
    const c2d_allocator *allocator;
    /// Workers the program's task system runs, 1 to 64. Default 1.
    int worker_count;
    /// The program's task system (both or neither); NULL: tasks run inline. The same bytes
    /// with any worker count.
    c2d_enqueue_task_fn *enqueue_task;
    c2d_finish_task_fn *finish_task; ///< See enqueue_task.
    void *user_task_context;         ///< Passed to enqueue_task and finish_task.
} c2d_world_def;

/// The defaults above.
C2D_API c2d_world_def c2d_world_default_def(void);

/// Creates an empty world. NULL `def` or `world`: C2D_ERROR_NULL; a field outside its range:
/// C2D_ERROR_VALUE; C2D_ERROR_ALLOC. On failure *world is NULL (when `world` is not NULL).
C2D_API c2d_status c2d_world_create(const c2d_world_def *def, c2d_world **world);
/// Releases the world and all its memory. NULL does nothing.
C2D_API void c2d_world_destroy(c2d_world *world);
/// Sets the world's gravity (finite, else C2D_ERROR_VALUE and nothing changes): a board that
/// tilts. A change wakes every sleeping ball (a ball sleeps only where it rests, and it may no
/// longer rest there); the same value changes nothing.
C2D_API c2d_status c2d_world_set_gravity(c2d_world *w, c2d_vec2 gravity);
/// The world's gravity ((0, 0) for NULL).
C2D_API c2d_vec2 c2d_world_gravity(const c2d_world *w);

/// A ball to add. Get the defaults from c2d_ball_default_def() and change fields by name.
typedef struct c2d_ball_def {
    c2d_vec2 position;      ///< Finite. Default (0, 0).
    c2d_vec2 velocity;      ///< Finite, units/s. Default (0, 0).
    float angular_velocity; ///< Finite, rad/s, counter-clockwise. Default 0.
    float radius;           ///< > 0 and finite. Default 0.5.
    /// >= 0 and finite; 0: never moves (and never sleeps: a static round peg is better a
    /// capsule with a == b). Above 0 the mass m = density (pi r^2), 1 / m and 2 / (m r^2)
    /// must be finite and m above 0 (in metres with density 1: radii from about 1e-9 to 1e18).
    /// Default 1.
    float density;
    /// >= 0 and finite; a pair mixes sqrt(a b). Above 1 a bounce gains speed (a bumper), up to
    /// c2d_world_def.max_speed. Default 0.
    float restitution;
    float friction; ///< >= 0 and finite; a pair mixes sqrt(a b). Default 0.6.
    /// >= 0 and finite: a torque that slows rolling, this times the radius times the contact's
    /// normal force. Default 0.05 (without it the bottom rows of a large pile creep for ever).
    float rolling_resistance;
    /// >= 0 and finite, 1/s: slows the ball's velocity by a factor 1 / (1 + h d) each substep
    /// of length h (Box2D's linearDamping: air drag, or the table's drag in a top-down game,
    /// where gravity is 0). Default 0.
    float linear_damping;
    /// >= 0 and finite, 1/s: the same for its spin (Box2D's angularDamping). Default 0.
    float angular_damping;
    /// Finite: the world's gravity times this acts on the ball (0: it floats; -1: a balloon).
    /// Default 1. (However large, the ball moves no faster than c2d_world_def.max_speed.)
    float gravity_scale;
    uint32_t category;  ///< Layers the ball is on (collide2d/filter.h). Default C2D_FILTER_ALL.
    uint32_t mask;      ///< Layers the ball meets. Default C2D_FILTER_ALL.
    bool events;        ///< Contact begin, end and hit events for this ball. Default false.
    bool enable_sleep;  ///< false: never sleeps (a player's ball). Default true.
    uint64_t user_data; ///< The program's own value, read back by c2d_world_ball_user_data().
} c2d_ball_def;

/// The defaults above.
C2D_API c2d_ball_def c2d_ball_default_def(void);

/// Adds `count` balls, awake; ids[k] (when `ids` is not NULL) receives defs[k]'s id. A ball
/// added overlapping another ball or a capsule is pushed out by the solver at up to
/// max_push_speed (its moves never take it deeper into a static capsule), along the line of
/// centres: two balls whose line is blocked (both wedged in a cup that holds one) stay
/// overlapped, and may sleep so when they cannot move. All or nothing: NULL
/// `w`, or `defs` NULL with count > 0: C2D_ERROR_NULL; a field out of range: C2D_ERROR_VALUE;
/// more than C2D_WORLD_MAX_COUNT balls: C2D_ERROR_TOO_LARGE; C2D_ERROR_ALLOC.
C2D_API c2d_status c2d_world_add_balls(c2d_world *w, const c2d_ball_def *defs, size_t count,
                                       c2d_ball_id *ids);
/// Removes the balls `ids[0 .. count)`. All or nothing: an unknown or removed id, or one listed
/// twice: C2D_ERROR_INDEX. The balls it touched wake; a removed ball inside a sensor reports
/// its exit at the next step. The order of c2d_world_get_balls() changes (the last balls fill
/// the holes).
C2D_API c2d_status c2d_world_remove_balls(c2d_world *w, const c2d_ball_id *ids, size_t count);

/// How a capsule moves.
typedef enum c2d_motion {
    C2D_STATIC,   ///< Never moves.
    C2D_KINEMATIC ///< Moves at its velocity, or to a target: never pushed by balls.
} c2d_motion;

/// A capsule to add. Get the defaults from c2d_capsule_default_def() and change fields by name.
typedef struct c2d_capsule_def {
    c2d_capsule shape;      ///< World coordinates; finite, radius >= 0. Default all zero.
    c2d_motion motion;      ///< Default C2D_STATIC.
    c2d_vec2 velocity;      ///< Kinematic: the pivot's velocity, units/s; finite. Default 0.
    float angular_velocity; ///< Kinematic: rad/s, counter-clockwise about the pivot; finite.
    /// Kinematic: the point it turns about (a flipper's hinge), world coordinates; finite.
    /// Default (0, 0). It moves at `velocity`, and with the capsule on c2d_world_move_capsule_to().
    c2d_vec2 pivot;
    float restitution; ///< >= 0 and finite; a pair mixes sqrt(a b). Default 1.
    /// >= 0 and finite; a pair mixes sqrt(a b) (a ball of friction 0.6 gets 0.775 against a
    /// default capsule). Default 1.
    float friction;
    uint32_t category; ///< Default C2D_FILTER_ALL.
    uint32_t mask;     ///< Default C2D_FILTER_ALL.
    /// Balls pass through; every sensor reports enter and exit events (filter words apply).
    /// Sensors are static (a kinematic sensor: C2D_ERROR_VALUE).
    bool sensor;
    bool events;        ///< Contact begin, end and hit events for this capsule. Default false.
    uint64_t user_data; ///< The program's own value.
} c2d_capsule_def;

/// The defaults above.
C2D_API c2d_capsule_def c2d_capsule_default_def(void);

/// Adds `count` capsules; ids as in c2d_world_add_balls(), with its statuses. A velocity or
/// angular velocity given to a static capsule: C2D_ERROR_VALUE. A motion other than
/// C2D_STATIC and C2D_KINEMATIC: C2D_ERROR_VALUE.
C2D_API c2d_status c2d_world_add_capsules(c2d_world *w, const c2d_capsule_def *defs, size_t count,
                                          c2d_capsule_id *ids);
/// Removes the capsules; all or nothing as c2d_world_remove_balls(). Sleeping balls that
/// touched them wake.
C2D_API c2d_status c2d_world_remove_capsules(c2d_world *w, const c2d_capsule_id *ids, size_t count);
/// Sets a kinematic capsule's velocity (its pivot's) and angular velocity (about its pivot),
/// kept until changed. A static capsule: C2D_ERROR_STATE. Non-finite: C2D_ERROR_VALUE.
/// Sleeping balls touching it wake when it moves.
C2D_API c2d_status c2d_world_set_capsule_motion(c2d_world *w, c2d_capsule_id id, c2d_vec2 velocity,
                                                float angular_velocity);
/// Moves a kinematic capsule to `target` over the next step, swept (its endpoints move on
/// straight lines over the step; a flipper stops exactly at its limit angle), then its motion is
/// zero. Its pivot is carried along: turned about the capsule's end `a` by the turn between the
/// two axes, `a` going to `target.a` (a pivot at `a`, a flipper's hinge, stays exactly where
/// `target.a` is; one elsewhere follows within rounding; a capsule moved away takes it along).
/// `target.radius` must equal the capsule's. A static capsule: C2D_ERROR_STATE; non-finite or
/// another radius: C2D_ERROR_VALUE.
C2D_API c2d_status c2d_world_move_capsule_to(c2d_world *w, c2d_capsule_id id, c2d_capsule target);
/// Whether `id` names a capsule; if so and `shape` is not NULL, *shape receives where it is.
C2D_API bool c2d_world_capsule(const c2d_world *w, c2d_capsule_id id, c2d_capsule *shape);

/// How a capsule moves now (c2d_world_capsule_motion()).
typedef struct c2d_capsule_motion {
    c2d_motion motion;      ///< C2D_STATIC or C2D_KINEMATIC.
    c2d_vec2 velocity;      ///< The pivot's velocity, units/s (0: static, or to_target).
    float angular_velocity; ///< rad/s, counter-clockwise about the pivot (0 likewise).
    c2d_vec2 pivot;         ///< Where the pivot is now, world coordinates ((0, 0) if static).
    /// A c2d_world_move_capsule_to() target waits for the next step (which moves the capsule
    /// there and leaves its motion zero).
    bool to_target;
    bool sensor; ///< A sensor (static: balls pass through it).
} c2d_capsule_motion;

/// Whether `id` names a capsule; if so and `out` is not NULL, *out receives its motion.
C2D_API bool c2d_world_capsule_motion(const c2d_world *w, c2d_capsule_id id,
                                      c2d_capsule_motion *out);

/// Advances the world by `dt` seconds (> 0 and finite): contacts once, then the substeps, then
/// sleep, sensors and events. Balls never tunnel through a capsule and never end deeper in a
/// static capsule than they started (a wedged ball stays wedged, at coordinates up to 2^14); a
/// kinematic capsule that overtakes a ball within a substep pushes it out on the side it came
/// from, end caps too (a bar 6 long spinning at up to 100 rad/s and a paddle at 3,000 units/s
/// tested).
/// A kinematic capsule that squeezes a ball against another capsule below the ball's diameter:
/// the ball keeps its side of every static capsule and may overlap, or be pushed through, the
/// kinematic one (the pinch rule); a kinematic capsule presses a ball against static ones
/// without friction or rolling resistance (with them a pusher's round end wedged a coin against
/// the floor). Ball-ball contacts are found once a step (with the
/// speculative distance): two balls whose relative speed stays below (ra + rb) / dt cannot pass
/// through each other.
C2D_API c2d_status c2d_world_step(c2d_world *w, float dt);

/// Every ball, as parallel arrays (valid until the next call that changes the world).
typedef struct c2d_world_balls {
    const float *x, *y, *vx, *vy, *angle, *angular_velocity, *radius;
    /// ids[k] names element k. The order changes only when balls are added (at the end) or
    /// removed (the last balls fill the holes), never by sleep or waking.
    const c2d_ball_id *ids;
    size_t count; ///< Every ball, awake and asleep.
} c2d_world_balls;

/// Fills `out` with every ball. NULL: C2D_ERROR_NULL.
C2D_API c2d_status c2d_world_get_balls(const c2d_world *w, c2d_world_balls *out);
/// Whether `id` names a ball; if so, its position and velocity (either pointer may be NULL).
C2D_API bool c2d_world_ball(const c2d_world *w, c2d_ball_id id, c2d_vec2 *position,
                            c2d_vec2 *velocity);
/// A ball as one read (c2d_world_ball_state()).
typedef struct c2d_ball_state {
    c2d_vec2 position, velocity;
    float angle, angular_velocity; ///< rad and rad/s, counter-clockwise (y up).
    float radius;
    /// The mass and the moment of inertia about the centre the solver uses (1 / its inverse
    /// mass: density x pi r^2 within rounding; I = m r^2 / 2); 0 for a ball of density 0.
    /// c2d_world_apply_ball_impulse() of mass x dv changes the velocity by dv.
    float mass, inertia;
    float friction, restitution, rolling_resistance;
    float linear_damping, angular_damping, gravity_scale;
    /// The force c2d_world_apply_ball_force() has gathered for the next step.
    c2d_vec2 force;
    uint32_t category, mask;
    bool awake, enable_sleep, events;
} c2d_ball_state;

/// Whether `id` names a ball; if so and `out` is not NULL, *out receives its state.
C2D_API bool c2d_world_ball_state(const c2d_world *w, c2d_ball_id id, c2d_ball_state *out);
/// Teleports a ball (finite); it wakes, and so do the sleeping balls it touched.
C2D_API c2d_status c2d_world_set_ball_position(c2d_world *w, c2d_ball_id id, c2d_vec2 p);
/// Sets a ball's velocity (finite); it wakes.
C2D_API c2d_status c2d_world_set_ball_velocity(c2d_world *w, c2d_ball_id id, c2d_vec2 v);
/// Adds impulse / mass to a ball's velocity (finite); it wakes. A ball of density 0 ignores it.
C2D_API c2d_status c2d_world_apply_ball_impulse(c2d_world *w, c2d_ball_id id, c2d_vec2 impulse);
/// Sets a ball's spin, rad/s counter-clockwise (finite); it wakes, and so do the sleeping balls
/// it touched. A ball of density 0 ignores it.
C2D_API c2d_status c2d_world_set_ball_angular_velocity(c2d_world *w, c2d_ball_id id,
                                                       float angular_velocity);
/// Adds a force (finite) at the ball's centre for the next step only (Box2D's
/// b2Body_ApplyForceToCenter): each substep of length h adds force / mass x h to its velocity,
/// so one step of dt adds force / mass x dt; calls before a step add up, and the step clears
/// them. The ball wakes, and so do the sleeping balls it touched (a force applied every frame
/// keeps the ball awake). A ball of density 0 ignores it. A sum, or the sum over the ball's
/// mass, that is not finite: C2D_ERROR_VALUE, and the force is unchanged.
C2D_API c2d_status c2d_world_apply_ball_force(c2d_world *w, c2d_ball_id id, c2d_vec2 force);
/// Set a ball's c2d_ball_def field of the same name after it was added, in the same range
/// (else C2D_ERROR_VALUE and nothing changes): it acts from the next step on (a pair mixes the
/// two balls' values each step). The ball wakes, and so do the sleeping balls it touched.
C2D_API c2d_status c2d_world_set_ball_friction(c2d_world *w, c2d_ball_id id, float friction);
C2D_API c2d_status c2d_world_set_ball_restitution(c2d_world *w, c2d_ball_id id, float restitution);
C2D_API c2d_status c2d_world_set_ball_rolling_resistance(c2d_world *w, c2d_ball_id id,
                                                         float rolling_resistance);
C2D_API c2d_status c2d_world_set_ball_linear_damping(c2d_world *w, c2d_ball_id id,
                                                     float linear_damping);
C2D_API c2d_status c2d_world_set_ball_angular_damping(c2d_world *w, c2d_ball_id id,
                                                      float angular_damping);
C2D_API c2d_status c2d_world_set_ball_gravity_scale(c2d_world *w, c2d_ball_id id,
                                                    float gravity_scale);
/// Sets a ball's category and mask (collide2d/filter.h), from the next step on: a ball let
/// through a floor falls through it. The ball wakes, and so do the sleeping balls it touched.
C2D_API c2d_status c2d_world_set_ball_filter(c2d_world *w, c2d_ball_id id, uint32_t category,
                                             uint32_t mask);
/// Whether the ball is awake (false for an unknown id).
C2D_API bool c2d_world_ball_awake(const c2d_world *w, c2d_ball_id id);
/// Wakes a ball, or puts it to sleep where it is (velocity zero) if what it touches (within
/// 0.005 of its radius: static capsules, kinematic capsules that hold still, sleeping balls)
/// can hold it up against its gravity, friction included; in mid-air or held only at its side
/// it stays awake (a sleeping ball always rests on something; one whose support wakes is woken
/// after the step unless it still touches something on its far side from gravity), unless it
/// feels no gravity (gravity x its gravity_scale is 0: a top-down game's ball sleeps where it
/// stops).
/// A ball of density 0 never sleeps.
C2D_API c2d_status c2d_world_set_ball_awake(c2d_world *w, c2d_ball_id id, bool awake);
/// Sets whether the ball may sleep (false wakes it).
C2D_API c2d_status c2d_world_set_ball_enable_sleep(c2d_world *w, c2d_ball_id id, bool enable);
/// The ball's user_data (0 for an unknown id).
C2D_API uint64_t c2d_world_ball_user_data(const c2d_world *w, c2d_ball_id id);
/// The capsule's user_data (0 for an unknown id).
C2D_API uint64_t c2d_world_capsule_user_data(const c2d_world *w, c2d_capsule_id id);
/// How many balls are awake.
C2D_API size_t c2d_world_awake_count(const c2d_world *w);
/// How many balls the world holds.
C2D_API size_t c2d_world_ball_count(const c2d_world *w);
/// How many capsules the world holds.
C2D_API size_t c2d_world_capsule_count(const c2d_world *w);

/// A contact event. For a ball-ball pair `ball` is the lower id and `other` the higher.
typedef struct c2d_world_contact_event {
    c2d_ball_id ball;
    uint32_t other;            ///< A ball id or a capsule id, as other_kind says.
    c2d_shape_kind other_kind; ///< C2D_SHAPE_CIRCLE (a ball) or C2D_SHAPE_CAPSULE.
    c2d_vec2 point;            ///< On `other`'s surface.
    c2d_vec2 normal;           ///< Unit, from `other` toward `ball`.
    float approach_speed;      ///< Begin and hit: the speed of approach; 0 for end.
} c2d_world_contact_event;

/// A sensor event: `ball` entered or left `sensor`.
typedef struct c2d_world_sensor_event {
    c2d_capsule_id sensor;
    c2d_ball_id ball;
} c2d_world_sensor_event;

/// The last step's events, each list in id order (ball, then other kind, then other; sensors
/// by sensor, then ball). Valid until the next step.
///
/// A pair reports when either side asked (`events`): begin when it starts touching (within 0.005
/// x the smaller radius at the end of a step, or struck within the step: a glancing blow that
/// parts again by the step's end begins and ends in that step), end when it parts by more than
/// 0.01 x the smaller radius (or a side is removed), hit when it begins (or a ball is swept into
/// a capsule) at an approach speed of at least hit_speed, once a pair a step. The point and
/// normal are where the shapes are at the end of the step. Sensors report always: enter when
/// c2d_overlap_circle_capsule() holds at the end of a step, exit when apart by more than 0.01 x
/// the ball's radius; a ball that passes
/// wholly through a sensor within one step gives one enter and one exit in that step.
typedef struct c2d_world_events {
    const c2d_world_contact_event *begins, *ends, *hits;
    size_t begin_count, end_count, hit_count;
    const c2d_world_sensor_event *enters, *exits;
    size_t enter_count, exit_count;
} c2d_world_events;

/// Fills `out` with the last step's events. NULL: C2D_ERROR_NULL.
C2D_API c2d_status c2d_world_get_events(const c2d_world *w, c2d_world_events *out);

/// A world query's result: a ball (C2D_SHAPE_CIRCLE) or a capsule (C2D_SHAPE_CAPSULE) by id.
typedef struct c2d_world_shape_ref {
    uint32_t id;
    c2d_shape_kind kind;
} c2d_world_shape_ref;

/// A ray's first hit: `id` and `kind` (C2D_NONE and C2D_SHAPE_NONE when none) and c2d_toi.
typedef struct c2d_world_ray_hit {
    uint32_t id;
    c2d_shape_kind kind;
    c2d_toi toi;
} c2d_world_ray_hit;

/// The first ball or capsule the ray from `origin` to `origin + translation` touches, among
/// those whose words meet (category, mask) (c2d_filter_allows); sensors are skipped. Each
/// shape's answer is c2d_ray_circle() or c2d_ray_capsule() (their start rule included); the
/// earliest t wins; ties: balls before capsules, then the lower id. No hit: C2D_OK with id
/// C2D_NONE, kind C2D_SHAPE_NONE and an all-zero toi. NULL `w` or `out`: C2D_ERROR_NULL; during
/// a step: C2D_ERROR_STATE; a NaN or infinite origin or translation: C2D_ERROR_VALUE (`out`
/// untouched on every error).
///
/// The world queries change nothing the world shows, but write scratch memory of the world's:
/// run them one at a time on a world, not at once from several threads, and not during
/// another call on it. Each costs what lies near the query (the sleeping balls through their
/// frozen index, the capsules through the world's scenes, the awake balls through a grid that
/// the first query after a step builds, in O(balls / 8 + awake balls), and the kinematic
/// capsules through a scene that query moves to where the step left them, in O(kinematic
/// capsules)), not the world's size; after capsules are added or removed, until the next
/// step, the capsules are tested one by one. A query allocates, through the world's
/// allocator, for that grid and scene (kept, grown as needed) and when more shapes lie near it
/// than its stack buffers hold (a few hundred: freed before returning). Out of memory, a query
/// tests every ball instead of the grid's, and a region query whose answer outgrows its stack
/// buffer returns C2D_ERROR_ALLOC.
C2D_API c2d_status c2d_world_cast_ray(const c2d_world *w, c2d_vec2 origin, c2d_vec2 translation,
                                      uint32_t category, uint32_t mask, c2d_world_ray_hit *out);
/// Every ball and capsule (sensors included) that overlaps `box` (c2d_overlap_box_circle(),
/// c2d_overlap_box_capsule()) and whose words meet (category, mask): balls in id order, then
/// capsules in id order, under batch.h's count, capacity and size-query rules (`*count` the
/// total; the first min(total, capacity) written; C2D_ERROR_TRUNCATED when more and `out` is
/// given; `out` NULL with capacity 0: C2D_OK with the total). Sleeping and awake balls alike.
/// A box with lo > hi on an axis is empty (no results). NULL `w` or `count`, or `out` NULL with
/// capacity > 0: C2D_ERROR_NULL; during a step: C2D_ERROR_STATE; a NaN or infinite bound:
/// C2D_ERROR_VALUE; C2D_ERROR_ALLOC; on every error *count is 0.
C2D_API c2d_status c2d_world_query_box(const c2d_world *w, c2d_box box, uint32_t category,
                                       uint32_t mask, c2d_world_shape_ref *out, size_t capacity,
                                       size_t *count);
/// As c2d_world_query_box() for the shapes that overlap the disc (c2d_overlap_circles(),
/// c2d_overlap_circle_capsule()). A NaN or infinite centre or radius, or a radius below 0:
/// C2D_ERROR_VALUE.
C2D_API c2d_status c2d_world_query_disc(const c2d_world *w, c2d_circle disc, uint32_t category,
                                        uint32_t mask, c2d_world_shape_ref *out, size_t capacity,
                                        size_t *count);
/// As c2d_world_query_box() for the shapes that contain the point (c2d_overlap_circles() of
/// the point as a disc of radius 0, c2d_point_in_capsule()). A NaN or infinite point:
/// C2D_ERROR_VALUE.
C2D_API c2d_status c2d_world_query_point(const c2d_world *w, c2d_vec2 point, uint32_t category,
                                         uint32_t mask, c2d_world_shape_ref *out, size_t capacity,
                                         size_t *count);

/// Where the last step's time went, in milliseconds of wall-clock time (C11 timespec_get):
/// Box2D's b2Profile. Timing never changes the world's bytes.
typedef struct c2d_world_profile {
    float step;     ///< The whole step.
    float contacts; ///< Gathering the awake balls and finding the contacts.
    float solve;    ///< The solver's passes (warm start, solve, relax, restitution, gravity).
    float moves;    ///< The swept moves and the kinematic capsules.
    float sleep;    ///< Sleep, waking and the support checks.
    float events;   ///< Contact and sensor events.
} c2d_world_profile;

/// The last step's profile. NULL: C2D_ERROR_NULL.
C2D_API c2d_status c2d_world_get_profile(const c2d_world *w, c2d_world_profile *out);

/// A hash of the world's state in id order (by the ids' slots): every ball's id, position,
/// velocity, angle, angular velocity and awake flag, and every kinematic capsule's endpoints
/// (FNV-1a, 64 bits, over the values' little-endian bytes). Equal on every backend and
/// platform for the same calls. 0 for NULL.
C2D_API uint64_t c2d_world_hash(const c2d_world *w);

#ifdef __cplusplus
}
#endif

#endif
