/* The scene calls of collide2d/search.h: the batch calls' code (src/batch/search_batch.c)
 * with the scene's capsule index finding the capsules. A ray's capsule part is the scene
 * sweep (scene_sweep.c) of its origin as a circle of radius 0, which is c2d_batch_sweep()'s
 * answer, which is the batch ray cast's capsule part: the same bytes. */
#include <math.h>
#include <stdlib.h>

#include "batch/search_internal.h"
#include "scene/scene_internal.h"

static void scene_pass(const void *ctx, const c2d_circle_soa *points, const float *dx,
                       const float *dy, c2d_circle_toi *out) {
    c2d_scene_sweep_circle_range(ctx, points, dx, dy, 0, points->count, out);
}

c2d_status c2d_scene_ray_cast(const c2d_scene *scene, const c2d_ray_soa *rays,
                              const c2d_circle_soa *circles, c2d_ray_hit *out) {
    if (!scene) return C2D_ERROR_NULL;
    const c2d_status st = c2d_ray_cast_check(rays, circles, out);
    if (st != C2D_OK) return st;
    c2d_ray_cast_run(rays, scene->capsule_count > 0 ? scene_pass : NULL, scene, circles, out);
    return C2D_OK;
}

/* ---- region queries ----------------------------------------------------------------------- */

/* Candidates a query gathers from its cells before it scans every capsule in order instead. */
#define QUERY_CANDIDATES 1024

