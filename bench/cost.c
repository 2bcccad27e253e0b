/* c2d_cost: what a build costs on three workloads, per backend, with a plain monotonic clock
 * and no Google Benchmark, so the same program runs natively and as WebAssembly under Node
 * (scripts/wasm prints the two side by side: what the web costs).
 *
 *   W1   c2d_batch_collide, 4096 circles x 256 capsules (ns per pair)
 *   W2d  c2d_batch_collide_pairs, 1,048,576 listed pairs, about 60% hits, in order (ns per pair)
 *   W5   c2d_scene_collide, 65,536 balls x 4,096 pins, uniform (ms per frame)
 *
 * One line per workload and backend: "W1 scalar 2.891 ns/pair 1a2b...", the median of 5
 * samples of at least 0.1 s each, and an FNV-1a hash of the output bytes (the same on every
 * backend and build). `c2d_cost --quick` takes one short sample. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collide2d.h"
#include "workload.h"

enum { SAMPLES = 5 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One workload's inputs and output buffer. */
typedef struct job {
    c2d_workload w;
    uint32_t *ci, *ki;
    size_t n_pairs;
    c2d_scene *scene;
    c2d_pair_contact *out;
    size_t capacity, found;
} job;

typedef int (*run_fn)(job *j);

static int run_w1(job *j) {
    return c2d_batch_collide(&j->w.circles, &j->w.capsules, j->out, j->capacity, &j->found) ==
                   C2D_OK
               ? 0
               : -1;
}

static int run_w2d(job *j) {
    return c2d_batch_collide_pairs(&j->w.circles, &j->w.capsules, j->ci, j->ki, j->n_pairs, j->out,
                                   j->capacity, &j->found) == C2D_OK
               ? 0
               : -1;
}

static int run_w5(job *j) {
    return c2d_scene_collide(j->scene, &j->w.circles, j->out, j->capacity, &j->found) == C2D_OK
               ? 0
               : -1;
}

/* Seconds per call: the median of SAMPLES samples, each repeating the call for min_time. */
static double time_call(run_fn run, job *j, double min_time, int samples) {
    double t[SAMPLES];
    for (int s = 0; s < samples; s++) {
        long calls = 0;
        const double start = now();
        double elapsed;
        do {
            if (run(j) != 0) return -1.0;
            calls++;
            elapsed = now() - start;
        } while (elapsed < min_time);
        t[s] = elapsed / (double)calls;
    }
    for (int a = 1; a < samples; a++) /* insertion sort, 5 values */
        for (int b = a; b > 0 && t[b] < t[b - 1]; b--) {
            const double x = t[b];
            t[b] = t[b - 1];
            t[b - 1] = x;
        }
    return t[samples / 2];
}

/* Sizes the output buffer with a size query, then hashes one call's contacts. */
static int prepare(run_fn run, job *j, uint64_t *hash) {
    j->out = NULL;
    j->capacity = 0;
    if (run(j) != 0) return -1;
    j->capacity = j->found ? j->found : 1;
    j->out = malloc(j->capacity * sizeof *j->out);
    if (!j->out || run(j) != 0) return -1;
    *hash = c2d_fnv1a(C2D_FNV_OFFSET, j->out, j->found * sizeof *j->out);
    return 0;
}

int main(int argc, char **argv) {
    const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    const double min_time = quick ? 0.01 : 0.1;
    const int samples = quick ? 1 : SAMPLES;
    job jobs[3];
    memset(jobs, 0, sizeof jobs);
    if (c2d_workload_make(&jobs[0].w, 4096, 256, C2D_WORKLOAD_SEED) != 0 ||
        c2d_workload_dense_pairs(&jobs[1].w, (size_t)1 << 20, C2D_WORKLOAD_SEED, &jobs[1].ci,
                                 &jobs[1].ki) != 0 ||
        c2d_workload_w5(&jobs[2].w, 65536, 4096, C2D_W5_UNIFORM, C2D_WORKLOAD_SEED) != 0 ||
        c2d_scene_create(&jobs[2].w.capsules, NULL, &jobs[2].scene) != C2D_OK) {
        fprintf(stderr, "c2d_cost: out of memory\n");
        return 1;
    }
    jobs[1].n_pairs = (size_t)1 << 20;
    const struct {
        const char *name, *unit;
        run_fn run;
        double scale; /* seconds per call to the unit */
    } work[3] = {
        {"W1", "ns/pair", run_w1, 1e9 / (4096.0 * 256.0)},
        {"W2d", "ns/pair", run_w2d, 1e9 / (double)((size_t)1 << 20)},
        {"W5", "ms/frame", run_w5, 1e3},
    };
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++) {
        if (b == C2D_BACKEND_SSE41 || !c2d_backend_available((c2d_backend)b))
            continue; /* sse41 is sse2 */
        c2d_backend_select((c2d_backend)b);
        for (int k = 0; k < 3; k++) {
            uint64_t hash = 0;
            job *j = &jobs[k];
            if (prepare(work[k].run, j, &hash) != 0) {
                fprintf(stderr, "c2d_cost: %s failed on %s\n", work[k].name,
                        c2d_backend_name((c2d_backend)b));
                return 1;
            }
            const double t = time_call(work[k].run, j, min_time, samples);
            free(j->out);
            if (t < 0) return 1;
            printf("%-4s %-13s %10.4f %-9s %016llx\n", work[k].name,
                   c2d_backend_name((c2d_backend)b), t * work[k].scale, work[k].unit,
                   (unsigned long long)hash);
            fflush(stdout);
        }
    }
    c2d_scene_destroy(jobs[2].scene);
    for (int k = 0; k < 3; k++) {
        free(jobs[k].ci);
        free(jobs[k].ki);
        c2d_workload_free(&jobs[k].w);
    }
    return 0;
}
