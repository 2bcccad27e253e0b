/* Collision filters and sensors (collide2d/filter.h) in the search calls: c2d_batch_ray_cast
 * (capsules and circles), c2d_scene_ray_cast, the six batch region queries and the three scene
 * region queries, on every available backend, against the scalar loops with the rule:
 * - a ray skips the capsules and circles the filter refuses and every sensor; its earliest hit
 *   is taken over the rest (ties to capsules, then the lowest index), so a refused shape in
 *   front never hides one behind it;
 * - a region query reports the unfiltered pairs less the refused ones (sensors are seen), with
 *   the count, truncation and size-query rules on the filtered total.
 * Words that are all C2D_FILTER_ALL give the bytes of NULL arrays. The scene ray cast answers
 * some rays (long ones, NaN times, huge values) with the scene sweep, so those rays check its
 * filters too. */
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
#include "ray_check.h"
#include "region_check.h"

/* ---- ray casts -------------------------------------------------------------------------- */

/* Rays from a scene's circles (origins), moves (translations) and circle words (the rays'
 * words); capsules from its capsules (with their words and sensors); target circles from a
 * second scene's circles (with their words), or NULL. */
typedef struct ray_case {
    const scene *rays;
    const scene *targets;
} ray_case;

static c2d_ray_soa rays_of(const scene *s) {
    return (c2d_ray_soa){s->x, s->y, s->mx, s->my, s->n, s->circles.category, s->circles.mask};
}

static void ref_ray_cast(const ray_case *c, c2d_ray_hit *out) {
    ref_ray_hits(c->rays, true, c->targets, out);
}

/* The batch call on every backend and the scene call against the filtered scalar loop. */
static void check_rays(const ray_case *c, const char *label) {
    const scene *s = c->rays;
    c2d_ray_hit *want = xmalloc((s->n + 1) * sizeof *want);
    ref_ray_cast(c, want);
    const c2d_ray_soa rays = rays_of(s);
    const c2d_circle_soa *circles = c->targets ? &c->targets->circles : NULL;
    c2d_scene *sc = NULL;
    assert_int_equal(c2d_scene_create(&s->capsules, NULL, &sc), C2D_OK);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    bool ok = true;
    c2d_ray_hit *buf = xmalloc((s->n + 2) * sizeof *buf);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        memset(buf, CANARY_BYTE, (s->n + 2) * sizeof *buf);
        assert_int_equal(c2d_batch_ray_cast(&rays, &s->capsules, circles, buf + 1), C2D_OK);
        ok &= bytes_are(buf, sizeof *buf, CANARY_BYTE) &&
              bytes_are(buf + 1 + s->n, sizeof *buf, CANARY_BYTE);
        ok &= compare_ray_hits(s, want, buf + 1, label, c2d_backend_name(list[b]));
        memset(buf, CANARY_BYTE, (s->n + 2) * sizeof *buf);
        assert_int_equal(c2d_scene_ray_cast(sc, &rays, circles, buf + 1), C2D_OK);
        ok &= bytes_are(buf + 1 + s->n, sizeof *buf, CANARY_BYTE);
        ok &= compare_ray_hits(s, want, buf + 1, label, "scene");
    }
    free(buf);
    c2d_scene_destroy(sc);
    free(want);
    assert_true(ok);
}

static const random_spec board = {40.0f, 0.1f, 1.0f, 6.0f, 0.0f, 6.0f, 0.0f, 1.0f};

/* Random boards with short rays (the scene walks them through its index), words in every
 * arrangement, every ray count 0..40 and a large set. Both kinds of outcome are common. */