static int by_index(const void *a, const void *b) {
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static bool meets(const c2d_capsule_index *x, uint32_t k, const float b[4]) {
    return x->lo_x[k] <= b[1] && x->hi_x[k] >= b[0] && x->lo_y[k] <= b[3] && x->hi_y[k] >= b[2];
}

static void test_capsule(const c2d_scene *s, const c2d_regions *q, size_t i, uint32_t k,
                         c2d_pair_sink *sink) {
    const c2d_capsule_soa *K = &s->capsules;
    if (c2d_region_overlap(q, i, K->ax[k], K->ay[k], K->bx[k], K->by[k], K->radius[k]))
        c2d_sink_pair(sink, i, k);
}

/* Every capsule in index order: those the index holds everywhere, and the listed ones whose
 * box meets the query's (all of them when the query is not tame: b is NULL). */
static void scan_in_order(const c2d_scene *s, const c2d_regions *q, size_t i, const float *b,
                          c2d_pair_sink *sink) {
    const c2d_capsule_index *x = &s->index;
    for (uint32_t k = 0; k < s->capsule_count; k++) {
        if (x->kind[k] == C2D_KIND_NEVER) continue;
        if (b && x->kind[k] == C2D_KIND_GRID && !meets(x, k, b)) continue;
        test_capsule(s, q, i, k, sink);
    }
}

/* The capsules of the cells the query's box spans whose boxes meet it, and the capsules the
 * index holds everywhere, into cand; returns how many (duplicates included), or SIZE_MAX when
 * they do not fit. */
static size_t gather(const c2d_scene *s, const c2d_cell_span *sp, const float b[4],
                     uint32_t *cand) {
    const c2d_capsule_index *x = &s->index;
    size_t n = 0;
    for (uint32_t cy = sp->y0; x->listed > 0 && cy <= sp->y1; cy++)
        for (uint32_t cx = sp->x0; cx <= sp->x1; cx++) {
            const c2d_index_cell *ic = &x->cells[cy * x->grid.nx + cx];
            if (n + C2D_CELL_SLOTS + (ic->end - ic->first) > QUERY_CANDIDATES) return SIZE_MAX;
            for (unsigned m = c2d_cell_mask(ic, b[0], b[1], b[2], b[3]); m; m &= m - 1)
                cand[n++] = ic->capsule[__builtin_ctz(m)];
            for (uint32_t e = ic->first; e < ic->end; e++) {
                const c2d_index_entry *en = &x->entries[e];
                if (en->lo_x <= b[1] && en->hi_x >= b[0] && en->lo_y <= b[3] && en->hi_y >= b[2])
                    cand[n++] = en->capsule;
            }
        }
    if (n + x->everywhere_count > QUERY_CANDIDATES) return SIZE_MAX;
    for (size_t e = 0; e < x->everywhere_count; e++)
        cand[n++] = x->everywhere[e];
    return n;
}

/* Why the answer is the batch call's: a capsule the exact test accepts has its index box
 * (cull.h's sweep box: the capsule grown by at least 2^-16 of its largest magnitude) meeting
 * the query's box grown by C2D_REGION_SLACK, rounded outward to float; the index lists it in
 * every cell its box touches, and a point of both boxes lies in a cell the query visits. Each
 * candidate gets the exact test, and the pairs leave in capsule order. */
static void query_one(const c2d_scene *s, const c2d_regions *q, size_t i, c2d_pair_sink *sink) {
    double db[4];
    if (!c2d_region_bounds(q, i, db)) {
        scan_in_order(s, q, i, NULL, sink);
        return;
    }
    /* outward to float: 2^-24 relative at most, inside the slack; nextafter is not needed */
    const float b[4] = {
        (float)(db[0] - fabs(db[0]) * 0x1p-23), (float)(db[1] + fabs(db[1]) * 0x1p-23),
        (float)(db[2] - fabs(db[2]) * 0x1p-23), (float)(db[3] + fabs(db[3]) * 0x1p-23)};
    const c2d_capsule_index *x = &s->index;
    const c2d_cell_span sp = c2d_grid_span(&x->grid, b[0], b[1], b[2], b[3]);
    uint32_t cand[QUERY_CANDIDATES];
    const size_t m =
        c2d_span_cells(&sp) > 64 + s->capsule_count / 4 ? SIZE_MAX : gather(s, &sp, b, cand);
    if (m == SIZE_MAX) {
        scan_in_order(s, q, i, b, sink);
        return;
    }
    qsort(cand, m, sizeof *cand, by_index);
    for (size_t j = 0; j < m; j++)
        if (j == 0 || cand[j] != cand[j - 1]) test_capsule(s, q, i, cand[j], sink);
}

static c2d_status scene_query(const c2d_scene *s, const c2d_regions *q, c2d_query_pair *out,
                              size_t capacity, size_t *count) {
    if (!s || !q) {
        if (count) *count = 0;
        return C2D_ERROR_NULL;
    }
    const c2d_status st = c2d_regions_check(q, C2D_OK, out, capacity, count);
    if (st != C2D_OK) {
        if (count) *count = 0;
        return st;
    }
    c2d_pair_sink sink = {out, capacity, 0};
    for (size_t i = 0; i < q->count; i++)
        query_one(s, q, i, &sink);
    return c2d_query_finish(sink.total, out, capacity, count);
}

c2d_status c2d_scene_query_box(const c2d_scene *scene, const c2d_box_soa *boxes,
                               c2d_query_pair *out, size_t capacity, size_t *count) {
    if (!boxes) return scene_query(NULL, NULL, out, capacity, count);
    const c2d_regions q = c2d_regions_of_boxes(boxes);
    return scene_query(scene, &q, out, capacity, count);
}

c2d_status c2d_scene_query_disc(const c2d_scene *scene, const c2d_circle_soa *discs,
                                c2d_query_pair *out, size_t capacity, size_t *count) {
    if (!discs) return scene_query(NULL, NULL, out, capacity, count);
    const c2d_regions q = c2d_regions_of_discs(discs);
    return scene_query(scene, &q, out, capacity, count);
}

c2d_status c2d_scene_query_point(const c2d_scene *scene, const c2d_point_soa *points,
                                 c2d_query_pair *out, size_t capacity, size_t *count) {
    if (!points) return scene_query(NULL, NULL, out, capacity, count);
    const c2d_regions q = c2d_regions_of_points(points);
    return scene_query(scene, &q, out, capacity, count);
}
