/* A step's contacts, found once before the substeps with the library's SIMD scene calls.
 *
 * Every awake ball's radius is grown by its speculative margin m = speculative_distance +
 * |v| dt / 4, so the contacts include pairs that may touch during the step (a speculative
 * contact: positive separation, which the solver lets close but not cross). A sleeping ball
 * counts the plain speculative_distance. The true separation of a pair is recovered as the
 * sum of the margins used minus the reported depth. Kinematic capsules are grown by how far
 * any of their points moves this step. */
#include <math.h>
#include <string.h>

#include "world_internal.h"
#include "world_kinematic.h"

static c2d_status push_contacts(c2d_world *w, size_t more) {
    return c2d_world_reserve(w, (void **)&w->contacts, &w->contact_capacity,
                             w->contact_count + more, sizeof(world_contact))
               ? C2D_OK
               : C2D_ERROR_ALLOC;
}

static c2d_status call_static(c2d_world *w, void *out, size_t capacity, size_t *total,
                              const void *ctx) {
    (void)ctx;
    c2d_circle_soa soa = c2d_world_awake_soa(w, w->ar_capsule);
    return c2d_scene_collide(w->static_scene, &soa, out, capacity, total);
}

static c2d_status call_awake(c2d_world *w, void *out, size_t capacity, size_t *total,
                             const void *ctx) {
    (void)ctx;
    c2d_circle_soa soa = c2d_world_awake_soa(w, w->ar);
    return c2d_scene_collide_circles(w->balls_scene, &soa, out, capacity, total);
}

static c2d_status call_frozen(c2d_world *w, void *out, size_t capacity, size_t *total,
                              const void *ctx) {
    (void)ctx;
    c2d_circle_soa soa = c2d_world_awake_soa(w, w->ar_frozen);
    return c2d_scene_collide_frozen(w->balls_scene, &soa, w->awake, out, capacity, total);
}

static float mix(float a, float b) {
    return sqrtf(a * b);
}

/* Fills the material fields of a contact of awake ball ka against ball kb. */
static void ball_materials(const c2d_world *w, world_contact *c, uint32_t ka, uint32_t kb) {
    c->friction = mix(w->friction[ka], w->friction[kb]);
    c->restitution = mix(w->restitution[ka], w->restitution[kb]);
    float rr = fmaxf(w->rolling_resistance[ka], w->rolling_resistance[kb]);
    c->rolling = rr * fminf(w->radius[ka], w->radius[kb]);
    c->events = ((w->flags[ka] | w->flags[kb]) & WORLD_BALL_EVENTS) != 0;
}

static void capsule_materials(const c2d_world *w, world_contact *c, uint32_t ka, uint32_t cap) {
    c->friction = mix(w->friction[ka], w->capsule_friction[cap]);
    c->restitution = mix(w->restitution[ka], w->capsule_restitution[cap]);
    c->rolling = w->rolling_resistance[ka] * w->radius[ka];
    c->events = (w->flags[ka] & WORLD_BALL_EVENTS) || w->capsule_events[cap];
}

static world_contact blank_contact(void) {
    world_contact c;
    memset(&c, 0, sizeof c);
    c.b = C2D_NONE;
    return c;
}

/* Runs a scene call that writes `size`-byte records into w->scratch, growing it when the call
 * says the records did not fit (a first call with no memory is a size query: OK with the
 * total). */
c2d_status c2d_world_into_scratch(c2d_world *w, c2d_world_scratch_call *call, size_t size,
                                  const void *ctx, size_t *total) {
    for (;;) {
        size_t capacity = w->scratch_bytes / size;
        c2d_status st = call(w, w->scratch, capacity, total, ctx);
        if (st != C2D_ERROR_TRUNCATED && !(st == C2D_OK && *total > capacity)) return st;
        size_t bytes;
        if (!c2d_size_mul(*total, size, &bytes) ||
            !c2d_world_reserve(w, &w->scratch, &w->scratch_bytes, bytes, 1))
            return C2D_ERROR_ALLOC;
    }
}

/* Kinematic capsule list entry `list_index`'s velocity at `p` (the average over the step: each
 * endpoint moves on a straight line from its start to its end). */
static c2d_vec2 kinematic_velocity(const c2d_world *w, size_t list_index, c2d_vec2 p,
                                   float inv_dt) {
    c2d_capsule s0 = w->kin_step_start[list_index];
    c2d_capsule s1 = w->kin_step_end[list_index];
    float dx = s0.b.x - s0.a.x, dy = s0.b.y - s0.a.y;
    float len2 = dx * dx + dy * dy;
    float u = len2 > 0.0f ? ((p.x - s0.a.x) * dx + (p.y - s0.a.y) * dy) / len2 : 0.0f;
    u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
    float vax = (s1.a.x - s0.a.x) * inv_dt, vay = (s1.a.y - s0.a.y) * inv_dt;
    float vbx = (s1.b.x - s0.b.x) * inv_dt, vby = (s1.b.y - s0.b.y) * inv_dt;
    return (c2d_vec2){vax + u * (vbx - vax), vay + u * (vby - vay)};
}

