/* The scalar backend: the batch API as plain loops over the scalar reference layer, compiled
 * without auto-vectorisation (meson.build) so that it stays the true scalar baseline. */
#include "core/lane_scalar.h"
#include "core/contact_formula.h"
#include "core/filter_words.h"

#include "batch/cull.h"
#include "batch/ball_cull.h"
#include "batch/kernels.h"
#include "batch/kernels_balls.h"
#include "core/ball_bin_formula.h"

/* True when the call's sets carry filters or sensors (collide2d/filter.h): then each pair the
 * cheap tests keep is checked with c2d_circle_meets_capsule() before its exact answer. Each
 * loop below is written once with a `filter` flag and run by two instances, with the flag a
 * constant, so the loop without filters is the one from before filters existed. */
static bool filtered(const c2d_circle_soa *c, const c2d_capsule_soa *k) {
    return c2d_circle_soa_filtered(c) || c2d_capsule_soa_filtered(k);
}

C2D_FORMULA size_t collide_run(const c2d_circle_soa *c, const c2d_capsule_soa *k,
                               c2d_pair_contact *out, size_t capacity, bool filter) {
    size_t total = 0;
    for (size_t j = 0; j < k->count; j++) {
        const float ax = k->ax[j], ay = k->ay[j], bx = k->bx[j], by = k->by[j];
        const float R = k->radius[j];
        for (size_t i = 0; i < c->count; i++) {
            /* the boolean test inline, the contact only for the rare hits */
            if (!capsule_overlap(c->x[i], c->y[i], c->radius[i], ax, ay, bx, by, R)) continue;
            if (filter && !c2d_circle_meets_capsule(c, i, k, j)) continue;
            c2d_contact contact;
            if (c2d_capsule_contact(c->x[i], c->y[i], c->radius[i], ax, ay, bx, by, R, &contact))
                c2d_emit(out, capacity, &total, (uint32_t)i, (uint32_t)j, &contact);
        }
    }
    return total;
}

static size_t collide(const c2d_circle_soa *c, const c2d_capsule_soa *k, c2d_pair_contact *out,
                      size_t capacity) {
    return filtered(c, k) ? collide_run(c, k, out, capacity, true)
                          : collide_run(c, k, out, capacity, false);
}

C2D_FORMULA size_t collide_pairs_run(const c2d_circle_soa *c, const c2d_capsule_soa *k,
                                     const uint32_t *ci, const uint32_t *ki, size_t pair_count,
                                     c2d_pair_contact *out, size_t capacity, bool filter) {
    size_t total = 0;
    for (size_t p = 0; p < pair_count; p++) {
        const uint32_t i = ci[p], j = ki[p];
        if (filter && !c2d_circle_meets_capsule(c, i, k, j)) continue;
        c2d_contact contact;
        if (c2d_capsule_contact(c->x[i], c->y[i], c->radius[i], k->ax[j], k->ay[j], k->bx[j],
                                k->by[j], k->radius[j], &contact))
            c2d_emit(out, capacity, &total, i, j, &contact);
    }
    return total;
}

