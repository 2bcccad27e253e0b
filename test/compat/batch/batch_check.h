/* Shared helpers of the batch-layer tests: scenes (structure-of-arrays inputs in aligned,
 * misaligned or guard-paged memory), the scalar reference answers built from the public
 * scalar functions only, byte-for-byte comparison, and the loop over every backend.
 *
 * The reference never calls the batch layer: c2d_batch_collide's expected answer is a loop
 * over c2d_collide_circle_capsule() (capsule-major, then circle index), the pairs' answer a
 * loop in input order, and the sweep's answer the earliest c2d_sweep_circle_capsule() hit per
 * circle (ties to the lowest capsule index; no hit: capsule C2D_NONE and an all-zero toi). */
#ifndef C2D_TEST_BATCH_CHECK_H
#define C2D_TEST_BATCH_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collide2d.h"
#include "workload.h"

/* Where a scene's arrays live. */
typedef enum scene_layout {
    LAYOUT_ALIGNED, /* 64-byte aligned */
    LAYOUT_OFFSET,  /* 64-byte aligned + one float: no vector alignment at all */
    LAYOUT_GUARDED  /* each array ends exactly where an inaccessible page begins */
} scene_layout;

/* Circles (with moves for sweeps) and capsules, as the batch calls take them. */
typedef struct scene {
    size_t n, m;                  /* circles, capsules */
    float *x, *y, *r, *mx, *my;   /* circles and their moves */
    float *ax, *ay, *bx, *by, *R; /* capsules */
    c2d_circle_soa circles;
    c2d_capsule_soa capsules;
    scene_layout layout;
    void *block[10];
    size_t block_bytes[10];
} scene;

/* Allocates a scene of n circles and m capsules, every value 0. Aborts the test on failure. */
void scene_init(scene *s, size_t n, size_t m, scene_layout layout);
void scene_free(scene *s);
/* A copy of `src` in another layout (and the same values). */
void scene_copy(scene *dst, const scene *src, scene_layout layout);
/* A scene holding a workload's circles (with moves) and capsules. */
void scene_from_workload(scene *dst, const c2d_workload *w, scene_layout layout);

/* Memory whose last byte is followed by an inaccessible page (any read or write past the end
 * faults). Returns a pointer to `bytes` usable bytes; release with guarded_free. */
void *guarded_alloc(size_t bytes, void **base, size_t *base_bytes);
void guarded_free(void *base, size_t base_bytes);

/* Aborting allocation. */
void *xmalloc(size_t bytes);

/* ---- generators ------------------------------------------------------------------------ */

/* W1-like: centres in [0,span]^2, radii in [rlo,rhi], moves in [-move,move]^2; capsules with
 * a first endpoint in [0,span]^2, a random direction, length in [llo,lhi], radius in
 * [Rlo,Rhi]. Small spans give dense scenes with many hits. */
typedef struct random_spec {
    float span, rlo, rhi, move, llo, lhi, Rlo, Rhi;
} random_spec;
void fill_random(scene *s, c2d_rng *rng, const random_spec *spec);

/* Random capsules near (offset_x, offset_y) of size ~`scale` (some of zero length, some
 * axis-aligned or nearly so, some of radius 0), and circles placed at (or a few ulps off) the
 * touching distance of a random capsule, at a random point of its axis or end, or exactly on
 * an endpoint, the axis midpoint or the axis, so that rounding in the exact test, not the
 * culling, decides. Moves are random, up to 2*scale. */
void fill_near_touch(scene *s, c2d_rng *rng, float offset_x, float offset_y, float scale);

/* Replaces about `percent` % of all values (coordinates, radii, moves) with special ones:
 * NaN, +-Inf, +-0, subnormals, FLT_MIN, 1e19, 1e30, FLT_MAX, huge tame values, ... Only the
 * arrays selected by `circles` / `capsules` / `moves` are touched. */
void sprinkle_special(scene *s, c2d_rng *rng, unsigned percent, bool circles, bool capsules,
                      bool moves);
/* As sprinkle_special, with only the "tame" specials: NaN, +-0, subnormals, FLT_MIN and
 * magnitudes up to 2^40 (no infinity, nothing huge), so the culled kernel paths stay on. */
void sprinkle_tame(scene *s, c2d_rng *rng, unsigned percent, bool circles, bool capsules,
                   bool moves);

