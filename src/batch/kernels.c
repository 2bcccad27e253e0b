/* The SIMD kernels, written once. Meson compiles this file once per backend with
 * C2D_LANES (4, 8 or 16), C2D_BACKEND_TABLE (the c2d_kernels table to define) and the
 * backend's instruction-set flags.
 *
 * Every kernel follows the same plan: a cheap vector test first (a conservative box from
 * cull.h, or the exact overlap formula shared with the scalar layer), then, for the rare lanes
 * that pass, the scalar reference function itself builds the contact or time of impact. The
 * answer is therefore the scalar layer's by construction; the vector part only decides which
 * lanes are worth asking. Lanes that pass are visited with a bit-scan loop over the mask,
 * which for about one hit in a thousand pairs is cheaper than any compaction. */
#include <math.h>

#include "batch/lane_simd.h"
#include "core/segment_formula.h"

#include "batch/cull.h"
#include "batch/kernels.h"
#include "batch/kernels_balls.h"

enum { W = C2D_LANES };

static inline unsigned lowest_bit(uint32_t bits) {
    return (unsigned)__builtin_ctz(bits);
}

/* Lane mask of the first n lanes (n <= W). */
static inline uint32_t first_lanes(size_t n) {
    return n >= 32 ? UINT32_MAX : (uint32_t)((1u << n) - 1u);
}

/* A partial vector at the end of an array, padded with `pad` so no read goes past the end. */
static inline lane_t load_tail(const float *p, size_t n, float pad) {
    float buf[W];
    for (size_t j = 0; j < W; j++)
        buf[j] = j < n ? p[j] : pad;
    return lane_load(buf);
}

/* ---- c2d_batch_collide ------------------------------------------------------------------ */

typedef struct collide_out {
    c2d_pair_contact *out;
    size_t capacity, total;
} collide_out;

/* The exact contacts of the candidate lanes `bits` of circles first.. against capsule k. */
static void refine_contacts(uint32_t bits, size_t first, const c2d_circle_soa *c,
                            const c2d_capsule_soa *k, size_t capsule, collide_out *o) {
    const float ax = k->ax[capsule], ay = k->ay[capsule];
    const float bx = k->bx[capsule], by = k->by[capsule], R = k->radius[capsule];
    while (bits) {
        const size_t i = first + lowest_bit(bits);
        bits &= bits - 1;
        c2d_contact contact;
        if (c2d_capsule_contact(c->x[i], c->y[i], c->radius[i], ax, ay, bx, by, R, &contact))
            c2d_emit(o->out, o->capacity, &o->total, (uint32_t)i, (uint32_t)capsule, &contact);
    }
}

/* Box-culled pass of one tame capsule over every circle. The box already includes the largest
 * circle radius, so the pass reads only the centres. |x - c| <= h (sub, and, compare) runs
 * faster than lo <= x <= h (two compares): AVX-512 compares into mask registers issue on
 * fewer ports than subtractions. */
static inline mask_t in_box(lane_t x, lane_t y, lane_t cx, lane_t cy, lane_t hx, lane_t hy) {
    return mask_and(lane_le(lane_abs(lane_sub(x, cx)), hx), lane_le(lane_abs(lane_sub(y, cy)), hy));
}

static void collide_boxed(const c2d_circle_soa *c, const c2d_capsule_soa *k, size_t capsule,
                          const c2d_collide_box *box, collide_out *o) {
    const lane_t cx = lane_splat(box->cx), cy = lane_splat(box->cy);
    const lane_t hx = lane_splat(box->hx), hy = lane_splat(box->hy);
    const float *const xs = c->x, *const ys = c->y;
    const size_t n = c->count;
    size_t i = 0;
    /* two vectors per step, one branch for both: hits are rare */
    for (; i + 2 * W <= n; i += 2 * W) {
        const mask_t near0 = in_box(lane_load(xs + i), lane_load(ys + i), cx, cy, hx, hy);
        const mask_t near1 = in_box(lane_load(xs + i + W), lane_load(ys + i + W), cx, cy, hx, hy);
        if (mask_any(mask_or(near0, near1))) {
            refine_contacts(mask_bits(near0), i, c, k, capsule, o);
            refine_contacts(mask_bits(near1), i + W, c, k, capsule, o);
        }
    }
    for (; i + W <= n; i += W) {
        const mask_t near = in_box(lane_load(xs + i), lane_load(ys + i), cx, cy, hx, hy);
        if (mask_any(near)) refine_contacts(mask_bits(near), i, c, k, capsule, o);
    }
    if (i < n) { /* NaN padding is never inside a box */
        const mask_t near =
            in_box(load_tail(xs + i, n - i, NAN), load_tail(ys + i, n - i, NAN), cx, cy, hx, hy);
        refine_contacts(mask_bits(near) & first_lanes(n - i), i, c, k, capsule, o);
    }
}

