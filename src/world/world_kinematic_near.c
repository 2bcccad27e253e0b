/* Which kinematic capsules each awake ball may reach this step.
 *
 * A kinematic capsule's reach over the step is its box at the step's start grown by how far any
 * of its points moves (kin_reach) and its radius; a ball's is its box grown by its capsule
 * margin (ar_capsule: the whole step's move). The pairs whose boxes meet are the only ones the
 * contacts, the sweeps and the push-out look at. The capsules go into a uniform grid built
 * each step (cells about the size of a mean capsule box, at most GRID_SIDE a side), so the
 * cost is O(awake balls + capsules x cells each covers) rather than balls x capsules: a drum
 * of 71 turning segments around 16,384 balls tested every pair, every substep. */
#include <math.h>
#include <string.h>

#include "world_internal.h"

enum { GRID_SIDE = 128 };

typedef struct grid_shape {
    float x0, y0, inv_cell;
    int nx, ny;
} grid_shape;

static int cell_of(float v, float origin, float inv_cell, int n) {
    float f = (v - origin) * inv_cell;
    if (!(f > 0.0f)) return 0; /* (NaN too) */
    if (f >= (float)(n - 1)) return n - 1;
    return (int)f;
}

/* The kinematic capsules' boxes over the step, and the grid's shape. */
static grid_shape boxes(c2d_world *w) {
    float ux0 = INFINITY, uy0 = INFINITY, ux1 = -INFINITY, uy1 = -INFINITY, extent = 0.0f;
    size_t k = w->kinematic_count;
    for (size_t j = 0; j < k; j++) {
        c2d_capsule s = w->kin_step_start[j];
        float grow = s.radius + w->kin_reach[j];
        world_box b = {fminf(s.a.x, s.b.x) - grow, fminf(s.a.y, s.b.y) - grow,
                       fmaxf(s.a.x, s.b.x) + grow, fmaxf(s.a.y, s.b.y) + grow};
        w->kin_box[j] = b;
        ux0 = fminf(ux0, b.lx), uy0 = fminf(uy0, b.ly);
        ux1 = fmaxf(ux1, b.hx), uy1 = fmaxf(uy1, b.hy);
        extent += fmaxf(b.hx - b.lx, b.hy - b.ly);
    }
    float cell = extent / (float)k;
    float span = fmaxf(ux1 - ux0, uy1 - uy0);
    if (cell * GRID_SIDE < span) cell = span / GRID_SIDE;
    if (!(cell > 0.0f) || !isfinite(cell)) cell = 1.0f;
    grid_shape g = {ux0, uy0, 1.0f / cell, 1, 1};
    if (isfinite(span)) {
        g.nx = (int)((ux1 - ux0) / cell) + 1;
        g.ny = (int)((uy1 - uy0) / cell) + 1;
        g.nx = g.nx > GRID_SIDE ? GRID_SIDE : g.nx;
        g.ny = g.ny > GRID_SIDE ? GRID_SIDE : g.ny;
    }
    return g;
}

/* The cells' lists of capsules (CSR: kin_cell_start, kin_cell_items). */
static c2d_status fill_grid(c2d_world *w, const grid_shape *g) {
    size_t cells = (size_t)g->nx * (size_t)g->ny, items = 0;
    if (!c2d_world_reserve(w, (void **)&w->kin_cell_start, &w->kin_cell_capacity, cells + 1,
                           sizeof(uint32_t)))
        return C2D_ERROR_ALLOC;
    uint32_t *start = w->kin_cell_start;
    for (size_t c = 0; c <= cells; c++)
        start[c] = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t j = 0; j < w->kinematic_count; j++) {
            world_box b = w->kin_box[j];
            int x0 = cell_of(b.lx, g->x0, g->inv_cell, g->nx);
            int x1 = cell_of(b.hx, g->x0, g->inv_cell, g->nx);
            int y0 = cell_of(b.ly, g->y0, g->inv_cell, g->ny);
            int y1 = cell_of(b.hy, g->y0, g->inv_cell, g->ny);
            for (int y = y0; y <= y1; y++)
                for (int x = x0; x <= x1; x++) {
                    size_t c = (size_t)y * (size_t)g->nx + (size_t)x;
                    if (pass == 0)
                        start[c + 1]++;
                    else
                        w->kin_cell_items[start[c]++] = (uint32_t)j;
                }
        }
        if (pass == 0) {
            for (size_t c = 0; c < cells; c++)
                start[c + 1] += start[c];
            items = start[cells];
            if (!c2d_world_reserve(w, (void **)&w->kin_cell_items, &w->kin_item_capacity, items,
                                   sizeof(uint32_t)))
                return C2D_ERROR_ALLOC;
        }
    }
    /* start[c] is now the end of cell c: shift back to the starts. */
    for (size_t c = cells; c > 0; c--)
        start[c] = start[c - 1];
    start[0] = 0;
    return C2D_OK;
}

