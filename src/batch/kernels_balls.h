/* The ball-against-ball kernels of one backend (src/batch/kernels_balls.c, compiled once per
 * backend like kernels.c) and the helpers both the kernels and the ball grid use. */
#ifndef C2D_BATCH_KERNELS_BALLS_H
#define C2D_BATCH_KERNELS_BALLS_H

#include <math.h>
#include <string.h>

#include "batch/cull.h"
#include "batch/kernels.h"
#include "core/ball_kind.h"
#include "core/filter_words.h"

/* A function of the filtered paths, kept out of line so that the unfiltered path around its
 * call compiles (and runs) as it did before filters existed. */
#if defined(__GNUC__) || defined(__clang__)
#define C2D_COLD static __attribute__((noinline))
#else
#define C2D_COLD static
#endif

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
    double x0, inv;        /* the cells' left edge and 1 / their side (c2d_ball_bins) */
    uint32_t *sizes;       /* zeroed; sizes[a] += the pairs (a, b) found, where the kernel
                            * counts them (ball_pairs_sized) */
} c2d_ball_cells;

/* Lane mask of the first n lanes (n <= 32). */
static inline uint32_t c2d_valid_lanes(size_t n) {
    return n >= 32 ? UINT32_MAX : (uint32_t)((1u << n) - 1u);
}

/* Appends the pair of balls i and j as (min, max): written while below capacity, counted. */
static inline size_t c2d_add_ball_pair(c2d_ball_pair *pairs, size_t capacity, size_t count,
                                       uint32_t i, uint32_t j) {
    if (count < capacity) {
        pairs[count].a = i < j ? i : j;
        pairs[count].b = i < j ? j : i;
    }
    return count + 1;
}

/* The grid balls' box and largest radius, box = (lo_x, hi_x, lo_y, hi_y, r_max), from
 * (+inf, -inf, +inf, -inf, 0): min and max are exact, so any order of the balls gives the
 * same values (up to the sign of a zero, which no cell depends on). */
static inline void c2d_ball_box_add(float box[5], float x, float y, float r) {
    box[0] = x < box[0] ? x : box[0];
    box[1] = x > box[1] ? x : box[1];
    box[2] = y < box[2] ? y : box[2];
    box[3] = y > box[3] ? y : box[3];
    box[4] = r > box[4] ? r : box[4];
}

/* The grid of a frame's contacts: cells of side 1 / inv from (x0, y0), nx a row, ny rows;
 * a grid ball with radius >= big is made special (+inf: none is). */
typedef struct c2d_ball_bins {
    double x0, y0, inv;
    uint32_t nx, ny;
    float big;
} c2d_ball_bins;

/* floor((v - origin) / size) clamped to [0, n-1]: monotone in v (NaN gives 0). The clamps are
 * x86 max and min (the second operand unless the compare holds), so lanes give these bytes. */
static inline uint32_t c2d_ball_grid_coord(double v, double origin, double inv, uint32_t n) {
    const double u = (v - origin) * inv, top = (double)(n - 1);
    const double low = u > 0.0 ? u : 0.0;
    return (uint32_t)(low < top ? low : top);
}

/* A grid ball's cell number, or C2D_BALL_SPECIAL for a large one. */
static inline uint32_t c2d_ball_bin_one(const c2d_ball_bins *b, float x, float y, float r) {
    if (r >= b->big) return C2D_BALL_SPECIAL;
    return c2d_ball_grid_coord(y, b->y0, b->inv, b->ny) * b->nx +
           c2d_ball_grid_coord(x, b->x0, b->inv, b->nx);
}

/* A grid ball's cell number for sweeps, from its sweep classification `size` (the float bits
 * of its swept size, batch/../core/ball_bin_formula.h): C2D_BALL_SPECIAL when size >= big,
 * else the cell of the centre of its move, (x + mx/2, y + my/2) in double. */
static inline uint32_t c2d_ball_sweep_bin_one(const c2d_ball_bins *b, float x, float y, float mx,
                                              float my, uint32_t size) {
    float s;
    memcpy(&s, &size, sizeof s);
    if (s >= b->big) return C2D_BALL_SPECIAL;
    return c2d_ball_grid_coord((double)y + 0.5 * (double)my, b->y0, b->inv, b->ny) * b->nx +
           c2d_ball_grid_coord((double)x + 0.5 * (double)mx, b->x0, b->inv, b->nx);
}

