/* Defect pairs: every public entry point that returns a c2d_status, called with every single
 * defect and every pair of defects that applies to it (NULL pointers, counts above UINT32_MAX,
 * a capacity too small, the size query, an index out of range, filter words, a scene frame
 * missing), on every available backend. Each row records the status, the `*count` left behind
 * (77 when the call leaves it alone) and whether any output or body array was written.
 *
 * The expected values were recorded from the library at the commit the argument-contract
 * refactoring started from (2faeec8) with `status_pairs --print`, and are literals here: when
 * an input has several defects, the check that fires first must keep firing first. Run
 * `status_pairs --print` to see what the code returns now (it prints the table's rows). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collide2d.h"

/* ---- defects ----------------------------------------------------------------------------- */

#define DEFECTS(X)                                                                                 \
    X(NONE) /* no defect: the good call */                                                         \
    X(NULL_SCENE)                                                                                  \
    X(NULL_CIRCLES)      /* the circle set pointer */                                              \
    X(NULL_CIRCLE_X)     /* the circle set's x array */                                            \
    X(NULL_CAPSULES)     /* the capsule set pointer */                                             \
    X(NULL_CAPSULE_AX)   /* the capsule set's ax array */                                          \
    X(NULL_QUERIES)      /* the query set pointer: rays, boxes, points or discs */                 \
    X(NULL_QUERY_X)      /* the query set's first array */                                         \
    X(NULL_MOVE)         /* move_x */                                                              \
    X(NULL_CAPSULE_MOVE) /* capsule_move_x (or c2d_capsule_bodies.vx), its y twin given */         \
    X(NULL_OUT)          /* out (capacity kept), or the scene pointer of c2d_scene_create */       \
    X(NULL_COUNT)        /* the count pointer */                                                   \
    X(NULL_INDEX)        /* an index or id array with entries */                                   \
    X(NULL_BODIES)       /* the body set pointer */                                                \
    X(NULL_BODY_ARRAY)   /* the bodies' x and vx arrays */                                         \
    X(NULL_CONTACTS)     /* the contact list with entries */                                       \
    X(NULL_SPIN)         /* spin.inv_inertia with angular velocities given */                      \
    X(NULL_ALLOC_HOOK)   /* an allocator with a NULL free hook */                                  \
    X(HUGE_CIRCLES)      /* the circle set's count above UINT32_MAX */                             \
    X(HUGE_CAPSULES)     /* the capsule set's count above UINT32_MAX */                            \
    X(HUGE_QUERIES)      /* the query set's count above UINT32_MAX */                              \
    X(HUGE_N)            /* the pair count or range length above UINT32_MAX */                     \
    X(CAP_SMALL)         /* capacity 1 with 2 or more results */                                   \
    X(SIZE_QUERY)        /* out NULL and capacity 0 */                                             \
    X(BAD_INDEX)         /* an index, id, part, range or backend out of range */                   \
    X(FILTER)            /* category words 0 (meets nothing) on the circles and query sets */      \
    X(NO_FRAME)          /* the scene frame the call needs was not begun or binned */

#define AS_ENUM(d) D_##d,
typedef enum defect { DEFECTS(AS_ENUM) N_DEFECTS } defect;
#define AS_NAME(d) "D_" #d,
static const char *const defect_names[] = {DEFECTS(AS_NAME)};

#define B(d) ((uint64_t)1 << D_##d)
/* Counts above UINT32_MAX exist only with a 64-bit size_t (not on wasm32). */
#if SIZE_MAX > UINT32_MAX
#define HB(d) B(d)
#define HUGE_COUNT ((size_t)UINT32_MAX + 1)
#else
#define HB(d) 0
#define HUGE_COUNT SIZE_MAX
#endif
#define HUGE_DEFECTS (B(HUGE_CIRCLES) | B(HUGE_CAPSULES) | B(HUGE_QUERIES) | B(HUGE_N))

