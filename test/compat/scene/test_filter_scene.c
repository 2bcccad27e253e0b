/* Collision filters and sensors in the scene calls (collide2d/filter.h), byte for byte on every
 * backend against a scalar loop over the allowed pairs (public functions only):
 * c2d_collide_circle_capsule() capsule-major then circle index for c2d_scene_collide() and the
 * range calls (frames binned whole or in parts), and the earliest c2d_sweep_circle_capsule() /
 * c2d_sweep_circle_moving_capsule() hit over the allowed capsules, ties to the lowest index,
 * for c2d_scene_sweep(), its ranges and c2d_scene_sweep_moving_capsules(). Inputs: random filter
 * words over few bits (plus 0 and C2D_FILTER_ALL) and sensors, every array NULL or not; every
 * circle count 0..40 and larger; special values; W5 boards with the fine index, big balls,
 * floors and wild circles; capsule moves that change the filter words (a gate that opens);
 * truncation on the filtered total; a refused or sensor capsule in front of an allowed one;
 * filters of C2D_FILTER_ALL everywhere against NULL arrays. */
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

/* ---- filter words ------------------------------------------------------------------------ */

/* A scene's filter arrays (n circles, m capsules), owned here; the scene's sets point at them
 * or leave them NULL. */
typedef struct filters {
    uint32_t *cc, *cm, *kc, *km;
    uint8_t *sensor;
} filters;

/* Which arrays a scene carries: bits of the mode. */
enum {
    CIRCLE_CATEGORY = 1,
    CIRCLE_MASK = 2,
    CAPSULE_CATEGORY = 4,
    CAPSULE_MASK = 8,
    SENSORS = 16,
    EVERY_ARRAY = 31
};

/* A category: mostly one of three layers, sometimes none, every layer or a few. */
static uint32_t some_category(c2d_rng *rng) {
    const unsigned pick = (unsigned)(c2d_rng_next(rng) % 16);
    if (pick == 0) return 0;
    if (pick == 1) return C2D_FILTER_ALL;
    if (pick == 2) return (uint32_t)(c2d_rng_next(rng) % 8);
    return 1u << (pick % 3);
}

/* A mask: any set of the three layers, sometimes every layer. */
static uint32_t some_mask(c2d_rng *rng) {
    const unsigned pick = (unsigned)(c2d_rng_next(rng) % 16);
    return pick == 0 ? C2D_FILTER_ALL : (uint32_t)(c2d_rng_next(rng) % 8);
}

/* Random words for s's circles and capsules, sensors about one capsule in eight; the arrays of
 * `mode` go into s's sets, the others are NULL. */
static void random_filters(scene *s, filters *f, c2d_rng *rng, unsigned mode) {
    f->cc = xmalloc((s->n + 1) * sizeof *f->cc);
    f->cm = xmalloc((s->n + 1) * sizeof *f->cm);
    f->kc = xmalloc((s->m + 1) * sizeof *f->kc);
    f->km = xmalloc((s->m + 1) * sizeof *f->km);
    f->sensor = xmalloc(s->m + 1);
    for (size_t i = 0; i < s->n; i++) {
        f->cc[i] = some_category(rng);
        f->cm[i] = some_mask(rng);
    }
    for (size_t k = 0; k < s->m; k++) {
        f->kc[k] = some_category(rng);
        f->km[k] = some_mask(rng);
        f->sensor[k] = c2d_rng_next(rng) % 8 == 0 ? (uint8_t)(1 + c2d_rng_next(rng) % 255) : 0;
    }
    s->circles.category = mode & CIRCLE_CATEGORY ? f->cc : NULL;
    s->circles.mask = mode & CIRCLE_MASK ? f->cm : NULL;
    s->capsules.category = mode & CAPSULE_CATEGORY ? f->kc : NULL;
    s->capsules.mask = mode & CAPSULE_MASK ? f->km : NULL;
    s->capsules.sensor = mode & SENSORS ? f->sensor : NULL;
}

