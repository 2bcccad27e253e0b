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

void balls_init(ball_set *s, size_t n) {
    s->n = n;
    float **arrays[] = {&s->x, &s->y, &s->r, &s->mx, &s->my};
    for (size_t k = 0; k < 5; k++) {
        *arrays[k] = xmalloc((n ? n : 1) * sizeof(float));
        memset(*arrays[k], 0, (n ? n : 1) * sizeof(float));
    }
    s->category = s->mask = NULL;
    s->soa = (c2d_circle_soa){s->x, s->y, s->r, n, NULL, NULL};
}

void balls_hostile(ball_set *s, c2d_rng *rng, unsigned k, unsigned percent, size_t big_every) {
    balls_random(s, rng, k % 2 ? 10.0f : 100.0f, 0.1f, 2.0f, 2.0f);
    balls_sprinkle(s, rng, percent, k % 2 == 1);
    for (size_t i = 0; i < s->n; i += 11)
        s->r[i] = -s->r[i];
    for (size_t i = 5; i < s->n; i += big_every)
        s->r[i] = 40.0f;
}

void balls_filter(ball_set *s, c2d_rng *rng, unsigned bits) {
    const uint32_t layers = bits >= 32 ? UINT32_MAX : (UINT32_C(1) << bits) - 1;
    uint32_t *words[2];
    for (size_t k = 0; k < 2; k++) {
        words[k] = xmalloc((s->n ? s->n : 1) * sizeof(uint32_t));
        for (size_t i = 0; i < s->n; i++) {
            const uint64_t roll = c2d_rng_next(rng);
            words[k][i] = roll % 16 == 0   ? 0u
                          : roll % 16 == 1 ? C2D_FILTER_ALL
                                           : (uint32_t)(roll >> 32) & layers;
        }
    }
    free(s->category);
    free(s->mask);
    s->soa.category = s->category = words[0];
    s->soa.mask = s->mask = words[1];
}

bool balls_meet(const ball_set *s, size_t i, size_t j) {
    const uint32_t ci = s->category ? s->category[i] : C2D_FILTER_ALL;
    const uint32_t mi = s->mask ? s->mask[i] : C2D_FILTER_ALL;
    const uint32_t cj = s->category ? s->category[j] : C2D_FILTER_ALL;
    const uint32_t mj = s->mask ? s->mask[j] : C2D_FILTER_ALL;
    return c2d_filter_allows(ci, mi, cj, mj);
}

void balls_free(ball_set *s) {
    free(s->x);
    free(s->y);
    free(s->r);
    free(s->mx);
    free(s->my);
    free(s->category);
    free(s->mask);
}

void balls_random(ball_set *s, c2d_rng *rng, float span, float rlo, float rhi, float move) {
    for (size_t i = 0; i < s->n; i++) {
        s->x[i] = c2d_rng_range(rng, 0.0f, span);
        s->y[i] = c2d_rng_range(rng, 0.0f, span);
        s->r[i] = c2d_rng_range(rng, rlo, rhi);
        s->mx[i] = c2d_rng_range(rng, -move, move);
        s->my[i] = c2d_rng_range(rng, -move, move);
    }
}

void balls_hex(ball_set *s, size_t per_row, float d, float r, float move, c2d_rng *rng) {
    const float row_height = d * 0.8660254f; /* sqrt(3)/2 */
    for (size_t i = 0; i < s->n; i++) {
        const size_t row = i / per_row, col = i % per_row;
        s->x[i] = (float)col * d + (row % 2 ? 0.5f * d : 0.0f);
        s->y[i] = (float)row * row_height;
        s->r[i] = r;
        s->mx[i] = c2d_rng_range(rng, -move, move);
        s->my[i] = c2d_rng_range(rng, -move, move);
    }
}

void balls_sprinkle(ball_set *s, c2d_rng *rng, unsigned percent, bool tame) {
    float *arrays[] = {s->x, s->y, s->r, s->mx, s->my};
    for (size_t k = 0; k < 5; k++)
        for (size_t i = 0; i < s->n; i++)
            if (c2d_rng_next(rng) % 100 < percent) arrays[k][i] = special_value(rng, tame);
}

