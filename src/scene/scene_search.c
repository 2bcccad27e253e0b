/* The scene calls of collide2d/search.h: the batch calls' code (src/batch/search_batch.c)
 * with the scene's capsule index finding the capsules. A ray's capsule part is the answer of
 * the scene sweep (scene_sweep.c) of its origin as a circle of radius 0, which is
 * c2d_batch_sweep()'s answer, which is the batch ray cast's capsule part: the same bytes; the
 * ray finds its candidates by walking its path through the index (below). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "batch/search_internal.h"
#include "contract.h"
#include "scene/scene_search.h"
#include "scene/scene_sweep.h"

/* ---- ray casts ------------------------------------------------------------------------- */

/* A long ray's swept box covers cells that its path never comes near, and past some length
 * the scene sweep tests every capsule whose box meets it. So a ray walks its path instead: in
 * PIECES pieces of about a cell each, nearest first, testing the capsules of the cells each
 * piece's box spans, and stops once the best hit lies before the next piece.
 *
 * Why the answer is the scene sweep's (so the batch call's): a capsule that the exact sweep
 * reports at time t has its box (cull.h's, grown by the sweep's slack) meeting the box of
 * the path near p(t), when that box is grown by the slack the scene sweep grows a swept box
 * by (scene_sweep.c: the slack covers how far a reported touch may lie from the capsule, not
 * where along the path). Each piece's box spans its stretch of the path, widened by 1/8 of a
 * piece at both ends, and that slack: the capsule is listed in a cell the piece visits. A
 * piece ending before the best time so far cannot hold an earlier (or equal) hit, and every
 * capsule found is tested with the exact sweep, keeping the smallest (t, index): the batch
 * kernels' earliest hit with ties to the lowest index. A NaN time, a value that is not tame or
 * a ray of more than C2D_RAY_PIECES pieces, or one whose pieces would visit more cells than
 * the scene has capsules, take the scene sweep itself. */
#define C2D_RAY_PIECES 4096

/* Capsules tested recently (direct-mapped by index): a capsule listed in several cells of
 * neighbouring pieces is tested once; a collision only costs a second test. */
typedef struct tested_cache {
    uint32_t slot[64];
} tested_cache;

static bool first_test(tested_cache *c, uint32_t k) {
    if (c->slot[k & 63] == k) return false;
    c->slot[k & 63] = k;
    return true;
}

typedef struct ray_walk {
    const c2d_scene *s;
    const c2d_circle_soa *filter; /* the ray's set when the call is filtered, else NULL */
    size_t ray;                   /* the ray's index in it */
    float px, py, dx, dy;
    double grow;   /* the slack of the path (a swept box's, scene_sweep.c) */
    double inv[2]; /* 1 / dx, 1 / dy in double, 0 where the motion is 0 */
    c2d_circle_toi best;
    bool nan;
    tested_cache tested;
} ray_walk;

/* Narrows [*t0, *t1] to the times the path p + t d spends in the box [lo, hi] grown by the
 * path's slack (slab clipping in double, by the reciprocals of the motion); false when nothing
 * is left. Its own rounding (a few 2^-53 of the times) is far inside the slack, which is at least
 * 2^-10 of the ray's length. path_meets: does the path (t in [0, 1]) cross capsule k's index box?
 * The piece boxes already said it is near; this finer test spares the exact sweep most capsules
 * near the path. */
static bool clip_path(const ray_walk *w, double lo_x, double hi_x, double lo_y, double hi_y,
                      double *t0, double *t1) {
    const double lo[2] = {lo_x - w->grow, lo_y - w->grow}, hi[2] = {hi_x + w->grow, hi_y + w->grow};
    const double p[2] = {w->px, w->py};
    for (int a = 0; a < 2; a++) {
        if (w->inv[a] == 0.0) { /* no motion along this axis */
            if (!(p[a] >= lo[a] && p[a] <= hi[a])) return false;
            continue;
        }
        double u = (lo[a] - p[a]) * w->inv[a], v = (hi[a] - p[a]) * w->inv[a];
        if (u > v) {
            const double t = u;
            u = v;
            v = t;
        }
        *t0 = u > *t0 ? u : *t0;
        *t1 = v < *t1 ? v : *t1;
    }
    return *t0 <= *t1;
}

static bool path_meets(const ray_walk *w, uint32_t k) {
    const c2d_capsule_index *x = &w->s->index;
    double t0 = -0x1p-20, t1 = 1.0 + 0x1p-20;
    return clip_path(w, x->lo_x[k], x->hi_x[k], x->lo_y[k], x->hi_y[k], &t0, &t1);
}

