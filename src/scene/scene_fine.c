/* The fine indices of a scene: small cells looked up by a circle's centre alone, one index
 * for circles of radius at most rho (s->fine) and one for larger ones up to a second bound
 * (s->fine_big); scene_fine_index.h has the layout (c2d_fine_index), scene_scan.c the scan.
 *
 * Why no contact is lost. Take a capsule k the index lists (kind GRID, or a long capsule: kind
 * EVERYWHERE but every value tame; either way the error bounds of cull.h hold) with radius
 * R >= 0, and a circle with centre p and radius r <= rho (the index's bound) that the exact test
 * (c2d_collide_circle_capsule, in float) reports in contact.
 *  1. cull.h: the exact test accepts a centre at most (r + R)(1 + 3.5 eps) from an axis point
 *     that rounding may have moved 3 eps max|coord| past the axis ends (eps = 2^-24), plus
 *     2^-74 for underflow. So the true distance from p to the segment is at most
 *     R + r + 2^-20 (m + r) + 2^-60 <= D = R + rho + 2^-16 (m + rho) + 2^-50, where m is the
 *     capsule's largest magnitude (the collide boxes rest on the same bound, with 2^-20).
 *  2. The region is the union of the segments' bounding boxes grown by D, rounded outward to
 *     float: a centre outside it (compared in float, exactly) touches no listed capsule.
 *  3. A centre inside the region gets cell column cx = trunc(min(max((x - x0) * inv, 0),
 *     nx - 1)) in float. With x >= x0, x - x0 and the product each round by at most 2^-24
 *     relative, so (x - x0) / size lies within 2^-22.9 relative of a value in [cx, cx + 1]
 *     (the clamps only move a value already past a border, and the region ends inside the
 *     first and last columns): x lies in [x0 + cx size - d, x0 + (cx + 1) size + d] with
 *     d = 2^-20 nx size + 2^-40 size, size = 1 / inv in double. Rows likewise.
 *  4. The build lists capsule k in every cell whose rectangle grown by d lies within D of the
 *     segment, computed in double (errors near 2^-52 of the magnitudes, far inside the
 *     2^-16 slack): the cell of p holds k.
 * So every contact of a circle the index serves is among its cell's capsules; the exact test
 * then decides, as before. Circles neither index serves (above both bounds, NaN, beyond the
 * tame range) take the coarse path, plus every long capsule as a candidate. Capsules moved since
 * the build (dirty) are tested against every circle instead; capsules the index does not list
 * (everywhere but not tame, or more than C2D_FINE_LONG_MAX long ones) are tested against every
 * circle by the range calls, as before.
 *
 * rho is chosen at the first frame from its radii: the upper end of the smallest radius class
 * (classes 2^-3 of an octave wide) above which lie at most 1/32 of the tame circles; the big
 * circles' bound is the upper end of the largest class present. When a frame finds more than
 * 1/16 of its circles above rho (1/1024 above the big bound), the next frame chooses it again,
 * at least 1.5 times larger: bounds never shrink, so rebuilds stay rare. Capsule moves mark the
 * moved capsules dirty (up to C2D_FINE_DIRTY_MAX since the build); beyond that the next frame
 * rebuilds both indices with the same bounds (or, when moves keep making the builds stale within
 * 8 frames, the scene pauses on the coarse index for a growing number of frames). An index is
 * declined (the scan then uses the coarse index alone for its circles) when it would need more than
 * 2^24 cells at a useful size or more than C2D_FINE_PER_CAPSULE listings a capsule: memory stays
 * bounded for hostile scenes. */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "batch/cull.h"
#include "scene/scene_fine.h"

/* Listings allowed: this many per listed capsule, plus a constant. */
#define C2D_FINE_PER_CAPSULE 96
#define C2D_FINE_EXTRA 65536
/* Most cells of a fine grid (cell numbers stay exact in float, < 2^24). */
#define C2D_FINE_MAX_CELLS (1u << 24) - 256u

