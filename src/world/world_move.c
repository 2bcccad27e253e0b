/* A substep's moves: every awake ball advances by v h, swept against the capsules.
 *
 * A ball whose distance travelled this step stays below its clearance (the gap to its nearest
 * static capsule at the step's start, or its capsule margin when none was within it, less a
 * rounding slack) cannot reach one and moves by plain float addition. Every other ball is swept:
 * c2d_scene_sweep() against the static capsules and c2d_world_sweep_circle_morphing_capsule()
 * against the kinematic ones near it (both endpoints moving over the substep), then advanced by
 * c2d_scene_advance(), which never lets rounding take a ball deeper into a static capsule than it
 * started. A hit stops the ball at its time of impact, removes its approach velocity (bouncing
 * above restitution_threshold), and the rest of the move slides along the surface (c2d_slide_move),
 * swept again, up to three times. */
#include <math.h>

#include "world_internal.h"
#include "world_kinematic.h"

enum { MOVE_PASSES = 3 };

/* The swept balls' arrays, carved out of w->sweep_buf (reserved by c2d_world_move_reserve()). */
typedef struct sweep_set {
    float *x, *y, *r, *mx, *my, *t, *ox, *oy;
    float *left; /* the part of the substep's move still to go when this pass began */
    uint32_t *cat, *mask, *local;
    float *sub_x, *sub_y; /* by awake index: a swept ball's centre when the substep began */
    size_t count;
} sweep_set;

c2d_status c2d_world_move_reserve(c2d_world *w) {
    size_t n = w->awake_list_count;
    size_t floats, bytes;
    if (!c2d_size_mul(n, 14, &floats) || !c2d_size_mul(n, sizeof(c2d_circle_toi), &bytes))
        return C2D_ERROR_ALLOC;
    return c2d_world_reserve(w, (void **)&w->sweep_buf, &w->sweep_capacity, floats,
                             sizeof(float)) &&
                   c2d_world_reserve(w, &w->scratch, &w->scratch_bytes, bytes, 1)
               ? C2D_OK
               : C2D_ERROR_ALLOC;
}

static sweep_set carve(c2d_world *w) {
    size_t n = w->awake_list_count;
    float *f = w->sweep_buf;
    return (sweep_set){.x = f,
                       .y = f + n,
                       .r = f + 2 * n,
                       .mx = f + 3 * n,
                       .my = f + 4 * n,
                       .t = f + 5 * n,
                       .ox = f + 6 * n,
                       .oy = f + 7 * n,
                       .cat = (uint32_t *)(f + 8 * n),
                       .mask = (uint32_t *)(f + 9 * n),
                       .local = (uint32_t *)(f + 10 * n),
                       .sub_x = f + 11 * n,
                       .sub_y = f + 12 * n,
                       .left = f + 13 * n};
}

/* Keeps an angle in [-pi, pi] (the drawing angle; no libm). A spin of more than a turn a
 * substep takes off its whole turns first (one 2 pi a substep let the angle of a ball spinning
 * at FLT_MAX rad/s reach inf); past 2^23 turns the angle has no bits below a turn left, and is
 * 0. */
static float wrap_angle(float a) {
    const float pi = 3.14159265f, two_pi = 6.28318531f;
    if (a > two_pi || a < -two_pi) {
        float turns = a / two_pi;
        a = turns < 0x1p23f && turns > -0x1p23f ? a - (float)(int32_t)turns * two_pi : 0.0f;
    }
    if (a > pi)
        a -= two_pi;
    else if (a < -pi)
        a += two_pi;
    return a;
}

/* Velocity of kinematic list entry j's point p at this substep (endpoints on straight lines
 * from kin_start to the shape now, over h). */
static c2d_vec2 kinematic_point_velocity(const c2d_world *w, size_t j, c2d_vec2 p, float inv_h) {
    c2d_capsule s0 = w->kin_start[j], s1 = w->shape[w->kinematic_list[j]];
    float dx = s1.b.x - s1.a.x, dy = s1.b.y - s1.a.y;
    float len2 = dx * dx + dy * dy;
    float u = len2 > 0.0f ? ((p.x - s1.a.x) * dx + (p.y - s1.a.y) * dy) / len2 : 0.0f;
    u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
    float vax = (s1.a.x - s0.a.x) * inv_h, vay = (s1.a.y - s0.a.y) * inv_h;
    float vbx = (s1.b.x - s0.b.x) * inv_h, vby = (s1.b.y - s0.b.y) * inv_h;
    return (c2d_vec2){vax + u * (vbx - vax), vay + u * (vby - vay)};
}

