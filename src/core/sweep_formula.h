/* The capsule sweep (time of impact, normal, point), written once over abstract lane types.
 *
 * The companion of contact_formula.h for the swept test, and the single source of its
 * arithmetic: the scalar layer (src/scalar/sweep.c, which explains why no entering path is
 * missed) includes it with lane_t = float and dlane_t = double (core/lane_scalar.h,
 * core/dlane_scalar.h); the SIMD kernels with SIMDe vectors (batch/lane_simd.h,
 * batch/dlane_simd.h), a float vector converting to DLANE_HALVES double vectors. Every operation
 * is correctly rounded IEEE, in the same order in both, and every branch of the scalar rules is
 * a select, so each lane holds the bytes the scalar layer computes. The branches left
 * (dmask_any) only skip work that no lane needs; they do not change any lane's result.
 *
 * Besides what contact_formula.h needs, the including file defines mask_or, mask_any (some lane
 * set; for float lanes the bool itself), dlane_t, dmask_t,
 * DLANE_HALVES and: dlane_add, dlane_sub, dlane_mul, dlane_div, dlane_sqrt, dlane_abs,
 * dlane_neg, dlane_min, dlane_max (x86 semantics), dlane_splat(double), dlane_select,
 * dlane_lt, dlane_le, dlane_gt, dlane_ge, dmask_and, dmask_any, dlane_from_lane(lane, half)
 * (exact) and lane_from_dlanes(lo, hi) (rounded to nearest).
 */
#ifndef C2D_CORE_SWEEP_FORMULA_H
#define C2D_CORE_SWEEP_FORMULA_H

#include "core/contact_formula.h"

/* "No touch" as a time: every touch is in [0, 1], and 2 rounds to float exactly, so comparing
 * times as floats keeps the earlier touch whether or not there is one. */
#define C2D_SWEEP_NONE 2.0

/* First touch over t in [0, 1] of two circles with relative offset s and relative motion v,
 * radius sum rs, w = v x s and lim = rs |v| (the notes at the top of src/scalar/sweep.c give
 * the reasons of each step), in three steps so that a caller can run the roots of several
 * touches in one block: circle_touch_begin (c, b, and the lanes moving toward each other whose
 * path's line comes within rs), circle_touch_root (the time in those lanes, C2D_SWEEP_NONE in
 * the others), circle_touch_end (0 where touching at the start). A lane's time is the same
 * whether or not the root was computed for its vector: a lane not toward gets C2D_SWEEP_NONE
 * from the root's select, which is what it gets without the root. NaN anywhere fails a
 * compare and gives C2D_SWEEP_NONE. */
typedef struct circle_touch {
    dlane_t c, b;   /* |s|^2 - rs^2, v.s */
    dmask_t toward; /* moving toward each other, the path's line within rs */
} circle_touch;

C2D_FORMULA circle_touch circle_touch_begin(dlane_t sx, dlane_t sy, dlane_t vx, dlane_t vy,
                                            dlane_t w, dlane_t lim, dlane_t rs) {
    circle_touch k;
    k.c = dlane_sub(dlane_add(dlane_mul(sx, sx), dlane_mul(sy, sy)), dlane_mul(rs, rs));
    k.b = dlane_add(dlane_mul(vx, sx), dlane_mul(vy, sy));
    k.toward = dmask_and(dlane_lt(k.b, dlane_splat(0.0)), dlane_le(dlane_abs(w), lim));
    return k;
}

C2D_FORMULA dlane_t circle_touch_root(const circle_touch *k, dlane_t w, dlane_t lim) {
    const dlane_t disc = dlane_sub(dlane_mul(lim, lim), dlane_mul(w, w));
    const dlane_t root =
        dlane_div(k->c, dlane_add(dlane_neg(k->b), dlane_sqrt(dlane_max(disc, dlane_splat(0.0)))));
    return dlane_select(dmask_and(k->toward, dlane_le(root, dlane_splat(1.0))), root,
                        dlane_splat(C2D_SWEEP_NONE));
}

