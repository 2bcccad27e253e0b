/// @file collide2d/response.h
/// Collision response over a contact list: sequential impulses and push-out against bodies
/// held as structure-of-arrays, in the list's order, deterministic.
///
/// Each impulse is exactly c2d_apply_impulse() (collide2d/query.h) on the two bodies: the
/// same function runs, so a list resolved here equals a loop of c2d_apply_impulse() byte for
/// byte. Contacts are applied one after the other, each seeing the velocities the ones before
/// it left, so the result depends on the list's order (which the batch and scene calls fix).
///
/// @code
/// c2d_body_soa balls = {x, y, vx, vy, inv_mass, restitution, n};
/// c2d_resolve_circle_contacts(&balls, ball_pairs, n_pairs, NULL);   // ball against ball
/// c2d_resolve_capsule_contacts(&balls, pin_hits, n_hits, pin_e, n_pins, NULL); // static pins
/// c2d_push_out_circle_contacts(&balls, ball_pairs, n_pairs);        // then separate them
/// c2d_push_out_capsule_contacts(&balls, pin_hits, n_hits);
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
