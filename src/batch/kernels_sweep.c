/* The sweeps of circles against capsules (kernels sweep and sweep_pairs), written once with
 * SIMDe and compiled once per backend with the flags and macros of kernels.c: each vector of
 * circles is culled against each capsule's swept box (cull.h), the pairs whose boxes touch are
 * queued into full vectors, and their times of impact are built in lanes from
 * src/core/sweep_formula.h, the source the scalar layer sweeps with. */
#include <math.h>

#include "batch/lane_simd.h"
#include "batch/cull.h"
#include "batch/kernels.h"
#include "batch/kernel_lanes.h"
#include "batch/dlane_simd.h"
#include "core/sweep_formula.h"

/* ---- c2d_batch_sweep -------------------------------------------------------------------- */

/* The swept box of W circles: everything within r of the path p -> p+m, plus slack (cull.h).
 * Lanes with a value that is NaN or not tame get an infinite box: the exact sweep decides. */
typedef struct swept_lanes {
    lane_t lo_x, hi_x, lo_y, hi_y;
} swept_lanes;

static swept_lanes swept_box(lane_t px, lane_t py, lane_t r, lane_t mx, lane_t my) {
    const lane_t limit = lane_splat(C2D_TAME_LIMIT);
    const lane_t ar = lane_abs(r), amx = lane_abs(mx), amy = lane_abs(my);
    const lane_t apx = lane_abs(px), apy = lane_abs(py);
    const lane_t grow = lane_add(
        lane_add(ar, lane_mul(lane_add(lane_add(amx, amy), ar), lane_splat(C2D_SWEEP_SIZE_SLACK))),
        lane_add(lane_mul(lane_add(apx, apy), lane_splat(C2D_SWEEP_POSITION_SLACK)),
                 lane_splat(1e-18f)));
    const lane_t ex = lane_add(px, mx), ey = lane_add(py, my);
    swept_lanes b = {lane_sub(lane_min(px, ex), grow), lane_add(lane_max(px, ex), grow),
                     lane_sub(lane_min(py, ey), grow), lane_add(lane_max(py, ey), grow)};
    const mask_t wild = mask_or(mask_or(mask_or(lane_not_le(apx, limit), lane_not_le(apy, limit)),
                                        mask_or(lane_not_le(amx, limit), lane_not_le(amy, limit))),
                                lane_not_le(ar, limit));
    const lane_t inf = lane_splat(INFINITY), ninf = lane_splat(-INFINITY);
    b.lo_x = lane_select(wild, ninf, b.lo_x);
    b.hi_x = lane_select(wild, inf, b.hi_x);
    b.lo_y = lane_select(wild, ninf, b.lo_y);
    b.hi_y = lane_select(wild, inf, b.hi_y);
    return b;
}

/* Candidate (circle, capsule) pairs, the ones whose boxes touch, gathered until a vector is
 * full: the sweep formula then runs on W pairs at once. Pairs join in capsule order for each
 * circle and leave in the order they joined, so c2d_keep_earliest() still sees each circle's
 * capsules in increasing order (ties to the lowest index). On W3, where few pairs pass the
 * box, this measured faster than the scalar sweep one candidate at a time (docs/lanes.md). */
typedef struct sweep_queue {
    uint32_t circle[W], capsule[W];
    size_t n;
} sweep_queue;

/* The sweep formula on W listed pairs (circle[j], capsule[j]): the lanes that hit, among the
 * first n, and their times of impact in `t` (filled only when some lane hits). With capsule
 * moves (kmx, kmy; NULL: static), c2d_moving_capsule_sweep(): the static sweep on the relative
 * move, the point moved to where the capsule is at t. */