C2D_FORMULA dlane_t circle_touch_end(const circle_touch *k, dlane_t t) {
    return dlane_select(dlane_le(k->c, dlane_splat(0.0)), dlane_splat(0.0), t);
}

/* The three steps for one touch: the time, or C2D_SWEEP_NONE. */
C2D_FORMULA dlane_t circles_touch_time(dlane_t sx, dlane_t sy, dlane_t vx, dlane_t vy, dlane_t w,
                                       dlane_t lim, dlane_t rs) {
    const circle_touch k = circle_touch_begin(sx, sy, vx, vy, w, lim, rs);
    dlane_t t = dlane_splat(C2D_SWEEP_NONE);
    if (dmask_any(k.toward)) t = circle_touch_root(&k, w, lim);
    return circle_touch_end(&k, t);
}

/* What the features of a capsule sweep share, in double from the float inputs: the centre
 * relative to a and b, the axis, the motion, the radius sum, the axis' length, lim = rs |m|,
 * M x P and M x Q, and the side's sign sigma (+1 left of the axis a->b, -1 right) with
 * sigma H and sigma V (H = D x P, V = D x M). */
typedef struct sweep_frame {
    dlane_t fpx, fpy, fqx, fqy, dx, dy, mx, my, rs, len, lim, wa, wb, sigma, hs, vs;
} sweep_frame;

C2D_FORMULA void sweep_frame_of(dlane_t px, dlane_t py, dlane_t r, dlane_t mx, dlane_t my,
                                dlane_t ax, dlane_t ay, dlane_t bx, dlane_t by, dlane_t R,
                                sweep_frame *f) {
    f->fpx = dlane_sub(px, ax);
    f->fpy = dlane_sub(py, ay);
    f->fqx = dlane_sub(px, bx);
    f->fqy = dlane_sub(py, by);
    f->dx = dlane_sub(bx, ax);
    f->dy = dlane_sub(by, ay);
    f->mx = mx;
    f->my = my;
    f->len = dlane_sqrt(dlane_add(dlane_mul(f->dx, f->dx), dlane_mul(f->dy, f->dy)));
    f->rs = dlane_add(r, R);
    f->lim = dlane_mul(f->rs, dlane_sqrt(dlane_add(dlane_mul(mx, mx), dlane_mul(my, my))));
    f->wa = dlane_sub(dlane_mul(mx, f->fpy), dlane_mul(my, f->fpx)); /* M x P */
    f->wb = dlane_sub(dlane_mul(mx, f->fqy), dlane_mul(my, f->fqx)); /* M x Q */
    const dlane_t H = dlane_sub(dlane_mul(f->dx, f->fpy), dlane_mul(f->dy, f->fpx));
    const dlane_t V = dlane_sub(dlane_mul(f->dx, my), dlane_mul(f->dy, mx));
    f->sigma = dlane_select(dlane_ge(H, dlane_splat(0.0)), dlane_splat(1.0), dlane_splat(-1.0));
    f->hs = dlane_mul(f->sigma, H);
    f->vs = dlane_mul(f->sigma, V);
}

/* The lanes whose side may be touched: an axis with length, and moving toward its line. */
C2D_FORMULA dmask_t side_toward(const sweep_frame *f) {
    return dmask_and(dlane_gt(f->len, dlane_splat(0.0)), dlane_lt(f->vs, dlane_splat(0.0)));
}

/* The first touch of the side facing the circle in the lanes `toward`, C2D_SWEEP_NONE in the
 * others. The notes at the top of src/scalar/sweep.c give the side's rules and its guard. */
