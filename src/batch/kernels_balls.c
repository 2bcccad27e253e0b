/* Balls against balls, all pairs: the SIMD kernels, written once. Meson compiles this file
 * once per backend, with the flags and macros of kernels.c (C2D_LANES, C2D_BACKEND_TABLE).
 *
 * The plan is kernels.c's: a vector test over W partners at a time decides which pairs are
 * worth asking, then the scalar reference function builds the answer for those, partners in
 * increasing index order. For contacts the vector test is the scalar layer's own overlap
 * formula (src/core/segment_formula.h) on a zero-length capsule, so it accepts exactly the
 * pairs the scalar layer accepts; for sweeps it is a conservative box around the relative
 * path (cull.h explains the slack). */
#include <math.h>

#include "batch/lane_simd.h"
#include "core/segment_formula.h"

#include "batch/cull.h"
#include "batch/ball_cull.h"
#include "batch/kernels_balls.h"
#include "batch/lane_contact.h"
#include "batch/dlane_simd.h"
#include "batch/ball_coord_lanes.h"
#if C2D_LANES == 16
#include "batch/ball_blocks.h"
#endif
#include "core/ball_sweep_formula.h"
#include "core/ball_bin_formula.h"
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

/* The same over sorted grid entries: the lanes `bits` of the entries from q whose balls ball
 * id[p] meets. */
static inline uint32_t meeting_entries(const c2d_circle_soa *c, const uint32_t *id, size_t p,
                                       size_t q, uint32_t bits) {
    for (uint32_t m = bits; m; m &= m - 1)
        if (!c2d_circles_meet(c, id[p], id[q + (size_t)__builtin_ctz(m)])) bits &= ~(m & (0u - m));
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

/* ---- the ball grid: contacts of listed pairs (the pairs: kernels_ball_pairs.c) ------------ */

/* (The AVX-512 table takes the AVX2 contacts, kernels.c says why: no 16-lane copy.) */
#if C2D_LANES <= 8

/* Appends the lanes `bits` of the contacts k of the pairs (a, b) (index lanes), in lane order:
 * each hit is the 28 bytes of its c2d_circle_pair_contact, copied from the transposed records
 * (lane_contact.h) as two overlapping 16-byte pieces. */
C2D_FORMULA size_t sink_ball_lanes(c2d_circle_pair_contact *out, size_t capacity, size_t total,
                                   uint32_t bits, const contact_lanes *k, lane_t a, lane_t b) {
    contact_records rec;
    contact_records_from(&rec, k, a, b);
    if (total <= capacity && capacity - total >= W) { /* room for every lane: no test a hit */
        if (bits == c2d_valid_lanes(W)) { /* every lane (a pile): no loop over the bits */
            for (unsigned j = 0; j < W; j++) {
                unsigned char *o = (unsigned char *)(out + total + j);
                memcpy(o, &rec.head[j & 3][j & ~3u], 16);
                memcpy(o + 12, &rec.tail[j & 3][j & ~3u], 16);
            }
            return total + W;
        }
        for (; bits; bits &= bits - 1, total++) {
            const unsigned j = (unsigned)__builtin_ctz(bits);
            unsigned char *o = (unsigned char *)(out + total);
            memcpy(o, &rec.head[j & 3][j & ~3u], 16);
            memcpy(o + 12, &rec.tail[j & 3][j & ~3u], 16);
        }
        return total;
    }
    for (; bits; bits &= bits - 1, total++) {
        const unsigned j = (unsigned)__builtin_ctz(bits);
        if (total >= capacity) continue; /* counted, not written */
        unsigned char *o = (unsigned char *)(out + total);
        memcpy(o, &rec.head[j & 3][j & ~3u], 16);
        memcpy(o + 12, &rec.tail[j & 3][j & ~3u], 16);
    }
    return total;
}

/* The contacts of W listed pairs from `pairs` (a partial vector's unused lanes repeat its first
 * pair and are masked off by `valid`): both balls gathered, the contact formula of the scalar
 * layer with b as a zero-length capsule (c2d_ball_contact) in every lane, through
 * point_contact_lanes (the same bytes without the projection's division), the hit lanes
 * appended. */
C2D_FORMULA size_t pair_contact_lanes(const c2d_circle_soa *c, const c2d_ball_pair *pairs,
                                      uint32_t valid, c2d_circle_pair_contact *out, size_t capacity,
                                      size_t total) {
    uint32_t ia[W], ib[W];
    float xa[W], ya[W], ra[W], xb[W], yb[W], rb[W];
    for (size_t j = 0; j < W; j++) {
        const c2d_ball_pair pr = pairs[(valid >> j) & 1u ? j : 0];
        ia[j] = pr.a;
        ib[j] = pr.b;
        xa[j] = c->x[pr.a];
        ya[j] = c->y[pr.a];
        ra[j] = c->radius[pr.a];
        xb[j] = c->x[pr.b];
        yb[j] = c->y[pr.b];
        rb[j] = c->radius[pr.b];
    }
    contact_lanes con;
    const mask_t hit = point_contact_lanes(lane_load(xa), lane_load(ya), lane_load(ra),
                                           lane_load(xb), lane_load(yb), lane_load(rb), &con);
    const uint32_t bits = mask_bits(hit) & valid;
    if (bits)
        total =
            sink_ball_lanes(out, capacity, total, bits, &con, lane_load_u32(ia), lane_load_u32(ib));
    return total;
}

/* W listed pairs at a time (pair_contact_lanes), whole vectors with every lane valid (a
 * constant the loads inline with), then the partial one. (Software-pipelined by one vector,
 * as collide_pairs_run is, it measured no faster: 1.00x on the W6 pile.) */
size_t C2D_BALL_KERNEL(C2D_BACKEND_TABLE,
                       ball_pair_contacts)(const c2d_circle_soa *c, const c2d_ball_pair *pairs,
                                           size_t count, c2d_circle_pair_contact *out,
                                           size_t capacity, size_t total) {
    size_t k = 0;
    for (; k + W <= count; k += W)
        total = pair_contact_lanes(c, pairs + k, c2d_valid_lanes(W), out, capacity, total);
    if (k < count)
        total = pair_contact_lanes(c, pairs + k, c2d_valid_lanes(count - k), out, capacity, total);
    return total;
}

#endif /* C2D_LANES <= 8 */

/* ---- the ball grid's binning for contacts ------------------------------------------------ */

/* Lanes to and from scalars: the W uint32_t bits of a vector, and the W floats. */
static inline void store_u32(uint32_t *p, lane_t v) {
    float buf[W];
    lane_store(buf, v);
    memcpy(p, buf, sizeof buf);
}

/* The box of c2d_ball_box_add from per-lane bounds and largest values (a lane with lo_x > hi_x
 * saw no grid ball): min and max are exact, so any order gives the same values (up to the sign
 * of a zero, which no cell depends on). */
static inline void box_from_lanes(lane_t lo_x, lane_t hi_x, lane_t lo_y, lane_t hi_y, lane_t top,
                                  float box[5]) {
    float v[5][W];
    lane_store(v[0], lo_x);
    lane_store(v[1], hi_x);
    lane_store(v[2], lo_y);
    lane_store(v[3], hi_y);
    lane_store(v[4], top);
    box[0] = box[2] = INFINITY;
    box[1] = box[3] = -INFINITY;
    box[4] = 0.0f;
    for (size_t j = 0; j < W; j++)
        if (v[0][j] <= v[1][j]) {
            c2d_ball_box_add(box, v[0][j], v[2][j], v[4][j]);
            c2d_ball_box_add(box, v[1][j], v[3][j], v[4][j]);
        }
}

/* c2d_ball_kind and c2d_ball_box_add, W balls a step: the kinds as selects of the three bit
 * patterns, the box as per-lane minima and maxima over the grid lanes (exact, so reduced in any
 * order at the end), the last balls one at a time. */
void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_classify)(const c2d_circle_soa *c, uint32_t *cell_of,
                                                       float box[5]) {
    const size_t n = c->count;
    const lane_t inf = lane_splat(INFINITY), ninf = lane_splat(-INFINITY), zero = lane_splat(0.0f);
    const lane_t limit = lane_splat(C2D_TAME_LIMIT);
    const lane_t grid_kind = lane_splat_u32(C2D_BALL_GRID);
    const lane_t special_kind = lane_splat_u32(C2D_BALL_SPECIAL);
    const lane_t dead_kind = lane_splat_u32(C2D_BALL_DEAD);
    lane_t lo_x = inf, hi_x = ninf, lo_y = inf, hi_y = ninf, r_max = zero;
    size_t i = 0;
    for (; i + W <= n; i += W) {
        const lane_t x = lane_load(c->x + i), y = lane_load(c->y + i), r = lane_load(c->radius + i);
        const mask_t live = mask_and(mask_and(lane_le(x, x), lane_le(y, y)), lane_ge(r, zero));
        const mask_t tame =
            mask_and(mask_and(lane_le(lane_abs(x), limit), lane_le(lane_abs(y), limit)),
                     lane_le(lane_abs(r), limit));
        const mask_t grid = mask_and(live, tame);
        store_u32(cell_of + i,
                  lane_select(live, lane_select(tame, grid_kind, special_kind), dead_kind));
        lo_x = lane_select(grid, lane_min(x, lo_x), lo_x);
        hi_x = lane_select(grid, lane_max(x, hi_x), hi_x);
        lo_y = lane_select(grid, lane_min(y, lo_y), lo_y);
        hi_y = lane_select(grid, lane_max(y, hi_y), hi_y);
        r_max = lane_select(grid, lane_max(r, r_max), r_max);
    }
    box_from_lanes(lo_x, hi_x, lo_y, hi_y, r_max, box);
    for (; i < n; i++) {
        cell_of[i] = c2d_ball_kind(c->x[i], c->y[i], c->radius[i]);
        if (cell_of[i] == C2D_BALL_GRID) c2d_ball_box_add(box, c->x[i], c->y[i], c->radius[i]);
    }
}

