/* The scans of a collide frame: binning (scene_bin.c) scans each part's circles in index
 * order, a block at a time, here. A circle the fine index serves (radius <= rho, scene_fine.c)
 * reads the one cell of its centre there; a circle above rho reads the big circles' fine index
 * the same way; any other circle takes the coarse path: its box against the static capsule
 * index (scene_index.c), keeping every (capsule, circle) pair whose boxes meet. Each block's
 * candidates, in circle order, go at once through the active backend's listed-pairs kernel
 * (the exact test, the scalar layer's contact function; scene_part.c), while the block's
 * circles are in cache; the end of binning sorts the contacts by capsule (a stable counting
 * sort of pointers to them, where the parts wrote them) and range calls (scene_collide.c) copy
 * them through those.
 *
 * Why the output is c2d_batch_collide()'s. The fine paths lose no contact: see scene_fine.c.
 * The coarse path: a circle of radius r can touch a capsule only if its centre lies in the
 * capsule's culling box for radius r (cull.h, the box the all-pairs kernels trust). That box is
 * the box for radius 0 grown by r(1 + 2^-20)^2 < r(1 + 2^-18) on each side, and the index box
 * contains the box for radius 0; so the centre is within r(1 + 2^-18) of the index box. The
 * scan's circle box reaches r(1 + 2^-10) + 2^-22 |x| from the centre, computed in float: its
 * rounding (at most 2^-24 of |x| + reach, twice) stays far inside the extra margin, so the
 * computed box still reaches r(1 + 2^-18). The scan visits every cell the two boxes share (a
 * coordinate's cell is monotone in it): no contact is lost. Each candidate gets the exact test:
 * no false contact, and its bytes do not depend on the other pairs of the kernel call. A
 * circle's candidates are distinct and circles come in order, so the stable sort gives capsule
 * by capsule, circles ascending: the all-pairs order. Circles that can overlap nothing (NaN,
 * negative radius) are dropped; circles beyond the tame range (where no box is trusted) are
 * tested against every grid capsule; capsules beyond it, or whose box covers too many cells (a
 * floor as long as the world), are tested against every circle by the all-pairs kernel in the
 * range calls; capsules moved since the fine index was built (dirty) against every circle of
 * each part, their scan candidates dropped.
 *
 * Filters (collide2d/filter.h). The index ignores them: every exact test here goes through the
 * listed-pairs or the all-pairs kernel, given the frame's circles and the scene's capsules with
 * their words, and the kernels drop the refused pairs and the sensors themselves (the batch
 * calls' one mechanism). So only allowed pairs are counted, in the same order; a set without
 * words takes the kernels' unfiltered paths. */
#include <math.h>
#include <string.h>

#include <simde/x86/sse2.h>

#include "batch/cull.h"
#include "batch/kernels_scene.h"
#include "batch/dispatch.h"
#include "prefetch.h"
#include "scene/scene_fine.h"
#include "scene/scene_part.h"
#include "scene/scene_scan.h"

/* Margins of a circle's box in the scan (see above): its radius times 1 + 2^-10, plus 2^-22
 * of the coordinate's magnitude for the float rounding of the box's ends. */
#define RADIUS_MARGIN 1.0009765625f
#define POSITION_MARGIN 2.384185791015625e-07f

static bool tame(float v) {
    return fabsf(v) <= C2D_TAME_LIMIT;
}

/* ---- the coarse scan -------------------------------------------------------------------- */

/* A circle's box in the scan (see the top of the file; float, with margins). */
typedef struct circle_box {
    float lo_x, hi_x, lo_y, hi_y;
} circle_box;

static bool meets(const circle_box *b, float lo_x, float hi_x, float lo_y, float hi_y) {
    return b->lo_x <= hi_x && b->hi_x >= lo_x && b->lo_y <= hi_y && b->hi_y >= lo_y;
}

/* The capsules of one cell whose boxes meet b, as (capsule, circle i) pairs; `shared` when b
 * spans several cells (then each pair is kept in one of them only). */
