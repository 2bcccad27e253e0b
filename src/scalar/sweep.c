/* Swept (continuous) tests: the first time of impact of a moving circle.
 *
 * Why no entering path is missed (docs/sweeps.md has the longer version). The capsule
 * inflated by the circle's radius is a stadium: a band |h| <= rs around the axis line cut to
 * the axis span, plus a disc of radius rs at each end (rs = r + R). A path that enters it
 * first crosses the band's edge line h = +-rs (the side) either inside the span or beyond an
 * end; beyond end b it can only reach the stadium through the disc at b. With the motion M,
 * the offset Q = p - b and W = M x Q (|W| / |M| is the distance from b to the path's line),
 * the crossing of the side facing the circle (sign sigma) lies at or before b along the axis
 * exactly when sigma W <= rs (M.u) (u the unit axis direction), and the line meets the disc at
 * b exactly when |W| <= rs |M|. Since |M.u| <= |M|, the two conditions together cover every
 * line with sigma W <= rs |M|, and a line with sigma W > rs |M| passes b on its far side, out
 * of the stadium. The same holds at a with P = p - a and the condition reversed.
 *
 * The old code decided "inside the span" from the crossing point itself, in float: its error,
 * eps |p - a| divided by the slope of the path, moved the crossing past an end while the disc
 * test (done separately, in double) correctly said the line misses the disc: both tests
 * missed a path that went on deep into the band. Here the side test decides the span from
 * the very same double W and the same threshold rs |M| that the end test uses, with its own
 * threshold clamped into [-rs |M|, rs |M|]: whatever the rounding, a path that the side test
 * hands to an end passes that end's line test. What is left to rounding is each feature's own
 * "reaches it within [0, 1], moving toward it", and a wrong answer there only moves the touch
 * by the error of the quantities compared (a few double ulps of |p - a|, |M| and |b - a|),
 * not amplified by a shallow slope: the depth a path can reach unreported is that small.
 *
 * Every quantity is computed in double from the float inputs: four finite floats multiply to
 * a finite double without underflow, so neither overflow nor underflow can fake a touch. */
#include <math.h>

#include "core/lane_scalar.h"
#include "core/dlane_scalar.h"
#include "core/sweep_formula.h"
#include "core/ball_sweep_formula.h"
#include "scalar/reference.h"

/* The arithmetic lives in src/core/sweep_formula.h, written over lane types so the SIMD
 * kernels run the very same operations; the notes below explain its steps.
 *
 * Two circles (circles_touch_time): with relative offset s, relative motion v and radius sum
 * rs, |s + t v| = rs. With c = s.s - rs^2 and b = v.s, the smaller root is
 * (-b - sqrt(b^2 - (v.v)c)) / (v.v), written as c / (-b + sqrt(b^2 - (v.v)c)): the same number
 * without the cancellation of -b - sqrt(...) and without dividing by v.v, which may be 0. The
 * discriminant is written as lim^2 - w^2 = (v.v)rs^2 - (v x s)^2 (Lagrange's identity, w = v x s,
 * lim = rs |v|): b^2 and (v.v)c cancel catastrophically when the motion is long and the radii
 * small, while w^2 / (v.v) is the squared miss distance. The line meets the circle when
 * |w| <= lim: the side test relies on exactly this compare (see the top of the file), so it is
 * the compare made there, and the discriminant is clamped at 0 where the squares round below
 * it. Every comparison is written so that NaN fails it.
 *
 * The side (side_touch): with H = D x P = |D| h and V = D x M = |D| vn (D = b - a), the
 * signed distance sigma h falls to rs at t = (sigma H - rs |D|) / -(sigma V). The crossing lies
 * within the span when sigma (M x P) >= rs (M.u) and sigma (M x Q) <= rs (M.u): the end
 * circles' own w, against a threshold clamped into their [-lim, lim], so that every crossing
 * this rejects past an end passes that end circle's line test (top of the file). A centre
 * already within rs of the line (sigma H <= rs |D|: the start test said "apart" by rounding, or
 * the centre lies beyond an end) touches here at t = 0 only if it projects into the span and
 * moves toward the line; beyond an end, only the end circle can be entered. A zero-length axis
 * has no sides.
 *
 * The side's guard against false hits: where the path runs so nearly parallel to the axis that
 * the rounding of w puts the crossing far past an end (slopes below about 2^-47 |p - a| / rs),
 * the crossing itself must lie within the span grown by rs / 32, so a side hit is never more
 * than rs (sqrt(1 + 2^-10) - 1) < 2^-11 rs beyond the stadium.
 *
 * Each feature's time is rounded to float, and the earliest wins, ties keeping the earlier
 * feature: the side, then the end circle at a, then the one at b.
 *
 * In contact at the start (the float overlap test, or a feature time of 0): a hit at t = 0 with
 * the contact query's normal only when the move goes deeper, m.n < 0; outward, tangential or no
 * move is no hit from that shape. A sweep answers "when does this move first make things
 * worse": the contact query already reports the touch, and a straight path leaving a convex
 * shape never comes back to it, so a ball pushed out to touching may leave. */