/* The walk of the ball grid, shared by every backend and by contacts and sweeps: in cell
 * order, each ball p against the balls after it in its own cell and the cell east of it (one
 * contiguous span of the sorted arrays), then against the three cells of the next row (a
 * second span), so each pair of balls in neighbouring cells is seen once. `span` handles ball
 * p against entries [lo, hi); the backend's own (a vector loop, or a plain one) inlines here. */
typedef void (*c2d_ball_span_fn)(void *ctx, size_t p, size_t lo, size_t hi);

/* Cell (cx, cy)'s entries [lo, hi), the end of its own and its east neighbour's, and the span
 * [up_lo, up_hi) of the three cells of the next row (empty in the top row). */
typedef struct c2d_cell_spans {
    size_t lo, hi, east, up_lo, up_hi;
} c2d_cell_spans;

static inline c2d_cell_spans c2d_ball_cell_spans(const uint32_t *start, uint32_t nx, uint32_t ny,
                                                 uint32_t cx, uint32_t cy) {
    const size_t cell = (size_t)cy * nx + cx;
    c2d_cell_spans s = {start[cell], start[cell + 1], 0, 0, 0};
    if (s.lo == s.hi) return s;
    s.east = cx + 1 < nx ? start[cell + 2] : s.hi;
    if (cy + 1 < ny) {
        const size_t row = cell + nx;
        s.up_lo = start[cx > 0 ? row - 1 : row];
        s.up_hi = start[cx + 1 < nx ? row + 2 : row + 1];
    }
    return s;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void
c2d_ball_half_walk(const uint32_t *start, uint32_t nx, uint32_t ny, void *ctx,
                   c2d_ball_span_fn span) {
    for (uint32_t cy = 0; cy < ny; cy++)
        for (uint32_t cx = 0; cx < nx; cx++) {
            const c2d_cell_spans s = c2d_ball_cell_spans(start, nx, ny, cx, cy);
            for (size_t p = s.lo; p < s.hi; p++) {
                if (p + 1 < s.east) span(ctx, p, p + 1, s.east);
                if (s.up_lo < s.up_hi) span(ctx, p, s.up_lo, s.up_hi);
            }
        }
}

/* The state of ball_cell_pairs' walk. */
typedef struct c2d_pair_walk {
    const c2d_ball_cells *g;
    c2d_ball_pair *pairs;
    size_t capacity, count;
} c2d_pair_walk;

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
/* The contacts of listed pairs run 8 lanes at most: the AVX-512 table takes the AVX2 ones
 * (kernels.c says why), and its build has no 16-lane copy. */
#if C2D_LANES <= 8
#define C2D_BALL_NARROW_TABLE C2D_BACKEND_TABLE
#else
#define C2D_BALL_NARROW_TABLE c2d_kernels_avx2
#endif
C2D_INTERNAL size_t C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_cell_pairs)(const c2d_ball_cells *cells,
                                                                        c2d_ball_pair *pairs,
                                                                        size_t capacity);
C2D_INTERNAL size_t C2D_BALL_KERNEL(C2D_BALL_NARROW_TABLE,
                                    ball_pair_contacts)(const c2d_circle_soa *circles,
                                                        const c2d_ball_pair *pairs, size_t count,
                                                        c2d_circle_pair_contact *out,
                                                        size_t capacity, size_t total);
C2D_INTERNAL void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_classify)(const c2d_circle_soa *circles,
                                                                    uint32_t *cell_of,
                                                                    float box[5]);
C2D_INTERNAL void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_bin)(const c2d_circle_soa *circles,
                                                               const c2d_ball_bins *bins,
                                                               uint32_t *cell_of, uint32_t *count);
C2D_INTERNAL void C2D_BALL_KERNEL(C2D_BACKEND_TABLE,
                                  ball_sweep_classify)(const c2d_circle_soa *circles,
                                                       const float *move_x, const float *move_y,
                                                       uint32_t *cell_of, float box[5]);
C2D_INTERNAL void C2D_BALL_KERNEL(C2D_BACKEND_TABLE,
                                  ball_sweep_bin)(const c2d_circle_soa *circles,
                                                  const float *move_x, const float *move_y,
                                                  const c2d_ball_bins *bins, uint32_t *cell_of,
                                                  uint32_t *count);
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

/* Does a hit at t from ball j replace the slot's: the slot holds none, or a later one, or one
 * as early from a higher index? So candidates may arrive in any order and still give the
 * lowest j among the earliest. */
