/* The stacking solver: Box2D v3's soft step, written from its formulas, over the step's
 * contacts (world_contacts.c).
 *
 * Per substep of length h: gravity, warm start (the impulses kept so far), a solve with bias
 * (soft contacts: a spring of contact_hertz and contact_damping_ratio pushes overlap out, no
 * faster than max_push_speed; a speculative contact with gap s > 0 lets the pair close by s
 * this substep and no more), the moves (world_move.c), and a relax pass without bias that
 * removes the push's velocity. After the substeps: restitution, and the impulses are kept
 * for the next step's warm start.
 *
 * Bodies are the awake balls (index in the awake list); a sleeping ball, a fixed ball and a
 * capsule are infinite masses (a kinematic capsule moves at its point's velocity). Balls are
 * discs and contacts lie on the line of centres, so spin never changes a normal velocity;
 * friction and rolling resistance turn the balls. Each pass reads a capsule contact's gap and
 * normal where the ball and the capsule are now; a ball pair's, once its balls have moved
 * across the step's normal (ball_gap()). */
#include <math.h>
#include <string.h>

#include "world_internal.h"

/* max and min without libm calls (the operands are never NaN here: impulses and speeds of
 * finite bodies). */
static inline float max_f(float a, float b) {
    return a > b ? a : b;
}
static inline float min_f(float a, float b) {
    return a < b ? a : b;
}

/* Soft constraint coefficients for a spring of `hertz` and damping ratio `zeta` over a substep
 * of h (Box2D v3's soft step): bias rate, mass scale and impulse scale. */
typedef struct soft {
    float bias_rate, mass_scale, impulse_scale;
} soft;

static soft make_soft(float hertz, float zeta, float h) {
    if (hertz == 0.0f) return (soft){0.0f, 1.0f, 0.0f};
    float omega = 2.0f * 3.14159265f * hertz;
    float a1 = 2.0f * zeta + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    return (soft){omega / a1, a2 * a3, a3};
}

/* The stiffness used: contact_hertz, at most a quarter of the substep rate. */
static float contact_hertz(const c2d_world *w, float h) {
    float cap = 0.25f / h;
    return w->def.contact_hertz < cap ? w->def.contact_hertz : cap;
}

/* The impulses ball `owner`'s contact with (other, kind) held last step, or when the ball fell
 * asleep if it has not stepped awake since; NULL if none. */
static inline const world_warm_entry *warm_lookup(const c2d_world *w, uint32_t owner,
                                                  uint32_t other, uint32_t kind) {
    const world_warm_entry *base; /* (indexed only inside a range that is not empty: it may be
                                   * NULL, and NULL + 0 is undefined) */
    uint32_t first, end;
    if (w->warm_step[owner] == w->step_index - 1) {
        const world_warm *prev = &w->warm[w->warm_current ^ 1];
        uint32_t row = w->warm_row[owner];
        if (row >= prev->rows) return NULL;
        base = prev->entries, first = prev->row_start[row], end = prev->row_start[row + 1];
    } else if (w->rest_count[owner] > 0) {
        base = w->rest_pool, first = w->rest_first[owner];
        end = first + w->rest_count[owner];
    } else {
        return NULL;
    }
    for (uint32_t e = first; e < end; e++)
        if (base[e].other == other && base[e].kind == kind) return &base[e];
    return NULL;
}

/* A ball's rest entries are no longer named (it stepped awake, fell asleep again, or went). */
void c2d_world_drop_rest(c2d_world *w, uint32_t k) {
    w->rest_live -= w->rest_count[k];
    w->rest_count[k] = 0;
}

/* Moves the named rest entries to the front of the pool, in place: a walk of the pool finds
 * each named range at its first entry (rest_owner names the ball that range was kept for; a
 * ball's range starts there only if its rest_first says so), and ranges only move down. */
static void compact_rest(c2d_world *w) {
    size_t to = 0;
    for (size_t p = 0; p < w->rest_used;) {
        uint32_t k = w->rest_owner[p];
        if (k >= w->ball_count || w->rest_count[k] == 0 || w->rest_first[k] != p) {
            p++;
            continue;
        }
        uint32_t n = w->rest_count[k];
        memmove(w->rest_pool + to, w->rest_pool + p, n * sizeof *w->rest_pool);
        w->rest_first[k] = (uint32_t)to;
        w->rest_owner[to] = k;
        to += n;
        p += n;
    }
    w->rest_used = to;
}

