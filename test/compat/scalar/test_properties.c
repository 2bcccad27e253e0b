/* Properties of the scalar queries on 100,000 random inputs each, checked against the
 * double-precision reference of dref.c (which never calls the library).
 *
 * Inputs follow the workloads of docs/design.md section 7 (coordinates in [0,100], circle radii
 * about 0.05-0.25, capsules 0.5-5 long with radii up to 0.5, moves of a few units) but are
 * placed near each other so that hits, misses and near-misses are all common, with a share
 * of the special cases (zero-length axes, zero radii, centres exactly on the axis).
 *
 * Tolerances are relative to `scale`, the largest coordinate magnitude in play: a float
 * carries about 6e-8 of it, so 1e-5 * scale leaves room for a few dozen rounding steps and
 * is still far below any geometric feature of these inputs. Every check also counts how
 * many cases exercised it, so a generator that drifted into trivial inputs fails too. */
#include <stdio.h>

#include "dref.h"
#include "scalar_test.h"
#include "workload.h"

#define CASES 100000
#define SEED UINT64_C(0x5ca1a77e57)
#define REL_TOL 1e-5
/* The overlap boolean may disagree with the reference only this close to the boundary. The
 * library's squared distances are within about 3e-7 * scale of the reference's here. */
#define OVERLAP_BAND 1e-6

/* Failure bookkeeping: print the first few, count all, fail at the end. */
typedef struct failures {
    int count;
} failures;

static void report(failures *f, const char *fmt, ...) CMOCKA_PRINTF_ATTRIBUTE(2, 3);
static void report(failures *f, const char *fmt, ...) {
    if (f->count < 5) {
        va_list ap;
        va_start(ap, fmt);
        vprint_error(fmt, ap);
        va_end(ap);
    }
    f->count++;
}

static void finish(const failures *f, const char *what) {
    if (f->count) {
        print_error("%s: %d of %d cases failed\n", what, f->count, CASES);
        fail();
    }
}

/* Requires that a property was exercised at least `least` times. */
static void require_coverage(int seen, int least, const char *what) {
    if (seen < least) {
        print_error("only %d cases exercised %s (want >= %d): the generator is off\n", seen, what,
                    least);
        fail();
    }
}

static double maxd(double a, double b) {
    return a > b ? a : b;
}
static double mag(c2d_vec2 v) {
    return maxd(fabs(v.x), fabs(v.y));
}

/* A random capsule of the W1 kind, with a share of zero-length axes and zero radii. */
static c2d_capsule random_capsule(c2d_rng *rng) {
    const c2d_vec2 a = v2(c2d_rng_range(rng, 0, 100), c2d_rng_range(rng, 0, 100));
    const float kind = c2d_rng_unit(rng);
    c2d_vec2 b;
    if (kind < 0.05f) {
        b = a; /* zero length */
    } else if (kind < 0.10f) {
        const float len = c2d_rng_range(rng, 0.5f, 5);
        b = c2d_rng_unit(rng) < 0.5f ? v2(a.x + len, a.y) : v2(a.x, a.y - len); /* axis-aligned */
    } else {
        const c2d_vec2 d = c2d_rng_direction(rng);
        const float len = c2d_rng_range(rng, 0.5f, 5);
        b = v2(a.x + d.x * len, a.y + d.y * len);
    }
    const float R = c2d_rng_unit(rng) < 0.05f ? 0.0f : c2d_rng_range(rng, 0.05f, 0.5f);
    return capsule(a.x, a.y, b.x, b.y, R);
}

static float random_radius(c2d_rng *rng) {
    return c2d_rng_unit(rng) < 0.03f ? 0.0f : c2d_rng_range(rng, 0.05f, 0.25f);
}

/* A point at distance about `dist` from the capsule's axis (in a random direction from a
 * random axis point); a few land exactly on the axis. */
