/* The batch calls of collide2d/search.h: ray casts and region queries over structure-of-arrays
 * inputs. The capsule part of a ray cast is the sweep kernel of the active backend run on the
 * rays' origins as circles of radius 0; everything else runs the scalar references (compiled
 * once, so every backend returns their bytes), behind conservative boxes. */
#include <math.h>

#include "batch/search_internal.h"
#include "contract.h"
#include "dispatch.h"

/* Radii of the points a capsule pass sweeps: all 0. */
static const float zero_radius[C2D_RAY_CHUNK];

/* NULL first (of every argument), then too large. */
c2d_status c2d_ray_cast_check(const c2d_ray_soa *rays, const c2d_circle_soa *circles,
                              const c2d_ray_hit *out) {
    if (!rays) return C2D_ERROR_NULL;
    const float *const ray_arrays[] = {rays->x, rays->y, rays->dx, rays->dy};
    if (!c2d_arrays_given(rays->count, ray_arrays, 4) || !c2d_array_given(rays->count, out))
        return C2D_ERROR_NULL;
    /* optional circles: NULL is none; then NULL before too large, the circles' count first */
    const c2d_status sc = circles ? c2d_check_circles(circles) : C2D_OK;
    return c2d_check_both(sc, c2d_check_count(rays->count));
}

/* The box of a ray's path grown by the slack of cull.h's sweep boxes (everything the exact
 * circle sweep can accept lies within a circle's radius of it). False when a value is not
 * tame (or NaN): then every circle gets the exact test. */
typedef struct ray_box {
    double lo_x, hi_x, lo_y, hi_y;
} ray_box;

static bool ray_box_of(double px, double py, double dx, double dy, ray_box *b) {
    const double L = C2D_TAME_LIMIT;
    if (!(fabs(px) <= L && fabs(py) <= L && fabs(dx) <= L && fabs(dy) <= L)) return false;
    const double grow = C2D_SWEEP_SIZE_SLACK * (fabs(dx) + fabs(dy)) +
                        C2D_SWEEP_POSITION_SLACK * (fabs(px) + fabs(py)) + C2D_ABSOLUTE_SLACK;
    b->lo_x = c2d_dmin(px, px + dx) - grow;
    b->hi_x = c2d_dmax(px, px + dx) + grow;
    b->lo_y = c2d_dmin(py, py + dy) - grow;
    b->hi_y = c2d_dmax(py, py + dy) + grow;
    return true;
}

/* Can the ray reach circle (cx, cy, r) at all: false only when it provably cannot. */
static bool ray_box_meets(const ray_box *b, double cx, double cy, double r) {
    const double L = C2D_TAME_LIMIT;
    if (!(fabs(cx) <= L && fabs(cy) <= L && fabs(r) <= L)) return true; /* the exact test */
    const double g =
        r + C2D_SWEEP_SIZE_SLACK * fabs(r) + C2D_SWEEP_POSITION_SLACK * (fabs(cx) + fabs(cy));
    return cx + g >= b->lo_x && cx - g <= b->hi_x && cy + g >= b->lo_y && cy - g <= b->hi_y;
}

/* Ray i against every circle, in index order: a hit replaces the kept one when strictly
 * earlier. `filtered`: the rays or circles carry filter words; the refused circles are
 * skipped. */
static void ray_circles(const c2d_ray_soa *rays, size_t i, const c2d_circle_soa *c, bool filtered,
                        c2d_ray_hit *hit) {
    const c2d_vec2 o = {rays->x[i], rays->y[i]}, d = {rays->dx[i], rays->dy[i]};
    ray_box box = {0.0, 0.0, 0.0, 0.0};
    const bool culled = ray_box_of(o.x, o.y, d.x, d.y, &box);
    const uint32_t category = c2d_filter_word(rays->category, i);
    const uint32_t mask = c2d_filter_word(rays->mask, i);
    for (size_t k = 0; k < c->count; k++) {
        if (culled && !ray_box_meets(&box, c->x[k], c->y[k], c->radius[k])) continue;
        if (filtered && !c2d_filter_allows(category, mask, c2d_filter_word(c->category, k),
                                           c2d_filter_word(c->mask, k)))
            continue;
        const c2d_circle circle = {{c->x[k], c->y[k]}, c->radius[k]};
        c2d_toi toi;
        if (!c2d_ray_circle(o, d, circle, &toi)) continue;
        if (hit->kind == C2D_SHAPE_NONE || toi.t < hit->toi.t) {
            hit->shape = (uint32_t)k;
            hit->kind = C2D_SHAPE_CIRCLE;
            hit->toi = toi;
        }
    }
}

