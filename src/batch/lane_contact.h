/* Contacts in lanes: the building block every contact kernel uses.
 *
 * Included after batch/lane_simd.h by sources that are compiled once per backend (kernels.c;
 * the scene and circle kernels may include it too). It builds W contacts at once with
 * src/core/contact_formula.h, the source the scalar layer builds its contacts with, and writes
 * the lanes that hit to a c2d_pair_contact output in lane order, counting every hit and
 * writing none past the capacity.
 *
 * Writing the hit lanes: the lane results are stored to small arrays and the hit lanes copied
 * out, either with a loop over the mask's set bits or (AVX-512) after compressing the hit lanes
 * to the front of each vector (vcompressps on registers; the memory form is microcoded and
 * slow on AMD Zen 4). docs/lanes.md has the measurements; C2D_EMIT_COMPRESS picks. */
#ifndef C2D_BATCH_LANE_CONTACT_H
#define C2D_BATCH_LANE_CONTACT_H

#include <stddef.h>
#include <stdint.h>

#include "batch/kernels.h"
#include "core/contact_formula.h"

/* 1: AVX-512 kernels compress the hit lanes; 0: every backend uses the bit loop. */
#ifndef C2D_EMIT_COMPRESS
#define C2D_EMIT_COMPRESS 0
#endif

/* A contact output: the first `capacity` contacts are written, `total` counts them all. */
typedef struct contact_sink {
    c2d_pair_contact *out;
    size_t capacity, total;
} contact_sink;

/* One capsule in every lane. */
typedef struct capsule_lanes {
    lane_t ax, ay, bx, by, R;
} capsule_lanes;

/* 0, 1, ..., W-1: lane j's offset, for outputs whose circle index is first + j. */
static const uint32_t lane_iota[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

static inline capsule_lanes capsule_splat(const c2d_capsule_soa *k, size_t j) {
    const capsule_lanes s = {lane_splat(k->ax[j]), lane_splat(k->ay[j]), lane_splat(k->bx[j]),
                             lane_splat(k->by[j]), lane_splat(k->radius[j])};
    return s;
}

/* Appends the lanes `bits` of `k` in lane order: lane j is the contact of circle
 * circle[j] + circle_add and capsule capsule[j] (both arrays have W entries). */
static inline void sink_lanes(contact_sink *s, uint32_t bits, const contact_lanes *k,
                              const uint32_t *circle, uint32_t circle_add,
                              const uint32_t *capsule) {
#if C2D_EMIT_COMPRESS && C2D_LANES == 16
    const simde__mmask16 m = (simde__mmask16)bits;
    float nx[16], ny[16], depth[16], px[16], py[16];
    uint32_t ci[16], ki[16];
    lane_store(nx, simde_mm512_maskz_compress_ps(m, k->nx));
    lane_store(ny, simde_mm512_maskz_compress_ps(m, k->ny));
    lane_store(depth, simde_mm512_maskz_compress_ps(m, k->depth));
    lane_store(px, simde_mm512_maskz_compress_ps(m, k->px));
    lane_store(py, simde_mm512_maskz_compress_ps(m, k->py));
    const simde__m512i cv = simde_mm512_add_epi32(simde_mm512_loadu_si512(circle),
                                                  simde_mm512_set1_epi32((int32_t)circle_add));
    simde_mm512_storeu_si512(ci, simde_mm512_maskz_compress_epi32(m, cv));
    simde_mm512_storeu_si512(ki,
                             simde_mm512_maskz_compress_epi32(m, simde_mm512_loadu_si512(capsule)));
    const size_t n = (size_t)__builtin_popcount(bits);
    size_t room = s->total < s->capacity ? s->capacity - s->total : 0;
    if (room > n) room = n;
    c2d_pair_contact *o = s->out + s->total;
    for (size_t j = 0; j < room; j++) {
        o[j].circle = ci[j];
        o[j].capsule = ki[j];
        o[j].contact.normal.x = nx[j];
        o[j].contact.normal.y = ny[j];
        o[j].contact.depth = depth[j];
        o[j].contact.point.x = px[j];
        o[j].contact.point.y = py[j];
    }
    s->total += n;
#else
    float nx[C2D_LANES], ny[C2D_LANES], depth[C2D_LANES], px[C2D_LANES], py[C2D_LANES];
    lane_store(nx, k->nx);
    lane_store(ny, k->ny);
    lane_store(depth, k->depth);
    lane_store(px, k->px);
    lane_store(py, k->py);
    size_t total = s->total;
    if (total <= s->capacity && s->capacity - total >= C2D_LANES) {
        /* room for every lane: no capacity test per contact */
        c2d_pair_contact *o = s->out + total;
        for (; bits; bits &= bits - 1, o++) {
            const unsigned j = (unsigned)__builtin_ctz(bits);
            o->circle = circle[j] + circle_add;
            o->capsule = capsule[j];
            o->contact.normal.x = nx[j];
            o->contact.normal.y = ny[j];
            o->contact.depth = depth[j];
            o->contact.point.x = px[j];
            o->contact.point.y = py[j];
        }
        s->total = (size_t)(o - s->out);
        return;
    }
    for (; bits; bits &= bits - 1, total++) {
        const unsigned j = (unsigned)__builtin_ctz(bits);
        if (total >= s->capacity) continue;
        c2d_pair_contact *o = s->out + total;
        o->circle = circle[j] + circle_add;
        o->capsule = capsule[j];
        o->contact.normal.x = nx[j];
        o->contact.normal.y = ny[j];
        o->contact.depth = depth[j];
        o->contact.point.x = px[j];
        o->contact.point.y = py[j];
    }
    s->total = total;
#endif
}

/* The exact overlap test of W circles (x, y, r) against a capsule in each lane and, if any lane
 * among `valid` hits, the contacts of the whole vector in *k. Returns the valid lanes that hit
 * (0: *k is not set). */
static inline uint32_t contacts_compute(lane_t x, lane_t y, lane_t r, const capsule_lanes *cap,
                                        uint32_t valid, contact_lanes *k) {
    lane_t cx, cy, qx, qy;
    const lane_t d2 = capsule_gap(x, y, cap->ax, cap->ay, cap->bx, cap->by, &cx, &cy, &qx, &qy);
    const mask_t hit = radii_overlap(d2, r, cap->R);
    if (!mask_any(hit)) return 0;
    const uint32_t bits = mask_bits(hit) & valid;
    if (bits)
        *k = contact_from_gap(r, cap->R, cap->ax, cap->ay, cap->bx, cap->by, cx, cy, qx, qy, d2);
    return bits;
}

/* contacts_compute, then the hit lanes appended: lane j is circle circle[j] + circle_add and
 * capsule capsule[j]. */
static inline void contacts_vector(contact_sink *s, lane_t x, lane_t y, lane_t r,
                                   const capsule_lanes *cap, uint32_t valid, const uint32_t *circle,
                                   uint32_t circle_add, const uint32_t *capsule) {
    contact_lanes k;
    const uint32_t bits = contacts_compute(x, y, r, cap, valid, &k);
    if (bits) sink_lanes(s, bits, &k, circle, circle_add, capsule);
}

#endif
