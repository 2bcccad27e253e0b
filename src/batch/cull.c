/* Conservative culling boxes: see cull.h for what they promise. */
#include <math.h>

#include "batch/cull.h"

/* Relative slack of the collide boxes, 2^-20. The exact test can accept a centre at most
 * (r+R)(1 + 3.5 eps) from an axis point that float rounding may have moved 3 eps max|coord|
 * past the axis ends (eps = 2^-24); 2^-20 of the magnitudes covers both with room to spare.
 * The absolute 2^-60 covers underflow: squares below 2^-126 lose absolute precision
 * (about 2^-149), which moves a distance by at most 2^-74. */
#define COLLIDE_RELATIVE_SLACK 9.5367431640625e-07 /* 2^-20 */
#define ABSOLUTE_SLACK 8.673617379884035e-19       /* 2^-60 */

/* Float centre and half-extent of an interval [lo, hi] given in double, rounded outward:
 * the half-extent covers both ends from the rounded centre, and double -> float rounding
 * (at most 2^-24 relative) is covered by growing it by 2^-20 first. */
static void round_out(double lo, double hi, float *c, float *h) {
    *c = (float)(0.5 * (lo + hi));
    const double half = fmax(hi - (double)*c, (double)*c - lo);
    *h = (float)(half * (1.0 + COLLIDE_RELATIVE_SLACK));
}

c2d_capsule_plan c2d_plan_capsule(const c2d_capsule_soa *capsules, size_t k, float max_radius,
                                  c2d_collide_box *box) {
    const float ax = capsules->ax[k], ay = capsules->ay[k];
    const float bx = capsules->bx[k], by = capsules->by[k];
    const float R = capsules->radius[k];
    if (ax != ax || ay != ay || bx != bx || by != by || !(R >= 0.0f))
        return C2D_PLAN_SKIP;
    const float m = fmaxf(fmaxf(fabsf(ax), fabsf(ay)), fmaxf(fmaxf(fabsf(bx), fabsf(by)), R));
    if (!(m <= C2D_TAME_LIMIT))
        return C2D_PLAN_EXACT;
    const double slack =
        COLLIDE_RELATIVE_SLACK * ((double)m + (double)max_radius) + ABSOLUTE_SLACK;
    const double grow = (double)R + (double)max_radius + slack;
    round_out(fmin(ax, bx) - grow, fmax(ax, bx) + grow, &box->cx, &box->hx);
    round_out(fmin(ay, by) - grow, fmax(ay, by) + grow, &box->cy, &box->hy);
    return C2D_PLAN_BOX;
}

void c2d_sweep_capsule_boxes(const c2d_capsule_soa *capsules, size_t first, size_t n,
                             c2d_sweep_boxes *boxes) {
    for (size_t j = 0; j < n; j++) {
        const size_t k = first + j;
        const double ax = capsules->ax[k], ay = capsules->ay[k];
        const double bx = capsules->bx[k], by = capsules->by[k];
        const double R = capsules->radius[k];
        const double m = fmax(fmax(fabs(ax), fabs(ay)), fmax(fmax(fabs(bx), fabs(by)), fabs(R)));
        if (!(m <= C2D_TAME_LIMIT)) { /* NaN, infinite or huge: test every circle exactly */
            boxes->lo_x[j] = boxes->lo_y[j] = -INFINITY;
            boxes->hi_x[j] = boxes->hi_y[j] = INFINITY;
            continue;
        }
        const double size = fabs(bx - ax) + fabs(by - ay) + fabs(R);
        const double grow = fabs(R) + C2D_SWEEP_SIZE_SLACK * size + C2D_SWEEP_POSITION_SLACK * m +
                            ABSOLUTE_SLACK;
        /* double -> float rounds by at most 2^-24 relative, far inside the position slack */
        boxes->lo_x[j] = (float)(fmin(ax, bx) - grow);
        boxes->hi_x[j] = (float)(fmax(ax, bx) + grow);
        boxes->lo_y[j] = (float)(fmin(ay, by) - grow);
        boxes->hi_y[j] = (float)(fmax(ay, by) + grow);
    }
}