static void rays_short(void **state) {
    (void)state;
    c2d_rng rng = {0x5a7};
    size_t hits = 0, rays = 0;
    for (size_t n = 0; n <= 41; n++) {
        const bool large = n == 41;
        scene s, t;
        scene_init(&s, large ? 900 : n, large ? 300 : 3 + n % 17,
                   n % 2 ? LAYOUT_GUARDED : LAYOUT_OFFSET);
        fill_random(&s, &rng, &board);
        scene_init(&t, large ? 120 : n % 13, 0, LAYOUT_ALIGNED);
        fill_random(&t, &rng, &board);
        words ws, wt;
        words_attach(&ws, &s, &rng, 3, n % 4 == 1);
        words_attach(&wt, &t, &rng, 0, n % 4 == 2);
        const ray_case c = {&s, n % 5 == 4 ? NULL : &t};
        char label[64];
        snprintf(label, sizeof label, "%zu short rays, %zu capsules", s.n, s.m);
        check_rays(&c, label);
        c2d_ray_hit *want = xmalloc((s.n + 1) * sizeof *want);
        ref_ray_cast(&c, want);
        for (size_t i = 0; i < s.n; i++)
            hits += want[i].kind != C2D_SHAPE_NONE;
        rays += s.n;
        free(want);
        words_free(&ws), words_free(&wt);
        scene_free(&s), scene_free(&t);
    }
    assert_true(hits > rays / 10 && hits < rays * 9 / 10);
}

/* Long rays, NaN and huge values: the scene answers these with the scene sweep, which takes the
 * rays' words as its circle set's. */
static void rays_long_and_special(void **state) {
    (void)state;
    c2d_rng rng = {0x10e6};
    for (int round = 0; round < 4; round++) {
        scene s, t;
        scene_init(&s, 300, 40, LAYOUT_OFFSET);
        const random_spec spec = {40.0f, 0.1f, 1.0f, round % 2 ? 400.0f : 90.0f,
                                  0.0f,  6.0f, 0.0f, 1.0f};
        fill_random(&s, &rng, &spec);
        scene_init(&t, 60, 0, LAYOUT_GUARDED);
        fill_random(&t, &rng, &board);
        if (round >= 2) {
            sprinkle_special(&s, &rng, 5, true, true, true);
            sprinkle_special(&t, &rng, 5, true, false, false);
        }
        words ws, wt;
        words_attach(&ws, &s, &rng, 4, round == 3);
        words_attach(&wt, &t, &rng, 0, round == 3);
        const ray_case c = {&s, &t};
        check_rays(&c, round >= 2 ? "long rays, special values" : "long rays");
        words_free(&ws), words_free(&wt);
        scene_free(&s), scene_free(&t);
    }
}

/* A refused capsule, a sensor and a refused circle in front of allowed shapes: the ray hits
 * the allowed capsule behind them (batch on every backend, and the scene). */
static void rays_front_hides_nothing(void **state) {
    (void)state;
    enum { N = 21 };
    scene s, t;
    scene_init(&s, N, 4, LAYOUT_GUARDED);
    const float wall_x[4] = {2.0f, 3.0f, 6.0f, 6.0f}; /* refused, sensor, allowed, allowed */
    for (size_t j = 0; j < 4; j++) {
        s.ax[j] = s.bx[j] = wall_x[j];
        s.ay[j] = -100.0f, s.by[j] = 100.0f, s.R[j] = 0.25f;
    }
    for (size_t i = 0; i < N; i++)
        s.x[i] = 0.0f, s.y[i] = (float)i - 10.0f, s.mx[i] = 10.0f, s.my[i] = 0.0f;
    scene_init(&t, N, 0, LAYOUT_ALIGNED); /* a refused circle at x = 4 on every ray */
    for (size_t i = 0; i < N; i++)
        t.x[i] = 4.0f, t.y[i] = s.y[i], t.r[i] = 0.5f;
    uint32_t rcat[N], rmask[N], tcat[N];
    for (size_t i = 0; i < N; i++)
        rcat[i] = 1u, rmask[i] = 1u, tcat[i] = 4u;
    const uint32_t kcat[4] = {2u, 1u, 1u, 1u};
    const uint8_t sensor[4] = {0, 1, 0, 0};
    s.circles.category = rcat, s.circles.mask = rmask;
    s.capsules.category = kcat, s.capsules.sensor = sensor;
    t.circles.category = tcat;
    const ray_case c = {&s, &t};
    c2d_ray_hit want[N];
    ref_ray_cast(&c, want);
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(want[i].kind, C2D_SHAPE_CAPSULE);
        assert_int_equal(want[i].shape, 2);
    }
    check_rays(&c, "refused shapes in front");
    scene_free(&s), scene_free(&t);
}

