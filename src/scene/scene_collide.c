/* Scene collide frames. Binning scans the circles in index order, a block at a time. A circle
 * the fine index serves (radius <= rho, scene_fine.c) reads the one cell of its centre there; a
 * circle above rho reads the big circles' fine index the same way; any other circle takes the
 * coarse path: its box against the static capsule index (scene_index.c), keeping every
 * (capsule, circle) pair whose boxes meet. Each block's candidates, in circle order, go at once
 * through the active backend's listed-pairs kernel (the exact test, the scalar layer's contact
 * function), while the block's circles are in cache; the end of binning sorts the contacts by
 * capsule (a stable counting sort of pointers to them, where the parts wrote them) and range
 * calls copy them through those.
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
#include "dispatch.h"
#include "scene/scene_internal.h"

/* Margins of a circle's box in the scan (see above): its radius times 1 + 2^-10, plus 2^-22
 * of the coordinate's magnitude for the float rounding of the box's ends. */
#define RADIUS_MARGIN 1.0009765625f
#define POSITION_MARGIN 2.384185791015625e-07f

/* The index's multiplier in the frame checksum (2^32 / golden ratio, odd). */
#define CHECKSUM_STEP 0x9e3779b9u

static bool tame(float v) {
    return fabsf(v) <= C2D_TAME_LIMIT;
}

/* ---- the frame checksum ---------------------------------------------------------------- */

/* Circle i's term: x, the index, y and the radius mixed in turn by xorshifts. Each step is a
 * bijection of the running value for the other inputs fixed, so changing any one input always
 * changes the term; the additions make it nonlinear, so swapped values show too. */
static inline uint32_t xorshift(uint32_t a) {
    a ^= a << 13;
    a ^= a >> 17;
    return a ^ a << 5;
}

static inline uint32_t checksum_term(uint32_t x, uint32_t y, uint32_t r, uint32_t i) {
    return xorshift(xorshift(xorshift(x ^ i * CHECKSUM_STEP) + y) + r);
}

/* checksum_term on four circles (the same operations, lane by lane; SSE2 has them all). */
static inline simde__m128i xorshift4(simde__m128i a) {
    a = simde_mm_xor_si128(a, simde_mm_slli_epi32(a, 13));
    a = simde_mm_xor_si128(a, simde_mm_srli_epi32(a, 17));
    return simde_mm_xor_si128(a, simde_mm_slli_epi32(a, 5));
}

uint32_t c2d_circle_checksum(const c2d_circle_soa *c, size_t first, size_t n) {
    size_t i = first;
    const size_t end = first + n;
    /* i * CHECKSUM_STEP in the lanes (mod 2^32, as in checksum_term) */
    const uint32_t step = (uint32_t)i * CHECKSUM_STEP;
    simde__m128i index =
        simde_mm_set_epi32((int32_t)(step + 3 * CHECKSUM_STEP), (int32_t)(step + 2 * CHECKSUM_STEP),
                           (int32_t)(step + CHECKSUM_STEP), (int32_t)step);
    const simde__m128i index_step = simde_mm_set1_epi32((int32_t)(4 * CHECKSUM_STEP));
    simde__m128i sum4 = simde_mm_setzero_si128();
    for (; i + 4 <= end; i += 4) {
        const simde__m128i x = simde_mm_castps_si128(simde_mm_loadu_ps(c->x + i));
        const simde__m128i y = simde_mm_castps_si128(simde_mm_loadu_ps(c->y + i));
        const simde__m128i r = simde_mm_castps_si128(simde_mm_loadu_ps(c->radius + i));
        simde__m128i a = xorshift4(simde_mm_xor_si128(x, index));
        a = xorshift4(simde_mm_add_epi32(a, y));
        sum4 = simde_mm_add_epi32(sum4, xorshift4(simde_mm_add_epi32(a, r)));
        index = simde_mm_add_epi32(index, index_step);
    }
    uint32_t lanes[4];
    simde_mm_storeu_si128((simde__m128i *)lanes, sum4);
    uint32_t sum = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    for (; i < end; i++) {
        uint32_t x, y, r;
        memcpy(&x, c->x + i, sizeof x);
        memcpy(&y, c->y + i, sizeof y);
        memcpy(&r, c->radius + i, sizeof r);
        sum += checksum_term(x, y, r, (uint32_t)i);
    }
    return sum;
}

