/* Kinematic capsules (src/world/world_kinematic.h): the rotation that turns without libm, the
 * pose of a turning capsule, and the sweep of a ball against a capsule whose endpoints both
 * move, against a double reference that samples the substep finely and bisects the first
 * touch. The promise checked everywhere: the reported t is never later than the first touch,
 * the gap at the reported t is at most the tolerance, and a path that touches is never
 * reported as no hit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "collide2d/query.h"
#include "world/world_kinematic.h"

/* ---- a fixed-seed generator ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static double uniform(double lo, double hi) {
    return lo + (hi - lo) * ((double)(rng_next() >> 11) * 0x1p-53);
}

static c2d_vec2 v2(float x, float y) {
    c2d_vec2 v = {x, y};
    return v;
}

static c2d_capsule capsule(float ax, float ay, float bx, float by, float r) {
    c2d_capsule k = {{ax, ay}, {bx, by}, r};
    return k;
}

static c2d_circle circle(float x, float y, float r) {
    c2d_circle c = {{x, y}, r};
    return c;
}

/* ---- the double reference ---- */

typedef struct sweep_in {
    c2d_circle c;
    c2d_vec2 move;
    c2d_capsule k0, k1;
} sweep_in;

/* Distance from the centre to the axis at time t, with the closest axis point. */
static double ref_dist(const sweep_in *s, double t, double *qx, double *qy) {
    double px = (double)s->c.center.x + t * s->move.x;
    double py = (double)s->c.center.y + t * s->move.y;
    double ax = (double)s->k0.a.x + t * ((double)s->k1.a.x - s->k0.a.x);
    double ay = (double)s->k0.a.y + t * ((double)s->k1.a.y - s->k0.a.y);
    double bx = (double)s->k0.b.x + t * ((double)s->k1.b.x - s->k0.b.x);
    double by = (double)s->k0.b.y + t * ((double)s->k1.b.y - s->k0.b.y);
    double ex = bx - ax, ey = by - ay, l2 = ex * ex + ey * ey, u = 0.0;
    if (l2 > 0.0) {
        u = ((px - ax) * ex + (py - ay) * ey) / l2;
        u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    }
    double cx = ax + u * ex, cy = ay + u * ey;
    if (qx) {
        *qx = cx;
        *qy = cy;
    }
    return sqrt((px - cx) * (px - cx) + (py - cy) * (py - cy));
}

static double ref_rr(const sweep_in *s) {
    return (double)s->c.radius + s->k0.radius;
}

/* The tolerance the sweep promises, recomputed here: 1e-3 (r + R) + 2^-21 of the largest
 * coordinate magnitude over the substep (t is unused: the same for the whole substep). */
static double ref_tol(const sweep_in *s, double t) {
    (void)t;
    double v[12] = {s->c.center.x,
                    s->c.center.y,
                    (double)s->c.center.x + s->move.x,
                    (double)s->c.center.y + s->move.y,
                    s->k0.a.x,
                    s->k0.a.y,
                    s->k0.b.x,
                    s->k0.b.y,
                    s->k1.a.x,
                    s->k1.a.y,
                    s->k1.b.x,
                    s->k1.b.y};
    double m = 0.0;
    for (int i = 0; i < 12; i++)
        m = fabs(v[i]) > m ? fabs(v[i]) : m;
    return 1e-3 * ref_rr(s) + m * 0x1p-21;
}

enum { SAMPLES = 20000 };

/* The first touch (distance <= r + R) by sampling and bisection: the returned time is at or
 * after a touch (the bracket's upper end); -1 when no sample touches. *min_gap: the smallest
 * sampled gap. */
static double ref_first_touch(const sweep_in *s, double *min_gap) {
    double rr = ref_rr(s), prev = 0.0;
    *min_gap = INFINITY;
    for (int i = 0; i <= SAMPLES; i++) {
        double t = (double)i / SAMPLES;
        double g = ref_dist(s, t, NULL, NULL) - rr;
        if (g < *min_gap) *min_gap = g;
        if (g <= 0.0) {
            if (i == 0) return 0.0;
            double lo = prev, hi = t;
            for (int k = 0; k < 60; k++) {
                double mid = 0.5 * (lo + hi);
                if (ref_dist(s, mid, NULL, NULL) - rr <= 0.0)
                    hi = mid;
                else
                    lo = mid;
            }
            return hi;
        }
        prev = t;
    }
    return -1.0;
}