/* ---- region queries --------------------------------------------------------------------- */

/* Random filter words for the queries (each array NULL with probability 1/2 when
 * `some_null`). */
static void queries_words(queries *q, c2d_rng *rng, bool some_null) {
    q->cat = xmalloc((q->n + 1) * sizeof(uint32_t));
    q->mask = xmalloc((q->n + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < q->n; i++)
        q->cat[i] = random_category(rng), q->mask[i] = random_mask(rng);
    if (some_null && c2d_rng_next(rng) % 2) free(q->cat), q->cat = NULL;
    if (some_null && c2d_rng_next(rng) % 2) free(q->mask), q->mask = NULL;
}

/* Every query count 0..40 with shape counts around it, and a large set with big queries (the
 * scene's ordered scan); sensors are seen; both kinds of pair are common. */
static void queries_filtered(void **state) {
    (void)state;
    c2d_rng rng = {0x9f17};
    size_t found = 0;
    for (size_t n = 0; n <= 42; n++) {
        const bool large = n > 40;
        scene s;
        scene_init(&s, large ? 300 : (n * 7) % 41, large ? 250 : n, LAYOUT_GUARDED);
        fill_random(&s, &rng, &board);
        words w;
        words_attach(&w, &s, &rng, 4, n % 3 == 2);
        queries q;
        queries_init(&q, large ? 200 : n);
        random_queries(&q, &rng, 40.0f, n == 42 ? 150.0f : 8.0f);
        queries_words(&q, &rng, n % 4 == 1);
        if (n % 9 == 4) sprinkle_special(&s, &rng, 5, true, true, false);
        char label[48];
        snprintf(label, sizeof label, "%zu queries", q.n);
        found += check_queries(&q, &s, label);
        queries_free(&q);
        words_free(&w);
        scene_free(&s);
    }
    assert_true(found > 2000);
}

/* A sensor capsule is seen by the region queries (a disc over it with a matching mask), and
 * a disc whose mask misses its category is not. */
static void queries_see_sensors(void **state) {
    (void)state;
    const float ax[1] = {0.0f}, ay[1] = {0.0f}, bx[1] = {4.0f}, by[1] = {0.0f}, R[1] = {1.0f};
    const uint32_t kcat[1] = {8u};
    const uint8_t sensor[1] = {1};
    const c2d_capsule_soa caps = {ax, ay, bx, by, R, 1, kcat, NULL, sensor};
    const float x[2] = {2.0f, 2.0f}, y[2] = {0.5f, 0.5f}, r[2] = {0.1f, 0.1f};
    const uint32_t dmask[2] = {8u, 7u};
    const c2d_circle_soa discs = {x, y, r, 2, NULL, dmask};
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&caps, NULL, &sc), C2D_OK);
    c2d_query_pair out[2];
    size_t count = 0;
    assert_int_equal(c2d_batch_query_disc_capsules(&discs, &caps, out, 2, &count), C2D_OK);
    assert_int_equal(count, 1);
    assert_int_equal(out[0].query, 0);
    assert_int_equal(out[0].shape, 0);
    assert_int_equal(c2d_scene_query_disc(sc, &discs, out, 2, &count), C2D_OK);
    assert_int_equal(count, 1);
    assert_int_equal(out[0].query, 0);
    c2d_scene_destroy(sc);
}

/* Words that are all C2D_FILTER_ALL (and no sensor): the bytes of NULL arrays, for the ray
 * casts and every region query. */
