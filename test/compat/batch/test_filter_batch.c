/* Collision filters and sensors (collide2d/filter.h) in c2d_batch_collide,
 * c2d_batch_collide_pairs, c2d_batch_sweep and c2d_batch_sweep_moving_capsules, on every
 * available backend. The oracle is the unfiltered scalar loop (batch_check.c's references, made
 * of the public scalar functions only) with the refused pairs removed: the rule is written here
 * again, on its own, from the header's words. Sweeps take the earliest hit over the allowed
 * pairs only (a refused capsule or a sensor in front never hides an allowed one behind it).
 * Random words with few bits (so both refused and allowed pairs are common), 0 and
 * C2D_FILTER_ALL, random sensors, arrays left NULL at random; every count 0..40 and larger sets;
 * special values; the count, truncation and size-query rules on the filtered total; and words
 * that are all C2D_FILTER_ALL giving the bytes of NULL arrays. */
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
#include "filter_check.h"

/* ---- references ------------------------------------------------------------------------- */

/* The unfiltered answer without the refused pairs, in place; returns the new count. */
static size_t drop_refused(const scene *s, c2d_pair_contact *v, size_t n) {
    size_t kept = 0;
    for (size_t p = 0; p < n; p++)
        if (meets(s, v[p].circle, v[p].capsule)) v[kept++] = v[p];
    return kept;
}

/* ---- checks ----------------------------------------------------------------------------- */

typedef c2d_status (*contact_call)(const void *ctx, c2d_pair_contact *out, size_t capacity,
                                   size_t *count);

/* One call against the expected contacts: ample capacity (canaries after), exactly the total,
 * truncated to half, and the size query, all counting the filtered total. */
static bool check_contacts(const scene *s, contact_call run, const void *ctx,
                           const c2d_pair_contact *want, size_t total, const char *label) {
    const size_t bytes = (total + 3) * sizeof(c2d_pair_contact);
    c2d_pair_contact *buf = xmalloc(bytes);
    memset(buf, CANARY_BYTE, bytes);
    size_t count = 777;
    bool ok = run(ctx, buf, total + 1, &count) == C2D_OK && count == total;
    ok = ok && compare_contacts(s, want, buf, total, label);
    ok = ok && bytes_are(buf + total, 3 * sizeof *buf, CANARY_BYTE);
    memset(buf, CANARY_BYTE, bytes);
    ok = ok && run(ctx, buf, total, &count) == C2D_OK && count == total;
    ok = ok && bytes_are(buf + total, 3 * sizeof *buf, CANARY_BYTE);
    const size_t half = total / 2;
    memset(buf, CANARY_BYTE, bytes);
    const c2d_status st = run(ctx, buf, half, &count);
    ok = ok && st == (total > half ? C2D_ERROR_TRUNCATED : C2D_OK) && count == total;
    ok = ok && compare_contacts(s, want, buf, half, label);
    ok = ok && bytes_are(buf + half, (total + 3 - half) * sizeof *buf, CANARY_BYTE);
    count = 777;
    ok = ok && run(ctx, NULL, 0, &count) == C2D_OK && count == total;
    free(buf);
    if (!ok) printf("# %s: failed (count %zu, want %zu)\n", label, count, total);
    return ok;
}

static c2d_status run_collide(const void *ctx, c2d_pair_contact *out, size_t capacity,
                              size_t *count) {
    const scene *s = ctx;
    return c2d_batch_collide(&s->circles, &s->capsules, out, capacity, count);
}

/* The sweeps (static, and moving with the given capsule moves) on every backend against the
 * filtered reference. */
static bool check_sweeps(const scene *s, const float *kmx, const float *kmy, const char *label) {
    c2d_circle_toi *want = xmalloc((s->n + 1) * sizeof *want);
    c2d_circle_toi *got = xmalloc((s->n + 1) * sizeof *got);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    bool ok = true;
    for (int moving = 0; moving < 2; moving++) {
        ref_sweep_moving(s, moving ? kmx : NULL, moving ? kmy : NULL, want);
        for (size_t b = 0; b < nb; b++) {
            use_backend(list[b]);
            char what[160];
            snprintf(what, sizeof what, "%s: %s (%s)", label, moving ? "moving sweep" : "sweep",
                     c2d_backend_name(list[b]));
            memset(got, CANARY_BYTE, (s->n + 1) * sizeof *got);
            const c2d_status st =
                moving ? c2d_batch_sweep_moving_capsules(&s->circles, s->mx, s->my, &s->capsules,
                                                         kmx, kmy, got)
                       : c2d_batch_sweep(&s->circles, s->mx, s->my, &s->capsules, got);
            ok &= st == C2D_OK && compare_tois(s, want, got, s->n, what) &&
                  bytes_are(got + s->n, sizeof *got, CANARY_BYTE);
        }
    }
    free(want), free(got);
    return ok;
}

