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

#include "balls_check.h"
#include "collide2d/frozen.h"

static int pair_order(const void *pa, const void *pb) {
    const c2d_circle_pair_contact *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : (a->b > b->b);
}

static c2d_scene *empty_scene(void) {
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *scene;
    assert_int_equal(c2d_scene_create(&none, NULL, &scene), C2D_OK);
    return scene;
}

/* The awake balls of s (frozen[i] false), in increasing id order, and their ids. */
typedef struct awake_set {
    size_t n;
    float *x, *y, *r, *mx, *my;
    uint32_t *ids;
    c2d_circle_soa soa;
} awake_set;

static awake_set compact(const ball_set *s, const bool *frozen) {
    awake_set a;
    const size_t n = s->n ? s->n : 1;
    a.x = malloc(n * sizeof(float));
    a.y = malloc(n * sizeof(float));
    a.r = malloc(n * sizeof(float));
    a.mx = malloc(n * sizeof(float));
    a.my = malloc(n * sizeof(float));
    a.ids = malloc(n * sizeof(uint32_t));
    assert_non_null(a.x && a.y && a.r && a.mx && a.my && a.ids);
    a.n = 0;
    for (size_t i = 0; i < s->n; i++)
        if (!frozen[i]) {
            a.x[a.n] = s->x[i];
            a.y[a.n] = s->y[i];
            a.r[a.n] = s->r[i];
            a.mx[a.n] = s->mx[i];
            a.my[a.n] = s->my[i];
            a.ids[a.n++] = (uint32_t)i;
        }
    a.soa = (c2d_circle_soa){a.x, a.y, a.r, a.n, NULL, NULL};
    return a;
}

static void awake_free(awake_set *a) {
    free(a->x);
    free(a->y);
    free(a->r);
    free(a->mx);
    free(a->my);
    free(a->ids);
}

/* Freezes the frozen balls of s into scene: in a shuffled order, in two calls, with a few
 * balls frozen early at wrong places, thawed and frozen again (so the index has seen
 * insertions, replacements and removals). */
static void freeze_into(c2d_scene *scene, const ball_set *s, const bool *frozen, c2d_rng *rng) {
    const size_t n = s->n;
    uint32_t *ids = malloc((n + 1) * sizeof *ids);
    float *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
    float *r = malloc((n + 1) * sizeof *r);
    assert_non_null(ids && x && y && r);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (frozen[i]) ids[m++] = (uint32_t)i;
    for (size_t i = m; i > 1; i--) { /* shuffle */
        const size_t j = (size_t)(c2d_rng_next(rng) % i);
        const uint32_t t = ids[i - 1];
        ids[i - 1] = ids[j];
        ids[j] = t;
    }
    /* a third frozen somewhere else first, then thawed (some) or replaced (others) */
    const size_t early = m / 3;
    for (size_t k = 0; k < early; k++) {
        x[k] = s->x[ids[k]] + 5.0f;
        y[k] = -s->y[ids[k]];
        r[k] = 0.5f;
    }
    c2d_circle_soa soa = {x, y, r, early, NULL, NULL};
    assert_int_equal(c2d_scene_freeze_circles(scene, &soa, ids), C2D_OK);
    assert_int_equal(c2d_scene_thaw_circles(scene, ids, early / 2), C2D_OK);
    assert_int_equal(c2d_scene_frozen_count(scene), early - early / 2);
    for (size_t k = 0; k < m; k++) {
        x[k] = s->x[ids[k]];
        y[k] = s->y[ids[k]];
        r[k] = s->r[ids[k]];
    }
    const size_t half = m / 2;
    soa = (c2d_circle_soa){x, y, r, half, NULL, NULL};
    assert_int_equal(c2d_scene_freeze_circles(scene, &soa, ids), C2D_OK);
    soa = (c2d_circle_soa){x + half, y + half, r + half, m - half, NULL, NULL};
    assert_int_equal(c2d_scene_freeze_circles(scene, &soa, ids + half), C2D_OK);
    assert_int_equal(c2d_scene_frozen_count(scene), m);
    free(ids);
    free(x);
    free(y);
    free(r);
}