c2d_status c2d_world_find_contacts(c2d_world *w, float dt) {
    w->contact_count = 0;
    w->capsule_contact_count = 0;
    size_t n = w->awake_list_count;
    if (n == 0) return C2D_OK;
    size_t total;
    c2d_status st;

    /* Static capsules. */
    if (w->static_scene && c2d_scene_capsule_count(w->static_scene) > 0) {
        st = c2d_world_into_scratch(w, call_static, sizeof(c2d_pair_contact), NULL, &total);
        if (st != C2D_OK) return st;
        if (push_contacts(w, total) != C2D_OK) return C2D_ERROR_ALLOC;
        const c2d_pair_contact *pc = w->scratch;
        for (size_t i = 0; i < total; i++) {
            uint32_t a = pc[i].circle, cap = w->static_map[pc[i].capsule];
            uint32_t ka = w->awake[a];
            world_contact c = blank_contact();
            c.a = a;
            c.other = cap;
            c.kind = C2D_SHAPE_CAPSULE;
            c.normal = pc[i].contact.normal;
            c.point = pc[i].contact.point;
            c.separation = w->margin_capsule[a] - pc[i].contact.depth;
            c.radius_a = w->radius[ka];
            capsule_materials(w, &c, ka, cap);
            w->contacts[w->contact_count++] = c;
            /* Near a capsule: unswept only while it cannot reach this one. */
            float open = c.separation - c2d_world_move_slack(w, w->ax[a], w->ay[a], c.radius_a,
                                                             w->margin_capsule[a]);
            if (open < w->clearance[a]) w->clearance[a] = open;
        }
    }

    /* Kinematic capsules: each awake ball against those whose step's box meets its own
     * (world_kinematic_near.c). */
    float inv_dt = 1.0f / dt;
    for (size_t i = 0; i < n; i++) {
        for (uint32_t e = w->kin_first[i]; e < w->kin_first[i + 1]; e++) {
            uint32_t j = w->kin_near[e], cap = w->kinematic_list[j];
            float grow = w->kin_reach[j];
            c2d_capsule s = w->kin_step_start[j];
            c2d_capsule grown = {s.a, s.b, s.radius + grow};
            c2d_contact ct;
            c2d_circle ball = {{w->ax[i], w->ay[i]}, w->ar_capsule[i]};
            if (!c2d_collide_circle_capsule(ball, grown, &ct)) continue;
            if (push_contacts(w, 1) != C2D_OK) return C2D_ERROR_ALLOC;
            uint32_t ka = w->awake[i];
            world_contact c = blank_contact();
            c.a = (uint32_t)i;
            c.other = cap;
            c.kind = C2D_SHAPE_CAPSULE;
            c.kinematic = 1;
            c.normal = ct.normal;
            /* The point on the true surface, grow closer to the axis than the grown one. */
            c.point = (c2d_vec2){ct.point.x - ct.normal.x * grow, ct.point.y - ct.normal.y * grow};
            c.separation = w->margin_capsule[i] + grow - ct.depth;
            c.radius_a = w->radius[ka];
            c.other_velocity = kinematic_velocity(w, j, c.point, inv_dt);
            capsule_materials(w, &c, ka, cap);
            w->contacts[w->contact_count++] = c;
        }
    }

    w->capsule_contact_count = w->contact_count;

    /* Awake balls against awake balls. */
    st = c2d_world_into_scratch(w, call_awake, sizeof(c2d_circle_pair_contact), NULL, &total);
    if (st != C2D_OK) return st;
    if (push_contacts(w, total) != C2D_OK) return C2D_ERROR_ALLOC;
    const c2d_circle_pair_contact *pp = w->scratch;
    for (size_t i = 0; i < total; i++) {
        uint32_t a = pp[i].a, b = pp[i].b;
        uint32_t ka = w->awake[a], kb = w->awake[b];
        world_contact c = blank_contact();
        c.a = a;
        c.b = b;
        c.other = kb;
        c.kind = C2D_SHAPE_CIRCLE;
        c.normal = pp[i].contact.normal;
        c.point = pp[i].contact.point;
        c.separation = w->margin[a] + w->margin[b] - pp[i].contact.depth;
        c.radius_a = w->radius[ka];
        c.radius_b = w->radius[kb];
        ball_materials(w, &c, ka, kb);
        w->contacts[w->contact_count++] = c;
    }

    /* Awake balls against sleeping ones (global ids = dense indices; the normal points toward
     * the lower index, so it is turned toward the awake ball where needed). */
    if (c2d_scene_frozen_count(w->balls_scene) > 0) {
        st = c2d_world_into_scratch(w, call_frozen, sizeof(c2d_circle_pair_contact), NULL, &total);
        if (st != C2D_OK) return st;
        if (push_contacts(w, total) != C2D_OK) return C2D_ERROR_ALLOC;
        pp = w->scratch;
        float base = w->def.speculative_distance;
        for (size_t i = 0; i < total; i++) {
            bool a_awake = (w->flags[pp[i].a] & WORLD_BALL_AWAKE) != 0;
            uint32_t ka = a_awake ? pp[i].a : pp[i].b;
            uint32_t kf = a_awake ? pp[i].b : pp[i].a;
            uint32_t a = w->local_of[ka];
            world_contact c = blank_contact();
            c.a = a;
            c.other = kf;
            c.kind = C2D_SHAPE_CIRCLE;
            c2d_vec2 nrm = pp[i].contact.normal;
            if (!a_awake) nrm = (c2d_vec2){-nrm.x, -nrm.y};
            c.normal = nrm;
            c.point =
                (c2d_vec2){w->x[kf] + nrm.x * w->radius[kf], w->y[kf] + nrm.y * w->radius[kf]};
            c.separation = w->margin_frozen[a] + base - pp[i].contact.depth;
            c.radius_a = w->radius[ka];
            c.radius_b = w->radius[kf];
            ball_materials(w, &c, ka, kf);
            w->contacts[w->contact_count++] = c;
        }
    }
    return C2D_OK;
}
