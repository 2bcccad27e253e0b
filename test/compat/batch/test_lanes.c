/* Contacts built in SIMD lanes (src/core/contact_formula.h through src/batch/lane_contact.h):
 * on every available backend, c2d_batch_collide_pairs and c2d_batch_collide return the bytes of
 * the scalar functions for dense inputs (most pairs hit), listed in runs as a broad phase emits
 * them (one capsule, consecutive circles: the kernels read those without gathers) and shuffled,
 * at every tail length and offset; for degenerate lanes (centre on the axis, zero-length
 * capsules, coincident centres) mixed with ordinary ones in one vector; for subnormal, huge,
 * NaN, infinite values and negative radii; and truncated at every capacity. Worked examples pin
 * the degenerate normals to their values. */
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

/* Pair lists whose arrays end right before a guard page. */
typedef struct pair_list {
    uint32_t *ci, *ki;
    size_t n;
    void *base[2];
    size_t base_bytes[2];
} pair_list;

static void list_init(pair_list *l, size_t n) {
    l->n = n;
    l->ci = guarded_alloc(n * sizeof(uint32_t), &l->base[0], &l->base_bytes[0]);
    l->ki = guarded_alloc(n * sizeof(uint32_t), &l->base[1], &l->base_bytes[1]);
}

static void list_free(pair_list *l) {
    guarded_free(l->base[0], l->base_bytes[0]);
    guarded_free(l->base[1], l->base_bytes[1]);
}

/* pairs [first, first + n) of (ci, ki), copied to guarded arrays */
static void list_slice(pair_list *l, const uint32_t *ci, const uint32_t *ki, size_t first,
                       size_t n) {
    list_init(l, n);
    if (n == 0) return;
    memcpy(l->ci, ci + first, n * sizeof(uint32_t));
    memcpy(l->ki, ki + first, n * sizeof(uint32_t));
}

/* A W2d-style scene (test/support/workload.h) of n pairs: circle p near capsule p / 256,
 * about 60% overlapping, in order. */
typedef struct dense_scene {
    scene s;
    uint32_t *ci, *ki;
    size_t n;
} dense_scene;

static void dense_init(dense_scene *d, size_t n, uint64_t seed, scene_layout layout) {
    c2d_workload w;
    assert_int_equal(c2d_workload_dense_pairs(&w, n, seed, &d->ci, &d->ki), 0);
    scene_from_workload(&d->s, &w, layout);
    c2d_workload_free(&w);
    d->n = n;
}

static void dense_free(dense_scene *d) {
    scene_free(&d->s);
    free(d->ci);
    free(d->ki);
}

/* One batch call with the given output and capacity (pairs: the listed pairs; else all). */
typedef struct lane_call {
    const scene *s;
    const uint32_t *ci, *ki; /* NULL: c2d_batch_collide */
    size_t np;
} lane_call;

static c2d_status run_call(const lane_call *c, c2d_pair_contact *out, size_t cap, size_t *count) {
    const scene *s = c->s;
    if (!c->ci) return c2d_batch_collide(&s->circles, &s->capsules, out, cap, count);
    return c2d_batch_collide_pairs(&s->circles, &s->capsules, c->ci, c->ki, c->np, out, cap, count);
}

/* The call truncated at every capacity 0..total+1 on every backend: the first `capacity`
 * contacts of the reference, a canary after them untouched, the total counted. */
static void check_every_capacity(const lane_call *c, const char *label) {
    c2d_pair_contact *ref;
    const size_t total =
        c->ci ? ref_pairs(c->s, c->ci, c->ki, c->np, &ref) : ref_collide(c->s, &ref);
    c2d_pair_contact *out = xmalloc((total + 4) * sizeof *out);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        for (size_t cap = 0; cap <= total + 1; cap++) {
            memset(out, CANARY_BYTE, (total + 4) * sizeof *out);
            size_t count = 12345;
            const c2d_status st = run_call(c, out, cap, &count); /* a buffer: a real truncation */
            assert_int_equal(st, cap < total ? C2D_ERROR_TRUNCATED : C2D_OK);
            assert_int_equal(count, total);
            const size_t written = cap < total ? cap : total;
            if (!compare_contacts(c->s, ref, out, written, label)) fail();
            assert_true(bytes_are(out + written, (total + 4 - written) * sizeof *out, CANARY_BYTE));
        }
    }
    free(out);
    free(ref);
}

