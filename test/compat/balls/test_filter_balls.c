/* Collision filters in the ball-ball calls (collide2d/filter.h, collide2d/balls.h,
 * collide2d/frozen.h). The oracle is the scalar loop over the allowed pairs only:
 * c2d_collide_circles for every pair a < b that c2d_filter_allows, c2d_sweep_circles for every
 * allowed j != i (earliest, ties to the lowest j). c2d_batch_collide_circles,
 * c2d_scene_collide_circles, c2d_batch_sweep_circles and c2d_scene_sweep_circles must give it
 * byte for byte on every backend, with counts, truncation and size queries on the filtered
 * total; the frozen identity must hold with filters; words that are all C2D_FILTER_ALL must
 * give the bytes of NULL words. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "frozen_check.h"

/* The number of pairs a < b that overlap and the number the filter lets through, by the
 * scalar functions: the data must refuse some overlapping pairs and allow others, or a test
 * on it could not tell a filter from none. */
static void count_refused(const ball_set *s, size_t *overlapping, size_t *allowed) {
    *overlapping = *allowed = 0;
    for (size_t a = 0; a < s->n; a++)
        for (size_t b = a + 1; b < s->n; b++) {
            const c2d_circle ca = {{s->x[a], s->y[a]}, s->r[a]};
            const c2d_circle cb = {{s->x[b], s->y[b]}, s->r[b]};
            if (!c2d_overlap_circles(ca, cb)) continue;
            (*overlapping)++;
            *allowed += balls_meet(s, a, b);
        }
}

/* check_balls on the filtered set, after checking that the filter matters in it. */
static void check_filtered(const ball_set *s, const char *label) {
    size_t overlapping, allowed;
    count_refused(s, &overlapping, &allowed);
    if (overlapping > 20) {
        assert_true(allowed > 0);
        assert_true(allowed < overlapping);
    }
    assert_int_equal(check_balls(s, label), allowed);
}

static const unsigned layer_bits[] = {1, 2, 3, 32};
enum { LAYER_CASES = sizeof layer_bits / sizeof layer_bits[0] };

