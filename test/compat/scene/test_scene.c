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

/* Every circle count 0..36 (every tail of the four-circle first pass and of 4, 8, 16 and 32-lane
 * kernel steps) and capsule count 0..6, arrays ending at a guard page. */
static void scene_every_count(void **state) {
    (void)state;
    for (size_t n = 0; n <= 36; n++) {
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

/* ---- hostile data ----------------------------------------------------------------------- */

/* NaN, infinities, negative radii, huge values in circles, capsules or both. */
static void scene_special_values(void **state) {
    (void)state;
    for (unsigned round = 0; round < 6; round++) {
        c2d_rng rng = {0x5bec1a1 + round};
        scene s;
        scene_init(&s, 600 + round, 40, round % 2 ? LAYOUT_OFFSET : LAYOUT_ALIGNED);
        fill_random(&s, &rng, &dense_spec);
        const bool circles = round % 3 != 1, capsules = round % 3 != 0;
        if (round < 3)
            sprinkle_special(&s, &rng, 5, circles, capsules, true);
        else
            sprinkle_tame(&s, &rng, 10, circles, capsules, true);
        char label[64];
        snprintf(label, sizeof label, "special values, round %u", round);
        check_scene(&s, label);
        scene_free(&s);
    }
}

/* Near-touch scenes: rounding in the exact test, not the boxes, decides. */
static void scene_near_touch(void **state) {
    (void)state;
    const float offsets[] = {0.0f, 1e4f, -3e5f};
    for (size_t o = 0; o < 3; o++) {
        c2d_rng rng = {0x70c4 + o};
        scene s;
        scene_init(&s, 700, 30, LAYOUT_ALIGNED);
        fill_near_touch(&s, &rng, offsets[o], -offsets[o], o == 2 ? 100.0f : 1.0f);
        check_scene(&s, "near touch");
        scene_free(&s);
        grazing_scene(&s, 300, 20, LAYOUT_ALIGNED, &rng, offsets[o], offsets[o], 1.0f);
        check_scene(&s, "grazing sweeps");
        scene_free(&s);
    }
}

/* Sweeps whose earliest hits tie: a chain of capsules numbered right to left, each sharing an
 * end with the next, and balls falling onto the shared ends (every ball touches two capsules at
 * the same time) or along a capsule (grazing it and its neighbours). The scene meets the
 * capsules cell by cell, left to right, so the higher index of a tie arrives first; the answer
 * must still be the lower index, as in the batch call. Several hundred balls a block also
 * overfill the scene's candidate list. */
static void scene_sweep_ties(void **state) {
    (void)state;
    const size_t links = 64, per_end = 12;
    scene s;
    scene_init(&s, (links - 1) * per_end, links, LAYOUT_ALIGNED);
    for (size_t k = 0; k < links; k++) { /* capsule links-1-k spans [2k, 2k + 2] on y = 0 */
        const size_t c = links - 1 - k;
        s.ax[c] = 2.0f * (float)k;
        s.bx[c] = 2.0f * (float)(k + 1);
        s.ay[c] = s.by[c] = 0.0f;
        s.R[c] = k % 3 == 0 ? 0.0f : 0.25f;
    }
    for (size_t e = 0; e + 1 < links; e++)
        for (size_t j = 0; j < per_end; j++) {
            const size_t i = e * per_end + j;
            const float end = 2.0f * (float)(e + 1);
            s.r[i] = 0.125f * (float)(1 + j % 4);
            s.x[i] = j < 8 ? end : end - 1.0f + 0.25f * (float)(j - 8);
            s.y[i] = j < 8 ? 1.0f + (float)j : s.r[i] + s.R[links - 1 - e];
            s.mx[i] = j < 8 ? 0.0f : 3.0f;
            s.my[i] = j < 8 ? -2.0f - (float)j : 0.0f;
        }
    check_scene(&s, "tied sweeps");
    scene_free(&s);
}

/* Shapes a uniform grid dislikes: every ball at one point, one huge ball among small ones,
 * zero-length capsules, a world-long diagonal capsule, capsules of very different lengths,
 * huge but tame coordinates. */
static void scene_hostile_shapes(void **state) {
    (void)state;
    c2d_rng rng = {0x4057};
    scene s;
    /* every ball in one cell */
    scene_init(&s, 2000, 50, LAYOUT_ALIGNED);
    fill_random(&s, &rng, &dense_spec);
    for (size_t i = 0; i < s.n; i++) {
        s.x[i] = 5.0f;
        s.y[i] = 5.0f + (float)(i % 3) * 1e-6f;
    }
    check_scene(&s, "all balls at one point");
    /* one huge ball, zero-length capsules, a world-long diagonal */
    fill_random(&s, &rng, &dense_spec);
    s.r[7] = 40.0f;
    s.r[1500] = 1e6f;
    for (size_t k = 0; k < s.m; k += 5) {
        s.bx[k] = s.ax[k];
        s.by[k] = s.ay[k];
    }
    s.ax[3] = -1e3f;
    s.ay[3] = -1e3f;
    s.bx[3] = 1e3f;
    s.by[3] = 1e3f;
    s.ax[4] = 0.0f; /* a floor */
    s.ay[4] = 0.5f;
    s.bx[4] = 10.0f;
    s.by[4] = 0.5f;
    check_scene(&s, "huge ball, zero-length capsules, world-long capsules");
    /* lengths from 1e-3 to 1e3, radii from 0 to 10 */
    for (size_t k = 0; k < s.m; k++) {
        const float len = powf(10.0f, c2d_rng_range(&rng, -3.0f, 3.0f));
        const c2d_vec2 d = c2d_rng_direction(&rng);
        s.bx[k] = s.ax[k] + d.x * len;
        s.by[k] = s.ay[k] + d.y * len;
        s.R[k] = k % 4 == 0 ? 0.0f : c2d_rng_range(&rng, 0.0f, 10.0f);
    }
    check_scene(&s, "capsules of very different lengths");
    /* huge tame coordinates (near 2^40) and beyond */
    for (size_t i = 0; i < s.n; i++) {
        s.x[i] = s.x[i] * 1e9f + 1e11f;
        s.y[i] = s.y[i] * 1e9f;
        s.r[i] *= 1e9f;
    }
    for (size_t k = 0; k < s.m; k++) {
        s.ax[k] = s.ax[k] * 1e9f + 1e11f;
        s.bx[k] = s.bx[k] * 1e9f + 1e11f;
        s.ay[k] *= 1e9f;
        s.by[k] *= 1e9f;
        s.R[k] *= 1e9f;
    }
    check_scene(&s, "huge coordinates");
    scene_free(&s);
}

/* W5 mixed sizes with a floor, misaligned, on a larger board. */
static void scene_mixed_floor(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 6000, 400, C2D_W5_MIXED, 99), 0);
    w.ax[10] = 0.0f;
    w.ay[10] = 3.0f;
    w.bx[10] = 120.0f;
    w.by[10] = 3.0f;
    scene s;
    scene_from_workload(&s, &w, LAYOUT_OFFSET);
    check_scene(&s, "W5 mixed with a floor");
    scene_free(&s);
    c2d_workload_free(&w);
}

