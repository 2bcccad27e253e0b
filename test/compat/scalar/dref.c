/* Double-precision reference geometry: see dref.h. */
#include <math.h>

#include "dref.h"

double dvec_len(dvec a) {
    return sqrt(a.x * a.x + a.y * a.y);
}

double dref_closest_param(dvec p, dvec a, dvec b) {
    const dvec d = dvec_sub(b, a);
    const double len2 = dvec_dot(d, d);
    if (!(len2 > 0.0)) return 0.0;
    const double t = dvec_dot(dvec_sub(p, a), d) / len2;
    return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

dvec dref_closest(dvec p, dvec a, dvec b) {
    const double t = dref_closest_param(p, a, b);
    return dvec_add(a, dvec_scale(dvec_sub(b, a), t));
}

double dref_dist_point_segment(dvec p, dvec a, dvec b) {
    return dvec_len(dvec_sub(p, dref_closest(p, a, b)));
}

static int sign_of(double x) {
    return (x > 0.0) - (x < 0.0);
}

double dref_dist_segments(dvec p0, dvec p1, dvec a, dvec b) {
    /* A proper crossing: each segment's endpoints lie strictly on both sides of the other. */
    const int s1 = sign_of(dvec_cross(dvec_sub(b, a), dvec_sub(p0, a)));
    const int s2 = sign_of(dvec_cross(dvec_sub(b, a), dvec_sub(p1, a)));
    const int s3 = sign_of(dvec_cross(dvec_sub(p1, p0), dvec_sub(a, p0)));
    const int s4 = sign_of(dvec_cross(dvec_sub(p1, p0), dvec_sub(b, p0)));
    if (s1 * s2 < 0 && s3 * s4 < 0) return 0.0;
    /* Otherwise the closest pair involves an endpoint (touching and collinear cases too). */
    double d = dref_dist_point_segment(p0, a, b);
    const double d1 = dref_dist_point_segment(p1, a, b);
    const double d2 = dref_dist_point_segment(a, p0, p1);
    const double d3 = dref_dist_point_segment(b, p0, p1);
    if (d1 < d) d = d1;
    if (d2 < d) d = d2;
    if (d3 < d) d = d3;
    return d;
}

static double dist_at(dvec p, dvec m, dvec a, dvec b, double t) {
    return dref_dist_point_segment(dvec_add(p, dvec_scale(m, t)), a, b);
}

bool dref_sweep(dvec p, dvec m, dvec a, dvec b, double rs, double *t_first, double *d_min) {
    *d_min = dref_dist_segments(p, dvec_add(p, m), a, b);
    *t_first = NAN;
    if (dist_at(p, m, a, b, 0.0) <= rs) {
        *t_first = 0.0;
        return true;
    }
    /* f(t) = |p + t m - segment| is convex: golden-section search finds a minimiser t*
     * (70 steps shrink [0, 1] below 1e-14). */
    const double g = 0.6180339887498949; /* (sqrt(5) - 1) / 2 */
    double lo = 0.0, hi = 1.0;
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = dist_at(p, m, a, b, x1), f2 = dist_at(p, m, a, b, x2);
    for (int i = 0; i < 70; i++) {
        if (f1 <= f2) {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = dist_at(p, m, a, b, x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = dist_at(p, m, a, b, x2);
        }
    }
    double t_star = 0.5 * (lo + hi);
    if (dist_at(p, m, a, b, 1.0) < dist_at(p, m, a, b, t_star))
        t_star = 1.0; /* the minimum at the end of the motion */
    if (!(dist_at(p, m, a, b, t_star) <= rs)) return false;
    /* f decreases on [0, t*] from above rs to at most rs: bisect for the crossing. */
    lo = 0.0;
    hi = t_star;
    for (int i = 0; i < 56; i++) {
        const double mid = 0.5 * (lo + hi);
        if (dist_at(p, m, a, b, mid) <= rs)
            hi = mid;
        else
            lo = mid;
    }
    *t_first = hi;
    return true;
}
