/* Frozen balls (collide2d/frozen.h): awake-vs-awake plus awake-vs-frozen output is exactly the
 * part of the all-awake output that involves an awake ball, byte for byte, on every backend;
 * the same for sweeps (frozen balls still). Random piles, packing, exact touching, coincident
 * centres, hostile values, every count, incremental freezing and thawing, bad arguments. */
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

static const unsigned percents[] = {0, 10, 50, 90, 100};
enum { PERCENTS = sizeof percents / sizeof percents[0] };

static void random_piles(void **state) {
    (void)state;
    const struct {
        size_t n;
        float span, rlo, rhi, move;
    } cases[] = {
        {600, 60.0f, 0.5f, 2.0f, 3.0f},  /* a pile: a few contacts a ball */
        {400, 10.0f, 0.1f, 3.0f, 2.0f},  /* dense */
        {300, 500.0f, 0.1f, 1.0f, 9.0f}, /* gas, long moves */
        {200, 30.0f, 0.0f, 0.0f, 5.0f},  /* points */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (size_t p = 0; p < PERCENTS; p++) {
            c2d_rng rng = {0xf0e + k};
            ball_set s;
            balls_init(&s, cases[k].n);
            balls_random(&s, &rng, cases[k].span, cases[k].rlo, cases[k].rhi, cases[k].move);
            char label[64];
            snprintf(label, sizeof label, "random %zu", k);
            check_frozen(&s, percents[p], 0x1ce + k * 7 + p, label);
            balls_free(&s);
        }
}

/* Hexagonal packing: exact touching (r = d / 2) and small overlaps. */
static void packed(void **state) {
    (void)state;
    const float radii[] = {0.5f, 0.5005f, 0.52f};
    for (size_t k = 0; k < 3; k++)
        for (size_t p = 1; p + 1 < PERCENTS; p++) {
            c2d_rng rng = {0x4e8 + k};
            ball_set s;
            balls_init(&s, 500);
            balls_hex(&s, 25, 1.0f, radii[k], 0.3f, &rng);
            char label[64];
            snprintf(label, sizeof label, "hexagonal, r %g", (double)radii[k]);
            check_frozen(&s, percents[p], 0x9a + k, label);
            balls_free(&s);
        }
}

/* Shared centres (the normal's fallback, both orientations), crowds, all on one point. */
static void coincident(void **state) {
    (void)state;
    ball_set s;
    balls_init(&s, 160);
    c2d_rng rng = {0xc0c1};
    balls_random(&s, &rng, 20.0f, 0.2f, 1.0f, 2.0f);
    for (size_t i = 0; i < 160; i += 8) {
        s.x[i + 1] = s.x[i];
        s.y[i + 1] = s.y[i];
    }
    for (size_t i = 100; i < 140; i++) {
        s.x[i] = 7.0f;
        s.y[i] = 7.0f;
        s.r[i] = i % 2 ? 0.0f : s.r[i];
    }
    check_frozen(&s, 50, 0xc1, "coincident");
    for (size_t i = 0; i < 160; i++) {
        s.x[i] = 1.0f;
        s.y[i] = -2.0f;
    }
    check_frozen(&s, 30, 0xc2, "all on one point");
    balls_free(&s);
}

/* NaN, infinities, huge and tiny values, negative radii, a few huge balls. */
static void hostile(void **state) {
    (void)state;
    for (unsigned k = 0; k < 4; k++) {
        c2d_rng rng = {0xbae + k};
        ball_set s;
        balls_init(&s, 150 + 37 * k);
        balls_hostile(&s, &rng, k, 3 + 3 * k, 61);
        char label[64];
        snprintf(label, sizeof label, "hostile %u", k);
        check_frozen(&s, 20 + 20 * k, 0xba0 + k, label);
        balls_free(&s);
    }
}

/* Every count 0..40 (the vector tails of the awake-vs-awake kernels). */
static void every_count(void **state) {
    (void)state;
    for (size_t n = 0; n <= 40; n++) {
        c2d_rng rng = {0xe0 + n};
        ball_set s;
        balls_init(&s, n);
        balls_random(&s, &rng, 6.0f, 0.3f, 1.2f, 1.0f);
        check_frozen(&s, (unsigned)(n * 7 % 100), 0xe1 + n, "every count");
        balls_free(&s);
    }
}

/* Many frames of freezing and thawing a few balls at a time, moving the awake ones: the
 * identity after each (scalar and the widest backend). */
static void incremental(void **state) {
    (void)state;
    c2d_rng rng = {0x1a2b};
    ball_set s;
    balls_init(&s, 800);
    balls_random(&s, &rng, 50.0f, 0.4f, 1.0f, 1.0f);
    bool *frozen = calloc(s.n, sizeof *frozen);
    uint32_t *ids = malloc(s.n * sizeof *ids);
    assert_non_null(frozen && ids);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t backends = available_backends(list);
    use_backend(list[backends - 1]);
    c2d_scene *scene = empty_scene();
    for (int frame = 0; frame < 30; frame++) {
        /* freeze some awake balls, thaw some frozen ones */
        size_t nf = 0, nt = 0;
        for (size_t i = 0; i < s.n; i++) {
            const uint64_t roll = c2d_rng_next(&rng) % 100;
            if (!frozen[i] && roll < 15) {
                const c2d_circle_soa one = {&s.x[i], &s.y[i], &s.r[i], 1, NULL, NULL};
                const uint32_t id = (uint32_t)i;
                assert_int_equal(c2d_scene_freeze_circles(scene, &one, &id), C2D_OK);
                frozen[i] = true;
                nf++;
            } else if (frozen[i] && roll < 8) {
                ids[nt++] = (uint32_t)i;
                frozen[i] = false;
            }
        }
        assert_int_equal(c2d_scene_thaw_circles(scene, ids, nt), C2D_OK);
        size_t count = 0;
        for (size_t i = 0; i < s.n; i++) {
            count += frozen[i];
            c2d_circle c;
            assert_int_equal(c2d_scene_frozen_circle(scene, (uint32_t)i, &c), frozen[i]);
            if (frozen[i]) assert_true(c.center.x == s.x[i] && c.radius == s.r[i]);
        }
        assert_int_equal(c2d_scene_frozen_count(scene), count);
        char label[64];
        snprintf(label, sizeof label, "frame %d", frame);
        check_identity(scene, &s, frozen, label);
        for (size_t i = 0; i < s.n; i++) /* the awake ones move */
            if (!frozen[i]) {
                s.x[i] += s.mx[i] * 0.25f;
                s.y[i] += s.my[i] * 0.25f;
            }
        (void)nf;
    }
    c2d_scene_destroy(scene);
    free(frozen);
    free(ids);
    balls_free(&s);
}

static void bad_arguments(void **state) {
    (void)state;
    c2d_scene *scene = empty_scene();
    const float x[] = {0.0f, 1.0f}, y[] = {0.0f, 0.0f}, r[] = {1.0f, 1.0f};
    const c2d_circle_soa two = {x, y, r, 2, NULL, NULL}, nulls = {NULL, y, r, 2, NULL, NULL};
    const uint32_t bad[] = {3, C2D_NONE}, good[] = {7, 3};
    assert_int_equal(c2d_scene_freeze_circles(NULL, &two, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_freeze_circles(scene, NULL, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_freeze_circles(scene, &nulls, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_freeze_circles(scene, &two, bad), C2D_ERROR_INDEX);
    assert_int_equal(c2d_scene_frozen_count(scene), 0); /* all or nothing */
    assert_int_equal(c2d_scene_frozen_count(NULL), 0);
    assert_false(c2d_scene_frozen_circle(NULL, 0, NULL));
    assert_false(c2d_scene_frozen_circle(scene, 3, NULL));
    assert_int_equal(c2d_scene_freeze_circles(scene, &two, good), C2D_OK);
    assert_int_equal(c2d_scene_frozen_count(scene), 2);
    c2d_circle c;
    assert_true(c2d_scene_frozen_circle(scene, 3, &c));
    assert_true(c.center.x == 1.0f);
    assert_true(c2d_scene_frozen_circle(scene, 7, NULL));
    /* a repeated id: the last values win */
    const uint32_t twice[] = {9, 9};
    assert_int_equal(c2d_scene_freeze_circles(scene, &two, twice), C2D_OK);
    assert_int_equal(c2d_scene_frozen_count(scene), 3);
    assert_true(c2d_scene_frozen_circle(scene, 9, &c) && c.center.x == 1.0f);
    /* the awake ball with a frozen ball's own id does not touch it */
    const float ax[] = {1.0f}, ay[] = {0.0f}, ar[] = {0.5f};
    const c2d_circle_soa awake = {ax, ay, ar, 1, NULL, NULL};
    const uint32_t self[] = {3};
    c2d_circle_pair_contact out[4];
    size_t n = 99;
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &awake, self, out, 4, &n), C2D_OK);
    assert_int_equal(n, 2); /* 7 at 0 and 9 at 1 */
    assert_int_equal(out[0].a, 3);
    assert_int_equal(out[0].b, 7);
    assert_true(out[0].contact.normal.x == 1.0f); /* toward the lower id: the awake ball */
    assert_int_equal(out[1].a, 3);
    assert_int_equal(out[1].b, 9);
    const uint32_t high[] = {20};
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &awake, high, out, 4, &n), C2D_OK);
    assert_int_equal(n, 3); /* 3, 7 and 9, all below 20: a is the frozen one */
    assert_int_equal(out[0].a, 3);
    assert_int_equal(out[0].b, 20);
    assert_true(out[0].contact.normal.x == 0.0f && out[0].contact.normal.y == 1.0f);
    assert_int_equal(out[1].a, 7);
    assert_true(out[1].contact.normal.x == -1.0f); /* toward frozen 7, away from awake */
    n = 99;
    assert_int_equal(c2d_scene_collide_frozen_circles(NULL, &awake, NULL, out, 4, &n),
                     C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &awake, NULL, NULL, 4, &n),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &awake, NULL, out, 4, NULL),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, NULL, NULL, out, 4, &n),
                     C2D_ERROR_NULL);
    const float mx[] = {-1.0f}, my[] = {0.0f};
    c2d_circle_hit hit;
    assert_int_equal(c2d_scene_sweep_frozen_circles(NULL, &awake, NULL, mx, my, &hit),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep_frozen_circles(scene, &awake, NULL, NULL, my, &hit),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep_frozen_circles(scene, &awake, NULL, mx, my, NULL),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_sweep_frozen_circles(scene, &awake, high, mx, my, &hit), C2D_OK);
    c2d_circle_hit want = {C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
    const uint32_t frozen_ids[] = {3, 7, 9}; /* increasing: a strictly earlier one replaces */
    for (size_t k = 0; k < 3; k++) {
        c2d_circle f;
        assert_true(c2d_scene_frozen_circle(scene, frozen_ids[k], &f));
        const c2d_circle me = {{ax[0], ay[0]}, ar[0]};
        const c2d_vec2 move = {mx[0], my[0]}, still = {0.0f, 0.0f};
        c2d_toi toi;
        if (c2d_sweep_circles(me, move, f, still, &toi) &&
            (want.other == C2D_NONE || toi.t < want.toi.t)) {
            want.other = frozen_ids[k];
            want.toi = toi;
        }
    }
    assert_int_equal(want.other, 7); /* moving away from the shared centres, into 7 */
    assert_true(same_ball_hit(&hit, &want));
    /* thawing: unknown ids are skipped; NULL ids only with count 0 */
    const uint32_t thaw[] = {3, 1000, 3};
    assert_int_equal(c2d_scene_thaw_circles(NULL, thaw, 3), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_thaw_circles(scene, NULL, 1), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_thaw_circles(scene, NULL, 0), C2D_OK);
    assert_int_equal(c2d_scene_thaw_circles(scene, thaw, 3), C2D_OK);
    assert_int_equal(c2d_scene_frozen_count(scene), 2);
    assert_false(c2d_scene_frozen_circle(scene, 3, NULL));
    c2d_scene_destroy(scene);
    /* a scene that never froze anything */
    scene = empty_scene();
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &awake, NULL, NULL, 0, &n), C2D_OK);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_scene_sweep_frozen_circles(scene, &awake, NULL, mx, my, &hit), C2D_OK);
    assert_int_equal(hit.other, C2D_NONE);
    assert_int_equal(c2d_scene_thaw_circles(scene, thaw, 3), C2D_OK);
    c2d_scene_destroy(scene);
}

