/* Conservative culling boxes for the batch kernels.
 *
 * A kernel first tests every lane against a box that is cheap to test and provably contains
 * every pair the exact test accepts, then runs the exact scalar-reference code only for the
 * lanes inside it. The boxes only decide which lanes get the exact test, never the answer, so
 * they are computed here once per call or capsule (in double, with generous slack) and need
 * not be bit-identical between backends. Everything here is inline: the kernels plan every
 * capsule once per call, and a call per capsule was a visible cost for small circle sets. */
#ifndef C2D_BATCH_CULL_H
#define C2D_BATCH_CULL_H

#include <stdbool.h>
#include <math.h>
#include <stddef.h>

#include "collide2d/batch.h"
#include "scalar/reference.h"
#include "core/slack.h"

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
    C2D_PLAN_SKIP, /* NaN anywhere or a negative radius: it can overlap nothing */
    C2D_PLAN_BOX,  /* tame: cull circles with the box, then the exact test */
    C2D_PLAN_EXACT /* infinite or huge: the exact test for every circle */
} c2d_capsule_plan;

/* A circle can overlap the capsule only if its centre p has |px - cx| <= hx and
 * |py - cy| <= hy (computed in float): the capsule's bounding box grown by the largest circle
 * radius and by slack for rounding. Float rounding of |p - c| is monotone, so a box that
 * holds every accepted centre in exact arithmetic also holds it in float. */
typedef struct c2d_collide_box {
    float cx, cy, hx, hy;
} c2d_collide_box;

/* The sweep kernel's boxes: an axis-aligned box that contains everything a sweep can touch,
 * [lo_x, hi_x] x [lo_y, hi_y]; infinite when the inputs are not tame (or NaN). */
typedef struct c2d_sweep_boxes {
    float lo_x[256], hi_x[256], lo_y[256], hi_y[256];
} c2d_sweep_boxes;

/* Capsules per c2d_sweep_boxes. */
#define C2D_SWEEP_CHUNK 256

/* max and min of values known not to be NaN (libm's fmax is a call, not an instruction). */
static inline double c2d_dmax(double a, double b) {
    return a > b ? a : b;
}
static inline double c2d_dmin(double a, double b) {
    return a < b ? a : b;
}

/* Float centre and half-extent of an interval [lo, hi] given in double, rounded outward:
 * the half-extent covers both ends from the rounded centre, and double -> float rounding
 * (at most 2^-24 relative) is covered by growing it by 2^-20 first. */
static inline void c2d_round_out(double lo, double hi, float *c, float *h) {
    *c = (float)(0.5 * (lo + hi));
    const double half = c2d_dmax(hi - (double)*c, (double)*c - lo);
    *h = (float)(half * (1.0 + C2D_COLLIDE_RELATIVE_SLACK));
}

/* Plans capsule k of `capsules` against circles whose radii are at most max_radius, and for
 * C2D_PLAN_BOX fills *box. */
static inline c2d_capsule_plan c2d_plan_capsule(const c2d_capsule_soa *capsules, size_t k,
                                                float max_radius, c2d_collide_box *box) {
    const double ax = capsules->ax[k], ay = capsules->ay[k];
    const double bx = capsules->bx[k], by = capsules->by[k];
    const double R = capsules->radius[k];
    if (ax != ax || ay != ay || bx != bx || by != by || !(R >= 0.0)) return C2D_PLAN_SKIP;
    const double m =
        c2d_dmax(c2d_dmax(fabs(ax), fabs(ay)), c2d_dmax(c2d_dmax(fabs(bx), fabs(by)), R));
    if (!(m <= C2D_TAME_LIMIT)) return C2D_PLAN_EXACT;
    const double slack = C2D_COLLIDE_RELATIVE_SLACK * (m + max_radius) + C2D_ABSOLUTE_SLACK;
    const double grow = R + max_radius + slack;
    c2d_round_out(c2d_dmin(ax, bx) - grow, c2d_dmax(ax, bx) + grow, &box->cx, &box->hx);
    c2d_round_out(c2d_dmin(ay, by) - grow, c2d_dmax(ay, by) + grow, &box->cy, &box->hy);
    return C2D_PLAN_BOX;
}

