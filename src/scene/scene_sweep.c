/* Scene sweeps: for each circle, the capsules of the index cells (scene_index.c) its swept
 * box touches, and the capsules the index holds everywhere; or, when its swept box is within
 * the sweep index's gate, the capsules of the one sweep-index cell of the box's low corner
 * (built here, see scene_sweep_index.h and docs/scenes.md "A sweep frame"). The candidates of a
 * block of circles are listed, then swept W at a time in the active backend's lanes (the sweep
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
#include "batch/dispatch.h"
#include "prefetch.h"
#include "scene/scene_sweep.h"

/* ---- queries ----------------------------------------------------------------------------- */

/* Circles per block, and candidate pairs listed before the lanes run them (on the stack: range
 * calls allocate nothing; a block with more candidates runs them in several batches); the walk
 * asks for the groups of the circle AHEAD circles on. */
enum { BLOCK = 256, LIST = 1024, AHEAD = 16 };
#define NO_CELL UINT32_MAX

/* A swept box alone (what the walks read). */
typedef struct swept {
    float lo_x, hi_x, lo_y, hi_y;
} swept;

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

static bool boxes_meet(const swept *c, float lo_x, float hi_x, float lo_y, float hi_y) {
    return c->lo_x <= hi_x && c->hi_x >= lo_x && c->lo_y <= hi_y && c->hi_y >= lo_y;
}

static bool meets_capsule(const swept *c, const c2d_capsule_index *x, uint32_t k) {
    return boxes_meet(c, x->lo_x[k], x->hi_x[k], x->lo_y[k], x->hi_y[k]);
}

/* The batch kernels' order: every capsule (the filter allows), first hit kept unless a strictly
 * earlier follows. */