/* Keeps the impulses of ball k's contacts of the step just taken (its row in the warm-start
 * memory), for its first step when it wakes: a ball woken in a pile (by a strike, a removed
 * neighbour, a change of gravity) starts with the support it had, as the balls of a Box2D
 * island keep their contacts while they sleep. Without it, a pile woken whole sank while its
 * contacts built up again (10,000 balls: 9 moved more than 0.2 in 2 s, one 1.5), and a ball
 * wedged between two sleeping neighbours at its sides fell through when it alone woke. */
void c2d_world_keep_rest(c2d_world *w, uint32_t k) {
    if (w->warm_step[k] != w->warm_written) return; /* asleep through the last step: kept */
    c2d_world_drop_rest(w, k);
    const world_warm *last = &w->warm[w->warm_current ^ 1];
    uint32_t row = w->warm_row[k];
    if (row >= last->rows) return;
    uint32_t first = last->row_start[row], n = last->row_start[row + 1] - first;
    if (n == 0) return;
    if (w->rest_used + n > w->rest_capacity) {
        /* More than half the pool unnamed: compact before growing (so it grows only with the
         * entries named). */
        if (w->rest_used > 2 * w->rest_live) compact_rest(w);
        world_array_ref refs[] = {{(void **)&w->rest_pool, sizeof *w->rest_pool},
                                  {(void **)&w->rest_owner, sizeof *w->rest_owner}};
        if (!c2d_world_reserve_all(w, refs, 2, &w->rest_capacity, 2 * (w->rest_live + n)))
            return; /* (no memory: it wakes without them) */
    }
    memcpy(w->rest_pool + w->rest_used, last->entries + first, n * sizeof *w->rest_pool);
    for (uint32_t e = 1; e < n; e++) /* (compact_rest() reads every entry's owner) */
        w->rest_owner[w->rest_used + e] = C2D_NONE;
    w->rest_owner[w->rest_used] = k;
    w->rest_first[k] = (uint32_t)w->rest_used;
    w->rest_count[k] = n;
    w->rest_used += n;
    w->rest_live += n;
}

/* The id that names the other side of a contact in the warm-start memory. */
static uint32_t other_id(const c2d_world *w, const world_contact *c) {
    return c->kind == C2D_SHAPE_CAPSULE ? w->capsule_ids[c->other] : w->ids[c->other];
}

/* A kinematic capsule that presses a ball against static capsules (its normal against the sum
 * of theirs, those within the speculative distance) does so without friction or rolling
 * resistance: the pinch rule of the moves (the static capsules win) for the solve. With them,
 * a pusher's round end driving a coin along the floor wedged it (friction 0.775 at both
 * contacts locks a wedge that steep): the two normal impulses grew every substep without bound,
 * the coin left each step slower than it moved, into the pusher, hit it every step, and the
 * coin ahead, pushed at that speed, was overrun by it (0.6 of a radius deep). */
static void squeeze_without_friction(c2d_world *w) {
    size_t n = w->awake_list_count;
    memset(w->squeeze_x, 0, n * sizeof(float));
    memset(w->squeeze_y, 0, n * sizeof(float));
    float near = w->def.speculative_distance;
    for (size_t i = 0; i < w->capsule_contact_count; i++) {
        const world_contact *c = &w->contacts[i];
        if (c->kinematic || c->separation > near) continue;
        w->squeeze_x[c->a] += c->normal.x;
        w->squeeze_y[c->a] += c->normal.y;
    }
    for (size_t i = 0; i < w->capsule_contact_count; i++) {
        world_contact *c = &w->contacts[i];
        if (!c->kinematic || c->separation > near) continue;
        if (c->normal.x * w->squeeze_x[c->a] + c->normal.y * w->squeeze_y[c->a] < 0.0f)
            c->friction = c->rolling = 0.0f;
    }
}

/* Every contact gets a body on its other side (`body_b`), so the passes never branch on it:
 * a ball pair's other ball, one still body (index n, the number of awake balls: velocity and
 * move 0, inverse mass 0) for sleeping balls and static capsules, and a body of its own for
 * each kinematic contact (velocity the capsule point's, move that times the time elapsed).
 * Room for them was reserved by c2d_world_bodies_reserve(). */