static void all_is_null(void **state) {
    (void)state;
    c2d_rng rng = {0xa11a};
    scene s, t;
    scene_init(&s, 200, 60, LAYOUT_OFFSET);
    fill_random(&s, &rng, &board);
    scene_init(&t, 50, 0, LAYOUT_ALIGNED);
    fill_random(&t, &rng, &board);
    words w;
    words_init_all(&w, s.n, s.m);
    const c2d_ray_soa plain = {s.x, s.y, s.mx, s.my, s.n, NULL, NULL};
    const c2d_ray_soa worded = {s.x, s.y, s.mx, s.my, s.n, w.ccat, w.cmask};
    c2d_capsule_soa kw = s.capsules;
    kw.category = w.kcat, kw.mask = w.kmask, kw.sensor = w.sensor;
    c2d_circle_soa tw = t.circles;
    tw.category = tw.mask = w.ccat; /* t.n <= s.n */
    c2d_scene *sc_plain, *sc_worded;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc_plain), C2D_OK);
    assert_int_equal(c2d_scene_create(&kw, NULL, &sc_worded), C2D_OK);
    c2d_ray_hit *a = xmalloc(s.n * sizeof *a), *b = xmalloc(s.n * sizeof *b);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t bk = 0; bk < nb; bk++) {
        use_backend(list[bk]);
        assert_int_equal(c2d_batch_ray_cast(&plain, &s.capsules, &t.circles, a), C2D_OK);
        assert_int_equal(c2d_batch_ray_cast(&worded, &kw, &tw, b), C2D_OK);
        assert_memory_equal(a, b, s.n * sizeof *a);
        assert_int_equal(c2d_scene_ray_cast(sc_plain, &plain, &t.circles, a), C2D_OK);
        assert_int_equal(c2d_scene_ray_cast(sc_worded, &worded, &tw, b), C2D_OK);
        assert_memory_equal(a, b, s.n * sizeof *a);
    }
    queries q;
    queries_init(&q, 100);
    random_queries(&q, &rng, 40.0f, 8.0f);
    queries_words(&q, &rng, false);
    const size_t cap = q.n * (s.n + s.m);
    c2d_query_pair *pa = xmalloc(cap * sizeof *pa), *pb = xmalloc(cap * sizeof *pb);
    scene sw = s; /* the same shapes with the ALL words */
    sw.capsules = kw, sw.circles.category = w.ccat, sw.circles.mask = w.cmask;
    for (size_t i = 0; i < q.n; i++)
        q.cat[i] = q.mask[i] = C2D_FILTER_ALL;
    queries qn = q;
    qn.cat = qn.mask = NULL;
    for (int kind = Q_BOX; kind <= Q_POINT; kind++)
        for (int circles = 0; circles < 3; circles++) { /* 2: the scene */
            size_t na = 0, nbb = 0;
            memset(pa, 0, cap * sizeof *pa), memset(pb, 0, cap * sizeof *pb);
            assert_int_equal(run_query(circles == 2 ? sc_plain : NULL, (query_kind)kind, &qn, &s,
                                       circles == 1, pa, cap, &na),
                             C2D_OK);
            assert_int_equal(run_query(circles == 2 ? sc_worded : NULL, (query_kind)kind, &q, &sw,
                                       circles == 1, pb, cap, &nbb),
                             C2D_OK);
            assert_int_equal(na, nbb);
            assert_memory_equal(pa, pb, cap * sizeof *pa);
        }
    queries_free(&q);
    free(pa), free(pb), free(a), free(b);
    c2d_scene_destroy(sc_plain), c2d_scene_destroy(sc_worded);
    words_free(&w);
    scene_free(&s), scene_free(&t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rays_short),
        cmocka_unit_test(rays_long_and_special),
        cmocka_unit_test(rays_front_hides_nothing),
        cmocka_unit_test(queries_filtered),
        cmocka_unit_test(queries_see_sensors),
        cmocka_unit_test(all_is_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
