/* The W9b quality figures (bench/w9_figures.h). Ball pairs are found on a hashed grid of cells
 * as wide as the largest touching distance, so a pair lies in the same or a neighbouring cell. */
#include "w9_figures.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

struct w9_figures {
    uint32_t *start; /* bucket b's balls are order[start[b] .. start[b + 1]) */
    uint32_t *order;
    uint32_t *bucket;          /* each ball's bucket */
    size_t buckets, balls_cap; /* allocated */
    size_t used;               /* buckets of the last grid (fewer for fewer balls) */
    double *values;            /* overlaps or tops */
    size_t values_cap, values_count;
};

w9_figures *w9_figures_create(void) {
    return calloc(1, sizeof(w9_figures));
}

void w9_figures_destroy(w9_figures *f) {
    if (!f) return;
    free(f->start);
    free(f->order);
    free(f->bucket);
    free(f->values);
    free(f);
}

static int push_value(w9_figures *f, double v) {
    if (f->values_count == f->values_cap) {
        const size_t cap = f->values_cap ? 2 * f->values_cap : 1024;
        double *p = realloc(f->values, cap * sizeof(double));
        if (!p) return -1;
        f->values = p;
        f->values_cap = cap;
    }
    f->values[f->values_count++] = v;
    return 0;
}

/* The k-th smallest (from 0) of v[0 .. n), by quickselect; reorders v. */
static double select_kth(double *v, size_t n, size_t k) {
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        const double pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                const double t = v[i];
                v[i] = v[j], v[j] = t;
                i++;
                if (j == 0) break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

/* Nearest rank: the value at rank ceil(p n), 1-based. */
static double percentile(double *v, size_t n, double p) {
    size_t rank = (size_t)ceil(p * (double)n);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return select_kth(v, n, rank - 1);
}

static uint32_t hash_cell(int64_t cx, int64_t cy, size_t buckets) {
    const uint64_t h =
        (uint64_t)cx * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)cy * UINT64_C(0xC2B2AE3D27D4EB4F);
    return (uint32_t)((h ^ (h >> 29)) & (buckets - 1));
}

/* The cell of coordinate v; a coordinate too large or NaN goes to cell 0 (still compared). */
static int64_t cell_of(float v, double side) {
    const double c = floor((double)v / side);
    return c > -1e15 && c < 1e15 ? (int64_t)c : 0;
}

/* Fills the grid with the balls; returns the cell side, or -1 when out of memory. */
static double grid_build(w9_figures *f, const w9_balls *b) {
    const size_t n = b->count;
    size_t buckets = 16;
    while (buckets < 2 * n)
        buckets *= 2;
    if (buckets > f->buckets) {
        uint32_t *p = realloc(f->start, (buckets + 1) * sizeof(uint32_t));
        if (!p) return -1.0;
        f->start = p;
        f->buckets = buckets;
    }
    if (n > f->balls_cap) {
        uint32_t *o = realloc(f->order, n * sizeof(uint32_t));
        if (!o) return -1.0;
        f->order = o;
        uint32_t *k = realloc(f->bucket, n * sizeof(uint32_t));
        if (!k) return -1.0;
        f->bucket = k;
        f->balls_cap = n;
    }
    float max_r = 0.0f;
    for (size_t i = 0; i < n; i++)
        if (b->radius[i] > max_r) max_r = b->radius[i];
    const double side = 2.0 * (double)max_r * (1.0 + (double)W9_TOUCH) + 1e-6;
    f->used = buckets;
    for (size_t k = 0; k <= buckets; k++)
        f->start[k] = 0;
    for (size_t i = 0; i < n; i++) {
        const int64_t cx = cell_of(b->x[i], side), cy = cell_of(b->y[i], side);
        f->bucket[i] = hash_cell(cx, cy, buckets);
        f->start[f->bucket[i]]++;
    }
    for (size_t k = 1; k < buckets; k++) /* start[k]: the end of bucket k */
        f->start[k] += f->start[k - 1];
    f->start[buckets] = (uint32_t)n;
    /* place from the end, each bucket's balls in ascending order; start[k] ends at its start */
    for (size_t i = n; i-- > 0;)
        f->order[--f->start[f->bucket[i]]] = (uint32_t)i;
    return side;
}

/* Calls visit(f, i, j, gap, smaller radius, ctx) for every touching pair i < j (within
 * W9_TOUCH of the smaller radius, or of the larger when `by_larger`); stops at the first
 * non-zero return (out of memory). */
typedef int pair_fn(w9_figures *f, size_t i, size_t j, double gap, double smaller, void *ctx);

static int each_touching_pair(w9_figures *f, const w9_balls *b, bool by_larger, pair_fn *visit,
                              void *ctx) {
    const double side = grid_build(f, b);
    if (side < 0.0) return -1;
    for (size_t i = 0; i < b->count; i++) {
        const int64_t cx = cell_of(b->x[i], side), cy = cell_of(b->y[i], side);
        uint32_t seen[9];
        size_t n_seen = 0;
        for (int64_t dy = -1; dy <= 1; dy++)
            for (int64_t dx = -1; dx <= 1; dx++) {
                const uint32_t k = hash_cell(cx + dx, cy + dy, f->used);
                bool again = false; /* two cells in one bucket: scan it once */
                for (size_t s = 0; s < n_seen; s++)
                    again |= seen[s] == k;
                if (again) continue;
                seen[n_seen++] = k;
                for (uint32_t e = f->start[k]; e < f->start[k + 1]; e++) {
                    const size_t j = f->order[e];
                    if (j <= i) continue;
                    const double ex = (double)b->x[j] - (double)b->x[i];
                    const double ey = (double)b->y[j] - (double)b->y[i];
                    const double ri = b->radius[i], rj = b->radius[j];
                    const double smaller = ri < rj ? ri : rj, larger = ri < rj ? rj : ri;
                    const double gap = sqrt(ex * ex + ey * ey) - ri - rj;
                    const double reach = (double)W9_TOUCH * (by_larger ? larger : smaller);
                    if (gap <= reach && visit(f, i, j, gap, smaller, ctx) != 0) return -1;
                }
            }
    }
    return 0;
}