void c2d_fine_free(const c2d_allocator *a, c2d_fine_index *f) {
    c2d_free(a, f->bits);
    c2d_free(a, f->slot);
    c2d_free(a, f->multi);
    c2d_free(a, f->dirty);
    c2d_free(a, f->start);
    c2d_free(a, f->list);
    c2d_free(a, f->cells);
    *f = (c2d_fine_index){0};
}

/* ---- rho --------------------------------------------------------------------------------- */

/* The upper end of radius class `cls` (a float). */
static float class_end(uint32_t cls) {
    const uint32_t bits = (cls + 1) << 20;
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The radius bounds for a frame: *rho (see the top) and *big, the upper end of the largest
 * class present (both 0 when no circle is tame and alive). */
static void choose_rho(const c2d_circle_soa *c, float *rho, float *big) {
    enum { CLASSES = 2048 }; /* float bits >> 20: sign 0, exponent, 3 mantissa bits */
    uint32_t hist[CLASSES];
    memset(hist, 0, sizeof hist);
    size_t tame = 0;
    for (size_t i = 0; i < c->count; i++) {
        const float r = c->radius[i];
        if (!(r >= 0.0f && r <= C2D_TAME_LIMIT)) continue;
        uint32_t bits;
        memcpy(&bits, &r, sizeof bits);
        hist[(bits & 0x7fffffffu) >> 20]++; /* -0 is a radius 0: its sign bit goes */
        tame++;
    }
    *rho = *big = 0.0f;
    if (tame == 0) return;
    const size_t allowed = tame / 32;
    size_t above = 0;
    uint32_t cls = CLASSES - 1;
    for (; cls > 0 && hist[cls] == 0; cls--)
        continue;
    *big = class_end(cls);
    for (; cls > 0; cls--) {
        if (above + hist[cls] > allowed) break;
        above += hist[cls];
    }
    *rho = class_end(cls);
}

/* ---- geometry (double) ------------------------------------------------------------------- */

typedef struct seg {
    double ax, ay, bx, by, D; /* the segment, and the reach D of step 1 */
} seg;

/* Squared distance from (px, py) to the segment. */
static double point_seg2(const seg *g, double px, double py) {
    const double dx = g->bx - g->ax, dy = g->by - g->ay;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((px - g->ax) * dx + (py - g->ay) * dy) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    const double qx = g->ax + t * dx - px, qy = g->ay + t * dy - py;
    return qx * qx + qy * qy;
}

/* Squared distance from (px, py) to the rectangle. */
static double point_rect2(double px, double py, double x0, double x1, double y0, double y1) {
    const double dx = c2d_dmax(c2d_dmax(x0 - px, px - x1), 0.0);
    const double dy = c2d_dmax(c2d_dmax(y0 - py, py - y1), 0.0);
    return dx * dx + dy * dy;
}

/* Does the segment cross the rectangle (Liang-Barsky clipping). */
static bool seg_meets_rect(const seg *g, double x0, double x1, double y0, double y1) {
    const double dx = g->bx - g->ax, dy = g->by - g->ay;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {g->ax - x0, x1 - g->ax, g->ay - y0, y1 - g->ay};
    double t0 = 0.0, t1 = 1.0;
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0) return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0.0)
            t0 = c2d_dmax(t0, t);
        else
            t1 = c2d_dmin(t1, t);
        if (t0 > t1) return false;
    }
    return true;
}

/* Is the rectangle within D of the segment: they meet, or the nearest points are a corner of
 * one against the other (two disjoint convex shapes). */