/* ---- moving capsules ----------------------------------------------------------------- */

static void scene_move_capsules(void **state) {
    (void)state;
    c2d_rng rng = {0x3011e};
    scene s;
    scene_init(&s, 1200, 60, LAYOUT_ALIGNED);
    fill_random(&s, &rng, &dense_spec);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
    check_scene_once(sc, &s, "before moving");
    for (unsigned round = 0; round < 8; round++) {
        const size_t first = (size_t)(c2d_rng_next(&rng) % s.m);
        const size_t n = 1 + (size_t)(c2d_rng_next(&rng) % (s.m - first));
        for (size_t k = first; k < first + n; k++) { /* move, rotate, grow, or break */
            s.ax[k] += c2d_rng_range(&rng, -3.0f, 3.0f);
            s.by[k] += c2d_rng_range(&rng, -3.0f, 3.0f);
            if (round == 5) s.R[k] = NAN;
            if (round == 6 && k == first) s.bx[k] = INFINITY;
            if (round == 7 && k == first) s.ax[k] = -500.0f;
        }
        const c2d_capsule_soa moved = {s.ax + first, s.ay + first, s.bx + first,
                                       s.by + first, s.R + first,  n,
                                       NULL,         NULL,         NULL};
        /* a stale binning is refused after a move */
        assert_int_equal(c2d_scene_bin(sc, &s.circles), C2D_OK);
        assert_int_equal(c2d_scene_move_capsules(sc, first, &moved), C2D_OK);
        size_t count = 1;
        assert_int_equal(c2d_scene_collide_range(sc, &s.circles, 0, s.m, NULL, 0, &count),
                         C2D_ERROR_STATE);
        assert_int_equal(count, 0);
        char label[64];
        snprintf(label, sizeof label, "after move %u", round);
        check_scene_once(sc, &s, label);
    }
    c2d_scene_destroy(sc);
    scene_free(&s);
}