bool c2d_sweep_circles(c2d_circle a, c2d_vec2 move_a, c2d_circle b, c2d_vec2 move_b, c2d_toi *out) {
    /* The lane formula itself (core/ball_sweep_formula.h) on one float lane: the ball-ball
     * kernels run the same source, so the two cannot drift apart. Its steps, as a scalar
     * reader would write them: no hit for a negative or NaN radius, a NaN offset or move, or
     * no relative move; apart from the start, the touch time of the two circles (no hit past
     * 1); in contact at the start (the float overlap test, or a touch time of 0, a hair inside
     * in double), a hit at t = 0 only when the relative move goes deeper along the normal
     * between the centres computed in double (start_normal(); a move clearly apart, v.s above
     * what the normal's rounding could turn, is no hit); later, the normal between the
     * centres at t. */
    toi_lanes o;
    if (!ball_sweep_lanes(a.center.x, a.center.y, a.radius, move_a.x, move_a.y, b.center.x,
                          b.center.y, b.radius, move_b.x, move_b.y, &o))
        return false;
    if (out) {
        out->t = o.t;
        out->normal.x = o.nx;
        out->normal.y = o.ny;
        out->point.x = o.px;
        out->point.y = o.py;
    }
    return true;
}

bool c2d_capsule_sweep(float px, float py, float r, float mx, float my, float ax, float ay,
                       float bx, float by, float R, c2d_toi *out) {
    sweep_found f;
    if (!capsule_sweep_decide(px, py, r, mx, my, ax, ay, bx, by, R, &f)) return false;
    if (out) {
        toi_lanes k;
        capsule_sweep_finish(px, py, mx, my, ax, ay, bx, by, R, &f, &k);
        out->t = k.t;
        out->normal.x = k.nx;
        out->normal.y = k.ny;
        out->point.x = k.px;
        out->point.y = k.py;
    }
    return true;
}

bool c2d_sweep_circle_capsule(c2d_circle c, c2d_vec2 move, c2d_capsule k, c2d_toi *out) {
    return c2d_capsule_sweep(c.center.x, c.center.y, c.radius, move.x, move.y, k.a.x, k.a.y, k.b.x,
                             k.b.y, k.radius, out);
}

bool c2d_moving_capsule_sweep(float px, float py, float r, float mx, float my, float ax, float ay,
                              float bx, float by, float R, float cmx, float cmy, c2d_toi *out) {
    /* the kernels make the same float operations in the same order (sweep_flush) */
    const float rx = mx - cmx, ry = my - cmy;
    c2d_toi toi;
    if (!c2d_capsule_sweep(px, py, r, rx, ry, ax, ay, bx, by, R, &toi)) return false;
    if (out) {
        toi.point.x = toi.point.x + toi.t * cmx;
        toi.point.y = toi.point.y + toi.t * cmy;
        *out = toi;
    }
    return true;
}

bool c2d_sweep_circle_moving_capsule(c2d_circle c, c2d_vec2 move, c2d_capsule k,
                                     c2d_vec2 capsule_move, c2d_toi *out) {
    return c2d_moving_capsule_sweep(c.center.x, c.center.y, c.radius, move.x, move.y, k.a.x, k.a.y,
                                    k.b.x, k.b.y, k.radius, capsule_move.x, capsule_move.y, out);
}

c2d_vec2 c2d_slide_move(c2d_vec2 move, c2d_vec2 normal) {
    const double into = (double)move.x * normal.x + (double)move.y * normal.y;
    if (!(into < 0.0)) return move; /* outward, along, no move, or NaN: as it is */
    c2d_vec2 out = {(float)(move.x - into * normal.x), (float)(move.y - into * normal.y)};
    /* The rounding to float may leave a hair of the inward part, and the next sweep would stop
     * the ball at t = 0 again: push the rest out along the normal, by a doubling amount (at
     * least the smallest float, so that subnormal moves move too), until the exact sign (the
     * sweeps' own test) says "not deeper". 300 doublings reach past the largest float. */
    double left = (double)out.x * normal.x + (double)out.y * normal.y;
    double step = -left > 0x1p-149 ? -left : 0x1p-149;
    for (int k = 0; left < 0.0 && k < 300; k++, step *= 2.0) {
        out.x = (float)(out.x + step * normal.x);
        out.y = (float)(out.y + step * normal.y);
        left = (double)out.x * normal.x + (double)out.y * normal.y;
    }
    return out;
}