void c2d_world_solve_prepare(c2d_world *w, float h) {
    size_t n = w->awake_list_count;
    uint32_t next = (uint32_t)n + 1;
    w->bvx[n] = w->bvy[n] = w->bw[n] = 0.0f;
    w->binv_mass[n] = w->binv_inertia[n] = 0.0f;
    w->bdx[n] = w->bdy[n] = 0.0f;
    if (w->contact_count > 0) memset(w->contact_work, 0, w->contact_count * sizeof(float));
    for (size_t i = 0; i < w->contact_count; i++) {
        world_contact *c = &w->contacts[i];
        if (c->b != C2D_NONE) {
            c->body_b = c->b;
        } else if (c->kinematic) {
            uint32_t b = next++;
            c->body_b = b;
            w->bvx[b] = c->other_velocity.x;
            w->bvy[b] = c->other_velocity.y;
            w->bw[b] = w->binv_mass[b] = w->binv_inertia[b] = 0.0f;
            w->bdx[b] = w->bdy[b] = 0.0f;
        } else {
            c->body_b = (uint32_t)n;
        }
    }
    w->body_count = next;
    if (w->kinematic_count > 0) squeeze_without_friction(w);
    for (size_t i = 0; i < w->contact_count; i++) {
        world_contact *c = &w->contacts[i];
        float ma = w->binv_mass[c->a], ia = w->binv_inertia[c->a];
        float mb = w->binv_mass[c->body_b], ib = w->binv_inertia[c->body_b];
        float k = ma + mb;
        c->normal_mass = k > 0.0f ? 1.0f / k : 0.0f;
        /* The soft push's mass counts a sleeping ball as the ball it is: the spring of a pair
         * keeps its stiffness when one side falls asleep. With the sleeping side's infinite
         * mass the same overlap pushed twice as hard, the awake ball jumped, and its jump woke
         * the sleeper again (a 40,000 pile kept three balls in that loop for ever). */
        float ks = c->b == C2D_NONE && c->kind == C2D_SHAPE_CIRCLE ? ma + w->inv_mass[c->other] : k;
        c->soft_mass = ks > 0.0f ? 1.0f / ks : 0.0f;
        float kt = ma + mb + ia * c->radius_a * c->radius_a + ib * c->radius_b * c->radius_b;
        c->tangent_mass = kt > 0.0f ? 1.0f / kt : 0.0f;
        float kr = ia + ib;
        c->inv_inertia_sum_roll = kr > 0.0f ? 1.0f / kr : 0.0f;
        /* The normal velocity before the solve, for restitution. */
        c2d_vec2 n = c->normal;
        c->relative_velocity =
            (w->bvx[c->a] - w->bvx[c->body_b]) * n.x + (w->bvy[c->a] - w->bvy[c->body_b]) * n.y;
        c->max_normal_impulse = 0.0f;
        c->turned = 0;
        /* Warm start from last step's impulses of the same pair. */
        uint32_t owner = w->awake[c->a];
        const world_warm_entry *e = warm_lookup(w, owner, other_id(w, c), c->kind);
        /* A ball pair may have been kept by the other ball (the order of the two changes when
         * one falls asleep or wakes), or by both, each when it fell asleep: the later one is
         * the pair as it came to rest. */
        /* (A pair kept last step is kept once: by its owner then, found first or not at all.) */
        bool fresh = e && w->warm_step[owner] == w->step_index - 1;
        if (c->kind == C2D_SHAPE_CIRCLE && !fresh) {
            uint32_t kb = c->b != C2D_NONE ? w->awake[c->b] : c->other;
            const world_warm_entry *f = warm_lookup(w, kb, w->ids[owner], C2D_SHAPE_CIRCLE);
            if (f && (!e || w->warm_step[kb] > w->warm_step[owner])) e = f;
        }
        c->normal_impulse = e ? e->normal : 0.0f;
        c->tangent_impulse = e ? e->tangent : 0.0f;
        c->rolling_impulse = e ? e->rolling : 0.0f;
    }
    (void)h;
}

/* Applies the normal impulse `j` (along n; it passes through both centres, so it turns
 * neither ball). */
static inline void apply_normal(c2d_world *w, const world_contact *c, float j) {
    float px = j * c->normal.x, py = j * c->normal.y;
    uint32_t a = c->a;
    float ma = w->binv_mass[a];
    w->bvx[a] += ma * px;
    w->bvy[a] += ma * py;
    uint32_t b = c->body_b;
    float mb = w->binv_mass[b];
    w->bvx[b] -= mb * px;
    w->bvy[b] -= mb * py;
}