static bool rect_near(const seg *g, double x0, double x1, double y0, double y1) {
    const double D2 = g->D * g->D;
    /* most cells are decided by their centre: within D (the centre is in the rectangle), or
     * farther than D plus the half diagonal (every point is within that of the centre) */
    const double c2 = point_seg2(g, 0.5 * (x0 + x1), 0.5 * (y0 + y1));
    if (c2 <= D2) return true;
    const double far = g->D + 0.5 * sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0));
    if (c2 > far * far) return false;
    if (point_rect2(g->ax, g->ay, x0, x1, y0, y1) <= D2) return true;
    if (point_rect2(g->bx, g->by, x0, x1, y0, y1) <= D2) return true;
    if (point_seg2(g, x0, y0) <= D2 || point_seg2(g, x1, y0) <= D2 || point_seg2(g, x0, y1) <= D2 ||
        point_seg2(g, x1, y1) <= D2)
        return true;
    return seg_meets_rect(g, x0, x1, y0, y1);
}

/* ---- the build --------------------------------------------------------------------------- */

/* The grid being built: cell (cx, cy) is [x0 + cx size - dx, x0 + (cx + 1) size + dx] x
 * (likewise in y) for step 4. */
typedef struct plan {
    double x0, y0, size, dx, dy;
    uint32_t nx, ny;
} plan;

/* Capsule k's segment and reach, false when the fine index does not list it. */
static bool capsule_seg(const c2d_scene *s, size_t k, double rho, seg *g) {
    const unsigned char kind = s->index.kind[k];
    if (kind != C2D_KIND_GRID && !(kind == C2D_KIND_EVERYWHERE && c2d_fine_long(s, k)))
        return false;
    const double R = s->radius[k];
    if (!(R >= 0.0)) return false; /* overlaps nothing */
    g->ax = s->ax[k];
    g->ay = s->ay[k];
    g->bx = s->bx[k];
    g->by = s->by[k];
    const double m = c2d_dmax(c2d_dmax(fabs(g->ax), fabs(g->ay)),
                              c2d_dmax(c2d_dmax(fabs(g->bx), fabs(g->by)), R));
    g->D = R + rho + 0x1p-16 * (m + rho) + 0x1p-50;
    return true;
}

/* Column range [*c0, *c1] of cells whose grown rectangles may meet [lo, hi]; false if none. */
static bool cell_range(double lo, double hi, double v0, double size, double d, uint32_t n,
                       uint32_t *c0, uint32_t *c1) {
    const double a = floor((lo - d - v0) / size) - 1.0, b = floor((hi + d - v0) / size) + 1.0;
    if (b < 0.0 || a > (double)n - 1.0) return false;
    *c0 = a < 0.0 ? 0u : (uint32_t)a;
    *c1 = b > (double)n - 1.0 ? n - 1 : (uint32_t)b;
    return true;
}

/* Writes (cell, k) for each cell of capsule g into cells (or only counts when cells is NULL),
 * row by row; returns the listings, stopping early past `limit`. */
static size_t rasterise(const plan *pl, const seg *g, uint32_t k, uint32_t *cells, size_t limit) {
    size_t count = 0;
    const double lo_y = c2d_dmin(g->ay, g->by), hi_y = c2d_dmax(g->ay, g->by);
    uint32_t cy0, cy1;
    if (!cell_range(lo_y - g->D, hi_y + g->D, pl->y0, pl->size, pl->dy, pl->ny, &cy0, &cy1))
        return 0;
    const double dx = g->bx - g->ax, dy = g->by - g->ay;
    for (uint32_t cy = cy0; cy <= cy1; cy++) {
        const double y0 = pl->y0 + cy * pl->size - pl->dy;
        const double y1 = pl->y0 + (cy + 1.0) * pl->size + pl->dy;
        /* the part of the segment within D of the row's band, in x (a superset of the cells
         * within D: a point of the row within D of a segment point q has q.y within D of the
         * band and x within D of q.x) */
        double t0 = 0.0, t1 = 1.0;
        if (dy != 0.0) {
            double ta = (y0 - g->D - g->ay) / dy, tb = (y1 + g->D - g->ay) / dy;
            if (ta > tb) {
                const double t = ta;
                ta = tb;
                tb = t;
            }
            /* widen by a relative hair for the division's rounding */
            ta -= 0x1p-40 * (fabs(ta) + 1.0);
            tb += 0x1p-40 * (fabs(tb) + 1.0);
            t0 = c2d_dmax(t0, ta);
            t1 = c2d_dmin(t1, tb);
            if (t0 > t1) continue;
        } else if (g->ay < y0 - g->D || g->ay > y1 + g->D) {
            continue;
        }
        const double xa = g->ax + t0 * dx, xb = g->ax + t1 * dx;
        const double slack = 0x1p-40 * (fabs(xa) + fabs(xb) + fabs(dx));
        uint32_t cx0, cx1;
        if (!cell_range(c2d_dmin(xa, xb) - g->D - slack, c2d_dmax(xa, xb) + g->D + slack, pl->x0,
                        pl->size, pl->dx, pl->nx, &cx0, &cx1))
            continue;
        for (uint32_t cx = cx0; cx <= cx1; cx++) {
            const double x0 = pl->x0 + cx * pl->size - pl->dx;
            const double x1 = pl->x0 + (cx + 1.0) * pl->size + pl->dx;
            if (!rect_near(g, x0, x1, y0, y1)) continue;
            if (cells) {
                cells[2 * count] = cy * pl->nx + cx;
                cells[2 * count + 1] = k;
            }
            if (++count > limit) return count;
        }
    }
    return count;
}