static void random_sets(void **state) {
    (void)state;
    const struct {
        size_t n;
        float span, rlo, rhi, move;
    } cases[] = {
        {700, 60.0f, 0.5f, 2.0f, 3.0f},   /* a pile: a few contacts a ball */
        {400, 10.0f, 0.1f, 3.0f, 2.0f},   /* dense */
        {300, 500.0f, 0.1f, 1.0f, 40.0f}, /* gas, long moves */
        {200, 30.0f, 0.0f, 0.0f, 5.0f},   /* points */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (size_t b = 0; b < LAYER_CASES; b++) {
            c2d_rng rng = {0xf17 + k * 13 + b};
            ball_set s;
            balls_init(&s, cases[k].n);
            balls_random(&s, &rng, cases[k].span, cases[k].rlo, cases[k].rhi, cases[k].move);
            balls_filter(&s, &rng, layer_bits[b]);
            char label[64];
            snprintf(label, sizeof label, "random %zu, %u layers", k, layer_bits[b]);
            check_filtered(&s, label);
            balls_free(&s);
        }
}

/* Every count 0..40 (the vector tails), then a few larger ones. */
static void every_count(void **state) {
    (void)state;
    const size_t larger[] = {63, 64, 65, 129, 257, 1000};
    for (size_t k = 0; k <= 40 + sizeof larger / sizeof larger[0]; k++) {
        const size_t n = k <= 40 ? k : larger[k - 41];
        c2d_rng rng = {0xc0 + n};
        ball_set s;
        balls_init(&s, n);
        const float span = 6.0f * sqrtf((float)(n > 40 ? n : 40) / 40.0f);
        balls_random(&s, &rng, span, 0.3f, 1.2f, 1.0f);
        balls_filter(&s, &rng, 2);
        char label[64];
        snprintf(label, sizeof label, "every count, %zu", n);
        check_balls(&s, label);
        balls_free(&s);
    }
}

/* Hexagonal packing: exact touching (r = d / 2) and small overlaps; a crowd on one point. */
static void piles_and_touching(void **state) {
    (void)state;
    const float radii[] = {0.5f, 0.5005f, 0.52f};
    for (size_t k = 0; k < 3; k++) {
        c2d_rng rng = {0x4e9 + k};
        ball_set s;
        balls_init(&s, 600);
        balls_hex(&s, 30, 1.0f, radii[k], 0.3f, &rng);
        balls_filter(&s, &rng, 2);
        char label[64];
        snprintf(label, sizeof label, "hexagonal, r %g", (double)radii[k]);
        check_filtered(&s, label);
        balls_free(&s);
    }
    ball_set s;
    balls_init(&s, 120);
    c2d_rng rng = {0xc1c1};
    balls_random(&s, &rng, 2.0f, 0.5f, 1.0f, 1.0f);
    for (size_t i = 40; i < 120; i++) { /* a crowd on one point: large groups a ball */
        s.x[i] = 1.0f;
        s.y[i] = 1.0f;
    }
    balls_filter(&s, &rng, 3);
    check_filtered(&s, "crowd");
    balls_free(&s);
}

/* NaN, infinities, huge and tiny values, negative radii, a few huge balls (the grids' special
 * balls, whose rows run the all-pairs kernel and which every grid ball tests). */
static void hostile(void **state) {
    (void)state;
    for (unsigned k = 0; k < 4; k++) {
        c2d_rng rng = {0xbaf + k};
        ball_set s;
        balls_init(&s, 200 + 37 * k);
        balls_hostile(&s, &rng, k, 2 + 3 * k, 41);
        balls_filter(&s, &rng, 1 + k);
        char label[64];
        snprintf(label, sizeof label, "hostile %u", k);
        check_balls(&s, label);
        balls_free(&s);
    }
}

/* Words that are all C2D_FILTER_ALL (both, or only one array given) give exactly the bytes of
 * NULL words: batch and scene, contacts and sweeps, every backend. */
static void all_layers_is_none(void **state) {
    (void)state;
    c2d_rng rng = {0xa11};
    ball_set s;
    balls_init(&s, 500);
    balls_random(&s, &rng, 40.0f, 0.3f, 1.5f, 2.0f);
    balls_sprinkle(&s, &rng, 2, false);
    uint32_t *all = xmalloc(s.n * sizeof *all);
    for (size_t i = 0; i < s.n; i++)
        all[i] = C2D_FILTER_ALL;
    const c2d_circle_soa with[] = {{s.x, s.y, s.r, s.n, all, all},
                                   {s.x, s.y, s.r, s.n, all, NULL},
                                   {s.x, s.y, s.r, s.n, NULL, all}};
    size_t total;
    assert_int_equal(c2d_batch_collide_circles(&s.soa, NULL, 0, &total), C2D_OK);
    assert_true(total > 100);
    c2d_circle_pair_contact *want = xmalloc(total * sizeof *want);
    c2d_circle_pair_contact *got = xmalloc(total * sizeof *got);
    c2d_circle_hit *want_hits = xmalloc(s.n * sizeof *want_hits);
    c2d_circle_hit *got_hits = xmalloc(s.n * sizeof *got_hits);
    c2d_scene *scene = empty_scene();
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t k = 0; k < nb; k++) {
        use_backend(list[k]);
        size_t n;
        assert_int_equal(c2d_batch_collide_circles(&s.soa, want, total, &n), C2D_OK);
        assert_int_equal(c2d_batch_sweep_circles(&s.soa, s.mx, s.my, want_hits), C2D_OK);
        for (size_t w = 0; w < 3; w++) {
            for (int on_scene = 0; on_scene < 2; on_scene++) {
                memset(got, 0, total * sizeof *got);
                n = 0;
                const c2d_status st =
                    on_scene ? c2d_scene_collide_circles(scene, &with[w], got, total, &n)
                             : c2d_batch_collide_circles(&with[w], got, total, &n);
                assert_int_equal(st, C2D_OK);
                assert_int_equal(n, total);
                assert_memory_equal(got, want, total * sizeof *got);
                memset(got_hits, 0, s.n * sizeof *got_hits);
                assert_int_equal(
                    on_scene ? c2d_scene_sweep_circles(scene, &with[w], s.mx, s.my, got_hits)
                             : c2d_batch_sweep_circles(&with[w], s.mx, s.my, got_hits),
                    C2D_OK);
                assert_memory_equal(got_hits, want_hits, s.n * sizeof *got_hits);
            }
        }
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    /* frozen: the same balls frozen with and without all-layer words */
    for (size_t w = 0; w < 2; w++) {
        c2d_scene *plain = empty_scene(), *worded = empty_scene();
        const size_t half = s.n / 2;
        const c2d_circle_soa lo = {s.x, s.y, s.r, half, NULL, NULL};
        const c2d_circle_soa lo_all = {s.x, s.y, s.r, half, all, w ? all : NULL};
        const c2d_circle_soa hi = {s.x + half, s.y + half, s.r + half, s.n - half, NULL, NULL};
        const c2d_circle_soa hi_all = {s.x + half, s.y + half,     s.r + half,
                                       s.n - half, w ? all : NULL, all};
        uint32_t *ids = xmalloc(s.n * sizeof *ids);
        for (size_t i = 0; i < s.n; i++)
            ids[i] = (uint32_t)i;
        assert_int_equal(c2d_scene_freeze_circles(plain, &lo, NULL), C2D_OK);
        assert_int_equal(c2d_scene_freeze_circles(worded, &lo_all, NULL), C2D_OK);
        size_t n1, n2;
        assert_int_equal(c2d_scene_collide_frozen_circles(plain, &hi, ids + half, got, total, &n1),
                         C2D_OK);
        assert_int_equal(
            c2d_scene_collide_frozen_circles(worded, &hi_all, ids + half, want, total, &n2),
            C2D_OK);
        assert_true(n1 > 10);
        assert_int_equal(n1, n2);
        assert_memory_equal(got, want, n1 * sizeof *got);
        assert_int_equal(c2d_scene_sweep_frozen_circles(plain, &hi, ids + half, s.mx + half,
                                                        s.my + half, got_hits),
                         C2D_OK);
        assert_int_equal(c2d_scene_sweep_frozen_circles(worded, &hi_all, ids + half, s.mx + half,
                                                        s.my + half, want_hits),
                         C2D_OK);
        assert_memory_equal(got_hits, want_hits, (s.n - half) * sizeof *got_hits);
        free(ids);
        c2d_scene_destroy(plain);
        c2d_scene_destroy(worded);
    }
    c2d_scene_destroy(scene);
    free(all);
    free(want);
    free(got);
    free(want_hits);
    free(got_hits);
    balls_free(&s);
}

/* A refused ball nearer on the path never hides an allowed one behind it; ties among allowed
 * balls go to the lowest allowed index, whatever refused balls share the time. Ball 0 moves
 * right by 10 through ball 1 (refused, nearest), balls 2 (refused), 3 and 4 (allowed) all at
 * one place (a tie), to ball 5 (allowed, farthest). */
static void refused_never_hides(void **state) {
    (void)state;
    float x[] = {0.0f, 3.0f, 6.0f, 6.0f, 6.0f, 9.0f}, y[] = {0, 0, 0, 0, 0, 0};
    float r[] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    float mx[] = {10.0f, 0, 0, 0, 0, 0}, my[] = {0, 0, 0, 0, 0, 0};
    uint32_t cat[] = {1, 2, 2, 1, 1, 1}, mask[] = {1, 1, 1, 1, 1, 1};
    const c2d_circle_soa plain = {x, y, r, 6, NULL, NULL}, filtered = {x, y, r, 6, cat, mask};
    const c2d_circle ball0 = {{0.0f, 0.0f}, 0.5f};
    const c2d_vec2 move0 = {10.0f, 0.0f}, still = {0.0f, 0.0f};
    c2d_circle_hit want[3];
    const uint32_t expect_other[] = {1, 3, 5}; /* no filter; filtered; 3 and 4 refused too */
    for (size_t k = 0; k < 3; k++) {
        const c2d_circle other = {{x[expect_other[k]], 0.0f}, 0.5f};
        want[k].other = expect_other[k];
        assert_true(c2d_sweep_circles(ball0, move0, other, still, &want[k].toi));
    }
    c2d_scene *scene = empty_scene();
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t k = 0; k < nb; k++) {
        use_backend(list[k]);
        c2d_circle_hit hits[6];
        for (int on_scene = 0; on_scene < 2; on_scene++) {
            const c2d_circle_soa *sets[] = {&plain, &filtered};
            for (size_t f = 0; f < 2; f++) {
                assert_int_equal(on_scene ? c2d_scene_sweep_circles(scene, sets[f], mx, my, hits)
                                          : c2d_batch_sweep_circles(sets[f], mx, my, hits),
                                 C2D_OK);
                assert_true(same_ball_hit(&hits[0], &want[f]));
            }
            cat[3] = cat[4] = 2;
            assert_int_equal(on_scene ? c2d_scene_sweep_circles(scene, &filtered, mx, my, hits)
                                      : c2d_batch_sweep_circles(&filtered, mx, my, hits),
                             C2D_OK);
            assert_true(same_ball_hit(&hits[0], &want[2]));
            cat[3] = cat[4] = 1;
        }
        /* the same with balls 1..5 frozen (ids 1..5) and ball 0 awake */
        c2d_scene *frozen = empty_scene();
        const c2d_circle_soa still_ones = {x + 1, y + 1, r + 1, 5, cat + 1, mask + 1};
        const uint32_t ids[] = {1, 2, 3, 4, 5}, me = 0;
        assert_int_equal(c2d_scene_freeze_circles(frozen, &still_ones, ids), C2D_OK);
        const c2d_circle_soa awake = {x, y, r, 1, cat, mask};
        assert_int_equal(c2d_scene_sweep_frozen_circles(frozen, &awake, &me, mx, my, hits), C2D_OK);
        assert_true(same_ball_hit(&hits[0], &want[1]));
        /* the awake ball's own words decide too: a mask of layer 2 meets 1 and 2 only; the
         * scene keeps the words it was given (changing the caller's array changes nothing) */
        uint32_t mask2 = 2;
        const c2d_circle_soa awake2 = {x, y, r, 1, cat, &mask2};
        cat[1] = 1;
        assert_int_equal(c2d_scene_sweep_frozen_circles(frozen, &awake2, &me, mx, my, hits),
                         C2D_OK);
        cat[1] = 2;
        assert_true(same_ball_hit(&hits[0], &want[0]));
        c2d_scene_destroy(frozen);
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    c2d_scene_destroy(scene);
}

/* A category of 0 meets nothing; a mask of 0 likewise; a set whose words refuse every pair
 * gives no pairs and no hits, and its size query says 0. */
static void nothing_meets(void **state) {
    (void)state;
    c2d_rng rng = {0x0};
    ball_set s;
    balls_init(&s, 300);
    balls_random(&s, &rng, 10.0f, 0.5f, 1.0f, 3.0f);
    balls_filter(&s, &rng, 4);
    for (size_t i = 0; i < s.n; i++) {
        if (i % 2)
            s.category[i] = 0;
        else
            s.mask[i] = 0;
    }
    assert_int_equal(check_balls(&s, "nothing meets"), 0);
    for (size_t i = 0; i < s.n; i++) { /* two layers that never meet each other */
        s.category[i] = i % 2 ? 1u : 2u;
        s.mask[i] = i % 2 ? 1u : 2u;
    }
    size_t overlapping, allowed;
    count_refused(&s, &overlapping, &allowed);
    assert_true(allowed > 0 && allowed < overlapping);
    assert_int_equal(check_balls(&s, "two layers"), allowed);
    balls_free(&s);
}

/* ---- frozen balls ----------------------------------------------------------------------- */

static const unsigned percents[] = {0, 10, 50, 90, 100};
enum { PERCENTS = sizeof percents / sizeof percents[0] };

/* The identity with filters: random piles, packing, hostile values, every count. */
static void frozen_identity(void **state) {
    (void)state;
    for (size_t k = 0; k < 3; k++)
        for (size_t p = 0; p < PERCENTS; p++) {
            c2d_rng rng = {0xf0f + k};
            ball_set s;
            balls_init(&s, 500);
            if (k == 0) balls_random(&s, &rng, 50.0f, 0.5f, 2.0f, 3.0f);
            if (k == 1) balls_hex(&s, 25, 1.0f, 0.5f, 0.3f, &rng);
            if (k == 2) {
                balls_random(&s, &rng, 30.0f, 0.1f, 2.0f, 2.0f);
                balls_sprinkle(&s, &rng, 4, k % 2 == 1);
                for (size_t i = 7; i < s.n; i += 53)
                    s.r[i] = 30.0f;
            }
            balls_filter(&s, &rng, 1 + (unsigned)p % 3);
            char label[64];
            snprintf(label, sizeof label, "frozen, case %zu", k);
            check_frozen(&s, percents[p], 0x2ce + k * 7 + p, label);
            balls_free(&s);
        }
    for (size_t n = 0; n <= 40; n++) {
        c2d_rng rng = {0xe00 + n};
        ball_set s;
        balls_init(&s, n);
        balls_random(&s, &rng, 6.0f, 0.3f, 1.2f, 1.0f);
        balls_filter(&s, &rng, 2);
        check_frozen(&s, (unsigned)(n * 7 % 100), 0xe11 + n, "frozen, every count");
        balls_free(&s);
    }
}

/* The awake balls of s (frozen[i] false), whose words are all C2D_FILTER_ALL, against the
 * scene's frozen balls: with their words and with NULL words, the same bytes. */
static void expect_null_words_same(c2d_scene *scene, const ball_set *s, const bool *frozen) {
    const size_t n = s->n;
    float *v = xmalloc(5 * (n + 1) * sizeof *v);
    uint32_t *ids = xmalloc((n + 1) * sizeof *ids);
    float *x = v, *y = v + (n + 1), *r = v + 2 * (n + 1), *mx = v + 3 * (n + 1);
    float *my = v + 4 * (n + 1);
    size_t a = 0;
    for (size_t i = 0; i < n; i++)
        if (!frozen[i]) {
            assert_true(s->category[i] == C2D_FILTER_ALL && s->mask[i] == C2D_FILTER_ALL);
            x[a] = s->x[i], y[a] = s->y[i], r[a] = s->r[i], mx[a] = s->mx[i], my[a] = s->my[i];
            ids[a++] = (uint32_t)i;
        }
    uint32_t *all = xmalloc((a + 1) * sizeof *all);
    for (size_t k = 0; k < a; k++)
        all[k] = C2D_FILTER_ALL;
    const c2d_circle_soa none = {x, y, r, a, NULL, NULL}, every = {x, y, r, a, all, all};
    size_t total, again;
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &every, ids, NULL, 0, &total), C2D_OK);
    c2d_circle_pair_contact *p1 = xmalloc((total + 1) * sizeof *p1);
    c2d_circle_pair_contact *p2 = xmalloc((total + 1) * sizeof *p2);
    memset(p1, 0, (total + 1) * sizeof *p1);
    memset(p2, 0, (total + 1) * sizeof *p2);
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &every, ids, p1, total, &total),
                     C2D_OK);
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &none, ids, p2, total, &again),
                     C2D_OK);
    assert_int_equal(total, again);
    assert_memory_equal(p1, p2, total * sizeof *p1);
    c2d_circle_hit *h1 = xmalloc((a + 1) * sizeof *h1), *h2 = xmalloc((a + 1) * sizeof *h2);
    assert_int_equal(c2d_scene_sweep_frozen_circles(scene, &every, ids, mx, my, h1), C2D_OK);
    assert_int_equal(c2d_scene_sweep_frozen_circles(scene, &none, ids, mx, my, h2), C2D_OK);
    assert_memory_equal(h1, h2, a * sizeof *h1);
    free(v);
    free(ids);
    free(all);
    free(p1);
    free(p2);
    free(h1);
    free(h2);
}

