/* Scene sweeps: for each circle, the capsules of the index cells (scene_index.c) its swept
 * box touches, and the capsules the index holds everywhere.
 *
 * Why the answer is c2d_batch_sweep()'s: a sweep can hit a capsule only if the circle's swept
 * box meets the capsule's sweep box (src/batch/cull.h, the boxes the all-pairs kernels trust;
 * the circle's box here is the kernels' grown by a further 1/8 and 2^-10 of its size, so a
 * change of the exact sweep's rounding stays inside it); every capsule whose box meets the
 * swept box is listed in a cell the query visits; each candidate gets the exact sweep of the
 * scalar layer. The batch call keeps, per circle, the first hit in capsule order and replaces
 * it only by a strictly earlier one: the earliest time, ties to the lowest index. Keeping the
 * hit with the smallest (t, capsule) in any order is the same, as long as no t is NaN; a NaN
 * time (which the exact sweep does not produce today) sends the circle to the ordered scan. */
#include <math.h>
#include <string.h>

#include "batch/cull.h"
#include "dispatch.h"
#include "scene/scene_internal.h"

/* ---- queries ----------------------------------------------------------------------------- */

/* The best hit so far of one circle. */
typedef struct best_hit {
    c2d_circle_toi toi;
    bool nan; /* some hit had a NaN time: the answer needs the ordered scan */
} best_hit;

/* One circle's inputs and swept box. */
typedef struct moving {
    float px, py, r, mx, my;
    float lo_x, hi_x, lo_y, hi_y;
} moving;

static bool boxes_meet(const moving *c, float lo_x, float hi_x, float lo_y, float hi_y) {
    return c->lo_x <= hi_x && c->hi_x >= lo_x && c->lo_y <= hi_y && c->hi_y >= lo_y;
}

static bool meets_capsule(const moving *c, const c2d_capsule_index *x, uint32_t k) {
    return boxes_meet(c, x->lo_x[k], x->hi_x[k], x->lo_y[k], x->hi_y[k]);
}

static void try_capsule(const c2d_scene *s, const moving *c, uint32_t k, best_hit *b) {
    const c2d_capsule_soa *K = &s->capsules;
    c2d_toi toi;
    if (!c2d_capsule_sweep(c->px, c->py, c->r, c->mx, c->my, K->ax[k], K->ay[k], K->bx[k], K->by[k],
                           K->radius[k], &toi))
        return;
    if (toi.t != toi.t) b->nan = true;
    if (b->toi.capsule == C2D_NONE || toi.t < b->toi.toi.t ||
        (toi.t == b->toi.toi.t && k < b->toi.capsule)) {
        b->toi.capsule = k;
        b->toi.toi = toi;
    }
}

/* The batch kernels' order: every capsule, first hit kept unless a strictly earlier follows. */
static void scan_in_order(const c2d_scene *s, const moving *c, c2d_circle_toi *out) {
    const c2d_capsule_soa *K = &s->capsules;
    for (size_t k = 0; k < s->capsule_count; k++) {
        c2d_toi toi;
        if (c2d_capsule_sweep(c->px, c->py, c->r, c->mx, c->my, K->ax[k], K->ay[k], K->bx[k],
                              K->by[k], K->radius[k], &toi))
            c2d_keep_earliest(out, (uint32_t)k, &toi);
    }
}

/* The swept box of cull.h's kernels (everything within r of the path, plus slack), grown by a
 * further 1/8 and 2^-10 of the sizes. False when some input is not tame (or NaN). */
