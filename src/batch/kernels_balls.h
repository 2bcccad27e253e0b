/* The ball-against-ball kernels of one backend (src/batch/kernels_balls.c, compiled once per
 * backend like kernels.c) and the helpers both the kernels and the ball grid use. */
#ifndef C2D_BATCH_KERNELS_BALLS_H
#define C2D_BATCH_KERNELS_BALLS_H

#include "batch/kernels.h"

/* One pair of balls, a < b. */
typedef struct c2d_ball_pair {
    uint32_t a, b;
} c2d_ball_pair;

/* The ball grid's contact cells: the grid balls sorted by cell (row-major), as arrays of their
 * centres, radii and indices. Every array holds C2D_BALL_PAD entries past the last ball (NaN
 * centres and radii, index 0), so a kernel may load a whole vector from any ball. */
enum { C2D_BALL_PAD = 16 };
typedef struct c2d_ball_cells {
    const float *x, *y, *r;
    const uint32_t *id;
    const uint32_t *start; /* cell c holds sorted entries [start[c], start[c + 1]) */
    uint32_t nx, ny;       /* cells a row, rows */
} c2d_ball_cells;

/* Appends the pair of balls i and j as (min, max): written while below capacity, counted. */
static inline size_t c2d_add_ball_pair(c2d_ball_pair *pairs, size_t capacity, size_t count,
                                       uint32_t i, uint32_t j) {
    if (count < capacity) {
        pairs[count].a = i < j ? i : j;
        pairs[count].b = i < j ? j : i;
    }
    return count + 1;
}

/* The walk of ball_cell_pairs, shared by every backend: in cell order, each ball against the
 * balls after it in its own cell and the cell east of it (one contiguous span of the sorted
 * arrays), then against the three cells of the next row (a second span), so each pair of
 * neighbouring cells is seen once. `span` tests ball p against entries [lo, hi) and appends
 * the overlapping pairs; the backend's own (a vector loop, or a plain one) inlines here. */
typedef size_t (*c2d_ball_span_fn)(const c2d_ball_cells *g, size_t p, size_t lo, size_t hi,
                                   c2d_ball_pair *pairs, size_t capacity, size_t count);

#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline size_t
c2d_ball_cells_walk(const c2d_ball_cells *g, c2d_ball_pair *pairs, size_t capacity,
                    c2d_ball_span_fn span) {
    size_t count = 0;
    const uint32_t *start = g->start;
    for (uint32_t cy = 0; cy < g->ny; cy++)
        for (uint32_t cx = 0; cx < g->nx; cx++) {
            const size_t cell = (size_t)cy * g->nx + cx;
            const size_t lo = start[cell], hi = start[cell + 1];
            if (lo == hi) continue;
            const size_t east = cx + 1 < g->nx ? start[cell + 2] : hi;
            size_t up_lo = 0, up_hi = 0;
            if (cy + 1 < g->ny) {
                const size_t row = cell + g->nx;
                up_lo = start[cx > 0 ? row - 1 : row];
                up_hi = start[cx + 1 < g->nx ? row + 2 : row + 1];
            }
            for (size_t p = lo; p < hi; p++) {
                count = span(g, p, p + 1, east, pairs, capacity, count);
                if (up_lo < up_hi) count = span(g, p, up_lo, up_hi, pairs, capacity, count);
            }
        }
    return count;
}

/* Per-backend names: c2d_kernels_avx2 gives c2d_kernels_avx2_collide_circles, and so on. */
#define C2D_BALL_KERNEL_(table, name) table##_##name
#define C2D_BALL_KERNEL(table, name) C2D_BALL_KERNEL_(table, name)

#ifdef C2D_BACKEND_TABLE
C2D_INTERNAL size_t C2D_BALL_KERNEL(C2D_BACKEND_TABLE,
                                    collide_circles)(const c2d_circle_soa *circles, size_t first,
                                                     size_t end, c2d_circle_pair_contact *out,
                                                     size_t capacity, size_t total);
C2D_INTERNAL void C2D_BALL_KERNEL(C2D_BACKEND_TABLE,
                                  sweep_circles)(const c2d_circle_soa *circles, const float *move_x,
                                                 const float *move_y, size_t first, size_t end,
                                                 c2d_circle_hit *out);