/* Checks one hit's normal and point against the reference at the hit's time. */
static void check_hit_shape(const sweep_in *s, const c2d_toi *h) {
    double qx, qy, t = h->t;
    double d = ref_dist(s, t, &qx, &qy);
    double nl = sqrt((double)h->normal.x * h->normal.x + (double)h->normal.y * h->normal.y);
    assert_true(fabs(nl - 1.0) < 1e-6);
    double px = (double)s->c.center.x + t * s->move.x;
    double py = (double)s->c.center.y + t * s->move.y;
    double scale = fabs(px) + fabs(py) + fabs(qx) + fabs(qy) + 1.0;
    if (d > 1e-3 * ref_rr(s) + 1e-9 * scale) { /* a direction to compare with */
        double nx = (px - qx) / d, ny = (py - qy) / d;
        assert_true(fabs(nx - h->normal.x) < 1e-4 && fabs(ny - h->normal.y) < 1e-4);
    }
    double ex = qx + (double)h->normal.x * s->k0.radius;
    double ey = qy + (double)h->normal.y * s->k0.radius;
    assert_true(fabs(ex - h->point.x) < 1e-5 * scale && fabs(ey - h->point.y) < 1e-5 * scale);
}

/* Statistics of a batch of cases. */
typedef struct sweep_stats {
    int cases, skipped_start, ref_hits, hits, capped, grazing_early;
    long iterations;
    int max_iterations;
    double worst_early; /* max of (t_ref - t) * L / tol over touching cases */
} sweep_stats;

/* One case against the reference: skipped (counted) when it starts within the tolerance. */
static int exact_after = C2D_WORLD_SWEEP_EXACT_AFTER;

static void check_case(const sweep_in *s, sweep_stats *st) {
    st->cases++;
    double rr = ref_rr(s);
    if (ref_dist(s, 0.0, NULL, NULL) - rr <= ref_tol(s, 0.0)) {
        st->skipped_start++;
        return;
    }
    double min_gap;
    double tr = ref_first_touch(s, &min_gap);
    c2d_toi h;
    int it = 0;
    bool hit = c2d_world_sweep_morphing_counted(s->c, s->move, s->k0, s->k1, &h, &it, exact_after);
    st->iterations += it;
    if (it > st->max_iterations) st->max_iterations = it;
    if (tr >= 0.0) {
        st->ref_hits++;
        if (!hit) fprintf(stderr, "missed: ref t %.9g\n", tr);
        assert_true(hit);
        if (!((double)h.t <= tr + 1e-12))
            fprintf(stderr, "late: t %.9g ref %.9g\n", (double)h.t, tr);
        assert_true((double)h.t <= tr + 1e-12);
        double L = 0.0;
        double dax = ((double)s->k1.a.x - s->k0.a.x) - s->move.x;
        double day = ((double)s->k1.a.y - s->k0.a.y) - s->move.y;
        double dbx = ((double)s->k1.b.x - s->k0.b.x) - s->move.x;
        double dby = ((double)s->k1.b.y - s->k0.b.y) - s->move.y;
        L = sqrt(dax * dax + day * day);
        double lb = sqrt(dbx * dbx + dby * dby);
        L = lb > L ? lb : L;
        double early = (tr - h.t) * L / ref_tol(s, h.t);
        if (early > st->worst_early) st->worst_early = early;
        if (early > 1.01) st->grazing_early++;
    }
    if (hit) {
        st->hits++;
        if (it == C2D_WORLD_SWEEP_MAX_ITERATIONS &&
            ref_dist(s, h.t, NULL, NULL) - rr > ref_tol(s, h.t)) {
            st->capped++;
            fprintf(stderr,
                    "capped (early by design): gap %.9g tol %.9g ref %.9g min gap %.9g case c %a "
                    "%a r %a move %a %a "
                    "k0 %a %a %a %a R %a k1 %a %a %a %a\n",
                    ref_dist(s, h.t, NULL, NULL) - rr, ref_tol(s, 0), tr, min_gap, s->c.center.x,
                    s->c.center.y, s->c.radius, s->move.x, s->move.y, s->k0.a.x, s->k0.a.y,
                    s->k0.b.x, s->k0.b.y, s->k0.radius, s->k1.a.x, s->k1.a.y, s->k1.b.x, s->k1.b.y);
            return; /* a capped answer is early by design; counted, expected never */
        }
        assert_true(h.t >= 0.0f && h.t <= 1.0f);
        double gap = ref_dist(s, h.t, NULL, NULL) - rr;
        double tol = ref_tol(s, h.t);
        if (!(gap <= tol * (1.0 + 1e-9) + 1e-12))
            fprintf(stderr, "early: t %.9g gap %.9g tol %.9g ref %.9g it %d\n", (double)h.t, gap,
                    tol, tr, it);
        if (!(gap <= tol * (1.0 + 1e-9) + 1e-12))
            fprintf(stderr, "case c %a %a r %a move %a %a k0 %a %a %a %a R %a k1 %a %a %a %a\n",
                    s->c.center.x, s->c.center.y, s->c.radius, s->move.x, s->move.y, s->k0.a.x,
                    s->k0.a.y, s->k0.b.x, s->k0.b.y, s->k0.radius, s->k1.a.x, s->k1.a.y, s->k1.b.x,
                    s->k1.b.y);
        assert_true(gap <= tol * (1.0 + 1e-9) + 1e-12);
        check_hit_shape(s, &h);
    }
}

