/* c2d_scene_advance (collide2d/scene.h): balls advanced by t of their moves never end closer
 * to a capsule's axis than min(the start's distance, r + R), in the header's double formula.
 *
 * The wedge (issue 42, defect 1): a ball of diameter 0.43 falls (gravity on its velocity, the
 * README loop: c2d_scene_sweep, advance by the hit's t, bounce, c2d_slide_move, up to 3 passes)
 * into a 0.40 gap between two pins and is pushed into it for 20,000 passes. With the advance
 * its distance to each pin never drops below min(before, r + R), and it stays above the gap.
 * The same loop with the float advance `x += move_x * t` (`float_advance`; the test prints it
 * on every run; depth = r + R minus the least distance to a pin) fails this test: passes that
 * ended deeper, and the depth reached, were (2026-11-29, x86-64):
 *   (0, 0): 3, 1.1e-9;  (+-1000, 0): 2, 1.3e-5;  (0, +-1000): 0, none (2e-6 apart);
 *   (+-16384, 0): 23 and 24, 9.3e-4 (the centre 0.003 below its wedge);
 *   (0, 16384): 1, 1.9e-4;  (0, -16384): 1, 1.1e-4.
 * A ball pushed into the gap ratchets down while the rounding lets it, then rests deeper.
 *
 * Then a property test on random scenes near a touch (test/batch's fill_near_touch) at several
 * offsets, every backend giving the same bytes; in-place advance; t NULL; statuses; NaN balls;
 * filters and sensors. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scene_check.h"

/* The header's distance from p to axis a-b, in double. */
static double axis_distance(double px, double py, double ax, double ay, double bx, double by) {
    const double dx = bx - ax, dy = by - ay, wx = px - ax, wy = py - ay;
    const double dd = dx * dx + dy * dy;
    double u = dd > 0.0 ? (wx * dx + wy * dy) / dd : 0.0;
    u = u > 0.0 ? (u < 1.0 ? u : 1.0) : 0.0;
    const double ex = wx - u * dx, ey = wy - u * dy;
    return sqrt(ex * ex + ey * ey);
}

/* ---- the wedge ------------------------------------------------------------------------- */

enum { WEDGE_PASSES = 20000 };

/* The README loop on one ball between two pins at (ox -+ 0.3, oy), radius 0.1 (a gap of 0.40),
 * the ball of radius 0.215 starting 0.05 right of the gap's middle, 0.5 above. Checks every
 * pass; returns the passes that ended deeper than min(before, r + R) at some pin. */
static long run_wedge(double ox, double oy, bool float_advance, double *depth) {
    float ax[2] = {(float)(ox - 0.3), (float)(ox + 0.3)}, ay[2] = {(float)oy, (float)oy};
    float R[2] = {0.1f, 0.1f};
    const c2d_capsule_soa pins = {.ax = ax, .ay = ay, .bx = ax, .by = ay, .radius = R, .count = 2};
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&pins, NULL, &sc), C2D_OK);
    float x = (float)(ox + 0.05), y = (float)(oy + 0.5), r = 0.215f, vx = 0.0f, vy = 0.0f;
    const float dt = 1.0f / 60.0f, e = 0.5f;
    const double touch = (double)r + (double)R[0];
    long deeper = 0;
    *depth = -1.0;
    for (long pass = 0; pass < WEDGE_PASSES; pass++) {
        double before[2];
        for (int k = 0; k < 2; k++)
            before[k] = axis_distance(x, y, ax[k], ay[k], ax[k], ay[k]);
        vy += -9.8f * dt;
        float mx = vx * dt, my = vy * dt, left = 1.0f;
        for (int p = 0; p < 3; p++) {
            const c2d_circle_soa ball = {.x = &x, .y = &y, .radius = &r, .count = 1};
            c2d_circle_toi h;
            assert_int_equal(c2d_scene_sweep(sc, &ball, &mx, &my, &h), C2D_OK);
            const float t = h.capsule == C2D_NONE ? 1.0f : h.toi.t;
            if (float_advance) {
                if (t > 0.0f) x += mx * t, y += my * t;
            } else {
                const c2d_move_soa move = {.x = &mx, .y = &my};
                assert_int_equal(c2d_scene_advance(sc, &ball, &move, &t, &x, &y), C2D_OK);
            }
            if (h.capsule == C2D_NONE) break;
            c2d_body b = {{vx, vy}, 1.0f, e}, pin = {{0.0f, 0.0f}, 0.0f, e};
            c2d_apply_impulse(&b, &pin, h.toi.normal);
            vx = b.velocity.x, vy = b.velocity.y;
            left *= 1.0f - t;
            const c2d_vec2 slid =
                c2d_slide_move((c2d_vec2){vx * dt * left, vy * dt * left}, h.toi.normal);
            mx = slid.x, my = slid.y;
        }
        bool worse = false;
        for (int k = 0; k < 2; k++) {
            const double d = axis_distance(x, y, ax[k], ay[k], ax[k], ay[k]);
            worse |= d < (before[k] < touch ? before[k] : touch);
            *depth = touch - d > *depth ? touch - d : *depth;
        }
        deeper += worse;
        if (!float_advance) assert_true((double)y - oy > 0.09); /* above the gap (0.096) */
    }
    c2d_scene_destroy(sc);
    return deeper;
}

