/* Balls against balls, all pairs (kernels collide_circles and sweep_circles): the SIMD kernels,
 * written once. Meson compiles this file once per backend, with the flags and macros of
 * kernels.c (C2D_LANES, C2D_BACKEND_TABLE). The ball grid's kernels have rooms of their own:
 * its binning (kernels_ball_bins.c), its pairs and their contacts (kernels_ball_pairs.c), its
 * sweeps (kernels_ball_sweeps.c).
 *
 * The plan is kernels.c's: a vector test over W partners at a time decides which pairs are
 * worth asking, then the scalar reference function builds the answer for those, partners in
 * increasing index order. For contacts the vector test is the scalar layer's own overlap
 * formula (src/core/segment_formula.h) on a zero-length capsule, so it accepts exactly the
 * pairs the scalar layer accepts; for sweeps it is a conservative box around the relative
 * path (cull.h explains the slack). */
#include <math.h>

#include "batch/lane_simd.h"
#include "core/contact_formula.h"
#include "core/segment_formula.h"

#include "batch/cull.h"
#include "batch/ball_cull.h"
#include "batch/kernels_balls.h"
#include "core/filter_words.h"

enum { W = C2D_LANES };

/* W floats from p, or the n < W left at the end of an array padded with `pad`. */
static inline lane_t load_part(const float *p, size_t n, float pad) {
    if (n >= W) return lane_load(p);
    float buf[W];
    for (size_t j = 0; j < W; j++)
        buf[j] = j < n ? p[j] : pad;
    return lane_load(buf);
}

/* ---- c2d_batch_collide_circles ---------------------------------------------------------- */

/* The lanes of W balls from b (the first `lanes` of them are real) that overlap ball a: the
 * shared overlap formula with b as a zero-length capsule (its closest point is its centre, so
 * the offset is just a - b). NaN padding never overlaps. */
static inline mask_t overlap_lanes(const c2d_circle_soa *c, lane_t xa, lane_t ya, lane_t ra,
                                   size_t b, size_t lanes) {
    const lane_t qx = lane_sub(xa, load_part(c->x + b, lanes, NAN));
    const lane_t qy = lane_sub(ya, load_part(c->y + b, lanes, NAN));
    const lane_t d2 = lane_add(lane_mul(qx, qx), lane_mul(qy, qy));
    return radii_overlap(d2, ra, load_part(c->radius + b, lanes, NAN));
}

/* The exact contacts of ball a with the lanes `bits` of the balls from b, in lane order. */
static size_t refine_row(const c2d_circle_soa *c, size_t a, size_t b, uint32_t bits,
                         c2d_circle_pair_contact *out, size_t capacity, size_t total) {
    for (; bits; bits &= bits - 1) {
        const size_t j = b + (size_t)__builtin_ctz(bits);
        c2d_contact contact;
        if (c2d_ball_contact(c, a, j, &contact))
            c2d_emit_ball_pair(out, capacity, &total, (uint32_t)a, (uint32_t)j, &contact);
    }
    return total;
}

/* Filters (collide2d/filter.h): the lanes `bits` of the balls from b that ball a meets. Only
 * sets with a filter come here, and only with lanes that passed the geometric test. */
static inline uint32_t meeting_lanes(const c2d_circle_soa *c, size_t a, size_t b, uint32_t bits) {
    for (uint32_t m = bits; m; m &= m - 1)
        if (!c2d_circles_meet(c, a, b + (size_t)__builtin_ctz(m))) bits &= ~(m & (0u - m));
    return bits;
}

/* refine_row, on the lanes the filter allows when `filtered` (a constant in every caller). */
C2D_FORMULA size_t refine(const c2d_circle_soa *c, size_t a, size_t b, uint32_t bits,
                          c2d_circle_pair_contact *out, size_t capacity, size_t total,
                          bool filtered) {
    if (filtered) bits = meeting_lanes(c, a, b, bits);
    return refine_row(c, a, b, bits, out, capacity, total);
}