static bool swept_box(moving *c) {
    const float ar = fabsf(c->r), amx = fabsf(c->mx), amy = fabsf(c->my);
    const float apx = fabsf(c->px), apy = fabsf(c->py);
    const float L = C2D_TAME_LIMIT;
    if (!(apx <= L && apy <= L && amx <= L && amy <= L && ar <= L)) return false;
    const float size = amx + amy + ar;
    const float grow =
        (ar + size * C2D_SWEEP_SIZE_SLACK + (apx + apy) * C2D_SWEEP_POSITION_SLACK + 1e-18f) *
            1.125f +
        size * 0x1p-10f;
    const float ex = c->px + c->mx, ey = c->py + c->my;
    c->lo_x = (c->px < ex ? c->px : ex) - grow;
    c->hi_x = (c->px > ex ? c->px : ex) + grow;
    c->lo_y = (c->py < ey ? c->py : ey) - grow;
    c->hi_y = (c->py > ey ? c->py : ey) + grow;
    return true;
}

/* The capsules of one cell whose boxes meet the swept box. */
static void sweep_cell(const c2d_scene *s, const moving *c, uint32_t cx, uint32_t cy, bool shared,
                       best_hit *b) {
    const c2d_capsule_index *x = &s->index;
    const c2d_grid *g = &x->grid;
    const uint32_t cell = cy * g->nx + cx;
    const c2d_index_cell *ic = &x->cells[cell];
    for (unsigned mask = c2d_cell_mask(ic, c->lo_x, c->hi_x, c->lo_y, c->hi_y); mask;
         mask &= mask - 1) {
        const unsigned j = (unsigned)__builtin_ctz(mask);
        if (shared && !c2d_grid_owns(g, cx, cy, c->lo_x, c->lo_y, ic->lo_x[j], ic->lo_y[j]))
            continue;
        try_capsule(s, c, ic->capsule[j], b);
    }
    for (uint32_t e = ic->first; e < ic->end; e++) {
        const c2d_index_entry *en = &x->entries[e];
        if (!boxes_meet(c, en->lo_x, en->hi_x, en->lo_y, en->hi_y)) continue;
        if (shared && !c2d_grid_owns(g, cx, cy, c->lo_x, c->lo_y, en->lo_x, en->lo_y)) continue;
        try_capsule(s, c, en->capsule, b);
    }
}

/* Cells a swept box may visit before the circle takes the all-capsules scan instead. */
static size_t visit_limit(const c2d_scene *s) {
    return 64 + s->capsule_count / 4;
}

static void sweep_one(const c2d_scene *s, const moving *c0, c2d_circle_toi *out) {
    const c2d_capsule_index *x = &s->index;
    moving c = *c0;
    out->capsule = C2D_NONE;
    out->toi = (c2d_toi){0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}};
    if (!swept_box(&c)) {
        scan_in_order(s, &c, out);
        return;
    }
    best_hit b = {*out, false};
    const c2d_grid *g = &x->grid;
    const c2d_cell_span sp = c2d_grid_span(g, c.lo_x, c.hi_x, c.lo_y, c.hi_y);
    if (c2d_span_cells(&sp) > visit_limit(s)) { /* a long move: every capsule */
        for (uint32_t k = 0; k < s->capsule_count; k++)
            if (x->kind[k] == C2D_KIND_GRID && meets_capsule(&c, x, k)) try_capsule(s, &c, k, &b);
    } else if (x->listed > 0) {
        const bool shared = !(sp.x0 == sp.x1 && sp.y0 == sp.y1);
        for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
            for (uint32_t cx = sp.x0; cx <= sp.x1; cx++)
                sweep_cell(s, &c, cx, cy, shared, &b);
    }
    for (size_t e = 0; e < x->everywhere_count; e++)
        if (meets_capsule(&c, x, x->everywhere[e])) try_capsule(s, &c, x->everywhere[e], &b);
    if (b.nan) {
        scan_in_order(s, &c, out);
        return;
    }
    *out = b.toi;
}

void c2d_scene_sweep_circle_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                  const float *move_x, const float *move_y, size_t first, size_t n,
                                  c2d_circle_toi *out) {
    for (size_t j = 0; j < n; j++) {
        const size_t i = first + j;
        const moving c = {circles->x[i], circles->y[i], circles->radius[i],
                          move_x[i],     move_y[i],     0.0f,
                          0.0f,          0.0f,          0.0f};
        sweep_one(s, &c, &out[j]);
    }
}
