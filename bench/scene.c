/* W5 (scenes at scale): c2d_scene_collide against the all-pairs c2d_batch_collide, on the best
 * backend and the scalar one, for (N balls, N/16 pins) = (4096, 256) .. (1048576, 65536) at W1's
 * density, in the uniform, clustered, mixed-size and floor variants; the same frame split over
 * two threads (c2d_scene_bin_part, c2d_scene_collide_range); and the scene's sweep (W3's moves).
 * The Chipmunk2D peer runs the same frames in peer_chipmunk.c.
 *
 * Names: W5_scene/VARIANT/BACKEND/N, W5_allpairs/uniform/BACKEND/N (up to N = 262144, where a
 * frame takes about half a second), W5_threads2/VARIANT/BACKEND/N, W5_sweep/uniform/BACKEND/N.
 * Counter "hits" is the contacts of a frame (hit circles for sweeps); "checksum" is equal for
 * the scene and all-pairs (the same bytes). */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

enum { W5_SIZES = 4, MAX_W5 = W5_SIZES * C2D_W5_VARIANTS };

static const int64_t w5_sizes[W5_SIZES] = {4096, 65536, 262144, 1048576};

const c2d_workload *bench_w5(c2d_w5_variant v, size_t n_circles) {
    static struct {
        c2d_w5_variant v;
        size_t n;
        c2d_workload w;
    } cache[MAX_W5];
    static size_t cached;
    for (size_t i = 0; i < cached; i++)
        if (cache[i].v == v && cache[i].n == n_circles) return &cache[i].w;
    if (cached == MAX_W5) return NULL;
    if (c2d_workload_w5(&cache[cached].w, n_circles, n_circles / 16, v, C2D_WORKLOAD_SEED) != 0)
        return NULL;
    cache[cached].v = v;
    cache[cached].n = n_circles;
    return &cache[cached++].w;
}

/* One registered W5 case. */
typedef struct w5_case {
    c2d_w5_variant variant;
    c2d_backend backend;
} w5_case;

/* Prepares a case: the workload, the backend, an output that fits a frame. */
static const c2d_workload *w5_setup(gb_state *st, const w5_case *c, c2d_pair_contact **out,
                                    size_t *capacity) {
    const c2d_workload *w = bench_w5(c->variant, (size_t)gb_range(st, 0));
    if (!w) {
        gb_skip_with_error(st, "out of memory");
        return NULL;
    }
    if (c2d_backend_select(c->backend) != C2D_OK) {
        gb_skip_with_error(st, "backend not available");
        return NULL;
    }
    *capacity = w->circles.count; /* W5 has about 0.08 contacts a ball */
    *out = malloc(*capacity * sizeof **out);
    if (!*out) {
        gb_skip_with_error(st, "out of memory");
        return NULL;
    }
    return w;
}

static void bm_scene(gb_state *st, const void *arg) {
    c2d_pair_contact *out;
    size_t capacity, count = 0;
    const c2d_workload *w = w5_setup(st, arg, &out, &capacity);
    if (!w) return;
    c2d_scene *scene;
    if (c2d_scene_create(&w->capsules, NULL, &scene) != C2D_OK ||
        c2d_scene_collide(scene, &w->circles, out, capacity, &count) != C2D_OK) {
        gb_skip_with_error(st, "scene failed");
        free(out);
        return;
    }
    while (gb_keep_running(st)) {
        c2d_scene_collide(scene, &w->circles, out, capacity, &count);
        gb_do_not_optimize(out);
    }
    bench_report(st, (double)w->circles.count * w->capsules.count, count, out, count * sizeof *out);
    c2d_scene_destroy(scene);
    free(out);
}

static void bm_allpairs(gb_state *st, const void *arg) {
    c2d_pair_contact *out;
    size_t capacity, count = 0;
    const c2d_workload *w = w5_setup(st, arg, &out, &capacity);
    if (!w) return;
    while (gb_keep_running(st)) {
        if (c2d_batch_collide(&w->circles, &w->capsules, out, capacity, &count) != C2D_OK)
            gb_skip_with_error(st, "c2d_batch_collide failed");
        gb_do_not_optimize(out);
    }
    bench_report(st, (double)w->circles.count * w->capsules.count, count, out, count * sizeof *out);
    free(out);
}

static void bm_sweep(gb_state *st, const void *arg) {
    const w5_case *c = arg;
    const c2d_workload *w = bench_w5(c->variant, (size_t)gb_range(st, 0));
    if (!w || c2d_backend_select(c->backend) != C2D_OK) {
        gb_skip_with_error(st, "setup failed");
        return;
    }
    c2d_circle_toi *out = malloc(w->circles.count * sizeof *out);
    c2d_scene *scene;
    if (!out || c2d_scene_create(&w->capsules, NULL, &scene) != C2D_OK) {
        gb_skip_with_error(st, "setup failed");
        free(out);
        return;
    }
    while (gb_keep_running(st)) {
        c2d_scene_sweep(scene, &w->circles, w->move_x, w->move_y, out);
        gb_do_not_optimize(out);
    }
    size_t hits = 0;
    for (size_t i = 0; i < w->circles.count; i++)
        hits += out[i].capsule != C2D_NONE;
    bench_report(st, (double)w->circles.count * w->capsules.count, hits, out,
                 w->circles.count * sizeof *out);
    c2d_scene_destroy(scene);
    free(out);
}

