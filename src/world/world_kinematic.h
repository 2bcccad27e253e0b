/* Kinematic capsules for the world (src/world/): a rotation that turns without libm, the pose
 * of a capsule that moves and turns about a pivot, and the sweep of a ball against a capsule
 * whose two endpoints both move linearly over a substep (a turning flipper between two poses,
 * or move_capsule_to from the current shape to its target).
 *
 * Every name starts with c2d_ although none is public: the build's exports check reads every
 * global symbol of the static archive (and of the wasm build), hidden or not, and allows c2d_*
 * only. Plain C11 float arithmetic, no fused operations (-ffp-contract=off), only sqrt from
 * libm: the same bytes on every platform. */
#ifndef C2D_WORLD_KINEMATIC_H
#define C2D_WORLD_KINEMATIC_H

#include <stdbool.h>

#include "collide2d/types.h"
#include "scalar/reference.h" /* C2D_INTERNAL */

/* A rotation: (cos, sin) of its angle, unit length. */
typedef struct c2d_world_rot {
    float c, s;
} c2d_world_rot;

/* The rotation by 0: (1, 0). */
C2D_INTERNAL c2d_world_rot c2d_world_rot_identity(void);

/* The rotation that turns (1, 0) to `dir`: dir normalised, identity when dir is zero or not
 * finite. */
C2D_INTERNAL c2d_world_rot c2d_world_rot_from(c2d_vec2 dir);

/* `q` turned on by the small angle `angle` (radians, counter-clockwise), Box2D v3's
 * integrate-rotation: (c - angle s, s + angle c) normalised by sqrtf of its length squared
 * (identity if that length is 0 or not finite); an angle of 0 gives q back unchanged. The step
 * turns by atan(angle), not angle: the angle error of one call is angle - atan(angle) ~ angle^3 /
 * 3, relative error angle^2 / 3. At 30 rad/s and substeps of 1/480 s (angle 0.0625) that is 8.1e-5
 * rad a substep (0.13% slow): a flipper turning for 0.1 s (48 substeps, 3 rad) falls 0.0039 rad
 * behind. The world sweeps against the poses this gives, so the lag is never a tunnel. */
C2D_INTERNAL c2d_world_rot c2d_world_rot_integrate(c2d_world_rot q, float angle);

/* `v` turned by `q`: (c x - s y, s x + c y). */
C2D_INTERNAL c2d_vec2 c2d_world_rot_apply(c2d_world_rot q, c2d_vec2 v);

/* A kinematic capsule: its endpoints are pivot + q (local_a, local_b). */
typedef struct c2d_world_kin {
    c2d_vec2 pivot, velocity;  /* the pivot moves by velocity h a substep */
    float angular_velocity;    /* rad/s, counter-clockwise, about the pivot */
    c2d_world_rot q;           /* turned since init */
    c2d_vec2 local_a, local_b; /* the endpoints less the pivot at init */
    float radius;
} c2d_world_kin;

/* `shape` turning about `pivot`: q = identity, local endpoints = shape's endpoints - pivot
 * (float). The pose then gives `shape` back exactly when those differences are exact (each
 * pivot coordinate equal to the endpoint's or within a factor 2 of it, say); otherwise
 * within an ulp of the coordinates. */
C2D_INTERNAL void c2d_world_kin_init(c2d_world_kin *k, c2d_capsule shape, c2d_vec2 pivot,
                                     c2d_vec2 velocity, float angular_velocity);

/* Where point p, attached to capsule `from`, lies once `from` is moved rigidly onto `to` (a
 * move_capsule_to target): turned about from.a by the rotation between the two axes (none when
 * either axis has no length), from.a going to to.a. p == from.a gives to.a exactly, so a
 * flipper's hinge at its end stays where it is while the flipper turns about it. */
C2D_INTERNAL c2d_vec2 c2d_world_carry_point(c2d_capsule from, c2d_capsule to, c2d_vec2 p);

/* One substep of h seconds: pivot += velocity h; q = c2d_world_rot_integrate(q, w h). */
C2D_INTERNAL void c2d_world_kin_advance(c2d_world_kin *k, float h);

/* The capsule at the current pose: pivot + c2d_world_rot_apply(q, local endpoint). */
C2D_INTERNAL c2d_capsule c2d_world_kin_shape(const c2d_world_kin *k);

/* The sweep's switch to its exact solve and its step cap (see below). */
enum { C2D_WORLD_SWEEP_EXACT_AFTER = 16, C2D_WORLD_SWEEP_MAX_ITERATIONS = 64 };

