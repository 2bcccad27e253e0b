/* W6 (balls against balls): pile and gas at 65,536 and 262,144 balls.
 *
 *   W6_pile/scene/N and W6_gas/scene/N: c2d_scene_collide_circles (the ball grid), best backend
 *   W6_pile_sweep/scene/N, W6_gas_sweep/scene/N: c2d_scene_sweep_circles
 *   W6_pile/chipmunk_bbtree/N, W6_pile/chipmunk_hash/N (and gas): Chipmunk2D's cpSpace,
 *       reindex and query (peer_balls.c)
 *   W6_pile_backend/BACKEND/262144, W6_pile_sweep_backend/BACKEND/262144: the scene calls on
 *       every backend (the SIMD gain of the grid's kernels)
 *   W6_pile_brute/BACKEND/16384: c2d_batch_collide_circles (all pairs) on every backend, and
 *       at 65536 on the best backend only (seconds a frame); W6_gas_brute/BEST/65536 too
 *
 * The counter "hits" is the number of contacts (pairs) in a frame: the scene and the brute
 * force agree (and so does "checksum": the same bytes); Chipmunk's count is beside it (its
 * circle test is not ours, so touching pairs may count differently). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "peer_balls.h"

/* One W6 benchmark: variant, and what runs it. */
typedef enum ball_runner {
    RUN_SCENE,
    RUN_SCENE_SWEEP,
    RUN_BRUTE,
    RUN_BBTREE,
    RUN_HASH
} ball_runner;

typedef struct ball_case {
    c2d_w6_variant variant;
    ball_runner runner;
    c2d_backend backend;
} ball_case;

const c2d_workload *bench_w6(c2d_w6_variant v, size_t n) {
    static c2d_workload sets[C2D_W6_VARIANTS][3];
    static size_t sizes[C2D_W6_VARIANTS][3];
    for (size_t k = 0; k < 3; k++) {
        if (sizes[v][k] == n) return &sets[v][k];
        if (sizes[v][k] == 0) {
            if (c2d_workload_w6(&sets[v][k], n, v, C2D_WORKLOAD_SEED) != 0) return NULL;
            sizes[v][k] = n;
            return &sets[v][k];
        }
    }
    return NULL;
}

static size_t scene_frame(c2d_scene *scene, const c2d_workload *w, c2d_circle_pair_contact *out,
                          size_t capacity) {
    size_t count = 0;
    c2d_scene_collide_circles(scene, &w->circles, out, capacity, &count);
    return count;
}

static void run_pairs(gb_state *st, const ball_case *c, const c2d_workload *w, size_t n) {
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *scene = NULL;
    if (c->runner == RUN_SCENE && c2d_scene_create(&none, NULL, &scene) != C2D_OK) {
        gb_skip_with_error(st, "c2d_scene_create failed");
        return;
    }
    size_t capacity = 0;
    if (c->runner == RUN_SCENE)
        capacity = scene_frame(scene, w, NULL, 0);
    else
        c2d_batch_collide_circles(&w->circles, NULL, 0, &capacity);
    c2d_circle_pair_contact *out = malloc((capacity ? capacity : 1) * sizeof *out);
    size_t count = 0;
    while (out && gb_keep_running(st)) {
        if (c->runner == RUN_SCENE)
            count = scene_frame(scene, w, out, capacity);
        else
            c2d_batch_collide_circles(&w->circles, out, capacity, &count);
        gb_do_not_optimize(out);
    }
    if (!out)
        gb_skip_with_error(st, "out of memory");
    else
        bench_report(st, (double)n, count, out, count * sizeof *out);
    free(out);
    c2d_scene_destroy(scene);
}

static void run_sweep(gb_state *st, const c2d_workload *w, size_t n) {
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *scene = NULL;
    c2d_circle_hit *out = malloc(n * sizeof *out);
    if (!out || c2d_scene_create(&none, NULL, &scene) != C2D_OK) {
        free(out);
        gb_skip_with_error(st, "out of memory");
        return;
    }
    while (gb_keep_running(st)) {
        c2d_scene_sweep_circles(scene, &w->circles, w->move_x, w->move_y, out);
        gb_do_not_optimize(out);
    }
    size_t hits = 0;
    for (size_t i = 0; i < n; i++)
        hits += out[i].other != C2D_NONE;
    bench_report(st, (double)n, hits, out, n * sizeof *out);
    free(out);
    c2d_scene_destroy(scene);
}