/* Applies the tangent impulse `j` (along t = (n.y, -n.x), at the surface points -ra n of a and
 * +rb n of b: torque ra j on a and rb j on b, with the sign of ra x t = ra) and the rolling
 * impulse `roll`. */
static inline void apply_tangent(c2d_world *w, const world_contact *c, float j, float roll) {
    float px = j * c->normal.y, py = -j * c->normal.x;
    uint32_t a = c->a;
    float ma = w->binv_mass[a], ia = w->binv_inertia[a];
    w->bvx[a] += ma * px;
    w->bvy[a] += ma * py;
    w->bw[a] += ia * (c->radius_a * j + roll);
    uint32_t b = c->body_b;
    float mb = w->binv_mass[b], ib = w->binv_inertia[b];
    w->bvx[b] -= mb * px;
    w->bvy[b] -= mb * py;
    w->bw[b] -= ib * (-c->radius_b * j + roll);
}

/* The normal speed an impulse of 1 changes in c's pair (1 / normal_mass). */
static inline float normal_k(const c2d_world *w, const world_contact *c) {
    return w->binv_mass[c->a] + w->binv_mass[c->body_b];
}

/* The work of normal impulse j on the approach of c's pair, whose normal speed is vn before it:
 * the change of (1/2) normal_mass vn^2, which is j (vn + j k / 2). Restitution's budget, kept
 * only where there is restitution. */
static inline void add_work(c2d_world *w, const world_contact *c, float vn, float j) {
    if (c->restitution > 0.0f)
        w->contact_work[c - w->contacts] += j * (vn + 0.5f * j * normal_k(w, c));
}

static inline float normal_speed(const c2d_world *w, const world_contact *c) {
    uint32_t a = c->a, b = c->body_b;
    return (w->bvx[a] - w->bvx[b]) * c->normal.x + (w->bvy[a] - w->bvy[b]) * c->normal.y;
}

void c2d_world_warm_start(c2d_world *w) {
    for (size_t i = 0; i < w->contact_count; i++) {
        world_contact *c = &w->contacts[i];
        if (c->normal_impulse == 0.0f && c->tangent_impulse == 0.0f && c->rolling_impulse == 0.0f)
            continue;
        if (c->restitution > 0.0f) /* (no normal speed to read where there is no budget) */
            add_work(w, c, normal_speed(w, c), c->normal_impulse);
        apply_normal(w, c, c->normal_impulse);
        apply_tangent(w, c, c->tangent_impulse, c->rolling_impulse);
    }
}

/* Relative velocity of a's contact point against b's (or the capsule's). */
static inline c2d_vec2 relative_velocity(const c2d_world *w, const world_contact *c) {
    uint32_t a = c->a;
    c2d_vec2 n = c->normal;
    /* v + w x r, with r = -ra n for a and +rb n for b. */
    float wa = w->bw[a];
    c2d_vec2 va = {w->bvx[a] + wa * c->radius_a * n.y, w->bvy[a] - wa * c->radius_a * n.x};
    uint32_t b = c->body_b;
    float wb = w->bw[b];
    c2d_vec2 vb = {w->bvx[b] - wb * c->radius_b * n.y, w->bvy[b] + wb * c->radius_b * n.x};
    return (c2d_vec2){va.x - vb.x, va.y - vb.y};
}

/* The gap between contact c's ball, where it is now, and its capsule as it is now; turns
 * c->normal to point from the capsule's axis toward the centre (kept when the centre is on the
 * axis). */
static float capsule_gap(c2d_world *w, world_contact *c) {
    c2d_capsule k = w->shape[c->other];
    float px = w->start_x[c->a] + w->bdx[c->a], py = w->start_y[c->a] + w->bdy[c->a];
    float ex = k.b.x - k.a.x, ey = k.b.y - k.a.y;
    float len2 = ex * ex + ey * ey;
    float u = len2 > 0.0f ? ((px - k.a.x) * ex + (py - k.a.y) * ey) / len2 : 0.0f;
    u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
    float dx = px - (k.a.x + u * ex), dy = py - (k.a.y + u * ey);
    float d = sqrtf(dx * dx + dy * dy);
    if (d > 0.0f) c->normal = (c2d_vec2){dx / d, dy / d};
    return d - c->radius_a - k.radius;
}

