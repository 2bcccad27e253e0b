/* World queries (collide2d/world.h): a ray's first hit, and the balls and capsules in a box, a
 * disc or at a point, by id.
 *
 * Every (query, shape) pair is decided by the library's scalar predicate on the world's own
 * values (c2d_ray_circle / c2d_ray_capsule, c2d_overlap_box_circle / c2d_overlap_box_capsule,
 * c2d_overlap_circles / c2d_overlap_circle_capsule, c2d_point_in_capsule), so the answer is
 * that of a loop over every ball and capsule. The indexes only find candidates, generously
 * (every bound grown by a margin far above float rounding), and never decide a pair:
 *   - sleeping balls: the frozen index of balls_scene (dense index = frozen id), through
 *     c2d_scene_collide_frozen (regions) and c2d_scene_sweep_frozen (rays: a circle of radius 0,
 *     which is c2d_ray_circle's definition);
 *   - awake balls: a grid of ids (c2d_world_query_grid_build), built by the first query after a
 *     step, plus the balls noted since (c2d_world_query_note_ball: added, moved or woken);
 *   - capsules: static_scene and sensor_scene through their indexes, the kinematic ones one by
 *     one; every capsule one by one while the scenes are stale (capsules_dirty).
 * A ball may be found twice (asleep now but awake at the grid's build, or noted after it): the
 * ids are sorted and repeats dropped. Ids, not dense indices, are kept in the grid, so removals
 * (which move the last balls into the holes) never make it wrong: a removed id is not found.
 *
 * Why the first query builds the grid and not the step: the build costs O(balls / 8 + awake)
 * (0.4 ms of a 7.5 ms falling step at 65,536 balls), which a world that is never queried should
 * not pay; and the queries cannot run at once anyway (c2d_scene_collide_frozen writes the
 * frozen index's scratch), so a query may as well write the grid: one query at a time, world.h
 * says so. (A step that calls c2d_world_query_grid_build at its end makes the queries read
 * only.) The queries allocate (w->allocator) for the grid, and when more shapes than their
 * stack buffers hold lie near the query (freed before returning). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collide2d/query.h"
#include "world_internal.h"

/* The query's own id for the frozen index: above every dense index (< 2^24), never C2D_NONE. */
#define QUERY_ID (UINT32_MAX - 1u)

/* Stack room before a query allocates. */
enum { STACK_IDS = 256, STACK_CONTACTS = 64, STACK_PAIRS = 128, BOX_TILES = 32 };

/* ---- the grid of awake balls --------------------------------------------------------------- */

/* Awake balls by the cell of their centre, on levels of cells of side h, 4h, 16h, ... over the
 * box of the centres (a centre outside it would be clamped into the border cell; queries clamp
 * the same way). A ball lives on the finest level whose cells are at least its diameter, so it
 * lies within its level's r_max of its cell; a ball too large for every level, or with a value
 * that is not finite, goes to the `big` list, tested by every query. */
#define GRID_LEVELS 8

typedef struct grid_level {
    double inv_h, h;
    uint32_t nx, ny;
    size_t base, count; /* its cells are cell_start[base .. base + nx ny]; balls held */
    float r_max;
} grid_level;

typedef struct query_grid {
    bool usable; /* false: stale (the next query builds it), or its build ran out of memory */
    double x0, y0, x1, y1; /* the box of the binned centres */
    grid_level level[GRID_LEVELS];
    uint32_t levels;      /* bit L: level L holds a ball */
    double scale;         /* level 0's first cell at the last build with awake balls, or sampled */
    uint32_t *cell_start; /* every level's cells, + 1 */
    uint32_t *cell_ids;   /* ids, by cell */
    size_t binned, cell_capacity, id_capacity;
    uint32_t *big;
    size_t big_count, big_capacity;
    uint32_t *extra; /* ids of the balls noted since the build */
    size_t extra_count, extra_capacity;
    uint32_t *dense, *cell_of; /* build scratch: the awake balls' dense indices, their cells */
    size_t dense_capacity, cell_of_capacity;
} query_grid;

/* An array of `size`-byte elements with room for `need`: kept when large enough, else replaced
 * (contents dropped). */
static bool grid_reserve(c2d_world *w, void **array, size_t *capacity, size_t need, size_t size) {
    if (need <= *capacity) return true;
    const size_t cap = c2d_grown(*capacity, need);
    void *p = c2d_alloc_array(&w->allocator, cap, size);
    if (!p) return false;
    c2d_free(&w->allocator, *array);
    *array = p;
    *capacity = cap;
    return true;
}

