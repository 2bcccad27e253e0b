/* W8 (frozen balls): a continuous pile of 262,144 balls in a box (floor and two walls, no
 * walls between), with 0%, 1%, 10% or 100% of them awake; the rest frozen into the scene.
 *
 *   W8_frame/PCT: one frame = compact the awake balls (positions through their id list),
 *       c2d_scene_collide (awake balls against the box), c2d_scene_collide_circles
 *       (awake vs awake) and c2d_scene_collide_frozen_circles (awake vs frozen). PCT 100 is
 *       the all-awake frame (nothing frozen), the reference of the ratios.
 *   W8_churn/1: thawing 1% of the balls and freezing them again (c2d_scene_thaw_circles then
 *       c2d_scene_freeze_circles), one iteration per frame.
 *   W8_box2d/PCT (when Box2D 2.4.1 is built in): the same pile as a b2World, the frozen balls
 *       asleep, one iteration = one b2World::Step (1/60 s, 8 and 3 iterations) after a first,
 *       untimed step that creates the pairs ("first_step_ms", its b2Profile time, wall);
 *       "awake_first" and "awake" count the bodies awake after the first step and after the
 *       run: Box2D wakes the sleeping bodies that touch its awake islands, step by step.
 *
 * The pile is hexagonal, spacing 1, radii in [0.49, 0.51] (about three contacts a ball). A
 * stream falling onto the pile wakes the balls around its impact point: the awake balls are
 * the ones nearest the middle of the pile's top (a crater), in increasing id order. Counters:
 * "contacts" (box + ball-ball pairs a frame) and "awake". Best backend only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#ifdef C2D_BENCH_BOX2D
#include "peer_box2d_w8.h"
#endif

enum { W8_PER_ROW = 512, W8_ROWS = 512, W8_N = W8_PER_ROW * W8_ROWS, W8_FRACTIONS = 4 };
static const unsigned w8_percent[W8_FRACTIONS] = {0, 1, 10, 100};

typedef struct w8_pile {
    float *x, *y, *r;
    uint32_t *by_distance; /* ids, nearest the impact point first */
    c2d_capsule_soa box;
    float bx0[3], by0[3], bx1[3], by1[3], br[3];
} w8_pile;

static float *g_dist;

