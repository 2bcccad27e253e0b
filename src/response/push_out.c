/* Push-out over a contact list: move overlapping bodies apart along the contact normal by the
 * contact's depth, split by inverse mass, in the list's order. */
#include <float.h>

#include "collide2d/response.h"
#include "contract.h"
#include "prefetch.h"

/* The bodies and their arrays a list of `count` contacts reads (none when count is 0). */
static bool positions_ready(const c2d_body_soa *s, const void *contacts, size_t count) {
    if (!s || !c2d_array_given(count, contacts)) return false;
    const float *const arrays[] = {s->x, s->y, s->inv_mass};
    return c2d_arrays_given(count, arrays, 3);
}

/* Asks memory for body i's position and inverse mass. */
static inline void ask_body(const c2d_body_soa *s, uint32_t i) {
    c2d_prefetch_write(&s->x[i]);
    c2d_prefetch_write(&s->y[i]);
    c2d_prefetch(&s->inv_mass[i]);
}

static bool finite(float v) {
    return v >= -FLT_MAX && v <= FLT_MAX;
}

/* Whether a contact can be pushed out: false when the depth or normal is not finite, the depth is
 * not positive, or the inverse masses are invalid (negative, infinite, NaN) or both zero. */
static bool usable(const c2d_contact *c, float inv_sum) {
    const float m = c->depth;
    if (!(m > 0.0f && m <= FLT_MAX)) return false;
    if (!finite(c->normal.x) || !finite(c->normal.y)) return false;
    return inv_sum > 0.0f && inv_sum <= FLT_MAX;
}

/* Where body i goes when moved `distance` along the contact's normal; false when a coordinate
 * would leave the floats (the push is then skipped, as an impulse too large for a float is). */
static bool moved(const c2d_body_soa *s, uint32_t i, const c2d_contact *c, float distance, float *x,
                  float *y) {
    *x = s->x[i] + c->normal.x * distance;
    *y = s->y[i] + c->normal.y * distance;
    return finite(*x) && finite(*y);
}

c2d_status c2d_push_out_circle_contacts(const c2d_body_soa *bodies,
                                        const c2d_circle_pair_contact *contacts, size_t count) {
    if (!positions_ready(bodies, contacts, count)) return C2D_ERROR_NULL;
    for (size_t k = 0; k < count; k++) {
        if (!c2d_ball_pair_in(contacts[k].a, contacts[k].b, bodies->count)) return C2D_ERROR_INDEX;
    }
    for (size_t k = 0; k < count; k++) {
        const c2d_circle_pair_contact *p = &contacts[k];
        if (k + C2D_CONTACTS_AHEAD < count)
            ask_body(bodies, p[C2D_CONTACTS_AHEAD].b); /* a ascends */
        const float ia = bodies->inv_mass[p->a], ib = bodies->inv_mass[p->b];
        if (!(ia >= 0.0f && ib >= 0.0f) || !usable(&p->contact, ia + ib)) continue;
        /* Each body's share of the depth as a fraction in [0, 1]: depth / (ia + ib) overflows
         * when the inverse masses are tiny (FLT_MIN for "practically static"). */
        const float sum = ia + ib;
        float xa, ya, xb, yb;
        if (!moved(bodies, p->a, &p->contact, p->contact.depth * (ia / sum), &xa, &ya) ||
            !moved(bodies, p->b, &p->contact, -(p->contact.depth * (ib / sum)), &xb, &yb))
            continue;
        if (ia > 0.0f) { /* a static body is never written (not even -0 to +0) */
            bodies->x[p->a] = xa;
            bodies->y[p->a] = ya;
        }
        if (ib > 0.0f) {
            bodies->x[p->b] = xb;
            bodies->y[p->b] = yb;
        }
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
        if (k + C2D_CONTACTS_AHEAD < count) ask_body(bodies, p[C2D_CONTACTS_AHEAD].circle);
        const float ia = bodies->inv_mass[p->circle];
        float x, y;
        if (!(ia >= 0.0f) || !usable(&p->contact, ia) ||
            !moved(bodies, p->circle, &p->contact, p->contact.depth, &x, &y))
            continue;
        bodies->x[p->circle] = x;
        bodies->y[p->circle] = y;
    }
    return C2D_OK;
}
