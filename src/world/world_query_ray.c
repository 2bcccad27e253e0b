/* The ray cast (c2d_world_cast_ray): a ray's first hit among the balls (the frozen ones through
 * the frozen index, the awake ones along the query grid) and the capsules (world_query.h). */
#include <math.h>

#include "collide2d/query.h"
#include "world_query.h"

/* The ray and its best hit so far (t, then the lower id). */
typedef struct ray_query {
    c2d_vec2 origin, translation;
    uint32_t category, mask;
    double margin;
    bool found;
    uint32_t id;
    c2d_toi toi;
} ray_query;

static void ray_keep(ray_query *r, uint32_t id, const c2d_toi *toi) {
    if (!r->found || toi->t < r->toi.t || (toi->t == r->toi.t && id < r->id)) {
        r->found = true;
        r->id = id;
        r->toi = *toi;
    }
}

static void ray_ball(const c2d_world *w, ray_query *r, uint32_t d) {
    if (!c2d_filter_allows(r->category, r->mask, w->category[d], w->mask[d])) return;
    const c2d_circle c = {{w->x[d], w->y[d]}, w->radius[d]};
    c2d_toi toi;
    if (c2d_ray_circle(r->origin, r->translation, c, &toi)) ray_keep(r, w->ids[d], &toi);
}

static void ray_ball_id(const c2d_world *w, ray_query *r, uint32_t id) {
    uint32_t d;
    if (c2d_world_lookup_ball(w, id, &d)) ray_ball(w, r, d);
}

static void ray_capsule(const c2d_world *w, ray_query *r, uint32_t d) {
    if (w->sensor[d] ||
        !c2d_filter_allows(r->category, r->mask, w->capsule_category[d], w->capsule_mask[d]))
        return;
    c2d_toi toi;
    if (c2d_ray_capsule(r->origin, r->translation, w->shape[d], &toi))
        ray_keep(r, w->capsule_ids[d], &toi);
}

/* The ray's point at t, in double. */
static void ray_at(const ray_query *r, double t, double *x, double *y) {
    *x = (double)r->origin.x + t * (double)r->translation.x;
    *y = (double)r->origin.y + t * (double)r->translation.y;
}

/* A disc around the ray's point at t holding every shape that the ray touches at a time that
 * rounds to t: the ties of an earliest hit. */
static c2d_circle tie_disc(const ray_query *r, float t) {
    double x, y;
    ray_at(r, t, &x, &y);
    const c2d_circle c = {{(float)x, (float)y}, (float)(r->margin * 64.0)};
    return c;
}

/* The frozen balls of the ray's part [t0, t1], in pieces (at most 64, of about `fine` units):
 * the index's sweep of a circle a little larger than the ray over a piece says whether any
 * frozen ball comes near it (if none does, the ray touches none there); a piece that some ball
 * comes near is cut again while longer than 2 fine, else every frozen ball that overlaps the
 * disc around it gets the exact c2d_ray_circle. It stops once the best hit lies before the next
 * piece. (The sweep alone would not do: it keys balls by dense index, not in the ids' order of
 * ties, and walks the box of its whole path.) False when out of memory. */
static bool frozen_span(const c2d_world *w, ray_query *r, double len, double fine, double t0,
                        double t1) {
    c2d_scene *scene = w->balls_scene;
    double pieces = ceil(len * (t1 - t0) / fine);
    pieces = pieces < 1.0 ? 1.0 : pieces > 64.0 ? 64.0 : pieces;
    const size_t n = (size_t)pieces;
    const float rho = (float)(r->margin * 4.0);
    const uint32_t qid = QUERY_ID;
    for (size_t p = 0; p < n; p++) {
        const double a = t0 + (t1 - t0) * ((double)p / pieces);
        const double b = p + 1 == n ? t1 : t0 + (t1 - t0) * ((double)(p + 1) / pieces);
        if (r->found && (double)r->toi.t < a) break;
        double ax, ay, bx, by;
        ray_at(r, a, &ax, &ay);
        ray_at(r, b, &bx, &by);
        const float x = (float)ax, y = (float)ay, mx = (float)(bx - ax), my = (float)(by - ay);
        const c2d_circle_soa circle = {&x, &y, &rho, 1, &r->category, &r->mask};
        const c2d_move_soa move = {&mx, &my};
        c2d_circle_hit hit;
        if (c2d_scene_sweep_frozen(scene, &circle, &qid, &move, &hit) != C2D_OK) return false;
        if (hit.other == C2D_NONE) continue;
        if (len * (b - a) > 2.0 * fine && n > 1) {
            if (!frozen_span(w, r, len, fine, a, b)) return false;
            continue;
        }
        const double hx = bx - ax, hy = by - ay;
        const float cx = (float)(0.5 * (ax + bx)), cy = (float)(0.5 * (ay + by));
        const float cr =
            (float)((0.5 * sqrt(hx * hx + hy * hy) + r->margin * 8.0) * (1.0 + 0x1p-12));
        const region q = {
            .kind = REGION_DISC, .disc = {{cx, cy}, cr}, .category = r->category, .mask = r->mask};
        uint32_t stack[STACK_IDS];
        id_list cand;
        c2d_world_query_ids_init(&cand, stack, STACK_IDS, &w->allocator);
        c2d_world_query_frozen_candidates(w, &q, &cx, &cy, &cr, 1, &cand);
        for (size_t i = 0; i < cand.n; i++)
            ray_ball_id(w, r, cand.v[i]);
        const bool ok = !cand.failed;
        c2d_world_query_ids_release(&cand);
        if (!ok) return false;
    }
    return true;
}

