/// @file collide2d/response.h
/// Collision response over a contact list: sequential impulses (with optional friction, spin
/// and moving capsules) and push-out against bodies held as structure-of-arrays, in the list's
/// order, deterministic.
///
/// Each impulse is exactly c2d_apply_impulse() (collide2d/query.h) on the two bodies (with
/// friction, c2d_apply_impulse_friction()): the lists run the same formula, inline, in the
/// same operation order, so a list resolved here equals a loop of that function byte for byte.
/// Contacts are applied one after the other, each seeing the velocities the ones before it left, so
/// the result depends on the list's order (which the batch and scene calls fix).
///
/// @code
/// c2d_body_soa balls = {.x = x, .y = y, .vx = vx, .vy = vy, .inv_mass = inv_mass,
///                       .restitution = restitution, .count = n};
/// c2d_solve_circle_contacts(&balls, ball_pairs, n_pairs, NULL);  // ball against ball
/// c2d_capsule_body_soa pins = {.restitution = pin_e, .count = n_pins};
/// c2d_solve_def opt = {.capsules = &pins};
/// c2d_solve_capsule_contacts(&balls, pin_hits, n_hits, &opt);    // static pins
/// c2d_push_out_circle_contacts(&balls, ball_pairs, n_pairs);     // then separate them
/// c2d_push_out_capsule_contacts(&balls, pin_hits, n_hits);
///
/// // with friction and spin, against paddles moving at (pvx, pvy):
/// c2d_body_friction_soa spin = {.friction = mu, .angular_velocity = omega,
///                               .inv_inertia = inv_inertia, .radius = radius};
/// c2d_capsule_body_soa paddles = {.restitution = pin_e, .friction = pin_mu, .vx = pvx,
///                                 .vy = pvy, .count = n_pins};
/// c2d_solve_def with = {.friction = &spin, .capsules = &paddles};
/// c2d_solve_capsule_contacts(&balls, pin_hits, n_hits, &with);
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

/// Optional friction and spin of the bodies of a c2d_body_soa, for the solve calls
/// (c2d_solve_def::friction; element i belongs to body i). A separate struct, so c2d_body_soa
/// keeps its layout and every existing call its meaning.
typedef struct c2d_body_friction_soa {
    /// Coulomb coefficient per body (c2d_body_friction::friction). NULL: no friction at all,
    /// the same bytes as without this struct.
    const float *friction;
    /// Angular velocity per body, counter-clockwise, updated by friction. NULL: the bodies do
    /// not rotate (friction only slows their sliding); `inv_inertia` and `radius` are then
    /// not read.
    float *angular_velocity;
    /// 1 / moment of inertia per body (a solid disc: 2 inv_mass / r^2); needed with
    /// `angular_velocity`. 0: that body's angular velocity never changes, but it still moves
    /// the contact point like a conveyor belt; a body that must not turn has angular velocity
    /// 0 (c2d_apply_impulse_friction()).
    const float *inv_inertia;
    /// Radius per body (the lever arm of the contact point); needed with `angular_velocity`.
    const float *radius;
} c2d_body_friction_soa;

/// The capsules of a contact list seen as bodies of infinite mass, for
/// c2d_solve_capsule_contacts() (c2d_solve_def::capsules). Every array is optional (element k
/// belongs to capsule k). Its 0.1.0 name c2d_capsule_bodies (collide2d/compat.h) names the
/// same type.
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
} c2d_capsule_body_soa;

/// The options of the solve calls. Every field is optional: a def initialised to zero, the
/// one c2d_solve_default_def() returns, and a NULL def all mean "no friction, capsules at rest
/// with restitution and friction 1, no impulses reported".
typedef struct c2d_solve_def {
    /// Friction and spin of the bodies. NULL (or its `friction` NULL): no friction, and the
    /// impulses are exactly c2d_apply_impulse()'s.
    const c2d_body_friction_soa *friction;
    /// c2d_solve_capsule_contacts() only: the capsules as bodies (restitution, friction,
    /// motion, count). NULL: every capsule at rest with restitution and friction 1, and the
    /// capsule indices are not checked (nothing per capsule is read).
    const c2d_capsule_body_soa *capsules;
    /// Receives `count` values, entry k the normal impulse of contact k (0 where nothing
    /// changed). NULL: not written.
    float *impulses;
    /// Receives `count` values, entry k the friction impulse jt of contact k (0 where none).
    /// NULL: not written.
    float *tangent_impulses;
} c2d_solve_def;

/// The defaults of c2d_solve_def: every field NULL.
C2D_API c2d_solve_def c2d_solve_default_def(void);

/// Resolves ball-against-ball contacts with sequential impulses in the list's order. Without
/// friction: for each entry, c2d_apply_impulse(body a, body b, contact.normal) (the normal
/// points toward a), with restitution sqrt(ea * eb) and the two inverse masses. With
/// `def->friction` (and its `friction` array): c2d_apply_impulse_friction() on the two balls
/// with `friction[i]`, and, when `angular_velocity` is given, `angular_velocity[i]`,
/// `inv_inertia[i]`, `radius[i]` (else no rotation: angular velocity, inverse inertia and
/// radius 0). Contacts that c2d_apply_impulse() ignores (separating, NaN normals or
/// velocities, both static, invalid inverse masses) change nothing. `def` may be NULL (the
/// defaults); its `capsules` is not read.
///
/// Errors: a NULL `bodies`, `contacts` (count > 0), `vx`, `vy`, `inv_mass` or `restitution`
/// (count > 0) gives C2D_ERROR_NULL, as does (with friction and contacts) `angular_velocity`
/// given without `inv_inertia` or `radius`; an index at or above `bodies->count`, or a pair
/// with a == b, gives C2D_ERROR_INDEX. On every error nothing is written.
C2D_API c2d_status c2d_solve_circle_contacts(const c2d_body_soa *bodies,
                                             const c2d_circle_pair_contact *contacts, size_t count,
                                             const c2d_solve_def *def);

/// Resolves ball-against-capsule contacts (the batch and scene collide calls' lists) with
/// sequential impulses in the list's order: for each entry, c2d_apply_impulse(ball, capsule,
/// contact.normal) (with friction, c2d_apply_impulse_friction(), the ball as in
/// c2d_solve_circle_contacts()), where the capsule is a body of inverse mass 0 whose velocity
/// is its velocity at the contact point (c2d_capsule_body_soa), with its restitution and
/// friction, and no spin of its own (radius 0). A moving capsule gives the ball its velocity:
/// a ball at rest hit by a paddle moving at u along the normal leaves at (1 + e) u. `def` may
/// be NULL (the defaults).
///
/// Errors: as c2d_solve_circle_contacts(); a capsule index at or above
/// `def->capsules->count` gives C2D_ERROR_INDEX; with contacts, one of the capsules' `vx`,
/// `vy` without the other, or `angular_velocity` without both pivots, gives C2D_ERROR_NULL.
/// On every error nothing is written.
C2D_API c2d_status c2d_solve_capsule_contacts(const c2d_body_soa *bodies,
                                              const c2d_capsule_pair_contact *contacts,
                                              size_t count, const c2d_solve_def *def);

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
/// C2D_ERROR_NULL; a bad index (see c2d_solve_circle_contacts()) gives C2D_ERROR_INDEX.
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
                                                 const c2d_capsule_pair_contact *contacts,
                                                 size_t count);

#ifdef __cplusplus
}
#endif

#define COLLIDE2D_RESPONSE_DECLARED /* complete: compat.h may declare its old names */
#include "compat.h"

#endif
