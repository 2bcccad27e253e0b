/* The contact formula (normal, depth, point), written once over an abstract lane type.
 *
 * The companion of segment_formula.h: the scalar layer includes it with lane_t = float
 * (src/core/lane_scalar.h) and builds every c2d_contact with it; the SIMD kernels include it
 * with lane_t = a SIMDe vector (src/batch/lane_simd.h) and build W contacts at once. Only
 * correctly rounded IEEE operations are used (+ - * / sqrt, min/max with x86 semantics), in the
 * same order in both, and every branch of the scalar rules is a select, so each lane holds the
 * bytes the scalar layer computes for it.
 *
 * Besides what segment_formula.h needs, the including file defines: lane_sqrt, lane_abs,
 * lane_neg (flips the sign bit), lane_gt, lane_select(mask, yes, no) and mask_all (every lane
 * set; for float lanes the bool itself).
 */
#ifndef C2D_CORE_CONTACT_FORMULA_H
#define C2D_CORE_CONTACT_FORMULA_H

#include "core/segment_formula.h"

/* The formulas inline into their callers whatever the optimisation level: at -O2 GCC kept
 * out-of-line copies that passed the lanes through memory. */
#if defined(__GNUC__) || defined(__clang__)
#define C2D_FORMULA static inline __attribute__((always_inline))
#else
#define C2D_FORMULA static inline
#endif

/* The first half of the scaled normalisation of (x, y): divide by m = max(|x|, |y|), so the
 * squares can neither overflow nor underflow, then len = |(x, y) / m|. Returns the lanes where
 * that gives a direction: len > 0 is false for a zero vector (0/0 = NaN), an infinite or a NaN
 * one. */
C2D_FORMULA mask_t unit_scaled(lane_t x, lane_t y, lane_t *sx, lane_t *sy, lane_t *len) {
    const lane_t m = lane_max(lane_abs(x), lane_abs(y));
    *sx = lane_div(x, m); /* in [-1, 1] */
    *sy = lane_div(y, m);
    *len = lane_sqrt(lane_add(lane_mul(*sx, *sx), lane_mul(*sy, *sy)));
    return lane_gt(*len, lane_splat(0.0f));
}

/* The second half: (sx, sy) / len where `ok`, the fallback (fx, fy) elsewhere. */
C2D_FORMULA void unit_finish(mask_t ok, lane_t sx, lane_t sy, lane_t len, lane_t fx, lane_t fy,
                             lane_t *ux, lane_t *uy) {
    *ux = lane_select(ok, lane_div(sx, len), fx);
    *uy = lane_select(ok, lane_div(sy, len), fy);
}

/* (x, y) scaled to unit length, or the fallback (fx, fy) where it has no direction. */
C2D_FORMULA void unit_or(lane_t x, lane_t y, lane_t fx, lane_t fy, lane_t *ux, lane_t *uy) {
    lane_t sx, sy, len;
    const mask_t ok = unit_scaled(x, y, &sx, &sy, &len);
    unit_finish(ok, sx, sy, len, fx, fy, ux, uy);
}

/* The unit left perpendicular of the axis a->b, (-(b-a).y, (b-a).x) / |b-a|; (0, 1) for a
 * zero-length (or non-finite) axis. */
C2D_FORMULA void axis_normal(lane_t ax, lane_t ay, lane_t bx, lane_t by, lane_t *nx, lane_t *ny) {
    unit_or(lane_neg(lane_sub(by, ay)), lane_sub(bx, ax), lane_splat(0.0f), lane_splat(1.0f), nx,
            ny);
}

/* One contact per lane. */
typedef struct contact_lanes {
    lane_t nx, ny; /* unit normal, toward the circle */
    lane_t depth;  /* >= 0 */
    lane_t px, py; /* on the capsule's surface */
} contact_lanes;

/* The contact of circle radius r and capsule a-b of radius R, from capsule_gap()'s closest
 * axis point c, offset q = p - c and d2 = |q|^2. Meaningful in the lanes where
 * radii_overlap(d2, r, R) holds; other lanes hold whatever the arithmetic gives.
 *
 * The normal is q / |q| (scaled normalisation); where the centre lies on the axis (q = 0) it
 * is the axis' left perpendicular, and where the axis has no length either, (0, 1). The
 * fallback is computed only when some lane needs it (rare: a centre exactly on the axis); the
 * lanes that use it get the same bytes either way. depth = max((r+R) - sqrt(d2), 0):
 * sqrt(fl(rs*rs)) == rs, so it is >= 0 whenever d2 <= rs*rs did not overflow, and the max
 * (second operand on NaN) keeps it >= 0 and not NaN when it did. point = c + n R. */
C2D_FORMULA contact_lanes contact_from_gap(lane_t r, lane_t R, lane_t ax, lane_t ay, lane_t bx,
                                           lane_t by, lane_t cx, lane_t cy, lane_t qx, lane_t qy,
                                           lane_t d2) {
    contact_lanes k;
    lane_t sx, sy, len;
    const mask_t ok = unit_scaled(qx, qy, &sx, &sy, &len);
    lane_t fx = lane_splat(0.0f), fy = lane_splat(1.0f);
    if (!mask_all(ok)) axis_normal(ax, ay, bx, by, &fx, &fy);
    unit_finish(ok, sx, sy, len, fx, fy, &k.nx, &k.ny);
    k.depth = lane_max(lane_sub(lane_add(r, R), lane_sqrt(d2)), lane_splat(0.0f));
    k.px = lane_add(cx, lane_mul(k.nx, R));
    k.py = lane_add(cy, lane_mul(k.ny, R));
    return k;
}

/* The overlap test and the contact of circle (p, r) and capsule a-b of radius R in every lane;
 * returns the lanes that overlap (the contact is meaningful there). */
C2D_FORMULA mask_t capsule_contact_lanes(lane_t px, lane_t py, lane_t r, lane_t ax, lane_t ay,
                                         lane_t bx, lane_t by, lane_t R, contact_lanes *k) {
    lane_t cx, cy, qx, qy;
    const lane_t d2 = capsule_gap(px, py, ax, ay, bx, by, &cx, &cy, &qx, &qy);
    const mask_t hit = radii_overlap(d2, r, R);
    *k = contact_from_gap(r, R, ax, ay, bx, by, cx, cy, qx, qy, d2);
    return hit;
}

/* capsule_contact_lanes for a zero-length axis b-b (point_gap: the same bytes without the
 * projection's division): circle (p, r) against the ball (b, R). */
C2D_FORMULA mask_t point_contact_lanes(lane_t px, lane_t py, lane_t r, lane_t bx, lane_t by,
                                       lane_t R, contact_lanes *k) {
    lane_t cx, cy, qx, qy;
    const lane_t d2 = point_gap(px, py, bx, by, &cx, &cy, &qx, &qy);
    const mask_t hit = radii_overlap(d2, r, R);
    *k = contact_from_gap(r, R, bx, by, bx, by, cx, cy, qx, qy, d2);
    return hit;
}

#endif
