/* Kinematic capsules and the sweep against a capsule whose endpoints move (world_kinematic.h
 * has the contract). */
#include "world/world_kinematic.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

c2d_world_rot c2d_world_rot_identity(void) {
    c2d_world_rot q = {1.0f, 0.0f};
    return q;
}

/* (x, y) / |(x, y)|, or the identity when the square is 0 (underflow included) or not finite. */
static c2d_world_rot rot_normalised(float x, float y) {
    float l2 = x * x + y * y;
    if (!(l2 > 0.0f) || !(l2 <= FLT_MAX)) return c2d_world_rot_identity();
    float l = sqrtf(l2);
    c2d_world_rot q = {x / l, y / l};
    return q;
}

c2d_world_rot c2d_world_rot_from(c2d_vec2 dir) {
    return rot_normalised(dir.x, dir.y);
}

c2d_world_rot c2d_world_rot_integrate(c2d_world_rot q, float angle) {
    if (angle == 0.0f) return q; /* not turning keeps q's bytes (no renormalisation by an ulp) */
    /* q + angle * (d/dangle) q, then back to unit length: no sin, no cos. */
    float c = q.c - angle * q.s;
    float s = q.s + angle * q.c;
    return rot_normalised(c, s);
}

c2d_vec2 c2d_world_rot_apply(c2d_world_rot q, c2d_vec2 v) {
    c2d_vec2 r = {q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y};
    return r;
}

void c2d_world_kin_init(c2d_world_kin *k, c2d_capsule shape, c2d_vec2 pivot, c2d_vec2 velocity,
                        float angular_velocity) {
    k->pivot = pivot;
    k->velocity = velocity;
    k->angular_velocity = angular_velocity;
    k->q = c2d_world_rot_identity();
    k->local_a.x = shape.a.x - pivot.x;
    k->local_a.y = shape.a.y - pivot.y;
    k->local_b.x = shape.b.x - pivot.x;
    k->local_b.y = shape.b.y - pivot.y;
    k->radius = shape.radius;
}

c2d_vec2 c2d_world_carry_point(c2d_capsule from, c2d_capsule to, c2d_vec2 p) {
    c2d_vec2 d = {p.x - from.a.x, p.y - from.a.y};
    if (d.x == 0.0f && d.y == 0.0f) return to.a;
    c2d_vec2 e0 = {from.b.x - from.a.x, from.b.y - from.a.y};
    c2d_vec2 e1 = {to.b.x - to.a.x, to.b.y - to.a.y};
    c2d_world_rot r = c2d_world_rot_identity();
    if ((e0.x != 0.0f || e0.y != 0.0f) && (e1.x != 0.0f || e1.y != 0.0f)) {
        c2d_world_rot q0 = c2d_world_rot_from(e0), q1 = c2d_world_rot_from(e1);
        r = (c2d_world_rot){q1.c * q0.c + q1.s * q0.s, q1.s * q0.c - q1.c * q0.s}; /* q1 / q0 */
    }
    c2d_vec2 t = c2d_world_rot_apply(r, d);
    return (c2d_vec2){to.a.x + t.x, to.a.y + t.y};
}

void c2d_world_kin_advance(c2d_world_kin *k, float h) {
    k->pivot.x = k->pivot.x + k->velocity.x * h;
    k->pivot.y = k->pivot.y + k->velocity.y * h;
    k->q = c2d_world_rot_integrate(k->q, k->angular_velocity * h);
}

c2d_capsule c2d_world_kin_shape(const c2d_world_kin *k) {
    c2d_vec2 a = c2d_world_rot_apply(k->q, k->local_a);
    c2d_vec2 b = c2d_world_rot_apply(k->q, k->local_b);
    c2d_capsule s;
    s.a.x = k->pivot.x + a.x;
    s.a.y = k->pivot.y + a.y;
    s.b.x = k->pivot.x + b.x;
    s.b.y = k->pivot.y + b.y;
    s.radius = k->radius;
    return s;
}

/* ---- the sweep ---- */

/* v - v is NaN for NaN and for +-inf, 0 otherwise. */
static bool finite(float v) {
    return v - v == 0.0f;
}

static double dabs(double v) {
    return v < 0.0 ? -v : v;
}

static double dmax(double a, double b) {
    return a > b ? a : b;
}

/* The largest float not above the nonnegative double t. */
static float round_down(double t) {
    float f = (float)t;
    if ((double)f > t) {
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        bits -= 1u; /* f > t >= 0: one ulp toward 0 */
        memcpy(&f, &bits, sizeof f);
    }
    return f;
}

/* The problem in the ball's frame at its start, in double: the ball at the origin, the axis
 * endpoints A(t) = A + t va, B(t) = B + t vb (their moves less the ball's). */
