/* c2d_scene_sweep_moving_capsules against c2d_batch_sweep_moving_capsules (the oracle), byte
 * for byte on every backend: W5-like boards where a few capsules move (paddles, platforms)
 * and the rest stand still, moves of -0 and +0, NaN, infinite and huge moves, movers listed
 * everywhere (a world-long capsule), dense scenes where every capsule moves, every circle
 * count; NULL moves give c2d_scene_sweep()'s answer; bad arguments. */
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

/* How the capsule moves of a test are chosen. */
typedef enum move_kind { FEW_MOVE, ALL_MOVE, SPECIAL_MOVES } move_kind;

static void fill_moves(c2d_rng *rng, float *kmx, float *kmy, size_t m, move_kind kind) {
    for (size_t k = 0; k < m; k++) {
        const unsigned pick = (unsigned)(c2d_rng_next(rng) % 16);
        kmx[k] = kmy[k] = 0.0f;
        if (kind == ALL_MOVE || pick < 2) { /* a paddle or platform */
            kmx[k] = c2d_rng_range(rng, -3.0f, 3.0f);
            kmy[k] = c2d_rng_range(rng, -3.0f, 3.0f);
        } else if (pick == 2) { /* negative zeros: still at rest */
            kmx[k] = -0.0f;
            kmy[k] = (c2d_rng_next(rng) & 1) ? -0.0f : 0.0f;
        } else if (pick == 3) { /* along one axis only */
            kmy[k] = c2d_rng_range(rng, -1.0f, 1.0f);
        }
        if (kind == SPECIAL_MOVES && pick >= 12) {
            float *v = (c2d_rng_next(rng) & 1) ? &kmx[k] : &kmy[k];
            *v = special_value(rng, pick == 12);
        }
    }
}

/* The scene's answer against the batch call's, on every backend; also with NULL moves. */
static void check_moving(const scene *s, const float *kmx, const float *kmy, const char *label) {
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s->capsules, NULL, &sc), C2D_OK);
    const size_t n = s->n;
    c2d_circle_toi *ref = xmalloc((n + 1) * sizeof *ref), *got = xmalloc((n + 1) * sizeof *got);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        char where[96];
        snprintf(where, sizeof where, "%s, %s", label, c2d_backend_name(list[b]));
        assert_int_equal(
            c2d_batch_sweep_moving_capsules(&s->circles, s->mx, s->my, &s->capsules, kmx, kmy, ref),
            C2D_OK);
        memset(got, 0xa5, (n + 1) * sizeof *got);
        assert_int_equal(
            c2d_scene_sweep_moving_capsules(sc, &s->circles, s->mx, s->my, kmx, kmy, got), C2D_OK);
        assert_true(compare_tois(s, ref, got, n, where));
        assert_true(bytes_are(got + n, sizeof *got, 0xa5)); /* nothing past the end */
        /* at rest: the static scene sweep */
        assert_int_equal(c2d_scene_sweep(sc, &s->circles, s->mx, s->my, ref), C2D_OK);
        assert_int_equal(
            c2d_scene_sweep_moving_capsules(sc, &s->circles, s->mx, s->my, NULL, NULL, got),
            C2D_OK);
        assert_true(compare_tois(s, ref, got, n, where));
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    free(ref);
    free(got);
    c2d_scene_destroy(sc);
}

static void run_case(const scene *s, c2d_rng *rng, move_kind kind, const char *label) {
    float *kmx = xmalloc((s->m + 1) * sizeof(float)), *kmy = xmalloc((s->m + 1) * sizeof(float));
    fill_moves(rng, kmx, kmy, s->m, kind);
    check_moving(s, kmx, kmy, label);
    free(kmx);
    free(kmy);
}

static void moving_w5_boards(void **state) {
    (void)state;
    for (int v = 0; v < C2D_W5_VARIANTS; v++) {
        c2d_workload w;
        assert_int_equal(c2d_workload_w5(&w, 3000, 200, (c2d_w5_variant)v, 91 + (uint64_t)v), 0);
        scene s;
        scene_from_workload(&s, &w, LAYOUT_ALIGNED);
        c2d_rng rng = {0x3071e + (uint64_t)v};
        char label[64];
        snprintf(label, sizeof label, "W5 %s, a few capsules move", c2d_w5_name((c2d_w5_variant)v));
        run_case(&s, &rng, FEW_MOVE, label);
        snprintf(label, sizeof label, "W5 %s, every capsule moves", c2d_w5_name((c2d_w5_variant)v));
        run_case(&s, &rng, ALL_MOVE, label);
        scene_free(&s);
        c2d_workload_free(&w);
    }
}

/* Many hits: small area, large radii. */
static const random_spec dense_spec = {10.0f, 0.1f, 1.5f, 2.0f, 0.0f, 5.0f, 0.0f, 1.0f};

static void moving_dense_and_special(void **state) {
    (void)state;
    for (unsigned round = 0; round < 6; round++) {
        c2d_rng rng = {0x30deb + round};
        scene s;
        scene_init(&s, 500 + round, 40, round % 2 ? LAYOUT_OFFSET : LAYOUT_ALIGNED);
        fill_random(&s, &rng, &dense_spec);
        if (round >= 2) sprinkle_tame(&s, &rng, 5, true, true, true);
        if (round >= 4) sprinkle_special(&s, &rng, 3, true, true, true);
        char label[64];
        snprintf(label, sizeof label, "dense, round %u", round);
        run_case(&s, &rng, round % 3 == 0 ? ALL_MOVE : SPECIAL_MOVES, label);
        scene_free(&s);
    }
}

/* Every circle count 0..36 and capsule count 0..6, near-touching paths. */
static void moving_every_count(void **state) {
    (void)state;
    for (size_t n = 0; n <= 36; n++) {
        const size_t m = n % 7;
        c2d_rng rng = {0x30c0 + n};
        scene s;
        scene_init(&s, n, m, LAYOUT_GUARDED);
        fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
        char label[64];
        snprintf(label, sizeof label, "near touch, %zu circles, %zu capsules", n, m);
        run_case(&s, &rng, n % 2 ? FEW_MOVE : SPECIAL_MOVES, label);
        scene_free(&s);
    }
}

static void moving_bad_arguments(void **state) {
    (void)state;
    c2d_rng rng = {0xbad30};
    scene s;
    scene_init(&s, 20, 5, LAYOUT_ALIGNED);
    fill_random(&s, &rng, &dense_spec);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
    float kmx[5] = {0}, kmy[5] = {0};
    c2d_circle_toi out[20];
    assert_int_equal(c2d_scene_sweep_moving_capsules(NULL, &s.circles, s.mx, s.my, kmx, kmy, out),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep_moving_capsules(sc, NULL, s.mx, s.my, kmx, kmy, out),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep_moving_capsules(sc, &s.circles, NULL, s.my, kmx, kmy, out),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep_moving_capsules(sc, &s.circles, s.mx, s.my, kmx, kmy, NULL),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep_moving_capsules(sc, &s.circles, s.mx, s.my, kmx, NULL, out),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep_moving_capsules(sc, &s.circles, s.mx, s.my, NULL, kmy, out),
                     C2D_ERROR_NULL);
    const c2d_circle_soa none = {NULL, NULL, NULL, 0, NULL, NULL};
    assert_int_equal(c2d_scene_sweep_moving_capsules(sc, &none, NULL, NULL, kmx, kmy, NULL),
                     C2D_OK);
    c2d_scene_destroy(sc);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(moving_w5_boards),
        cmocka_unit_test(moving_dense_and_special),
        cmocka_unit_test(moving_every_count),
        cmocka_unit_test(moving_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
