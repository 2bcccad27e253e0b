/* W5 and W6 on Box2D 2.4.1 (bench/peer_box2d.cc), beside the Chipmunk2D peers, on the same balls
 * and pins:
 *
 *   W5_box2d/VARIANT/N (as W5_chipmunk_bbtree/VARIANT/N; N = 1048576 for uniform only),
 *   W6_pile/box2d/N, W6_gas/box2d/N
 *
 * The timed frame is Box2D's contact finding alone: every ball set again at its position, then a
 * b2World::Step of time 0 (broad phase, narrow phase, no solver). Counters: "hits" and
 * "contacts" are the touching contacts, "c2d_contacts" the scene's count on the same frame,
 * "pairs" Box2D's contacts touching or not (its fattened boxes overlap); "collide_ms",
 * "broadphase_ms", "find_ms" (their sum) and "step_ms" are b2Profile's wall times for a real
 * step (1/60 s, 0 iterations), the median of 5 after the timed frames. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#ifdef C2D_BENCH_BOX2D
#include "peer_box2d.h"

enum { PROFILE_STEPS = 5, W6_SIZES = 2 };

/* One benchmark: a W5 variant (w6 false) or a W6 one. */
typedef struct box2d_case {
    bool w6;
    int variant;
} box2d_case;

/* c2d's contacts on the same frame (the scene; all-pairs gives the same). */
static size_t c2d_contacts(const c2d_workload *w, bool pins) {
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *scene = NULL;
    size_t count = 0;
    if (c2d_scene_create(pins ? &w->capsules : &none, NULL, &scene) != C2D_OK) return 0;
    if (pins)
        c2d_scene_collide(scene, &w->circles, NULL, 0, &count);
    else
        c2d_scene_collide_circles(scene, &w->circles, NULL, 0, &count);
    c2d_scene_destroy(scene);
    return count;
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
    qsort(v, n, sizeof *v, by_value);
    return v[n / 2];
}

/* Every world built, kept to the end: Google Benchmark calls a body once per repetition and more
 * (scripts/bench interleaves the repetitions of all benchmarks), and a world of 10^6 balls takes
 * Box2D 90 s to build. All of them hold about 2 GB. */
enum { MAX_WORLDS = 4 * C2D_W5_VARIANTS + W6_SIZES * C2D_W6_VARIANTS };
static struct {
    const c2d_workload *w;
    peer_box2d *p;
    size_t c2d;
} worlds[MAX_WORLDS];

static peer_box2d *world_for(const c2d_workload *w, bool pins, size_t *c2d) {
    size_t k = 0;
    while (k < MAX_WORLDS && worlds[k].w && worlds[k].w != w)
        k++;
    if (k == MAX_WORLDS) return NULL;
    if (!worlds[k].w) {
        worlds[k].p = peer_box2d_create(&w->circles, pins ? &w->capsules : NULL);
        if (!worlds[k].p) return NULL;
        worlds[k].w = w;
        worlds[k].c2d = c2d_contacts(w, pins);
    }
    *c2d = worlds[k].c2d;
    return worlds[k].p;
}

static void bm_box2d(gb_state *st, const void *arg) {
    const box2d_case *c = arg;
    const size_t n = (size_t)gb_range(st, 0);
    const c2d_workload *w =
        c->w6 ? bench_w6((c2d_w6_variant)c->variant, n) : bench_w5((c2d_w5_variant)c->variant, n);
    size_t c2d = 0;
    peer_box2d *p = w ? world_for(w, !c->w6, &c2d) : NULL;
    if (!p) {
        gb_skip_with_error(st, "out of memory");
        return;
    }
    /* the contact list is the output: counting it is the reader's work, outside the frame */
    while (gb_keep_running(st)) {
        peer_box2d_frame(p);
        gb_clobber_memory();
    }
    const size_t contacts = peer_box2d_touching(p);
    double collide[PROFILE_STEPS], broadphase[PROFILE_STEPS], find[PROFILE_STEPS],
        step[PROFILE_STEPS];
    for (size_t s = 0; s < PROFILE_STEPS; s++) {
        const peer_box2d_profile prof = peer_box2d_step(p);
        collide[s] = prof.collide;
        broadphase[s] = prof.broadphase;
        find[s] = prof.collide + prof.broadphase;
        step[s] = prof.step;
    }
    gb_set_items_processed(st, gb_iterations(st) * (int64_t)n);
    gb_set_counter(st, "hits", (double)contacts, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "contacts", (double)contacts, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "c2d_contacts", (double)c2d, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "pairs", (double)peer_box2d_pairs(p), GB_COUNTER_DEFAULT);
    gb_set_counter(st, "collide_ms", median(collide, PROFILE_STEPS), GB_COUNTER_DEFAULT);
    gb_set_counter(st, "broadphase_ms", median(broadphase, PROFILE_STEPS), GB_COUNTER_DEFAULT);
    gb_set_counter(st, "find_ms", median(find, PROFILE_STEPS), GB_COUNTER_DEFAULT);
    gb_set_counter(st, "step_ms", median(step, PROFILE_STEPS), GB_COUNTER_DEFAULT);
}

static void add(const char *name, const box2d_case *c, int64_t n) {
    gb_benchmark *b = gb_unit(gb_register(name, bm_box2d, c), GB_MILLISECOND);
    gb_arg(gb_add_statistic(gb_add_statistic(b, GB_STAT_MIN), GB_STAT_MAX), n);
}

void bench_register_box2d(const bench_options *o) {
    (void)o;
    /* the sizes of the Chipmunk peers (peer_chipmunk.c, balls.c) */
    static const int64_t w5_sizes[] = {4096, 65536, 262144, 1048576};
    static const int64_t w6_sizes[W6_SIZES] = {65536, 262144};
    static box2d_case w5[C2D_W5_VARIANTS], w6[C2D_W6_VARIANTS];
    static char w5_names[C2D_W5_VARIANTS][48], w6_names[C2D_W6_VARIANTS][48];
    for (int v = 0; v < C2D_W5_VARIANTS; v++) {
        w5[v] = (box2d_case){false, v};
        snprintf(w5_names[v], sizeof w5_names[v], "W5_box2d/%s", c2d_w5_name((c2d_w5_variant)v));
    }
    for (int v = 0; v < C2D_W6_VARIANTS; v++) {
        w6[v] = (box2d_case){true, v};
        snprintf(w6_names[v], sizeof w6_names[v], "W6_%s/box2d", c2d_w6_name((c2d_w6_variant)v));
    }
    /* 1048576 for uniform only: building that world takes Box2D 90 s (its first broad phase
     * queries a 100 MB tree in the workload's random order), against 4 s at 262144 */
    for (size_t s = 0; s < sizeof w5_sizes / sizeof w5_sizes[0]; s++)
        for (int v = 0; v < C2D_W5_VARIANTS; v++)
            if (w5_sizes[s] < 1048576 || v == C2D_W5_UNIFORM) add(w5_names[v], &w5[v], w5_sizes[s]);
    for (int v = 0; v < C2D_W6_VARIANTS; v++)
        for (size_t s = 0; s < W6_SIZES; s++)
            add(w6_names[v], &w6[v], w6_sizes[s]);
}

#else

void bench_register_box2d(const bench_options *o) {
    (void)o; /* Box2D not built in (libbox2d-dev): no benchmark */
}

#endif
