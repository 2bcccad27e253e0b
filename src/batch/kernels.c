/* The SIMD kernels, written once. Meson compiles this file once per backend with
 * C2D_LANES (4, 8 or 16), C2D_BACKEND_TABLE (the c2d_kernels table to define) and the
 * backend's instruction-set flags.
 *
 * Every kernel follows the same plan: a cheap vector test first (a conservative box from
 * cull.h, or the exact overlap formula shared with the scalar layer), then the exact answer
 * for the vectors that pass. Contacts are built in lanes (batch/lane_contact.h) from
 * src/core/contact_formula.h, the source the scalar layer builds its contacts with, so every
 * lane holds the scalar layer's bytes; the hit lanes are then appended in order. Times of
 * impact are built in lanes too, from src/core/sweep_formula.h, for the pairs whose boxes
 * touch, queued into full vectors (kernels_sweep.c). This file holds the contacts of circles
 * against capsules and the backend's table, whose other entries come from kernels_sweep.c, the
 * balls' kernels (kernels_ball*.c) and the x86 kernels of src/batch/x86/. */
#include <math.h>

#include "batch/lane_simd.h"
#include "core/segment_formula.h"

#include "batch/cull.h"
#include "batch/kernels.h"
#include "batch/kernel_lanes.h"
#include "batch/lane_contact.h"
#include "batch/dlane_simd.h"
#include "core/sweep_formula.h"
#include "core/filter_words.h"
#include "batch/kernels_balls.h"
#include "batch/kernels_scene.h"

/* The lanes among the first `lanes` listed pairs (cip[l], kip[l]) that meet. */
static uint32_t meet_pairs(const c2d_circle_soa *c, const c2d_capsule_soa *k, const uint32_t *cip,
                           const uint32_t *kip, size_t lanes) {
    uint32_t bits = 0;
    for (size_t l = 0; l < lanes; l++)
        bits |= (uint32_t)c2d_circle_meets_capsule(c, cip[l], k, kip[l]) << l;
    return bits;
}

/* ---- c2d_batch_collide ------------------------------------------------------------------ */

/* The contacts of W circles from `first` (lanes `valid`, x and y already loaded) against one
 * capsule. filter_k: the capsule set when the call is filtered (its lanes that do not meet the
 * capsule are dropped), NULL when not. */
C2D_FORMULA void refine_vector(contact_sink *o, const c2d_circle_soa *c, size_t first, lane_t x,
                               lane_t y, uint32_t valid, const capsule_lanes *cap,
                               lane_t capsule_index, const c2d_capsule_soa *filter_k,
                               size_t capsule) {
    if (filter_k) { /* a filtered call: only the circles that meet the capsule */
        valid &=
            meet_lanes(c, first, c->count - first < W ? c->count - first : W, filter_k, capsule);
        if (!valid) return;
    }
    const lane_t r = valid == first_lanes(W) ? lane_load(c->radius + first)
                                             : load_tail(c->radius + first, c->count - first, NAN);
    contacts_vector(o, x, y, r, cap, valid, lane_add_u32(lane_load_u32(lane_iota), first),
                    capsule_index);
}

/* Box-culled pass of one tame capsule over every circle. The box already includes the largest
 * circle radius, so the pass reads only the centres. |x - c| <= h (sub, and, compare) runs
 * faster than lo <= x <= h (two compares): AVX-512 compares into mask registers issue on
 * fewer ports than subtractions. */
static inline mask_t in_box(lane_t x, lane_t y, lane_t cx, lane_t cy, lane_t hx, lane_t hy) {
    return mask_and(lane_le(lane_abs(lane_sub(x, cx)), hx), lane_le(lane_abs(lane_sub(y, cy)), hy));
}

