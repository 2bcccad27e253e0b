/* The region queries (c2d_world_query_box / _disc / _point): the balls and capsules in a box,
 * a disc or at a point, by id, from the indexes' candidates (world_query.h), and the growing
 * lists of ids that collect them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collide2d/query.h"
#include "world_query.h"

/* ---- results ------------------------------------------------------------------------------- */

void c2d_world_query_ids_init(id_list *l, uint32_t *stack, size_t cap, const c2d_allocator *a) {
    l->v = stack;
    l->n = 0;
    l->cap = cap;
    l->a = a;
    l->heap = l->failed = false;
}

static void ids_push(id_list *l, uint32_t id) {
    if (l->n == l->cap) {
        const size_t cap = c2d_grown(l->cap, l->n + 1);
        uint32_t *p = c2d_alloc_array(l->a, cap, sizeof *p);
        if (!p) {
            l->failed = true;
            return;
        }
        memcpy(p, l->v, l->n * sizeof *p);
        if (l->heap) c2d_free(l->a, l->v);
        l->v = p;
        l->cap = cap;
        l->heap = true;
    }
    l->v[l->n++] = id;
}

void c2d_world_query_ids_release(id_list *l) {
    if (l->heap) c2d_free(l->a, l->v);
}

static int id_order(const void *a, const void *b) {
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sorts the ids and drops repeats. */
static void ids_sort_unique(id_list *l) {
    if (l->n < 2) return;
    qsort(l->v, l->n, sizeof *l->v, id_order);
    size_t k = 1;
    for (size_t i = 1; i < l->n; i++)
        if (l->v[i] != l->v[k - 1]) l->v[k++] = l->v[i];
    l->n = k;
}

/* ---- regions ------------------------------------------------------------------------------- */

static bool region_meets_ball(const region *q, c2d_circle c) {
    return q->kind == REGION_BOX ? c2d_overlap_box_circle(q->box, c)
                                 : c2d_overlap_circles(q->disc, c);
}

static bool region_meets_capsule(const region *q, c2d_capsule k) {
    switch (q->kind) {
    case REGION_BOX:
        return c2d_overlap_box_capsule(q->box, k);
    case REGION_DISC:
        return c2d_overlap_circle_capsule(q->disc, k);
    default:
        return c2d_point_in_capsule(q->disc.center, k);
    }
}

/* Ball at dense index d: listed when its words and the predicate say so. */
static void region_ball(const c2d_world *w, const region *q, uint32_t d, id_list *out) {
    if (!c2d_filter_allows(q->category, q->mask, w->category[d], w->mask[d])) return;
    const c2d_circle c = {{w->x[d], w->y[d]}, w->radius[d]};
    if (region_meets_ball(q, c)) ids_push(out, w->ids[d]);
}

static void region_ball_id(const c2d_world *w, const region *q, uint32_t id, id_list *out) {
    uint32_t d;
    if (c2d_world_lookup_ball(w, id, &d)) region_ball(w, q, d, out);
}

static void region_capsule(const c2d_world *w, const region *q, uint32_t d, id_list *out) {
    if (!c2d_filter_allows(q->category, q->mask, w->capsule_category[d], w->capsule_mask[d]))
        return;
    if (region_meets_capsule(q, w->shape[d])) ids_push(out, w->capsule_ids[d]);
}

/* The frozen balls that touch any of the discs (x, y, r)[0 .. n): candidates, to region_ball.
 * Each disc is the query's own id, which no frozen ball has. */
void c2d_world_query_frozen_candidates(const c2d_world *w, const region *q, const float *x,
                                       const float *y, const float *r, size_t n, id_list *out) {
    c2d_scene *scene = w->balls_scene;
    if (!scene || c2d_scene_frozen_count(scene) == 0) return;
    uint32_t qids[BOX_TILES], cat[BOX_TILES], mask[BOX_TILES];
    for (size_t i = 0; i < n; i++) {
        qids[i] = QUERY_ID;
        cat[i] = q->category;
        mask[i] = q->mask;
    }
    const c2d_circle_soa discs = {x, y, r, n, cat, mask};
    c2d_circle_pair_contact stack[STACK_CONTACTS], *pairs = stack;
    size_t total = 0;
    /* (it writes the index's scratch only: hence one query at a time, world.h) */
    c2d_status st = c2d_scene_collide_frozen(scene, &discs, qids, stack, STACK_CONTACTS, &total);
    if (st == C2D_ERROR_TRUNCATED) {
        pairs = c2d_alloc_array(&w->allocator, total, sizeof *pairs);
        if (!pairs) {
            out->failed = true;
            return;
        }
        st = c2d_scene_collide_frozen(scene, &discs, qids, pairs, total, &total);
    }
    if (st == C2D_OK)
        for (size_t i = 0; i < total; i++) {
            const uint32_t d = pairs[i].a == QUERY_ID ? pairs[i].b : pairs[i].a;
            if (d < w->ball_count) region_ball(w, q, d, out);
        }
    else
        out->failed = true;
    if (pairs != stack) c2d_free(&w->allocator, pairs);
}

/* The awake balls near the region, from the grid (and its big and noted balls). */
static void grid_candidates(const c2d_world *w, const query_grid *g, const region *q,
                            id_list *out) {
    for (uint32_t rest = g->levels; rest; rest &= rest - 1) {
        const grid_level *lv = &g->level[__builtin_ctz(rest)];
        grid_window win;
        const double cells =
            c2d_world_query_window(g, lv, q->lo_x, q->lo_y, q->hi_x, q->hi_y, q->margin, &win);
        if (cells <= (double)lv->count + 4.0) {
            FOR_WINDOW_IDS(g, lv, win, i)
            region_ball_id(w, q, g->cell_ids[i], out);
        } else { /* more cells than balls: the level's balls */
            for (size_t i = g->cell_start[lv->base];
                 i < g->cell_start[lv->base + (size_t)lv->nx * lv->ny]; i++)
                region_ball_id(w, q, g->cell_ids[i], out);
        }
    }
    for (size_t i = 0; i < g->big_count; i++)
        region_ball_id(w, q, g->big[i], out);
    for (size_t i = 0; i < g->extra_count; i++)
        region_ball_id(w, q, g->extra[i], out);
}

/* The discs the frozen index is asked with: the region's box grown by the margin, cut along
 * its long side into at most BOX_TILES near-squares, each within its circumscribed disc. */
static size_t region_discs(const region *q, float *x, float *y, float *r) {
    const double m = q->margin;
    if (q->kind != REGION_BOX) {
        x[0] = q->disc.center.x;
        y[0] = q->disc.center.y;
        r[0] = (float)(((double)q->disc.radius + m) * (1.0 + 0x1p-12));
        return 1;
    }
    const double lx = q->lo_x - m, ly = q->lo_y - m, wx = q->hi_x - q->lo_x + 2.0 * m,
                 wy = q->hi_y - q->lo_y + 2.0 * m;
    const bool along_x = wx >= wy;
    const double len = along_x ? wx : wy, thin = along_x ? wy : wx;
    double tiles = thin > 0.0 ? ceil(len / thin) : (double)BOX_TILES;
    if (tiles > BOX_TILES) tiles = BOX_TILES;
    if (tiles < 1.0) tiles = 1.0;
    const size_t n = (size_t)tiles;
    const double step = len / tiles;
    const double tw = along_x ? step : wx, th = along_x ? wy : step;
    const float radius = (float)(0.5 * sqrt(tw * tw + th * th) * (1.0 + 0x1p-12) + m);
    for (size_t i = 0; i < n; i++) {
        const double c = (double)i * step + 0.5 * step;
        x[i] = (float)(along_x ? lx + c : lx + 0.5 * wx);
        y[i] = (float)(along_x ? ly + 0.5 * wy : ly + c);
        r[i] = radius;
    }
    return n;
}

/* Every ball of the region, into `balls` (unsorted, maybe repeated). */
static void region_balls(const c2d_world *w, const region *q, id_list *balls) {
    const query_grid *g = c2d_world_query_grid_fresh(w);
    if (!g) { /* out of memory: every ball */
        for (size_t d = 0; d < w->ball_count; d++)
            region_ball(w, q, (uint32_t)d, balls);
        return;
    }
    float x[BOX_TILES], y[BOX_TILES], r[BOX_TILES];
    const size_t n = region_discs(q, x, y, r);
    c2d_world_query_frozen_candidates(w, q, x, y, r, n, balls);
    grid_candidates(w, g, q, balls);
}

/* The capsules of one scene (static or sensor) the region meets, by the scene's index. */
static void scene_capsules(const c2d_world *w, const region *q, const c2d_scene *scene,
                           const uint32_t *map, size_t scene_count, id_list *out) {
    if (!scene || scene_count == 0) return;
    const float lx = q->box.lo.x, ly = q->box.lo.y, hx = q->box.hi.x, hy = q->box.hi.y;
    const float cx = q->disc.center.x, cy = q->disc.center.y, cr = q->disc.radius;
    const c2d_box_soa boxes = {&lx, &ly, &hx, &hy, 1, &q->category, &q->mask};
    const c2d_circle_soa discs = {&cx, &cy, &cr, 1, &q->category, &q->mask};
    const c2d_point_soa points = {&cx, &cy, 1, &q->category, &q->mask};
    c2d_query_pair stack[STACK_PAIRS], *pairs = stack;
    size_t capacity = STACK_PAIRS, total = 0;
    c2d_status st;
    for (;;) {
        st = q->kind == REGION_BOX ? c2d_scene_query_box(scene, &boxes, pairs, capacity, &total)
             : q->kind == REGION_DISC
                 ? c2d_scene_query_disc(scene, &discs, pairs, capacity, &total)
                 : c2d_scene_query_point(scene, &points, pairs, capacity, &total);
        if (st != C2D_ERROR_TRUNCATED || pairs != stack) break;
        pairs = c2d_alloc_array(&w->allocator, total, sizeof *pairs);
        if (!pairs) {
            out->failed = true;
            return;
        }
        capacity = total;
    }
    if (st == C2D_OK)
        for (size_t i = 0; i < total; i++) {
            if (pairs[i].shape >= scene_count) continue;
            const uint32_t d = map[pairs[i].shape];
            if (d < w->capsule_count) region_capsule(w, q, d, out);
        }
    else
        out->failed = true;
    if (pairs != stack) c2d_free(&w->allocator, pairs);
}

/* Every capsule of the region, into `capsules` (unsorted, maybe repeated). */
static void region_capsules(const c2d_world *w, const region *q, id_list *capsules) {
    if (w->capsules_dirty) { /* the scenes are stale until the next step: every capsule */
        for (size_t d = 0; d < w->capsule_count; d++)
            region_capsule(w, q, (uint32_t)d, capsules);
        return;
    }
    scene_capsules(w, q, w->static_scene, w->static_map, w->static_count, capsules);
    scene_capsules(w, q, w->sensor_scene, w->sensor_map, w->sensor_count, capsules);
    /* (sensors are static: no kinematic capsule is one) */
    const c2d_scene *kinematic = c2d_world_query_kinematic_scene(w);
    if (kinematic) {
        scene_capsules(w, q, kinematic, w->kinematic_list, w->kinematic_count, capsules);
        return;
    }
    for (size_t i = 0; i < w->kinematic_count; i++)
        if (w->kinematic_list[i] < w->capsule_count)
            region_capsule(w, q, w->kinematic_list[i], capsules);
}

/* The statuses every query shares: NULL, then a step running. */
static c2d_status query_begin(const c2d_world *w, const void *out, size_t capacity, size_t *count) {
    if (!count) return C2D_ERROR_NULL;
    *count = 0;
    if (!w || (!out && capacity > 0)) return C2D_ERROR_NULL;
    if (atomic_load((atomic_int *)&w->stepping)) return C2D_ERROR_STATE;
    return C2D_OK;
}

/* A margin far above the rounding of any predicate near coordinates of size `size`. */
double c2d_world_query_margin(double size) {
    return size * 0x1p-18 + 0x1p-100;
}

static c2d_status region_query(const c2d_world *w, region *q, c2d_world_shape_ref *out,
                               size_t capacity, size_t *count) {
    uint32_t ball_stack[STACK_IDS], capsule_stack[STACK_IDS];
    id_list balls, capsules;
    c2d_world_query_ids_init(&balls, ball_stack, STACK_IDS, &w->allocator);
    c2d_world_query_ids_init(&capsules, capsule_stack, STACK_IDS, &w->allocator);
    region_balls(w, q, &balls);
    region_capsules(w, q, &capsules);
    c2d_status st = C2D_OK;
    if (balls.failed || capsules.failed) {
        st = C2D_ERROR_ALLOC;
    } else {
        ids_sort_unique(&balls);
        ids_sort_unique(&capsules);
        const size_t total = balls.n + capsules.n;
        for (size_t i = 0; i < balls.n && i < capacity; i++)
            out[i] = (c2d_world_shape_ref){balls.v[i], C2D_SHAPE_CIRCLE};
        for (size_t i = 0; i < capsules.n && balls.n + i < capacity; i++)
            out[balls.n + i] = (c2d_world_shape_ref){capsules.v[i], C2D_SHAPE_CAPSULE};
        *count = total;
        if (out && total > capacity) st = C2D_ERROR_TRUNCATED;
    }
    c2d_world_query_ids_release(&balls);
    c2d_world_query_ids_release(&capsules);
    return st;
}

c2d_status c2d_world_query_box(const c2d_world *w, c2d_box box, uint32_t category, uint32_t mask,
                               c2d_world_shape_ref *out, size_t capacity, size_t *count) {
    c2d_status st = query_begin(w, out, capacity, count);
    if (st != C2D_OK) return st;
    if (!c2d_world_finite_vec(box.lo) || !c2d_world_finite_vec(box.hi)) return C2D_ERROR_VALUE;
    if (box.lo.x > box.hi.x || box.lo.y > box.hi.y) return C2D_OK; /* empty: meets nothing */
    region q = {.kind = REGION_BOX, .box = box, .category = category, .mask = mask};
    q.lo_x = box.lo.x;
    q.lo_y = box.lo.y;
    q.hi_x = box.hi.x;
    q.hi_y = box.hi.y;
    q.margin = c2d_world_query_margin(fabs(q.lo_x) + fabs(q.lo_y) + fabs(q.hi_x) + fabs(q.hi_y));
    return region_query(w, &q, out, capacity, count);
}

c2d_status c2d_world_query_disc(const c2d_world *w, c2d_circle disc, uint32_t category,
                                uint32_t mask, c2d_world_shape_ref *out, size_t capacity,
                                size_t *count) {
    c2d_status st = query_begin(w, out, capacity, count);
    if (st != C2D_OK) return st;
    if (!c2d_world_finite_vec(disc.center) || !isfinite(disc.radius) || disc.radius < 0.0f)
        return C2D_ERROR_VALUE;
    region q = {.kind = REGION_DISC, .disc = disc, .category = category, .mask = mask};
    const double cx = disc.center.x, cy = disc.center.y, r = disc.radius;
    q.lo_x = cx - r;
    q.lo_y = cy - r;
    q.hi_x = cx + r;
    q.hi_y = cy + r;
    q.margin = c2d_world_query_margin(fabs(cx) + fabs(cy) + r);
    return region_query(w, &q, out, capacity, count);
}

c2d_status c2d_world_query_point(const c2d_world *w, c2d_vec2 point, uint32_t category,
                                 uint32_t mask, c2d_world_shape_ref *out, size_t capacity,
                                 size_t *count) {
    c2d_status st = query_begin(w, out, capacity, count);
    if (st != C2D_OK) return st;
    if (!c2d_world_finite_vec(point)) return C2D_ERROR_VALUE;
    region q = {.kind = REGION_POINT, .disc = {point, 0.0f}, .category = category, .mask = mask};
    q.lo_x = q.hi_x = point.x;
    q.lo_y = q.hi_y = point.y;
    q.margin = c2d_world_query_margin(fabs(q.lo_x) + fabs(q.lo_y));
    return region_query(w, &q, out, capacity, count);
}