C2D_INTERNAL size_t C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_cell_pairs)(const c2d_ball_cells *cells,
                                                                        c2d_ball_pair *pairs,
                                                                        size_t capacity);
C2D_INTERNAL size_t C2D_BALL_KERNEL(C2D_BACKEND_TABLE,
                                    ball_pair_contacts)(const c2d_circle_soa *circles,
                                                        const c2d_ball_pair *pairs, size_t count,
                                                        c2d_circle_pair_contact *out,
                                                        size_t capacity, size_t total);
C2D_INTERNAL void C2D_BALL_KERNEL(C2D_BACKEND_TABLE,
                                  ball_cell_sweeps)(const struct c2d_ball_sweep_cells *cells,
                                                    const c2d_circle_soa *circles,
                                                    const float *move_x, const float *move_y,
                                                    c2d_circle_hit *out);
#endif

/* Appends one ball pair: written only while below capacity, always counted. */
static inline void c2d_emit_ball_pair(c2d_circle_pair_contact *out, size_t capacity, size_t *total,
                                      uint32_t a, uint32_t b, const c2d_contact *contact) {
    if (*total < capacity) {
        out[*total].a = a;
        out[*total].b = b;
        out[*total].contact = *contact;
    }
    (*total)++;
}

/* The exact contact of balls a < b (c2d_collide_circles(a, b): b is a zero-length capsule). */
static inline bool c2d_ball_contact(const c2d_circle_soa *c, size_t a, size_t b,
                                    c2d_contact *contact) {
    return c2d_capsule_contact(c->x[a], c->y[a], c->radius[a], c->x[b], c->y[b], c->x[b], c->y[b],
                               c->radius[b], contact);
}

/* Ball i's sweep against ball j: c2d_sweep_circles(i, move i, j, move j). */
static inline bool c2d_ball_sweep(const c2d_circle_soa *c, const float *mx, const float *my,
                                  size_t i, size_t j, c2d_toi *toi) {
    const c2d_circle ci = {{c->x[i], c->y[i]}, c->radius[i]};
    const c2d_circle cj = {{c->x[j], c->y[j]}, c->radius[j]};
    const c2d_vec2 vi = {mx[i], my[i]}, vj = {mx[j], my[j]};
    return c2d_sweep_circles(ci, vi, cj, vj, toi);
}

/* Keeps ball j's hit if it is earlier than the slot's, or as early with a lower index, so
 * candidates may arrive in any order and still give the lowest j among the earliest. */
static inline void c2d_keep_earliest_ball(c2d_circle_hit *slot, uint32_t j, const c2d_toi *toi) {
    if (slot->other == C2D_NONE || toi->t < slot->toi.t ||
        (toi->t == slot->toi.t && j < slot->other)) {
        slot->other = j;
        slot->toi = *toi;
    }
}

