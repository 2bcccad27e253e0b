/* Scene sweeps: for each circle, the capsules of the index cells (scene_index.c) its swept
 * box touches, and the capsules the index holds everywhere. The candidates of a block of
 * circles are listed, then swept W at a time in the active backend's lanes (the sweep
 * formula of src/core/sweep_formula.h, the scalar layer's bytes).
 *
 * Why the answer is c2d_batch_sweep()'s: a sweep can hit a capsule only if the circle's swept
 * box meets the capsule's sweep box (src/batch/cull.h, the boxes the all-pairs kernels trust;
 * the circle's box here is the kernels' grown by a further 1/8 and 2^-10 of its size, so a
 * change of the exact sweep's rounding stays inside it); every capsule whose box meets the
 * swept box is listed in a cell the query visits; each candidate gets the exact sweep. The
 * batch call keeps, per circle, the first hit in capsule order and replaces it only by a
 * strictly earlier one: the earliest time, ties to the lowest index. Keeping the hit with the
 * smallest (t, capsule) in any order (c2d_keep_smallest) is the same, as long as no t is NaN;
 * a NaN time (which the exact sweep does not produce today) sends the circle to the ordered
 * scan.
 *
 * Filters (collide2d/filter.h): when the circles or the scene's capsules carry them, the refused
 * candidates (and sensors) are dropped before the lanes run (drop_refused) and skipped by the
 * ordered scan, so the earliest hit is taken over the allowed capsules only: a refused capsule
 * never hides one behind it. Ray casts (scene_search.c) come here with the rays' words as the
 * circles'. Without filters nothing of this runs. */
#include <math.h>
#include <string.h>

#include <simde/x86/sse2.h>

#include "batch/cull.h"
#include "dispatch.h"
#include "scene/scene_internal.h"

/* ---- queries ----------------------------------------------------------------------------- */

/* Circles per block, and candidate pairs listed before the lanes run them (on the stack: range
 * calls allocate nothing; a block with more candidates runs them in several batches). */
enum { BLOCK = 256, LIST = 1024 };

/* One circle's inputs and swept box. */
typedef struct moving {
    float px, py, r, mx, my;
    float lo_x, hi_x, lo_y, hi_y;
} moving;

/* The candidates of a block: (circle, capsule) pairs, and where the hits go. */
typedef struct candidates {
    const c2d_scene *s;
    const c2d_circle_soa *circles;
    const float *move_x, *move_y;
    const c2d_scene_movers *movers; /* moving capsules and their moves (NULL: all static) */
    size_t base;                    /* the circle of out[0] and nan[0] */
    c2d_circle_toi *out;            /* the range's output */
    unsigned char *nan;             /* per circle of the block: some hit had a NaN time */
    bool filtered;                  /* the circles or capsules carry filters */
    uint32_t circle[LIST], capsule[LIST];
    size_t n;
} candidates;

/* Does circle i meet capsule k in a sweep (the filter allows the pair, k is no sensor). */
static inline bool allowed(const candidates *q, size_t i, size_t k) {
    return c2d_circle_meets_capsule(q->circles, i, &q->s->capsules, k);
}

/* Drops the candidates whose pair the filter refuses. */
static void drop_refused(candidates *q) {
    size_t kept = 0;
    for (size_t j = 0; j < q->n; j++) {
        const uint32_t i = q->circle[j], k = q->capsule[j];
        q->circle[kept] = i;
        q->capsule[kept] = k;
        kept += allowed(q, i, k);
    }
    q->n = kept;
}

static void run_candidates(candidates *q) {
    if (q->filtered) drop_refused(q);
    if (q->n == 0) return;
    const c2d_scene_movers *m = q->movers;
    c2d_active_kernels()->sweep_pairs(q->circles, q->move_x, q->move_y, &q->s->capsules,
                                      m ? m->move_x : NULL, m ? m->move_y : NULL, q->circle,
                                      q->capsule, q->n, q->base, q->out, q->nan);
    q->n = 0;
}