#if C2D_LANES == 16
#define dlane_store simde_mm512_storeu_pd
#elif C2D_LANES == 8
#define dlane_store simde_mm256_storeu_pd
#else
#define dlane_store simde_mm_storeu_pd
#endif

/* The clamped cell coordinates of c2d_ball_grid_coord for W values, in double lanes (the same
 * operations: the float converts exactly, then - and *, then x86 max and min), as doubles. */
static inline void grid_coords(lane_t v, double origin, double inv, uint32_t n, double out[W]) {
    const dlane_t o = dlane_splat(origin), s = dlane_splat(inv), top = dlane_splat((double)(n - 1));
    for (int h = 0; h < DLANE_HALVES; h++)
        dlane_store(out + h * (W / 2), ball_grid_coord_dlanes(dlane_from_lane(v, h), o, s, top));
}

/* c2d_ball_bin_one for the grid balls, W balls a step: the size test and the coordinates in
 * lanes, the cell number (the same casts of the same doubles) and the count a ball at a time. */
void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_bin)(const c2d_circle_soa *c, const c2d_ball_bins *b,
                                                  uint32_t *cell_of, uint32_t *count) {
    const size_t n = c->count;
    const lane_t big = lane_splat(b->big);
    size_t i = 0;
    for (; i + W <= n; i += W) {
        const mask_t grid = lane_eq_u32(lane_load_u32(cell_of + i), lane_splat_u32(C2D_BALL_GRID));
        if (!mask_any(grid)) continue;
        const uint32_t bits = mask_bits(grid);
        const uint32_t large = mask_bits(lane_ge(lane_load(c->radius + i), big));
        double cx[W], cy[W];
        grid_coords(lane_load(c->x + i), b->x0, b->inv, b->nx, cx);
        grid_coords(lane_load(c->y + i), b->y0, b->inv, b->ny, cy);
        for (size_t j = 0; j < W; j++) {
            if (!((bits >> j) & 1u)) continue;
            if ((large >> j) & 1u) {
                cell_of[i + j] = C2D_BALL_SPECIAL;
                continue;
            }
            const uint32_t cell = (uint32_t)cy[j] * b->nx + (uint32_t)cx[j];
            cell_of[i + j] = cell;
            count[cell + 2]++;
        }
    }
    for (; i < n; i++) {
        if (cell_of[i] != C2D_BALL_GRID) continue;
        cell_of[i] = c2d_ball_bin_one(b, c->x[i], c->y[i], c->radius[i]);
        if (cell_of[i] != C2D_BALL_SPECIAL) count[cell_of[i] + 2]++;
    }
}

/* ---- the ball grid's binning for sweeps -------------------------------------------------- */

/* The accumulated bounds of the grid balls' centres of move, per lane. */
typedef struct sweep_box_lanes {
    lane_t lo_x, hi_x, lo_y, hi_y, size;
} sweep_box_lanes;

/* W balls' c2d_ball_sweep_kind (core/ball_bin_formula.h) into kind (as bits), their centres of
 * move and swept sizes into the bounds and largest size of the grid lanes. */
