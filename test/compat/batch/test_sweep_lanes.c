/* Sweeps in lanes: c2d_batch_sweep on every available backend, byte for byte against the
 * scalar c2d_sweep_circle_capsule(), on scenes where (nearly) every circle-capsule pair passes
 * the kernels' box test, so the candidate queue fills whole vectors of degenerate pairs:
 * zero-length capsules, centres on the axis or on an end, coincident circles, parallel and
 * zero moves, subnormal, huge, NaN and infinite values, negative radii, at every count of
 * circles and capsules up to past two vectors of 16 lanes.
 *
 * The scalar sweep itself is checked against a copy of its former branching form (one feature
 * at a time, early returns): the lane form of src/core/sweep_formula.h must give the same
 * bytes, hit and miss, time, normal and point. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "batch_check.h"
#include "core/lane_scalar.h"
#include "core/contact_formula.h"

static uint32_t below(c2d_rng *rng, uint32_t n) {
    return (uint32_t)(c2d_rng_next(rng) % n);
}

/* ---- the branching form of the capsule sweep ------------------------------------------- */

typedef struct old_best {
    int feature; /* 0 none, 1 side, 2 end a, 3 end b */
    float t, side;
} old_best;

static void old_keep(old_best *b, int feature, double t, float side) {
    const float tf = (float)t;
    if (!b->feature || tf < b->t) {
        b->feature = feature;
        b->t = tf;
        b->side = side;
    }
}

static bool old_circles(double sx, double sy, double vx, double vy, double w, double lim, double rs,
                        double *t) {
    const double c = (sx * sx + sy * sy) - rs * rs;
    if (c <= 0.0) {
        *t = 0.0;
        return true;
    }
    const double b = vx * sx + vy * sy;
    if (!(b < 0.0)) return false;
    if (!(fabs(w) <= lim)) return false;
    const double disc = lim * lim - w * w;
    const double root = c / (-b + sqrt(disc > 0.0 ? disc : 0.0));
    if (!(root <= 1.0)) return false;
    *t = root;
    return true;
}

static void old_features(float px, float py, float r, float mx, float my, float ax, float ay,
                         float bx, float by, float R, old_best *best);

/* The scalar sweep's rules written with branches (query.h). */
static bool old_sweep(float px, float py, float r, float mx, float my, float ax, float ay, float bx,
                      float by, float R, c2d_toi *out) {
    if (!(r >= 0.0f && R >= 0.0f)) return false;
    float anx, any;
    axis_normal(ax, ay, bx, by, &anx, &any);
    float cx, cy, qx, qy;
    const float d2 = capsule_gap(px, py, ax, ay, bx, by, &cx, &cy, &qx, &qy);
    if (d2 != d2 || mx != mx || my != my) return false;
    old_best best = {0, 0.0f, 0.0f};
    if (!radii_overlap(d2, r, R)) old_features(px, py, r, mx, my, ax, ay, bx, by, R, &best);
    if (radii_overlap(d2, r, R) || (best.feature && best.t == 0.0f)) {
        /* in contact at the start: a hit only when moving deeper along the contact's normal,
         * the direction from the closest axis point computed in double */
        const double dx = (double)bx - ax, dy = (double)by - ay;
        const double fx = (double)px - ax, fy = (double)py - ay;
        double u = (fx * dx + fy * dy) / (dx * dx + dy * dy);
        u = u != u || u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
        const double ox = fx - u * dx, oy = fy - u * dy, len = sqrt(ox * ox + oy * oy);
        float nx = (float)(ox / len), ny = (float)(oy / len);
        if (!(nx * nx + ny * ny > 0.5f)) nx = anx, ny = any;
        if (!((double)mx * nx + (double)my * ny < 0.0)) return false;
        *out = (c2d_toi){0.0f, {nx, ny}, {cx + nx * R, cy + ny * R}};
        return true;
    }
    if (!best.feature) return false;
    const float tf = best.t;
    const float ex = px + tf * mx, ey = py + tf * my;
    float nx, ny, ox, oy;
    if (best.feature == 1) {
        nx = best.side * anx;
        ny = best.side * any;
        segment_closest(ex, ey, ax, ay, bx, by, &ox, &oy);
    } else {
        ox = best.feature == 2 ? ax : bx;
        oy = best.feature == 2 ? ay : by;
        unit_or(ex - ox, ey - oy, anx, any, &nx, &ny);
    }
    *out = (c2d_toi){tf, {nx, ny}, {ox + nx * R, oy + ny * R}};
    return true;
}