/* Defect groups by argument. */
#define SCN B(NULL_SCENE)
#define CIRC (B(NULL_CIRCLES) | B(NULL_CIRCLE_X) | HB(HUGE_CIRCLES) | B(FILTER))
#define CAPS (B(NULL_CAPSULES) | B(NULL_CAPSULE_AX) | HB(HUGE_CAPSULES))
#define QRY (B(NULL_QUERIES) | B(NULL_QUERY_X) | HB(HUGE_QUERIES) | B(FILTER))
#define LIST (B(NULL_OUT) | B(NULL_COUNT) | B(CAP_SMALL) | B(SIZE_QUERY))
#define MOVES (B(NULL_MOVE) | B(NULL_OUT))
/* The response calls have no count limit: a body count above UINT32_MAX is no defect there. */
#define BODIES (B(NULL_BODIES) | B(NULL_BODY_ARRAY) | B(NULL_CONTACTS) | B(BAD_INDEX))

/* ---- the fixture ------------------------------------------------------------------------- */

/* Four balls overlapping each other and both capsules: every list call finds 2 or more. */
static const float cx[4] = {1.0f, 1.5f, 2.0f, 3.0f}, cy[4] = {0.5f, 0.5f, 0.5f, 0.5f},
                   cr[4] = {0.5f, 0.5f, 0.5f, 0.5f};
static const float kax[2] = {0.0f, 0.0f}, kay[2] = {0.0f, 1.0f}, kbx[2] = {4.0f, 4.0f},
                   kby[2] = {0.0f, 1.0f}, kr[2] = {0.5f, 0.5f};
static const float move_x[4] = {1.0f, 1.0f, 1.0f, 1.0f}, move_y[4] = {0.0f, 0.0f, 0.0f, 0.0f};
static const float kmove_x[2] = {0.0f, 0.5f}, kmove_y[2] = {0.0f, 0.0f};
static const float ray_x[2] = {1.0f, 2.0f}, ray_y[2] = {-3.0f, -3.0f}, ray_dx[2] = {0.0f, 0.0f},
                   ray_dy[2] = {6.0f, 6.0f};
static const float box_lo_x[2] = {0.0f, 0.5f}, box_lo_y[2] = {-1.0f, 0.0f},
                   box_hi_x[2] = {4.0f, 2.0f}, box_hi_y[2] = {2.0f, 1.0f};
static const float pt_x[2] = {1.0f, 2.0f}, pt_y[2] = {0.0f, 1.0f};
static const uint32_t zeros[4] = {0, 0, 0, 0};
static const uint32_t pair_circle[4] = {0, 1, 2, 3}, pair_capsule[4] = {0, 1, 0, 1};
static const uint32_t good_ids[4] = {10, 11, 20, 21}, frozen_ids[4] = {10, 11, 12, 13};
static const uint32_t bad_ids[4] = {0, C2D_NONE, 0, 0};
static const float inv_mass[4] = {1.0f, 1.0f, 1.0f, 1.0f},
                   restitution[4] = {0.5f, 0.5f, 0.5f, 0.5f};
static const float mu[4] = {0.5f, 0.5f, 0.5f, 0.5f}, inertia[4] = {8.0f, 8.0f, 8.0f, 8.0f};
static const float kvx[2] = {0.0f, 1.0f}, kvy[2] = {0.0f, 0.0f};
static const c2d_circle_pair_contact ball_contacts[2] = {
    {0, 1, {{-1.0f, 0.0f}, 0.5f, {1.0f, 0.5f}}}, {1, 2, {{-1.0f, 0.0f}, 0.5f, {1.5f, 0.5f}}}};
static const c2d_circle_pair_contact bad_ball_contacts[2] = {
    {0, 1, {{-1.0f, 0.0f}, 0.5f, {1.0f, 0.5f}}}, {1, 9, {{-1.0f, 0.0f}, 0.5f, {1.5f, 0.5f}}}};
static const c2d_pair_contact pin_contacts[2] = {{0, 0, {{0.0f, 1.0f}, 0.5f, {1.0f, 0.0f}}},
                                                 {1, 1, {{0.0f, -1.0f}, 0.5f, {1.5f, 1.0f}}}};
static const c2d_pair_contact bad_pin_contacts[2] = {{0, 0, {{0.0f, 1.0f}, 0.5f, {1.0f, 0.0f}}},
                                                     {9, 1, {{0.0f, -1.0f}, 0.5f, {1.5f, 1.0f}}}};