static inline void sweep_classify_lanes(lane_t x, lane_t y, lane_t r, lane_t mx, lane_t my,
                                        lane_t *kind, sweep_box_lanes *b) {
    const mask_t live = ball_sweep_live_of(x, y, r, mx, my);
    const mask_t tame = ball_sweep_tame_of(x, y, r, mx, my);
    const mask_t grid = mask_and(live, tame);
    const lane_t size = ball_swept_size_of(x, y, r, mx, my);
    *kind = lane_select(
        grid, size,
        lane_select(live, lane_splat_u32(C2D_BALL_SPECIAL), lane_splat_u32(C2D_BALL_DEAD)));
    const lane_t cx = ball_sweep_centre_of(x, mx), cy = ball_sweep_centre_of(y, my);
    b->lo_x = lane_select(grid, lane_min(cx, b->lo_x), b->lo_x);
    b->hi_x = lane_select(grid, lane_max(cx, b->hi_x), b->hi_x);
    b->lo_y = lane_select(grid, lane_min(cy, b->lo_y), b->lo_y);
    b->hi_y = lane_select(grid, lane_max(cy, b->hi_y), b->hi_y);
    b->size = lane_select(grid, lane_max(size, b->size), b->size);
}

/* W balls a step; the last few copied into full vectors padded with dead balls (NaN), and
 * only their own kinds written back. The box reduced over the lanes at the end (min and max
 * are exact: any order gives the same values up to the sign of a zero). */
void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_sweep_classify)(const c2d_circle_soa *c,
                                                             const float *mx, const float *my,
                                                             uint32_t *cell_of, float box[5]) {
    const size_t n = c->count;
    const lane_t inf = lane_splat(INFINITY), ninf = lane_splat(-INFINITY);
    sweep_box_lanes b = {inf, ninf, inf, ninf, lane_splat(0.0f)};
    lane_t kind;
    size_t i = 0;
    for (; i + W <= n; i += W) {
        sweep_classify_lanes(lane_load(c->x + i), lane_load(c->y + i), lane_load(c->radius + i),
                             lane_load(mx + i), lane_load(my + i), &kind, &b);
        store_u32(cell_of + i, kind);
    }
    if (i < n) {
        float t[5][W];
        for (size_t j = 0; j < W; j++) {
            const bool in = i + j < n;
            t[0][j] = in ? c->x[i + j] : NAN;
            t[1][j] = in ? c->y[i + j] : NAN;
            t[2][j] = in ? c->radius[i + j] : NAN;
            t[3][j] = in ? mx[i + j] : NAN;
            t[4][j] = in ? my[i + j] : NAN;
        }
        sweep_classify_lanes(lane_load(t[0]), lane_load(t[1]), lane_load(t[2]), lane_load(t[3]),
                             lane_load(t[4]), &kind, &b);
        uint32_t k[W];
        store_u32(k, kind);
        memcpy(cell_of + i, k, (n - i) * sizeof(uint32_t));
    }
    box_from_lanes(b.lo_x, b.hi_x, b.lo_y, b.hi_y, b.size, box);
}

/* The clamped cell coordinates of the centres of move p + m/2 in double lanes (the float
 * values convert exactly; then the operations of c2d_ball_sweep_bin_one), as doubles. */
static inline void centre_coords(lane_t p, lane_t m, double origin, double inv, uint32_t n,
                                 double out[W]) {
    const dlane_t o = dlane_splat(origin), s = dlane_splat(inv), top = dlane_splat((double)(n - 1));
    const dlane_t half = dlane_splat(0.5);
    for (int h = 0; h < DLANE_HALVES; h++) {
        const dlane_t v = dlane_add(dlane_from_lane(p, h), dlane_mul(half, dlane_from_lane(m, h)));
        dlane_store(out + h * (W / 2), ball_grid_coord_dlanes(v, o, s, top));
    }
}

/* W balls' c2d_ball_sweep_bin_one for the grid lanes (`grid` bits): the size test and the
 * coordinates in lanes, the cell number (the same casts of the same doubles) and the count a
 * ball at a time; the cell numbers written to cell[] (the other lanes left alone). */
static inline void sweep_bin_lanes(lane_t x, lane_t y, lane_t mx, lane_t my, lane_t size,
                                   const c2d_ball_bins *b, uint32_t *cell, uint32_t *count,
                                   size_t lanes) {
    /* a size is a positive finite float, the kinds NaN patterns */
    const uint32_t bits = mask_bits(lane_le(size, size));
    if (!bits) return;
    const uint32_t large = mask_bits(lane_ge(size, lane_splat(b->big)));
    double cx[W], cy[W];
    centre_coords(x, mx, b->x0, b->inv, b->nx, cx);
    centre_coords(y, my, b->y0, b->inv, b->ny, cy);
    for (size_t j = 0; j < lanes; j++) {
        if (!((bits >> j) & 1u)) continue;
        if ((large >> j) & 1u) {
            cell[j] = C2D_BALL_SPECIAL;
            continue;
        }
        const uint32_t k = (uint32_t)cy[j] * b->nx + (uint32_t)cx[j];
        cell[j] = k;
        count[k + 2]++;
    }
}

void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_sweep_bin)(const c2d_circle_soa *c, const float *mx,
                                                        const float *my, const c2d_ball_bins *b,
                                                        uint32_t *cell_of, uint32_t *count) {
    const size_t n = c->count;
    size_t i = 0;
    for (; i + W <= n; i += W)
        sweep_bin_lanes(lane_load(c->x + i), lane_load(c->y + i), lane_load(mx + i),
                        lane_load(my + i), lane_load_u32(cell_of + i), b, cell_of + i, count, W);
    if (i < n) {
        float t[4][W];
        uint32_t k[W];
        for (size_t j = 0; j < W; j++) {
            const bool in = i + j < n;
            t[0][j] = in ? c->x[i + j] : 0.0f;
            t[1][j] = in ? c->y[i + j] : 0.0f;
            t[2][j] = in ? mx[i + j] : 0.0f;
            t[3][j] = in ? my[i + j] : 0.0f;
            k[j] = in ? cell_of[i + j] : C2D_BALL_DEAD;
        }
        sweep_bin_lanes(lane_load(t[0]), lane_load(t[1]), lane_load(t[2]), lane_load(t[3]),
                        lane_load_u32(k), b, cell_of + i, count, n - i);
    }
}

/* The sweeps' lane queue: directed pairs (a sweeps against b), as sorted positions, swept W
 * at a time by the lane twin of c2d_sweep_circles (core/ball_sweep_formula.h). A hit is kept
 * in out[a] if earlier than what it holds (ties to the lower index), so pairs may be swept in
 * any order.
 *
 * A pair surely in contact and moving deeper is a hit at t = 0 both ways, and of all such
 * partners of a ball only the lowest index can be its answer. The walk keeps that index per
 * sorted position in sure[] (a running minimum, no formula); at the end the formula runs once
 * for each ball holding one (the lanes of W consecutive positions at a time), and the hit is
 * kept if it beats what the queue left in out[]. In a pile: once a ball, not once a pair. */
