/* c2d_bench: the workloads of docs/design.md section 7 on every available backend.
 *
 *   c2d_bench [--slow_min_time=SECONDS] [--benchmark_* flags of Google Benchmark]
 *
 * Benchmarks are named WORKLOAD/BACKEND[/CIRCLES]: W1_collide, W2_pairs, W3_sweep, W3d_sweep and
 * W4_scaling; BACKEND is a c2d_backend_name() or scalar_loop (the scalar function called
 * for every pair in a plain C loop). items_per_second counts circle-capsule pairs; the
 * counters "hits" and "checksum" describe a frame's output and are equal on every backend.
 * --slow_min_time gives the slowest benchmarks (scalar backend W3, W4 at 16384 and 65536
 * circles) their own minimum time. scripts/bench runs this and prints the table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char usage[] =
    "c2d_bench [--slow_min_time=SECONDS] [--benchmark_* flags, see --help below]\n";

/* Removes the program's own options from argv; returns false on a malformed one. */
static bool parse_options(int *argc, char **argv, bench_options *o) {
    static const char slow[] = "--slow_min_time=";
    int kept = 1;
    for (int i = 1; i < *argc; i++) {
        if (strncmp(argv[i], slow, sizeof slow - 1) == 0) {
            char *end;
            o->slow_min_time = strtod(argv[i] + sizeof slow - 1, &end);
            if (*end != '\0' || !(o->slow_min_time > 0)) {
                fprintf(stderr, "bad value: %s\n", argv[i]);
                return false;
            }
        } else {
            if (strcmp(argv[i], "--help") == 0) fputs(usage, stdout);
            argv[kept++] = argv[i];
        }
    }
    *argc = kept;
    argv[kept] = NULL;
    return true;
}

static void add_context(void) {
    char backends[128] = "";
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++) {
        if (!c2d_backend_available((c2d_backend)b)) continue;
        if (backends[0]) strncat(backends, ",", sizeof backends - strlen(backends) - 1);
        strncat(backends, c2d_backend_name((c2d_backend)b), sizeof backends - strlen(backends) - 1);
    }
    gb_add_context("c2d_backends", backends);
#if defined(__x86_64__)
    gb_add_context("c2d_arch", "x86_64");
#elif defined(__aarch64__)
    gb_add_context("c2d_arch", "aarch64");
#else
    gb_add_context("c2d_arch", "other");
#endif
#ifdef __VERSION__
    gb_add_context("c2d_compiler", __VERSION__);
#endif
}

int main(int argc, char **argv) {
    bench_options options = {0};
    if (!parse_options(&argc, argv, &options)) {
        fputs(usage, stderr);
        return 2;
    }
    bench_register_collide(&options);
    bench_register_pairs(&options);
    bench_register_sweep(&options);
    bench_register_pairs_dense(&options);
    bench_register_scene(&options);
#ifdef C2D_BENCH_CHIPMUNK
    bench_register_chipmunk(&options);
#endif
    bench_register_balls(&options);
    bench_register_frame(&options);
    bench_register_rays(&options);
    bench_register_freeze(&options);
    bench_register_box2d(&options);
    add_context();
    if (gb_initialize(&argc, argv) != 0) return 2;
    gb_run();
    gb_shutdown();
    return 0;
}
