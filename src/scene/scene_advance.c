/* c2d_scene_advance (collide2d/scene.h): each ball moved by t of its move, but never closer to
 * a capsule's axis than min(its distance at the start, r + R), that distance computed in double
 * from the floats (distance2 below: the square of the formula the header states).
 *
 * Why: a sweep's t is exact for the sweep, but the caller's float `x + mx * t` rounds, and away
 * from the origin the rounding (half an ulp of x: 3e-5 at x = 1000) can land the centre a little
 * deeper than the sweep approved. A ball wedged between two pins touches both, slides along them
 * with no hit at all (the start rule), and so sank a rounding a pass (issue 42). Here the float
 * candidate, the very expression the README loop used, is kept when it keeps every distance;
 * otherwise the ball backs off toward its start, which always keeps them, and the rest of the
 * move slides along the capsule it broke the rule for (a back-off alone cut the move of a ball
 * sliding down a wall to half: rounding took it an ulp into the wall at every point). The slide
 * is the one part of the move no sweep saw, so every point of it must keep the rule, not only
 * its end (from a corner a ball slid up one wall and jumped the other, a thin slope).
 *
 * Candidates: a capsule can break the rule only if some position between the start and the
 * candidate is within r + R of its axis, so within r of the capsule, which its index box
 * contains (cull.h's sweep box: the capsule grown by |R| and slack). So the capsules whose index
 * boxes meet the box of the start and the candidate, grown by |r| and a slack that covers the
 * back-off candidates' rounding and the double distances' error, are all that can break it
 * (the sweeps' walk of the sweep index, or scene_search.c's of the capsule index, finds them;
 * a box over too many cells or candidates looks at every capsule). For every other capsule the
 * distance exceeds r + R by more than the double formula can err.
 *
 * Plain C in double and float (the cell masks through SIMDe give the same answer on every
 * backend): the same bytes on every backend; no allocation, the scene only read. */
#include <math.h>

#include "collide2d/scene.h"
#include "contract.h"
#include "prefetch.h"
#include "scene/scene_search.h"
#include "scene/scene_state.h"

/* Back-off steps: bisection on t in double. 16 halvings of a move leave 2^-16 of it, below a
 * float step of the position for any move shorter than 2^-7 of its coordinates' magnitude; a
 * ball that finds no kept position in 16 steps stays at its start (which always keeps). */
enum { ADVANCE_STEPS = 16 };

/* The square of the distance from (px, py) to segment a-b, in double: u = clamp(((p - a) .
 * (b - a)) / |b - a|^2, 0, 1) (0 when a == b), then |p - a - u (b - a)|^2; its sqrt is the
 * header's distance. Where the clamp decides (the dot product at most 0, or at least |b - a|^2,
 * where the quotient rounds to a value the clamp turns into 0 or 1 anyway) the division is
 * skipped: the same bytes. */
static double distance2(double px, double py, double ax, double ay, double bx, double by) {
    const double dx = bx - ax, dy = by - ay, wx = px - ax, wy = py - ay;
    const double dd = dx * dx + dy * dy, dot = wx * dx + wy * dy;
    double u = 0.0;
    if (dd > 0.0 && dot > 0.0) {
        u = dot >= dd ? 1.0 : dot / dd;
        u = u < 1.0 ? u : 1.0;
    }
    const double ex = wx - u * dx, ey = wy - u * dy;
    return ex * ex + ey * ey;
}

/* One ball's advance: its start, radius, and the capsules to look at. */
typedef struct advance_ball {
    const c2d_scene *s;
    const c2d_circle_soa *filter; /* the balls when the call is filtered, else NULL */
    size_t i;                     /* the ball's index in them */
    float x, y, r;
    const uint32_t *cand; /* candidates, or NULL: every capsule whose index box meets box */
    size_t m;
    float box[4];
} advance_ball;

static bool finite4(float a, float b, float c, float d) {
    return isfinite(a) && isfinite(b) && isfinite(c) && isfinite(d);
}