typedef struct sweep_queue {
    c2d_sweep_walk w;
    size_t n;
    uint32_t a[W], b[W];
} sweep_queue;

/* The hits of the lanes `bits` of ball_sweep_lanes' answer `k`, as c2d_toi values. */
typedef struct toi_rows {
    float f[5][W]; /* t, nx, ny, px, py */
} toi_rows;

static inline void toi_rows_of(toi_rows *r, const toi_lanes *k) {
    lane_store(r->f[0], k->t);
    lane_store(r->f[1], k->nx);
    lane_store(r->f[2], k->ny);
    lane_store(r->f[3], k->px);
    lane_store(r->f[4], k->py);
}

static inline c2d_toi toi_row(const toi_rows *r, size_t j) {
    const c2d_toi toi = {r->f[0][j], {r->f[1][j], r->f[2][j]}, {r->f[3][j], r->f[4][j]}};
    return toi;
}

/* Sweeps the queued pairs. */
static void sweep_flush(sweep_queue *q) {
    if (q->n == 0) return;
    const c2d_ball_sweep_cells *g = q->w.g;
    float v[10][W];
    for (size_t j = 0; j < W; j++) {
        const size_t a = q->a[j < q->n ? j : 0], b = q->b[j < q->n ? j : 0];
        v[0][j] = g->x[a];
        v[1][j] = g->y[a];
        v[2][j] = g->r[a];
        v[3][j] = g->mx[a];
        v[4][j] = g->my[a];
        v[5][j] = g->x[b];
        v[6][j] = g->y[b];
        v[7][j] = g->r[b];
        v[8][j] = g->mx[b];
        v[9][j] = g->my[b];
    }
    toi_lanes k;
    const mask_t hit = ball_sweep_lanes(
        lane_load(v[0]), lane_load(v[1]), lane_load(v[2]), lane_load(v[3]), lane_load(v[4]),
        lane_load(v[5]), lane_load(v[6]), lane_load(v[7]), lane_load(v[8]), lane_load(v[9]), &k);
    const uint32_t bits = mask_bits(hit) & c2d_valid_lanes(q->n);
    const size_t n = q->n;
    q->n = 0;
    if (!bits) return;
    toi_rows f;
    toi_rows_of(&f, &k);
    for (size_t j = 0; j < n; j++) {
        const uint32_t ia = g->id[q->a[j]], ib = g->id[q->b[j]];
        c2d_circle_hit *slot = &q->w.out[ia];
        if ((bits >> j) & 1u && c2d_ball_slot_takes(slot, g->state, ia, ib, f.f[0][j])) {
            slot->other = ib;
            slot->toi = toi_row(&f, j);
            c2d_ball_slot_mark(g->state, ia);
        }
    }
}

/* Queues ball a against ball b (positions), unless b cannot beat what a holds: a sure hit at
 * t = 0 from a lower index, or a hit at t = 0 already swept. */
static inline void sweep_push(sweep_queue *q, uint32_t a, uint32_t b) {
    const c2d_ball_sweep_cells *g = q->w.g;
    const uint32_t ia = g->id[a], ib = g->id[b];
    if (g->sure[a] < ib ||
        (c2d_ball_slot_written(g->state, ia) && c2d_ball_cannot_beat(&q->w.out[ia], ib)))
        return;
    q->a[q->n] = a;
    q->b[q->n] = b;
    if (++q->n == W) sweep_flush(q);
}

/* Ball p of the walk, splat in every lane, with the limits of the pair tests. */
typedef struct sweep_ball {
    lane_t x, y, r, mx, my, size;
} sweep_ball;

/* The lanes of W partners (x, y, r, mx, my) of ball s, among `valid`, that need a look:
 * `sure` (in contact at the start and surely moving deeper: a hit at t = 0, c2d_sweep_circles
 * would say so) and `maybe` (everything else the tests cannot rule out; the exact formula
 * decides). Returns the lanes within reach, `sure` and `maybe` among them (0: none needs a
 * look). Left out:
 * - pairs with no relative move (v = 0 exactly), and pairs in contact at the start and
 *   clearly moving apart, v.s > 2^-10 |v|_1 |s|_1 in float: c2d_sweep_circles' own quick exit
 *   asks v.s > 2^-20 |v|_1 |s|_1 in double, and the float dot product is within
 *   2^-21 |v|_1 |s|_1 of the exact one (a few roundings of 2^-24 each; |v|_1 |s|_1 >= 2^-100
 *   keeps underflow out, and tame values keep overflow out). "Deeper" is the mirror test, so
 *   c2d_sweep_circles finds the start's contact and a relative move against its normal;
 * - pairs too far apart to meet: |s|^2 > (|v|_1 + g)^2 with g the growth of ball_cull.h's
 *   relative-path box (the radius sum plus the sweep slack). A hit needs |s| <= r_a + r_b +
 *   |v| + (the double error of the exact sweep, or the float slack of the overlap test at
 *   t = 0), and g holds the radius sum plus 2^-8 of (|v|_1 + r_a + r_b), 2^-16 of the
 *   positions and 1e-18, far above those errors and the float error of this test (a few
 *   roundings of 2^-24 relative, 2^-149 absolute); the squares stay finite (tame values are
 *   below 2^40) and (1e-18)^2 is a normal float. An overlapping pair is never too far: the
 *   growth adds only terms >= 0 to the radius sum, and float rounding is monotone;
 * - then pairs outside the relative-path box (ball_path_near), for the lanes still left.
 * Every test is exactly symmetric in the two balls (a - b rounds to -(b - a); the position
 * slack sums |x| + |y| of both), so a pair is left out, sure or maybe both ways. */