static void print_stats(const char *name, const sweep_stats *st) {
    printf("# %s: %d cases, %d start within tol (skipped), %d touch (reference), %d hits, "
           "%d capped, iterations mean %.2f max %d, worst (t_ref - t) L / tol %.3f (%d above 1: "
           "grazing)\n",
           name, st->cases, st->skipped_start, st->ref_hits, st->hits, st->capped,
           (double)st->iterations / (st->cases - st->skipped_start), st->max_iterations,
           st->worst_early, st->grazing_early);
}

/* ---- rotation ---- */

static double rot_angle_between(c2d_world_rot p, c2d_world_rot q) {
    double cr = (double)p.c * q.s - (double)p.s * q.c;
    double dt = (double)p.c * q.c + (double)p.s * q.s;
    return atan2(cr, dt);
}

static void rotation_angle(void **state) {
    (void)state;
    const float w = 30.0f, h = 1.0f / 480.0f;
    const float step = w * h; /* 0.0625 */
    const int counts[] = {1, 48, 480, 4800};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        int n = counts[k];
        c2d_world_rot q = c2d_world_rot_identity();
        double turned = 0.0;
        for (int i = 0; i < n; i++) {
            c2d_world_rot next = c2d_world_rot_integrate(q, step);
            turned += rot_angle_between(q, next);
            q = next;
        }
        double want = (double)n * step;
        double err = want - turned;
        double bound = n * ((double)step * step * step / 3.0) * 1.01 + n * 1e-7;
        printf("# %d substeps at 30 rad/s: turned %.9f of %.9f (lag %.3g, bound %.3g)\n", n, turned,
               want, err, bound);
        assert_true(err >= 0.0 && err <= bound);
        /* per step the angle is atan(step) */
        assert_true(fabs(turned - n * atan((double)step)) < n * 2e-7);
    }
}

static void rotation_unit(void **state) {
    (void)state;
    c2d_world_rot q = c2d_world_rot_identity();
    double worst = 0.0;
    for (int i = 0; i < 100000; i++) {
        float a = (float)uniform(-0.1, 0.1);
        q = c2d_world_rot_integrate(q, a);
        double l = sqrt((double)q.c * q.c + (double)q.s * q.s);
        if (fabs(l - 1.0) > worst) worst = fabs(l - 1.0);
    }
    printf("# |q| - 1 over 100,000 steps: at most %.3g\n", worst);
    assert_true(worst <= 1e-6);
}

static void rotation_zero_and_bad(void **state) {
    (void)state;
    c2d_world_rot q = c2d_world_rot_from(v2(3.0f, 4.0f));
    assert_true(q.c == 0.6f && fabsf(q.s - 0.8f) <= 1e-7f);
    c2d_world_rot z = c2d_world_rot_integrate(q, 0.0f);
    assert_memory_equal(&z, &q, sizeof q);
    z = c2d_world_rot_integrate(q, -0.0f);
    assert_memory_equal(&z, &q, sizeof q);
    c2d_world_rot id = c2d_world_rot_identity();
    z = c2d_world_rot_from(v2(0.0f, 0.0f));
    assert_memory_equal(&z, &id, sizeof id);
    z = c2d_world_rot_from(v2(NAN, 1.0f));
    assert_memory_equal(&z, &id, sizeof id);
    z = c2d_world_rot_integrate(q, NAN);
    assert_memory_equal(&z, &id, sizeof id);
    /* a quarter turn by apply */
    c2d_vec2 r = c2d_world_rot_apply(c2d_world_rot_from(v2(0.0f, 1.0f)), v2(2.0f, 0.0f));
    assert_true(r.x == 0.0f && r.y == 2.0f);
}

static void kinematic_pose(void **state) {
    (void)state;
    /* a flipper hinged at its end a, turning up at 30 rad/s, for 48 substeps of 1/480 s */
    c2d_world_kin k;
    c2d_capsule shape = capsule(-3.0f, 1.0f, 0.0f, 1.0f, 0.25f);
    c2d_world_kin_init(&k, shape, v2(-3.0f, 1.0f), v2(0.0f, 0.0f), 30.0f);
    c2d_capsule s0 = c2d_world_kin_shape(&k);
    assert_memory_equal(&s0, &shape, sizeof shape);
    for (int i = 0; i < 48; i++)
        c2d_world_kin_advance(&k, 1.0f / 480.0f);
    c2d_capsule s = c2d_world_kin_shape(&k);
    double angle = 48 * atan(0.0625);
    assert_true(s.a.x == -3.0f && s.a.y == 1.0f && s.radius == 0.25f);
    assert_true(fabs(s.b.x - (-3.0 + 3.0 * cos(angle))) < 1e-5);
    assert_true(fabs(s.b.y - (1.0 + 3.0 * sin(angle))) < 1e-5);
    /* the pivot's velocity moves it by v h a substep */
    c2d_world_kin_init(&k, shape, v2(-1.5f, 1.0f), v2(4.0f, -2.0f), 0.0f);
    for (int i = 0; i < 8; i++)
        c2d_world_kin_advance(&k, 0.125f);
    s = c2d_world_kin_shape(&k);
    assert_true(s.a.x == 1.0f && s.a.y == -1.0f && s.b.x == 4.0f && s.b.y == -1.0f);
}

