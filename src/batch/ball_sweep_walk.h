/* The machinery of the ball grid's sweeps (batch/kernels_ball_sweeps.c), shared by its SIMDe
 * walk a lane a partner (sweep_walk, here) and the AVX-512 walk a lane a ball
 * (batch/x86/ball_sweeps_avx512.h): the queue of pairs for the exact formula, the pair tests in
 * lanes, and the sure partners' bookkeeping. Included by files compiled once per backend with
 * the flags and macros of kernels.c (C2D_LANES, C2D_BACKEND_TABLE). */
#ifndef C2D_BATCH_BALL_SWEEP_WALK_H
#define C2D_BATCH_BALL_SWEEP_WALK_H

#include <math.h>
#include <string.h>

#include "batch/lane_simd.h"
#include "core/segment_formula.h"

#include "batch/cull.h"
#include "batch/ball_cull.h"
#include "batch/kernels_balls.h"
#include "batch/dlane_simd.h"
#include "core/ball_sweep_formula.h"
#include "core/filter_words.h"

enum { W = C2D_LANES };

/* The same over sorted grid entries: the lanes `bits` of the entries from q whose balls ball
 * id[p] meets. */
static inline uint32_t meeting_entries(const c2d_circle_soa *c, const uint32_t *id, size_t p,
                                       size_t q, uint32_t bits) {
    for (uint32_t m = bits; m; m &= m - 1)
        if (!c2d_circles_meet(c, id[p], id[q + (size_t)__builtin_ctz(m)])) bits &= ~(m & (0u - m));
    return bits;
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

#endif