static void run_peer(gb_state *st, const ball_case *c, const c2d_workload *w, size_t n) {
    peer_balls *p = peer_balls_create(w, c->runner == RUN_HASH ? PEER_SPATIAL_HASH : PEER_BBTREE);
    if (!p) {
        gb_skip_with_error(st, "Chipmunk2D not built in (libchipmunk-dev)");
        return;
    }
    size_t count = peer_balls_frame(p); /* the first frame builds the tree */
    while (gb_keep_running(st)) {
        count = peer_balls_frame(p);
        gb_do_not_optimize(&count);
    }
    gb_set_items_processed(st, gb_iterations(st) * (int64_t)n);
    gb_set_counter(st, "hits", (double)count, GB_COUNTER_DEFAULT);
    peer_balls_destroy(p);
}

static void bm_w6(gb_state *st, const void *arg) {
    const ball_case *c = arg;
    const size_t n = (size_t)gb_range(st, 0);
    const c2d_workload *w = bench_w6(c->variant, n);
    if (!w) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    const bench_case select = {c->backend};
    if (c->runner != RUN_BBTREE && c->runner != RUN_HASH && !bench_select(st, &select)) return;
    if (c->runner == RUN_SCENE || c->runner == RUN_BRUTE)
        run_pairs(st, c, w, n);
    else if (c->runner == RUN_SCENE_SWEEP)
        run_sweep(st, w, n);
    else
        run_peer(st, c, w, n);
}

static gb_benchmark *add(const char *name, const ball_case *c, int64_t n) {
    gb_benchmark *b = gb_arg(gb_unit(gb_register(name, bm_w6, c), GB_MILLISECOND), n);
    gb_add_statistic(b, GB_STAT_MIN);
    return gb_add_statistic(b, GB_STAT_MAX);
}

void bench_register_balls(const bench_options *o) {
    (void)o;
    const bench_case *backends[C2D_BACKEND_COUNT];
    const size_t nb = bench_backends(backends);
    const c2d_backend best = backends[nb - 1]->backend;
    static ball_case cases[C2D_W6_VARIANTS][4];
    static ball_case brute[C2D_BACKEND_COUNT], per_backend[C2D_BACKEND_COUNT][2];
    static const char *const names[C2D_W6_VARIANTS][4] = {
        {"W6_pile/scene", "W6_pile_sweep/scene", "W6_pile/chipmunk_bbtree",
         "W6_pile/chipmunk_hash"},
        {"W6_gas/scene", "W6_gas_sweep/scene", "W6_gas/chipmunk_bbtree", "W6_gas/chipmunk_hash"},
    };
    static const ball_runner runners[4] = {RUN_SCENE, RUN_SCENE_SWEEP, RUN_BBTREE, RUN_HASH};
    for (int v = 0; v < C2D_W6_VARIANTS; v++)
        for (int r = 0; r < 4; r++) {
            cases[v][r] = (ball_case){(c2d_w6_variant)v, runners[r], best};
            add(names[v][r], &cases[v][r], 65536);
            add(names[v][r], &cases[v][r], 262144);
        }
    static char brute_names[C2D_BACKEND_COUNT][48], backend_names[C2D_BACKEND_COUNT][2][48];
    for (size_t k = 0; k < nb; k++) {
        for (int r = 0; r < 2; r++) {
            per_backend[k][r] = (ball_case){C2D_W6_PILE, runners[r], backends[k]->backend};
            snprintf(backend_names[k][r], sizeof backend_names[k][r], "%s/%s",
                     r ? "W6_pile_sweep_backend" : "W6_pile_backend",
                     c2d_backend_name(backends[k]->backend));
            add(backend_names[k][r], &per_backend[k][r], 262144);
        }
        brute[k] = (ball_case){C2D_W6_PILE, RUN_BRUTE, backends[k]->backend};
        snprintf(brute_names[k], sizeof brute_names[k], "W6_pile_brute/%s",
                 c2d_backend_name(backends[k]->backend));
        add(brute_names[k], &brute[k], 16384);
        if (backends[k]->backend == best) add(brute_names[k], &brute[k], 65536);
    }
    static ball_case gas_best;
    gas_best = (ball_case){C2D_W6_GAS, RUN_BRUTE, best};
    static char gas_name[48];
    snprintf(gas_name, sizeof gas_name, "W6_gas_brute/%s", c2d_backend_name(best));
    add(gas_name, &gas_best, 65536);
}