/* c2d_world_carry_point on worked examples: a translation, a quarter turn from an axis along x
 * and from one along y (the turn is the axes' difference, not their sum), an axis of no length
 * (translation only), and the point at from.a (exactly to.a). */
static void carry_point(void **state) {
    (void)state;
    const c2d_capsule from = capsule(0.0f, 0.0f, 2.0f, 0.0f, 0.5f);
    c2d_vec2 p = c2d_world_carry_point(from, capsule(5.0f, 5.0f, 7.0f, 5.0f, 0.5f), v2(1.0f, 0.0f));
    assert_float_equal(p.x, 6.0f, 1e-6f);
    assert_float_equal(p.y, 5.0f, 1e-6f);
    const c2d_capsule turned = capsule(0.0f, 0.0f, 0.0f, 2.0f, 0.5f); /* a quarter turn */
    p = c2d_world_carry_point(from, turned, v2(1.0f, 0.0f));
    assert_float_equal(p.x, 0.0f, 1e-6f);
    assert_float_equal(p.y, 1.0f, 1e-6f);
    p = c2d_world_carry_point(from, turned, v2(0.0f, -1.0f));
    assert_float_equal(p.x, 1.0f, 1e-6f);
    assert_float_equal(p.y, 0.0f, 1e-6f);
    const c2d_capsule up = capsule(0.0f, 0.0f, 0.0f, 2.0f, 0.5f);
    p = c2d_world_carry_point(up, capsule(0.0f, 0.0f, -2.0f, 0.0f, 0.5f), v2(1.0f, 0.0f));
    assert_float_equal(p.x, 0.0f, 1e-6f); /* up to left: a quarter turn, (1, 0) to (0, 1) */
    assert_float_equal(p.y, 1.0f, 1e-6f);
    const c2d_capsule dot = capsule(1.0f, 1.0f, 1.0f, 1.0f, 0.5f);
    p = c2d_world_carry_point(dot, capsule(3.0f, 4.0f, 3.0f, 4.0f, 0.5f), v2(2.0f, 1.0f));
    assert_float_equal(p.x, 4.0f, 1e-6f);
    assert_float_equal(p.y, 4.0f, 1e-6f);
    const c2d_capsule far = capsule(1e4f + 0.3f, -7.1f, 1e4f + 2.9f, 3.3f, 0.5f);
    p = c2d_world_carry_point(from, far, from.a);
    assert_memory_equal(&p, &far.a, sizeof p);
}

/* ---- the sweep ---- */

/* A random case: a ball, a capsule, and one of a static capsule, a rigid turn about a pivot
 * (a flipper's substep, exact cos/sin), or any linear move of each endpoint. */
static sweep_in random_case(int kind, float offset) {
    sweep_in s;
    double cx = uniform(-3, 3), cy = uniform(-3, 3);
    double r = uniform(0.05, 1.0);
    double ax = uniform(-3, 3), ay = uniform(-3, 3);
    double len = rng_next() % 10 == 0 ? 0.0 : uniform(0.0, 3.0);
    double th = uniform(-3.2, 3.2);
    double bx = ax + len * cos(th), by = ay + len * sin(th);
    double R = rng_next() % 10 == 0 ? 0.0 : uniform(0.0, 0.6);
    double a1x = ax, a1y = ay, b1x = bx, b1y = by;
    if (kind == 1) {
        double px = ax, py = ay;
        if (rng_next() % 2) {
            px = uniform(-3, 3);
            py = uniform(-3, 3);
        }
        double ang = uniform(-0.5, 0.5), c = cos(ang), sn = sin(ang);
        double tx = rng_next() % 5 == 0 ? uniform(-0.5, 0.5) : 0.0;
        double ty = rng_next() % 5 == 0 ? uniform(-0.5, 0.5) : 0.0;
        a1x = px + c * (ax - px) - sn * (ay - py) + tx;
        a1y = py + sn * (ax - px) + c * (ay - py) + ty;
        b1x = px + c * (bx - px) - sn * (by - py) + tx;
        b1y = py + sn * (bx - px) + c * (by - py) + ty;
    } else if (kind == 2) {
        a1x += uniform(-2, 2);
        a1y += uniform(-2, 2);
        b1x += uniform(-2, 2);
        b1y += uniform(-2, 2);
    }
    double ml = uniform(0.0, 6.0), mx, my;
    if (rng_next() % 2) { /* aimed near the capsule */
        double gx = 0.5 * (ax + bx) + uniform(-1, 1) - cx,
               gy = 0.5 * (ay + by) + uniform(-1, 1) - cy;
        double gl = sqrt(gx * gx + gy * gy) + 1e-9;
        mx = gx / gl * ml;
        my = gy / gl * ml;
    } else {
        double mth = uniform(-3.2, 3.2);
        mx = ml * cos(mth);
        my = ml * sin(mth);
    }
    if (rng_next() % 10 == 0) {
        mx = 0.0;
        my = 0.0;
    }
    s.c = circle((float)cx + offset, (float)cy + offset, (float)r);
    s.move = v2((float)mx, (float)my);
    s.k0 = capsule((float)ax + offset, (float)ay + offset, (float)bx + offset, (float)by + offset,
                   (float)R);
    s.k1 = capsule((float)a1x + offset, (float)a1y + offset, (float)b1x + offset,
                   (float)b1y + offset, (float)R);
    return s;
}