/* Ids anywhere in [0, C2D_NONE): the id map's memory follows the frozen balls, not the largest
 * id (issue 42, defect 2: on wasm32 a table indexed by id wrote out of bounds at 0x20000000,
 * returned C2D_OK with a count of 0 at 0x40000000 and looped forever from 0x80000000). Each
 * freeze holds its ball (count, lookup, contacts by that id), and thawing lets it go. */
static void huge_ids(void **state) {
    (void)state;
    static const uint32_t ids[] = {0x1FFFFFFFu, 0x20000000u, 0x40000000u,
                                   0x80000000u, 0xFFFFFFFEu, 0u};
    const c2d_capsule_soa none = {.count = 0};
    c2d_scene *scene = NULL;
    assert_int_equal(c2d_scene_create(&none, NULL, &scene), C2D_OK);
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        const float x = (float)k * 10.0f, y = 1.0f, r = 0.5f;
        const c2d_circle_soa one = {.x = &x, .y = &y, .radius = &r, .count = 1};
        assert_int_equal(c2d_scene_freeze_balls(scene, &one, &ids[k]), C2D_OK);
        assert_int_equal(c2d_scene_frozen_count(scene), k + 1);
        c2d_circle got;
        assert_true(c2d_scene_frozen_ball(scene, ids[k], &got));
        assert_true(got.center.x == x && got.center.y == y && got.radius == r);
        /* an awake ball touching it sees the frozen one under its id */
        const float ax = x + 0.9f, ay = 1.0f, ar = 0.5f;
        const uint32_t aid = 7;
        const c2d_circle_soa awake = {.x = &ax, .y = &ay, .radius = &ar, .count = 1};
        c2d_circle_pair_contact pair;
        size_t n = 0;
        assert_int_equal(c2d_scene_collide_frozen(scene, &awake, &aid, &pair, 1, &n), C2D_OK);
        assert_int_equal(n, 1);
        assert_true((pair.a == ids[k] && pair.b == aid) || (pair.a == aid && pair.b == ids[k]));
    }
    const uint32_t never = C2D_NONE; /* never held: asking for it finds nothing */
    assert_false(c2d_scene_frozen_ball(scene, never, NULL));
    assert_int_equal(c2d_scene_thaw_balls(scene, &never, 1), C2D_OK);
    assert_int_equal(c2d_scene_frozen_count(scene), sizeof ids / sizeof ids[0]);
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        assert_int_equal(c2d_scene_thaw_balls(scene, &ids[k], 1), C2D_OK);
        assert_false(c2d_scene_frozen_ball(scene, ids[k], NULL));
        assert_int_equal(c2d_scene_frozen_count(scene), sizeof ids / sizeof ids[0] - k - 1);
    }
    c2d_scene_destroy(scene);
}

