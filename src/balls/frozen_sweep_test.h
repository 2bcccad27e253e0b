/* The sweep of one awake ball against the frozen balls (c2d_frozen_sweep), one candidate at a
 * time (frozen_sweep_one, from the index's walk) and a last step after the walk
 * (frozen_sweep_finish). A cheap float test sorts each frozen ball into "cannot hit", "surely
 * hits at t = 0" and "maybe" (batch/ball_sweep_walk.h, sweep_lanes_of, for a partner that does
 * not move); of the sure partners only the lowest id can be the answer, and its hit is
 * computed once; the maybes are kept (up to FROZEN_SWEEP_MAYBES) with a lower bound of their
 * touch time, and at the end only those that could still beat the best hit get the exact
 * c2d_sweep_circles, earliest bound first. In W8's scattered pile (10% awake, short moves)
 * that is 0.36 formulas and 0.73 start hits (ball_start_hit_lanes) an awake ball instead of
 * 5.4 formulas.
 *
 * Why the answer is c2d_sweep_circles', byte for byte (a = the awake ball moving by m, b = a
 * frozen ball, s = a - b, v = m - 0 = m, rs = r_a + r_b; the tests run only when both balls
 * are tame, |values| <= 2^40, and a moves; the others go to the formula):
 * - a hit is kept when strictly earlier, or as early from a lower id (c2d_keep_earliest_ball),
 *   so the order of the candidates does not matter, and one that cannot beat the best so far
 *   needs no formula: nothing beats t = 0 from a lower id (every t is >= +0);
 * - no move (both components zero, of either sign): the formula's "moving" fails for every b,
 *   so sweep_frozen skips the walk;
 * - "too far" (|s|^2 above (|v|_1 + g)^2, g the radius sum plus the sweep slack), and for a
 *   pair in contact by the formula's own float overlap test (the same d2): "clearly apart" is
 *   no hit, "clearly deeper" a hit at t = 0 with ball_start_hit_lanes' values. These are
 *   sweep_lanes_of's tests with the partner's move 0 (batch/ball_sweep_walk.h; the proof of
 *   the sure hit's values is at sure_flush, batch/kernels_ball_sweeps.c);
 * - a sure partner with id k: a hit at t = 0 from k, so every candidate above k loses to it;
 * - not in contact by the float test: the formula's c = |s|^2 - rs^2, b = v.s, w = v x s and
 *   lim = rs |v| in double, computed as it computes them (the same operations on the same
 *   values). Where c > 0 its only hit is the root t = c / (-b + sqrt(lim^2 - w^2)), taken only
 *   where b < 0 and |w| <= lim ("toward"): otherwise no hit. The root in double is at least
 *   ((|s| - rs) - 2^-49 (|s| + rs)) / |v| (1 - 2^-47) (|s|, |v| exact): c is at least
 *   (|s|^2 - rs^2) - 2^-49 (|s|^2 + rs^2), |b| <= |v| |s| (1 + 2^-50) (Cauchy-Schwarz) and
 *   sqrt(disc) <= rs |v| (1 + 2^-49). The bound computed below takes 2^-30 off in both places
 *   (in double: a few roundings of 2^-53, no underflow or overflow for floats below 2^40), so
 *   it is below the root. Above 1: the root is past the frame, no hit. Above the best time B
 *   so far by more than a float step (B (1 + 2^-20) + 2^-140, B a float in [0, 1]): the root
 *   and its rounding to float are above B, so it cannot beat it. Other maybes get -inf. */
#ifndef C2D_BALLS_FROZEN_SWEEP_TEST_H
#define C2D_BALLS_FROZEN_SWEEP_TEST_H

#include "balls/frozen_layout.h"
#include "batch/kernels_balls.h"
#include "core/lane_scalar.h"
#include "core/dlane_scalar.h"
#include "core/ball_sweep_formula.h"

/* Out of line, and no warning in a file that includes this one without calling it. */
#if defined(__GNUC__) || defined(__clang__)
#define FROZEN_SWEEP_COLD static __attribute__((noinline, unused))
#else
#define FROZEN_SWEEP_COLD static
#endif

/* Maybes kept for the last step; more go to the formula at once. */
#define FROZEN_SWEEP_MAYBES 8

