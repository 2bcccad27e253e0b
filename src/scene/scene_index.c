/* The static capsule index: a uniform grid over the capsules' boxes, built at
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
#include "alloc.h"
#include "scene/scene_index.h"

const unsigned char c2d_slot_order[16][4] = {
    {0, 1, 2, 3}, {0, 1, 2, 3}, {1, 0, 2, 3}, {0, 1, 2, 3}, {2, 0, 1, 3}, {0, 2, 1, 3},
    {1, 2, 0, 3}, {0, 1, 2, 3}, {3, 0, 1, 2}, {0, 3, 1, 2}, {1, 3, 0, 2}, {0, 1, 3, 2},
    {2, 3, 0, 1}, {0, 2, 3, 1}, {1, 2, 3, 0}, {0, 1, 2, 3}};
const unsigned char c2d_slots_set[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

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

void c2d_capsule_index_free(const c2d_allocator *a, c2d_capsule_index *index) {
    c2d_free(a, index->lo_x);
    c2d_free(a, index->cell_block);
    c2d_free(a, index->entries);
    *index = (c2d_capsule_index){0};
}

/* Boxes of capsules [first, first+n) of `capsules` into boxes first.. of x. */
static void compute_boxes(c2d_capsule_index *x, size_t at, const c2d_capsule_soa *capsules,
                          size_t first, size_t n) {
    c2d_sweep_boxes boxes;
    for (size_t done = 0; done < n; done += C2D_SWEEP_CHUNK) {
        const size_t chunk = n - done < C2D_SWEEP_CHUNK ? n - done : C2D_SWEEP_CHUNK;
        c2d_sweep_capsule_boxes(capsules, first + done, chunk, &boxes);
        memcpy(x->lo_x + at + done, boxes.lo_x, chunk * sizeof(float));
        memcpy(x->hi_x + at + done, boxes.hi_x, chunk * sizeof(float));
        memcpy(x->lo_y + at + done, boxes.lo_y, chunk * sizeof(float));
        memcpy(x->hi_y + at + done, boxes.hi_y, chunk * sizeof(float));
    }
}

/* Adds `delta` (+1 or -1) to the count of every cell capsule k's box lists it in. */
static void count_capsule(c2d_capsule_index *x, size_t k, int delta) {
    c2d_cell_span sp;
    if (placement(x, k, &sp) != C2D_KIND_GRID) return;
    for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
        for (uint32_t cx = sp.x0; cx <= sp.x1; cx++)
            x->cells[cy * x->grid.nx + cx].count += (uint32_t)delta;
}

/* Overflow entries the current counts need. */
static size_t overflow_needed(const c2d_capsule_index *x) {
    const size_t cells = (size_t)x->grid.nx * x->grid.ny;
    size_t entries = 0;
    for (size_t c = 0; c < cells; c++)
        entries += x->cells[c].count > C2D_CELL_SLOTS ? x->cells[c].count - C2D_CELL_SLOTS : 0;
    return entries;
}

/* Makes the overflow array hold `entries` (1.5x headroom when it grows); on failure it is as
 * it was. */
static c2d_status reserve_entries(const c2d_allocator *a, c2d_capsule_index *x, size_t entries) {
    if (entries <= x->entry_capacity && x->entries) return C2D_OK;
    const size_t capacity = entries + entries / 2 + 16;
    c2d_index_entry *fresh = c2d_alloc_array(a, capacity, sizeof *fresh);
    if (!fresh) return C2D_ERROR_ALLOC;
    c2d_free(a, x->entries);
    x->entries = fresh;
    x->entry_capacity = capacity;
    return C2D_OK;
}

/* Lists every capsule in its cells from the boxes and counts (no allocation): kinds, the
 * everywhere list, each cell's slots, and the overflow, a counting sort by cell. */
static void relist(c2d_capsule_index *x, size_t m) {
    const size_t cells = (size_t)x->grid.nx * x->grid.ny;
    uint32_t first = 0;
    for (size_t c = 0; c < cells; c++) {
        c2d_index_cell *cell = &x->cells[c];
        for (size_t j = 0; j < C2D_CELL_SLOTS; j++) {
            cell->lo_x[j] = cell->lo_y[j] = INFINITY; /* an empty box meets nothing */
            cell->hi_x[j] = cell->hi_y[j] = -INFINITY;
            cell->capsule[j] = 0;
        }
        cell->first = cell->end = first;
        cell->fill = 0;
        first += cell->count > C2D_CELL_SLOTS ? cell->count - C2D_CELL_SLOTS : 0;
    }
    x->everywhere_count = x->listed = 0;
    double *box = x->listed_box;
    box[0] = box[2] = INFINITY;
    box[1] = box[3] = -INFINITY;
    for (size_t k = 0; k < m; k++) {
        c2d_cell_span sp;
        x->kind[k] = placement(x, k, &sp);
        if (x->kind[k] == C2D_KIND_EVERYWHERE) x->everywhere[x->everywhere_count++] = (uint32_t)k;
        if (x->kind[k] != C2D_KIND_GRID) continue;
        x->listed++;
        box[0] = x->lo_x[k] < box[0] ? x->lo_x[k] : box[0];
        box[1] = x->hi_x[k] > box[1] ? x->hi_x[k] : box[1];
        box[2] = x->lo_y[k] < box[2] ? x->lo_y[k] : box[2];
        box[3] = x->hi_y[k] > box[3] ? x->hi_y[k] : box[3];
        const c2d_index_entry e = {x->lo_x[k], x->hi_x[k], x->lo_y[k], x->hi_y[k], (uint32_t)k};
        for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
            for (uint32_t cx = sp.x0; cx <= sp.x1; cx++) {
                c2d_index_cell *cell = &x->cells[cy * x->grid.nx + cx];
                if (cell->fill < C2D_CELL_SLOTS) {
                    const uint32_t j = cell->fill++;
                    cell->lo_x[j] = e.lo_x;
                    cell->hi_x[j] = e.hi_x;
                    cell->lo_y[j] = e.lo_y;
                    cell->hi_y[j] = e.hi_y;
                    cell->capsule[j] = e.capsule;
                } else {
                    x->entries[cell->end++] = e;
                }
            }
    }
    x->entry_count = first;
}