C2D_FORMULA dlane_t side_touch(const sweep_frame *f, dmask_t toward) {
    const dlane_t zero = dlane_splat(0.0), one = dlane_splat(1.0);
    const dlane_t none = dlane_splat(C2D_SWEEP_NONE);
    const dlane_t fpx = f->fpx, fpy = f->fpy, dx = f->dx, dy = f->dy, mx = f->mx, my = f->my;
    const dlane_t rs = f->rs, len = f->len, lim = f->lim, sigma = f->sigma;
    const dlane_t gap = dlane_sub(f->hs, dlane_mul(rs, len));
    /* already within rs of the line: a touch at 0 if the centre projects into the span */
    const dmask_t within =
        dmask_and(dlane_ge(dlane_add(dlane_mul(dx, fpx), dlane_mul(dy, fpy)), zero),
                  dlane_le(dlane_add(dlane_mul(dx, f->fqx), dlane_mul(dy, f->fqy)), zero));
    const dlane_t t = dlane_div(gap, dlane_neg(f->vs));
    dlane_t along = dlane_mul(rs, dlane_div(dlane_add(dlane_mul(mx, dx), dlane_mul(my, dy)), len));
    along = dlane_min(along, lim);
    along = dlane_max(along, dlane_neg(lim));
    const dmask_t span = dmask_and(dlane_ge(dlane_mul(sigma, f->wa), along),
                                   dlane_le(dlane_mul(sigma, f->wb), along));
    /* the guard against false hits of a path almost parallel to the axis */
    const dlane_t cx = dlane_add(fpx, dlane_mul(t, mx)), cy = dlane_add(fpy, dlane_mul(t, my));
    const dlane_t at = dlane_div(dlane_add(dlane_mul(cx, dx), dlane_mul(cy, dy)), len);
    const dlane_t slack = dlane_mul(rs, dlane_splat(0.03125));
    const dmask_t guard =
        dmask_and(dlane_ge(at, dlane_neg(slack)), dlane_le(at, dlane_add(len, slack)));
    const dmask_t deep = dmask_and(dmask_and(dlane_le(t, one), span), guard);
    const dlane_t entered = dlane_select(dlane_gt(gap, zero), dlane_select(deep, t, none),
                                         dlane_select(within, zero, none));
    return dlane_select(toward, entered, none);
}

/* The first touch of each feature of the capsule in every half (the frames f): the side facing
 * the circle (t_side), the end circle at a (t_a) and at b (t_b); C2D_SWEEP_NONE where there is
 * none. The work a feature needs only where some lane moves toward it is done for all halves
 * in one block when any lane of any half needs it (the halves' chains then interleave), and
 * skipped otherwise; a lane's time does not depend on which. */
C2D_FORMULA void sweep_features(const sweep_frame f[DLANE_HALVES], dlane_t t_side[DLANE_HALVES],
                                dlane_t t_a[DLANE_HALVES], dlane_t t_b[DLANE_HALVES]) {
    const dlane_t none = dlane_splat(C2D_SWEEP_NONE);
    dmask_t toward[DLANE_HALVES];
    bool any_side = false, any_end = false;
    circle_touch ka[DLANE_HALVES], kb[DLANE_HALVES];
    for (int h = 0; h < DLANE_HALVES; h++) {
        toward[h] = side_toward(&f[h]);
        any_side = any_side || dmask_any(toward[h]);
        ka[h] =
            circle_touch_begin(f[h].fpx, f[h].fpy, f[h].mx, f[h].my, f[h].wa, f[h].lim, f[h].rs);
        kb[h] =
            circle_touch_begin(f[h].fqx, f[h].fqy, f[h].mx, f[h].my, f[h].wb, f[h].lim, f[h].rs);
        any_end = any_end || dmask_any(ka[h].toward) || dmask_any(kb[h].toward);
    }
    for (int h = 0; h < DLANE_HALVES; h++) {
        t_side[h] = none;
        t_a[h] = none;
        t_b[h] = none;
    }
    if (any_side)
        for (int h = 0; h < DLANE_HALVES; h++)
            t_side[h] = side_touch(&f[h], toward[h]);
    if (any_end)
        for (int h = 0; h < DLANE_HALVES; h++) {
            t_a[h] = circle_touch_root(&ka[h], f[h].wa, f[h].lim);
            t_b[h] = circle_touch_root(&kb[h], f[h].wb, f[h].lim);
        }
    for (int h = 0; h < DLANE_HALVES; h++) {
        t_a[h] = circle_touch_end(&ka[h], t_a[h]);
        t_b[h] = circle_touch_end(&kb[h], t_b[h]);
    }
}