/* The random cases with the exact solve after `after` steps (the default, 0: always, or
 * never). */
static void sweep_random_with(int after, const char *mode) {
    exact_after = after;
    const float offsets[] = {0.0f, 16384.0f, -16384.0f};
    for (size_t o = 0; o < 3; o++) {
        for (int kind = 0; kind < 3; kind++) {
            sweep_stats st;
            memset(&st, 0, sizeof st);
            int n = o == 0 ? 1500 : 400;
            for (int i = 0; i < n; i++) {
                sweep_in s = random_case(kind, offsets[o]);
                check_case(&s, &st);
            }
            char name[96];
            snprintf(name, sizeof name, "%s, %s, offset %g", mode,
                     kind == 0 ? "static" : (kind == 1 ? "turning" : "morphing"),
                     (double)offsets[o]);
            print_stats(name, &st);
            /* the cap (early by design, never late: checked) only without the exact solve */
            assert_true(after > C2D_WORLD_SWEEP_MAX_ITERATIONS ? st.capped <= n / 500
                                                               : st.capped == 0);
            assert_true(st.ref_hits > n / 10);
        }
    }
    exact_after = C2D_WORLD_SWEEP_EXACT_AFTER;
}

static void sweep_random(void **state) {
    (void)state;
    sweep_random_with(C2D_WORLD_SWEEP_EXACT_AFTER, "default");
}

static void sweep_random_exact(void **state) {
    (void)state;
    sweep_random_with(0, "exact");
}

static void sweep_random_advancing(void **state) {
    (void)state;
    sweep_random_with(C2D_WORLD_SWEEP_MAX_ITERATIONS + 1, "advancing only");
}

/* A static capsule: the same touch as c2d_sweep_circle_capsule within the tolerance. */
static void sweep_static_agrees(void **state) {
    (void)state;
    int both = 0;
    for (int i = 0; i < 3000; i++) {
        sweep_in s = random_case(0, i % 4 == 0 ? 16384.0f : 0.0f);
        if (ref_dist(&s, 0.0, NULL, NULL) - ref_rr(&s) <= ref_tol(&s, 0.0)) continue;
        c2d_toi a, b;
        bool ha = c2d_world_sweep_circle_morphing_capsule(s.c, s.move, s.k0, s.k1, &a);
        bool hb = c2d_sweep_circle_capsule(s.c, s.move, s.k0, &b);
        if (hb) {
            assert_true(ha);
            both++;
            assert_true(a.t <= b.t);
            /* earlier only by the tolerance: the gap at a.t is at most tol */
            double gap = ref_dist(&s, a.t, NULL, NULL) - ref_rr(&s);
            assert_true(gap <= ref_tol(&s, a.t) * (1.0 + 1e-9));
            check_hit_shape(&s, &a);
        } else if (ha) {
            double gap = ref_dist(&s, a.t, NULL, NULL) - ref_rr(&s);
            assert_true(gap <= ref_tol(&s, a.t) * (1.0 + 1e-9)); /* grazing within tol */
        }
    }
    printf("# static capsule: %d hits of c2d_sweep_circle_capsule matched\n", both);
    assert_true(both > 500);
}

/* One substep of a flipper hinged at (0, 0), 1 long, radius 0.1, turning at w rad/s. */
static void flipper_substep(float w, float h, c2d_capsule *k0, c2d_capsule *k1) {
    c2d_world_kin k;
    c2d_world_kin_init(&k, capsule(0.0f, 0.0f, 1.0f, 0.0f, 0.1f), v2(0.0f, 0.0f), v2(0.0f, 0.0f),
                       w);
    *k0 = c2d_world_kin_shape(&k);
    c2d_world_kin_advance(&k, h);
    *k1 = c2d_world_kin_shape(&k);
}

