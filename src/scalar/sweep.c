/* Swept (continuous) tests: the first time of impact of a moving circle. */
#include <math.h>

#include "core/lane_scalar.h"
#include "core/segment_formula.h"
#include "scalar/reference.h"

/* First touch over t in [0, 1] of two circles with relative offset s = ca - cb, relative motion
 * v and radius sum rs. Solves |s + t v| = rs: with c = s.s - rs^2 and b = v.s, the smaller root
 * is (-b - sqrt(b^2 - (v.v)c)) / (v.v), written here as c / (-b + sqrt(b^2 - (v.v)c)): the same
 * number without the cancellation of -b - sqrt(...) and without dividing by v.v, which may be
 * 0. Every comparison is written so that NaN fails it.
 *
 * Two choices keep the root exact enough for every input:
 * - The discriminant b^2 - (v.v)c is computed as (v.v)rs^2 - (v x s)^2, equal in exact
 *   arithmetic (Lagrange's identity): b^2 and (v.v)c cancel catastrophically when the motion
 *   is long and the radii small, while (v x s)^2 / (v.v) is the squared miss distance.
 * - The arithmetic is double. The discriminant is a product of four lengths: in float it
 *   overflows from lengths of about 1e9.5 (a false hit at t = 0) and underflows below about
 *   1e-9.5 (a false hit where the paths miss). Four finite floats multiply to a finite double
 *   without underflow, so in double neither can happen. */
static bool circles_first_touch(double sx, double sy, double vx, double vy, double rs, float *t) {
    const double c = (sx * sx + sy * sy) - rs * rs;
    if (c < 0.0) { /* overlapping at the start */
        *t = 0.0f;
        return true;
    }
    const double b = vx * sx + vy * sy;
    if (!(b < 0.0)) /* moving apart, tangentially, or not at all */
        return false;
    const double cross = vx * sy - vy * sx;
    const double disc = (vx * vx + vy * vy) * (rs * rs) - cross * cross;
    if (!(disc >= 0.0)) /* the paths never come within rs */
        return false;
    const double root = c / (-b + sqrt(disc));
    if (!(root <= 1.0)) /* touches only after the motion ends */
        return false;
    *t = (float)root; /* root <= 1, so the float is too */
    return true;
}

bool c2d_sweep_circles(c2d_circle a, c2d_vec2 move_a, c2d_circle b, c2d_vec2 move_b, c2d_toi *out) {
    if (!(a.radius >= 0.0f && b.radius >= 0.0f)) return false;
    const double sx = (double)a.center.x - b.center.x, sy = (double)a.center.y - b.center.y;
    const double vx = (double)move_a.x - move_b.x, vy = (double)move_a.y - move_b.y;
    if (sx != sx || sy != sy || vx != vx || vy != vy) /* NaN anywhere: no hit */
        return false;
    float t;
    if (!circles_first_touch(sx, sy, vx, vy, (double)a.radius + b.radius, &t)) return false;
    if (!out) return true;
    const c2d_vec2 pa = {a.center.x + t * move_a.x, a.center.y + t * move_a.y};
    const c2d_vec2 pb = {b.center.x + t * move_b.x, b.center.y + t * move_b.y};
    const c2d_vec2 up = {0.0f, 1.0f};
    const c2d_vec2 n = c2d_unit_or(pa.x - pb.x, pa.y - pb.y, up);
    out->t = t;
    out->normal = n;
    out->point.x = pb.x + n.x * b.radius;
    out->point.y = pb.y + n.y * b.radius;
    return true;
}

/* The earliest candidate found so far among a capsule's features. */
typedef struct first_touch {
    bool hit;
    float t;
    c2d_vec2 normal, point;
} first_touch;

static void keep_earlier(first_touch *best, float t, c2d_vec2 normal, c2d_vec2 point) {
    if (!best->hit || t < best->t) {
        best->hit = true;
        best->t = t;
        best->normal = normal;
        best->point = point;
    }
}

