/* Sequential impulses over a contact list against structure-of-arrays velocities.
 *
 * Without friction, against capsules at rest, the lists run c2d_apply_impulse()'s own formula
 * (core/impulse_formula.h, inlined) on two c2d_body values gathered from the arrays and scattered
 * back (the fast paths, with prefetching); otherwise they call c2d_apply_impulse_friction() (or
 * c2d_apply_impulse() without friction). So the arithmetic has one source of truth, and a list
 * resolved here equals a loop of the public functions byte for byte. All indices are checked
 * before the first write, so an error changes nothing. The 0.1.0 calls (c2d_resolve_*) are
 * one-line wrappers at the end. */
#include "collide2d/response.h"
#include "collide2d/query.h"
#include "contract.h"
#include "core/impulse_formula.h"
#include "prefetch.h"

static c2d_body gather(const c2d_body_soa *s, uint32_t i) {
    const c2d_body b = {{s->vx[i], s->vy[i]}, s->inv_mass[i], s->restitution[i]};
    return b;
}

static void scatter(const c2d_body_soa *s, uint32_t i, const c2d_body *b) {
    s->vx[i] = b->velocity.x;
    s->vy[i] = b->velocity.y;
}

/* Asks memory for body i's velocity, inverse mass and restitution. */
static inline void ask_body(const c2d_body_soa *s, uint32_t i) {
    c2d_prefetch_write(&s->vx[i]);
    c2d_prefetch_write(&s->vy[i]);
    c2d_prefetch(&s->inv_mass[i]);
    c2d_prefetch(&s->restitution[i]);
}

/* Every pair's indices below the body count, and a != b. */
static bool pairs_in_range(const c2d_body_soa *s, const c2d_circle_pair_contact *contacts,
                           size_t count) {
    for (size_t k = 0; k < count; k++)
        if (!c2d_ball_pair_in(contacts[k].a, contacts[k].b, s->count)) return false;
    return true;
}

/* The bodies and their arrays a list of `count` contacts reads (none when count is 0). */
static bool velocities_ready(const c2d_body_soa *s, const void *contacts, size_t count) {
    if (!s || !c2d_array_given(count, contacts)) return false;
    const float *const arrays[] = {s->vx, s->vy, s->inv_mass, s->restitution};
    return c2d_arrays_given(count, arrays, 4);
}

/* The fast paths stay functions of their own (not inlined into the solve calls): inlined,
 * the capsule list ran 5-10% slower (W5 65,536 x 4,096, 44,404 contacts). */
#define C2D_FAST_PATH static __attribute__((noinline))

/* Ball against ball, no friction. */
C2D_FAST_PATH c2d_status circle_plain(const c2d_body_soa *bodies,
                                      const c2d_circle_pair_contact *contacts, size_t count,
                                      float *impulses) {
    if (!velocities_ready(bodies, contacts, count)) return C2D_ERROR_NULL;
    if (!pairs_in_range(bodies, contacts, count)) return C2D_ERROR_INDEX;
    for (size_t k = 0; k < count; k++) {
        const c2d_circle_pair_contact *p = &contacts[k];
        if (k + C2D_CONTACTS_AHEAD < count)
            ask_body(bodies, p[C2D_CONTACTS_AHEAD].b); /* a ascends */
        c2d_body a = gather(bodies, p->a), b = gather(bodies, p->b);
        const float j = c2d_impulse_between(&a, &b, p->contact.normal);
        scatter(bodies, p->a, &a);
        scatter(bodies, p->b, &b);
        if (impulses) impulses[k] = j;
    }
    return C2D_OK;
}

/* Ball against capsules at rest (infinite mass), no friction. */
C2D_FAST_PATH c2d_status capsule_plain(const c2d_body_soa *bodies, const c2d_pair_contact *contacts,
                                       size_t count, const float *capsule_restitution,
                                       size_t capsule_count, float *impulses) {
    if (!velocities_ready(bodies, contacts, count)) return C2D_ERROR_NULL;
    for (size_t k = 0; k < count; k++) {
        const c2d_pair_contact *p = &contacts[k];
        if (p->circle >= bodies->count || p->capsule >= capsule_count) return C2D_ERROR_INDEX;
    }
    for (size_t k = 0; k < count; k++) {
        const c2d_pair_contact *p = &contacts[k];
        if (k + C2D_CONTACTS_AHEAD < count) ask_body(bodies, p[C2D_CONTACTS_AHEAD].circle);
        c2d_body ball = gather(bodies, p->circle);
        /* The capsule: at rest, infinite mass. */
        c2d_body capsule = {{0.0f, 0.0f}, 0.0f, 1.0f};
        if (capsule_restitution) capsule.restitution = capsule_restitution[p->capsule];
        const float j = c2d_impulse_between(&ball, &capsule, p->contact.normal);
        scatter(bodies, p->circle, &ball);
        if (impulses) impulses[k] = j;
    }
    return C2D_OK;
}