static c2d_vec2 point_near_axis(c2d_rng *rng, c2d_capsule k, float dist) {
    const float s = c2d_rng_range(rng, -0.2f, 1.2f);
    const float u = s < 0.0f ? 0.0f : s > 1.0f ? 1.0f : s;
    const c2d_vec2 on = v2(k.a.x + u * (k.b.x - k.a.x), k.a.y + u * (k.b.y - k.a.y));
    const float pick = c2d_rng_unit(rng);
    if (pick < 0.01f) return k.a; /* exactly on the axis: distance 0 */
    if (pick < 0.02f) return k.b;
    const c2d_vec2 d = c2d_rng_direction(rng);
    return v2(on.x + d.x * dist, on.y + d.y * dist);
}

static double scale_of(c2d_vec2 p, c2d_capsule k, double extra) {
    return maxd(maxd(maxd(mag(p), mag(k.a)), maxd(mag(k.b), extra)), 1.0);
}

/* ---- closest point ----------------------------------------------------------------------- */

static void closest_point_is_on_segment_and_nearest(void **state) {
    (void)state;
    c2d_rng rng = {SEED};
    failures f = {0};
    int clamped = 0, interior = 0;
    for (int i = 0; i < CASES; i++) {
        const c2d_capsule k = random_capsule(&rng);
        const c2d_segment s = {k.a, k.b};
        const c2d_vec2 p = point_near_axis(&rng, k, c2d_rng_range(&rng, 0, 10));
        const c2d_vec2 c = c2d_closest_point_on_segment(p, s);
        const dvec dp = dvec_of(p), da = dvec_of(s.a), db = dvec_of(s.b), dc = dvec_of(c);
        const double scale = scale_of(p, k, 0);
        const double tol = REL_TOL * scale;
        /* On the segment. */
        const double off = dref_dist_point_segment(dc, da, db);
        if (!(off <= tol))
            report(&f, "case %d: closest (%a,%a) is %.3g off segment (%a,%a)-(%a,%a)\n", i,
                   (double)c.x, (double)c.y, off, (double)s.a.x, (double)s.a.y, (double)s.b.x,
                   (double)s.b.y);
        /* No sampled point of the segment is closer. */
        const double dist = dvec_len(dvec_sub(dp, dc));
        for (int j = 0; j < 64; j++) {
            const dvec q = dvec_add(da, dvec_scale(dvec_sub(db, da), (double)j / 63.0));
            const double dq = dvec_len(dvec_sub(dp, q));
            if (!(dist <= dq + tol)) {
                report(&f,
                       "case %d: sample %d of (%a,%a)-(%a,%a) is closer to (%a,%a): %.9g < %.9g\n",
                       i, j, (double)s.a.x, (double)s.a.y, (double)s.b.x, (double)s.b.y,
                       (double)p.x, (double)p.y, dq, dist);
                break;
            }
        }
        /* And it is the reference's closest point. */
        const double t_ref = dref_closest_param(dp, da, db);
        const double err = dvec_len(dvec_sub(dc, dref_closest(dp, da, db)));
        if (!(err <= tol))
            report(&f, "case %d: closest (%a,%a) is %.3g from the reference\n", i, (double)c.x,
                   (double)c.y, err);
        clamped += t_ref == 0.0 || t_ref == 1.0;
        interior += t_ref > 0.0 && t_ref < 1.0;
    }
    finish(&f, "closest point");
    require_coverage(clamped, CASES / 10, "clamped projections");
    require_coverage(interior, CASES / 5, "interior projections");
}

/* ---- overlap ----------------------------------------------------------------------------- */