static query_grid *grid_get(c2d_world *w) {
    if (!w->query_grid) {
        query_grid *g = c2d_alloc(&w->allocator, sizeof *g);
        if (!g) return NULL;
        memset(g, 0, sizeof *g); /* (not usable until built) */
        w->query_grid = g;
    }
    return w->query_grid;
}

void c2d_world_query_free(c2d_world *w) {
    query_grid *g = w->query_grid;
    if (!g) return;
    c2d_free(&w->allocator, g->cell_start);
    c2d_free(&w->allocator, g->cell_ids);
    c2d_free(&w->allocator, g->big);
    c2d_free(&w->allocator, g->extra);
    c2d_free(&w->allocator, g->dense);
    c2d_free(&w->allocator, g->cell_of);
    c2d_free(&w->allocator, g);
    w->query_grid = NULL;
}

/* Noted balls past this many (beyond a quarter of the binned ones) make the grid stale: one
 * rebuild costs less than every query testing them all. */
#define EXTRA_LIMIT 64

void c2d_world_query_note_ball(c2d_world *w, uint32_t dense) {
    query_grid *g = w->query_grid;
    /* During a step, with no grid, or a stale one, the next build sees the ball anyway. */
    if (atomic_load(&w->stepping) || !g || !g->usable || w->query_grid_step != w->step_index)
        return;
    if (g->extra_count >= EXTRA_LIMIT + g->binned / 4) {
        g->usable = false;
        return;
    }
    if (g->extra_count == g->extra_capacity) {
        const size_t cap = c2d_grown(g->extra_capacity, g->extra_count + 1);
        uint32_t *p = c2d_alloc_array(&w->allocator, cap, sizeof *p);
        if (!p) {
            g->usable = false;
            return;
        }
        if (g->extra_count) memcpy(p, g->extra, g->extra_count * sizeof *p);
        c2d_free(&w->allocator, g->extra);
        g->extra = p;
        g->extra_capacity = cap;
    }
    g->extra[g->extra_count++] = w->ids[dense];
}

/* Cell coordinate of v on an axis starting at v0, clamped into [0, n - 1] (NaN: 0). */
static inline uint32_t cell_coord(double v, double v0, double inv_h, uint32_t n) {
    const double c = (v - v0) * inv_h;
    if (!(c >= 1.0)) return 0;
    if (c >= (double)n) return n - 1;
    const uint32_t i = (uint32_t)c; /* c in [1, n): truncation is floor */
    return i < n ? i : n - 1;
}

/* Whether any of the 8 flag bytes at p has bit `bit` set. */
static inline bool any_flag(const uint8_t *p, uint8_t bit) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return (v & (UINT64_C(0x0101010101010101) * bit)) != 0;
}

/* The dense indices of the awake balls, the first `capacity` of them to out; returns how many
 * there are. The flags are read 8 at a time: runs of sleeping balls cost little. */
static size_t list_awake(const c2d_world *w, uint32_t *out, size_t capacity) {
    const size_t n = w->ball_count;
    size_t m = 0, k = 0;
    for (; k + 8 <= n; k += 8) {
        if (!any_flag(w->flags + k, WORLD_BALL_AWAKE)) continue;
        for (size_t j = k; j < k + 8; j++)
            if (w->flags[j] & WORLD_BALL_AWAKE) {
                if (m < capacity) out[m] = (uint32_t)j;
                m++;
            }
    }
    for (; k < n; k++)
        if (w->flags[k] & WORLD_BALL_AWAKE) {
            if (m < capacity) out[m] = (uint32_t)k;
            m++;
        }
    return m;
}

/* Four times the mean radius of up to 64 balls spread over the dense arrays: the size of the
 * ray's pieces over the frozen balls when no ball was ever awake at a build. */
static double sampled_scale(const c2d_world *w) {
    const size_t n = w->ball_count, step = n / 64 + 1;
    double sum = 0.0;
    size_t k = 0;
    for (size_t d = 0; d < n; d += step)
        if (isfinite(w->radius[d])) {
            sum += w->radius[d];
            k++;
        }
    return k && sum > 0.0 ? 4.0 * sum / (double)k : 1.0;
}