typedef struct sweep_frame {
    double ax, ay, bx, by;     /* endpoints relative to the centre at t = 0 */
    double vax, vay, vbx, vby; /* their moves relative to the ball's */
    double px, py, mx, my;     /* the centre and its move, for the world point and tol */
    double wax, way, wbx, wby; /* the endpoints in world coordinates at t = 0 ... */
    double dax, day, dbx, dby; /* ... and their own moves */
    double rr, R;
} sweep_frame;

/* The closest axis point at time t: relative position (qx, qy), lerp parameter u, distance d. */
typedef struct sweep_state {
    double qx, qy, u, d;
    double ex, ey; /* the axis B(t) - A(t), for the degenerate normal */
} sweep_state;

static sweep_state closest_at(const sweep_frame *f, double t) {
    sweep_state s;
    double ax = f->ax + t * f->vax, ay = f->ay + t * f->vay;
    double bx = f->bx + t * f->vbx, by = f->by + t * f->vby;
    s.ex = bx - ax;
    s.ey = by - ay;
    double l2 = s.ex * s.ex + s.ey * s.ey;
    double u = 0.0;
    if (l2 > 0.0) {
        u = -(ax * s.ex + ay * s.ey) / l2;
        u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    }
    s.u = u;
    s.qx = ax + u * s.ex;
    s.qy = ay + u * s.ey;
    s.d = sqrt(s.qx * s.qx + s.qy * s.qy);
    return s;
}

/* The gap below which the ball counts as touching: a thousandth of the radius sum plus 2^-21
 * of the largest coordinate magnitude over the substep (4 to 8 float ulps of it; also far
 * above the double rounding of the positions at any t, which is below 2^-51 of it). */
static double tolerance(const sweep_frame *f) {
    const double v[12] = {f->px,  f->py,  f->px + f->mx,   f->py + f->my,
                          f->wax, f->way, f->wax + f->dax, f->way + f->day,
                          f->wbx, f->wby, f->wbx + f->dbx, f->wby + f->dby};
    double m = 0.0;
    for (int i = 0; i < 12; i++)
        m = dmax(m, dabs(v[i]));
    return 1e-3 * f->rr + m * 0x1p-21;
}

/* The unit normal from the capsule toward the ball: from the closest point to the centre, or
 * the axis's left perpendicular when the centre is on the axis, (0, 1) for a point axis. */
static void normal_of(const sweep_state *s, double *nx, double *ny) {
    if (s->d > 0.0) {
        *nx = -s->qx / s->d;
        *ny = -s->qy / s->d;
        return;
    }
    double l = sqrt(s->ex * s->ex + s->ey * s->ey);
    if (l > 0.0) {
        *nx = -s->ey / l;
        *ny = s->ex / l;
    } else {
        *nx = 0.0;
        *ny = 1.0;
    }
}

/* The time after t at which the end (x + t vx, y + t vy)'s offset along n falls to `target`
 * (it is at least d > target now): infinite when it does not approach along n. */
static double reach(double t, double x, double y, double vx, double vy, double nx, double ny,
                    double target) {
    double along = (x + t * vx) * nx + (y + t * vy) * ny;
    double approach = -(vx * nx + vy * ny);
    if (!(approach > 0.0)) return INFINITY;
    return (along - target) / approach;
}

static void write_hit(const sweep_frame *f, const sweep_state *s, double t, c2d_toi *out) {
    double nx, ny;
    normal_of(s, &nx, &ny);
    out->t = round_down(t);
    out->normal.x = (float)nx;
    out->normal.y = (float)ny;
    /* centre at t, plus the closest axis point relative to it, plus R along the normal */
    out->point.x = (float)((f->px + t * f->mx) + s->qx + nx * f->R);
    out->point.y = (float)((f->py + t * f->my) + s->qy + ny * f->R);
}

/* ---- the exact solve, for the paths conservative advancement crosses slowly ---- */

/* The side's function P(tau) = c^2 - rho^2 E, c = cross(A + tau va, B + tau vb) (the axis
 * line's distance to the centre times |e|), E = |e|^2, e = B - A at tau: <= 0 where the line
 * is within rho. Its derivatives are evaluated from the positions at tau, never from
 * expanded coefficients, so the rounding stays relative to the coordinates, not to their
 * fourth powers. */
typedef struct side_fn {
    double ax, ay, bx, by, vax, vay, vbx, vby, r2;
} side_fn;

