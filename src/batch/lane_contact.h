/* Contacts in lanes: the building block every contact kernel uses.
 *
 * Included after batch/lane_simd.h by sources that are compiled once per backend (kernels.c;
 * the scene and circle kernels may include it too). It builds W contacts at once with
 * src/core/contact_formula.h, the source the scalar layer builds its contacts with, and writes
 * the lanes that hit to a c2d_pair_contact output in lane order, counting every hit and
 * writing none past the capacity.
 *
 * Writing the hit lanes: the lane results are transposed into records in a small array and the
 * hit lanes copied out with a loop over the mask's set bits. That measured faster than AVX-512
 * compression of the hit lanes (docs/lanes.md). */
#ifndef C2D_BATCH_LANE_CONTACT_H
#define C2D_BATCH_LANE_CONTACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "batch/kernels.h"
#include "core/contact_formula.h"

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

C2D_FORMULA capsule_lanes capsule_splat(const c2d_capsule_soa *k, size_t j) {
    const capsule_lanes s = {lane_splat(k->ax[j]), lane_splat(k->ay[j]), lane_splat(k->bx[j]),
                             lane_splat(k->by[j]), lane_splat(k->radius[j])};
    return s;
}

/* Lane contacts as records: record 4b+m (lane 4b+m) is head[m][4b..4b+3] = (circle, capsule,
 * nx, ny) and tail[m][4b..4b+3] = (ny, depth, px, py). Four unpacks and four 64-bit unpacks per
 * group of four fields transpose every 128-bit block at once. */
typedef struct contact_records {
    float head[4][C2D_LANES], tail[4][C2D_LANES];
} contact_records;

C2D_FORMULA void contact_records_from(contact_records *rec, const contact_lanes *k, lane_t circle,
                                      lane_t capsule) {
    const lane_t ck_lo = lane_unpacklo(circle, capsule), ck_hi = lane_unpackhi(circle, capsule);
    const lane_t n_lo = lane_unpacklo(k->nx, k->ny), n_hi = lane_unpackhi(k->nx, k->ny);
    lane_store(rec->head[0], lane_unpacklo64(ck_lo, n_lo));
    lane_store(rec->head[1], lane_unpackhi64(ck_lo, n_lo));
    lane_store(rec->head[2], lane_unpacklo64(ck_hi, n_hi));
    lane_store(rec->head[3], lane_unpackhi64(ck_hi, n_hi));
    const lane_t yd_lo = lane_unpacklo(k->ny, k->depth), yd_hi = lane_unpackhi(k->ny, k->depth);
    const lane_t p_lo = lane_unpacklo(k->px, k->py), p_hi = lane_unpackhi(k->px, k->py);
    lane_store(rec->tail[0], lane_unpacklo64(yd_lo, p_lo));
    lane_store(rec->tail[1], lane_unpackhi64(yd_lo, p_lo));
    lane_store(rec->tail[2], lane_unpacklo64(yd_hi, p_hi));
    lane_store(rec->tail[3], lane_unpackhi64(yd_hi, p_hi));
}

/* Appends the lanes `bits` of `k` in lane order, lane j as the contact of circle circle[j] and
 * capsule capsule[j] (index lanes: the bits of W uint32_t, see lane_load_u32). Each hit is two
 * 16-byte copies of its record, the second 12 bytes on: exactly the 28 bytes of its
 * c2d_pair_contact (never a byte past it), where seven 4-byte copies measured slower. */
C2D_FORMULA void sink_lanes(contact_sink *s, uint32_t bits, const contact_lanes *k, lane_t circle,
                            lane_t capsule) {
    contact_records rec;
    contact_records_from(&rec, k, circle, capsule);
    size_t total = s->total;
    const bool room = total <= s->capacity && s->capacity - total >= C2D_LANES;
    for (; bits; bits &= bits - 1, total++) {
        const unsigned j = (unsigned)__builtin_ctz(bits);
        if (!room && total >= s->capacity) continue; /* counted, not written */
        unsigned char *o = (unsigned char *)(s->out + total);
        memcpy(o, &rec.head[j & 3][j & ~3u], 16);
        memcpy(o + 12, &rec.tail[j & 3][j & ~3u], 16);
    }
    s->total = total;
}

/* The exact overlap test of W circles (x, y, r) against a capsule in each lane and, if any lane
 * among `valid` hits, the contacts of the whole vector in *k. Returns the valid lanes that hit
 * (0: *k is not set). */
C2D_FORMULA uint32_t contacts_compute(lane_t x, lane_t y, lane_t r, const capsule_lanes *cap,
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

/* contacts_compute, then the hit lanes appended (index lanes as in sink_lanes). */
C2D_FORMULA void contacts_vector(contact_sink *s, lane_t x, lane_t y, lane_t r,
                                 const capsule_lanes *cap, uint32_t valid, lane_t circle,
                                 lane_t capsule) {
    contact_lanes k;
    const uint32_t bits = contacts_compute(x, y, r, cap, valid, &k);
    if (bits) sink_lanes(s, bits, &k, circle, capsule);
}

#endif