/* ---- binning ----------------------------------------------------------------------------- */

c2d_status c2d_scene_frame_begin(c2d_scene *s, const c2d_circle_soa *circles, size_t parts) {
    void *ptr;
    s->frame.state = C2D_FRAME_NONE; /* the frame binned before is replaced, even on failure */
    c2d_fine_prepare(s, circles);
    const size_t have = s->scratch[C2D_SCENE_SLOT_PARTS].bytes / sizeof(c2d_scene_part);
    c2d_status st = c2d_scene_reserve(s, C2D_SCENE_SLOT_PARTS,
                                      C2D_SCENE_MAX_PARTS * sizeof(c2d_scene_part), &ptr);
    if (st != C2D_OK) return st;
    c2d_scene_part *part = ptr;
    if (have < C2D_SCENE_MAX_PARTS) /* a fresh array: no buffers yet */
        memset(part, 0, C2D_SCENE_MAX_PARTS * sizeof *part);
    s->frame.circles = *circles;
    s->frame.parts = parts;
    s->frame.generation = s->generation;
    const size_t n = circles->count;
    for (size_t p = 0; p < parts; p++) {
        part[p].first = n * p / parts;
        part[p].n = n * (p + 1) / parts - part[p].first;
        part[p].count = 0;
        part[p].wild = false;
        part[p].status = C2D_ERROR_STATE; /* not binned yet */
    }
    s->frame.state = C2D_FRAME_BEGUN;
    return C2D_OK;
}

/* A part's candidates are two arrays in one buffer, so the pairs kernel reads them where they
 * are: the capsules, and from [capacity] the circles. */
static inline uint32_t *pair_capsules(const c2d_scene_part *p) {
    return p->pairs;
}
static inline uint32_t *pair_circles(const c2d_scene_part *p) {
    return p->pairs + p->capacity;
}

/* Writes the pair (capsule, circle) at entry j (room was made). */
static inline void put_pair(const c2d_scene_part *p, size_t j, uint32_t capsule, uint32_t circle) {
    pair_capsules(p)[j] = capsule;
    pair_circles(p)[j] = circle;
}

/* A buffer of `capacity` pairs for the part, holding its pairs so far (kept for later frames). */
static bool regrow(const c2d_scene *s, c2d_scene_part *p, size_t capacity) {
    uint32_t *pairs = c2d_scene_alloc(s, 2 * capacity * sizeof(uint32_t));
    if (!pairs) return false;
    if (p->count) {
        memcpy(pairs, pair_capsules(p), p->count * sizeof(uint32_t));
        memcpy(pairs + capacity, pair_circles(p), p->count * sizeof(uint32_t));
    }
    c2d_scene_free(s, p->pairs);
    p->pairs = pairs;
    p->capacity = capacity;
    return true;
}

/* Appends the pair (capsule, circle) to the part, growing its buffer (1.5x) when full. */
static bool append(const c2d_scene *s, c2d_scene_part *p, uint32_t capsule, uint32_t circle) {
    if (p->count == p->capacity &&
        !regrow(s, p, p->capacity < 512 ? 1024 : p->capacity + p->capacity / 2))
        return false;
    put_pair(p, p->count++, capsule, circle);
    return true;
}

/* A circle's box in the scan (see the top of the file; float, with margins). */
typedef struct circle_box {
    float lo_x, hi_x, lo_y, hi_y;
} circle_box;

static bool meets(const circle_box *b, float lo_x, float hi_x, float lo_y, float hi_y) {
    return b->lo_x <= hi_x && b->hi_x >= lo_x && b->lo_y <= hi_y && b->hi_y >= lo_y;
}