static void walk_try(ray_walk *w, uint32_t k) {
    if (!first_test(&w->tested, k)) return;
    const c2d_capsule_soa *K = &w->s->capsules;
    /* a refused capsule or a sensor is never tested: it hides nothing */
    if (w->filter && !c2d_circle_meets_capsule(w->filter, w->ray, K, k)) return;
    if (w->s->index.kind[k] == C2D_KIND_GRID && !path_meets(w, k)) return;
    c2d_toi toi;
    if (!c2d_capsule_sweep(w->px, w->py, 0.0f, w->dx, w->dy, K->ax[k], K->ay[k], K->bx[k], K->by[k],
                           K->radius[k], &toi))
        return;
    if (toi.t != toi.t) w->nan = true;
    if (w->best.capsule == C2D_NONE || toi.t < w->best.toi.t ||
        (toi.t == w->best.toi.t && k < w->best.capsule)) {
        w->best.capsule = k;
        w->best.toi = toi;
    }
}

/* The capsules of the cells spanned by box b whose boxes meet it. */
static void walk_cells(ray_walk *w, const float b[4]) {
    const c2d_capsule_index *x = &w->s->index;
    const c2d_cell_span sp = c2d_grid_span(&x->grid, b[0], b[1], b[2], b[3]);
    for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
        for (uint32_t cx = sp.x0; cx <= sp.x1; cx++) {
            const c2d_index_cell *ic = &x->cells[cy * x->grid.nx + cx];
            for (unsigned m = c2d_cell_mask(ic, b[0], b[1], b[2], b[3]); m; m &= m - 1)
                walk_try(w, ic->capsule[__builtin_ctz(m)]);
            for (uint32_t e = ic->first; e < ic->end; e++) {
                const c2d_index_entry *en = &x->entries[e];
                if (en->lo_x <= b[1] && en->hi_x >= b[0] && en->lo_y <= b[3] && en->hi_y >= b[2])
                    walk_try(w, en->capsule);
            }
        }
}

/* Outward to float (2^-23 relative first: double -> float moves by at most 2^-24). */
static float down(double v) {
    return (float)(v - fabs(v) * 0x1p-23);
}
static float up(double v) {
    return (float)(v + fabs(v) * 0x1p-23);
}

/* Walks ray (px, py) + t (dx, dy) through the index into *out; false when the ray must take
 * the scene sweep (not tame, too long, or a NaN time). `listed` is the box of every listed
 * capsule's box (lo_x, hi_x, lo_y, hi_y): outside it there is nothing to visit. `filter`: the
 * rays as points when the call is filtered (ray `ray` of it is this one), else NULL. */
static bool walk_ray(const c2d_scene *s, const double listed[4], const c2d_circle_soa *filter,
                     size_t ray, float px, float py, float dx, float dy, c2d_circle_toi *out) {
    const c2d_capsule_index *x = &s->index;
    const double L = C2D_TAME_LIMIT;
    if (!(fabs(px) <= L && fabs(py) <= L && fabs(dx) <= L && fabs(dy) <= L)) return false;
    const double cell = x->grid.size;
    const double reach = fabs((double)dx) > fabs((double)dy) ? fabs((double)dx) : fabs((double)dy);
    const double pieces = reach / cell < 1.0 ? 1.0 : ceil(reach / cell);
    if (!(pieces <= C2D_RAY_PIECES) || x->listed == 0) return false;
    /* scene_sweep.c's slack of a swept box, for radius 0 */
    const double size = fabs((double)dx) + fabs((double)dy);
    const double grow = (size * C2D_SWEEP_SIZE_SLACK +
                         (fabs((double)px) + fabs((double)py)) * C2D_SWEEP_POSITION_SLACK + 1e-18) *
                            1.125 +
                        size * 0x1p-10;
    /* the cells the pieces would visit, about: past what an ordered scan of every capsule
     * costs, the scene sweep does that instead (its slack grows with the ray, its cells not) */
    const double span = (reach / pieces) * 1.25 / cell + 2.0 * grow / cell + 1.0;
    if (!(pieces * span * span <= 64.0 + (double)s->capsule_count)) return false;
    ray_walk w = {s,
                  filter,
                  ray,
                  px,
                  py,
                  dx,
                  dy,
                  grow,
                  {dx != 0.0f ? 1.0 / dx : 0.0, dy != 0.0f ? 1.0 / dy : 0.0},
                  {C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}},
                  false,
                  {{0}}};
    memset(&w.tested, 0xff, sizeof w.tested);
    for (size_t e = 0; e < x->everywhere_count; e++)
        walk_try(&w, x->everywhere[e]);
    /* only the part of the path near the listed capsules: whole pieces */
    double t_in = -0.125, t_out = 1.125;
    if (clip_path(&w, listed[0], listed[1], listed[2], listed[3], &t_in, &t_out)) {
        /* pieces first .. last - 1, clamped to [0, pieces] before the conversion (a path
         * clipped far outside gives values no integer holds; NaN gives none) */
        double first = floor(t_in * pieces), last = ceil(t_out * pieces);
        first = first > 0.0 ? (first < pieces ? first : pieces) : 0.0;
        last = last > 0.0 ? (last < pieces ? last : pieces) : 0.0;
        const size_t j0 = (size_t)first, j1 = (size_t)last;
        for (size_t j = j0; j < j1; j++) {
            const double t0 = ((double)j - 0.125) / pieces, t1 = ((double)j + 1.125) / pieces;
            /* the best hit lies before this piece: nothing here can beat it */
            if (w.best.capsule != C2D_NONE && w.best.toi.t < t0) break;
            const double x0 = px + t0 * dx, x1 = px + t1 * dx;
            const double y0 = py + t0 * dy, y1 = py + t1 * dy;
            const float b[4] = {down((x0 < x1 ? x0 : x1) - grow), up((x0 > x1 ? x0 : x1) + grow),
                                down((y0 < y1 ? y0 : y1) - grow), up((y0 > y1 ? y0 : y1) + grow)};
            walk_cells(&w, b);
        }
    }
    if (w.nan) return false;
    *out = w.best;
    return true;
}