/* The id map against a plain reference: random ids from a small pool and from the whole
 * range, frozen and thawed in random batches (repeats included); after every step each id of
 * the pool is held exactly when the reference says so, with its last values. */
static void id_map_churn(void **state) {
    (void)state;
    enum { POOL = 3000, STEPS = 400, BATCH = 40 };
    static uint32_t pool[POOL];
    static float held_x[POOL];
    static bool held[POOL];
    c2d_rng rng = {0x1d5};
    for (size_t i = 0; i < POOL; i++) {
        /* half consecutive (neighbours in the hash), half anywhere below C2D_NONE */
        pool[i] =
            i % 2 ? (uint32_t)i : POOL + (uint32_t)(c2d_rng_next(&rng) % (0xFFFFFFFFu - POOL));
        for (size_t j = 0; j < i; j++) /* distinct ids, so the reference is one flag an id */
            if (pool[j] == pool[i]) pool[i] = (uint32_t)i;
        held[i] = false;
    }
    const c2d_capsule_soa none = {.count = 0};
    c2d_scene *scene = NULL;
    assert_int_equal(c2d_scene_create(&none, NULL, &scene), C2D_OK);
    size_t count = 0;
    for (size_t step = 0; step < STEPS; step++) {
        uint32_t batch[BATCH];
        float x[BATCH], y[BATCH], r[BATCH];
        size_t which[BATCH];
        for (size_t k = 0; k < BATCH; k++) {
            which[k] = c2d_rng_next(&rng) % POOL;
            batch[k] = pool[which[k]];
            x[k] = (float)step + (float)k * 0.001f;
            y[k] = 0.0f;
            r[k] = 0.25f;
        }
        if (c2d_rng_next(&rng) % 3) {
            const c2d_circle_soa set = {.x = x, .y = y, .radius = r, .count = BATCH};
            assert_int_equal(c2d_scene_freeze_balls(scene, &set, batch), C2D_OK);
            for (size_t k = 0; k < BATCH; k++) {
                count += !held[which[k]];
                held[which[k]] = true;
                held_x[which[k]] = x[k];
            }
        } else {
            assert_int_equal(c2d_scene_thaw_balls(scene, batch, BATCH), C2D_OK);
            for (size_t k = 0; k < BATCH; k++) {
                count -= held[which[k]];
                held[which[k]] = false;
            }
        }
        assert_int_equal(c2d_scene_frozen_count(scene), count);
        if (step % 50 == 49 || step == STEPS - 1)
            for (size_t i = 0; i < POOL; i++) {
                c2d_circle got;
                const bool is = c2d_scene_frozen_ball(scene, pool[i], &got);
                assert_int_equal(is, held[i]);
                if (is) assert_true(got.center.x == held_x[i]);
            }
    }
    c2d_scene_destroy(scene);
}