void c2d_world_query_grid_build(c2d_world *w) {
    query_grid *g = grid_get(w);
    if (!g) return; /* queries test every ball */
    g->usable = false;
    g->extra_count = 0;
    g->binned = g->big_count = 0;
    g->levels = 0;
    w->query_grid_step = w->step_index;
    if (w->awake_count == 0) { /* nothing to list: O(1) while everything sleeps */
        if (g->scale == 0.0) g->scale = sampled_scale(w);
        g->usable = true;
        return;
    }
    /* The awake balls: every ball (no list needed), or awake_count of them, unless the flags
     * say more. */
    size_t m = w->awake_count;
    const bool all = m == w->ball_count;
    for (int pass = 0; pass < 2; pass++) {
        if (!grid_reserve(w, (void **)&g->cell_of, &g->cell_of_capacity, m, sizeof(uint32_t)))
            return;
        if (all) break;
        if (!grid_reserve(w, (void **)&g->dense, &g->dense_capacity, m, sizeof(uint32_t))) return;
        m = list_awake(w, g->dense, g->dense_capacity);
        if (m <= g->dense_capacity) break;
    }
    if (!all && m > g->dense_capacity) return;
    const uint32_t *list = all ? NULL : g->dense; /* ball i of the build: list[i], or i */
#define BALL(i) (list ? list[i] : (uint32_t)(i))
    /* The box of the finite centres, their mean and largest radius. */
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY, sum_r = 0.0;
    float r_max = 0.0f;
    size_t finite = 0;
    for (size_t i = 0; i < m; i++) {
        const uint32_t d = BALL(i);
        const float x = w->x[d], y = w->y[d], r = w->radius[d];
        if (!isfinite(x) || !isfinite(y) || !isfinite(r)) continue;
        lo_x = x < lo_x ? x : lo_x;
        hi_x = x > hi_x ? x : hi_x;
        lo_y = y < lo_y ? y : lo_y;
        hi_y = y > hi_y ? y : hi_y;
        sum_r += r;
        r_max = r > r_max ? r : r_max;
        finite++;
    }
    if (!finite) lo_x = lo_y = hi_x = hi_y = 0.0;
    g->x0 = lo_x;
    g->y0 = lo_y;
    g->x1 = hi_x;
    g->y1 = hi_y;
    const double span_x = hi_x - lo_x, span_y = hi_y - lo_y;
    /* Level 0's cell: four mean radii (a few balls a cell in a pile), or the mean spacing of
     * the centres when sparser. */
    double h = finite ? 4.0 * sum_r / (double)finite : 1.0;
    const double spacing = finite ? sqrt(span_x * span_y / (double)finite) : 0.0;
    if (spacing > h) h = spacing;
    if (!(h > 0.0) || !isfinite(h)) h = 1.0;
    g->scale = h; /* (kept while everything sleeps: the sleeping balls were awake at this size) */
    /* Each ball's level (kept in cell_of for now), and the balls a level; when every ball fits
     * level 0 (the usual case) no pass is needed. */
    for (unsigned L = 0; L < GRID_LEVELS; L++) {
        grid_level *lv = &g->level[L];
        lv->h = L ? g->level[L - 1].h * 4.0 : h;
        lv->count = 0;
        lv->r_max = 0.0f;
    }
    const bool one_level = (double)r_max * 2.0 <= h;
    if (one_level) {
        g->level[0].count = finite;
        g->level[0].r_max = r_max;
    } else {
        for (size_t i = 0; i < m; i++) {
            const uint32_t d = BALL(i);
            const float x = w->x[d], y = w->y[d], r = w->radius[d];
            unsigned L = 0;
            while (L < GRID_LEVELS && !((double)r * 2.0 <= g->level[L].h))
                L++;
            if (!isfinite(x) || !isfinite(y) || L == GRID_LEVELS) {
                g->cell_of[i] = UINT32_MAX;
                continue;
            }
            g->cell_of[i] = L;
            g->level[L].count++;
            if (r > g->level[L].r_max) g->level[L].r_max = r;
        }
    }
    /* The levels' cells, each level doubling its cell until it has at most about 2 a ball. */
    size_t cells = 0;
    for (unsigned L = 0; L < GRID_LEVELS; L++) {
        grid_level *lv = &g->level[L];
        lv->base = cells;
        lv->nx = lv->ny = 0;
        if (!lv->count) continue;
        g->levels |= 1u << L;
        const double limit = 2.0 * (double)lv->count + 16.0;
        for (;;) {
            const double cx = floor(span_x / lv->h) + 1.0, cy = floor(span_y / lv->h) + 1.0;
            if (cx * cy <= limit) {
                lv->nx = (uint32_t)cx;
                lv->ny = (uint32_t)cy;
                break;
            }
            lv->h *= 2.0;
        }
        lv->inv_h = 1.0 / lv->h;
        cells += (size_t)lv->nx * lv->ny;
    }
    if (!grid_reserve(w, (void **)&g->cell_start, &g->cell_capacity, cells + 1, sizeof(uint32_t)) ||
        !grid_reserve(w, (void **)&g->cell_ids, &g->id_capacity, m, sizeof(uint32_t)) ||
        !grid_reserve(w, (void **)&g->big, &g->big_capacity, m, sizeof(uint32_t)))
        return;
    memset(g->cell_start, 0, (cells + 1) * sizeof(uint32_t));
    for (size_t i = 0; i < m; i++) {
        const uint32_t d = BALL(i);
        const float x = w->x[d], y = w->y[d];
        uint32_t L;
        if (one_level)
            L = isfinite(x) && isfinite(y) && isfinite(w->radius[d]) ? 0 : UINT32_MAX;
        else
            L = g->cell_of[i];
        if (L == UINT32_MAX) {
            g->big[g->big_count++] = w->ids[d];
            g->cell_of[i] = UINT32_MAX;
            continue;
        }
        const grid_level *lv = &g->level[L];
        const uint32_t c = (uint32_t)lv->base + cell_coord(y, g->y0, lv->inv_h, lv->ny) * lv->nx +
                           cell_coord(x, g->x0, lv->inv_h, lv->nx);
        g->cell_of[i] = c;
        g->cell_start[c + 1]++;
    }
    for (size_t c = 0; c < cells; c++)
        g->cell_start[c + 1] += g->cell_start[c];
    for (size_t i = 0; i < m; i++)
        if (g->cell_of[i] != UINT32_MAX)
            g->cell_ids[g->cell_start[g->cell_of[i]]++] = w->ids[BALL(i)];
#undef BALL
    for (size_t c = cells; c > 0; c--) /* back to starts */
        g->cell_start[c] = g->cell_start[c - 1];
    g->cell_start[0] = 0;
    g->binned = m - g->big_count;
    g->usable = true;
}