/* Twice the signed area of triangle p q r, in double (> 0: counter-clockwise). */
static double orient(double px, double py, double qx, double qy, double rx, double ry) {
    return (qx - px) * (ry - py) - (qy - py) * (rx - px);
}

/* The square of the least distance from the path p0-p1 to segment a-b, in double: 0 where the
 * two cross, and else the least of the four endpoint-to-segment distances (two segments of the
 * plane that do not cross are nearest at an endpoint of one of them). */
static double path_distance2(double x0, double y0, double x1, double y1, double ax, double ay,
                             double bx, double by) {
    const double o0 = orient(ax, ay, bx, by, x0, y0), o1 = orient(ax, ay, bx, by, x1, y1);
    const double oa = orient(x0, y0, x1, y1, ax, ay), ob = orient(x0, y0, x1, y1, bx, by);
    if (((o0 > 0.0 && o1 < 0.0) || (o0 < 0.0 && o1 > 0.0)) &&
        ((oa > 0.0 && ob < 0.0) || (oa < 0.0 && ob > 0.0)))
        return 0.0;
    double d = distance2(x0, y0, ax, ay, bx, by);
    const double d1 = distance2(x1, y1, ax, ay, bx, by);
    const double da = distance2(ax, ay, x0, y0, x1, y1), db = distance2(bx, by, x0, y0, x1, y1);
    d = d1 < d ? d1 : d;
    d = da < d ? da : d;
    return db < d ? db : d;
}

/* Does point (x0, y0) keep the rule for capsule k, or with `path` every point of the path from
 * it to (x1, y1). Capsules the filter refuses, sensors and capsules with a value that is not
 * finite are skipped (the sweeps never stop the ball there, or their distance has no meaning
 * here). */
static inline bool keeps(const advance_ball *b, uint32_t k, float x0, float y0, float x1, float y1,
                         bool path) {
    const c2d_capsule_soa *K = &b->s->capsules;
    if (b->filter && !c2d_circle_meets_capsule(b->filter, b->i, K, k)) return true;
    const float ax = K->ax[k], ay = K->ay[k], bx = K->bx[k], by = K->by[k], R = K->radius[k];
    if (!(finite4(ax, ay, bx, by) && isfinite(R))) return true;
    const double touch = (double)b->r + (double)R;
    const double d1sq =
        path ? path_distance2(x0, y0, x1, y1, ax, ay, bx, by) : distance2(x0, y0, ax, ay, bx, by);
    /* min(start, r + R) <= r + R: kept without the start when the distance reaches r + R. A
     * square above touch^2 by more than its rounding (2^-50) has its rounded root at least
     * touch (sqrt is monotone): no root needed then. */
    if (touch <= 0.0 || d1sq > touch * touch * (1.0 + 0x1p-50)) return true;
    const double d1 = sqrt(d1sq);
    if (d1 >= touch) return true;
    return d1 >= sqrt(distance2(b->x, b->y, ax, ay, bx, by));
}

/* Does point (x0, y0) keep the rule for every capsule of the ball's candidates, or with `path`
 * every point of the path from it to (x1, y1). With `broken`, every candidate is looked at and
 * *broken receives the lowest index of those that break it (C2D_NONE if none, or for a point
 * that is not finite): the same capsule whichever index found the candidates, in whichever
 * order. */
static inline bool keeps_all(const advance_ball *b, float x0, float y0, float x1, float y1,
                             bool path, uint32_t *broken) {
    uint32_t lowest = C2D_NONE;
    if (broken) *broken = C2D_NONE;
    if (!finite4(x0, y0, x1, y1)) return false;
    if (b->cand) {
        for (size_t j = 0; j < b->m; j++) {
            if (keeps(b, b->cand[j], x0, y0, x1, y1, path)) continue;
            if (!broken) return false;
            lowest = b->cand[j] < lowest ? b->cand[j] : lowest;
        }
    } else {
        const c2d_capsule_index *x = &b->s->index;
        for (uint32_t k = 0; k < b->s->capsule_count; k++) {
            if (x->kind[k] == C2D_KIND_NEVER) continue;
            if (x->kind[k] == C2D_KIND_GRID &&
                !(x->lo_x[k] <= b->box[1] && x->hi_x[k] >= b->box[0] && x->lo_y[k] <= b->box[3] &&
                  x->hi_y[k] >= b->box[2]))
                continue;
            if (keeps(b, k, x0, y0, x1, y1, path)) continue;
            if (!broken) return false;
            lowest = k < lowest ? k : lowest;
        }
    }
    if (broken) *broken = lowest;
    return lowest == C2D_NONE;
}

