/* The world's state (collide2d/world.h), shared by the files of src/world/.
 *
 * Balls live in dense arrays (element k of c2d_world_get_balls()); a slot table maps an id's
 * slot to its dense index, so ids survive the swap-removal that keeps the arrays dense. The
 * sleeping balls are frozen into `balls_scene` (a scene of no capsules: the frozen-ball index
 * and the ball grid) under their dense index, which is what the frozen index calls an id.
 * Capsules likewise: dense arrays, a slot table, and three scenes built from them (static
 * solid capsules, sensors) plus a short list of kinematic ones.
 *
 * One step (world_step.c): the awake balls are compacted into `awake`, contacts are found once
 * with every radius grown by its speculative margin (world_contacts.c), the substeps integrate,
 * solve (world_solver.c) and move the balls swept against the capsules (world_move.c), then
 * sleep (world_sleep.c), sensors and contact events (world_events.c). */
#ifndef C2D_WORLD_INTERNAL_H
#define C2D_WORLD_INTERNAL_H

#include <math.h>
#include <stdatomic.h>

#include "alloc.h"
#include "collide2d/world.h"
#include "world_kinematic.h"

/* Ball flags. */
enum {
    WORLD_BALL_AWAKE = 1,
    WORLD_BALL_EVENTS = 2,
    WORLD_BALL_SLEEPS = 4,   /* the ball's enable_sleep */
    WORLD_BALL_FIXED = 8,    /* density 0: never moves (and never sleeps) */
    WORLD_BALL_QUEUED = 16,  /* in wake_queue: its sleeping neighbours' support is checked */
    WORLD_BALL_STRIKER = 32, /* within a step: woke a sleeping ball it strikes (world_step.c) */
};

/* Slot tables: a slot's dense index (or C2D_NONE when free) and generation. */
typedef struct world_slots {
    uint32_t *dense;
    uint8_t *generation;
    uint32_t *free_list; /* free slots, used last-in first-out */
    size_t count, capacity, free_count;
} world_slots;

#define WORLD_SLOT_BITS 24
#define WORLD_SLOT_MASK 0xFFFFFFu

static inline uint32_t world_id_slot(uint32_t id) {
    return id & WORLD_SLOT_MASK;
}
static inline uint32_t world_make_id(uint32_t slot, uint8_t generation) {
    return slot | (uint32_t)generation << WORLD_SLOT_BITS;
}

/* One contact of a step: ball `a` (a body: its index in the awake list) against ball `b` (a
 * body), or against something that does not move in the solve (`b` = C2D_NONE: a sleeping or
 * fixed ball, dense index `other`, or a capsule, dense index `other` with `kind` capsule). */
typedef struct world_contact {
    uint32_t a, b;
    uint32_t other;    /* dense index of the other ball, or of the capsule */
    uint32_t body_b;   /* the solver's body on the other side (world_solver.c) */
    uint8_t kind;      /* C2D_SHAPE_CIRCLE or C2D_SHAPE_CAPSULE */
    uint8_t kinematic; /* the capsule moves: `other_velocity` is its point's velocity */
    uint8_t events;    /* either side asked for events */
    uint8_t turned; /* a ball pair whose passes read the gap where the balls are (world_solver.c) */
    c2d_vec2 normal;          /* from the other toward a */
    c2d_vec2 point;           /* on the other's surface, at the step's start */
    float separation;         /* at the step's start: < 0 overlapping */
    float radius_a, radius_b; /* anchors: a's radius, b's radius (0 for a capsule) */
    float normal_mass, soft_mass, tangent_mass, inv_inertia_sum_roll;
    float friction, restitution, rolling;
    float normal_impulse, tangent_impulse, rolling_impulse, max_normal_impulse;
    float relative_velocity; /* normal velocity before the solve, for restitution */
    c2d_vec2 other_velocity; /* kinematic capsule: its velocity at the point */
    double end_gap;          /* exact gap after the substeps (world_sleep.c) */
} world_contact;

/* Warm-start memory: the impulses of last step's contacts, in rows of their owner ball. */
typedef struct world_warm_entry {
    uint32_t other; /* ball id or capsule id */
    uint32_t kind;
    float normal, tangent, rolling;
} world_warm_entry;

typedef struct world_warm {
    uint32_t *row_start; /* rows + 1 */
    world_warm_entry *entries;
    size_t rows, row_capacity, count, capacity;
} world_warm;