/* A scene whose circles' paths sit on decision boundaries of random capsules (near-touch
 * capsules at offset (ox, oy) and `scale`): tangent to an end circle, straight onto a side at
 * the end of the span, parallel to a side at the radius sum, or ending exactly at the touch
 * (t = 1); each then a few ulps off in its start and move. */
void grazing_scene(scene *s, size_t n, size_t m, scene_layout layout, c2d_rng *rng, float ox,
                   float oy, float scale);

/* One value out of the special pool (tame: only the tame ones). */
float special_value(c2d_rng *rng, bool tame);
/* x moved by k ulps (k may be negative), through zero and subnormals. */
float ulp_step(float x, int k);

/* ---- references ------------------------------------------------------------------------ */

/* Every contact of the scene, capsule-major then circle index; *out is malloc'd. */
size_t ref_collide(const scene *s, c2d_pair_contact **out);
/* The contacts of the listed pairs, input order; *out is malloc'd. */
size_t ref_pairs(const scene *s, const uint32_t *ci, const uint32_t *ki, size_t np,
                 c2d_pair_contact **out);
/* The earliest hit per circle; out has s->n entries. Only the pairs the sets' filter words
 * allow are looked at, sensors skipped (filter_check.h's rule; scenes without words: all). */
void ref_sweep(const scene *s, c2d_circle_toi *out);
/* As ref_sweep against moving capsules (c2d_sweep_circle_moving_capsule(); kmx NULL: static). */
void ref_sweep_moving(const scene *s, const float *kmx, const float *kmy, c2d_circle_toi *out);

/* The contract every reported contact / toi meets (normal unit and not NaN, depth >= 0, no
 * hit from NaN input or a negative radius, t in [0,1]). Prints the first violation. For
 * tois, a NaN capsule coordinate is left to test_contract.c. */
bool contacts_meet_contract(const scene *s, const c2d_pair_contact *c, size_t n, const char *label);
bool tois_meet_contract(const scene *s, const c2d_circle_toi *t, const char *label);

/* ---- comparison ------------------------------------------------------------------------ */

/* Bitwise equal, except that any two NaNs are equal. */
bool same_float(float a, float b);
bool same_contact(const c2d_pair_contact *a, const c2d_pair_contact *b);
bool same_toi(const c2d_circle_toi *a, const c2d_circle_toi *b);

/* Compares n entries; on the first difference prints it with the inputs of its pair, in hex
 * floats, and returns false. */
bool compare_contacts(const scene *s, const c2d_pair_contact *expected, const c2d_pair_contact *got,
                      size_t n, const char *label);
bool compare_tois(const scene *s, const c2d_circle_toi *expected, const c2d_circle_toi *got,
                  size_t n, const char *label);

/* Prints one circle / capsule in hex floats (for reproductions). */
void print_circle(const scene *s, size_t i, bool with_move);
void print_capsule(const scene *s, size_t j);

/* ---- backends -------------------------------------------------------------------------- */

/* The backends this build and CPU run (SCALAR first), and how many. */
size_t available_backends(c2d_backend *list);
/* Selects b (asserting success) and checks it is active. */
void use_backend(c2d_backend b);

/* Every check below runs the batch call on each available backend and compares it with the
 * reference. They assert (cmocka) on any difference. */

/* c2d_batch_collide with ample capacity (and canary entries after the answer), then with a
 * truncated capacity and with capacity 0 / NULL out. */
void check_collide(const scene *s, const char *label);
/* The listed pairs of a scene, and c2d_batch_collide_pairs on them (a contact call: out,
 * capacity, count). */
typedef struct pairs_ctx {
    const scene *s;
    const uint32_t *ci, *ki;
    size_t np;
} pairs_ctx;
c2d_status run_pairs(const void *ctx, c2d_pair_contact *out, size_t capacity, size_t *count);

/* c2d_batch_collide_pairs on the listed pairs, as check_collide. */
void check_pairs(const scene *s, const uint32_t *ci, const uint32_t *ki, size_t np,
                 const char *label);
/* c2d_batch_sweep of the scene's circles with their moves; the output is guard-paged. */
void check_sweep(const scene *s, const char *label);

/* Canary byte pattern written around outputs. */
#define CANARY_BYTE 0xA5
bool bytes_are(const void *p, size_t n, unsigned char value);

#endif