/* Collide, listed pairs (every pair once, in a shuffled order, and runs of consecutive circles)
 * and both sweeps of a scene with filter words, every backend. Returns (via the pointers) how
 * many contacts the unfiltered and the filtered calls give, so callers can check both kinds of
 * pair were common. */
static void check_scene_filtered(const scene *s, const float *kmx, const float *kmy,
                                 const char *label, size_t *unfiltered, size_t *filtered) {
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    c2d_pair_contact *want;
    const size_t all = ref_collide(s, &want);
    const size_t total = drop_refused(s, want, all);
    /* the listed pairs: capsule-major runs, then a scrambled copy */
    const size_t np = 2 * s->n * s->m;
    uint32_t *ci = xmalloc((np + 1) * sizeof *ci), *ki = xmalloc((np + 1) * sizeof *ki);
    size_t p = 0;
    for (size_t j = 0; j < s->m; j++)
        for (size_t i = 0; i < s->n; i++)
            ci[p] = (uint32_t)i, ki[p] = (uint32_t)j, p++;
    c2d_rng rng = {0x5c4a + np};
    for (size_t q = 0; q < s->n * s->m; q++) {
        const size_t r = c2d_rng_next(&rng) % (s->n * s->m);
        ci[p] = ci[r], ki[p] = ki[r], p++;
    }
    c2d_pair_contact *pwant;
    const size_t pall = ref_pairs(s, ci, ki, np, &pwant);
    const size_t ptotal = drop_refused(s, pwant, pall);
    const pairs_ctx pc = {s, ci, ki, np};
    bool ok = true;
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        char what[160];
        snprintf(what, sizeof what, "%s: collide (%s)", label, c2d_backend_name(list[b]));
        ok &= check_contacts(s, run_collide, s, want, total, what);
        snprintf(what, sizeof what, "%s: pairs (%s)", label, c2d_backend_name(list[b]));
        ok &= check_contacts(s, run_pairs, &pc, pwant, ptotal, what);
    }
    ok &= check_sweeps(s, kmx, kmy, label);
    assert_true(ok);
    if (unfiltered) *unfiltered += all;
    if (filtered) *filtered += total;
    free(want), free(pwant), free(ci), free(ki);
}

/* Capsule moves for a scene: random, up to `size`. */
static void random_capsule_moves(c2d_rng *rng, size_t m, float size, float **kmx, float **kmy) {
    *kmx = xmalloc((m + 1) * sizeof(float));
    *kmy = xmalloc((m + 1) * sizeof(float));
    for (size_t j = 0; j < m; j++) {
        (*kmx)[j] = c2d_rng_range(rng, -size, size);
        (*kmy)[j] = c2d_rng_range(rng, -size, size);
    }
}

/* ---- tests ------------------------------------------------------------------------------ */

/* Many hits: a small board, large radii. */
static const random_spec dense = {12.0f, 0.1f, 1.5f, 3.0f, 0.0f, 5.0f, 0.0f, 1.0f};

/* Every circle count 0..40 against capsule counts around it, words in every arrangement. */
static void filter_counts(void **state) {
    (void)state;
    c2d_rng rng = {0xf117e5};
    size_t unfiltered = 0, filtered = 0;
    for (size_t n = 0; n <= 40; n++) {
        scene s;
        scene_init(&s, n, (n * 5) % 23 + (n % 3 == 0 ? 0 : 1),
                   n % 2 ? LAYOUT_GUARDED : LAYOUT_OFFSET);
        fill_random(&s, &rng, &dense);
        words w;
        words_attach(&w, &s, &rng, 3, n % 4 == 3);
        float *kmx, *kmy;
        random_capsule_moves(&rng, s.m, 2.0f, &kmx, &kmy);
        char label[64];
        snprintf(label, sizeof label, "%zu circles, %zu capsules", s.n, s.m);
        check_scene_filtered(&s, kmx, kmy, label, &unfiltered, &filtered);
        free(kmx), free(kmy);
        words_free(&w);
        scene_free(&s);
    }
    /* both kinds of pair are common */
    assert_true(filtered > unfiltered / 8 && filtered < unfiltered * 3 / 4);
}

/* Larger sets: more capsules than one sweep chunk (256), several vectors of circles, words
 * with NULL arrays mixed in; and the W1-like workload. */