/* The earliest feature touched, in double, ties to the side, then end a, then end b. */
static void old_features(float px, float py, float r, float mx, float my, float ax, float ay,
                         float bx, float by, float R, old_best *best) {
    const double fpx = (double)px - ax, fpy = (double)py - ay;
    const double fqx = (double)px - bx, fqy = (double)py - by;
    const double dx = (double)bx - ax, dy = (double)by - ay;
    const double len = sqrt(dx * dx + dy * dy);
    const double rs = (double)r + R;
    const double lim = rs * sqrt((double)mx * mx + (double)my * my);
    const double wa = mx * fpy - my * fpx, wb = mx * fqy - my * fqx;
    if (len > 0.0) {
        const double H = dx * fpy - dy * fpx, V = dx * my - dy * mx;
        const double sigma = H >= 0.0 ? 1.0 : -1.0;
        const double hs = sigma * H, vs = sigma * V;
        if (vs < 0.0) {
            const double gap = hs - rs * len;
            if (!(gap > 0.0)) {
                if (dx * fpx + dy * fpy >= 0.0 && dx * fqx + dy * fqy <= 0.0)
                    old_keep(best, 1, 0.0, (float)sigma);
            } else {
                const double t = gap / -vs;
                double along = rs * ((mx * dx + my * dy) / len);
                along = along < lim ? along : lim;
                along = along > -lim ? along : -lim;
                if (t <= 1.0 && sigma * wa >= along && sigma * wb <= along) {
                    const double ex = fpx + t * mx, ey = fpy + t * my;
                    const double at = (ex * dx + ey * dy) / len, slack = rs * 0.03125;
                    if (at >= -slack && at <= len + slack) old_keep(best, 1, t, (float)sigma);
                }
            }
        }
    }
    double t;
    if (old_circles(fpx, fpy, mx, my, wa, lim, rs, &t)) old_keep(best, 2, t, 0.0f);
    if (old_circles(fqx, fqy, mx, my, wb, lim, rs, &t)) old_keep(best, 3, t, 0.0f);
}

/* ---- dense degenerate scenes ------------------------------------------------------------ */

/* A value of the scene's scale, or now and then a special one (NaN, inf, subnormal, huge). */
static float scaled(c2d_rng *rng, float v, float scale, unsigned special_percent) {
    if (below(rng, 100) < special_percent) return special_value(rng, below(rng, 2) == 0);
    return v * scale;
}

/* m capsules around the origin and n circles against them (circle i against capsule i % m),
 * everything times `scale`; special_percent % of the values replaced by special ones. */