static int mark_pair(w9_figures *f, size_t i, size_t j, double gap, double smaller, void *ctx) {
    (void)f, (void)gap, (void)smaller;
    unsigned char *touched = ctx;
    touched[i] = touched[j] = 1;
    return 0;
}

/* The gap from a ball to a capsule: centre to the axis, less both radii. */
static double capsule_gap(double x, double y, double r, const c2d_capsule *k) {
    const double ax = k->a.x, ay = k->a.y, ex = (double)k->b.x - ax, ey = (double)k->b.y - ay;
    const double len2 = ex * ex + ey * ey;
    double t = len2 > 0.0 ? ((x - ax) * ex + (y - ay) * ey) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    const double dx = x - (ax + t * ex), dy = y - (ay + t * ey);
    return sqrt(dx * dx + dy * dy) - r - (double)k->radius;
}

/* Marks the balls of capsules[0 .. m) within W9_TOUCH of their radius; counts the marks. */
static size_t mark_capsules(const w9_balls *b, const c2d_capsule *capsules, size_t m,
                            unsigned char *touched) {
    size_t count = 0;
    for (size_t i = 0; i < b->count; i++) {
        const double r = b->radius[i];
        for (size_t k = 0; k < m && !touched[i]; k++)
            if (capsule_gap(b->x[i], b->y[i], r, &capsules[k]) <= (double)W9_TOUCH * r)
                touched[i] = 1;
        count += touched[i] != 0;
    }
    return count;
}

size_t w9_mark_touching(w9_figures *f, const w9_balls *b, const c2d_capsule *capsules, size_t m,
                        unsigned char *touched) {
    if (each_touching_pair(f, b, false, mark_pair, touched) != 0) return (size_t)-1;
    return mark_capsules(b, capsules, m, touched);
}

typedef struct support_ctx {
    const w9_balls *b;
    unsigned char *touched;
} support_ctx;

static int support_pair(w9_figures *f, size_t i, size_t j, double gap, double smaller, void *ctx) {
    (void)f, (void)smaller;
    const support_ctx *c = ctx;
    if (gap <= (double)W9_TOUCH * c->b->radius[i]) c->touched[i] = 1;
    if (gap <= (double)W9_TOUCH * c->b->radius[j]) c->touched[j] = 1;
    return 0;
}

size_t w9_mark_supported(w9_figures *f, const w9_balls *b, const c2d_capsule *capsules, size_t m,
                         unsigned char *touched) {
    support_ctx c = {b, touched};
    if (each_touching_pair(f, b, true, support_pair, &c) != 0) return (size_t)-1;
    return mark_capsules(b, capsules, m, touched);
}

static int overlap_pair(w9_figures *f, size_t i, size_t j, double gap, double smaller, void *ctx) {
    (void)i, (void)j, (void)ctx;
    return push_value(f, gap < 0.0 ? -gap / smaller : 0.0);
}

int w9_overlaps(w9_figures *f, const w9_balls *b, w9_overlap *out) {
    f->values_count = 0;
    out->pairs = 0, out->max = 0.0, out->p99 = 0.0;
    if (each_touching_pair(f, b, false, overlap_pair, NULL) != 0) return -1;
    const size_t n = f->values_count;
    out->pairs = n;
    if (n == 0) return 0;
    for (size_t k = 0; k < n; k++)
        if (f->values[k] > out->max) out->max = f->values[k];
    out->p99 = percentile(f->values, n, 0.99);
    return 0;
}

double w9_energy(const w9_balls *b, float density, float gravity, float floor_y) {
    const double pi = 3.14159265358979323846, g = fabs((double)gravity);
    double e = 0.0;
    for (size_t i = 0; i < b->count; i++) {
        const double r = b->radius[i], m = (double)density * pi * r * r;
        const double vx = b->vx[i], vy = b->vy[i], w = b->w ? (double)b->w[i] : 0.0;
        e += 0.5 * m * (vx * vx + vy * vy) + 0.25 * m * r * r * w * w +
             m * g * ((double)b->y[i] - (double)floor_y);
    }
    return e;
}

void w9_rise_start(w9_rise *r, size_t first) {
    r->first = first;
    r->next = 0;
    r->last = 0.0;
    r->max = -HUGE_VAL;
    r->max_at = 0;
    r->counted = 0;
}

void w9_rise_add(w9_rise *r, double energy) {
    /* the rise from E[k] = last to E[k + 1] = energy, k = next - 1 */
    if (r->next > r->first) {
        const size_t k = r->next - 1;
        const double rise = (energy - r->last) / r->last;
        if (rise > r->max) r->max = rise, r->max_at = k;
        r->counted++;
    }
    r->last = energy;
    r->next++;
}

double w9_packing(w9_figures *f, const w9_balls *b, float width, float floor_y) {
    const double pi = 3.14159265358979323846;
    f->values_count = 0;
    double area = 0.0;
    for (size_t i = 0; i < b->count; i++) {
        const double r = b->radius[i];
        area += pi * r * r;
        if (push_value(f, (double)b->y[i] + r - (double)floor_y) != 0) return -1.0;
    }
    if (b->count == 0) return 0.0;
    const double h95 = percentile(f->values, b->count, 0.95);
    return area / ((double)width * h95);
}
