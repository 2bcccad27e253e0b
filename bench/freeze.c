/* W8 (frozen balls): a continuous pile of N balls in a box (floor and two walls, no walls
 * between), some of them awake, the rest frozen into the scene; issue 42's cost cliffs as named
 * cases, each measured at N = 65,536 (a 256 x 256 pile) and N = 262,144 (512 x 512).
 *
 *   W8_frame/CASE/N: one frame = compact the awake balls and their moves (through their id
 *       list), then the collide part and the sweep part below.
 *   W8_collide/CASE/N: the frame without its sweep part: c2d_scene_collide (awake balls
 *       against the box), c2d_scene_collide_circles (awake vs awake) and
 *       c2d_scene_collide_frozen (awake vs frozen).
 *   W8_sweep/CASE/N: the frame without its collide part: c2d_scene_sweep_circles (awake vs
 *       awake) and c2d_scene_sweep_frozen (awake vs frozen) of the awake balls' moves.
 *   W8_churn/churn1/N: churn1's frame without either part (thaw 1%, compact, freeze them
 *       again): the cost of the churn alone, what W8_churn/1 measured before issue 42.
 *   W8_box2d/PCT (when Box2D 2.4.1 is built in): the 262,144-ball pile as a b2World, the
 *       frozen balls asleep, one iteration = one b2World::Step (1/60 s, 8 and 3 iterations)
 *       after a first, untimed step that creates the pairs ("first_step_ms", its b2Profile
 *       time, wall); "awake_first" and "awake" count the bodies awake after the first step and
 *       after the run: Box2D wakes the sleeping bodies that touch its awake islands.
 *
 * The cases (N, radii, awake sets and seeds fixed here; scripts/lib/bench_report.py divides
 * each by awake100 of the same part and N, measured in the same run):
 *   awake100     nothing frozen, every ball in the awake arrays: the reference.
 *   asleep       every ball frozen, none awake.
 *   crater10     10% awake: the balls nearest the middle of the pile's top (a stream's crater).
 *   scattered10  10% awake, chosen at random over the pile (seed W8_SCATTER_SEED).
 *   boulder1     1% awake (the crater's first 1%) and one frozen boulder of radius 20 in the
 *                pile's middle: it takes the id and centre of the ball nearest the pile's
 *                centre, and the balls whose centres lie within 20 of it are left out of the
 *                scene (neither frozen nor awake); it overlaps the ring of balls around it.
 *   tiny         the first 1% of the balls (ids 0 .. N/100 - 1) frozen at radius 0.005, then
 *                thawed, then the ordinary pile frozen; awake: the crater's first 1% (1%, not
 *                crater10's 10%, so that the case's 0.02x target is within reach).
 *   tinyall      as tiny, but every ball (ids 0 .. N - 1) first frozen at radius 0.005 and
 *                thawed. tiny is issue 42's recipe, yet the pile's freeze grows the index and
 *                its rebuild picks the cell from the radii then held and frozen, so tiny
 *                shows no cliff; tinyall keeps the index from growing: the cliff.
 *   churn1       every ball frozen; each frame thaws a spread-out 1% (every 100th id, shifted
 *                by one each frame), runs the frame with them as the awake balls and freezes
 *                them again (the thaw and freeze are in every part's time).
 *   radius05     issue 42's defect 3, the reference of the three below: awake the crater's
 *                first 1% at radius 0.5 (not the pile's radii), the rest frozen at radius 0.5.
 *   radius0      as radius05, the rest frozen at radius 0.
 *   radius1e-6   as radius05, the rest frozen at radius 1e-6.
 *   radius05thawed  as radius05, after every ball was frozen at radius 0 and thawed.
 *                The report divides these four by radius05 (target <= 2x) as well.
 *
 * The pile is hexagonal, spacing 1, radii in [0.49, 0.51] (C2D_WORKLOAD_SEED; about three
 * contacts a ball). Moves: each ball has a fixed random move of length at most 0.1 (uniform in
 * the disc, seed W8_MOVE_SEED), the same in every case. Counters: "contacts" (box + ball-ball
 * pairs a frame), "hits" (awake balls with a sweep hit, awake or frozen), "awake", "frozen".
 * Best backend only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#ifdef C2D_BENCH_BOX2D
#include "peer_box2d_w8.h"
#endif

#define W8_SCATTER_SEED UINT64_C(0x5ca77e2ed0000010)
#define W8_MOVE_SEED UINT64_C(0x0000be0e5eed0001)
#define W8_BOULDER_RADIUS 20.0f
#define W8_TINY_RADIUS 0.005f
#define W8_MAX_MOVE 0.1f

enum { W8_SIZES = 2, W8_BOX2D_N = 262144, W8_BOX2D_FRACTIONS = 4 };
static const size_t w8_sizes[W8_SIZES] = {65536, 262144};
static const unsigned w8_box2d_percent[W8_BOX2D_FRACTIONS] = {0, 1, 10, 100};

typedef enum w8_case {
    W8_AWAKE100,
    W8_ASLEEP,
    W8_CRATER10,
    W8_SCATTERED10,
    W8_BOULDER1,
    W8_TINY,
    W8_TINYALL,
    W8_CHURN1,
    W8_RADIUS05,
    W8_RADIUS0,
    W8_RADIUS1E6,
    W8_RADIUS05THAWED,
    W8_CASES
} w8_case;
static const char *const w8_case_name[W8_CASES] = {
    "awake100", "asleep", "crater10", "scattered10", "boulder1",   "tiny",
    "tinyall",  "churn1", "radius05", "radius0",     "radius1e-6", "radius05thawed"};

/* A benchmark's parts; none (W8_churn/churn1) leaves churn1's thaw, compaction and freeze. */
enum { W8_COLLIDE = 1, W8_SWEEP = 2, W8_FRAME = W8_COLLIDE | W8_SWEEP };