/* The identity on the active backend with the scene holding the frozen balls. */
static void check_identity(c2d_scene *scene, const ball_set *s, const bool *frozen,
                           const char *label) {
    /* contacts: the all-awake pairs that involve an awake ball */
    size_t total;
    assert_int_equal(c2d_batch_collide_circles(&s->soa, NULL, 0, &total), C2D_OK);
    c2d_circle_pair_contact *all = malloc((total + 1) * sizeof *all);
    assert_non_null(all);
    assert_int_equal(c2d_batch_collide_circles(&s->soa, all, total, &total), C2D_OK);
    size_t want = 0;
    for (size_t k = 0; k < total; k++)
        if (!(frozen[all[k].a] && frozen[all[k].b])) all[want++] = all[k];
    awake_set a = compact(s, frozen);
    size_t aa, af;
    assert_int_equal(c2d_scene_collide_circles(scene, &a.soa, NULL, 0, &aa), C2D_OK);
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &a.soa, a.ids, NULL, 0, &af), C2D_OK);
    if (aa + af != want) fprintf(stderr, "# %s: %zu + %zu pairs, want %zu\n", label, aa, af, want);
    assert_int_equal(aa + af, want);
    c2d_circle_pair_contact *got = malloc((want + 2) * sizeof *got);
    assert_non_null(got);
    assert_int_equal(c2d_scene_collide_circles(scene, &a.soa, got, aa, &aa), C2D_OK);
    for (size_t k = 0; k < aa; k++) {
        got[k].a = a.ids[got[k].a];
        got[k].b = a.ids[got[k].b];
    }
    memset(&got[aa + af], 0x5a, sizeof *got); /* canary */
    assert_int_equal(c2d_scene_collide_frozen_circles(scene, &a.soa, a.ids, got + aa, af, &af),
                     C2D_OK);
    const unsigned char *canary = (const unsigned char *)&got[aa + af];
    for (size_t b = 0; b < sizeof *got; b++)
        assert_int_equal(canary[b], 0x5a);
    /* the documented order: by awake ball, then frozen id; a < b; one side frozen */
    for (size_t k = aa; k < aa + af; k++) {
        assert_true(got[k].a < got[k].b);
        assert_true(frozen[got[k].a] != frozen[got[k].b]);
        if (k > aa) {
            const uint32_t prev = frozen[got[k - 1].a] ? got[k - 1].b : got[k - 1].a;
            const uint32_t cur = frozen[got[k].a] ? got[k].b : got[k].a;
            const uint32_t pf = frozen[got[k - 1].a] ? got[k - 1].a : got[k - 1].b;
            const uint32_t cf = frozen[got[k].a] ? got[k].a : got[k].b;
            assert_true(prev < cur || (prev == cur && pf < cf));
        }
    }
    if (af > 1) { /* truncation keeps the first entries */
        c2d_circle_pair_contact *part = malloc(af * sizeof *part);
        assert_non_null(part);
        size_t n;
        assert_int_equal(c2d_scene_collide_frozen_circles(scene, &a.soa, a.ids, part, af - 1, &n),
                         C2D_ERROR_TRUNCATED);
        assert_int_equal(n, af);
        for (size_t k = 0; k + 1 < af; k++)
            assert_true(same_ball_pair(&part[k], &got[aa + k]));
        free(part);
    }
    qsort(got, want, sizeof *got, pair_order);
    for (size_t k = 0; k < want; k++) {
        if (!same_ball_pair(&got[k], &all[k]))
            fprintf(stderr, "# %s: pair %zu: got (%u, %u) want (%u, %u)\n", label, k, got[k].a,
                    got[k].b, all[k].a, all[k].b);
        assert_true(same_ball_pair(&got[k], &all[k]));
    }
    free(got);
    free(all);

    /* sweeps: the all-awake answer with the frozen balls still, for each awake ball */
    const size_t n = s->n;
    float *mx = malloc((n + 1) * sizeof *mx), *my = malloc((n + 1) * sizeof *my);
    c2d_circle_hit *full = malloc((n + 1) * sizeof *full);
    c2d_circle_hit *ha = malloc((a.n + 1) * sizeof *ha), *hf = malloc((a.n + 1) * sizeof *hf);
    assert_non_null(mx && my && full && ha && hf);
    for (size_t i = 0; i < n; i++) {
        mx[i] = frozen[i] ? 0.0f : s->mx[i];
        my[i] = frozen[i] ? 0.0f : s->my[i];
    }
    assert_int_equal(c2d_batch_sweep_circles(&s->soa, mx, my, full), C2D_OK);
    assert_int_equal(c2d_scene_sweep_circles(scene, &a.soa, a.mx, a.my, ha), C2D_OK);
    assert_int_equal(c2d_scene_sweep_frozen_circles(scene, &a.soa, a.ids, a.mx, a.my, hf), C2D_OK);
    for (size_t k = 0; k < a.n; k++) {
        c2d_circle_hit best = ha[k];
        if (best.other != C2D_NONE) best.other = a.ids[best.other];
        if (hf[k].other != C2D_NONE) {
            assert_true(frozen[hf[k].other]);
            if (best.other == C2D_NONE || hf[k].toi.t < best.toi.t ||
                (hf[k].toi.t == best.toi.t && hf[k].other < best.other))
                best = hf[k];
        }
        if (!same_ball_hit(&best, &full[a.ids[k]]))
            fprintf(stderr, "# %s: sweep of ball %u: got %u t %a want %u t %a\n", label, a.ids[k],
                    best.other, (double)best.toi.t, full[a.ids[k]].other,
                    (double)full[a.ids[k]].toi.t);
        assert_true(same_ball_hit(&best, &full[a.ids[k]]));
    }
    free(mx);
    free(my);
    free(full);
    free(ha);
    free(hf);
    awake_free(&a);
}

/* Every backend, with `percent` % of the balls frozen (chosen at random). */
static void check_frozen(const ball_set *s, unsigned percent, uint64_t seed, const char *label) {
    c2d_rng rng = {seed};
    bool *frozen = malloc((s->n + 1) * sizeof *frozen);
    assert_non_null(frozen);
    for (size_t i = 0; i < s->n; i++)
        frozen[i] = c2d_rng_next(&rng) % 100 < percent;
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t backends = available_backends(list);
    for (size_t b = 0; b < backends; b++) {
        use_backend(list[b]);
        c2d_scene *scene = empty_scene();
        freeze_into(scene, s, frozen, &rng);
        char full_label[128];
        snprintf(full_label, sizeof full_label, "%s, %u%% frozen, %s", label, percent,
                 c2d_backend_name(list[b]));
        check_identity(scene, s, frozen, full_label);
        c2d_scene_destroy(scene);
    }
    free(frozen);
}

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
        balls_random(&s, &rng, k % 2 ? 10.0f : 100.0f, 0.1f, 2.0f, 2.0f);
        balls_sprinkle(&s, &rng, 3 + 3 * k, k % 2 == 1);
        for (size_t i = 0; i < s.n; i += 11)
            s.r[i] = -s.r[i];
        for (size_t i = 5; i < s.n; i += 61)
            s.r[i] = 40.0f;
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

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_piles),  cmocka_unit_test(packed),
        cmocka_unit_test(coincident),    cmocka_unit_test(hostile),
        cmocka_unit_test(every_count),   cmocka_unit_test(incremental),
        cmocka_unit_test(bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