static bool scan_cell(const c2d_scene *s, c2d_scene_part *p, uint32_t i, const circle_box *b,
                      uint32_t cx, uint32_t cy, bool shared) {
    const c2d_capsule_index *x = &s->index;
    const c2d_grid *g = &x->grid;
    const uint32_t cell = cy * g->nx + cx;
    const c2d_index_cell *c = &x->cells[cell];
    unsigned mask = c2d_cell_mask(c, b->lo_x, b->hi_x, b->lo_y, b->hi_y);
    const uint32_t e0 = c->first, e1 = c->end;
    if (!c2d_part_room(s, p, C2D_CELL_SLOTS + (e1 - e0))) return false;
    for (; mask; mask &= mask - 1) {
        const unsigned j = (unsigned)__builtin_ctz(mask);
        if (shared && !c2d_grid_owns(g, cx, cy, b->lo_x, b->lo_y, c->lo_x[j], c->lo_y[j])) continue;
        c2d_put_pair(p, p->count++, c->capsule[j], i);
    }
    for (uint32_t e = e0; e < e1; e++) { /* the overflow of a crowded cell */
        const c2d_index_entry *en = &x->entries[e];
        if (!meets(b, en->lo_x, en->hi_x, en->lo_y, en->hi_y)) continue;
        if (shared && !c2d_grid_owns(g, cx, cy, b->lo_x, b->lo_y, en->lo_x, en->lo_y)) continue;
        c2d_put_pair(p, p->count++, en->capsule, i);
    }
    return true;
}

/* The candidates of one tame circle i: capsules listed in the cells its box touches. */
static bool scan_circle(const c2d_scene *s, c2d_scene_part *p, uint32_t i, const circle_box *b) {
    const c2d_capsule_index *x = &s->index;
    const c2d_cell_span sp = c2d_grid_span(&x->grid, b->lo_x, b->hi_x, b->lo_y, b->hi_y);
    if (sp.x0 == sp.x1 && sp.y0 == sp.y1) return scan_cell(s, p, i, b, sp.x0, sp.y0, false);
    if (c2d_span_cells(&sp) > C2D_SCENE_SPAN_LIMIT) { /* a huge circle: every listed capsule */
        for (uint32_t k = 0; k < s->capsule_count; k++)
            if (x->kind[k] == C2D_KIND_GRID &&
                meets(b, x->lo_x[k], x->hi_x[k], x->lo_y[k], x->hi_y[k]) &&
                !c2d_part_append(s, p, k, i))
                return false;
        return true;
    }
    for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
        for (uint32_t cx = sp.x0; cx <= sp.x1; cx++)
            if (!scan_cell(s, p, i, b, cx, cy, true)) return false;
    return true;
}

/* Circles handled per block: a first pass, four circles at a time, finds each circle's box and
 * cell and asks memory for the cell; a second pass tests the cell's capsules. */
enum { BLOCK = 64 };

/* How the second pass treats a circle of a block. */
enum { SKIP_CIRCLE, WILD_CIRCLE, ONE_CELL, MANY_CELLS };

/* A block's circles: boxes (structure of arrays), cells, and how to treat each. */
typedef struct block {
    float lo_x[BLOCK], hi_x[BLOCK], lo_y[BLOCK], hi_y[BLOCK];
    uint32_t cell[BLOCK];
    unsigned char how[BLOCK];
} block;

/* The first pass for circle i (block slot t), one at a time: the exact twin of the vector
 * code below, for the tail of a block and the circles it leaves (not alive, not tame, or over
 * several cells). */
static void classify(const c2d_scene *s, const c2d_circle_soa *c, size_t i, size_t t, block *b) {
    const c2d_grid *g = &s->index.grid;
    const float cx = c->x[i], cy = c->y[i], r = c->radius[i];
    b->how[t] = SKIP_CIRCLE;
    if (cx != cx || cy != cy || !(r >= 0.0f)) return; /* overlaps nothing */
    if (!(tame(cx) && tame(cy) && tame(r))) {         /* no box holds */
        b->how[t] = WILD_CIRCLE;
        return;
    }
    if (s->index.listed == 0) return;
    const float reach = r * RADIUS_MARGIN;
    const float reach_x = reach + fabsf(cx) * POSITION_MARGIN;
    const float reach_y = reach + fabsf(cy) * POSITION_MARGIN;
    b->lo_x[t] = cx - reach_x;
    b->hi_x[t] = cx + reach_x;
    b->lo_y[t] = cy - reach_y;
    b->hi_y[t] = cy + reach_y;
    const c2d_cell_span sp = c2d_grid_span(g, b->lo_x[t], b->hi_x[t], b->lo_y[t], b->hi_y[t]);
    if (sp.x0 != sp.x1 || sp.y0 != sp.y1) {
        b->how[t] = MANY_CELLS;
        return;
    }
    b->how[t] = ONE_CELL;
    b->cell[t] = sp.y0 * g->nx + sp.x0;
}