/* ---- issue 42's cost cliffs: shapes that move the index's cell and levels ------------------ */

/* Freezes the balls ids[0 .. m) of s at scale `scale` about the origin and radius `r` (< 0:
 * their own). */
static void freeze_some(c2d_scene *scene, const ball_set *s, const uint32_t *ids, size_t m,
                        float scale, float r) {
    float *x = malloc((m + 1) * sizeof *x), *y = malloc((m + 1) * sizeof *y);
    float *rr = malloc((m + 1) * sizeof *rr);
    assert_non_null(x && y && rr);
    for (size_t k = 0; k < m; k++) {
        x[k] = s->x[ids[k]] * scale;
        y[k] = s->y[ids[k]] * scale;
        rr[k] = r >= 0.0f ? r : s->r[ids[k]];
    }
    const c2d_circle_soa soa = {x, y, rr, m, NULL, NULL};
    if (m) assert_int_equal(c2d_scene_freeze_balls(scene, &soa, ids), C2D_OK);
    free(x);
    free(y);
    free(rr);
}

/* The identity on every backend after a history: every ball of s frozen at radius `before`
 * (when >= 0) and thawed, then the balls of `frozen` frozen as they are. */
static void check_after(const ball_set *s, const bool *frozen, float before, const char *label) {
    uint32_t *all = malloc((s->n + 1) * sizeof *all), *ids = malloc((s->n + 1) * sizeof *ids);
    assert_non_null(all && ids);
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++) {
        all[i] = (uint32_t)i;
        if (frozen[i]) ids[m++] = (uint32_t)i;
    }
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t backends = available_backends(list);
    for (size_t b = 0; b < backends; b++) {
        use_backend(list[b]);
        c2d_scene *scene = empty_scene();
        if (before >= 0.0f) {
            freeze_some(scene, s, all, s->n, 1.0f, before);
            assert_int_equal(c2d_scene_thaw_balls(scene, all, s->n), C2D_OK);
        }
        freeze_some(scene, s, ids, m, 1.0f, -1.0f);
        char full[128];
        snprintf(full, sizeof full, "%s, %s", label, c2d_backend_name(list[b]));
        check_identity(scene, s, frozen, full);
        c2d_scene_destroy(scene);
    }
    free(all);
    free(ids);
}