static int by_dist(const void *pa, const void *pb) {
    const float a = g_dist[*(const uint32_t *)pa], b = g_dist[*(const uint32_t *)pb];
    if (a != b) return a < b ? -1 : 1;
    return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

static int by_id(const void *pa, const void *pb) {
    const uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : (a > b);
}

static const w8_pile *w8_pile_get(void) {
    static w8_pile p;
    static bool built;
    if (built) return p.x ? &p : NULL;
    built = true;
    p.x = malloc(W8_N * sizeof(float));
    p.y = malloc(W8_N * sizeof(float));
    p.r = malloc(W8_N * sizeof(float));
    p.by_distance = malloc(W8_N * sizeof(uint32_t));
    g_dist = malloc(W8_N * sizeof(float));
    if (!p.x || !p.y || !p.r || !p.by_distance || !g_dist) {
        free(p.x);
        p.x = NULL;
        return NULL;
    }
    c2d_rng rng = {C2D_WORKLOAD_SEED};
    const float top_x = 0.5f * W8_PER_ROW, top_y = (float)(W8_ROWS - 1) * 0.8660254f;
    for (size_t i = 0; i < W8_N; i++) {
        const size_t row = i / W8_PER_ROW, col = i % W8_PER_ROW;
        p.x[i] = (float)col + (row % 2 ? 0.5f : 0.0f);
        p.y[i] = (float)row * 0.8660254f;
        p.r[i] = c2d_rng_range(&rng, 0.49f, 0.51f);
        p.by_distance[i] = (uint32_t)i;
        const float dx = p.x[i] - top_x, dy = p.y[i] - top_y;
        g_dist[i] = dx * dx + dy * dy;
    }
    qsort(p.by_distance, W8_N, sizeof(uint32_t), by_dist);
    free(g_dist);
    g_dist = NULL;
    /* floor and walls, touching the outer balls */
    const float w = (float)W8_PER_ROW, h = (float)W8_ROWS;
    const float ax[3] = {-1.0f, -1.0f, w + 0.5f}, ay[3] = {-1.0f, -1.0f, -1.0f};
    const float bx[3] = {w + 0.5f, -1.0f, w + 0.5f}, byy[3] = {-1.0f, h, h};
    for (int k = 0; k < 3; k++) {
        p.bx0[k] = ax[k];
        p.by0[k] = ay[k];
        p.bx1[k] = bx[k];
        p.by1[k] = byy[k];
        p.br[k] = 0.5f;
    }
    p.box = (c2d_capsule_soa){p.bx0, p.by0, p.bx1, p.by1, p.br, 3, NULL, NULL, NULL};
    return &p;
}

/* One fraction's state: the scene with the frozen balls, the awake ids and their SoA. */
typedef struct w8_state {
    c2d_scene *scene;
    uint32_t *awake, *frozen_ids;
    size_t n_awake, n_frozen;
    float *ax, *ay, *ar;
    c2d_pair_contact *box_out;
    c2d_circle_pair_contact *out;
    size_t box_cap, cap;
} w8_state;

static void w8_free(w8_state *s) {
    c2d_scene_destroy(s->scene);
    free(s->awake);
    free(s->frozen_ids);
    free(s->ax);
    free(s->ay);
    free(s->ar);
    free(s->box_out);
    free(s->out);
}

static bool w8_make(const w8_pile *p, size_t n_awake, w8_state *s) {
    memset(s, 0, sizeof *s);
    s->n_awake = n_awake;
    s->n_frozen = W8_N - n_awake;
    s->awake = malloc((n_awake + 1) * sizeof(uint32_t));
    s->frozen_ids = malloc((s->n_frozen + 1) * sizeof(uint32_t));
    s->ax = malloc((n_awake + 1) * sizeof(float));
    s->ay = malloc((n_awake + 1) * sizeof(float));
    s->ar = malloc((n_awake + 1) * sizeof(float));
    float *fx = malloc((s->n_frozen + 1) * sizeof(float));
    float *fy = malloc((s->n_frozen + 1) * sizeof(float));
    float *fr = malloc((s->n_frozen + 1) * sizeof(float));
    bool ok = s->awake && s->frozen_ids && s->ax && s->ay && s->ar && fx && fy && fr &&
              c2d_scene_create(&p->box, NULL, &s->scene) == C2D_OK;
    if (ok) {
        memcpy(s->awake, p->by_distance, n_awake * sizeof(uint32_t));
        qsort(s->awake, n_awake, sizeof(uint32_t), by_id);
        memcpy(s->frozen_ids, p->by_distance + n_awake, s->n_frozen * sizeof(uint32_t));
        qsort(s->frozen_ids, s->n_frozen, sizeof(uint32_t), by_id);
        for (size_t k = 0; k < s->n_frozen; k++) {
            fx[k] = p->x[s->frozen_ids[k]];
            fy[k] = p->y[s->frozen_ids[k]];
            fr[k] = p->r[s->frozen_ids[k]];
        }
        const c2d_circle_soa frozen = {fx, fy, fr, s->n_frozen, NULL, NULL};
        ok = c2d_scene_freeze_circles(s->scene, &frozen, s->frozen_ids) == C2D_OK;
    }
    free(fx);
    free(fy);
    free(fr);
    if (ok) { /* room for the frame's contacts */
        s->box_cap = 4 * n_awake / 100 + 4096;
        s->cap = 4 * n_awake + 1024;
        s->box_out = malloc(s->box_cap * sizeof *s->box_out);
        s->out = malloc(s->cap * sizeof *s->out);
        ok = s->box_out && s->out;
    }
    if (!ok) w8_free(s);
    return ok;
}

/* One frame; returns the contacts (or SIZE_MAX when a call failed). */
static size_t w8_frame(const w8_pile *p, w8_state *s) {
    for (size_t k = 0; k < s->n_awake; k++) {
        const uint32_t id = s->awake[k];
        s->ax[k] = p->x[id];
        s->ay[k] = p->y[id];
        s->ar[k] = p->r[id];
    }
    const c2d_circle_soa awake = {s->ax, s->ay, s->ar, s->n_awake, NULL, NULL};
    size_t box = 0, aa = 0, af = 0;
    if (c2d_scene_collide(s->scene, &awake, s->box_out, s->box_cap, &box) != C2D_OK ||
        c2d_scene_collide_circles(s->scene, &awake, s->out, s->cap, &aa) != C2D_OK ||
        c2d_scene_collide_frozen_circles(s->scene, &awake, s->awake, s->out + aa, s->cap - aa,
                                         &af) != C2D_OK)
        return SIZE_MAX;
    return box + aa + af;
}

static void bm_w8_frame(gb_state *st, const void *arg) {
    (void)arg;
    const w8_pile *p = w8_pile_get();
    const unsigned pct = (unsigned)gb_range(st, 0);
    w8_state s;
    if (!p || !w8_make(p, (size_t)W8_N * pct / 100, &s)) {
        gb_skip_with_error(st, "W8: out of memory");
        return;
    }
    size_t contacts = w8_frame(p, &s);
    while (contacts != SIZE_MAX && gb_keep_running(st)) {
        contacts = w8_frame(p, &s);
        gb_do_not_optimize(s.out);
    }
    if (contacts == SIZE_MAX) gb_skip_with_error(st, "W8: a frame failed");
    gb_set_counter(st, "contacts", (double)contacts, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "awake", (double)s.n_awake, GB_COUNTER_DEFAULT);
    w8_free(&s);
}

/* 1% of the balls thawed and frozen again each iteration, a different 1% every time. */
static void bm_w8_churn(gb_state *st, const void *arg) {
    (void)arg;
    const w8_pile *p = w8_pile_get();
    w8_state s;
    if (!p || !w8_make(p, 0, &s)) {
        gb_skip_with_error(st, "W8: out of memory");
        return;
    }
    const size_t m = W8_N / 100;
    uint32_t *ids = malloc(m * sizeof *ids);
    float *x = malloc(m * sizeof *x), *y = malloc(m * sizeof *y), *r = malloc(m * sizeof *r);
    size_t window = 0;
    bool ok = ids && x && y && r;
    while (ok && gb_keep_running(st)) {
        for (size_t k = 0; k < m; k++) { /* a spread-out 1%: every 100th ball, shifted */
            const uint32_t id = (uint32_t)((k * 100 + window) % W8_N);
            ids[k] = id;
            x[k] = p->x[id];
            y[k] = p->y[id];
            r[k] = p->r[id];
        }
        window = (window + 1) % 100;
        const c2d_circle_soa again = {x, y, r, m, NULL, NULL};
        ok = c2d_scene_thaw_circles(s.scene, ids, m) == C2D_OK &&
             c2d_scene_freeze_circles(s.scene, &again, ids) == C2D_OK;
    }
    if (!ok) gb_skip_with_error(st, "W8: churn failed");
    gb_set_counter(st, "frozen", (double)c2d_scene_frozen_count(s.scene), GB_COUNTER_DEFAULT);
    free(ids);
    free(x);
    free(y);
    free(r);
    w8_free(&s);
}

#ifdef C2D_BENCH_BOX2D
static void bm_w8_box2d(gb_state *st, const void *arg) {
    (void)arg;
    const w8_pile *p = w8_pile_get();
    const size_t n_awake = (size_t)W8_N * (size_t)gb_range(st, 0) / 100;
    unsigned char *awake = calloc(W8_N, 1);
    if (!p || !awake) {
        free(awake);
        gb_skip_with_error(st, "W8: out of memory");
        return;
    }
    for (size_t k = 0; k < n_awake; k++)
        awake[p->by_distance[k]] = 1;
    const c2d_circle_soa balls = {p->x, p->y, p->r, W8_N, NULL, NULL};
    peer_box2d_w8 *world = peer_box2d_w8_create(&balls, &p->box, awake);
    free(awake);
    if (!world) {
        gb_skip_with_error(st, "W8: Box2D world: out of memory");
        return;
    }
    /* the first step creates every pair in the broad phase: a world's setup, not timed */
    const double first = peer_box2d_w8_step(world);
    const size_t awake_first = peer_box2d_w8_awake(world);
    while (gb_keep_running(st))
        peer_box2d_w8_step(world);
    gb_set_counter(st, "first_step_ms", first, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "awake_first", (double)awake_first, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "awake", (double)peer_box2d_w8_awake(world), GB_COUNTER_DEFAULT);
    gb_set_counter(st, "contacts", (double)peer_box2d_w8_touching(world), GB_COUNTER_DEFAULT);
    peer_box2d_w8_destroy(world);
}
#endif

void bench_register_freeze(const bench_options *o) {
    (void)o;
    for (int k = 0; k < W8_FRACTIONS; k++)
        gb_unit(gb_arg(gb_register("W8_frame", bm_w8_frame, NULL), w8_percent[k]), GB_MILLISECOND);
    gb_unit(gb_arg(gb_register("W8_churn", bm_w8_churn, NULL), 1), GB_MILLISECOND);
#ifdef C2D_BENCH_BOX2D
    for (int k = 0; k < W8_FRACTIONS; k++)
        gb_unit(gb_arg(gb_register("W8_box2d", bm_w8_box2d, NULL), w8_percent[k]), GB_MILLISECOND);
#endif
}