/* A sleeping ball struck this step: dense index, the speed it is struck at and the direction
 * (unit) it is pushed in. */
typedef struct world_strike {
    uint32_t ball;
    float speed, nx, ny;
} world_strike;

/* A pair remembered between steps for events: (ball id, kind, other id). */
typedef struct world_pair {
    uint32_t ball, kind, other;
} world_pair;

/* A growable array of `size`-byte elements. */
/* An axis-aligned box. */
typedef struct world_box {
    float lx, ly, hx, hy;
} world_box;

typedef struct world_array {
    void *data;
    size_t count, capacity;
} world_array;

struct c2d_world {
    c2d_world_def def;
    c2d_allocator allocator;
    atomic_int stepping;
    uint64_t step_index;
    c2d_world_profile profile; /* the last step's */
    uint64_t change_count;     /* bumped by every call that adds, removes or teleports a ball */

    /* Balls, dense. */
    size_t ball_count, ball_capacity;
    float *x, *y, *vx, *vy, *angle, *angular_velocity, *radius;
    float *inv_mass, *inv_inertia, *restitution, *friction, *rolling_resistance;
    float *linear_damping, *angular_damping, *gravity_scale;
    float *force_x, *force_y; /* c2d_world_apply_ball_force()'s, for the next step */
    size_t motion_balls;      /* balls with damping or a gravity scale other than 1 */
    bool forces;              /* a force was applied since the last step */
    float *sleep_timer;
    uint32_t *category, *mask;
    uint8_t *flags;
    uint64_t *user_data;
    c2d_ball_id *ids;
    uint32_t *warm_row;  /* the ball's row in `warm` when it owned contacts last step */
    uint64_t *warm_step; /* the step that row belongs to */
    uint32_t *rest_first, *rest_count; /* its entries in rest_pool (world_sleep.c) */
    world_slots ball_slots;
    size_t awake_count;   /* balls with WORLD_BALL_AWAKE */
    uint32_t *wake_queue; /* ids of balls woken since the last support check (ball_capacity) */
    size_t wake_count;
    uint32_t *local_of; /* an awake ball's index in `awake` (this step's; ball_capacity) */
    float max_radius;   /* the largest radius ever added */

    /* Capsules, dense. */
    size_t capsule_count, capsule_capacity;
    c2d_capsule *shape;
    uint8_t *motion, *sensor, *capsule_events;
    float *capsule_restitution, *capsule_friction;
    uint32_t *capsule_category, *capsule_mask;
    uint64_t *capsule_user_data;
    c2d_capsule_id *capsule_ids;
    struct c2d_world_kin *kin; /* per capsule (world_kinematic.h); used by kinematic ones */
    uint8_t *kin_target;       /* move_capsule_to pending: kin_goal holds the target */
    c2d_capsule *kin_goal;
    world_slots capsule_slots;

    /* Scenes. balls_scene: no capsules, the frozen index of sleeping balls (ids = dense
     * indices) and the ball grid. static_scene: static solid capsules; sensor_scene: sensors
     * (held as solid so collide reports them). The maps give a scene index's dense capsule. */
    c2d_scene *balls_scene, *static_scene, *sensor_scene;
    uint32_t *static_map, *sensor_map, *kinematic_list;
    /* The static capsules' largest |coordinate| + radius (in the moves' rounding slack). */
    float static_extent;
    size_t static_count, sensor_count, kinematic_count;
    bool capsules_dirty; /* the scenes are rebuilt before the next step or query */