/* ---- the split frame ------------------------------------------------------------------ */

/* c2d_scene_bin_begin / _part / _end in any number of parts, parts binned in any order:
 * the ranges then give the single call's answer. */
static void scene_bin_in_parts(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 5000, 300, C2D_W5_CLUSTERED, 5), 0);
    w.x[17] = NAN;
    w.radius[18] = INFINITY;
    w.x[19] = 1e30f;
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&w.capsules, NULL, &sc), C2D_OK);
    size_t total = 0;
    c2d_pair_contact *ref = malloc(20000 * sizeof *ref), *got = malloc(20000 * sizeof *got);
    assert_int_equal(c2d_scene_collide(sc, &w.circles, ref, 20000, &total), C2D_OK);
    size_t oracle = 0;
    assert_int_equal(c2d_batch_collide(&w.circles, &w.capsules, got, 20000, &oracle), C2D_OK);
    assert_int_equal(oracle, total);
    assert_memory_equal(ref, got, total * sizeof *ref);
    const size_t parts[] = {1, 2, 3, 5, 64};
    for (size_t q = 0; q < sizeof parts / sizeof parts[0]; q++) {
        const size_t np = parts[q];
        assert_int_equal(c2d_scene_bin_begin(sc, &w.circles, np), C2D_OK);
        for (size_t p = 0; p < np; p++) /* in reverse: the order does not matter */
            assert_int_equal(c2d_scene_bin_part(sc, np - 1 - p), C2D_OK);
        assert_int_equal(c2d_scene_bin_end(sc), C2D_OK);
        size_t done = 0;
        for (size_t r = 0; r < 4; r++) {
            const size_t first = w.capsules.count * r / 4, last = w.capsules.count * (r + 1) / 4;
            size_t count;
            assert_int_equal(c2d_scene_collide_range(sc, &w.circles, first, last - first,
                                                     got + done, 20000 - done, &count),
                             C2D_OK);
            done += count;
        }
        assert_int_equal(done, total);
        assert_memory_equal(ref, got, total * sizeof *ref);
    }
    /* a part missing, or twice the parts allowed */
    assert_int_equal(c2d_scene_bin_begin(sc, &w.circles, 2), C2D_OK);
    assert_int_equal(c2d_scene_bin_part(sc, 0), C2D_OK);
    assert_int_equal(c2d_scene_bin_end(sc), C2D_ERROR_STATE);
    size_t count = 1;
    assert_int_equal(c2d_scene_collide_range(sc, &w.circles, 0, 1, got, 1, &count),
                     C2D_ERROR_STATE);
    assert_int_equal(c2d_scene_bin_part(sc, 2), C2D_ERROR_INDEX);
    assert_int_equal(c2d_scene_bin_begin(sc, &w.circles, 0), C2D_ERROR_INDEX);
    assert_int_equal(c2d_scene_bin_begin(sc, &w.circles, 65), C2D_ERROR_INDEX);
    free(ref);
    free(got);
    c2d_scene_destroy(sc);
    c2d_workload_free(&w);
}

/* ---- bad arguments ---------------------------------------------------------------------- */