C2D_FORMULA uint32_t sweep_lanes_of(const sweep_ball *s, lane_t xj, lane_t yj, lane_t rj,
                                    lane_t mxj, lane_t myj, uint32_t valid, uint32_t *sure,
                                    uint32_t *maybe) {
    const lane_t sx = lane_sub(s->x, xj), sy = lane_sub(s->y, yj);
    const lane_t vx = lane_sub(s->mx, mxj), vy = lane_sub(s->my, myj);
    const lane_t v1 = lane_add(lane_abs(vx), lane_abs(vy));
    const lane_t d2 = lane_add(lane_mul(sx, sx), lane_mul(sy, sy));
    const lane_t rs = lane_add(s->r, rj);
    const lane_t grow = lane_add(
        lane_add(rs, lane_mul(lane_add(v1, lane_abs(rs)), lane_splat(C2D_SWEEP_SIZE_SLACK))),
        lane_add(lane_mul(lane_add(s->size, lane_add(lane_abs(xj), lane_abs(yj))),
                          lane_splat(C2D_SWEEP_POSITION_SLACK)),
                 lane_splat(1e-18f)));
    const lane_t reach = lane_add(v1, grow); /* >= rs: the overlapping pairs stay */
    const uint32_t close = valid & mask_bits(lane_le(d2, lane_mul(reach, reach)));
    *sure = *maybe = 0;
    if (!close) return 0;
    const lane_t l1 = lane_mul(v1, lane_add(lane_abs(sx), lane_abs(sy)));
    const lane_t dot = lane_add(lane_mul(vx, sx), lane_mul(vy, sy));
    const mask_t over = radii_overlap(d2, s->r, rj);
    const lane_t margin = lane_mul(l1, lane_splat(0x1p-10f));
    const mask_t big = lane_ge(l1, lane_splat(0x1p-100f));
    const mask_t apart = mask_and(lane_gt(dot, margin), big);
    const mask_t deeper = mask_and(lane_gt(lane_neg(dot), margin), big);
    const uint32_t over_bits = mask_bits(over);
    *sure = close & over_bits & mask_bits(deeper);
    uint32_t rest = close & ~(*sure | (over_bits & mask_bits(apart)) |
                              mask_bits(lane_le(v1, lane_splat(0.0f))));
    if (rest)
        rest &= mask_bits(
            ball_path_near(s->x, s->y, s->r, s->mx, s->my, s->size, xj, yj, rj, mxj, myj));
    *maybe = rest;
    return close;
}

/* The sure[] entries of W sorted entries from sure_of, lowered to `mine` in the lanes `bits`
 * and written back (the array is padded: a whole vector reads and writes from any entry). */
static inline void lower_sure(uint32_t *sure_of, lane_t mine, uint32_t bits) {
    const lane_t s = lane_load_u32(sure_of);
    lane_store_u32(sure_of, lane_select(mask_from_bits(bits), lane_min_u32(s, mine), s));
}

/* The lowest index among the partners in the lanes `sure` (lane j is the sorted entry
 * (j < split ? at : other) + j), and each of those partners' sure[] entry lowered to ip, in
 * vectors: the partners' indices selected and reduced, then one store of sure[] for the lanes
 * below split and one for the rest, whether or not a lane is sure (rewriting unchanged entries
 * costs less than the branch on the mask, which mispredicted in a pile). The second window is read
 * after the first is written, so the two may overlap (near the end of a row they do). */
static inline uint32_t sure_lanes(const c2d_ball_sweep_cells *g, uint32_t ip, uint32_t sure,
                                  size_t at, size_t other, unsigned split) {
    const uint32_t low = c2d_valid_lanes(split);
    lane_t ids = lane_load_u32(g->id + at);
    if (split < W) ids = lane_select(mask_from_bits(low), ids, lane_load_u32(g->id + other));
    uint32_t v[W];
    lane_store_u32(v, lane_select(mask_from_bits(sure), ids, lane_splat_u32(UINT32_MAX)));
    uint32_t best = v[0];
    for (size_t j = 1; j < W; j++)
        best = v[j] < best ? v[j] : best;
    const lane_t mine = lane_splat_u32(ip);
    lower_sure(g->sure + at, mine, sure & low);
    if (split < W) lower_sure(g->sure + other, mine, sure & ~low);
    return best;
}

/* Ball p against the lanes `sure` and `maybe` of W partners; lane j is the sorted entry
 * (j < split ? at : other) + j. Sure partners lower both balls' sure[] entries; maybe pairs
 * are queued both ways. With `filtered`, the refused pairs are dropped first (the rule is
 * symmetric). Returns the lowest index of p's sure partners (or UINT32_MAX). */
C2D_FORMULA uint32_t sweep_take(sweep_queue *qu, size_t p, uint32_t sure, uint32_t maybe, size_t at,
                                size_t other, unsigned split, bool filtered) {
    const c2d_ball_sweep_cells *g = qu->w.g;
    if (filtered) {
        const uint32_t low = c2d_valid_lanes(split);
        const uint32_t keep =
            meeting_entries(qu->w.c, g->id, p, at, (sure | maybe) & low) |
            (split < W ? meeting_entries(qu->w.c, g->id, p, other, (sure | maybe) & ~low) : 0u);
        sure &= keep;
        maybe &= keep;
    }
    const uint32_t best = sure_lanes(g, g->id[p], sure, at, other, split);
    for (; maybe; maybe &= maybe - 1) {
        const unsigned j = (unsigned)__builtin_ctz(maybe);
        const uint32_t b = (uint32_t)((j < split ? at : other) + j);
        sweep_push(qu, (uint32_t)p, b);
        sweep_push(qu, b, (uint32_t)p);
    }
    return best;
}

/* W partners from `at` (the arrays are padded: a whole vector loads from any entry). */
C2D_FORMULA void sweep_load(const c2d_ball_sweep_cells *g, size_t at, lane_t v[5]) {
    v[0] = lane_load(g->x + at);
    v[1] = lane_load(g->y + at);
    v[2] = lane_load(g->r + at);
    v[3] = lane_load(g->mx + at);
    v[4] = lane_load(g->my + at);
}

/* Ball p against the entries [lo, hi), a vector at a time. */
C2D_FORMULA uint32_t sweep_span(sweep_queue *qu, const sweep_ball *s, size_t p, size_t lo,
                                size_t hi, bool filtered) {
    uint32_t best = UINT32_MAX;
    for (size_t q = lo; q < hi; q += W) {
        lane_t v[5];
        sweep_load(qu->w.g, q, v);
        uint32_t sure, maybe;
        sweep_lanes_of(s, v[0], v[1], v[2], v[3], v[4], c2d_valid_lanes(hi - q), &sure, &maybe);
        if (sure | maybe) {
            const uint32_t b = sweep_take(qu, p, sure, maybe, q, q, W, filtered);
            best = b < best ? b : best;
        }
    }
    return best;
}

/* The lane positions 0, 1, ..., W - 1 as floats (the lanes below a count: a compare). */
static inline lane_t lane_positions(void) {
    float v[W];
    for (size_t j = 0; j < W; j++)
        v[j] = (float)j;
    return lane_load(v);
}

/* The half-neighbourhood walk of c2d_ball_half_walk, for sweeps: ball p against the entries
 * after it in its own cell and the cell east [p + 1, east), then the three cells of the next
 * row [up_lo, up_hi). When both fit in one vector they are tested as one: the first span's
 * lanes loaded from p + 1, the rest from up_lo - (east - p - 1), so the second span's entries
 * land in the lanes after the first's (up_lo is past east: no load before the arrays). In a
 * pile that is one vector test a ball instead of two. */