/* A side of the capsule: the axis line offset by rs toward the circle's side. The circle's
 * signed distance h + t*vn reaches rs at t = (|h| - rs) / -vn (moving toward it); the hit
 * counts only where the centre then projects inside the axis span [0, |b-a|]. A centre
 * already within rs of the line (|h| < rs, by rounding when the start test said "apart")
 * touches at t = 0: moving in, it must not pass through. */
static void touch_side(float px, float py, float mx, float my, float rs, float ax, float ay,
                       float bx, float by, float R, first_touch *best) {
    const c2d_vec2 none = {NAN, NAN};
    const c2d_vec2 u = c2d_unit_or(bx - ax, by - ay, none);
    if (u.x != u.x) /* zero-length or non-finite axis: no sides */
        return;
    const float h = (px - ax) * -u.y + (py - ay) * u.x;
    const float vn = mx * -u.y + my * u.x;
    const float side = h >= 0.0f ? 1.0f : -1.0f;
    const float hs = side * h, vs = side * vn;
    if (!(vs < 0.0f)) return;
    const float t = lane_max((hs - rs) / -vs, 0.0f);
    if (!(t <= 1.0f)) return;
    const float cx = px + t * mx, cy = py + t * my;
    const float along = (cx - ax) * u.x + (cy - ay) * u.y;
    const float span = (bx - ax) * u.x + (by - ay) * u.y;
    if (!(along >= 0.0f && along <= span)) return;
    const c2d_vec2 n = {side * -u.y, side * u.x};
    float kx, ky;
    segment_closest(cx, cy, ax, ay, bx, by, &kx, &ky);
    const c2d_vec2 point = {kx + n.x * R, ky + n.y * R};
    keep_earlier(best, t, n, point);
}

/* An end circle of the capsule: centre e, radius R, static. */
static void touch_end(float px, float py, float mx, float my, double rs, float ex, float ey,
                      float R, c2d_vec2 axis_normal, first_touch *best) {
    float t;
    if (!circles_first_touch((double)px - ex, (double)py - ey, mx, my, rs, &t)) return;
    const c2d_vec2 n = c2d_unit_or((px + t * mx) - ex, (py + t * my) - ey, axis_normal);
    const c2d_vec2 point = {ex + n.x * R, ey + n.y * R};
    keep_earlier(best, t, n, point);
}

bool c2d_capsule_sweep(float px, float py, float r, float mx, float my, float ax, float ay,
                       float bx, float by, float R, c2d_toi *out) {
    if (!(r >= 0.0f && R >= 0.0f)) return false;
    const float rs = r + R;
    const c2d_vec2 axis_normal = c2d_axis_normal(ax, ay, bx, by);
    first_touch best = {false, 0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}};

    float cx, cy, qx, qy;
    const float d2 = capsule_gap(px, py, ax, ay, bx, by, &cx, &cy, &qx, &qy);
    if (d2 != d2 || mx != mx || my != my) /* NaN anywhere: no hit (an end may be finite) */
        return false;
    if (d2 < rs * rs) { /* overlapping at the start */
        const c2d_vec2 n = c2d_unit_or(qx, qy, axis_normal);
        const c2d_vec2 point = {cx + n.x * R, cy + n.y * R};
        keep_earlier(&best, 0.0f, n, point);
    } else {
        touch_side(px, py, mx, my, rs, ax, ay, bx, by, R, &best);
        const double rs_exact = (double)r + R; /* as c2d_sweep_circles() sums it */
        touch_end(px, py, mx, my, rs_exact, ax, ay, R, axis_normal, &best);
        touch_end(px, py, mx, my, rs_exact, bx, by, R, axis_normal, &best);
    }
    if (!best.hit) return false;
    if (out) {
        out->t = best.t;
        out->normal = best.normal;
        out->point = best.point;
    }
    return true;
}

bool c2d_sweep_circle_capsule(c2d_circle c, c2d_vec2 move, c2d_capsule k, c2d_toi *out) {
    return c2d_capsule_sweep(c.center.x, c.center.y, c.radius, move.x, move.y, k.a.x, k.a.y, k.b.x,
                             k.b.y, k.radius, out);
}