/* From the kept point (fx, fy), the rest of the move (mx, my) less its part into capsule k
 * (along the unit normal from k's axis to the kept point, in double), plus `out` along that
 * normal, rounded to float once: the ball slides along the capsule. False when the kept point
 * is on the axis, or the new point leaves the box of the start and the candidate (grown by
 * `slack`), past which the candidates were not looked for. */
static bool slide_point(const advance_ball *b, uint32_t k, float fx, float fy, double mx, double my,
                        double out, const float box[4], float *px, float *py) {
    const c2d_capsule_soa *K = &b->s->capsules;
    const double ax = K->ax[k], ay = K->ay[k], dx = (double)K->bx[k] - ax,
                 dy = (double)K->by[k] - ay, wx = (double)fx - ax, wy = (double)fy - ay;
    const double dd = dx * dx + dy * dy, dot = wx * dx + wy * dy;
    double u = 0.0;
    if (dd > 0.0 && dot > 0.0) u = dot >= dd ? 1.0 : dot / dd;
    const double nx = wx - u * dx, ny = wy - u * dy, len = sqrt(nx * nx + ny * ny);
    if (!(len > 0.0)) return false;
    const double in = (mx * nx + my * ny) / len;
    if (in < 0.0) mx -= in * nx / len, my -= in * ny / len;
    /* Rounding the point to float may take it half an ulp of its coordinates into the
     * capsule (on a slope both coordinates round): `out` covers that. */
    mx += out * nx / len, my += out * ny / len;
    *px = (float)((double)fx + mx), *py = (float)((double)fy + my);
    return *px >= box[0] && *px <= box[1] && *py >= box[2] && *py <= box[3];
}

#define NO_CELL UINT32_MAX

/* Balls per block: their boxes and cells first, then the walks, which ask for the cells' groups
 * AHEAD balls on (the cell lists are scattered over memory: a walk waited for them, as the
 * sweeps' did). */
enum { BLOCK = 64, AHEAD = 8 };

/* One ball of a block: its start, move, time, float candidate, box and sweep-index cell, and
 * what is left to do. */
typedef struct advance_prep {
    float x, y, r, mx, my, t, cx, cy;
    float box[4];
    uint32_t cell;     /* the sweep-index cell of the box's low corner, or NO_CELL */
    unsigned char job; /* STAY, MOVE (to the candidate) or CHECK */
} advance_prep;
enum { STAY, MOVE, CHECK };

/* Is the sweep index current (built by a sweep of the scene's capsules as they are). */
static bool sweep_index_current(const c2d_scene *s) {
    return s->sweep.ready && s->sweep.generation == s->generation;
}

