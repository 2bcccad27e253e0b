/* Thread safety of the batch layer and of the backend probe.
 *
 * 1. First use: in fresh processes (this one, and children forked before any library call),
 *    several threads released together by a barrier all call c2d_backend_active() first; every
 *    thread of every process must get the same, available backend: the one COLLIDE2D_BACKEND
 *    names, or else the best available (what c2d_backend_select(C2D_BACKEND_AUTO) picks).
 * 2. Batch calls from several threads at once, each with its own output, equal the serial
 *    results byte for byte, while another thread keeps switching the active backend (every
 *    backend returns the same bytes, so the switches must not show).
 *
 * Built with -Db_sanitize=thread (clang) this is the ThreadSanitizer check of scripts/test
 * (suite "threads"). Plain C with an exit status (no cmocka), so that cross builds can link it
 * statically: qemu-aarch64 7.2 hangs in pthread_create of dynamically linked programs on the
 * build machines this was written on, while static ones run. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collide2d.h"
#include "hard_util.h"
#include "workload.h"

enum { PROBE_THREADS = 8, PROBE_PROCESSES = 12, WORKERS = 4, ROUNDS = 6 };

static int failed_checks;

/* Counts and reports a failed check (main thread only); the test goes on. */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failed_checks++;                                                                       \
        }                                                                                          \
    } while (0)

/* As CHECK, and leaves the calling function. */
#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);               \
            failed_checks++;                                                                       \
            return;                                                                                \
        }                                                                                          \
    } while (0)

/* ---- 1. the first-use probe -------------------------------------------------------------- */

typedef struct probe {
    pthread_barrier_t *start;
    c2d_backend seen;
} probe;

static void *probe_thread(void *arg) {
    probe *p = arg;
    pthread_barrier_wait(p->start);
    p->seen = c2d_backend_active();
    return NULL;
}

/* Races PROBE_THREADS first calls of c2d_backend_active(); returns the backend they all saw,
 * or -1 if they disagree. Must run before anything else in the process uses the library. */
static int probe_race(void) {
    pthread_barrier_t start;
    if (pthread_barrier_init(&start, NULL, PROBE_THREADS) != 0) return -2;
    probe probes[PROBE_THREADS];
    pthread_t threads[PROBE_THREADS];
    for (int i = 0; i < PROBE_THREADS; i++) {
        probes[i].start = &start;
        probes[i].seen = C2D_BACKEND_AUTO;
        if (pthread_create(&threads[i], NULL, probe_thread, &probes[i]) != 0) return -2;
    }
    int seen = -3;
    for (int i = 0; i < PROBE_THREADS; i++) {
        pthread_join(threads[i], NULL);
        if (i == 0)
            seen = (int)probes[0].seen;
        else if ((int)probes[i].seen != seen)
            seen = -1;
    }
    pthread_barrier_destroy(&start);
    return seen;
}

/* The backend the probe should choose, found without touching the library's choice: the one
 * COLLIDE2D_BACKEND names, if available; else -1 (meaning: the AUTO choice). */
static int expected_from_environment(void) {
    const char *name = getenv("COLLIDE2D_BACKEND");
    if (!name) return -1;
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++)
        if (strcmp(name, c2d_backend_name((c2d_backend)b)) == 0 &&
            c2d_backend_available((c2d_backend)b))
            return b;
    return -1;
}