/* Lanes with |x| and |y| (given as AX, AY) tame and 0 <= r <= rmax: every compare is false on
 * NaN. */
static inline simde__m128 alive_tame4(simde__m128 AX, simde__m128 AY, simde__m128 R,
                                      simde__m128 rmax) {
    const simde__m128 limit = simde_mm_set1_ps(C2D_TAME_LIMIT);
    return simde_mm_and_ps(
        simde_mm_and_ps(simde_mm_cmple_ps(AX, limit), simde_mm_cmple_ps(AY, limit)),
        simde_mm_and_ps(simde_mm_cmpge_ps(R, simde_mm_setzero_ps()), simde_mm_cmple_ps(R, rmax)));
}

/* The first pass over circles first .. first+nb-1. */
static void first_pass(const c2d_scene *s, const c2d_circle_soa *c, size_t first, size_t nb,
                       block *b) {
    const c2d_capsule_index *x = &s->index;
    const c2d_grid *g = &x->grid;
    size_t t = 0;
    if (x->listed > 0) {
        const simde__m128 limit = simde_mm_set1_ps(C2D_TAME_LIMIT);
        const simde__m128 sign = simde_mm_set1_ps(-0.0f);
        for (; t + 4 <= nb; t += 4) {
            const size_t i = first + t;
            const simde__m128 X = simde_mm_loadu_ps(c->x + i), Y = simde_mm_loadu_ps(c->y + i);
            const simde__m128 R = simde_mm_loadu_ps(c->radius + i);
            const simde__m128 AX = simde_mm_andnot_ps(sign, X), AY = simde_mm_andnot_ps(sign, Y);
            const simde__m128 ok = alive_tame4(AX, AY, R, limit); /* r tame too */
            const simde__m128 reach = simde_mm_mul_ps(R, simde_mm_set1_ps(RADIUS_MARGIN));
            const simde__m128 pm = simde_mm_set1_ps(POSITION_MARGIN);
            const simde__m128 rx = simde_mm_add_ps(reach, simde_mm_mul_ps(AX, pm));
            const simde__m128 ry = simde_mm_add_ps(reach, simde_mm_mul_ps(AY, pm));
            const simde__m128 lo_x = simde_mm_sub_ps(X, rx), hi_x = simde_mm_add_ps(X, rx);
            const simde__m128 lo_y = simde_mm_sub_ps(Y, ry), hi_y = simde_mm_add_ps(Y, ry);
            simde_mm_storeu_ps(b->lo_x + t, lo_x);
            simde_mm_storeu_ps(b->hi_x + t, hi_x);
            simde_mm_storeu_ps(b->lo_y + t, lo_y);
            simde_mm_storeu_ps(b->hi_y + t, hi_y);
            const simde__m128i x0 = c2d_grid_coord4(lo_x, g->x0, g->inv_size, g->nx);
            const simde__m128i x1 = c2d_grid_coord4(hi_x, g->x0, g->inv_size, g->nx);
            const simde__m128i y0 = c2d_grid_coord4(lo_y, g->y0, g->inv_size, g->ny);
            const simde__m128i y1 = c2d_grid_coord4(hi_y, g->y0, g->inv_size, g->ny);
            const simde__m128i one =
                simde_mm_and_si128(simde_mm_cmpeq_epi32(x0, x1), simde_mm_cmpeq_epi32(y0, y1));
            const unsigned fast =
                (unsigned)simde_mm_movemask_ps(simde_mm_and_ps(ok, simde_mm_castsi128_ps(one)));
            int32_t cx[4], cy[4];
            simde_mm_storeu_si128((simde__m128i *)cx, x0);
            simde_mm_storeu_si128((simde__m128i *)cy, y0);
            for (unsigned j = 0; j < 4; j++) {
                if (!(fast >> j & 1u)) {
                    classify(s, c, i + j, t + j, b);
                    continue;
                }
                b->how[t + j] = ONE_CELL;
                b->cell[t + j] = (uint32_t)cy[j] * g->nx + (uint32_t)cx[j];
                c2d_prefetch(&x->cells[b->cell[t + j]]);
                c2d_prefetch(x->cells[b->cell[t + j]].capsule);
            }
        }
    }
    for (; t < nb; t++)
        classify(s, c, first + t, t, b);
}