static void check_pairs_every_capacity(const scene *s, const uint32_t *ci, const uint32_t *ki,
                                       size_t np, const char *label) {
    const lane_call c = {s, ci, ki, np};
    check_every_capacity(&c, label);
}

static void check_collide_every_capacity(const scene *s, const char *label) {
    const lane_call c = {s, NULL, NULL, 0};
    check_every_capacity(&c, label);
}

/* ---- dense listed pairs ------------------------------------------------------------------ */

/* The W2d generator itself: about 60% of the pairs overlap, indices ascend. */
static void dense_workload_is_dense(void **state) {
    (void)state;
    dense_scene d;
    dense_init(&d, 4096, C2D_WORKLOAD_SEED, LAYOUT_ALIGNED);
    c2d_pair_contact *ref;
    const size_t total = ref_pairs(&d.s, d.ci, d.ki, d.n, &ref);
    free(ref);
    assert_true(total > 4096 * 55 / 100 && total < 4096 * 65 / 100);
    for (size_t p = 1; p < d.n; p++) {
        assert_true(d.ci[p] == d.ci[p - 1] + 1);
        assert_true(d.ki[p] >= d.ki[p - 1]);
    }
    dense_free(&d);
}

/* Runs at every length 0..70 and every offset into a vector: the run reading (plain loads,
 * one capsule) and the gathering path meet at every tail, and a run may end on the last circle
 * right before a guard page. */
static void dense_runs_every_count(void **state) {
    (void)state;
    dense_scene d;
    dense_init(&d, 600, 0x1a9e5, LAYOUT_GUARDED); /* capsules 0 and 1, 256 + 344 circles */
    for (size_t np = 0; np <= 70; np++) {
        const size_t offsets[] = {0, 1, 5, 250 - np % 7, d.n - np};
        for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
            char label[80];
            snprintf(label, sizeof label, "dense run of %zu pairs from %zu", np, offsets[o]);
            pair_list l;
            list_slice(&l, d.ci, d.ki, offsets[o], np);
            check_pairs(&d.s, l.ci, l.ki, np, label);
            list_free(&l);
        }
    }
    dense_free(&d);
}

/* Almost-runs: consecutive circles with one capsule changed, one capsule with one circle out of
 * sequence, a run with a repeated circle, and shuffled pairs. */
static void dense_almost_runs(void **state) {
    (void)state;
    dense_scene d;
    dense_init(&d, 1024, 0xa1e05, LAYOUT_OFFSET);
    c2d_rng rng = {0x5eed};
    for (int variant = 0; variant < 4; variant++) {
        pair_list l;
        list_slice(&l, d.ci, d.ki, 0, d.n);
        for (size_t p = 0; p < l.n; p += 1 + c2d_rng_next(&rng) % 23) {
            switch (variant) {
            case 0:
                l.ki[p] = (l.ki[p] + 1) % (uint32_t)d.s.m;
                break;
            case 1:
                l.ci[p] = (uint32_t)(c2d_rng_next(&rng) % d.s.n);
                break;
            case 2:
                l.ci[p] = p > 0 ? l.ci[p - 1] : l.ci[p];
                break;
            default:
                break;
            }
        }
        if (variant == 3) c2d_pairs_shuffle(l.ci, l.ki, l.n, 0x5affe);
        char label[64];
        snprintf(label, sizeof label, "dense almost-runs, variant %d", variant);
        check_pairs(&d.s, l.ci, l.ki, l.n, label);
        list_free(&l);
    }
    dense_free(&d);
}

/* Truncation at every capacity, in order and shuffled (about 45 contacts). */
static void dense_truncation_every_capacity(void **state) {
    (void)state;
    dense_scene d;
    dense_init(&d, 75, 0x7c0de, LAYOUT_GUARDED);
    check_pairs_every_capacity(&d.s, d.ci, d.ki, d.n, "dense pairs, every capacity");
    c2d_pairs_shuffle(d.ci, d.ki, d.n, 0x7c0de);
    check_pairs_every_capacity(&d.s, d.ci, d.ki, d.n, "dense shuffled pairs, every capacity");
    dense_free(&d);
}

