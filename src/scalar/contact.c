/* Contacts: circle against capsule, segment and circle, with the degenerate-normal rules.
 *
 * The arithmetic is src/core/contact_formula.h instantiated with float lanes: the SIMD kernels
 * run the same source over vectors, so both layers compute the same bytes. */
#include "core/lane_scalar.h"
#include "core/contact_formula.h"
#include "scalar/reference.h"

c2d_vec2 c2d_unit_or(float x, float y, c2d_vec2 fallback) {
    c2d_vec2 u;
    unit_or(x, y, fallback.x, fallback.y, &u.x, &u.y);
    return u;
}

c2d_vec2 c2d_axis_normal(float ax, float ay, float bx, float by) {
    c2d_vec2 n;
    axis_normal(ax, ay, bx, by, &n.x, &n.y);
    return n;
}

bool c2d_capsule_contact(float px, float py, float r, float ax, float ay, float bx, float by,
                         float R, c2d_contact *out) {
    float cx, cy, qx, qy;
    const float d2 = capsule_gap(px, py, ax, ay, bx, by, &cx, &cy, &qx, &qy);
    if (!radii_overlap(d2, r, R)) return false;
    if (!out) return true;
    const contact_lanes k = contact_from_gap(r, R, ax, ay, bx, by, cx, cy, qx, qy, d2);
    out->normal.x = k.nx;
    out->normal.y = k.ny;
    out->depth = k.depth;
    out->point.x = k.px;
    out->point.y = k.py;
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
