/* Sleep: resting balls are frozen into the frozen-ball index of balls_scene, where they are
 * immovable neighbours of the awake balls and cost nothing a step.
 *
 * The unit of sleep is the ball, not an island: a ball falls asleep when it has been slower
 * than sleep_speed for sleep_time and rests (within 0.005 of its radius) on a static capsule or
 * a sleeping ball (anywhere, when it feels no gravity), so a pile sleeps from the floor up, and
 * a ball landing on a sleeping pile wakes only the balls it touches hard (faster than
 * wake_speed), not the pile. The invariant after every step: each sleeping ball that feels
 * gravity touches a static capsule or another sleeping ball. A ball that wakes may leave
 * sleeping neighbours without support; c2d_world_check_support() wakes those, and so on up the
 * pile. */
#include <math.h>
#include <string.h>

#include "world_internal.h"
#include "world_kinematic.h"

/* How close counts as touching for support: the W9 figures' 0.005 of the radius. */
#define SUPPORT_TOUCH 0.005f
/* Coming out of a capsule: a gap that grew by this much of the radius in the step (a push-out
 * near SUPPORT_TOUCH deep still gains 0.003 of the radius a step). */
#define PUSH_PROGRESS 1e-4f

bool c2d_world_freeze_now(c2d_world *w, uint32_t k) {
    c2d_circle_soa one = c2d_world_ball_soa(w, k, &w->radius[k]);
    return c2d_scene_freeze_balls(w->balls_scene, &one, &k) == C2D_OK;
}

void c2d_world_thaw_now(c2d_world *w, uint32_t k) {
    c2d_scene_thaw_balls(w->balls_scene, &k, 1);
}

void c2d_world_wake_ball(c2d_world *w, uint32_t k) {
    if (!(w->flags[k] & WORLD_BALL_AWAKE)) {
        c2d_world_thaw_now(w, k);
        w->flags[k] |= WORLD_BALL_AWAKE;
        w->awake_count++;
        c2d_world_query_note_ball(w, k); /* (outside a step: the queries' grid misses it) */
    }
    w->sleep_timer[k] = 0.0f;
    if (!(w->flags[k] & WORLD_BALL_QUEUED)) {
        w->flags[k] |= WORLD_BALL_QUEUED;
        w->wake_queue[w->wake_count++] = w->ids[k];
    }
}

bool c2d_world_sleep_ball(c2d_world *w, uint32_t k) {
    if (!c2d_world_freeze_now(w, k)) return false;
    c2d_world_keep_rest(w, k);
    w->force_x[k] = w->force_y[k] = 0.0f; /* (a force lasts until the ball's next step) */
    w->flags[k] &= (uint8_t)~WORLD_BALL_AWAKE;
    w->awake_count--;
    w->vx[k] = w->vy[k] = w->angular_velocity[k] = 0.0f;
    w->sleep_timer[k] = 0.0f;
    return true;
}

/* The sleeping balls that overlap the disc (x, y, r), other than ball `self` (a dense index, or
 * C2D_NONE), into w->near; their count in *n. Only allocation can fail. */
static c2d_status frozen_near(c2d_world *w, float x, float y, float r, uint32_t self, size_t *n) {
    *n = 0;
    if (c2d_scene_frozen_count(w->balls_scene) == 0) return C2D_OK;
    uint32_t id = self == C2D_NONE ? C2D_NONE - 1 : self;
    c2d_circle_soa one = {.x = &x, .y = &y, .radius = &r, .count = 1};
    for (;;) {
        size_t total;
        c2d_status st =
            c2d_scene_collide_frozen(w->balls_scene, &one, &id, w->near, w->near_capacity, &total);
        if (st == C2D_OK && total <= w->near_capacity) {
            *n = total;
            return C2D_OK;
        }
        if (st != C2D_ERROR_TRUNCATED && st != C2D_OK) return st;
        if (!c2d_world_reserve(w, (void **)&w->near, &w->near_capacity, total, sizeof *w->near))
            return C2D_ERROR_ALLOC;
    }
}

/* The frozen ball of a pair found by frozen_near(ball `self`). */
static uint32_t near_other(const c2d_circle_pair_contact *p, uint32_t self) {
    return p->a == self ? p->b : p->a;
}

/* Whether ball k feels no gravity (gravity x its scale is 0: a top-down game's ball, which
 * needs nothing under it to rest, and sleeps where it stops). */
