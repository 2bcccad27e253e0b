/* W2: c2d_batch_collide_pairs over 1,048,576 random (circle, capsule) pairs of the W1 sets
 * (a broad phase's output), on every backend, and the same pairs as a plain loop over
 * c2d_collide_circle_capsule(). */
#include <stdlib.h>

#include "bench.h"

size_t bench_pairs_loop(const c2d_workload *w, const uint32_t *ci, const uint32_t *ki,
                        c2d_pair_contact *out, size_t capacity) {
    size_t total = 0;
    for (size_t p = 0; p < BENCH_W2_PAIRS; p++) {
        const uint32_t i = ci[p], k = ki[p];
        const c2d_circle ball = {{w->x[i], w->y[i]}, w->radius[i]};
        const c2d_capsule pin = {{w->ax[k], w->ay[k]}, {w->bx[k], w->by[k]}, w->capsule_radius[k]};
        c2d_contact contact;
        if (c2d_collide_circle_capsule(ball, pin, &contact)) {
            if (total < capacity) out[total] = (c2d_pair_contact){i, k, contact};
            total++;
        }
    }
    return total;
}

static size_t pairs_frame(const bench_case *c, const c2d_workload *w, const uint32_t *ci,
                          const uint32_t *ki, c2d_pair_contact *out, size_t capacity,
                          c2d_status *status) {
    size_t count = 0;
    if (c->backend == C2D_BACKEND_AUTO) {
        count = bench_pairs_loop(w, ci, ki, out, capacity);
        *status = count > capacity ? C2D_ERROR_TRUNCATED : C2D_OK;
    } else {
        *status = c2d_batch_collide_pairs(&w->circles, &w->capsules, ci, ki, BENCH_W2_PAIRS, out,
                                          capacity, &count);
    }
    return count;
}

static void bm_w2(gb_state *st, const void *arg) {
    const bench_case *c = arg;
    const c2d_workload *w = bench_workload(BENCH_W1_CIRCLES);
    const uint32_t *ci, *ki;
    if (!w || !bench_pairs(&ci, &ki)) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    if (!bench_select(st, c)) return;
    c2d_status status;
    const size_t capacity = pairs_frame(c, w, ci, ki, NULL, 0, &status);
    c2d_pair_contact *out = malloc((capacity ? capacity : 1) * sizeof *out);
    if (!out) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    size_t count = pairs_frame(c, w, ci, ki, out, capacity, &status);
    if (status != C2D_OK || count != capacity) {
        gb_skip_with_error(st, "c2d_batch_collide_pairs failed");
        free(out);
        return;
    }
    while (gb_keep_running(st)) {
        count = pairs_frame(c, w, ci, ki, out, capacity, &status);
        gb_do_not_optimize(&count);
        gb_do_not_optimize(out);
    }
    bench_report(st, (double)BENCH_W2_PAIRS, count, out, count * sizeof *out);
    free(out);
}

void bench_register_pairs(const bench_options *o) {
    (void)o;
    const bench_case *cases[C2D_BACKEND_COUNT];
    const size_t n = bench_backends(cases);
    bench_register("W2_pairs", bm_w2, &bench_scalar_loop);
    for (size_t i = 0; i < n; i++)
        bench_register("W2_pairs", bm_w2, cases[i]);
}
