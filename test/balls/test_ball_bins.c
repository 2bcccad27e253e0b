/* The ball grid's binning kernels (ball_classify and ball_bin of every backend's table, and
 * ball_sweep_classify and ball_sweep_bin for sweeps against core/ball_bin_formula.h's
 * c2d_ball_sweep_kind and c2d_ball_sweep_bin_one)
 * against loops over the per-ball functions of src/batch/kernels_balls.h, byte for byte: the
 * kinds, the cell numbers and the counts, and the box (compared as values: the lanes reduce in
 * another order, so a zero bound may differ in sign, which no cell depends on). Every count
 * 0..40 and a few larger (every vector tail), random and hostile values (NaN, infinities,
 * -0, negative radii, values beyond the tame limit, subnormals, balls of many size classes),
 * grids of one cell to many, and every size limit. The scene's contact tests cover the kernels
 * through the public calls; this test sees the kinds, which those answers cannot show (a grid
 * ball taken for a special one still gets its exact pairs). */
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
#include "batch/kernels_balls.h"
#include "core/lane_scalar.h"
#include "core/ball_bin_formula.h"
#include "batch/dispatch.h"

/* A value for a ball: mostly ordinary, sometimes hostile. */
static float ball_value(c2d_rng *rng, float scale) {
    static const float hostile[] = {NAN,   INFINITY,         -INFINITY, -0.0f,   0.0f,
                                    2e12f, -2e12f,           1e-40f,    -1e-40f, 1e30f,
                                    -1.0f, 1099511627776.0f, 1e-30f,    3e38f};
    const uint64_t pick = c2d_rng_next(rng) % 16;
    if (pick == 0) return hostile[c2d_rng_next(rng) % (sizeof hostile / sizeof hostile[0])];
    return c2d_rng_range(rng, -scale, scale);
}

static float radius_value(c2d_rng *rng) {
    const uint64_t pick = c2d_rng_next(rng) % 8;
    if (pick == 0) return ball_value(rng, 1.0f);
    if (pick == 1) return ldexpf(c2d_rng_unit(rng), (int)(c2d_rng_next(rng) % 40) - 20);
    if (pick == 2) return ldexpf(1.0f, (int)(c2d_rng_next(rng) % 40) - 20); /* a class floor */
    return c2d_rng_range(rng, 0.0f, 1.0f);
}

/* A random grid over the box of (lo_x, hi_x, lo_y, hi_y): 1..64 cells each way, cell sides
 * 2^-scales .. 2^scales, the origin at the box's corner or inside it (clamped below as well as
 * above); the size limit one of `classes` class floors from 2^(lowest - 127), or (`none` in
 * classes + none) +inf. */
static c2d_ball_bins random_bins(c2d_rng *rng, const float box[4], int scales, unsigned lowest,
                                 unsigned classes, unsigned none) {
    const uint32_t nx = 1 + (uint32_t)(c2d_rng_next(rng) % 64),
                   ny = 1 + (uint32_t)(c2d_rng_next(rng) % 64);
    const double inv =
        ldexp(1.0 + c2d_rng_unit(rng), (int)(c2d_rng_next(rng) % (2 * (unsigned)scales)) - scales);
    const bool some = box[0] <= box[1];
    const double inside = c2d_rng_next(rng) % 2 ? 0.5 : 0.0;
    const double x0 = some ? box[0] + inside * ((double)box[1] - box[0]) : 0.0;
    const double y0 = some ? box[2] + inside * ((double)box[3] - box[2]) : 0.0;
    const unsigned k = (unsigned)(c2d_rng_next(rng) % (classes + none));
    float big = INFINITY;
    if (k < classes) {
        const uint32_t bits = (uint32_t)(k + lowest) << 23;
        memcpy(&big, &bits, sizeof big);
    }
    const c2d_ball_bins bins = {x0, y0, inv, nx, ny, big};
    return bins;
}

