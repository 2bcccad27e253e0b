/* The ball grid: a uniform grid over one frame's balls, built by a counting sort in scratch
 * memory and walked in cell order (neighbours are close in memory). Contacts: the pairs found
 * are grouped by their first ball with a second counting sort, each group sorted, and written
 * in the all-pairs order. Sweeps: each ball's earliest hit is independent of the others.
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

#include "alloc.h"
#include "balls/ball_grid.h"
#include "batch/cull.h"
#include "batch/kernels_balls.h"
#include "core/filter_words.h"
#include "core/lane_scalar.h"
#include "core/segment_formula.h"

/* cell_of[] values for balls outside the grid (cell numbers stay below them) */
#define KIND_GRID C2D_BALL_GRID
#define KIND_SPECIAL C2D_BALL_SPECIAL
#define KIND_DEAD C2D_BALL_DEAD

enum {
    CONTACT_CELLS = 1, /* cells a ball, at most (contacts walk half of 3x3 cells) */
    SWEEP_CELLS = 2,   /* sweeps walk all 3x3 cells: smaller cells pay more */
    BIG_BUDGET = 8,    /* at most this many balls are made special for being large */
    SMALL_SORT = 32
};

/* Relative and absolute growth of the cell size over the largest reach: the cell coordinate
 * is computed in double (error far below 2^-11 of a cell), and the float overlap test can
 * accept centres (r_a + r_b)(1 + 4 eps) + 2^-74 apart (cull.h's absolute slack covers the
 * underflow of squares). */
#define CELL_RELATIVE_SLACK (1.0 + 1.0 / 1024.0)

/* The scratch block, carved into arrays. The part that does not depend on the frame's pairs
 * comes first; the rest holds the pairs (as found, then in a-order). */
typedef struct grid_memory {
    uint32_t *cell_of;     /* per ball: its cell, KIND_SPECIAL or KIND_DEAD */
    uint32_t *start;       /* per cell: first sorted entry; start[cells] = grid balls */
    uint32_t *special;     /* special balls, increasing */
    uint32_t *first;       /* collide: per ball a, where its pairs begin in `sorted` */
    void *entries;         /* the padded arrays of c2d_ball_cells or c2d_ball_sweep_cells */
    c2d_ball_pair *pairs;  /* collide: pairs as found */
    c2d_ball_pair *sorted; /* collide: the same pairs, by a then b */
    size_t pair_capacity;
} grid_memory;

/* Bytes a ball in the entries area: the six padded arrays of c2d_ball_sweep_cells (the four
 * of c2d_ball_cells take less). */
enum { ENTRY_BYTES = 6 * sizeof(float) };

static size_t max_cells(size_t n) {
    const size_t limit = (size_t)UINT32_MAX - 4;
    return n < limit / 2 - 1 ? 2 * n + 2 : limit;
}

/* Bytes of the part that does not depend on the pairs (entries first: 8-byte alignment). */
static size_t fixed_bytes(size_t n) {
    return (n + C2D_BALL_PAD) * ENTRY_BYTES +
           (3 * n + 1 + C2D_BALL_PAD + max_cells(n) + 2) * sizeof(uint32_t);
}

enum { PAIR_BYTES = 2 * sizeof(c2d_ball_pair) };

size_t c2d_ball_grid_scratch_bytes(size_t n, size_t pairs) {
    /* SIZE_MAX where the bytes would not fit (a narrow size_t): no allocation serves that */
    size_t pair_bytes;
    if (n > SIZE_MAX / 64 || !c2d_size_mul(pairs, PAIR_BYTES, &pair_bytes)) return SIZE_MAX;
    const size_t fixed = fixed_bytes(n) + 8; /* at most 44 n + a constant */
    return pair_bytes > SIZE_MAX - fixed ? SIZE_MAX : fixed + pair_bytes;
}