/* Ball a against balls b in [a+1, n), two vectors a step with one branch for both (hits are
 * rare), then the rest a vector at a time. `filtered` (a constant in each caller): the set has
 * a filter, and the pairs it refuses are left out after the overlap test. */
C2D_FORMULA size_t collide_row(const c2d_circle_soa *c, size_t a, c2d_circle_pair_contact *out,
                               size_t capacity, size_t total, bool filtered) {
    const float ra_s = c->radius[a];
    if (!(ra_s >= 0.0f)) /* NaN or negative: ball a overlaps nothing */
        return total;
    const lane_t xa = lane_splat(c->x[a]), ya = lane_splat(c->y[a]), ra = lane_splat(ra_s);
    const size_t n = c->count;
    size_t b = a + 1;
    for (; b + 2 * W <= n; b += 2 * W) {
        const mask_t hit0 = overlap_lanes(c, xa, ya, ra, b, W);
        const mask_t hit1 = overlap_lanes(c, xa, ya, ra, b + W, W);
        if (!mask_any(mask_or(hit0, hit1))) continue;
        total = refine(c, a, b, mask_bits(hit0), out, capacity, total, filtered);
        total = refine(c, a, b + W, mask_bits(hit1), out, capacity, total, filtered);
    }
    for (; b < n; b += W) {
        const mask_t hit = overlap_lanes(c, xa, ya, ra, b, n - b);
        if (mask_any(hit))
            total = refine(c, a, b, mask_bits(hit) & c2d_valid_lanes(n - b), out, capacity, total,
                           filtered);
    }
    return total;
}

C2D_COLD size_t collide_rows_filtered(const c2d_circle_soa *circles, size_t first, size_t end,
                                      c2d_circle_pair_contact *out, size_t capacity, size_t total) {
    for (size_t a = first; a < end; a++)
        total = collide_row(circles, a, out, capacity, total, true);
    return total;
}

size_t C2D_BALL_KERNEL(C2D_BACKEND_TABLE, collide_circles)(const c2d_circle_soa *circles,
                                                           size_t first, size_t end,
                                                           c2d_circle_pair_contact *out,
                                                           size_t capacity, size_t total) {
    if (c2d_circle_soa_filtered(circles))
        return collide_rows_filtered(circles, first, end, out, capacity, total);
    for (size_t a = first; a < end; a++)
        total = collide_row(circles, a, out, capacity, total, false);
    return total;
}

/* ---- c2d_batch_sweep_circles ------------------------------------------------------------ */

/* Ball i's values as vectors, for the relative-path test. */
typedef struct sweeper {
    lane_t x, y, r, mx, my, size; /* size: |x| + |y| of ball i */
    bool wild;                    /* not tame: every partner gets the exact sweep */
} sweeper;

/* Which of the W balls from j could touch ball i during the frame: the relative-path test of
 * batch/ball_cull.h; lanes with a value beyond C2D_TAME_LIMIT (infinities included) are always
 * candidates. */
static inline uint32_t sweep_candidates(const sweeper *s, const c2d_circle_soa *c,
                                        const float *move_x, const float *move_y, size_t j,
                                        size_t lanes) {
    const lane_t xj = load_part(c->x + j, lanes, NAN), yj = load_part(c->y + j, lanes, NAN);
    const lane_t rj = load_part(c->radius + j, lanes, NAN);
    const lane_t mxj = load_part(move_x + j, lanes, NAN), myj = load_part(move_y + j, lanes, NAN);
    const uint32_t valid = c2d_valid_lanes(lanes);
    if (s->wild) return valid;
    const mask_t near =
        ball_path_near(s->x, s->y, s->r, s->mx, s->my, s->size, xj, yj, rj, mxj, myj);
    const lane_t axj = lane_abs(xj), ayj = lane_abs(yj);
    const lane_t limit = lane_splat(C2D_TAME_LIMIT);
    const mask_t wild = mask_or(
        mask_or(lane_not_le(axj, limit), lane_not_le(ayj, limit)),
        mask_or(mask_or(lane_not_le(lane_abs(mxj), limit), lane_not_le(lane_abs(myj), limit)),
                lane_not_le(lane_abs(rj), limit)));
    return mask_bits(mask_or(near, wild)) & valid;
}