static void scan_in_order(const candidates *q, size_t i, c2d_circle_toi *out) {
    const c2d_scene *s = q->s;
    const c2d_swept_circle cm = {q->circles->x[i],
                                 q->circles->y[i],
                                 q->circles->radius[i],
                                 q->move_x[i],
                                 q->move_y[i],
                                 0.0f,
                                 0.0f,
                                 0.0f,
                                 0.0f};
    const c2d_swept_circle *c = &cm;
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

/* A swept box as one vector (lo_x, hi_x, lo_y, hi_y), for c2d_slots_mask. */
static inline simde__m128 box_vector(const swept *c) {
    return simde_mm_loadu_ps((const float *)(const void *)c);
}

/* The capsules of one cell whose boxes meet the swept box of circle i. A capsule listed in
 * several cells the box visits is a candidate once per cell: keeping the smallest (t, capsule)
 * makes the repeats harmless, and cheaper than deciding which cell owns the pair. */
static void list_cell(candidates *q, const swept *c, uint32_t i, uint32_t cell) {
    const c2d_capsule_index *x = &q->s->index;
    const c2d_index_cell *ic = &x->cells[cell];
    const unsigned mask = c2d_slots_mask(ic->lo_x, ic->hi_x, ic->lo_y, ic->hi_y, box_vector(c));
    if (q->n > LIST - C2D_CELL_SLOTS) run_candidates(q);
    q->n = c2d_write_slots(q->circle, q->capsule, q->n, i, ic->capsule, mask);
    for (uint32_t e = ic->first; e < ic->end; e++) {
        const c2d_index_entry *en = &x->entries[e];
        if (boxes_meet(c, en->lo_x, en->hi_x, en->lo_y, en->hi_y)) add_candidate(q, i, en->capsule);
    }
}

/* The capsules of sweep-index groups [g, end) whose boxes meet the swept box `box` of circle i
 * (each listed once in a cell, so no repeats), written after the list's first n with no room
 * check (the caller made room for four a group); returns the new count. A cell of up to four
 * capsules is one group. Each group writes four candidates, the ones that meet first, and
 * keeps those (no branch a slot). */
static inline size_t list_groups(candidates *q, size_t n, simde__m128 box, uint32_t i, uint32_t g,
                                 uint32_t end) {
    const c2d_sweep_group *group = q->s->sweep.group;
    for (; g < end; g++) {
        const c2d_sweep_group *gr = &group[g];
        const unsigned mask = c2d_slots_mask(gr->lo_x, gr->hi_x, gr->lo_y, gr->hi_y, box);
        n = c2d_write_slots(q->circle, q->capsule, n, i, gr->capsule, mask);
    }
    return n;
}

/* A cell of more groups than the list holds: a listful at a time, the list run between. */
static size_t list_crowded_cell(candidates *q, size_t n, simde__m128 box, uint32_t i, uint32_t g,
                                uint32_t end) {
    while (g < end) {
        q->n = n;
        run_candidates(q); /* empty after */
        const uint32_t stop = end - g <= LIST / 4 ? end : g + LIST / 4;
        n = list_groups(q, q->n, box, i, g, stop);
        g = stop;
    }
    return n;
}

/* list_groups for circle i's sweep-index cell [g, end), room made before the groups: a cell
 * that does not fit after n runs the list first. */
static inline size_t list_sweep_cell(candidates *q, size_t n, const swept *c, uint32_t i,
                                     uint32_t g, uint32_t end) {
    if (n + 4 * (size_t)(end - g) > LIST) {
        if (4 * (size_t)(end - g) > LIST) return list_crowded_cell(q, n, box_vector(c), i, g, end);
        q->n = n;
        run_candidates(q);
        n = q->n;
    }
    return list_groups(q, n, box_vector(c), i, g, end);
}

/* Cells a swept box may visit before the circle takes the all-capsules scan instead. */
static size_t visit_limit(const c2d_scene *s) {
    return 64 + s->capsule_count / 4;
}

/* Circle i's candidates among the capsules the index holds everywhere and the capsules that
 * move. */
static void list_extra(candidates *q, uint32_t i, const swept *c) {
    const c2d_capsule_index *x = &q->s->index;
    for (size_t e = 0; e < x->everywhere_count; e++)
        if (meets_capsule(c, x, x->everywhere[e])) add_candidate(q, i, x->everywhere[e]);
    if (q->movers) /* capsules that move: their boxes cover the move (also listed above) */
        for (size_t e = 0; e < q->movers->count; e++) {
            const c2d_scene_mover *mv = &q->movers->list[e];
            if (boxes_meet(c, mv->lo_x, mv->hi_x, mv->lo_y, mv->hi_y))
                add_candidate(q, i, mv->capsule);
        }
}

/* Circle i's candidates of the coarse cells its swept box touches (or of every capsule, for a
 * long move). */
static void list_coarse(candidates *q, uint32_t i, const swept *c) {
    const c2d_scene *s = q->s;
    const c2d_capsule_index *x = &s->index;
    const c2d_cell_span sp = c2d_grid_span(&x->grid, c->lo_x, c->hi_x, c->lo_y, c->hi_y);
    if (c2d_span_cells(&sp) > visit_limit(s)) { /* a long move: every capsule */
        for (uint32_t k = 0; k < s->capsule_count; k++)
            if (x->kind[k] == C2D_KIND_GRID && meets_capsule(c, x, k)) add_candidate(q, i, k);
    } else if (x->listed > 0) {
        const uint32_t nx = x->grid.nx;
        for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
            for (uint32_t cx = sp.x0; cx <= sp.x1; cx++)
                list_cell(q, c, i, cy * nx + cx);
    }
}

/* A block's circles: swept boxes, cells, and whether each needs the ordered scan. */
typedef struct block {
    swept c[BLOCK];
    uint32_t cell[BLOCK]; /* the sweep-index cell, NO_CELL for the coarse cells; then its
                             first entry */
    uint32_t end[BLOCK];  /* its entries' end */
    unsigned char ordered[BLOCK];
} block;

/* Is the sweep index usable for the scene's current capsules. */
static bool sweep_ready(const c2d_scene *s) {
    return s->sweep.ready && s->sweep.generation == s->generation;
}

/* c2d_swept_box() and the cells for circle i, one at a time (the tail of a block). */
static void prepare_one(const c2d_scene *s, const c2d_circle_soa *circles, const float *move_x,
                        const float *move_y, size_t i, size_t t, block *b) {
    c2d_swept_circle m = {circles->x[i], circles->y[i], circles->radius[i],
                          move_x[i],     move_y[i],     0.0f,
                          0.0f,          0.0f,          0.0f};
    b->ordered[t] = !c2d_swept_box(&m);
    b->cell[t] = NO_CELL;
    b->c[t] = (swept){m.lo_x, m.hi_x, m.lo_y, m.hi_y};
    const swept *c = &b->c[t];
    if (b->ordered[t]) return;
    const c2d_sweep_index *w = &s->sweep;
    if (sweep_ready(s) && c->hi_x - c->lo_x <= w->gate && c->hi_y - c->lo_y <= w->gate) {
        const c2d_grid *g = &w->grid;
        b->cell[t] = c2d_grid_coord(c->lo_y, g->y0, g->inv_size, g->ny) * g->nx +
                     c2d_grid_coord(c->lo_x, g->x0, g->inv_size, g->nx);
    }
}

/* prepare_one() on four circles from i at once: the same operations in the same order
 * (simde_mm_min_ps(a, b) is a < b ? a : b, max likewise), so the same boxes and cells. */
static void prepare_four(const c2d_scene *s, const c2d_circle_soa *circles, const float *move_x,
                         const float *move_y, size_t i, size_t t, block *b) {
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
    /* the boxes, transposed to one per circle (a swept is four floats) */
    simde__m128 r0 = lo_x, r1 = hi_x, r2 = lo_y, r3 = hi_y;
    SIMDE_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    simde_mm_storeu_ps((float *)(void *)(b->c + t), r0);
    simde_mm_storeu_ps((float *)(void *)(b->c + t + 1), r1);
    simde_mm_storeu_ps((float *)(void *)(b->c + t + 2), r2);
    simde_mm_storeu_ps((float *)(void *)(b->c + t + 3), r3);
    const unsigned ok = (unsigned)simde_mm_movemask_ps(tame);
    /* the sweep-index cell of the low corner, for the boxes within the gate (as prepare_one:
     * row * nx + column is below 2^24, so exact in float too), else NO_CELL */
    const simde__m128i none = simde_mm_set1_epi32(-1);
    simde__m128i fine = none;
    const c2d_sweep_index *w = &s->sweep;
    if (sweep_ready(s)) {
        const simde__m128 gate = simde_mm_set1_ps(w->gate);
        const simde__m128 gated =
            simde_mm_and_ps(simde_mm_cmple_ps(simde_mm_sub_ps(hi_x, lo_x), gate),
                            simde_mm_cmple_ps(simde_mm_sub_ps(hi_y, lo_y), gate));
        const c2d_grid *f = &w->grid;
        const simde__m128 fx =
            simde_mm_cvtepi32_ps(c2d_grid_coord4(lo_x, f->x0, f->inv_size, f->nx));
        const simde__m128 fy =
            simde_mm_cvtepi32_ps(c2d_grid_coord4(lo_y, f->y0, f->inv_size, f->ny));
        fine = simde_mm_cvttps_epi32(
            simde_mm_add_ps(simde_mm_mul_ps(fy, simde_mm_set1_ps((float)f->nx)), fx));
        fine = simde_mm_or_si128(fine, simde_mm_andnot_si128(simde_mm_castps_si128(gated), none));
    }
    simde_mm_storeu_si128((simde__m128i *)(b->cell + t), fine);
    /* the four flags at once: byte j is 1 where bit j of ok is clear */
    static const unsigned char not_tame[16][4] = {
        {1, 1, 1, 1}, {0, 1, 1, 1}, {1, 0, 1, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}, {0, 1, 0, 1},
        {1, 0, 0, 1}, {0, 0, 0, 1}, {1, 1, 1, 0}, {0, 1, 1, 0}, {1, 0, 1, 0}, {0, 0, 1, 0},
        {1, 1, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}};
    memcpy(b->ordered + t, not_tame[ok], 4);
}

void c2d_scene_sweep_circle_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                  const float *move_x, const float *move_y, size_t first, size_t n,
                                  c2d_circle_toi *out) {
    c2d_scene_sweep_moving_range(s, circles, move_x, move_y, NULL, first, n, out);
}

