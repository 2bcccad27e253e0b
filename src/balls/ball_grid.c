/* The ball grid: a uniform grid over one frame's balls, built by a counting sort in scratch
 * memory, then queried ball by ball in index order so that the output needs no global sort.
 *
 * Every ball is one of three kinds:
 * - dead: NaN where it matters or a negative radius; it can hit nothing and is left out;
 * - special: a value beyond C2D_TAME_LIMIT (infinities included), or one of the few largest
 *   balls (or swept boxes) when they are much larger than the rest; a special ball runs the
 *   all-pairs kernel for its own row, and every grid ball tests it exactly;
 * - a grid ball: binned by its centre (collide) or its swept box's centre (sweep) into cells
 *   at least as wide as any two grid balls can reach, so partners are in the 3x3 cells around.
 *
 * The grid only chooses which pairs get the exact test; the exact test is the one the
 * all-pairs kernels run, so the answers are theirs by construction. */
#include <math.h>
#include <string.h>

#include "balls/ball_grid.h"
#include "batch/cull.h"
#include "batch/kernels_balls.h"
#include "core/lane_scalar.h"
#include "core/segment_formula.h"

enum {
    KIND_GRID = 0,
    KIND_SPECIAL = UINT32_MAX - 1, /* cell_of[] values for balls outside the grid */
    KIND_DEAD = UINT32_MAX,
    BIG_BUDGET = 8, /* at most this many balls are made special for being large */
    SMALL_SORT = 32
};

/* Relative and absolute growth of the cell size over the largest reach: the cell coordinate
 * is computed in double (error far below 2^-11 of a cell), and the float overlap test can
 * accept centres (r_a + r_b)(1 + 4 eps) + 2^-74 apart (cull.h's absolute slack covers the
 * underflow of squares). */
#define CELL_RELATIVE_SLACK (1.0 + 1.0 / 1024.0)

/* The scratch block, carved into arrays of n (or n_cells + 1) entries. */
typedef struct grid_memory {
    uint32_t *cell_of;        /* per ball: its cell, KIND_SPECIAL or KIND_DEAD */
    uint32_t *start;          /* per cell: first sorted entry; start[cells] = grid balls */
    uint32_t *id;             /* sorted entry -> ball index */
    uint32_t *special;        /* special balls, increasing */
    uint32_t *hits;           /* collide: one ball's candidate partners */
    float *f0, *f1, *f2, *f3; /* sorted entries' data: x, y, r / lo_x, hi_x, lo_y, hi_y */
} grid_memory;

/* Cells of a grid over n balls: about two a ball, and cell numbers stay below the kinds. */
static size_t max_cells(size_t n) {
    const size_t limit = (size_t)UINT32_MAX - 4;
    return n < limit / 2 - 1 ? 2 * n + 2 : limit;
}

size_t c2d_ball_grid_scratch_bytes(size_t n) {
    return (9 * n + max_cells(n) + 1) * sizeof(uint32_t);
}

static grid_memory carve(void *scratch, size_t n) {
    uint32_t *p = scratch;
    grid_memory m;
    m.cell_of = p;
    m.id = p + n;
    m.special = p + 2 * n;
    m.hits = p + 3 * n;
    m.f0 = (float *)(p + 4 * n);
    m.f1 = (float *)(p + 5 * n);
    m.f2 = (float *)(p + 6 * n);
    m.f3 = (float *)(p + 7 * n);
    m.start = p + 8 * n; /* max_cells(n) + 1 entries, then one spare */
    return m;
}

/* ---- grid geometry ---------------------------------------------------------------------- */

typedef struct grid {
    double x0, y0, inv; /* origin and 1 / cell size */
    uint32_t nx, ny;
} grid;

typedef struct bounds {
    double lo_x, hi_x, lo_y, hi_y;
} bounds;

static void bounds_add(bounds *b, double x, double y) {
    b->lo_x = x < b->lo_x ? x : b->lo_x;
    b->hi_x = x > b->hi_x ? x : b->hi_x;
    b->lo_y = y < b->lo_y ? y : b->lo_y;
    b->hi_y = y > b->hi_y ? y : b->hi_y;
}

/* Cells of side at least `reach` over the bounds, at most max_cells(n) of them: the cell
 * doubles until the count fits (a spread-out set gets fewer, larger cells). */
static grid grid_make(const bounds *b, double reach, size_t n) {
    double size = reach * CELL_RELATIVE_SLACK + C2D_ABSOLUTE_SLACK;
    const double ex = b->hi_x - b->lo_x, ey = b->hi_y - b->lo_y;
    while ((ex / size + 1.0) * (ey / size + 1.0) > (double)max_cells(n))
        size *= 2.0;
    grid g = {b->lo_x, b->lo_y, 1.0 / size, (uint32_t)(ex / size) + 1, (uint32_t)(ey / size) + 1};
    return g;
}

