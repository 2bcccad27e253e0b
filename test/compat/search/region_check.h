/* The region-query checks shared by test_region.c and test_filter_search.c: query sets
 * (boxes, discs, points, with optional filter words), the scalar loop (query-major, then shape
 * index, the pairs the filter rule refuses left out: sensors are seen), and every batch query on
 * every backend and every scene query against it, with canaries, truncation and the size query
 * on the (filtered) total. */
#ifndef C2D_TEST_REGION_CHECK_H
#define C2D_TEST_REGION_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch_check.h"
#include "filter_check.h"

typedef enum query_kind { Q_BOX, Q_DISC, Q_POINT } query_kind;

/* Queries: boxes from (x, y) to (hx, hy), discs (x, y, r), points (x, y); filter words cat
 * and mask (NULL: every layer). */
typedef struct queries {
    size_t n;
    float *x, *y, *hx, *hy, *r;
    uint32_t *cat, *mask;
} queries;

/* n queries, every value uninitialised, no filter words. */
static inline void queries_init(queries *q, size_t n) {
    q->n = n;
    q->x = xmalloc((n + 1) * sizeof(float));
    q->y = xmalloc((n + 1) * sizeof(float));
    q->hx = xmalloc((n + 1) * sizeof(float));
    q->hy = xmalloc((n + 1) * sizeof(float));
    q->r = xmalloc((n + 1) * sizeof(float));
    q->cat = q->mask = NULL;
}

static inline void queries_free(queries *q) {
    free(q->x), free(q->y), free(q->hx), free(q->hy), free(q->r), free(q->cat), free(q->mask);
}

/* Random queries: corners in [-2, span]^2, sizes (box sides, radii) up to `size`. */
static inline void random_queries(queries *q, c2d_rng *rng, float span, float size) {
    for (size_t i = 0; i < q->n; i++) {
        q->x[i] = c2d_rng_range(rng, -2.0f, span);
        q->y[i] = c2d_rng_range(rng, -2.0f, span);
        q->hx[i] = q->x[i] + c2d_rng_range(rng, 0.0f, size);
        q->hy[i] = q->y[i] + c2d_rng_range(rng, 0.0f, size);
        q->r[i] = c2d_rng_range(rng, 0.0f, size);
    }
}

static inline bool ref_overlap(query_kind kind, const queries *q, size_t i, const c2d_capsule *k,
                               bool circle) {
    const c2d_box b = {{q->x[i], q->y[i]}, {q->hx[i], q->hy[i]}};
    const c2d_circle c = {k->a, k->radius};
    switch (kind) {
    case Q_BOX:
        return circle ? c2d_overlap_box_circle(b, c) : c2d_overlap_box_capsule(b, *k);
    case Q_DISC: {
        const c2d_circle d = {{q->x[i], q->y[i]}, q->r[i]};
        return circle ? c2d_overlap_circles(d, c) : c2d_overlap_circle_capsule(d, *k);
    }
    case Q_POINT: {
        const c2d_vec2 p = {q->x[i], q->y[i]};
        const c2d_circle d = {p, 0.0f};
        return circle ? c2d_overlap_circles(d, c) : c2d_point_in_capsule(p, *k);
    }
    }
    return false;
}

/* The scalar loop: query-major, then shape index; shapes from s's capsules or circles (with
 * their filter words); the pairs the rule refuses are left out. */
static inline size_t ref_query(query_kind kind, const queries *q, const scene *s, bool circles,
                               c2d_query_pair **out) {
    size_t n = 0, cap = 16;
    *out = xmalloc(cap * sizeof **out);
    const size_t m = circles ? s->n : s->m;
    const uint32_t *scat = circles ? s->circles.category : s->capsules.category;
    const uint32_t *smask = circles ? s->circles.mask : s->capsules.mask;
    for (size_t i = 0; i < q->n; i++)
        for (size_t k = 0; k < m; k++) {
            if (!allows(word(q->cat, i), word(q->mask, i), word(scat, k), word(smask, k))) continue;
            const c2d_capsule ck =
                circles ? (c2d_capsule){{s->x[k], s->y[k]}, {s->x[k], s->y[k]}, s->r[k]}
                        : (c2d_capsule){{s->ax[k], s->ay[k]}, {s->bx[k], s->by[k]}, s->R[k]};
            if (!ref_overlap(kind, q, i, &ck, circles)) continue;
            if (n == cap) *out = realloc(*out, (cap *= 2) * sizeof **out);
            assert_non_null(*out);
            (*out)[n++] = (c2d_query_pair){(uint32_t)i, (uint32_t)k};
        }
    return n;
}

