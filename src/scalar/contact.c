/* Contacts: circle against capsule, segment and circle, with the degenerate-normal rules. */
#include <math.h>

#include "core/lane_scalar.h"
#include "core/segment_formula.h"
#include "scalar/reference.h"

c2d_vec2 c2d_unit_or(float x, float y, c2d_vec2 fallback) {
    const float m = lane_max(fabsf(x), fabsf(y));
    const float ux = x / m, uy = y / m; /* in [-1, 1]; NaN when m is 0, NaN or infinite */
    const float len = sqrtf(ux * ux + uy * uy);
    if (!(len > 0.0f)) /* also false for NaN */
        return fallback;
    const c2d_vec2 u = {ux / len, uy / len};
    return u;
}

c2d_vec2 c2d_axis_normal(float ax, float ay, float bx, float by) {
    const c2d_vec2 up = {0.0f, 1.0f};
    return c2d_unit_or(-(by - ay), bx - ax, up);
}

bool c2d_capsule_contact(float px, float py, float r, float ax, float ay, float bx, float by,
                         float R, c2d_contact *out) {
    float cx, cy, qx, qy;
    const float d2 = capsule_gap(px, py, ax, ay, bx, by, &cx, &cy, &qx, &qy);
    if (!radii_overlap(d2, r, R)) return false;
    /* The centre on the axis has no direction of its own: use the axis' left perpendicular. */
    const c2d_vec2 n = c2d_unit_or(qx, qy, c2d_axis_normal(ax, ay, bx, by));
    /* sqrt(fl(rs*rs)) == rs, so depth >= 0 whenever d2 <= rs*rs did not overflow; the max
     * (second operand on NaN) keeps it >= 0 and not NaN when it did. */
    const float depth = lane_max((r + R) - sqrtf(d2), 0.0f);
    if (!out) return true;
    out->normal = n;
    out->depth = depth;
    out->point.x = cx + n.x * R;
    out->point.y = cy + n.y * R;
    return true;
}

bool c2d_collide_circle_capsule(c2d_circle c, c2d_capsule k, c2d_contact *out) {
    return c2d_capsule_contact(c.center.x, c.center.y, c.radius, k.a.x, k.a.y, k.b.x, k.b.y,
                               k.radius, out);
}

bool c2d_collide_circle_segment(c2d_circle c, c2d_segment s, c2d_contact *out) {
    const c2d_capsule k = {s.a, s.b, 0.0f};
    return c2d_collide_circle_capsule(c, k, out);
}

bool c2d_collide_circles(c2d_circle a, c2d_circle b, c2d_contact *out) {
    const c2d_capsule k = {b.center, b.center, b.radius};
    return c2d_collide_circle_capsule(a, k, out);
}