static void overlap_agrees_with_reference(void **state) {
    (void)state;
    c2d_rng rng = {SEED + 1};
    failures f = {0};
    int in_band = 0, yes = 0, no = 0;
    for (int i = 0; i < CASES; i++) {
        const c2d_capsule k = random_capsule(&rng);
        const float r = random_radius(&rng);
        const double rs = (double)r + k.radius;
        const c2d_vec2 p = point_near_axis(&rng, k, (float)(rs * c2d_rng_range(&rng, 0, 2)));
        const c2d_circle c = {p, r};
        const double scale = scale_of(p, k, rs);
        const double band = OVERLAP_BAND * scale;
        const dvec dp = dvec_of(p), da = dvec_of(k.a), db = dvec_of(k.b);
        const double d = dref_dist_point_segment(dp, da, db);
        const c2d_segment s = {k.a, k.b};
        const c2d_circle b = {k.a, k.radius};
        /* Each query and its reference distance and radius sum. */
        const struct {
            const char *name;
            bool got;
            double dist, sum;
        } q[4] = {
            {"circle_capsule", c2d_overlap_circle_capsule(c, k), d, rs},
            {"circle_segment", c2d_overlap_circle_segment(c, s), d, r},
            {"point_in_capsule", c2d_point_in_capsule(p, k), d, k.radius},
            {"circles", c2d_overlap_circles(c, b), dvec_len(dvec_sub(dp, da)), rs},
        };
        for (int j = 0; j < 4; j++) {
            if (fabs(q[j].dist - q[j].sum) <= band) {
                in_band++;
                continue;
            }
            const bool want = q[j].dist <= q[j].sum;
            yes += want;
            no += !want;
            if (q[j].got != want)
                report(&f,
                       "case %d: overlap_%s = %d, reference distance %.9g vs radius %.9g "
                       "(circle (%a,%a) r %a, capsule (%a,%a)-(%a,%a) R %a)\n",
                       i, q[j].name, q[j].got, q[j].dist, q[j].sum, (double)p.x, (double)p.y,
                       (double)r, (double)k.a.x, (double)k.a.y, (double)k.b.x, (double)k.b.y,
                       (double)k.radius);
        }
    }
    finish(&f, "overlap");
    require_coverage(yes, CASES, "overlapping pairs");
    require_coverage(no, CASES, "separate pairs");
    if (in_band > CASES / 20) {
        print_error("%d of %d answers fell in the boundary band: the band is too wide\n", in_band,
                    4 * CASES);
        fail();
    }
}

/* ---- contacts ---------------------------------------------------------------------------- */

static int on_axis_seen; /* contacts with the centre exactly on the axis */

static void check_contact(failures *f, int i, const char *name, c2d_circle c, c2d_capsule k,
                          bool hit, bool overlap, const c2d_contact *out) {
    const dvec dp = dvec_of(c.center), da = dvec_of(k.a), db = dvec_of(k.b);
    const double rs = (double)c.radius + k.radius;
    const double scale = scale_of(c.center, k, rs);
    const double tol = REL_TOL * scale;
    const double d = dref_dist_point_segment(dp, da, db);
    if (hit != overlap) {
        report(f, "case %d: collide_%s = %d but overlap = %d\n", i, name, hit, overlap);
        return;
    }
    if (fabs(d - rs) > tol && hit != (d <= rs)) {
        report(f, "case %d: collide_%s = %d, reference distance %.9g vs radius sum %.9g\n", i, name,
               hit, d, rs);
        return;
    }
    if (!hit) return;
    const dvec n = dvec_of(out->normal);
    const double nlen = dvec_len(n);
    if (!(fabs(nlen - 1.0) <= 1e-5))
        report(f, "case %d: collide_%s normal (%a,%a) has length %.9g\n", i, name,
               (double)out->normal.x, (double)out->normal.y, nlen);
    if (!(out->depth >= 0.0f) || !(fabs(out->depth - (rs - d)) <= tol))
        report(f, "case %d: collide_%s depth %.9g, reference %.9g\n", i, name, (double)out->depth,
               rs - d);
    const dvec cl = dref_closest(dp, da, db);
    if (d > 1e-3 * scale) {
        /* The normal points from the axis toward the centre. */
        const dvec want = dvec_scale(dvec_sub(dp, cl), 1.0 / d);
        const double err = dvec_len(dvec_sub(n, want));
        if (!(err <= 1e-4))
            report(f, "case %d: collide_%s normal (%.9g,%.9g), reference (%.9g,%.9g)\n", i, name,
                   n.x, n.y, want.x, want.y);
    } else if (d == 0.0) {
        /* On the axis: its left perpendicular, or (0, 1) for a zero-length axis. */
        const dvec ab = dvec_sub(db, da);
        const double len = dvec_len(ab);
        const dvec left =
            len > 0.0 ? dvec_scale(dvec_make(-ab.y, ab.x), 1.0 / len) : dvec_make(0.0, 1.0);
        if (!(dvec_len(dvec_sub(n, left)) <= 1e-6))
            report(f,
                   "case %d: collide_%s centre on the axis, normal (%.9g,%.9g) not "
                   "(%.9g,%.9g)\n",
                   i, name, n.x, n.y, left.x, left.y);
        on_axis_seen++;
    }
    /* The point is the closest axis point moved by R along the normal... */
    const dvec pt = dvec_of(out->point);
    const dvec want_pt = dvec_add(cl, dvec_scale(n, k.radius));
    if (!(dvec_len(dvec_sub(pt, want_pt)) <= tol))
        report(f, "case %d: collide_%s point (%.9g,%.9g), reference (%.9g,%.9g)\n", i, name, pt.x,
               pt.y, want_pt.x, want_pt.y);
    /* ...so it lies on the capsule's surface wherever the normal is well defined: the centre
     * exactly on the axis, or far enough from it that rounding cannot turn the direction. */
    const double surf = dref_dist_point_segment(pt, da, db);
    if ((d == 0.0 || d > 1e-3 * scale) && !(fabs(surf - k.radius) <= tol))
        report(f, "case %d: collide_%s point (%.9g,%.9g) is %.9g from the axis, not R = %.9g\n", i,
               name, pt.x, pt.y, surf, (double)k.radius);
}