static void sweep_flipper_tip(void **state) {
    (void)state;
    /* a ball at rest 0.01 above the flipper's tip; the flipper turns up at 30 rad/s for one
     * substep of 1/480 s (the tip rises about 0.0625): hit, normal from capsule to ball */
    c2d_capsule k0, k1;
    flipper_substep(30.0f, 1.0f / 480.0f, &k0, &k1);
    const float xs[] = {1.0f, 0.98f, 0.9f, 0.5f, 1.05f};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        float r = 0.2f;
        sweep_in s = {circle(xs[i], 0.1f + r + 0.01f, r), v2(0.0f, 0.0f), k0, k1};
        if (xs[i] > 1.0f) /* beyond the tip: 0.01 from the end cap */
            s.c.center.y = sqrtf((0.31f * 0.31f) - (xs[i] - 1.0f) * (xs[i] - 1.0f));
        double min_gap, tr = ref_first_touch(&s, &min_gap);
        c2d_toi hit;
        int it;
        bool ok = c2d_world_sweep_morphing_counted(s.c, s.move, k0, k1, &hit, &it,
                                                   C2D_WORLD_SWEEP_EXACT_AFTER);
        printf("# flipper at 30 rad/s, ball at x %.2f: t %.6f (reference %.6f), %d steps\n",
               (double)xs[i], (double)hit.t, tr, it);
        assert_true(tr > 0.0 && ok);
        assert_true(hit.t <= tr && hit.t > 0.0f);
        assert_true(hit.normal.y > 0.9f);
        check_case(&s, &(sweep_stats){0});
        /* a ball already resting on it (touching) is pushed: a hit at t = 0, normal up */
        s.c.center.y -= 0.01f;
        if (xs[i] > 1.0f) s.c.center.y = sqrtf((0.3f * 0.3f) - (xs[i] - 1.0f) * (xs[i] - 1.0f));
        ok = c2d_world_sweep_circle_morphing_capsule(s.c, s.move, k0, k1, &hit);
        assert_true(ok && hit.t == 0.0f && hit.normal.y > 0.9f);
        /* turning down, away from the resting ball: no hit */
        c2d_capsule d0, d1;
        flipper_substep(-30.0f, 1.0f / 480.0f, &d0, &d1);
        assert_false(c2d_world_sweep_circle_morphing_capsule(s.c, s.move, d0, d1, &hit));
    }
}

/* Balls at rest 0.002 and 0.01 above the flipper anywhere from its hinge to past its tip
 * (near the hinge the surface rises slowly while the tip sweeps fast: the slow case of the
 * advancement, finished by the exact solve), against the reference. */
static void sweep_flipper_hinge(void **state) {
    (void)state;
    c2d_capsule k0, k1;
    flipper_substep(30.0f, 1.0f / 480.0f, &k0, &k1);
    sweep_stats st;
    memset(&st, 0, sizeof st);
    const float gaps[] = {0.002f, 0.01f};
    for (int g = 0; g < 2; g++) {
        for (int i = 0; i <= 110; i++) {
            float x = 0.01f * (float)i, r = 0.25f;
            sweep_in s = {circle(x, 0.1f + r + gaps[g], r), v2(0.0f, 0.0f), k0, k1};
            check_case(&s, &st);
        }
    }
    print_stats("balls at rest near a flipper from hinge to tip", &st);
    assert_int_equal(st.capped, 0);
    assert_true(st.max_iterations <= C2D_WORLD_SWEEP_EXACT_AFTER);
    assert_true(st.ref_hits > 100);
}

/* Typical flipper substeps: balls near a flipper turning at 30 rad/s (both ways), at rest or
 * falling; the figure is the steps a sweep takes. */
static void sweep_flipper_figures(void **state) {
    (void)state;
    sweep_stats st;
    memset(&st, 0, sizeof st);
    for (int i = 0; i < 4000; i++) {
        c2d_capsule k0, k1;
        float w = (i % 2) ? 30.0f : -30.0f;
        flipper_substep(w, 1.0f / 480.0f, &k0, &k1);
        float r = (float)uniform(0.1, 0.5);
        float x = (float)uniform(-0.3, 1.3);
        float y = (float)uniform(-1.0, 1.0);
        float speed = (float)uniform(0.0, 30.0) / 480.0f; /* up to 30 units/s */
        float th = (float)uniform(-3.2, 3.2);
        sweep_in s = {circle(x, y, r), v2(speed * cosf(th), speed * sinf(th)), k0, k1};
        check_case(&s, &st);
    }
    print_stats("flipper substeps (30 rad/s, 1/480 s, balls up to 30 units/s)", &st);
    assert_int_equal(st.capped, 0);
}

