/* The ball grid's sweeps (kernel ball_cell_sweeps), compiled once per backend with the flags
 * and macros of kernels.c: the half walk of c2d_ball_half_walk (batch/kernels_balls.h), each
 * grid ball against its neighbours' balls a vector at a time, the pairs that need the exact
 * formula queued and swept W at a time (core/ball_sweep_formula.h), the pairs surely in
 * contact kept as one partner per ball and swept once at the end. The AVX-512 backend walks
 * without a filter by blocks of 16 balls instead (batch/x86/ball_sweeps_avx512.h). */
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
#include "batch/x86/ball_sweeps_avx512.h"
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
