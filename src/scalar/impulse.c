/* Collision response: one impulse along the contact normal, with restitution, and the Coulomb
 * friction impulse that may follow it. */
#include <float.h>
#include <math.h>

#include "core/impulse_formula.h"
#include "scalar/reference.h"

float c2d_apply_impulse(c2d_body *a, c2d_body *b, c2d_vec2 normal) {
    if (!a || !b) return 0.0f;
    return c2d_impulse_between(a, b, normal);
}

static bool finite_f(float v) {
    return v >= -FLT_MAX && v <= FLT_MAX;
}

/* A body's spin data is usable: inverse inertia and radius finite and >= 0, angular velocity
 * finite. */
static bool spin_ok(const c2d_body_friction *f) {
    return f->inv_inertia >= 0.0f && f->inv_inertia <= FLT_MAX && f->radius >= 0.0f &&
           f->radius <= FLT_MAX && finite_f(f->angular_velocity);
}

float c2d_apply_impulse_friction(c2d_body *a, c2d_body_friction *fa, c2d_body *b,
                                 c2d_body_friction *fb, c2d_vec2 normal, float *tangent_impulse) {
    const float jn = c2d_apply_impulse(a, b, normal);
    if (tangent_impulse) *tangent_impulse = 0.0f;
    if (!(jn > 0.0f) || !fa || !fb) return jn; /* jn > 0 also means a and b are not NULL */
    if (!(fa->friction >= 0.0f && fb->friction >= 0.0f)) return jn;
    const float mu = sqrtf(fa->friction * fb->friction);
    if (!(mu > 0.0f && mu <= FLT_MAX) || !spin_ok(fa) || !spin_ok(fb)) return jn;
    /* The tangent, and the contact points' relative sliding velocity along it after the normal
     * impulse: a's contact point is at -normal ra from its centre, so its spin adds
     * wa x (-ra n) = -wa ra t; b's at +normal rb adds wb rb t, subtracted. */
    const float tx = -normal.y, ty = normal.x;
    const float ra = fa->radius, rb = fb->radius;
    const float vt = ((a->velocity.x - b->velocity.x) * tx + (a->velocity.y - b->velocity.y) * ty) -
                     fa->angular_velocity * ra - fb->angular_velocity * rb;
    const float k =
        ((a->inv_mass + b->inv_mass) + fa->inv_inertia * (ra * ra)) + fb->inv_inertia * (rb * rb);
    float jt = -vt / k; /* k >= inv_a + inv_b > 0 since jn > 0; inf / inf = NaN is caught */
    const float limit = mu * jn;
    if (jt > limit) jt = limit;
    if (jt < -limit) jt = -limit;
    if (!(jt != 0.0f && finite_f(jt))) return jn; /* no sliding (or NaN): nothing to do */
    const float ja = jt * a->inv_mass, jb = jt * b->inv_mass;
    const c2d_vec2 va = {a->velocity.x + ja * tx, a->velocity.y + ja * ty};
    const c2d_vec2 vb = {b->velocity.x - jb * tx, b->velocity.y - jb * ty};
    /* a body without a lever (inverse inertia or radius 0) keeps its angular velocity's bytes */
    const float wa = fa->inv_inertia * ra > 0.0f ? fa->angular_velocity - jt * fa->inv_inertia * ra
                                                 : fa->angular_velocity;
    const float wb = fb->inv_inertia * rb > 0.0f ? fb->angular_velocity - jt * fb->inv_inertia * rb
                                                 : fb->angular_velocity;
    if (!(finite_f(va.x) && finite_f(va.y) && finite_f(vb.x) && finite_f(vb.y) && finite_f(wa) &&
          finite_f(wb)))
        return jn;
    a->velocity = va;
    b->velocity = vb;
    fa->angular_velocity = wa;
    fb->angular_velocity = wb;
    if (tangent_impulse) *tangent_impulse = jt;
    return jn;
}