/* The frozen balls along the ray, in pieces of about four grid cells. */
static bool ray_frozen(const c2d_world *w, const query_grid *g, ray_query *r) {
    if (!w->balls_scene || c2d_scene_frozen_count(w->balls_scene) == 0) return true;
    const double tx = r->translation.x, ty = r->translation.y;
    const double len = sqrt(tx * tx + ty * ty);
    if (!(len > 0.0)) return true; /* a ray that does not move hits nothing */
    return frozen_span(w, r, len, 4.0 * g->scale, 0.0, 1.0);
}

/* The part [*ta, *tb] of the ray within the binned centres' box grown by e (false: none). */
static bool ray_clip(const query_grid *g, const ray_query *r, double e, double *ta, double *tb) {
    const double o[2] = {r->origin.x, r->origin.y};
    const double d[2] = {r->translation.x, r->translation.y};
    const double lo[2] = {g->x0 - e, g->y0 - e}, hi[2] = {g->x1 + e, g->y1 + e};
    double a = 0.0, b = 1.0;
    for (int k = 0; k < 2; k++) {
        if (d[k] == 0.0) {
            if (o[k] < lo[k] || o[k] > hi[k]) return false;
            continue;
        }
        double t0 = (lo[k] - o[k]) / d[k], t1 = (hi[k] - o[k]) / d[k];
        if (t0 > t1) {
            const double t = t0;
            t0 = t1;
            t1 = t;
        }
        a = t0 > a ? t0 : a;
        b = t1 < b ? t1 : b;
    }
    /* (a hair wider: the divisions round) */
    *ta = a - 0x1p-30 > 0.0 ? a - 0x1p-30 : 0.0;
    *tb = b + 0x1p-30 < 1.0 ? b + 0x1p-30 : 1.0;
    return *ta <= *tb;
}

/* Every binned ball of level lv. */
static void ray_level_all(const c2d_world *w, const query_grid *g, const grid_level *lv,
                          ray_query *r) {
    for (size_t i = g->cell_start[lv->base]; i < g->cell_start[lv->base + (size_t)lv->nx * lv->ny];
         i++)
        ray_ball_id(w, r, g->cell_ids[i]);
}

/* The awake balls of one level: its cells along the ray (clipped to the grid's box), a piece
 * of about one cell at a time; it stops once the best hit lies before the next piece. Each
 * piece's window grows by r_max and the margin, so every ball of the level that the ray
 * touches within the piece (its centre within r of the ray's point there) is tested. */
static void ray_level(const c2d_world *w, const query_grid *g, const grid_level *lv, ray_query *r) {
    double ta, tb;
    if (!ray_clip(g, r, (double)lv->r_max * 2.0 + r->margin, &ta, &tb)) return;
    const double len =
        (fabs((double)r->translation.x) + fabs((double)r->translation.y)) * (tb - ta);
    double pieces = ceil(len / lv->h);
    if (pieces < 1.0) pieces = 1.0;
    if (pieces * 9.0 > (double)lv->count + 16.0) { /* as costly as the level's every ball */
        ray_level_all(w, g, lv, r);
        return;
    }
    const size_t n = (size_t)pieces;
    for (size_t p = 0; p < n; p++) {
        const double t0 = ta + (tb - ta) * ((double)p / pieces);
        const double t1 = p + 1 == n ? tb : ta + (tb - ta) * ((double)(p + 1) / pieces);
        if (r->found && (double)r->toi.t < t0) break; /* no later piece can hold an earlier hit */
        double ax, ay, bx, by;
        ray_at(r, t0, &ax, &ay);
        ray_at(r, t1, &bx, &by);
        grid_window win;
        if (c2d_world_query_window(g, lv, ax < bx ? ax : bx, ay < by ? ay : by, ax < bx ? bx : ax,
                                   ay < by ? by : ay, r->margin, &win) > (double)lv->count + 16.0) {
            ray_level_all(w, g, lv, r);
            return;
        }
        FOR_WINDOW_IDS(g, lv, win, i)
        ray_ball_id(w, r, g->cell_ids[i]);
    }
}

/* The awake balls: the big and noted ones, then each level along the ray. */
static void ray_grid(const c2d_world *w, const query_grid *g, ray_query *r) {
    for (size_t i = 0; i < g->big_count; i++)
        ray_ball_id(w, r, g->big[i]);
    for (size_t i = 0; i < g->extra_count; i++)
        ray_ball_id(w, r, g->extra[i]);
    for (uint32_t rest = g->levels; rest; rest &= rest - 1)
        ray_level(w, g, &g->level[__builtin_ctz(rest)], r);
}