static void wedge_never_deeper(void **state) {
    (void)state;
    const double offsets[][2] = {{0, 0},     {1000, 0},   {-1000, 0}, {0, 1000},  {0, -1000},
                                 {16384, 0}, {-16384, 0}, {0, 16384}, {0, -16384}};
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        for (size_t c = 0; c < sizeof offsets / sizeof offsets[0]; c++) {
            double depth;
            const long deeper = run_wedge(offsets[c][0], offsets[c][1], false, &depth);
            if (deeper != 0)
                fail_msg("%s: offset (%g, %g): %ld passes deeper, depth %g",
                         c2d_backend_name(list[b]), offsets[c][0], offsets[c][1], deeper, depth);
        }
    }
    /* the float advance, for the record (see the top of this file) */
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    for (size_t c = 0; c < sizeof offsets / sizeof offsets[0]; c++) {
        double depth;
        const long deeper = run_wedge(offsets[c][0], offsets[c][1], true, &depth);
        print_message("# float advance at (%g, %g): %ld passes deeper, depth %.2g\n", offsets[c][0],
                      offsets[c][1], deeper, depth);
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
}

/* ---- the rule on random scenes ------------------------------------------------------------ */

/* Is out[i] kept by the rule against every capsule of s (allowed, no sensor) from (x, y), and
 * no farther from the start than the float candidate (a back-off, then a slide along a capsule:
 * never longer than the move); and exactly the candidate when that keeps the rule. */
static void check_rule(const scene *s, const float *x, const float *y, const float *t,
                       const float *ox, const float *oy, const char *label) {
    const c2d_capsule_soa *K = &s->capsules;
    for (size_t i = 0; i < s->n; i++) {
        const float r = s->r[i], mx = s->mx[i], my = s->my[i];
        float ti = t ? t[i] : 1.0f;
        ti = ti > 0.0f ? (ti < 1.0f ? ti : 1.0f) : 0.0f;
        const float cx = x[i] + mx * ti, cy = y[i] + my * ti;
        bool candidate_kept = true;
        for (size_t k = 0; k < s->m; k++) {
            if (!c2d_filter_allows(s->circles.category ? s->circles.category[i] : C2D_FILTER_ALL,
                                   s->circles.mask ? s->circles.mask[i] : C2D_FILTER_ALL,
                                   K->category ? K->category[k] : C2D_FILTER_ALL,
                                   K->mask ? K->mask[k] : C2D_FILTER_ALL) ||
                (K->sensor && K->sensor[k]))
                continue;
            const double touch = (double)r + (double)s->R[k];
            const double d0 = axis_distance(x[i], y[i], s->ax[k], s->ay[k], s->bx[k], s->by[k]);
            const double d1 = axis_distance(ox[i], oy[i], s->ax[k], s->ay[k], s->bx[k], s->by[k]);
            const double dc = axis_distance(cx, cy, s->ax[k], s->ay[k], s->bx[k], s->by[k]);
            if (!(d1 >= (d0 < touch ? d0 : touch)))
                fail_msg("%s: ball %zu capsule %zu: %.17g < min(%.17g, %.17g)", label, i, k, d1, d0,
                         touch);
            candidate_kept &= dc >= (d0 < touch ? d0 : touch);
        }
        /* (Euclidean: the rest of a move that slides along a capsule keeps its length or less,
         * not its |x| + |y|.) */
        const double reach = hypot((double)cx - x[i], (double)cy - y[i]);
        const double moved = hypot((double)ox[i] - x[i], (double)oy[i] - y[i]);
        if (!(moved <= reach * (1.0 + 0x1p-20) + 0x1p-22 * (fabs(x[i]) + fabs(y[i]))))
            fail_msg("%s: ball %zu moved %g, past its candidate's %g", label, i, moved, reach);
        const bool finite = isfinite(x[i]) && isfinite(y[i]) && isfinite(r) && isfinite(mx) &&
                            isfinite(my) && isfinite(cx) && isfinite(cy);
        if (finite && ti > 0.0f && candidate_kept &&
            !(same_float(ox[i], cx) && same_float(oy[i], cy)))
            fail_msg("%s: ball %zu: its candidate keeps the rule but it did not move by x + m t",
                     label, i);
    }
}