/* ---- with friction, spin and moving capsules --------------------------------------------- */

static bool spin_ready(const c2d_body_friction_soa *spin) {
    return !spin || !spin->friction || !spin->angular_velocity ||
           (spin->inv_inertia && spin->radius);
}

/* Body i's friction and spin; `rotates` false: no rotation (angular velocity, inverse inertia
 * and radius 0). */
static c2d_body_friction gather_spin(const c2d_body_friction_soa *s, uint32_t i) {
    c2d_body_friction f = {s->friction[i], 0.0f, 0.0f, 0.0f};
    if (s->angular_velocity) {
        f.angular_velocity = s->angular_velocity[i];
        f.inv_inertia = s->inv_inertia[i];
        f.radius = s->radius[i];
    }
    return f;
}

static void scatter_spin(const c2d_body_friction_soa *s, uint32_t i, const c2d_body_friction *f) {
    if (s->angular_velocity) s->angular_velocity[i] = f->angular_velocity;
}

/* The tangent impulses of a list resolved without friction: all 0. */
static c2d_status no_tangents(c2d_status st, float *tangent_impulses, size_t count) {
    if (st == C2D_OK && tangent_impulses)
        for (size_t k = 0; k < count; k++)
            tangent_impulses[k] = 0.0f;
    return st;
}

c2d_solve_def c2d_solve_default_def(void) {
    const c2d_solve_def def = {NULL, NULL, NULL, NULL};
    return def;
}

c2d_status c2d_solve_circle_contacts(const c2d_body_soa *bodies,
                                     const c2d_circle_pair_contact *contacts, size_t count,
                                     const c2d_solve_def *def) {
    const c2d_solve_def d = def ? *def : c2d_solve_default_def();
    const c2d_body_friction_soa *spin = d.friction;
    float *impulses = d.impulses, *tangent_impulses = d.tangent_impulses;
    if (!spin || !spin->friction)
        return no_tangents(circle_plain(bodies, contacts, count, impulses), tangent_impulses,
                           count);
    if (!velocities_ready(bodies, contacts, count) || (count > 0 && !spin_ready(spin)))
        return C2D_ERROR_NULL;
    if (!pairs_in_range(bodies, contacts, count)) return C2D_ERROR_INDEX;
    for (size_t k = 0; k < count; k++) {
        const c2d_circle_pair_contact *p = &contacts[k];
        c2d_body a = gather(bodies, p->a), b = gather(bodies, p->b);
        c2d_body_friction fa = gather_spin(spin, p->a), fb = gather_spin(spin, p->b);
        float jt;
        const float j = c2d_apply_impulse_friction(&a, &fa, &b, &fb, p->contact.normal, &jt);
        scatter(bodies, p->a, &a);
        scatter(bodies, p->b, &b);
        scatter_spin(spin, p->a, &fa);
        scatter_spin(spin, p->b, &fb);
        if (impulses) impulses[k] = j;
        if (tangent_impulses) tangent_impulses[k] = jt;
    }
    return C2D_OK;
}

static bool capsules_ready(const c2d_capsule_body_soa *c) {
    if (!c) return true;
    if (!c->vx != !c->vy) return false;
    return !c->angular_velocity || (c->pivot_x && c->pivot_y);
}

/* Capsule k as a body of infinite mass: its velocity at the contact point p, its
 * restitution; and its friction (no spin: radius 0). */
static c2d_body capsule_body(const c2d_capsule_body_soa *c, uint32_t k, c2d_vec2 p,
                             c2d_body_friction *f) {
    c2d_body body = {{0.0f, 0.0f}, 0.0f, 1.0f};
    f->friction = 1.0f;
    f->angular_velocity = f->inv_inertia = f->radius = 0.0f;
    if (!c) return body;
    if (c->restitution) body.restitution = c->restitution[k];
    if (c->friction) f->friction = c->friction[k];
    if (c->vx) {
        body.velocity.x = c->vx[k];
        body.velocity.y = c->vy[k];
    }
    if (c->angular_velocity) { /* + w x (p - pivot) */
        const float w = c->angular_velocity[k];
        body.velocity.x = body.velocity.x - w * (p.y - c->pivot_y[k]);
        body.velocity.y = body.velocity.y + w * (p.x - c->pivot_x[k]);
    }
    return body;
}