static void *no_alloc(size_t size, void *user) {
    (void)size, (void)user;
    return NULL;
}

/* What a call may write: its output and the bodies' arrays (checked against a snapshot). */
typedef struct writable {
    unsigned char out[64 * sizeof(c2d_ray_hit) + 64 * sizeof(c2d_pair_contact)];
    float x[4], y[4], vx[4], vy[4], w[4], impulses[4], tangent[4];
} writable;
static writable W;

/* The arguments of every entry point; a defect changes the fields of its kind. */
typedef struct args {
    c2d_scene *scene, *created;
    c2d_scene **scene_out;
    c2d_allocator allocator;
    const c2d_allocator *alloc;
    c2d_circle_soa c, discs;
    c2d_capsule_soa k;
    c2d_ray_soa rays;
    c2d_box_soa boxes;
    c2d_point_soa points;
    c2d_body_soa bodies;
    c2d_body_friction_soa spin;
    c2d_capsule_bodies kb;
    const c2d_circle_soa *pc, *pdiscs;
    const c2d_capsule_soa *pk;
    const c2d_ray_soa *prays;
    const c2d_box_soa *pboxes;
    const c2d_point_soa *ppoints;
    const c2d_body_soa *pbodies;
    const c2d_circle_pair_contact *ball_contacts;
    const c2d_pair_contact *pin_contacts;
    const float *mx, *my, *kmx, *kmy;
    void *out;
    size_t capacity, cnt, *count;
    const uint32_t *pair_a, *pair_b, *ids;
    size_t n_pairs, n_ids, n_contacts, first, n_capsules_range, n_circles_range, part;
    c2d_backend backend;
} args;

static void good_args(args *a) {
    memset(a, 0, sizeof *a);
    a->c = (c2d_circle_soa){cx, cy, cr, 4, NULL, NULL};
    a->discs = a->c;
    a->k = (c2d_capsule_soa){kax, kay, kbx, kby, kr, 2, NULL, NULL, NULL};
    a->rays = (c2d_ray_soa){ray_x, ray_y, ray_dx, ray_dy, 2, NULL, NULL};
    a->boxes = (c2d_box_soa){box_lo_x, box_lo_y, box_hi_x, box_hi_y, 2, NULL, NULL};
    a->points = (c2d_point_soa){pt_x, pt_y, 2, NULL, NULL};
    memset(W.out, 0xA5, sizeof W.out);
    for (int i = 0; i < 4; i++) {
        W.x[i] = cx[i], W.y[i] = cy[i], W.vx[i] = i % 2 ? -1.0f : 1.0f, W.vy[i] = -1.0f;
        W.w[i] = 0.25f, W.impulses[i] = -7.0f, W.tangent[i] = -7.0f;
    }
    a->bodies = (c2d_body_soa){W.x, W.y, W.vx, W.vy, inv_mass, restitution, 4};
    a->spin = (c2d_body_friction_soa){mu, W.w, inertia, cr};
    a->kb = (c2d_capsule_bodies){NULL, NULL, kvx, kvy, NULL, NULL, NULL, 2};
    a->pc = &a->c, a->pdiscs = &a->discs, a->pk = &a->k, a->prays = &a->rays;
    a->pboxes = &a->boxes, a->ppoints = &a->points, a->pbodies = &a->bodies;
    a->ball_contacts = ball_contacts, a->pin_contacts = pin_contacts;
    a->mx = move_x, a->my = move_y, a->kmx = kmove_x, a->kmy = kmove_y;
    a->out = W.out, a->capacity = 64, a->cnt = 77, a->count = &a->cnt;
    a->pair_a = pair_circle, a->pair_b = pair_capsule, a->n_pairs = 4;
    a->ids = good_ids, a->n_ids = 2, a->n_contacts = 2;
    a->first = 0, a->n_capsules_range = 2, a->n_circles_range = 4, a->part = 1;
    a->backend = C2D_BACKEND_SCALAR;
    a->scene_out = &a->created;
    a->allocator = (c2d_allocator){no_alloc, NULL, NULL};
}