/* How far two balls may move across their step's normal, relative to each other, as a fraction
 * of the sum of their radii (squared), before the passes read their gap where they are. Below
 * it the separation carried along the step's normal (Box2D v3's relative anchors) errs by at
 * most half this square of the sum over the distance: a thousandth of the sum. */
#define TURN_LIMIT 2e-3f

/* The gap between contact c's two balls. The step's normal with the separation carried along
 * it is a tangent to the true gap, never above it: two balls passing each other within their
 * margins saw a gap that closed while the true one stayed open, and took an impulse they never
 * touched for (at 100 units/s, two balls passing a radius apart swerved by 10 units/s; at 5
 * units/s, balls passing 0.02 apart by 1). So once the two have moved across the normal past
 * TURN_LIMIT this step, the gap is read where the balls are, and c->normal turned to the line of
 * their centres (kept when the centres coincide), for the rest of the step. Balls resting on
 * each other stay below it, at the carried separation's cost (reading the gap in every pass
 * cost a sixth of a settling pile's step). */
static float ball_gap(c2d_world *w, world_contact *c) {
    uint32_t a = c->a, b = c->body_b;
    if (!c->turned) {
        float dx = w->bdx[a] - w->bdx[b], dy = w->bdy[a] - w->bdy[b];
        float along = dx * c->normal.x + dy * c->normal.y;
        float reach = c->radius_a + c->radius_b;
        if (dx * dx + dy * dy - along * along <= TURN_LIMIT * reach * reach)
            return c->separation + along;
        c->turned = 1;
    }
    b = c->b;
    float ax = w->start_x[a] + w->bdx[a], ay = w->start_y[a] + w->bdy[a];
    float bx = b != C2D_NONE ? w->start_x[b] + w->bdx[b] : w->x[c->other];
    float by = b != C2D_NONE ? w->start_y[b] + w->bdy[b] : w->y[c->other];
    float dx = ax - bx, dy = ay - by;
    float d = sqrtf(dx * dx + dy * dy);
    if (d > 0.0f) c->normal = (c2d_vec2){dx / d, dy / d};
    return d - c->radius_a - c->radius_b;
}

/* What one pass of the solve needs besides the world. */
typedef struct pass {
    soft s;
    float inv_h, max_push;
    bool use_bias;
} pass;