/* The coarse second pass for block slot t (circle i), after its first pass: its candidates. */
static bool scan_slot(const c2d_scene *s, c2d_scene_part *p, const block *b, size_t t, uint32_t i) {
    const c2d_capsule_index *x = &s->index;
    if (b->how[t] == ONE_CELL) { /* the common case, without a branch per capsule */
        const circle_box box = {b->lo_x[t], b->hi_x[t], b->lo_y[t], b->hi_y[t]};
        if (!c2d_part_room(s, p, C2D_CELL_SLOTS)) return false;
        const c2d_index_cell *ic = &x->cells[b->cell[t]];
        const unsigned mask = c2d_cell_mask(ic, box.lo_x, box.hi_x, box.lo_y, box.hi_y);
        p->count = c2d_write_slots(c2d_pair_circles(p), c2d_pair_capsules(p), p->count, i,
                                   ic->capsule, mask);
        for (uint32_t e = ic->first; e < ic->end; e++) { /* the overflow of a crowded cell */
            const c2d_index_entry *en = &x->entries[e];
            if (meets(&box, en->lo_x, en->hi_x, en->lo_y, en->hi_y) &&
                !c2d_part_append(s, p, en->capsule, i))
                return false;
        }
    } else if (b->how[t] == WILD_CIRCLE) {
        if (!c2d_part_append(s, p, UINT32_MAX, i)) return false;
        p->wild = true;
    } else if (b->how[t] == MANY_CELLS) {
        const circle_box box = {b->lo_x[t], b->hi_x[t], b->lo_y[t], b->hi_y[t]};
        if (!scan_circle(s, p, i, &box)) return false;
    }
    return true;
}

/* The coarse scan of a part's circles (no fine index). */
bool c2d_scan_coarse(const c2d_scene *s, c2d_scene_part *p) {
    const c2d_circle_soa *c = &s->frame.circles;
    const size_t end = p->first + p->n;
    block b;
    for (size_t first = p->first; first < end; first += BLOCK) {
        const size_t nb = end - first < BLOCK ? end - first : BLOCK;
        first_pass(s, c, first, nb, &b);
        for (size_t t = 0; t < nb; t++)
            if (!scan_slot(s, p, &b, t, (uint32_t)(first + t))) return false;
        if (p->count >= C2D_PART_CHUNK / 2 && !c2d_part_flush(s, p)) return false;
    }
    return c2d_part_flush(s, p);
}

/* ---- the fine scan ------------------------------------------------------------------------ */

/* Circles per block of the fine scan (C2D_FINE_BLOCK): their cells are found first (four at a
 * time), then their bits are read (all the block's loads in flight at once), then the few set
 * bits expanded. */

/* Words up to this size are not prefetched (they stay in a core's cache between frames). */
#define FINE_NEAR_BYTES (512u * 1024u)

/* Does fine index f serve a circle: 0 <= r <= rho and a tame centre (false on NaN). */
static inline bool fine_serves(const c2d_fine_index *f, float X, float Y, float R) {
    return R >= 0.0f && R <= f->rho && fabsf(X) <= C2D_TAME_LIMIT && fabsf(Y) <= C2D_TAME_LIMIT;
}

/* The cell of a served centre (f->empty outside the region): the vector code's operations. */
static inline uint32_t fine_cell_of(const c2d_fine_index *f, float X, float Y) {
    if (!(X >= f->lo_x && X <= f->hi_x && Y >= f->lo_y && Y <= f->hi_y)) return f->empty;
    float tx = (X - f->x0) * f->inv_size, ty = (Y - f->y0) * f->inv_size;
    const float lx = (float)(f->nx - 1), ly = (float)(f->ny - 1);
    tx = tx < lx ? tx : lx;
    ty = ty < ly ? ty : ly;
    tx = tx > 0.0f ? tx : 0.0f;
    ty = ty > 0.0f ? ty : 0.0f;
    return (uint32_t)ty * f->nx + (uint32_t)tx;
}

/* Cells of circles first .. first+nb-1 into cell[] (f->empty for a circle outside the region,
 * which has no candidate), and the circles the fine index cannot serve into slow[] (returns
 * their count): radius above rho, NaN, negative, or beyond the tame range. */