/* Ball i's candidate and box; the cell when the sweep index serves (asking for its bounds). */
static void prepare(const c2d_scene *s, const c2d_circle_soa *c, const c2d_move_soa *moves,
                    const float *t, size_t i, bool swept, advance_prep *p) {
    const float x = c->x[i], y = c->y[i], r = c->radius[i], mx = moves->x[i], my = moves->y[i];
    float ti = t ? t[i] : 1.0f;
    ti = ti > 0.0f ? (ti < 1.0f ? ti : 1.0f) : 0.0f; /* NaN: 0 */
    p->x = x, p->y = y, p->r = r, p->mx = mx, p->my = my, p->t = ti;
    p->cell = NO_CELL;
    p->job = STAY;
    if (ti == 0.0f || !(finite4(x, y, mx, my) && isfinite(r))) return;
    const float cx = x + mx * ti, cy = y + my * ti; /* the README loop's float advance */
    p->cx = cx, p->cy = cy;
    p->job = MOVE;
    if (s->capsule_count == 0) return;
    p->job = CHECK;
    /* The box of every position tried: the start, the candidate, and the back-off points
     * x + mx u (u in [0, t], rounded to float once: within an ulp of the segment), grown by
     * |r| and a slack of 2^-20 of the magnitudes S = |x| + |y| + |mx| + |my| + |r| (ulps are
     * 2^-23 of them; the double distances err by about 2^-50 of them), plus an absolute hair
     * for values near 0. In float: grown by 2^-19 S, which covers 2^-20 S and the rounding of
     * these few operations (each 2^-24 of a value below S). */
    const float S = fabsf(x) + fabsf(y) + fabsf(mx) + fabsf(my) + fabsf(r);
    const float grow = fabsf(r) + S * 0x1p-19f + 0x1p-60f;
    p->box[0] = (x < cx ? x : cx) - grow, p->box[1] = (x > cx ? x : cx) + grow;
    p->box[2] = (y < cy ? y : cy) - grow, p->box[3] = (y > cy ? y : cy) + grow;
    const c2d_sweep_index *w = &s->sweep;
    if (swept && p->box[1] - p->box[0] <= w->gate && p->box[3] - p->box[2] <= w->gate) {
        const c2d_grid *g = &w->grid;
        p->cell = c2d_grid_coord(p->box[2], g->y0, g->inv_size, g->ny) * g->nx +
                  c2d_grid_coord(p->box[0], g->x0, g->inv_size, g->nx);
        c2d_prefetch(&w->start[p->cell]);
    }
}

/* The capsules whose index boxes meet box b: from the sweep index when `cell` is b's cell
 * there (scene_sweep_index.h: the one cell of the low corner of a box within the gate lists
 * every listed capsule whose box it can meet, four at a time with their boxes: the sweeps' own
 * walk), plus the capsules the index holds everywhere; otherwise the region queries' walk of
 * the capsule index (scene_search.c). Returns the count in cand, or SIZE_MAX (look at every
 * capsule). */
static size_t candidates(const c2d_scene *s, const float b[4], uint32_t cell, uint32_t *cand) {
    if (cell == NO_CELL) return c2d_scene_box_candidates(s, b, cand);
    const c2d_sweep_index *w = &s->sweep;
    const c2d_capsule_index *x = &s->index;
    const uint32_t g0 = w->start[cell], g1 = w->start[cell + 1];
    if (4 * (size_t)(g1 - g0) + x->everywhere_count > C2D_SCENE_BOX_CANDIDATES)
        return c2d_scene_box_candidates(s, b, cand);
    const simde__m128 box = simde_mm_setr_ps(b[0], b[1], b[2], b[3]);
    size_t n = 0;
    for (uint32_t k = g0; k < g1; k++) {
        const c2d_sweep_group *gr = &w->group[k];
        for (unsigned m = c2d_slots_mask(gr->lo_x, gr->hi_x, gr->lo_y, gr->hi_y, box); m;
             m &= m - 1)
            cand[n++] = gr->capsule[__builtin_ctz(m)];
    }
    for (size_t e = 0; e < x->everywhere_count; e++)
        cand[n++] = x->everywhere[e];
    return n;
}