static void test_first_use_probe(void) {
    /* fresh processes first: this one has not used the library yet (this test runs first,
     * and c2d_backend_available/name do not probe the choice) */
#if defined(__EMSCRIPTEN__)
    const int forked = 0; /* WebAssembly has no processes: the race in threads only */
#else
    const int forked = PROBE_PROCESSES;
#endif
    pid_t children[PROBE_PROCESSES];
    for (int i = 0; i < forked; i++) {
        children[i] = fork();
        REQUIRE(children[i] >= 0);
        if (children[i] == 0) {
            const int seen = probe_race();
            _exit(seen >= 0 ? 10 + seen : 1);
        }
    }
    const int seen = probe_race();
    printf("first use in %d threads: %s\n", PROBE_THREADS,
           seen >= 0 ? c2d_backend_name((c2d_backend)seen) : "DISAGREE");
    CHECK(seen > C2D_BACKEND_AUTO && seen < C2D_BACKEND_COUNT);
    CHECK(seen >= 0 && c2d_backend_available((c2d_backend)seen));
    for (int i = 0; i < forked; i++) {
        int status = 0;
        CHECK(waitpid(children[i], &status, 0) == children[i]);
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 10 + seen); /* same backend in every process */
    }
    const int env = expected_from_environment();
    if (env >= 0) {
        CHECK(seen == env);
    } else {
        CHECK(c2d_backend_select(C2D_BACKEND_AUTO) == C2D_OK);
        CHECK((int)c2d_backend_active() == seen);
    }
}

/* ---- 2. concurrent batch calls ----------------------------------------------------------- */

typedef struct serial {
    c2d_workload w;
    uint32_t *ci, *ki;
    size_t n_pairs;
    c2d_pair_contact *collide, *pairs;
    size_t n_collide, n_pairs_hit;
    c2d_circle_toi *sweep;
} serial;

enum { N_CIRCLES = 1024 + 13, N_CAPSULES = 64 + 3, N_PAIRS = 20000, CAPACITY = 4096 };

static atomic_int stop_switching;

typedef struct worker {
    const serial *s;
    int id;
    int failures; /* counted here, checked by the main thread */
} worker;

static bool same_pairs(const c2d_pair_contact *a, const c2d_pair_contact *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!hard_same_pair(&a[i], &b[i])) return false;
    return true;
}

static void *work(void *arg) {
    worker *w = arg;
    const serial *s = w->s;
    c2d_pair_contact *out = malloc(CAPACITY * sizeof *out);
    c2d_circle_toi *toi = malloc(N_CIRCLES * sizeof *toi);
    if (!out || !toi) {
        w->failures++;
        free(out);
        free(toi);
        return NULL;
    }
    for (int round = 0; round < ROUNDS; round++) {
        size_t count = 0;
        memset(out, 0, CAPACITY * sizeof *out);
        if (c2d_batch_collide(&s->w.circles, &s->w.capsules, out, CAPACITY, &count) != C2D_OK ||
            count != s->n_collide || !same_pairs(out, s->collide, count))
            w->failures++;
        memset(out, 0, CAPACITY * sizeof *out);
        if (c2d_batch_collide_pairs(&s->w.circles, &s->w.capsules, s->ci, s->ki, s->n_pairs, out,
                                    CAPACITY, &count) != C2D_OK ||
            count != s->n_pairs_hit || !same_pairs(out, s->pairs, count))
            w->failures++;
        memset(toi, 0, N_CIRCLES * sizeof *toi);
        if (c2d_batch_sweep(&s->w.circles, s->w.move_x, s->w.move_y, &s->w.capsules, toi) != C2D_OK)
            w->failures++;
        for (size_t i = 0; i < N_CIRCLES; i++)
            if (!hard_same_circle_toi(&toi[i], &s->sweep[i])) {
                w->failures++;
                break;
            }
        const c2d_backend active = c2d_backend_active();
        if (active == C2D_BACKEND_AUTO || !c2d_backend_available(active)) w->failures++;
    }
    free(out);
    free(toi);
    return NULL;
}

/* Keeps switching the active backend until told to stop. */
static void *switcher(void *arg) {
    int *switches = arg;
    c2d_backend backends[C2D_BACKEND_COUNT];
    const size_t n = hard_backends(backends);
    for (size_t i = 0; !atomic_load(&stop_switching); i++) {
        if (c2d_backend_select(backends[i % n]) == C2D_OK) ++*switches;
        sched_yield();
    }
    return NULL;
}