/* The advance of s's balls by t on every backend: the rule, and the same bytes everywhere; the
 * answer into (ox, oy). */
static void advance_everywhere(c2d_scene *sc, const scene *s, const float *t, float *ox, float *oy,
                               const char *label) {
    const c2d_move_soa moves = {.x = s->mx, .y = s->my};
    float *fx = xmalloc(s->n * sizeof *fx + 1), *fy = xmalloc(s->n * sizeof *fy + 1);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        float *wx = b == 0 ? ox : fx, *wy = b == 0 ? oy : fy;
        assert_int_equal(c2d_scene_advance(sc, &s->circles, &moves, t, wx, wy), C2D_OK);
        if (b > 0 && (memcmp(fx, ox, s->n * sizeof *fx) || memcmp(fy, oy, s->n * sizeof *fy)))
            fail_msg("%s: %s differs from %s", label, c2d_backend_name(list[b]),
                     c2d_backend_name(list[0]));
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    check_rule(s, s->x, s->y, t, ox, oy, label);
    free(fx);
    free(fy);
}

static void random_scenes_keep_the_rule(void **state) {
    (void)state;
    c2d_rng rng = {42};
    const float offsets[][2] = {{0, 0}, {1000, -1000}, {16384, 16384}, {-16384, 3}, {3e5f, 0}};
    size_t backed_off = 0, balls = 0;
    for (int round = 0; round < 60; round++) {
        const float *o = offsets[round % 5];
        scene s;
        scene_init(&s, 300, 40, LAYOUT_ALIGNED);
        fill_near_touch(&s, &rng, o[0], o[1], round % 3 == 0 ? 0.01f : 1.0f);
        c2d_scene *sc;
        assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
        float *t = xmalloc(s.n * sizeof *t), *ox = xmalloc(s.n * sizeof *ox);
        float *oy = xmalloc(s.n * sizeof *oy);
        c2d_circle_toi *hits = xmalloc(s.n * sizeof *hits);
        assert_int_equal(c2d_scene_sweep(sc, &s.circles, s.mx, s.my, hits), C2D_OK);
        char label[96];
        /* the sweep's times (1 for no hit), then random times, then t NULL */
        for (size_t i = 0; i < s.n; i++)
            t[i] = hits[i].capsule == C2D_NONE ? 1.0f : hits[i].toi.t;
        snprintf(label, sizeof label, "round %d (%g, %g), sweep times", round, o[0], o[1]);
        advance_everywhere(sc, &s, t, ox, oy, label);
        for (size_t i = 0; i < s.n; i++) {
            const float cx = s.x[i] + s.mx[i] * t[i], cy = s.y[i] + s.my[i] * t[i];
            backed_off += !(same_float(ox[i], cx) && same_float(oy[i], cy));
        }
        balls += s.n;
        for (size_t i = 0; i < s.n; i++)
            t[i] = c2d_rng_range(&rng, -0.25f, 1.25f);
        snprintf(label, sizeof label, "round %d (%g, %g), random times", round, o[0], o[1]);
        advance_everywhere(sc, &s, t, ox, oy, label);
        snprintf(label, sizeof label, "round %d (%g, %g), t NULL", round, o[0], o[1]);
        advance_everywhere(sc, &s, NULL, ox, oy, label);
        /* t NULL is t = 1 for every ball */
        float *ux = xmalloc(s.n * sizeof *ux), *uy = xmalloc(s.n * sizeof *uy);
        for (size_t i = 0; i < s.n; i++)
            t[i] = 1.0f;
        const c2d_move_soa moves = {.x = s.mx, .y = s.my};
        assert_int_equal(c2d_scene_advance(sc, &s.circles, &moves, t, ux, uy), C2D_OK);
        assert_memory_equal(ux, ox, s.n * sizeof *ux);
        assert_memory_equal(uy, oy, s.n * sizeof *uy);
        /* the same answer through the sweep index (built by the sweeps that follow the first,
         * scene_sweep_index.h) as through the capsule index: the candidates differ, not the
         * rule */
        for (int k = 0; k < 3; k++)
            assert_int_equal(c2d_scene_sweep(sc, &s.circles, s.mx, s.my, hits), C2D_OK);
        assert_int_equal(c2d_scene_advance(sc, &s.circles, &moves, t, ux, uy), C2D_OK);
        assert_memory_equal(ux, ox, s.n * sizeof *ux);
        assert_memory_equal(uy, oy, s.n * sizeof *uy);
        /* in place: the balls' own arrays, the same answer */
        assert_int_equal(c2d_scene_advance(sc, &s.circles, &moves, t, s.x, s.y), C2D_OK);
        assert_memory_equal(s.x, ox, s.n * sizeof *ux);
        assert_memory_equal(s.y, oy, s.n * sizeof *uy);
        free(ux), free(uy), free(t), free(ox), free(oy), free(hits);
        c2d_scene_destroy(sc);
        scene_free(&s);
    }
    print_message("# %zu of %zu balls backed off their float candidate (sweep times)\n", backed_off,
                  balls);
}