static size_t collide_pairs(const c2d_circle_soa *c, const c2d_capsule_soa *k, const uint32_t *ci,
                            const uint32_t *ki, size_t pair_count, c2d_pair_contact *out,
                            size_t capacity) {
    return filtered(c, k) ? collide_pairs_run(c, k, ci, ki, pair_count, out, capacity, true)
                          : collide_pairs_run(c, k, ci, ki, pair_count, out, capacity, false);
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
    if (filtered(c, k)) {
        for (size_t i = 0; i < c->count; i++)
            for (size_t j = 0; j < k->count; j++) {
                c2d_toi toi;
                if (c2d_circle_meets_capsule(c, i, k, j) &&
                    pair_sweep(c, move_x, move_y, k, kmx, kmy, i, j, &toi))
                    c2d_keep_earliest(&out[i], (uint32_t)j, &toi);
            }
        return;
    }
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
C2D_FORMULA size_t collide_rows(const c2d_circle_soa *c, size_t first, size_t end,
                                c2d_circle_pair_contact *out, size_t capacity, size_t total,
                                bool filtered) {
    for (size_t a = first; a < end; a++) {
        const float xa = c->x[a], ya = c->y[a], ra = c->radius[a];
        if (!(ra >= 0.0f)) continue; /* NaN or negative: overlaps nothing */
        for (size_t b = a + 1; b < c->count; b++) {
            const float qx = xa - c->x[b], qy = ya - c->y[b];
            if (!radii_overlap(qx * qx + qy * qy, ra, c->radius[b])) continue;
            if (filtered && !c2d_circles_meet(c, a, b)) continue;
            c2d_contact contact;
            if (c2d_ball_contact(c, a, b, &contact))
                c2d_emit_ball_pair(out, capacity, &total, (uint32_t)a, (uint32_t)b, &contact);
        }
    }
    return total;
}

/* With a filter (collide2d/filter.h): the refused pairs are left out after the overlap test. */
C2D_COLD size_t collide_rows_filtered(const c2d_circle_soa *c, size_t first, size_t end,
                                      c2d_circle_pair_contact *out, size_t capacity, size_t total) {
    return collide_rows(c, first, end, out, capacity, total, true);
}

static size_t collide_circles(const c2d_circle_soa *c, size_t first, size_t end,
                              c2d_circle_pair_contact *out, size_t capacity, size_t total) {
    if (c2d_circle_soa_filtered(c))
        return collide_rows_filtered(c, first, end, out, capacity, total);
    return collide_rows(c, first, end, out, capacity, total, false);
}

/* The rows [first, end) of sweep_circles; with `filtered` (a constant in both callers), only
 * the pairs the filter allows. */
C2D_FORMULA void sweep_rows(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                            size_t first, size_t end, c2d_circle_hit *out, bool filtered) {
    for (size_t i = first; i < end; i++) {
        out[i] = c2d_no_ball_hit();
        for (size_t j = 0; j < c->count; j++) {
            c2d_toi toi;
            if (j != i && (!filtered || c2d_circles_meet(c, i, j)) &&
                c2d_ball_sweep(c, move_x, move_y, i, j, &toi))
                c2d_keep_earliest_ball(&out[i], (uint32_t)j, &toi);
        }
    }
}

C2D_COLD void sweep_rows_filtered(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                                  size_t first, size_t end, c2d_circle_hit *out) {
    sweep_rows(c, move_x, move_y, first, end, out, true);
}

static void sweep_circles(const c2d_circle_soa *c, const float *move_x, const float *move_y,
                          size_t first, size_t end, c2d_circle_hit *out) {
    if (c2d_circle_soa_filtered(c))
        sweep_rows_filtered(c, move_x, move_y, first, end, out);
    else
        sweep_rows(c, move_x, move_y, first, end, out, false);
}

/* The ball grid's span test: ball p against entries [lo, hi), one at a time. */
C2D_FORMULA void span_pairs(void *ctx, size_t p, size_t lo, size_t hi) {
    c2d_pair_walk *w = ctx;
    const c2d_ball_cells *g = w->g;
    const float x = g->x[p], y = g->y[p], r = g->r[p];
    for (size_t q = lo; q < hi; q++) {
        const float qx = x - g->x[q], qy = y - g->y[q];
        if (radii_overlap(qx * qx + qy * qy, r, g->r[q]))
            w->count = c2d_add_ball_pair(w->pairs, w->capacity, w->count, g->id[p], g->id[q]);
    }
}

static size_t ball_cell_pairs(const c2d_ball_cells *g, c2d_ball_pair *pairs, size_t capacity) {
    c2d_pair_walk w = {g, pairs, capacity, 0};
    c2d_ball_half_walk(g->start, g->nx, g->ny, &w, span_pairs);
    return w.count;
}

static size_t ball_pair_contacts(const c2d_circle_soa *c, const c2d_ball_pair *pairs, size_t count,
                                 c2d_circle_pair_contact *out, size_t capacity, size_t total) {
    for (size_t k = 0; k < count; k++) {
        c2d_contact contact;
        if (c2d_ball_contact(c, pairs[k].a, pairs[k].b, &contact))
            c2d_emit_ball_pair(out, capacity, &total, pairs[k].a, pairs[k].b, &contact);
    }
    return total;
}

/* The sweep's span: ball p against entries [lo, hi), one at a time; pairs the relative-path
 * test (batch/ball_cull.h) keeps, and with `filtered` the filter allows, get the exact sweep
 * both ways. */
C2D_FORMULA void span_sweeps_of(void *ctx, size_t p, size_t lo, size_t hi, bool filtered) {
    const c2d_sweep_walk *w = ctx;
    const c2d_ball_sweep_cells *g = w->g;
    const float x = g->x[p], y = g->y[p], size = fabsf(x) + fabsf(y);
    for (size_t q = lo; q < hi; q++)
        if (ball_path_near(x, y, g->r[p], g->mx[p], g->my[p], size, g->x[q], g->y[q], g->r[q],
                           g->mx[q], g->my[q]) &&
            (!filtered || c2d_circles_meet(w->c, g->id[p], g->id[q]))) {
            c2d_ball_sweep_into(w->c, w->mx, w->my, g->id[p], g->id[q], w->out, g->state);
            c2d_ball_sweep_into(w->c, w->mx, w->my, g->id[q], g->id[p], w->out, g->state);
        }
}

C2D_FORMULA void span_sweeps(void *ctx, size_t p, size_t lo, size_t hi) {
    span_sweeps_of(ctx, p, lo, hi, false);
}

C2D_FORMULA void span_sweeps_filtered(void *ctx, size_t p, size_t lo, size_t hi) {
    span_sweeps_of(ctx, p, lo, hi, true);
}

static void ball_cell_sweeps(const c2d_ball_sweep_cells *g, const c2d_circle_soa *c,
                             const float *mx, const float *my, c2d_circle_hit *out) {
    c2d_sweep_walk w = {g, c, mx, my, out};
    if (c2d_circle_soa_filtered(c))
        c2d_ball_half_walk(g->start, g->nx, g->ny, &w, span_sweeps_filtered);
    else
        c2d_ball_half_walk(g->start, g->nx, g->ny, &w, span_sweeps);
}

/* The ball grid's binning, a ball at a time. */
static void ball_classify(const c2d_circle_soa *c, uint32_t *cell_of, float box[5]) {
    box[0] = box[2] = INFINITY;
    box[1] = box[3] = -INFINITY;
    box[4] = 0.0f;
    for (size_t i = 0; i < c->count; i++) {
        cell_of[i] = c2d_ball_kind(c->x[i], c->y[i], c->radius[i]);
        if (cell_of[i] == C2D_BALL_GRID) c2d_ball_box_add(box, c->x[i], c->y[i], c->radius[i]);
    }
}

static void ball_bin(const c2d_circle_soa *c, const c2d_ball_bins *bins, uint32_t *cell_of,
                     uint32_t *count) {
    for (size_t i = 0; i < c->count; i++) {
        if (cell_of[i] != C2D_BALL_GRID) continue;
        cell_of[i] = c2d_ball_bin_one(bins, c->x[i], c->y[i], c->radius[i]);
        if (cell_of[i] != C2D_BALL_SPECIAL) count[cell_of[i] + 2]++;
    }
}

static void ball_sweep_classify(const c2d_circle_soa *c, const float *mx, const float *my,
                                uint32_t *cell_of, float box[5]) {
    box[0] = box[2] = INFINITY;
    box[1] = box[3] = -INFINITY;
    box[4] = 0.0f;
    for (size_t i = 0; i < c->count; i++) {
        cell_of[i] = c2d_ball_sweep_kind(c->x[i], c->y[i], c->radius[i], mx[i], my[i]);
        if (cell_of[i] < C2D_BALL_SPECIAL) {
            float size;
            memcpy(&size, &cell_of[i], sizeof size);
            c2d_ball_box_add(box, ball_sweep_centre_of(c->x[i], mx[i]),
                             ball_sweep_centre_of(c->y[i], my[i]), size);
        }
    }
}

static void ball_sweep_bin(const c2d_circle_soa *c, const float *mx, const float *my,
                           const c2d_ball_bins *bins, uint32_t *cell_of, uint32_t *count) {
    for (size_t i = 0; i < c->count; i++) {
        if (cell_of[i] >= C2D_BALL_SPECIAL) continue;
        cell_of[i] = c2d_ball_sweep_bin_one(bins, c->x[i], c->y[i], mx[i], my[i], cell_of[i]);
        if (cell_of[i] != C2D_BALL_SPECIAL) count[cell_of[i] + 2]++;
    }
}

const c2d_kernels c2d_kernels_scalar = {.collide = collide,
                                        .collide_pairs = collide_pairs,
                                        .sweep = sweep,
                                        .sweep_pairs = sweep_pairs,
                                        .collide_circles = collide_circles,
                                        .sweep_circles = sweep_circles,
                                        .ball_cell_pairs = ball_cell_pairs,
                                        .ball_pair_contacts = ball_pair_contacts,
                                        .ball_cell_sweeps = ball_cell_sweeps,
                                        .fine_cells = NULL, /* the scan's shared path */
                                        .fine_hits = NULL,
                                        .ball_classify = ball_classify,
                                        .ball_bin = ball_bin,
                                        .ball_sweep_classify = ball_sweep_classify,
                                        .ball_sweep_bin = ball_sweep_bin};