/* Special values sprinkled into dense runs: NaN, infinities, subnormals, huge values. */
static void dense_special_values(void **state) {
    (void)state;
    for (unsigned seed = 0; seed < 6; seed++) {
        dense_scene d;
        dense_init(&d, 300, 0x5bec + seed, seed % 2 ? LAYOUT_GUARDED : LAYOUT_OFFSET);
        c2d_rng rng = {0xface + seed};
        if (seed < 3)
            sprinkle_special(&d.s, &rng, 8 + 4 * seed, true, true, false);
        else
            sprinkle_tame(&d.s, &rng, 10, true, true, false);
        char label[64];
        snprintf(label, sizeof label, "dense pairs, special values %u", seed);
        check_pairs(&d.s, d.ci, d.ki, d.n, label);
        c2d_pairs_shuffle(d.ci, d.ki, d.n, seed);
        check_pairs(&d.s, d.ci, d.ki, d.n, label);
        dense_free(&d);
    }
}

/* ---- degenerate lanes ------------------------------------------------------------------- */

/* Circles and capsules where each lane of a vector takes another degenerate case: centre on an
 * endpoint (q = 0 exactly), on the axis, zero-length capsules with coincident or distinct
 * centres, zero radii, negative radii, subnormal and huge coordinates, mixed with ordinary
 * hits, so that the lazily computed axis-normal fallback serves exactly its own lanes. */
static void degenerate_scene(scene *s, size_t n, c2d_rng *rng) {
    scene_init(s, n, 8, LAYOUT_GUARDED);
    const float scales[8] = {1.0f, 1e-3f, 1e-38f, 1e-44f, 1e18f, 3e37f, 1e5f, 0.5f};
    for (size_t k = 0; k < 8; k++) {
        const float sc = scales[k];
        s->ax[k] = c2d_rng_range(rng, -1.0f, 1.0f) * sc;
        s->ay[k] = c2d_rng_range(rng, -1.0f, 1.0f) * sc;
        if (k % 3 == 1) { /* zero length */
            s->bx[k] = s->ax[k];
            s->by[k] = s->ay[k];
        } else {
            s->bx[k] = s->ax[k] + c2d_rng_range(rng, -2.0f, 2.0f) * sc;
            s->by[k] = s->ay[k] + c2d_rng_range(rng, -2.0f, 2.0f) * sc;
        }
        s->R[k] = k == 7 ? 0.0f : c2d_rng_range(rng, 0.0f, 0.5f) * sc;
    }
    for (size_t i = 0; i < n; i++) {
        const size_t k = i % 8;
        const float sc = scales[k];
        const float t = c2d_rng_unit(rng);
        float x, y;
        switch (c2d_rng_next(rng) % 8) {
        case 0:
            x = s->ax[k], y = s->ay[k];
            break; /* on the first endpoint: q = 0 */
        case 1:
            x = s->bx[k], y = s->by[k];
            break; /* on the second endpoint */
        case 2:    /* on the axis, up to rounding */
            x = s->ax[k] + t * (s->bx[k] - s->ax[k]);
            y = s->ay[k] + t * (s->by[k] - s->ay[k]);
            break;
        case 3:
            x = -0.0f, y = 0.0f;
            break;
        default:
            x = s->ax[k] + c2d_rng_range(rng, -1.0f, 1.0f) * sc;
            y = s->ay[k] + c2d_rng_range(rng, -1.0f, 1.0f) * sc;
            break;
        }
        s->x[i] = x;
        s->y[i] = y;
        switch (c2d_rng_next(rng) % 6) {
        case 0:
            s->r[i] = 0.0f;
            break;
        case 1:
            s->r[i] = -c2d_rng_range(rng, 0.0f, 1.0f) * sc;
            break;
        default:
            s->r[i] = c2d_rng_range(rng, 0.0f, 1.0f) * sc;
            break;
        }
    }
}

static void degenerate_lanes(void **state) {
    (void)state;
    for (unsigned seed = 0; seed < 4; seed++) {
        c2d_rng rng = {0xde6e + seed};
        scene s;
        degenerate_scene(&s, 67, &rng);
        /* every circle against its own capsule, in runs of one capsule ... */
        pair_list l;
        list_init(&l, s.n * s.m);
        size_t np = 0;
        for (size_t k = 0; k < s.m; k++)
            for (size_t i = 0; i < s.n; i++, np++)
                l.ci[np] = (uint32_t)i, l.ki[np] = (uint32_t)k;
        check_pairs(&s, l.ci, l.ki, np, "degenerate lanes, runs");
        c2d_pairs_shuffle(l.ci, l.ki, np, seed);
        check_pairs(&s, l.ci, l.ki, np, "degenerate lanes, shuffled");
        list_free(&l);
        /* ... and all pairs through c2d_batch_collide (circle specials take the exact path) */
        check_collide(&s, "degenerate lanes, collide");
        scene_free(&s);
    }
}