static bool weightless(const c2d_world *w, uint32_t k) {
    float s = w->gravity_scale[k];
    return w->def.gravity.x * s == 0.0f && w->def.gravity.y * s == 0.0f;
}

c2d_status c2d_world_wake_neighbours(c2d_world *w, uint32_t k) {
    size_t n;
    float reach = w->radius[k] + w->def.speculative_distance + SUPPORT_TOUCH * w->radius[k];
    c2d_status st = frozen_near(w, w->x[k], w->y[k], reach, k, &n);
    if (st != C2D_OK) return st;
    for (size_t i = 0; i < n; i++)
        c2d_world_wake_ball(w, near_other(&w->near[i], k));
    return C2D_OK;
}

/* Distance from p to the capsule's axis, in double. */
static double axis_distance(c2d_capsule c, double px, double py) {
    double ax = c.a.x, ay = c.a.y, dx = (double)c.b.x - ax, dy = (double)c.b.y - ay;
    double len2 = dx * dx + dy * dy;
    double u = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    double ex = px - ax - u * dx, ey = py - ay - u * dy;
    return sqrt(ex * ex + ey * ey);
}

/* Whether the point nearest p on the capsule's axis lies strictly between its ends: p faces
 * the capsule's flat side, not a round end (a capsule with a == b is all round). */
static bool flat_side(c2d_capsule c, float px, float py) {
    float ex = c.b.x - c.a.x, ey = c.b.y - c.a.y;
    float len2 = ex * ex + ey * ey;
    if (!(len2 > 0.0f)) return false;
    float u = ((px - c.a.x) * ex + (py - c.a.y) * ey) / len2;
    return u > 0.0f && u < 1.0f;
}

/* Wakes every sleeping ball that touches a capsule of `shape` (within `slack` beyond touching,
 * plus its own support tolerance). */
static c2d_status wake_near_capsule(c2d_world *w, c2d_capsule shape, float slack) {
    if (c2d_scene_frozen_count(w->balls_scene) == 0) return C2D_OK;
    float cx = 0.5f * (shape.a.x + shape.b.x), cy = 0.5f * (shape.a.y + shape.b.y);
    float hx = 0.5f * (shape.b.x - shape.a.x), hy = 0.5f * (shape.b.y - shape.a.y);
    float reach =
        sqrtf(hx * hx + hy * hy) + shape.radius + slack + (1.0f + SUPPORT_TOUCH) * w->max_radius;
    size_t n;
    c2d_status st = frozen_near(w, cx, cy, reach * 1.0001f, C2D_NONE, &n);
    if (st != C2D_OK) return st;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = near_other(&w->near[i], C2D_NONE - 1);
        double limit = (double)shape.radius + w->radius[k] * (1.0 + SUPPORT_TOUCH) + slack;
        if (axis_distance(shape, w->x[k], w->y[k]) <= limit) c2d_world_wake_ball(w, k);
    }
    return C2D_OK;
}

/* Wakes the sleeping balls queued since `first` and every sleeping ball touching them, until
 * none is left: a connected sleeping group wakes whole. */
static c2d_status flood(c2d_world *w, size_t first) {
    for (size_t q = first; q < w->wake_count; q++) {
        uint32_t k;
        if (!c2d_world_lookup_ball(w, w->wake_queue[q], &k)) continue;
        c2d_status st = c2d_world_wake_neighbours(w, k);
        if (st != C2D_OK) return st;
    }
    return C2D_OK;
}

c2d_status c2d_world_wake_capsule_support(c2d_world *w, uint32_t capsule) {
    if (w->sensor[capsule]) return C2D_OK;
    size_t first = w->wake_count;
    c2d_status st = wake_near_capsule(w, w->shape[capsule], w->def.speculative_distance);
    if (st != C2D_OK) return st;
    return flood(w, first);
}