static void filter_large(void **state) {
    (void)state;
    c2d_rng rng = {0x1a4e};
    size_t unfiltered = 0, filtered = 0;
    for (int round = 0; round < 3; round++) {
        scene s;
        scene_init(&s, 150 + 37 * (size_t)round, 300 + 11 * (size_t)round, LAYOUT_ALIGNED);
        const random_spec spec = {40.0f, 0.1f, 1.2f, 6.0f, 0.0f, 6.0f, 0.0f, 1.0f};
        fill_random(&s, &rng, &spec);
        words w;
        words_attach(&w, &s, &rng, (unsigned)(2 + 3 * round), round == 2);
        float *kmx, *kmy;
        random_capsule_moves(&rng, s.m, 3.0f, &kmx, &kmy);
        check_scene_filtered(&s, kmx, kmy, "large", &unfiltered, &filtered);
        free(kmx), free(kmy);
        words_free(&w);
        scene_free(&s);
    }
    assert_true(filtered > 50 && filtered < unfiltered);
    c2d_workload wl;
    assert_int_equal(c2d_workload_make(&wl, 700, 64, C2D_WORKLOAD_SEED ^ 18), 0);
    scene s;
    scene_from_workload(&s, &wl, LAYOUT_OFFSET);
    words w;
    words_attach(&w, &s, &rng, 2, false);
    float *kmx, *kmy;
    random_capsule_moves(&rng, s.m, 1.0f, &kmx, &kmy);
    check_scene_filtered(&s, kmx, kmy, "W1-like", NULL, NULL);
    free(kmx), free(kmy);
    words_free(&w);
    scene_free(&s);
    c2d_workload_free(&wl);
}

/* Touching exactly, grazing paths and special values (NaN, infinities, huge, subnormal) in
 * the shapes and moves, with filters. */
static void filter_adversarial(void **state) {
    (void)state;
    for (int round = 0; round < 4; round++) {
        c2d_rng rng = {0xad5e + (uint64_t)round};
        scene s;
        if (round < 2) {
            scene_init(&s, 90, 40, LAYOUT_GUARDED);
            fill_near_touch(&s, &rng, round ? 1e4f : 0.0f, 0.0f, 3.0f);
        } else {
            grazing_scene(&s, 90, 40, LAYOUT_OFFSET, &rng, 0.0f, round == 3 ? -3e5f : 0.0f, 2.0f);
        }
        if (round % 2) sprinkle_special(&s, &rng, 5, true, true, true);
        words w;
        words_attach(&w, &s, &rng, 3, round == 3);
        float *kmx, *kmy;
        random_capsule_moves(&rng, s.m, 1.0f, &kmx, &kmy);
        if (round == 3)
            for (size_t j = 0; j < s.m; j += 7)
                kmx[j] = special_value(&rng, false);
        check_scene_filtered(&s, kmx, kmy, "adversarial", NULL, NULL);
        free(kmx), free(kmy);
        words_free(&w);
        scene_free(&s);
    }
}

/* Words that are all C2D_FILTER_ALL and no sensor (sensor array of zeros): the bytes of NULL
 * arrays, on every backend, for every call. */
static void filter_all_is_null(void **state) {
    (void)state;
    c2d_rng rng = {0xa11};
    scene s;
    scene_init(&s, 133, 71, LAYOUT_OFFSET);
    fill_random(&s, &rng, &dense);
    sprinkle_tame(&s, &rng, 3, true, true, true);
    words w;
    words_init_all(&w, s.n, s.m);
    float *kmx, *kmy;
    random_capsule_moves(&rng, s.m, 1.0f, &kmx, &kmy);
    uint32_t *ci = xmalloc(s.n * s.m * sizeof *ci), *ki = xmalloc(s.n * s.m * sizeof *ki);
    for (size_t p = 0; p < s.n * s.m; p++)
        ci[p] = (uint32_t)(c2d_rng_next(&rng) % s.n), ki[p] = (uint32_t)(c2d_rng_next(&rng) % s.m);
    const size_t cap = s.n * s.m;
    c2d_pair_contact *a = xmalloc(cap * sizeof *a), *b = xmalloc(cap * sizeof *b);
    c2d_circle_toi *ta = xmalloc(s.n * sizeof *ta), *tb = xmalloc(s.n * sizeof *tb);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t bk = 0; bk < nb; bk++) {
        use_backend(list[bk]);
        for (int call = 0; call < 4; call++) {
            size_t na = 0, nbb = 0;
            for (int filtered = 0; filtered < 2; filtered++) {
                if (filtered) {
                    s.circles.category = w.ccat, s.circles.mask = w.cmask;
                    s.capsules.category = w.kcat, s.capsules.mask = w.kmask;
                    s.capsules.sensor = w.sensor;
                } else {
                    words_detach(&s);
                }
                c2d_pair_contact *o = filtered ? b : a;
                c2d_circle_toi *t = filtered ? tb : ta;
                size_t *n = filtered ? &nbb : &na;
                memset(o, 0, cap * sizeof *o), memset(t, 0, s.n * sizeof *t);
                c2d_status st = C2D_ERROR_NULL;
                if (call == 0) st = c2d_batch_collide(&s.circles, &s.capsules, o, cap, n);
                if (call == 1)
                    st = c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, ki, cap, o, cap, n);
                if (call == 2) st = c2d_batch_sweep(&s.circles, s.mx, s.my, &s.capsules, t);
                if (call == 3)
                    st = c2d_batch_sweep_moving_capsules(&s.circles, s.mx, s.my, &s.capsules, kmx,
                                                         kmy, t);
                assert_int_equal(st, C2D_OK);
            }
            assert_int_equal(na, nbb);
            assert_memory_equal(a, b, cap * sizeof *a);
            assert_memory_equal(ta, tb, s.n * sizeof *ta);
            if (call == 0) assert_true(na > 100);
        }
    }
    words_detach(&s);
    free(a), free(b), free(ta), free(tb), free(ci), free(ki), free(kmx), free(kmy);
    words_free(&w);
    scene_free(&s);
}