static void contacts_agree_with_reference(void **state) {
    (void)state;
    c2d_rng rng = {SEED + 2};
    failures f = {0};
    int hits = 0;
    for (int i = 0; i < CASES; i++) {
        const c2d_capsule k = random_capsule(&rng);
        const float r = random_radius(&rng);
        const double rs = (double)r + k.radius;
        const c2d_vec2 p = point_near_axis(&rng, k, (float)(rs * c2d_rng_range(&rng, 0, 1.2f)));
        const c2d_circle c = {p, r};
        c2d_contact out;
        memset(&out, C2D_SENTINEL_BYTE, sizeof out);
        const bool hit = c2d_collide_circle_capsule(c, k, &out);
        hits += hit;
        check_contact(&f, i, "circle_capsule", c, k, hit, c2d_overlap_circle_capsule(c, k), &out);
        const c2d_segment s = {k.a, k.b};
        const c2d_capsule ks = {k.a, k.b, 0.0f};
        const bool hs = c2d_collide_circle_segment(c, s, &out);
        check_contact(&f, i, "circle_segment", c, ks, hs, c2d_overlap_circle_segment(c, s), &out);
        const c2d_circle b = {k.b, k.radius};
        const c2d_capsule kb = {k.b, k.b, k.radius};
        const bool hb = c2d_collide_circles(c, b, &out);
        check_contact(&f, i, "circles", c, kb, hb, c2d_overlap_circles(c, b), &out);
    }
    finish(&f, "contacts");
    require_coverage(hits, CASES * 3 / 4, "capsule contacts");
    require_coverage(on_axis_seen, CASES / 100, "centres exactly on the axis");
}

/* ---- sweeps ------------------------------------------------------------------------------ */

typedef struct sweep_case {
    dvec p, m;    /* the moving point (relative motion for two circles) */
    dvec a, b;    /* the static axis (a == b for a circle) */
    double r, R;  /* the moving circle's and the static shape's radii */
    double scale; /* largest coordinate magnitude in play */
} sweep_case;

typedef struct sweep_stats {
    int hits, clear_hits, at_start, later, misses, degenerate, left;
} sweep_stats;

static double dist_at(const sweep_case *s, double t) {
    return dref_dist_point_segment(dvec_add(s->p, dvec_scale(s->m, t)), s->a, s->b);
}

/* `hit`/`out` are the library's answer for the relative problem described by `s`. The point
 * is compared in the static shape's frame at time t (the caller shifts it). */
