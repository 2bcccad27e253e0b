/* The relative-path test of two balls' sweeps, written once over the lane types (float lanes
 * in the scalar backend, SIMD lanes in the kernels; the including file includes its lane
 * header and batch/cull.h first).
 *
 * In exact arithmetic a touch at time t puts the relative position s + t v (s = p_i - p_j,
 * v = m_i - m_j) within the radius sum of the origin, so the box around the relative path
 * s .. s+v grown by the radius sum contains the origin. The growth adds cull.h's sweep slack:
 * 2^-8 of the sizes (motion and radii) and 2^-16 of the positions, far above the float error
 * of this test and the double error of the exact sweep, for tame values (below
 * C2D_TAME_LIMIT; the callers send the others to the exact sweep). NaN fails every compare,
 * as NaN never hits. The test only decides which pairs get the exact sweep, never an answer. */
#ifndef C2D_BATCH_BALL_CULL_H
#define C2D_BATCH_BALL_CULL_H

/* Ball i (x, y, r, move mx, my; size = |x| + |y|) against ball j in every lane: may the two
 * touch during the frame? */
static inline mask_t ball_path_near(lane_t x, lane_t y, lane_t r, lane_t mx, lane_t my, lane_t size,
                                    lane_t xj, lane_t yj, lane_t rj, lane_t mxj, lane_t myj) {
    const lane_t sx = lane_sub(x, xj), sy = lane_sub(y, yj);
    const lane_t vx = lane_sub(mx, mxj), vy = lane_sub(my, myj);
    const lane_t ex = lane_add(sx, vx), ey = lane_add(sy, vy);
    const lane_t rs = lane_add(r, rj);
    const lane_t avx = lane_abs(vx), avy = lane_abs(vy);
    const lane_t axj = lane_abs(xj), ayj = lane_abs(yj);
    const lane_t grow = lane_add(
        lane_add(rs, lane_mul(lane_add(lane_add(avx, avy), lane_abs(rs)),
                              lane_splat(C2D_SWEEP_SIZE_SLACK))),
        lane_add(lane_mul(lane_add(size, lane_add(axj, ayj)), lane_splat(C2D_SWEEP_POSITION_SLACK)),
                 lane_splat(1e-18f)));
    const lane_t zero = lane_splat(0.0f);
    return mask_and(mask_and(lane_le(lane_sub(lane_min(sx, ex), grow), zero),
                             lane_ge(lane_add(lane_max(sx, ex), grow), zero)),
                    mask_and(lane_le(lane_sub(lane_min(sy, ey), grow), zero),
                             lane_ge(lane_add(lane_max(sy, ey), grow), zero)));
}

#endif