static void solve_contact(c2d_world *w, world_contact *c, const pass *p) {
    uint32_t b = c->body_b;
    float sep;
    if (c->kind == C2D_SHAPE_CAPSULE) {
        /* A capsule: the normal and gap where the ball and the capsule are now (a kinematic
         * one's shape is the substep's: the first pass runs before the substep moves it, the
         * relax pass after). With the step's normal, a fast ball passing a round pin sees a gap
         * that closes while the true one stays open, and is stopped by a pin it never touches
         * (at 20 units/s, every ball passing a still kinematic pin 0.02 away swerved). */
        sep = capsule_gap(w, c);
        /* A kinematic capsule's sweep stops a ball up to a thousandth of r + R short of it
         * (world_kinematic.c's tolerance): a gap that small is touching. As a speculative
         * gap it let the ball keep approaching at up to the gap a substep, the move stopped
         * it again, and it never came to rest (balls in a drum that stopped never slept). */
        if (c->kinematic && sep <= 2e-3f * (c->radius_a + w->shape[c->other].radius))
            sep = sep < 0.0f ? sep : 0.0f;
    } else {
        sep = ball_gap(w, c);
    }
    c2d_vec2 n = c->normal, t = {n.y, -n.x};

    /* Normal. Spin moves the contact points across the normal, never along it, so the
     * normal velocity is the centres'. */
    float vn = (w->bvx[c->a] - w->bvx[b]) * n.x + (w->bvy[c->a] - w->bvy[b]) * n.y;
    float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
    if (sep > 0.0f) {
        bias = sep * p->inv_h; /* speculative: may close this far, no further */
        /* Not closing that far, and nothing accumulated: no impulse of any kind (most
         * contacts of a falling crowd). */
        if (vn + bias >= 0.0f && c->normal_impulse == 0.0f && c->tangent_impulse == 0.0f &&
            c->rolling_impulse == 0.0f)
            return;
    } else if (p->use_bias) {
        bias = max_f(p->s.bias_rate * sep, -p->max_push);
        /* Ball pairs are soft; a capsule contact is rigid. The swept moves keep a ball out
         * of a capsule, so a soft capsule contact could never compress to the overlap its
         * spring needs: it carried its load by letting the ball sink into the capsule at a
         * speed the move then threw away, and the ball above, pushing a ball on the floor,
         * saw that ball recede and sank into it (0.27 of a radius in the 40,000 pile). */
        if (c->kind == C2D_SHAPE_CIRCLE) {
            mass_scale = p->s.mass_scale;
            impulse_scale = p->s.impulse_scale;
        }
    }
    float mass = impulse_scale > 0.0f ? c->soft_mass : c->normal_mass;
    float impulse = -mass * mass_scale * (vn + bias) - impulse_scale * c->normal_impulse;
    float total = max_f(c->normal_impulse + impulse, 0.0f);
    impulse = total - c->normal_impulse;
    c->normal_impulse = total;
    c->max_normal_impulse = max_f(c->max_normal_impulse, impulse);
    add_work(w, c, vn, impulse);
    apply_normal(w, c, impulse);

    /* Friction and rolling resistance in both passes. In the relax pass only (Box2D v3's
     * current order) saves a sixth of the solve, but a 40,000-ball pile then keeps a few
     * balls rolling on top of each other for 20 s more (33 s to sleep instead of 10). */
    /* Friction (Coulomb, clamped by the normal impulse). */
    c2d_vec2 dv = relative_velocity(w, c);
    float vt = dv.x * t.x + dv.y * t.y;
    float ft = -c->tangent_mass * vt;
    float limit = c->friction * c->normal_impulse;
    float tt = min_f(max_f(c->tangent_impulse + ft, -limit), limit);
    ft = tt - c->tangent_impulse;
    c->tangent_impulse = tt;
    apply_tangent(w, c, ft, 0.0f);

    /* Rolling resistance: a torque on the relative spin, clamped like friction. */
    if (c->rolling > 0.0f && c->inv_inertia_sum_roll > 0.0f) {
        float rel = w->bw[c->a] - w->bw[b];
        float rj = -c->inv_inertia_sum_roll * rel;
        float rlimit = c->rolling * c->normal_impulse;
        float rt = min_f(max_f(c->rolling_impulse + rj, -rlimit), rlimit);
        rj = rt - c->rolling_impulse;
        c->rolling_impulse = rt;
        apply_tangent(w, c, 0.0f, rj);
    }
}

void c2d_world_solve(c2d_world *w, float h, bool use_bias) {
    pass p = {make_soft(contact_hertz(w, h), w->def.contact_damping_ratio, h), 1.0f / h,
              w->def.max_push_speed, use_bias};
    /* Ball pairs first, the capsules last: the last constraint of a pass holds exactly, so a
     * ball pressed onto the floor by the balls above leaves the pass at rest against it, and
     * the move has no approach speed to throw away (the 40,000 pile's deepest overlap went
     * from 0.17 to 0.15 of a radius with this order). */
    for (size_t i = w->capsule_contact_count; i < w->contact_count; i++)
        solve_contact(w, &w->contacts[i], &p);
    for (size_t i = 0; i < w->capsule_contact_count; i++)
        solve_contact(w, &w->contacts[i], &p);
}

/* The largest impulse j with j vn + j^2 k / 2 <= budget: the energy j adds to an approach vn
 * (the root written without the cancellation when vn > 0). */
static float impulse_for_energy(float vn, float k, float budget) {
    float root = sqrtf(vn * vn + 2.0f * k * budget);
    float j = vn > 0.0f ? 2.0f * budget / (root + vn) : k > 0.0f ? (root - vn) / k : 0.0f;
    return max_f(j, 0.0f);
}

/* Restitution, Box2D v3's rule: a pair that approached faster than restitution_threshold when
 * the step began and took an impulse leaves at e times that approach. But it gets back no more
 * energy than e^2 times what was taken out of its approach this step. A ball pair: what its
 * contact's impulses took (their work, kept from the warm start on). A ball's capsules: what
 * the impulses of all its capsule contacts took, net, and what the moves took (a stop below
 * restitution_threshold, a push-out): one pool a ball, spent by its capsule contacts in order
 * (a contact's own work alone counted a neighbour's push as its own: a ball struck the joint
 * of two walls and left 8% faster). The bounce aims at the approach when the step began, and
 * in a crowd others may already have turned that approach around (another ball, or a capsule
 * in the moves); a bounce on top of theirs made energy: 300 balls of restitution 1 at 70
 * units/s gained 10^16 times their energy in 10 s. */