static grid_memory carve(void *scratch, size_t bytes, size_t n) {
    grid_memory m;
    m.entries = scratch;
    uint32_t *p = (uint32_t *)((unsigned char *)scratch + (n + C2D_BALL_PAD) * ENTRY_BYTES);
    m.cell_of = p;
    m.special = p + n;
    m.first = p + 2 * n;
    m.start = p + 3 * n + 1 + C2D_BALL_PAD; /* first[] padded: the sweeps' vector stores */
    uintptr_t rest = (uintptr_t)(m.start + max_cells(n) + 2);
    rest = (rest + 7) & ~(uintptr_t)7;
    const size_t left = bytes - (size_t)(rest - (uintptr_t)scratch);
    m.pair_capacity = left / PAIR_BYTES;
    m.pairs = (c2d_ball_pair *)rest;
    m.sorted = m.pairs + m.pair_capacity;
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

/* Cells of side at least `reach` over the bounds, at most `cells` (<= max_cells(n)) of them:
 * a spread-out set gets fewer, larger cells (about `cells`), so that walking the empty cells
 * costs no more than testing the balls. */
static grid grid_make(const bounds *b, double reach, size_t cells) {
    double size = reach * CELL_RELATIVE_SLACK + C2D_ABSOLUTE_SLACK;
    const double ex = b->hi_x - b->lo_x, ey = b->hi_y - b->lo_y;
    const double area_side = sqrt(ex * ey / (double)cells);
    size = area_side > size ? area_side : size;
    while ((ex / size + 1.0) * (ey / size + 1.0) > (double)cells)
        size *= 1.125;
    grid g = {b->lo_x, b->lo_y, 1.0 / size, (uint32_t)(ex / size) + 1, (uint32_t)(ey / size) + 1};
    return g;
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

/* The first half of a counting sort of the grid balls by cell: afterwards start[c + 1] is
 * where cell c begins; placing a ball with start[c + 1]++ leaves start[c] = the beginning of
 * cell c for every c once all are placed (each cell in index order). */
static void prefix_cells(grid_memory *m, size_t cells) {
    for (size_t c = 2; c < cells + 2; c++)
        m->start[c] += m->start[c - 1];
}

/* ---- sorting one ball's pairs ---------------------------------------------------------- */

static void sift_down(c2d_ball_pair *v, size_t root, size_t n) {
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && v[child + 1].b > v[child].b) child++;
        if (v[root].b >= v[child].b) return;
        const c2d_ball_pair t = v[root];
        v[root] = v[child];
        v[child] = t;
        root = child;
    }
}

/* Increasing b: insertion sort for the usual handful, heapsort (no recursion, no memory,
 * n log n) when a crowd of balls shares a few cells. */