    /* Step scratch (kept between steps). */
    uint32_t *awake; /* dense indices of the awake balls, ascending */
    size_t awake_list_count;
    float *ax, *ay, *ar, *ar_frozen;    /* awake SoA: centres, radii grown by the margin (and by
                                         * the sleeping balls' margin for ar_frozen) */
    float *margin;                      /* speculative margin against awake balls */
    float *margin_frozen;               /* and against sleeping ones (a whole step's move) */
    float *ar_capsule, *margin_capsule; /* radius and margin against capsules (a whole step's
                                            move: a ball without a capsule within it moves
                                            unswept) */
    uint32_t *acat, *amask;
    float *start_x, *start_y; /* awake balls' centres at the step's start */
    float *bvx, *bvy, *bw, *binv_mass, *binv_inertia, *bdx, *bdy; /* solver bodies */
    float *bgx, *bgy;             /* velocity a substep adds: gravity x scale, and the force */
    float *bdamp, *bdamp_spin;    /* factors a substep multiplies velocity and spin by */
    float *clearance;             /* distance the ball may move before a static capsule can be near
                                   * (its nearest one's gap at the step's start, less c2d_world_move_slack()) */
    float *travelled;             /* how far it moved this step */
    float *squeeze_x, *squeeze_y; /* the sum of its touching static capsules' normals
                                   * (world_solver.c) */
    float *move_taken; /* energy of its approach to capsules that the moves took out this step
                        * (stops below restitution_threshold, push-outs): restitution's budget */
    uint8_t *near_kinematic;
    uint8_t *holds; /* sleep's count of what holds each awake ball up (world_sleep.c) */
    size_t awake_capacity;
    size_t body_count; /* solver bodies: the awake balls, a still one, kinematic contacts' */
    world_contact *contacts;
    size_t contact_count, contact_capacity;
    /* Restitution's budget, by contact, kept only where restitution > 0 (not in world_contact:
     * the warm start and the solve stream those): the work of the normal impulses on the pair's
     * approach this step (< 0: taken out of it). */
    float *contact_work;
    size_t contact_work_capacity;
    size_t capsule_contact_count; /* the contacts' first ones: balls against capsules */
    void *scratch;                /* raw results of the scene calls */
    size_t scratch_bytes;
    world_strike *strikes; /* sleeping balls struck this step (world_sleep.c) */
    size_t strike_count, strike_capacity;
    c2d_circle_pair_contact *near; /* results of the sleep code's neighbour queries */
    size_t near_capacity;
    c2d_capsule *kin_start; /* kinematic capsules at the start of the substep (per list entry) */
    c2d_capsule *kin_step_start; /* and at the start of the step */
    c2d_capsule *kin_step_end;   /* and at its end */
    float *kin_reach;            /* how far any of its points moves this step */
    world_box *kin_box;          /* its box over the step, grown by that and its radius */
    uint32_t *kin_stamp;         /* the last awake ball that looked at it (+1) */
    size_t kin_capacity;
    /* The grid of those boxes and each awake ball's list of the kinematic capsules (list
     * indices) its box meets (world_kinematic_near.c): ball i's are kin_near[kin_first[i] ..
     * kin_first[i + 1]). */
    uint32_t *kin_cell_start, *kin_cell_items, *kin_first, *kin_near;
    size_t kin_cell_capacity, kin_item_capacity, kin_near_count, kin_near_capacity;
    float kin_grid_x0, kin_grid_y0, kin_grid_inv_cell; /* that grid's shape */
    int kin_grid_nx, kin_grid_ny;
    float *sweep_buf; /* the swept balls' SoA (world_move.c) */
    size_t sweep_capacity;
    world_warm warm[2];
    int warm_current;
    uint64_t warm_written; /* the step whose impulses warm[warm_current ^ 1] holds */
    /* The impulses each sleeping ball's contacts held when it fell asleep, for the warm start
     * of its first step awake: rest_used entries, rest_live of them still named by a ball. */
    world_warm_entry *rest_pool;
    uint32_t *rest_owner; /* by pool entry: the ball a range starting there was kept for */
    size_t rest_used, rest_live, rest_capacity;

    /* Events of the last step, and the pairs they track. */
    world_array begins, ends, hits, enters, exits;
    world_array touching, touching_next; /* world_pair, sorted */
    world_array inside, inside_next;     /* world_pair (ball, -, sensor id), sorted */
    world_array swept_hits;              /* c2d_world_contact_event: hits found by the sweeps */
    world_array sensor_found;            /* world_pair: this step's (sensor, ball, inside) */
    uint8_t *matched;                    /* per entry of `touching`: seen this step */
    size_t matched_capacity;

    /* The grid of the awake balls for world queries (world_query_grid.c), and the step it was
     * built at (a grid of another step is rebuilt by the next query). */
    uint64_t query_grid_step;
    void *query_grid;
    /* The kinematic capsules where the last step left them, for world queries
     * (world_query_kinematic.c): scene capsule j is kinematic_list[j]. */
    c2d_scene *query_kinematic;
    bool query_kinematic_fresh;
    uint64_t scenes_generation; /* counts the capsule scenes' rebuilds */
    float *capsule_soa;         /* c2d_world_capsule_scene's SoA: 5 floats and 2 words a capsule */
    uint32_t *capsule_words;
    size_t capsule_soa_capacity;
    uint64_t query_kinematic_generation; /* the rebuild query_kinematic was made after */
};