/* Frozen balls whose words are all C2D_FILTER_ALL frozen with NULL arrays (the scene keeps no
 * words) against a filtered awake set, then an unfiltered awake set against frozen words; and
 * a ball frozen again with other words: the new words hold. */
static void frozen_words_mixed(void **state) {
    (void)state;
    c2d_rng rng = {0x31d};
    ball_set s;
    balls_init(&s, 400);
    balls_random(&s, &rng, 40.0f, 0.5f, 2.0f, 2.0f);
    balls_filter(&s, &rng, 2);
    bool *frozen = xmalloc(s.n * sizeof *frozen);
    uint32_t *ids = xmalloc(s.n * sizeof *ids);
    float *fx = xmalloc(s.n * sizeof *fx), *fy = xmalloc(s.n * sizeof *fy);
    float *fr = xmalloc(s.n * sizeof *fr);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t k = 0; k < nb; k++) {
        use_backend(list[k]);
        /* 1: the frozen third has every layer and is frozen without words */
        size_t m = 0;
        for (size_t i = 0; i < s.n; i++) {
            frozen[i] = i % 3 == 0;
            if (!frozen[i]) continue;
            s.category[i] = s.mask[i] = C2D_FILTER_ALL;
            fx[m] = s.x[i], fy[m] = s.y[i], fr[m] = s.r[i];
            ids[m++] = (uint32_t)i;
        }
        c2d_scene *scene = empty_scene();
        c2d_circle_soa soa = {fx, fy, fr, m, NULL, NULL};
        assert_int_equal(c2d_scene_freeze_circles(scene, &soa, ids), C2D_OK);
        check_identity(scene, &s, frozen, "frozen without words, awake with");
        /* 2: the frozen balls get words (frozen again over themselves), the awake ones
         * every layer */
        balls_filter(&s, &rng, 2);
        uint32_t *cat = xmalloc(s.n * sizeof *cat), *mask = xmalloc(s.n * sizeof *mask);
        for (size_t j = 0; j < m; j++) {
            cat[j] = s.category[ids[j]];
            mask[j] = s.mask[ids[j]];
        }
        for (size_t i = 0; i < s.n; i++)
            if (!frozen[i]) s.category[i] = s.mask[i] = C2D_FILTER_ALL;
        soa = (c2d_circle_soa){fx, fy, fr, m, cat, mask};
        assert_int_equal(c2d_scene_freeze_circles(scene, &soa, ids), C2D_OK);
        check_identity(scene, &s, frozen, "frozen with words, awake every layer");
        /* 3: half the frozen balls frozen again without words: every layer for them */
        soa = (c2d_circle_soa){fx, fy, fr, m / 2, NULL, NULL};
        assert_int_equal(c2d_scene_freeze_circles(scene, &soa, ids), C2D_OK);
        for (size_t j = 0; j < m / 2; j++)
            s.category[ids[j]] = s.mask[ids[j]] = C2D_FILTER_ALL;
        check_identity(scene, &s, frozen, "some frozen again without words");
        /* 4: the awake balls (every layer) with NULL words give the same bytes */
        expect_null_words_same(scene, &s, frozen);
        free(cat);
        free(mask);
        c2d_scene_destroy(scene);
        balls_filter(&s, &rng, 2);
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    free(frozen);
    free(ids);
    free(fx);
    free(fy);
    free(fr);
    balls_free(&s);
}