c2d_status c2d_world_find_kinematic_near(c2d_world *w) {
    size_t n = w->awake_list_count;
    uint32_t *first = w->kin_first; /* n + 1 entries (reserved with the awake arrays) */
    w->kin_near_count = 0;
    if (w->kinematic_count == 0) {
        for (size_t i = 0; i <= n; i++)
            first[i] = 0;
        memset(w->near_kinematic, 0, n);
        return C2D_OK;
    }
    grid_shape g = boxes(w);
    c2d_status st = fill_grid(w, &g);
    if (st != C2D_OK) return st;
    w->kin_grid_x0 = g.x0;
    w->kin_grid_y0 = g.y0;
    w->kin_grid_inv_cell = g.inv_cell;
    w->kin_grid_nx = g.nx;
    w->kin_grid_ny = g.ny;
    for (size_t j = 0; j < w->kinematic_count; j++)
        w->kin_stamp[j] = 0;
    const uint32_t *start = w->kin_cell_start, *items = w->kin_cell_items;
    for (size_t i = 0; i < n; i++) {
        first[i] = (uint32_t)w->kin_near_count;
        float r = w->ar_capsule[i];
        float lx = w->ax[i] - r, hx = w->ax[i] + r, ly = w->ay[i] - r, hy = w->ay[i] + r;
        int x0 = cell_of(lx, g.x0, g.inv_cell, g.nx), x1 = cell_of(hx, g.x0, g.inv_cell, g.nx);
        int y0 = cell_of(ly, g.y0, g.inv_cell, g.ny), y1 = cell_of(hy, g.y0, g.inv_cell, g.ny);
        uint32_t stamp = (uint32_t)i + 1;
        for (int y = y0; y <= y1; y++)
            for (int x = x0; x <= x1; x++) {
                size_t c = (size_t)y * (size_t)g.nx + (size_t)x;
                for (uint32_t e = start[c]; e < start[c + 1]; e++) {
                    uint32_t j = items[e];
                    if (w->kin_stamp[j] == stamp) continue;
                    w->kin_stamp[j] = stamp;
                    world_box b = w->kin_box[j];
                    if (hx < b.lx || lx > b.hx || hy < b.ly || ly > b.hy) continue;
                    uint32_t cap = w->kinematic_list[j];
                    if (!c2d_filter_allows(w->acat[i], w->amask[i], w->capsule_category[cap],
                                           w->capsule_mask[cap]))
                        continue;
                    if (!c2d_world_reserve(w, (void **)&w->kin_near, &w->kin_near_capacity,
                                           w->kin_near_count + 1, sizeof(uint32_t)))
                        return C2D_ERROR_ALLOC;
                    w->kin_near[w->kin_near_count++] = (uint32_t)j;
                }
            }
        /* In list order (a few at most: insertion sort), as the capsules were added. The list
         * is taken only when it has two (kin_near is NULL while no ball has any). */
        size_t m = w->kin_near_count - first[i];
        w->near_kinematic[i] = m > 0 ? WORLD_KIN_LISTED : 0;
        if (m < 2) continue;
        uint32_t *list = w->kin_near + first[i];
        for (size_t a = 1; a < m; a++) {
            uint32_t v = list[a];
            size_t b = a;
            for (; b > 0 && list[b - 1] > v; b--)
                list[b] = list[b - 1];
            list[b] = v;
        }
    }
    first[n] = (uint32_t)w->kin_near_count;
    return C2D_OK;
}

void c2d_world_kinematic_in_box(const c2d_world *w, size_t i, world_box box,
                                void (*visit)(void *ctx, uint32_t j), void *ctx) {
    if (w->kinematic_count == 0) return;
    const grid_shape g = {w->kin_grid_x0, w->kin_grid_y0, w->kin_grid_inv_cell, w->kin_grid_nx,
                          w->kin_grid_ny};
    int x0 = cell_of(box.lx, g.x0, g.inv_cell, g.nx), x1 = cell_of(box.hx, g.x0, g.inv_cell, g.nx);
    int y0 = cell_of(box.ly, g.y0, g.inv_cell, g.ny), y1 = cell_of(box.hy, g.y0, g.inv_cell, g.ny);
    const uint32_t *start = w->kin_cell_start, *items = w->kin_cell_items;
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++) {
            size_t c = (size_t)y * (size_t)g.nx + (size_t)x;
            for (uint32_t e = start[c]; e < start[c + 1]; e++) {
                uint32_t j = items[e];
                world_box b = w->kin_box[j];
                if (box.hx < b.lx || box.lx > b.hx || box.hy < b.ly || box.ly > b.hy) continue;
                /* Once: in the first cell (lowest x, then y) that both boxes cover. */
                int bx = cell_of(b.lx, g.x0, g.inv_cell, g.nx),
                    by = cell_of(b.ly, g.y0, g.inv_cell, g.ny);
                if (x != (bx > x0 ? bx : x0) || y != (by > y0 ? by : y0)) continue;
                uint32_t cap = w->kinematic_list[j];
                if (!c2d_filter_allows(w->acat[i], w->amask[i], w->capsule_category[cap],
                                       w->capsule_mask[cap]))
                    continue;
                visit(ctx, j);
            }
        }
}