static size_t fine_cells(const c2d_fine_index *f, const c2d_circle_soa *c, size_t first, size_t nb,
                         uint32_t *cell, uint32_t *slow) {
    size_t ns = 0, t = 0;
    const simde__m128 zero = simde_mm_setzero_ps();
    const simde__m128 sign = simde_mm_set1_ps(-0.0f), rho = simde_mm_set1_ps(f->rho);
    const simde__m128 lo_x = simde_mm_set1_ps(f->lo_x), hi_x = simde_mm_set1_ps(f->hi_x);
    const simde__m128 lo_y = simde_mm_set1_ps(f->lo_y), hi_y = simde_mm_set1_ps(f->hi_y);
    const simde__m128 x0 = simde_mm_set1_ps(f->x0), y0 = simde_mm_set1_ps(f->y0);
    const simde__m128 inv = simde_mm_set1_ps(f->inv_size);
    const simde__m128 last_x = simde_mm_set1_ps((float)(f->nx - 1));
    const simde__m128 last_y = simde_mm_set1_ps((float)(f->ny - 1));
    const simde__m128 nx = simde_mm_set1_ps((float)f->nx);
    const simde__m128i empty = simde_mm_set1_epi32((int32_t)f->empty);
    for (; t + 4 <= nb; t += 4) {
        const size_t i = first + t;
        if (t % 16 == 0 && i + C2D_FINE_SCAN_AHEAD < c->count) { /* as the kernels do */
            c2d_prefetch(c->x + i + C2D_FINE_SCAN_AHEAD);
            c2d_prefetch(c->y + i + C2D_FINE_SCAN_AHEAD);
            c2d_prefetch(c->radius + i + C2D_FINE_SCAN_AHEAD);
        }
        const simde__m128 X = simde_mm_loadu_ps(c->x + i), Y = simde_mm_loadu_ps(c->y + i);
        const simde__m128 R = simde_mm_loadu_ps(c->radius + i);
        const simde__m128 AX = simde_mm_andnot_ps(sign, X), AY = simde_mm_andnot_ps(sign, Y);
        const simde__m128 fast = alive_tame4(AX, AY, R, rho); /* served: 0 <= r <= rho */
        const simde__m128 inside = simde_mm_and_ps(
            simde_mm_and_ps(simde_mm_cmpge_ps(X, lo_x), simde_mm_cmple_ps(X, hi_x)),
            simde_mm_and_ps(simde_mm_cmpge_ps(Y, lo_y), simde_mm_cmple_ps(Y, hi_y)));
        simde__m128 tx = simde_mm_mul_ps(simde_mm_sub_ps(X, x0), inv);
        simde__m128 ty = simde_mm_mul_ps(simde_mm_sub_ps(Y, y0), inv);
        tx = simde_mm_max_ps(simde_mm_min_ps(tx, last_x), zero);
        ty = simde_mm_max_ps(simde_mm_min_ps(ty, last_y), zero);
        /* cy * nx + cx: whole numbers below 2^24, exact in float */
        const simde__m128 cx = simde_mm_cvtepi32_ps(simde_mm_cvttps_epi32(tx));
        const simde__m128 cy = simde_mm_cvtepi32_ps(simde_mm_cvttps_epi32(ty));
        const simde__m128i k = simde_mm_cvttps_epi32(simde_mm_add_ps(simde_mm_mul_ps(cy, nx), cx));
        const simde__m128i use = simde_mm_castps_si128(simde_mm_and_ps(fast, inside));
        simde_mm_storeu_si128(
            (simde__m128i *)(cell + t),
            simde_mm_or_si128(simde_mm_and_si128(use, k), simde_mm_andnot_si128(use, empty)));
        /* the rare circles it cannot serve, in order */
        for (unsigned rest = ~(unsigned)simde_mm_movemask_ps(fast) & 15u; rest; rest &= rest - 1)
            slow[ns++] = (uint32_t)(t + (size_t)__builtin_ctz(rest));
    }
    for (; t < nb; t++) { /* the same operations, one circle at a time */
        const size_t i = first + t;
        const bool fast = fine_serves(f, c->x[i], c->y[i], c->radius[i]);
        cell[t] = fast ? fine_cell_of(f, c->x[i], c->y[i]) : f->empty;
        slow[ns] = (uint32_t)t;
        ns += !fast;
    }
    return ns;
}

/* Bit of cell k. */
static inline bool fine_bit(const c2d_fine_index *f, uint32_t k) {
    return (f->bits[k >> 6] >> (k & 63)) & 1u;
}