c2d_status c2d_world_wake_near_kinematic(c2d_world *w, float dt) {
    for (size_t i = 0; i < w->kinematic_count; i++) {
        uint32_t c = w->kinematic_list[i];
        const c2d_world_kin *kin = &w->kin[c];
        bool moving = w->kin_target[c] || kin->velocity.x != 0.0f || kin->velocity.y != 0.0f ||
                      kin->angular_velocity != 0.0f;
        if (!moving) continue;
        /* A disc around everything the capsule sweeps this step: its reach from the pivot,
         * plus the pivot's move (or, for a move to a target, both shapes). */
        c2d_capsule s = w->shape[c];
        c2d_capsule cover;
        if (w->kin_target[c]) {
            c2d_capsule g = w->kin_goal[c];
            float lx = fminf(fminf(s.a.x, s.b.x), fminf(g.a.x, g.b.x));
            float hx = fmaxf(fmaxf(s.a.x, s.b.x), fmaxf(g.a.x, g.b.x));
            float ly = fminf(fminf(s.a.y, s.b.y), fminf(g.a.y, g.b.y));
            float hy = fmaxf(fmaxf(s.a.y, s.b.y), fmaxf(g.a.y, g.b.y));
            /* The disc around the box of both shapes (its diagonal alone misses corners). */
            float cx = 0.5f * (lx + hx), cy = 0.5f * (ly + hy);
            float half = 0.5f * sqrtf((hx - lx) * (hx - lx) + (hy - ly) * (hy - ly));
            cover = (c2d_capsule){{cx, cy}, {cx, cy}, half + s.radius};
        } else {
            float ax = s.a.x - kin->pivot.x, ay = s.a.y - kin->pivot.y;
            float bx = s.b.x - kin->pivot.x, by = s.b.y - kin->pivot.y;
            float reach = fmaxf(sqrtf(ax * ax + ay * ay), sqrtf(bx * bx + by * by));
            c2d_vec2 end = {kin->pivot.x + kin->velocity.x * dt,
                            kin->pivot.y + kin->velocity.y * dt};
            cover = (c2d_capsule){kin->pivot, end, reach + s.radius};
        }
        size_t first = w->wake_count;
        c2d_status st = wake_near_capsule(w, cover, w->def.speculative_distance);
        if (st != C2D_OK) return st;
        (void)first;
    }
    return C2D_OK;
}

/* The part of a push on sleeping ball j along unit (nx, ny) that moves it: a push along its
 * gravity goes into what holds it up (a sleeping ball rests on its supports), and only the
 * part across gravity counts; a push against or across gravity, or on a weightless ball, all
 * of it. (A ball dropped on a pile wakes what it strikes, and the strike stops there.) */
static float across_gravity(const c2d_world *w, uint32_t j, float nx, float ny) {
    if (weightless(w, j)) return 1.0f;
    float s = w->gravity_scale[j], ax = w->def.gravity.x * s, ay = w->def.gravity.y * s;
    float down = (nx * ax + ny * ay) / sqrtf(ax * ax + ay * ay);
    return down > 0.0f ? sqrtf(fmaxf(1.0f - down * down, 0.0f)) : 1.0f;
}

/* The cosine between strike `hit` on ball k and the line from k to j. */
static float ahead(const c2d_world *w, uint32_t k, uint32_t j, world_strike hit) {
    float dx = w->x[j] - w->x[k], dy = w->y[j] - w->y[k];
    float d = sqrtf(dx * dx + dy * dy);
    return d > 0.0f ? (dx * hit.nx + dy * hit.ny) / d : 0.0f;
}

/* Passes a strike on: struck ball k, moving at `speed` along (nx, ny), pushes the sleeping
 * balls it touches ahead of it at once. Each one i, at cosine c_i to the push, leaves at
 * (1 + e_i) speed c_i / m_i / (1 / m_k + sum of c_l^2 / m_l): the impulses of a simultaneous
 * collision without the cross terms' coupling, exact for one ball straight ahead (Newton's
 * cradle) and for two at +-30 degrees (a rack). Those set moving faster than `strike` wake and
 * pass it on in turn; the chain ends where that falls below it, so a rack of pool balls breaks
 * while a ball dropped on a pile of restitution 0 wakes a few balls under it. Without this the
 * struck ball was stopped by the next sleeping one as by a wall: a cue ball moved 3 of a
 * sleeping rack of 15. */
