/* Swept (continuous) tests: the first time of impact of a moving circle.
 *
 * Why no entering path is missed (docs/sweeps.md has the longer version). The capsule
 * inflated by the circle's radius is a stadium: a band |h| <= rs around the axis line cut to
 * the axis span, plus a disc of radius rs at each end (rs = r + R). A path that enters it
 * first crosses the band's edge line h = +-rs (the side) either inside the span or beyond an
 * end; beyond end b it can only reach the stadium through the disc at b. With the motion M,
 * the offset Q = p - b and W = M x Q (|W| / |M| is the distance from b to the path's line),
 * the crossing of the side facing the circle (sign sigma) lies at or before b along the axis
 * exactly when sigma W <= rs (M.u) (u the unit axis direction), and the line meets the disc at
 * b exactly when |W| <= rs |M|. Since |M.u| <= |M|, the two conditions together cover every
 * line with sigma W <= rs |M|, and a line with sigma W > rs |M| passes b on its far side, out
 * of the stadium. The same holds at a with P = p - a and the condition reversed.
 *
 * The old code decided "inside the span" from the crossing point itself, in float: its error,
 * eps |p - a| divided by the slope of the path, moved the crossing past an end while the disc
 * test (done separately, in double) correctly said the line misses the disc: both tests
 * missed a path that went on deep into the band. Here the side test decides the span from
 * the very same double W and the same threshold rs |M| that the end test uses, with its own
 * threshold clamped into [-rs |M|, rs |M|]: whatever the rounding, a path that the side test
 * hands to an end passes that end's line test. What is left to rounding is each feature's own
 * "reaches it within [0, 1], moving toward it", and a wrong answer there only moves the touch
 * by the error of the quantities compared (a few double ulps of |p - a|, |M| and |b - a|),
 * not amplified by a shallow slope: the depth a path can reach unreported is that small.
 *
 * Every quantity is computed in double from the float inputs: four finite floats multiply to
 * a finite double without underflow, so neither overflow nor underflow can fake a touch. */
#include <math.h>

#include "core/lane_scalar.h"
#include "core/segment_formula.h"
#include "scalar/reference.h"

/* The line of relative motion v through the relative offset s = centre - other centre, with
 * w = v x s (computed by the caller: the side test shares it) and lim = rs |v|. */
typedef struct sweep_line {
    double sx, sy, vx, vy, w, lim;
} sweep_line;

static sweep_line line_of(double sx, double sy, double vx, double vy, double lim) {
    const sweep_line l = {sx, sy, vx, vy, vx * sy - vy * sx, lim};
    return l;
}

/* First touch over t in [0, 1] of two circles with relative offset s and relative motion v,
 * radius sum rs. Solves |s + t v| = rs: with c = s.s - rs^2 and b = v.s, the smaller root is
 * (-b - sqrt(b^2 - (v.v)c)) / (v.v), written here as c / (-b + sqrt(b^2 - (v.v)c)): the same
 * number without the cancellation of -b - sqrt(...) and without dividing by v.v, which may be
 * 0. The discriminant is written as lim^2 - w^2 = (v.v)rs^2 - (v x s)^2 (Lagrange's identity):
 * b^2 and (v.v)c cancel catastrophically when the motion is long and the radii small, while
 * w^2 / (v.v) is the squared miss distance. The line meets the circle when |w| <= lim: the
 * side test relies on exactly this compare (see the top of the file), so it is the compare
 * made here, and the discriminant is clamped at 0 where the squares round below it. Every
 * comparison is written so that NaN fails it. */
static bool circles_first_touch(const sweep_line *l, double rs, double *t) {
    const double c = (l->sx * l->sx + l->sy * l->sy) - rs * rs;
    if (c <= 0.0) { /* touching or overlapping at the start (touching counts) */
        *t = 0.0;
        return true;
    }
    const double b = l->vx * l->sx + l->vy * l->sy;
    if (!(b < 0.0)) /* moving apart, tangentially, or not at all */
        return false;
    if (!(fabs(l->w) <= l->lim)) /* the path's line never comes within rs */
        return false;
    const double disc = l->lim * l->lim - l->w * l->w;
    const double root = c / (-b + sqrt(disc > 0.0 ? disc : 0.0));
    if (!(root <= 1.0)) /* touches only after the motion ends */
        return false;
    *t = root;
    return true;
}