/* Records a swept hit for the events (world_events.c reads w->swept_hits). */
static void note_hit(c2d_world *w, uint32_t k, uint32_t capsule, const c2d_toi *toi,
                     float approach) {
    if (approach < w->def.hit_speed) return;
    if (!(w->flags[k] & WORLD_BALL_EVENTS) && !w->capsule_events[capsule]) return;
    c2d_world_contact_event e = {.ball = w->ids[k],
                                 .other = w->capsule_ids[capsule],
                                 .other_kind = C2D_SHAPE_CAPSULE,
                                 .point = toi->point,
                                 .normal = toi->normal,
                                 .approach_speed = approach};
    /* Room for one a ball was reserved before the substeps (c2d_world_events_reserve()); a
     * step's further swept hits of a ball (more than one capsule struck in one step) are
     * dropped past it rather than allocated mid-step. */
    if (w->swept_hits.count < w->swept_hits.capacity) {
        ((c2d_world_contact_event *)w->swept_hits.data)[w->swept_hits.count++] = e;
    }
}

/* Whether ball i's move of `len` may take it out of the box its kinematic list was made for
 * (its start grown by its capsule margin): a ball struck by another one can move farther in a
 * step than its own speed said, and then looks its kinematic capsules up in the grid. */
static bool leaves_box(const c2d_world *w, size_t i, float len) {
    if (w->kinematic_count == 0) return false;
    float mc = w->margin_capsule[i];
    float slack = c2d_world_move_slack(w, w->start_x[i], w->start_y[i], w->radius[w->awake[i]], mc);
    return w->travelled[i] + len > mc - slack;
}

/* Calls visit(ctx, q) for each kinematic capsule ball i may meet within `reach` of where it is:
 * its list in list order, or the grid's when it left its box. */
static void kinematic_near(const c2d_world *w, size_t i, float reach,
                           void (*visit)(void *ctx, uint32_t q), void *ctx) {
    if (w->near_kinematic[i] & WORLD_KIN_ESCAPED) {
        uint32_t k = w->awake[i];
        float x = w->x[k], y = w->y[k];
        float grow = reach + c2d_world_move_slack(w, x, y, w->radius[k], reach);
        c2d_world_kinematic_in_box(w, i, (world_box){x - grow, y - grow, x + grow, y + grow}, visit,
                                   ctx);
        return;
    }
    for (uint32_t e = w->kin_first[i]; e < w->kin_first[i + 1]; e++)
        visit(ctx, w->kin_near[e]);
}

/* A ball that a kinematic capsule has reached (touching when the substep began and hit at
 * t = 0 pass after pass, or squeezed) is pushed out to its surface where it now is, by a move
 * that c2d_scene_advance() checks against the static capsules (the pinch rule: the static
 * capsules win), and loses its velocity into the capsule. So a capsule moved by any means never
 * leaves a ball behind its surface unless a static capsule holds the ball there. */
typedef struct push_job {
    c2d_world *w;
    size_t i;
    float inv_h;
    bool statics;
    const float *sub_x, *sub_y; /* the centres when the substep began */
} push_job;

/* The side of the axis of capsule c that point p lies on, where its nearest point is inside the
 * axis (not an end): +1 or -1; 0 at an end or on the axis. */
static int axis_side(c2d_capsule c, float px, float py) {
    float ex = c.b.x - c.a.x, ey = c.b.y - c.a.y, wx = px - c.a.x, wy = py - c.a.y;
    float dot = wx * ex + wy * ey, len2 = ex * ex + ey * ey;
    if (!(dot > 0.0f && dot < len2)) return 0;
    float cross = ex * wy - ey * wx;
    return cross > 0.0f ? 1 : cross < 0.0f ? -1 : 0;
}

/* Capsule c's frame: its end a, the unit along its axis (x when a == b) and across it. */
typedef struct capsule_frame {
    float ax, ay, ux, uy;
} capsule_frame;

