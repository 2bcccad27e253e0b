/* The workloads of docs/design.md section 7, generated from a fixed seed with no libm call but
 * sqrtf (correctly rounded everywhere), so they are the same bytes on every machine. Shared by
 * the tests, the benchmarks and the examples. */
#ifndef C2D_TEST_WORKLOAD_H
#define C2D_TEST_WORKLOAD_H

#include <stdint.h>

#include "collide2d.h"

/* splitmix64: small, fast, and the same sequence on every platform. */
typedef struct c2d_rng {
    uint64_t state;
} c2d_rng;

uint64_t c2d_rng_next(c2d_rng *rng);
/* Uniform in [0, 1): 24 random bits scaled by 2^-24 (exact in float). */
float c2d_rng_unit(c2d_rng *rng);
/* Uniform in [lo, hi], computed as lo + (hi - lo) * unit. */
float c2d_rng_range(c2d_rng *rng, float lo, float hi);
/* A uniform direction on the circle: a random vector in the unit disc, normalised. */
c2d_vec2 c2d_rng_direction(c2d_rng *rng);

/* One generated scene: circles (with moves for W3) and capsules, as structure-of-arrays. */
typedef struct c2d_workload {
    float *x, *y, *radius, *move_x, *move_y; /* circles */
    float *ax, *ay, *bx, *by, *capsule_radius;
    c2d_circle_soa circles;
    c2d_capsule_soa capsules;
} c2d_workload;

/* The seed every workload uses unless a test asks for another. */
#define C2D_WORKLOAD_SEED UINT64_C(0x5eed2d2d2d2d2d2d)

/* W1 with n_circles circles and n_capsules capsules (W1: 4096 and 256; W4 varies n_circles):
 * centres uniform in [0,100]^2, radii in [0.05,0.25]; capsules from a uniform first endpoint,
 * a uniform direction, length in [0.5,5], radius in [0.05,0.5]; moves (W3) in [-2,2]^2.
 * Returns 0, or -1 when out of memory. */
int c2d_workload_make(c2d_workload *w, size_t n_circles, size_t n_capsules, uint64_t seed);
void c2d_workload_free(c2d_workload *w);

/* W5 variants (scale: a pachinko board at W1's density). */
typedef enum c2d_w5_variant {
    C2D_W5_UNIFORM,   /* W1 on a board of side 100 * sqrt(n_circles / 4096) */
    C2D_W5_CLUSTERED, /* every ball in a column a tenth of the board wide (falling balls) */
    C2D_W5_MIXED,     /* every 100th ball 20x larger */
    C2D_W5_FLOOR,     /* uniform, and capsule n_capsules / 2 is a floor as long as the board */
    C2D_W5_VARIANTS
} c2d_w5_variant;

/* The name of a W5 variant ("uniform", "clustered", "mixed", "floor"). */
const char *c2d_w5_name(c2d_w5_variant v);

/* W5: n_circles balls and n_capsules pins at W1's density and sizes on a board of side
 * 100 * sqrt(n_circles / 4096), in variant v; moves as W3. Returns 0, or -1 when out of memory. */
int c2d_workload_w5(c2d_workload *w, size_t n_circles, size_t n_capsules, c2d_w5_variant v,
                    uint64_t seed);

/* W6 variants (balls against balls). */
typedef enum c2d_w6_variant {
    C2D_W6_PILE, /* hexagonal packing, rows of sqrt(n), spacing 1, radius 0.51, centres jittered
                    by up to 0.005: about 6 contacts a ball (3 pairs), all small overlaps */
    C2D_W6_GAS,  /* radius 0.5, centres uniform on a square of side sqrt(10 pi n): about 0.1
                    contacts a ball (0.05 pairs) */
    C2D_W6_VARIANTS
} c2d_w6_variant;

/* The name of a W6 variant ("pile", "gas"). */
const char *c2d_w6_name(c2d_w6_variant v);

/* W6: n balls (no capsules) in variant v, indexed row by row (pile) or in random order (gas);
 * moves uniform in [-0.05, 0.05]^2 (pile) or [-0.5, 0.5]^2 (gas). Returns 0, or -1 when out of
 * memory. */
int c2d_workload_w6(c2d_workload *w, size_t n, c2d_w6_variant v, uint64_t seed);

/* W2: n random (circle, capsule) index pairs over a workload's sets. Returns 0 or -1. */
int c2d_workload_pairs(const c2d_workload *w, size_t n, uint64_t seed, uint32_t **circle_index,
                       uint32_t **capsule_index);

/* W2d: dense listed pairs. Builds n_pairs circles and max(1, n_pairs / 256) capsules (W1's
 * sizes, first endpoints on a board of W1's density) and the pair list: pair p is circle p and
 * capsule min(p / 256, capsules - 1), so both indices ascend (the order a broad phase emits).
 * Circle p sits at distance s(r+R) from its capsule's axis, s uniform in [0, 5/3], so about
 * 60% of the pairs overlap: four in five beside a random point of the axis (along its
 * perpendicular), one in five beyond an end (a random direction pointing away from the axis).
 * Directions come from c2d_rng_direction (no sin/cos), so the data are the same bytes
 * everywhere. Returns 0, or -1 when out of memory (nothing left allocated). */
int c2d_workload_dense_pairs(c2d_workload *w, size_t n_pairs, uint64_t seed,
                             uint32_t **circle_index, uint32_t **capsule_index);

/* Shuffles n listed pairs in place (Fisher-Yates from `seed`; the same order everywhere). */
void c2d_pairs_shuffle(uint32_t *circle_index, uint32_t *capsule_index, size_t n, uint64_t seed);

/* FNV-1a, 64 bits, over n bytes, continuing from h (start with C2D_FNV_OFFSET). */
#define C2D_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
uint64_t c2d_fnv1a(uint64_t h, const void *bytes, size_t n);

#endif
