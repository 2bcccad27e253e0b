/* The scalar references of collide2d/search.h: rays are sweeps of radius-0 circles, and the
 * closed box against a capsule is decided in double. */
#include "scalar/reference.h"
#include "scalar/ray_region.h"

bool c2d_ray_capsule(c2d_vec2 origin, c2d_vec2 translation, c2d_capsule k, c2d_toi *out) {
    const c2d_circle point = {origin, 0.0f};
    return c2d_sweep_circle_capsule(point, translation, k, out);
}

bool c2d_ray_circle(c2d_vec2 origin, c2d_vec2 translation, c2d_circle c, c2d_toi *out) {
    const c2d_circle point = {origin, 0.0f};
    const c2d_vec2 still = {0.0f, 0.0f};
    return c2d_sweep_circles(point, translation, c, still, out);
}

/* The squared distance from p to the interval [lo, hi] on one axis: 0 inside. */
static double axis_gap(double p, double lo, double hi) {
    const double below = lo - p, above = p - hi;
    return below > 0.0 ? below : above > 0.0 ? above : 0.0;
}

/* The squared distance from c to the segment a + s d, s in [0, 1] (dd = d.d > 0). */
static double corner_gap2(double cx, double cy, double ax, double ay, double dx, double dy,
                          double dd) {
    const double px = cx - ax, py = cy - ay;
    double s = (px * dx + py * dy) / dd;
    s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
    const double ex = px - s * dx, ey = py - s * dy;
    return ex * ex + ey * ey;
}

/* Does the segment a + s d, s in [0, 1], meet the closed interval [lo, hi] on one axis:
 * narrows [*s0, *s1] to the part inside (Liang-Barsky). False when it leaves nothing. */
static bool clip_axis(double a, double d, double lo, double hi, double *s0, double *s1) {
    if (d == 0.0) return a >= lo && a <= hi;
    double u = (lo - a) / d, v = (hi - a) / d;
    if (u > v) {
        const double w = u;
        u = v;
        v = w;
    }
    if (u > *s0) *s0 = u;
    if (v < *s1) *s1 = v;
    return *s0 <= *s1;
}

bool c2d_box_capsule_overlap(float lo_x, float lo_y, float hi_x, float hi_y, float ax, float ay,
                             float bx, float by, float R) {
    /* an empty box, a NaN bound or a negative (or NaN) radius: nothing */
    if (!(lo_x <= hi_x && lo_y <= hi_y && R >= 0.0f)) return false;
    if (ax != ax || ay != ay || bx != bx || by != by) return false;
    const double dx = (double)bx - ax, dy = (double)by - ay;
    double s0 = 0.0, s1 = 1.0;
    if (clip_axis(ax, dx, lo_x, hi_x, &s0, &s1) && clip_axis(ay, dy, lo_y, hi_y, &s0, &s1))
        return true; /* the axis meets the box */
    const double R2 = (double)R * R;
    /* the axis' ends to the box */
    const double gax = axis_gap(ax, lo_x, hi_x), gay = axis_gap(ay, lo_y, hi_y);
    const double gbx = axis_gap(bx, lo_x, hi_x), gby = axis_gap(by, lo_y, hi_y);
    if (gax * gax + gay * gay <= R2 || gbx * gbx + gby * gby <= R2) return true;
    const double dd = dx * dx + dy * dy;
    if (!(dd > 0.0)) return false; /* a point: its distance is the ends' */
    /* the box's corners to the axis */
    const double xs[2] = {lo_x, hi_x}, ys[2] = {lo_y, hi_y};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            if (corner_gap2(xs[i], ys[j], ax, ay, dx, dy, dd) <= R2) return true;
    return false;
}

bool c2d_overlap_box_capsule(c2d_box b, c2d_capsule k) {
    return c2d_box_capsule_overlap(b.lo.x, b.lo.y, b.hi.x, b.hi.y, k.a.x, k.a.y, k.b.x, k.b.y,
                                   k.radius);
}

bool c2d_overlap_box_circle(c2d_box b, c2d_circle c) {
    return c2d_box_capsule_overlap(b.lo.x, b.lo.y, b.hi.x, b.hi.y, c.center.x, c.center.y,
                                   c.center.x, c.center.y, c.radius);
}