/* A maybe: a lower bound of its touch time (frozen_sweep_class) and its values. */
typedef struct frozen_maybe {
    double bound;
    float x, y, r;
    uint32_t id;
} frozen_maybe;

/* The sweep of one awake ball: its values and what the tests need of them, the best hit so
 * far, the lowest sure partner and the maybes kept. */
typedef struct frozen_sweep {
    float x, y, r, mx, my;
    float v1;     /* |mx| + |my| */
    float size;   /* |x| + |y| */
    double speed; /* |m|, in double (-1 until a test needs it) */
    uint32_t id;
    bool cull;           /* the ball is tame and moves: the float tests apply */
    uint32_t sure;       /* the lowest sure partner's id, or C2D_NONE */
    float sx, sy, sr;    /* its values */
    c2d_circle_hit best; /* the best hit of the formulas run */
    unsigned maybes;
    frozen_maybe maybe[FROZEN_SWEEP_MAYBES];
} frozen_sweep;

/* Whether a ball moving by (mx, my) can hit a still one at all: not when it does not move. */
static inline bool frozen_sweep_moves(float mx, float my) {
    return mx != 0.0f || my != 0.0f;
}

/* The sweep of awake ball id at (x, y), radius r, moving by (mx, my), before any candidate. */
static inline void frozen_sweep_begin(frozen_sweep *s, float x, float y, float r, float mx,
                                      float my, uint32_t id) {
    s->x = x;
    s->y = y;
    s->r = r;
    s->mx = mx;
    s->my = my;
    s->v1 = fabsf(mx) + fabsf(my);
    s->size = fabsf(x) + fabsf(y);
    s->speed = -1.0;
    s->id = id;
    s->cull = frozen_tame(x) && frozen_tame(y) && frozen_tame(r) && frozen_tame(mx) &&
              frozen_tame(my) && frozen_sweep_moves(mx, my);
    s->sure = C2D_NONE;
    s->sx = s->sy = s->sr = 0.0f;
    s->best = c2d_no_ball_hit();
    s->maybes = 0;
}

/* What the tests say of a tame frozen ball (x, y, r): no hit, a sure hit at t = 0, or maybe
 * (with a lower bound of its time: -inf where none, see the top). */
enum { FROZEN_SKIP, FROZEN_SURE, FROZEN_MAYBE };

C2D_FORMULA int frozen_sweep_class(frozen_sweep *s, float xj, float yj, float rj, double *bound) {
    const float sx = s->x - xj, sy = s->y - yj;
    const float vx = s->mx, vy = s->my, v1 = s->v1;
    const float d2 = sx * sx + sy * sy;
    const float rs = s->r + rj;
    /* sweep_lanes_of's reach, term by term */
    const float grow = (rs + (v1 + fabsf(rs)) * C2D_SWEEP_SIZE_SLACK) +
                       ((s->size + (fabsf(xj) + fabsf(yj))) * C2D_SWEEP_POSITION_SLACK + 1e-18f);
    const float reach = v1 + grow;
    if (!(d2 <= reach * reach)) return FROZEN_SKIP;
    *bound = -INFINITY;
    if (radii_overlap(d2, s->r, rj)) {
        /* sweep_lanes_of's sure and apart */
        const float l1 = v1 * (fabsf(sx) + fabsf(sy));
        const float dot = vx * sx + vy * sy;
        const float margin = l1 * 0x1p-10f;
        if (l1 >= 0x1p-100f && -dot > margin) return FROZEN_SURE;
        if (l1 >= 0x1p-100f && dot > margin) return FROZEN_SKIP;
        return FROZEN_MAYBE;
    }
    /* not in contact by the formula's float test: its c, b = v.s, w = v x s and lim, as
     * circles_touch_time computes them (v = m - 0 is m, up to the sign of a zero) */
    const double dx = (double)s->x - (double)xj, dy = (double)s->y - (double)yj;
    const double mx = s->mx, my = s->my;
    const double rsd = (double)s->r + (double)rj;
    const double dd = dx * dx + dy * dy;
    const double c = dd - rsd * rsd;
    if (!(c > 0.0)) return FROZEN_MAYBE; /* in contact in double: t = 0 may follow */
    const double b = mx * dx + my * dy, w = mx * dy - my * dx;
    if (s->speed < 0.0) s->speed = sqrt(mx * mx + my * my);             /* lim's |v| */
    if (!(b < 0.0) || !(fabs(w) <= rsd * s->speed)) return FROZEN_SKIP; /* not toward */
    const double d = sqrt(dd);
    *bound = ((d - rsd) - 0x1p-30 * (d + rsd)) / s->speed * (1.0 - 0x1p-30);
    return *bound > 1.0 ? FROZEN_SKIP : FROZEN_MAYBE; /* the root is above 1 */
}