/* floor((v - origin) / size) clamped to [0, n-1]: monotone in v. */
static inline uint32_t grid_coord(double v, double origin, double inv, uint32_t n) {
    const double u = (v - origin) * inv;
    if (!(u > 0.0)) return 0;
    if (u >= (double)(n - 1)) return n - 1;
    return (uint32_t)u;
}

static inline uint32_t grid_cell(const grid *g, double x, double y) {
    return grid_coord(y, g->y0, g->inv, g->ny) * g->nx + grid_coord(x, g->x0, g->inv, g->nx);
}

/* The sorted-entry ranges of the (up to) three rows of the 3x3 cells around `cell`. */
typedef struct row_ranges {
    uint32_t lo[3], hi[3];
    int rows;
} row_ranges;

static inline row_ranges neighbours(const grid *g, const uint32_t *start, uint32_t cell) {
    const uint32_t cx = cell % g->nx, cy = cell / g->nx;
    const uint32_t x0 = cx > 0 ? cx - 1 : 0, x1 = cx + 1 < g->nx ? cx + 1 : cx;
    const uint32_t y0 = cy > 0 ? cy - 1 : 0, y1 = cy + 1 < g->ny ? cy + 1 : cy;
    row_ranges r;
    r.rows = 0;
    for (uint32_t y = y0; y <= y1; y++) {
        r.lo[r.rows] = start[y * g->nx + x0];
        r.hi[r.rows] = start[y * g->nx + x1 + 1];
        r.rows++;
    }
    return r;
}

/* ---- binning ---------------------------------------------------------------------------- */

/* The float exponent field of a size >= 0: its power-of-two class. */
static inline unsigned size_class(float v) {
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return (bits >> 23) & 0xffu;
}

/* The size class above which balls are made special: the few (<= BIG_BUDGET) largest, and
 * only when that shrinks the cells at least 4x (two classes). 255: none. */
static unsigned big_class(const size_t hist[256]) {
    int top = 255;
    while (top > 0 && hist[top] == 0)
        top--;
    size_t kept = 0;
    for (int c = top; c >= 0; c--) {
        if (kept + hist[c] > BIG_BUDGET) return c + 2 <= top ? (unsigned)c : 255u;
        kept += hist[c];
    }
    return 0; /* so few balls that all of them are special */
}

/* Counting sort of the grid balls by cell: start[] and id[] (each cell in index order). */
static void sort_by_cell(grid_memory *m, size_t n, size_t cells) {
    memset(m->start, 0, (cells + 2) * sizeof(uint32_t));
    for (size_t i = 0; i < n; i++)
        if (m->cell_of[i] < KIND_SPECIAL) m->start[m->cell_of[i] + 2]++;
    for (size_t c = 2; c < cells + 2; c++)
        m->start[c] += m->start[c - 1];
    /* start[c + 1] is now where cell c begins; filling moves it to where c ends */
    for (size_t i = 0; i < n; i++)
        if (m->cell_of[i] < KIND_SPECIAL) m->id[m->start[m->cell_of[i] + 1]++] = (uint32_t)i;
}

static size_t list_special(grid_memory *m, size_t n) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++)
        if (m->cell_of[i] == KIND_SPECIAL) m->special[count++] = (uint32_t)i;
    return count;
}

static inline bool tame(float v) {
    return fabsf(v) <= C2D_TAME_LIMIT;
}

/* ---- sorting one ball's partners -------------------------------------------------------- */

static void sift_down(uint32_t *v, size_t root, size_t n) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && v[child + 1] > v[child]) child++;
        if (v[root] >= v[child]) return;
        const uint32_t t = v[root];
        v[root] = v[child];
        v[child] = t;
        root = child;
    }
}

/* Increasing order: insertion sort for the usual handful, heapsort (no recursion, no memory,
 * n log n) when a crowd of balls shares a few cells. */
