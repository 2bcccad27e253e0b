/* Closest point on a segment, and capsules built from a centre and an axis. */
#include "core/lane_scalar.h"
#include "core/segment_formula.h"
#include "scalar/reference.h"

c2d_vec2 c2d_closest_point_on_segment(c2d_vec2 p, c2d_segment s) {
    c2d_vec2 c;
    segment_closest(p.x, p.y, s.a.x, s.a.y, s.b.x, s.b.y, &c.x, &c.y);
    return c;
}

c2d_capsule c2d_capsule_from_axis(c2d_vec2 center, c2d_vec2 unit_axis, float length, float radius) {
    const float half = length * 0.5f;
    const c2d_vec2 h = {unit_axis.x * half, unit_axis.y * half};
    const c2d_capsule k = {
        {center.x - h.x, center.y - h.y}, {center.x + h.x, center.y + h.y}, radius};
    return k;
}