static c2d_status pass_strike(c2d_world *w, size_t *woken, float strike) {
    for (size_t q = 0; q < w->strike_count; q++) {
        world_strike hit = w->strikes[q];
        uint32_t k = hit.ball;
        float reach = w->radius[k] + w->def.speculative_distance + SUPPORT_TOUCH * w->radius[k];
        size_t n;
        c2d_status st = frozen_near(w, w->x[k], w->y[k], reach, k, &n);
        if (st != C2D_OK) return st;
        float sum = w->inv_mass[k];
        for (size_t i = 0; i < n; i++) {
            uint32_t j = near_other(&w->near[i], k);
            float c = ahead(w, k, j, hit);
            if (c > 0.0f) sum += c * c * w->inv_mass[j];
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t j = near_other(&w->near[i], k);
            if (w->flags[j] & (WORLD_BALL_AWAKE | WORLD_BALL_FIXED)) continue;
            float dx = w->x[j] - w->x[k], dy = w->y[j] - w->y[k];
            float d = sqrtf(dx * dx + dy * dy);
            float c = d > 0.0f ? (dx * hit.nx + dy * hit.ny) / d : 0.0f; /* (as ahead()) */
            if (!(c > 0.0f)) continue;
            float e = sqrtf(w->restitution[k] * w->restitution[j]);
            float v = (1.0f + e) * hit.speed * c * w->inv_mass[j] / sum;
            v *= across_gravity(w, j, dx / d, dy / d);
            if (!(v > strike)) continue;
            c2d_world_wake_ball(w, j); /* (room: each sleeper is struck once at most) */
            w->strikes[w->strike_count++] = (world_strike){j, v, dx / d, dy / d};
            (*woken)++;
        }
    }
    return C2D_OK;
}

c2d_status c2d_world_wake_struck(c2d_world *w, float dt, size_t *woken) {
    *woken = 0;
    w->strike_count = 0;
    /* Room first, so that a failure wakes nothing: a strike wakes a sleeper, once at most. */
    if (!c2d_world_reserve(w, (void **)&w->strikes, &w->strike_capacity, w->ball_count,
                           sizeof *w->strikes))
        return C2D_ERROR_ALLOC;
    float strike = fmaxf(w->def.wake_speed, w->def.restitution_threshold);
    float h = dt / (float)w->def.substeps;
    float g = sqrtf(w->def.gravity.x * w->def.gravity.x + w->def.gravity.y * w->def.gravity.y);
    for (size_t c = w->capsule_contact_count; c < w->contact_count; c++) {
        const world_contact *ct = &w->contacts[c];
        if (ct->b != C2D_NONE) continue; /* (an awake pair) */
        uint32_t other = ct->other;
        if (w->flags[other] & (WORLD_BALL_AWAKE | WORLD_BALL_FIXED)) continue;
        float vn = w->bvx[ct->a] * ct->normal.x + w->bvy[ct->a] * ct->normal.y;
        /* An impact (faster toward it than restitution_threshold and wake_speed), near enough
         * to take an impulse this step: within the step's move and one substep's more (the
         * last relax pass holds the next substep's approach to the gap left, and stops a ball
         * that ends its move short of the sleeper by less than that), and what gravity adds.
         * With the step's move alone, restitution bounced the striker off the sleeping ball as
         * off a wall: a ball rolled at 8 units/s into a sleeping one came back at 8 from 12% of
         * its start points, and the sleeping rack of a top-down pool game did not break. (A
         * tolerance beyond this, the speculative distance, woke sleepers a step early while a
         * pile settled, and a 40,000-ball pile slept with a pair 0.22 of a radius deep, 0.14
         * without.) */
        float reach = -vn * (dt + h) + g * dt * dt;
        if (!(-vn > strike) || ct->separation > reach) continue;
        c2d_world_wake_ball(w, other);
        w->flags[w->awake[ct->a]] |= WORLD_BALL_STRIKER;
        float ia = w->binv_mass[ct->a], ib = w->inv_mass[other];
        float speed = (1.0f + ct->restitution) * -vn * ib / (ia + ib) *
                      across_gravity(w, other, -ct->normal.x, -ct->normal.y);
        w->strikes[w->strike_count++] = (world_strike){other, speed, -ct->normal.x, -ct->normal.y};
        (*woken)++;
    }
    return pass_strike(w, woken, strike);
}

/* Whether kinematic capsule c holds still (no velocity, no spin, no target): then it holds
 * balls up as a static capsule does, and they may sleep on it; it wakes them when it moves
 * (c2d_world_wake_near_kinematic()). */
static bool kinematic_still(const c2d_world *w, uint32_t c) {
    const c2d_world_kin *k = &w->kin[c];
    return !w->kin_target[c] && k->velocity.x == 0.0f && k->velocity.y == 0.0f &&
           k->angular_velocity == 0.0f;
}

/* Whether ball k, touching something along (nx, ny) (pointing from the other side toward k's
 * centre), lies on its far side from k's own gravity: it rests on it, not beside it. */