/* A hexagonal pile of radius 0.5 with its frozen balls at radius `fr` (awake ones 0.5), after
 * every ball was frozen at radius `before` (< 0: never) and thawed. */
static void check_pile_radius(float fr, float before, unsigned percent) {
    c2d_rng rng = {0x3d3 + percent};
    ball_set s;
    balls_init(&s, 900);
    balls_hex(&s, 30, 1.0f, 0.5f, 0.3f, &rng);
    bool *frozen = malloc(s.n * sizeof *frozen);
    assert_non_null(frozen);
    for (size_t i = 0; i < s.n; i++) {
        frozen[i] = c2d_rng_next(&rng) % 100 < percent;
        if (frozen[i]) s.r[i] = fr;
    }
    char label[96];
    snprintf(label, sizeof label, "pile frozen at r %g after %g, %u%%", (double)fr, (double)before,
             percent);
    check_after(&s, frozen, before, label);
    free(frozen);
    balls_free(&s);
}

/* Defect 3's shapes: zero and 1e-6 radii frozen among awake balls of 0.5, whatever was frozen
 * and thawed before; tiny balls frozen, thawed, then the pile. */
static void small_radii(void **state) {
    (void)state;
    const float radii[] = {0.0f, 1e-6f, 0.005f, 0.5f};
    const float befores[] = {-1.0f, 0.0f, 1e-6f, 0.005f, 0.5f, 40.0f};
    for (size_t k = 0; k < 4; k++)
        for (size_t b = 0; b < 6; b++)
            check_pile_radius(radii[k], befores[b], k == 3 ? 90 : 99);
}

