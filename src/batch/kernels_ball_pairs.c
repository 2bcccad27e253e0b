/* The ball grid's pairs, compiled once per backend with the other kernels: the pair walk
 * (kernel ball_cell_pairs) and the contacts of the pairs it lists (ball_pair_contacts, below).
 * The walk finds every pair of overlapping grid balls in neighbouring cells, as (min, max) of their
 * indices, in the walk's order (c2d_ball_half_walk in kernels_balls.h: the balls in cell order,
 * each against the rest of its cell and the cell east of it, then against the three cells of
 * the next row, partners in increasing sorted position).
 *
 * Two shapes of the same walk:
 * - a lane a partner (4 and 8 lanes): ball p's spans are tested a vector at a time;
 * - a lane a ball (16 lanes, AVX-512: batch/x86/ball_pairs_avx512.h): 16 consecutive balls of
 *   one row of cells are tested at once against their k-th partner, k = 1, 2, ... A pile's
 *   spans hold 1-4 balls, so a lane a partner leaves most of 16 lanes empty; a lane a ball fills
 *   them. Each ball's hits are then written with one compress, and the pairs come out in the
 *   same order.
 * The overlap test is the same float operations in both (radii_overlap of the all-pairs kernel
 * on the sorted copies, the visiting ball first), so the same pairs are found. */
#include <math.h>
#include <stddef.h>

#include "batch/ball_pair_walk.h"
#include "batch/lane_contact.h"

#if C2D_LANES <= 8

size_t C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_cell_pairs)(const c2d_ball_cells *cells,
                                                           c2d_ball_pair *pairs, size_t capacity) {
    return walk_by_partner(cells, pairs, capacity, false);
}

#else /* 16 lanes: a lane a ball */
#include "batch/x86/ball_pairs_avx512.h"
#endif

/* ---- the ball grid: contacts of listed pairs (kernel ball_pair_contacts) ------------------ */

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