static void apply(args *a, defect d) {
    switch (d) {
    case D_NONE:
        break;
    case D_NULL_SCENE:
        a->scene = NULL;
        break;
    case D_NULL_CIRCLES:
        a->pc = NULL;
        break;
    case D_NULL_CIRCLE_X:
        a->c.x = NULL;
        break;
    case D_NULL_CAPSULES:
        a->pk = NULL;
        break;
    case D_NULL_CAPSULE_AX:
        a->k.ax = NULL;
        break;
    case D_NULL_QUERIES:
        a->prays = NULL, a->pboxes = NULL, a->ppoints = NULL, a->pdiscs = NULL;
        break;
    case D_NULL_QUERY_X:
        a->rays.x = NULL, a->boxes.lo_x = NULL, a->points.x = NULL, a->discs.x = NULL;
        break;
    case D_NULL_MOVE:
        a->mx = NULL;
        break;
    case D_NULL_CAPSULE_MOVE:
        a->kmx = NULL, a->kb.vx = NULL;
        break;
    case D_NULL_OUT:
        a->out = NULL, a->scene_out = NULL;
        break;
    case D_NULL_COUNT:
        a->count = NULL;
        break;
    case D_NULL_INDEX:
        a->pair_a = NULL, a->ids = NULL;
        break;
    case D_NULL_BODIES:
        a->pbodies = NULL;
        break;
    case D_NULL_BODY_ARRAY:
        a->bodies.x = NULL, a->bodies.vx = NULL;
        break;
    case D_NULL_CONTACTS:
        a->ball_contacts = NULL, a->pin_contacts = NULL;
        break;
    case D_NULL_SPIN:
        a->spin.inv_inertia = NULL;
        break;
    case D_NULL_ALLOC_HOOK:
        a->alloc = &a->allocator;
        break;
    case D_HUGE_CIRCLES:
        a->c.count = HUGE_COUNT;
        break;
    case D_HUGE_CAPSULES:
        a->k.count = HUGE_COUNT;
        break;
    case D_HUGE_QUERIES:
        a->rays.count = a->boxes.count = a->points.count = a->discs.count = HUGE_COUNT;
        break;
    case D_HUGE_N:
        a->n_pairs = a->n_capsules_range = a->n_circles_range = HUGE_COUNT;
        break;
    case D_CAP_SMALL:
        a->capacity = 1;
        break;
    case D_SIZE_QUERY:
        a->out = NULL, a->capacity = 0;
        break;
    case D_BAD_INDEX:
        a->pair_a = bad_ids, a->ids = bad_ids, a->first = 99, a->part = 99;
        a->ball_contacts = bad_ball_contacts, a->pin_contacts = bad_pin_contacts;
        a->backend = C2D_BACKEND_COUNT;
        break;
    case D_FILTER:
        a->c.category = a->discs.category = a->rays.category = zeros;
        a->boxes.category = a->points.category = zeros;
        break;
    case D_NO_FRAME:
        break; /* read by the setup */
    case N_DEFECTS:
        break;
    }
}

/* ---- entry points ------------------------------------------------------------------------ */

enum { S_SCENE = 1, S_FROZEN = 2, S_BINNED = 4, S_BEGUN = 8, S_PARTS = 16 };