/* World queries (world_query_grid.c): the grid of the awake balls they use, built by the first
 * query after a step; none of these fails (out of memory, the queries test every ball):
 * - c2d_world_query_grid_build: builds it now, O(balls / 8 + awake), O(1) with none awake (a
 *   step may call it at its end to make the queries read only);
 * - c2d_world_query_note_ball: outside a step (ignored during one), after a ball was added,
 *   moved (teleported) or woken, once its values are in place; O(1);
 * - c2d_world_query_free: in c2d_world_destroy. */
C2D_INTERNAL void c2d_world_query_grid_build(c2d_world *w);
C2D_INTERNAL void c2d_world_query_note_ball(c2d_world *w, uint32_t dense);
C2D_INTERNAL void c2d_world_query_free(c2d_world *w);
/* Marks the queries' index of the kinematic capsules stale (a step is about to move them), or
 * frees it (`renumber`: the world's end); the next query that needs it brings it up to date
 * (and builds it anew after the capsule scenes were rebuilt: scenes_generation). */
C2D_INTERNAL void c2d_world_query_kinematic_drop(c2d_world *w, bool renumber);

/* Memory helpers (world_store.c). */
typedef struct world_array_ref {
    void **array;
    size_t size;
} world_array_ref;
C2D_INTERNAL bool c2d_world_reserve_all(c2d_world *w, world_array_ref *refs, size_t n,
                                        size_t *capacity, size_t need);
C2D_INTERNAL bool c2d_world_reserve(c2d_world *w, void **array, size_t *capacity, size_t need,
                                    size_t size);
C2D_INTERNAL bool c2d_world_array_push(c2d_world *w, world_array *a, const void *element,
                                       size_t size);

/* Slot tables (world_store.c). */
C2D_INTERNAL bool c2d_world_slots_reserve(c2d_world *w, world_slots *s, size_t more);
C2D_INTERNAL uint32_t c2d_world_slots_take(world_slots *s, uint32_t dense);
C2D_INTERNAL void c2d_world_slots_release(world_slots *s, uint32_t id);
C2D_INTERNAL bool c2d_world_lookup_ball(const c2d_world *w, c2d_ball_id id, uint32_t *dense);
/* Whether ball k's damping or gravity scale differ from the defaults (counted in
 * motion_balls: a world without such balls or forces steps every ball by v + g h alone). */
static inline bool c2d_world_own_motion(const c2d_world *w, uint32_t k) {
    return w->linear_damping[k] != 0.0f || w->angular_damping[k] != 0.0f ||
           w->gravity_scale[k] != 1.0f;
}

C2D_INTERNAL bool c2d_world_lookup_capsule(const c2d_world *w, c2d_capsule_id id, uint32_t *dense);

/* Every per-ball array with its element size, for growing them together (the adds:
 * world_balls.c, world_capsules.c) and freeing them (c2d_world_destroy: world_create.c); and
 * every per-capsule array likewise. */