static void add_candidate(candidates *q, uint32_t circle, uint32_t capsule) {
    if (q->n == LIST) run_candidates(q);
    q->circle[q->n] = circle;
    q->capsule[q->n] = capsule;
    q->n++;
}

static bool boxes_meet(const moving *c, float lo_x, float hi_x, float lo_y, float hi_y) {
    return c->lo_x <= hi_x && c->hi_x >= lo_x && c->lo_y <= hi_y && c->hi_y >= lo_y;
}

static bool meets_capsule(const moving *c, const c2d_capsule_index *x, uint32_t k) {
    return boxes_meet(c, x->lo_x[k], x->hi_x[k], x->lo_y[k], x->hi_y[k]);
}

/* The batch kernels' order: every capsule (the filter allows), first hit kept unless a strictly
 * earlier follows. */
static void scan_in_order(const candidates *q, const moving *c, size_t i, c2d_circle_toi *out) {
    const c2d_scene *s = q->s;
    const c2d_scene_movers *m = q->movers;
    const c2d_capsule_soa *K = &s->capsules;
    *out = (c2d_circle_toi){C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
    for (size_t k = 0; k < s->capsule_count; k++) {
        if (q->filtered && !allowed(q, i, k)) continue;
        c2d_toi toi;
        const bool hit = m ? c2d_moving_capsule_sweep(c->px, c->py, c->r, c->mx, c->my, K->ax[k],
                                                      K->ay[k], K->bx[k], K->by[k], K->radius[k],
                                                      m->move_x[k], m->move_y[k], &toi)
                           : c2d_capsule_sweep(c->px, c->py, c->r, c->mx, c->my, K->ax[k], K->ay[k],
                                               K->bx[k], K->by[k], K->radius[k], &toi);
        if (hit) c2d_keep_earliest(out, (uint32_t)k, &toi);
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

/* The capsules of one cell whose boxes meet the swept box of circle i. A capsule listed in
 * several cells the box visits is a candidate once per cell: keeping the smallest (t, capsule)
 * makes the repeats harmless, and cheaper than deciding which cell owns the pair. */
static void list_cell(candidates *q, const moving *c, uint32_t i, uint32_t cell) {
    const c2d_capsule_index *x = &q->s->index;
    const c2d_index_cell *ic = &x->cells[cell];
    const unsigned mask = c2d_cell_mask(ic, c->lo_x, c->hi_x, c->lo_y, c->hi_y);
    if (q->n > LIST - C2D_CELL_SLOTS) run_candidates(q);
    size_t n = q->n; /* all four slots written, the ones that meet kept: no branch a slot */
    for (unsigned j = 0; j < C2D_CELL_SLOTS; j++) {
        q->circle[n] = i;
        q->capsule[n] = ic->capsule[j];
        n += (mask >> j) & 1u;
    }
    q->n = n;
    for (uint32_t e = ic->first; e < ic->end; e++) {
        const c2d_index_entry *en = &x->entries[e];
        if (boxes_meet(c, en->lo_x, en->hi_x, en->lo_y, en->hi_y)) add_candidate(q, i, en->capsule);
    }
}

/* Cells a swept box may visit before the circle takes the all-capsules scan instead. */
static size_t visit_limit(const c2d_scene *s) {
    return 64 + s->capsule_count / 4;
}

/* Lists circle i's candidates (its swept box and cells computed). */
static void list_circle(candidates *q, uint32_t i, const moving *c, const c2d_cell_span *sp) {
    const c2d_scene *s = q->s;
    const c2d_capsule_index *x = &s->index;
    if (c2d_span_cells(sp) > visit_limit(s)) { /* a long move: every capsule */
        for (uint32_t k = 0; k < s->capsule_count; k++)
            if (x->kind[k] == C2D_KIND_GRID && meets_capsule(c, x, k)) add_candidate(q, i, k);
    } else if (x->listed > 0) {
        const uint32_t nx = x->grid.nx;
        for (uint32_t cy = sp->y0; cy <= sp->y1; cy++)
            for (uint32_t cx = sp->x0; cx <= sp->x1; cx++)
                list_cell(q, c, i, cy * nx + cx);
    }
    for (size_t e = 0; e < x->everywhere_count; e++)
        if (meets_capsule(c, x, x->everywhere[e])) add_candidate(q, i, x->everywhere[e]);
    if (q->movers) /* capsules that move: their boxes cover the move (also listed above) */
        for (size_t e = 0; e < q->movers->count; e++) {
            const c2d_scene_mover *mv = &q->movers->list[e];
            if (boxes_meet(c, mv->lo_x, mv->hi_x, mv->lo_y, mv->hi_y))
                add_candidate(q, i, mv->capsule);
        }
}

/* A block's circles: swept boxes, cells, and whether each needs the ordered scan. */
typedef struct block {
    moving c[BLOCK];
    c2d_cell_span span[BLOCK];
    unsigned char ordered[BLOCK];
} block;

/* swept_box() and the cells for circle i, one at a time (the tail of a block). */
static void prepare_one(const c2d_scene *s, const c2d_circle_soa *circles, const float *move_x,
                        const float *move_y, size_t i, size_t t, block *b) {
    moving *c = &b->c[t];
    *c =
        (moving){circles->x[i], circles->y[i], circles->radius[i], move_x[i], move_y[i], 0.0f, 0.0f,
                 0.0f,          0.0f};
    b->ordered[t] = !swept_box(c);
    if (!b->ordered[t])
        b->span[t] = c2d_grid_span(&s->index.grid, c->lo_x, c->hi_x, c->lo_y, c->hi_y);
}

/* prepare_one() on four circles from i at once: the same operations in the same order
 * (simde_mm_min_ps(a, b) is a < b ? a : b, max likewise), so the same boxes and cells. */
static void prepare_four(const c2d_scene *s, const c2d_circle_soa *circles, const float *move_x,
                         const float *move_y, size_t i, size_t t, block *b) {
    const c2d_grid *g = &s->index.grid;
    const simde__m128 sign = simde_mm_set1_ps(-0.0f);
    const simde__m128 px = simde_mm_loadu_ps(circles->x + i),
                      py = simde_mm_loadu_ps(circles->y + i);
    const simde__m128 r = simde_mm_loadu_ps(circles->radius + i);
    const simde__m128 mx = simde_mm_loadu_ps(move_x + i), my = simde_mm_loadu_ps(move_y + i);
    const simde__m128 ar = simde_mm_andnot_ps(sign, r), amx = simde_mm_andnot_ps(sign, mx);
    const simde__m128 amy = simde_mm_andnot_ps(sign, my), apx = simde_mm_andnot_ps(sign, px);
    const simde__m128 apy = simde_mm_andnot_ps(sign, py);
    const simde__m128 L = simde_mm_set1_ps(C2D_TAME_LIMIT);
    const simde__m128 tame = simde_mm_and_ps(
        simde_mm_and_ps(simde_mm_and_ps(simde_mm_cmple_ps(apx, L), simde_mm_cmple_ps(apy, L)),
                        simde_mm_and_ps(simde_mm_cmple_ps(amx, L), simde_mm_cmple_ps(amy, L))),
        simde_mm_cmple_ps(ar, L));
    const simde__m128 size = simde_mm_add_ps(simde_mm_add_ps(amx, amy), ar);
    simde__m128 grow =
        simde_mm_add_ps(ar, simde_mm_mul_ps(size, simde_mm_set1_ps(C2D_SWEEP_SIZE_SLACK)));
    grow = simde_mm_add_ps(grow, simde_mm_mul_ps(simde_mm_add_ps(apx, apy),
                                                 simde_mm_set1_ps(C2D_SWEEP_POSITION_SLACK)));
    grow = simde_mm_add_ps(grow, simde_mm_set1_ps(1e-18f));
    grow = simde_mm_add_ps(simde_mm_mul_ps(grow, simde_mm_set1_ps(1.125f)),
                           simde_mm_mul_ps(size, simde_mm_set1_ps(0x1p-10f)));
    const simde__m128 ex = simde_mm_add_ps(px, mx), ey = simde_mm_add_ps(py, my);
    const simde__m128 lo_x = simde_mm_sub_ps(simde_mm_min_ps(px, ex), grow);
    const simde__m128 hi_x = simde_mm_add_ps(simde_mm_max_ps(px, ex), grow);
    const simde__m128 lo_y = simde_mm_sub_ps(simde_mm_min_ps(py, ey), grow);
    const simde__m128 hi_y = simde_mm_add_ps(simde_mm_max_ps(py, ey), grow);
    float v[9][4];
    simde_mm_storeu_ps(v[0], px);
    simde_mm_storeu_ps(v[1], py);
    simde_mm_storeu_ps(v[2], r);
    simde_mm_storeu_ps(v[3], mx);
    simde_mm_storeu_ps(v[4], my);
    simde_mm_storeu_ps(v[5], lo_x);
    simde_mm_storeu_ps(v[6], hi_x);
    simde_mm_storeu_ps(v[7], lo_y);
    simde_mm_storeu_ps(v[8], hi_y);
    int32_t cell[4][4];
    simde_mm_storeu_si128((simde__m128i *)cell[0],
                          c2d_grid_coord4(lo_x, g->x0, g->inv_size, g->nx));
    simde_mm_storeu_si128((simde__m128i *)cell[1],
                          c2d_grid_coord4(hi_x, g->x0, g->inv_size, g->nx));
    simde_mm_storeu_si128((simde__m128i *)cell[2],
                          c2d_grid_coord4(lo_y, g->y0, g->inv_size, g->ny));
    simde_mm_storeu_si128((simde__m128i *)cell[3],
                          c2d_grid_coord4(hi_y, g->y0, g->inv_size, g->ny));
    const unsigned ok = (unsigned)simde_mm_movemask_ps(tame);
    for (unsigned j = 0; j < 4; j++) {
        b->c[t + j] = (moving){v[0][j], v[1][j], v[2][j], v[3][j], v[4][j],
                               v[5][j], v[6][j], v[7][j], v[8][j]};
        b->ordered[t + j] = !(ok >> j & 1u);
        b->span[t + j] = (c2d_cell_span){(uint32_t)cell[0][j], (uint32_t)cell[1][j],
                                         (uint32_t)cell[2][j], (uint32_t)cell[3][j]};
    }
}

void c2d_scene_sweep_circle_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                  const float *move_x, const float *move_y, size_t first, size_t n,
                                  c2d_circle_toi *out) {
    c2d_scene_sweep_moving_range(s, circles, move_x, move_y, NULL, first, n, out);
}

void c2d_scene_sweep_moving_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                  const float *move_x, const float *move_y,
                                  const c2d_scene_movers *movers, size_t first, size_t n,
                                  c2d_circle_toi *out) {
    c2d_clear_tois(out, n);
    if (s->capsule_count == 0) return;
    unsigned char nan[BLOCK];
    block b;
    candidates q;
    q.s = s;
    q.circles = circles;
    q.move_x = move_x;
    q.move_y = move_y;
    q.movers = movers;
    q.nan = nan;
    q.filtered = c2d_scene_filtered(s, circles);
    q.n = 0;
    for (size_t b0 = 0; b0 < n; b0 += BLOCK) {
        const size_t nb = n - b0 < BLOCK ? n - b0 : BLOCK;
        q.base = first + b0;
        q.out = out + b0;
        memset(nan, 0, nb);
        /* the block's swept boxes and cells first, four at a time, then its walks */
        size_t t = 0;
        for (; t + 4 <= nb; t += 4)
            prepare_four(s, circles, move_x, move_y, first + b0 + t, t, &b);
        for (; t < nb; t++)
            prepare_one(s, circles, move_x, move_y, first + b0 + t, t, &b);
        for (size_t j = 0; j < nb; j++)
            if (!b.ordered[j]) list_circle(&q, (uint32_t)(first + b0 + j), &b.c[j], &b.span[j]);
        run_candidates(&q);
        for (size_t j = 0; j < nb; j++)
            if (b.ordered[j] || nan[j]) scan_in_order(&q, &b.c[j], first + b0 + j, &out[b0 + j]);
    }
}
