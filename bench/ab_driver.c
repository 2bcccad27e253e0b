/* c2d_ab: two builds of libcollide2d in one process, one scene call timed alternately.
 *
 *   c2d_ab LIB_A LIB_B CASE N BACKEND [FRAMES]
 *
 * Loads both shared libraries (dlopen, each bound to its own symbols), makes the same input
 * (test/support/workload.c) and the same scene in each, then calls A, B, A, B, ... on it,
 * FRAMES times each after three untimed rounds, and times every call with the thread's CPU
 * clock. A busy neighbour on a shared machine slows a call of A and the next call of B alike,
 * so the ratio of the two, call by call, is steadier than whole runs of two programs (what
 * scripts/compare does): within about 3% from run to run, though a change of the host's load
 * over an hour still moves it more. Prints one line: the minimum and the median of each, the ratio of the
 * minima and the median of the per-round ratios A/B (above 1: B is faster), and whether both
 * gave the same bytes. scripts/ab builds a ref's library beside HEAD's and runs this.
 *
 * CASE: w5 (c2d_scene_collide, W5 uniform: N balls, N/16 pins), w5sweep (c2d_scene_sweep on
 * the same, W3's moves), pile, gas (c2d_scene_collide_circles on W6), pilesweep, gassweep
 * (c2d_scene_sweep_circles on W6 with its moves). BACKEND: a name of c2d_backend_name (scalar,
 * sse2, avx2, avx512, neon). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collide2d.h"
#include "workload.h"

typedef struct library {
    void *handle;
    c2d_status (*select)(c2d_backend);
    c2d_status (*create)(const c2d_capsule_soa *, const c2d_allocator *, c2d_scene **);
    c2d_status (*collide)(c2d_scene *, const c2d_circle_soa *, c2d_pair_contact *, size_t,
                          size_t *);
    c2d_status (*sweep)(c2d_scene *, const c2d_circle_soa *, const float *, const float *,
                        c2d_circle_toi *);
    c2d_status (*collide_circles)(c2d_scene *, const c2d_circle_soa *, c2d_circle_pair_contact *,
                                  size_t, size_t *);
    c2d_status (*sweep_circles)(c2d_scene *, const c2d_circle_soa *, const float *, const float *,
                                c2d_circle_hit *);
    c2d_scene *scene;
} library;

typedef enum kind { W5, W5_SWEEP, BALLS, BALL_SWEEPS } kind;

static void *symbol(void *handle, const char *path, const char *name) {
    void *p = dlsym(handle, name);
    if (!p) {
        fprintf(stderr, "%s has no %s\n", path, name);
        exit(1);
    }
    return p;
}

static double thread_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double least(const double *v, int n) {
    double m = v[0];
    for (int k = 1; k < n; k++)
        m = v[k] < m ? v[k] : m;
    return m;
}

static void load(library *l, const char *path, c2d_backend backend,
                 const c2d_capsule_soa *capsules) {
    l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!l->handle) {
        fprintf(stderr, "%s\n", dlerror());
        exit(1);
    }
    /* ISO C has no conversion from void * to a function pointer; POSIX gives them one
     * representation, so the address is copied */
#define BIND(field, name)                                                                          \
    do {                                                                                           \
        void *address = symbol(l->handle, path, name);                                             \
        memcpy(&l->field, &address, sizeof address);                                               \
    } while (0)
    BIND(select, "c2d_backend_select");
    BIND(create, "c2d_scene_create");
    BIND(collide, "c2d_scene_collide");
    BIND(sweep, "c2d_scene_sweep");
    BIND(collide_circles, "c2d_scene_collide_circles");
    BIND(sweep_circles, "c2d_scene_sweep_circles");
#undef BIND
    if (l->select(backend) != C2D_OK) {
        fprintf(stderr, "%s: backend not available\n", path);
        exit(1);
    }
    if (l->create(capsules, NULL, &l->scene) != C2D_OK) {
        fprintf(stderr, "%s: c2d_scene_create failed\n", path);
        exit(1);
    }
}

