/* W3: c2d_batch_sweep, the W1 circles with moves in [-2,2]^2 against the W1 capsules (every
 * circle's earliest time of impact), on every backend. */
#include <stdlib.h>

#include "bench.h"

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
    while (gb_keep_running(st)) {
        c2d_status status = c2d_batch_sweep(&w->circles, w->move_x, w->move_y, &w->capsules, out);
        gb_do_not_optimize(&status);
        gb_do_not_optimize(out);
    }
    size_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += out[i].capsule != C2D_NONE;
    bench_report(st, (double)n * (double)w->capsules.count, hits, out, n * sizeof *out);
    free(out);
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
}