#define ENTRIES(X)                                                                                 \
    X(BACKEND_SELECT, 0, B(BAD_INDEX), c2d_backend_select(a->backend))                             \
    X(BATCH_COLLIDE_CIRCLES, 0, CIRC | LIST,                                                       \
      c2d_batch_collide_circles(a->pc, a->out, a->capacity, a->count))                             \
    X(BATCH_SWEEP_CIRCLES, 0, CIRC | MOVES, c2d_batch_sweep_circles(a->pc, a->mx, a->my, a->out))  \
    X(SCENE_COLLIDE_CIRCLES, S_SCENE, SCN | CIRC | LIST,                                           \
      c2d_scene_collide_circles(a->scene, a->pc, a->out, a->capacity, a->count))                   \
    X(SCENE_SWEEP_CIRCLES, S_SCENE, SCN | CIRC | MOVES,                                            \
      c2d_scene_sweep_circles(a->scene, a->pc, a->mx, a->my, a->out))                              \
    X(BATCH_COLLIDE, 0, CIRC | CAPS | LIST,                                                        \
      c2d_batch_collide(a->pc, a->pk, a->out, a->capacity, a->count))                              \
    X(BATCH_COLLIDE_PAIRS, 0, CIRC | CAPS | LIST | B(NULL_INDEX) | HB(HUGE_N) | B(BAD_INDEX),      \
      c2d_batch_collide_pairs(a->pc, a->pk, a->pair_a, a->pair_b, a->n_pairs, a->out, a->capacity, \
                              a->count))                                                           \
    X(BATCH_SWEEP, 0, CIRC | CAPS | MOVES, c2d_batch_sweep(a->pc, a->mx, a->my, a->pk, a->out))    \
    X(BATCH_SWEEP_MOVING_CAPSULES, 0, CIRC | CAPS | MOVES | B(NULL_CAPSULE_MOVE),                  \
      c2d_batch_sweep_moving_capsules(a->pc, a->mx, a->my, a->pk, a->kmx, a->kmy, a->out))         \
    X(SCENE_FREEZE_CIRCLES, S_SCENE, SCN | CIRC | B(BAD_INDEX),                                    \
      c2d_scene_freeze_circles(a->scene, a->pc, a->ids))                                           \
    X(SCENE_THAW_CIRCLES, S_SCENE | S_FROZEN, SCN | B(NULL_INDEX) | B(BAD_INDEX),                  \
      c2d_scene_thaw_circles(a->scene, a->ids, a->n_ids))                                          \
    X(SCENE_COLLIDE_FROZEN_CIRCLES, S_SCENE | S_FROZEN, SCN | CIRC | LIST,                         \
      c2d_scene_collide_frozen_circles(a->scene, a->pc, NULL, a->out, a->capacity, a->count))      \
    X(SCENE_SWEEP_FROZEN_CIRCLES, S_SCENE | S_FROZEN, SCN | CIRC | MOVES,                          \
      c2d_scene_sweep_frozen_circles(a->scene, a->pc, NULL, a->mx, a->my, a->out))                 \
    X(RESOLVE_CIRCLE_CONTACTS, 0, BODIES,                                                          \
      c2d_resolve_circle_contacts(a->pbodies, a->ball_contacts, a->n_contacts, W.impulses))        \
    X(RESOLVE_CAPSULE_CONTACTS, 0, BODIES,                                                         \
      c2d_resolve_capsule_contacts(a->pbodies, a->pin_contacts, a->n_contacts, NULL, 2,            \
                                   W.impulses))                                                    \
    X(RESOLVE_CIRCLE_CONTACTS_EX, 0, BODIES | B(NULL_SPIN),                                        \
      c2d_resolve_circle_contacts_ex(a->pbodies, &a->spin, a->ball_contacts, a->n_contacts,        \
                                     W.impulses, W.tangent))                                       \
    X(RESOLVE_CAPSULE_CONTACTS_EX, 0, BODIES | B(NULL_SPIN) | B(NULL_CAPSULE_MOVE),                \
      c2d_resolve_capsule_contacts_ex(a->pbodies, &a->spin, a->pin_contacts, a->n_contacts,        \
                                      &a->kb, W.impulses, W.tangent))                              \
    X(PUSH_OUT_CIRCLE_CONTACTS, 0, BODIES,                                                         \
      c2d_push_out_circle_contacts(a->pbodies, a->ball_contacts, a->n_contacts))                   \
    X(PUSH_OUT_CAPSULE_CONTACTS, 0, BODIES,                                                        \
      c2d_push_out_capsule_contacts(a->pbodies, a->pin_contacts, a->n_contacts))                   \
    X(SCENE_CREATE, 0, CAPS | B(NULL_OUT) | B(NULL_ALLOC_HOOK),                                    \
      c2d_scene_create(a->pk, a->alloc, a->scene_out))                                             \
    X(SCENE_MOVE_CAPSULES, S_SCENE, SCN | CAPS | B(BAD_INDEX),                                     \
      c2d_scene_move_capsules(a->scene, a->first, a->pk))                                          \
    X(SCENE_COLLIDE, S_SCENE, SCN | CIRC | LIST,                                                   \
      c2d_scene_collide(a->scene, a->pc, a->out, a->capacity, a->count))                           \
    X(SCENE_SWEEP, S_SCENE, SCN | CIRC | MOVES,                                                    \
      c2d_scene_sweep(a->scene, a->pc, a->mx, a->my, a->out))                                      \
    X(SCENE_BIN, S_SCENE, SCN | CIRC, c2d_scene_bin(a->scene, a->pc))                              \
    X(SCENE_BIN_BEGIN, S_SCENE, SCN | CIRC | B(BAD_INDEX),                                         \
      c2d_scene_bin_begin(a->scene, a->pc, a->part == 99 ? 65 : 2))                                \
    X(SCENE_BIN_PART, S_SCENE | S_BEGUN, SCN | B(BAD_INDEX) | B(NO_FRAME),                         \
      c2d_scene_bin_part(a->scene, a->part))                                                       \
    X(SCENE_BIN_END, S_SCENE | S_BEGUN | S_PARTS, SCN | B(NO_FRAME), c2d_scene_bin_end(a->scene))  \
    X(SCENE_COLLIDE_RANGE, S_SCENE | S_BINNED,                                                     \
      SCN | CIRC | LIST | B(BAD_INDEX) | HB(HUGE_N) | B(NO_FRAME),                                 \
      c2d_scene_collide_range(a->scene, a->pc, a->first, a->n_capsules_range, a->out, a->capacity, \
                              a->count))                                                           \
    X(SCENE_SWEEP_MOVING_CAPSULES, S_SCENE, SCN | CIRC | MOVES | B(NULL_CAPSULE_MOVE),             \
      c2d_scene_sweep_moving_capsules(a->scene, a->pc, a->mx, a->my, a->kmx, a->kmy, a->out))      \
    X(SCENE_SWEEP_RANGE, S_SCENE, SCN | CIRC | MOVES | B(BAD_INDEX) | HB(HUGE_N),                  \
      c2d_scene_sweep_range(a->scene, a->pc, a->mx, a->my, a->first, a->n_circles_range, a->out))  \
    X(BATCH_RAY_CAST, 0, QRY | CAPS | CIRC | B(NULL_OUT),                                          \
      c2d_batch_ray_cast(a->prays, a->pk, a->pc, a->out))                                          \
    X(SCENE_RAY_CAST, S_SCENE, SCN | QRY | CIRC | B(NULL_OUT),                                     \
      c2d_scene_ray_cast(a->scene, a->prays, a->pc, a->out))                                       \
    X(BATCH_QUERY_BOX_CAPSULES, 0, QRY | CAPS | LIST,                                              \
      c2d_batch_query_box_capsules(a->pboxes, a->pk, a->out, a->capacity, a->count))               \
    X(BATCH_QUERY_BOX_CIRCLES, 0, QRY | CIRC | LIST,                                               \
      c2d_batch_query_box_circles(a->pboxes, a->pc, a->out, a->capacity, a->count))                \
    X(BATCH_QUERY_DISC_CAPSULES, 0, QRY | CAPS | LIST,                                             \
      c2d_batch_query_disc_capsules(a->pdiscs, a->pk, a->out, a->capacity, a->count))              \
    X(BATCH_QUERY_DISC_CIRCLES, 0, QRY | CIRC | LIST,                                              \
      c2d_batch_query_disc_circles(a->pdiscs, a->pc, a->out, a->capacity, a->count))               \
    X(BATCH_QUERY_POINT_CAPSULES, 0, QRY | CAPS | LIST,                                            \
      c2d_batch_query_point_capsules(a->ppoints, a->pk, a->out, a->capacity, a->count))            \
    X(BATCH_QUERY_POINT_CIRCLES, 0, QRY | CIRC | LIST,                                             \
      c2d_batch_query_point_circles(a->ppoints, a->pc, a->out, a->capacity, a->count))             \
    X(SCENE_QUERY_BOX, S_SCENE, SCN | QRY | LIST,                                                  \
      c2d_scene_query_box(a->scene, a->pboxes, a->out, a->capacity, a->count))                     \
    X(SCENE_QUERY_DISC, S_SCENE, SCN | QRY | LIST,                                                 \
      c2d_scene_query_disc(a->scene, a->pdiscs, a->out, a->capacity, a->count))                    \
    X(SCENE_QUERY_POINT, S_SCENE, SCN | QRY | LIST,                                                \
      c2d_scene_query_point(a->scene, a->ppoints, a->out, a->capacity, a->count))