C2D_FORMULA void sweep_walk(sweep_queue *qu, bool filtered) {
    /* a copy of the cells: the vector stores below (may-alias types) could otherwise change
     * the struct, and its pointers would be loaded again for every ball */
    const c2d_ball_sweep_cells cells = *qu->w.g;
    const c2d_ball_sweep_cells *g = &cells;
    const uint32_t nx = g->nx, ny = g->ny;
    const lane_t iota = lane_positions();
    for (uint32_t cy = 0; cy < ny; cy++)
        for (uint32_t cx = 0; cx < nx; cx++) {
            const size_t cell = (size_t)cy * nx + cx;
            const size_t lo = g->start[cell], hi = g->start[cell + 1];
            if (lo == hi) continue;
            const size_t east = cx + 1 < nx ? g->start[cell + 2] : hi;
            size_t up_lo = 0, up_hi = 0;
            if (cy + 1 < ny) {
                const size_t row = cell + nx;
                up_lo = g->start[cx > 0 ? row - 1 : row];
                up_hi = g->start[cx + 1 < nx ? row + 2 : row + 1];
            }
            for (size_t p = lo; p < hi; p++) {
                const float xs = g->x[p], ys = g->y[p];
                const sweep_ball s = {lane_splat(xs),       lane_splat(ys),
                                      lane_splat(g->r[p]),  lane_splat(g->mx[p]),
                                      lane_splat(g->my[p]), lane_splat(fabsf(xs) + fabsf(ys))};
                const size_t first = east - p - 1, second = up_hi - up_lo;
                uint32_t best;
                if (first + second <= W) {
                    /* (with no second span, any entry loads: its lanes are masked off) */
                    const size_t other = second > 0 ? up_lo - first : p + 1;
                    lane_t a[5], b[5];
                    sweep_load(g, p + 1, a);
                    sweep_load(g, other, b);
                    const mask_t low = lane_gt(lane_splat((float)first), iota);
                    for (int k = 0; k < 5; k++)
                        a[k] = lane_select(low, a[k], b[k]);
                    uint32_t sure, maybe;
                    const uint32_t close =
                        sweep_lanes_of(&s, a[0], a[1], a[2], a[3], a[4],
                                       c2d_valid_lanes(first + second), &sure, &maybe);
                    best = close ? sweep_take(qu, p, sure, maybe, p + 1, other, (unsigned)first,
                                              filtered)
                                 : UINT32_MAX;
                } else {
                    best = sweep_span(qu, &s, p, p + 1, east, filtered);
                    const uint32_t up = sweep_span(qu, &s, p, up_lo, up_hi, filtered);
                    best = up < best ? up : best;
                }
                g->sure[p] = best < g->sure[p] ? best : g->sure[p];
            }
        }
}

/* Up to W balls (sorted positions) with their lowest sure partner (an index). */
typedef struct sure_batch {
    size_t n;
    uint32_t pos[W], other[W];
} sure_batch;

/* Each ball of the batch against its sure partner (read by index from the caller's arrays:
 * the same values): the hit at t = 0 that c2d_sweep_circles gives them, kept if it beats what
 * the queue left. `run`: the batch is W consecutive positions (their values load as vectors).
 * Unused lanes repeat the first.
 *
 * The walk's sure test is what c2d_sweep_circles would decide, so only the hit's normal and
 * point are computed (ball_start_hit_lanes), not the decision. Its float tests imply each of
 * the formula's: the overlap is the same test on the same d2 (b - b + 0 is b, up to the sign of
 * a zero, whose square is the same), so t = 0; v1 > 0 in float means a relative move in double
 * too (a float difference is 0 only for equal operands); grid balls are tame with radii >= 0;
 * and -v.s > 2^-10 |v|_1 |s|_1 in float leaves the double v.s below -2^-11 |v|_1 |s|_1, so the
 * formula's "apart" (v.s > 2^-20 ...) fails and its "deeper" (v.n < 0, n the start normal
 * within a few units of 2^-53 of s / |s|, rounded to float) holds. The exact decision ran here
 * before and never disagreed; it cost a tenth of a resting pile's sweep frame. */
static void sure_flush(const sweep_queue *qu, sure_batch *s, bool run) {
    if (s->n == 0) return;
    const c2d_ball_sweep_cells *g = qu->w.g;
    const c2d_circle_soa *c = qu->w.c;
    for (size_t j = s->n; j < W; j++) {
        s->pos[j] = s->pos[0];
        s->other[j] = s->other[0];
    }
    const size_t p = s->pos[0];
    toi_lanes k;
    ball_start_hit_lanes(run ? lane_load(g->x + p) : lane_gather(g->x, s->pos),
                         run ? lane_load(g->y + p) : lane_gather(g->y, s->pos),
                         lane_gather(c->x, s->other), lane_gather(c->y, s->other),
                         lane_gather(c->radius, s->other), &k);
    toi_rows f;
    toi_rows_of(&f, &k);
    for (size_t j = 0; j < s->n; j++) {
        const uint32_t i = g->id[s->pos[j]];
        c2d_circle_hit *slot = &qu->w.out[i];
        if (c2d_ball_slot_takes(slot, g->state, i, s->other[j], 0.0f)) {
            slot->other = s->other[j];
            slot->toi = toi_row(&f, j);
            c2d_ball_slot_mark(g->state, i);
        }
    }
    s->n = 0;
}

/* The bytes of the sure hits at t = 0, over the sorted entries W at a time: W entries that all
 * hold a sure partner (a pile) go to the formula as they are; scattered ones (a gas) are
 * gathered into full batches first; W entries with none are skipped with one compare. */
static void sweep_sure(const sweep_queue *qu) {
    const c2d_ball_sweep_cells *g = qu->w.g;
    const size_t grid_balls = g->start[(size_t)g->nx * g->ny];
    sure_batch scattered = {0}, run;
    for (size_t p = 0; p < grid_balls; p += W) {
        const size_t lanes = grid_balls - p < W ? grid_balls - p : W;
        if (lanes == W) {
            const mask_t none = lane_eq_u32(lane_load_u32(g->sure + p), lane_splat_u32(UINT32_MAX));
            const uint32_t bits = mask_bits(none);
            if (bits == c2d_valid_lanes(W)) continue; /* no sure partner in these W */
            if (bits == 0) {
                run.n = W;
                for (size_t j = 0; j < W; j++) {
                    run.pos[j] = (uint32_t)(p + j);
                    run.other[j] = g->sure[p + j];
                }
                sure_flush(qu, &run, true);
                continue;
            }
        }
        for (size_t j = 0; j < lanes; j++) {
            if (g->sure[p + j] == UINT32_MAX) continue;
            scattered.pos[scattered.n] = (uint32_t)(p + j);
            scattered.other[scattered.n] = g->sure[p + j];
            if (++scattered.n == W) sure_flush(qu, &scattered, false);
        }
    }
    sure_flush(qu, &scattered, false);
}