static uint32_t sweep_vector(const uint32_t *circle, const uint32_t *capsule, size_t n,
                             const c2d_circle_soa *c, const float *move_x, const float *move_y,
                             const c2d_capsule_soa *k, const float *kmx, const float *kmy,
                             c2d_toi *t) {
    const lane_t x = lane_gather(c->x, circle), y = lane_gather(c->y, circle);
    lane_t mx = lane_gather(move_x, circle), my = lane_gather(move_y, circle);
    lane_t kx = lane_splat(0.0f), ky = lane_splat(0.0f);
    if (kmx) {
        kx = lane_gather(kmx, capsule);
        ky = lane_gather(kmy, capsule);
        mx = lane_sub(mx, kx);
        my = lane_sub(my, ky);
    }
    const lane_t ax = lane_gather(k->ax, capsule), ay = lane_gather(k->ay, capsule);
    const lane_t bx = lane_gather(k->bx, capsule), by = lane_gather(k->by, capsule);
    const lane_t R = lane_gather(k->radius, capsule);
    sweep_found f;
    const mask_t hit =
        capsule_sweep_decide(x, y, lane_gather(c->radius, circle), mx, my, ax, ay, bx, by, R, &f);
    const uint32_t bits = mask_bits(hit) & first_lanes(n);
    if (!bits) return 0;
    toi_lanes l;
    capsule_sweep_finish(x, y, mx, my, ax, ay, bx, by, R, &f, &l);
    if (kmx) {
        l.px = lane_add(l.px, lane_mul(l.t, kx));
        l.py = lane_add(l.py, lane_mul(l.t, ky));
    }
    float tt[W], nx[W], ny[W], px[W], py[W];
    lane_store(tt, l.t);
    lane_store(nx, l.nx);
    lane_store(ny, l.ny);
    lane_store(px, l.px);
    lane_store(py, l.py);
    for (uint32_t b = bits; b; b &= b - 1) {
        const unsigned j = lowest_bit(b);
        t[j] = (c2d_toi){tt[j], {nx[j], ny[j]}, {px[j], py[j]}};
    }
    return bits;
}

/* Runs the sweep formula on the queued pairs (the unused lanes repeat the first pair) and keeps
 * each hit; empties the queue. */
static void sweep_flush(sweep_queue *q, const c2d_circle_soa *c, const float *move_x,
                        const float *move_y, const c2d_capsule_soa *k, const float *kmx,
                        const float *kmy, c2d_circle_toi *out) {
    const size_t n = q->n;
    if (n == 0) return;
    for (size_t j = n; j < W; j++) {
        q->circle[j] = q->circle[0];
        q->capsule[j] = q->capsule[0];
    }
    q->n = 0;
    c2d_toi t[W];
    for (uint32_t bits = sweep_vector(q->circle, q->capsule, n, c, move_x, move_y, k, kmx, kmy, t);
         bits; bits &= bits - 1) {
        const unsigned j = lowest_bit(bits);
        c2d_keep_earliest(&out[q->circle[j]], q->capsule[j], &t[j]);
    }
}

/* W circles from `first` against the capsules of one chunk: the pairs whose boxes touch join
 * the queue (in a filtered call, only those that meet: the earliest hit is then taken over the
 * allowed pairs, and a refused capsule hides nothing behind it). */
C2D_FORMULA void sweep_lanes(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                             size_t first, size_t lanes, const c2d_capsule_soa *k, const float *kmx,
                             const float *kmy, size_t chunk_first, size_t chunk_n,
                             const c2d_sweep_boxes *boxes, bool filtered, sweep_queue *q,
                             c2d_circle_toi *out) {
    swept_lanes s;
    if (lanes == W) {
        s = swept_box(lane_load(c->x + first), lane_load(c->y + first),
                      lane_load(c->radius + first), lane_load(move_x + first),
                      lane_load(move_y + first));
    } else { /* padding: a point parked at the edge of the tame range, far from any capsule */
        const float far = C2D_TAME_LIMIT;
        s = swept_box(load_tail(c->x + first, lanes, far), load_tail(c->y + first, lanes, far),
                      load_tail(c->radius + first, lanes, 0.0f),
                      load_tail(move_x + first, lanes, 0.0f),
                      load_tail(move_y + first, lanes, 0.0f));
    }
    const uint32_t valid = first_lanes(lanes);
    for (size_t j = 0; j < chunk_n; j++) {
        const mask_t touch = mask_and(mask_and(lane_le(s.lo_x, lane_splat(boxes->hi_x[j])),
                                               lane_ge(s.hi_x, lane_splat(boxes->lo_x[j]))),
                                      mask_and(lane_le(s.lo_y, lane_splat(boxes->hi_y[j])),
                                               lane_ge(s.hi_y, lane_splat(boxes->lo_y[j]))));
        if (!mask_any(touch)) continue;
        const uint32_t capsule = (uint32_t)(chunk_first + j);
        uint32_t join = mask_bits(touch) & valid;
        if (filtered)
            join &= meet_lanes(c, first, lanes, k, capsule); /* refused pairs never join */
        for (uint32_t bits = join; bits; bits &= bits - 1) {
            q->circle[q->n] = (uint32_t)(first + lowest_bit(bits));
            q->capsule[q->n] = capsule;
            if (++q->n == W) sweep_flush(q, c, move_x, move_y, k, kmx, kmy, out);
        }
    }
}