/* The cells' bounds of a block: each circle's first group and the end of its groups. (Asking
 * for them a block before, and for the groups with them, measured slower: 256 circles' lines
 * are half the first-level cache, gone before they are read.) */
static void stage_bounds(const c2d_scene *s, size_t nb, block *b) {
    if (!sweep_ready(s)) return;
    const uint32_t *start = s->sweep.start;
    for (size_t j = 0; j < nb; j++)
        if (b->cell[j] != NO_CELL) {
            const uint32_t c = b->cell[j];
            b->cell[j] = start[c];
            b->end[j] = start[c + 1];
        }
}

/* A block of nb circles from circle i: swept boxes and cells, four at a time, then the cells'
 * bounds. */
static void stage_boxes(const c2d_scene *s, const c2d_circle_soa *circles, const float *move_x,
                        const float *move_y, size_t i, size_t nb, block *b) {
    size_t t = 0;
    for (; t + 4 <= nb; t += 4)
        prepare_four(s, circles, move_x, move_y, i + t, t, b);
    for (; t < nb; t++)
        prepare_one(s, circles, move_x, move_y, i + t, t, b);
    stage_bounds(s, nb, b);
}

/* Is any of the n flags (bytes 0 or 1) set: eight at a time. */
static bool any_byte(const unsigned char *flag, size_t n) {
    uint64_t any = 0;
    size_t j = 0;
    for (; j + 8 <= n; j += 8) {
        uint64_t w;
        memcpy(&w, flag + j, 8);
        any |= w;
    }
    for (; j < n; j++)
        any |= flag[j];
    return any != 0;
}

/* Asks for the output records of circles t .. t + 7 of the block after the walk's (for writing:
 * 192 bytes, three lines). A block's records were cleared at its start, each line read from
 * memory first; asked for during the block before, they are in the cache by then. */
