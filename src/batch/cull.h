/* Conservative culling boxes for the batch kernels.
 *
 * A kernel first tests every lane against a box that is cheap to test and provably contains
 * every pair the exact test accepts, then runs the exact scalar-reference code only for the
 * lanes inside it. The boxes only decide which lanes get the exact test, never the answer, so
 * they are computed here once per call or capsule (in double, with generous slack) and need
 * not be bit-identical between backends. */
#ifndef C2D_BATCH_CULL_H
#define C2D_BATCH_CULL_H

#include <stdbool.h>
#include <stddef.h>

#include "collide2d/batch.h"
#include "scalar/reference.h"

/* Magnitude up to which a value is "tame": squares and sums of tame values stay far from
 * overflow, so the float error bounds behind the boxes hold. 2^40. */
#define C2D_TAME_LIMIT 1099511627776.0f

/* Which circles the collide kernel may cull with boxes (computed by the kernel): tame is
 * false when some coordinate or radius exceeds C2D_TAME_LIMIT in magnitude (infinities
 * included; NaN never hits, so it does not count). max_radius is the largest radius (NaN
 * ignored, at least 0). */
typedef struct c2d_circle_census {
    bool tame;
    float max_radius;
} c2d_circle_census;

/* How the collide kernel treats one capsule. */
typedef enum c2d_capsule_plan {
    C2D_PLAN_SKIP,  /* NaN anywhere or a negative radius: it can overlap nothing */
    C2D_PLAN_BOX,   /* tame: cull circles with the box, then the exact test */
    C2D_PLAN_EXACT  /* infinite or huge: the exact test for every circle */
} c2d_capsule_plan;

/* A circle can overlap the capsule only if its centre p has |px - cx| <= hx and
 * |py - cy| <= hy (computed in float): the capsule's bounding box grown by the largest circle
 * radius and by slack for rounding. Float rounding of |p - c| is monotone, so a box that
 * holds every accepted centre in exact arithmetic also holds it in float. */
typedef struct c2d_collide_box {
    float cx, cy, hx, hy;
} c2d_collide_box;

/* Plans capsule k of `capsules` against circles whose radii are at most max_radius, and for
 * C2D_PLAN_BOX fills *box. */
C2D_INTERNAL c2d_capsule_plan c2d_plan_capsule(const c2d_capsule_soa *capsules, size_t k,
                                               float max_radius, c2d_collide_box *box);

/* The sweep kernel's boxes: an axis-aligned box that contains everything a sweep can touch,
 * [lo_x, hi_x] x [lo_y, hi_y]; infinite when the inputs are not tame (or NaN). */
typedef struct c2d_sweep_boxes {
    float lo_x[256], hi_x[256], lo_y[256], hi_y[256];
} c2d_sweep_boxes;

/* Capsules per c2d_sweep_boxes. */
#define C2D_SWEEP_CHUNK 256

/* Fills boxes->*[j] for capsules first .. first+n-1 (n <= C2D_SWEEP_CHUNK). */
C2D_INTERNAL void c2d_sweep_capsule_boxes(const c2d_capsule_soa *capsules, size_t first, size_t n,
                                          c2d_sweep_boxes *boxes);

/* Slack of the sweep boxes. The time of impact comes from a square root of a difference of
 * squares: an error of eps (2^-24) relative to |s|^2 in that difference moves a grazing hit by
 * up to about sqrt(eps)|s| = 2^-12 |s|, where |s| is bounded by the motion plus the radii. So
 * sizes (motion, radii, axis length) get 2^-8 of slack, and positions, whose rounding errors
 * are not amplified, 2^-16; both are far above the errors they cover. */
#define C2D_SWEEP_SIZE_SLACK 0.00390625f       /* 2^-8 */
#define C2D_SWEEP_POSITION_SLACK 1.52587890625e-05f /* 2^-16 */

#endif