/* One call; returns the output's bytes (its count in *count). */
static size_t run(library *l, kind k, const c2d_workload *w, void *out, size_t capacity,
                  size_t *count) {
    const size_t n = w->circles.count;
    switch (k) {
    case W5:
        l->collide(l->scene, &w->circles, out, capacity, count);
        return *count * sizeof(c2d_pair_contact);
    case W5_SWEEP:
        l->sweep(l->scene, &w->circles, w->move_x, w->move_y, out);
        return n * sizeof(c2d_circle_toi);
    case BALLS:
        l->collide_circles(l->scene, &w->circles, out, capacity, count);
        return *count * sizeof(c2d_circle_pair_contact);
    default:
        l->sweep_circles(l->scene, &w->circles, w->move_x, w->move_y, out);
        return n * sizeof(c2d_circle_hit);
    }
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr,
                "usage: %s LIB_A LIB_B CASE N BACKEND [FRAMES]\n"
                "  CASE: w5 w5sweep pile gas pilesweep gassweep\n",
                argv[0]);
        return 2;
    }
    const char *name = argv[3];
    const size_t n = strtoul(argv[4], NULL, 10);
    const int frames = argc > 6 ? atoi(argv[6]) : 31;
    /* the backend by the name B's own c2d_backend_name gives it */
    void *names_of = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!names_of) return fprintf(stderr, "%s\n", dlerror()), 1;
    const char *(*name_of)(c2d_backend);
    void *address = symbol(names_of, argv[2], "c2d_backend_name");
    memcpy(&name_of, &address, sizeof address);
    c2d_backend backend = C2D_BACKEND_COUNT;
    for (int b = 0; b < C2D_BACKEND_COUNT; b++)
        if (strcmp(argv[5], name_of((c2d_backend)b)) == 0) backend = (c2d_backend)b;
    const kind k = !strcmp(name, "w5")        ? W5
                   : !strcmp(name, "w5sweep") ? W5_SWEEP
                   : strstr(name, "sweep")    ? BALL_SWEEPS
                                              : BALLS;
    const bool pile = !strncmp(name, "pile", 4);
    if (backend == C2D_BACKEND_COUNT || n == 0 || frames < 1 ||
        (k >= BALLS && !pile && strncmp(name, "gas", 3))) {
        fprintf(stderr, "bad case, size, backend or frame count\n");
        return 2;
    }
    c2d_workload w;
    const int made =
        k >= BALLS ? c2d_workload_w6(&w, n, pile ? C2D_W6_PILE : C2D_W6_GAS, C2D_WORKLOAD_SEED)
                   : c2d_workload_w5(&w, n, n / 16, C2D_W5_UNIFORM, C2D_WORKLOAD_SEED);
    if (made != 0) return fprintf(stderr, "out of memory\n"), 1;
    const c2d_capsule_soa none = {0};
    library lib[2];
    for (int s = 0; s < 2; s++)
        load(&lib[s], argv[1 + s], backend, k >= BALLS ? &none : &w.capsules);
    const size_t capacity = 8 * n + 16; /* W6 piles: 3 pairs a ball; W5: 0.08 contacts */
    void *out[2] = {malloc(capacity * sizeof(c2d_circle_pair_contact)),
                    malloc(capacity * sizeof(c2d_circle_pair_contact))};
    double *t[2] = {malloc((size_t)frames * sizeof(double)),
                    malloc((size_t)frames * sizeof(double))};
    double *ratio = malloc((size_t)frames * sizeof(double));
    if (!out[0] || !out[1] || !t[0] || !t[1] || !ratio) return fprintf(stderr, "no memory\n"), 1;
    size_t count[2] = {0, 0}, bytes[2] = {0, 0};
    for (int f = -3; f < frames; f++) {
        for (int s = 0; s < 2; s++) {
            const double t0 = thread_ms();
            bytes[s] = run(&lib[s], k, &w, out[s], capacity, &count[s]);
            if (f >= 0) t[s][f] = thread_ms() - t0;
        }
        if (f >= 0) ratio[f] = t[0][f] / t[1][f];
    }
    const bool same = bytes[0] == bytes[1] && memcmp(out[0], out[1], bytes[0]) == 0;
    const double min_a = least(t[0], frames), min_b = least(t[1], frames);
    printf(
        "%-9s %-7s %8zu  A %8.3f / %8.3f ms  B %8.3f / %8.3f ms  min %5.2fx  paired %5.2fx  %s\n",
        name, argv[5], n, min_a, median(t[0], frames), min_b, median(t[1], frames), min_a / min_b,
        median(ratio, frames), same ? "same bytes" : "BYTES DIFFER");
    return 0;
}