static void filters_free(scene *s, filters *f) {
    free(f->cc);
    free(f->cm);
    free(f->kc);
    free(f->km);
    free(f->sensor);
    s->circles.category = s->circles.mask = NULL;
    s->capsules.category = s->capsules.mask = NULL;
    s->capsules.sensor = NULL;
}

/* ---- the oracle: scalar loops over the allowed pairs -------------------------------------- */

static uint32_t word_or_all(const uint32_t *words, size_t i) {
    return words ? words[i] : C2D_FILTER_ALL;
}

/* Does circle i meet capsule k in a collide or sweep: the rule, and no sensor. */
static bool meets(const scene *s, size_t i, size_t k) {
    const c2d_circle_soa *c = &s->circles;
    const c2d_capsule_soa *K = &s->capsules;
    if (K->sensor && K->sensor[k]) return false;
    return c2d_filter_allows(word_or_all(c->category, i), word_or_all(c->mask, i),
                             word_or_all(K->category, k), word_or_all(K->mask, k));
}

static c2d_circle circle_at(const scene *s, size_t i) {
    return (c2d_circle){{s->x[i], s->y[i]}, s->r[i]};
}

static c2d_capsule capsule_at(const scene *s, size_t k) {
    return (c2d_capsule){{s->ax[k], s->ay[k]}, {s->bx[k], s->by[k]}, s->R[k]};
}

/* The allowed contacts, capsule-major then circle index (*out malloc'd); *all gets the count
 * without the filter. */
static size_t ref_collide_filtered(const scene *s, c2d_pair_contact **out, size_t *all) {
    c2d_pair_contact *v = xmalloc((s->n * s->m + 1) * sizeof *v);
    size_t total = 0;
    *all = 0;
    for (size_t k = 0; k < s->m; k++)
        for (size_t i = 0; i < s->n; i++) {
            c2d_contact c;
            if (!c2d_collide_circle_capsule(circle_at(s, i), capsule_at(s, k), &c)) continue;
            ++*all;
            if (!meets(s, i, k)) continue;
            v[total].circle = (uint32_t)i;
            v[total].capsule = (uint32_t)k;
            v[total++].contact = c;
        }
    *out = v;
    return total;
}

/* The earliest allowed hit of each circle, ties to the lowest capsule index; capsule moves
 * kmx/kmy (NULL: at rest). */
static void ref_sweep_filtered(const scene *s, const float *kmx, const float *kmy,
                               c2d_circle_toi *out) {
    for (size_t i = 0; i < s->n; i++) {
        c2d_circle_toi best;
        memset(&best, 0, sizeof best);
        best.capsule = C2D_NONE;
        const c2d_vec2 move = {s->mx[i], s->my[i]};
        for (size_t k = 0; k < s->m; k++) {
            if (!meets(s, i, k)) continue;
            c2d_toi toi;
            const bool hit =
                kmx ? c2d_sweep_circle_moving_capsule(circle_at(s, i), move, capsule_at(s, k),
                                                      (c2d_vec2){kmx[k], kmy[k]}, &toi)
                    : c2d_sweep_circle_capsule(circle_at(s, i), move, capsule_at(s, k), &toi);
            if (hit && (best.capsule == C2D_NONE || toi.t < best.toi.t)) {
                best.capsule = (uint32_t)k;
                best.toi = toi;
            }
        }
        out[i] = best;
    }
}

/* Capsule moves for the moving sweep: a few paddles, the rest at rest. */
static void some_moves(c2d_rng *rng, float *kmx, float *kmy, size_t m) {
    for (size_t k = 0; k < m; k++) {
        const bool moves = c2d_rng_next(rng) % 4 == 0;
        kmx[k] = moves ? c2d_rng_range(rng, -2.0f, 2.0f) : 0.0f;
        kmy[k] = moves ? c2d_rng_range(rng, -2.0f, 2.0f) : 0.0f;
    }
}

/* ---- checks ------------------------------------------------------------------------------- */

/* Every scene call of sc (a scene over s's capsules and filters) against the oracle on the
 * active backend: collides at every capacity around the filtered total, size queries, ranges
 * of whole and split frames, sweeps, sweep ranges and the moving sweep. */
