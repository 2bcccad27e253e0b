/* Ray casts on the W5 board (65,536 balls, 4,096 pins, uniform): 65,536 rays from the balls'
 * centres in seeded random directions, LENGTH long (20: an aiming line, a twentieth of the
 * 400-wide board; 400: across the board), against the pins.
 *
 * Names: W5_rays_scene/BACKEND/LENGTH (c2d_scene_ray_cast), W5_rays_batch/BACKEND/LENGTH
 * (c2d_batch_ray_cast: every ray against every pin, the sweep kernel; length 400 only on the
 * widest backend), and, with Chipmunk2D,
 * W5_rays_chipmunk/LENGTH: cpSpaceSegmentQueryFirst on the same segments in a cpSpace holding
 * the pins as static segment shapes with their radius (bench/peer_chipmunk.c's shapes), its
 * static bounding-box tree. Counters: "hits" (rays that hit), "checksum" (equal on every
 * backend), and for Chipmunk "agree" (rays where both hit the same pin with |t - alpha| <=
 * 1e-4, or both miss) and "t_diff" (the largest |t - alpha| over rays hitting the same pin). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

enum { RAYS = 65536 };

/* bench_register() hands the benchmark its bench_case: it is the first member. */
typedef struct ray_case {
    bench_case backend;
    bool scene;
} ray_case;

typedef struct ray_set {
    float *x, *y, *dx, *dy;
    c2d_ray_soa rays;
} ray_set;

/* The rays of length `length` (built on first use and kept; two lengths). */
static const ray_set *bench_rays(const c2d_workload *w, int length) {
    static ray_set sets[2];
    static int lengths[2];
    for (int k = 0; k < 2; k++) {
        ray_set *s = &sets[k];
        if (s->x && lengths[k] == length) return s;
        if (s->x) continue;
        s->x = malloc(RAYS * sizeof(float));
        s->y = malloc(RAYS * sizeof(float));
        s->dx = malloc(RAYS * sizeof(float));
        s->dy = malloc(RAYS * sizeof(float));
        if (!s->x || !s->y || !s->dx || !s->dy) return NULL;
        c2d_rng rng = {C2D_WORKLOAD_SEED ^ 0x7a75u};
        for (size_t i = 0; i < RAYS; i++) {
            const c2d_vec2 d = c2d_rng_direction(&rng);
            s->x[i] = w->circles.x[i % w->circles.count];
            s->y[i] = w->circles.y[i % w->circles.count];
            s->dx[i] = d.x * (float)length;
            s->dy[i] = d.y * (float)length;
        }
        s->rays = (c2d_ray_soa){s->x, s->y, s->dx, s->dy, RAYS, NULL, NULL};
        lengths[k] = length;
        return s;
    }
    return NULL;
}

static size_t count_hits(const c2d_ray_hit *out) {
    size_t hits = 0;
    for (size_t i = 0; i < RAYS; i++)
        hits += out[i].kind != C2D_SHAPE_NONE;
    return hits;
}

static void bm_rays(gb_state *st, const void *arg) {
    const ray_case *c = arg;
    const c2d_workload *w = bench_w5(C2D_W5_UNIFORM, RAYS);
    const ray_set *r = w ? bench_rays(w, (int)gb_range(st, 0)) : NULL;
    if (!r || !bench_select(st, &c->backend)) {
        if (!r) gb_skip_with_error(st, "setup failed");
        return;
    }
    c2d_ray_hit *out = malloc(RAYS * sizeof *out);
    c2d_scene *scene = NULL;
    if (!out || c2d_scene_create(&w->capsules, NULL, &scene) != C2D_OK) {
        gb_skip_with_error(st, "setup failed");
        free(out);
        return;
    }
    while (gb_keep_running(st)) {
        if (c->scene)
            c2d_scene_ray_cast(scene, &r->rays, NULL, out);
        else
            c2d_batch_ray_cast(&r->rays, &w->capsules, NULL, out);
        gb_do_not_optimize(out);
    }
    bench_report(st, (double)RAYS, count_hits(out), out, RAYS * sizeof *out);
    c2d_scene_destroy(scene);
    free(out);
}

#ifdef C2D_BENCH_CHIPMUNK
#include <chipmunk/chipmunk.h>

