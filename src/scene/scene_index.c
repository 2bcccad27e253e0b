/* The static capsule index of a scene: a uniform grid over the capsules' boxes, built at
 * creation and when capsules move, shared by collides and sweeps.
 *
 * A capsule's box is cull.h's sweep box: everything a circle's swept path must come near to
 * touch it (grown by its radius and generous slack). It also contains the capsule's collide
 * culling box for radius 0 (c2d_plan_capsule with max_radius 0): the sweep box's slack (2^-8 of
 * the size and 2^-16 of the magnitude) exceeds the collide box's (2^-20 of both), so one box
 * serves both queries. */
#include <math.h>
#include <string.h>

#include "batch/cull.h"
#include "scene/scene_internal.h"

/* NEVER for an empty box (a NaN), EVERYWHERE for an infinite or huge one, else GRID. */
static unsigned char box_kind(const c2d_capsule_index *x, size_t k) {
    if (!(x->lo_x[k] <= x->hi_x[k])) return C2D_KIND_NEVER;
    if (!(x->hi_x[k] - x->lo_x[k] <= C2D_TAME_LIMIT && x->hi_y[k] - x->lo_y[k] <= C2D_TAME_LIMIT))
        return C2D_KIND_EVERYWHERE;
    return C2D_KIND_GRID;
}

/* The grid over the tame boxes: cells as wide as the mean spacing of capsules (about one
 * capsule a cell) or the mean box, whichever is larger; at most 2m + 16 cells. */
static c2d_grid capsule_grid(const c2d_capsule_index *x, size_t m) {
    double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY, extent = 0.0;
    size_t n = 0;
    for (size_t k = 0; k < m; k++) {
        if (box_kind(x, k) != C2D_KIND_GRID) continue;
        lo_x = x->lo_x[k] < lo_x ? x->lo_x[k] : lo_x;
        hi_x = x->hi_x[k] > hi_x ? x->hi_x[k] : hi_x;
        lo_y = x->lo_y[k] < lo_y ? x->lo_y[k] : lo_y;
        hi_y = x->hi_y[k] > hi_y ? x->hi_y[k] : hi_y;
        const double w = (double)x->hi_x[k] - x->lo_x[k], h = (double)x->hi_y[k] - x->lo_y[k];
        extent += w > h ? w : h;
        n++;
    }
    c2d_grid g = {0.0f, 0.0f, 1.0f, 1.0f, 1, 1};
    if (n == 0) return g;
    const double w = hi_x - lo_x, h = hi_y - lo_y;
    double size = sqrt(w * h / (double)n);
    if (size < extent / (double)n) size = extent / (double)n;
    const double floor_size = (w > h ? w : h) / 65536.0;
    if (size < floor_size) size = floor_size;
    if (!(size > 0.0)) size = 1.0;
    double nx, ny;
    for (;;) {
        nx = floor(w / size) + 1.0;
        ny = floor(h / size) + 1.0;
        if (nx * ny <= 2.0 * (double)n + 16.0) break;
        size *= 1.25;
    }
    g.x0 = (float)lo_x;
    g.y0 = (float)lo_y;
    g.size = (float)size;
    g.inv_size = (float)(1.0 / size);
    g.nx = (uint32_t)nx;
    g.ny = (uint32_t)ny;
    return g;
}

/* Capsule k's kind, and its cells when GRID; too many cells make it EVERYWHERE. */
static unsigned char placement(const c2d_capsule_index *x, size_t k, c2d_cell_span *span) {
    const unsigned char kind = box_kind(x, k);
    if (kind != C2D_KIND_GRID) return kind;
    *span = c2d_grid_span(&x->grid, x->lo_x[k], x->hi_x[k], x->lo_y[k], x->hi_y[k]);
    return c2d_span_cells(span) > C2D_SCENE_SPAN_LIMIT ? C2D_KIND_EVERYWHERE : C2D_KIND_GRID;
}

void c2d_capsule_index_free(const c2d_scene *s, c2d_capsule_index *index) {
    c2d_scene_free(s, index->lo_x);
    c2d_scene_free(s, index->cell_block);
    c2d_scene_free(s, index->entries);
    *index = (c2d_capsule_index){0};
}