static bool above(const c2d_world *w, uint32_t k, float nx, float ny) {
    float s = w->gravity_scale[k];
    return nx * w->def.gravity.x * s + ny * w->def.gravity.y * s < 0.0f;
}

/* Whether awake ball k (side a of contact ct) rests on ct's other side. */
static bool resting_on(const c2d_world *w, uint32_t k, const world_contact *ct) {
    return above(w, k, ct->normal.x, ct->normal.y);
}

/* Whether a ball's contacts can hold it up: the direction against its gravity lies in the cone
 * of the forces they can push with (each contact's normal, tilted by up to its friction's
 * angle either way). Kept as the edges nearest that direction on either side of it: the ball
 * is held when those two are less than half a turn apart through it. One wall beside a ball
 * cannot hold it (nor a wall of many short segments, whose joints' normals tilt up a little);
 * two neighbours pressing at its sides can (a keystone), and so can anything under it. Plain
 * arithmetic: the same answer on every platform. */
typedef struct hold_cone {
    float ux, uy;         /* against gravity (not unit: only signs and ratios are read) */
    float lx, ly, rx, ry; /* the unit edges nearest it, counter-clockwise and clockwise */
    float lcos, rcos;     /* their cosines to it, times its length */
    bool left, right;
} hold_cone;

static void cone_edge(hold_cone *h, float ex, float ey) {
    float len = sqrtf(ex * ex + ey * ey);
    if (!(len > 0.0f)) return;
    ex /= len, ey /= len;
    float c = ex * h->ux + ey * h->uy, side = h->ux * ey - h->uy * ex;
    if (side >= 0.0f && (!h->left || c > h->lcos))
        h->left = true, h->lx = ex, h->ly = ey, h->lcos = c;
    if (side <= 0.0f && (!h->right || c > h->rcos))
        h->right = true, h->rx = ex, h->ry = ey, h->rcos = c;
}

/* A contact pushing along (nx, ny) (toward the ball) with friction mu. */
static void cone_add(hold_cone *h, float nx, float ny, float mu) {
    cone_edge(h, nx - mu * ny, ny + mu * nx);
    cone_edge(h, nx + mu * ny, ny - mu * nx);
}

static bool cone_holds(const hold_cone *h) {
    if (!h->left || !h->right) return false;
    float cross = h->rx * h->ly - h->ry * h->lx;
    return cross > 0.0f || (cross == 0.0f && h->lcos > 0.0f && h->rcos > 0.0f);
}

/* What holds sleeping ball k up, from the static capsules, still kinematic capsules and other
 * sleeping balls it touches: *rests, whether one of them lies on its far side from its gravity;
 * *held, whether together they can hold it up (hold_cone). Both true for a weightless ball. */
typedef struct support {
    bool rests, held;
} support;

static void support_add(const c2d_world *w, uint32_t k, hold_cone *h, support *s, float nx,
                        float ny, float mu) {
    s->rests = s->rests || above(w, k, nx, ny);
    if (h) cone_add(h, nx, ny, mu);
}

/* With `cone` false only *rests is found (*held is then false), and the search stops at the
 * first support under the ball: the check after a wake, every step for every neighbour. */