bool c2d_sweep_circles(c2d_circle a, c2d_vec2 move_a, c2d_circle b, c2d_vec2 move_b, c2d_toi *out) {
    if (!(a.radius >= 0.0f && b.radius >= 0.0f)) return false;
    const double sx = (double)a.center.x - b.center.x, sy = (double)a.center.y - b.center.y;
    const double vx = (double)move_a.x - move_b.x, vy = (double)move_a.y - move_b.y;
    if (sx != sx || sy != sy || vx != vx || vy != vy) /* NaN anywhere: no hit */
        return false;
    const double rs = (double)a.radius + b.radius;
    double t = 0.0;
    /* Touching at the start is a hit at t = 0, decided by the overlap query's own test. */
    if (!c2d_overlap_circles(a, b)) {
        const sweep_line l = line_of(sx, sy, vx, vy, rs * sqrt(vx * vx + vy * vy));
        if (!circles_first_touch(&l, rs, &t)) return false;
    }
    if (!out) return true;
    const float tf = (float)t; /* t <= 1, so the float is too */
    const c2d_vec2 pa = {a.center.x + tf * move_a.x, a.center.y + tf * move_a.y};
    const c2d_vec2 pb = {b.center.x + tf * move_b.x, b.center.y + tf * move_b.y};
    const c2d_vec2 up = {0.0f, 1.0f};
    const c2d_vec2 n = c2d_unit_or(pa.x - pb.x, pa.y - pb.y, up);
    out->t = tf;
    out->normal = n;
    out->point.x = pb.x + n.x * b.radius;
    out->point.y = pb.y + n.y * b.radius;
    return true;
}

/* The earliest candidate found so far among a capsule's features: 0 none, 1 the side, 2 the
 * end circle at a, 3 the one at b. Ties keep the earlier feature. */
typedef struct first_touch {
    int feature;
    float t;
    float side; /* for the side: +1 left of the axis a->b, -1 right */
} first_touch;

static void keep_earlier(first_touch *best, int feature, double t, float side) {
    const float tf = (float)t; /* t <= 1, so the float is too */
    if (!best->feature || tf < best->t) {
        best->feature = feature;
        best->t = tf;
        best->side = side;
    }
}

/* The capsule sweep's shared double frame. */
typedef struct sweep_frame {
    double px, py, qx, qy; /* the centre relative to a and to b */
    double dx, dy, len;    /* the axis b - a and its length */
    double mx, my, rs;     /* the motion and the radius sum */
    double lim;            /* rs |M|, the end circles' line test threshold */
    sweep_line la, lb;     /* the path's line relative to a and to b */
} sweep_frame;

/* The side of the capsule facing the circle: the axis line offset by rs toward the circle.
 * With H = D x P = |D| h and V = D x M = |D| vn (D = b - a), the signed distance sigma h
 * falls to rs at t = (sigma H - rs |D|) / -(sigma V). The crossing lies within the span when
 * sigma (M x P) >= rs (M.u) and sigma (M x Q) <= rs (M.u): the end circles' own w, against a
 * threshold clamped into their [-lim, lim], so that every crossing this rejects past an end
 * passes that end circle's line test (top of the file). A centre already within rs of the
 * line (sigma H <= rs |D|: the start test said "apart" by rounding, or the centre lies beyond
 * an end) touches here at t = 0 only if it projects into the span and moves toward the line;
 * beyond an end, only the end circle can be entered. */
static void touch_side(const sweep_frame *f, first_touch *best) {
    if (!(f->len > 0.0)) /* zero-length axis: no sides */
        return;
    const double H = f->dx * f->py - f->dy * f->px;
    const double V = f->dx * f->my - f->dy * f->mx;
    const double sigma = H >= 0.0 ? 1.0 : -1.0;
    const double hs = sigma * H, vs = sigma * V;
    if (!(vs < 0.0)) /* moving away from the line, along it, or NaN */
        return;
    const double gap = hs - f->rs * f->len;
    if (!(gap > 0.0)) {
        const bool within =
            f->dx * f->px + f->dy * f->py >= 0.0 && f->dx * f->qx + f->dy * f->qy <= 0.0;
        if (within) keep_earlier(best, 1, 0.0, (float)sigma);
        return;
    }
    const double t = gap / -vs;
    if (!(t <= 1.0)) return;
    double along = f->rs * ((f->mx * f->dx + f->my * f->dy) / f->len); /* rs (M.u) */
    along = along < f->lim ? along : f->lim;
    along = along > -f->lim ? along : -f->lim;
    if (!(sigma * f->la.w >= along && sigma * f->lb.w <= along)) return;
    /* A guard against false hits: where the path runs so nearly parallel to the axis that the
     * rounding of w puts the crossing far past an end (slopes below about 2^-47 |p - a| / rs),
     * the crossing itself must lie within the span grown by rs / 32, so a side hit is never
     * more than rs (sqrt(1 + 2^-10) - 1) < 2^-11 rs beyond the stadium. */
    const double cx = f->px + t * f->mx, cy = f->py + t * f->my;
    const double at = (cx * f->dx + cy * f->dy) / f->len, slack = f->rs * 0.03125;
    if (at >= -slack && at <= f->len + slack) keep_earlier(best, 1, t, (float)sigma);
}

