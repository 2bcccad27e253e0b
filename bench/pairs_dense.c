/* W2d: c2d_batch_collide_pairs over 1,048,576 listed pairs of which about 60% overlap (each
 * circle placed near its capsule, test/support/workload.h), indices in order (as a broad phase
 * emits them) and shuffled, on every backend; the same pairs as a plain loop over
 * c2d_collide_circle_capsule(), and, when the build found Chipmunk2D (Debian's
 * libchipmunk-dev), through Chipmunk's per-pair collide, cpShapesCollide() of a circle shape and
 * a segment shape with a radius (a capsule). Chipmunk's contacts are its own (its own formulas,
 * strict overlap), so its "hits" may differ by a few and its checksum is not comparable. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#if defined(C2D_BENCH_CHIPMUNK)
#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_unsafe.h>
#endif

/* The W2d pairs, built on first use and kept: the workload and both orders. */
typedef struct dense_data {
    c2d_workload w;
    uint32_t *ci, *ki;   /* in order */
    uint32_t *sci, *ski; /* shuffled */
} dense_data;

static const dense_data *dense_pairs(void) {
    static dense_data d;
    static int state; /* 0: not built, 1: built, -1: out of memory */
    if (state == 0) {
        state = -1;
        if (c2d_workload_dense_pairs(&d.w, BENCH_W2_PAIRS, C2D_WORKLOAD_SEED, &d.ci, &d.ki) != 0)
            return NULL;
        d.sci = malloc(BENCH_W2_PAIRS * sizeof *d.sci);
        d.ski = malloc(BENCH_W2_PAIRS * sizeof *d.ski);
        if (!d.sci || !d.ski) return NULL;
        for (size_t p = 0; p < BENCH_W2_PAIRS; p++) {
            d.sci[p] = d.ci[p];
            d.ski[p] = d.ki[p];
        }
        c2d_pairs_shuffle(d.sci, d.ski, BENCH_W2_PAIRS, C2D_WORKLOAD_SEED);
        state = 1;
    }
    return state == 1 ? &d : NULL;
}

enum dense_peer { PEER_BATCH, PEER_LOOP, PEER_CHIPMUNK };

/* One benchmark: which implementation, on which order of the pairs. */
typedef struct dense_case {
    bench_case c;
    enum dense_peer peer;
    bool shuffled;
} dense_case;

#if defined(C2D_BENCH_CHIPMUNK)
/* Chipmunk's shapes for the pairs: one static segment shape per capsule, and one circle shape
 * on its own body that each pair moves to its circle (radius and position) with
 * cpShapeUpdate(), as a user who keeps plain arrays would. */
typedef struct chipmunk_set {
    cpBody *body, *ball_body;
    cpShape **segments, *ball;
    size_t m;
} chipmunk_set;

static const chipmunk_set *chipmunk_shapes(const c2d_workload *w) {
    static chipmunk_set s;
    if (s.segments) return &s;
    s.m = w->capsules.count;
    s.segments = malloc(s.m * sizeof *s.segments);
    if (!s.segments) return NULL;
    s.body = cpBodyNewStatic();
    s.ball_body = cpBodyNewKinematic();
    for (size_t k = 0; k < s.m; k++) {
        s.segments[k] = cpSegmentShapeNew(s.body, cpv(w->ax[k], w->ay[k]), cpv(w->bx[k], w->by[k]),
                                          w->capsule_radius[k]);
        cpShapeUpdate(s.segments[k], cpTransformIdentity);
    }
    s.ball = cpCircleShapeNew(s.ball_body, 1.0, cpvzero);
    return &s;
}