/* The grid when it holds every awake ball (built at this step, nothing lost since), or NULL. */
static const query_grid *grid_ready(const c2d_world *w) {
    const query_grid *g = w->query_grid;
    return g && g->usable && w->query_grid_step == w->step_index ? g : NULL;
}

/* The grid, built first when a step ran since (the first query after a step pays it, a world
 * that is never queried never does); NULL when out of memory: then the queries test every
 * ball. The build writes the world's query scratch only, which the queries' one-at-a-time rule
 * (world.h) allows: the world is never a const object (c2d_world_create allocates it). */
static const query_grid *grid_fresh(const c2d_world *w) {
    const query_grid *g = grid_ready(w);
    if (g) return g;
    c2d_world_query_grid_build((c2d_world *)(uintptr_t)w);
    return grid_ready(w);
}

/* ---- results ------------------------------------------------------------------------------- */

/* A growing list of ids: a stack buffer first, then the world's allocator. */
typedef struct id_list {
    uint32_t *v;
    size_t n, cap;
    const c2d_allocator *a;
    bool heap, failed;
} id_list;

static void ids_init(id_list *l, uint32_t *stack, size_t cap, const c2d_allocator *a) {
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

static void ids_release(id_list *l) {
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

typedef enum region_kind { REGION_BOX, REGION_DISC, REGION_POINT } region_kind;

/* A region query: its shape, its words, and a box around it in double ([lo, hi], finite). */
typedef struct region {
    region_kind kind;
    c2d_box box;
    c2d_circle disc; /* the disc; the point as a disc of radius 0 */
    uint32_t category, mask;
    double lo_x, lo_y, hi_x, hi_y;
    double margin; /* far above the rounding of any predicate near the region */
} region;

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
static void frozen_candidates(const c2d_world *w, const region *q, const float *x, const float *y,
                              const float *r, size_t n, id_list *out) {
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

/* A window of cells of one level: [ix0, ix1] x [iy0, iy1]. */
typedef struct grid_window {
    uint32_t ix0, iy0, ix1, iy1;
} grid_window;

/* Level lv's cells around the double box, grown by the level's r_max and the margin (every
 * ball of the level that can touch the box has its centre there); returns how many. */
static double window_of(const query_grid *g, const grid_level *lv, double lo_x, double lo_y,
                        double hi_x, double hi_y, double margin, grid_window *win) {
    const double e = (double)lv->r_max * (1.0 + 0x1p-10) + margin;
    win->ix0 = cell_coord(lo_x - e, g->x0, lv->inv_h, lv->nx);
    win->ix1 = cell_coord(hi_x + e, g->x0, lv->inv_h, lv->nx);
    win->iy0 = cell_coord(lo_y - e, g->y0, lv->inv_h, lv->ny);
    win->iy1 = cell_coord(hi_y + e, g->y0, lv->inv_h, lv->ny);
    return ((double)win->ix1 - win->ix0 + 1.0) * ((double)win->iy1 - win->iy0 + 1.0);
}

/* The ids of the window's cells: [cell_start[first], cell_start[first + ...]) a row. */
#define FOR_WINDOW_IDS(g, lv, win, i)                                                              \
    for (uint32_t iy_ = (win).iy0; iy_ <= (win).iy1; iy_++)                                        \
        for (size_t row_ = (lv)->base + (size_t)iy_ * (lv)->nx,                                    \
                    i = (g)->cell_start[row_ + (win).ix0];                                         \
             i < (g)->cell_start[row_ + (win).ix1 + 1]; i++)

/* The awake balls near the region, from the grid (and its big and noted balls). */
static void grid_candidates(const c2d_world *w, const query_grid *g, const region *q,
                            id_list *out) {
    for (uint32_t rest = g->levels; rest; rest &= rest - 1) {
        const grid_level *lv = &g->level[__builtin_ctz(rest)];
        grid_window win;
        const double cells = window_of(g, lv, q->lo_x, q->lo_y, q->hi_x, q->hi_y, q->margin, &win);
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
    const query_grid *g = grid_fresh(w);
    if (!g) { /* out of memory: every ball */
        for (size_t d = 0; d < w->ball_count; d++)
            region_ball(w, q, (uint32_t)d, balls);
        return;
    }
    float x[BOX_TILES], y[BOX_TILES], r[BOX_TILES];
    const size_t n = region_discs(q, x, y, r);
    frozen_candidates(w, q, x, y, r, n, balls);
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
    for (size_t i = 0; i < w->kinematic_count; i++) /* (sensors are static: none of these) */
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
static double margin_of(double size) {
    return size * 0x1p-18 + 0x1p-100;
}

static c2d_status region_query(const c2d_world *w, region *q, c2d_world_shape_ref *out,
                               size_t capacity, size_t *count) {
    uint32_t ball_stack[STACK_IDS], capsule_stack[STACK_IDS];
    id_list balls, capsules;
    ids_init(&balls, ball_stack, STACK_IDS, &w->allocator);
    ids_init(&capsules, capsule_stack, STACK_IDS, &w->allocator);
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
    ids_release(&balls);
    ids_release(&capsules);
    return st;
}

static bool finite2(c2d_vec2 v) {
    return isfinite(v.x) && isfinite(v.y);
}

c2d_status c2d_world_query_box(const c2d_world *w, c2d_box box, uint32_t category, uint32_t mask,
                               c2d_world_shape_ref *out, size_t capacity, size_t *count) {
    c2d_status st = query_begin(w, out, capacity, count);
    if (st != C2D_OK) return st;
    if (!finite2(box.lo) || !finite2(box.hi)) return C2D_ERROR_VALUE;
    if (box.lo.x > box.hi.x || box.lo.y > box.hi.y) return C2D_OK; /* empty: meets nothing */
    region q = {.kind = REGION_BOX, .box = box, .category = category, .mask = mask};
    q.lo_x = box.lo.x;
    q.lo_y = box.lo.y;
    q.hi_x = box.hi.x;
    q.hi_y = box.hi.y;
    q.margin = margin_of(fabs(q.lo_x) + fabs(q.lo_y) + fabs(q.hi_x) + fabs(q.hi_y));
    return region_query(w, &q, out, capacity, count);
}

c2d_status c2d_world_query_disc(const c2d_world *w, c2d_circle disc, uint32_t category,
                                uint32_t mask, c2d_world_shape_ref *out, size_t capacity,
                                size_t *count) {
    c2d_status st = query_begin(w, out, capacity, count);
    if (st != C2D_OK) return st;
    if (!finite2(disc.center) || !isfinite(disc.radius) || disc.radius < 0.0f)
        return C2D_ERROR_VALUE;
    region q = {.kind = REGION_DISC, .disc = disc, .category = category, .mask = mask};
    const double cx = disc.center.x, cy = disc.center.y, r = disc.radius;
    q.lo_x = cx - r;
    q.lo_y = cy - r;
    q.hi_x = cx + r;
    q.hi_y = cy + r;
    q.margin = margin_of(fabs(cx) + fabs(cy) + r);
    return region_query(w, &q, out, capacity, count);
}

c2d_status c2d_world_query_point(const c2d_world *w, c2d_vec2 point, uint32_t category,
                                 uint32_t mask, c2d_world_shape_ref *out, size_t capacity,
                                 size_t *count) {
    c2d_status st = query_begin(w, out, capacity, count);
    if (st != C2D_OK) return st;
    if (!finite2(point)) return C2D_ERROR_VALUE;
    region q = {.kind = REGION_POINT, .disc = {point, 0.0f}, .category = category, .mask = mask};
    q.lo_x = q.hi_x = point.x;
    q.lo_y = q.hi_y = point.y;
    q.margin = margin_of(fabs(q.lo_x) + fabs(q.lo_y));
    return region_query(w, &q, out, capacity, count);
}

/* ---- the ray ------------------------------------------------------------------------------- */

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
        ids_init(&cand, stack, STACK_IDS, &w->allocator);
        frozen_candidates(w, &q, &cx, &cy, &cr, 1, &cand);
        for (size_t i = 0; i < cand.n; i++)
            ray_ball_id(w, r, cand.v[i]);
        const bool ok = !cand.failed;
        ids_release(&cand);
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
        if (window_of(g, lv, ax < bx ? ax : bx, ay < by ? ay : by, ax < bx ? bx : ax,
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

/* The static capsules: the scene's earliest hit, then every static capsule near its point. */
static bool ray_static(const c2d_world *w, ray_query *r) {
    const c2d_scene *scene = w->static_scene;
    if (!scene || w->static_count == 0) return true;
    const float ox = r->origin.x, oy = r->origin.y;
    const float mx = r->translation.x, my = r->translation.y;
    const c2d_ray_soa ray = {&ox, &oy, &mx, &my, 1, &r->category, &r->mask};
    c2d_ray_hit hit = {.shape = C2D_NONE, .kind = C2D_SHAPE_NONE};
    if (c2d_scene_ray_cast(scene, &ray, NULL, &hit) != C2D_OK) return false;
    if (hit.kind == C2D_SHAPE_NONE) return true;
    if (hit.shape >= w->static_count) return false;
    ray_query ties = *r;
    ties.found = false;
    const uint32_t first = w->static_map[hit.shape];
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
        if (pairs[i].shape < w->static_count && w->static_map[pairs[i].shape] < w->capsule_count)
            ray_capsule(w, &ties, w->static_map[pairs[i].shape]);
    if (pairs && pairs != stack) c2d_free(&w->allocator, pairs);
    ray_keep(r, ties.id, &ties.toi);
    return st == C2D_OK;
}

c2d_status c2d_world_cast_ray(const c2d_world *w, c2d_vec2 origin, c2d_vec2 translation,
                              uint32_t category, uint32_t mask, c2d_world_ray_hit *out) {
    if (!w || !out) return C2D_ERROR_NULL;
    if (atomic_load((atomic_int *)&w->stepping)) return C2D_ERROR_STATE;
    if (!finite2(origin) || !finite2(translation)) return C2D_ERROR_VALUE;
    ray_query balls = {.origin = origin,
                       .translation = translation,
                       .category = category,
                       .mask = mask,
                       .id = C2D_NONE};
    balls.margin = margin_of(fabs((double)origin.x) + fabs((double)origin.y) +
                             fabs((double)translation.x) + fabs((double)translation.y));
    ray_query capsules = balls;
    const query_grid *g = grid_fresh(w);
    if (g && ray_frozen(w, g, &balls)) {
        ray_grid(w, g, &balls);
    } else { /* out of memory: every ball */
        balls.found = false;
        for (size_t d = 0; d < w->ball_count; d++)
            ray_ball(w, &balls, (uint32_t)d);
    }
    if (!w->capsules_dirty && ray_static(w, &capsules)) {
        for (size_t i = 0; i < w->kinematic_count; i++)
            if (w->kinematic_list[i] < w->capsule_count)
                ray_capsule(w, &capsules, w->kinematic_list[i]);
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