#define AS_ENTRY_ENUM(e, setup, defects, call) E_##e,
typedef enum entry_id { ENTRIES(AS_ENTRY_ENUM) N_ENTRIES } entry_id;

#define AS_FUNCTION(e, setup, defects, call)                                                       \
    static c2d_status call_##e(args *a) {                                                          \
        return call;                                                                               \
    }
ENTRIES(AS_FUNCTION)

typedef struct entry {
    const char *name;
    c2d_status (*call)(args *a);
    unsigned setup;
    uint64_t defects;
} entry;

#define AS_ENTRY(e, setup, defects, call) {"E_" #e, call_##e, setup, defects},
static const entry entries[N_ENTRIES] = {ENTRIES(AS_ENTRY)};

/* ---- one call ---------------------------------------------------------------------------- */

typedef struct outcome {
    c2d_status status;
    size_t count; /* *count after the call; 77 when left alone */
    int wrote;    /* 1 when an output or body array changed */
} outcome;

static outcome run(entry_id e, defect da, defect db) {
    const entry *en = &entries[e];
    args a;
    good_args(&a);
    const int frame = da != D_NO_FRAME && db != D_NO_FRAME;
    c2d_scene *scene = NULL;
    if (en->setup & S_SCENE) {
        assert_int_equal(c2d_scene_create(&a.k, NULL, &scene), C2D_OK);
        if (en->setup & S_FROZEN) {
            const c2d_circle_soa frozen = {cx, cy, cr, 4, NULL, NULL};
            assert_int_equal(c2d_scene_freeze_circles(scene, &frozen, frozen_ids), C2D_OK);
        }
        if ((en->setup & S_BINNED) && frame) assert_int_equal(c2d_scene_bin(scene, &a.c), C2D_OK);
        if ((en->setup & S_BEGUN) && frame) {
            assert_int_equal(c2d_scene_bin_begin(scene, &a.c, 2), C2D_OK);
            if (en->setup & S_PARTS) {
                assert_int_equal(c2d_scene_bin_part(scene, 0), C2D_OK);
                assert_int_equal(c2d_scene_bin_part(scene, 1), C2D_OK);
            }
        }
    }
    a.scene = scene;
    apply(&a, da);
    apply(&a, db);
    static writable before;
    before = W;
    const c2d_backend active = c2d_backend_active();
    outcome o;
    o.status = en->call(&a);
    o.count = a.cnt;
    o.wrote = memcmp(&before, &W, sizeof W) != 0;
    if (e == E_BACKEND_SELECT) assert_int_equal(c2d_backend_select(active), C2D_OK);
    c2d_scene_destroy(a.created);
    c2d_scene_destroy(scene);
    return o;
}

