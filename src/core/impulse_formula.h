/* The impulse along a contact normal, written once: c2d_apply_impulse() (src/scalar/impulse.c)
 * is this function, and the contact-list calls (src/response/impulses.c) inline it, so a list
 * resolved there equals a loop of c2d_apply_impulse() byte for byte without a call a contact. */
#ifndef C2D_CORE_IMPULSE_FORMULA_H
#define C2D_CORE_IMPULSE_FORMULA_H

#include <float.h>
#include <math.h>

#include "collide2d/query.h"

/* c2d_apply_impulse() for bodies that are not NULL (see its doc comment). */
static inline float c2d_impulse_between(c2d_body *a, c2d_body *b, c2d_vec2 normal) {
    const float vn =
        (a->velocity.x - b->velocity.x) * normal.x + (a->velocity.y - b->velocity.y) * normal.y;
    const float inv_sum = a->inv_mass + b->inv_mass;
    if (!(vn < 0.0f) || !(inv_sum > 0.0f)) /* separating, resting, both static, or NaN */
        return 0.0f;
    /* A negative or infinite inverse mass has no meaning (infinite makes 0 * inf = NaN). */
    if (!(a->inv_mass >= 0.0f && b->inv_mass >= 0.0f && inv_sum <= FLT_MAX)) return 0.0f;
    const float e = sqrtf(a->restitution * b->restitution);
    const float j = -(1.0f + e) * vn / inv_sum;
    const float ja = j * a->inv_mass, jb = j * b->inv_mass;
    /* NaN (NaN restitution, a negative product of restitutions) or beyond float range (huge
     * velocities): an impulse of inf would write inf * 0 = NaN into the velocities. */
    if (!(j <= FLT_MAX && ja <= FLT_MAX && jb <= FLT_MAX)) return 0.0f;
    const c2d_vec2 va = {a->velocity.x + ja * normal.x, a->velocity.y + ja * normal.y};
    const c2d_vec2 vb = {b->velocity.x - jb * normal.x, b->velocity.y - jb * normal.y};
    /* A finite impulse can still push a velocity past float range (a huge velocity plus a
     * huge change): that is input out of range too, and changes nothing. fabsf(NaN) fails. */
    if (!(fabsf(va.x) <= FLT_MAX && fabsf(va.y) <= FLT_MAX && fabsf(vb.x) <= FLT_MAX &&
          fabsf(vb.y) <= FLT_MAX))
        return 0.0f;
    a->velocity = va;
    b->velocity = vb;
    return j;
}

#endif
