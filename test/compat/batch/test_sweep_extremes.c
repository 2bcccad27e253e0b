/* Sweeps at extreme scales, as reduced cases and random scenes. Usage:
 * test-batch-sweep-extremes NAME, NAME one of the cases below; the program fails (exit status
 * non-zero) if the scalar layer reports a touch the geometry does not have, or a backend
 * disagrees with it.
 *
 * Both were the same kind of problem, fixed by computing the root in double: the sweep's
 * end-circle formula (now circles_touch_time in src/core/sweep_formula.h; then in
 * src/scalar/sweep.c) forms fourth-degree products, (v.v)(r+R)^2 and (v x s)^2, that left
 * float range for valid, ordinary-looking input, and then reports a touch the geometry does
 * not have. The SIMD kernels' culling boxes follow the true geometry and drop it, so the
 * backends also disagree with the scalar layer (and with each other: the scalar backend
 * follows the scalar layer).
 *
 *   overflow   (v.v)(r+R)^2 > FLT_MAX: the discriminant is +inf, t = c / inf = 0, a hit at
 *              the start. Circle (0,0) r 1e11 moving (0, 1e9); point capsule at (0, 5e11),
 *              R 0: after the move the gap is still 3.99e11. Every value is far below
 *              C2D_MAX_MAGNITUDE (c2d_validate_* report no defect). Random scenes at scales
 *              3e9 and more (coordinates around 1e10) hit it.
 *   underflow  both (v.v)(r+R)^2 and (v x s)^2 underflow to 0: the discriminant is 0, which
 *              passes, and t is the time of closest approach whatever the miss distance.
 *              Circle (0,0) r 0 moving (4e-12, 0); point capsule at (1e-12, 1e-12), R 0:
 *              the path stays 1e-12 away. (Also test/hardening known bug 1.) Random scenes at
 *              scales 1e-12 and below hit it.
 */
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

/* n copies of one circle against one capsule: v = x, y, r, move x, y, ax, ay, bx, by, R. */
static void one_pair_scene(scene *s, size_t n, const float v[10]) {
    scene_init(s, n, 1, LAYOUT_ALIGNED);
    for (size_t i = 0; i < n; i++)
        s->x[i] = v[0], s->y[i] = v[1], s->r[i] = v[2], s->mx[i] = v[3], s->my[i] = v[4];
    s->ax[0] = v[5], s->ay[0] = v[6], s->bx[0] = v[7], s->by[0] = v[8], s->R[0] = v[9];
}

/* The reduced case: valid input, no touch in exact arithmetic; the scalar layer must say so
 * and every backend must agree. */
static void reduced_case(const float v[10], const char *label) {
    scene s;
    one_pair_scene(&s, 5, v);
    const c2d_validation cv = c2d_validate_circles(&s.circles);
    const c2d_validation kv = c2d_validate_capsules(&s.capsules);
    assert_int_equal(cv.defect, C2D_DEFECT_NONE);
    assert_int_equal(kv.defect, C2D_DEFECT_NONE);
    c2d_circle_toi ref[5];
    ref_sweep(&s, ref);
    if (ref[0].capsule != C2D_NONE)
        fprintf(stderr,
                "[%s] c2d_sweep_circle_capsule reports a touch at t = %a that the "
                "geometry does not have\n",
                label, (double)ref[0].toi.t);
    /* every backend first (each difference printed), then the scalar answer */
    check_sweep(&s, label);
    assert_int_equal(ref[0].capsule, C2D_NONE);
    scene_free(&s);
}

static void random_scenes(const float *scales, size_t n_scales) {
    for (size_t k = 0; k < n_scales; k++) {
        c2d_rng rng = {0x0b0b + k};
        scene s;
        grazing_scene(&s, 300, 10, LAYOUT_ALIGNED, &rng, 0.0f, 0.0f, scales[k]);
        char label[64];
        snprintf(label, sizeof label, "grazing paths at scale %g", (double)scales[k]);
        check_sweep(&s, label);
        scene_free(&s);
    }
}

static void overflow_reduced(void **state) {
    (void)state;
    /* 0x1.74876ep+36 = 1e11, 0x1.dcd65p+29 = 1e9, 0x1.d1a94ap+38 = 5e11 */
    const float v[10] = {0.0f,
                         0.0f,
                         0x1.74876ep+36f,
                         0.0f,
                         0x1.dcd65p+29f,
                         0.0f,
                         0x1.d1a94ap+38f,
                         0.0f,
                         0x1.d1a94ap+38f,
                         0.0f};
    reduced_case(v, "overflow: (v.v)(r+R)^2 > FLT_MAX");
}

static void overflow_random(void **state) {
    (void)state;
    static const float scales[] = {3e9f, 1e10f, 1e11f};
    random_scenes(scales, 3);
}

static void underflow_reduced(void **state) {
    (void)state;
    /* 0x1.197998p-40 = 1e-12, 0x1.197998p-38 = 4e-12 */
    const float v[10] = {0.0f,
                         0.0f,
                         0.0f,
                         0x1.197998p-38f,
                         0.0f,
                         0x1.197998p-40f,
                         0x1.197998p-40f,
                         0x1.197998p-40f,
                         0x1.197998p-40f,
                         0.0f};
    reduced_case(v, "underflow: (v.v)(r+R)^2 and (v x s)^2 round to 0");
}

static void underflow_random(void **state) {
    (void)state;
    static const float scales[] = {1e-12f, 1e-15f};
    random_scenes(scales, 2);
}

int main(int argc, char **argv) {
    const struct CMUnitTest overflow[] = {
        cmocka_unit_test(overflow_reduced),
        cmocka_unit_test(overflow_random),
    };
    const struct CMUnitTest underflow[] = {
        cmocka_unit_test(underflow_reduced),
        cmocka_unit_test(underflow_random),
    };
    if (argc == 2 && strcmp(argv[1], "overflow") == 0)
        return cmocka_run_group_tests(overflow, NULL, NULL);
    if (argc == 2 && strcmp(argv[1], "underflow") == 0)
        return cmocka_run_group_tests(underflow, NULL, NULL);
    fprintf(stderr, "usage: %s overflow|underflow\n", argv[0]);
    return 2;
}