/* One sweep per lane. */
typedef struct toi_lanes {
    lane_t t;
    lane_t nx, ny; /* unit normal, toward the circle */
    lane_t px, py; /* on the capsule's surface */
} toi_lanes;

/* What capsule_sweep_decide() found, for capsule_sweep_finish(). */
typedef struct sweep_found {
    mask_t start;   /* in contact at the start: overlapping, or a feature touched at t = 0 */
    mask_t is_side; /* the side was touched first */
    mask_t take_b;  /* the end circle at b was touched first */
    lane_t t, sign; /* the time; the side's sign */
    lane_t cx, cy;  /* the start's closest axis point */
    lane_t qx, qy;  /* and the offset from it to the centre */
    lane_t nx, ny;  /* start_normal(), where `start` */
} sweep_found;

/* The unit vectors of the double halves (ux, uy) rounded to float, or (fx, fy) in the lanes
 * where they are no direction (NaN, or not about unit): start_normal()'s last step. */
C2D_FORMULA void unit_in_float_or(const dlane_t ux[2], const dlane_t uy[2], lane_t fx, lane_t fy,
                                  lane_t *nx, lane_t *ny) {
    const lane_t rx = lane_from_dlanes(ux[0], ux[DLANE_HALVES - 1]);
    const lane_t ry = lane_from_dlanes(uy[0], uy[DLANE_HALVES - 1]);
    /* a direction: about unit (NaN fails the compare) */
    const mask_t ok = lane_gt(lane_add(lane_mul(rx, rx), lane_mul(ry, ry)), lane_splat(0.5f));
    *nx = lane_select(ok, rx, fx);
    *ny = lane_select(ok, ry, fy);
}

/* The normal of a circle in contact at the start: the direction from the closest axis point
 * to the centre, computed in double from the floats and rounded to float; the fallback
 * (fx, fy) where it has none (the centre on the axis, or a value not finite). The contact
 * query computes the same direction in float, where the closest point's rounding, eps |p|,
 * turns it by up to eps |p| / |q|: for shapes small against their coordinates that is enough
 * for a move along the surface to drift deep into it (docs/sweeps.md); here it is off by the
 * float rounding of the unit vector alone. */
C2D_FORMULA void start_normal(lane_t px, lane_t py, lane_t ax, lane_t ay, lane_t bx, lane_t by,
                              lane_t fx, lane_t fy, lane_t *nx, lane_t *ny) {
    dlane_t ux[2], uy[2];
    for (int h = 0; h < DLANE_HALVES; h++) {
        const dlane_t dax = dlane_from_lane(ax, h), day = dlane_from_lane(ay, h);
        const dlane_t dx = dlane_sub(dlane_from_lane(bx, h), dax);
        const dlane_t dy = dlane_sub(dlane_from_lane(by, h), day);
        const dlane_t fpx = dlane_sub(dlane_from_lane(px, h), dax);
        const dlane_t fpy = dlane_sub(dlane_from_lane(py, h), day);
        /* u = clamp(P.D / D.D, 0, 1); 0/0 = NaN goes to 0 (max's second operand), as in
         * segment_closest() */
        dlane_t u = dlane_div(dlane_add(dlane_mul(fpx, dx), dlane_mul(fpy, dy)),
                              dlane_add(dlane_mul(dx, dx), dlane_mul(dy, dy)));
        u = dlane_min(dlane_max(u, dlane_splat(0.0)), dlane_splat(1.0));
        const dlane_t qx = dlane_sub(fpx, dlane_mul(u, dx)), qy = dlane_sub(fpy, dlane_mul(u, dy));
        const dlane_t len = dlane_sqrt(dlane_add(dlane_mul(qx, qx), dlane_mul(qy, qy)));
        ux[h] = dlane_div(qx, len); /* NaN where len is 0 or not finite */
        uy[h] = dlane_div(qy, len);
    }
    unit_in_float_or(ux, uy, fx, fy, nx, ny);
}