/* The capsules of one scene (capsule j is map[j], count of them): the scene's earliest hit, then
 * every one of its capsules near that point. False: the scene was unsure (or out of memory). */
static bool ray_scene(const c2d_world *w, ray_query *r, const c2d_scene *scene, const uint32_t *map,
                      size_t count) {
    if (!scene || count == 0) return true;
    const float ox = r->origin.x, oy = r->origin.y;
    const float mx = r->translation.x, my = r->translation.y;
    const c2d_ray_soa ray = {&ox, &oy, &mx, &my, 1, &r->category, &r->mask};
    c2d_ray_hit hit = {.shape = C2D_NONE, .kind = C2D_SHAPE_NONE};
    if (c2d_scene_ray_cast(scene, &ray, NULL, &hit) != C2D_OK) return false;
    if (hit.kind == C2D_SHAPE_NONE) return true;
    if (hit.shape >= count) return false;
    ray_query ties = *r;
    ties.found = false;
    const uint32_t first = map[hit.shape];
    if (first < w->capsule_count) ray_capsule(w, &ties, first);
    if (!ties.found || ties.toi.t != hit.toi.t) return false; /* as in ray_frozen */
    const c2d_circle near = tie_disc(r, hit.toi.t);
    const c2d_circle_soa disc = {&near.center.x, &near.center.y, &near.radius, 1,
                                 &r->category,   &r->mask};
    c2d_query_pair stack[STACK_PAIRS], *pairs = stack;
    size_t total = 0;
    c2d_status st = c2d_scene_query_disc(scene, &disc, stack, STACK_PAIRS, &total);
    if (st == C2D_ERROR_TRUNCATED) {
        pairs = c2d_alloc_array(&w->allocator, total, sizeof *pairs);
        st = pairs ? c2d_scene_query_disc(scene, &disc, pairs, total, &total) : C2D_ERROR_ALLOC;
    }
    for (size_t i = 0; st == C2D_OK && i < total; i++)
        if (pairs[i].shape < count && map[pairs[i].shape] < w->capsule_count)
            ray_capsule(w, &ties, map[pairs[i].shape]);
    if (pairs && pairs != stack) c2d_free(&w->allocator, pairs);
    ray_keep(r, ties.id, &ties.toi);
    return st == C2D_OK;
}

c2d_status c2d_world_cast_ray(const c2d_world *w, c2d_vec2 origin, c2d_vec2 translation,
                              uint32_t category, uint32_t mask, c2d_world_ray_hit *out) {
    if (!w || !out) return C2D_ERROR_NULL;
    if (atomic_load((atomic_int *)&w->stepping)) return C2D_ERROR_STATE;
    if (!c2d_world_finite_vec(origin) || !c2d_world_finite_vec(translation)) return C2D_ERROR_VALUE;
    ray_query balls = {.origin = origin,
                       .translation = translation,
                       .category = category,
                       .mask = mask,
                       .id = C2D_NONE};
    balls.margin =
        c2d_world_query_margin(fabs((double)origin.x) + fabs((double)origin.y) +
                               fabs((double)translation.x) + fabs((double)translation.y));
    ray_query capsules = balls;
    const query_grid *g = c2d_world_query_grid_fresh(w);
    if (g && ray_frozen(w, g, &balls)) {
        ray_grid(w, g, &balls);
    } else { /* out of memory: every ball */
        balls.found = false;
        for (size_t d = 0; d < w->ball_count; d++)
            ray_ball(w, &balls, (uint32_t)d);
    }
    const c2d_scene *kinematic = c2d_world_query_kinematic_scene(w);
    if (!w->capsules_dirty &&
        ray_scene(w, &capsules, w->static_scene, w->static_map, w->static_count)) {
        if (!kinematic) {
            for (size_t i = 0; i < w->kinematic_count; i++)
                if (w->kinematic_list[i] < w->capsule_count)
                    ray_capsule(w, &capsules, w->kinematic_list[i]);
        } else if (!ray_scene(w, &capsules, kinematic, w->kinematic_list, w->kinematic_count)) {
            capsules.found = false;
            for (size_t d = 0; d < w->capsule_count; d++)
                ray_capsule(w, &capsules, (uint32_t)d);
        }
    } else { /* stale scenes (until the next step), or the scene unsure: every capsule */
        capsules.found = false;
        for (size_t d = 0; d < w->capsule_count; d++)
            ray_capsule(w, &capsules, (uint32_t)d);
    }
    const bool ball_first =
        balls.found && (!capsules.found || balls.toi.t <= capsules.toi.t); /* ties: balls */
    const ray_query *best = ball_first ? &balls : capsules.found ? &capsules : NULL;
    c2d_world_ray_hit hit = {.id = C2D_NONE, .kind = C2D_SHAPE_NONE};
    if (best) {
        hit.id = best->id;
        hit.kind = ball_first ? C2D_SHAPE_CIRCLE : C2D_SHAPE_CAPSULE;
        hit.toi = best->toi;
    }
    *out = hit;
    return C2D_OK;
}