static void check_set(const c2d_circle_soa *c, c2d_rng *rng, const char *what) {
    const size_t n = c->count;
    uint32_t *want = malloc((n + 1) * sizeof *want), *got = malloc((n + 1) * sizeof *got);
    enum { CELLS = 64 * 64 + 2 };
    static uint32_t want_count[CELLS], got_count[CELLS];
    float want_box[5] = {INFINITY, -INFINITY, INFINITY, -INFINITY, 0.0f};
    for (size_t i = 0; i < n; i++) {
        want[i] = c2d_ball_kind(c->x[i], c->y[i], c->radius[i]);
        if (want[i] == C2D_BALL_GRID) c2d_ball_box_add(want_box, c->x[i], c->y[i], c->radius[i]);
    }
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    /* a grid for the second pass, the same for every backend; size limits 2^-22 .. 2^21, the
     * radii's range */
    const c2d_ball_bins bins = random_bins(rng, want_box, 4, 105, 44, 4);
    memset(want_count, 0, sizeof want_count);
    for (size_t i = 0; i < n; i++)
        if (want[i] == C2D_BALL_GRID) {
            want[i] = c2d_ball_bin_one(&bins, c->x[i], c->y[i], c->radius[i]);
            if (want[i] != C2D_BALL_SPECIAL) want_count[want[i] + 2]++;
        }
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        const c2d_kernels *kernels = c2d_active_kernels();
        float box[5];
        memset(got, 0xA5, (n + 1) * sizeof *got);
        kernels->ball_classify(c, got, box);
        for (size_t i = 0; i < n; i++) {
            const uint32_t kind = c2d_ball_kind(c->x[i], c->y[i], c->radius[i]);
            if (got[i] != kind)
                fail_msg("%s, %s: ball %zu (%a, %a, %a): kind %u, want %u", what,
                         c2d_backend_name(list[b]), i, (double)c->x[i], (double)c->y[i],
                         (double)c->radius[i], (unsigned)got[i], (unsigned)kind);
        }
        assert_int_equal(got[n], 0xA5A5A5A5u);
        for (int j = 0; j < 5; j++)
            if (!(box[j] == want_box[j]))
                fail_msg("%s, %s: box[%d] %a, want %a", what, c2d_backend_name(list[b]), j,
                         (double)box[j], (double)want_box[j]);
        memset(got_count, 0, sizeof got_count);
        kernels->ball_bin(c, &bins, got, got_count);
        if (memcmp(got, want, n * sizeof *got) != 0)
            for (size_t i = 0; i < n; i++)
                if (got[i] != want[i])
                    fail_msg("%s, %s: ball %zu (%a, %a, %a): cell %u, want %u", what,
                             c2d_backend_name(list[b]), i, (double)c->x[i], (double)c->y[i],
                             (double)c->radius[i], (unsigned)got[i], (unsigned)want[i]);
        assert_int_equal(got[n], 0xA5A5A5A5u);
        assert_memory_equal(got_count, want_count, sizeof want_count);
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    free(want);
    free(got);
}

/* A move: mostly ordinary, sometimes hostile (NaN, infinities, huge, beyond the tame limit). */
static float move_value(c2d_rng *rng, float scale) {
    static const float hostile[] = {
        1e20f, -1e20f, 1099511627776.0f, -1099511627777.0f * 1.5f, 2e12f, 0.0f, -0.0f};
    const uint64_t pick = c2d_rng_next(rng) % 16;
    if (pick == 0) return hostile[c2d_rng_next(rng) % (sizeof hostile / sizeof hostile[0])];
    if (pick == 1) return 0.0f;
    return ball_value(rng, scale);
}

/* The swept size as ball_grid.c wrote it before the formula moved to core/ball_bin_formula.h:
 * the kernels must keep these bytes. */
static float old_swept_size(float x, float y, float r, float mx, float my) {
    const float ax = fabsf(mx), ay = fabsf(my);
    const float grow = r + C2D_SWEEP_SIZE_SLACK * (ax + ay + r) +
                       C2D_SWEEP_POSITION_SLACK * (fabsf(x) + fabsf(y)) + (float)C2D_ABSOLUTE_SLACK;
    return (ax > ay ? ax : ay) + 2.0f * grow;
}