/* Whether a hit no earlier than `bound` cannot beat `best`: more than a float step later. */
static inline bool frozen_sweep_later(const c2d_circle_hit *best, double bound) {
    return best->other != C2D_NONE && bound > (double)best->toi.t * (1.0 + 0x1p-20) + 0x1p-140;
}

/* c2d_sweep_circles of the awake ball against frozen ball id, kept if it beats the best. */
static inline void frozen_sweep_exact(frozen_sweep *s, float x, float y, float r, uint32_t id) {
    if (c2d_ball_cannot_beat(&s->best, id)) return;
    const c2d_circle a = {{s->x, s->y}, s->r}, b = {{x, y}, r};
    const c2d_vec2 m = {s->mx, s->my}, still = {0.0f, 0.0f};
    c2d_toi toi;
    if (c2d_sweep_circles(a, m, b, still, &toi)) c2d_keep_earliest_ball(&s->best, id, &toi);
}

/* The awake ball against frozen ball id at (x, y), radius r (its own id is skipped). */
C2D_FORMULA void frozen_sweep_one(frozen_sweep *s, float x, float y, float r, uint32_t id) {
    if (id == s->id || id > s->sure) return;
    if (s->cull && frozen_tame(x) && frozen_tame(y) && frozen_tame(r)) {
        double bound;
        const int k = frozen_sweep_class(s, x, y, r, &bound);
        if (k == FROZEN_SKIP) return;
        if (k == FROZEN_SURE) {
            s->sure = id; /* below the old one (the test above) */
            s->sx = x;
            s->sy = y;
            s->sr = r;
            return;
        }
        if (s->maybes < FROZEN_SWEEP_MAYBES) {
            const frozen_maybe m = {bound, x, y, r, id};
            s->maybe[s->maybes++] = m;
            return;
        }
    }
    frozen_sweep_exact(s, x, y, r, id);
}

/* frozen_sweep_finish where a sure partner or a maybe is left (out of line: in a gas or a
 * crater most balls have neither). */
FROZEN_SWEEP_COLD void frozen_sweep_settle(frozen_sweep *s) {
    if (s->sure != C2D_NONE && c2d_ball_hit_beats(&s->best, s->sure, 0.0f)) {
        toi_lanes k;
        ball_start_hit_lanes(s->x, s->y, s->sx, s->sy, s->sr, &k);
        s->best.other = s->sure;
        s->best.toi.t = k.t;
        s->best.toi.normal.x = k.nx;
        s->best.toi.normal.y = k.ny;
        s->best.toi.point.x = k.px;
        s->best.toi.point.y = k.py;
    }
    frozen_maybe *m = s->maybe;
    const unsigned n = s->maybes;
    for (unsigned i = 1; i < n; i++) {
        const frozen_maybe v = m[i];
        unsigned j = i;
        for (; j > 0 && m[j - 1].bound > v.bound; j--)
            m[j] = m[j - 1];
        m[j] = v;
    }
    for (unsigned i = 0; i < n; i++) {
        if (frozen_sweep_later(&s->best, m[i].bound)) break; /* and the rest: bounds increase */
        if (m[i].id < s->sure) frozen_sweep_exact(s, m[i].x, m[i].y, m[i].r, m[i].id);
    }
}

/* The awake ball's hit after every candidate: the lowest sure partner's hit at t = 0 where it
 * beats the formulas run, then the maybes kept, earliest bound first, while they can beat
 * the best. */
static inline c2d_circle_hit frozen_sweep_finish(frozen_sweep *s) {
    if (s->sure != C2D_NONE || s->maybes > 0) frozen_sweep_settle(s);
    return s->best;
}

#endif