static c2d_circle ball(const ball_set *s, size_t i) {
    const c2d_circle c = {{s->x[i], s->y[i]}, s->r[i]};
    return c;
}

size_t balls_ref_collide(const ball_set *s, c2d_circle_pair_contact **out) {
    size_t total = 0, cap = 64;
    c2d_circle_pair_contact *list = xmalloc(cap * sizeof *list);
    for (size_t a = 0; a < s->n; a++)
        for (size_t b = a + 1; b < s->n; b++) {
            c2d_contact c;
            if (!balls_meet(s, a, b) || !c2d_collide_circles(ball(s, a), ball(s, b), &c)) continue;
            if (total == cap) {
                cap *= 2;
                list = realloc(list, cap * sizeof *list);
                assert_non_null(list);
            }
            list[total].a = (uint32_t)a;
            list[total].b = (uint32_t)b;
            list[total].contact = c;
            total++;
        }
    *out = list;
    return total;
}

void balls_ref_sweep(const ball_set *s, c2d_circle_hit *out) {
    for (size_t i = 0; i < s->n; i++) {
        c2d_circle_hit best = {C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
        const c2d_vec2 mi = {s->mx[i], s->my[i]};
        for (size_t j = 0; j < s->n; j++) {
            const c2d_vec2 mj = {s->mx[j], s->my[j]};
            c2d_toi t;
            if (j == i || !balls_meet(s, i, j) ||
                !c2d_sweep_circles(ball(s, i), mi, ball(s, j), mj, &t))
                continue;
            if (best.other == C2D_NONE || t.t < best.toi.t) {
                best.other = (uint32_t)j;
                best.toi = t;
            }
        }
        out[i] = best;
    }
}

static bool same_floats(const float *a, const float *b, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (!same_float(a[k], b[k])) return false;
    return true;
}

bool same_ball_pair(const c2d_circle_pair_contact *a, const c2d_circle_pair_contact *b) {
    const float fa[] = {a->contact.normal.x, a->contact.normal.y, a->contact.depth,
                        a->contact.point.x, a->contact.point.y};
    const float fb[] = {b->contact.normal.x, b->contact.normal.y, b->contact.depth,
                        b->contact.point.x, b->contact.point.y};
    return a->a == b->a && a->b == b->b && same_floats(fa, fb, 5);
}

bool same_ball_hit(const c2d_circle_hit *a, const c2d_circle_hit *b) {
    const float fa[] = {a->toi.t, a->toi.normal.x, a->toi.normal.y, a->toi.point.x, a->toi.point.y};
    const float fb[] = {b->toi.t, b->toi.normal.x, b->toi.normal.y, b->toi.point.x, b->toi.point.y};
    return a->other == b->other && same_floats(fa, fb, 5);
}

static void print_ball(const ball_set *s, size_t i) {
    fprintf(stderr, "#   ball %zu: (%a, %a) r %a move (%a, %a)\n", i, s->x[i], s->y[i], s->r[i],
            s->mx[i], s->my[i]);
}

static void expect_pairs(const ball_set *s, const c2d_circle_pair_contact *want,
                         const c2d_circle_pair_contact *got, size_t n, const char *what) {
    for (size_t k = 0; k < n; k++) {
        if (same_ball_pair(&want[k], &got[k])) continue;
        fprintf(stderr, "# %s: pair %zu differs: want (%u, %u) got (%u, %u)\n", what, k, want[k].a,
                want[k].b, got[k].a, got[k].b);
        print_ball(s, want[k].a);
        print_ball(s, want[k].b);
        fail();
    }
}

static void expect_hits(const ball_set *s, const c2d_circle_hit *want, const c2d_circle_hit *got,
                        const char *what) {
    for (size_t i = 0; i < s->n; i++) {
        if (same_ball_hit(&want[i], &got[i])) continue;
        fprintf(stderr, "# %s: ball %zu: want other %u t %a, got other %u t %a\n", what, i,
                want[i].other, want[i].toi.t, got[i].other, got[i].toi.t);
        print_ball(s, i);
        if (want[i].other != C2D_NONE) print_ball(s, want[i].other);
        if (got[i].other != C2D_NONE && got[i].other < s->n) print_ball(s, got[i].other);
        fail();
    }
}

/* One collide call (batch or scene) with `capacity`, against the reference. */
static void collide_once(const ball_set *s, c2d_scene *scene, const c2d_circle_pair_contact *ref,
                         size_t total, size_t capacity, bool with_out, const char *what) {
    const size_t guard = 4;
    c2d_circle_pair_contact *out = xmalloc((capacity + guard) * sizeof *out);
    memset(out, CANARY_BYTE, (capacity + guard) * sizeof *out);
    size_t count = 12345;
    c2d_circle_pair_contact *o = with_out ? out : NULL;
    const c2d_status st = scene ? c2d_scene_collide_circles(scene, &s->soa, o, capacity, &count)
                                : c2d_batch_collide_circles(&s->soa, o, capacity, &count);
    assert_int_equal(count, total);
    const c2d_status want = total <= capacity || !with_out ? C2D_OK : C2D_ERROR_TRUNCATED;
    if (st != want) fprintf(stderr, "# %s: capacity %zu: status %d\n", what, capacity, (int)st);
    assert_int_equal(st, want);
    const size_t written = with_out ? (total < capacity ? total : capacity) : 0;
    expect_pairs(s, ref, out, written, what);
    assert_true(bytes_are(out + written, (capacity + guard - written) * sizeof *out, CANARY_BYTE));
    free(out);
}

static void collide_all_ways(const ball_set *s, c2d_scene *scene,
                             const c2d_circle_pair_contact *ref, size_t total, const char *what) {
    collide_once(s, scene, ref, total, total, true, what);
    collide_once(s, scene, ref, total, total + 3, true, what);
    collide_once(s, scene, ref, total, 0, false, what); /* size query */
    collide_once(s, scene, ref, total, 0, true, what);
    for (size_t cap = total > 3 ? total - 3 : 0; cap < total; cap++)
        collide_once(s, scene, ref, total, cap, true, what);
}

size_t check_balls(const ball_set *s, const char *label) {
    c2d_circle_pair_contact *ref;
    const size_t total = balls_ref_collide(s, &ref);
    c2d_circle_hit *ref_hits = xmalloc((s->n + 1) * sizeof *ref_hits);
    c2d_circle_hit *hits = xmalloc((s->n + 1) * sizeof *hits);
    balls_ref_sweep(s, ref_hits);
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *scene;
    assert_int_equal(c2d_scene_create(&none, NULL, &scene), C2D_OK);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    char what[160];
    for (size_t k = 0; k < nb; k++) {
        use_backend(list[k]);
        const char *name = c2d_backend_name(list[k]);
        snprintf(what, sizeof what, "%s, %s, batch collide", label, name);
        collide_all_ways(s, NULL, ref, total, what);
        snprintf(what, sizeof what, "%s, %s, scene collide", label, name);
        collide_all_ways(s, scene, ref, total, what);

        memset(hits, CANARY_BYTE, (s->n + 1) * sizeof *hits);
        snprintf(what, sizeof what, "%s, %s, batch sweep", label, name);
        assert_int_equal(c2d_batch_sweep_circles(&s->soa, s->mx, s->my, hits), C2D_OK);
        expect_hits(s, ref_hits, hits, what);
        assert_true(bytes_are(hits + s->n, sizeof *hits, CANARY_BYTE));

        memset(hits, CANARY_BYTE, (s->n + 1) * sizeof *hits);
        snprintf(what, sizeof what, "%s, %s, scene sweep", label, name);
        assert_int_equal(c2d_scene_sweep_circles(scene, &s->soa, s->mx, s->my, hits), C2D_OK);
        expect_hits(s, ref_hits, hits, what);
        assert_true(bytes_are(hits + s->n, sizeof *hits, CANARY_BYTE));
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    c2d_scene_destroy(scene);
    free(ref);
    free(ref_hits);
    free(hits);
    return total;
}
