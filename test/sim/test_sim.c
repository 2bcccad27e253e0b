/* The Galton board's physical checks (suite 'sim'), on small boards that run in seconds:
 * no tunnelling at any speed, no energy gain, the binomial distribution of the bins, and one
 * world hash on every backend and thread count, equal to a committed golden value. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "sim.h"

/* The world hash after GOLDEN_STEPS steps of the determinism board (golden_params()). It
 * changes only when the simulation or a library answer changes on purpose: it was
 * 0x9e7a7ee471ccbc18 before sweeps let a ball in contact leave (query.h) and the example
 * replaced its step-out by bounce and slide (c2d_slide_move), and 0x2d3500d39834de94 before
 * resting balls woke when a fast ball strikes them (frozen balls; freezing alone left it
 * unchanged, as the frozen contacts are the all-awake ones byte for byte), and
 * 0xa157316635c8214e before the example's restitution threshold at capsules and its wake
 * speed above the sleep speed (docs/simulation.md), and 0xe1c81a83c5d32096 before the
 * example advanced its swept balls with c2d_scene_advance instead of float `x + t * move`
 * (issue 42: a ball no longer ends closer to a capsule than rounding took it). */
#define GOLDEN_HASH 0x08c0b1d144749baeull
enum { GOLDEN_STEPS = 700 };

#ifndef SIM_TEST_MAX_THREADS
#define SIM_TEST_MAX_THREADS 2
#endif

static void golden_params(galton_params *p) {
    galton_defaults(p, 8, 300);
    p->hopper_capacity = 120; /* a crowded stream: many ball-ball contacts */
}

/* True when ball i is inside the board and deeper than `slack` in no capsule. */
static size_t count_tunnelled(const galton *g, float slack) {
    size_t bad = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (!(g->x[i] > g->left && g->x[i] < g->right && g->y[i] > g->floor_y &&
              g->y[i] < g->top)) {
            bad++;
            continue;
        }
        const c2d_circle ball = {{g->x[i], g->y[i]}, g->r[i] - g->skin - slack};
        for (size_t k = 0; k < g->n_caps; k++) {
            const c2d_capsule cap = {{g->ax[k], g->ay[k]}, {g->bx[k], g->by[k]}, g->cr[k]};
            if (c2d_overlap_circle_capsule(ball, cap)) {
                bad++;
                break;
            }
        }
    }
    return bad;
}

/* Balls launched in every direction at 15000 radii per second (62 per step, five pin
 * pitches): after every step each ball is inside the board and no deeper than the sweeps'
 * skin in any capsule (pins, walls, the funnel, the bin dividers, the thin segments). */
static void no_tunnelling_at_any_speed(void **state) {
    (void)state;
    galton_params p;
    galton_defaults(&p, 8, 100);
    p.launch_speed = 15000.0f;
    p.ball_restitution = p.pin_restitution = 0.9f;
    p.drag = 0.0f;
    galton g;
    assert_int_equal(galton_create(&g, &p), 0);
    assert_true(g.n == 100);
    assert_true(p.launch_speed * p.dt > 5.0f * p.pitch);
    assert_int_equal(count_tunnelled(&g, 1e-3f), 0);
    for (int s = 0; s < 240; s++) {
        assert_int_equal(galton_step(&g), 0);
        const size_t bad = count_tunnelled(&g, 1e-3f);
        if (bad) fprintf(stderr, "step %d: %zu balls inside a capsule or outside\n", s, bad);
        assert_int_equal(bad, 0);
    }
    assert_true(g.sweep_hits > 1000); /* the balls did meet the capsules */
    galton_destroy(&g);
}

/* Restitution below 1, no drag: the total energy (kinetic plus potential in gravity, less the
 * potential energy the push-out's position corrections added, which the simulation counts)
 * never rises from one step to the next beyond rounding, and never above its start. */
static void energy_never_grows(void **state) {
    (void)state;
    const float speeds[] = {300.0f, 3000.0f};
    for (size_t v = 0; v < 2; v++) {
        galton_params p;
        galton_defaults(&p, 8, 100);
        p.launch_speed = speeds[v];
        p.ball_restitution = p.pin_restitution = 0.7f;
        p.drag = 0.0f;
        galton g;
        assert_int_equal(galton_create(&g, &p), 0);
        const double e0 = galton_energy(&g);
        const double tolerance = 1e-5 * fabs(e0);
        double highest = e0, previous = e0, rise = 0.0;
        for (int s = 0; s < 600; s++) {
            assert_int_equal(galton_step(&g), 0);
            const double e = galton_energy(&g) - g.lifted;
            if (e > highest) highest = e;
            if (e - previous > rise) rise = e - previous;
            previous = e;
        }
        fprintf(stderr, "# largest rise in one step %.6g (push-out added %.6g)\n", rise, g.lifted);
        assert_true(rise <= 1e-9 * fabs(e0));
        const double e_end = galton_energy(&g);
        fprintf(stderr, "# speed %g: energy %.6g -> %.6g (highest %.6g)\n", (double)speeds[v], e0,
                e_end, highest);
        assert_true(highest <= e0 + tolerance);
        assert_true(e_end < e0); /* restitution < 1 did take energy out */
        galton_destroy(&g);
    }
}