/* Grows a buffer of `have` elements to hold `need` (1.5x headroom); false on failure. */
static bool grow(const c2d_scene *s, void **ptr, size_t *have, size_t need, size_t elem) {
    if (*ptr && *have >= need) return true;
    const size_t want = need + need / 2 + 16;
    void *fresh = c2d_alloc_array(&s->allocator, want, elem);
    if (!fresh) return false;
    c2d_free(&s->allocator, *ptr);
    *ptr = fresh;
    *have = want;
    return true;
}

/* Cells rasterise can list for g at most (its rows times the widest row). */
static size_t rasterise_bound(const plan *pl, const seg *g) {
    uint32_t cx0, cx1, cy0, cy1;
    if (!cell_range(c2d_dmin(g->ax, g->bx) - g->D, c2d_dmax(g->ax, g->bx) + g->D, pl->x0, pl->size,
                    pl->dx, pl->nx, &cx0, &cx1) ||
        !cell_range(c2d_dmin(g->ay, g->by) - g->D, c2d_dmax(g->ay, g->by) + g->D, pl->y0, pl->size,
                    pl->dy, pl->ny, &cy0, &cy1))
        return 0;
    return (size_t)(cx1 - cx0 + 1) * (cy1 - cy0 + 1);
}

/* grow, keeping the first `used` elements. */
static bool grow_keep(const c2d_scene *s, void **ptr, size_t *have, size_t need, size_t used,
                      size_t elem) {
    if (*ptr && *have >= need) return true;
    const size_t want = need + need / 2 + 16;
    void *fresh = c2d_alloc_array(&s->allocator, want, elem);
    if (!fresh) return false;
    if (used) memcpy(fresh, *ptr, used * elem);
    c2d_free(&s->allocator, *ptr);
    *ptr = fresh;
    *have = want;
    return true;
}

/* Float below (above) a double, by a relative margin that covers the conversion. */
static float float_below(double v) {
    return (float)(v - 0x1p-20 * fabs(v) - 0x1p-100);
}
static float float_above(double v) {
    return (float)(v + 0x1p-20 * fabs(v) + 0x1p-100);
}