/* Exact pass of one capsule over every circle: the shared overlap formula on every lane. */
static void collide_exact(const c2d_circle_soa *c, const c2d_capsule_soa *k, size_t capsule,
                          collide_out *o) {
    const lane_t ax = lane_splat(k->ax[capsule]), ay = lane_splat(k->ay[capsule]);
    const lane_t bx = lane_splat(k->bx[capsule]), by = lane_splat(k->by[capsule]);
    const lane_t R = lane_splat(k->radius[capsule]);
    const size_t n = c->count;
    size_t i = 0;
    for (; i + W <= n; i += W) {
        const lane_t x = lane_load(c->x + i), y = lane_load(c->y + i), r = lane_load(c->radius + i);
        const mask_t hit = capsule_overlap(x, y, r, ax, ay, bx, by, R);
        if (mask_any(hit)) refine_contacts(mask_bits(hit), i, c, k, capsule, o);
    }
    if (i < n) { /* NaN padding never overlaps */
        const lane_t x = load_tail(c->x + i, n - i, NAN), y = load_tail(c->y + i, n - i, NAN);
        const lane_t r = load_tail(c->radius + i, n - i, NAN);
        const mask_t hit = capsule_overlap(x, y, r, ax, ay, bx, by, R);
        refine_contacts(mask_bits(hit) & first_lanes(n - i), i, c, k, capsule, o);
    }
}

/* The circle census of cull.h, a vector at a time: the largest magnitude of any coordinate or
 * radius, and the largest radius. lane_max(v, acc) keeps acc when v is NaN (x86 semantics),
 * so NaN is ignored, as the census wants. */
static c2d_circle_census circle_census(const c2d_circle_soa *c) {
    lane_t magnitude = lane_splat(0.0f), radius = lane_splat(0.0f);
    const size_t n = c->count;
    for (size_t i = 0; i < n; i += W) {
        const size_t lanes = n - i < W ? n - i : W;
        const lane_t x = lanes == W ? lane_load(c->x + i) : load_tail(c->x + i, lanes, 0.0f);
        const lane_t y = lanes == W ? lane_load(c->y + i) : load_tail(c->y + i, lanes, 0.0f);
        const lane_t r =
            lanes == W ? lane_load(c->radius + i) : load_tail(c->radius + i, lanes, 0.0f);
        magnitude = lane_max(lane_abs(x), magnitude);
        magnitude = lane_max(lane_abs(y), magnitude);
        magnitude = lane_max(lane_abs(r), magnitude);
        radius = lane_max(r, radius);
    }
    float m[W], r[W];
    lane_store(m, magnitude);
    lane_store(r, radius);
    c2d_circle_census census = {true, 0.0f};
    for (size_t j = 0; j < W; j++) {
        census.tame &= m[j] <= C2D_TAME_LIMIT;
        census.max_radius = r[j] > census.max_radius ? r[j] : census.max_radius;
    }
    return census;
}

static size_t collide(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                      c2d_pair_contact *out, size_t capacity) {
    collide_out o = {out, capacity, 0};
    if (circles->count == 0) return 0;
    const c2d_circle_census census = circle_census(circles);
    for (size_t k = 0; k < capsules->count; k++) {
        c2d_collide_box box;
        const c2d_capsule_plan plan =
            census.tame ? c2d_plan_capsule(capsules, k, census.max_radius, &box) : C2D_PLAN_EXACT;
        if (plan == C2D_PLAN_BOX)
            collide_boxed(circles, capsules, k, &box, &o);
        else if (plan == C2D_PLAN_EXACT)
            collide_exact(circles, capsules, k, &o);
    }
    return o.total;
}