/* A refused capsule or a sensor in front of an allowed one: the sweep hits the one behind,
 * the collide calls report only it, on every backend, at every lane of a vector. */
static void filter_front_hides_nothing(void **state) {
    (void)state;
    enum { N = 37 };
    scene s;
    scene_init(&s, N, 4, LAYOUT_GUARDED);
    /* capsules: a wall at x = 2 (refused), a sensor wall at x = 3, an allowed wall at x = 5,
     * and a second allowed wall at x = 5 (same t: the tie goes to the lower index, 2) */
    const float wall_x[4] = {2.0f, 3.0f, 5.0f, 5.0f};
    for (size_t j = 0; j < 4; j++) {
        s.ax[j] = s.bx[j] = wall_x[j];
        s.ay[j] = -100.0f, s.by[j] = 100.0f, s.R[j] = 0.25f;
    }
    for (size_t i = 0; i < N; i++) {
        s.x[i] = 0.0f, s.y[i] = (float)i - 18.0f, s.r[i] = 0.5f;
        s.mx[i] = 10.0f, s.my[i] = 0.0f;
    }
    uint32_t ccat[N], cmask[N];
    for (size_t i = 0; i < N; i++)
        ccat[i] = 1u, cmask[i] = 1u | (i % 3 == 0 ? 2u : 0u);
    const uint32_t kcat[4] = {2u, 1u, 1u, 1u}, kmask[4] = {C2D_FILTER_ALL, 1u, 1u, 1u};
    const uint8_t sensor[4] = {0, 1, 0, 0};
    s.circles.category = ccat, s.circles.mask = cmask;
    s.capsules.category = kcat, s.capsules.mask = kmask, s.capsules.sensor = sensor;
    c2d_circle_toi out[N];
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        assert_int_equal(c2d_batch_sweep(&s.circles, s.mx, s.my, &s.capsules, out), C2D_OK);
        for (size_t i = 0; i < N; i++) {
            /* circle i meets the refused wall when its mask holds bit 2 (i % 3 == 0) */
            const uint32_t want = i % 3 == 0 ? 0u : 2u;
            assert_int_equal(out[i].capsule, want);
            assert_true(fabsf(out[i].toi.t - (want == 0 ? 0.125f : 0.425f)) < 1e-5f);
        }
    }
    /* circles placed on the walls: the collide calls report only the allowed capsules */
    for (size_t i = 0; i < N; i++)
        s.x[i] = wall_x[i % 4];
    check_scene_filtered(&s, s.mx, s.my, "walls", NULL, NULL);
    words_detach(&s);
    scene_free(&s);
}

/* Argument errors are as without filters: filter arrays are optional and never checked. */
static void filter_errors(void **state) {
    (void)state;
    const float v[1] = {0.0f};
    const uint32_t cat[1] = {1u};
    const c2d_circle_soa c = {v, v, NULL, 1, cat, cat};
    const c2d_capsule_soa k = {v, v, v, v, v, 1, cat, NULL, NULL};
    size_t count = 9;
    assert_int_equal(c2d_batch_collide(&c, &k, NULL, 0, &count), C2D_ERROR_NULL);
    assert_int_equal(count, 0);
    const c2d_circle_soa c0 = {NULL, NULL, NULL, 0, cat, cat};
    assert_int_equal(c2d_batch_collide(&c0, &k, NULL, 0, &count), C2D_OK);
    assert_int_equal(count, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(filter_counts),
        cmocka_unit_test(filter_large),
        cmocka_unit_test(filter_adversarial),
        cmocka_unit_test(filter_all_is_null),
        cmocka_unit_test(filter_front_hides_nothing),
        cmocka_unit_test(filter_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