/* Many capsules near one path (more candidates than the walk gathers, and a box over many
 * cells): the rule holds through the scan of every capsule. */
static void crowded_path(void **state) {
    (void)state;
    c2d_rng rng = {7};
    scene s;
    scene_init(&s, 64, 3000, LAYOUT_ALIGNED);
    for (size_t k = 0; k < s.m; k++) {
        s.ax[k] = 1000.0f + c2d_rng_range(&rng, -5.0f, 5.0f);
        s.ay[k] = c2d_rng_range(&rng, -5.0f, 5.0f);
        s.bx[k] = s.ax[k] + c2d_rng_range(&rng, -0.2f, 0.2f);
        s.by[k] = s.ay[k];
        s.R[k] = 0.02f;
    }
    for (size_t i = 0; i < s.n; i++) {
        s.x[i] = 1000.0f + c2d_rng_range(&rng, -30.0f, 30.0f);
        s.y[i] = c2d_rng_range(&rng, -30.0f, 30.0f);
        s.r[i] = 0.1f;
        s.mx[i] = 1000.0f - s.x[i] + c2d_rng_range(&rng, -1.0f, 1.0f);
        s.my[i] = -s.y[i];
    }
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
    float ox[64], oy[64];
    advance_everywhere(sc, &s, NULL, ox, oy, "crowded");
    c2d_scene_destroy(sc);
    scene_free(&s);
}

/* ---- the corner -------------------------------------------------------------------------- */

/* A ball touching a thin slope, moved along it into a wall past its end (a move the sweep did not
 * stop, t = 1): the candidate breaks the rule for the wall, and the rest of the move slides along
 * the wall. Sliding up the wall from a point against the slope jumped the slope when only the
 * slid point was checked (a ball of a restitution-1 crowd left its triangle this way). Every
 * slope angle and offset: the ball ends on its side of the slope, no nearer its axis than r + R
 * (less an ulp of the coordinates). */
