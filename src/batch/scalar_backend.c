/* The scalar backend: the batch API as plain loops over the scalar reference layer, compiled
 * without auto-vectorisation (meson.build) so that it stays the true scalar baseline. */
#include "core/lane_scalar.h"
#include "core/segment_formula.h"

#include "batch/kernels.h"
#include "batch/kernels_balls.h"

static size_t collide(const c2d_circle_soa *c, const c2d_capsule_soa *k, c2d_pair_contact *out,
                      size_t capacity) {
    size_t total = 0;
    for (size_t j = 0; j < k->count; j++) {
        const float ax = k->ax[j], ay = k->ay[j], bx = k->bx[j], by = k->by[j];
        const float R = k->radius[j];
        for (size_t i = 0; i < c->count; i++) {
            /* the boolean test inline, the contact only for the rare hits */
            if (!capsule_overlap(c->x[i], c->y[i], c->radius[i], ax, ay, bx, by, R)) continue;
            c2d_contact contact;
            if (c2d_capsule_contact(c->x[i], c->y[i], c->radius[i], ax, ay, bx, by, R, &contact))
                c2d_emit(out, capacity, &total, (uint32_t)i, (uint32_t)j, &contact);
        }
    }
    return total;
}

static size_t collide_pairs(const c2d_circle_soa *c, const c2d_capsule_soa *k, const uint32_t *ci,
                            const uint32_t *ki, size_t pair_count, c2d_pair_contact *out,
                            size_t capacity) {
    size_t total = 0;
    for (size_t p = 0; p < pair_count; p++) {
        const uint32_t i = ci[p], j = ki[p];
        c2d_contact contact;
        if (c2d_capsule_contact(c->x[i], c->y[i], c->radius[i], k->ax[j], k->ay[j], k->bx[j],
                                k->by[j], k->radius[j], &contact))
            c2d_emit(out, capacity, &total, i, j, &contact);
    }
    return total;
}

/* Circle i's sweep against capsule j, static (kmx NULL) or moving. */
static bool pair_sweep(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                       const c2d_capsule_soa *k, const float *kmx, const float *kmy, size_t i,
                       size_t j, c2d_toi *toi) {
    return kmx ? c2d_moving_capsule_sweep(c->x[i], c->y[i], c->radius[i], move_x[i], move_y[i],
                                          k->ax[j], k->ay[j], k->bx[j], k->by[j], k->radius[j],
                                          kmx[j], kmy[j], toi)
               : c2d_capsule_sweep(c->x[i], c->y[i], c->radius[i], move_x[i], move_y[i], k->ax[j],
                                   k->ay[j], k->bx[j], k->by[j], k->radius[j], toi);
}

static void sweep(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                  const c2d_capsule_soa *k, const float *kmx, const float *kmy,
                  c2d_circle_toi *out) {
    c2d_clear_tois(out, c->count);
    for (size_t i = 0; i < c->count; i++)
        for (size_t j = 0; j < k->count; j++) {
            c2d_toi toi;
            if (pair_sweep(c, move_x, move_y, k, kmx, kmy, i, j, &toi))
                c2d_keep_earliest(&out[i], (uint32_t)j, &toi);
        }
}

static void sweep_pairs(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                        const c2d_capsule_soa *k, const float *kmx, const float *kmy,
                        const uint32_t *ci, const uint32_t *ki, size_t pair_count, size_t base,
                        c2d_circle_toi *out, unsigned char *nan) {
    for (size_t p = 0; p < pair_count; p++) {
        const uint32_t i = ci[p], j = ki[p];
        c2d_toi toi;
        if (pair_sweep(c, move_x, move_y, k, kmx, kmy, i, j, &toi))
            c2d_keep_smallest(&out[i - base], &nan[i - base], j, &toi);
    }
}

/* Balls against balls: the overlap formula inline (b as a zero-length capsule: its closest
 * point is its centre), the contact for the hits. */
static size_t collide_circles(const c2d_circle_soa *c, size_t first, size_t end,
                              c2d_circle_pair_contact *out, size_t capacity, size_t total) {
    for (size_t a = first; a < end; a++) {
        const float xa = c->x[a], ya = c->y[a], ra = c->radius[a];
        if (!(ra >= 0.0f)) continue; /* NaN or negative: overlaps nothing */
        for (size_t b = a + 1; b < c->count; b++) {
            const float qx = xa - c->x[b], qy = ya - c->y[b];
            if (!radii_overlap(qx * qx + qy * qy, ra, c->radius[b])) continue;
            c2d_contact contact;
            if (c2d_ball_contact(c, a, b, &contact))
                c2d_emit_ball_pair(out, capacity, &total, (uint32_t)a, (uint32_t)b, &contact);
        }
    }
    return total;
}

static void sweep_circles(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                          size_t first, size_t end, c2d_circle_hit *out) {
    for (size_t i = first; i < end; i++) {
        out[i] = c2d_no_ball_hit();
        for (size_t j = 0; j < c->count; j++) {
            c2d_toi toi;
            if (j != i && c2d_ball_sweep(c, move_x, move_y, i, j, &toi))
                c2d_keep_earliest_ball(&out[i], (uint32_t)j, &toi);
        }
    }
}

const c2d_kernels c2d_kernels_scalar = {collide,     collide_pairs,   sweep,
                                        sweep_pairs, collide_circles, sweep_circles};