static void check_sweep(failures *f, sweep_stats *st, int i, const char *name, const sweep_case *s,
                        bool hit, const c2d_toi *out, dvec point) {
    const double rs = s->r + s->R;
    const double tol = REL_TOL * s->scale;
    double t_ref, d_min;
    (void)dref_sweep(s->p, s->m, s->a, s->b, rs, &t_ref, &d_min);
    const double d0 = dist_at(s, 0.0);
    /* A clear hit: the path goes deeper than 1% of the radius sum (plus the tolerance) into
     * the static shape, and as deep below its start distance (a circle that starts in contact
     * is hit only by a move that goes deeper: query.h), so no rounding can excuse missing it. */
    const double floor_at = (d0 < rs ? d0 : rs) - tol - 0.01 * rs;
    const bool clear = d_min <= floor_at;
    st->clear_hits += clear;
    if (!hit) {
        st->misses++;
        st->left += d0 < rs - tol && s->m.x * s->m.x + s->m.y * s->m.y > 0.0;
        if (clear)
            report(f,
                   "case %d: %s missed a clear hit: closest approach %.9g < radius sum %.9g, "
                   "first touch at t = %.9g (p (%.9g,%.9g) m (%.9g,%.9g) axis (%.9g,%.9g)-"
                   "(%.9g,%.9g))\n",
                   i, name, d_min, rs, t_ref, s->p.x, s->p.y, s->m.x, s->m.y, s->a.x, s->a.y,
                   s->b.x, s->b.y);
        return;
    }
    st->hits++;
    const double t = out->t;
    if (!(t >= 0.0 && t <= 1.0)) {
        report(f, "case %d: %s t = %.9g outside [0, 1]\n", i, name, t);
        return;
    }
    const dvec n = dvec_of(out->normal);
    if (!(fabs(dvec_len(n) - 1.0) <= 1e-5))
        report(f, "case %d: %s normal (%.9g,%.9g) not unit\n", i, name, n.x, n.y);
    if (rs == 0.0) {
        /* A point against a point or a segment: "touching" is a measure-zero event and the
         * time is ill-conditioned (see test_sweep.c); only the invariants above apply. */
        st->degenerate++;
        return;
    }
    const double dt = dist_at(s, t);
    const dvec pos = dvec_add(s->p, dvec_scale(s->m, t));
    if (t == 0.0) {
        st->at_start++;
        if (!(d0 <= rs + tol))
            report(f, "case %d: %s hit at t = 0 but starts %.9g apart (radius sum %.9g)\n", i, name,
                   d0, rs);

        /* Overlapping at the start: the contact rules (normal from the closest axis point
         * toward the centre, point = that axis point + normal * R). */
        const dvec cl = dref_closest(pos, s->a, s->b);
        if (d0 > 1e-3 * s->scale) {
            const dvec want = dvec_scale(dvec_sub(pos, cl), 1.0 / d0);
            if (!(dvec_len(dvec_sub(n, want)) <= 1e-4))
                report(f, "case %d: %s normal at t = 0 (%.9g,%.9g), reference (%.9g,%.9g)\n", i,
                       name, n.x, n.y, want.x, want.y);
            /* only a move that goes deeper: not clearly outward along the reference normal */
            const double out_rate = s->m.x * want.x + s->m.y * want.y;
            if (!(out_rate <= 1e-4 * dvec_len(s->m)))
                report(f, "case %d: %s hit at t = 0 by a move that leaves (m.n = %.9g)\n", i, name,
                       out_rate);
        }
        const dvec want_pt = dvec_add(cl, dvec_scale(n, s->R));
        if (!(dvec_len(dvec_sub(point, want_pt)) <= tol))
            report(f, "case %d: %s point at t = 0 (%.9g,%.9g), reference (%.9g,%.9g)\n", i, name,
                   point.x, point.y, want_pt.x, want_pt.y);
        return;
    }
    st->later++;
    if (!(fabs(dt - rs) <= tol))
        report(f,
               "case %d: %s at t = %.9g the distance is %.9g, not the radius sum %.9g "
               "(reference t %.9g)\n",
               i, name, t, dt, rs, t_ref);
    if (!(d0 >= rs - tol))
        report(f, "case %d: %s t = %.9g but overlapping at the start (%.9g < %.9g)\n", i, name, t,
               d0, rs);
    if (t > 1e-3 && !(dist_at(s, t - 1e-3) >= rs - tol))
        report(f, "case %d: %s overlapping before the first touch t = %.9g (reference %.9g)\n", i,
               name, t, t_ref);
    /* Touching at t: the normal leads from the centre back to the axis (pos - n*rs is on it),
     * and the point is where the two surfaces meet (pos - n*r). Where the touch is near the
     * junction of a side and an end cap either feature's normal passes this test, as it
     * should: they differ only by the rounding of which was touched first. */
    const dvec foot = dvec_sub(pos, dvec_scale(n, rs));
    const double foot_off = dref_dist_point_segment(foot, s->a, s->b);
    if (!(foot_off <= tol))
        report(f,
               "case %d: %s normal (%.9g,%.9g) at t = %.9g does not lead back to the axis "
               "(misses it by %.9g) (p (%a,%a) m (%a,%a) axis (%a,%a)-(%a,%a) r %a R %a)\n",
               i, name, n.x, n.y, t, foot_off, s->p.x, s->p.y, s->m.x, s->m.y, s->a.x, s->a.y,
               s->b.x, s->b.y, s->r, s->R);
    const dvec want_pt = dvec_sub(pos, dvec_scale(n, s->r));
    if (!(dvec_len(dvec_sub(point, want_pt)) <= tol))
        report(f, "case %d: %s point (%.9g,%.9g), reference (%.9g,%.9g)\n", i, name, point.x,
               point.y, want_pt.x, want_pt.y);
}

