/* Push-out over a contact list: move overlapping bodies apart along the contact normal by the
 * contact's depth, split by inverse mass, in the list's order. */
#include <float.h>

#include "collide2d/response.h"

static bool positions_ready(const c2d_body_soa *s, const void *contacts, size_t count) {
    if (!s || (count > 0 && !contacts)) return false;
    return count == 0 || (s->x && s->y && s->inv_mass);
}

/* Whether a contact can be pushed out: false when the depth or normal is not finite, the depth is
 * not positive, or the inverse masses are invalid (negative, infinite, NaN) or both zero. */
static bool usable(const c2d_contact *c, float inv_sum) {
    const float m = c->depth;
    if (!(m > 0.0f && m <= FLT_MAX)) return false;
    if (!(c->normal.x >= -FLT_MAX && c->normal.x <= FLT_MAX)) return false;
    if (!(c->normal.y >= -FLT_MAX && c->normal.y <= FLT_MAX)) return false;
    return inv_sum > 0.0f && inv_sum <= FLT_MAX;
}

static void move(const c2d_body_soa *s, uint32_t i, const c2d_contact *c, float distance) {
    s->x[i] += c->normal.x * distance;
    s->y[i] += c->normal.y * distance;
}

c2d_status c2d_push_out_circle_contacts(const c2d_body_soa *bodies,
                                        const c2d_circle_pair_contact *contacts, size_t count) {
    if (!positions_ready(bodies, contacts, count)) return C2D_ERROR_NULL;
    for (size_t k = 0; k < count; k++) {
        const c2d_circle_pair_contact *p = &contacts[k];
        if (p->a >= bodies->count || p->b >= bodies->count || p->a == p->b) return C2D_ERROR_INDEX;
    }
    for (size_t k = 0; k < count; k++) {
        const c2d_circle_pair_contact *p = &contacts[k];
        const float ia = bodies->inv_mass[p->a], ib = bodies->inv_mass[p->b];
        if (!(ia >= 0.0f && ib >= 0.0f) || !usable(&p->contact, ia + ib)) continue;
        const float share = p->contact.depth / (ia + ib);
        move(bodies, p->a, &p->contact, share * ia);
        move(bodies, p->b, &p->contact, -(share * ib));
    }
    return C2D_OK;
}

c2d_status c2d_push_out_capsule_contacts(const c2d_body_soa *bodies,
                                         const c2d_pair_contact *contacts, size_t count) {
    if (!positions_ready(bodies, contacts, count)) return C2D_ERROR_NULL;
    for (size_t k = 0; k < count; k++)
        if (contacts[k].circle >= bodies->count) return C2D_ERROR_INDEX;
    for (size_t k = 0; k < count; k++) {
        const c2d_pair_contact *p = &contacts[k];
        const float ia = bodies->inv_mass[p->circle];
        if (!(ia >= 0.0f) || !usable(&p->contact, ia)) continue;
        move(bodies, p->circle, &p->contact, p->contact.depth);
    }
    return C2D_OK;
}
