/// @file collide2d/response.h
/// Collision response over a contact list: sequential impulses (with optional friction, spin
/// and moving capsules) and push-out against bodies held as structure-of-arrays, in the list's
/// order, deterministic.
///
/// Each impulse is exactly c2d_apply_impulse() (collide2d/query.h) on the two bodies (in the
/// `_ex` calls c2d_apply_impulse_friction()): the lists run the same formula, inline, in the
/// same operation order, so a list resolved here equals a loop of that function byte for byte.
/// Contacts are applied one after the other, each seeing the velocities the ones before it left, so
/// the result depends on the list's order (which the batch and scene calls fix).
///
/// @code
/// c2d_body_soa balls = {x, y, vx, vy, inv_mass, restitution, n};
/// c2d_resolve_circle_contacts(&balls, ball_pairs, n_pairs, NULL);   // ball against ball
/// c2d_resolve_capsule_contacts(&balls, pin_hits, n_hits, pin_e, n_pins, NULL); // static pins
/// c2d_push_out_circle_contacts(&balls, ball_pairs, n_pairs);        // then separate them
/// c2d_push_out_capsule_contacts(&balls, pin_hits, n_hits);
///
/// // with friction and spin, against paddles moving at (pvx, pvy):
/// c2d_body_friction_soa spin = {mu, omega, inv_inertia, radius};
/// c2d_capsule_bodies paddles = {pin_e, pin_mu, pvx, pvy, NULL, NULL, NULL, n_pins};
/// c2d_resolve_capsule_contacts_ex(&balls, &spin, pin_hits, n_hits, &paddles, NULL, NULL);
/// @endcode
#ifndef COLLIDE2D_RESPONSE_H
#define COLLIDE2D_RESPONSE_H

#include "batch.h"
#include "balls.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Moving bodies (balls) as structure-of-arrays. Element i is body i of the contact lists.
typedef struct c2d_body_soa {
    /// Positions, written by the push-out calls; the impulse calls never touch them (NULL is
    /// fine there).
    float *x, *y;
    /// Velocities, written by the impulse calls; the push-out calls never touch them (NULL is
    /// fine there).
    float *vx, *vy;
    /// 1 / mass per body; 0 makes it static. Negative or infinite values: no response.
    const float *inv_mass;
    /// Coefficient of restitution per body (impulse calls only; NULL is fine for push-out).
    const float *restitution;
    /// Number of bodies: every index in a contact list must be below it.
    size_t count;
} c2d_body_soa;

/// Resolves ball-against-ball contacts with sequential impulses in the list's order: for
/// each entry, c2d_apply_impulse(body a, body b, contact.normal) (the normal points toward a),
/// with restitution sqrt(ea * eb) and the two inverse masses.
///
/// `impulses` (may be NULL) receives `count` values, entry k the impulse magnitude of
/// contact k (0 where nothing changed). Contacts that c2d_apply_impulse() ignores (separating,
/// NaN normals or velocities, both static, invalid inverse masses) change nothing.
///
/// Errors: a NULL `bodies`, `contacts` (count > 0), `vx`, `vy`, `inv_mass` or `restitution`
/// (count > 0) gives C2D_ERROR_NULL; an index at or above `bodies->count`, or a pair with
/// a == b, gives C2D_ERROR_INDEX. On every error nothing is written.
C2D_API c2d_status c2d_resolve_circle_contacts(const c2d_body_soa *bodies,
                                               const c2d_circle_pair_contact *contacts,
                                               size_t count, float *impulses);

