/// @file collide2d/types.h
/// Value types shared by every part of libcollide2d, and the export macro.
#ifndef COLLIDE2D_TYPES_H
#define COLLIDE2D_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(COLLIDE2D_BUILDING_SHARED)
#define C2D_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define C2D_API __attribute__((visibility("default")))
#else
#define C2D_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// A point or a direction in the plane.
typedef struct c2d_vec2 {
    float x, y;
} c2d_vec2;

/// A solid disc: every point within `radius` of `center`.
typedef struct c2d_circle {
    c2d_vec2 center;
    float radius;
} c2d_circle;

/// The closed line segment from `a` to `b` (a capsule of radius 0).
typedef struct c2d_segment {
    c2d_vec2 a, b;
} c2d_segment;

/// A capsule (stadium): every point within `radius` of the segment `a`–`b`, its axis.
typedef struct c2d_capsule {
    c2d_vec2 a, b;
    float radius;
} c2d_capsule;

/// A contact between a circle (the first shape) and a second shape.
typedef struct c2d_contact {
    /// Unit vector pointing from the second shape TOWARD THE FIRST (the circle).
    c2d_vec2 normal;
    /// Overlap, >= 0: moving the circle by `normal * depth` leaves the shapes touching (up to
    /// rounding), and since touching counts, the next test still reports a contact of depth
    /// about 0. Add a small slop to the move to part them.
    float depth;
    /// The point of the second shape's surface closest to the circle's centre.
    c2d_vec2 point;
} c2d_contact;

/// The first touch of a moving circle against another shape.
typedef struct c2d_toi {
    /// Fraction of the motion, in [0, 1], at first touch; 0 when in contact at the start and
    /// moving deeper (query.h).
    float t;
    /// Unit vector at time `t`, from the second shape toward the first (moving) circle.
    c2d_vec2 normal;
    /// At time `t`, the point of the second shape's surface closest to the circle's centre.
    c2d_vec2 point;
} c2d_toi;

/// The part of a rigid body that an impulse changes and depends on.
typedef struct c2d_body {
    c2d_vec2 velocity;
    /// 1 / mass; 0 makes the body static (infinite mass).
    float inv_mass;
    /// Coefficient of restitution in [0, 1]; a pair combines theirs as sqrt(ea * eb).
    float restitution;
} c2d_body;

/// Friction and spin of one body at one contact, for c2d_apply_impulse_friction().
///
/// Why a separate struct and not a field at the end of c2d_body whose 0 means "none": existing
/// source would keep its meaning, but c2d_body's size would change, so a program built against
/// the older header (arrays of c2d_body, bodies passed by pointer to a newer shared library)
/// would no longer match the library it runs with. As it is, c2d_body and c2d_apply_impulse()
/// stay exactly as they were, and friction is asked for explicitly, by calling
/// c2d_apply_impulse_friction() with these.
typedef struct c2d_body_friction {
    /// Coulomb coefficient, >= 0; a pair combines theirs as sqrt(mu_a * mu_b) (as Box2D
    /// does), so 0 on either side means no friction.
    float friction;
    /// Counter-clockwise angular velocity (radians per unit of time); updated by friction.
    float angular_velocity;
    /// 1 / moment of inertia about the centre (a solid disc of mass m and radius r:
    /// 2 / (m r^2)); 0: the angular velocity never changes. It is not taken as 0: a nonzero
    /// stored angular velocity still moves the contact point and drives the body like a
    /// conveyor belt (c2d_apply_impulse_friction()); a body that must not turn passes 0.
    float inv_inertia;
    /// Distance from the body's centre to the contact point, along the normal: a ball's
    /// radius. 0 for a body that does not rotate (a capsule, a wall).
    float radius;
} c2d_body_friction;

#ifdef __cplusplus
}
#endif

#endif
