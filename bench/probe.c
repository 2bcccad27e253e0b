/* The W1 "probe" of docs/design.md section 8: every (ball, pin) pair of a frame through a
 * boolean-only overlap test at one backend's width, no culling. The batch kernels must beat it
 * by 1.25x (their box test first); bench/collide.c times it beside W1_collide. Compiled once per
 * width with the library kernels' flags and C2D_LANES (bench/meson.build), over the kernels' own
 * lane types (src/batch/lane_simd.h), and linked into the benchmark only.
 *
 * The test has no division: with d = b - a, p = c - a and s = r + R, the ball meets the pin when
 *   p.d <= 0          and |p|^2 <= s^2       (nearest to end a),
 *   p.d >= d.d        and |c - b|^2 <= s^2   (nearest to end b),
 *   0 < p.d < d.d     and (p x d)^2 <= s^2 (d.d) (nearest to the inside of the axis).
 * Its rounding differs from the library's projection, so a pair within a few ulps of touching
 * may count differently; the benchmark checks the count against c2d_batch_collide's. */
#include <stddef.h>
#include <stdint.h>

#include "batch/lane_simd.h"
#include "probe.h"

#define W C2D_LANES

/* The same test on one pair, for the circles past the last whole vector. */
static int pair_overlaps(float x, float y, float r, float ax, float ay, float dx, float dy,
                         float dd, float bx, float by, float R) {
    const float px = x - ax, py = y - ay, s = r + R;
    const float dot = px * dx + py * dy, s2 = s * s;
    if (dot <= 0.0f) return px * px + py * py <= s2;
    if (dot >= dd) {
        const float qx = x - bx, qy = y - by;
        return qx * qx + qy * qy <= s2;
    }
    const float cross = px * dy - py * dx;
    return dot > 0.0f && dd > dot && cross * cross <= s2 * dd; /* (false for NaN) */
}

size_t PROBE_FUNCTION(const c2d_circle_soa *c, const c2d_capsule_soa *k) {
    size_t count = 0;
    const size_t whole = c->count / W * W;
    const lane_t zero = lane_splat(0.0f), one = lane_splat(1.0f);
    /* each lane counts its overlaps in float, exact below 2^24 a lane (W1: 2^18 pairs a lane),
     * so no popcount instruction is needed on any width */
    lane_t lanes = zero;
    for (size_t j = 0; j < k->count; j++) {
        const float ax = k->ax[j], ay = k->ay[j], bx = k->bx[j], by = k->by[j], R = k->radius[j];
        const float dx = bx - ax, dy = by - ay, dd = dx * dx + dy * dy;
        const lane_t vax = lane_splat(ax), vay = lane_splat(ay), vbx = lane_splat(bx);
        const lane_t vby = lane_splat(by), vdx = lane_splat(dx), vdy = lane_splat(dy);
        const lane_t vdd = lane_splat(dd), vR = lane_splat(R);
        for (size_t i = 0; i < whole; i += W) {
            const lane_t x = lane_load(c->x + i), y = lane_load(c->y + i);
            const lane_t px = lane_sub(x, vax), py = lane_sub(y, vay);
            const lane_t s = lane_add(lane_load(c->radius + i), vR), s2 = lane_mul(s, s);
            const lane_t dot = lane_add(lane_mul(px, vdx), lane_mul(py, vdy));
            const lane_t qx = lane_sub(x, vbx), qy = lane_sub(y, vby);
            const lane_t cross = lane_sub(lane_mul(px, vdy), lane_mul(py, vdx));
            const mask_t near_a = mask_and(
                lane_le(dot, zero), lane_le(lane_add(lane_mul(px, px), lane_mul(py, py)), s2));
            const mask_t near_b = mask_and(
                lane_ge(dot, vdd), lane_le(lane_add(lane_mul(qx, qx), lane_mul(qy, qy)), s2));
            const mask_t near_axis = mask_and(mask_and(lane_gt(dot, zero), lane_gt(vdd, dot)),
                                              lane_le(lane_mul(cross, cross), lane_mul(s2, vdd)));
            const mask_t hit = mask_or(mask_or(near_a, near_b), near_axis);
            lanes = lane_add(lanes, lane_select(hit, one, zero));
        }
        for (size_t i = whole; i < c->count; i++)
            count += (size_t)pair_overlaps(c->x[i], c->y[i], c->radius[i], ax, ay, dx, dy, dd, bx,
                                           by, R);
    }
    float per_lane[W];
    lane_store(per_lane, lanes);
    for (size_t j = 0; j < W; j++)
        count += (size_t)per_lane[j];
    return count;
}