/* Frames of freezing and thawing with filters: balls frozen one at a time with their words,
 * the awake ones moving, the identity after each (the widest backend). */
static void frozen_frames(void **state) {
    (void)state;
    c2d_rng rng = {0x1a2c};
    ball_set s;
    balls_init(&s, 600);
    balls_random(&s, &rng, 45.0f, 0.4f, 1.0f, 1.0f);
    balls_filter(&s, &rng, 2);
    bool *frozen = calloc(s.n, sizeof *frozen);
    uint32_t *ids = xmalloc(s.n * sizeof *ids);
    assert_non_null(frozen);
    c2d_backend list[C2D_BACKEND_COUNT];
    use_backend(list[available_backends(list) - 1]);
    c2d_scene *scene = empty_scene();
    for (int frame = 0; frame < 20; frame++) {
        size_t nt = 0;
        for (size_t i = 0; i < s.n; i++) {
            const uint64_t roll = c2d_rng_next(&rng) % 100;
            if (!frozen[i] && roll < 15) {
                const c2d_circle_soa one = {&s.x[i], &s.y[i],        &s.r[i],
                                            1,       &s.category[i], &s.mask[i]};
                const uint32_t id = (uint32_t)i;
                assert_int_equal(c2d_scene_freeze_circles(scene, &one, &id), C2D_OK);
                frozen[i] = true;
            } else if (frozen[i] && roll < 8) {
                ids[nt++] = (uint32_t)i;
                frozen[i] = false;
            }
        }
        assert_int_equal(c2d_scene_thaw_circles(scene, ids, nt), C2D_OK);
        char label[64];
        snprintf(label, sizeof label, "filtered frame %d", frame);
        check_identity(scene, &s, frozen, label);
        for (size_t i = 0; i < s.n; i++)
            if (!frozen[i]) {
                s.x[i] += s.mx[i] * 0.25f;
                s.y[i] += s.my[i] * 0.25f;
                if (c2d_rng_next(&rng) % 10 == 0) s.category[i] ^= 1u; /* words change too */
            }
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    c2d_scene_destroy(scene);
    free(frozen);
    free(ids);
    balls_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_sets),        cmocka_unit_test(every_count),
        cmocka_unit_test(piles_and_touching), cmocka_unit_test(hostile),
        cmocka_unit_test(all_layers_is_none), cmocka_unit_test(refused_never_hides),
        cmocka_unit_test(nothing_meets),      cmocka_unit_test(frozen_identity),
        cmocka_unit_test(frozen_words_mixed), cmocka_unit_test(frozen_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