/* What a pass over the scene needs: the scene and the box of its listed capsules. */
typedef struct scene_rays {
    const c2d_scene *s;
    double listed[4];
} scene_rays;

/* The points carry the rays' filter words; the scene sweep that answers the rays the walk
 * cannot takes them as its circle set's (it skips the refused capsules and the sensors). */
static void scene_pass(const void *ctx, const c2d_circle_soa *points, const float *dx,
                       const float *dy, c2d_circle_toi *out) {
    const scene_rays *r = ctx;
    const c2d_circle_soa *filter =
        c2d_circle_soa_filtered(points) || c2d_capsule_soa_filtered(&r->s->capsules) ? points
                                                                                     : NULL;
    for (size_t j = 0; j < points->count; j++)
        if (!walk_ray(r->s, r->listed, filter, j, points->x[j], points->y[j], dx[j], dy[j],
                      &out[j]))
            c2d_scene_sweep_circle_range(r->s, points, dx, dy, j, 1, &out[j]);
}

c2d_status c2d_scene_ray_cast(const c2d_scene *scene, const c2d_ray_soa *rays,
                              const c2d_circle_soa *circles, c2d_ray_hit *out) {
    if (!scene) return C2D_ERROR_NULL;
    const c2d_status st = c2d_ray_cast_check(rays, circles, out);
    if (st != C2D_OK) return st;
    scene_rays r = {scene, {0.0, 0.0, 0.0, 0.0}};
    memcpy(r.listed, scene->index.listed_box, sizeof r.listed);
    c2d_ray_cast_run(rays, scene->capsule_count > 0 ? scene_pass : NULL, &r, circles, out);
    return C2D_OK;
}

/* ---- region queries ----------------------------------------------------------------------- */