/// Resolves ball-against-static-capsule contacts (the batch and scene collide calls' lists)
/// with sequential impulses in the list's order: for each entry,
/// c2d_apply_impulse(ball, capsule, contact.normal) where the capsule is a body at rest with
/// inverse mass 0 and restitution `capsule_restitution[capsule]` (NULL: every capsule has
/// restitution 1, so the pair's is sqrt(e_ball)).
///
/// `capsule_count` bounds the capsule indices. `impulses` as in c2d_resolve_circle_contacts().
/// Errors: as c2d_resolve_circle_contacts(); a capsule index at or above `capsule_count`
/// gives C2D_ERROR_INDEX.
C2D_API c2d_status c2d_resolve_capsule_contacts(const c2d_body_soa *bodies,
                                                const c2d_pair_contact *contacts, size_t count,
                                                const float *capsule_restitution,
                                                size_t capsule_count, float *impulses);

/// Optional friction and spin of the bodies of a c2d_body_soa, for the `_ex` resolve calls
/// (element i belongs to body i). A separate struct, so c2d_body_soa keeps its layout and
/// every existing call its meaning.
typedef struct c2d_body_friction_soa {
    /// Coulomb coefficient per body (c2d_body_friction::friction). NULL: no friction at all,
    /// and the `_ex` calls equal the plain ones byte for byte.
    const float *friction;
    /// Angular velocity per body, counter-clockwise, updated by friction. NULL: the bodies do
    /// not rotate (friction only slows their sliding); `inv_inertia` and `radius` are then
    /// not read.
    float *angular_velocity;
    /// 1 / moment of inertia per body (a solid disc: 2 inv_mass / r^2); needed with
    /// `angular_velocity`.
    const float *inv_inertia;
    /// Radius per body (the lever arm of the contact point); needed with `angular_velocity`.
    const float *radius;
} c2d_body_friction_soa;

/// The capsules of a contact list seen as bodies of infinite mass, for
/// c2d_resolve_capsule_contacts_ex(). Every array is optional (element k belongs to capsule k).
///
/// A capsule may move: its velocity at a contact point p (the contact's `point`, on the
/// capsule's surface) is `(vx - w (p.y - pivot_y), vy + w (p.x - pivot_x))`, the
/// translation plus `w x (p - pivot)`: a paddle or platform sets vx, vy; a flipper turning
/// about its hinge sets angular_velocity and the pivot (README: "The frame loop").
/// Velocities are per unit of time, as the balls' are (a sweep's move is velocity * dt).
typedef struct c2d_capsule_bodies {
    /// Restitution per capsule. NULL: 1 (the pair's is sqrt(e_ball)).
    const float *restitution;
    /// Coulomb coefficient per capsule. NULL: 1 (the pair's is sqrt(mu_ball)). Friction
    /// needs the balls' coefficients too (c2d_body_friction_soa::friction).
    const float *friction;
    /// Linear velocity per capsule; both NULL: at rest (one NULL and not the other is
    /// C2D_ERROR_NULL).
    const float *vx, *vy;
    /// Angular velocity (counter-clockwise) per capsule about (pivot_x, pivot_y). NULL: not
    /// turning (the pivots are then not read; they are needed otherwise).
    const float *angular_velocity;
    const float *pivot_x, *pivot_y;
    /// Number of capsules: every capsule index in the contact list must be below it.
    size_t count;
} c2d_capsule_bodies;

/// c2d_resolve_circle_contacts() with friction and spin: for each entry,
/// c2d_apply_impulse_friction() on the two balls with `friction[i]`, and, when
/// `spin->angular_velocity` is given, `angular_velocity[i]`, `inv_inertia[i]`, `radius[i]`
/// (else no rotation: angular velocity, inverse inertia and radius 0). `spin` NULL or
/// `spin->friction` NULL: exactly c2d_resolve_circle_contacts(), byte for byte.
///
/// `impulses` as in c2d_resolve_circle_contacts() (the normal impulses);
/// `tangent_impulses` (may be NULL) receives each contact's friction impulse jt (0 where
/// none). Errors: as c2d_resolve_circle_contacts(); with friction and contacts,
/// `spin->angular_velocity` given without `inv_inertia` or `radius` gives C2D_ERROR_NULL.
/// On every error nothing is written.
C2D_API c2d_status c2d_resolve_circle_contacts_ex(const c2d_body_soa *bodies,
                                                  const c2d_body_friction_soa *spin,
                                                  const c2d_circle_pair_contact *contacts,
                                                  size_t count, float *impulses,
                                                  float *tangent_impulses);

