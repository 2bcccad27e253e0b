/* Boolean overlap tests. Each is the capsule test of src/core/segment_formula.h: a circle is a
 * capsule with a zero-length axis, a segment a capsule of radius 0, a point a circle of
 * radius 0. */
#include "core/lane_scalar.h"
#include "core/segment_formula.h"
#include "scalar/reference.h"

bool c2d_overlap_circle_capsule(c2d_circle c, c2d_capsule k) {
    return capsule_overlap(c.center.x, c.center.y, c.radius, k.a.x, k.a.y, k.b.x, k.b.y, k.radius);
}

bool c2d_overlap_circles(c2d_circle a, c2d_circle b) {
    const c2d_capsule k = {b.center, b.center, b.radius};
    return c2d_overlap_circle_capsule(a, k);
}

bool c2d_overlap_circle_segment(c2d_circle c, c2d_segment s) {
    const c2d_capsule k = {s.a, s.b, 0.0f};
    return c2d_overlap_circle_capsule(c, k);
}

bool c2d_point_in_capsule(c2d_vec2 p, c2d_capsule k) {
    const c2d_circle c = {p, 0.0f};
    return c2d_overlap_circle_capsule(c, k);
}