static void test_concurrent_batches(void) {
    serial s;
    memset(&s, 0, sizeof s);
    REQUIRE(c2d_workload_make(&s.w, N_CIRCLES, N_CAPSULES, C2D_WORKLOAD_SEED) == 0);
    /* a denser scene than W1, so that every call finds contacts: the circles are spread over
     * a 30 x 30 square instead of 100 x 100 */
    for (size_t i = 0; i < N_CIRCLES; i++)
        s.w.x[i] *= 0.3f, s.w.y[i] *= 0.3f;
    for (size_t k = 0; k < N_CAPSULES; k++)
        s.w.ax[k] *= 0.3f, s.w.ay[k] *= 0.3f, s.w.bx[k] *= 0.3f, s.w.by[k] *= 0.3f;
    s.n_pairs = N_PAIRS;
    REQUIRE(c2d_workload_pairs(&s.w, N_PAIRS, C2D_WORKLOAD_SEED + 1, &s.ci, &s.ki) == 0);
    s.collide = malloc(CAPACITY * sizeof *s.collide);
    s.pairs = malloc(CAPACITY * sizeof *s.pairs);
    s.sweep = malloc(N_CIRCLES * sizeof *s.sweep);
    REQUIRE(s.collide && s.pairs && s.sweep);

    /* the serial answers, on the scalar backend */
    REQUIRE(c2d_backend_select(C2D_BACKEND_SCALAR) == C2D_OK);
    REQUIRE(c2d_batch_collide(&s.w.circles, &s.w.capsules, s.collide, CAPACITY, &s.n_collide) ==
            C2D_OK);
    REQUIRE(c2d_batch_collide_pairs(&s.w.circles, &s.w.capsules, s.ci, s.ki, s.n_pairs, s.pairs,
                                    CAPACITY, &s.n_pairs_hit) == C2D_OK);
    REQUIRE(c2d_batch_sweep(&s.w.circles, s.w.move_x, s.w.move_y, &s.w.capsules, s.sweep) ==
            C2D_OK);
    size_t swept = 0;
    for (size_t i = 0; i < N_CIRCLES; i++)
        swept += s.sweep[i].capsule != C2D_NONE;
    printf("serial: %zu contacts, %zu pair contacts, %zu sweep hits\n", s.n_collide, s.n_pairs_hit,
           swept);
    CHECK(s.n_collide > 10 && s.n_pairs_hit > 0 && swept > 10);

    /* every backend in turn with WORKERS threads, then all backends at once under a switcher */
    c2d_backend backends[C2D_BACKEND_COUNT];
    const size_t nb = hard_backends(backends);
    for (size_t b = 0; b <= nb; b++) {
        const bool switching = b == nb;
        if (!switching) CHECK(c2d_backend_select(backends[b]) == C2D_OK);
        worker workers[WORKERS];
        pthread_t threads[WORKERS], switch_thread;
        int switches = 0;
        atomic_store(&stop_switching, 0);
        if (switching) REQUIRE(pthread_create(&switch_thread, NULL, switcher, &switches) == 0);
        for (int i = 0; i < WORKERS; i++) {
            workers[i] = (worker){&s, i, 0};
            REQUIRE(pthread_create(&threads[i], NULL, work, &workers[i]) == 0);
        }
        int failures = 0;
        for (int i = 0; i < WORKERS; i++) {
            pthread_join(threads[i], NULL);
            failures += workers[i].failures;
        }
        if (switching) {
            atomic_store(&stop_switching, 1);
            pthread_join(switch_thread, NULL);
            printf("all backends under %d switches: %d failures\n", switches, failures);
        } else {
            printf("%s: %d threads x %d rounds: %d failures\n", c2d_backend_name(backends[b]),
                   WORKERS, ROUNDS, failures);
        }
        CHECK(failures == 0);
    }
    CHECK(c2d_backend_select(C2D_BACKEND_AUTO) == C2D_OK);
    free(s.collide);
    free(s.pairs);
    free(s.sweep);
    free(s.ci);
    free(s.ki);
    c2d_workload_free(&s.w);
}

int main(void) {
    /* the probe first: it needs the library's choice still unmade */
    test_first_use_probe();
    fflush(stdout); /* before the children of the next fork inherit the buffer */
    test_concurrent_batches();
    printf("%s\n", failed_checks ? "FAILED" : "passed");
    return failed_checks ? 1 : 0;
}