C2D_FORMULA void collide_boxed_run(const c2d_circle_soa *c, const c2d_capsule_soa *k,
                                   size_t capsule, const c2d_collide_box *box,
                                   const c2d_capsule_soa *filter_k, contact_sink *o) {
    const lane_t cx = lane_splat(box->cx), cy = lane_splat(box->cy);
    const lane_t hx = lane_splat(box->hx), hy = lane_splat(box->hy);
    const capsule_lanes cap = capsule_splat(k, capsule);
    const lane_t kidx = lane_splat_u32((uint32_t)capsule);
    const float *const xs = c->x, *const ys = c->y;
    const size_t n = c->count;
    const uint32_t all = first_lanes(W);
    size_t i = 0;
    /* two vectors per step, one branch for both: hits are rare */
    for (; i + 2 * W <= n; i += 2 * W) {
        const lane_t x0 = lane_load(xs + i), y0 = lane_load(ys + i);
        const lane_t x1 = lane_load(xs + i + W), y1 = lane_load(ys + i + W);
        const mask_t near0 = in_box(x0, y0, cx, cy, hx, hy);
        const mask_t near1 = in_box(x1, y1, cx, cy, hx, hy);
        if (mask_any(mask_or(near0, near1))) {
            if (mask_any(near0)) refine_vector(o, c, i, x0, y0, all, &cap, kidx, filter_k, capsule);
            if (mask_any(near1))
                refine_vector(o, c, i + W, x1, y1, all, &cap, kidx, filter_k, capsule);
        }
    }
    for (; i + W <= n; i += W) {
        const lane_t x = lane_load(xs + i), y = lane_load(ys + i);
        if (mask_any(in_box(x, y, cx, cy, hx, hy)))
            refine_vector(o, c, i, x, y, all, &cap, kidx, filter_k, capsule);
    }
    if (i < n) { /* NaN padding is never inside a box and never overlaps */
        const lane_t x = load_tail(xs + i, n - i, NAN), y = load_tail(ys + i, n - i, NAN);
        if (mask_any(in_box(x, y, cx, cy, hx, hy)))
            refine_vector(o, c, i, x, y, first_lanes(n - i), &cap, kidx, filter_k, capsule);
    }
}

/* Exact pass of one capsule over every circle: the shared formulas on every lane (filter_k as
 * in refine_vector). */
C2D_FORMULA void collide_exact_run(const c2d_circle_soa *c, const c2d_capsule_soa *k,
                                   size_t capsule, const c2d_capsule_soa *filter_k,
                                   contact_sink *o) {
    const capsule_lanes cap = capsule_splat(k, capsule);
    const lane_t kidx = lane_splat_u32((uint32_t)capsule);
    const size_t n = c->count;
    size_t i = 0;
    for (; i + W <= n; i += W) {
        const uint32_t valid = filter_k ? meet_lanes(c, i, W, k, capsule) : first_lanes(W);
        contacts_vector(o, lane_load(c->x + i), lane_load(c->y + i), lane_load(c->radius + i), &cap,
                        valid, lane_add_u32(lane_load_u32(lane_iota), i), kidx);
    }
    if (i < n) { /* NaN padding never overlaps */
        const uint32_t valid = filter_k ? meet_lanes(c, i, n - i, k, capsule) : first_lanes(n - i);
        contacts_vector(o, load_tail(c->x + i, n - i, NAN), load_tail(c->y + i, n - i, NAN),
                        load_tail(c->radius + i, n - i, NAN), &cap, valid,
                        lane_add_u32(lane_load_u32(lane_iota), i), kidx);
    }
}

/* The passes without filters (exactly the code from before filters existed: filter_k is a
 * constant NULL) and with them. */