static void corner_slide_stays(void **state) {
    (void)state;
    const double offsets[][2] = {{0, 0}, {1000, 0}, {0, -1000}, {16384, 16384}};
    const double angles[] = {20, 30, 45, 60, 70};
    long crossed = 0;
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
        for (size_t a = 0; a < sizeof angles / sizeof angles[0]; a++) {
            const double th = angles[a] * 3.14159265358979 / 180.0, ox = offsets[o][0],
                         oy = offsets[o][1];
            const double ux = cos(th), uy = sin(th), len = 10.0;
            /* the slope from the corner's foot up to the wall x = ox + len cos(th) */
            float cax[2] = {(float)ox, (float)(ox + len * ux)};
            float cay[2] = {(float)oy, (float)oy};
            float cbx[2] = {(float)(ox + len * ux), (float)(ox + len * ux)};
            float cby[2] = {(float)(oy + len * uy), (float)(oy + len * uy + 10.0)};
            float R[2] = {0.02f, 0.02f};
            const c2d_capsule_soa caps = {
                .ax = cax, .ay = cay, .bx = cbx, .by = cby, .radius = R, .count = 2};
            c2d_scene *sc;
            assert_int_equal(c2d_scene_create(&caps, NULL, &sc), C2D_OK);
            for (int k = 0; k < 40; k++) {
                /* touching the slope from below-right, at 0.55-0.94 of its length */
                const float r = 0.134223f;
                const double along = len * (0.55 + 0.01 * k), gap = (double)r + R[0];
                float x = (float)(ox + along * ux + gap * uy),
                      y = (float)(oy + along * uy - gap * ux);
                float mx = (float)(3.0 * ux), my = (float)(3.0 * uy);
                const c2d_circle_soa ball = {.x = &x, .y = &y, .radius = &r, .count = 1};
                const c2d_move_soa move = {.x = &mx, .y = &my};
                float ex, ey;
                assert_int_equal(c2d_scene_advance(sc, &ball, &move, NULL, &ex, &ey), C2D_OK);
                const double side = (ex - cax[0]) * (double)(cby[0] - cay[0]) -
                                    (ey - cay[0]) * (double)(cbx[0] - cax[0]);
                const double d = axis_distance(ex, ey, cax[0], cay[0], cbx[0], cby[0]);
                const double ulp = (fabs(ox) + fabs(oy) + 20.0) * 0x1p-23;
                if (!(side > 0.0 && d >= gap - ulp)) {
                    if (crossed < 5)
                        print_message("crossed: offset (%g, %g) angle %g k %d: (%.6f, %.6f) -> "
                                      "(%.6f, %.6f), distance %.6f\n",
                                      ox, oy, angles[a], k, x, y, ex, ey, d);
                    crossed++;
                }
            }
            c2d_scene_destroy(sc);
        }
    }
    assert_int_equal(crossed, 0);
}

/* ---- contract ---------------------------------------------------------------------------- */

static void statuses(void **state) {
    (void)state;
    float ax = 0.0f, ay = 0.0f, R = 1.0f;
    const c2d_capsule_soa pin = {
        .ax = &ax, .ay = &ay, .bx = &ax, .by = &ay, .radius = &R, .count = 1};
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&pin, NULL, &sc), C2D_OK);
    float x[2] = {5.0f, 6.0f}, y[2] = {0.0f, 0.0f}, r[2] = {0.5f, 0.5f};
    float mx[2] = {-1.0f, -1.0f}, my[2] = {0.0f, 0.0f}, ox[2] = {-7.0f, -7.0f},
          oy[2] = {-7.0f, -7.0f};
    const c2d_circle_soa balls = {.x = x, .y = y, .radius = r, .count = 2};
    const c2d_move_soa moves = {.x = mx, .y = my}, half = {.x = mx, .y = NULL};
    c2d_circle_soa no_x = balls, none = {.count = 0}, huge = balls;
    no_x.x = NULL;
    assert_int_equal(c2d_scene_advance(NULL, &balls, &moves, NULL, ox, oy), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_advance(sc, NULL, &moves, NULL, ox, oy), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_advance(sc, &no_x, &moves, NULL, ox, oy), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_advance(sc, &balls, NULL, NULL, ox, oy), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_advance(sc, &balls, &half, NULL, ox, oy), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_advance(sc, &balls, &moves, NULL, NULL, oy), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_advance(sc, &balls, &moves, NULL, ox, NULL), C2D_ERROR_NULL);
    if (SIZE_MAX > UINT32_MAX) {
        huge.count = (size_t)UINT32_MAX + 1;
        assert_int_equal(c2d_scene_advance(sc, &huge, &moves, NULL, ox, oy), C2D_ERROR_TOO_LARGE);
    }
    assert_true(ox[0] == -7.0f && ox[1] == -7.0f && oy[0] == -7.0f && oy[1] == -7.0f);
    /* no balls: nothing is read or written */
    assert_int_equal(c2d_scene_advance(sc, &none, NULL, NULL, NULL, NULL), C2D_OK);
    /* a ball moving into the pin stops outside it; the other, farther, moves freely */
    assert_int_equal(c2d_scene_advance(sc, &balls, &moves, NULL, ox, oy), C2D_OK);
    assert_true(ox[0] == 4.0f && ox[1] == 5.0f); /* 4 - 0 >= 1.5: both kept */
    mx[0] = -4.0f;
    assert_int_equal(c2d_scene_advance(sc, &balls, &moves, NULL, ox, oy), C2D_OK);
    assert_true(ox[0] >= 1.5f && ox[0] < 5.0f && oy[0] == 0.0f);
    c2d_scene_destroy(sc);
}

