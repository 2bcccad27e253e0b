/* The scene's sweep index (src/scene/scene_sweep.c) against c2d_batch_sweep, byte for byte on
 * every backend: swept boxes exactly at the gate and one ulp either side, low corners on cell
 * edges and a few ulps off, boxes that just touch a capsule's box from the right and from
 * above, moves of zero, NaN and infinite values, capsules that move (the index goes stale),
 * every tail length, and moves that outgrow the gate (the index is built again). The test
 * reads the index's parameters (internal) to aim at its borders. */
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

#include "scene/scene_internal.h"
#include "scene_check.h"

static bool index_ready(const c2d_scene *sc) {
    return sc->sweep.ready && sc->sweep.generation == sc->generation;
}

/* The sweep of s with scene sc against the batch call, on every backend; sweeps once before,
 * so the index is built (the second sweep of a generation builds it). */
static void check_sweeps(c2d_scene *sc, const scene *s, const char *label) {
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    const size_t n = s->n;
    c2d_circle_toi *ref = xmalloc((n + 1) * sizeof *ref), *got = xmalloc((n + 1) * sizeof *got);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        assert_int_equal(c2d_batch_sweep(&s->circles, s->mx, s->my, &s->capsules, ref), C2D_OK);
        for (int twice = 0; twice < 2; twice++) {
            memset(got, 0x5a, (n + 1) * sizeof *got);
            assert_int_equal(c2d_scene_sweep(sc, &s->circles, s->mx, s->my, got), C2D_OK);
            if (memcmp(got, ref, n * sizeof *got) != 0) {
                for (size_t i = 0; i < n; i++)
                    if (memcmp(&got[i], &ref[i], sizeof *got) != 0)
                        fprintf(stderr, "%s [%s]: circle %zu: capsule %u, expected %u\n", label,
                                c2d_backend_name(list[b]), i, got[i].capsule, ref[i].capsule);
                fail();
            }
            /* every tail: ranges of 1 .. 37 circles */
            memset(got, 0x5a, (n + 1) * sizeof *got);
            for (size_t first = 0, len = 1; first < n; first += len, len = len % 37 + 1) {
                const size_t k = len < n - first ? len : n - first;
                assert_int_equal(
                    c2d_scene_sweep_range(sc, &s->circles, s->mx, s->my, first, k, got + first),
                    C2D_OK);
            }
            assert_memory_equal(got, ref, n * sizeof *got);
        }
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    free(ref);
    free(got);
}

/* W5 boards with moves of several sizes: the index is built and answers as the batch call. */
static void sweep_index_w5(void **state) {
    (void)state;
    const float reach[] = {0.0f, 0.01f, 0.5f, 2.0f, 8.0f};
    for (size_t v = 0; v < C2D_W5_VARIANTS; v++)
        for (size_t j = 0; j < sizeof reach / sizeof reach[0]; j++) {
            c2d_workload w;
            assert_int_equal(c2d_workload_w5(&w, 3000, 190, (c2d_w5_variant)v, 70 + j), 0);
            for (size_t i = 0; i < w.circles.count; i++) {
                w.move_x[i] *= reach[j] * 0.5f;
                w.move_y[i] *= reach[j] * 0.5f;
            }
            if (j == 4) /* a few long moves beside the rest */
                for (size_t i = 0; i < w.circles.count; i += 97)
                    w.move_x[i] = 300.0f;
            scene s;
            scene_from_workload(&s, &w, LAYOUT_ALIGNED);
            c2d_scene *sc;
            assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
            char label[96];
            snprintf(label, sizeof label, "w5 %s, moves %g", c2d_w5_name((c2d_w5_variant)v),
                     (double)reach[j]);
            check_sweeps(sc, &s, label);
            assert_true(index_ready(sc));
            c2d_scene_destroy(sc);
            scene_free(&s);
            c2d_workload_free(&w);
        }
}

/* Circles aimed at the index's borders: boxes of the gate's size and an ulp either side, low
 * corners on cell edges and an ulp either side, boxes that touch capsules' boxes exactly. */
