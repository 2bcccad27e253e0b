/* The frozen-ball identity (collide2d/frozen.h), shared by test_frozen.c and
 * test_filter_balls.c: awake-vs-awake plus awake-vs-frozen output is exactly the part of the
 * all-awake output that involves an awake ball, byte for byte; the same for sweeps (frozen
 * balls still). Filter words of the set, when it has them, go with the balls: into the awake
 * set and into the freezes. */
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

static int pair_order(const void *pa, const void *pb) {
    const c2d_circle_pair_contact *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : (a->b > b->b);
}

c2d_scene *empty_scene(void) {
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *scene;
    assert_int_equal(c2d_scene_create(&none, NULL, &scene), C2D_OK);
    return scene;
}

/* The awake balls of s (frozen[i] false), in increasing id order, their ids, and their filter
 * words when s has them. */
typedef struct awake_set {
    size_t n;
    float *x, *y, *r, *mx, *my;
    uint32_t *ids, *category, *mask;
    c2d_circle_soa soa;
} awake_set;

/* The words of the balls ids[0 .. m) of s, or NULL when s has none (malloc'd). */
static uint32_t *words_of(const uint32_t *words, const uint32_t *ids, size_t m) {
    if (!words) return NULL;
    uint32_t *w = xmalloc((m + 1) * sizeof *w);
    for (size_t k = 0; k < m; k++)
        w[k] = words[ids[k]];
    return w;
}

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
    a.category = words_of(s->category, a.ids, a.n);
    a.mask = words_of(s->mask, a.ids, a.n);
    a.soa = (c2d_circle_soa){a.x, a.y, a.r, a.n, a.category, a.mask};
    return a;
}

static void awake_free(awake_set *a) {
    free(a->x);
    free(a->y);
    free(a->r);
    free(a->mx);
    free(a->my);
    free(a->ids);
    free(a->category);
    free(a->mask);
}

/* Freezes the frozen balls of s into scene: in a shuffled order, in two calls, with a few
 * balls frozen early at wrong places without filter words, thawed and frozen again (so the
 * index has seen insertions, replacements and removals, and its filter words appear when the
 * first freeze brings them). */
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
    uint32_t *cat = words_of(s->category, ids, m), *mask = words_of(s->mask, ids, m);
    soa = (c2d_circle_soa){x, y, r, half, cat, mask};
    assert_int_equal(c2d_scene_freeze_circles(scene, &soa, ids), C2D_OK);
    soa = (c2d_circle_soa){
        x + half, y + half, r + half, m - half, cat ? cat + half : NULL, mask ? mask + half : NULL};
    assert_int_equal(c2d_scene_freeze_circles(scene, &soa, ids + half), C2D_OK);
    assert_int_equal(c2d_scene_frozen_count(scene), m);
    free(cat);
    free(mask);
    free(ids);
    free(x);
    free(y);
    free(r);
}

/* The identity on the active backend with the scene holding the frozen balls. */
void check_identity(c2d_scene *scene, const ball_set *s, const bool *frozen, const char *label) {
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
void check_frozen(const ball_set *s, unsigned percent, uint64_t seed, const char *label) {
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