/* Ball i (prepared in *p): its new centre into (*ox, *oy). */
static void finish(const c2d_scene *s, const c2d_circle_soa *filter, size_t i,
                   const advance_prep *p, float *ox, float *oy) {
    if (p->job != CHECK) {
        *ox = p->job == MOVE ? p->cx : p->x, *oy = p->job == MOVE ? p->cy : p->y;
        return;
    }
    const float x = p->x, y = p->y, mx = p->mx, my = p->my, cx = p->cx, cy = p->cy;
    advance_ball b = {
        s, filter, i, x, y, p->r, NULL, 0, {p->box[0], p->box[1], p->box[2], p->box[3]}};
    uint32_t cand[C2D_SCENE_BOX_CANDIDATES];
    const size_t m = candidates(s, b.box, p->cell, cand);
    if (m != SIZE_MAX) b.cand = cand, b.m = m;
    uint32_t broken;
    if ((b.cand && b.m == 0) ||
        keeps_all(&b, cx, cy, cx, cy, false, &broken)) { /* the float advance */
        *ox = cx, *oy = cy;
        return;
    }
    /* Back off: bisection on u in [lo, hi], lo's position kept (the start at first), hi's
     * not; each point rounded to float once. A point equal to one already judged is judged
     * the same without the capsules. */
    double lo = 0.0, hi = p->t;
    float kx = x, ky = y, fx = cx, fy = cy; /* kept, failed */
    for (int step = 0; step < ADVANCE_STEPS; step++) {
        const double u = 0.5 * (lo + hi);
        const float px = (float)((double)x + (double)mx * u),
                    py = (float)((double)y + (double)my * u);
        if (px == kx && py == ky) {
            lo = u;
        } else if (px == fx && py == fy) {
            hi = u;
        } else if (keeps_all(&b, px, py, px, py, false, NULL)) {
            lo = u, kx = px, ky = py;
        } else {
            hi = u, fx = px, fy = py;
        }
    }
    *ox = kx, *oy = ky;
    /* Then the rest of the move slides on from there, without its part into the capsule the
     * candidate broke the rule for. A ball that touches a wall and moves along it, with a speed
     * into it below an ulp a substep, rounded an ulp in, and the back-off alone cut its move
     * along the wall too (a ball sliding down a wall fell at half its speed and kept the rest
     * as energy; two balls on it passed through each other). */
    if (broken == C2D_NONE || !(lo < p->t)) return;
    const double rx = (double)mx * (p->t - lo), ry = (double)my * (p->t - lo);
    const double mag = (double)fabsf(x) + fabsf(y) + fabsf(mx) + fabsf(my) + fabsf(p->r);
    const float slack = (float)(mag * 0x1p-21);
    const float inner[4] = {(x < cx ? x : cx) - slack, (x > cx ? x : cx) + slack,
                            (y < cy ? y : cy) - slack, (y > cy ? y : cy) + slack};
    for (int nudge = 0; nudge < 2; nudge++) {
        float sx, sy;
        if (slide_point(&b, broken, kx, ky, rx, ry, nudge * mag * 0x1p-23, inner, &sx, &sy) &&
            keeps_all(&b, kx, ky, sx, sy, true, NULL)) {
            *ox = sx, *oy = sy;
            return;
        }
    }
}

c2d_status c2d_scene_advance(const c2d_scene *scene, const c2d_circle_soa *circles,
                             const c2d_move_soa *moves, const float *t, float *out_x,
                             float *out_y) {
    if (!scene) return C2D_ERROR_NULL;
    c2d_status st = c2d_check_circles(circles);
    if (st != C2D_OK) return st;
    const size_t n = circles->count;
    if (n > 0 && !moves) return C2D_ERROR_NULL;
    st = c2d_check_moves(n, moves ? moves->x : NULL, moves ? moves->y : NULL, out_x);
    if (st == C2D_OK && !c2d_array_given(n, out_y)) st = C2D_ERROR_NULL;
    if (st != C2D_OK) return st;
    const c2d_circle_soa *filter = c2d_scene_filtered(scene, circles) ? circles : NULL;
    const bool swept = sweep_index_current(scene);
    advance_prep prep[BLOCK];
    /* a block's balls are read (prepared) before any of them is written: in place works */
    for (size_t i0 = 0; i0 < n; i0 += BLOCK) {
        const size_t nb = n - i0 < BLOCK ? n - i0 : BLOCK;
        for (size_t j = 0; j < nb; j++)
            prepare(scene, circles, moves, t, i0 + j, swept, &prep[j]);
        for (size_t j = 0; j < nb; j++) {
            if (j + AHEAD < nb && prep[j + AHEAD].cell != NO_CELL)
                c2d_prefetch(&scene->sweep.group[scene->sweep.start[prep[j + AHEAD].cell]]);
            float ox, oy;
            finish(scene, filter, i0 + j, &prep[j], &ox, &oy);
            out_x[i0 + j] = ox, out_y[i0 + j] = oy;
        }
    }
    return C2D_OK;
}
