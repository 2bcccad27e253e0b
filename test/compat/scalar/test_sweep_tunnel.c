/* Tunnelling of c2d_sweep_circle_capsule through thin capsules, against a long-double
 * reference (issue: shallow entries next to an end were missed or reported late).
 *
 * The reference never calls the library. It measures the distance g(t) from the moving centre
 * p + t m to the capsule's axis segment in long double, directly (no side/end case split, so
 * it cannot share the library's failure mode). g is convex in t (distance to a convex set
 * along a line), so its minimum over [0, 1] is found by golden-section search and the first
 * time g falls to a radius rho by bisection on [0, argmin], where g is decreasing.
 *
 * The property, for every case: with rs = r + R, f = SWEEP_DEPTH_FRACTION and dt = 2^-24 (the
 * float rounding of the reported t):
 * - if the path gets within rs(1 - f) of the axis (more than f rs deep), there is a hit, and
 *   its t is at most dt after the first time it is that deep: no tunnelling, no late hit;
 *   except that a circle which starts in contact and whose move does not go deeper gets no
 *   hit (query.h), so a miss only has to keep the path within f rs of min(g(0), rs);
 * - if there is a hit, the path gets within rs(1 + f), and t is at most dt before the first
 *   time it does: no hit where the path stays clear, no early hit.
 * f = 2^-10 covers the float start test (the overlap query's own, which rounds coordinates
 * near 1 by about 2^-24 against radius sums down to 2e-4); the sweep itself is accurate to
 * about 1e-12 of rs here (docs/sweeps.md). The generator aims at the failure of the old float
 * side test: a third of the cases cross the side of a thin capsule inside its span by less
 * than a float rounding of the height moves the crossing along the axis, and go on into it;
 * the old code failed about 0.5% of all cases (about 90 of the default 20000), up to 100% of
 * rs deep.
 *
 * C2D_SWEEP_CASES=N sets the number of random cases (default 20000, 2000 where long double
 * is software quad precision, as on AArch64 under qemu). The long run is
 * `C2D_SWEEP_CASES=10000000 build/x/test/scalar/test-scalar-sweep-tunnel`; every run prints
 * its count, time and worst depth fractions on stderr. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "scalar_test.h"
#include "shallow_entry.h"

typedef long double ld;

#define SWEEP_DEPTH_FRACTION (1.0L / 1024.0L)
#define SWEEP_TIME_SLACK (1.0L / 16777216.0L) /* 2^-24 */

/* ---- reference ------------------------------------------------------------------------- */

typedef struct ref_case {
    ld px, py, mx, my, ax, ay, bx, by, rs;
} ref_case;

static ref_case ref_of(c2d_circle c, c2d_vec2 m, c2d_capsule k) {
    const ref_case rc = {
        c.center.x, c.center.y, m.x, m.y, k.a.x, k.a.y, k.b.x, k.b.y, (ld)c.radius + k.radius};
    return rc;
}

/* Distance from the centre at time t to the axis segment. */
static ld ref_gap(const ref_case *c, ld t) {
    const ld x = c->px + t * c->mx - c->ax, y = c->py + t * c->my - c->ay;
    const ld dx = c->bx - c->ax, dy = c->by - c->ay;
    const ld len2 = dx * dx + dy * dy;
    ld s = len2 > 0.0L ? (x * dx + y * dy) / len2 : 0.0L;
    s = s < 0.0L ? 0.0L : s > 1.0L ? 1.0L : s;
    const ld qx = x - s * dx, qy = y - s * dy;
    return sqrtl(qx * qx + qy * qy);
}

/* The time in [0, 1] at which the (convex) gap is smallest. */
static ld ref_argmin(const ref_case *c) {
    const ld k = 0.6180339887498948482L;
    ld lo = 0.0L, hi = 1.0L;
    ld x1 = hi - k * (hi - lo), x2 = lo + k * (hi - lo);
    ld g1 = ref_gap(c, x1), g2 = ref_gap(c, x2);
    for (int i = 0; i < 92; i++) {
        if (g1 <= g2) {
            hi = x2;
            x2 = x1;
            g2 = g1;
            x1 = hi - k * (hi - lo);
            g1 = ref_gap(c, x1);
        } else {
            lo = x1;
            x1 = x2;
            g1 = g2;
            x2 = lo + k * (hi - lo);
            g2 = ref_gap(c, x2);
        }
    }
    /* the ends too: the search never evaluates them */
    const ld mid = 0.5L * (lo + hi);
    ld best = mid, gbest = ref_gap(c, mid);
    if (ref_gap(c, 0.0L) <= gbest) best = 0.0L, gbest = ref_gap(c, 0.0L);
    if (ref_gap(c, 1.0L) < gbest) best = 1.0L;
    return best;
}

