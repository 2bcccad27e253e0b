/* The closest-point and overlap formulas, written once over an abstract lane type.
 *
 * This file is the single source of truth for the arithmetic that decides a hit. The scalar
 * reference layer includes it with lane_t = float (src/core/lane_scalar.h); the SIMD kernels
 * include it with lane_t = a SIMDe vector (src/batch/lane_simd.h). Each operation is an IEEE
 * single-precision +, -, *, / or compare, in the same order in both, so every backend returns
 * the bytes the scalar layer returns (docs/design.md section 6).
 *
 * The including file defines lane_t, mask_t and: lane_add, lane_sub, lane_mul, lane_div,
 * lane_min, lane_max (x86 semantics: the second operand when either is NaN), lane_le,
 * lane_ge, mask_and, lane_splat(float).
 */
#ifndef C2D_CORE_SEGMENT_FORMULA_H
#define C2D_CORE_SEGMENT_FORMULA_H

/* The point a + t(b-a) of segment a-b closest to p, t = clamp(dot(p-a, b-a) / |b-a|^2, 0, 1).
 * A zero-length segment gives 0/0 = NaN, and max(NaN, 0) = 0 (second operand), so t = 0 and
 * the point is a. */
static inline void segment_closest(lane_t px, lane_t py, lane_t ax, lane_t ay, lane_t bx, lane_t by,
                                   lane_t *cx, lane_t *cy) {
    const lane_t dx = lane_sub(bx, ax);
    const lane_t dy = lane_sub(by, ay);
    const lane_t dot = lane_add(lane_mul(lane_sub(px, ax), dx), lane_mul(lane_sub(py, ay), dy));
    const lane_t len2 = lane_add(lane_mul(dx, dx), lane_mul(dy, dy));
    const lane_t t = lane_min(lane_max(lane_div(dot, len2), lane_splat(0.0f)), lane_splat(1.0f));
    *cx = lane_add(ax, lane_mul(t, dx));
    *cy = lane_add(ay, lane_mul(t, dy));
}

/* Squared distance from p to the capsule axis a-b; also returns the closest axis point c and
 * the offset q = p - c (the contact normal's direction). */
static inline lane_t capsule_gap(lane_t px, lane_t py, lane_t ax, lane_t ay, lane_t bx, lane_t by,
                                 lane_t *cx, lane_t *cy, lane_t *qx, lane_t *qy) {
    segment_closest(px, py, ax, ay, bx, by, cx, cy);
    *qx = lane_sub(px, *cx);
    *qy = lane_sub(py, *cy);
    return lane_add(lane_mul(*qx, *qx), lane_mul(*qy, *qy));
}

/* capsule_gap for a zero-length axis a = b = (bx, by) (a ball), without the projection:
 * segment_closest's t is +0 for every such input. d = b - b is +0 where b is finite and NaN
 * where not (x - x is never -0), so |d|^2 is +0 or NaN and dot / |d|^2 is NaN (0/0, or NaN
 * anywhere); max(NaN, 0) = 0 and min(0, 1) = 0. The point keeps the formula's last step,
 * c = b + 0 d: +0 or NaN is added, so c and q carry the same zeros' signs and NaNs as
 * capsule_gap's. */
static inline lane_t point_gap(lane_t px, lane_t py, lane_t bx, lane_t by, lane_t *cx, lane_t *cy,
                               lane_t *qx, lane_t *qy) {
    const lane_t zero = lane_splat(0.0f);
    *cx = lane_add(bx, lane_mul(zero, lane_sub(bx, bx)));
    *cy = lane_add(by, lane_mul(zero, lane_sub(by, by)));
    *qx = lane_sub(px, *cx);
    *qy = lane_sub(py, *cy);
    return lane_add(lane_mul(*qx, *qx), lane_mul(*qy, *qy));
}

/* The overlap predicate: |q|^2 <= (r+R)^2, touching counts. A negative radius is an empty
 * shape and never overlaps; NaN anywhere makes a compare false, so NaN never overlaps. */
static inline mask_t radii_overlap(lane_t d2, lane_t r, lane_t R) {
    const lane_t rs = lane_add(r, R);
    const lane_t zero = lane_splat(0.0f);
    return mask_and(lane_le(d2, lane_mul(rs, rs)), mask_and(lane_ge(r, zero), lane_ge(R, zero)));
}

/* Does the circle (p, r) overlap the capsule a-b of radius R? */
static inline mask_t capsule_overlap(lane_t px, lane_t py, lane_t r, lane_t ax, lane_t ay,
                                     lane_t bx, lane_t by, lane_t R) {
    lane_t cx, cy, qx, qy;
    const lane_t d2 = capsule_gap(px, py, ax, ay, bx, by, &cx, &cy, &qx, &qy);
    return radii_overlap(d2, r, R);
}

/* capsule_overlap for a zero-length axis b-b (point_gap): does circle (p, r) overlap the
 * ball (b, R)? */
static inline mask_t point_overlap(lane_t px, lane_t py, lane_t r, lane_t bx, lane_t by, lane_t R) {
    lane_t cx, cy, qx, qy;
    const lane_t d2 = point_gap(px, py, bx, by, &cx, &cy, &qx, &qy);
    return radii_overlap(d2, r, R);
}

#endif