/* Makes room for `n` more pairs. */
static bool room_for(const c2d_scene *s, c2d_scene_part *p, size_t n) {
    if (p->capacity - p->count >= n) return true;
    /* 1.5x the old size or what is needed, whichever is larger: kept for later frames */
    const size_t need = p->count + n;
    size_t capacity = p->capacity < 512 ? 1024 : p->capacity + p->capacity / 2;
    if (capacity < need + need / 2) capacity = need + need / 2;
    return regrow(s, p, capacity);
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
    if (!room_for(s, p, C2D_CELL_SLOTS + (e1 - e0))) return false;
    for (; mask; mask &= mask - 1) {
        const unsigned j = (unsigned)__builtin_ctz(mask);
        if (shared && !c2d_grid_owns(g, cx, cy, b->lo_x, b->lo_y, c->lo_x[j], c->lo_y[j])) continue;
        put_pair(p, p->count++, c->capsule[j], i);
    }
    for (uint32_t e = e0; e < e1; e++) { /* the overflow of a crowded cell */
        const c2d_index_entry *en = &x->entries[e];
        if (!meets(b, en->lo_x, en->hi_x, en->lo_y, en->hi_y)) continue;
        if (shared && !c2d_grid_owns(g, cx, cy, b->lo_x, b->lo_y, en->lo_x, en->lo_y)) continue;
        put_pair(p, p->count++, en->capsule, i);
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
                meets(b, x->lo_x[k], x->hi_x[k], x->lo_y[k], x->hi_y[k]) && !append(s, p, k, i))
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
        if (!room_for(s, p, C2D_CELL_SLOTS)) return false;
        const c2d_index_cell *ic = &x->cells[b->cell[t]];
        const unsigned mask = c2d_cell_mask(ic, box.lo_x, box.hi_x, box.lo_y, box.hi_y);
        p->count =
            c2d_write_slots(pair_circles(p), pair_capsules(p), p->count, i, ic->capsule, mask);
        for (uint32_t e = ic->first; e < ic->end; e++) { /* the overflow of a crowded cell */
            const c2d_index_entry *en = &x->entries[e];
            if (meets(&box, en->lo_x, en->hi_x, en->lo_y, en->hi_y) &&
                !append(s, p, en->capsule, i))
                return false;
        }
    } else if (b->how[t] == WILD_CIRCLE) {
        if (!append(s, p, UINT32_MAX, i)) return false;
        p->wild = true;
    } else if (b->how[t] == MANY_CELLS) {
        const circle_box box = {b->lo_x[t], b->hi_x[t], b->lo_y[t], b->hi_y[t]};
        if (!scan_circle(s, p, i, &box)) return false;
    }
    return true;
}

/* ---- exact tests at the scan ------------------------------------------------------------ */

/* Pairs handed to the pairs kernel at once (on the stack). */
enum { CHUNK = 1024 };

/* Makes room for n more contacts in the part (1.5x what is needed, kept for later frames). */
static bool contact_room(const c2d_scene *s, c2d_scene_part *p, size_t n) {
    if (p->contact_capacity - p->found >= n) return true;
    const size_t need = p->found + n, capacity = need + need / 2 + 256;
    c2d_pair_contact *fresh = c2d_scene_alloc(s, capacity * sizeof *fresh);
    if (!fresh) return false;
    if (p->found) memcpy(fresh, p->contacts, p->found * sizeof *fresh);
    c2d_scene_free(s, p->contacts);
    p->contacts = fresh;
    p->contact_capacity = capacity;
    return true;
}

/* The exact tests of pairs (ci[j], ki[j]), j < n, appended to the part's contacts (a pair
 * gives at most one contact, so room for n is made first). */
static bool test_pairs(const c2d_scene *s, c2d_scene_part *p, const uint32_t *ci,
                       const uint32_t *ki, size_t n) {
    if (n == 0) return true;
    if (!contact_room(s, p, n)) return false;
    p->found += c2d_active_kernels()->collide_pairs(&s->frame.circles, &s->capsules, ci, ki, n,
                                                    p->contacts + p->found, n);
    return true;
}