static void scene_bad_arguments(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_make(&w, 100, 10, 3), 0);
    c2d_scene *sc = (c2d_scene *)&w; /* must be overwritten */
    assert_int_equal(c2d_scene_create(NULL, NULL, &sc), C2D_ERROR_NULL);
    assert_null(sc);
    assert_int_equal(c2d_scene_create(&w.capsules, NULL, NULL), C2D_ERROR_NULL);
    c2d_capsule_soa k = w.capsules;
    k.by = NULL;
    assert_int_equal(c2d_scene_create(&k, NULL, &sc), C2D_ERROR_NULL);
#if SIZE_MAX > UINT32_MAX /* a 32-bit size_t (wasm32) cannot hold a count above UINT32_MAX */
    k = w.capsules;
    k.count = (size_t)UINT32_MAX + 1;
    assert_int_equal(c2d_scene_create(&k, NULL, &sc), C2D_ERROR_TOO_LARGE);
#endif
    const c2d_allocator half = {NULL, NULL, NULL};
    assert_int_equal(c2d_scene_create(&w.capsules, &half, &sc), C2D_ERROR_NULL);
    /* zero capsules with NULL arrays is a scene */
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    assert_int_equal(c2d_scene_create(&none, NULL, &sc), C2D_OK);
    size_t count = 7;
    c2d_pair_contact out[4];
    assert_int_equal(c2d_scene_collide(sc, &w.circles, out, 4, &count), C2D_OK);
    assert_int_equal(count, 0);
    c2d_circle_toi toi[100];
    assert_int_equal(c2d_scene_sweep(sc, &w.circles, w.move_x, w.move_y, toi), C2D_OK);
    assert_int_equal(toi[5].capsule, C2D_NONE);
    assert_int_equal(c2d_scene_capsule_count(sc), 0);
    c2d_scene_destroy(sc);
    c2d_scene_destroy(NULL);

    assert_int_equal(c2d_scene_create(&w.capsules, NULL, &sc), C2D_OK);
    assert_int_equal(c2d_scene_capsule_count(sc), 10);
    /* collide: count set on every error, nothing written */
    count = 7;
    assert_int_equal(c2d_scene_collide(NULL, &w.circles, out, 4, &count), C2D_ERROR_NULL);
    assert_int_equal(count, 0);
    count = 7;
    assert_int_equal(c2d_scene_collide(sc, NULL, out, 4, &count), C2D_ERROR_NULL);
    assert_int_equal(count, 0);
    count = 7;
    assert_int_equal(c2d_scene_collide(sc, &w.circles, NULL, 4, &count), C2D_ERROR_NULL);
    assert_int_equal(count, 0);
    assert_int_equal(c2d_scene_collide(sc, &w.circles, out, 4, NULL), C2D_ERROR_NULL);
    c2d_circle_soa c = w.circles;
    c.radius = NULL;
    count = 7;
    assert_int_equal(c2d_scene_collide(sc, &c, out, 4, &count), C2D_ERROR_NULL);
    assert_int_equal(count, 0);
#if SIZE_MAX > UINT32_MAX
    c = w.circles;
    c.count = (size_t)UINT32_MAX + 1;
    count = 7;
    assert_int_equal(c2d_scene_collide(sc, &c, out, 4, &count), C2D_ERROR_TOO_LARGE);
    assert_int_equal(count, 0);
