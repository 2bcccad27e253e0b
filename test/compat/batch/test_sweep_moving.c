/* c2d_batch_sweep_moving_capsules on every available backend: for each circle the earliest
 * c2d_sweep_circle_moving_capsule() hit over all moving capsules (ties to the lowest capsule
 * index), byte for byte, for random and grazing paths (the relative move grazing the capsule),
 * special values in every input and in the capsule moves (NaN, infinities, huge, subnormal,
 * zero), every tail length, more capsules than one 256-capsule chunk, and capsule move arrays
 * in guard-paged memory. NULL capsule moves equal c2d_batch_sweep() byte for byte. */
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

/* Capsule moves in guard-paged memory: any read past the end faults. */
typedef struct capsule_moves {
    float *x, *y;
    void *base[2];
    size_t bytes[2];
} capsule_moves;

static void moves_init(capsule_moves *k, size_t m) {
    const size_t bytes = (m ? m : 1) * sizeof(float);
    k->x = (float *)guarded_alloc(bytes, &k->base[0], &k->bytes[0]) + (m ? 0 : 1);
    k->y = (float *)guarded_alloc(bytes, &k->base[1], &k->bytes[1]) + (m ? 0 : 1);
}

static void moves_free(capsule_moves *k) {
    guarded_free(k->base[0], k->bytes[0]);
    guarded_free(k->base[1], k->bytes[1]);
}

/* Every backend against the scalar loop; returns the number of circles with a hit. */
static size_t check_moving(const scene *s, const capsule_moves *k, const char *label) {
    c2d_circle_toi *ref = xmalloc((s->n + 1) * sizeof *ref);
    c2d_circle_toi *got = xmalloc((s->n + 1) * sizeof *got);
    c2d_circle_toi *fixed = xmalloc((s->n + 1) * sizeof *fixed);
    ref_sweep_moving(s, k->x, k->y, ref);
    size_t hits = 0;
    for (size_t i = 0; i < s->n; i++)
        hits += ref[i].capsule != C2D_NONE;
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    bool all_same = true;
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        memset(got, CANARY_BYTE, (s->n + 1) * sizeof *got);
        assert_int_equal(c2d_batch_sweep_moving_capsules(&s->circles, s->mx, s->my, &s->capsules,
                                                         k->x, k->y, got),
                         C2D_OK);
        assert_true(bytes_are(got + s->n, sizeof *got, CANARY_BYTE));
        all_same &= compare_tois(s, ref, got, s->n, label);
        /* NULL capsule moves: the static sweep's bytes */
        assert_int_equal(c2d_batch_sweep_moving_capsules(&s->circles, s->mx, s->my, &s->capsules,
                                                         NULL, NULL, got),
                         C2D_OK);
        assert_int_equal(c2d_batch_sweep(&s->circles, s->mx, s->my, &s->capsules, fixed), C2D_OK);
        all_same &= compare_tois(s, fixed, got, s->n, label);
    }
    free(ref);
    free(got);
    free(fixed);
    assert_true(all_same);
    return hits;
}

static const random_spec dense_spec = {20.0f, 0.05f, 1.0f, 10.0f, 0.0f, 5.0f, 0.0f, 1.0f};

/* Capsule moves: random in [-size, size]^2, a share zero. */
static void random_moves(capsule_moves *k, size_t m, c2d_rng *rng, float size) {
    for (size_t j = 0; j < m; j++) {
        const bool still = c2d_rng_unit(rng) < 0.15f;
        k->x[j] = still ? 0.0f : c2d_rng_range(rng, -size, size);
        k->y[j] = still ? 0.0f : c2d_rng_range(rng, -size, size);
    }
}

/* Grazing paths of the relative motion: the scene's moves are built to graze the static
 * capsules; each circle's move then gets the move of a capsule added (rounded), so the relative
 * move is the grazing one up to that rounding, and for capsule 0's circles exactly when the
 * sum is exact. */
static void graze_moving(scene *s, capsule_moves *k, c2d_rng *rng, float size) {
    random_moves(k, s->m, rng, size);
    for (size_t i = 0; i < s->n; i++) {
        const size_t j = s->m ? i % s->m : 0;
        if (s->m == 0) break;
        s->mx[i] = s->mx[i] + k->x[j];
        s->my[i] = s->my[i] + k->y[j];
    }
}

static void specials_in_moves(capsule_moves *k, size_t m, c2d_rng *rng, unsigned percent,
                              bool tame) {
    for (size_t j = 0; j < m; j++) {
        if ((unsigned)(c2d_rng_next(rng) % 100) < percent) k->x[j] = special_value(rng, tame);
        if ((unsigned)(c2d_rng_next(rng) % 100) < percent) k->y[j] = special_value(rng, tame);
    }
}

