/* The sweep of two moving circles (c2d_sweep_circles) in lanes: whether and when ball a,
 * moving by ma, first touches ball b, moving by mb, and the touch's normal and point.
 *
 * The one source of c2d_sweep_circles: the scalar layer (src/scalar/sweep.c) runs it on one
 * float lane (core/lane_scalar.h), the ball-ball kernels on SIMD lanes. It is built from the
 * pieces of core/sweep_formula.h (circles_touch_time, and start_normal's steps for a b of zero
 * length: ball_start_hit_lanes) and core/contact_formula.h (unit_or); every exit of the scalar
 * rules is a select, so each lane holds the bytes of its own pair. The including file provides the
 * lane types of sweep_formula.h. */
#ifndef C2D_CORE_BALL_SWEEP_FORMULA_H
#define C2D_CORE_BALL_SWEEP_FORMULA_H

#include "core/sweep_formula.h"

/* The hit of a pair in contact at the start whose relative move goes deeper, as
 * ball_sweep_lanes reports it: t = 0, the start normal (b as a zero-length capsule; (0, 1)
 * where it has no direction) and the point on b's surface, b + n r_b. For callers that know
 * the pair is such a hit (the ball grid's sure pairs, kernels_balls.c). */
C2D_FORMULA void ball_start_hit_lanes(lane_t xa, lane_t ya, lane_t xb, lane_t yb, lane_t rb,
                                      toi_lanes *o) {
    /* start_normal(a, b, b) without its projection: the axis d = b - b is (0, 0), so
     * u = (P.d) / (d.d) is 0/0 = NaN, which the clamp sends to 0, and q = P - 0 d is P = a - b
     * exactly (also for a zero of either sign); the same double steps follow, so the same
     * floats */
    dlane_t ux[2], uy[2];
    for (int h = 0; h < DLANE_HALVES; h++) {
        const dlane_t qx = dlane_sub(dlane_from_lane(xa, h), dlane_from_lane(xb, h));
        const dlane_t qy = dlane_sub(dlane_from_lane(ya, h), dlane_from_lane(yb, h));
        const dlane_t len = dlane_sqrt(dlane_add(dlane_mul(qx, qx), dlane_mul(qy, qy)));
        ux[h] = dlane_div(qx, len);
        uy[h] = dlane_div(qy, len);
    }
    unit_in_float_or(ux, uy, lane_splat(0.0f), lane_splat(1.0f), &o->nx, &o->ny);
    o->t = lane_splat(0.0f);
    o->px = lane_add(xb, lane_mul(o->nx, rb));
    o->py = lane_add(yb, lane_mul(o->ny, rb));
}

/* Every lane's c2d_sweep_circles(a, ma, b, mb): returns the lanes that hit; *o holds their
 * time, normal and point (other lanes: whatever the arithmetic gives). A hit at the start
 * takes ball_start_hit_lanes' values. */