static void sort_by_b(c2d_ball_pair *v, size_t n) {
    if (n <= SMALL_SORT) {
        for (size_t i = 1; i < n; i++) {
            const c2d_ball_pair x = v[i];
            size_t j = i;
            for (; j > 0 && v[j - 1].b > x.b; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    for (size_t i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (size_t end = n; end-- > 1;) {
        const c2d_ball_pair t = v[0];
        v[0] = v[end];
        v[end] = t;
        sift_down(v, 0, end);
    }
}

/* ---- collide ---------------------------------------------------------------------------- */

/* The sorted arrays of c2d_ball_cells in the entries area: x, y, r, id, each n + C2D_BALL_PAD
 * long. */
static c2d_ball_cells cells_of(const grid_memory *m, size_t n, const grid *g) {
    float *f = m->entries;
    const size_t len = n + C2D_BALL_PAD;
    const c2d_ball_cells cells = {f,        f + len, f + 2 * len, (const uint32_t *)(f + 3 * len),
                                  m->start, g->nx,   g->ny,       g->x0,
                                  g->inv,   NULL};
    return cells;
}

/* The float of exponent field k (k < 255): the least radius of size class k. */
static float class_floor(unsigned k) {
    const uint32_t bits = (uint32_t)k << 23;
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* Kinds and bins of every ball for contacts: grid balls by centre, cells of side 2 r_max,
 * sorted into the arrays of c2d_ball_cells (their padding NaN, index 0). The kinds, the box and
 * the cells come from the backend's kernels (ball_classify, ball_bin); the size classes only
 * when the two largest classes hold at most BIG_BUDGET balls (else none is big: big_class). */
static grid bin_for_contacts(const c2d_kernels *kernels, const c2d_circle_soa *c, grid_memory *m,
                             size_t *special_count) {
    const size_t n = c->count;
    float box[5];
    kernels->ball_classify(c, m->cell_of, box);
    unsigned big = 255;
    float reach = box[4] > 0.0f ? box[4] : 0.0f;
    if (box[0] <= box[1]) {
        const unsigned top = size_class(reach);
        const float two_top = top > 0 ? class_floor(top - 1) : 0.0f;
        size_t above = 0;
        for (size_t i = 0; i < n && above <= BIG_BUDGET; i++)
            above += m->cell_of[i] == KIND_GRID && c->radius[i] >= two_top;
        if (above <= BIG_BUDGET) { /* a few large balls: by size class */
            size_t hist[256] = {0};
            float class_max[256] = {0.0f}; /* the largest radius of each size class */
            for (size_t i = 0; i < n; i++) {
                if (m->cell_of[i] != KIND_GRID) continue;
                const float r = c->radius[i];
                const unsigned k = size_class(r);
                hist[k]++;
                class_max[k] = r > class_max[k] ? r : class_max[k];
            }
            big = big_class(hist);
            reach = 0.0f;
            for (unsigned k = 0; k <= big && k < 256; k++)
                reach = class_max[k] > reach ? class_max[k] : reach;
        }
    }
    bounds b = {box[0], box[1], box[2], box[3]}; /* the big balls too: a little more area */
    if (b.lo_x > b.hi_x) b.lo_x = b.hi_x = b.lo_y = b.hi_y = 0.0; /* no grid ball */
    const grid g = grid_make(&b, 2.0 * (double)reach, CONTACT_CELLS * n + 2);
    const size_t cells = (size_t)g.nx * g.ny;
    memset(m->start, 0, (cells + 2) * sizeof(uint32_t));
    const c2d_ball_bins bins = {g.x0, g.y0, g.inv,
                                g.nx, g.ny, big < 254 ? class_floor(big + 1) : INFINITY};
    kernels->ball_bin(c, &bins, m->cell_of, m->start);
    prefix_cells(m, cells);
    const c2d_ball_cells e = cells_of(m, n, &g);
    float *x = (float *)e.x, *y = (float *)e.y, *r = (float *)e.r;
    uint32_t *id = (uint32_t *)e.id;
    size_t specials = 0; /* the special list, increasing, in the same pass */
    /* the inputs and the counters in locals: the stores below could alias the struct */
    const float *restrict cx = c->x, *restrict cy = c->y, *restrict cr = c->radius;
    const uint32_t *restrict cell_of = m->cell_of;
    uint32_t *restrict next = m->start + 1, *restrict special = m->special;
    for (size_t i = 0; i < n; i++) {
        const uint32_t cell = cell_of[i];
        if (cell >= KIND_SPECIAL) {
            if (cell == KIND_SPECIAL) special[specials++] = (uint32_t)i;
            continue;
        }
        const size_t at = next[cell]++;
        x[at] = cx[i];
        y[at] = cy[i];
        r[at] = cr[i];
        id[at] = (uint32_t)i;
    }
    const size_t grid_balls = m->start[cells];
    for (size_t k = grid_balls; k < grid_balls + C2D_BALL_PAD; k++) {
        x[k] = y[k] = r[k] = NAN;
        id[k] = 0;
    }
    *special_count = specials;
    return g;
}

/* The overlap test of the kernels (b as a zero-length capsule), inline. Symmetric in a, b:
 * the squares lose the sign of the offset, and the radius sum commutes. */
static inline bool may_touch(float xa, float ya, float ra, float xb, float yb, float rb) {
    const float qx = xa - xb, qy = ya - yb;
    return radii_overlap(qx * qx + qy * qy, ra, rb);
}

/* Filters (collide2d/filter.h): keeps the pairs whose balls meet, in their order; returns
 * how many. The refused pairs are gone before the sort, the contacts and the count. Out of
 * line (C2D_COLD), so the unfiltered path compiles as it did before filters. */
C2D_COLD size_t keep_meeting(const c2d_circle_soa *c, c2d_ball_pair *pairs, size_t count) {
    size_t kept = 0;
    for (size_t k = 0; k < count; k++)
        if (c2d_circles_meet(c, pairs[k].a, pairs[k].b)) pairs[kept++] = pairs[k];
    return kept;
}

/* counter[a]++ for the pairs' first balls a in turn: the grouping's count pass, and its place
 * pass when groups are sorted afterwards. A pile's walk finds a ball's pairs one after another, and
 * an increment in memory waited for the last through the store (about 6 cycles a pair); a run of
 * one a keeps its counter in a register instead, stored at every pair without a branch (the run's
 * first pair reads the counter; the others read a spare word). */
typedef struct run_counter {
    uint32_t *counter;
    uint32_t a, next, spare; /* a = UINT32_MAX: no run yet (a pair's a is below it) */
} run_counter;

/* counter[a]++: returns the value before. */
static inline uint32_t run_count(run_counter *r, uint32_t a) {
    const bool same = a == r->a;
    const uint32_t stored = *(same ? &r->spare : &r->counter[a]);
    const uint32_t j = same ? r->next : stored;
    r->next = j + 1;
    r->counter[a] = r->next;
    r->a = a;
    return j;
}

/* The second pass of the grouping: each pair into its group (first[a] is where the group
 * begins, at[a] where its next pair goes), in b order within the group. The walk finds a
 * ball's pairs one after another, so a run of one a keeps its place and the group's last pair
 * in registers, reading at[a], first[a] and that pair once when the run begins and storing
 * at[a] once when it ends. A few pairs come out of b order (5% of a pile's: the lanes of
 * neighbouring cells interleave two rows of balls); they take the insertion loop. (Placing
 * every pair with selects and two stores, with at[a] stored at every pair, measured 1.37x
 * slower on this pass alone; the W6 pile's frame is 1.03-1.05x faster without.) */
static void place_in_order(const c2d_ball_pair *restrict pairs, size_t count, uint32_t *restrict at,
                           const uint32_t *restrict first, c2d_ball_pair *restrict sorted) {
    uint32_t a = UINT32_MAX;    /* the run's a (none yet: every pair's a is below it) */
    size_t next = 0, lo = 0;    /* where the run's next pair goes; where its group begins */
    c2d_ball_pair top = {0, 0}; /* the group's last pair so far (b 0: none, every b is above) */
    for (size_t k = 0; k < count; k++) {
        const c2d_ball_pair pr = pairs[k];
        if (pr.a != a) {
            if (a != UINT32_MAX) at[a] = (uint32_t)next;
            a = pr.a;
            next = at[a];
            lo = first[a];
            top = next > lo ? sorted[next - 1] : (c2d_ball_pair){a, 0};
        }
        size_t j = next++;
        if (top.b < pr.b) { /* in order (b values of one group differ) */
            sorted[j] = top = pr;
            continue;
        }
        for (; j > lo && sorted[j - 1].b > pr.b; j--) /* top stays the group's last */
            sorted[j] = sorted[j - 1];
        sorted[j] = pr;
    }
    if (a != UINT32_MAX) at[a] = (uint32_t)next;
}

size_t c2d_ball_grid_collide(const c2d_kernels *kernels, const c2d_circle_soa *c, void *scratch,
                             size_t scratch_bytes, c2d_circle_pair_contact *out, size_t capacity,
                             size_t *total_out) {
    const size_t n = c->count;
    *total_out = 0;
    if (n == 0) return 0;
    grid_memory m = carve(scratch, scratch_bytes, n);
    size_t special_count;
    const grid g = bin_for_contacts(kernels, c, &m, &special_count);
    /* first[a + 1]: the size of a's group of pairs, counted by the walk when its kernel can
     * (ball_pairs_sized), else by a pass over the pairs below */
    c2d_ball_cells cells = cells_of(&m, n, &g);
    bool sized = kernels->ball_pairs_sized;
    if (sized) memset(m.first, 0, (n + 1) * sizeof(uint32_t));
    cells.sizes = m.first + 1;
    size_t count = kernels->ball_cell_pairs(&cells, m.pairs, m.pair_capacity);
    /* grid balls against the special ones (a special ball's own row runs the kernel) */
    for (size_t s = 0; s < special_count; s++) {
        const uint32_t b = m.special[s];
        const float xb = c->x[b], yb = c->y[b], rb = c->radius[b];
        for (size_t a = 0; a < b; a++)
            if (m.cell_of[a] < KIND_SPECIAL &&
                may_touch(c->x[a], c->y[a], c->radius[a], xb, yb, rb)) {
                count = c2d_add_ball_pair(m.pairs, m.pair_capacity, count, (uint32_t)a, b);
                m.first[a + 1] += sized;
            }
    }
    if (count > UINT32_MAX) { /* billions of pairs (a crowd on a point): all pairs */
        *total_out = kernels->collide_circles(c, 0, n, out, capacity, 0);
        return 0;
    }
    if (count > m.pair_capacity) return c2d_ball_grid_scratch_bytes(n, count);
    if (c2d_circle_soa_filtered(c)) { /* the sizes counted the refused pairs too */
        count = keep_meeting(c, m.pairs, count);
        sized = false;
    }
    /* the pairs grouped by a (a counting sort): first[a] is where a's group begins, and the
     * free special list (n entries) becomes `at`, where its next pair goes. While no group is
     * larger than SMALL_SORT, a pair joins its group in b order at once (an insertion into the
     * group so far); else every group is sorted afterwards (heapsort for a crowd). */
    if (!sized) {
        memset(m.first, 0, (n + 1) * sizeof(uint32_t));
        run_counter sizes = {m.first + 1, UINT32_MAX, 0, 0};
        for (size_t k = 0; k < count; k++)
            run_count(&sizes, m.pairs[k].a);
    }
    size_t largest = 0;
    uint32_t *at = m.special;
    uint32_t sum = 0; /* the sizes into starts, and `at` a copy of them, in one pass */
    for (size_t a = 0; a < n; a++) {
        const uint32_t size = m.first[a + 1];
        largest = size > largest ? size : largest;
        at[a] = sum;
        sum += size;
        m.first[a + 1] = sum;
    }
    const bool small = largest <= SMALL_SORT;
    if (small)
        place_in_order(m.pairs, count, at, m.first, m.sorted);
    else {
        run_counter places = {at, UINT32_MAX, 0, 0};
        for (size_t k = 0; k < count; k++)
            m.sorted[run_count(&places, m.pairs[k].a)] = m.pairs[k];
    }
    /* runs of grid balls' groups go to the contact kernel at once (all of them in one run
     * without special balls); a special ball's row runs the all-pairs kernel in its place */
    size_t total = 0, run = 0;
    if (special_count > 0 || !small)
        for (size_t a = 0; a < n; a++) {
            const size_t begin = m.first[a], end = m.first[a + 1];
            if (m.cell_of[a] == KIND_SPECIAL) {
                total = kernels->ball_pair_contacts(c, m.sorted + run, begin - run, out, capacity,
                                                    total);
                total = kernels->collide_circles(c, a, a + 1, out, capacity, total);
                run = end;
            } else if (!small && end - begin > 1)
                sort_by_b(m.sorted + begin, end - begin);
        }
    total = kernels->ball_pair_contacts(c, m.sorted + run, count - run, out, capacity, total);
    *total_out = total;
    return 0;
}

/* ---- sweep ------------------------------------------------------------------------------ */

/* Kinds and bins of every ball for sweeps, in two passes of the backend's kernels: the first
 * (ball_sweep_classify) finds the kinds, each grid ball's swept size (kept in cell_of for now
 * as its float bits: below KIND_SPECIAL, and its size class is bits >> 23; see
 * core/ball_bin_formula.h), the largest size and the bounds of the centres of move (in float,
 * the big ones too: the bounds only place the grid, and the clamped cell coordinate keeps
 * neighbours neighbours); the size classes are counted only when the two largest classes hold
 * at most BIG_BUDGET balls (else none is big: big_class); the second (ball_sweep_bin) makes
 * the big ones special and counts the others into the cells of their centres, in double.
 * Afterwards start[c + 1] is where cell c begins (prefix_cells). */
static grid bin_for_sweeps(const c2d_kernels *kernels, const c2d_circle_soa *c, const float *mx,
                           const float *my, grid_memory *m) {
    const size_t n = c->count;
    float box[5];
    kernels->ball_sweep_classify(c, mx, my, m->cell_of, box);
    unsigned big = 255;
    float reach = box[4];
    if (box[0] <= box[1]) {
        const unsigned top = size_class(reach);
        const uint32_t two_top = top > 0 ? (uint32_t)(top - 1) << 23 : 0; /* as float bits */
        size_t above = 0;
        for (size_t i = 0; i < n && above <= BIG_BUDGET; i++)
            above += m->cell_of[i] < KIND_SPECIAL && m->cell_of[i] >= two_top;
        if (above <= BIG_BUDGET) { /* a few large boxes: by size class */
            size_t hist[256] = {0};
            uint32_t class_max[256] = {0}; /* the largest box of each class, as float bits */
            for (size_t i = 0; i < n; i++) {
                const uint32_t size = m->cell_of[i];
                if (size >= KIND_SPECIAL) continue;
                const unsigned k = size >> 23; /* sizes are positive: no sign bit */
                hist[k]++;
                class_max[k] = size > class_max[k] ? size : class_max[k];
            }
            big = big_class(hist);
            uint32_t reach_bits = 0; /* positive floats order as their bits */
            for (unsigned k = 0; k <= big && k < 256; k++)
                reach_bits = class_max[k] > reach_bits ? class_max[k] : reach_bits;
            memcpy(&reach, &reach_bits, sizeof reach);
        }
    }
    bounds b = {box[0], box[1], box[2], box[3]};
    if (b.lo_x > b.hi_x) b.lo_x = b.hi_x = b.lo_y = b.hi_y = 0.0;
    const grid g = grid_make(&b, (double)reach, SWEEP_CELLS * n + 2);
    const size_t cells = (size_t)g.nx * g.ny;
    memset(m->start, 0, (cells + 2) * sizeof(uint32_t));
    /* a class above big is special: size >= the floor of class big + 1 (+inf for none) */
    const c2d_ball_bins bins = {g.x0, g.y0, g.inv,
                                g.nx, g.ny, class_floor(big < 254 ? big + 1 : 255)};
    kernels->ball_sweep_bin(c, mx, my, &bins, m->cell_of, m->start);
    prefix_cells(m, cells);
    return g;
}

void c2d_ball_grid_sweep(const c2d_kernels *kernels, const c2d_circle_soa *c, const float *mx,
                         const float *my, void *scratch, size_t scratch_bytes,
                         c2d_circle_hit *out) {
    const size_t n = c->count;
    if (n == 0) return;
    grid_memory m = carve(scratch, scratch_bytes, n);
    const grid g = bin_for_sweeps(kernels, c, mx, my, &m);
    /* the balls into the padded arrays, in cell order (the boxes by index are done with); the
     * special ones listed and their rows swept by the all-pairs kernel; the dead ones get "no
     * hit"; a grid ball's slot is left for its first hit (its cell_of entry says it is not
     * written yet: c2d_ball_slot_written) */
    float *f = m.entries;
    const size_t len = n + C2D_BALL_PAD;
    float *x = f, *y = f + len, *r = f + 2 * len, *vx = f + 3 * len, *vy = f + 4 * len;
    uint32_t *id = (uint32_t *)(f + 5 * len);
    size_t special_count = 0;
    /* the inputs and the counters in locals: the stores below could alias the struct */
    const float *restrict cx = c->x, *restrict cy = c->y, *restrict cr = c->radius;
    const uint32_t *restrict cell_of = m.cell_of;
    uint32_t *restrict next = m.start + 1;
    for (size_t i = 0; i < n; i++) {
        const uint32_t cell = cell_of[i];
        if (cell < KIND_SPECIAL) {
            const size_t at = next[cell]++;
            x[at] = cx[i];
            y[at] = cy[i];
            r[at] = cr[i];
            vx[at] = mx[i];
            vy[at] = my[i];
            id[at] = (uint32_t)i;
        } else if (cell == KIND_SPECIAL) {
            m.special[special_count++] = (uint32_t)i;
            kernels->sweep_circles(c, mx, my, i, i + 1, out);
        } else
            out[i] = c2d_no_ball_hit();
    }
    const size_t grid_balls = m.start[(size_t)g.nx * g.ny];
    for (size_t k = grid_balls; k < grid_balls + C2D_BALL_PAD; k++) {
        x[k] = y[k] = r[k] = vx[k] = vy[k] = NAN;
        id[k] = 0;
    }
    memset(m.first, 0xff, grid_balls * sizeof(uint32_t));
    const c2d_ball_sweep_cells cells = {
        x,       y,         r,    vx,   vy, id, m.start, g.nx, g.ny, m.special, special_count,
        m.first, m.cell_of, g.x0, g.inv};
    kernels->ball_cell_sweeps(&cells, c, mx, my, out);
    for (size_t i = 0; i < n; i++) /* the grid balls no pair hit */
        if (!c2d_ball_slot_written(m.cell_of, (uint32_t)i)) out[i] = c2d_no_ball_hit();
    /* the grid balls against the special ones, last: every slot holds its answer so far */
    const c2d_sweep_walk walk = {&cells, c, mx, my, out};
    c2d_ball_sweep_specials(&walk, c2d_circle_soa_filtered(c));
}