/* Chipmunk's contact, stored in our layout (normal toward the circle, point on the capsule). */
static size_t chipmunk_frame(const c2d_workload *w, const uint32_t *ci, const uint32_t *ki,
                             c2d_pair_contact *out, size_t capacity) {
    const chipmunk_set *s = chipmunk_shapes(w);
    if (!s) return 0;
    size_t total = 0;
    for (size_t p = 0; p < BENCH_W2_PAIRS; p++) {
        const uint32_t i = ci[p], k = ki[p];
        cpCircleShapeSetRadius(s->ball, w->radius[i]);
        cpShapeUpdate(s->ball, cpTransformTranslate(cpv(w->x[i], w->y[i])));
        const cpContactPointSet set = cpShapesCollide(s->ball, s->segments[k]);
        if (set.count > 0) {
            if (total < capacity) {
                /* Chipmunk's normal points from the first shape to the second */
                const c2d_contact contact = {
                    {(float)-set.normal.x, (float)-set.normal.y},
                    (float)-set.points[0].distance,
                    {(float)set.points[0].pointB.x, (float)set.points[0].pointB.y}};
                out[total] = (c2d_pair_contact){i, k, contact};
            }
            total++;
        }
    }
    return total;
}
#endif

static size_t dense_frame(const dense_case *c, const c2d_workload *w, const uint32_t *ci,
                          const uint32_t *ki, c2d_pair_contact *out, size_t capacity,
                          c2d_status *status) {
    size_t count = 0;
    *status = C2D_OK;
    switch (c->peer) {
    case PEER_LOOP:
        count = bench_pairs_loop(w, ci, ki, out, capacity);
        break;
#if defined(C2D_BENCH_CHIPMUNK)
    case PEER_CHIPMUNK:
        count = chipmunk_frame(w, ci, ki, out, capacity);
        break;
#endif
    default:
        *status = c2d_batch_collide_pairs(&w->circles, &w->capsules, ci, ki, BENCH_W2_PAIRS, out,
                                          capacity, &count);
        return count;
    }
    if (count > capacity) *status = C2D_ERROR_TRUNCATED;
    return count;
}

static void bm_w2d(gb_state *st, const void *arg) {
    const dense_case *c = arg;
    const dense_data *d = dense_pairs();
    if (!d) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    if (!bench_select(st, &c->c)) return;
    const uint32_t *ci = c->shuffled ? d->sci : d->ci, *ki = c->shuffled ? d->ski : d->ki;
    c2d_status status;
    const size_t capacity = dense_frame(c, &d->w, ci, ki, NULL, 0, &status);
    c2d_pair_contact *out = malloc((capacity ? capacity : 1) * sizeof *out);
    if (!out) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    size_t count = dense_frame(c, &d->w, ci, ki, out, capacity, &status);
    if (status != C2D_OK || count != capacity) {
        gb_skip_with_error(st, "collide_pairs failed");
        free(out);
        return;
    }
    while (gb_keep_running(st)) {
        count = dense_frame(c, &d->w, ci, ki, out, capacity, &status);
        gb_do_not_optimize(&count);
        gb_do_not_optimize(out);
    }
    bench_report(st, (double)BENCH_W2_PAIRS, count, out, count * sizeof *out);
    free(out);
}

static void register_case(const char *workload, const char *backend, const dense_case *c) {
    char name[96];
    snprintf(name, sizeof name, "%s/%s", workload, backend);
    gb_benchmark *b = gb_unit(gb_register(name, bm_w2d, c), GB_MICROSECOND);
    gb_add_statistic(b, GB_STAT_MIN);
    gb_add_statistic(b, GB_STAT_MAX);
}

void bench_register_pairs_dense(const bench_options *o) {
    (void)o;
    static dense_case cases[2][C2D_BACKEND_COUNT + 2];
    const bench_case *backends[C2D_BACKEND_COUNT];
    const size_t n = bench_backends(backends);
    for (int order = 0; order < 2; order++) {
        const char *workload = order ? "W2d_shuffled" : "W2d_ordered";
        dense_case *row = cases[order];
        size_t used = 0;
        row[used] = (dense_case){bench_scalar_loop, PEER_LOOP, order != 0};
        register_case(workload, "scalar_loop", &row[used++]);
        for (size_t i = 0; i < n; i++) {
            row[used] = (dense_case){*backends[i], PEER_BATCH, order != 0};
            register_case(workload, bench_case_name(backends[i]), &row[used++]);
        }
#if defined(C2D_BENCH_CHIPMUNK)
        row[used] = (dense_case){bench_scalar_loop, PEER_CHIPMUNK, order != 0};
        register_case(workload, "chipmunk", &row[used++]);
#endif
    }
}
