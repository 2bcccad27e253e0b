/* Comparing ray hits (collide2d/search.h), shared by the ray tests (test_ray.c,
 * test_filter_search.c). */
#ifndef C2D_TEST_RAY_CHECK_H
#define C2D_TEST_RAY_CHECK_H

#include <stdio.h>

#include "batch_check.h"

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