static c2d_status support_of(c2d_world *w, uint32_t k, bool cone, support *out) {
    *out = (support){true, true};
    if (weightless(w, k)) return C2D_OK;
    support s = {false, false};
    float r = w->radius[k] * (1.0f + SUPPORT_TOUCH), gs = w->gravity_scale[k];
    hold_cone cone_of = {.ux = -w->def.gravity.x * gs, .uy = -w->def.gravity.y * gs};
    hold_cone *h = cone ? &cone_of : NULL;
    if (w->static_scene && c2d_scene_capsule_count(w->static_scene) > 0) {
        c2d_circle_soa one = c2d_world_ball_soa(w, k, &r);
        c2d_pair_contact few[8];
        const c2d_pair_contact *found = few;
        size_t total;
        c2d_status st = c2d_scene_collide(w->static_scene, &one, few, 8, &total);
        if (st == C2D_ERROR_TRUNCATED) {
            /* (a wall of many short segments beside the ball: every one is looked at) */
            if (!c2d_world_reserve(w, &w->scratch, &w->scratch_bytes,
                                   total * sizeof(c2d_pair_contact), 1))
                return C2D_ERROR_ALLOC;
            st = c2d_scene_collide(w->static_scene, &one, w->scratch, total, &total);
            found = w->scratch;
        }
        if (st != C2D_OK) return st;
        for (size_t i = 0; i < total; i++) {
            float mu = sqrtf(w->friction[k] * w->capsule_friction[w->static_map[found[i].capsule]]);
            support_add(w, k, h, &s, found[i].contact.normal.x, found[i].contact.normal.y, mu);
        }
    }
    if (s.rests && !cone) {
        *out = s;
        return C2D_OK;
    }
    for (size_t j = 0; j < w->kinematic_count; j++) {
        uint32_t c = w->kinematic_list[j];
        c2d_contact ct;
        if (kinematic_still(w, c) &&
            c2d_filter_allows(w->category[k], w->mask[k], w->capsule_category[c],
                              w->capsule_mask[c]) &&
            c2d_collide_circle_capsule((c2d_circle){{w->x[k], w->y[k]}, r}, w->shape[c], &ct))
            support_add(w, k, h, &s, ct.normal.x, ct.normal.y,
                        sqrtf(w->friction[k] * w->capsule_friction[c]));
    }
    size_t n;
    c2d_status st = frozen_near(w, w->x[k], w->y[k], r, k, &n);
    if (st != C2D_OK) return st;
    /* A weightless sleeper floats: it holds nothing up (a ball set on a floating one slept on
     * it in mid-air for good). */
    for (size_t i = 0; i < n && !(s.rests && !cone); i++) {
        uint32_t o = near_other(&w->near[i], k);
        if (weightless(w, o)) continue;
        float dx = w->x[k] - w->x[o], dy = w->y[k] - w->y[o], d = sqrtf(dx * dx + dy * dy);
        if (d > 0.0f)
            support_add(w, k, h, &s, dx / d, dy / d, sqrtf(w->friction[k] * w->friction[o]));
    }
    s.held = cone && cone_holds(h);
    *out = s;
    return C2D_OK;
}

/* A call puts a ball to sleep only where what it touches can hold it up (a ball put to sleep
 * beside a sleeping one, over nothing, slept there; so did one beside a wall of 400 short
 * segments, whose joints tilt up a little). */
c2d_status c2d_world_sleep_if_supported(c2d_world *w, uint32_t k) {
    support s;
    c2d_status st = support_of(w, k, true, &s);
    if (st != C2D_OK || !s.held) return st;
    return c2d_world_sleep_ball(w, k) ? C2D_OK : C2D_ERROR_ALLOC;
}

c2d_status c2d_world_check_support(c2d_world *w) {
    /* Each woken ball's sleeping neighbours must still rest on something; a ball woken here
     * is queued in turn. */
    for (size_t q = 0; q < w->wake_count; q++) {
        uint32_t k;
        if (!c2d_world_lookup_ball(w, w->wake_queue[q], &k)) continue;
        float reach = w->radius[k] + w->def.speculative_distance + w->max_radius * SUPPORT_TOUCH;
        size_t n;
        c2d_status st = frozen_near(w, w->x[k], w->y[k], reach, k, &n);
        if (st != C2D_OK) return st;
        /* w->near is reused by support_of(): copy the few neighbours out first. */
        for (size_t i = 0; i < n; i += 16) {
            uint32_t batch[16];
            size_t m = n - i < 16 ? n - i : 16;
            for (size_t j = 0; j < m; j++)
                batch[j] = near_other(&w->near[i + j], k);
            for (size_t j = 0; j < m; j++) {
                /* A sleeper whose neighbour woke stays asleep while it touches something on its
                 * far side from its gravity: a keystone pressed between two neighbours wakes
                 * with one of them (waking there is safe; with the cone's test, as for calls,
                 * more keystones stayed asleep and the piles settled no better). */
                support s;
                if (w->flags[batch[j]] & WORLD_BALL_AWAKE) continue;
                st = support_of(w, batch[j], false, &s);
                if (st != C2D_OK) return st;
                if (!s.rests) c2d_world_wake_ball(w, batch[j]);
            }
            if (m == 16 && n > i + 16) {
                /* The list was overwritten by support_of(): query again and go on. */
                st = frozen_near(w, w->x[k], w->y[k], reach, k, &n);
                if (st != C2D_OK) return st;
            }
        }
    }
    for (size_t q = 0; q < w->wake_count; q++) {
        uint32_t k;
        if (c2d_world_lookup_ball(w, w->wake_queue[q], &k))
            w->flags[k] &= (uint8_t)~WORLD_BALL_QUEUED;
    }
    w->wake_count = 0;
    return C2D_OK;
}

