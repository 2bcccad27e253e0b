/* A scene frame split across threads equals the single call, byte for byte: binning in parts
 * on several threads at once (c2d_scene_bin_part), then collide ranges and sweep ranges on
 * several threads at once, each with its own output. Repeated over frames and workloads, every
 * other one with collision filters and sensors (collide2d/filter.h).
 *
 * Built with -Db_sanitize=thread this is a ThreadSanitizer check (scripts/test runs suite
 * "threads"). Plain C with an exit status, no cmocka, so that cross builds can link it
 * statically (qemu-aarch64 hangs in pthread_create of dynamically linked programs here). */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collide2d.h"
#include "workload.h"

enum { THREADS = 3, CAPACITY = 1 << 16 };

static int failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

typedef struct job {
    c2d_scene *scene;
    const c2d_workload *w;
    size_t index;
    pthread_barrier_t *barrier;
    /* outputs */
    c2d_status bin_status, collide_status, sweep_status;
    c2d_pair_contact *contacts;
    size_t count;
    c2d_circle_toi *tois;
} job;

/* One worker: bins its part, waits for every part (the caller ends the binning between the
 * two barriers), then collides its capsule range and sweeps its circle range. */
static void *worker(void *arg) {
    job *j = arg;
    const c2d_workload *w = j->w;
    j->bin_status = c2d_scene_bin_part(j->scene, j->index);
    pthread_barrier_wait(j->barrier);
    pthread_barrier_wait(j->barrier); /* the main thread ran c2d_scene_bin_end */
    const size_t m = w->capsules.count, n = w->circles.count;
    const size_t k0 = m * j->index / THREADS, k1 = m * (j->index + 1) / THREADS;
    j->collide_status = c2d_scene_collide_range(j->scene, &w->circles, k0, k1 - k0, j->contacts,
                                                CAPACITY, &j->count);
    const size_t c0 = n * j->index / THREADS, c1 = n * (j->index + 1) / THREADS;
    j->sweep_status = c2d_scene_sweep_range(j->scene, &w->circles, w->move_x, w->move_y, c0,
                                            c1 - c0, j->tois + c0);
    return NULL;
}

static void run_frame(c2d_scene *scene, const c2d_workload *w) {
    const size_t n = w->circles.count;
    c2d_pair_contact *ref = malloc(CAPACITY * sizeof *ref);
    c2d_circle_toi *ref_toi = malloc((n + 1) * sizeof *ref_toi);
    c2d_circle_toi *tois = malloc((n + 1) * sizeof *tois);
    size_t total = 0;
    CHECK(c2d_scene_collide(scene, &w->circles, ref, CAPACITY, &total) == C2D_OK);
    CHECK(c2d_scene_sweep(scene, &w->circles, w->move_x, w->move_y, ref_toi) == C2D_OK);
    /* a second sweep of these capsules builds the sweep index, read below on every thread */
    CHECK(c2d_scene_sweep(scene, &w->circles, w->move_x, w->move_y, tois) == C2D_OK);
    CHECK(memcmp(ref_toi, tois, n * sizeof *tois) == 0);
    memset(tois, 0xA5, (n + 1) * sizeof *tois);

    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, THREADS + 1);
    job jobs[THREADS];
    pthread_t tid[THREADS];
    CHECK(c2d_scene_bin_begin(scene, &w->circles, THREADS) == C2D_OK);
    for (size_t t = 0; t < THREADS; t++) {
        jobs[t] = (job){scene, w, t, &barrier, C2D_OK, C2D_OK, C2D_OK, NULL, 0, tois};
        jobs[t].contacts = malloc(CAPACITY * sizeof(c2d_pair_contact));
        pthread_create(&tid[t], NULL, worker, &jobs[t]);
    }
    pthread_barrier_wait(&barrier);
    CHECK(c2d_scene_bin_end(scene) == C2D_OK);
    pthread_barrier_wait(&barrier);
    size_t done = 0;
    for (size_t t = 0; t < THREADS; t++) {
        pthread_join(tid[t], NULL);
        CHECK(jobs[t].bin_status == C2D_OK);
        CHECK(jobs[t].collide_status == C2D_OK);
        CHECK(jobs[t].sweep_status == C2D_OK);
        CHECK(done + jobs[t].count <= total);
        if (done + jobs[t].count <= total)
            CHECK(memcmp(ref + done, jobs[t].contacts, jobs[t].count * sizeof *ref) == 0);
        done += jobs[t].count;
        free(jobs[t].contacts);
    }
    CHECK(done == total);
    CHECK(memcmp(ref_toi, tois, n * sizeof *tois) == 0);
    pthread_barrier_destroy(&barrier);
    free(ref);
    free(ref_toi);
    free(tois);
}

int main(void) {
    for (int v = 0; v < C2D_W5_VARIANTS; v++) {
        c2d_workload w;
        if (c2d_workload_w5(&w, 6000, 400, (c2d_w5_variant)v, 40 + (uint64_t)v) != 0) return 2;
        /* filters on every other workload: three layers, a sensor in seven capsules */
        const size_t n = w.circles.count, m = w.capsules.count;
        uint32_t *words = malloc((n + m) * sizeof *words);
        uint8_t *sensor = malloc(m);
        for (size_t i = 0; i < n + m; i++)
            words[i] = (1u << (i % 3)) | (i % 4 == 0 ? 6u : 0u);
        for (size_t k = 0; k < m; k++)
            sensor[k] = k % 7 == 0;
        if (v % 2) {
            w.circles.category = w.circles.mask = words;
            w.capsules.category = w.capsules.mask = words + n;
            w.capsules.sensor = sensor;
        }
        c2d_scene *scene;
        CHECK(c2d_scene_create(&w.capsules, NULL, &scene) == C2D_OK);
        for (int frame = 0; frame < 3; frame++) {
            run_frame(scene, &w);
            for (size_t i = 0; i < w.circles.count; i++)
                w.y[i] -= 0.5f;
            /* a flipper turns between frames: the last frame is stale, the next one agrees */
            w.bx[5] += 0.5f;
            const c2d_capsule_soa flipper = {
                w.ax + 5, w.ay + 5, w.bx + 5, w.by + 5, w.capsule_radius + 5, 1, NULL, NULL, NULL};
            CHECK(c2d_scene_move_capsules(scene, 5, &flipper) == C2D_OK);
            size_t stale = 1;
            CHECK(c2d_scene_collide_range(scene, &w.circles, 0, w.capsules.count, NULL, 0,
                                          &stale) == C2D_ERROR_STATE);
        }
        c2d_scene_destroy(scene);
        c2d_workload_free(&w);
        free(words);
        free(sensor);
    }
    if (failures) fprintf(stderr, "%d checks failed\n", failures);
    return failures ? 1 : 0;
}