static void sweep_start_contact(void **state) {
    (void)state;
    c2d_capsule k = capsule(-1.0f, 0.0f, 1.0f, 0.0f, 0.5f);
    c2d_circle c = circle(0.25f, 1.0f, 0.5f); /* exactly touching */
    c2d_toi h;
    /* separating, sliding, still: no hit */
    assert_false(c2d_world_sweep_circle_morphing_capsule(c, v2(0.0f, 1.0f), k, k, &h));
    assert_false(c2d_world_sweep_circle_morphing_capsule(c, v2(1.0f, 0.0f), k, k, &h));
    assert_false(c2d_world_sweep_circle_morphing_capsule(c, v2(0.0f, 0.0f), k, k, &h));
    /* deepening: a hit at t = 0 with the normal up and the point on the surface */
    assert_true(c2d_world_sweep_circle_morphing_capsule(c, v2(0.3f, -0.1f), k, k, &h));
    assert_true(h.t == 0.0f && h.normal.x == 0.0f && h.normal.y == 1.0f);
    assert_true(h.point.x == 0.25f && h.point.y == 0.5f);
    /* the capsule moving into the still ball: a hit at t = 0; moving away: none */
    c2d_capsule up = capsule(-1.0f, 0.2f, 1.0f, 0.2f, 0.5f);
    c2d_capsule down = capsule(-1.0f, -0.2f, 1.0f, -0.2f, 0.5f);
    assert_true(c2d_world_sweep_circle_morphing_capsule(c, v2(0.0f, 0.0f), k, up, &h));
    assert_true(h.t == 0.0f && h.normal.y == 1.0f);
    assert_false(c2d_world_sweep_circle_morphing_capsule(c, v2(0.0f, 0.0f), k, down, &h));
    /* both moving up, the capsule faster: deepening */
    assert_true(c2d_world_sweep_circle_morphing_capsule(c, v2(0.0f, 0.1f), k, up, &h));
    /* both moving up, the ball faster: separating */
    assert_false(c2d_world_sweep_circle_morphing_capsule(c, v2(0.0f, 0.3f), k, up, &h));
    /* overlapping, moving out: none; moving in: t = 0 */
    c2d_circle deep = circle(0.25f, 0.7f, 0.5f);
    assert_false(c2d_world_sweep_circle_morphing_capsule(deep, v2(0.0f, 0.01f), k, k, &h));
    assert_true(c2d_world_sweep_circle_morphing_capsule(deep, v2(0.0f, -0.01f), k, k, &h));
    assert_true(h.t == 0.0f);
    /* the centre on the axis: the normal is the axis's left perpendicular (0, 1) */
    c2d_circle on = circle(0.0f, 0.0f, 0.5f);
    assert_true(c2d_world_sweep_circle_morphing_capsule(on, v2(0.0f, -1.0f), k, k, &h));
    assert_true(h.t == 0.0f && h.normal.x == 0.0f && h.normal.y == 1.0f);
    assert_false(c2d_world_sweep_circle_morphing_capsule(on, v2(0.0f, 1.0f), k, k, &h));
    /* within the tolerance of touching and approaching: a hit at t = 0 */
    c2d_circle near = circle(0.25f, 1.0005f, 0.5f);
    assert_true(c2d_world_sweep_circle_morphing_capsule(near, v2(0.0f, -0.1f), k, k, &h));
    assert_true(h.t == 0.0f);
    /* the same at 16384 */
    c2d_capsule kf = capsule(16383.0f, 16384.0f, 16385.0f, 16384.0f, 0.5f);
    c2d_circle cf = circle(16384.25f, 16385.0f, 0.5f);
    assert_false(c2d_world_sweep_circle_morphing_capsule(cf, v2(0.0f, 1.0f), kf, kf, &h));
    assert_true(c2d_world_sweep_circle_morphing_capsule(cf, v2(0.0f, -1.0f), kf, kf, &h));
    assert_true(h.t == 0.0f && h.normal.y == 1.0f);
}