static inline bool c2d_ball_hit_beats(const c2d_circle_hit *slot, uint32_t j, float t) {
    return slot->other == C2D_NONE || t < slot->toi.t || (t == slot->toi.t && j < slot->other);
}

/* Keeps ball j's hit if it beats the slot's (c2d_ball_hit_beats). */
static inline void c2d_keep_earliest_ball(c2d_circle_hit *slot, uint32_t j, const c2d_toi *toi) {
    if (c2d_ball_hit_beats(slot, j, toi->t)) {
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
    uint32_t *sure; /* per sorted entry, all UINT32_MAX on entry: the kernel's bookkeeping */
    /* per ball (by index): whether its out[] slot is written yet (c2d_ball_slot_written); a
     * grid ball's is not on entry, and the walk writes it only for a hit */
    uint32_t *state;
    double x0, inv; /* the cells' left edge and 1 / their side (c2d_ball_bins) */
} c2d_ball_sweep_cells;

/* A grid ball's state while its slot is unwritten is its cell (below C2D_BALL_SPECIAL); the
 * first write of the slot sets C2D_BALL_WRITTEN. Special and dead balls' slots are written
 * before the walk (their states are C2D_BALL_SPECIAL and C2D_BALL_DEAD). So a resting pile,
 * where every ball has a hit, writes each slot once rather than "no hit" first: 6 MB fewer at
 * 262,144 balls. The slots still unwritten after the walk get "no hit". */
#define C2D_BALL_WRITTEN C2D_BALL_DEAD

static inline bool c2d_ball_slot_written(const uint32_t *state, uint32_t i) {
    return state[i] >= C2D_BALL_SPECIAL;
}

/* Does a hit at t from ball j go into ball i's slot (out[i]): the slot is unwritten, or the
 * hit beats what it holds? The caller writes the hit and marks the slot (c2d_ball_slot_mark). */
static inline bool c2d_ball_slot_takes(const c2d_circle_hit *slot, const uint32_t *state,
                                       uint32_t i, uint32_t j, float t) {
    return !c2d_ball_slot_written(state, i) || c2d_ball_hit_beats(slot, j, t);
}

static inline void c2d_ball_slot_mark(uint32_t *state, uint32_t i) {
    state[i] = C2D_BALL_WRITTEN;
}

/* True when ball j cannot replace `best`: every hit has t >= +0 and ties go to the lower
 * index, so once the best hit is at t = 0 no higher index can take its place. */
static inline bool c2d_ball_cannot_beat(const c2d_circle_hit *best, uint32_t j) {
    return best->other != C2D_NONE && best->toi.t == 0.0f && j > best->other;
}

/* Ball i's sweep against ball j, kept in out[i] if the slot is unwritten (`state`:
 * c2d_ball_slot_written) or holds a later hit (ties to the lower index), unless nothing from j
 * can beat what out[i] holds. */
static inline void c2d_ball_sweep_into(const c2d_circle_soa *c, const float *mx, const float *my,
                                       uint32_t i, uint32_t j, c2d_circle_hit *out,
                                       uint32_t *state) {
    if (c2d_ball_slot_written(state, i) && c2d_ball_cannot_beat(&out[i], j)) return;
    c2d_toi toi;
    if (c2d_ball_sweep(c, mx, my, i, j, &toi) && c2d_ball_slot_takes(&out[i], state, i, j, toi.t)) {
        out[i].other = j;
        out[i].toi = toi;
        c2d_ball_slot_mark(state, i);
    }
}

/* The state of ball_cell_sweeps' walk: the cells and the output; the backend adds its own. */
typedef struct c2d_sweep_walk {
    const c2d_ball_sweep_cells *g;
    const c2d_circle_soa *c;
    const float *mx, *my;
    c2d_circle_hit *out;
} c2d_sweep_walk;

/* Every grid ball against every special ball (the special balls' own rows run the all-pairs
 * kernel); with `filtered` (the set has a filter), only the pairs the filter allows. */
static inline void c2d_ball_sweep_specials(const c2d_sweep_walk *w, bool filtered) {
    const c2d_ball_sweep_cells *g = w->g;
    const size_t grid_balls = g->start[(size_t)g->nx * g->ny];
    for (size_t s = 0; s < g->special_count; s++)
        for (size_t p = 0; p < grid_balls; p++)
            if (!filtered || c2d_circles_meet(w->c, g->id[p], g->special[s]))
                c2d_ball_sweep_into(w->c, w->mx, w->my, g->id[p], g->special[s], w->out, g->state);
}

#endif