static void sweep_index_borders(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 2000, 120, C2D_W5_UNIFORM, 5), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
    check_sweeps(sc, &s, "first frame");
    assert_true(index_ready(sc));
    const c2d_sweep_index *x = &sc->sweep;
    const float gate = x->gate;
    c2d_rng rng = {11};
    for (size_t i = 0; i < s.n; i++) {
        const size_t kind = i % 6, k = (i / 6) % s.m;
        float lo_x, lo_y;
        if (kind < 3) { /* the low corner on a cell edge, an ulp either side */
            const uint32_t cx = (uint32_t)(c2d_rng_unit(&rng) * (float)x->grid.nx);
            const uint32_t cy = (uint32_t)(c2d_rng_unit(&rng) * (float)x->grid.ny);
            lo_x = x->grid.x0 + (float)cx * x->grid.size;
            lo_y = x->grid.y0 + (float)cy * x->grid.size;
            const float dir = kind == 0 ? -INFINITY : INFINITY;
            if (kind != 2) lo_x = nextafterf(lo_x, dir), lo_y = nextafterf(lo_y, dir);
        } else { /* just right of or above capsule k's box, or on its low corner */
            const c2d_capsule_index *ix = &sc->index;
            lo_x = kind == 3 ? ix->hi_x[k] : ix->lo_x[k] - gate * c2d_rng_unit(&rng);
            lo_y = kind == 4 ? ix->hi_y[k] : ix->lo_y[k] - gate * c2d_rng_unit(&rng);
            if (i % 12 >= 6) lo_x = nextafterf(lo_x, INFINITY), lo_y = nextafterf(lo_y, INFINITY);
        }
        /* a radius and a move whose box (swept_box's) is about the gate's size */
        const float r = 0.05f + 0.2f * c2d_rng_unit(&rng);
        const float m = gate - 2.4f * r;
        s.r[i] = r;
        s.mx[i] = m > 0.0f ? m * c2d_rng_unit(&rng) : 0.0f;
        s.my[i] = m > 0.0f ? -m * c2d_rng_unit(&rng) : 0.0f;
        if (i % 5 == 0) s.mx[i] = s.my[i] = 0.0f;
        /* centre so that the box's low corner lands near (lo_x, lo_y) */
        s.x[i] = lo_x + 1.2f * r + (s.mx[i] < 0.0f ? -s.mx[i] : 0.0f);
        s.y[i] = lo_y + 1.2f * r + (s.my[i] < 0.0f ? -s.my[i] : 0.0f);
    }
    check_sweeps(sc, &s, "borders");
    /* sizes at the gate: scale each move until the box is within an ulp or two of it */
    for (size_t i = 0; i < s.n; i++) {
        s.mx[i] = gate * (0.9f + 0.2f * c2d_rng_unit(&rng));
        s.my[i] = (i % 2 ? -0.5f : 0.5f) * s.mx[i];
        s.r[i] = 0.0f;
        if (i % 3 == 0) s.mx[i] = -s.mx[i];
        if (i % 7 == 0) s.mx[i] = nextafterf(gate, i % 2 ? INFINITY : 0.0f);
    }
    check_sweeps(sc, &s, "gate sizes");
    c2d_scene_destroy(sc);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* NaN, infinite, huge and zero values among ordinary circles, and capsules that move: the
 * index goes stale, the coarse cells answer, then a rebuilt index. */
static void sweep_index_special_and_moves(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 1500, 100, C2D_W5_UNIFORM, 8), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    const float special[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 0.0f, -0.0f, FLT_MIN, 1e-30f};
    const size_t ns = sizeof special / sizeof special[0];
    for (size_t i = 0; i < s.n; i += 13) {
        float *field[] = {s.x, s.y, s.r, s.mx, s.my};
        field[(i / 13) % 5][i] = special[(i / 65) % ns];
    }
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
    check_sweeps(sc, &s, "special values");
    assert_true(index_ready(sc));
    c2d_circle_toi *toi = xmalloc((s.n + 1) * sizeof *toi);
    for (int round = 0; round < 3; round++) {
        /* four sweeps more: an index that served fewer before the capsules moved would pause
         * the next builds (how many sweeps check_sweeps makes depends on the backends) */
        for (int j = 0; j < 4; j++)
            assert_int_equal(c2d_scene_sweep(sc, &s.circles, s.mx, s.my, toi), C2D_OK);
        for (size_t k = (size_t)round; k < s.m; k += 7) { /* move some capsules */
            s.ax[k] += 1.5f;
            s.by[k] -= 0.75f;
        }
        assert_int_equal(c2d_scene_move_capsules(sc, 0, &s.capsules), C2D_OK);
        assert_false(index_ready(sc));
        check_sweeps(sc, &s, "after a move");
        assert_true(index_ready(sc));
    }
    /* capsules that move after every second sweep: builds pause, answers stay the batch's */
    for (int round = 0; round < 12; round++) {
        s.ay[round] += 0.25f;
        assert_int_equal(c2d_scene_move_capsules(sc, 0, &s.capsules), C2D_OK);
        check_sweeps(sc, &s, "moving capsules");
    }
    free(toi);
    c2d_scene_destroy(sc);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* Moves that grow (a falling pile): after a look at the circles finds more than a quarter
 * above the gate, the index is built again with a gate at least 1.5 times the last; every
 * sweep on the way is the batch call's. */