static void check_once(c2d_scene *sc, const scene *s, c2d_rng *rng, const char *label) {
    c2d_pair_contact *ref;
    size_t all;
    const size_t total = ref_collide_filtered(s, &ref, &all);
    c2d_circle_toi *sweep = xmalloc((s->n + 1) * sizeof *sweep);
    c2d_circle_toi *got = xmalloc((s->n + 1) * sizeof *got);
    ref_sweep_filtered(s, NULL, NULL, sweep);
    check_scene_expect(sc, s, ref, total, sweep, label);
    /* moving capsules */
    float *kmx = xmalloc((s->m + 1) * sizeof *kmx), *kmy = xmalloc((s->m + 1) * sizeof *kmy);
    some_moves(rng, kmx, kmy, s->m);
    ref_sweep_filtered(s, kmx, kmy, sweep);
    memset(got, CANARY_BYTE, (s->n + 1) * sizeof *got);
    assert_int_equal(c2d_scene_sweep_moving_capsules(sc, &s->circles, s->mx, s->my, kmx, kmy, got),
                     C2D_OK);
    assert_true(compare_tois(s, sweep, got, s->n, label));
    assert_true(bytes_are(got + s->n, sizeof *got, CANARY_BYTE));
    free(kmx);
    free(kmy);
    free(got);
    free(sweep);
    free(ref);
}

static void check_with_rng(c2d_scene *sc, const scene *s, void *rng, const char *label) {
    check_once(sc, s, rng, label);
}

/* check_once on every backend with one scene (kept across them). */
static void check_all_backends(c2d_scene *sc, const scene *s, c2d_rng *rng, const char *label) {
    on_every_backend(sc, s, check_with_rng, rng, label);
}

/* A scene over s's capsules (and their filters), checked on every backend. */
static void check_new_scene(const scene *s, c2d_rng *rng, const char *label) {
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s->capsules, NULL, &sc), C2D_OK);
    check_all_backends(sc, s, rng, label);
    c2d_scene_destroy(sc);
}

/* ---- tests -------------------------------------------------------------------------------- */

/* Dense random scenes with every circle count 0..40 and a few larger, each with a random
 * choice of filter arrays (all of them every third case). */
static void filter_every_count(void **state) {
    (void)state;
    c2d_rng rng = {0xf117e5};
    const random_spec spec = {12.0f, 0.1f, 1.5f, 4.0f, 0.0f, 4.0f, 0.0f, 1.0f};
    const size_t caps[] = {0, 1, 3, 9, 17, 40};
    for (size_t n = 0; n <= 40; n++)
        for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
            scene s;
            filters f;
            scene_init(&s, n, caps[c], (scene_layout)((n + c) % 3));
            fill_random(&s, &rng, &spec);
            const unsigned mode =
                (n + c) % 3 == 0 ? EVERY_ARRAY : 1u + (unsigned)(c2d_rng_next(&rng) % 31);
            random_filters(&s, &f, &rng, mode);
            char label[80];
            snprintf(label, sizeof label, "%zu circles, %zu capsules, mode %u", n, caps[c], mode);
            check_new_scene(&s, &rng, label);
            filters_free(&s, &f);
            scene_free(&s);
        }
    const size_t big[][2] = {{300, 120}, {700, 40}, {97, 300}};
    for (size_t b = 0; b < 3; b++) {
        scene s;
        filters f;
        scene_init(&s, big[b][0], big[b][1], LAYOUT_ALIGNED);
        const random_spec wide = {60.0f, 0.1f, 2.0f, 6.0f, 0.0f, 8.0f, 0.0f, 1.0f};
        fill_random(&s, &rng, &wide);
        random_filters(&s, &f, &rng, EVERY_ARRAY);
        check_new_scene(&s, &rng, "larger");
        filters_free(&s, &f);
        scene_free(&s);
    }
}