#if C2D_LANES == 16
/* ---- the sweeps' walk a lane a ball (AVX-512, without a filter) ------------------------------
 *
 * The half walk of sweep_walk, turned around: blocks of 16 balls of a row of cells
 * (batch/ball_blocks.h), 16 balls against their k-th partner at once, first in their own span
 * (the rest of the cell and the cell east: entry p + j + k, contiguous), then in the next
 * row's. A block keeps its balls' sure[] entries in a register: it starts from what the row
 * below left in memory and what the block before lowered (`carry`), takes each ball's own sure
 * partners and those of earlier balls of the block, and stores them once at its end. An own-span
 * partner's entry is lowered in lanes (the block's ids moved up k lanes, into the block or into
 * the carry for the next block, which starts where this one ends: own spans stay in their row);
 * a next-row partner's, one by one in memory, before its row is walked. Maybe pairs are queued
 * both ways. */

enum { SWEEP_TESTS = 48 }; /* a block with more tests (a crowd) goes ball by ball */

/* One test of the next row: the partners' values v (x, y, r, mx, my, id) in the lanes `in`, k
 * the test's number; a sure partner lowers the lane's `best` and, in memory, the partner's
 * sure[] entry; maybe pairs are queued both ways. */
static inline __m512i sweep_up_test(sweep_queue *qu, const c2d_ball_sweep_cells *g,
                                    const sweep_ball *s, size_t p, const uint32_t *lo,
                                    const uint32_t *ids, uint32_t k, __mmask16 in,
                                    const __m512i v[6], __m512i best) {
    uint32_t sure, maybe;
    if (!sweep_lanes_of(s, _mm512_castsi512_ps(v[0]), _mm512_castsi512_ps(v[1]),
                        _mm512_castsi512_ps(v[2]), _mm512_castsi512_ps(v[3]),
                        _mm512_castsi512_ps(v[4]), in, &sure, &maybe))
        return best;
    best = _mm512_mask_min_epu32(best, (__mmask16)sure, best, v[5]);
    for (; sure; sure &= sure - 1) {
        const unsigned j = (unsigned)__builtin_ctz(sure);
        uint32_t *entry = g->sure + lo[j] + k;
        *entry = ids[j] < *entry ? ids[j] : *entry;
    }
    for (; maybe; maybe &= maybe - 1) {
        const unsigned j = (unsigned)__builtin_ctz(maybe);
        sweep_push(qu, (uint32_t)(p + j), lo[j] + k);
        sweep_push(qu, lo[j] + k, (uint32_t)(p + j));
    }
    return best;
}

/* The block's tests of the next row's partners, entry lo + k of each lane for k < longest,
 * read through windows of 32 (`wide`: 64) entries of the sorted arrays from `base`. */
C2D_FORMULA __m512i sweep_up_windowed(sweep_queue *qu, const c2d_ball_sweep_cells *g,
                                      const sweep_ball *s, size_t p, const c2d_row_span *row,
                                      size_t base, size_t top, bool wide, const uint32_t *lo,
                                      const uint32_t *ids, __m512i best) {
    const int vectors = wide ? 4 : 2;
    const c2d_window wx = c2d_window_load(g->x, base, top, vectors);
    const c2d_window wy = c2d_window_load(g->y, base, top, vectors);
    const c2d_window wr = c2d_window_load(g->r, base, top, vectors);
    const c2d_window wmx = c2d_window_load(g->mx, base, top, vectors);
    const c2d_window wmy = c2d_window_load(g->my, base, top, vectors);
    const c2d_window wid = c2d_window_load(g->id, base, top, vectors);
    __m512i at = _mm512_sub_epi32(row->lo, _mm512_set1_epi32((int)base));
    for (uint32_t k = 0; k < row->longest; k++, at = _mm512_add_epi32(at, _mm512_set1_epi32(1))) {
        const __mmask16 in = _mm512_cmpgt_epu32_mask(row->len, _mm512_set1_epi32((int)k));
        const __m512i v[6] = {c2d_window_pick(&wx, at, wide),  c2d_window_pick(&wy, at, wide),
                              c2d_window_pick(&wr, at, wide),  c2d_window_pick(&wmx, at, wide),
                              c2d_window_pick(&wmy, at, wide), c2d_window_pick(&wid, at, wide)};
        best = sweep_up_test(qu, g, s, p, lo, ids, k, in, v, best);
    }
    return best;
}

/* The same with the partners gathered (the row's spans reach further than a window). */
static __m512i sweep_up_gathered(sweep_queue *qu, const c2d_ball_sweep_cells *g,
                                 const sweep_ball *s, size_t p, const c2d_row_span *row,
                                 const uint32_t *lo, const uint32_t *ids, __m512i best) {
    const void *arrays[6] = {g->x, g->y, g->r, g->mx, g->my, g->id};
    __m512i at = row->lo;
    for (uint32_t k = 0; k < row->longest; k++, at = _mm512_add_epi32(at, _mm512_set1_epi32(1))) {
        const __mmask16 in = _mm512_cmpgt_epu32_mask(row->len, _mm512_set1_epi32((int)k));
        __m512i v[6];
        for (int a = 0; a < 6; a++)
            v[a] = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), in, at, arrays[a], 4);
        best = sweep_up_test(qu, g, s, p, lo, ids, k, in, v, best);
    }
    return best;
}

/* The block's tests of the next row. */
static inline __m512i sweep_up_row(sweep_queue *qu, const c2d_ball_sweep_cells *g,
                                   const sweep_ball *s, size_t p, const c2d_row_span *row,
                                   __m512i best) {
    size_t base, top;
    c2d_row_bounds(row, &base, &top);
    uint32_t lo[C2D_BLOCK], ids[C2D_BLOCK];
    _mm512_storeu_si512(lo, row->lo);
    _mm512_storeu_si512(ids, _mm512_loadu_si512(g->id + p));
    if (top - base <= C2D_WINDOW / 2)
        return sweep_up_windowed(qu, g, s, p, row, base, top, false, lo, ids, best);
    if (top - base <= C2D_WINDOW)
        return sweep_up_windowed(qu, g, s, p, row, base, top, true, lo, ids, best);
    return sweep_up_gathered(qu, g, s, p, row, lo, ids, best);
}