static void sweep_index_regrow(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 1200, 80, C2D_W5_UNIFORM, 21), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    for (size_t i = 0; i < s.n; i++)
        s.mx[i] *= 0.1f, s.my[i] *= 0.1f;
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
    check_sweeps(sc, &s, "small moves");
    assert_true(index_ready(sc));
    const float first_gate = sc->sweep.gate;
    float gate = first_gate;
    int at_floor = 0; /* regrowths whose chosen gate was below the floor of 1.5 times */
    c2d_circle_toi *ref = xmalloc(s.n * sizeof *ref), *got = xmalloc(s.n * sizeof *got);
    for (int frame = 0; frame < 120; frame++) { /* 1.02^16 a look: less than the 1.5 step */
        for (size_t i = 0; i < s.n; i++)
            s.mx[i] *= 1.02f, s.my[i] *= 1.02f;
        assert_int_equal(c2d_batch_sweep(&s.circles, s.mx, s.my, &s.capsules, ref), C2D_OK);
        assert_int_equal(c2d_scene_sweep(sc, &s.circles, s.mx, s.my, got), C2D_OK);
        assert_memory_equal(got, ref, s.n * sizeof *got);
        assert_true(index_ready(sc));
        if (sc->sweep.gate != gate) { /* a regrowth: ahead of the moves, not just caught up */
            assert_true(sc->sweep.gate >= 1.5f * gate);
            at_floor += sc->sweep.gate == 1.5f * gate;
            gate = sc->sweep.gate;
        }
    }
    assert_true(sc->sweep.gate > first_gate);
    assert_true(at_floor > 0); /* the floor itself was exercised, not only larger choices */
    check_sweeps(sc, &s, "grown moves");
    free(ref);
    free(got);
    c2d_scene_destroy(sc);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* Few circles, tiny scenes, every count from 0 to 40, one capsule. */
static void sweep_index_small(void **state) {
    (void)state;
    for (size_t n = 0; n <= 40; n++) {
        c2d_workload w;
        assert_int_equal(c2d_workload_w5(&w, n, n % 3 + 1, C2D_W5_UNIFORM, 100 + n), 0);
        scene s;
        scene_from_workload(&s, &w, LAYOUT_ALIGNED);
        for (size_t i = 0; i < n; i++) /* aim at the capsules */
            s.x[i] = s.ax[i % s.m] - 0.5f * s.mx[i], s.y[i] = s.ay[i % s.m] - 0.5f * s.my[i];
        c2d_scene *sc;
        assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
        check_sweeps(sc, &s, "small");
        c2d_scene_destroy(sc);
        scene_free(&s);
        c2d_workload_free(&w);
    }
}

/* A sweep-index cell holding far more capsules than the walk's candidate list (1,100 short
 * capsules on one spot, 275 groups of four against a list of 1,024): the circles whose box has
 * its low corner there take the cell a listful at a time, with the list run between; the
 * others make room for a whole cell before it. */
static void sweep_index_crowded(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 3000, 1300, C2D_W5_UNIFORM, 21), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    c2d_rng rng = {31};
    for (size_t k = 0; k < 1100; k++) { /* on one spot (50, 50), a hair apart */
        s.ax[k] = 50.0f + 0.01f * c2d_rng_unit(&rng);
        s.ay[k] = 50.0f + 0.01f * c2d_rng_unit(&rng);
        s.bx[k] = s.ax[k] + 0.02f;
        s.by[k] = s.ay[k];
        s.R[k] = 0.01f;
    }
    for (size_t i = 0; i < s.n; i += 2) { /* half the circles around it, small moves */
        s.x[i] = 49.5f + c2d_rng_unit(&rng);
        s.y[i] = 49.5f + c2d_rng_unit(&rng);
        s.r[i] = 0.05f;
        s.mx[i] = 0.2f * (c2d_rng_unit(&rng) - 0.5f);
        s.my[i] = 0.2f * (c2d_rng_unit(&rng) - 0.5f);
    }
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
    check_sweeps(sc, &s, "crowded cell");
    assert_true(index_ready(sc));
    size_t most = 0; /* the test needs a cell of more groups than a list holds */
    const c2d_sweep_index *x = &sc->sweep;
    for (size_t c = 0; c < (size_t)x->grid.nx * x->grid.ny; c++)
        most = x->start[c + 1] - x->start[c] > most ? x->start[c + 1] - x->start[c] : most;
    assert_true(most > 256);
    c2d_scene_destroy(sc);
    scene_free(&s);
    c2d_workload_free(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sweep_index_w5),
        cmocka_unit_test(sweep_index_borders),
        cmocka_unit_test(sweep_index_special_and_moves),
        cmocka_unit_test(sweep_index_regrow),
        cmocka_unit_test(sweep_index_small),
        cmocka_unit_test(sweep_index_crowded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