static capsule_frame frame_of(c2d_capsule c) {
    float ex = c.b.x - c.a.x, ey = c.b.y - c.a.y, len = sqrtf(ex * ex + ey * ey);
    return len > 0.0f ? (capsule_frame){c.a.x, c.a.y, ex / len, ey / len}
                      : (capsule_frame){c.a.x, c.a.y, 1.0f, 0.0f};
}

/* A ball clear of kinematic capsule q when the substep began and inside it now was overtaken:
 * the capsule moved over it. In the capsule's frame the ball moved from where it was then to
 * where it is now; the point where that path enters the capsule is where the ball goes, against
 * the capsule as it is now (the side it came from, end caps too). False when the ball was not
 * clear at the start or the frame's path does not enter the capsule (then the nearest way out).
 * The nearest way out pushed a coin on the floor back through a paddle's round end at 300
 * units/s (6 of 20 behind it). */
static bool overtaken(const c2d_world *w, size_t q, c2d_circle ball, float sx, float sy,
                      c2d_contact *ct, c2d_vec2 *push) {
    c2d_capsule s0 = w->kin_start[q], s1 = w->shape[w->kinematic_list[q]];
    capsule_frame f0 = frame_of(s0), f1 = frame_of(s1);
    float len = c2d_world_len(s1.b.x - s1.a.x, s1.b.y - s1.a.y);
    /* the start and now, along the axis and across it */
    float u0 = (sx - f0.ax) * f0.ux + (sy - f0.ay) * f0.uy;
    float v0 = -(sx - f0.ax) * f0.uy + (sy - f0.ay) * f0.ux;
    float px = ball.center.x - f1.ax, py = ball.center.y - f1.ay;
    float u1 = px * f1.ux + py * f1.uy, v1 = -px * f1.uy + py * f1.ux;
    /* A path that stays beyond r + R across the axis on one side, or beyond it along the axis
     * past one end, cannot enter (most balls near a kinematic capsule, every substep). */
    float reach = ball.radius + s1.radius;
    if ((v0 > reach && v1 > reach) || (v0 < -reach && v1 < -reach) ||
        (u0 < -reach && u1 < -reach) || (u0 > len + reach && u1 > len + reach))
        return false;
    c2d_capsule local = {{0.0f, 0.0f}, {len, 0.0f}, s1.radius};
    c2d_toi toi;
    if (!c2d_sweep_circle_capsule((c2d_circle){{u0, v0}, ball.radius}, (c2d_vec2){u1 - u0, v1 - v0},
                                  local, &toi))
        return false;
    /* Touching at the start (within the kinematic sweeps' tolerance) and overrun by more than
     * its radius within the substep: the ball goes where it was on the capsule, carried with
     * it (at 300 units/s a paddle's round end overran a coin on the floor by 0.6 a substep, and
     * the nearest way out, forward and down, was mostly into the floor). A ball pressed less
     * than that (one resting on a moving platform), or deeper than touching at the start,
     * takes the nearest way out. */
    if (!(toi.t > 0.0f)) {
        float du = u0 < 0.0f ? u0 : u0 > len ? u0 - len : 0.0f;
        float d0 = sqrtf(du * du + v0 * v0);
        if (!(d0 >= reach * (1.0f - 2e-3f))) return false;
        float into = -((u1 - u0) * du + (v1 - v0) * v0) / d0;
        if (!(into > ball.radius)) return false;
    }
    float ue = u0 + (u1 - u0) * toi.t, ve = v0 + (v1 - v0) * toi.t;
    float ex = f1.ax + ue * f1.ux - ve * f1.uy, ey = f1.ay + ue * f1.uy + ve * f1.ux;
    *push = (c2d_vec2){ex - ball.center.x, ey - ball.center.y};
    ct->normal = (c2d_vec2){toi.normal.x * f1.ux - toi.normal.y * f1.uy,
                            toi.normal.x * f1.uy + toi.normal.y * f1.ux};
    ct->point = (c2d_vec2){f1.ax + toi.point.x * f1.ux - toi.point.y * f1.uy,
                           f1.ay + toi.point.x * f1.uy + toi.point.y * f1.ux};
    return push->x != 0.0f || push->y != 0.0f;
}