/* Runs one query: the batch call (sc NULL) against s's capsules or circles, or the scene's. */
static inline c2d_status run_query(const c2d_scene *sc, query_kind kind, const queries *q,
                                   const scene *s, bool circles, c2d_query_pair *out,
                                   size_t capacity, size_t *count) {
    const c2d_box_soa boxes = {q->x, q->y, q->hx, q->hy, q->n, q->cat, q->mask};
    const c2d_circle_soa discs = {q->x, q->y, q->r, q->n, q->cat, q->mask};
    const c2d_point_soa points = {q->x, q->y, q->n, q->cat, q->mask};
    if (sc) {
        if (kind == Q_BOX) return c2d_scene_query_box(sc, &boxes, out, capacity, count);
        if (kind == Q_DISC) return c2d_scene_query_disc(sc, &discs, out, capacity, count);
        return c2d_scene_query_point(sc, &points, out, capacity, count);
    }
    if (kind == Q_BOX)
        return circles ? c2d_batch_query_box_circles(&boxes, &s->circles, out, capacity, count)
                       : c2d_batch_query_box_capsules(&boxes, &s->capsules, out, capacity, count);
    if (kind == Q_DISC)
        return circles ? c2d_batch_query_disc_circles(&discs, &s->circles, out, capacity, count)
                       : c2d_batch_query_disc_capsules(&discs, &s->capsules, out, capacity, count);
    return circles ? c2d_batch_query_point_circles(&points, &s->circles, out, capacity, count)
                   : c2d_batch_query_point_capsules(&points, &s->capsules, out, capacity, count);
}

/* One call against the reference: ample capacity (canaries around), a truncated capacity,
 * and the size query. */
static inline bool check_query(const c2d_scene *sc, query_kind kind, const queries *q,
                               const scene *s, bool circles, const c2d_query_pair *want,
                               size_t total, const char *label) {
    const size_t bytes = (total + 3) * sizeof(c2d_query_pair);
    c2d_query_pair *buf = xmalloc(bytes);
    memset(buf, CANARY_BYTE, bytes);
    size_t count = 7;
    assert_int_equal(run_query(sc, kind, q, s, circles, buf + 1, total + 1, &count), C2D_OK);
    bool ok = count == total && bytes_are(buf, sizeof *buf, CANARY_BYTE) &&
              bytes_are(buf + 1 + total, 2 * sizeof *buf, CANARY_BYTE);
    for (size_t j = 0; ok && j < total; j++)
        if (buf[1 + j].query != want[j].query || buf[1 + j].shape != want[j].shape) {
            printf("# %s: pair %zu: want (%u, %u), got (%u, %u)\n", label, j, want[j].query,
                   want[j].shape, buf[1 + j].query, buf[1 + j].shape);
            ok = false;
        }
    if (!ok) printf("# %s: count %zu, want %zu\n", label, count, total);
    /* truncated: the first half written, nothing past it, the total counted */
    const size_t half = total / 2;
    memset(buf, CANARY_BYTE, bytes);
    const c2d_status st = run_query(sc, kind, q, s, circles, buf, half, &count);
    ok &= st == (total > half ? C2D_ERROR_TRUNCATED : C2D_OK) && count == total;
    ok &= memcmp(buf, want, half * sizeof *buf) == 0;
    ok &= bytes_are(buf + half, (total + 3 - half) * sizeof *buf, CANARY_BYTE);
    /* the size query */
    count = 0;
    ok &= run_query(sc, kind, q, s, circles, NULL, 0, &count) == C2D_OK && count == total;
    free(buf);
    if (!ok) printf("# %s: failed\n", label);
    return ok;
}

/* Every kind of query against the scene's capsules and circles, batch on every backend and the
 * scene (capsules). Returns the total pairs found (the callers check the data is not void). */
static inline size_t check_queries(const queries *q, const scene *s, const char *label) {
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s->capsules, NULL, &sc), C2D_OK);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    static const char *const names[] = {"box", "disc", "point"};
    bool ok = true;
    size_t found = 0;
    for (int kind = Q_BOX; kind <= Q_POINT; kind++)
        for (int circles = 0; circles < 2; circles++) {
            c2d_query_pair *want;
            const size_t total = ref_query((query_kind)kind, q, s, circles, &want);
            found += total;
            char what[160];
            for (size_t b = 0; b < nb; b++) {
                use_backend(list[b]);
                snprintf(what, sizeof what, "%s: %s/%s (%s)", label, names[kind],
                         circles ? "circles" : "capsules", c2d_backend_name(list[b]));
                ok &= check_query(NULL, (query_kind)kind, q, s, circles, want, total, what);
            }
            if (!circles) {
                snprintf(what, sizeof what, "%s: %s (scene)", label, names[kind]);
                ok &= check_query(sc, (query_kind)kind, q, s, false, want, total, what);
            }
            free(want);
        }
    c2d_scene_destroy(sc);
    assert_true(ok);
    return found;
}

#endif