#define BALL_ARRAYS(w)                                                                             \
    {(void **)&(w)->x, sizeof(float)}, {(void **)&(w)->y, sizeof(float)},                          \
        {(void **)&(w)->vx, sizeof(float)}, {(void **)&(w)->vy, sizeof(float)},                    \
        {(void **)&(w)->angle, sizeof(float)}, {(void **)&(w)->angular_velocity, sizeof(float)},   \
        {(void **)&(w)->radius, sizeof(float)}, {(void **)&(w)->inv_mass, sizeof(float)},          \
        {(void **)&(w)->inv_inertia, sizeof(float)}, {(void **)&(w)->restitution, sizeof(float)},  \
        {(void **)&(w)->friction, sizeof(float)},                                                  \
        {(void **)&(w)->rolling_resistance, sizeof(float)},                                        \
        {(void **)&(w)->linear_damping, sizeof(float)},                                            \
        {(void **)&(w)->angular_damping, sizeof(float)},                                           \
        {(void **)&(w)->gravity_scale, sizeof(float)}, {(void **)&(w)->force_x, sizeof(float)},    \
        {(void **)&(w)->force_y, sizeof(float)}, {(void **)&(w)->sleep_timer, sizeof(float)},      \
        {(void **)&(w)->category, sizeof(uint32_t)}, {(void **)&(w)->mask, sizeof(uint32_t)},      \
        {(void **)&(w)->flags, sizeof(uint8_t)}, {(void **)&(w)->user_data, sizeof(uint64_t)},     \
        {(void **)&(w)->ids, sizeof(uint32_t)}, {(void **)&(w)->warm_row, sizeof(uint32_t)},       \
        {(void **)&(w)->warm_step, sizeof(uint64_t)},                                              \
        {(void **)&(w)->rest_first, sizeof(uint32_t)},                                             \
        {(void **)&(w)->rest_count, sizeof(uint32_t)},                                             \
        {(void **)&(w)->wake_queue, sizeof(uint32_t)}, {                                           \
        (void **)&(w)->local_of, sizeof(uint32_t)                                                  \
    }

/* Every per-awake-ball array (the solver's bodies' included), for growing them together
 * (world_step.c) and freeing them (world_create.c). */
#define AWAKE_ARRAYS(w)                                                                            \
    {(void **)&(w)->awake, sizeof(uint32_t)}, {(void **)&(w)->ax, sizeof(float)},                  \
        {(void **)&(w)->ay, sizeof(float)}, {(void **)&(w)->ar, sizeof(float)},                    \
        {(void **)&(w)->ar_frozen, sizeof(float)}, {(void **)&(w)->margin, sizeof(float)},         \
        {(void **)&(w)->ar_capsule, sizeof(float)},                                                \
        {(void **)&(w)->margin_capsule, sizeof(float)}, {(void **)&(w)->acat, sizeof(uint32_t)},   \
        {(void **)&(w)->amask, sizeof(uint32_t)}, {(void **)&(w)->start_x, sizeof(float)},         \
        {(void **)&(w)->start_y, sizeof(float)}, {(void **)&(w)->bvx, sizeof(float)},              \
        {(void **)&(w)->bvy, sizeof(float)}, {(void **)&(w)->bw, sizeof(float)},                   \
        {(void **)&(w)->binv_mass, sizeof(float)}, {(void **)&(w)->binv_inertia, sizeof(float)},   \
        {(void **)&(w)->bdx, sizeof(float)}, {(void **)&(w)->bdy, sizeof(float)},                  \
        {(void **)&(w)->clearance, sizeof(float)}, {(void **)&(w)->travelled, sizeof(float)},      \
        {(void **)&(w)->near_kinematic, sizeof(uint8_t)},                                          \
        {(void **)&(w)->kin_first, sizeof(uint32_t)}, {(void **)&(w)->holds, sizeof(uint8_t)},     \
        {(void **)&(w)->move_taken, sizeof(float)}, {(void **)&(w)->margin_frozen, sizeof(float)}, \
        {(void **)&(w)->bgx, sizeof(float)}, {(void **)&(w)->bgy, sizeof(float)},                  \
        {(void **)&(w)->bdamp, sizeof(float)}, {(void **)&(w)->bdamp_spin, sizeof(float)},         \
        {(void **)&(w)->squeeze_x, sizeof(float)}, {                                               \
        (void **)&(w)->squeeze_y, sizeof(float)                                                    \
    }

#define CAPSULE_ARRAYS(w)                                                                          \
    {(void **)&(w)->shape, sizeof(c2d_capsule)}, {(void **)&(w)->motion, sizeof(uint8_t)},         \
        {(void **)&(w)->sensor, sizeof(uint8_t)},                                                  \
        {(void **)&(w)->capsule_events, sizeof(uint8_t)},                                          \
        {(void **)&(w)->capsule_restitution, sizeof(float)},                                       \
        {(void **)&(w)->capsule_friction, sizeof(float)},                                          \
        {(void **)&(w)->capsule_category, sizeof(uint32_t)},                                       \
        {(void **)&(w)->capsule_mask, sizeof(uint32_t)},                                           \
        {(void **)&(w)->capsule_user_data, sizeof(uint64_t)},                                      \
        {(void **)&(w)->capsule_ids, sizeof(uint32_t)},                                            \
        {(void **)&(w)->kin, sizeof(c2d_world_kin)}, {(void **)&(w)->kin_target, sizeof(uint8_t)}, \
    {                                                                                              \
        (void **)&(w)->kin_goal, sizeof(c2d_capsule)                                               \
    }