c2d_status c2d_capsule_index_build(const c2d_scene *s, c2d_capsule_index *index) {
    const size_t m = s->capsule_count;
    c2d_capsule_index x = {0};
    /* boxes (4m floats), the everywhere list (m) and the kinds (m bytes) in one block */
    const size_t bytes = 4 * m * sizeof(float) + m * sizeof(uint32_t) + m;
    float *block = c2d_scene_alloc(s, bytes);
    if (!block) return C2D_ERROR_ALLOC;
    x.lo_x = block;
    x.hi_x = block + m;
    x.lo_y = block + 2 * m;
    x.hi_y = block + 3 * m;
    x.everywhere = (uint32_t *)(block + 4 * m);
    x.kind = (unsigned char *)(x.everywhere + m);
    c2d_sweep_boxes boxes;
    for (size_t first = 0; first < m; first += C2D_SWEEP_CHUNK) {
        const size_t n = m - first < C2D_SWEEP_CHUNK ? m - first : C2D_SWEEP_CHUNK;
        c2d_sweep_capsule_boxes(&s->capsules, first, n, &boxes);
        memcpy(x.lo_x + first, boxes.lo_x, n * sizeof(float));
        memcpy(x.hi_x + first, boxes.hi_x, n * sizeof(float));
        memcpy(x.lo_y + first, boxes.lo_y, n * sizeof(float));
        memcpy(x.hi_y + first, boxes.hi_y, n * sizeof(float));
    }
    x.grid = capsule_grid(&x, m);
    const size_t cells = (size_t)x.grid.nx * x.grid.ny;
    /* how many capsules each cell gets: the first C2D_CELL_SLOTS inline, the rest overflow */
    uint32_t *start = c2d_scene_alloc(s, (cells + 2) * sizeof(uint32_t));
    x.cell_block = c2d_scene_alloc(s, (cells + 1) * sizeof(c2d_index_cell));
    if (!start || !x.cell_block) {
        c2d_scene_free(s, start);
        c2d_capsule_index_free(s, &x);
        return C2D_ERROR_ALLOC;
    }
    const uintptr_t align = sizeof(c2d_index_cell);
    x.cells = (c2d_index_cell *)(((uintptr_t)x.cell_block + align - 1) / align * align);
    memset(start, 0, (cells + 2) * sizeof(uint32_t));
    for (size_t c = 0; c < cells; c++)
        for (size_t j = 0; j < C2D_CELL_SLOTS; j++) {
            x.cells[c].lo_x[j] = x.cells[c].lo_y[j] = INFINITY;
            x.cells[c].hi_x[j] = x.cells[c].hi_y[j] = -INFINITY;
            x.cells[c].capsule[j] = 0;
        }
    size_t listed = 0;
    for (size_t k = 0; k < m; k++) {
        c2d_cell_span sp;
        x.kind[k] = placement(&x, k, &sp);
        if (x.kind[k] != C2D_KIND_GRID) continue;
        for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
            for (uint32_t cx = sp.x0; cx <= sp.x1; cx++)
                start[cy * x.grid.nx + cx + 2]++;
        listed++;
    }
    /* start[c + 2] holds c's count; keep only the overflow, then prefix sums: start[c + 1] is
     * c's first overflow entry, and after the listing start[c] .. start[c + 1] are c's */
    size_t entries = 0;
    for (size_t c = 0; c < cells; c++) {
        start[c + 2] = start[c + 2] > C2D_CELL_SLOTS ? start[c + 2] - C2D_CELL_SLOTS : 0;
        entries += start[c + 2];
    }
    for (size_t c = 3; c < cells + 2; c++)
        start[c] += start[c - 1];
    x.entries = c2d_scene_alloc(s, (entries + 1) * sizeof(c2d_index_entry));
    unsigned char *fill = c2d_scene_alloc(s, cells + 1);
    if (!x.entries || !fill) {
        c2d_scene_free(s, fill);
        c2d_scene_free(s, start);
        c2d_capsule_index_free(s, &x);
        return C2D_ERROR_ALLOC;
    }
    x.entry_capacity = entries + 1;
    memset(fill, 0, cells + 1);
    for (size_t k = 0; k < m; k++) {
        if (x.kind[k] == C2D_KIND_EVERYWHERE) x.everywhere[x.everywhere_count++] = (uint32_t)k;
        c2d_cell_span sp;
        if (x.kind[k] != C2D_KIND_GRID) continue;
        sp = c2d_grid_span(&x.grid, x.lo_x[k], x.hi_x[k], x.lo_y[k], x.hi_y[k]);
        const c2d_index_entry e = {x.lo_x[k], x.hi_x[k], x.lo_y[k], x.hi_y[k], (uint32_t)k};
        for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
            for (uint32_t cx = sp.x0; cx <= sp.x1; cx++) {
                const size_t c = cy * x.grid.nx + cx;
                if (fill[c] < C2D_CELL_SLOTS) {
                    const unsigned j = fill[c]++;
                    x.cells[c].lo_x[j] = e.lo_x;
                    x.cells[c].hi_x[j] = e.hi_x;
                    x.cells[c].lo_y[j] = e.lo_y;
                    x.cells[c].hi_y[j] = e.hi_y;
                    x.cells[c].capsule[j] = e.capsule;
                } else {
                    x.entries[start[c + 1]++] = e;
                }
            }
    }
    for (size_t c = 0; c < cells; c++) { /* after the listing, start[c] is c's first entry */
        x.cells[c].first = start[c];
        x.cells[c].end = start[c + 1];
    }
    c2d_scene_free(s, fill);
    c2d_scene_free(s, start);
    x.entry_count = entries;
    x.listed = listed;
    *index = x;
    return C2D_OK;
}