/* Builds fine index f for radius bound rho; false when declined or out of memory. */
static bool build(c2d_scene *s, c2d_fine_index *f, float rho) {
    const size_t m = s->capsule_count;
    const c2d_capsule_index *x = &s->index;
    if (x->listed == 0 || !(rho >= 0.0f) || !(rho <= C2D_TAME_LIMIT) || m >= C2D_FINE_MANY)
        return false;
    /* the region (step 2) and the rectangles' total, for the size check */
    double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY, reach = 0.0;
    size_t listed = 0;
    for (size_t k = 0; k < m; k++) {
        seg g;
        if (!capsule_seg(s, k, rho, &g)) continue;
        reach += g.D;
        lo_x = c2d_dmin(lo_x, c2d_dmin(g.ax, g.bx) - g.D);
        hi_x = c2d_dmax(hi_x, c2d_dmax(g.ax, g.bx) + g.D);
        lo_y = c2d_dmin(lo_y, c2d_dmin(g.ay, g.by) - g.D);
        hi_y = c2d_dmax(hi_y, c2d_dmax(g.ay, g.by) + g.D);
        listed++;
    }
    if (listed == 0) return false;
    const double limit = C2D_TAME_LIMIT;
    lo_x = c2d_dmax(lo_x, -limit);
    lo_y = c2d_dmax(lo_y, -limit);
    hi_x = c2d_dmin(hi_x, limit);
    hi_y = c2d_dmin(hi_y, limit);
    if (!(lo_x <= hi_x && lo_y <= hi_y)) return false;
    const float rx0 = float_below(lo_x), rx1 = float_above(hi_x);
    const float ry0 = float_below(lo_y), ry1 = float_above(hi_y);
    size_t budget = C2D_FINE_PER_CAPSULE * listed + C2D_FINE_EXTRA;
    if (budget > ((size_t)1 << 29)) budget = (size_t)1 << 29; /* multi's offsets fit 31 bits */
    /* cells: a twelfth of the coarse cells, at least 2 rho and half the mean reach (a board
     * of tiny capsules, all reaching far, gets few cells); larger while too many */
    double size = c2d_dmax((double)x->grid.size / 12.0, 2.0 * (double)rho);
    size = c2d_dmax(size, 0.5 * reach / (double)listed);
    if (!(size > 0.0)) size = c2d_dmax(((double)rx1 - rx0) + ((double)ry1 - ry0), 1.0) / 4096.0;
    plan pl;
    size_t total = 0;
    for (int attempt = 0;; attempt++) {
        if (attempt == 40) return false;
        const float inv = (float)(1.0 / size);
        if (!(inv > 0.0f) || !(inv < INFINITY)) return false;
        pl.size = 1.0 / (double)inv;
        pl.x0 = rx0;
        pl.y0 = ry0;
        const double nx = floor(((double)rx1 - rx0) / pl.size) + 1.0;
        const double ny = floor(((double)ry1 - ry0) / pl.size) + 1.0;
        if (nx * ny > (double)C2D_FINE_MAX_CELLS) { /* near the cap at once, then 1.25x */
            size *= c2d_dmax(1.25, 0.9 * sqrt(nx * ny / (double)C2D_FINE_MAX_CELLS));
            continue;
        }
        pl.nx = (uint32_t)nx;
        pl.ny = (uint32_t)ny;
        pl.dx = 0x1p-20 * nx * pl.size + 0x1p-40 * pl.size;
        pl.dy = 0x1p-20 * ny * pl.size + 0x1p-40 * pl.size;
        if (pl.dx > 0.25 * pl.size || pl.dy > 0.25 * pl.size) return false;
        f->inv_size = inv;
        /* the listings, capsule by capsule (ascending); too many: larger cells. Room first
         * for what the capsules' rows can hold (within the budget), so it rarely grows */
        size_t guess = 0;
        for (size_t k = 0; k < m && guess <= budget; k++) {
            seg g;
            if (capsule_seg(s, k, rho, &g)) guess += rasterise_bound(&pl, &g);
        }
        if (!grow(s, (void **)&f->cells, &f->cells_capacity,
                  2 * (guess < budget ? guess : budget) + 2, sizeof(uint32_t)))
            return false;
        total = 0;
        for (size_t k = 0; k < m && total <= budget; k++) {
            seg g;
            if (!capsule_seg(s, k, rho, &g)) continue;
            size_t most = rasterise_bound(&pl, &g);
            if (total + most > budget) { /* maybe fewer: count them first */
                most = rasterise(&pl, &g, (uint32_t)k, NULL, budget - total);
                if (total + most > budget) {
                    total += most;
                    break;
                }
            }
            if (!grow_keep(s, (void **)&f->cells, &f->cells_capacity, 2 * (total + most) + 2,
                           2 * total, sizeof(uint32_t)))
                return false;
            total += rasterise(&pl, &g, (uint32_t)k, f->cells + 2 * total, most);
        }
        if (total <= budget) break;
        size *= 2.0;
    }
    const size_t cells = (size_t)pl.nx * pl.ny;
    const size_t words = cells / 64 + 2;
    if (!grow(s, (void **)&f->bits, &f->word_capacity, words + (words + 1) / 2, sizeof(uint64_t)) ||
        !grow(s, (void **)&f->list, &f->list_capacity, total + 1, sizeof(uint32_t)) ||
        !grow(s, (void **)&f->start, &f->start_capacity, total + 2, sizeof(uint32_t)))
        return false;
    /* the bits */
    f->base = (uint32_t *)(f->bits + words); /* words uint32_t after the bits */
    memset(f->bits, 0, words * sizeof(uint64_t));
    const size_t at = total;
    for (size_t j = 0; j < at; j++) {
        const uint32_t c = f->cells[2 * j];
        f->bits[c >> 6] |= UINT64_C(1) << (c & 63);
    }
    uint32_t listed_cells = 0;
    for (size_t w = 0; w < words; w++) {
        f->base[w] = listed_cells;
        listed_cells += c2d_popcount64(f->bits[w]);
    }
    /* a counting sort by cell, stable: capsules ascending in each cell (counts at j + 2) */
    uint32_t *start = f->start;
    memset(start, 0, (listed_cells + 2) * sizeof(uint32_t));
    for (size_t j = 0; j < at; j++)
        start[c2d_fine_rank(f, f->cells[2 * j]) + 2]++;
    for (size_t j = 2; j < listed_cells + 2; j++)
        start[j] += start[j - 1];
    for (size_t j = 0; j < at; j++)
        f->list[start[c2d_fine_rank(f, f->cells[2 * j]) + 1]++] = f->cells[2 * j + 1];
    /* listed cell j's capsules are list[start[j] .. start[j + 1]): one goes in its slot, more
     * to multi (count first) */
    size_t many = 0;
    for (uint32_t j = 0; j < listed_cells; j++)
        many += start[j + 1] - start[j] > 1 ? start[j + 1] - start[j] + 1 : 0;
    if (!grow(s, (void **)&f->slot, &f->slot_capacity, listed_cells + 1, sizeof(uint32_t)) ||
        !grow(s, (void **)&f->multi, &f->multi_capacity, many + 1, sizeof(uint32_t)))
        return false;
    many = 0;
    for (uint32_t j = 0; j < listed_cells; j++) {
        const uint32_t n = start[j + 1] - start[j];
        if (n == 1) {
            f->slot[j] = f->list[start[j]];
            continue;
        }
        f->slot[j] = C2D_FINE_MANY | (uint32_t)many;
        f->multi[many++] = n;
        for (uint32_t e = start[j]; e < start[j + 1]; e++)
            f->multi[many++] = f->list[e];
    }
    f->x0 = rx0;
    f->y0 = ry0;
    f->lo_x = rx0;
    f->hi_x = rx1;
    f->lo_y = ry0;
    f->hi_y = ry1;
    f->rho = rho;
    f->nx = pl.nx;
    f->ny = pl.ny;
    f->empty = (uint32_t)(words * 64 - 1); /* past every cell: its bit is never set */
    return true;
}