c2d_status c2d_capsule_index_build(const c2d_allocator *a, const c2d_capsule_soa *capsules,
                                   c2d_capsule_index *index) {
    const size_t m = capsules->count;
    c2d_capsule_index x = {0};
    /* boxes (4m floats), the everywhere list (m) and the kinds (m bytes) in one block */
    float *block = c2d_alloc_array(a, m, 4 * sizeof(float) + sizeof(uint32_t) + 1);
    if (!block) return C2D_ERROR_ALLOC;
    x.lo_x = block;
    x.hi_x = block + m;
    x.lo_y = block + 2 * m;
    x.hi_y = block + 3 * m;
    x.everywhere = (uint32_t *)(block + 4 * m);
    x.kind = (unsigned char *)(x.everywhere + m);
    compute_boxes(&x, 0, capsules, 0, m);
    /* the grid is set here, once: moved capsules stay correct in it (clamped to the border
     * cells when they leave it), and moving them then allocates only for more overflow */
    x.grid = capsule_grid(&x, m);
    const size_t cells = (size_t)x.grid.nx * x.grid.ny;
    x.cell_block = c2d_alloc_array(a, cells + 1, sizeof(c2d_index_cell));
    if (!x.cell_block) {
        c2d_capsule_index_free(a, &x);
        return C2D_ERROR_ALLOC;
    }
    const uintptr_t align = sizeof(c2d_index_cell);
    x.cells = (c2d_index_cell *)(((uintptr_t)x.cell_block + align - 1) / align * align);
    for (size_t c = 0; c < cells; c++)
        x.cells[c].count = 0;
    for (size_t k = 0; k < m; k++)
        count_capsule(&x, k, 1);
    if (reserve_entries(a, &x, overflow_needed(&x)) != C2D_OK) {
        c2d_capsule_index_free(a, &x);
        return C2D_ERROR_ALLOC;
    }
    relist(&x, m);
    *index = x;
    return C2D_OK;
}

c2d_status c2d_capsule_index_move(const c2d_allocator *a, c2d_capsule_index *x, size_t m,
                                  size_t first, const c2d_capsule_soa *moved) {
    const size_t n = moved->count;
    /* the counts with the moved boxes, computed a chunk at a time in a spare copy of the
     * boxes: the old boxes stay until nothing can fail */
    float lo_x[C2D_SWEEP_CHUNK], hi_x[C2D_SWEEP_CHUNK], lo_y[C2D_SWEEP_CHUNK],
        hi_y[C2D_SWEEP_CHUNK];
    for (size_t k = first; k < first + n; k++)
        count_capsule(x, k, -1);
    for (size_t done = 0; done < n; done += C2D_SWEEP_CHUNK) {
        const size_t chunk = n - done < C2D_SWEEP_CHUNK ? n - done : C2D_SWEEP_CHUNK;
        c2d_capsule_index view = *x; /* boxes of this chunk at index 0 */
        view.lo_x = lo_x;
        view.hi_x = hi_x;
        view.lo_y = lo_y;
        view.hi_y = hi_y;
        compute_boxes(&view, 0, moved, done, chunk);
        for (size_t j = 0; j < chunk; j++)
            count_capsule(&view, j, 1);
    }
    if (reserve_entries(a, x, overflow_needed(x)) != C2D_OK) { /* undo the counts */
        for (size_t done = 0; done < n; done += C2D_SWEEP_CHUNK) {
            const size_t chunk = n - done < C2D_SWEEP_CHUNK ? n - done : C2D_SWEEP_CHUNK;
            c2d_capsule_index view = *x;
            view.lo_x = lo_x;
            view.hi_x = hi_x;
            view.lo_y = lo_y;
            view.hi_y = hi_y;
            compute_boxes(&view, 0, moved, done, chunk);
            for (size_t j = 0; j < chunk; j++)
                count_capsule(&view, j, -1);
        }
        for (size_t k = first; k < first + n; k++)
            count_capsule(x, k, 1);
        return C2D_ERROR_ALLOC;
    }
    compute_boxes(x, first, moved, 0, n);
    relist(x, m);
    return C2D_OK;
}