/* The candidates of slot value v for circle i: room for one was made; more make room for
 * themselves and `keep` after them. */
static bool emit_slot(const c2d_scene *s, c2d_scene_part *p, const c2d_fine_index *f, uint32_t v,
                      uint32_t i, size_t keep) {
    if (!(v & C2D_FINE_MANY)) {
        c2d_put_pair(p, p->count++, v, i);
        return true;
    }
    const uint32_t *e = f->multi + (v & ~C2D_FINE_MANY);
    const uint32_t n = e[0];
    if (!c2d_part_room(s, p, n + keep)) return false;
    for (uint32_t q = 0; q < n; q++)
        c2d_put_pair(p, p->count + q, e[1 + q], i);
    p->count += n;
    return true;
}

/* Circle i against each long capsule the fine index lists (as candidates). */
static bool append_longs(const c2d_scene *s, c2d_scene_part *p, uint32_t i) {
    for (size_t j = 0; j < s->fine.long_count; j++)
        if (!c2d_part_append(s, p, s->fine.longs[j], i)) return false;
    return true;
}

/* Asks memory for the coarse cells circle i will visit (up to 16; a block ahead). */
static void prefetch_coarse(const c2d_scene *s, const c2d_circle_soa *c, size_t i) {
    block b;
    classify(s, c, i, 0, &b);
    if (b.how[0] != ONE_CELL && b.how[0] != MANY_CELLS) return;
    const c2d_capsule_index *x = &s->index;
    const c2d_cell_span sp = c2d_grid_span(&x->grid, b.lo_x[0], b.hi_x[0], b.lo_y[0], b.hi_y[0]);
    if (c2d_span_cells(&sp) > 16) return;
    for (uint32_t cy = sp.y0; cy <= sp.y1; cy++)
        for (uint32_t cx = sp.x0; cx <= sp.x1; cx++) {
            const c2d_index_cell *cell = &x->cells[cy * x->grid.nx + cx];
            c2d_prefetch(cell);
            c2d_prefetch(cell->capsule);
        }
}

/* What the scan found in one block: the offsets (from the block's first circle, ascending) of
 * the circles whose bit is set, with their cells' ranks and then their slots; the offsets of
 * the circles the small index cannot serve. */
typedef struct fine_found {
    uint32_t hit[C2D_FINE_BLOCK + C2D_FINE_SCAN_PAD], value[C2D_FINE_BLOCK + C2D_FINE_SCAN_PAD];
    uint32_t slow[C2D_FINE_BLOCK + C2D_FINE_SCAN_PAD];
    uint32_t big[C2D_FINE_BLOCK + C2D_FINE_SCAN_PAD]; /* per slow circle: see big_ranks */
    size_t nh, ns;
} fine_found;

/* A slow circle's entry in fine_found.big: the big circles' index does not serve it (the coarse
 * path does), or serves it with a clear bit (no candidate); else its cell's rank, then slot. */
#define BIG_NONE UINT32_MAX
#define BIG_EMPTY (UINT32_MAX - 1u)

/* The cells of circles first .. first+nb-1 and the circles the small index cannot serve (the
 * backend's fine_cells kernel, or the shared code), the cells' words asked for when `far`. */
static void fine_ahead(const c2d_fine_index *f, const c2d_fine_grid *g, const c2d_kernels *kern,
                       const c2d_circle_soa *c, size_t first, size_t nb, bool far, uint32_t *cell,
                       fine_found *out) {
    out->ns = kern->fine_cells ? kern->fine_cells(g, c, first, nb, cell, out->slow)
                               : fine_cells(f, c, first, nb, cell, out->slow);
    if (far) /* (words that fit in a core's cache come fast enough) */
        for (size_t t = 0; t < nb; t++)
            c2d_prefetch(&f->bits[cell[t] >> 6]);
}

/* The shared path's bits of a block (no branch, so the block's loads overlap), and the ranks
 * of the set ones (slots asked for). */
static void fine_bits(const c2d_fine_index *f, const uint32_t *cell, size_t nb, fine_found *out) {
    const uint64_t *bits = f->bits;
    size_t nh = 0;
    for (size_t t = 0; t < nb; t++) {
        const uint32_t k = cell[t];
        out->hit[nh] = (uint32_t)t;
        nh += (size_t)(bits[k >> 6] >> (k & 63)) & 1u;
    }
    for (size_t a = 0; a < nh; a++) {
        out->value[a] = c2d_fine_rank(f, cell[out->hit[a]]);
        c2d_prefetch(&f->slot[out->value[a]]);
    }
    out->nh = nh;
}