/* A wild circle i against every listed capsule (radius >= 0, not dirty), ascending. */
static bool test_wild(const c2d_scene *s, c2d_scene_part *p, uint32_t i) {
    uint32_t ci[CHUNK], ki[CHUNK];
    size_t fill = 0;
    for (size_t k = 0; k < s->capsule_count; k++) {
        const bool listed =
            s->index.kind[k] == C2D_KIND_GRID || (c2d_fine_ready(s) && c2d_fine_long(s, k));
        if (!listed || !(s->radius[k] >= 0.0f) || c2d_fine_dirty(s, k)) continue;
        ci[fill] = i;
        ki[fill++] = (uint32_t)k;
        if (fill == CHUNK) {
            if (!test_pairs(s, p, ci, ki, fill)) return false;
            fill = 0;
        }
    }
    return test_pairs(s, p, ci, ki, fill);
}

/* A word array from element `first` on (NULL stays NULL: no arithmetic on it). */
static inline const uint32_t *words_from(const uint32_t *w, size_t first) {
    return w ? w + first : NULL;
}

/* Capsule k of the scene as a set of one, with its filter words and sensor byte when the scene
 * has them: the all-pairs kernel then applies the filter itself. */
static c2d_capsule_soa one_capsule(const c2d_scene *s, size_t k) {
    const c2d_capsule_soa *K = &s->capsules;
    const c2d_capsule_soa one = {K->ax + k,
                                 K->ay + k,
                                 K->bx + k,
                                 K->by + k,
                                 K->radius + k,
                                 1,
                                 words_from(K->category, k),
                                 words_from(K->mask, k),
                                 K->sensor ? K->sensor + k : NULL};
    return one;
}

/* The exact tests of the part's candidates, in order, but for dirty capsules (tested by
 * test_dirty); empties the candidate list. */
static bool flush(const c2d_scene *s, c2d_scene_part *p) {
    const size_t count = p->count;
    if (count == 0) return true; /* (the buffer may not exist yet) */
    const uint32_t *caps = pair_capsules(p), *circs = pair_circles(p);
    p->count = 0;
    if (!p->wild && !c2d_fine_dirty_any(s)) /* the usual case: every pair as it is */
        return test_pairs(s, p, circs, caps, count);
    p->wild = false;
    uint32_t ci[CHUNK], ki[CHUNK];
    size_t fill = 0;
    for (size_t j = 0; j < count; j++) {
        const uint32_t k = caps[j], i = circs[j];
        if (k != UINT32_MAX && c2d_fine_dirty(s, k)) continue;
        if (k == UINT32_MAX) { /* in circle order: the pairs before it first */
            if (!test_pairs(s, p, ci, ki, fill) || !test_wild(s, p, i)) return false;
            fill = 0;
            continue;
        }
        ci[fill] = i;
        ki[fill++] = k;
        if (fill == CHUNK) {
            if (!test_pairs(s, p, ci, ki, fill)) return false;
            fill = 0;
        }
    }
    return test_pairs(s, p, ci, ki, fill);
}

/* Each dirty capsule (moved since the fine index was built) of kind GRID against every circle
 * of the part, by the all-pairs kernel: its contacts in circle order, as the scan would have
 * found them. */
static bool test_dirty(const c2d_scene *s, c2d_scene_part *p) {
    const c2d_fine_index *f = &s->fine;
    const c2d_circle_soa *c = &s->frame.circles;
    /* the part's circles with their words: the kernel drops the refused pairs */
    const c2d_circle_soa part = {c->x + p->first,
                                 c->y + p->first,
                                 c->radius + p->first,
                                 p->n,
                                 words_from(c->category, p->first),
                                 words_from(c->mask, p->first)};
    for (size_t d = 0; d < f->dirty_count && p->n > 0; d++) {
        const size_t k = f->dirty_list[d];
        const bool listed = s->index.kind[k] == C2D_KIND_GRID && s->radius[k] >= 0.0f;
        if (!listed && !c2d_fine_long(s, k)) continue; /* the range calls test it */
        const c2d_capsule_soa one = one_capsule(s, k);
        for (;;) {
            const size_t room = p->contact_capacity - p->found;
            const size_t found = c2d_active_kernels()->collide(
                &part, &one, room ? p->contacts + p->found : NULL, room);
            if (found <= room) {
                for (size_t j = p->found; j < p->found + found; j++) {
                    p->contacts[j].circle += (uint32_t)p->first;
                    p->contacts[j].capsule = (uint32_t)k;
                }
                p->found += found;
                break;
            }
            if (!contact_room(s, p, found)) return false;
        }
    }
    return true;
}

