/* The grid of the awake balls that the world queries read (world_query.h): built by the first
 * query after a step (c2d_world_query_grid_build), plus the balls noted since
 * (c2d_world_query_note_ball), and the windows of its cells around a box. */
#include <math.h>
#include <string.h>

#include "world_query.h"

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
    c2d_world_query_kinematic_drop(w, true);
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
const query_grid *c2d_world_query_grid_fresh(const c2d_world *w) {
    const query_grid *g = grid_ready(w);
    if (g) return g;
    c2d_world_query_grid_build((c2d_world *)(uintptr_t)w);
    return grid_ready(w);
}

/* Level lv's cells around the double box, grown by the level's r_max and the margin (every
 * ball of the level that can touch the box has its centre there); returns how many. */
double c2d_world_query_window(const query_grid *g, const grid_level *lv, double lo_x, double lo_y,
                              double hi_x, double hi_y, double margin, grid_window *win) {
    const double e = (double)lv->r_max * (1.0 + 0x1p-10) + margin;
    win->ix0 = cell_coord(lo_x - e, g->x0, lv->inv_h, lv->nx);
    win->ix1 = cell_coord(hi_x + e, g->x0, lv->inv_h, lv->nx);
    win->iy0 = cell_coord(lo_y - e, g->y0, lv->inv_h, lv->ny);
    win->iy1 = cell_coord(hi_y + e, g->y0, lv->inv_h, lv->ny);
    return ((double)win->ix1 - win->ix0 + 1.0) * ((double)win->iy1 - win->iy0 + 1.0);
}