#endif
    /* ranges */
    assert_int_equal(c2d_scene_bin(sc, &w.circles), C2D_OK);
    count = 7;
    assert_int_equal(c2d_scene_collide_range(sc, &w.circles, 5, 6, out, 4, &count),
                     C2D_ERROR_INDEX);
    assert_int_equal(count, 0);
    assert_int_equal(c2d_scene_collide_range(sc, &w.circles, 11, 0, out, 4, &count),
                     C2D_ERROR_INDEX);
    assert_int_equal(c2d_scene_collide_range(sc, &w.circles, 10, 0, out, 4, &count), C2D_OK);
    assert_int_equal(count, 0);
    c = w.circles;
    c.count = 99; /* not the binned set */
    assert_int_equal(c2d_scene_collide_range(sc, &c, 0, 10, out, 4, &count), C2D_ERROR_STATE);
    assert_int_equal(c2d_scene_bin(NULL, &w.circles), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_bin(sc, NULL), C2D_ERROR_NULL);
    /* sweeps */
    assert_int_equal(c2d_scene_sweep(NULL, &w.circles, w.move_x, w.move_y, toi), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep(sc, &w.circles, NULL, w.move_y, toi), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep(sc, &w.circles, w.move_x, w.move_y, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep_range(sc, &w.circles, w.move_x, w.move_y, 90, 11, toi),
                     C2D_ERROR_INDEX);
    assert_int_equal(c2d_scene_sweep_range(sc, &w.circles, w.move_x, w.move_y, 100, 0, NULL),
                     C2D_OK);
    /* moves */
    c2d_capsule_soa part = {w.ax, w.ay, w.bx, w.by, w.capsule_radius, 3, NULL, NULL, NULL};
    assert_int_equal(c2d_scene_move_capsules(sc, 8, &part), C2D_ERROR_INDEX);
    assert_int_equal(c2d_scene_move_capsules(NULL, 0, &part), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_move_capsules(sc, 0, NULL), C2D_ERROR_NULL);
    part.count = 0;
    assert_int_equal(c2d_scene_move_capsules(sc, 10, &part), C2D_OK);
    assert_string_not_equal(c2d_status_string(C2D_ERROR_ALLOC), "unknown status");
    c2d_scene_destroy(sc);
    c2d_workload_free(&w);
}

/* ---- allocation ------------------------------------------------------------------------- */

/* An allocator that counts, and fails the allocation numbered `fail_at` (from 1; 0: never). */
typedef struct counting {
    size_t calls, live, fail_at;
} counting;

static void *counting_alloc(size_t size, void *user) {
    counting *c = user;
    if (++c->calls == c->fail_at) return NULL;
    c->live++;
    return malloc(size);
}

static void counting_free(void *ptr, void *user) {
    counting *c = user;
    c->live--;
    free(ptr);
}

/* Create, a first frame, a move and a bigger frame, failing the k-th allocation for every k:
 * each failure is C2D_ERROR_ALLOC, leaves the scene answering as before, and leaks nothing. */
static void scene_failing_allocator(void **state) {
    (void)state;
    c2d_workload w, big;
    assert_int_equal(c2d_workload_w5(&w, 400, 40, C2D_W5_MIXED, 8), 0);
    assert_int_equal(c2d_workload_w5(&big, 1500, 40, C2D_W5_UNIFORM, 9), 0);
    w.x[3] = INFINITY; /* a wild circle too */
    c2d_pair_contact *ref = malloc(4000 * sizeof *ref), *got = malloc(4000 * sizeof *got);
    size_t total = 0, big_total = 0;
    assert_int_equal(c2d_batch_collide(&w.circles, &w.capsules, ref, 4000, &total), C2D_OK);
    bool finished = false;
    for (size_t k = 1; !finished; k++) {
        counting cnt = {0, 0, k};
        const c2d_allocator a = {counting_alloc, counting_free, &cnt};
        c2d_scene *sc = NULL;
        c2d_status st = c2d_scene_create(&w.capsules, &a, &sc);
        if (st != C2D_OK) {
            assert_int_equal(st, C2D_ERROR_ALLOC);
            assert_null(sc);
            assert_int_equal(cnt.live, 0);
            continue;
        }
        size_t count = 0;
        st = c2d_scene_collide(sc, &w.circles, got, 4000, &count);
        if (st == C2D_ERROR_ALLOC) { /* the scene still works once memory is back */
            assert_int_equal(count, 0);
            cnt.fail_at = 0;
            assert_int_equal(c2d_scene_collide(sc, &w.circles, got, 4000, &count), C2D_OK);
        }
        assert_int_equal(st == C2D_ERROR_ALLOC || st == C2D_OK, true);
        assert_int_equal(count, total);
        assert_memory_equal(ref, got, total * sizeof *ref);
        /* a move: on failure the old capsules still answer */
        const c2d_capsule_soa moved = {big.ax, big.ay, big.bx, big.by, big.capsule_radius,
                                       5,      NULL,   NULL,   NULL};
        st = c2d_scene_move_capsules(sc, 2, &moved);
        if (st == C2D_ERROR_ALLOC) {
            assert_int_equal(c2d_scene_collide(sc, &w.circles, got, 4000, &count), C2D_OK);
            assert_int_equal(count, total);
            assert_memory_equal(ref, got, total * sizeof *ref);
            c2d_scene_destroy(sc);
            assert_int_equal(cnt.live, 0);
            continue;
        }
        assert_int_equal(st, C2D_OK);
        /* a bigger frame needs more scratch */
        st = c2d_scene_collide(sc, &big.circles, got, 4000, &count);
        if (st == C2D_ERROR_ALLOC) {
            c2d_scene_destroy(sc);
            assert_int_equal(cnt.live, 0);
            continue;
        }
        assert_int_equal(st, C2D_OK);
        big_total = count;
        c2d_scene_destroy(sc);
        assert_int_equal(cnt.live, 0);
        finished = cnt.calls < k; /* no allocation failed: every k was tried */
    }
    (void)big_total;
    free(ref);
    free(got);
    c2d_workload_free(&w);
    c2d_workload_free(&big);
}