void c2d_world_restitution(c2d_world *w) {
    float threshold = w->def.restitution_threshold, max_speed = w->def.max_speed;
    float *pool = w->move_taken;
    for (size_t i = 0; i < w->capsule_contact_count; i++)
        pool[w->contacts[i].a] -= w->contact_work[i]; /* (0 where restitution is 0) */
    for (size_t i = 0; i < w->contact_count; i++) {
        world_contact *c = &w->contacts[i];
        if (c->restitution == 0.0f || c->relative_velocity > -threshold ||
            !(c->relative_velocity < 0.0f) || c->max_normal_impulse == 0.0f)
            continue;
        /* The bounce leaves no faster than max_speed (moves.c's rule). */
        float e = c->restitution;
        if (e * -c->relative_velocity > max_speed) e = max_speed / -c->relative_velocity;
        float vn = normal_speed(w, c);
        float impulse = -c->normal_mass * (vn + e * c->relative_velocity);
        float total = max_f(c->normal_impulse + impulse, 0.0f);
        impulse = total - c->normal_impulse;
        float e2 = e * e;
        bool capsule = c->kind == C2D_SHAPE_CAPSULE;
        float taken = capsule ? pool[c->a] : -w->contact_work[i];
        float budget = taken > 0.0f ? e2 * taken : 0.0f; /* (e2 may be inf: never inf x 0) */
        float k = normal_k(w, c);
        float added = impulse * (vn + 0.5f * impulse * k);
        if (impulse > 0.0f && added > budget) {
            impulse = min_f(impulse_for_energy(vn, k, budget), impulse);
            total = c->normal_impulse + impulse;
            added = budget;
        }
        if (capsule && impulse > 0.0f && e2 > 0.0f) pool[c->a] -= added / e2;
        c->normal_impulse = total;
        c->max_normal_impulse = max_f(c->max_normal_impulse, impulse);
        apply_normal(w, c, impulse);
    }
}

c2d_status c2d_world_warm_reserve(c2d_world *w) {
    world_warm *cur = &w->warm[w->warm_current];
    return c2d_world_reserve(w, (void **)&cur->row_start, &cur->row_capacity,
                             w->awake_list_count + 1, sizeof(uint32_t)) &&
                   c2d_world_reserve(w, (void **)&cur->entries, &cur->capacity, w->contact_count,
                                     sizeof(world_warm_entry)) &&
                   c2d_world_reserve(w, (void **)&w->contact_work, &w->contact_work_capacity,
                                     w->contact_count, sizeof(float))
               ? C2D_OK
               : C2D_ERROR_ALLOC;
}

void c2d_world_store_impulses(c2d_world *w) {
    /* Rows by owner (the contact's ball a), counted then filled: O(awake + contacts). Room
     * was reserved by c2d_world_warm_reserve() before the substeps. */
    world_warm *cur = &w->warm[w->warm_current];
    size_t rows = w->awake_list_count;
    for (size_t r = 0; r <= rows; r++)
        cur->row_start[r] = 0;
    for (size_t i = 0; i < w->contact_count; i++)
        cur->row_start[w->contacts[i].a + 1]++;
    for (size_t r = 0; r < rows; r++)
        cur->row_start[r + 1] += cur->row_start[r];
    for (size_t i = 0; i < w->contact_count; i++) {
        const world_contact *c = &w->contacts[i];
        /* row_start[a] is used as a cursor and restored below. */
        uint32_t e = cur->row_start[c->a]++;
        cur->entries[e] = (world_warm_entry){other_id(w, c), c->kind, c->normal_impulse,
                                             c->tangent_impulse, c->rolling_impulse};
    }
    for (size_t r = rows; r > 0; r--)
        cur->row_start[r] = cur->row_start[r - 1];
    cur->row_start[0] = 0;
    cur->rows = rows;
    cur->count = w->contact_count;
    for (size_t r = 0; r < rows; r++) {
        uint32_t k = w->awake[r];
        w->warm_row[k] = (uint32_t)r;
        w->warm_step[k] = w->step_index;
        if (w->rest_count[k]) c2d_world_drop_rest(w, k); /* (its first step awake is done) */
    }
    w->warm_current ^= 1;
    w->warm_written = w->step_index;
}