/* The checks of the public calls (world_defs.c): finite values, the defs' ranges, a world that
 * is stepping (whose calls are refused), and an id that repeats one before it in a list. */
C2D_INTERNAL bool c2d_world_finite(float v);
C2D_INTERNAL bool c2d_world_non_negative(float v); /* finite and >= 0 */
C2D_INTERNAL bool c2d_world_finite_vec(c2d_vec2 v);
C2D_INTERNAL bool c2d_world_def_valid(const c2d_world_def *d);
C2D_INTERNAL bool c2d_world_ball_def_valid(const c2d_ball_def *d);
C2D_INTERNAL bool c2d_world_shape_valid(c2d_capsule k);
C2D_INTERNAL bool c2d_world_capsule_def_valid(const c2d_capsule_def *d);
C2D_INTERNAL bool c2d_world_busy(const c2d_world *w);
C2D_INTERNAL bool c2d_world_listed_twice(const uint32_t *ids, size_t i);

/* Rebuilds the capsule scenes when capsules were added or removed (world_capsule_scenes.c). */
C2D_INTERNAL c2d_status c2d_world_refresh_scenes(c2d_world *w);
C2D_INTERNAL c2d_status c2d_world_capsule_scene(c2d_world *w, const uint32_t *map, size_t m,
                                                c2d_scene **scene);

/* Sleep and waking (world_sleep.c). */
C2D_INTERNAL void c2d_world_wake_ball(c2d_world *w, uint32_t dense); /* awake now; never fails */
C2D_INTERNAL bool c2d_world_sleep_ball(c2d_world *w,
                                       uint32_t dense); /* false: the index could not grow */
C2D_INTERNAL bool c2d_world_freeze_now(c2d_world *w, uint32_t dense);
C2D_INTERNAL void c2d_world_thaw_now(c2d_world *w, uint32_t dense);
C2D_INTERNAL c2d_status c2d_world_wake_neighbours(c2d_world *w, uint32_t dense);
C2D_INTERNAL c2d_status c2d_world_wake_capsule_support(c2d_world *w, uint32_t capsule);
C2D_INTERNAL c2d_status c2d_world_wake_near_kinematic(c2d_world *w, float dt);
/* Wakes the sleeping balls an awake ball may strike this step (approaching faster than
 * wake_speed and restitution_threshold, near enough to take an impulse), and those a struck
 * ball passes the strike on to, before the solve: a sleeping ball is a wall to the solve, and a
 * ball struck while asleep stayed put while the striker bounced off it. *woken: how many woke
 * (then the step gathers its balls again). C2D_ERROR_ALLOC. */
C2D_INTERNAL c2d_status c2d_world_wake_struck(c2d_world *w, float dt, size_t *woken);
/* Fills kin_first, kin_near and near_kinematic for the awake balls gathered this step, after
 * the kinematic capsules' plans (world_kinematic_near.c). Only allocation can fail. */
C2D_INTERNAL c2d_status c2d_world_find_kinematic_near(c2d_world *w);
/* near_kinematic[i]'s bits: ball i has a list (above), or has left the box its list was made
 * for (a ball struck by another one moves farther than its step's margin): its kinematic
 * capsules are then looked up in the grid (c2d_world_kinematic_in_box) for each move. */
enum { WORLD_KIN_LISTED = 1, WORLD_KIN_ESCAPED = 2 };
/* Calls visit(ctx, j) once for each kinematic capsule (list index j) whose box over the step
 * meets `box` and whose words allow awake ball i's, in no set order. */
C2D_INTERNAL void c2d_world_kinematic_in_box(const c2d_world *w, size_t i, world_box box,
                                             void (*visit)(void *ctx, uint32_t j), void *ctx);
C2D_INTERNAL c2d_status c2d_world_update_sleep(c2d_world *w, float dt);
C2D_INTERNAL c2d_status c2d_world_check_support(c2d_world *w);
C2D_INTERNAL c2d_status c2d_world_sleep_if_supported(c2d_world *w, uint32_t dense);

/* The awake balls as the scene calls take them, with the radii `radius` (one of the awake
 * arrays: ar, ar_frozen, ar_capsule). */