/* The small circles' index (s->fine) and its dirty set, for bound rho. */
static void build_small(c2d_scene *s, float rho) {
    c2d_fine_index *f = &s->fine;
    f->ready = false;
    f->regrow = false;
    f->tried = true;
    f->dirty_count = 0; /* a rebuild lists every capsule where it is now */
    f->generation = s->generation;
    f->age = 0;
    if (!grow(s, (void **)&f->dirty, &f->dirty_capacity, s->capsule_count, 1)) return;
    memset(f->dirty, 0, s->capsule_count);
    /* the long capsules: kind EVERYWHERE, yet tame (their box spans too many coarse cells) */
    f->long_count = 0;
    const c2d_capsule_index *x = &s->index;
    for (size_t j = 0; j < x->everywhere_count; j++) {
        const size_t k = x->everywhere[j];
        const float v[5] = {s->ax[k], s->ay[k], s->bx[k], s->by[k], s->radius[k]};
        bool tame = v[4] >= 0.0f;
        for (int q = 0; q < 5; q++)
            tame = tame && fabsf(v[q]) <= C2D_TAME_LIMIT;
        if (!tame) continue;
        if (f->long_count == C2D_FINE_LONG_MAX) { /* too many: none */
            f->long_count = 0;
            break;
        }
        f->longs[f->long_count++] = (uint32_t)k;
    }
    f->ready = build(s, f, rho);
    if (!f->ready) f->long_count = 0;
}