static inline void ask_records(const c2d_circle_toi *next_out, size_t t) {
    const char *o = (const char *)(next_out + t);
    c2d_prefetch_write(o);
    c2d_prefetch_write(o + 64);
    c2d_prefetch_write(o + 128);
}

/* The walks: the candidates of the block's circles (from circle q->base), through the lanes,
 * then the ordered scans; `next` (NULL at the end) is the block after it, its bounds read, whose
 * first circles' groups are asked for by the last circles' walks, and whose output records are
 * asked for eight circles at a time along the walk.
 *
 * Candidates may reach the lanes in any order (each circle keeps its smallest (t, capsule)), so
 * the circles of sweep-index cells are listed first, in one lean loop (list_sweep_cell makes
 * room for a circle's groups before them), and the others (coarse cells, capsules everywhere
 * or moving) after, when the block has any. */
static void stage_walks(candidates *q, size_t nb, const block *b, const block *next, size_t next_nb,
                        bool extra) {
    c2d_clear_tois(q->out, nb);
    memset(q->nan, 0, nb);
    const c2d_sweep_group *group = q->s->sweep.group;
    const uint32_t *cell = b->cell, *end = b->end;
    const unsigned char *ordered = b->ordered;
    const size_t ahead_nb = next ? next_nb : 0;
    bool others = extra;
    /* the list's count in a register through the block (a field of *q, it went through memory
     * at every group), written back around the calls that read it */
    size_t n = q->n;
    for (size_t j = 0; j < nb; j++) {
        const uint32_t soon = j + AHEAD < nb              ? cell[j + AHEAD]
                              : j + AHEAD - nb < ahead_nb ? next->cell[j + AHEAD - nb]
                                                          : NO_CELL;
        if (soon != NO_CELL) { /* a cell without groups names the next cell's first: harmless */
            const char *g = (const char *)&group[soon];
            c2d_prefetch(g);
            c2d_prefetch(g + sizeof(c2d_sweep_group) - 1);
        }
        if (j % 8 == 0 && j + 8 <= ahead_nb) ask_records(q->out + nb, j);
        const uint32_t g0 = cell[j];
        if (ordered[j]) continue;
        if (g0 == NO_CELL) {
            others = true;
            continue;
        }
        n = list_sweep_cell(q, n, &b->c[j], (uint32_t)(q->base + j), g0, end[j]);
    }
    if (others)
        for (size_t j = 0; j < nb; j++) {
            if (ordered[j]) continue;
            const uint32_t i = (uint32_t)(q->base + j);
            q->n = n;
            if (cell[j] == NO_CELL) list_coarse(q, i, &b->c[j]);
            if (extra) list_extra(q, i, &b->c[j]);
            n = q->n;
        }
    q->n = n;
    run_candidates(q);
    if (!any_byte(ordered, nb) && !any_byte(q->nan, nb)) return; /* the usual block */
    for (size_t j = 0; j < nb; j++)
        if (ordered[j] || q->nan[j]) scan_in_order(q, q->base + j, &q->out[j]);
}

/* The circles of block k of a range of n. */
static inline size_t block_size(size_t n, size_t k) {
    return n - k * BLOCK < BLOCK ? n - k * BLOCK : BLOCK;
}

void c2d_scene_sweep_moving_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                  const float *move_x, const float *move_y,
                                  const c2d_scene_movers *movers, size_t first, size_t n,
                                  c2d_circle_toi *out) {
    if (s->capsule_count == 0) {
        c2d_clear_tois(out, n);
        return;
    }
    unsigned char nan[BLOCK];
    block b[2];
    candidates q;
    q.s = s;
    q.circles = circles;
    q.move_x = move_x;
    q.move_y = move_y;
    q.movers = movers;
    q.nan = nan;
    q.filtered = c2d_scene_filtered(s, circles);
    q.n = 0;
    const bool extra = s->index.everywhere_count > 0 || movers;
    /* two blocks in flight: block k's boxes and cell bounds, then block k - 1's walks, which
     * ask for the groups of the circles AHEAD on, into block k */
    const size_t blocks = (n + BLOCK - 1) / BLOCK;
    for (size_t k = 0; k <= blocks; k++) {
        if (k < blocks)
            stage_boxes(s, circles, move_x, move_y, first + k * BLOCK, block_size(n, k), &b[k % 2]);
        if (k >= 1) {
            q.base = first + (k - 1) * BLOCK;
            q.out = out + (k - 1) * BLOCK;
            const bool more = k < blocks;
            stage_walks(&q, block_size(n, k - 1), &b[(k - 1) % 2], more ? &b[k % 2] : NULL,
                        more ? block_size(n, k) : 0, extra);
        }
    }
}