static void push_out_one(void *ctx, uint32_t q) {
    const push_job *p = ctx;
    c2d_world *w = p->w;
    size_t i = p->i;
    uint32_t k = w->awake[i], cap = w->kinematic_list[q];
    c2d_circle ball = {{w->x[k], w->y[k]}, w->radius[k]};
    c2d_contact ct;
    /* A ball that the capsule overtook within the substep (its sweeps' passes ran out before
     * the capsule's side did: a long bar spinning fast) lies past its axis, touching it or
     * beyond: out to the side it was on, not the nearest (balls crossed a bar 6 long spinning
     * at 40 rad/s). */
    c2d_capsule now = w->shape[cap];
    int was = axis_side(w->kin_start[q], p->sub_x[i], p->sub_y[i]);
    bool crossed = was != 0 && axis_side(now, ball.center.x, ball.center.y) == -was;
    bool inside = c2d_collide_circle_capsule(ball, now, &ct) && ct.depth > 0.0f;
    /* (Overtaken wholly within the substep, a ball may lie clear behind it: a paddle at 1,000
     * units/s moved 2 a substep and left a coin behind it.) */
    c2d_vec2 back;
    bool over = overtaken(w, q, ball, p->sub_x[i], p->sub_y[i], &ct, &back);
    if (over) {
        /* ct: the entry's normal and point; `back` the way there */
    } else if (!inside && !crossed) {
        return;
    } else if (crossed) {
        float ex = now.b.x - now.a.x, ey = now.b.y - now.a.y, len = sqrtf(ex * ex + ey * ey);
        float nx = -ey / len * (float)was, ny = ex / len * (float)was;
        float past = -((ball.center.x - now.a.x) * nx + (ball.center.y - now.a.y) * ny);
        ct.normal = (c2d_vec2){nx, ny};
        ct.depth = past + ball.radius + now.radius;
        ct.point = (c2d_vec2){ball.center.x + nx * past, ball.center.y + ny * past};
    }
    float mx = over ? back.x : ct.normal.x * ct.depth, my = over ? back.y : ct.normal.y * ct.depth;
    float ox = w->x[k] + mx, oy = w->y[k] + my;
    if (p->statics) {
        /* Swept as the moves are: the advance checks where the ball ends, not the way there,
         * and a push as long as the ball is wide could jump a thin static capsule. What a
         * static capsule stops slides along it (a slanted pusher over a ball on the floor
         * pushes it along the floor, not through itself). */
        float x = w->x[k], y = w->y[k];
        for (int pass = 0; pass < MOVE_PASSES; pass++) {
            c2d_circle_soa one = c2d_world_ball_soa(w, k, &w->radius[k]);
            one.x = &x, one.y = &y;
            c2d_circle_toi hit;
            float t = 1.0f;
            if (c2d_scene_sweep(w->static_scene, &one, &mx, &my, &hit) != C2D_OK)
                hit.capsule = C2D_NONE;
            if (hit.capsule != C2D_NONE) t = hit.toi.t;
            c2d_move_soa move = {.x = &mx, .y = &my};
            c2d_scene_advance(w->static_scene, &one, &move, &t, &ox, &oy);
            x = ox, y = oy;
            if (hit.capsule == C2D_NONE || !(t < 1.0f)) break;
            c2d_vec2 more =
                c2d_slide_move((c2d_vec2){mx * (1.0f - t), my * (1.0f - t)}, hit.toi.normal);
            if (more.x == 0.0f && more.y == 0.0f) break;
            mx = more.x, my = more.y;
        }
    }
    w->bdx[i] += ox - w->x[k];
    w->bdy[i] += oy - w->y[k];
    w->x[k] = ox;
    w->y[k] = oy;
    c2d_vec2 vc = kinematic_point_velocity(w, q, ct.point, p->inv_h);
    float vn = (w->bvx[i] - vc.x) * ct.normal.x + (w->bvy[i] - vc.y) * ct.normal.y;
    if (vn < 0.0f) {
        w->bvx[i] -= vn * ct.normal.x;
        w->bvy[i] -= vn * ct.normal.y;
        w->move_taken[i] += 0.5f * vn * vn / w->binv_mass[i];
    }
}