/* The walk by blocks. */
static void sweep_blocks(sweep_queue *qu) {
    /* a copy of the cells: the stores into sure[] could otherwise change the struct */
    const c2d_ball_sweep_cells cells = *qu->w.g;
    const c2d_ball_sweep_cells *g = &cells;
    if (!c2d_blocks_fit(g->start, g->nx, g->ny)) {
        sweep_walk(qu, false);
        return;
    }
    const __m512i none = _mm512_set1_epi32(-1), lane = c2d_lane_numbers();
    __m512i carry = none; /* lowerings of the next block's entries */
    c2d_block_cursor at = {0, g->start[g->nx], 0};
    while (c2d_next_row(g->start, g->nx, g->ny, &at)) {
        const size_t p = at.p, n = c2d_block_balls(&at);
        at.p = p + n;
        const __m512 x = _mm512_loadu_ps(g->x + p), y = _mm512_loadu_ps(g->y + p);
        const sweep_ball s = {x,
                              y,
                              _mm512_loadu_ps(g->r + p),
                              _mm512_loadu_ps(g->mx + p),
                              _mm512_loadu_ps(g->my + p),
                              lane_add(lane_abs(x), lane_abs(y))};
        /* binned by the centre of the move, x + mx / 2 in double */
        const dlane_t half = dlane_splat(0.5);
        const c2d_block_cells b = c2d_block_cells_of(
            c2d_block_columns(
                dlane_add(dlane_from_lane(x, 0), dlane_mul(half, dlane_from_lane(s.mx, 0))),
                dlane_add(dlane_from_lane(x, 1), dlane_mul(half, dlane_from_lane(s.mx, 1))), g->x0,
                g->inv, g->nx),
            n, at.cy, g->nx);
        const c2d_half_spans h = c2d_block_half_spans(g->start, g->nx, g->ny, &b, p, at.cy);
        const __m512i own = h.own;
        const uint32_t own_max = h.own_max;
        const c2d_row_span up = h.up;
        __m512i best = _mm512_min_epu32(_mm512_mask_loadu_epi32(none, b.valid, g->sure + p), carry);
        carry = none;
        /* a crowd (or an own span past the next block, which the carry cannot reach): ball
         * by ball, a lane a partner */
        if (own_max > C2D_BLOCK || own_max + up.longest > SWEEP_TESTS) {
            _mm512_mask_storeu_epi32(g->sure + p, b.valid, best);
            uint32_t up_lo[C2D_BLOCK], up_len[C2D_BLOCK], own_n[C2D_BLOCK];
            _mm512_storeu_si512(up_lo, up.lo);
            _mm512_storeu_si512(up_len, up.len);
            _mm512_storeu_si512(own_n, own);
            for (size_t j = 0; j < n; j++) {
                const size_t q = p + j;
                const float xq = g->x[q], yq = g->y[q];
                const sweep_ball one = {lane_splat(xq),       lane_splat(yq),
                                        lane_splat(g->r[q]),  lane_splat(g->mx[q]),
                                        lane_splat(g->my[q]), lane_splat(fabsf(xq) + fabsf(yq))};
                uint32_t mine = sweep_span(qu, &one, q, q + 1, q + 1 + own_n[j], false);
                const uint32_t above =
                    sweep_span(qu, &one, q, up_lo[j], (size_t)up_lo[j] + up_len[j], false);
                mine = above < mine ? above : mine;
                g->sure[q] = mine < g->sure[q] ? mine : g->sure[q];
            }
            continue;
        }
        const __m512i ids = _mm512_loadu_si512(g->id + p);
        for (uint32_t k = 1; k <= own_max; k++) { /* the own span: entries p + j + k */
            const __mmask16 in = _mm512_cmpge_epu32_mask(own, _mm512_set1_epi32((int)k));
            uint32_t sure, maybe;
            if (!sweep_lanes_of(&s, _mm512_loadu_ps(g->x + p + k), _mm512_loadu_ps(g->y + p + k),
                                _mm512_loadu_ps(g->r + p + k), _mm512_loadu_ps(g->mx + p + k),
                                _mm512_loadu_ps(g->my + p + k), in, &sure, &maybe))
                continue;
            best = _mm512_mask_min_epu32(best, (__mmask16)sure, best,
                                         _mm512_loadu_si512(g->id + p + k));
            /* the partners' entries: the block's ids moved up k lanes */
            const __m512i mine = _mm512_mask_mov_epi32(none, (__mmask16)sure, ids);
            const __m512i shift = _mm512_sub_epi32(lane, _mm512_set1_epi32((int)k));
            best = _mm512_min_epu32(
                best, _mm512_permutex2var_epi32(
                          none, _mm512_add_epi32(shift, _mm512_set1_epi32(16)), mine));
            carry = _mm512_min_epu32(
                carry, _mm512_permutex2var_epi32(
                           none, _mm512_add_epi32(shift, _mm512_set1_epi32(32)), mine));
            for (; maybe; maybe &= maybe - 1) {
                const uint32_t j = (uint32_t)__builtin_ctz(maybe);
                sweep_push(qu, (uint32_t)p + j, (uint32_t)p + j + k);
                sweep_push(qu, (uint32_t)p + j + k, (uint32_t)p + j);
            }
        }
        if (up.longest) best = sweep_up_row(qu, g, &s, p, &up, best);
        _mm512_mask_storeu_epi32(g->sure + p, b.valid, best);
    }
}
#endif

/* The grid sweeps; `filtered` as in collide_row. */
C2D_FORMULA void cell_sweeps(const c2d_ball_sweep_cells *cells, const c2d_circle_soa *circles,
                             const float *move_x, const float *move_y, c2d_circle_hit *out,
                             bool filtered) {
    sweep_queue q;
    q.w = (c2d_sweep_walk){cells, circles, move_x, move_y, out};
    q.n = 0;
#if C2D_LANES == 16
    if (!filtered)
        sweep_blocks(&q);
    else
        sweep_walk(&q, true);
#else
    sweep_walk(&q, filtered);
#endif
    sweep_flush(&q);
    sweep_sure(&q);
}

C2D_COLD void cell_sweeps_filtered(const c2d_ball_sweep_cells *cells, const c2d_circle_soa *circles,
                                   const float *move_x, const float *move_y, c2d_circle_hit *out) {
    cell_sweeps(cells, circles, move_x, move_y, out, true);
}

void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_cell_sweeps)(const c2d_ball_sweep_cells *cells,
                                                          const c2d_circle_soa *circles,
                                                          const float *move_x, const float *move_y,
                                                          c2d_circle_hit *out) {
    if (c2d_circle_soa_filtered(circles))
        cell_sweeps_filtered(cells, circles, move_x, move_y, out);
    else
        cell_sweeps(cells, circles, move_x, move_y, out, false);
}