/* Chi-square critical values at p = 0.001 for 1 .. 12 degrees of freedom. */
static const double chi2_999[] = {10.83, 13.82, 16.27, 18.47, 20.52, 22.46,
                                  24.32, 26.12, 27.88, 29.59, 31.26, 32.91};

/* Pearson's chi-square of the bins against Binomial(rows, 1/2), merging neighbouring bins
 * from the outside in until each group expects at least 5 balls; *dof = groups - 1. */
static double chi_square(const size_t *counts, int rows, size_t total, int *dof) {
    double expect[64], observe[64];
    for (int k = 0; k <= rows; k++) {
        expect[k] = (double)total * galton_binomial(rows, k);
        observe[k] = (double)counts[k + 1]; /* bin k + 1: k times right */
    }
    observe[0] += (double)counts[0];
    observe[rows] += (double)counts[rows + 2];
    int lo = 0, hi = rows;
    while (lo < hi && expect[lo] < 5.0)
        expect[lo + 1] += expect[lo], observe[lo + 1] += observe[lo], lo++;
    while (hi > lo && expect[hi] < 5.0)
        expect[hi - 1] += expect[hi], observe[hi - 1] += observe[hi], hi--;
    double chi = 0.0;
    for (int k = lo; k <= hi; k++)
        chi += (observe[k] - expect[k]) * (observe[k] - expect[k]) / expect[k];
    *dof = hi - lo;
    return chi;
}

/* Balls dropped one small group at a time through 10 rows: the bins follow the binomial
 * distribution (chi-square below the p = 0.001 bound), for several seeds. */
static void bins_follow_the_binomial(void **state) {
    (void)state;
    const uint32_t seeds[] = {1, 2, 3};
    for (size_t s = 0; s < 3; s++) {
        galton_params p;
        galton_defaults(&p, 10, 400);
        p.seed = seeds[s];
        galton g;
        assert_int_equal(galton_create(&g, &p), 0);
        while (!galton_done(&g) && g.steps < 12000)
            assert_int_equal(galton_step(&g), 0);
        size_t counts[16], total = 0;
        galton_bins(&g, counts);
        for (int k = 0; k < galton_bin_count(&g); k++)
            total += counts[k];
        int dof = 0;
        const double chi = chi_square(counts, p.rows, total, &dof);
        fprintf(stderr, "# seed %u: %zu balls in bins after %llu steps, chi-square %.2f, %d dof\n",
                (unsigned)seeds[s], total, (unsigned long long)g.steps, chi, dof);
        assert_true(total >= 390);
        assert_true(dof >= 5 && dof <= 12);
        assert_true(chi < chi2_999[dof - 1]);
        galton_destroy(&g);
    }
}

static uint64_t run_hash(c2d_backend backend, int threads) {
    assert_int_equal(c2d_backend_select(backend), C2D_OK);
    galton_params p;
    golden_params(&p);
    p.threads = threads;
    galton g;
    assert_int_equal(galton_create(&g, &p), 0);
    for (int s = 0; s < GOLDEN_STEPS; s++)
        assert_int_equal(galton_step(&g), 0);
    assert_true(g.n_ball_hits > 50 && g.n_pin_hits > 5); /* crowded: the hash covers contacts */
    assert_true(g.woken > 0);                            /* and balls woken from rest */
    const uint64_t h = galton_hash(&g);
    galton_destroy(&g);
    return h;
}

/* The same world hash with every backend and 1 or 2 threads, equal to the golden value. */
static void world_hash_everywhere(void **state) {
    (void)state;
    const uint64_t first = run_hash(C2D_BACKEND_SCALAR, 1);
    fprintf(stderr, "# world hash after %d steps: 0x%016llx\n", GOLDEN_STEPS,
            (unsigned long long)first);
    int runs = 0;
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++) {
        if (!c2d_backend_available((c2d_backend)b)) continue;
        for (int threads = 1; threads <= SIM_TEST_MAX_THREADS; threads++) {
            const uint64_t h = run_hash((c2d_backend)b, threads);
            fprintf(stderr, "# %s, %d thread(s): 0x%016llx\n", c2d_backend_name((c2d_backend)b),
                    threads, (unsigned long long)h);
            assert_true(h == first);
            runs++;
        }
    }
    assert_true(runs >= 2 * SIM_TEST_MAX_THREADS);
    c2d_backend_select(C2D_BACKEND_AUTO);
    assert_true(first == GOLDEN_HASH);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_tunnelling_at_any_speed),
        cmocka_unit_test(energy_never_grows),
        cmocka_unit_test(bins_follow_the_binomial),
        cmocka_unit_test(world_hash_everywhere),
    };
    return cmocka_run_group_tests_name("sim", tests, NULL, NULL);
}