static inline c2d_circle_soa c2d_world_awake_soa(const c2d_world *w, const float *radius) {
    return (c2d_circle_soa){.x = w->ax,
                            .y = w->ay,
                            .radius = radius,
                            .count = w->awake_list_count,
                            .category = w->acat,
                            .mask = w->amask};
}

/* Ball k (a dense index) alone as the scene calls take it, with the radius at `radius` (its
 * own, &w->radius[k], or one grown for the call). */
static inline c2d_circle_soa c2d_world_ball_soa(const c2d_world *w, uint32_t k,
                                                const float *radius) {
    return (c2d_circle_soa){.x = &w->x[k],
                            .y = &w->y[k],
                            .radius = radius,
                            .count = 1,
                            .category = &w->category[k],
                            .mask = &w->mask[k]};
}

/* A scene call that writes records into `out` (at most `capacity`) and its total into
 * *total; c2d_world_into_scratch() runs it into w->scratch, grown until the records fit
 * (world_contacts.c). */
typedef c2d_status c2d_world_scratch_call(c2d_world *w, void *out, size_t capacity, size_t *total,
                                          const void *ctx);
C2D_INTERNAL c2d_status c2d_world_into_scratch(c2d_world *w, c2d_world_scratch_call *call,
                                               size_t size, const void *ctx, size_t *total);

/* The rounding slack of an unswept move of a ball at (x, y) of radius r and capsule margin mc:
 * a capsule's gap from the contact test, the float sums of the moves and the distance they
 * add up each err by a few ulps of the magnitudes involved, the capsules' coordinates among
 * them (a long capsule's gap near the origin errs by ulps of its far ends); 2^-16 of them is
 * hundreds of ulps. A ball may move unswept while the distance it travelled stays below the
 * nearest capsule's gap (or mc: none nearer) less this. */
static inline float c2d_world_move_slack(const c2d_world *w, float x, float y, float r, float mc) {
    return (fabsf(x) + fabsf(y) + r + mc + w->static_extent) * 0x1p-16f;
}

/* The step's stages (world_step.c and the files it calls). */
C2D_INTERNAL c2d_status c2d_world_find_contacts(c2d_world *w, float dt);
C2D_INTERNAL void c2d_world_solve_prepare(c2d_world *w, float h);
C2D_INTERNAL void c2d_world_warm_start(c2d_world *w);
C2D_INTERNAL void c2d_world_solve(c2d_world *w, float h, bool use_bias);
C2D_INTERNAL void c2d_world_restitution(c2d_world *w);
C2D_INTERNAL c2d_status c2d_world_warm_reserve(c2d_world *w);
C2D_INTERNAL void c2d_world_store_impulses(c2d_world *w);
C2D_INTERNAL void c2d_world_keep_rest(c2d_world *w, uint32_t k);
C2D_INTERNAL void c2d_world_drop_rest(c2d_world *w, uint32_t k);
C2D_INTERNAL c2d_status c2d_world_move_reserve(c2d_world *w);
C2D_INTERNAL c2d_status c2d_world_move_balls(c2d_world *w, float h);
C2D_INTERNAL c2d_status c2d_world_events_reserve(c2d_world *w);
C2D_INTERNAL c2d_status c2d_world_update_events(c2d_world *w, float dt);

/* Brings velocity (vx, vy) back to `max` along its direction: scaled by its larger component
 * first, so the squares stay floats (an infinite component counts as the direction). */
static inline void c2d_world_clamp_speed(float *vx, float *vy, float max) {
    float ax = fabsf(*vx), ay = fabsf(*vy);
    float m = ax > ay ? ax : ay;
    float ux, uy;
    if (isinf(m)) {
        ux = isinf(*vx) ? copysignf(1.0f, *vx) : 0.0f;
        uy = isinf(*vy) ? copysignf(1.0f, *vy) : 0.0f;
    } else {
        ux = *vx / m, uy = *vy / m;
    }
    float len = sqrtf(ux * ux + uy * uy);
    *vx = ux / len * max;
    *vy = uy / len * max;
}

/* |(x, y)|: sqrt of the sum of squares (hypotf is libm's, not the same bytes everywhere). */
static inline float c2d_world_len(float x, float y) {
    return sqrtf(x * x + y * y);
}

#endif