/* ---- two threads ---------------------------------------------------------------------- */

/* The frame of two threads: each bins half the circles, one ends the binning, then each
 * collides half the capsules into its own output. The helper thread lives for the benchmark. */
typedef struct duo {
    c2d_scene *scene;
    const c2d_workload *w;
    pthread_barrier_t barrier;
    c2d_pair_contact *out[2];
    size_t capacity, count[2];
    bool stop;
} duo;

static void duo_half(duo *d, size_t t, bool bin) {
    const size_t m = d->w->capsules.count;
    if (bin) {
        c2d_scene_bin_part(d->scene, t);
        pthread_barrier_wait(&d->barrier); /* both parts binned */
        if (t == 0) c2d_scene_bin_end(d->scene);
        pthread_barrier_wait(&d->barrier); /* the frame is ready */
    }
    c2d_scene_collide_range(d->scene, &d->w->circles, m * t / 2, m * (t + 1) / 2 - m * t / 2,
                            d->out[t], d->capacity, &d->count[t]);
}

static void *duo_helper(void *arg) {
    duo *d = arg;
    for (;;) {
        pthread_barrier_wait(&d->barrier); /* a frame begins (or the end) */
        if (d->stop) return NULL;
        duo_half(d, 1, true);
        pthread_barrier_wait(&d->barrier); /* the frame is done */
    }
}

static void duo_frame(duo *d) {
    c2d_scene_bin_begin(d->scene, &d->w->circles, 2);
    pthread_barrier_wait(&d->barrier);
    duo_half(d, 0, true);
    pthread_barrier_wait(&d->barrier);
}

static void bm_threads2(gb_state *st, const void *arg) {
    duo d = {0};
    size_t capacity;
    c2d_pair_contact *out;
    d.w = w5_setup(st, arg, &out, &capacity);
    if (!d.w) return;
    d.out[0] = out;
    d.out[1] = malloc(capacity * sizeof *out);
    d.capacity = capacity;
    pthread_t helper;
    if (!d.out[1] || c2d_scene_create(&d.w->capsules, NULL, &d.scene) != C2D_OK) {
        gb_skip_with_error(st, "setup failed");
        free(d.out[0]);
        free(d.out[1]);
        return;
    }
    pthread_barrier_init(&d.barrier, NULL, 2);
    pthread_create(&helper, NULL, duo_helper, &d);
    duo_frame(&d); /* sizes the scratch */
    while (gb_keep_running(st))
        duo_frame(&d);
    d.stop = true;
    pthread_barrier_wait(&d.barrier);
    pthread_join(helper, NULL);
    pthread_barrier_destroy(&d.barrier);
    gb_set_counter(st, "hits", (double)(d.count[0] + d.count[1]), GB_COUNTER_DEFAULT);
    c2d_scene_destroy(d.scene);
    free(d.out[0]);
    free(d.out[1]);
}

/* ---- registration --------------------------------------------------------------------- */

static gb_benchmark *register_w5(const char *what, gb_function fn, const w5_case *c, int64_t n) {
    char name[96];
    snprintf(name, sizeof name, "%s/%s/%s", what, c2d_w5_name(c->variant),
             c2d_backend_name(c->backend));
    gb_benchmark *b = gb_unit(gb_register(name, fn, c), GB_MILLISECOND);
    gb_add_statistic(b, GB_STAT_MIN);
    return gb_arg(gb_add_statistic(b, GB_STAT_MAX), n);
}

void bench_register_scene(const bench_options *o) {
    (void)o;
    const bench_case *cases[C2D_BACKEND_COUNT];
    const size_t nb = bench_backends(cases);
    const c2d_backend best = cases[nb - 1]->backend;
    static w5_case w5[C2D_W5_VARIANTS][2];
    for (int v = 0; v < C2D_W5_VARIANTS; v++) {
        w5[v][0] = (w5_case){(c2d_w5_variant)v, best};
        w5[v][1] = (w5_case){(c2d_w5_variant)v, C2D_BACKEND_SCALAR};
    }
    for (size_t s = 0; s < W5_SIZES; s++) {
        const int64_t n = w5_sizes[s];
        for (int v = 0; v < C2D_W5_VARIANTS; v++) {
            register_w5("W5_scene", bm_scene, &w5[v][0], n);
            if (best != C2D_BACKEND_SCALAR) register_w5("W5_scene", bm_scene, &w5[v][1], n);
        }
        if (n <= 262144) {
            gb_benchmark *b = register_w5("W5_allpairs", bm_allpairs, &w5[C2D_W5_UNIFORM][0], n);
            if (n == 262144) gb_min_time(b, 0.5);
        }
        for (int v = 0; v < C2D_W5_VARIANTS; v++)
            gb_use_real_time(register_w5("W5_threads2", bm_threads2, &w5[v][0], n));
        register_w5("W5_sweep", bm_sweep, &w5[C2D_W5_UNIFORM][0], n);
    }
}
