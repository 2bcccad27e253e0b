/* W3: c2d_batch_sweep, the W1 circles with moves in [-2,2]^2 against the W1 capsules (every
 * circle's earliest time of impact), on every backend. W3d: a dense sweep, where nearly every
 * pair passes the kernels' box test: 4096 circles (radius in [0.05, 0.25], moves in
 * [-2,2]^2) and 64 capsules (length up to 4.2, radius in [0.05, 0.5]) on an 8 x 8 board.
 * W3m: W3 with every capsule moving too, by a move in [-1,1]^2
 * (c2d_batch_sweep_moving_capsules). */
#include <stdbool.h>
#include <stdlib.h>

#include "bench.h"

/* Reports the frame's hits and checksum. */
static void report_sweep(gb_state *st, const c2d_circle_soa *circles,
                         const c2d_capsule_soa *capsules, const c2d_circle_toi *out) {
    const size_t n = circles->count;
    size_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += out[i].capsule != C2D_NONE;
    bench_report(st, (double)n * (double)capsules->count, hits, out, n * sizeof *out);
}

/* Times c2d_batch_sweep of the circles with their moves against the capsules, then reports
 * the frame's hits and checksum. */
static void time_sweep(gb_state *st, const c2d_circle_soa *circles, const float *move_x,
                       const float *move_y, const c2d_capsule_soa *capsules, c2d_circle_toi *out) {
    while (gb_keep_running(st)) {
        c2d_status status = c2d_batch_sweep(circles, move_x, move_y, capsules, out);
        gb_do_not_optimize(&status);
        gb_do_not_optimize(out);
    }
    report_sweep(st, circles, capsules, out);
}

static void bm_w3(gb_state *st, const void *arg) {
    const bench_case *c = arg;
    const c2d_workload *w = bench_workload(BENCH_W1_CIRCLES);
    if (!w) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    if (!bench_select(st, c)) return;
    const size_t n = w->circles.count;
    c2d_circle_toi *out = malloc(n * sizeof *out);
    if (!out) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    if (c2d_batch_sweep(&w->circles, w->move_x, w->move_y, &w->capsules, out) != C2D_OK) {
        gb_skip_with_error(st, "c2d_batch_sweep failed");
        free(out);
        return;
    }
    time_sweep(st, &w->circles, w->move_x, w->move_y, &w->capsules, out);
    free(out);
}

enum { W3D_CIRCLES = 4096, W3D_CAPSULES = 64 };

/* The W3d scene, built once from a fixed seed. */
typedef struct w3d_scene {
    float x[W3D_CIRCLES], y[W3D_CIRCLES], r[W3D_CIRCLES], mx[W3D_CIRCLES], my[W3D_CIRCLES];
    float ax[W3D_CAPSULES], ay[W3D_CAPSULES], bx[W3D_CAPSULES], by[W3D_CAPSULES];
    float R[W3D_CAPSULES];
    c2d_circle_soa circles;
    c2d_capsule_soa capsules;
} w3d_scene;

static const w3d_scene *w3d(void) {
    static w3d_scene s;
    static bool made;
    if (!made) {
        c2d_rng rng = {0x3d5eed};
        for (size_t i = 0; i < W3D_CIRCLES; i++) {
            s.x[i] = c2d_rng_range(&rng, 0.0f, 8.0f);
            s.y[i] = c2d_rng_range(&rng, 0.0f, 8.0f);
            s.r[i] = c2d_rng_range(&rng, 0.05f, 0.25f);
            s.mx[i] = c2d_rng_range(&rng, -2.0f, 2.0f);
            s.my[i] = c2d_rng_range(&rng, -2.0f, 2.0f);
        }
        for (size_t j = 0; j < W3D_CAPSULES; j++) {
            s.ax[j] = c2d_rng_range(&rng, 0.0f, 8.0f);
            s.ay[j] = c2d_rng_range(&rng, 0.0f, 8.0f);
            s.bx[j] = s.ax[j] + c2d_rng_range(&rng, -3.0f, 3.0f);
            s.by[j] = s.ay[j] + c2d_rng_range(&rng, -3.0f, 3.0f);
            s.R[j] = c2d_rng_range(&rng, 0.05f, 0.5f);
        }
        s.circles = (c2d_circle_soa){s.x, s.y, s.r, W3D_CIRCLES, NULL, NULL};
        s.capsules = (c2d_capsule_soa){s.ax, s.ay, s.bx, s.by, s.R, W3D_CAPSULES, NULL, NULL, NULL};
        made = true;
    }
    return &s;
}

static void bm_w3d(gb_state *st, const void *arg) {
    const bench_case *c = arg;
    if (!bench_select(st, c)) return;
    const w3d_scene *s = w3d();
    static c2d_circle_toi out[W3D_CIRCLES];
    time_sweep(st, &s->circles, s->mx, s->my, &s->capsules, out);
}

/* W3m: the W3 frame with the capsules moving by fixed pseudo-random moves in [-1,1]^2. */
static void bm_w3m(gb_state *st, const void *arg) {
    const bench_case *c = arg;
    const c2d_workload *w = bench_workload(BENCH_W1_CIRCLES);
    if (!w) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    if (!bench_select(st, c)) return;
    const size_t n = w->circles.count, m = w->capsules.count;
    c2d_circle_toi *out = malloc(n * sizeof *out);
    float *kmx = malloc((m ? m : 1) * sizeof *kmx), *kmy = malloc((m ? m : 1) * sizeof *kmy);
    if (!out || !kmx || !kmy) {
        gb_skip_with_error(st, "out of memory");
        free(out), free(kmx), free(kmy);
        return;
    }
    unsigned seed = 2463534242u;
    for (size_t k = 0; k < m; k++) {
        float v[2];
        for (int d = 0; d < 2; d++) {
            seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
            v[d] = -1.0f + 2.0f * (float)(seed >> 8) * (1.0f / 16777216.0f);
        }
        kmx[k] = v[0], kmy[k] = v[1];
    }
    while (gb_keep_running(st)) {
        c2d_status status = c2d_batch_sweep_moving_capsules(&w->circles, w->move_x, w->move_y,
                                                            &w->capsules, kmx, kmy, out);
        gb_do_not_optimize(&status);
        gb_do_not_optimize(out);
    }
    report_sweep(st, &w->circles, &w->capsules, out);
    free(out), free(kmx), free(kmy);
}

void bench_register_sweep(const bench_options *o) {
    const bench_case *cases[C2D_BACKEND_COUNT];
    const size_t n = bench_backends(cases);
    for (size_t i = 0; i < n; i++) {
        gb_benchmark *b = bench_register("W3_sweep", bm_w3, cases[i]);
        /* the scalar backend takes ~45 ms a frame */
        if (o->slow_min_time > 0 && cases[i]->backend == C2D_BACKEND_SCALAR)
            gb_min_time(b, o->slow_min_time);
    }
    for (size_t i = 0; i < n; i++)
        bench_register("W3d_sweep", bm_w3d, cases[i]);
    for (size_t i = 0; i < n; i++) {
        gb_benchmark *b = bench_register("W3m_sweep", bm_w3m, cases[i]);
        if (o->slow_min_time > 0 && cases[i]->backend == C2D_BACKEND_SCALAR)
            gb_min_time(b, o->slow_min_time);
    }
}