/* Ball i against balls [from, to), in increasing index order; with `filtered`, only the
 * balls the filter lets ball i meet. */
C2D_FORMULA void sweep_range_of(const sweeper *s, const c2d_circle_soa *c, const float *move_x,
                                const float *move_y, size_t i, size_t from, size_t to,
                                c2d_circle_hit *slot, bool filtered) {
    for (size_t j = from; j < to; j += W) {
        uint32_t bits = sweep_candidates(s, c, move_x, move_y, j, to - j);
        if (filtered) bits = meeting_lanes(c, i, j, bits);
        for (; bits; bits &= bits - 1) {
            const size_t k = j + (size_t)__builtin_ctz(bits);
            c2d_toi toi;
            if (c2d_ball_sweep(c, move_x, move_y, i, k, &toi))
                c2d_keep_earliest_ball(slot, (uint32_t)k, &toi);
        }
    }
}

static void sweep_range(const sweeper *s, const c2d_circle_soa *c, const float *move_x,
                        const float *move_y, size_t i, size_t from, size_t to,
                        c2d_circle_hit *slot) {
    sweep_range_of(s, c, move_x, move_y, i, from, to, slot, false);
}

static void sweep_range_filtered(const sweeper *s, const c2d_circle_soa *c, const float *move_x,
                                 const float *move_y, size_t i, size_t from, size_t to,
                                 c2d_circle_hit *slot) {
    sweep_range_of(s, c, move_x, move_y, i, from, to, slot, true);
}

static bool tame(float v) {
    return fabsf(v) <= C2D_TAME_LIMIT;
}

/* The rows [first, end) of the sweep kernel; `filtered` as in collide_row. */
C2D_FORMULA void sweep_rows(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                            size_t first, size_t end, c2d_circle_hit *out, bool filtered) {
    for (size_t i = first; i < end; i++) {
        out[i] = c2d_no_ball_hit();
        const float x = c->x[i], y = c->y[i], r = c->radius[i], mx = move_x[i], my = move_y[i];
        if (x != x || y != y || mx != mx || my != my || !(r >= 0.0f)) /* never hits */
            continue;
        sweeper s = {lane_splat(x),
                     lane_splat(y),
                     lane_splat(r),
                     lane_splat(mx),
                     lane_splat(my),
                     lane_splat(fabsf(x) + fabsf(y)),
                     !(tame(x) && tame(y) && tame(r) && tame(mx) && tame(my))};
        if (filtered) {
            sweep_range_filtered(&s, c, move_x, move_y, i, 0, i, &out[i]);
            sweep_range_filtered(&s, c, move_x, move_y, i, i + 1, c->count, &out[i]);
        } else {
            sweep_range(&s, c, move_x, move_y, i, 0, i, &out[i]);
            sweep_range(&s, c, move_x, move_y, i, i + 1, c->count, &out[i]);
        }
    }
}

C2D_COLD void sweep_rows_filtered(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                                  size_t first, size_t end, c2d_circle_hit *out) {
    sweep_rows(c, move_x, move_y, first, end, out, true);
}

void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, sweep_circles)(const c2d_circle_soa *c, const float *move_x,
                                                       const float *move_y, size_t first,
                                                       size_t end, c2d_circle_hit *out) {
    if (c2d_circle_soa_filtered(c))
        sweep_rows_filtered(c, move_x, move_y, first, end, out);
    else
        sweep_rows(c, move_x, move_y, first, end, out, false);
}