static void every_count(void **state) {
    (void)state;
    size_t hits = 0;
    for (size_t n = 0; n <= 70; n++) {
        const size_t m = n % 10 == 3 ? 0 : 1 + n % 7;
        char label[80];
        c2d_rng rng = {0x3071 + n};
        scene s;
        capsule_moves k;
        moves_init(&k, m);
        scene_init(&s, n, m, LAYOUT_GUARDED);
        fill_random(&s, &rng, &dense_spec);
        random_moves(&k, m, &rng, 10.0f);
        snprintf(label, sizeof label, "dense moving, %zu circles", n);
        hits += check_moving(&s, &k, label);
        scene_free(&s);

        grazing_scene(&s, n, m, n % 2 ? LAYOUT_OFFSET : LAYOUT_GUARDED, &rng, 0.0f, 0.0f, 1.0f);
        graze_moving(&s, &k, &rng, 2.0f);
        snprintf(label, sizeof label, "grazing moving, %zu circles", n);
        hits += check_moving(&s, &k, label);
        scene t;
        scene_copy(&t, &s, LAYOUT_OFFSET);
        sprinkle_tame(&t, &rng, 8, true, true, true);
        specials_in_moves(&k, m, &rng, 8, true);
        snprintf(label, sizeof label, "tame specials moving, %zu circles", n);
        check_moving(&t, &k, label);
        scene_free(&t);
        scene_copy(&t, &s, LAYOUT_GUARDED);
        sprinkle_special(&t, &rng, 8, true, true, true);
        specials_in_moves(&k, m, &rng, 15, false);
        snprintf(label, sizeof label, "specials moving, %zu circles", n);
        check_moving(&t, &k, label);
        scene_free(&t);
        scene_free(&s);
        moves_free(&k);
    }
    assert_true(hits > 500);
}

static void many_capsules_and_offsets(void **state) {
    (void)state;
    static const float offsets[] = {0.0f, 1e5f, -1e9f};
    for (size_t o = 0; o < 3; o++) {
        c2d_rng rng = {0x77aa + o};
        scene s;
        capsule_moves k;
        moves_init(&k, 600);
        grazing_scene(&s, 700, 600, LAYOUT_OFFSET, &rng, offsets[o], -offsets[o], 1.0f);
        graze_moving(&s, &k, &rng, 3.0f);
        const size_t hits = check_moving(&s, &k, "600 moving capsules, grazing");
        if (o == 0) assert_true(hits > 100);
        printf("# offset %g: %zu hits\n", (double)offsets[o], hits);
        scene_free(&s);
        moves_free(&k);
    }
}

/* The capsule moving exactly as the circle (no relative move), opposite, huge, and moves whose
 * difference overflows. */
static void adversarial_capsule_moves(void **state) {
    (void)state;
    static const float sizes[] = {0.0f, 1e-30f, 0x1p-149f, 1.0f, 1e6f, 0x1p40f, 1e30f, FLT_MAX};
    c2d_rng rng = {0x5151};
    scene s;
    capsule_moves k;
    moves_init(&k, 24);
    scene_init(&s, 400, 24, LAYOUT_ALIGNED);
    fill_near_touch(&s, &rng, 0.0f, 0.0f, 1.0f);
    for (size_t j = 0; j < s.m; j++) {
        const float size = sizes[j % 8];
        const c2d_vec2 d = c2d_rng_direction(&rng);
        k.x[j] = d.x * size;
        k.y[j] = d.y * size;
    }
    for (size_t i = 0; i < s.n; i++) {
        const size_t j = i % s.m;
        switch (i / s.m % 4) {
        case 0: /* the same move as a capsule: no relative motion against it */
            s.mx[i] = k.x[j], s.my[i] = k.y[j];
            break;
        case 1: /* the opposite: the relative move doubles or overflows */
            s.mx[i] = -k.x[j], s.my[i] = -k.y[j];
            break;
        case 2: /* a hair off the same */
            s.mx[i] = ulp_step(k.x[j], 1), s.my[i] = ulp_step(k.y[j], -1);
            break;
        default:
            break;
        }
    }
    check_moving(&s, &k, "adversarial capsule moves");
    k.x[3] = NAN, k.y[5] = INFINITY, k.x[6] = -INFINITY, k.y[7] = NAN;
    check_moving(&s, &k, "adversarial capsule moves with NaN and infinity");
    scene_free(&s);
    moves_free(&k);
}

static void errors(void **state) {
    (void)state;
    scene s;
    scene_init(&s, 3, 2, LAYOUT_ALIGNED);
    const float km[2] = {1.0f, 2.0f};
    c2d_circle_toi out[3];
    memset(out, CANARY_BYTE, sizeof out);
    assert_int_equal(
        c2d_batch_sweep_moving_capsules(&s.circles, s.mx, s.my, &s.capsules, km, NULL, out),
        C2D_ERROR_NULL);
    assert_int_equal(
        c2d_batch_sweep_moving_capsules(&s.circles, s.mx, s.my, &s.capsules, NULL, km, out),
        C2D_ERROR_NULL);
    assert_int_equal(
        c2d_batch_sweep_moving_capsules(&s.circles, s.mx, s.my, &s.capsules, km, km, NULL),
        C2D_ERROR_NULL);
    assert_int_equal(c2d_batch_sweep_moving_capsules(NULL, s.mx, s.my, &s.capsules, km, km, out),
                     C2D_ERROR_NULL);
    assert_true(bytes_are(out, sizeof out, CANARY_BYTE));
    /* no capsules: the capsule moves are not needed */
    c2d_capsule_soa none = s.capsules;
    none.count = 0;
    assert_int_equal(c2d_batch_sweep_moving_capsules(&s.circles, s.mx, s.my, &none, km, NULL, out),
                     C2D_OK);
    assert_int_equal(out[0].capsule, C2D_NONE);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_count),
        cmocka_unit_test(many_capsules_and_offsets),
        cmocka_unit_test(adversarial_capsule_moves),
        cmocka_unit_test(errors),
    };
    return cmocka_run_group_tests_name("batch-sweep-moving", tests, NULL, NULL);
}