static void fill_degenerate(scene *s, c2d_rng *rng, float scale, unsigned special_percent) {
    for (size_t j = 0; j < s->m; j++) {
        const float ax = c2d_rng_range(rng, -2.0f, 2.0f), ay = c2d_rng_range(rng, -2.0f, 2.0f);
        float bx = ax + c2d_rng_range(rng, -3.0f, 3.0f), by = ay + c2d_rng_range(rng, -3.0f, 3.0f);
        switch (below(rng, 5)) {
        case 0:
            bx = ax, by = ay;
            break; /* zero length */
        case 1:
            by = ay;
            break; /* axis-aligned */
        case 2:
            bx = ax;
            break;
        default:
            break;
        }
        s->ax[j] = scaled(rng, ax, scale, special_percent);
        s->ay[j] = scaled(rng, ay, scale, special_percent);
        s->bx[j] = scaled(rng, bx, scale, special_percent);
        s->by[j] = scaled(rng, by, scale, special_percent);
        const unsigned rk = below(rng, 8);
        s->R[j] = rk == 0 ? 0.0f : rk == 1 ? -0.5f * scale : c2d_rng_range(rng, 0.0f, 1.0f) * scale;
    }
    for (size_t i = 0; i < s->n; i++) {
        const size_t j = i % s->m;
        const float ax = s->ax[j], ay = s->ay[j], bx = s->bx[j], by = s->by[j];
        float x, y;
        switch (below(rng, 7)) {
        case 0:
            x = ax, y = ay;
            break; /* on end a */
        case 1:
            x = bx, y = by;
            break; /* on end b */
        case 2:
            x = ax + 0.5f * (bx - ax), y = ay + 0.5f * (by - ay);
            break; /* on the axis */
        case 3:    /* on the axis line, beyond an end */
            x = ax + 1.5f * (bx - ax), y = ay + 1.5f * (by - ay);
            break;
        case 4: /* coincident with the previous circle */
            x = i ? s->x[i - 1] : ax, y = i ? s->y[i - 1] : ay;
            break;
        default:
            x = c2d_rng_range(rng, -6.0f, 6.0f) * scale,
            y = c2d_rng_range(rng, -6.0f, 6.0f) * scale;
            break;
        }
        s->x[i] = below(rng, 100) < special_percent ? special_value(rng, false) : x;
        s->y[i] = below(rng, 100) < special_percent ? special_value(rng, false) : y;
        const unsigned rk = below(rng, 8);
        s->r[i] = rk == 0 ? 0.0f : rk == 1 ? -1.0f : c2d_rng_range(rng, 0.0f, 1.5f) * scale;
        float mx = c2d_rng_range(rng, -8.0f, 8.0f), my = c2d_rng_range(rng, -8.0f, 8.0f);
        switch (below(rng, 5)) {
        case 0:
            mx = 0.0f, my = 0.0f;
            break; /* not moving */
        case 1:    /* along the axis (toward b), parallel to the sides */
            mx = (bx - ax) / (scale > 0.0f ? scale : 1.0f),
            my = (by - ay) / (scale > 0.0f ? scale : 1.0f);
            break;
        case 2:
            mx = -x / scale, my = -y / scale;
            break; /* toward the origin */
        default:
            break;
        }
        s->mx[i] = scaled(rng, mx, scale, special_percent);
        s->my[i] = scaled(rng, my, scale, special_percent);
    }
}

static const float scales[] = {1.0f, 1e-3f, 1e-36f, 1e-41f /* subnormal */, 1e4f, 1e18f, 1e30f};
enum { SCALES = sizeof scales / sizeof scales[0] };

/* Every count of circles 1..35 against 1, 2 and 3 capsules, at every scale: the queue flushes
 * with every number of pairs, and the circle vectors have every tail. */
static void lanes_every_count(void **state) {
    (void)state;
    for (size_t k = 0; k < SCALES; k++)
        for (size_t m = 1; m <= 3; m++)
            for (size_t n = 1; n <= 35; n++) {
                c2d_rng rng = {0x5eed1a9e + 1000 * k + 100 * m + n};
                scene s;
                scene_init(&s, n, m, n % 2 ? LAYOUT_GUARDED : LAYOUT_OFFSET);
                fill_degenerate(&s, &rng, scales[k], n % 3 == 0 ? 10 : 0);
                char label[96];
                snprintf(label, sizeof label, "degenerate, scale %g, %zu circles, %zu capsules",
                         (double)scales[k], n, m);
                check_sweep(&s, label);
                scene_free(&s);
            }
}

/* Larger dense scenes: many full vectors, with and without special values. */
static void lanes_dense(void **state) {
    (void)state;
    for (size_t k = 0; k < SCALES; k++)
        for (unsigned special = 0; special <= 20; special += 5) {
            c2d_rng rng = {0xde5e + 100 * k + special};
            scene s;
            scene_init(&s, 300, 7, LAYOUT_ALIGNED);
            fill_degenerate(&s, &rng, scales[k], special);
            char label[96];
            snprintf(label, sizeof label, "dense degenerate, scale %g, %u%% special",
                     (double)scales[k], special);
            check_sweep(&s, label);
            scene_free(&s);
        }
}

/* Equal capsules: capsules m..2m-1 repeat 0..m-1, so every hit ties and goes to the lower
 * index, also when the tied pairs of a circle fall into different vectors of the queue. */