/* ---- c2d_batch_collide_pairs ------------------------------------------------------------ */

/* The exact contact of listed pair q, if any. */
static inline void refine_pair(size_t q, const c2d_circle_soa *c, const c2d_capsule_soa *k,
                               const uint32_t *ci, const uint32_t *ki, collide_out *o) {
    const uint32_t i = ci[q], j = ki[q];
    c2d_contact contact;
    if (c2d_capsule_contact(c->x[i], c->y[i], c->radius[i], k->ax[j], k->ay[j], k->bx[j], k->by[j],
                            k->radius[j], &contact))
        c2d_emit(o->out, o->capacity, &o->total, i, j, &contact);
}

/* Pairs arrive in any order, so there is no box to share: each vector of pairs gathers its
 * circles and capsules and runs the exact overlap formula; hits get their contact. */
static size_t collide_pairs(const c2d_circle_soa *c, const c2d_capsule_soa *k, const uint32_t *ci,
                            const uint32_t *ki, size_t pair_count, c2d_pair_contact *out,
                            size_t capacity) {
    collide_out o = {out, capacity, 0};
    size_t p = 0;
    for (; p + W <= pair_count; p += W) {
        const uint32_t *cip = ci + p, *kip = ki + p;
        const mask_t hit = capsule_overlap(lane_gather(c->x, cip), lane_gather(c->y, cip),
                                           lane_gather(c->radius, cip), lane_gather(k->ax, kip),
                                           lane_gather(k->ay, kip), lane_gather(k->bx, kip),
                                           lane_gather(k->by, kip), lane_gather(k->radius, kip));
        if (mask_any(hit))
            for (uint32_t bits = mask_bits(hit); bits; bits &= bits - 1)
                refine_pair(p + lowest_bit(bits), c, k, ci, ki, &o);
    }
    for (; p < pair_count; p++) /* the tail: fewer pairs than a vector */
        refine_pair(p, c, k, ci, ki, &o);
    return o.total;
}

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

/* W circles from `first` against the capsules of one chunk. */
static void sweep_lanes(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                        size_t first, size_t lanes, const c2d_capsule_soa *k, size_t chunk_first,
                        size_t chunk_n, const c2d_sweep_boxes *boxes, c2d_circle_toi *out) {
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
        const size_t capsule = chunk_first + j;
        for (uint32_t bits = mask_bits(touch) & valid; bits; bits &= bits - 1) {
            const size_t i = first + lowest_bit(bits);
            c2d_toi toi;
            if (c2d_capsule_sweep(c->x[i], c->y[i], c->radius[i], move_x[i], move_y[i],
                                  k->ax[capsule], k->ay[capsule], k->bx[capsule], k->by[capsule],
                                  k->radius[capsule], &toi))
                c2d_keep_earliest(&out[i], (uint32_t)capsule, &toi);
        }
    }
}

static void sweep(const c2d_circle_soa *circles, const float *move_x, const float *move_y,
                  const c2d_capsule_soa *capsules, c2d_circle_toi *out) {
    c2d_clear_tois(out, circles->count);
    c2d_sweep_boxes boxes;
    for (size_t first = 0; first < capsules->count; first += C2D_SWEEP_CHUNK) {
        const size_t rest = capsules->count - first;
        const size_t chunk_n = rest < C2D_SWEEP_CHUNK ? rest : C2D_SWEEP_CHUNK;
        c2d_sweep_capsule_boxes(capsules, first, chunk_n, &boxes);
        for (size_t i = 0; i < circles->count; i += W) {
            const size_t rest_c = circles->count - i;
            sweep_lanes(circles, move_x, move_y, i, rest_c < W ? rest_c : W, capsules, first,
                        chunk_n, &boxes, out);
        }
    }
}

const c2d_kernels C2D_BACKEND_TABLE = {collide, collide_pairs, sweep,
                                       C2D_BALL_KERNEL(C2D_BACKEND_TABLE, collide_circles),
                                       C2D_BALL_KERNEL(C2D_BACKEND_TABLE, sweep_circles)};