/* A boulder among a pile, frozen or awake, and balls of many sizes at once (many levels). */
static void boulders_and_levels(void **state) {
    (void)state;
    for (unsigned k = 0; k < 3; k++) {
        c2d_rng rng = {0xb01d + k};
        ball_set s;
        balls_init(&s, 900);
        balls_hex(&s, 30, 1.0f, 0.5f, 0.3f, &rng);
        const float big[] = {6.0f, 20.0f, 3000.0f};
        s.r[465] = big[k]; /* the pile's middle */
        s.r[17] = big[k] * 0.5f;
        check_frozen(&s, 90, 0xb0 + k, "boulder");
        check_frozen(&s, 50, 0xb4 + k, "boulder");
        balls_free(&s);
    }
    for (unsigned k = 0; k < 2; k++) {
        c2d_rng rng = {0x1e7e + k};
        ball_set s;
        balls_init(&s, 700);
        balls_random(&s, &rng, k ? 40.0f : 400.0f, 0.0f, 1.0f, 3.0f);
        for (size_t i = 0; i < s.n; i++) /* radii from 2^-12 to 2^8, and a few zeros */
            s.r[i] = i % 23 == 0 ? 0.0f
                                 : ldexpf(1.0f + (float)(c2d_rng_next(&rng) % 1000) / 1000.0f,
                                          (int)(c2d_rng_next(&rng) % 21) - 12);
        check_frozen(&s, 30, 0x1e0 + k, "many levels");
        check_frozen(&s, 80, 0x1e2 + k, "many levels");
        balls_free(&s);
    }
}

/* Freeze and thaw churn that moves level 0's cell back and forth: the frozen balls replaced by
 * sparse copies (spread 64 times) and back, some thawed and frozen again each frame. */