/* "No hit": other C2D_NONE, toi all zeros. */
static inline c2d_circle_hit c2d_no_ball_hit(void) {
    const c2d_circle_hit none = {C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
    return none;
}

/* The ball grid's sweep cells: the grid balls (all tame) sorted by the cell of their swept
 * box's centre, as padded arrays (as c2d_ball_cells: C2D_BALL_PAD entries past the last, NaN
 * values, index 0), and the special balls every grid ball also sweeps against. */
typedef struct c2d_ball_sweep_cells {
    const float *x, *y, *r, *mx, *my;
    const uint32_t *id;
    const uint32_t *start; /* cell c holds sorted entries [start[c], start[c + 1]) */
    uint32_t nx, ny;
    const uint32_t *special; /* increasing */
    size_t special_count;
} c2d_ball_sweep_cells;

/* Room for one ball's candidates between two exact passes (a crowd takes several). */
enum { C2D_BALL_CANDIDATES = 64 };

/* True when ball j cannot replace `best`: every hit has t >= +0 and ties go to the lower
 * index, so once the best hit is at t = 0 no higher index can take its place. */
static inline bool c2d_ball_cannot_beat(const c2d_circle_hit *best, uint32_t j) {
    return best->other != C2D_NONE && best->toi.t == 0.0f && j > best->other;
}

/* Increasing order of a ball's candidates: insertion sort for the usual handful, heapsort
 * (no recursion, no memory) for a crowd's. */
static inline void c2d_sort_candidates(uint32_t *v, size_t n) {
    if (n <= 16) {
        for (size_t u = 1; u < n; u++) {
            const uint32_t x = v[u];
            size_t k = u;
            for (; k > 0 && v[k - 1] > x; k--)
                v[k] = v[k - 1];
            v[k] = x;
        }
        return;
    }
    for (size_t end = n, root = n / 2;;) {
        if (root > 0)
            root--;
        else if (--end > 0) {
            const uint32_t t = v[0];
            v[0] = v[end];
            v[end] = t;
        } else
            return;
        for (size_t r = root;;) {
            size_t child = 2 * r + 1;
            if (child >= end) break;
            if (child + 1 < end && v[child + 1] > v[child]) child++;
            if (v[r] >= v[child]) break;
            const uint32_t t = v[r];
            v[r] = v[child];
            v[child] = t;
            r = child;
        }
    }
}

/* The backend's step of a grid ball's sweep: appends to cand the balls among entries
 * [q, min(q + lanes, hi)) that may hit entry p (p itself left out) and returns the new count.
 * It may leave out a ball only where c2d_sweep_circles surely gives no hit. */
typedef size_t (*c2d_sweep_near_fn)(const c2d_ball_sweep_cells *g, size_t p, size_t q, size_t hi,
                                    uint32_t *cand, size_t n);

/* Sweeps ball i against the candidates (sorted here) in increasing index, into *best,
 * stopping where c2d_ball_cannot_beat says nothing later can win. */
static inline void c2d_ball_sweep_sorted(const c2d_circle_soa *c, const float *mx, const float *my,
                                         uint32_t i, uint32_t *cand, size_t n,
                                         c2d_circle_hit *best) {
    c2d_sort_candidates(cand, n);
    for (size_t k = 0; k < n && !c2d_ball_cannot_beat(best, cand[k]); k++) {
        c2d_toi toi;
        if (c2d_ball_sweep(c, mx, my, i, cand[k], &toi))
            c2d_keep_earliest_ball(best, cand[k], &toi);
    }
}

/* The walk of ball_cell_sweeps, shared by every backend: each grid ball, in cell order,
 * against the boxes of the 3x3 cells around its own (three spans of the sorted arrays), then
 * the special balls; the earliest hit goes to out[id]. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void
c2d_ball_sweep_walk(const c2d_ball_sweep_cells *g, const c2d_circle_soa *c, const float *mx,
                    const float *my, c2d_circle_hit *out, size_t lanes, c2d_sweep_near_fn near) {
    const uint32_t *start = g->start;
    for (uint32_t cy = 0; cy < g->ny; cy++)
        for (uint32_t cx = 0; cx < g->nx; cx++) {
            const size_t cell = (size_t)cy * g->nx + cx;
            if (start[cell] == start[cell + 1]) continue;
            const uint32_t x0 = cx > 0 ? cx - 1 : 0, x1 = cx + 1 < g->nx ? cx + 1 : cx;
            const uint32_t y0 = cy > 0 ? cy - 1 : 0, y1 = cy + 1 < g->ny ? cy + 1 : cy;
            for (size_t p = start[cell]; p < start[cell + 1]; p++) {
                const uint32_t i = g->id[p];
                c2d_circle_hit best = c2d_no_ball_hit();
                uint32_t cand[C2D_BALL_CANDIDATES];
                size_t n = 0;
                for (uint32_t y = y0; y <= y1; y++) {
                    const size_t hi = start[(size_t)y * g->nx + x1 + 1];
                    for (size_t q = start[(size_t)y * g->nx + x0]; q < hi; q += lanes) {
                        if (n > C2D_BALL_CANDIDATES - lanes) {
                            c2d_ball_sweep_sorted(c, mx, my, i, cand, n, &best);
                            n = 0;
                        }
                        n = near(g, p, q, hi, cand, n);
                    }
                }
                c2d_ball_sweep_sorted(c, mx, my, i, cand, n, &best);
                for (size_t k = 0; k < g->special_count; k++) {
                    const uint32_t j = g->special[k];
                    if (c2d_ball_cannot_beat(&best, j)) break;
                    c2d_toi toi;
                    if (c2d_ball_sweep(c, mx, my, i, j, &toi))
                        c2d_keep_earliest_ball(&best, j, &toi);
                }
                out[i] = best;
            }
        }
}

#endif