static void sweep_degenerate(void **state) {
    (void)state;
    c2d_toi h;
    int it;
    /* a zero-length capsule (a circle) moving: agrees with c2d_sweep_circles within tol */
    for (int i = 0; i < 500; i++) {
        float px = (float)uniform(-2, 2), py = (float)uniform(-2, 2);
        c2d_capsule p0 = capsule(px, py, px, py, (float)uniform(0.0, 0.5));
        float dx = (float)uniform(-3, 3), dy = (float)uniform(-3, 3);
        c2d_capsule p1 = capsule(px + dx, py + dy, px + dx, py + dy, p0.radius);
        c2d_circle c = circle((float)uniform(-4, 4), (float)uniform(-4, 4), 0.3f);
        c2d_vec2 m = v2((float)uniform(-3, 3), (float)uniform(-3, 3));
        sweep_in s = {c, m, p0, p1};
        if (ref_dist(&s, 0.0, NULL, NULL) - ref_rr(&s) <= ref_tol(&s, 0.0)) continue;
        c2d_circle other = {p0.a, p0.radius};
        c2d_toi e;
        bool he = c2d_sweep_circles(c, m, other, v2(p1.a.x - p0.a.x, p1.a.y - p0.a.y), &e);
        bool hw = c2d_world_sweep_circle_morphing_capsule(c, m, p0, p1, &h);
        if (he) assert_true(hw && h.t <= e.t);
        if (hw) assert_true(ref_dist(&s, h.t, NULL, NULL) - ref_rr(&s) <= ref_tol(&s, h.t));
    }
    /* nothing moves: no hit, apart or overlapping */
    c2d_capsule k = capsule(-1.0f, 0.0f, 1.0f, 0.0f, 0.5f);
    assert_false(c2d_world_sweep_circle_morphing_capsule(circle(0, 3, 1), v2(0, 0), k, k, &h));
    assert_false(c2d_world_sweep_circle_morphing_capsule(circle(0, 1, 1), v2(0, 0), k, k, &h));
    /* NaN or infinity in any input: no hit */
    for (int slot = 0; slot < 14; slot++) {
        for (int bad = 0; bad < 2; bad++) {
            sweep_in s = {circle(0.0f, 2.0f, 0.5f), v2(0.0f, -3.0f), k, k};
            float *f[14] = {&s.c.center.x, &s.c.center.y, &s.c.radius, &s.move.x, &s.move.y,
                            &s.k0.a.x,     &s.k0.a.y,     &s.k0.b.x,   &s.k0.b.y, &s.k0.radius,
                            &s.k1.a.x,     &s.k1.a.y,     &s.k1.b.x,   &s.k1.b.y};
            *f[slot] = bad ? INFINITY : NAN;
            assert_false(c2d_world_sweep_circle_morphing_capsule(s.c, s.move, s.k0, s.k1, &h));
        }
    }
    /* a negative radius: no hit */
    assert_false(c2d_world_sweep_circle_morphing_capsule(circle(0, 2, -0.5f), v2(0, -3), k, k, &h));
    /* moving parallel to the axis just outside the tolerance, and far from it: no hit, in a
     * step or two (the bound along the normal sees no approach) */
    c2d_capsule lng = capsule(-100.0f, 0.0f, 100.0f, 0.0f, 0.5f);
    assert_false(c2d_world_sweep_morphing_counted(circle(-50, 1.002f, 0.5f), v2(100, 0), lng, lng,
                                                  &h, &it, C2D_WORLD_SWEEP_EXACT_AFTER));
    assert_true(it <= 1);
    assert_false(c2d_world_sweep_morphing_counted(circle(-50, 3.0f, 0.5f), v2(100, 0), lng, lng, &h,
                                                  &it, C2D_WORLD_SWEEP_EXACT_AFTER));
    /* grazing an end cap at 16384: never late */
    sweep_in g = {circle(16384.0f - 5.0f, 16384.0f + 1.02f, 0.5f), v2(10.0f, 0.0f),
                  capsule(16384.0f, 16384.0f, 16384.0f, 16384.0f, 0.5f),
                  capsule(16384.0f, 16384.0f, 16384.0f, 16384.0f, 0.5f)};
    check_case(&g, &(sweep_stats){0});
    /* huge moves: a hit, early and never late */
    sweep_in hg = {circle(0.0f, 10.0f, 0.5f), v2(0.0f, -1e30f), k, k};
    assert_true(c2d_world_sweep_circle_morphing_capsule(hg.c, hg.move, k, k, &h));
    assert_true((double)h.t <= 9.0 / 1e30);
    hg.move = v2(3e38f, -3e38f);
    hg.c = circle(-10.0f, 10.0f, 0.5f);
    assert_true(c2d_world_sweep_circle_morphing_capsule(hg.c, hg.move, k, k, &h));
    assert_true(h.t >= 0.0f && h.t < 1e-37f);
    /* a huge capsule move into a still ball */
    c2d_capsule far = capsule(-1.0f, -1e30f, 1.0f, -1e30f, 0.5f);
    c2d_capsule past = capsule(-1.0f, 1e30f, 1.0f, 1e30f, 0.5f);
    assert_true(
        c2d_world_sweep_circle_morphing_capsule(circle(0, 0, 0.5f), v2(0, 0), far, past, &h));
    printf("# huge capsule move: t %.9g normal %g %g\n", (double)h.t, (double)h.normal.x,
           (double)h.normal.y);
    assert_true(h.t > 0.49f && h.t <= 0.5f && h.normal.y == 1.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rotation_angle),        cmocka_unit_test(rotation_unit),
        cmocka_unit_test(rotation_zero_and_bad), cmocka_unit_test(kinematic_pose),
        cmocka_unit_test(carry_point),           cmocka_unit_test(sweep_random),
        cmocka_unit_test(sweep_random_exact),    cmocka_unit_test(sweep_random_advancing),
        cmocka_unit_test(sweep_static_agrees),   cmocka_unit_test(sweep_flipper_tip),
        cmocka_unit_test(sweep_flipper_hinge),   cmocka_unit_test(sweep_flipper_figures),
        cmocka_unit_test(sweep_start_contact),   cmocka_unit_test(sweep_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
