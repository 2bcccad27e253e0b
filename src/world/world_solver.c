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
 * friction and rolling resistance turn the balls. The separation is updated each substep
 * from the step's normal and the two sides' moves (Box2D v3's relative anchors). */
#include <math.h>

#include "world_internal.h"

/* max and min without libm calls (the operands are never NaN here: impulses and speeds of
 * finite bodies). */
static inline float max_f(float a, float b) { return a > b ? a : b; }
static inline float min_f(float a, float b) { return a < b ? a : b; }

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

static const world_warm_entry *warm_lookup(const c2d_world *w, uint32_t owner, uint32_t other,
                                           uint32_t kind) {
    if (w->warm_step[owner] != w->step_index - 1) return NULL;
    const world_warm *prev = &w->warm[w->warm_current ^ 1];
    uint32_t row = w->warm_row[owner];
    if (row >= prev->rows) return NULL;
    for (uint32_t e = prev->row_start[row]; e < prev->row_start[row + 1]; e++)
        if (prev->entries[e].other == other && prev->entries[e].kind == kind)
            return &prev->entries[e];
    return NULL;
}

/* The id that names the other side of a contact in the warm-start memory. */
static uint32_t other_id(const c2d_world *w, const world_contact *c) {
    return c->kind == C2D_SHAPE_CAPSULE ? w->capsule_ids[c->other] : w->ids[c->other];
}

void c2d_world_solve_prepare(c2d_world *w, float h) {
    for (size_t i = 0; i < w->contact_count; i++) {
        world_contact *c = &w->contacts[i];
        float ma = w->binv_mass[c->a], ia = w->binv_inertia[c->a];
        float mb = 0.0f, ib = 0.0f;
        if (c->b != C2D_NONE) {
            mb = w->binv_mass[c->b];
            ib = w->binv_inertia[c->b];
        }
        float k = ma + mb;
        c->normal_mass = k > 0.0f ? 1.0f / k : 0.0f;
        float kt = ma + mb + ia * c->radius_a * c->radius_a + ib * c->radius_b * c->radius_b;
        c->tangent_mass = kt > 0.0f ? 1.0f / kt : 0.0f;
        float kr = ia + ib;
        c->inv_inertia_sum_roll = kr > 0.0f ? 1.0f / kr : 0.0f;
        /* The normal velocity before the solve, for restitution. */
        c2d_vec2 n = c->normal;
        float vbx = 0.0f, vby = 0.0f;
        if (c->b != C2D_NONE) {
            vbx = w->bvx[c->b];
            vby = w->bvy[c->b];
        }
        c->relative_velocity = (w->bvx[c->a] - vbx - c->other_velocity.x) * n.x +
                               (w->bvy[c->a] - vby - c->other_velocity.y) * n.y;
        c->max_normal_impulse = 0.0f;
        /* Warm start from last step's impulses of the same pair. */
        uint32_t owner = w->awake[c->a];
        const world_warm_entry *e = warm_lookup(w, owner, other_id(w, c), c->kind);
        /* A ball pair may have been kept by the other ball (the order of the two changes when
         * one falls asleep or wakes). */
        if (!e && c->kind == C2D_SHAPE_CIRCLE) {
            uint32_t kb = c->b != C2D_NONE ? w->awake[c->b] : c->other;
            e = warm_lookup(w, kb, w->ids[owner], C2D_SHAPE_CIRCLE);
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
    if (c->b != C2D_NONE) {
        uint32_t b = c->b;
        float mb = w->binv_mass[b];
        w->bvx[b] -= mb * px;
        w->bvy[b] -= mb * py;
    }
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
    if (c->b != C2D_NONE) {
        uint32_t b = c->b;
        float mb = w->binv_mass[b], ib = w->binv_inertia[b];
        w->bvx[b] -= mb * px;
        w->bvy[b] -= mb * py;
        w->bw[b] -= ib * (-c->radius_b * j + roll);
    }
}

void c2d_world_warm_start(c2d_world *w) {
    for (size_t i = 0; i < w->contact_count; i++) {
        const world_contact *c = &w->contacts[i];
        if (c->normal_impulse == 0.0f && c->tangent_impulse == 0.0f && c->rolling_impulse == 0.0f)
            continue;
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
    c2d_vec2 vb = c->other_velocity;
    if (c->b != C2D_NONE) {
        uint32_t b = c->b;
        float wb = w->bw[b];
        vb = (c2d_vec2){w->bvx[b] - wb * c->radius_b * n.y, w->bvy[b] + wb * c->radius_b * n.x};
    }
    return (c2d_vec2){va.x - vb.x, va.y - vb.y};
}

void c2d_world_solve(c2d_world *w, float h, bool use_bias, float elapsed) {
    soft s = make_soft(contact_hertz(w, h), w->def.contact_damping_ratio, h);
    float inv_h = 1.0f / h;
    float max_push = w->def.max_push_speed;
    for (size_t i = 0; i < w->contact_count; i++) {
        world_contact *c = &w->contacts[i];
        c2d_vec2 n = c->normal, t = {n.y, -n.x};
        /* The separation now: the start's plus the sides' moves along the normal. */
        float dax = w->bdx[c->a], day = w->bdy[c->a];
        float dbx = c->other_velocity.x * elapsed, dby = c->other_velocity.y * elapsed;
        if (c->b != C2D_NONE) {
            dbx = w->bdx[c->b];
            dby = w->bdy[c->b];
        }
        float sep = c->separation + (dax - dbx) * n.x + (day - dby) * n.y;

        /* Normal. Spin moves the contact points across the normal, never along it, so the
         * normal velocity is the centres'. */
        float vbx = c->other_velocity.x, vby = c->other_velocity.y;
        if (c->b != C2D_NONE) {
            vbx = w->bvx[c->b];
            vby = w->bvy[c->b];
        }
        float vn = (w->bvx[c->a] - vbx) * n.x + (w->bvy[c->a] - vby) * n.y;
        float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
        if (sep > 0.0f) {
            bias = sep * inv_h; /* speculative: may close this far, no further */
            /* Not closing that far, and nothing accumulated: no impulse of any kind (most
             * contacts of a falling crowd). */
            if (vn + bias >= 0.0f && c->normal_impulse == 0.0f && c->tangent_impulse == 0.0f &&
                c->rolling_impulse == 0.0f)
                continue;
        } else if (use_bias) {
            bias = max_f(s.bias_rate * sep, -max_push);
            mass_scale = s.mass_scale;
            impulse_scale = s.impulse_scale;
        }
        float impulse = -c->normal_mass * mass_scale * (vn + bias) - impulse_scale * c->normal_impulse;
        float total = max_f(c->normal_impulse + impulse, 0.0f);
        impulse = total - c->normal_impulse;
        c->normal_impulse = total;
        c->max_normal_impulse = max_f(c->max_normal_impulse, impulse);
        apply_normal(w, c, impulse);

        /* Friction and rolling resistance in the relax pass only (as Box2D v3 does now): the
         * same piles (prototype, bench/LOG.md) for a quarter less work. */
        if (use_bias) continue;

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
            float wb = c->b != C2D_NONE ? w->bw[c->b] : 0.0f;
            float rel = w->bw[c->a] - wb;
            float rj = -c->inv_inertia_sum_roll * rel;
            float rlimit = c->rolling * c->normal_impulse;
            float rt = min_f(max_f(c->rolling_impulse + rj, -rlimit), rlimit);
            rj = rt - c->rolling_impulse;
            c->rolling_impulse = rt;
            apply_tangent(w, c, 0.0f, rj);
        }
    }
}

void c2d_world_restitution(c2d_world *w) {
    float threshold = w->def.restitution_threshold;
    for (size_t i = 0; i < w->contact_count; i++) {
        world_contact *c = &w->contacts[i];
        if (c->restitution == 0.0f || c->relative_velocity > -threshold ||
            c->max_normal_impulse == 0.0f)
            continue;
        c2d_vec2 n = c->normal;
        float vbx = c->other_velocity.x, vby = c->other_velocity.y;
        if (c->b != C2D_NONE) {
            vbx = w->bvx[c->b];
            vby = w->bvy[c->b];
        }
        float vn = (w->bvx[c->a] - vbx) * n.x + (w->bvy[c->a] - vby) * n.y;
        float impulse = -c->normal_mass * (vn + c->restitution * c->relative_velocity);
        float total = max_f(c->normal_impulse + impulse, 0.0f);
        impulse = total - c->normal_impulse;
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
                                 sizeof(world_warm_entry))
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
    }
    w->warm_current ^= 1;
}