static void bm_chipmunk_rays(gb_state *st, const void *arg) {
    (void)arg;
    const c2d_workload *w = bench_w5(C2D_W5_UNIFORM, RAYS);
    const ray_set *r = w ? bench_rays(w, (int)gb_range(st, 0)) : NULL;
    c2d_ray_hit *ours = malloc(RAYS * sizeof *ours);
    cpSegmentQueryInfo *info = malloc(RAYS * sizeof *info);
    cpShape **pins = w ? calloc(w->capsules.count, sizeof *pins) : NULL;
    cpSpace *space = cpSpaceNew();
    if (!r || !ours || !info || !pins || !space) {
        gb_skip_with_error(st, "setup failed");
        free(ours), free(info), free(pins);
        if (space) cpSpaceFree(space);
        return;
    }
    cpBody *body = cpSpaceGetStaticBody(space);
    for (size_t k = 0; k < w->capsules.count; k++) {
        pins[k] = cpSpaceAddShape(space,
                                  cpSegmentShapeNew(body, cpv(w->ax[k], w->ay[k]),
                                                    cpv(w->bx[k], w->by[k]), w->capsule_radius[k]));
        cpShapeSetUserData(pins[k], (cpDataPointer)(uintptr_t)k);
    }
    cpSpaceReindexStatic(space);
    size_t hits = 0;
    while (gb_keep_running(st)) {
        hits = 0;
        for (size_t i = 0; i < RAYS; i++) {
            const cpVect a = cpv(r->x[i], r->y[i]);
            const cpVect b = cpv((double)r->x[i] + r->dx[i], (double)r->y[i] + r->dy[i]);
            hits +=
                cpSpaceSegmentQueryFirst(space, a, b, 0.0, CP_SHAPE_FILTER_ALL, &info[i]) != NULL;
        }
        gb_do_not_optimize(info);
    }
    /* agreement with c2d_scene_ray_cast on the same rays: both miss, or both hit the same pin
     * at times within 1e-4; else only Chipmunk hits, only we do, another pin, another time */
    c2d_scene *scene;
    size_t agree = 0, only_cp = 0, only_c2d = 0, other_pin = 0, other_t = 0, inside = 0;
    size_t differ_outside = 0; /* disagreements of rays starting outside every pin */
    double t_diff = 0.0;
    unsigned char *in_pin = calloc(RAYS, 1);
    c2d_query_pair *pairs = malloc(4 * RAYS * sizeof *pairs);
    if (in_pin && pairs && c2d_scene_create(&w->capsules, NULL, &scene) == C2D_OK) {
        c2d_scene_ray_cast(scene, &r->rays, NULL, ours);
        /* the rays starting inside (or on) a pin: point picking on the origins */
        const c2d_point_soa origins = {r->x, r->y, RAYS, NULL, NULL};
        size_t n_pairs = 0;
        c2d_scene_query_point(scene, &origins, pairs, 4 * RAYS, &n_pairs);
        for (size_t j = 0; j < n_pairs && j < 4 * RAYS; j++)
            in_pin[pairs[j].query] = 1;
        c2d_scene_destroy(scene);
        for (size_t i = 0; i < RAYS; i++) {
            inside += in_pin[i];
            const size_t before = agree;
            const bool cp_hit = info[i].shape != NULL;
            const bool hit = ours[i].kind != C2D_SHAPE_NONE;
            if (!cp_hit || !hit) {
                agree += cp_hit == hit;
                differ_outside += cp_hit != hit && !in_pin[i];
                only_cp += cp_hit && !hit;
                only_c2d += hit && !cp_hit;
                continue;
            }
            const uint32_t k = (uint32_t)(uintptr_t)cpShapeGetUserData(info[i].shape);
            if (k != ours[i].shape) {
                other_pin++;
                differ_outside += !in_pin[i];
                continue;
            }
            const double d = fabs(info[i].alpha - ours[i].toi.t);
            t_diff = d > t_diff ? d : t_diff;
            agree += d <= 1e-4;
            other_t += d > 1e-4;
            differ_outside += agree == before && !in_pin[i];
        }
    }
    free(in_pin);
    free(pairs);
    gb_set_items_processed(st, gb_iterations(st) * (int64_t)RAYS);
    gb_set_counter(st, "hits", (double)hits, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "agree", (double)agree, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "t_diff", t_diff, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "only_cp", (double)only_cp, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "only_c2d", (double)only_c2d, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "other_pin", (double)other_pin, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "other_t", (double)other_t, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "inside", (double)inside, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "differ_outside", (double)differ_outside, GB_COUNTER_DEFAULT);
    for (size_t k = 0; k < w->capsules.count; k++) {
        cpSpaceRemoveShape(space, pins[k]);
        cpShapeFree(pins[k]);
    }
    cpSpaceFree(space);
    free(ours), free(info), free(pins);
}
#endif

void bench_register_rays(const bench_options *o) {
    (void)o;
    static const int64_t lengths[] = {20, 400};
    static ray_case cases[2][C2D_BACKEND_COUNT];
    const bench_case *list[C2D_BACKEND_COUNT + 2];
    const size_t nb = bench_backends(list);
    for (size_t l = 0; l < 2; l++)
        for (int scene = 1; scene >= 0; scene--)
            for (size_t b = 0; b < nb && b < C2D_BACKEND_COUNT; b++) {
                /* every ray against every pin across the board: about a second a call, and
                 * scalar several; only the widest backend */
                if (!scene && l == 1 && b + 1 < nb) continue;
                ray_case *c = &cases[scene][b];
                c->backend = *list[b];
                c->scene = scene;
                gb_arg(
                    bench_register(scene ? "W5_rays_scene" : "W5_rays_batch", bm_rays, &c->backend),
                    lengths[l]);
            }
#ifdef C2D_BENCH_CHIPMUNK
    for (size_t l = 0; l < 2; l++) {
        gb_benchmark *b =
            gb_unit(gb_register("W5_rays_chipmunk", bm_chipmunk_rays, NULL), GB_MICROSECOND);
        gb_arg(gb_add_statistic(gb_add_statistic(b, GB_STAT_MIN), GB_STAT_MAX), lengths[l]);
    }
#endif
}