typedef struct w8_pile {
    size_t n, per_row;
    float *x, *y, *r, *mx, *my;
    uint32_t *by_distance; /* ids, nearest the middle of the top first */
    c2d_capsule_soa box;
    float bx0[3], by0[3], bx1[3], by1[3], br[3];
} w8_pile;

static float *g_dist;

static int by_dist(const void *pa, const void *pb) {
    const float a = g_dist[*(const uint32_t *)pa], b = g_dist[*(const uint32_t *)pb];
    if (a != b) return a < b ? -1 : 1;
    return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

static bool w8_pile_build(w8_pile *p, size_t n) {
    size_t side = 1;
    while (side * side < n)
        side++;
    p->n = n;
    p->per_row = side;
    p->x = malloc(n * sizeof(float));
    p->y = malloc(n * sizeof(float));
    p->r = malloc(n * sizeof(float));
    p->mx = malloc(n * sizeof(float));
    p->my = malloc(n * sizeof(float));
    p->by_distance = malloc(n * sizeof(uint32_t));
    g_dist = malloc(n * sizeof(float));
    if (!p->x || !p->y || !p->r || !p->mx || !p->my || !p->by_distance || !g_dist) {
        free(g_dist);
        g_dist = NULL;
        return false;
    }
    const size_t rows = n / side;
    c2d_rng rng = {C2D_WORKLOAD_SEED}, moves = {W8_MOVE_SEED};
    const float top_x = 0.5f * (float)side, top_y = (float)(rows - 1) * 0.8660254f;
    for (size_t i = 0; i < n; i++) {
        const size_t row = i / side, col = i % side;
        p->x[i] = (float)col + (row % 2 ? 0.5f : 0.0f);
        p->y[i] = (float)row * 0.8660254f;
        p->r[i] = c2d_rng_range(&rng, 0.49f, 0.51f);
        float dx, dy;
        do { /* uniform in the disc of radius W8_MAX_MOVE: rejection, no sin/cos */
            dx = c2d_rng_range(&moves, -W8_MAX_MOVE, W8_MAX_MOVE);
            dy = c2d_rng_range(&moves, -W8_MAX_MOVE, W8_MAX_MOVE);
        } while (dx * dx + dy * dy > W8_MAX_MOVE * W8_MAX_MOVE);
        p->mx[i] = dx;
        p->my[i] = dy;
        p->by_distance[i] = (uint32_t)i;
        const float ex = p->x[i] - top_x, ey = p->y[i] - top_y;
        g_dist[i] = ex * ex + ey * ey;
    }
    qsort(p->by_distance, n, sizeof(uint32_t), by_dist);
    free(g_dist);
    g_dist = NULL;
    /* floor and walls, touching the outer balls */
    const float w = (float)side, h = (float)rows;
    const float ax[3] = {-1.0f, -1.0f, w + 0.5f}, ay[3] = {-1.0f, -1.0f, -1.0f};
    const float bx[3] = {w + 0.5f, -1.0f, w + 0.5f}, byy[3] = {-1.0f, h, h};
    for (int k = 0; k < 3; k++) {
        p->bx0[k] = ax[k];
        p->by0[k] = ay[k];
        p->bx1[k] = bx[k];
        p->by1[k] = byy[k];
        p->br[k] = 0.5f;
    }
    p->box = (c2d_capsule_soa){p->bx0, p->by0, p->bx1, p->by1, p->br, 3, NULL, NULL, NULL};
    return true;
}

/* The pile of n balls (a size of w8_sizes), built on first use and kept; NULL when out of
 * memory. */
static const w8_pile *w8_pile_get(size_t n) {
    static w8_pile piles[W8_SIZES];
    static bool built[W8_SIZES], ok[W8_SIZES];
    for (size_t k = 0; k < W8_SIZES; k++) {
        if (w8_sizes[k] != n) continue;
        if (!built[k]) {
            built[k] = true;
            ok[k] = w8_pile_build(&piles[k], n);
        }
        return ok[k] ? &piles[k] : NULL;
    }
    return NULL;
}

/* One case's state: the scene with its frozen balls, the awake ids and their compact SoA. */
typedef struct w8_state {
    const w8_pile *p;
    w8_case c;
    c2d_scene *scene;
    uint32_t *awake;
    size_t n_awake, window;
    float *ax, *ay, *ar, *amx, *amy;
    c2d_pair_contact *box_out;
    c2d_circle_pair_contact *out;
    c2d_circle_hit *hit_awake, *hit_frozen;
    size_t box_cap, cap;
} w8_state;

static void w8_free(w8_state *s) {
    c2d_scene_destroy(s->scene);
    free(s->awake);
    free(s->ax);
    free(s->ay);
    free(s->ar);
    free(s->amx);
    free(s->amy);
    free(s->box_out);
    free(s->out);
    free(s->hit_awake);
    free(s->hit_frozen);
}

/* Freezes the `count` balls `ids` of the pile, with radius `radius` when >= 0 (the pile's own
 * otherwise) and the boulder's radius for id `boulder`. */
static bool w8_freeze(const w8_pile *p, c2d_scene *scene, const uint32_t *ids, size_t count,
                      float radius, uint32_t boulder) {
    float *x = malloc((count + 1) * sizeof(float));
    float *y = malloc((count + 1) * sizeof(float));
    float *r = malloc((count + 1) * sizeof(float));
    bool ok = x && y && r;
    if (ok) {
        for (size_t k = 0; k < count; k++) {
            const uint32_t id = ids[k];
            x[k] = p->x[id];
            y[k] = p->y[id];
            r[k] = id == boulder ? W8_BOULDER_RADIUS : radius >= 0.0f ? radius : p->r[id];
        }
        const c2d_circle_soa set = {x, y, r, count, NULL, NULL};
        ok = c2d_scene_freeze_balls(scene, &set, ids) == C2D_OK;
    }
    free(x);
    free(y);
    free(r);
    return ok;
}

/* The radius case c freezes the pile at (-1: the pile's own). */
static float w8_frozen_radius(w8_case c) {
    switch (c) {
    case W8_RADIUS05:
    case W8_RADIUS05THAWED:
        return 0.5f;
    case W8_RADIUS0:
        return 0.0f;
    case W8_RADIUS1E6:
        return 1e-6f;
    default:
        return -1.0f;
    }
}

/* Builds case c on pile p: awake ids (increasing), frozen balls, output room. */
static bool w8_make(const w8_pile *p, w8_case c, w8_state *s) {
    memset(s, 0, sizeof *s);
    s->p = p;
    s->c = c;
    const size_t n = p->n;
    /* role of each id: 0 frozen, 1 awake, 2 left out (under the boulder) */
    unsigned char *role = calloc(n, 1);
    uint32_t *ids = malloc(n * sizeof(uint32_t));
    s->awake = malloc((n + 1) * sizeof(uint32_t));
    bool ok = role && ids && s->awake && c2d_scene_create(&p->box, NULL, &s->scene) == C2D_OK;
    uint32_t boulder = C2D_NONE;
    if (ok && c == W8_BOULDER1) {
        float cx = 0.5f * (float)p->per_row, cy = 0.5f * p->y[n - 1], best = INFINITY;
        for (size_t i = 0; i < n; i++) {
            const float dx = p->x[i] - cx, dy = p->y[i] - cy, d = dx * dx + dy * dy;
            if (d < best) {
                best = d;
                boulder = (uint32_t)i;
            }
        }
        cx = p->x[boulder];
        cy = p->y[boulder];
        for (size_t i = 0; i < n; i++) {
            const float dx = p->x[i] - cx, dy = p->y[i] - cy;
            if (i != boulder && dx * dx + dy * dy < W8_BOULDER_RADIUS * W8_BOULDER_RADIUS)
                role[i] = 2;
        }
    }
    if (ok) {
        size_t want = 0;
        switch (c) {
        case W8_AWAKE100:
            want = n;
            break;
        case W8_CRATER10:
        case W8_SCATTERED10:
            want = n / 10;
            break;
        case W8_BOULDER1:
        case W8_TINY:
        case W8_TINYALL:
        case W8_RADIUS05:
        case W8_RADIUS0:
        case W8_RADIUS1E6:
        case W8_RADIUS05THAWED:
            want = n / 100;
            break;
        case W8_ASLEEP:
        case W8_CHURN1:
        case W8_CASES:
            want = 0;
            break;
        }
        if (c == W8_SCATTERED10) { /* a partial Fisher-Yates shuffle of the ids */
            c2d_rng rng = {W8_SCATTER_SEED};
            for (size_t i = 0; i < n; i++)
                ids[i] = (uint32_t)i;
            for (size_t k = 0; k < want; k++) {
                const size_t j = k + (size_t)(c2d_rng_next(&rng) % (uint64_t)(n - k));
                const uint32_t t = ids[k];
                ids[k] = ids[j];
                ids[j] = t;
                role[ids[k]] = 1;
            }
        } else {
            for (size_t k = 0, got = 0; k < n && got < want; k++)
                if (role[p->by_distance[k]] == 0) {
                    role[p->by_distance[k]] = 1;
                    got++;
                }
        }
        size_t n_frozen = 0;
        for (size_t i = 0; i < n; i++) {
            if (role[i] == 1) s->awake[s->n_awake++] = (uint32_t)i;
            if (role[i] == 0) ids[n_frozen++] = (uint32_t)i;
        }
        if (c == W8_TINY || c == W8_TINYALL || c == W8_RADIUS05THAWED) {
            /* tiny (or zero-radius) balls first, then they left */
            const size_t m = c == W8_TINY ? n / 100 : n;
            const float tiny_r = c == W8_RADIUS05THAWED ? 0.0f : W8_TINY_RADIUS;
            uint32_t *tiny = malloc(m * sizeof(uint32_t));
            ok = tiny != NULL;
            for (size_t k = 0; ok && k < m; k++)
                tiny[k] = (uint32_t)k;
            ok = ok && w8_freeze(p, s->scene, tiny, m, tiny_r, C2D_NONE) &&
                 c2d_scene_thaw_balls(s->scene, tiny, m) == C2D_OK;
            free(tiny);
        }
        ok = ok && w8_freeze(p, s->scene, ids, n_frozen, w8_frozen_radius(c), boulder);
    }
    free(role);
    free(ids);
    /* awake arrays: the case's awake balls, or the 1% that churn1 thaws each frame */
    const size_t room = (c == W8_CHURN1 ? n / 100 : s->n_awake) + 1;
    if (ok) {
        s->ax = malloc(room * sizeof(float));
        s->ay = malloc(room * sizeof(float));
        s->ar = malloc(room * sizeof(float));
        s->amx = malloc(room * sizeof(float));
        s->amy = malloc(room * sizeof(float));
        s->hit_awake = malloc(room * sizeof *s->hit_awake);
        s->hit_frozen = malloc(room * sizeof *s->hit_frozen);
        s->box_cap = 4 * room / 100 + 4096;
        s->cap = 6 * room + 1024; /* at most six neighbours a ball in the hexagonal pile */
        s->box_out = malloc(s->box_cap * sizeof *s->box_out);
        s->out = malloc(s->cap * sizeof *s->out);
        ok = s->ax && s->ay && s->ar && s->amx && s->amy && s->hit_awake && s->hit_frozen &&
             s->box_out && s->out;
    }
    if (!ok) w8_free(s);
    return ok;
}

/* One frame's parts (W8_COLLIDE, W8_SWEEP or both); false when a call failed. */
static bool w8_frame(w8_state *s, unsigned parts, size_t *contacts, size_t *hits) {
    const w8_pile *p = s->p;
    if (s->c == W8_CHURN1) { /* this frame's 1%: every 100th id, shifted by the frame */
        s->n_awake = p->n / 100;
        for (size_t k = 0; k < s->n_awake; k++)
            s->awake[k] = (uint32_t)(k * 100 + s->window);
        s->window = (s->window + 1) % 100;
        if (c2d_scene_thaw_balls(s->scene, s->awake, s->n_awake) != C2D_OK) return false;
    }
    for (size_t k = 0; k < s->n_awake; k++) {
        const uint32_t id = s->awake[k];
        s->ax[k] = p->x[id];
        s->ay[k] = p->y[id];
        s->ar[k] = s->c >= W8_RADIUS05 ? 0.5f : p->r[id]; /* the radius cases: 0.5 */
        s->amx[k] = p->mx[id];
        s->amy[k] = p->my[id];
    }
    const c2d_circle_soa awake = {s->ax, s->ay, s->ar, s->n_awake, NULL, NULL};
    *contacts = *hits = 0;
    if (parts & W8_COLLIDE) {
        size_t box = 0, aa = 0, af = 0;
        if (c2d_scene_collide(s->scene, &awake, s->box_out, s->box_cap, &box) != C2D_OK ||
            c2d_scene_collide_circles(s->scene, &awake, s->out, s->cap, &aa) != C2D_OK ||
            c2d_scene_collide_frozen(s->scene, &awake, s->awake, s->out + aa, s->cap - aa, &af) !=
                C2D_OK)
            return false;
        *contacts = box + aa + af;
        gb_do_not_optimize(s->out);
    }
    if (parts & W8_SWEEP) {
        const c2d_move_soa moves = {s->amx, s->amy};
        if (c2d_scene_sweep_circles(s->scene, &awake, s->amx, s->amy, s->hit_awake) != C2D_OK ||
            c2d_scene_sweep_frozen(s->scene, &awake, s->awake, &moves, s->hit_frozen) != C2D_OK)
            return false;
        for (size_t k = 0; k < s->n_awake; k++)
            *hits += s->hit_awake[k].other != C2D_NONE || s->hit_frozen[k].other != C2D_NONE;
        gb_do_not_optimize(s->hit_frozen);
    }
    if (s->c == W8_CHURN1 && c2d_scene_freeze_balls(s->scene, &awake, s->awake) != C2D_OK)
        return false;
    return true;
}

typedef struct w8_bench {
    w8_case c;
    unsigned parts;
} w8_bench;

static void bm_w8(gb_state *st, const void *arg) {
    const w8_bench *b = arg;
    const w8_pile *p = w8_pile_get((size_t)gb_range(st, 0));
    w8_state s;
    if (!p || !w8_make(p, b->c, &s)) {
        gb_skip_with_error(st, "W8: out of memory");
        return;
    }
    size_t contacts = 0, hits = 0;
    bool ok = w8_frame(&s, b->parts, &contacts, &hits); /* warm, untimed */
    while (ok && gb_keep_running(st))
        ok = w8_frame(&s, b->parts, &contacts, &hits);
    if (!ok) gb_skip_with_error(st, "W8: a frame failed");
    if (b->parts & W8_COLLIDE) gb_set_counter(st, "contacts", (double)contacts, GB_COUNTER_DEFAULT);
    if (b->parts & W8_SWEEP) gb_set_counter(st, "hits", (double)hits, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "awake", (double)s.n_awake, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "frozen", (double)c2d_scene_frozen_count(s.scene), GB_COUNTER_DEFAULT);
    w8_free(&s);
}

#ifdef C2D_BENCH_BOX2D
static void bm_w8_box2d(gb_state *st, const void *arg) {
    (void)arg;
    const w8_pile *p = w8_pile_get(W8_BOX2D_N);
    const size_t n_awake = (size_t)W8_BOX2D_N * (size_t)gb_range(st, 0) / 100;
    unsigned char *awake = calloc(W8_BOX2D_N, 1);
    if (!p || !awake) {
        free(awake);
        gb_skip_with_error(st, "W8: out of memory");
        return;
    }
    for (size_t k = 0; k < n_awake; k++)
        awake[p->by_distance[k]] = 1;
    const c2d_circle_soa balls = {p->x, p->y, p->r, W8_BOX2D_N, NULL, NULL};
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
    static const struct {
        const char *name;
        unsigned parts;
    } part[3] = {{"W8_frame", W8_FRAME}, {"W8_collide", W8_COLLIDE}, {"W8_sweep", W8_SWEEP}};
    static w8_bench benches[3][W8_CASES];
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < W8_CASES; c++) {
            benches[k][c] = (w8_bench){(w8_case)c, part[k].parts};
            char name[64];
            snprintf(name, sizeof name, "%s/%s", part[k].name, w8_case_name[c]);
            gb_benchmark *b = gb_unit(gb_register(name, bm_w8, &benches[k][c]), GB_MILLISECOND);
            for (int s = 0; s < W8_SIZES; s++)
                gb_arg(b, (int64_t)w8_sizes[s]);
        }
    static const w8_bench churn = {W8_CHURN1, 0};
    gb_benchmark *b = gb_unit(gb_register("W8_churn/churn1", bm_w8, &churn), GB_MILLISECOND);
    for (int s = 0; s < W8_SIZES; s++)
        gb_arg(b, (int64_t)w8_sizes[s]);
#ifdef C2D_BENCH_BOX2D
    for (int k = 0; k < W8_BOX2D_FRACTIONS; k++)
        gb_unit(gb_arg(gb_register("W8_box2d", bm_w8_box2d, NULL), w8_box2d_percent[k]),
                GB_MILLISECOND);
#endif
}