/* Worked examples in one vector: lane 3 has its centre on the axis (normal: the axis' left
 * perpendicular), lane 5 a zero-length capsule on its centre (normal (0, 1)), the others an
 * ordinary contact above a horizontal axis. */
static void worked_degenerate_normals(void **state) {
    (void)state;
    enum { N = 16 };
    scene s;
    scene_init(&s, N, 2, LAYOUT_ALIGNED);
    /* capsule 0: (-1, 0)-(1, 0), R = 0.5; capsule 1: the point (2, 3), R = 1 */
    s.ax[0] = -1.0f, s.ay[0] = 0.0f, s.bx[0] = 1.0f, s.by[0] = 0.0f, s.R[0] = 0.5f;
    s.ax[1] = 2.0f, s.ay[1] = 3.0f, s.bx[1] = 2.0f, s.by[1] = 3.0f, s.R[1] = 1.0f;
    uint32_t ci[N], ki[N];
    for (size_t i = 0; i < N; i++) {
        s.x[i] = 0.25f, s.y[i] = 1.0f, s.r[i] = 1.0f; /* normal (0, 1), depth 0.5 */
        ci[i] = (uint32_t)i, ki[i] = 0;
    }
    s.y[3] = 0.0f;                           /* on the axis */
    s.x[5] = 2.0f, s.y[5] = 3.0f, ki[5] = 1; /* on the zero-length capsule */
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        c2d_pair_contact out[N];
        size_t count = 0;
        assert_int_equal(
            c2d_batch_collide_pairs(&s.circles, &s.capsules, ci, ki, N, out, N, &count), C2D_OK);
        assert_int_equal(count, N);
        for (size_t i = 0; i < N; i++) {
            const c2d_contact *c = &out[i].contact;
            assert_int_equal(out[i].circle, i);
            if (i == 3) { /* left perpendicular of (2, 0): (-0, 2) / 2 */
                assert_true(c->normal.x == 0.0f && signbit(c->normal.x));
                assert_true(c->normal.y == 1.0f);
                assert_true(c->depth == 1.5f);
                assert_true(c->point.x == 0.25f && c->point.y == 0.5f);
            } else if (i == 5) { /* coincident: (0, 1) */
                assert_true(c->normal.x == 0.0f && !signbit(c->normal.x));
                assert_true(c->normal.y == 1.0f);
                assert_true(c->depth == 2.0f);
                assert_true(c->point.x == 2.0f && c->point.y == 4.0f);
            } else {
                assert_true(c->normal.x == 0.0f && c->normal.y == 1.0f);
                assert_true(c->depth == 0.5f);
                assert_true(c->point.x == 0.25f && c->point.y == 0.5f);
            }
        }
    }
    scene_free(&s);
}

/* ---- c2d_batch_collide, dense ------------------------------------------------------------ */

static const random_spec crowded = {6.0f, 0.2f, 1.5f, 0.0f, 0.0f, 4.0f, 0.0f, 1.0f};

/* Dense all-pairs frames at every circle count 0..40, and truncation at every capacity. */
static void collide_dense_every_count_and_capacity(void **state) {
    (void)state;
    for (size_t n = 0; n <= 40; n++) {
        c2d_rng rng = {0xc011de + n};
        scene s;
        scene_init(&s, n, 3, n % 2 ? LAYOUT_GUARDED : LAYOUT_OFFSET);
        fill_random(&s, &rng, &crowded);
        char label[64];
        snprintf(label, sizeof label, "crowded, %zu circles", n);
        check_collide(&s, label);
        if (n % 8 == 7) check_collide_every_capacity(&s, label);
        scene_free(&s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dense_workload_is_dense),
        cmocka_unit_test(dense_runs_every_count),
        cmocka_unit_test(dense_almost_runs),
        cmocka_unit_test(dense_truncation_every_capacity),
        cmocka_unit_test(dense_special_values),
        cmocka_unit_test(degenerate_lanes),
        cmocka_unit_test(worked_degenerate_normals),
        cmocka_unit_test(collide_dense_every_count_and_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