static void check_sweep_set(const c2d_circle_soa *c, const float *mx, const float *my, c2d_rng *rng,
                            const char *what) {
    const size_t n = c->count;
    uint32_t *want = malloc((n + 1) * sizeof *want), *got = malloc((n + 1) * sizeof *got);
    uint32_t *kinds = malloc((n + 1) * sizeof *kinds);
    enum { CELLS = 64 * 64 + 2 };
    static uint32_t want_count[CELLS], got_count[CELLS];
    float want_box[5] = {INFINITY, -INFINITY, INFINITY, -INFINITY, 0.0f};
    for (size_t i = 0; i < n; i++) {
        const float x = c->x[i], y = c->y[i], r = c->radius[i];
        want[i] = c2d_ball_sweep_kind(x, y, r, mx[i], my[i]);
        /* the kinds as ball_grid.c found them before, and the sizes' bytes */
        const bool nan = x != x || y != y || mx[i] != mx[i] || my[i] != my[i] || !(r >= 0.0f);
        const bool tame = fabsf(x) <= C2D_TAME_LIMIT && fabsf(y) <= C2D_TAME_LIMIT &&
                          fabsf(r) <= C2D_TAME_LIMIT && fabsf(mx[i]) <= C2D_TAME_LIMIT &&
                          fabsf(my[i]) <= C2D_TAME_LIMIT;
        if (nan)
            assert_int_equal(want[i], C2D_BALL_DEAD);
        else if (!tame)
            assert_int_equal(want[i], C2D_BALL_SPECIAL);
        else {
            const float size = old_swept_size(x, y, r, mx[i], my[i]);
            uint32_t bits;
            memcpy(&bits, &size, sizeof bits);
            assert_int_equal(want[i], bits);
            assert_true(bits < 0x7f800000u); /* positive and finite: below the kinds */
            c2d_ball_box_add(want_box, x + 0.5f * mx[i], y + 0.5f * my[i], size);
        }
    }
    memcpy(kinds, want, n * sizeof *kinds);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    /* size limits 2^-27 .. 2^36 (sizes reach both) */
    const c2d_ball_bins bins = random_bins(rng, want_box, 6, 100, 64, 6);
    memset(want_count, 0, sizeof want_count);
    for (size_t i = 0; i < n; i++)
        if (want[i] < C2D_BALL_SPECIAL) {
            want[i] = c2d_ball_sweep_bin_one(&bins, c->x[i], c->y[i], mx[i], my[i], want[i]);
            if (want[i] != C2D_BALL_SPECIAL) want_count[want[i] + 2]++;
        }
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        const c2d_kernels *kernels = c2d_active_kernels();
        float box[5];
        memset(got, 0xA5, (n + 1) * sizeof *got);
        kernels->ball_sweep_classify(c, mx, my, got, box);
        for (size_t i = 0; i < n; i++)
            if (got[i] != kinds[i])
                fail_msg("%s, %s: ball %zu (%a, %a, %a, move %a, %a): kind %#x, want %#x", what,
                         c2d_backend_name(list[b]), i, (double)c->x[i], (double)c->y[i],
                         (double)c->radius[i], (double)mx[i], (double)my[i], (unsigned)got[i],
                         (unsigned)kinds[i]);
        assert_int_equal(got[n], 0xA5A5A5A5u);
        for (int j = 0; j < 5; j++)
            if (!(box[j] == want_box[j]))
                fail_msg("%s, %s: box[%d] %a, want %a", what, c2d_backend_name(list[b]), j,
                         (double)box[j], (double)want_box[j]);
        memset(got_count, 0, sizeof got_count);
        kernels->ball_sweep_bin(c, mx, my, &bins, got, got_count);
        for (size_t i = 0; i < n; i++)
            if (got[i] != want[i])
                fail_msg("%s, %s: ball %zu (%a, %a, move %a, %a): cell %#x, want %#x", what,
                         c2d_backend_name(list[b]), i, (double)c->x[i], (double)c->y[i],
                         (double)mx[i], (double)my[i], (unsigned)got[i], (unsigned)want[i]);
        assert_int_equal(got[n], 0xA5A5A5A5u);
        assert_memory_equal(got_count, want_count, sizeof want_count);
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    free(kinds);
    free(want);
    free(got);
}

/* Every count 0..40 and a few larger, 8 rounds each: positions at two scales, moves small or
 * as large as the positions; the contact kernels or the sweep kernels checked. */
static void every_tail(uint64_t seed, bool sweeps) {
    c2d_rng rng = {seed};
    static const size_t sizes[] = {63, 64, 65, 100, 1000};
    for (size_t s = 0; s < 41 + sizeof sizes / sizeof sizes[0]; s++) {
        const size_t n = s < 41 ? s : sizes[s - 41];
        for (int round = 0; round < 8; round++) {
            float *v[5];
            for (int a = 0; a < 5; a++)
                v[a] = malloc((n + 1) * sizeof(float));
            const float scale = round % 2 ? 100.0f : 1e6f;
            for (size_t i = 0; i < n; i++) {
                v[0][i] = ball_value(&rng, scale);
                v[1][i] = ball_value(&rng, scale);
                v[2][i] = radius_value(&rng);
                v[3][i] = move_value(&rng, round % 4 < 2 ? 1.0f : scale);
                v[4][i] = move_value(&rng, round % 4 < 2 ? 1.0f : scale);
            }
            const c2d_circle_soa c = {v[0], v[1], v[2], n, NULL, NULL};
            char what[64];
            snprintf(what, sizeof what, "%zu balls, round %d", n, round);
            if (sweeps)
                check_sweep_set(&c, v[3], v[4], &rng, what);
            else
                check_set(&c, &rng, what);
            for (int a = 0; a < 5; a++)
                free(v[a]);
        }
    }
}

static void bins_every_tail(void **state) {
    (void)state;
    every_tail(42, false);
}

static void sweep_bins_every_tail(void **state) {
    (void)state;
    every_tail(7, true);
}

/* The backends' tables are the library's own (this test links the static library beside the
 * shared one): selecting a backend changes the kernels it calls. */
static void bins_see_backends(void **state) {
    (void)state;
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    use_backend(list[0]);
    const c2d_kernels *first = c2d_active_kernels();
    size_t other = 0;
    for (size_t b = 1; b < nb; b++) {
        use_backend(list[b]);
        other += c2d_active_kernels()->ball_classify != first->ball_classify;
        other += c2d_active_kernels()->ball_sweep_classify != first->ball_sweep_classify;
    }
    assert_true(nb < 2 || other > 0);
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(bins_see_backends),
                                       cmocka_unit_test(bins_every_tail),
                                       cmocka_unit_test(sweep_bins_every_tail)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