/* The coarse scan of a part's circles (no fine index). */
static bool coarse_part(const c2d_scene *s, c2d_scene_part *p) {
    const c2d_circle_soa *c = &s->frame.circles;
    const size_t end = p->first + p->n;
    block b;
    for (size_t first = p->first; first < end; first += BLOCK) {
        const size_t nb = end - first < BLOCK ? end - first : BLOCK;
        first_pass(s, c, first, nb, &b);
        for (size_t t = 0; t < nb; t++)
            if (!scan_slot(s, p, &b, t, (uint32_t)(first + t))) return false;
        if (p->count >= CHUNK / 2 && !flush(s, p)) return false;
    }
    return flush(s, p);
}

/* ---- the fine scan ------------------------------------------------------------------------ */

/* Circles per block of the fine scan: their cells are found first (four at a time), then their
 * bits are read (all the block's loads in flight at once), then the few set bits expanded. */
enum { FINE_BLOCK = 1024 };

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
        put_pair(p, p->count++, v, i);
        return true;
    }
    const uint32_t *e = f->multi + (v & ~C2D_FINE_MANY);
    const uint32_t n = e[0];
    if (!room_for(s, p, n + keep)) return false;
    for (uint32_t q = 0; q < n; q++)
        put_pair(p, p->count + q, e[1 + q], i);
    p->count += n;
    return true;
}

/* Circle i against each long capsule the fine index lists (as candidates). */
static bool append_longs(const c2d_scene *s, c2d_scene_part *p, uint32_t i) {
    for (size_t j = 0; j < s->fine.long_count; j++)
        if (!append(s, p, s->fine.longs[j], i)) return false;
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
    uint32_t hit[FINE_BLOCK + C2D_FINE_SCAN_PAD], value[FINE_BLOCK + C2D_FINE_SCAN_PAD];
    uint32_t slow[FINE_BLOCK + C2D_FINE_SCAN_PAD];
    uint32_t big[FINE_BLOCK + C2D_FINE_SCAN_PAD]; /* per slow circle: see big_ranks */
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
    const size_t rest = p->n - j * FINE_BLOCK;
    return rest < FINE_BLOCK ? rest : FINE_BLOCK;
}