/* The order-th derivative of P at tau (0 <= order <= 4). */
static double side_at(const side_fn *g, int order, double tau) {
    double ax = g->ax + tau * g->vax, ay = g->ay + tau * g->vay;
    double bx = g->bx + tau * g->vbx, by = g->by + tau * g->vby;
    double ex = bx - ax, ey = by - ay, dx = g->vbx - g->vax, dy = g->vby - g->vay;
    double c = ax * by - ay * bx;
    double c1 = (g->vax * by - g->vay * bx) + (ax * g->vby - ay * g->vbx);
    double c2 = 2.0 * (g->vax * g->vby - g->vay * g->vbx);
    switch (order) {
    case 0:
        return c * c - g->r2 * (ex * ex + ey * ey);
    case 1:
        return 2.0 * c * c1 - g->r2 * (2.0 * (ex * dx + ey * dy));
    case 2:
        return 2.0 * c1 * c1 + 2.0 * c * c2 - g->r2 * (2.0 * (dx * dx + dy * dy));
    case 3:
        return 6.0 * c1 * c2;
    default:
        return 6.0 * c2 * c2;
    }
}

/* Bisects [lo, hi], where the order-th derivative is > 0 at lo and <= 0 at hi (`falling`) or
 * the reverse, for at most 64 halvings: returns the end on lo's side, so a falling root is
 * never passed. */