/* The first time in [0, tmin] at which the gap is at most rho (tmin from ref_argmin), or -1. */
static ld ref_first(const ref_case *c, ld tmin, ld rho) {
    if (ref_gap(c, 0.0L) <= rho) return 0.0L;
    if (!(ref_gap(c, tmin) <= rho)) return -1.0L;
    ld lo = 0.0L, hi = tmin; /* gap(lo) > rho >= gap(hi) */
    for (int i = 0; i < 72; i++) {
        const ld mid = 0.5L * (lo + hi);
        if (ref_gap(c, mid) <= rho)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* Worst values seen, as fractions of rs. */
typedef struct sweep_stats {
    long cases, hits, failures;
    ld worst_late;  /* deepest point of the path before the reported t (or ever, on a miss) */
    ld worst_early; /* largest gap beyond rs at the reported t */
    ld worst_late_t, worst_early_t; /* the same in time beyond the deep or shallow entry */
    ld worst_late_exact;            /* depth gained after the start, an ulp before t */
    long starts_in_contact;         /* misses that start within rs (1 + f) */
    ld worst_drift;                 /* their deepest point below the start */
} sweep_stats;

/* Checks one case against the property above; prints it on failure. */
static bool check_case(c2d_circle c, c2d_vec2 m, c2d_capsule k, sweep_stats *st) {
    const ref_case rc = ref_of(c, m, k);
    c2d_toi toi;
    const bool hit = c2d_sweep_circle_capsule(c, m, k, &toi);
    const ld tmin = ref_argmin(&rc);
    const ld rs = rc.rs, f = SWEEP_DEPTH_FRACTION;
    const ld deep = ref_first(&rc, tmin, rs * (1.0L - f));
    const ld near = ref_first(&rc, tmin, rs * (1.0L + f));
    bool ok = true;
    st->cases++;
    if (hit) {
        st->hits++;
        const ld t = toi.t;
        /* deepest point up to t: g is convex, so at min(t, tmin) */
        const ld g_before = ref_gap(&rc, t < tmin ? t : tmin);
        const ld late = (rs - g_before) / rs, early = (ref_gap(&rc, t) - rs) / rs;
        if (t > 0.0L && late > st->worst_late) /* at t = 0: the start's own overlap */
            st->worst_late = late;
        /* the sweep's own error: the depth gained after the start (which the float start
         * test judges) up to a float ulp before t (which the rounding of t can move) */
        const ld t1 = t - SWEEP_TIME_SLACK, g1 = ref_gap(&rc, t1 < tmin ? t1 : tmin);
        const ld g0 = ref_gap(&rc, 0.0L), gain = ((g0 < rs ? g0 : rs) - g1) / rs;
        if (t1 > 0.0L && gain > st->worst_late_exact) st->worst_late_exact = gain;
        if (early > st->worst_early) st->worst_early = early;
        if (deep >= 0.0L && t - deep > st->worst_late_t) st->worst_late_t = t - deep;
        if (near >= 0.0L && near - t > st->worst_early_t) st->worst_early_t = near - t;
        ok = near >= 0.0L && t >= near - SWEEP_TIME_SLACK &&
             (deep < 0.0L || t <= deep + SWEEP_TIME_SLACK);
    } else if (ref_gap(&rc, 0.0L) > rs * (1.0L + f)) { /* apart at the start */
        const ld late = (rs - ref_gap(&rc, tmin)) / rs;
        if (late > st->worst_late) st->worst_late = late;
        ok = deep < 0.0L;
    } else {
        /* In contact at the start and not moving deeper along the start's normal: no hit
         * (query.h). That normal is the direction from the closest axis point computed in
         * double and rounded to float, off by theta <= 2^-22 (each component's rounding, with
         * a margin), so a move along the surface may drift |m| theta deeper than its start
         * (the next frame's contact and push-out take it back). */
        const ld g0 = ref_gap(&rc, 0.0L), base = g0 < rs ? g0 : rs;
        const ld late = (base - ref_gap(&rc, tmin)) / rs;
        const ld theta = ldexpl(1.0L, -22), travel = sqrtl(rc.mx * rc.mx + rc.my * rc.my);
        st->starts_in_contact++;
        if (late > st->worst_drift) st->worst_drift = late;
        ok = late <= f + travel * theta / rs;
    }
    if (!ok) {
        st->failures++;
        if (st->failures <= 5)
            print_message("sweep: circle (%a, %a) r %a move (%a, %a) capsule (%a, %a)-(%a, %a) "
                          "R %a: %s t %a; reference: within rs(1+f) at %Lg, rs(1-f) at %Lg, "
                          "closest %Lg rs\n",
                          (double)c.center.x, (double)c.center.y, (double)c.radius, (double)m.x,
                          (double)m.y, (double)k.a.x, (double)k.a.y, (double)k.b.x, (double)k.b.y,
                          (double)k.radius, hit ? "hit" : "no hit", hit ? (double)toi.t : 0.0, near,
                          deep, ref_gap(&rc, tmin) / rs);
    }
    return ok;
}

/* ---- the reproducers ---------------------------------------------------------- */

static void reproducers_hit_in_time(void **state) {
    (void)state;
    sweep_stats st = {0};
    /* 1: 99% of r+R deep at the axis midpoint, no hit reported before; entry t ~ 0.2728. */
    assert_true(check_case(circle(0x1.e5fep-1f, 0x1.6d5ap-1f, 0x1p-11f),
                           v2(-0x1.193236p-1f, -0x1.a77f96p-2f),
                           capsule(0.0f, 0.0f, 0.8f, 0.6f, 0x1p-11f), &st));
    /* 2: crosses the axis and comes out, no hit before. */
    assert_true(check_case(
        circle(0x1.d72e0cp+0f, 0x1.17f5c2p-2f, 0x1.743404p-11f),
        v2(-0x1.8d9696p-1f, 0x1.4abd0cp-3f),
        capsule(0x1.6b6f62p-1f, 0x1.03fd7ap-1f, 0x1.b06f16p+0f, 0x1.39029p-2f, 0x1.31ab2ep-14f),
        &st));
    /* 3: reported at t = 0.8827 before, 85% deep; entry about 0.152. */
    assert_true(check_case(
        circle(-0x1.6994e4p+0f, -0x1.57acbp-4f, 0x1.c79886p-20f),
        v2(0x1.5d4638p+1f, 0x1.506342p-3f),
        capsule(0x1.ff0c9ep-1f, 0x1.f2fe62p-5f, -0x1.ff0c9ep-1f, -0x1.f2fe6p-5f, 0x1.fc78cep-10f),
        &st));
    assert_int_equal(st.hits, 3);
    /* and in every case the hit is on time to 1e-6 of r+R, far inside the property's f */
    assert_true(st.worst_late < 1e-6L && st.worst_early < 1e-6L);
    /* Reproducer 1 in numbers: the entry time within a float ulp of the reference's. */
    const c2d_circle c = circle(0x1.e5fep-1f, 0x1.6d5ap-1f, 0x1p-11f);
    const c2d_vec2 m = v2(-0x1.193236p-1f, -0x1.a77f96p-2f);
    const c2d_capsule k = capsule(0.0f, 0.0f, 0.8f, 0.6f, 0x1p-11f);
    const ref_case rc = ref_of(c, m, k);
    const ld entry = ref_first(&rc, ref_argmin(&rc), rc.rs);
    c2d_toi toi;
    assert_true(c2d_sweep_circle_capsule(c, m, k, &toi));
    CHECK_NEAR(toi.t, (double)entry, 1e-7);
    CHECK_NEAR(entry, 0.2728, 1e-4);
}

/* ---- the targeted property ------------------------------------------------------------ */

static long env_cases(void) {
    const char *s = getenv("C2D_SWEEP_CASES");
    if (s && *s) return atol(s);
    return LDBL_MANT_DIG > 64 ? 2000 : 20000;
}

static void shallow_entries_never_tunnel(void **state) {
    (void)state;
    const long n = env_cases();
    gen g = {UINT64_C(0x5eed7e11)};
    sweep_stats st = {0};
    const clock_t t0 = clock();
    for (long i = 0; i < n; i++) {
        c2d_circle c;
        c2d_vec2 m;
        c2d_capsule k;
        shallow_entry(&g, &c, &m, &k);
        check_case(c, m, k, &st);
    }
    fprintf(stderr,
            "shallow entries: %ld cases, %ld hits, %ld failures in %.1f s; f = 2^-10; worst "
            "depth before t %.3Le rs (gained after the start up to t - 2^-24: %.3Le rs), worst gap "
            "at t %.3Le rs; "
            "worst time late %.3Le, early %.3Le; %ld misses start in contact, deepest drift "
            "%.3Le rs\n",
            st.cases, st.hits, st.failures, (double)(clock() - t0) / CLOCKS_PER_SEC, st.worst_late,
            st.worst_late_exact, st.worst_early, st.worst_late_t, st.worst_early_t,
            st.starts_in_contact, st.worst_drift);
    assert_int_equal(st.failures, 0);
    /* The generator must reach the hard region: most cases hit, some do not. */
    assert_true(st.hits > n / 4 && st.hits < n);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reproducers_hit_in_time),
        cmocka_unit_test(shallow_entries_never_tunnel),
    };
    return C2D_RUN_TESTS(tests);
}
