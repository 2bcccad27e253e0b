/* Helpers of the scene tests: see scene_check.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "scene_check.h"

/* The oracle: c2d_batch_collide with a real buffer (so the size-query rule does not matter). */
static size_t oracle_collide(const scene *s, c2d_pair_contact **out) {
    size_t total = 0;
    c2d_pair_contact probe;
    const c2d_status st = c2d_batch_collide(&s->circles, &s->capsules, &probe, 1, &total);
    assert_true(st == C2D_OK || st == C2D_ERROR_TRUNCATED);
    *out = xmalloc((total + 1) * sizeof **out);
    size_t again = 0;
    assert_int_equal(c2d_batch_collide(&s->circles, &s->capsules, *out, total + 1, &again), C2D_OK);
    assert_int_equal(again, total);
    return total;
}

/* A scene collide call with capacity `cap` into a buffer with canaries after it. */
static void collide_with_capacity(c2d_scene *sc, const scene *s, const c2d_pair_contact *ref,
                                  size_t total, size_t cap, const char *label) {
    enum { TAIL = 3 };
    c2d_pair_contact *out = xmalloc((cap + TAIL) * sizeof *out);
    memset(out, CANARY_BYTE, (cap + TAIL) * sizeof *out);
    size_t count = 12345;
    const c2d_status st = c2d_scene_collide(sc, &s->circles, out, cap, &count);
    if (st != (total > cap ? C2D_ERROR_TRUNCATED : C2D_OK) || count != total)
        fprintf(stderr, "%s: capacity %zu: status %d count %zu, expected total %zu\n", label, cap,
                (int)st, count, total);
    assert_int_equal(st, total > cap ? C2D_ERROR_TRUNCATED : C2D_OK);
    assert_int_equal(count, total);
    const size_t n = total < cap ? total : cap;
    assert_true(compare_contacts(s, ref, out, n, label));
    assert_true(bytes_are(out + n, (cap - n + TAIL) * sizeof *out, CANARY_BYTE));
    free(out);
}

/* The frame split into `parts` capsule ranges (binned once, by c2d_scene_bin, or in `parts`
 * binning parts, run in reverse, when parts > 1): concatenated, the single answer. */
static void collide_in_ranges(c2d_scene *sc, const scene *s, const c2d_pair_contact *ref,
                              size_t total, size_t parts, const char *label) {
    if (parts == 1) {
        assert_int_equal(c2d_scene_bin(sc, &s->circles), C2D_OK);
    } else {
        assert_int_equal(c2d_scene_bin_begin(sc, &s->circles, parts), C2D_OK);
        for (size_t p = parts; p-- > 0;)
            assert_int_equal(c2d_scene_bin_part(sc, p), C2D_OK);
        assert_int_equal(c2d_scene_bin_end(sc), C2D_OK);
    }
    c2d_pair_contact *out = xmalloc((total + 1) * sizeof *out);
    size_t done = 0;
    const size_t m = s->m;
    for (size_t p = 0; p < parts; p++) {
        const size_t first = m * p / parts, last = m * (p + 1) / parts;
        size_t count = 12345;
        /* a size query first, then the real call */
        assert_int_equal(
            c2d_scene_collide_range(sc, &s->circles, first, last - first, NULL, 0, &count), C2D_OK);
        const size_t expect = count;
        assert_true(done + expect <= total);
        assert_int_equal(c2d_scene_collide_range(sc, &s->circles, first, last - first, out + done,
                                                 total + 1 - done, &count),
                         C2D_OK);
        assert_int_equal(count, expect);
        done += count;
    }
    assert_int_equal(done, total);
    assert_true(compare_contacts(s, ref, out, total, label));
    free(out);
}

static void check_sweeps(c2d_scene *sc, const scene *s, const c2d_circle_toi *ref,
                         const char *label) {
    const size_t n = s->n;
    c2d_circle_toi *got = xmalloc((n + 1) * sizeof *got);
    memset(got, CANARY_BYTE, (n + 1) * sizeof *got);
    assert_int_equal(c2d_scene_sweep(sc, &s->circles, s->mx, s->my, got), C2D_OK);
    assert_true(compare_tois(s, ref, got, n, label));
    assert_true(bytes_are(got + n, sizeof *got, CANARY_BYTE));
    /* three circle ranges */
    memset(got, CANARY_BYTE, (n + 1) * sizeof *got);
    for (size_t p = 0; p < 3; p++) {
        const size_t first = n * p / 3, last = n * (p + 1) / 3;
        assert_int_equal(
            c2d_scene_sweep_range(sc, &s->circles, s->mx, s->my, first, last - first, got + first),
            C2D_OK);
    }
    assert_true(compare_tois(s, ref, got, n, label));
    assert_true(bytes_are(got + n, sizeof *got, CANARY_BYTE));
    free(got);
}

void check_scene_once(c2d_scene *sc, const scene *s, const char *label) {
    c2d_pair_contact *ref;
    const size_t total = oracle_collide(s, &ref);
    c2d_circle_toi *sweep = xmalloc((s->n + 1) * sizeof *sweep);
    assert_int_equal(c2d_batch_sweep(&s->circles, s->mx, s->my, &s->capsules, sweep), C2D_OK);
    check_scene_expect(sc, s, ref, total, sweep, label);
    free(sweep);
    free(ref);
}

void check_scene_expect(c2d_scene *sc, const scene *s, const c2d_pair_contact *ref, size_t total,
                        const c2d_circle_toi *sweep, const char *label) {
    /* the size query */
    size_t count = 12345;
    assert_int_equal(c2d_scene_collide(sc, &s->circles, NULL, 0, &count), C2D_OK);
    if (count != total) {
        fprintf(stderr, "%s: %zu contacts, expected %zu\n", label, count, total);
        for (size_t j = 0; j < total; j++) {
            print_circle(s, ref[j].circle, false);
            print_capsule(s, ref[j].capsule);
        }
    }
    assert_int_equal(count, total);
    /* ample, exact, and every capacity from total - 3 down, plus a few small ones */
    collide_with_capacity(sc, s, ref, total, total + 2, label);
    for (size_t d = 0; d <= 3 && d <= total; d++)
        collide_with_capacity(sc, s, ref, total, total - d, label);
    if (total > 8) {
        collide_with_capacity(sc, s, ref, total, total / 2, label);
        collide_with_capacity(sc, s, ref, total, 1, label);
    }
    const size_t parts[] = {1, 2, 3, 7};
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++)
        collide_in_ranges(sc, s, ref, total, parts[p], label);
    check_sweeps(sc, s, sweep, label);
}

void on_every_backend(c2d_scene *sc, const scene *s, scene_check_fn *check, void *ctx,
                      const char *label) {
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        char full[160];
        snprintf(full, sizeof full, "%s [%s]", label, c2d_backend_name(list[b]));
        check(sc, s, ctx, full);
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
}

void check_scene(const scene *s, const char *label) {
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s->capsules, NULL, &sc), C2D_OK);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        check_scene_once(sc, s, label);
    }
    c2d_scene_destroy(sc);
}