/* fine_ahead for block j of the part, and what its slow circles will read asked for. */
static void fine_cells_ahead(const c2d_scene *s, const c2d_fine_grid *g, const c2d_kernels *kern,
                             const c2d_scene_part *p, size_t j, bool far, uint32_t *cell,
                             fine_found *out) {
    const c2d_circle_soa *c = &s->frame.circles;
    const c2d_fine_index *big = c2d_fine_big_ready(s) ? &s->fine_big : NULL;
    const size_t first = p->first + j * FINE_BLOCK;
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
    const size_t first = p->first + j * FINE_BLOCK;
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
static bool fine_part(const c2d_scene *s, c2d_scene_part *p) {
    const c2d_fine_index *f = &s->fine;
    const c2d_circle_soa *c = &s->frame.circles;
    const uint32_t *slot = f->slot, *multi = f->multi;
    const c2d_fine_grid grid = {f->x0,  f->y0, f->inv_size, f->lo_x, f->hi_x, f->lo_y, f->hi_y,
                                f->rho, f->nx, f->ny,       f->bits, f->base, f->slot, f->empty};
    const c2d_kernels *kern = c2d_active_kernels();
    uint32_t cell[2][FINE_BLOCK + C2D_FINE_SCAN_PAD];
    fine_found found[3]; /* block j's in found[j % 3] */
    size_t above_big = 0;
    const c2d_fine_index *big = c2d_fine_big_ready(s) ? &s->fine_big : NULL;
    const bool far = ((size_t)f->nx * f->ny / 64) * sizeof(uint64_t) > FINE_NEAR_BYTES;
    block b;
    size_t above = 0;
    const size_t blocks = (p->n + FINE_BLOCK - 1) / FINE_BLOCK;
    /* three steps in flight: block j + 2's cells, j + 1's bits and ranks, j's slots */
    for (size_t j = 0; j < 2 && j < blocks; j++)
        fine_cells_ahead(s, &grid, kern, p, j, far, cell[j], &found[j]);
    if (blocks > 0) {
        fine_hits_of(f, &grid, kern, block_size(p, 0), cell[0], &found[0]);
        big_ranks(s, p, 0, &found[0]);
    }
    for (size_t j = 0; j < blocks; j++) {
        const size_t first = p->first + j * FINE_BLOCK;
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
        if (!room_for(s, p, nh + 1)) return false;
        /* hits and slow circles merged in circle order (both ascending) */
        hit[nh] = sl[ns] = FINE_BLOCK;
        for (size_t a = 0, z = 0; a < nh || z < ns;) {
            if (hit[a] < sl[z]) { /* a run of hits: one capsule each in a local count */
                size_t count = p->count;
                for (; hit[a] < sl[z] && !(value[a] & C2D_FINE_MANY); a++, count++)
                    put_pair(p, count, value[a], (uint32_t)(first + hit[a]));
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
            if (!room_for(s, p, nh + 1)) return false;
        }
        if (!flush(s, p)) return false; /* while the block's circles are in cache */
    }
    p->above_rho = above;
    p->above_big = above_big;
    return test_dirty(s, p);
}

c2d_status c2d_scene_frame_part(c2d_scene *s, size_t index) {
    c2d_scene_part *p = (c2d_scene_part *)s->scratch[C2D_SCENE_SLOT_PARTS].ptr + index;
    const c2d_circle_soa *c = &s->frame.circles;
    p->count = 0;
    p->wild = false;
    p->found = 0;
    p->above_rho = 0;
    p->above_big = 0;
    p->status = C2D_ERROR_ALLOC;
    if (!(c2d_fine_ready(s) ? fine_part(s, p) : coarse_part(s, p))) return C2D_ERROR_ALLOC;
    /* keep room for a block's candidates, so similar frames do not allocate */
    if (!room_for(s, p, C2D_CELL_SLOTS * FINE_BLOCK)) return C2D_ERROR_ALLOC;
    p->checksum = C2D_FRAME_CHECKS ? c2d_circle_checksum(c, p->first, p->n) : 0;
    p->status = C2D_OK;
    return C2D_OK;
}

c2d_status c2d_scene_frame_end(c2d_scene *s) {
    const c2d_scene_part *part = s->scratch[C2D_SCENE_SLOT_PARTS].ptr;
    const size_t parts = s->frame.parts, m = s->capsule_count;
    size_t found = 0, above = 0, above_big = 0;
    uint32_t checksum = 0;
    for (size_t p = 0; p < parts; p++) {
        if (part[p].status != C2D_OK) return part[p].status;
        found += part[p].found;
        checksum += part[p].checksum;
        above += part[p].above_rho;
        above_big += part[p].above_big;
    }
    /* many circles missed the fine index by their radius: the next frame chooses rho again;
     * the big circles' index (unless it could not be built) grows for a few */
    const size_t n = s->frame.circles.count;
    if (above > n / 16 + 64) s->fine.regrow = true;
    if (above_big > n / 1024 + 16 && !s->fine_big.declined) s->fine_big.regrow = true;
    const int slots[] = {C2D_SCENE_SLOT_OFFSET, C2D_SCENE_SLOT_CONTACTS};
    const size_t bytes[] = {(m + 2) * sizeof(uint32_t),
                            (found + 1) * sizeof(const c2d_pair_contact *)};
    void *ptr[2];
    const c2d_status st = c2d_scene_reserve_all(s, 2, slots, bytes, ptr);
    if (st != C2D_OK) return st;
    uint32_t *offset = ptr[0];
    const c2d_pair_contact **sorted = ptr[1];
    /* counting sort by capsule of pointers into the parts' contacts (a copy of each contact
     * here, then another into the output, measured 1.04-1.07x slower at 262,144 balls and up);
     * parts in order, each in circle order: stable, ascending */
    memset(offset, 0, (m + 2) * sizeof(uint32_t));
    for (size_t p = 0; p < parts; p++)
        for (size_t j = 0; j < part[p].found; j++)
            offset[part[p].contacts[j].capsule + 2]++;
    for (size_t k = 3; k < m + 2; k++)
        offset[k] += offset[k - 1];
    for (size_t p = 0; p < parts; p++)
        for (size_t j = 0; j < part[p].found; j++)
            sorted[offset[part[p].contacts[j].capsule + 1]++] = &part[p].contacts[j];
    /* capsule k's contacts: sorted[offset[k] .. offset[k + 1]) */
    s->frame.checksum = checksum;
    s->frame.fine = c2d_fine_ready(s);
    s->frame.state = C2D_FRAME_BINNED;
    return C2D_OK;
}

/* ---- queries ----------------------------------------------------------------------------- */

/* Where contacts go, and how many were found. */
typedef struct sink {
    c2d_pair_contact *out;
    size_t capacity, written, total;
} sink;

/* The rest of the output buffer: NULL once full (no pointer past the end is formed). */
static c2d_pair_contact *rest_of(const sink *o, size_t *capacity) {
    *capacity = o->capacity - o->written;
    return *capacity ? o->out + o->written : NULL;
}

static void account(sink *o, size_t found) {
    const size_t room = o->capacity - o->written;
    o->written += found < room ? found : room;
    o->total += found;
}

/* n binned contacts (pointers to them) into the output. */
static void copy_out(sink *o, const c2d_pair_contact *const *from, size_t n) {
    if (n == 0) return;
    size_t capacity;
    c2d_pair_contact *out = rest_of(o, &capacity);
    if (out)
        for (size_t j = 0, w = n < capacity ? n : capacity; j < w; j++)
            out[j] = *from[j];
    account(o, n);
}

/* Capsule k against every circle, by the all-pairs kernel: huge or infinite capsules, and
 * capsules whose box covers too many cells. */
static void collide_all(const c2d_scene *s, size_t k, sink *o) {
    const c2d_capsule_soa one = one_capsule(s, k); /* with the frame's words: filtered there */
    size_t capacity;
    c2d_pair_contact *out = rest_of(o, &capacity);
    const size_t found = c2d_active_kernels()->collide(&s->frame.circles, &one, out, capacity);
    const size_t written = found < capacity ? found : capacity;
    for (size_t i = 0; i < written; i++)
        out[i].capsule = (uint32_t)k;
    account(o, found);
}

size_t c2d_scene_collide_binned(const c2d_scene *s, size_t first, size_t n, c2d_pair_contact *out,
                                size_t capacity) {
    sink o = {out, capacity, 0, 0};
    if (s->frame.circles.count == 0 || n == 0) return 0;
    const uint32_t *offset = s->scratch[C2D_SCENE_SLOT_OFFSET].ptr;
    const c2d_pair_contact *const *sorted = s->scratch[C2D_SCENE_SLOT_CONTACTS].ptr;
    const unsigned char *kind = s->index.kind;
    const float *R = s->capsules.radius;
    /* runs of binned contacts are copied at once; capsules of kind EVERYWHERE (never binned)
     * are tested in their place */
    size_t run = offset[first];
    const bool longs = s->frame.fine && s->fine.long_count > 0;
    for (size_t k = first; k < first + n; k++) {
        if (kind[k] != C2D_KIND_EVERYWHERE || (longs && c2d_fine_long(s, k))) continue;
        copy_out(&o, sorted + run, offset[k] - run);
        run = offset[k + 1];
        if (R[k] >= 0.0f) collide_all(s, k, &o);
    }
    copy_out(&o, sorted + run, offset[first + n] - run);
    return o.total;
}