/* Exact gap between awake ball k (local i) and the other side of contact c, at the end of
 * the step. */
static double contact_gap(const c2d_world *w, const world_contact *c) {
    uint32_t ka = w->awake[c->a];
    double ax = w->x[ka], ay = w->y[ka];
    if (c->kind == C2D_SHAPE_CAPSULE)
        return axis_distance(w->shape[c->other], ax, ay) - w->shape[c->other].radius -
               w->radius[ka];
    uint32_t kb = c->b != C2D_NONE ? w->awake[c->b] : c->other;
    double dx = ax - w->x[kb], dy = ay - w->y[kb];
    return sqrt(dx * dx + dy * dy) - w->radius[ka] - w->radius[kb];
}

static float ball_speed(const c2d_world *w, uint32_t k) {
    float v = sqrtf(w->vx[k] * w->vx[k] + w->vy[k] * w->vy[k]);
    return v + fabsf(w->angular_velocity[k]) * w->radius[k];
}

/* Marks in `candidate` (one byte per awake ball) the balls ready to sleep: 1 ready, 0 not
 * (touching a moving kinematic capsule, or not held up), 3 asleep now. */
c2d_status c2d_world_update_sleep(c2d_world *w, float dt) {
    size_t n = w->awake_list_count;
    uint8_t *candidate = w->near_kinematic; /* reused: the moves are done */
    /* Every contact's exact gap once (the rounds below read it again and again). */
    for (size_t c = 0; c < w->contact_count; c++)
        w->contacts[c].end_gap = contact_gap(w, &w->contacts[c]);
    size_t ready = 0;
    const float substep = dt / (float)w->def.substeps;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = w->awake[i];
        candidate[i] = 0;
        if (!(w->flags[k] & WORLD_BALL_AWAKE)) continue;
        bool may = w->def.enable_sleep && (w->flags[k] & WORLD_BALL_SLEEPS) &&
                   !(w->flags[k] & WORLD_BALL_FIXED);
        /* A ball that did not move this step, and whose speed moves it less than an ulp of its
         * coordinates a substep, is still: far from the origin a ball at rest in a V of two
         * capsules sat a fraction of an ulp from them, its speculative contacts let it approach
         * at that gap a substep (0.25 units/s at 16,000), its moves rounded back to where it
         * was, and it never slept. Below coordinates of about 800 that speed is below the
         * default sleep_speed anyway. */
        float speed = ball_speed(w, k);
        bool still = w->x[k] == w->start_x[i] && w->y[k] == w->start_y[i] &&
                     speed * substep <= (fabsf(w->x[k]) + fabsf(w->y[k])) * 0x1p-23f;
        if (may && (still || speed < w->def.sleep_speed)) {
            w->sleep_timer[k] += dt;
        } else {
            w->sleep_timer[k] = 0.0f;
        }
        if (may && w->sleep_timer[k] >= w->def.sleep_time) {
            candidate[i] = 1;
            ready++;
        }
    }
    /* Waking: a sleeping ball touched by an awake ball faster than wake_speed, or a
     * weightless one touched by a ball that feels gravity (it rests on it and would push it:
     * a ball set down on a floating one). */
    for (size_t c = 0; c < w->contact_count; c++) {
        const world_contact *ct = &w->contacts[c];
        if (ct->b != C2D_NONE || ct->kind != C2D_SHAPE_CIRCLE) continue;
        uint32_t other = ct->other;
        if (w->flags[other] & (WORLD_BALL_AWAKE | WORLD_BALL_FIXED)) continue;
        uint32_t ka = w->awake[ct->a];
        bool pressed = weightless(w, other) && !weightless(w, ka) && resting_on(w, ka, ct);
        if ((pressed || ball_speed(w, ka) > w->def.wake_speed) &&
            ct->end_gap <= SUPPORT_TOUCH * w->radius[ka] + w->def.speculative_distance)
            c2d_world_wake_ball(w, other);
    }
    if (ready == 0) return C2D_OK;
    /* A ball touching a moving kinematic capsule does not sleep (a still one holds it up as a
     * static capsule does: balls in a drum that stopped sleep). Nor does a ball balanced on one
     * round support (a ball, a round pin, a capsule's end cap) that cannot hold it, touching
     * nothing else: it is in an unstable equilibrium, slow only because it sits almost on
     * top, and it will roll or slide off (a Galton board's frictionless ball 0.0014 off a
     * pin's top slept there for good). Two supports hold a ball; so does one flat side of a
     * capsule, or one round support with both friction and rolling resistance (which hold a
     * ball a little off the top: the piles' balls on a single ball). */
    uint8_t *holds = w->holds;
    memset(holds, 0, n);
    for (size_t c = 0; c < w->contact_count; c++) {
        const world_contact *ct = &w->contacts[c];
        uint32_t ka = w->awake[ct->a];
        if (ct->end_gap > SUPPORT_TOUCH * w->radius[ka]) continue;
        if (ct->kinematic && !kinematic_still(w, ct->other)) {
            candidate[ct->a] = 0;
            continue;
        }
        if (ct->kind == C2D_SHAPE_CAPSULE && w->sensor[ct->other]) continue;
        /* Deeper in a capsule than touching and coming out this step: the solver is still
         * pushing it out (a ball added inside a capsule slept 0.01 deep once the push slowed
         * below sleep_speed). A ball that does not come out (wedged between two capsules
         * closer than its diameter) may sleep there. */
        if (ct->kind == C2D_SHAPE_CAPSULE && ct->end_gap < -SUPPORT_TOUCH * w->radius[ka] &&
            ct->end_gap > ct->separation + PUSH_PROGRESS * w->radius[ka]) {
            candidate[ct->a] = 0;
            continue;
        }
        /* Pressed by an awake ball that closes on it faster than sleep_speed: the pair's
         * spring has not come to rest, and a ball that slept now froze with the overlap it had
         * (two balls of the 40,000 pile slept 0.21 of a radius deep in each other). */
        if (ct->b != C2D_NONE) {
            uint32_t kb = w->awake[ct->b];
            float closing =
                (w->vx[kb] - w->vx[ka]) * ct->normal.x + (w->vy[kb] - w->vy[ka]) * ct->normal.y;
            if (closing > w->def.sleep_speed) candidate[ct->a] = candidate[ct->b] = 0;
        }
        bool alone =
            (ct->friction > 0.0f && ct->rolling > 0.0f) ||
            (ct->kind == C2D_SHAPE_CAPSULE && flat_side(w->shape[ct->other], w->x[ka], w->y[ka]));
        uint8_t add = alone ? 2 : 1;
        holds[ct->a] = (uint8_t)(holds[ct->a] + add > 2 ? 2 : holds[ct->a] + add);
        if (ct->b != C2D_NONE)
            holds[ct->b] = (uint8_t)(holds[ct->b] + add > 2 ? 2 : holds[ct->b] + add);
    }
    for (size_t i = 0; i < n; i++) {
        if (candidate[i] != 1) continue;
        if (weightless(w, w->awake[i])) {
            /* Needs no hold and no support. */
            candidate[i] = c2d_world_sleep_ball(w, w->awake[i]) ? 3 : 0;
        } else if (holds[i] < 2) {
            candidate[i] = 0;
        }
    }
    /* Rounds: a ready ball touching a static capsule or a sleeping ball sleeps; the balls that
     * slept support the next round's. */
    for (int round = 0; round < 16; round++) {
        size_t slept = 0;
        for (size_t c = 0; c < w->contact_count; c++) {
            const world_contact *ct = &w->contacts[c];
            uint32_t sides[2] = {ct->a, ct->b};
            for (int s = 0; s < 2; s++) {
                uint32_t i = sides[s];
                if (i == C2D_NONE || candidate[i] != 1) continue;
                uint32_t k = w->awake[i];
                bool support;
                if (ct->kind == C2D_SHAPE_CAPSULE) {
                    support =
                        (!ct->kinematic || kinematic_still(w, ct->other)) && !w->sensor[ct->other];
                } else {
                    uint32_t o = s == 0 ? (ct->b != C2D_NONE ? w->awake[ct->b] : ct->other)
                                        : w->awake[ct->a];
                    support = !(w->flags[o] & (WORLD_BALL_AWAKE | WORLD_BALL_FIXED)) &&
                              !weightless(w, o); /* (a floating ball holds nothing up) */
                }
                if (!support || ct->end_gap > SUPPORT_TOUCH * w->radius[k]) continue;
                if (c2d_world_sleep_ball(w, k)) {
                    candidate[i] = 3;
                    slept++;
                } else {
                    candidate[i] = 0; /* the index could not grow: it stays awake */
                }
            }
        }
        if (slept == 0) break;
    }
    return C2D_OK;
}