static void push_out_of_kinematic(c2d_world *w, float h, bool statics, const sweep_set *s) {
    push_job p = {w, 0, 1.0f / h, statics, s->sub_x, s->sub_y};
    for (size_t i = 0; i < w->awake_list_count; i++) {
        if (!w->near_kinematic[i] || w->binv_mass[i] == 0.0f) continue;
        p.i = i;
        kinematic_near(w, i, w->radius[w->awake[i]], push_out_one, &p);
    }
}

/* The earliest kinematic hit of one swept ball: strictly earlier than what it has (a static
 * capsule's hit wins a tie), the lowest list index among equal times. */
typedef struct kin_sweep {
    const c2d_world *w;
    c2d_circle ball;
    c2d_vec2 move;
    float t;
    uint32_t q; /* C2D_NONE: none kinematic yet */
    c2d_toi toi;
} kin_sweep;

static void sweep_one(void *ctx, uint32_t q) {
    kin_sweep *k = ctx;
    const c2d_world *w = k->w;
    c2d_toi kt;
    if (!c2d_world_sweep_circle_morphing_capsule(k->ball, k->move, w->kin_start[q],
                                                 w->shape[w->kinematic_list[q]], &kt))
        return;
    if (kt.t < k->t || (kt.t == k->t && k->q != C2D_NONE && q < k->q)) {
        k->t = kt.t;
        k->q = q;
        k->toi = kt;
    }
}

