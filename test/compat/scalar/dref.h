/* Double-precision reference geometry for the scalar property tests.
 *
 * Written independently of the library: no call into libcollide2d, no shared formula. The
 * sweep reference in particular does not split the capsule into sides and end circles the way
 * the library does; it uses only that the distance from a linearly moving point to a convex
 * set is a convex function of time, and finds the first time it reaches the radius sum by
 * ternary search and bisection. Inputs are the library's float values, widened exactly. */
#ifndef C2D_TEST_DREF_H
#define C2D_TEST_DREF_H

#include <stdbool.h>

#include "collide2d.h"

typedef struct dvec {
    double x, y;
} dvec;

static inline dvec dvec_of(c2d_vec2 v) {
    const dvec d = {v.x, v.y};
    return d;
}
static inline dvec dvec_make(double x, double y) {
    const dvec d = {x, y};
    return d;
}
static inline dvec dvec_add(dvec a, dvec b) {
    return dvec_make(a.x + b.x, a.y + b.y);
}
static inline dvec dvec_sub(dvec a, dvec b) {
    return dvec_make(a.x - b.x, a.y - b.y);
}
static inline dvec dvec_scale(dvec a, double s) {
    return dvec_make(a.x * s, a.y * s);
}
static inline double dvec_dot(dvec a, dvec b) {
    return a.x * b.x + a.y * b.y;
}
static inline double dvec_cross(dvec a, dvec b) {
    return a.x * b.y - a.y * b.x;
}
double dvec_len(dvec a);

/* Parameter in [0, 1] of the point of segment a-b closest to p (0 for a zero-length segment). */
double dref_closest_param(dvec p, dvec a, dvec b);
/* The point of segment a-b closest to p. */
dvec dref_closest(dvec p, dvec a, dvec b);
/* Distance from p to segment a-b. */
double dref_dist_point_segment(dvec p, dvec a, dvec b);
/* Distance between segments p0-p1 and a-b (0 when they cross). */
double dref_dist_segments(dvec p0, dvec p1, dvec a, dvec b);

/* A point moving from p by m over t in [0, 1] against the segment a-b inflated by rs.
 * Returns whether the point comes within rs; *t_first is the first such time (0 when it
 * starts within rs; NaN when it never does) and *d_min the smallest distance over the
 * motion. */
bool dref_sweep(dvec p, dvec m, dvec a, dvec b, double rs, double *t_first, double *d_min);

#endif