static void require_sweep_coverage(const sweep_stats *st) {
    require_coverage(st->at_start, CASES / 20, "hits at t = 0");
    require_coverage(st->later, CASES / 4, "hits at t > 0");
    require_coverage(st->clear_hits, CASES / 4, "clear hits");
    require_coverage(st->misses, CASES / 10, "misses");
    require_coverage(st->left, CASES / 100, "circles in contact at the start that leave");
}

/* A start and a move aimed near the static shape (or, for a share, anywhere). */
static void random_motion(c2d_rng *rng, c2d_capsule k, float rs, c2d_vec2 *start, c2d_vec2 *move) {
    const c2d_vec2 target = point_near_axis(rng, k, rs * c2d_rng_range(rng, 0, 1.5f));
    const c2d_vec2 dir = c2d_rng_direction(rng);
    const float back = c2d_rng_range(rng, 0, 4);
    *start = v2(target.x - dir.x * back, target.y - dir.y * back);
    const float kind = c2d_rng_unit(rng);
    if (kind < 0.05f) {
        *move = v2(0, 0);
    } else if (kind < 0.2f) {
        *move = v2(c2d_rng_range(rng, -2, 2), c2d_rng_range(rng, -2, 2)); /* W3 */
    } else {
        const float len = back * c2d_rng_range(rng, 0, 2.5f);
        *move = v2(dir.x * len, dir.y * len);
    }
}

static void sweep_circle_capsule_agrees_with_reference(void **state) {
    (void)state;
    c2d_rng rng = {SEED + 3};
    failures f = {0};
    sweep_stats st = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < CASES; i++) {
        const c2d_capsule k = random_capsule(&rng);
        const float r = random_radius(&rng);
        c2d_vec2 start, move;
        random_motion(&rng, k, r + k.radius, &start, &move);
        const c2d_circle c = {start, r};
        c2d_toi out;
        memset(&out, C2D_SENTINEL_BYTE, sizeof out);
        const bool hit = c2d_sweep_circle_capsule(c, move, k, &out);
        const sweep_case s = {
            dvec_of(start),
            dvec_of(move),
            dvec_of(k.a),
            dvec_of(k.b),
            r,
            k.radius,
            maxd(scale_of(start, k, mag(move)), mag(v2(start.x + move.x, start.y + move.y)))};
        check_sweep(&f, &st, i, "sweep_circle_capsule", &s, hit, &out, dvec_of(out.point));
    }
    finish(&f, "sweep_circle_capsule");
    require_sweep_coverage(&st);
}