/* -1 in the lanes where the move (mx, my) goes deeper along the unit normal (nx, ny), that is
 * m.n < 0; +1 elsewhere (outward, tangential, no move, NaN). The dot product is taken in double
 * from the floats: both products are exact there and the sum is rounded once, so its sign is the
 * exact sign of m.n for the float normal. */
C2D_FORMULA lane_t move_direction(lane_t mx, lane_t my, lane_t nx, lane_t ny) {
    dlane_t sign[2];
    for (int h = 0; h < DLANE_HALVES; h++) {
        const dlane_t dot = dlane_add(dlane_mul(dlane_from_lane(mx, h), dlane_from_lane(nx, h)),
                                      dlane_mul(dlane_from_lane(my, h), dlane_from_lane(ny, h)));
        sign[h] =
            dlane_select(dlane_lt(dot, dlane_splat(0.0)), dlane_splat(-1.0), dlane_splat(1.0));
    }
    return lane_from_dlanes(sign[0], sign[DLANE_HALVES - 1]);
}

/* The first touch of circle (p, r) moving by m and the static capsule a-b of radius R, in every
 * lane: whether and when. Returns the lanes that hit; capsule_sweep_finish() then gives their
 * normals and points.
 *
 * A negative radius or NaN in the start gap or in the motion never hits. Otherwise the earliest
 * feature touched wins, ties to the side, then end a, then end b (each later feature must be
 * strictly earlier), and t is that feature's time rounded to float.
 *
 * In contact at the start: the float overlap test says so, or the earliest feature's time is
 * 0 (the double feature times may find a centre a hair inside that the float test calls apart:
 * both are the same start, so one mask decides it). Such a circle hits at t = 0, with the contact
 * normal of start_normal() (the contact query's direction, computed in double), only when its
 * move goes deeper (m.n < 0, exact for that float normal); moving outward, tangentially or not
 * at all it gets no hit from this capsule. That is exact: the distance from a point moving on a
 * straight line to a convex shape is a convex function of t, so if it does not fall at t = 0 it
 * never falls below its start. */