/* Fills boxes->*[j] for capsules first .. first+n-1 (n <= C2D_SWEEP_CHUNK). A capsule with a
 * NaN never hits (the exact sweep says so) and gets an empty box; an infinite or huge one
 * gets an infinite box, so every circle goes to the exact sweep. */
static inline void c2d_sweep_capsule_boxes(const c2d_capsule_soa *capsules, size_t first, size_t n,
                                           c2d_sweep_boxes *boxes) {
    for (size_t j = 0; j < n; j++) {
        const size_t k = first + j;
        const double ax = capsules->ax[k], ay = capsules->ay[k];
        const double bx = capsules->bx[k], by = capsules->by[k];
        const double R = capsules->radius[k];
        if (ax != ax || ay != ay || bx != bx || by != by || R != R) {
            boxes->lo_x[j] = boxes->lo_y[j] = INFINITY;
            boxes->hi_x[j] = boxes->hi_y[j] = -INFINITY;
            continue;
        }
        const double m =
            c2d_dmax(c2d_dmax(fabs(ax), fabs(ay)), c2d_dmax(c2d_dmax(fabs(bx), fabs(by)), fabs(R)));
        if (!(m <= C2D_TAME_LIMIT)) {
            boxes->lo_x[j] = boxes->lo_y[j] = -INFINITY;
            boxes->hi_x[j] = boxes->hi_y[j] = INFINITY;
            continue;
        }
        const double size = fabs(bx - ax) + fabs(by - ay) + fabs(R);
        const double grow = fabs(R) + C2D_SWEEP_SIZE_SLACK * size + C2D_SWEEP_POSITION_SLACK * m +
                            C2D_ABSOLUTE_SLACK;
        /* double -> float rounds by at most 2^-24 relative, far inside the position slack */
        boxes->lo_x[j] = (float)(c2d_dmin(ax, bx) - grow);
        boxes->hi_x[j] = (float)(c2d_dmax(ax, bx) + grow);
        boxes->lo_y[j] = (float)(c2d_dmin(ay, by) - grow);
        boxes->hi_y[j] = (float)(c2d_dmax(ay, by) + grow);
    }
}

/* Grows the sweep boxes of n capsules for their moves (kmx[j], kmy[j]) over the frame: the box
 * of everything the capsule covers from its start to its end, plus slack for the sweep's
 * relative move `move - capsule move` rounded to float (an error of 2^-24 (|m| + |km|), which
 * the circle's box covers for |m| and 2^-8 |km| covers here) and for the rounding of these
 * bounds (2^-16 |km|, as the position slack). A NaN move never hits (the relative move is NaN):
 * empty box; a move beyond the tame range: infinite box (the exact sweep decides). */
static inline void c2d_sweep_boxes_add_moves(const float *kmx, const float *kmy, size_t n,
                                             c2d_sweep_boxes *boxes) {
    for (size_t j = 0; j < n; j++) {
        const double mx = kmx[j], my = kmy[j];
        if (mx != mx || my != my) {
            boxes->lo_x[j] = boxes->lo_y[j] = INFINITY;
            boxes->hi_x[j] = boxes->hi_y[j] = -INFINITY;
            continue;
        }
        if (!(fabs(mx) <= C2D_TAME_LIMIT && fabs(my) <= C2D_TAME_LIMIT)) {
            boxes->lo_x[j] = boxes->lo_y[j] = -INFINITY;
            boxes->hi_x[j] = boxes->hi_y[j] = INFINITY;
            continue;
        }
        const double grow =
            (C2D_SWEEP_SIZE_SLACK + C2D_SWEEP_POSITION_SLACK) * (fabs(mx) + fabs(my));
        /* an empty box (lo = inf, hi = -inf) stays empty, an infinite one infinite */
        boxes->lo_x[j] = (float)(boxes->lo_x[j] + c2d_dmin(mx, 0.0) - grow);
        boxes->hi_x[j] = (float)(boxes->hi_x[j] + c2d_dmax(mx, 0.0) + grow);
        boxes->lo_y[j] = (float)(boxes->lo_y[j] + c2d_dmin(my, 0.0) - grow);
        boxes->hi_y[j] = (float)(boxes->hi_y[j] + c2d_dmax(my, 0.0) + grow);
    }
}

#endif