static void churn_cells(void **state) {
    (void)state;
    c2d_rng rng = {0xc4a2};
    ball_set s;
    balls_init(&s, 800);
    balls_hex(&s, 40, 1.0f, 0.5f, 0.3f, &rng);
    bool *frozen = malloc(s.n * sizeof *frozen);
    uint32_t *ids = malloc(s.n * sizeof *ids), *some = malloc(s.n * sizeof *some);
    assert_non_null(frozen && ids && some);
    size_t m = 0;
    for (size_t i = 0; i < s.n; i++) {
        frozen[i] = i % 10 != 3;
        if (frozen[i]) ids[m++] = (uint32_t)i;
    }
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t backends = available_backends(list);
    for (size_t b = 0; b < backends; b++) {
        use_backend(list[b]);
        c2d_scene *scene = empty_scene();
        for (int frame = 0; frame < 12; frame++) {
            const float scale = frame % 3 == 0 ? 64.0f : frame % 3 == 1 ? 1.0f / 64.0f : 1.0f;
            freeze_some(scene, &s, ids, m, scale, frame % 2 ? 0.0f : -1.0f); /* elsewhere */
            size_t k = 0; /* a few thawed now, the rest put back where they belong */
            for (size_t j = 0; j < m; j++)
                if (c2d_rng_next(&rng) % 8 == 0) some[k++] = ids[j];
            assert_int_equal(c2d_scene_thaw_balls(scene, some, k), C2D_OK);
            freeze_some(scene, &s, ids, m, 1.0f, -1.0f);
            assert_int_equal(c2d_scene_frozen_count(scene), m);
            char label[64];
            snprintf(label, sizeof label, "churn frame %d, %s", frame, c2d_backend_name(list[b]));
            check_identity(scene, &s, frozen, label);
        }
        c2d_scene_destroy(scene);
    }
    free(frozen);
    free(ids);
    free(some);
    balls_free(&s);
}

/* Crowded cells: clumps of 1 to 23 balls about a few points (a cell's balls then fill chained
 * blocks of four), frozen and thawed a ball at a time in random order for many frames, so that
 * removals move a cell's last ball from one block into another and blocks are freed and
 * reused; the identity after each frame, on every backend. */
static void crowded_churn(void **state) {
    (void)state;
    c2d_rng rng = {0xc10d};
    ball_set s;
    balls_init(&s, 360);
    balls_random(&s, &rng, 4.0f, 0.05f, 0.6f, 1.5f);
    for (size_t i = 0; i < s.n; i++) { /* clump k: balls [k (k + 1) / 2 ...), about point k */
        size_t k = 0;
        while ((k + 1) * (k + 2) / 2 <= i)
            k++;
        s.x[i] = (float)(k % 6) * 3.0f + c2d_rng_range(&rng, -0.05f, 0.05f);
        s.y[i] = (float)(k / 6) * 3.0f + c2d_rng_range(&rng, -0.05f, 0.05f);
    }
    bool *frozen = calloc(s.n, sizeof *frozen);
    assert_non_null(frozen);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t backends = available_backends(list);
    for (size_t b = 0; b < backends; b++) {
        use_backend(list[b]);
        memset(frozen, 0, s.n * sizeof *frozen);
        c2d_scene *scene = empty_scene();
        for (int frame = 0; frame < 16; frame++) {
            for (size_t step = 0; step < s.n / 2; step++) {
                const size_t i = (size_t)(c2d_rng_next(&rng) % s.n);
                const uint32_t id = (uint32_t)i;
                if (frozen[i]) {
                    assert_int_equal(c2d_scene_thaw_balls(scene, &id, 1), C2D_OK);
                } else {
                    const c2d_circle_soa one = {&s.x[i], &s.y[i], &s.r[i], 1, NULL, NULL};
                    assert_int_equal(c2d_scene_freeze_balls(scene, &one, &id), C2D_OK);
                }
                frozen[i] = !frozen[i];
            }
            char label[64];
            snprintf(label, sizeof label, "crowded frame %d, %s", frame,
                     c2d_backend_name(list[b]));
            check_identity(scene, &s, frozen, label);
        }
        c2d_scene_destroy(scene);
    }
    free(frozen);
    balls_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_piles),        cmocka_unit_test(packed),
        cmocka_unit_test(coincident),          cmocka_unit_test(hostile),
        cmocka_unit_test(every_count),         cmocka_unit_test(incremental),
        cmocka_unit_test(bad_arguments),       cmocka_unit_test(huge_ids),
        cmocka_unit_test(id_map_churn),        cmocka_unit_test(small_radii),
        cmocka_unit_test(boulders_and_levels), cmocka_unit_test(churn_cells),
        cmocka_unit_test(crowded_churn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