/* ---- the table --------------------------------------------------------------------------- */

typedef struct row {
    entry_id entry;
    defect a, b;
    c2d_status status;
    size_t count;
    int wrote;
} row;

/* Short status names for the table. */
#define OK_ C2D_OK
#define NUL C2D_ERROR_NULL
#define IDX C2D_ERROR_INDEX
#define TRN C2D_ERROR_TRUNCATED
#define UNS C2D_ERROR_UNSUPPORTED
#define BIG C2D_ERROR_TOO_LARGE
#define ALC C2D_ERROR_ALLOC
#define STA C2D_ERROR_STATE
static const char *const status_names[] = {"OK_", "NUL", "IDX", "TRN", "UNS", "BIG", "ALC", "STA"};

/* Recorded with `status_pairs --print` at 2faeec8 (x86-64); the same on every backend. */
static const row rows[] = {
#include "status_pairs_table.inc"
};

enum { N_ROWS = sizeof rows / sizeof rows[0] };

/* ---- print mode -------------------------------------------------------------------------- */

static void print_row(entry_id e, defect da, defect db) {
    const outcome o = run(e, da, db);
    printf("{%s, %s, %s, %s, %zu, %d},\n", entries[e].name, defect_names[da], defect_names[db],
           status_names[o.status], o.count, o.wrote);
}