void c2d_ray_cast_run(const c2d_ray_soa *rays, c2d_ray_capsule_pass pass, const void *ctx,
                      const c2d_circle_soa *circles, c2d_ray_hit *out) {
    const c2d_ray_hit none = {C2D_NONE, C2D_SHAPE_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
    c2d_circle_toi part[C2D_RAY_CHUNK];
    const bool circles_filtered =
        circles && (rays->category || rays->mask || c2d_circle_soa_filtered(circles));
    for (size_t first = 0; first < rays->count; first += C2D_RAY_CHUNK) {
        const size_t rest = rays->count - first;
        const size_t n = rest < C2D_RAY_CHUNK ? rest : C2D_RAY_CHUNK;
        for (size_t j = 0; j < n; j++)
            out[first + j] = none;
        if (pass) {
            const c2d_circle_soa points = {rays->x + first,
                                           rays->y + first,
                                           zero_radius,
                                           n,
                                           rays->category ? rays->category + first : NULL,
                                           rays->mask ? rays->mask + first : NULL};
            pass(ctx, &points, rays->dx + first, rays->dy + first, part);
            for (size_t j = 0; j < n; j++)
                if (part[j].capsule != C2D_NONE) {
                    out[first + j].shape = part[j].capsule;
                    out[first + j].kind = C2D_SHAPE_CAPSULE;
                    out[first + j].toi = part[j].toi;
                }
        }
        if (circles && circles->count > 0)
            for (size_t j = 0; j < n; j++)
                ray_circles(rays, first + j, circles, circles_filtered, &out[first + j]);
    }
}

static void kernel_pass(const void *ctx, const c2d_circle_soa *points, const float *dx,
                        const float *dy, c2d_circle_toi *out) {
    c2d_active_kernels()->sweep(points, dx, dy, ctx, NULL, NULL, out); /* capsules at rest */
}

c2d_status c2d_batch_ray_cast(const c2d_ray_soa *rays, const c2d_capsule_soa *capsules,
                              const c2d_circle_soa *circles, c2d_ray_hit *out) {
    const c2d_status st = c2d_check_both(c2d_ray_cast_check(rays, circles, out),
                                         capsules ? c2d_check_capsules(capsules) : C2D_OK);
    if (st != C2D_OK) return st;
    const bool any_capsules = capsules && capsules->count > 0;
    c2d_ray_cast_run(rays, any_capsules ? kernel_pass : NULL, capsules, circles, out);
    return C2D_OK;
}

/* ---- region queries ----------------------------------------------------------------------- */

bool c2d_region_overlap(const c2d_regions *q, size_t i, float ax, float ay, float bx, float by,
                        float R) {
    if (q->box)
        return c2d_box_capsule_overlap(q->p[0][i], q->p[1][i], q->p[2][i], q->p[3][i], ax, ay, bx,
                                       by, R);
    const c2d_circle disc = {{q->p[0][i], q->p[1][i]}, q->points ? 0.0f : q->p[2][i]};
    const c2d_capsule k = {{ax, ay}, {bx, by}, R};
    return c2d_overlap_circle_capsule(disc, k);
}

static bool tame(double v) {
    return fabs(v) <= C2D_TAME_LIMIT;
}

bool c2d_region_bounds(const c2d_regions *q, size_t i, double box[4]) {
    double lo_x, hi_x, lo_y, hi_y, size;
    if (q->box) {
        lo_x = q->p[0][i], lo_y = q->p[1][i], hi_x = q->p[2][i], hi_y = q->p[3][i];
        size = fabs(lo_x) + fabs(hi_x) + fabs(lo_y) + fabs(hi_y);
    } else {
        const double x = q->p[0][i], y = q->p[1][i], r = q->points ? 0.0 : fabs(q->p[2][i]);
        lo_x = x - r, hi_x = x + r, lo_y = y - r, hi_y = y + r;
        size = fabs(x) + fabs(y) + r;
    }
    if (!(tame(lo_x) && tame(hi_x) && tame(lo_y) && tame(hi_y))) return false;
    const double grow = C2D_REGION_SLACK * size + C2D_ABSOLUTE_SLACK;
    box[0] = lo_x - grow, box[1] = hi_x + grow, box[2] = lo_y - grow, box[3] = hi_y + grow;
    return true;
}

/* Can region box `b` meet the capsule at all: false only when it provably cannot. */
static bool region_meets(const double b[4], double ax, double ay, double bx, double by, double R) {
    const double m = fabs(ax) + fabs(ay) + fabs(bx) + fabs(by) + fabs(R);
    if (!(m <= C2D_TAME_LIMIT)) return true; /* the exact test (NaN included: it says no) */
    const double g = fabs(R) + C2D_REGION_SLACK * m + C2D_ABSOLUTE_SLACK;
    return c2d_dmin(ax, bx) - g <= b[1] && c2d_dmax(ax, bx) + g >= b[0] &&
           c2d_dmin(ay, by) - g <= b[3] && c2d_dmax(ay, by) + g >= b[2];
}

c2d_status c2d_regions_check(const c2d_regions *q, c2d_status shapes_status,
                             const c2d_query_pair *out, size_t capacity, size_t *count) {
    /* every NULL first (the output's, the shapes', the regions'), then too large, the shapes'
     * count first */
    const c2d_status so = c2d_check_output(out, capacity, count);
    if (so != C2D_OK || q->missing) return C2D_ERROR_NULL;
    const size_t arrays = q->box ? 4 : q->points ? 2 : 3;
    if (!c2d_arrays_given(q->count, q->p, arrays)) return C2D_ERROR_NULL;
    return c2d_check_both(shapes_status, c2d_check_count(q->count));
}

/* Every region against every shape (capsules, or circles seen as capsules of zero length). */
static c2d_status query_all(c2d_regions regions, const void *set, bool circles, c2d_query_pair *out,
                            size_t capacity, size_t *count) {
    const c2d_regions *q = &regions;
    c2d_status shapes = C2D_ERROR_NULL;
    c2d_capsule_soa k = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    if (set && circles) {
        const c2d_circle_soa *c = set;
        k = (c2d_capsule_soa){c->x,     c->y,        c->x,    c->y, c->radius,
                              c->count, c->category, c->mask, NULL};
    } else if (set) {
        k = *(const c2d_capsule_soa *)set;
    }
    if (set) shapes = c2d_check_capsules(&k);
    const c2d_status st = c2d_regions_check(q, shapes, out, capacity, count);
    if (st != C2D_OK) return st;
    c2d_pair_sink sink = {out, capacity, 0};
    /* filters: the pairs the rule refuses are skipped (sensors count as shapes here) */
    const bool filtered = q->category || q->mask || k.category || k.mask;
    for (size_t i = 0; i < q->count; i++) {
        double b[4];
        const bool culled = c2d_region_bounds(q, i, b);
        for (size_t s = 0; s < k.count; s++) {
            if (culled && !region_meets(b, k.ax[s], k.ay[s], k.bx[s], k.by[s], k.radius[s]))
                continue;
            if (filtered && !c2d_region_allows(q, i, c2d_filter_word(k.category, s),
                                               c2d_filter_word(k.mask, s)))
                continue;
            if (c2d_region_overlap(q, i, k.ax[s], k.ay[s], k.bx[s], k.by[s], k.radius[s]))
                c2d_sink_pair(&sink, i, s);
        }
    }
    return c2d_finish_count(sink.total, out, capacity, count);
}

c2d_status c2d_batch_query_box_capsules(const c2d_box_soa *boxes, const c2d_capsule_soa *capsules,
                                        c2d_query_pair *out, size_t capacity, size_t *count) {
    return query_all(c2d_regions_of_boxes(boxes), capsules, false, out, capacity, count);
}

c2d_status c2d_batch_query_box_circles(const c2d_box_soa *boxes, const c2d_circle_soa *circles,
                                       c2d_query_pair *out, size_t capacity, size_t *count) {
    return query_all(c2d_regions_of_boxes(boxes), circles, true, out, capacity, count);
}

c2d_status c2d_batch_query_disc_capsules(const c2d_circle_soa *discs,
                                         const c2d_capsule_soa *capsules, c2d_query_pair *out,
                                         size_t capacity, size_t *count) {
    return query_all(c2d_regions_of_discs(discs), capsules, false, out, capacity, count);
}

c2d_status c2d_batch_query_disc_circles(const c2d_circle_soa *discs, const c2d_circle_soa *circles,
                                        c2d_query_pair *out, size_t capacity, size_t *count) {
    return query_all(c2d_regions_of_discs(discs), circles, true, out, capacity, count);
}

c2d_status c2d_batch_query_point_capsules(const c2d_point_soa *points,
                                          const c2d_capsule_soa *capsules, c2d_query_pair *out,
                                          size_t capacity, size_t *count) {
    return query_all(c2d_regions_of_points(points), capsules, false, out, capacity, count);
}

c2d_status c2d_batch_query_point_circles(const c2d_point_soa *points, const c2d_circle_soa *circles,
                                         c2d_query_pair *out, size_t capacity, size_t *count) {
    return query_all(c2d_regions_of_points(points), circles, true, out, capacity, count);
}