static void lanes_tied_capsules(void **state) {
    (void)state;
    for (size_t m = 1; m <= 3; m++)
        for (size_t n = 1; n <= 35; n += 2) {
            c2d_rng rng = {0x71ed + 100 * m + n};
            scene s;
            scene_init(&s, n, 2 * m, LAYOUT_OFFSET);
            fill_degenerate(&s, &rng, 1.0f, 0);
            for (size_t j = 0; j < m; j++) {
                s.ax[m + j] = s.ax[j];
                s.ay[m + j] = s.ay[j];
                s.bx[m + j] = s.bx[j];
                s.by[m + j] = s.by[j];
                s.R[m + j] = s.R[j];
            }
            c2d_circle_toi *ref = xmalloc(n * sizeof *ref);
            ref_sweep(&s, ref);
            for (size_t i = 0; i < n; i++)
                assert_true(ref[i].capsule == C2D_NONE || ref[i].capsule < m);
            free(ref);
            char label[96];
            snprintf(label, sizeof label, "tied capsules, %zu circles, %zu + %zu capsules", n, m,
                     m);
            check_sweep(&s, label);
            scene_free(&s);
        }
}

/* The scalar sweep gives the bytes of its branching form on every pair of those scenes, and of
 * random near-touching ones. */
static bool same_bits(float a, float b) {
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check_pair_against_old(const scene *s, size_t i, size_t j, size_t *hits) {
    const c2d_circle c = {{s->x[i], s->y[i]}, s->r[i]};
    const c2d_capsule k = {{s->ax[j], s->ay[j]}, {s->bx[j], s->by[j]}, s->R[j]};
    const c2d_vec2 m = {s->mx[i], s->my[i]};
    c2d_toi now, old;
    memset(&now, 0, sizeof now);
    memset(&old, 0, sizeof old);
    const bool hit_now = c2d_sweep_circle_capsule(c, m, k, &now);
    const bool hit_old = old_sweep(c.center.x, c.center.y, c.radius, m.x, m.y, k.a.x, k.a.y, k.b.x,
                                   k.b.y, k.radius, &old);
    const bool same = hit_now == hit_old && same_bits(now.t, old.t) &&
                      same_bits(now.normal.x, old.normal.x) &&
                      same_bits(now.normal.y, old.normal.y) &&
                      same_bits(now.point.x, old.point.x) && same_bits(now.point.y, old.point.y);
    if (!same) {
        printf("# scalar sweep differs from its branching form (hit %d vs %d, t %a vs %a)\n",
               hit_now, hit_old, (double)now.t, (double)old.t);
        print_circle(s, i, true);
        print_capsule(s, j);
    }
    assert_true(same);
    *hits += hit_now;
}

static void scalar_matches_branching_form(void **state) {
    (void)state;
    size_t hits = 0, pairs = 0;
    for (size_t k = 0; k < SCALES; k++)
        for (unsigned special = 0; special <= 20; special += 10) {
            c2d_rng rng = {0xb7a9c + 100 * k + special};
            scene s;
            scene_init(&s, 400, 9, LAYOUT_ALIGNED);
            fill_degenerate(&s, &rng, scales[k], special);
            for (size_t i = 0; i < s.n; i++)
                for (size_t j = 0; j < s.m; j++, pairs++)
                    check_pair_against_old(&s, i, j, &hits);
            scene_free(&s);
        }
    for (unsigned seed = 0; seed < 6; seed++) {
        c2d_rng rng = {0x6a2e + seed};
        scene s;
        grazing_scene(&s, 500, 10, LAYOUT_ALIGNED, &rng, seed % 2 ? 1e5f : 0.0f, 0.0f,
                      seed < 3 ? 1.0f : 1e-3f);
        for (size_t i = 0; i < s.n; i++)
            for (size_t j = 0; j < s.m; j++, pairs++)
                check_pair_against_old(&s, i, j, &hits);
        scene_free(&s);
    }
    /* the scenes hit often and miss often */
    assert_true(hits > pairs / 10 && hits < pairs - pairs / 10);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scalar_matches_branching_form),
        cmocka_unit_test(lanes_every_count),
        cmocka_unit_test(lanes_dense),
        cmocka_unit_test(lanes_tied_capsules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
