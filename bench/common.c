/* Workloads built once and shared by every benchmark, backend selection and reporting. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

enum { MAX_WORKLOADS = 8 };

static struct {
    size_t n_circles;
    c2d_workload w;
} workloads[MAX_WORKLOADS];
static size_t workload_count;

const c2d_workload *bench_workload(size_t n_circles) {
    for (size_t i = 0; i < workload_count; i++)
        if (workloads[i].n_circles == n_circles) return &workloads[i].w;
    if (workload_count == MAX_WORKLOADS) return NULL;
    c2d_workload *w = &workloads[workload_count].w;
    if (c2d_workload_make(w, n_circles, BENCH_CAPSULES, C2D_WORKLOAD_SEED) != 0) return NULL;
    workloads[workload_count++].n_circles = n_circles;
    return w;
}

bool bench_pairs(const uint32_t **circle_index, const uint32_t **capsule_index) {
    static uint32_t *ci, *ki;
    if (!ci) {
        const c2d_workload *w = bench_workload(BENCH_W1_CIRCLES);
        if (!w || c2d_workload_pairs(w, BENCH_W2_PAIRS, C2D_WORKLOAD_SEED, &ci, &ki) != 0) {
            ci = ki = NULL;
            return false;
        }
    }
    *circle_index = ci;
    *capsule_index = ki;
    return true;
}

bool bench_select(gb_state *st, const bench_case *c) {
    const c2d_backend b = c->backend == C2D_BACKEND_AUTO ? C2D_BACKEND_SCALAR : c->backend;
    if (c2d_backend_select(b) != C2D_OK || c2d_backend_active() != b) {
        gb_skip_with_error(st, "backend not available");
        return false;
    }
    return true;
}

void bench_report(gb_state *st, double pairs_per_iteration, size_t hits, const void *output,
                  size_t output_bytes) {
    const uint64_t h = c2d_fnv1a(C2D_FNV_OFFSET, output, output_bytes);
    const int64_t iterations = gb_iterations(st);
    gb_set_items_processed(st, (int64_t)((double)iterations * pairs_per_iteration));
    gb_set_counter(st, "pairs", pairs_per_iteration, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "hits", (double)hits, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "checksum", (double)(uint32_t)(h ^ (h >> 32)), GB_COUNTER_DEFAULT);
}

const char *bench_case_name(const bench_case *c) {
    return c->backend == C2D_BACKEND_AUTO ? "scalar_loop" : c2d_backend_name(c->backend);
}

gb_benchmark *bench_register(const char *workload, gb_function fn, const bench_case *c) {
    char name[96];
    snprintf(name, sizeof name, "%s/%s", workload, bench_case_name(c));
    gb_benchmark *b = gb_unit(gb_register(name, fn, c), GB_MICROSECOND);
    gb_add_statistic(b, GB_STAT_MIN);
    return gb_add_statistic(b, GB_STAT_MAX);
}

const bench_case bench_scalar_loop = {C2D_BACKEND_AUTO};

size_t bench_backends(const bench_case **out) {
    static const bench_case cases[] = {
        {C2D_BACKEND_SCALAR}, {C2D_BACKEND_SSE2},   {C2D_BACKEND_SSE41},
        {C2D_BACKEND_AVX2},   {C2D_BACKEND_AVX512}, {C2D_BACKEND_NEON},
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (c2d_backend_available(cases[i].backend)) out[n++] = &cases[i];
    return n;
}