/* Circles in block j of the part. */
static inline size_t block_size(const c2d_scene_part *p, size_t j) {
    const size_t rest = p->n - j * C2D_FINE_BLOCK;
    return rest < C2D_FINE_BLOCK ? rest : C2D_FINE_BLOCK;
}

/* fine_ahead for block j of the part, and what its slow circles will read asked for. */
static void fine_cells_ahead(const c2d_scene *s, const c2d_fine_grid *g, const c2d_kernels *kern,
                             const c2d_scene_part *p, size_t j, bool far, uint32_t *cell,
                             fine_found *out) {
    const c2d_circle_soa *c = &s->frame.circles;
    const c2d_fine_index *big = c2d_fine_big_ready(s) ? &s->fine_big : NULL;
    const size_t first = p->first + j * C2D_FINE_BLOCK;
    fine_ahead(&s->fine, g, kern, c, first, block_size(p, j), far, cell, out);
    for (size_t z = 0; z < out->ns; z++) {
        const size_t i = first + out->slow[z];
        if (big && fine_serves(big, c->x[i], c->y[i], c->radius[i])) {
            const uint32_t k = fine_cell_of(big, c->x[i], c->y[i]);
            c2d_prefetch(&big->bits[k >> 6]);
            c2d_prefetch(&big->base[k >> 6]);
        } else {
            prefetch_coarse(s, c, i);
        }
    }
}

/* The big circles' index for a block's slow circles (out->big; a block ahead): the ranks of
 * their cells, slots asked for. */
static void big_ranks(const c2d_scene *s, const c2d_scene_part *p, size_t j, fine_found *out) {
    const c2d_circle_soa *c = &s->frame.circles;
    const c2d_fine_index *big = c2d_fine_big_ready(s) ? &s->fine_big : NULL;
    const size_t first = p->first + j * C2D_FINE_BLOCK;
    for (size_t z = 0; z < out->ns; z++) {
        const size_t i = first + out->slow[z];
        out->big[z] = BIG_NONE;
        if (!big || !fine_serves(big, c->x[i], c->y[i], c->radius[i])) continue;
        const uint32_t k = fine_cell_of(big, c->x[i], c->y[i]);
        out->big[z] = BIG_EMPTY;
        if (!fine_bit(big, k)) continue;
        out->big[z] = c2d_fine_rank(big, k);
        c2d_prefetch(&big->slot[out->big[z]]);
    }
}

/* The bits of a block's cells, the ranks of the set ones, their slots asked for (the backend's
 * fine_hits kernel, or the shared code). */
static void fine_hits_of(const c2d_fine_index *f, const c2d_fine_grid *g, const c2d_kernels *kern,
                         size_t nb, const uint32_t *cell, fine_found *out) {
    if (kern->fine_hits)
        out->nh = kern->fine_hits(g, cell, nb, out->hit, out->value);
    else
        fine_bits(f, cell, nb, out);
}

/* The fine scan of a part's circles (see scene_fine.c for why it finds every contact). A block
 * goes in passes, each asking memory early for what a later one reads: its cells are found
 * two blocks ahead (their words asked for when far), its bits read and ranked one block ahead
 * (slots asked for); then its slots are read; the slots of crowded cells ask for
 * their lists; then the candidates go out in circle order and get their exact tests while the
 * block's circles are in cache. */