/* `filtered`: a constant at each call site below. */
C2D_FORMULA void sweep_run(const c2d_circle_soa *circles, const float *move_x, const float *move_y,
                           const c2d_capsule_soa *capsules, const float *kmx, const float *kmy,
                           c2d_circle_toi *out, bool filtered) {
    c2d_clear_tois(out, circles->count);
    c2d_sweep_boxes boxes;
    sweep_queue q;
    q.n = 0;
    for (size_t first = 0; first < capsules->count; first += C2D_SWEEP_CHUNK) {
        const size_t rest = capsules->count - first;
        const size_t chunk_n = rest < C2D_SWEEP_CHUNK ? rest : C2D_SWEEP_CHUNK;
        c2d_sweep_capsule_boxes(capsules, first, chunk_n, &boxes);
        if (kmx) c2d_sweep_boxes_add_moves(kmx + first, kmy + first, chunk_n, &boxes);
        for (size_t i = 0; i < circles->count; i += W) {
            const size_t rest_c = circles->count - i;
            sweep_lanes(circles, move_x, move_y, i, rest_c < W ? rest_c : W, capsules, kmx, kmy,
                        first, chunk_n, &boxes, filtered, &q, out);
        }
    }
    sweep_flush(&q, circles, move_x, move_y, capsules, kmx, kmy, out);
}

void C2D_KERNEL(C2D_BACKEND_TABLE, sweep)(const c2d_circle_soa *circles, const float *move_x,
                                          const float *move_y, const c2d_capsule_soa *capsules,
                                          const float *kmx, const float *kmy, c2d_circle_toi *out) {
    if (c2d_circle_soa_filtered(circles) || c2d_capsule_soa_filtered(capsules))
        sweep_run(circles, move_x, move_y, capsules, kmx, kmy, out, true);
    else
        sweep_run(circles, move_x, move_y, capsules, kmx, kmy, out, false);
}

/* ---- listed sweeps (scene candidates) --------------------------------------------------- */

/* W pairs at a time straight from the lists; the last vector's unused lanes repeat its first
 * pair. */
void C2D_KERNEL(C2D_BACKEND_TABLE,
                sweep_pairs)(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                             const c2d_capsule_soa *k, const float *kmx, const float *kmy,
                             const uint32_t *ci, const uint32_t *ki, size_t pair_count, size_t base,
                             c2d_circle_toi *out, unsigned char *nan) {
    for (size_t p = 0; p < pair_count; p += W) {
        const size_t n = pair_count - p < W ? pair_count - p : W;
        uint32_t circle[W], capsule[W];
        for (size_t j = 0; j < W; j++) {
            circle[j] = ci[p + (j < n ? j : 0)];
            capsule[j] = ki[p + (j < n ? j : 0)];
        }
        c2d_toi t[W];
        for (uint32_t bits = sweep_vector(circle, capsule, n, c, move_x, move_y, k, kmx, kmy, t);
             bits; bits &= bits - 1) {
            const unsigned j = lowest_bit(bits);
            c2d_keep_smallest(&out[circle[j] - base], &nan[circle[j] - base], capsule[j], &t[j]);
        }
    }
}