/* The big circles' index (s->fine_big), for bound big above the small one's rho: used only
 * with the small index, whose dirty set it shares. */
static void build_big(c2d_scene *s, float big) {
    c2d_fine_index *b = &s->fine_big;
    b->ready = false;
    b->regrow = false;
    b->tried = true;
    b->generation = s->generation;
    b->declined = false;
    if (c2d_fine_ready(s) && big > s->fine.rho) {
        b->ready = build(s, b, big);
        b->declined = !b->ready; /* not asked to grow again for these capsules */
    }
}

void c2d_fine_prepare(c2d_scene *s, const c2d_circle_soa *circles) {
    c2d_fine_index *f = &s->fine, *b = &s->fine_big;
    const bool small_due = !(f->generation == s->generation && (f->ready || f->tried)) || f->regrow;
    const bool big_due = small_due || b->generation != s->generation || b->regrow;
    f->age += f->age < UINT32_MAX;
    if (!big_due || circles->count == 0) return;
    if (small_due && !f->regrow && f->pause > 0) { /* moved too often: the coarse path for now */
        f->pause--;
        return;
    }
    float rho, big;
    choose_rho(circles, &rho, &big);
    if (small_due) {
        if (f->rho > 0.0f && !f->regrow) rho = f->rho; /* capsules moved: the same bound */
        if (f->regrow && rho < 1.5f * f->rho) rho = 1.5f * f->rho;
        build_small(s, rho);
    }
    if (b->rho > 0.0f && big < b->rho) big = b->rho; /* it never shrinks either */
    if (b->regrow && big < 1.5f * b->rho) big = 1.5f * b->rho;
    build_big(s, big);
}

void c2d_fine_moved(c2d_scene *s, size_t first, size_t n) {
    c2d_fine_index *f = &s->fine;
    if (!f->ready || f->generation + 1 != s->generation) return; /* stale already */
    size_t count = f->dirty_count;
    for (size_t k = first; k < first + n && count <= C2D_FINE_DIRTY_MAX; k++)
        count += !f->dirty[k];
    if (count > C2D_FINE_DIRTY_MAX) { /* too many: the next frame rebuilds both */
        f->ready = false;
        f->dirty_count = 0;
        /* unless builds keep going stale within a few frames: then pause (16 frames, doubled
         * while it recurs, up to 1024) on the coarse index, so a scene whose capsules all move
         * every frame does not pay a build every frame */
        if (f->age < 8) {
            f->pause_next = f->pause_next ? (f->pause_next < 512 ? 2 * f->pause_next : 1024) : 16;
            f->pause = f->pause_next;
        } else {
            f->pause_next = 0;
        }
        return;
    }
    for (size_t k = first; k < first + n; k++)
        if (!f->dirty[k]) {
            f->dirty[k] = 1;
            f->dirty_list[f->dirty_count++] = (uint32_t)k;
        }
    if (s->fine_big.generation == f->generation) s->fine_big.generation = s->generation;
    f->generation = s->generation;
}