bool c2d_scan_fine(const c2d_scene *s, c2d_scene_part *p) {
    const c2d_fine_index *f = &s->fine;
    const c2d_circle_soa *c = &s->frame.circles;
    const uint32_t *slot = f->slot, *multi = f->multi;
    const c2d_fine_grid grid = {f->x0,  f->y0, f->inv_size, f->lo_x, f->hi_x, f->lo_y, f->hi_y,
                                f->rho, f->nx, f->ny,       f->bits, f->base, f->slot, f->empty};
    const c2d_kernels *kern = c2d_active_kernels();
    uint32_t cell[2][C2D_FINE_BLOCK + C2D_FINE_SCAN_PAD];
    fine_found found[3]; /* block j's in found[j % 3] */
    size_t above_big = 0;
    const c2d_fine_index *big = c2d_fine_big_ready(s) ? &s->fine_big : NULL;
    const bool far = ((size_t)f->nx * f->ny / 64) * sizeof(uint64_t) > FINE_NEAR_BYTES;
    block b;
    size_t above = 0;
    const size_t blocks = (p->n + C2D_FINE_BLOCK - 1) / C2D_FINE_BLOCK;
    /* three steps in flight: block j + 2's cells, j + 1's bits and ranks, j's slots */
    for (size_t j = 0; j < 2 && j < blocks; j++)
        fine_cells_ahead(s, &grid, kern, p, j, far, cell[j], &found[j]);
    if (blocks > 0) {
        fine_hits_of(f, &grid, kern, block_size(p, 0), cell[0], &found[0]);
        big_ranks(s, p, 0, &found[0]);
    }
    for (size_t j = 0; j < blocks; j++) {
        const size_t first = p->first + j * C2D_FINE_BLOCK;
        if (j + 2 < blocks) /* (block j's cells are no longer needed) */
            fine_cells_ahead(s, &grid, kern, p, j + 2, far, cell[j % 2], &found[(j + 2) % 3]);
        if (j + 1 < blocks) {
            fine_hits_of(f, &grid, kern, block_size(p, j + 1), cell[(j + 1) % 2],
                         &found[(j + 1) % 3]);
            big_ranks(s, p, j + 1, &found[(j + 1) % 3]);
        }
        fine_found *fd = &found[j % 3];
        const size_t nh = fd->nh, ns = fd->ns;
        uint32_t *hit = fd->hit, *value = fd->value, *sl = fd->slow, *bv = fd->big;
        for (size_t a = 0; a < nh; a++) { /* slots, crowded cells' lists asked for */
            value[a] = slot[value[a]];
            if (value[a] & C2D_FINE_MANY) c2d_prefetch(&multi[value[a] & ~C2D_FINE_MANY]);
        }
        for (size_t z = 0; big && z < ns; z++) /* the same in the big circles' index */
            if (bv[z] < BIG_EMPTY) {
                bv[z] = big->slot[bv[z]];
                if (bv[z] & C2D_FINE_MANY) c2d_prefetch(&big->multi[bv[z] & ~C2D_FINE_MANY]);
            }
        /* room for every hit, and one more for a slow circle's single capsule (emit_slot); a
         * slow circle takes what it needs beyond that itself, and the room is made again after
         * it */
        if (!c2d_part_room(s, p, nh + 1)) return false;
        /* hits and slow circles merged in circle order (both ascending) */
        hit[nh] = sl[ns] = C2D_FINE_BLOCK;
        for (size_t a = 0, z = 0; a < nh || z < ns;) {
            if (hit[a] < sl[z]) { /* a run of hits: one capsule each in a local count */
                size_t count = p->count;
                for (; hit[a] < sl[z] && !(value[a] & C2D_FINE_MANY); a++, count++)
                    c2d_put_pair(p, count, value[a], (uint32_t)(first + hit[a]));
                p->count = count;
                if (hit[a] < sl[z]) { /* a crowded cell's list (room for the rest is kept) */
                    const uint32_t i = (uint32_t)(first + hit[a]);
                    if (!emit_slot(s, p, f, value[a++], i, nh)) return false;
                }
                continue;
            }
            /* a circle the small index cannot serve: the big circles' index, or the coarse path */
            const uint32_t i = (uint32_t)(first + sl[z]), v = bv[z++];
            const float X = c->x[i], Y = c->y[i], r = c->radius[i];
            const bool grown = r > f->rho && tame(r) && X == X && Y == Y;
            above += grown;
            if (v != BIG_NONE) {
                if (v != BIG_EMPTY && !emit_slot(s, p, big, v, i, nh)) return false;
            } else {
                above_big += grown;
                classify(s, c, i, 0, &b);
                if (!scan_slot(s, p, &b, 0, i)) return false;
                /* the long capsules the fine index lists: candidates of every alive tame circle
                 * (wild ones get them in test_wild) */
                if (f->long_count && r >= 0.0f && tame(r) && tame(X) && tame(Y) &&
                    !append_longs(s, p, i))
                    return false;
            }
            if (!c2d_part_room(s, p, nh + 1)) return false;
        }
        if (!c2d_part_flush(s, p)) return false; /* while the block's circles are in cache */
    }
    p->above_rho = above;
    p->above_big = above_big;
    return c2d_part_test_dirty(s, p);
}
