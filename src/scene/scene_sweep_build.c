/* The sweep index of a scene: built lazily by c2d_scene_sweep() for the scene's generation,
 * at the second sweep since the capsules last moved, with a gate chosen from the circles' swept
 * boxes (scene_sweep_index.h has the layout; scene_sweep.c the walks that read it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "scene/scene_sweep_build.h"

/* Circles whose swept box sizes choose the gate, spread over the set. */
enum { GATE_SAMPLE = 1024 };

static int compare_floats(const void *a, const void *b) {
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The gate: the size (the larger side) of the swept boxes of a sample of the circles, at the
 * 97th percentile, or the sample's largest when that is at most 1.5 times it. 0 when no
 * sampled circle is tame. */
static float choose_gate(const c2d_circle_soa *circles, const float *move_x, const float *move_y) {
    float size[GATE_SAMPLE];
    size_t n = 0;
    const size_t step = circles->count / GATE_SAMPLE + 1;
    for (size_t i = 0; i < circles->count && n < GATE_SAMPLE; i += step) {
        c2d_swept_circle c = {circles->x[i], circles->y[i], circles->radius[i],
                              move_x[i],     move_y[i],     0.0f,
                              0.0f,          0.0f,          0.0f};
        if (!c2d_swept_box(&c)) continue;
        const float w = c.hi_x - c.lo_x, h = c.hi_y - c.lo_y;
        const float z = w > h ? w : h;
        if (z >= 0.0f && z <= C2D_TAME_LIMIT) size[n++] = z;
    }
    if (n == 0) return 0.0f;
    qsort(size, n, sizeof size[0], compare_floats);
    const float q = size[n - 1 - n / 32];
    const float gate = size[n - 1] <= 1.5f * q ? size[n - 1] : q;
    return gate > 0x1p-60f ? gate : 0x1p-60f; /* normal: its 2^-10 too */
}

/* Are more than a quarter of 64 circles spread over the set (tame ones) above the gate. */
static bool outgrown(const c2d_circle_soa *circles, const float *move_x, const float *move_y,
                     float gate) {
    const size_t step = circles->count / 64;
    unsigned above = 0;
    for (size_t i = 0; i < 64 * step; i += step) {
        c2d_swept_circle c = {circles->x[i], circles->y[i], circles->radius[i],
                              move_x[i],     move_y[i],     0.0f,
                              0.0f,          0.0f,          0.0f};
        above += c2d_swept_box(&c) && !(c.hi_x - c.lo_x <= gate && c.hi_y - c.lo_y <= gate);
    }
    return above > 16;
}

/* v - d rounded down (a float at most the exact difference). */
static float minus_down(float v, float d) {
    return nextafterf(v - d, -INFINITY);
}

/* The cells of capsule k in grid g: its box grown by `span` to the left and below. */
static c2d_cell_span sweep_cells(const c2d_grid *g, const c2d_capsule_index *x, size_t k,
                                 float span) {
    const float lo_x = minus_down(x->lo_x[k], span), lo_y = minus_down(x->lo_y[k], span);
    return (c2d_cell_span){c2d_grid_coord(lo_x, g->x0, g->inv_size, g->nx),
                           c2d_grid_coord(x->hi_x[k], g->x0, g->inv_size, g->nx),
                           c2d_grid_coord(lo_y, g->y0, g->inv_size, g->ny),
                           c2d_grid_coord(x->hi_y[k], g->y0, g->inv_size, g->ny)};
}

void c2d_sweep_index_free(const c2d_allocator *a, c2d_sweep_index *w) {
    c2d_free(a, w->start);
    c2d_free(a, w->group);
    w->start = NULL;
    w->group = NULL;
    w->ready = false;
}

/* Builds the index for gate `gate` (> 0): false when it would be too large or memory fails. */
static bool sweep_build(c2d_scene *s, float gate) {
    c2d_sweep_index *w = &s->sweep;
    const c2d_capsule_index *x = &s->index;
    const size_t m = s->capsule_count;
    c2d_sweep_index_free(&s->allocator, w);
    if (x->listed == 0 || m > UINT32_MAX / 4) return false;
    /* grown by a little more than the gate: the size of a box within the gate, computed in
     * float, is exact to 2^-24, so its true size stays below span */
    const float span = gate + gate * 0x1p-10f;
    double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
    for (size_t k = 0; k < m; k++) {
        if (x->kind[k] != C2D_KIND_GRID) continue;
        lo_x = fmin(lo_x, minus_down(x->lo_x[k], span));
        hi_x = fmax(hi_x, x->hi_x[k]);
        lo_y = fmin(lo_y, minus_down(x->lo_y[k], span));
        hi_y = fmax(hi_y, x->hi_y[k]);
    }
    const double width = hi_x - lo_x, height = hi_y - lo_y;
    const double listed = (double)x->listed;
    /* cells twice the gate wide (on W5, half the gate and the gate were 1.15x and 1.07x
     * slower, three and four times 1.15x and 1.2x), or 16 a listed capsule over the region,
     * whichever is larger; larger still while the cells or the listings exceed their budgets */
    double size = fmax(2.0 * span, sqrt(width * height / (16.0 * listed)));
    if (!(size > 0.0)) size = fmax(fmax(width, height), 1.0);
    c2d_grid g = {(float)lo_x, (float)lo_y, 1.0f, 1.0f, 1, 1};
    for (int tries = 0;; tries++, size *= 1.25) {
        if (tries == 64) return false;
        const double nx = floor(width / size) + 1.0, ny = floor(height / size) + 1.0;
        if (nx * ny > 32.0 * listed + 1024.0 || nx * ny > 16777216.0) continue;
        g.size = (float)size;
        g.inv_size = (float)(1.0 / size);
        g.nx = (uint32_t)nx;
        g.ny = (uint32_t)ny;
        double total = 0.0;
        for (size_t k = 0; k < m; k++)
            if (x->kind[k] == C2D_KIND_GRID) {
                const c2d_cell_span sp = sweep_cells(&g, x, k, span);
                total += (double)c2d_span_cells(&sp);
            }
        if (total > 64.0 * listed + 4096.0 || total + nx * ny >= 4294967295.0) continue;
        break;
    }
    const size_t cells = (size_t)g.nx * g.ny;
    uint32_t *start = c2d_alloc_array(&s->allocator, cells + 1, sizeof *start);
    uint32_t *fill = c2d_alloc_array(&s->allocator, cells, sizeof *fill);
    c2d_sweep_group *group = NULL;
    if (start && fill) {
        memset(fill, 0, cells * sizeof *fill);
        for (size_t k = 0; k < m; k++) { /* each cell's capsules */
            if (x->kind[k] != C2D_KIND_GRID) continue;
            const c2d_cell_span sp = sweep_cells(&g, x, k, span);
            for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
                for (uint32_t cx = sp.x0; cx <= sp.x1; cx++)
                    fill[(size_t)cy * g.nx + cx]++;
        }
        start[0] = 0;
        for (size_t c = 0; c < cells; c++) { /* its groups */
            start[c + 1] = start[c] + (fill[c] + 3) / 4;
            fill[c] = 0;
        }
        const size_t groups = start[cells];
        group = c2d_alloc_array(&s->allocator, groups ? groups : 1, sizeof *group);
        for (size_t e = 0; group && e < groups; e++)
            for (unsigned j = 0; j < 4; j++) {
                group[e].lo_x[j] = group[e].lo_y[j] = INFINITY;
                group[e].hi_x[j] = group[e].hi_y[j] = -INFINITY;
                group[e].capsule[j] = 0;
            }
    }
    if (!group) {
        c2d_free(&s->allocator, start);
        c2d_free(&s->allocator, fill);
        return false;
    }
    for (size_t k = 0; k < m; k++) { /* in capsule order */
        if (x->kind[k] != C2D_KIND_GRID) continue;
        const c2d_cell_span sp = sweep_cells(&g, x, k, span);
        for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
            for (uint32_t cx = sp.x0; cx <= sp.x1; cx++) {
                const size_t c = (size_t)cy * g.nx + cx;
                const uint32_t at = fill[c]++;
                c2d_sweep_group *gr = &group[start[c] + at / 4];
                gr->lo_x[at % 4] = x->lo_x[k];
                gr->hi_x[at % 4] = x->hi_x[k];
                gr->lo_y[at % 4] = x->lo_y[k];
                gr->hi_y[at % 4] = x->hi_y[k];
                gr->capsule[at % 4] = (uint32_t)k;
            }
    }
    c2d_free(&s->allocator, fill);
    const c2d_sweep_index built = {.grid = g,
                                   .gate = gate,
                                   .span = span,
                                   .start = start,
                                   .group = group,
                                   .generation = s->generation,
                                   .seen = w->seen,
                                   .uses = 0,
                                   .pause = w->pause,
                                   .pause_next = w->pause_next,
                                   .ready = true,
                                   .tried = true};
    *w = built;
    return true;
}

void c2d_sweep_prepare(c2d_scene *s, const c2d_circle_soa *circles, const float *move_x,
                       const float *move_y) {
    c2d_sweep_index *w = &s->sweep;
    if (w->tried && w->generation == s->generation) {
        w->uses++;
        /* at most every 16th sweep, a look at 64 of the circles of a sweep of 256 or more: when
         * more than a quarter of them are above the gate (moves that grew), the index is built
         * again for their sizes, with a gate at least 1.5 times the last: moves that grow keep
         * growing (balls falling), and a gate that only catches up leaves a growing share of
         * the circles on the slower coarse cells until the next look (W7 at 262,144 balls: up
         * to 36% of them) */
        if (!w->ready || w->uses - w->checked < 16 || circles->count < 256) return;
        w->checked = w->uses;
        if (!outgrown(circles, move_x, move_y, w->gate)) return;
        const float chosen = choose_gate(circles, move_x, move_y), ahead = 1.5f * w->gate;
        const float gate = chosen > ahead ? chosen : ahead;
        if (!sweep_build(s, gate)) {
            c2d_sweep_index_free(&s->allocator, w);
            w->generation = s->generation;
            w->tried = true;
        }
        return;
    }
    if (circles->count == 0 || s->capsule_count == 0) return;
    if (w->seen != s->generation + 1) { /* capsules that move every sweep: no index */
        w->seen = s->generation + 1;
        return;
    }
    if (w->pause > 0) { /* capsules moved soon after the last builds: wait */
        w->pause--;
        return;
    }
    if (w->tried && w->uses < 4) { /* the last build served fewer than 4 sweeps */
        w->pause_next = w->pause_next ? (w->pause_next < 4096 ? 2 * w->pause_next : 4096) : 4;
        w->pause = w->pause_next;
        w->tried = false;
        c2d_sweep_index_free(&s->allocator, w);
        return;
    }
    if (w->tried) w->pause_next = 0;
    const float gate = choose_gate(circles, move_x, move_y);
    if (!(gate > 0.0f) || !sweep_build(s, gate)) {
        c2d_sweep_index_free(&s->allocator, w);
        w->generation = s->generation;
        w->uses = w->checked = 0;
        w->tried = true;
    }
}