/* Near-touching pairs and special values (NaN, infinities, huge, subnormal) with filters. */
static void filter_specials(void **state) {
    (void)state;
    c2d_rng rng = {0x5bec1a1};
    for (unsigned round = 0; round < 12; round++) {
        scene s;
        filters f;
        scene_init(&s, 37 + round, 23, LAYOUT_GUARDED);
        fill_near_touch(&s, &rng, 5.0f * (float)round, -3.0f, 1.0f + (float)round);
        if (round % 2)
            sprinkle_special(&s, &rng, 10, true, true, true);
        else
            sprinkle_tame(&s, &rng, 15, true, true, true);
        random_filters(&s, &f, &rng, round % 3 ? EVERY_ARRAY : CAPSULE_CATEGORY | SENSORS);
        char label[64];
        snprintf(label, sizeof label, "specials, round %u", round);
        check_new_scene(&s, &rng, label);
        filters_free(&s, &f);
        scene_free(&s);
    }
}

/* Copies capsules [first, first + n) of s, with the filter arrays of `mode`, as a moved set. */
static c2d_capsule_soa moved_set(const scene *s, const filters *f, size_t first, size_t n,
                                 unsigned mode) {
    return (c2d_capsule_soa){s->ax + first,
                             s->ay + first,
                             s->bx + first,
                             s->by + first,
                             s->R + first,
                             n,
                             mode & CAPSULE_CATEGORY ? f->kc + first : NULL,
                             mode & CAPSULE_MASK ? f->km + first : NULL,
                             mode & SENSORS ? f->sensor + first : NULL};
}

/* W5 boards (uniform, mixed sizes: big balls, a floor), whose scenes use the fine index, with
 * wild and NaN circles; then flippers whose moves change their filter words (gates that open
 * and close, sensors that stop being sensors), tracked as dirty, and a bulk move that makes
 * the next frame rebuild the index. The scene starts without filters in one round: a move
 * that carries words gives it its filter block. */
static void filter_w5_boards(void **state) {
    (void)state;
    c2d_rng rng = {0xb0a4d5};
    const c2d_w5_variant variants[] = {C2D_W5_UNIFORM, C2D_W5_MIXED, C2D_W5_FLOOR};
    for (size_t v = 0; v < 3; v++) {
        c2d_workload w;
        scene s;
        filters f;
        assert_int_equal(c2d_workload_w5(&w, 3000, 220, variants[v], 40 + v), 0);
        scene_from_workload(&s, &w, LAYOUT_ALIGNED);
        s.x[5] = NAN;
        s.x[7] = 3e12f; /* wild: tested against every capsule */
        s.r[9] = -1.0f;
        s.r[11] = 40.0f; /* above every radius bound: the coarse path */
        const bool plain_start = v == 1;
        random_filters(&s, &f, &rng, plain_start ? CIRCLE_CATEGORY | CIRCLE_MASK : EVERY_ARRAY);
        c2d_scene *sc;
        assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
        char label[96];
        snprintf(label, sizeof label, "W5 variant %zu", v);
        check_all_backends(sc, &s, &rng, label);
        for (unsigned frame = 1; frame <= 6; frame++) {
            /* two flippers swing; their gates change */
            const size_t first = (frame * 37) % (s.m - 2), n = 2;
            const uint32_t kept_category[2] = {f.kc[first], f.kc[first + 1]};
            const uint8_t kept_sensor[2] = {f.sensor[first], f.sensor[first + 1]};
            for (size_t k = first; k < first + n; k++) {
                const float angle = c2d_rng_range(&rng, -1.5f, 1.5f);
                s.bx[k] = s.ax[k] + 2.0f * cosf(angle);
                s.by[k] = s.ay[k] + 2.0f * sinf(angle);
                f.kc[k] = frame % 2 ? 0 : C2D_FILTER_ALL; /* closed to all, then open */
                f.km[k] = some_mask(&rng);
                f.sensor[k] = frame % 3 == 0;
            }
            const unsigned mode = frame == 5 ? CAPSULE_MASK : EVERY_ARRAY; /* 5: words kept */
            const c2d_capsule_soa moved = moved_set(&s, &f, first, n, mode);
            assert_int_equal(c2d_scene_move_capsules(sc, first, &moved), C2D_OK);
            /* the oracle sees the scene's words: those the moves carried, defaults before */
            if (plain_start && frame == 1) {
                for (size_t k = 0; k < s.m; k++) {
                    const bool now = k >= first && k < first + n;
                    f.kc[k] = now ? f.kc[k] : C2D_FILTER_ALL;
                    f.km[k] = now ? f.km[k] : C2D_FILTER_ALL;
                    f.sensor[k] = now ? f.sensor[k] : 0;
                }
                s.capsules.category = f.kc;
                s.capsules.mask = f.km;
                s.capsules.sensor = f.sensor;
            }
            if (mode == CAPSULE_MASK) /* the category and sensor words stay the scene's */
                for (size_t j = 0; j < n; j++) {
                    f.kc[first + j] = kept_category[j];
                    f.sensor[first + j] = kept_sensor[j];
                }
            snprintf(label, sizeof label, "W5 variant %zu, frame %u", v, frame);
            check_once(sc, &s, &rng, label);
        }
        /* every capsule's words change at once: the index is rebuilt (or paused) */
        for (size_t k = 0; k < s.m; k++) {
            f.kc[k] = some_category(&rng);
            f.km[k] = some_mask(&rng);
            f.sensor[k] = c2d_rng_next(&rng) % 5 == 0;
        }
        const c2d_capsule_soa all = moved_set(&s, &f, 0, s.m, EVERY_ARRAY);
        assert_int_equal(c2d_scene_move_capsules(sc, 0, &all), C2D_OK);
        snprintf(label, sizeof label, "W5 variant %zu, every capsule", v);
        check_all_backends(sc, &s, &rng, label);
        c2d_scene_destroy(sc);
        filters_free(&s, &f);
        scene_free(&s);
        c2d_workload_free(&w);
    }
}