static int by_index(const void *a, const void *b) {
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool meets(const c2d_capsule_index *x, uint32_t k, const float b[4]) {
    return x->lo_x[k] <= b[1] && x->hi_x[k] >= b[0] && x->lo_y[k] <= b[3] && x->hi_y[k] >= b[2];
}

/* Region i against capsule k. `filtered`: the queries or the capsules carry filter words, and
 * the pairs the rule refuses are skipped (sensors are seen, as by the batch call). */
static void test_capsule(const c2d_scene *s, const c2d_regions *q, size_t i, uint32_t k,
                         bool filtered, c2d_pair_sink *sink) {
    const c2d_capsule_soa *K = &s->capsules;
    if (filtered &&
        !c2d_region_allows(q, i, c2d_filter_word(K->category, k), c2d_filter_word(K->mask, k)))
        return;
    if (c2d_region_overlap(q, i, K->ax[k], K->ay[k], K->bx[k], K->by[k], K->radius[k]))
        c2d_sink_pair(sink, i, k);
}

/* Every capsule in index order: those the index holds everywhere, and the listed ones whose
 * box meets the query's (all of them when the query is not tame: b is NULL). */
static void scan_in_order(const c2d_scene *s, const c2d_regions *q, size_t i, const float *b,
                          bool filtered, c2d_pair_sink *sink) {
    const c2d_capsule_index *x = &s->index;
    for (uint32_t k = 0; k < s->capsule_count; k++) {
        if (x->kind[k] == C2D_KIND_NEVER) continue;
        if (b && x->kind[k] == C2D_KIND_GRID && !meets(x, k, b)) continue;
        test_capsule(s, q, i, k, filtered, sink);
    }
}

/* The capsules of the cells the box spans whose boxes meet it, and the capsules the index
 * holds everywhere, into cand; returns how many (duplicates included), or SIZE_MAX when they do
 * not fit. */
static size_t gather(const c2d_scene *s, const c2d_cell_span *sp, const float b[4],
                     uint32_t *cand) {
    const c2d_capsule_index *x = &s->index;
    size_t n = 0;
    for (uint32_t cy = sp->y0; x->listed > 0 && cy <= sp->y1; cy++)
        for (uint32_t cx = sp->x0; cx <= sp->x1; cx++) {
            const c2d_index_cell *ic = &x->cells[cy * x->grid.nx + cx];
            if (n + C2D_CELL_SLOTS + (ic->end - ic->first) > C2D_SCENE_BOX_CANDIDATES)
                return SIZE_MAX;
            for (unsigned m = c2d_cell_mask(ic, b[0], b[1], b[2], b[3]); m; m &= m - 1)
                cand[n++] = ic->capsule[__builtin_ctz(m)];
            for (uint32_t e = ic->first; e < ic->end; e++) {
                const c2d_index_entry *en = &x->entries[e];
                if (en->lo_x <= b[1] && en->hi_x >= b[0] && en->lo_y <= b[3] && en->hi_y >= b[2])
                    cand[n++] = en->capsule;
            }
        }
    if (n + x->everywhere_count > C2D_SCENE_BOX_CANDIDATES) return SIZE_MAX;
    for (size_t e = 0; e < x->everywhere_count; e++)
        cand[n++] = x->everywhere[e];
    return n;
}

size_t c2d_scene_box_candidates(const c2d_scene *s, const float b[4], uint32_t *cand) {
    const c2d_capsule_index *x = &s->index;
    const c2d_cell_span sp = c2d_grid_span(&x->grid, b[0], b[1], b[2], b[3]);
    return c2d_span_cells(&sp) > 64 + s->capsule_count / 4 ? SIZE_MAX : gather(s, &sp, b, cand);
}

/* Why the answer is the batch call's: a capsule the exact test accepts has its index box
 * (cull.h's sweep box: the capsule grown by at least 2^-16 of its largest magnitude) meeting
 * the query's box grown by C2D_REGION_SLACK, rounded outward to float; the index lists it in
 * every cell its box touches, and a point of both boxes lies in a cell the query visits. Each
 * candidate gets the exact test, and the pairs leave in capsule order. */
static void query_one(const c2d_scene *s, const c2d_regions *q, size_t i, bool filtered,
                      c2d_pair_sink *sink) {
    double db[4];
    if (!c2d_region_bounds(q, i, db)) {
        scan_in_order(s, q, i, NULL, filtered, sink);
        return;
    }
    /* outward to float: 2^-24 relative at most, inside the slack; nextafter is not needed */
    const float b[4] = {
        (float)(db[0] - fabs(db[0]) * 0x1p-23), (float)(db[1] + fabs(db[1]) * 0x1p-23),
        (float)(db[2] - fabs(db[2]) * 0x1p-23), (float)(db[3] + fabs(db[3]) * 0x1p-23)};
    uint32_t cand[C2D_SCENE_BOX_CANDIDATES];
    const size_t m = c2d_scene_box_candidates(s, b, cand);
    if (m == SIZE_MAX) {
        scan_in_order(s, q, i, b, filtered, sink);
        return;
    }
    qsort(cand, m, sizeof *cand, by_index);
    for (size_t j = 0; j < m; j++)
        if (j == 0 || cand[j] != cand[j - 1]) test_capsule(s, q, i, cand[j], filtered, sink);
}

static c2d_status scene_query(const c2d_scene *s, c2d_regions regions, c2d_query_pair *out,
                              size_t capacity, size_t *count) {
    const c2d_regions *q = &regions;
    const c2d_status st = c2d_regions_check(q, s ? C2D_OK : C2D_ERROR_NULL, out, capacity, count);
    if (st != C2D_OK) return st;
    c2d_pair_sink sink = {out, capacity, 0};
    const bool filtered = q->category || q->mask || s->capsules.category || s->capsules.mask;
    for (size_t i = 0; i < q->count; i++)
        query_one(s, q, i, filtered, &sink);
    return c2d_finish_count(sink.total, out, capacity, count);
}

c2d_status c2d_scene_query_box(const c2d_scene *scene, const c2d_box_soa *boxes,
                               c2d_query_pair *out, size_t capacity, size_t *count) {
    return scene_query(scene, c2d_regions_of_boxes(boxes), out, capacity, count);
}

c2d_status c2d_scene_query_disc(const c2d_scene *scene, const c2d_circle_soa *discs,
                                c2d_query_pair *out, size_t capacity, size_t *count) {
    return scene_query(scene, c2d_regions_of_discs(discs), out, capacity, count);
}

c2d_status c2d_scene_query_point(const c2d_scene *scene, const c2d_point_soa *points,
                                 c2d_query_pair *out, size_t capacity, size_t *count) {
    return scene_query(scene, c2d_regions_of_points(points), out, capacity, count);
}