c2d_status c2d_solve_capsule_contacts(const c2d_body_soa *bodies,
                                      const c2d_capsule_pair_contact *contacts, size_t count,
                                      const c2d_solve_def *def) {
    const c2d_solve_def d = def ? *def : c2d_solve_default_def();
    const c2d_body_friction_soa *spin = d.friction;
    const c2d_capsule_body_soa *capsules = d.capsules;
    float *impulses = d.impulses, *tangent_impulses = d.tangent_impulses;
    /* Capsules at rest and no friction: the fast path, the same bytes and statuses (its NULL
     * and index checks are the ones below for such capsules). */
    if ((!spin || !spin->friction) && capsules && !capsules->vx && !capsules->vy &&
        !capsules->angular_velocity)
        return no_tangents(capsule_plain(bodies, contacts, count, capsules->restitution,
                                         capsules->count, impulses),
                           tangent_impulses, count);
    if (!velocities_ready(bodies, contacts, count) ||
        (count > 0 && (!spin_ready(spin) || !capsules_ready(capsules))))
        return C2D_ERROR_NULL;
    for (size_t k = 0; k < count; k++) {
        const c2d_pair_contact *p = &contacts[k];
        if (p->circle >= bodies->count || (capsules && p->capsule >= capsules->count))
            return C2D_ERROR_INDEX;
    }
    const bool friction = spin && spin->friction;
    for (size_t k = 0; k < count; k++) {
        const c2d_pair_contact *p = &contacts[k];
        c2d_body ball = gather(bodies, p->circle);
        c2d_body_friction fc;
        c2d_body capsule = capsule_body(capsules, p->capsule, p->contact.point, &fc);
        float jt = 0.0f;
        float j;
        if (friction) {
            c2d_body_friction fb = gather_spin(spin, p->circle);
            j = c2d_apply_impulse_friction(&ball, &fb, &capsule, &fc, p->contact.normal, &jt);
            scatter_spin(spin, p->circle, &fb);
        } else {
            j = c2d_apply_impulse(&ball, &capsule, p->contact.normal);
        }
        scatter(bodies, p->circle, &ball);
        if (impulses) impulses[k] = j;
        if (tangent_impulses) tangent_impulses[k] = jt;
    }
    return C2D_OK;
}

/* ---- the 0.1.0 names (collide2d/compat.h) ------------------------------------------------- */

c2d_status c2d_resolve_circle_contacts(const c2d_body_soa *bodies,
                                       const c2d_circle_pair_contact *contacts, size_t count,
                                       float *impulses) {
    const c2d_solve_def def = {.impulses = impulses};
    return c2d_solve_circle_contacts(bodies, contacts, count, &def);
}

c2d_status c2d_resolve_capsule_contacts(const c2d_body_soa *bodies,
                                        const c2d_pair_contact *contacts, size_t count,
                                        const float *capsule_restitution, size_t capsule_count,
                                        float *impulses) {
    const c2d_capsule_body_soa capsules = {.restitution = capsule_restitution,
                                           .count = capsule_count};
    const c2d_solve_def def = {.capsules = &capsules, .impulses = impulses};
    return c2d_solve_capsule_contacts(bodies, contacts, count, &def);
}

c2d_status c2d_resolve_circle_contacts_ex(const c2d_body_soa *bodies,
                                          const c2d_body_friction_soa *spin,
                                          const c2d_circle_pair_contact *contacts, size_t count,
                                          float *impulses, float *tangent_impulses) {
    const c2d_solve_def def = {
        .friction = spin, .impulses = impulses, .tangent_impulses = tangent_impulses};
    return c2d_solve_circle_contacts(bodies, contacts, count, &def);
}

c2d_status c2d_resolve_capsule_contacts_ex(const c2d_body_soa *bodies,
                                           const c2d_body_friction_soa *spin,
                                           const c2d_pair_contact *contacts, size_t count,
                                           const c2d_capsule_bodies *capsules, float *impulses,
                                           float *tangent_impulses) {
    const c2d_solve_def def = {.friction = spin,
                               .capsules = capsules,
                               .impulses = impulses,
                               .tangent_impulses = tangent_impulses};
    return c2d_solve_capsule_contacts(bodies, contacts, count, &def);
}