C2D_FORMULA mask_t ball_sweep_lanes(lane_t xa, lane_t ya, lane_t ra, lane_t mxa, lane_t mya,
                                    lane_t xb, lane_t yb, lane_t rb, lane_t mxb, lane_t myb,
                                    toi_lanes *o) {
    const lane_t zero = lane_splat(0.0f), one = lane_splat(1.0f);
    /* c2d_overlap_circles(a, b): b is a capsule with a zero-length axis (point_overlap: the
     * same answer without the projection's division) */
    const mask_t over = point_overlap(xa, ya, ra, xb, yb, rb);
    const lane_t over_f = lane_select(over, one, zero);
    /* per double lane: t (0 where overlapping), and the flags of the scalar function's exits,
     * 1 or 0 as doubles (moving: a relative move and no NaN; soon: t <= 1; apart: clearly
     * moving apart; deeper: the relative move goes against the start's normal) */
    dlane_t t[2], moving[2], soon[2], apart[2], vxs[2], vys[2];
    const dlane_t dzero = dlane_splat(0.0), done = dlane_splat(1.0);
    for (int h = 0; h < DLANE_HALVES; h++) {
        const dlane_t sx = dlane_sub(dlane_from_lane(xa, h), dlane_from_lane(xb, h));
        const dlane_t sy = dlane_sub(dlane_from_lane(ya, h), dlane_from_lane(yb, h));
        const dlane_t vx = dlane_sub(dlane_from_lane(mxa, h), dlane_from_lane(mxb, h));
        const dlane_t vy = dlane_sub(dlane_from_lane(mya, h), dlane_from_lane(myb, h));
        vxs[h] = vx;
        vys[h] = vy;
        /* no NaN (x <= x fails only for NaN), and not both components of the move 0 */
        const dmask_t finite = dmask_and(dmask_and(dlane_le(sx, sx), dlane_le(sy, sy)),
                                         dmask_and(dlane_le(vx, vx), dlane_le(vy, vy)));
        const dmask_t move =
            dmask_and(finite, dlane_gt(dlane_add(dlane_abs(vx), dlane_abs(vy)), dzero));
        moving[h] = dlane_select(move, done, dzero);
        const dlane_t rs = dlane_add(dlane_from_lane(ra, h), dlane_from_lane(rb, h));
        const dlane_t lim =
            dlane_mul(rs, dlane_sqrt(dlane_add(dlane_mul(vx, vx), dlane_mul(vy, vy))));
        const dlane_t touch = circles_touch_time(
            sx, sy, vx, vy, dlane_sub(dlane_mul(vx, sy), dlane_mul(vy, sx)), lim, rs);
        t[h] = dlane_select(dlane_gt(dlane_from_lane(over_f, h), dzero), dzero, touch);
        soon[h] = dlane_select(dlane_le(t[h], done), done, dzero);
        const dlane_t dot = dlane_add(dlane_mul(vx, sx), dlane_mul(vy, sy));
        const dlane_t bound =
            dlane_mul(dlane_splat(0x1p-20), dlane_mul(dlane_add(dlane_abs(vx), dlane_abs(vy)),
                                                      dlane_add(dlane_abs(sx), dlane_abs(sy))));
        apart[h] = dlane_select(dlane_gt(dot, bound), done, dzero);
    }
    const lane_t half = lane_splat(0.5f);
    const lane_t tf = lane_from_dlanes(t[0], t[DLANE_HALVES - 1]); /* rounded as the cast */
    const mask_t go =
        mask_and(mask_and(lane_ge(ra, zero), lane_ge(rb, zero)),
                 mask_and(lane_gt(lane_from_dlanes(moving[0], moving[DLANE_HALVES - 1]), half),
                          lane_gt(lane_from_dlanes(soon[0], soon[DLANE_HALVES - 1]), half)));
    const mask_t start = lane_le(tf, zero); /* t is never negative: tf == 0 */
    mask_t hit = mask_and(go, lane_not_le(tf, zero));
    /* in contact at the start: a hit only when the relative move goes deeper (the hit's values
     * are computed only when some lane needs them: the others are no hit) */
    toi_lanes first = {zero, zero, one, xb, yb};
    if (mask_any(mask_and(go, start))) {
        ball_start_hit_lanes(xa, ya, xb, yb, rb, &first);
        dlane_t deeper[2];
        for (int h = 0; h < DLANE_HALVES; h++) {
            const dlane_t d = dlane_add(dlane_mul(vxs[h], dlane_from_lane(first.nx, h)),
                                        dlane_mul(vys[h], dlane_from_lane(first.ny, h)));
            deeper[h] =
                dlane_select(dmask_and(dlane_lt(d, dzero), dlane_le(apart[h], dzero)), done, dzero);
        }
        const mask_t deep = lane_gt(lane_from_dlanes(deeper[0], deeper[DLANE_HALVES - 1]), half);
        hit = mask_or(hit, mask_and(mask_and(go, start), deep));
    }
    /* touching later: the normal between the centres at t */
    lane_t mnx = zero, mny = one, pbx = xb, pby = yb;
    if (mask_any(mask_and(go, lane_not_le(tf, zero)))) {
        const lane_t pax = lane_add(xa, lane_mul(tf, mxa)), pay = lane_add(ya, lane_mul(tf, mya));
        pbx = lane_add(xb, lane_mul(tf, mxb));
        pby = lane_add(yb, lane_mul(tf, myb));
        unit_or(lane_sub(pax, pbx), lane_sub(pay, pby), zero, one, &mnx, &mny);
    }
    o->t = lane_select(start, first.t, tf);
    o->nx = lane_select(start, first.nx, mnx);
    o->ny = lane_select(start, first.ny, mny);
    o->px = lane_select(start, first.px, lane_add(pbx, lane_mul(mnx, rb)));
    o->py = lane_select(start, first.py, lane_add(pby, lane_mul(mny, rb)));
    return hit;
}

#endif