/* An end circle of the capsule (radius R, static), reached through the path's line l. */
static void touch_end(const sweep_line *l, double rs, int feature, first_touch *best) {
    double t;
    if (circles_first_touch(l, rs, &t)) keep_earlier(best, feature, t, 0.0f);
}

bool c2d_capsule_sweep(float px, float py, float r, float mx, float my, float ax, float ay,
                       float bx, float by, float R, c2d_toi *out) {
    if (!(r >= 0.0f && R >= 0.0f)) return false;
    const c2d_vec2 axis_normal = c2d_axis_normal(ax, ay, bx, by);

    float cx, cy, qx, qy;
    const float d2 = capsule_gap(px, py, ax, ay, bx, by, &cx, &cy, &qx, &qy);
    if (d2 != d2 || mx != mx || my != my) /* NaN anywhere: no hit (an end may be finite) */
        return false;
    /* Touching or overlapping at the start is a hit at t = 0, decided by the overlap query's
     * own test (touching counts). */
    if (radii_overlap(d2, r, R)) {
        if (out) {
            const c2d_vec2 n = c2d_unit_or(qx, qy, axis_normal);
            out->t = 0.0f;
            out->normal = n;
            out->point.x = cx + n.x * R;
            out->point.y = cy + n.y * R;
        }
        return true;
    }
    sweep_frame f;
    f.px = (double)px - ax;
    f.py = (double)py - ay;
    f.qx = (double)px - bx;
    f.qy = (double)py - by;
    f.dx = (double)bx - ax;
    f.dy = (double)by - ay;
    f.len = sqrt(f.dx * f.dx + f.dy * f.dy);
    f.mx = mx;
    f.my = my;
    f.rs = (double)r + R; /* as c2d_sweep_circles() sums it */
    f.lim = f.rs * sqrt(f.mx * f.mx + f.my * f.my);
    f.la = line_of(f.px, f.py, f.mx, f.my, f.lim);
    f.lb = line_of(f.qx, f.qy, f.mx, f.my, f.lim);

    first_touch best = {0, 0.0f, 0.0f};
    touch_side(&f, &best);
    touch_end(&f.la, f.rs, 2, &best);
    touch_end(&f.lb, f.rs, 3, &best);
    if (!best.feature) return false;
    if (!out) return true;
    const float t = best.t;
    const float ex = px + t * mx, ey = py + t * my; /* the centre at the touch */
    c2d_vec2 n, point;
    if (best.feature == 1) {
        n.x = best.side * axis_normal.x;
        n.y = best.side * axis_normal.y;
        float kx, ky;
        segment_closest(ex, ey, ax, ay, bx, by, &kx, &ky);
        point.x = kx + n.x * R;
        point.y = ky + n.y * R;
    } else {
        const float ox = best.feature == 2 ? ax : bx, oy = best.feature == 2 ? ay : by;
        n = c2d_unit_or(ex - ox, ey - oy, axis_normal);
        point.x = ox + n.x * R;
        point.y = oy + n.y * R;
    }
    out->t = t;
    out->normal = n;
    out->point = point;
    return true;
}

bool c2d_sweep_circle_capsule(c2d_circle c, c2d_vec2 move, c2d_capsule k, c2d_toi *out) {
    return c2d_capsule_sweep(c.center.x, c.center.y, c.radius, move.x, move.y, k.a.x, k.a.y, k.b.x,
                             k.b.y, k.radius, out);
}