c2d_status c2d_world_move_balls(c2d_world *w, float h) {
    size_t n = w->awake_list_count;
    if (n == 0) return C2D_OK; /* (and the empty arrays may be NULL: no pointer to carve) */
    float inv_h = 1.0f / h;
    sweep_set s = carve(w);
    s.count = 0;
    bool statics = w->static_scene && c2d_scene_capsule_count(w->static_scene) > 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = w->awake[i];
        if (w->binv_mass[i] == 0.0f) continue; /* fixed */
        w->angle[k] = wrap_angle(w->angle[k] + w->bw[i] * h);
        float mx = w->bvx[i] * h, my = w->bvy[i] * h;
        float len = sqrtf(mx * mx + my * my);
        if (!w->near_kinematic[i] && w->travelled[i] + len < w->clearance[i]) {
            float nx = w->x[k] + mx, ny = w->y[k] + my;
            w->bdx[i] += nx - w->x[k];
            w->bdy[i] += ny - w->y[k];
            w->x[k] = nx;
            w->y[k] = ny;
            w->travelled[i] += len;
            continue;
        }
        size_t j = s.count++;
        s.x[j] = s.sub_x[i] = w->x[k];
        s.y[j] = s.sub_y[i] = w->y[k];
        s.r[j] = w->radius[k];
        s.mx[j] = mx;
        s.my[j] = my;
        s.left[j] = 1.0f;
        s.cat[j] = w->category[k];
        s.mask[j] = w->mask[k];
        s.local[j] = (uint32_t)i;
    }
    c2d_circle_toi *toi = w->scratch;
    for (int pass = 0; pass < MOVE_PASSES && s.count > 0; pass++) {
        c2d_circle_soa soa = {
            .x = s.x, .y = s.y, .radius = s.r, .count = s.count, .category = s.cat, .mask = s.mask};
        if (statics) {
            c2d_status st = c2d_scene_sweep(w->static_scene, &soa, s.mx, s.my, toi);
            if (st != C2D_OK) return st;
        } else {
            for (size_t j = 0; j < s.count; j++)
                toi[j] = (c2d_circle_toi){.capsule = C2D_NONE};
        }
        /* Earliest hit: static capsule (scene index) or kinematic (list index, marked). */
        for (size_t j = 0; j < s.count; j++) {
            float t = toi[j].capsule == C2D_NONE ? 1.0f : toi[j].toi.t;
            if (toi[j].capsule != C2D_NONE) toi[j].capsule = w->static_map[toi[j].capsule];
            uint32_t i = s.local[j];
            float len = sqrtf(s.mx[j] * s.mx[j] + s.my[j] * s.my[j]);
            if (leaves_box(w, i, len)) w->near_kinematic[i] |= WORLD_KIN_ESCAPED;
            if (w->near_kinematic[i]) {
                kin_sweep ks = {
                    w, {{s.x[j], s.y[j]}, s.r[j]}, {s.mx[j], s.my[j]}, t, C2D_NONE, toi[j].toi};
                kinematic_near(w, i, s.r[j] + len, sweep_one, &ks);
                if (ks.q != C2D_NONE) {
                    t = ks.t;
                    toi[j].capsule = ks.q | 0x80000000u; /* kinematic: its list index */
                    toi[j].toi = ks.toi;
                }
            }
            s.t[j] = t;
        }
        c2d_move_soa moves = {.x = s.mx, .y = s.my};
        if (statics) {
            c2d_status st = c2d_scene_advance(w->static_scene, &soa, &moves, s.t, s.ox, s.oy);
            if (st != C2D_OK) return st;
        } else {
            for (size_t j = 0; j < s.count; j++) {
                s.ox[j] = s.x[j] + s.mx[j] * s.t[j];
                s.oy[j] = s.y[j] + s.my[j] * s.t[j];
            }
        }
        /* Apply the moves; the hits bounce or stop and slide on with the rest of their move. */
        size_t again = 0;
        for (size_t j = 0; j < s.count; j++) {
            uint32_t i = s.local[j];
            uint32_t k = w->awake[i];
            float dx = s.ox[j] - w->x[k], dy = s.oy[j] - w->y[k];
            w->bdx[i] += dx;
            w->bdy[i] += dy;
            w->travelled[i] += sqrtf(dx * dx + dy * dy);
            w->x[k] = s.ox[j];
            w->y[k] = s.oy[j];
            if (toi[j].capsule == C2D_NONE) continue;
            bool kinematic = (toi[j].capsule & 0x80000000u) != 0;
            uint32_t cap = toi[j].capsule & 0x7FFFFFFFu;
            c2d_vec2 n = toi[j].toi.normal;
            c2d_vec2 vc = {0.0f, 0.0f};
            if (kinematic) {
                size_t q = cap;
                cap = w->kinematic_list[q];
                vc = kinematic_point_velocity(w, q, toi[j].toi.point, inv_h);
            }
            float vn = (w->bvx[i] - vc.x) * n.x + (w->bvy[i] - vc.y) * n.y;
            if (vn < 0.0f) {
                float e = sqrtf(w->restitution[k] * w->capsule_restitution[cap]);
                if (-vn < w->def.restitution_threshold) e = 0.0f;
                /* A bounce leaves no faster than max_speed, whatever the restitution (one of
                 * 10^4 left at 10^6 units/s and went through the floor; past 10^19 the product
                 * of the two was inf and the velocity NaN). */
                if (e * -vn > w->def.max_speed) e = w->def.max_speed / -vn;
                w->bvx[i] -= (1.0f + e) * vn * n.x;
                w->bvy[i] -= (1.0f + e) * vn * n.y;
                float limit = w->def.max_speed;
                if (!(w->bvx[i] * w->bvx[i] + w->bvy[i] * w->bvy[i] <= limit * limit))
                    c2d_world_clamp_speed(&w->bvx[i], &w->bvy[i], limit);
                /* (A bumper, e > 1, gives energy: it takes none.) */
                w->move_taken[i] += 0.5f * vn * vn * fmaxf(1.0f - e * e, 0.0f) / w->binv_mass[i];
                note_hit(w, k, cap, &toi[j].toi, -vn);
            }
            /* What is left of the substep: the part of this pass's move after the hit, of the
             * part of the substep this pass had (not of the whole substep: a ball sliding on a
             * floor, stopped a hair short of a hit late in one pass, went the whole substep's
             * move again in the next, and moved up to twice its speed). */
            float rest = s.left[j] * (1.0f - s.t[j]);
            if (!(rest > 0.0f)) continue;
            c2d_vec2 more = {w->bvx[i] * h * rest, w->bvy[i] * h * rest};
            if (!kinematic) more = c2d_slide_move(more, n);
            if (more.x == 0.0f && more.y == 0.0f) continue;
            s.x[again] = w->x[k];
            s.y[again] = w->y[k];
            s.r[again] = s.r[j];
            s.mx[again] = more.x;
            s.my[again] = more.y;
            s.left[again] = rest;
            s.cat[again] = s.cat[j];
            s.mask[again] = s.mask[j];
            s.local[again] = i;
            again++;
        }
        s.count = again;
    }
    push_out_of_kinematic(w, h, statics, &s);
    return C2D_OK;
}