static void sort_indices(uint32_t *v, size_t n) {
    if (n <= SMALL_SORT) {
        for (size_t i = 1; i < n; i++) {
            const uint32_t x = v[i];
            size_t j = i;
            for (; j > 0 && v[j - 1] > x; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    for (size_t i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (size_t end = n; end-- > 1;) {
        const uint32_t t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift_down(v, 0, end);
    }
}

/* ---- collide ---------------------------------------------------------------------------- */

/* Kinds and bins of every ball for contacts: grid balls by centre, cells of side 2 r_max. */
static grid bin_for_contacts(const c2d_circle_soa *c, grid_memory *m, size_t *special_count) {
    const size_t n = c->count;
    size_t hist[256] = {0};
    for (size_t i = 0; i < n; i++) {
        const float x = c->x[i], y = c->y[i], r = c->radius[i];
        if (x != x || y != y || !(r >= 0.0f))
            m->cell_of[i] = KIND_DEAD;
        else if (!(tame(x) && tame(y) && tame(r)))
            m->cell_of[i] = KIND_SPECIAL;
        else {
            m->cell_of[i] = KIND_GRID;
            hist[size_class(r)]++;
        }
    }
    const unsigned big = big_class(hist);
    bounds b = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    float reach = 0.0f;
    for (size_t i = 0; i < n; i++) {
        if (m->cell_of[i] != KIND_GRID) continue;
        const float r = c->radius[i];
        if (size_class(r) > big) {
            m->cell_of[i] = KIND_SPECIAL;
            continue;
        }
        reach = r > reach ? r : reach;
        bounds_add(&b, c->x[i], c->y[i]);
    }
    if (b.lo_x > b.hi_x) b.lo_x = b.hi_x = b.lo_y = b.hi_y = 0.0; /* no grid ball */
    const grid g = grid_make(&b, 2.0 * (double)reach, n);
    for (size_t i = 0; i < n; i++)
        if (m->cell_of[i] == KIND_GRID) m->cell_of[i] = grid_cell(&g, c->x[i], c->y[i]);
    sort_by_cell(m, n, (size_t)g.nx * g.ny);
    for (size_t p = 0; p < m->start[(size_t)g.nx * g.ny]; p++) {
        const uint32_t i = m->id[p];
        m->f0[p] = c->x[i];
        m->f1[p] = c->y[i];
        m->f2[p] = c->radius[i];
    }
    *special_count = list_special(m, n);
    return g;
}

/* The overlap test of the kernels (b as a zero-length capsule), inline. */
static inline bool may_touch(float xa, float ya, float ra, float xb, float yb, float rb) {
    const float qx = xa - xb, qy = ya - yb;
    return radii_overlap(qx * qx + qy * qy, ra, rb);
}

size_t c2d_ball_grid_collide(const c2d_kernels *kernels, const c2d_circle_soa *c, void *scratch,
                             c2d_circle_pair_contact *out, size_t capacity) {
    const size_t n = c->count;
    if (n == 0) return 0;
    grid_memory m = carve(scratch, n);
    size_t special_count;
    const grid g = bin_for_contacts(c, &m, &special_count);
    size_t total = 0, next_special = 0;
    for (size_t a = 0; a < n; a++) {
        const uint32_t cell = m.cell_of[a];
        while (next_special < special_count && m.special[next_special] <= a)
            next_special++;
        if (cell == KIND_DEAD) continue;
        if (cell == KIND_SPECIAL) { /* its row against everything, as the kernel runs it */
            total = kernels->collide_circles(c, a, a + 1, out, capacity, total);
            continue;
        }
        const float xa = c->x[a], ya = c->y[a], ra = c->radius[a];
        size_t k = 0;
        const row_ranges rr = neighbours(&g, m.start, cell);
        for (int row = 0; row < rr.rows; row++)
            for (uint32_t p = rr.lo[row]; p < rr.hi[row]; p++)
                if (m.id[p] > a && may_touch(xa, ya, ra, m.f0[p], m.f1[p], m.f2[p]))
                    m.hits[k++] = m.id[p];
        for (size_t s = next_special; s < special_count; s++) {
            const uint32_t b = m.special[s];
            if (may_touch(xa, ya, ra, c->x[b], c->y[b], c->radius[b])) m.hits[k++] = b;
        }
        sort_indices(m.hits, k);
        for (size_t h = 0; h < k; h++) {
            c2d_contact contact;
            if (c2d_ball_contact(c, a, m.hits[h], &contact))
                c2d_emit_ball_pair(out, capacity, &total, (uint32_t)a, m.hits[h], &contact);
        }
    }
    return total;
}

/* ---- sweep ------------------------------------------------------------------------------ */

/* A tame ball's swept box: everything within r of its path, grown by cull.h's sweep slack
 * (2^-8 of the sizes, 2^-16 of the position), in double, then rounded to float (an error far
 * inside the slack). Two balls whose exact sweep reports a hit have overlapping boxes. */
typedef struct swept {
    float lo_x, hi_x, lo_y, hi_y;
} swept;

static inline swept swept_of(float x, float y, float r, float mx, float my) {
    const double ex = (double)x + mx, ey = (double)y + my;
    const double grow =
        (double)r + C2D_SWEEP_SIZE_SLACK * (fabs((double)mx) + fabs((double)my) + r) +
        C2D_SWEEP_POSITION_SLACK * (fabs((double)x) + fabs((double)y)) + C2D_ABSOLUTE_SLACK;
    swept s = {(float)((x < ex ? x : ex) - grow), (float)((x > ex ? x : ex) + grow),
               (float)((y < ey ? y : ey) - grow), (float)((y > ey ? y : ey) + grow)};
    return s;
}

static grid bin_for_sweeps(const c2d_circle_soa *c, const float *mx, const float *my,
                           grid_memory *m, size_t *special_count) {
    const size_t n = c->count;
    size_t hist[256] = {0};
    for (size_t i = 0; i < n; i++) {
        const float x = c->x[i], y = c->y[i], r = c->radius[i];
        if (x != x || y != y || mx[i] != mx[i] || my[i] != my[i] || !(r >= 0.0f))
            m->cell_of[i] = KIND_DEAD;
        else if (!(tame(x) && tame(y) && tame(r) && tame(mx[i]) && tame(my[i])))
            m->cell_of[i] = KIND_SPECIAL;
        else {
            m->cell_of[i] = KIND_GRID;
            const swept s = swept_of(x, y, r, mx[i], my[i]);
            const float w = s.hi_x - s.lo_x, h = s.hi_y - s.lo_y;
            hist[size_class(w > h ? w : h)]++;
        }
    }
    const unsigned big = big_class(hist);
    bounds b = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    float reach = 0.0f;
    for (size_t i = 0; i < n; i++) {
        if (m->cell_of[i] != KIND_GRID) continue;
        const swept s = swept_of(c->x[i], c->y[i], c->radius[i], mx[i], my[i]);
        const float w = s.hi_x - s.lo_x, h = s.hi_y - s.lo_y, size = w > h ? w : h;
        if (size_class(size) > big) {
            m->cell_of[i] = KIND_SPECIAL;
            continue;
        }
        reach = size > reach ? size : reach;
        bounds_add(&b, 0.5 * ((double)s.lo_x + s.hi_x), 0.5 * ((double)s.lo_y + s.hi_y));
    }
    if (b.lo_x > b.hi_x) b.lo_x = b.hi_x = b.lo_y = b.hi_y = 0.0;
    /* boxes that overlap have centres at most (w_a + w_b) / 2 <= reach apart */
    const grid g = grid_make(&b, (double)reach, n);
    for (size_t i = 0; i < n; i++) {
        if (m->cell_of[i] != KIND_GRID) continue;
        const swept s = swept_of(c->x[i], c->y[i], c->radius[i], mx[i], my[i]);
        m->cell_of[i] =
            grid_cell(&g, 0.5 * ((double)s.lo_x + s.hi_x), 0.5 * ((double)s.lo_y + s.hi_y));
    }
    sort_by_cell(m, n, (size_t)g.nx * g.ny);
    for (size_t p = 0; p < m->start[(size_t)g.nx * g.ny]; p++) {
        const uint32_t i = m->id[p];
        const swept s = swept_of(c->x[i], c->y[i], c->radius[i], mx[i], my[i]);
        m->f0[p] = s.lo_x;
        m->f1[p] = s.hi_x;
        m->f2[p] = s.lo_y;
        m->f3[p] = s.hi_y;
    }
    *special_count = list_special(m, n);
    return g;
}

void c2d_ball_grid_sweep(const c2d_kernels *kernels, const c2d_circle_soa *c, const float *mx,
                         const float *my, void *scratch, c2d_circle_hit *out) {
    const size_t n = c->count;
    if (n == 0) return;
    grid_memory m = carve(scratch, n);
    size_t special_count;
    const grid g = bin_for_sweeps(c, mx, my, &m, &special_count);
    for (size_t i = 0; i < n; i++) {
        const uint32_t cell = m.cell_of[i];
        if (cell == KIND_SPECIAL) {
            kernels->sweep_circles(c, mx, my, i, i + 1, out);
            continue;
        }
        out[i] = c2d_no_ball_hit();
        if (cell == KIND_DEAD) continue;
        const swept s = swept_of(c->x[i], c->y[i], c->radius[i], mx[i], my[i]);
        const row_ranges rr = neighbours(&g, m.start, cell);
        for (int row = 0; row < rr.rows; row++)
            for (uint32_t p = rr.lo[row]; p < rr.hi[row]; p++) {
                if (!(s.lo_x <= m.f1[p] && m.f0[p] <= s.hi_x && s.lo_y <= m.f3[p] &&
                      m.f2[p] <= s.hi_y))
                    continue;
                const uint32_t j = m.id[p];
                c2d_toi toi;
                if (j != i && c2d_ball_sweep(c, mx, my, i, j, &toi))
                    c2d_keep_earliest_ball(&out[i], j, &toi);
            }
        for (size_t k = 0; k < special_count; k++) {
            const uint32_t j = m.special[k];
            c2d_toi toi;
            if (c2d_ball_sweep(c, mx, my, i, j, &toi)) c2d_keep_earliest_ball(&out[i], j, &toi);
        }
    }
}