static double bisect(const side_fn *g, int order, double lo, double hi, bool falling) {
    for (int i = 0; i < 64; i++) {
        double mid = 0.5 * (lo + hi);
        if (!(mid > lo && mid < hi)) break;
        if ((side_at(g, order, mid) > 0.0) == falling)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The points in (lo, hi) where the order-th derivative changes sign ("> 0" against "<= 0"),
 * ascending, at most 4 - order of them: the next derivative's sign changes cut [lo, hi] into
 * pieces on which this one is monotonic, and each piece whose ends differ is bisected.
 * falls[k] says it goes from > 0 to <= 0. */
static int sign_changes(const side_fn *g, int order, double lo, double hi, double *at,
                        bool *falls) {
    if (order == 4) return 0; /* a constant */
    double cut[6];
    bool unused[4];
    int n = 0, nc = sign_changes(g, order + 1, lo, hi, cut + 1, unused);
    cut[0] = lo;
    cut[nc + 1] = hi;
    for (int k = 0; k <= nc; k++) {
        bool x = side_at(g, order, cut[k]) > 0.0, y = side_at(g, order, cut[k + 1]) > 0.0;
        if (x != y) {
            at[n] = bisect(g, order, cut[k], cut[k + 1], x);
            falls[n++] = x;
        }
    }
    return n;
}

/* The first tau in (0, span] at which the point P + tau v (now farther than rho) comes within
 * rho of the origin, the lower end of its double bracket; INFINITY when none. */
static double disc_entry(double px, double py, double vx, double vy, double rho) {
    double c = px * px + py * py - rho * rho;
    double b = px * vx + py * vy;
    if (!(b < 0.0)) return INFINITY;
    double w = vx * py - vy * px, l = rho * rho * (vx * vx + vy * vy);
    double disc = l - w * w;
    if (disc < 0.0) return INFINITY;
    return c / (-b + sqrt(disc));
}

/* The first touch after t (where the gap exceeds tol) of the capsule inflated to
 * rho = r + R + tol / 2, exactly: the two end discs by their quadratics, the side by the
 * sign changes of P (side_fn) at a time the foot of the centre lies within the axis. Entering
 * the side region through an end passes an end disc first, so those cover every touch. Every
 * time is the lower end of a double bracket. Returns the time, or INFINITY when there is none
 * up to 1. */
static double exact_entry(const sweep_frame *f, double t, double rho) {
    side_fn g;
    g.ax = f->ax + t * f->vax;
    g.ay = f->ay + t * f->vay;
    g.bx = f->bx + t * f->vbx;
    g.by = f->by + t * f->vby;
    g.vax = f->vax;
    g.vay = f->vay;
    g.vbx = f->vbx;
    g.vby = f->vby;
    g.r2 = rho * rho;
    double span = 1.0 - t;
    double best = disc_entry(g.ax, g.ay, g.vax, g.vay, rho);
    double tb = disc_entry(g.bx, g.by, g.vbx, g.vby, rho);
    best = tb < best ? tb : best;
    double at[4];
    bool falls[4];
    int n = sign_changes(&g, 0, 0.0, best < span ? best : span, at, falls);
    for (int k = 0; k < n; k++) {
        if (!falls[k]) continue;
        double tau = at[k];
        double qx = g.ax + tau * g.vax, qy = g.ay + tau * g.vay;
        double wx = (g.bx + tau * g.vbx) - qx, wy = (g.by + tau * g.vby) - qy;
        double l2 = wx * wx + wy * wy, along = -(qx * wx + qy * wy);
        if (l2 > 0.0 && along >= 0.0 && along <= l2) {
            best = tau < best ? tau : best;
            break;
        }
    }
    return best <= span ? t + best : INFINITY;
}

bool c2d_world_sweep_morphing_counted(c2d_circle c, c2d_vec2 move, c2d_capsule k0, c2d_capsule k1,
                                      c2d_toi *out, int *iterations, int exact_after) {
    if (iterations) *iterations = 0;
    const float in[] = {c.center.x, c.center.y, c.radius,  move.x, move.y, k0.a.x, k0.a.y,
                        k0.b.x,     k0.b.y,     k0.radius, k1.a.x, k1.a.y, k1.b.x, k1.b.y};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        if (!finite(in[i])) return false;
    if (c.radius < 0.0f || k0.radius < 0.0f) return false;

    sweep_frame f;
    f.px = c.center.x;
    f.py = c.center.y;
    f.mx = move.x;
    f.my = move.y;
    f.wax = k0.a.x;
    f.way = k0.a.y;
    f.wbx = k0.b.x;
    f.wby = k0.b.y;
    f.dax = (double)k1.a.x - k0.a.x;
    f.day = (double)k1.a.y - k0.a.y;
    f.dbx = (double)k1.b.x - k0.b.x;
    f.dby = (double)k1.b.y - k0.b.y;
    f.ax = f.wax - f.px;
    f.ay = f.way - f.py;
    f.bx = f.wbx - f.px;
    f.by = f.wby - f.py;
    f.vax = f.dax - f.mx;
    f.vay = f.day - f.my;
    f.vbx = f.dbx - f.mx;
    f.vby = f.dby - f.my;
    f.R = k0.radius;
    f.rr = (double)c.radius + f.R;

    const double tol = tolerance(&f);
    /* The exact solve's rounding moves its distances by about 2^-52 size^2 / |e| (size the
     * largest relative coordinate or move, |e| the axis length, at least sqrt((r + R) tol)
     * where the side matters): used only where size is within 2^18 of tol, which keeps that
     * far below tol / 2. */
    double size = 0.0;
    const double rel[8] = {f.ax, f.ay, f.bx, f.by, f.vax, f.vay, f.vbx, f.vby};
    for (int i = 0; i < 8; i++)
        size = dmax(size, dabs(rel[i]));
    const bool tame = size <= tol * 0x1p18;
    double t = 0.0;
    for (int step = 0;; step++) {
        sweep_state s = closest_at(&f, t);
        double gap = s.d - f.rr;
        if (gap <= tol) {
            if (step == 0) {
                /* In contact at the start: a hit only when the distance decreases, i.e. the
                 * closest point's velocity relative to the ball points into the ball. */
                double vx = f.vax + s.u * (f.vbx - f.vax);
                double vy = f.vay + s.u * (f.vby - f.vay);
                double nx, ny;
                normal_of(&s, &nx, &ny);
                if (!(nx * vx + ny * vy > 0.0)) return false;
            }
            write_hit(&f, &s, t, out);
            return true;
        }
        if (step == exact_after && tame) {
            /* slow progress (a closest point near one end while the other sweeps toward the
             * ball, as by a flipper's hinge): solve the rest exactly */
            double te = exact_entry(&f, t, f.rr + 0.5 * tol);
            if (!(te <= 1.0)) return false;
            sweep_state e = closest_at(&f, te);
            write_hit(&f, &e, te, out);
            return true;
        }
        if (step == C2D_WORLD_SWEEP_MAX_ITERATIONS) {
            write_hit(&f, &s, t, out); /* conservative: not later than the touch */
            return true;
        }
        /* gap > tol >= 0, so d > 0. The axis is convex, so at t it lies beyond d along
         * n = q / d: A.n >= d and B.n >= d. After s more an axis point's offset along n is the
         * lerp of the ends' (A + s va).n and (B + s vb).n, so the distance is at least the
         * smaller of those two; step to where that reaches r + R + tol / 2. */
        double nx = s.qx / s.d, ny = s.qy / s.d;
        double target = f.rr + 0.5 * tol;
        double step_a = reach(t, f.ax, f.ay, f.vax, f.vay, nx, ny, target);
        double step_b = reach(t, f.bx, f.by, f.vbx, f.vby, nx, ny, target);
        double ds = step_a < step_b ? step_a : step_b;
        if (!(ds <= 1.0)) return false; /* neither end comes near enough along n: no touch */
        t += ds;
        if (iterations) *iterations = step + 1;
        if (!(t <= 1.0)) return false;
    }
}

bool c2d_world_sweep_circle_morphing_capsule(c2d_circle c, c2d_vec2 move, c2d_capsule k0,
                                             c2d_capsule k1, c2d_toi *out) {
    return c2d_world_sweep_morphing_counted(c, move, k0, k1, out, NULL,
                                            C2D_WORLD_SWEEP_EXACT_AFTER);
}