/* First touch of circle `c` moving by `move` and the capsule whose axis endpoints move
 * linearly from k0's to k1's over t in [0, 1]: centre p(t) = c.center + t move, axis
 * a(t) = k0.a + t (k1.a - k0.a), b(t) likewise, radius k0.radius (k1.radius is ignored).
 * Touching means a gap d - (r + R) <= tol, d the distance from the centre to the axis, with
 * tol = 1e-3 (r + R) + M 2^-21, M the largest coordinate magnitude over the substep (start
 * and end of the centre and of both endpoints): 4 to 8 float ulps of it, so that the world's
 * float positions at 2^14 keep room, and far above the double rounding below.
 *
 * Conservative advancement, in double, in the frame of the ball (the endpoints relative to
 * the centre, A(t) and B(t), move linearly too, with velocities va and vb). At time t, with n
 * the unit vector toward the closest axis point, the axis lies beyond d along n (a segment is
 * convex): A.n >= d and B.n >= d. s later an axis point's offset along n is the lerp of the
 * ends' (A + s va).n and (B + s vb).n, so the distance is at least the smaller of those two.
 * Each step goes to where that bound first reaches r + R + tol / 2, so no step passes the
 * true touch; neither end approaching along n within the substep is no hit at all. The step
 * is never shorter than the Lipschitz step gap / max(|va|, |vb|) and far longer on grazing
 * paths (a path parallel to a wall ends in one step). It stops at a gap <= tol (a hit) or
 * past t = 1 (none).
 *
 * Progress is slow when the closest point is near one end while the other end sweeps toward
 * the ball (a ball near a turning flipper's hinge: the tip's speed bounds each step). After
 * C2D_WORLD_SWEEP_EXACT_AFTER steps the rest is solved exactly for the capsule inflated to
 * r + R + tol / 2: each end disc by its quadratic, the side by the sign changes of
 * cross(A, B)^2 - rho^2 |B - A|^2 (a quartic in t, isolated through its derivatives, each
 * evaluated from the positions at t, never from expanded coefficients) where the centre's foot
 * lies within the axis; times are the lower ends of double brackets. Its rounding is far below
 * tol / 2 when the relative coordinates and moves are within 2^18 tol (262 (r + R) near the
 * origin, more far from it); beyond that the advancement goes on to C2D_WORLD_SWEEP_MAX_ITERATIONS
 * steps and then reports a hit at its last t (early, never late).
 *
 * Measured (gcc -O2, one core of this machine): a flipper 1 long at 30 rad/s, substeps of
 * 1/480 s, balls within 1.3 of it at up to 30 units/s: 64 ns and 0.1 steps a sweep; balls at
 * rest 0 to 0.05 above it (the hinge case): 217 ns, 4.6 steps; the exact solve alone costs
 * about 400 ns.
 *
 * In contact at the start (gap <= tol): a hit at t = 0 only when the distance is decreasing,
 * (move - the closest axis point's move) . normal < 0, including the capsule moving into the
 * ball; otherwise no hit. A ball that starts in contact and is separating (or sliding) gets no
 * hit from this capsule in this substep even if it would come back later in it. A centre on
 * the axis takes the normal c2d_collide_circle_capsule() takes (the axis's left
 * perpendicular, (0, 1) for a point).
 *
 * The reported t is the double time rounded down to float: never later than the true first
 * touch, at most about tol / (approach speed) earlier (the gap at t is at most tol). `normal`
 * is unit, from the capsule toward the ball at time t; `point` is on the capsule's surface at
 * time t, closest to the centre. NaN or infinity anywhere, or a negative radius: no hit.
 * Writes *out only on a hit. */
C2D_INTERNAL bool c2d_world_sweep_circle_morphing_capsule(c2d_circle c, c2d_vec2 move,
                                                          c2d_capsule k0, c2d_capsule k1,
                                                          c2d_toi *out);

/* The same, also writing the number of steps taken to *iterations (may be NULL; 0 for an
 * answer at the start) and with the exact solve after `exact_after` steps instead of
 * C2D_WORLD_SWEEP_EXACT_AFTER (0: always; beyond the cap: never), for tests and
 * measurements. */
C2D_INTERNAL bool c2d_world_sweep_morphing_counted(c2d_circle c, c2d_vec2 move, c2d_capsule k0,
                                                   c2d_capsule k1, c2d_toi *out, int *iterations,
                                                   int exact_after);

#endif
