/* W1 (pachinko: c2d_batch_collide, 4096 circles x 256 capsules, all pairs) on every backend,
 * the same frame as a plain loop over c2d_collide_circle_capsule() (the baseline), the same
 * pairs through each SIMD width's boolean-only probe (probe.c: what culling must beat), and W4
 * (W1 with 256 to 65536 circles: ns/pair should stay flat). */
#include <stdlib.h>

#include "bench.h"
#include "probe.h"

/* The frame as a user would write it without the batch layer: every pair through the scalar
 * function, contacts stored in c2d_batch_collide()'s order (capsule, then circle). */
static size_t collide_loop(const c2d_workload *w, c2d_pair_contact *out, size_t capacity) {
    size_t total = 0;
    for (size_t k = 0; k < w->capsules.count; k++) {
        const c2d_capsule pin = {{w->ax[k], w->ay[k]}, {w->bx[k], w->by[k]}, w->capsule_radius[k]};
        for (size_t i = 0; i < w->circles.count; i++) {
            const c2d_circle ball = {{w->x[i], w->y[i]}, w->radius[i]};
            c2d_contact contact;
            if (c2d_collide_circle_capsule(ball, pin, &contact)) {
                if (total < capacity)
                    out[total] = (c2d_pair_contact){(uint32_t)i, (uint32_t)k, contact};
                total++;
            }
        }
    }
    return total;
}

static size_t collide_frame(const bench_case *c, const c2d_workload *w, c2d_pair_contact *out,
                            size_t capacity, c2d_status *status) {
    size_t count = 0;
    if (c->backend == C2D_BACKEND_AUTO) {
        count = collide_loop(w, out, capacity);
        *status = count > capacity ? C2D_ERROR_TRUNCATED : C2D_OK;
    } else {
        *status = c2d_batch_collide(&w->circles, &w->capsules, out, capacity, &count);
    }
    return count;
}

static void run_collide(gb_state *st, const bench_case *c, size_t n_circles) {
    const c2d_workload *w = bench_workload(n_circles);
    if (!w) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    if (!bench_select(st, c)) return;
    /* A first frame sizes the output (and warms caches); every frame then fits exactly. */
    c2d_status status;
    const size_t capacity = collide_frame(c, w, NULL, 0, &status);
    c2d_pair_contact *out = malloc((capacity ? capacity : 1) * sizeof *out);
    if (!out) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    size_t count = collide_frame(c, w, out, capacity, &status);
    if (status != C2D_OK || count != capacity) {
        gb_skip_with_error(st, "c2d_batch_collide failed");
        free(out);
        return;
    }
    while (gb_keep_running(st)) {
        count = collide_frame(c, w, out, capacity, &status);
        gb_do_not_optimize(&count);
        gb_do_not_optimize(out);
    }
    bench_report(st, (double)n_circles * BENCH_CAPSULES, count, out, count * sizeof *out);
    free(out);
}

static void bm_w1(gb_state *st, const void *arg) {
    run_collide(st, arg, BENCH_W1_CIRCLES);
}

/* The probe of a SIMD backend's width (SSE4.1 runs the SSE2 kernels, so the SSE2 probe), NULL
 * for the scalar backends or a width this build has none of. */
static bench_probe_fn probe_for(c2d_backend b) {
    switch (b) {
#ifdef C2D_BENCH_PROBE_SSE2
    case C2D_BACKEND_SSE2:
    case C2D_BACKEND_SSE41:
        return bench_probe_sse2;
#endif
#ifdef C2D_BENCH_PROBE_AVX2
    case C2D_BACKEND_AVX2:
        return bench_probe_avx2;
#endif
#ifdef C2D_BENCH_PROBE_AVX512
    case C2D_BACKEND_AVX512:
        return bench_probe_avx512;
#endif
#ifdef C2D_BENCH_PROBE_NEON
    case C2D_BACKEND_NEON:
        return bench_probe_neon;
#endif
    default:
        return NULL;
    }
}

/* W1's pairs through the probe of the case's width. Its count must be the batch call's (the
 * two tests round differently only within a few ulps of touching, which W1 does not reach). */
static void bm_probe(gb_state *st, const void *arg) {
    const bench_case *c = arg;
    const c2d_workload *w = bench_workload(BENCH_W1_CIRCLES);
    const bench_probe_fn probe = probe_for(c->backend);
    if (!w || !probe) {
        gb_skip_with_error(st, w ? "no probe for this backend" : "out of memory");
        return;
    }
    if (!bench_select(st, c)) return;
    size_t contacts = 0;
    if (c2d_batch_collide(&w->circles, &w->capsules, NULL, 0, &contacts) != C2D_OK ||
        probe(&w->circles, &w->capsules) != contacts) {
        gb_skip_with_error(st, "the probe's count differs from c2d_batch_collide's");
        return;
    }
    size_t count = 0;
    while (gb_keep_running(st)) {
        count = probe(&w->circles, &w->capsules);
        gb_do_not_optimize(&count);
    }
    bench_report(st, (double)BENCH_W1_CIRCLES * BENCH_CAPSULES, count, &count, sizeof count);
}

static void bm_w4(gb_state *st, const void *arg) {
    run_collide(st, arg, (size_t)gb_range(st, 0));
}

void bench_register_collide(const bench_options *o) {
    const bench_case *cases[C2D_BACKEND_COUNT];
    const size_t n = bench_backends(cases);

    bench_register("W1_collide", bm_w1, &bench_scalar_loop);
    for (size_t i = 0; i < n; i++)
        bench_register("W1_collide", bm_w1, cases[i]);
    for (size_t i = 0; i < n; i++)
        if (probe_for(cases[i]->backend)) bench_register("W1_probe", bm_probe, cases[i]);

    static const int64_t sizes[] = {256, 1024, 4096, 16384, 65536};
    for (size_t i = 0; i < n; i++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            gb_benchmark *b = gb_arg(bench_register("W4_scaling", bm_w4, cases[i]), sizes[s]);
            /* the scalar backend takes ~3 ns a pair: 45 ms a frame at 65536 circles */
            if (o->slow_min_time > 0 && cases[i]->backend == C2D_BACKEND_SCALAR &&
                sizes[s] >= 16384)
                gb_min_time(b, o->slow_min_time);
        }
    }
}
