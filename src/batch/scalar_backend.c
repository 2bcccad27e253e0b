/* The scalar backend: the batch API as plain loops over the scalar reference layer, compiled
 * without auto-vectorisation (meson.build) so that it stays the true scalar baseline. */
#include "core/lane_scalar.h"
#include "core/segment_formula.h"

#include "batch/kernels.h"

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

static void sweep(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                  const c2d_capsule_soa *k, c2d_circle_toi *out) {
    c2d_clear_tois(out, c->count);
    for (size_t i = 0; i < c->count; i++) {
        for (size_t j = 0; j < k->count; j++) {
            c2d_toi toi;
            if (c2d_capsule_sweep(c->x[i], c->y[i], c->radius[i], move_x[i], move_y[i], k->ax[j],
                                  k->ay[j], k->bx[j], k->by[j], k->radius[j], &toi))
                c2d_keep_earliest(&out[i], (uint32_t)j, &toi);
        }
    }
}

const c2d_kernels c2d_kernels_scalar = {collide, collide_pairs, sweep};
