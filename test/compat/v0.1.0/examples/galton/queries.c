/* The simulation's queries through a scene (collide2d/scene.h, collide2d/balls.h).
 *
 * Threads: the scene's split API. Balls against capsules: c2d_scene_bin() once, then
 * c2d_scene_collide_range() on disjoint capsule ranges, one per thread, each into its own
 * buffer; the buffers concatenated in range order are c2d_scene_collide()'s list. Sweeps:
 * c2d_scene_sweep_range() over disjoint ball ranges writing straight into the output. Either
 * way the result is the single-thread one byte for byte, so the world hash does not depend on
 * the thread count. Ball pairs (c2d_scene_collide_circles) run on the calling thread. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "queries.h"

enum { MAX_THREADS = 16 };

typedef struct part {
    c2d_scene *scene;
    const c2d_circle_soa *balls;
    size_t first, count; /* capsule range (collide) or ball range (sweep) */
    const float *move_x, *move_y;
    c2d_pair_contact *hits; /* collide: this part's own buffer */
    size_t capacity, found;
    c2d_circle_toi *toi; /* sweep: the whole output */
    c2d_status status;
} part;

typedef struct impl {
    c2d_scene *scene;
    part parts[MAX_THREADS];
} impl;

double galton_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int galton_queries_init(galton_queries *q, const c2d_capsule_soa *capsules, int threads) {
    q->capsules = *capsules;
    q->threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    impl *m = calloc(1, sizeof *m);
    if (!m) return -1;
    if (c2d_scene_create(capsules, NULL, &m->scene) != C2D_OK) {
        free(m);
        return -1;
    }
    q->impl = m;
    return 0;
}

void galton_queries_free(galton_queries *q) {
    impl *m = q->impl;
    if (!m) return;
    c2d_scene_destroy(m->scene);
    for (int t = 0; t < MAX_THREADS; t++)
        free(m->parts[t].hits);
    free(m);
    q->impl = NULL;
}

/* Runs fn on parts 1 .. n-1 in new threads and part 0 here (a part whose thread failed to
 * start runs here too). */
static void run_parts(part *parts, int n, void *(*fn)(void *)) {
    pthread_t id[MAX_THREADS];
    bool started[MAX_THREADS] = {false};
    for (int t = 1; t < n; t++)
        started[t] = pthread_create(&id[t], NULL, fn, &parts[t]) == 0;
    fn(&parts[0]);
    for (int t = 1; t < n; t++) {
        if (started[t])
            pthread_join(id[t], NULL);
        else
            fn(&parts[t]);
    }
}

static void *collide_part(void *arg) {
    part *p = arg;
    p->status = c2d_scene_collide_range(p->scene, p->balls, p->first, p->count, p->hits,
                                        p->capacity, &p->found);
    return NULL;
}

c2d_status galton_collide_pins(galton_queries *q, const c2d_circle_soa *balls,
                               c2d_pair_contact *out, size_t capacity, size_t *count, double *broad,
                               double *narrow) {
    impl *m = q->impl;
    const double t0 = galton_now();
    c2d_status st = c2d_scene_bin(m->scene, balls);
    const double t1 = galton_now();
    *broad = t1 - t0;
    *count = 0;
    if (st != C2D_OK) return st;
    if (q->threads == 1) {
        st = c2d_scene_collide_range(m->scene, balls, 0, q->capsules.count, out, capacity, count);
        *narrow = galton_now() - t1;
        return st;
    }
    const int n = q->threads;
    for (int t = 0; t < n; t++) {
        part *p = &m->parts[t];
        p->scene = m->scene;
        p->balls = balls;
        p->first = q->capsules.count * (size_t)t / (size_t)n;
        p->count = q->capsules.count * (size_t)(t + 1) / (size_t)n - p->first;
    }
    run_parts(m->parts, n, collide_part);
    size_t total = 0;
    for (int t = 0; t < n; t++) {
        part *p = &m->parts[t];
        /* Truncated (or a size query, the first time): grow this part's buffer, run it again. */
        if (p->status == C2D_ERROR_TRUNCATED || (p->status == C2D_OK && p->found > p->capacity)) {
            free(p->hits);
            p->capacity = 2 * p->found;
            if (!(p->hits = malloc(p->capacity * sizeof *p->hits))) return C2D_ERROR_ALLOC;
            collide_part(p);
        }
        if (p->status != C2D_OK) return p->status;
        if (p->found > 0 && total < capacity)
            memcpy(out + total, p->hits,
                   (p->found < capacity - total ? p->found : capacity - total) * sizeof *out);
        total += p->found;
    }
    *count = total;
    *narrow = galton_now() - t1;
    return total > capacity ? C2D_ERROR_TRUNCATED : C2D_OK;
}

c2d_status galton_collide_balls(galton_queries *q, const c2d_circle_soa *balls,
                                c2d_circle_pair_contact *out, size_t capacity, size_t *count) {
    impl *m = q->impl;
    return c2d_scene_collide_circles(m->scene, balls, out, capacity, count);
}

c2d_status galton_freeze(galton_queries *q, const c2d_circle_soa *balls, const uint32_t *ids) {
    impl *m = q->impl;
    return c2d_scene_freeze_circles(m->scene, balls, ids);
}

c2d_status galton_thaw(galton_queries *q, const uint32_t *ids, size_t count) {
    impl *m = q->impl;
    return c2d_scene_thaw_circles(m->scene, ids, count);
}

c2d_status galton_collide_frozen(galton_queries *q, const c2d_circle_soa *balls,
                                 const uint32_t *ids, c2d_circle_pair_contact *out, size_t capacity,
                                 size_t *count) {
    impl *m = q->impl;
    return c2d_scene_collide_frozen_circles(m->scene, balls, ids, out, capacity, count);
}

static void *sweep_part(void *arg) {
    part *p = arg;
    p->status = c2d_scene_sweep_range(p->scene, p->balls, p->move_x, p->move_y, p->first, p->count,
                                      p->toi + p->first);
    return NULL;
}

c2d_status galton_sweep_pins(galton_queries *q, const c2d_circle_soa *balls, const float *move_x,
                             const float *move_y, c2d_circle_toi *out) {
    impl *m = q->impl;
    /* Small sets are not worth a thread. */
    const int n = balls->count < 256 ? 1 : q->threads;
    for (int t = 0; t < n; t++) {
        part *p = &m->parts[t];
        p->scene = m->scene;
        p->balls = balls;
        p->move_x = move_x;
        p->move_y = move_y;
        p->toi = out;
        p->first = balls->count * (size_t)t / (size_t)n;
        p->count = balls->count * (size_t)(t + 1) / (size_t)n - p->first;
    }
    run_parts(m->parts, n, sweep_part);
    for (int t = 0; t < n; t++)
        if (m->parts[t].status != C2D_OK) return m->parts[t].status;
    return C2D_OK;
}
