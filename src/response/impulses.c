/* Sequential impulses over a contact list against structure-of-arrays velocities.
 *
 * Every contact runs c2d_apply_impulse() itself on two c2d_body values gathered from the
 * arrays and scattered back, so the arithmetic has one source of truth and a list resolved
 * here equals a loop of c2d_apply_impulse() byte for byte. All indices are checked before the
 * first write, so an error changes nothing. */
#include "collide2d/response.h"
#include "collide2d/query.h"

static c2d_body gather(const c2d_body_soa *s, uint32_t i) {
    const c2d_body b = {{s->vx[i], s->vy[i]}, s->inv_mass[i], s->restitution[i]};
    return b;
}

static void scatter(const c2d_body_soa *s, uint32_t i, const c2d_body *b) {
    s->vx[i] = b->velocity.x;
    s->vy[i] = b->velocity.y;
}

static bool velocities_ready(const c2d_body_soa *s, const void *contacts, size_t count) {
    if (!s || (count > 0 && !contacts)) return false;
    return count == 0 || (s->vx && s->vy && s->inv_mass && s->restitution);
}

c2d_status c2d_resolve_circle_contacts(const c2d_body_soa *bodies,
                                       const c2d_circle_pair_contact *contacts, size_t count,
                                       float *impulses) {
    if (!velocities_ready(bodies, contacts, count)) return C2D_ERROR_NULL;
    for (size_t k = 0; k < count; k++) {
        const c2d_circle_pair_contact *p = &contacts[k];
        if (p->a >= bodies->count || p->b >= bodies->count || p->a == p->b) return C2D_ERROR_INDEX;
    }
    for (size_t k = 0; k < count; k++) {
        const c2d_circle_pair_contact *p = &contacts[k];
        c2d_body a = gather(bodies, p->a), b = gather(bodies, p->b);
        const float j = c2d_apply_impulse(&a, &b, p->contact.normal);
        scatter(bodies, p->a, &a);
        scatter(bodies, p->b, &b);
        if (impulses) impulses[k] = j;
    }
    return C2D_OK;
}

c2d_status c2d_resolve_capsule_contacts(const c2d_body_soa *bodies,
                                        const c2d_pair_contact *contacts, size_t count,
                                        const float *capsule_restitution, size_t capsule_count,
                                        float *impulses) {
    if (!velocities_ready(bodies, contacts, count)) return C2D_ERROR_NULL;
    for (size_t k = 0; k < count; k++) {
        const c2d_pair_contact *p = &contacts[k];
        if (p->circle >= bodies->count || p->capsule >= capsule_count) return C2D_ERROR_INDEX;
    }
    for (size_t k = 0; k < count; k++) {
        const c2d_pair_contact *p = &contacts[k];
        c2d_body ball = gather(bodies, p->circle);
        /* The capsule: at rest, infinite mass. */
        c2d_body capsule = {{0.0f, 0.0f}, 0.0f, 1.0f};
        if (capsule_restitution) capsule.restitution = capsule_restitution[p->capsule];
        const float j = c2d_apply_impulse(&ball, &capsule, p->contact.normal);
        scatter(bodies, p->circle, &ball);
        if (impulses) impulses[k] = j;
    }
    return C2D_OK;
}