/* A ball whose centre, radius, move or t is NaN or infinite (or t <= 0) stays; t > 1 is 1. */
static void strange_balls_stay(void **state) {
    (void)state;
    float ax = 0.0f, ay = 0.0f, R = 1.0f;
    const c2d_capsule_soa pin = {
        .ax = &ax, .ay = &ay, .bx = &ax, .by = &ay, .radius = &R, .count = 1};
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&pin, NULL, &sc), C2D_OK);
    enum { N = 9 };
    const float nan = NAN, inf = INFINITY;
    float x[N] = {nan, 5, 5, 5, 5, 5, 5, 5, inf}, y[N] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    float r[N] = {0.5f, nan, inf, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    float mx[N] = {-1, -1, -1, nan, -inf, -1, -1, -1, -1}, my[N] = {0};
    float t[N] = {1, 1, 1, 1, 1, nan, -0.5f, 7.0f, 1};
    float ox[N], oy[N];
    const c2d_circle_soa balls = {.x = x, .y = y, .radius = r, .count = N};
    const c2d_move_soa moves = {.x = mx, .y = my};
    assert_int_equal(c2d_scene_advance(sc, &balls, &moves, t, ox, oy), C2D_OK);
    for (size_t i = 0; i < N; i++) {
        const float want = i == 7 ? 4.0f : x[i];
        assert_true(same_float(ox[i], want) && same_float(oy[i], y[i]));
    }
    c2d_scene_destroy(sc);
}

/* A capsule the filter refuses, and a sensor, do not hold a ball back; an allowed one does.
 * NaN capsules are skipped. */
static void filters_and_sensors(void **state) {
    (void)state;
    float ax[4] = {0, 0, 0, NAN}, ay[4] = {0, 0, 0, 0}, R[4] = {1, 1, 1, 1};
    uint32_t cat[4] = {1, 2, 1, 1},
             mask[4] = {C2D_FILTER_ALL, C2D_FILTER_ALL, C2D_FILTER_ALL, C2D_FILTER_ALL};
    uint8_t sensor[4] = {0, 0, 1, 0};
    float x[1] = {5}, y[1] = {0}, r[1] = {0.5f}, mx[1] = {-4}, my[1] = {0}, ox[1], oy[1];
    uint32_t bcat[1] = {C2D_FILTER_ALL}, bmask[1] = {2};
    const c2d_move_soa moves = {.x = mx, .y = my};
    for (int only = 0; only < 4; only++) {
        const c2d_capsule_soa pins = {.ax = ax + only,
                                      .ay = ay + only,
                                      .bx = ax + only,
                                      .by = ay + only,
                                      .radius = R + only,
                                      .count = 1,
                                      .category = cat + only,
                                      .mask = mask + only,
                                      .sensor = sensor + only};
        c2d_scene *sc;
        assert_int_equal(c2d_scene_create(&pins, NULL, &sc), C2D_OK);
        /* unfiltered ball: stopped by capsule 0 and 1 (allowed), not by the sensor or NaN */
        const c2d_circle_soa plain = {.x = x, .y = y, .radius = r, .count = 1};
        assert_int_equal(c2d_scene_advance(sc, &plain, &moves, NULL, ox, oy), C2D_OK);
        if (only < 2)
            assert_true(ox[0] >= 1.5f);
        else
            assert_true(ox[0] == 1.0f);
        /* a ball whose mask takes layer 2 only: capsule 1 stops it, capsule 0 does not */
        const c2d_circle_soa picky = {
            .x = x, .y = y, .radius = r, .count = 1, .category = bcat, .mask = bmask};
        assert_int_equal(c2d_scene_advance(sc, &picky, &moves, NULL, ox, oy), C2D_OK);
        if (only == 1)
            assert_true(ox[0] >= 1.5f);
        else
            assert_true(ox[0] == 1.0f);
        c2d_scene_destroy(sc);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wedge_never_deeper), cmocka_unit_test(random_scenes_keep_the_rule),
        cmocka_unit_test(crowded_path),       cmocka_unit_test(statuses),
        cmocka_unit_test(strange_balls_stay), cmocka_unit_test(filters_and_sensors),
        cmocka_unit_test(corner_slide_stays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