C2D_FORMULA mask_t capsule_sweep_decide(lane_t px, lane_t py, lane_t r, lane_t mx, lane_t my,
                                        lane_t ax, lane_t ay, lane_t bx, lane_t by, lane_t R,
                                        sweep_found *f) {
    const lane_t zero = lane_splat(0.0f), one = lane_splat(1.0f);
    const lane_t d2 = capsule_gap(px, py, ax, ay, bx, by, &f->cx, &f->cy, &f->qx, &f->qy);
    f->start = radii_overlap(d2, r, R);
    /* radii not negative, no NaN in the gap or the motion (x <= x fails only for NaN) */
    const mask_t ok =
        mask_and(mask_and(lane_ge(r, lane_splat(0.0f)), lane_ge(R, lane_splat(0.0f))),
                 mask_and(lane_le(d2, d2), mask_and(lane_le(mx, mx), lane_le(my, my))));

    sweep_frame fr[DLANE_HALVES];
    for (int h = 0; h < DLANE_HALVES; h++)
        sweep_frame_of(dlane_from_lane(px, h), dlane_from_lane(py, h), dlane_from_lane(r, h),
                       dlane_from_lane(mx, h), dlane_from_lane(my, h), dlane_from_lane(ax, h),
                       dlane_from_lane(ay, h), dlane_from_lane(bx, h), dlane_from_lane(by, h),
                       dlane_from_lane(R, h), &fr[h]);
    dlane_t side[DLANE_HALVES], ta[DLANE_HALVES], tb[DLANE_HALVES];
    sweep_features(fr, side, ta, tb);
    const lane_t t_side = lane_from_dlanes(side[0], side[DLANE_HALVES - 1]);
    const lane_t t_a = lane_from_dlanes(ta[0], ta[DLANE_HALVES - 1]);
    const lane_t t_b = lane_from_dlanes(tb[0], tb[DLANE_HALVES - 1]);
    f->sign = lane_from_dlanes(fr[0].sigma, fr[DLANE_HALVES - 1].sigma);

    /* the earliest feature: a later one must be strictly earlier (times compared as floats) */
    const mask_t take_a = lane_gt(t_side, t_a);
    const lane_t after_a = lane_select(take_a, t_a, t_side);
    f->take_b = lane_gt(after_a, t_b);
    const lane_t first = lane_select(f->take_b, t_b, after_a);
    f->is_side =
        mask_and(lane_le(t_side, one), mask_and(lane_ge(t_a, t_side), lane_ge(t_b, t_side)));
    f->start = mask_or(f->start, lane_le(first, zero));
    f->t = lane_select(f->start, zero, first);
    /* -1 (a hit may follow) where apart at the start or moving deeper; +1 where it may not */
    lane_t direction = lane_splat(-1.0f);
    f->nx = zero;
    f->ny = zero;
    if (mask_any(f->start)) {
        lane_t anx, any;
        axis_normal(ax, ay, bx, by, &anx, &any);
        start_normal(px, py, ax, ay, bx, by, anx, any, &f->nx, &f->ny);
        direction = lane_select(f->start, move_direction(mx, my, f->nx, f->ny), direction);
    }
    return mask_and(mask_and(ok, lane_le(f->t, one)), lane_gt(zero, direction));
}

/* The touch's normal and point, meaningful in the lanes capsule_sweep_decide() said hit: at the
 * start, start_normal(); for the side, its sign times the axis' left perpendicular;
 * for an end, the direction from the end to the centre at t (the axis' perpendicular where it
 * has none). The point is the closest axis point (start, side) or the end, plus normal * R. */
C2D_FORMULA void capsule_sweep_finish(lane_t px, lane_t py, lane_t mx, lane_t my, lane_t ax,
                                      lane_t ay, lane_t bx, lane_t by, lane_t R,
                                      const sweep_found *f, toi_lanes *out) {
    lane_t anx, any;
    axis_normal(ax, ay, bx, by, &anx, &any);
    /* the centre at the touch, the end touched, the side's closest axis point */
    const lane_t ex = lane_add(px, lane_mul(f->t, mx)), ey = lane_add(py, lane_mul(f->t, my));
    const lane_t ox = lane_select(f->take_b, bx, ax), oy = lane_select(f->take_b, by, ay);
    lane_t kx, ky;
    segment_closest(ex, ey, ax, ay, bx, by, &kx, &ky);
    lane_t ux, uy;
    unit_or(lane_sub(ex, ox), lane_sub(ey, oy), anx, any, &ux, &uy);
    out->t = f->t;
    out->nx = lane_select(f->start, f->nx, lane_select(f->is_side, lane_mul(f->sign, anx), ux));
    out->ny = lane_select(f->start, f->ny, lane_select(f->is_side, lane_mul(f->sign, any), uy));
    const lane_t basex = lane_select(f->start, f->cx, lane_select(f->is_side, kx, ox));
    const lane_t basey = lane_select(f->start, f->cy, lane_select(f->is_side, ky, oy));
    out->px = lane_add(basex, lane_mul(out->nx, R));
    out->py = lane_add(basey, lane_mul(out->ny, R));
}

#endif