static void sweep_circles_agrees_with_reference(void **state) {
    (void)state;
    c2d_rng rng = {SEED + 4};
    failures f = {0};
    sweep_stats st = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < CASES; i++) {
        const c2d_vec2 cb = v2(c2d_rng_range(&rng, 0, 100), c2d_rng_range(&rng, 0, 100));
        const float rb = c2d_rng_unit(&rng) < 0.03f ? 0.0f : c2d_rng_range(&rng, 0.05f, 0.5f);
        const float ra = random_radius(&rng);
        const c2d_capsule kb = {cb, cb, rb};
        c2d_vec2 start, rel;
        random_motion(&rng, kb, ra + rb, &start, &rel);
        /* Split the relative motion between the two circles. */
        const c2d_vec2 mb = c2d_rng_unit(&rng) < 0.3f
                                ? v2(0, 0)
                                : v2(c2d_rng_range(&rng, -2, 2), c2d_rng_range(&rng, -2, 2));
        const c2d_vec2 ma = v2(rel.x + mb.x, rel.y + mb.y);
        const c2d_circle a = {start, ra}, b = {cb, rb};
        c2d_toi out;
        memset(&out, C2D_SENTINEL_BYTE, sizeof out);
        const bool hit = c2d_sweep_circles(a, ma, b, mb, &out);
        /* The relative problem, from the float inputs: a - b moving by ma - mb. */
        const dvec p = dvec_sub(dvec_of(start), dvec_of(cb));
        const dvec m = dvec_sub(dvec_of(ma), dvec_of(mb));
        const double scale = maxd(maxd(maxd(mag(start), mag(cb)), maxd(mag(ma), mag(mb))),
                                  maxd(mag(v2(start.x + ma.x, start.y + ma.y)), 1.0));
        const sweep_case s = {p, m, dvec_make(0, 0), dvec_make(0, 0), ra, rb, scale};
        /* The point in b's frame at time t. */
        const dvec pb = dvec_add(dvec_of(cb), dvec_scale(dvec_of(mb), hit ? (double)out.t : 0.0));
        check_sweep(&f, &st, i, "sweep_circles", &s, hit, &out, dvec_sub(dvec_of(out.point), pb));
    }
    finish(&f, "sweep_circles");
    require_sweep_coverage(&st);
}

/* A capsule moving by km: the relative problem (start, move - km) against the capsule at its
 * start, the reported point shifted back by t km into that frame. */
static void sweep_moving_capsule_agrees_with_reference(void **state) {
    (void)state;
    c2d_rng rng = {SEED + 5};
    failures f = {0};
    sweep_stats st = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < CASES; i++) {
        const c2d_capsule k = random_capsule(&rng);
        const float r = random_radius(&rng);
        c2d_vec2 start, rel;
        random_motion(&rng, k, r + k.radius, &start, &rel);
        const c2d_vec2 km = c2d_rng_unit(&rng) < 0.2f
                                ? v2(0, 0)
                                : v2(c2d_rng_range(&rng, -3, 3), c2d_rng_range(&rng, -3, 3));
        const c2d_vec2 move = v2(rel.x + km.x, rel.y + km.y);
        const c2d_circle c = {start, r};
        c2d_toi out;
        memset(&out, C2D_SENTINEL_BYTE, sizeof out);
        const bool hit = c2d_sweep_circle_moving_capsule(c, move, k, km, &out);
        const double scale = maxd(maxd(scale_of(start, k, maxd(mag(move), mag(km))),
                                       mag(v2(start.x + move.x, start.y + move.y))),
                                  mag(v2(k.a.x + km.x, k.a.y + km.y)));
        const sweep_case s = {dvec_of(start),
                              dvec_sub(dvec_of(move), dvec_of(km)),
                              dvec_of(k.a),
                              dvec_of(k.b),
                              r,
                              k.radius,
                              scale};
        const dvec shift = dvec_scale(dvec_of(km), hit ? (double)out.t : 0.0);
        check_sweep(&f, &st, i, "sweep_circle_moving_capsule", &s, hit, &out,
                    dvec_sub(dvec_of(out.point), shift));
    }
    finish(&f, "sweep_circle_moving_capsule");
    require_sweep_coverage(&st);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(closest_point_is_on_segment_and_nearest),
        cmocka_unit_test(overlap_agrees_with_reference),
        cmocka_unit_test(contacts_agree_with_reference),
        cmocka_unit_test(sweep_circle_capsule_agrees_with_reference),
        cmocka_unit_test(sweep_circles_agrees_with_reference),
        cmocka_unit_test(sweep_moving_capsule_agrees_with_reference),
    };
    return C2D_RUN_TESTS(tests);
}
