/* The ray casts' scalar loop (collide2d/search.h, with the filter rule) and the comparison of
 * ray hits, shared by the ray tests (test_ray.c, test_filter_search.c). */
#ifndef C2D_TEST_RAY_CHECK_H
#define C2D_TEST_RAY_CHECK_H

#include <stdio.h>

#include "batch_check.h"
#include "filter_check.h"

/* The scalar loop of a ray cast: rays from the circles (origins), moves (translations) and
 * circle words (the rays' words) of `s`; its capsules when `with_capsules`, then the circles of
 * `targets` (or none: NULL); the shapes the rule refuses and the sensors skipped, a later hit
 * kept only when strictly earlier. */
static inline void ref_ray_hits(const scene *s, bool with_capsules, const scene *targets,
                                c2d_ray_hit *out) {
    const c2d_circle_soa *t = targets ? &targets->circles : NULL;
    for (size_t i = 0; i < s->n; i++) {
        c2d_ray_hit h = {C2D_NONE, C2D_SHAPE_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
        const c2d_vec2 o = {s->x[i], s->y[i]}, d = {s->mx[i], s->my[i]};
        for (size_t k = 0; with_capsules && k < s->m; k++) {
            if (!meets(s, i, k)) continue; /* refused, or a sensor */
            const c2d_capsule cap = {{s->ax[k], s->ay[k]}, {s->bx[k], s->by[k]}, s->R[k]};
            c2d_toi toi;
            if (c2d_ray_capsule(o, d, cap, &toi) && (h.kind == C2D_SHAPE_NONE || toi.t < h.toi.t))
                h = (c2d_ray_hit){(uint32_t)k, C2D_SHAPE_CAPSULE, toi};
        }
        for (size_t k = 0; t && k < t->count; k++) {
            if (!allows(word(s->circles.category, i), word(s->circles.mask, i),
                        word(t->category, k), word(t->mask, k)))
                continue;
            const c2d_circle circle = {{t->x[k], t->y[k]}, t->radius[k]};
            c2d_toi toi;
            if (c2d_ray_circle(o, d, circle, &toi) && (h.kind == C2D_SHAPE_NONE || toi.t < h.toi.t))
                h = (c2d_ray_hit){(uint32_t)k, C2D_SHAPE_CIRCLE, toi};
        }
        out[i] = h;
    }
}

/* Same shape, kind and toi bytes (any two NaNs equal). */
static inline bool same_hit(const c2d_ray_hit *a, const c2d_ray_hit *b) {
    return a->shape == b->shape && a->kind == b->kind && same_float(a->toi.t, b->toi.t) &&
           same_float(a->toi.normal.x, b->toi.normal.x) &&
           same_float(a->toi.normal.y, b->toi.normal.y) &&
           same_float(a->toi.point.x, b->toi.point.x) && same_float(a->toi.point.y, b->toi.point.y);
}

/* Compares the hits of the rays of `rays` (its circles and moves: origins and translations);
 * on the first difference prints it with its ray and returns false. */
static inline bool compare_ray_hits(const scene *rays, const c2d_ray_hit *want,
                                    const c2d_ray_hit *got, const char *label, const char *who) {
    for (size_t i = 0; i < rays->n; i++)
        if (!same_hit(&want[i], &got[i])) {
            printf("# %s (%s): ray %zu: want shape %u kind %u t %a n (%a, %a) p (%a, %a), got "
                   "shape %u kind %u t %a n (%a, %a) p (%a, %a)\n",
                   label, who, i, want[i].shape, want[i].kind, (double)want[i].toi.t,
                   (double)want[i].toi.normal.x, (double)want[i].toi.normal.y,
                   (double)want[i].toi.point.x, (double)want[i].toi.point.y, got[i].shape,
                   got[i].kind, (double)got[i].toi.t, (double)got[i].toi.normal.x,
                   (double)got[i].toi.normal.y, (double)got[i].toi.point.x,
                   (double)got[i].toi.point.y);
            print_circle(rays, i, true);
            return false;
        }
    return true;
}

#endif