/* Filters of C2D_FILTER_ALL in every element and no sensors give exactly the answers of NULL
 * arrays (and both the unfiltered oracle's). */
static void filter_all_words_equal_null(void **state) {
    (void)state;
    c2d_rng rng = {0xa11a11};
    c2d_workload w;
    scene s;
    filters f;
    assert_int_equal(c2d_workload_w5(&w, 2000, 150, C2D_W5_FLOOR, 7), 0);
    scene_from_workload(&s, &w, LAYOUT_OFFSET);
    random_filters(&s, &f, &rng, 0);
    for (size_t i = 0; i < s.n; i++)
        f.cc[i] = f.cm[i] = C2D_FILTER_ALL;
    for (size_t k = 0; k < s.m; k++) {
        f.kc[k] = f.km[k] = C2D_FILTER_ALL;
        f.sensor[k] = 0;
    }
    c2d_scene *plain, *with;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &plain), C2D_OK);
    s.capsules.category = f.kc;
    s.capsules.mask = f.km;
    s.capsules.sensor = f.sensor;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &with), C2D_OK);
    const c2d_circle_soa bare = {s.x, s.y, s.r, s.n, NULL, NULL};
    const c2d_circle_soa all = {s.x, s.y, s.r, s.n, f.cc, f.cm};
    size_t total = 0;
    assert_int_equal(c2d_scene_collide(plain, &bare, NULL, 0, &total), C2D_OK);
    assert_true(total > 100);
    c2d_pair_contact *a = xmalloc((total + 1) * sizeof *a), *b = xmalloc((total + 1) * sizeof *b);
    c2d_circle_toi *ta = xmalloc(s.n * sizeof *ta), *tb = xmalloc(s.n * sizeof *tb);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t bk = 0; bk < nb; bk++) {
        use_backend(list[bk]);
        size_t na = 0;
        assert_int_equal(c2d_scene_collide(plain, &bare, a, total + 1, &na), C2D_OK);
        for (int v = 0; v < 3; v++) { /* filtered circles, filtered scene, both */
            c2d_scene *sc = v == 0 ? plain : with;
            const c2d_circle_soa *c = v == 1 ? &bare : &all;
            size_t got = 0;
            memset(b, 0, (total + 1) * sizeof *b);
            assert_int_equal(c2d_scene_collide(sc, c, b, total + 1, &got), C2D_OK);
            assert_int_equal(got, na);
            assert_memory_equal(a, b, na * sizeof *a);
            assert_int_equal(c2d_scene_sweep(plain, &bare, s.mx, s.my, ta), C2D_OK);
            assert_int_equal(c2d_scene_sweep(sc, c, s.mx, s.my, tb), C2D_OK);
            assert_memory_equal(ta, tb, s.n * sizeof *ta);
        }
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    /* and the unfiltered oracle agrees */
    check_all_backends(with, &s, &rng, "all words C2D_FILTER_ALL");
    free(a);
    free(b);
    free(ta);
    free(tb);
    c2d_scene_destroy(plain);
    c2d_scene_destroy(with);
    filters_free(&s, &f);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* Capsules across the path of a circle moving along +x from x0 (vertical, at the given x). */
static void wall_at(scene *s, size_t k, float x, float half, float radius) {
    s->ax[k] = s->bx[k] = x;
    s->ay[k] = -half;
    s->by[k] = half;
    s->R[k] = radius;
}

/* A refused capsule or a sensor in front of an allowed one never hides it: sweeps (static and
 * moving capsules, tame and wild circles, the ordered scan) and collides; a refused capsule at
 * the same time of impact and a lower index leaves the tie to the allowed one. */
static void filter_refused_does_not_hide(void **state) {
    (void)state;
    c2d_rng rng = {0x41de};
    for (int wild = 0; wild < 2; wild++) {
        /* wild: a centre beyond the tame range (2^41), so the circle takes the ordered scan */
        const float o = wild ? 0x1p41f : 0.0f, u = wild ? 0x1p20f : 1.0f;
        scene s;
        filters f;
        scene_init(&s, 3, 5, LAYOUT_ALIGNED);
        random_filters(&s, &f, &rng, EVERY_ARRAY);
        for (size_t i = 0; i < 3; i++) {
            s.x[i] = o;
            s.y[i] = (float)i * 0.25f * u;
            s.r[i] = 0.5f * u;
            s.mx[i] = 10.0f * u;
            s.my[i] = 0.0f;
            f.cc[i] = 1;
            f.cm[i] = 1; /* meets layer 1 only */
        }
        wall_at(&s, 0, o + 2.0f * u, 2.0f * u, 0.25f * u); /* a sensor */
        wall_at(&s, 1, o + 3.0f * u, 2.0f * u, 0.25f * u); /* refused: layer 2 */
        wall_at(&s, 2, o + 6.0f * u, 2.0f * u, 0.25f * u); /* allowed, behind both */
        wall_at(&s, 3, o + 6.0f * u, 2.0f * u, 0.25f * u); /* allowed, the same: a tie */
        wall_at(&s, 4, o + 0.5f * u, 2.0f * u, 0.25f * u); /* refused, overlapping at rest */
        const uint32_t kc[5] = {1, 2, 1, 1, 4}, km[5] = {1, 1, 1, 1, 1};
        const uint8_t sensor[5] = {1, 0, 0, 0, 0};
        memcpy(f.kc, kc, sizeof kc);
        memcpy(f.km, km, sizeof km);
        memcpy(f.sensor, sensor, sizeof sensor);
        c2d_scene *sc;
        assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
        c2d_backend list[C2D_BACKEND_COUNT];
        const size_t nb = available_backends(list);
        const float kmx[5] = {0.0f, -1.0f * u, 0.0f, 0.0f, 0.0f}, kmy[5] = {0};
        for (size_t b = 0; b < nb; b++) {
            use_backend(list[b]);
            c2d_circle_toi got[3];
            for (int moving = 0; moving < 2; moving++) {
                if (moving)
                    assert_int_equal(
                        c2d_scene_sweep_moving_capsules(sc, &s.circles, s.mx, s.my, kmx, kmy, got),
                        C2D_OK);
                else
                    assert_int_equal(c2d_scene_sweep(sc, &s.circles, s.mx, s.my, got), C2D_OK);
                for (size_t i = 0; i < 3; i++) {
                    c2d_toi want;
                    assert_true(c2d_sweep_circle_capsule(
                        circle_at(&s, i), (c2d_vec2){s.mx[i], s.my[i]}, capsule_at(&s, 2), &want));
                    assert_int_equal(got[i].capsule, 2); /* not 0, 1, 4, nor the tie 3 */
                    assert_memory_equal(&got[i].toi, &want, sizeof want);
                }
            }
            /* collide: the refused capsule 4 overlaps every circle, and is not reported */
            size_t count = 99;
            assert_int_equal(c2d_scene_collide(sc, &s.circles, NULL, 0, &count), C2D_OK);
            assert_int_equal(count, 0);
            f.cm[1] = 5; /* circle 1 now meets layer 4 too */
            c2d_pair_contact pc[4];
            assert_int_equal(c2d_scene_collide(sc, &s.circles, pc, 4, &count), C2D_OK);
            assert_int_equal(count, 1);
            assert_int_equal(pc[0].circle, 1);
            assert_int_equal(pc[0].capsule, 4);
            f.cm[1] = 1;
        }
        assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
        check_all_backends(sc, &s, &rng, wild ? "walls, wild" : "walls");
        c2d_scene_destroy(sc);
        filters_free(&s, &f);
        scene_free(&s);
    }
}

/* Truncation and size queries follow the filtered total: a capacity below the unfiltered total
 * but at the filtered one is C2D_OK; one less is C2D_ERROR_TRUNCATED. Range calls likewise.
 * A range call given other filter arrays than the binned set's: C2D_ERROR_STATE. */
static void filter_truncation(void **state) {
    (void)state;
    c2d_rng rng = {0x7b0c};
    scene s;
    filters f;
    scene_init(&s, 400, 60, LAYOUT_ALIGNED);
    const random_spec spec = {20.0f, 0.3f, 1.5f, 3.0f, 1.0f, 6.0f, 0.2f, 1.0f};
    fill_random(&s, &rng, &spec);
    random_filters(&s, &f, &rng, EVERY_ARRAY);
    c2d_pair_contact *ref;
    size_t all;
    const size_t total = ref_collide_filtered(&s, &ref, &all);
    assert_true(total > 20 && all > total + 20);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
    c2d_pair_contact *out = xmalloc(all * sizeof *out);
    size_t count = 0;
    assert_int_equal(c2d_scene_collide(sc, &s.circles, out, total, &count), C2D_OK);
    assert_int_equal(count, total);
    assert_true(compare_contacts(&s, ref, out, total, "at the filtered total"));
    assert_int_equal(c2d_scene_collide(sc, &s.circles, out, total - 1, &count),
                     C2D_ERROR_TRUNCATED);
    assert_int_equal(count, total);
    assert_int_equal(c2d_scene_bin(sc, &s.circles), C2D_OK);
    assert_int_equal(c2d_scene_collide_range(sc, &s.circles, 0, s.m, out, total, &count), C2D_OK);
    assert_int_equal(count, total);
    assert_int_equal(c2d_scene_collide_range(sc, &s.circles, 0, s.m, out, total - 1, &count),
                     C2D_ERROR_TRUNCATED);
    assert_int_equal(count, total);
    c2d_circle_soa other = s.circles;
    other.mask = NULL;
    assert_int_equal(c2d_scene_collide_range(sc, &other, 0, s.m, out, all, &count),
                     C2D_ERROR_STATE);
    assert_int_equal(count, 0);
    free(out);
    free(ref);
    c2d_scene_destroy(sc);
    filters_free(&s, &f);
    scene_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(filter_every_count),
        cmocka_unit_test(filter_specials),
        cmocka_unit_test(filter_w5_boards),
        cmocka_unit_test(filter_all_words_equal_null),
        cmocka_unit_test(filter_refused_does_not_hide),
        cmocka_unit_test(filter_truncation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