/// c2d_resolve_capsule_contacts() with moving capsules, friction and spin: for each entry,
/// c2d_apply_impulse_friction(ball, capsule, contact.normal), where the capsule is a body of
/// inverse mass 0 whose velocity is its velocity at the contact point (c2d_capsule_bodies),
/// with its restitution and friction, and no spin of its own (radius 0); the ball as in
/// c2d_resolve_circle_contacts_ex(). A moving capsule gives the ball its velocity: a ball at
/// rest hit by a paddle moving at u along the normal leaves at (1 + e) u.
///
/// `capsules` NULL: every capsule at rest with restitution and friction 1 (the capsule
/// indices are then not checked: nothing per capsule is read). With
/// `capsules` at rest and without friction (spin NULL or its friction NULL) the result equals
/// c2d_resolve_capsule_contacts(bodies, contacts, count, capsules->restitution,
/// capsules->count, impulses) byte for byte.
///
/// `impulses`, `tangent_impulses` as in c2d_resolve_circle_contacts_ex(). Errors: as
/// c2d_resolve_capsule_contacts(); a capsule index at or above `capsules->count` gives
/// C2D_ERROR_INDEX; with contacts, one of `vx`, `vy` without the other, `angular_velocity`
/// without both pivots, or a spin as in c2d_resolve_circle_contacts_ex(), gives
/// C2D_ERROR_NULL. On every error nothing is written.
C2D_API c2d_status c2d_resolve_capsule_contacts_ex(const c2d_body_soa *bodies,
                                                   const c2d_body_friction_soa *spin,
                                                   const c2d_pair_contact *contacts, size_t count,
                                                   const c2d_capsule_bodies *capsules,
                                                   float *impulses, float *tangent_impulses);

/// Pushes overlapping balls apart, in the list's order: each contact moves a by
/// `normal * (depth * (inv_a / (inv_a + inv_b)))` and b by
/// `-normal * (depth * (inv_b / (inv_a + inv_b)))` (split by inverse mass, so the pair's centre
/// of mass stays put; the fractions are in [0, 1], so tiny inverse masses such as FLT_MIN
/// cannot overflow them), using the depths in the list (computed before any push). Afterwards
/// the pair just touches, when it had no other contact. Skipped: both static, negative or
/// infinite inverse masses, a depth or normal that is NaN or infinite, a depth <= 0, and a
/// push that would move a coordinate beyond the floats: finite input never gives NaN or
/// infinite positions (as c2d_apply_impulse() never gives such velocities).
///
/// Errors: a NULL `bodies`, `contacts` (count > 0), `x`, `y` or `inv_mass` (count > 0) gives
/// C2D_ERROR_NULL; a bad index (see c2d_resolve_circle_contacts()) gives C2D_ERROR_INDEX.
/// On every error nothing is written.
C2D_API c2d_status c2d_push_out_circle_contacts(const c2d_body_soa *bodies,
                                                const c2d_circle_pair_contact *contacts,
                                                size_t count);

/// Pushes balls out of static capsules, in the list's order: each contact moves its ball by
/// `normal * depth` (the capsule has infinite mass). Skipped as in
/// c2d_push_out_circle_contacts() (a push beyond the floats included); a static ball
/// (inv_mass 0) is not moved.
///
/// Errors: as c2d_push_out_circle_contacts() (capsule indices are not checked: nothing reads
/// the capsules).
C2D_API c2d_status c2d_push_out_capsule_contacts(const c2d_body_soa *bodies,
                                                 const c2d_pair_contact *contacts, size_t count);

#ifdef __cplusplus
}
#endif

#endif