static void collide_boxed(const c2d_circle_soa *c, const c2d_capsule_soa *k, size_t capsule,
                          const c2d_collide_box *box, contact_sink *o) {
    collide_boxed_run(c, k, capsule, box, NULL, o);
}
static void collide_boxed_filtered(const c2d_circle_soa *c, const c2d_capsule_soa *k,
                                   size_t capsule, const c2d_collide_box *box, contact_sink *o) {
    collide_boxed_run(c, k, capsule, box, k, o);
}
static void collide_exact(const c2d_circle_soa *c, const c2d_capsule_soa *k, size_t capsule,
                          contact_sink *o) {
    collide_exact_run(c, k, capsule, NULL, o);
}
static void collide_exact_filtered(const c2d_circle_soa *c, const c2d_capsule_soa *k,
                                   size_t capsule, contact_sink *o) {
    collide_exact_run(c, k, capsule, k, o);
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

/* `filtered`, a constant at each call site: a filtered call skips the sensors and drops the
 * circles a capsule does not meet where the boxes find them. */
C2D_FORMULA size_t collide_run(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                               c2d_pair_contact *out, size_t capacity, bool filtered) {
    contact_sink o = {out, capacity, 0};
    if (circles->count == 0) return 0;
    const c2d_circle_census census = circle_census(circles);
    for (size_t k = 0; k < capsules->count; k++) {
        if (filtered && capsules->sensor && capsules->sensor[k]) continue;
        c2d_collide_box box;
        const c2d_capsule_plan plan =
            census.tame ? c2d_plan_capsule(capsules, k, census.max_radius, &box) : C2D_PLAN_EXACT;
        if (plan == C2D_PLAN_BOX) {
            if (filtered)
                collide_boxed_filtered(circles, capsules, k, &box, &o);
            else
                collide_boxed(circles, capsules, k, &box, &o);
        } else if (plan == C2D_PLAN_EXACT) {
            if (filtered)
                collide_exact_filtered(circles, capsules, k, &o);
            else
                collide_exact(circles, capsules, k, &o);
        }
    }
    return o.total;
}

static size_t collide(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                      c2d_pair_contact *out, size_t capacity) {
    if (c2d_circle_soa_filtered(circles) || c2d_capsule_soa_filtered(capsules))
        return collide_run(circles, capsules, out, capacity, true);
    return collide_run(circles, capsules, out, capacity, false);
}

/* ---- c2d_batch_collide_pairs ------------------------------------------------------------ */

/* A broad phase emits its pairs in runs: one capsule with circles in increasing index order.
 * Such a vector reads its capsule once and its circles as plain vector loads instead of
 * gathering W of each; any other vector gathers. Both tests are one vector compare. (An index
 * within W of UINT32_MAX is never a run start: idx[0] + j must not wrap around.) */
static inline bool same_index(const uint32_t *idx) {
    return mask_all(lane_eq_u32(lane_load_u32(idx), lane_splat_u32(idx[0])));
}
static inline bool consecutive_index(const uint32_t *idx) {
    return idx[0] <= UINT32_MAX - (W - 1) &&
           mask_all(
               lane_eq_u32(lane_load_u32(idx), lane_add_u32(lane_load_u32(lane_iota), idx[0])));
}

/* The contacts of W listed pairs (indices cip, kip) in *k; returns the lanes among `valid`
 * that hit. */
C2D_FORMULA uint32_t pairs_compute(const c2d_circle_soa *c, const c2d_capsule_soa *k,
                                   const uint32_t *cip, const uint32_t *kip, uint32_t valid,
                                   contact_lanes *out) {
    capsule_lanes cap;
    if (same_index(kip)) {
        cap = capsule_splat(k, kip[0]);
    } else {
        cap.ax = lane_gather(k->ax, kip);
        cap.ay = lane_gather(k->ay, kip);
        cap.bx = lane_gather(k->bx, kip);
        cap.by = lane_gather(k->by, kip);
        cap.R = lane_gather(k->radius, kip);
    }
    if (consecutive_index(cip)) {
        const size_t i = cip[0];
        return contacts_compute(lane_load(c->x + i), lane_load(c->y + i), lane_load(c->radius + i),
                                &cap, valid, out);
    }
    return contacts_compute(lane_gather(c->x, cip), lane_gather(c->y, cip),
                            lane_gather(c->radius, cip), &cap, valid, out);
}

/* Pairs arrive in any order, so there is no box to share: each vector of pairs reads its
 * circles and capsules and runs the exact formulas; the hit lanes are appended in order.
 * The loop is software-pipelined by one vector: vector v+1's contacts are computed before
 * vector v's are appended, so the long division and square-root chain of one vector overlaps
 * the appending of the previous one (whose loop exit mispredicts: the hit count varies).
 * `filtered`, a constant at each call site below: the pairs that do not meet leave the valid
 * lanes before the formulas run. */
C2D_FORMULA size_t collide_pairs_run(const c2d_circle_soa *c, const c2d_capsule_soa *k,
                                     const uint32_t *ci, const uint32_t *ki, size_t pair_count,
                                     c2d_pair_contact *out, size_t capacity, bool filtered) {
    contact_sink o = {out, capacity, 0};
    const lane_t zero = lane_splat(0.0f);
    contact_lanes held = {zero, zero, zero, zero, zero}; /* read only when held_bits != 0 */
    uint32_t held_bits = 0;
    size_t held_p = 0;
    size_t p = 0;
    for (; p + W <= pair_count; p += W) {
        contact_lanes now = held; /* overwritten where bits != 0 */
        const uint32_t valid = filtered ? meet_pairs(c, k, ci + p, ki + p, W) : first_lanes(W);
        const uint32_t bits = pairs_compute(c, k, ci + p, ki + p, valid, &now);
        if (held_bits)
            sink_lanes(&o, held_bits, &held, lane_load_u32(ci + held_p),
                       lane_load_u32(ki + held_p));
        held = now;
        held_bits = bits;
        held_p = p;
    }
    if (held_bits)
        sink_lanes(&o, held_bits, &held, lane_load_u32(ci + held_p), lane_load_u32(ki + held_p));
    if (p < pair_count) { /* the last pairs, padded with copies of the first of them */
        const size_t lanes = pair_count - p;
        uint32_t ct[W], kt[W];
        for (size_t j = 0; j < W; j++) {
            ct[j] = ci[p + (j < lanes ? j : 0)];
            kt[j] = ki[p + (j < lanes ? j : 0)];
        }
        const uint32_t valid = filtered ? meet_pairs(c, k, ct, kt, lanes) : first_lanes(lanes);
        const uint32_t bits = pairs_compute(c, k, ct, kt, valid, &held);
        if (bits) sink_lanes(&o, bits, &held, lane_load_u32(ct), lane_load_u32(kt));
    }
    return o.total;
}

static size_t collide_pairs(const c2d_circle_soa *c, const c2d_capsule_soa *k, const uint32_t *ci,
                            const uint32_t *ki, size_t pair_count, c2d_pair_contact *out,
                            size_t capacity) {
    if (c2d_circle_soa_filtered(c) || c2d_capsule_soa_filtered(k))
        return collide_pairs_run(c, k, ci, ki, pair_count, out, capacity, true);
    return collide_pairs_run(c, k, ci, ki, pair_count, out, capacity, false);
}

/* The contacts of the ball grid's pairs take the AVX2 kernel in the AVX-512 table
 * (C2D_BALL_NARROW_TABLE; dispatch asks for AVX2 too before it picks AVX-512); the contacts are
 * the same bytes whatever the width. They gather both balls of every pair lane by lane, and 16
 * lanes of indices crowd the registers: the 16-lane kernel made the W6 pile at 262,144 balls
 * 0.90-0.92x as fast (Zen 5, 2026-11-27). The pair walk has its own 16-lane shape, a lane a ball
 * (kernels_ball_pairs.c), which also counts the pairs' groups (ball_pairs_sized). */
const c2d_kernels C2D_BACKEND_TABLE = {
    .collide = collide,
    .collide_pairs = collide_pairs,
    .sweep = C2D_KERNEL(C2D_BACKEND_TABLE, sweep),
    .sweep_pairs = C2D_KERNEL(C2D_BACKEND_TABLE, sweep_pairs),
    .collide_circles = C2D_BALL_KERNEL(C2D_BACKEND_TABLE, collide_circles),
    .sweep_circles = C2D_BALL_KERNEL(C2D_BACKEND_TABLE, sweep_circles),
    .ball_cell_pairs = C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_cell_pairs),
    .ball_pairs_sized = C2D_LANES == 16,
    .ball_pair_contacts = C2D_BALL_KERNEL(C2D_BALL_NARROW_TABLE, ball_pair_contacts),
    .ball_cell_sweeps = C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_cell_sweeps),
    .fine_cells = C2D_SCENE_FINE_CELLS,
    .fine_hits = C2D_SCENE_FINE_HITS,
    .ball_classify = C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_classify),
    .ball_bin = C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_bin),
    .ball_sweep_classify = C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_sweep_classify),
    .ball_sweep_bin = C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_sweep_bin)};

#if defined(C2D_MCA_CONTACT_LOOP)
/* Compiled only by scripts/mca, never into the library: the dense contact loop of a run of
 * listed pairs (one capsule, consecutive circles) as collide_pairs runs it, with every lane
 * hitting: the loads, the overlap test, the contact formula and the transposition into
 * records. The copies of the hit records to the output are left out of the model. */
void c2d_mca_contact_loop(const c2d_circle_soa *c, const c2d_capsule_soa *k, contact_records *out,
                          size_t n);
void c2d_mca_contact_loop(const c2d_circle_soa *c, const c2d_capsule_soa *k, contact_records *out,
                          size_t n) {
    const capsule_lanes cap = capsule_splat(k, 0);
    const lane_t kidx = lane_splat_u32(0);
    for (size_t i = 0; i + W <= n; i += W) {
        contact_lanes lanes;
        if (contacts_compute(lane_load(c->x + i), lane_load(c->y + i), lane_load(c->radius + i),
                             &cap, first_lanes(W), &lanes))
            contact_records_from(out, &lanes, lane_add_u32(lane_load_u32(lane_iota), i), kidx);
    }
}
#endif