/* The rows of every entry point: no defect, each defect, each pair; the rows with a count
 * above UINT32_MAX last, inside an #if. */
static void print_table(void) {
    printf("/* status_pairs.c's rows: entry, defect a, defect b, status, *count after the call "
           "(77:\n * untouched), output written. Printed by `status_pairs --print` from the "
           "library at 2faeec8;\n * never reprinted to make a failure pass: a change here is "
           "a changed status. */\n");
    for (int huge = 0; huge < 2; huge++) {
        if (huge) printf("#if SIZE_MAX > UINT32_MAX\n");
        for (int e = 0; e < N_ENTRIES; e++) {
            const uint64_t set = entries[e].defects;
            if (!huge) print_row((entry_id)e, D_NONE, D_NONE);
            for (int i = 1; i < N_DEFECTS; i++) {
                if (!(set >> i & 1)) continue;
                for (int j = i; j < N_DEFECTS; j++) {
                    if (j != i && !(set >> j & 1)) continue;
                    const uint64_t used = B(NONE) << i | B(NONE) << j;
                    if (!(used & HUGE_DEFECTS) == !huge)
                        print_row((entry_id)e, (defect)i, j == i ? D_NONE : (defect)j);
                }
            }
        }
        if (huge) printf("#endif\n");
    }
}

/* ---- the test ---------------------------------------------------------------------------- */

/* Every row's defects apply to its entry, and every entry has a row for no defect, each
 * defect and each pair (so no pair is left out when a defect is added to an entry). */
static void table_covers_every_pair(void **state) {
    (void)state;
    for (int e = 0; e < N_ENTRIES; e++) {
        const uint64_t set = entries[e].defects;
        size_t n = 0, found = 0;
        for (int i = 1; i < N_DEFECTS; i++)
            n += set >> i & 1;
        for (size_t r = 0; r < N_ROWS; r++) {
            if (rows[r].entry != (entry_id)e) continue;
            const uint64_t used = B(NONE) << rows[r].a | B(NONE) << rows[r].b;
            if ((used & ~B(NONE) & ~set) != 0 || (rows[r].a == D_NONE && rows[r].b != D_NONE) ||
                (rows[r].b != D_NONE && rows[r].b <= rows[r].a))
                fail_msg("row %zu: %s with %s and %s does not apply", r, entries[e].name,
                         defect_names[rows[r].a], defect_names[rows[r].b]);
            found++;
        }
        if (found != 1 + n + n * (n - 1) / 2)
            fail_msg("%s: %zu rows, expected %zu", entries[e].name, found, 1 + n + n * (n - 1) / 2);
    }
}

static void statuses_as_recorded(void **state) {
    (void)state;
    int failures = 0;
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++) {
        if (!c2d_backend_available((c2d_backend)b)) continue;
        assert_int_equal(c2d_backend_select((c2d_backend)b), C2D_OK);
        for (size_t r = 0; r < N_ROWS; r++) {
            const row *w = &rows[r];
            const outcome o = run(w->entry, w->a, w->b);
            if (o.status == w->status && o.count == w->count && o.wrote == w->wrote) continue;
            fprintf(stderr,
                    "%s with %s and %s on %s: status %s, count %zu, wrote %d; expected "
                    "%s, %zu, %d\n",
                    entries[w->entry].name, defect_names[w->a], defect_names[w->b],
                    c2d_backend_name((c2d_backend)b), status_names[o.status], o.count, o.wrote,
                    status_names[w->status], w->count, w->wrote);
            failures++;
        }
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    assert_int_equal(failures, 0);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--print") == 0) {
        print_table();
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_covers_every_pair),
        cmocka_unit_test(statuses_as_recorded),
    };
    return cmocka_run_group_tests_name("status pairs", tests, NULL, NULL);
}