/* A steady stream of frames (collides, bins, ranges, sweeps, small capsule moves) allocates
 * nothing after the first frame; smaller frames neither. */
static void scene_steady_frames_allocate_nothing(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 4096, 256, C2D_W5_UNIFORM, 12), 0);
    counting cnt = {0, 0, 0};
    const c2d_allocator a = {counting_alloc, counting_free, &cnt};
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&w.capsules, &a, &sc), C2D_OK);
    c2d_pair_contact *out = malloc(4096 * sizeof *out);
    c2d_circle_toi *toi = malloc(4096 * sizeof *toi);
    size_t count;
    assert_int_equal(c2d_scene_collide(sc, &w.circles, out, 4096, &count), C2D_OK);
    const size_t after_first = cnt.calls;
    for (int frame = 0; frame < 20; frame++) {
        for (size_t i = 0; i < w.circles.count; i++) { /* the balls move a little */
            w.x[i] += 0.01f * (float)((frame + (int)i) % 5 - 2);
            w.y[i] -= 0.01f;
        }
        assert_int_equal(c2d_scene_collide(sc, &w.circles, out, 4096, &count), C2D_OK);
        assert_int_equal(c2d_scene_bin(sc, &w.circles), C2D_OK);
        assert_int_equal(c2d_scene_collide_range(sc, &w.circles, 0, 100, out, 4096, &count),
                         C2D_OK);
        assert_int_equal(c2d_scene_sweep(sc, &w.circles, w.move_x, w.move_y, toi), C2D_OK);
        c2d_circle_soa fewer = w.circles;
        fewer.count /= 2;
        assert_int_equal(c2d_scene_collide(sc, &fewer, out, 4096, &count), C2D_OK);
        /* a flipper: capsules 3 and 4 turn a little every frame */
        w.bx[3] += 0.05f;
        w.by[4] -= 0.05f;
        const c2d_capsule_soa flipper = {
            w.ax + 3, w.ay + 3, w.bx + 3, w.by + 3, w.capsule_radius + 3, 2, NULL, NULL, NULL};
        assert_int_equal(c2d_scene_move_capsules(sc, 3, &flipper), C2D_OK);
    }
    assert_int_equal(cnt.calls, after_first);
    c2d_scene_destroy(sc);
    assert_int_equal(cnt.live, 0);
    free(out);
    free(toi);
    c2d_workload_free(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scene_w5_variants),
        cmocka_unit_test(scene_dense),
        cmocka_unit_test(scene_every_count),
        cmocka_unit_test(scene_special_values),
        cmocka_unit_test(scene_near_touch),
        cmocka_unit_test(scene_sweep_ties),
        cmocka_unit_test(scene_hostile_shapes),
        cmocka_unit_test(scene_mixed_floor),
        cmocka_unit_test(scene_move_capsules),
        cmocka_unit_test(scene_bin_in_parts),
        cmocka_unit_test(scene_bad_arguments),
        cmocka_unit_test(scene_failing_allocator),
        cmocka_unit_test(scene_steady_frames_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
