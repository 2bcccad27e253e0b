/// @file collide2d/query.h
/// The scalar reference layer: one function per query. These functions define every answer
/// of the library; the batch layer returns the same bytes.
///
/// Conventions shared by every function here:
/// - Touching counts: a distance exactly equal to the radius sum is an overlap.
/// - Sweeps answer "when does this move first make things worse". A circle that starts in
///   contact (touching or overlapping, as c2d_overlap_circles() / c2d_overlap_circle_capsule()
///   decide it, or touching at a computed time of 0) is a hit at t = 0 only when its move goes
///   deeper: `move . n < 0`, its sign taken exactly, with `n` the contact's normal (the
///   direction of c2d_collide_*()'s normal, from the closest axis point to the centre, computed
///   in double and rounded to float, so it stays exact for shapes small against their
///   coordinates; the same degenerate fallbacks). That `n` is the hit's normal.
///   Moving outward, tangentially or not at all it gets no hit from that shape: both shapes
///   are convex and the path straight, so it can never come back. A ball pushed out to
///   touching therefore leaves freely, and one pushing into a wall gets t = 0 and the normal
///   to slide along (README: "The frame loop").
/// - Tiny values: the overlap tests compare float squares, which underflow below about 2^-75
///   (2.6e-23): shapes whose gap and radius sum are both below that count as touching (a
///   circle 2^-75.5 from a point capsule, both of radius 2^-100, overlaps with depth 2^-99).
///   The contact queries and the sweeps' start test decide by the same test, so they agree.
///   Above about 2^-60 every query resolves gaps to float precision.
/// - Normals are unit vectors pointing from the second shape toward the first (the circle).
/// - Where the circle's centre lies exactly on the second shape's axis (distance 0), the normal
///   is the axis' left perpendicular `(-(b-a).y, (b-a).x) / |b-a|`; where the axis also has
///   zero length, or two circles share a centre, it is `(0, 1)`.
/// - `out` is written only when the function returns true.
///
/// Bad input (the contract, identical on every backend; across architectures too, except the
/// sign and payload bits of a NaN output, which x86 and AArch64 make differently: compare NaN
/// outputs as "both NaN"):
/// - Nothing crashes and nothing is read or written but the arguments and `*out`.
/// - A NaN coordinate, radius or move gives no hit (false), in every query.
/// - A negative radius gives no hit (false): a shape with a negative radius is empty.
///   (-0 is a radius of 0.)
/// - A zero-length segment or capsule behaves as a point or a circle at `a`.
/// - Infinite or huge values (beyond about 1e19, where squares overflow) give a defined,
///   repeatable answer but not a meaningful one; the normal of a reported contact is never
///   NaN and its depth is never negative or NaN. Use c2d_validate_circles() and
///   c2d_validate_capsules() to reject such input once per frame.
#ifndef COLLIDE2D_QUERY_H
#define COLLIDE2D_QUERY_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The point of segment `s` closest to `p`: `a + t(b-a)` with
/// `t = clamp(dot(p-a, b-a) / dot(b-a, b-a), 0, 1)`. A zero-length segment gives `a`
/// (the clamp sends the NaN quotient 0/0 to 0). A NaN `p` gives an endpoint.
C2D_API c2d_vec2 c2d_closest_point_on_segment(c2d_vec2 p, c2d_segment s);

/// True when the circles overlap or touch: `|ca-cb|^2 <= (ra+rb)^2`.
C2D_API bool c2d_overlap_circles(c2d_circle a, c2d_circle b);

/// True when the circle overlaps or touches the segment: `|c - closest|^2 <= r^2`.
C2D_API bool c2d_overlap_circle_segment(c2d_circle c, c2d_segment s);

/// True when the circle overlaps or touches the capsule: `|c - closest(axis)|^2 <= (r+R)^2`,
/// the segment test on a circle inflated by the capsule's radius.
C2D_API bool c2d_overlap_circle_capsule(c2d_circle c, c2d_capsule k);

/// True when `p` lies inside or on the capsule: `|p - closest(axis)|^2 <= R^2`.
C2D_API bool c2d_point_in_capsule(c2d_vec2 p, c2d_capsule k);

/// The capsule whose axis is centred on `center`, along `unit_axis`, `length` long:
/// endpoints `center - unit_axis*length/2` and `center + unit_axis*length/2`.
/// `unit_axis` is used as given (not normalised).
C2D_API c2d_capsule c2d_capsule_from_axis(c2d_vec2 center, c2d_vec2 unit_axis, float length,
                                          float radius);

/// Contact of two circles. On overlap (touching counts) writes `*out`: normal from b's centre
/// toward a's, depth `ra+rb-|ca-cb|`, point on b's surface. Returns whether they overlap.
C2D_API bool c2d_collide_circles(c2d_circle a, c2d_circle b, c2d_contact *out);

/// Contact of a circle and a segment: the capsule contact with radius 0, so `point` is the
/// segment's point closest to the centre.
C2D_API bool c2d_collide_circle_segment(c2d_circle c, c2d_segment s, c2d_contact *out);

/// Contact of a circle and a capsule. On overlap writes `*out`: normal from the capsule's axis
/// toward the circle's centre, depth `r+R-dist`, point on the capsule's surface
/// (closest axis point + normal*R). Returns whether they overlap.
C2D_API bool c2d_collide_circle_capsule(c2d_circle c, c2d_capsule k, c2d_contact *out);

/// First touch of circle `a` moving by `move_a` and circle `b` moving by `move_b`, both
/// linearly over t in [0, 1]. In double, with `s = ca-cb`, `v = move_a-move_b`,
/// `c = s.s - (ra+rb)^2`, `b = v.s`: in contact at the start when c2d_overlap_circles() says
/// so or `c <= 0` (or the time below rounds to 0): then a hit at t = 0, with the normal
/// `s / |s|` computed in double (c2d_collide_circles()' direction; (0, 1) for shared centres)
/// and the point on b's surface along it, only when `v . n < 0` (moving deeper), else no hit;
/// otherwise no hit when moving apart or
/// tangentially (`b >= 0`) or when the path's line misses, `|v x s| > (ra+rb)|v|`; otherwise
/// `t = c / (-b + sqrt(b^2 - (v.v)c))`, a hit when `t <= 1`. The discriminant is evaluated as
/// `((ra+rb)|v|)^2 - (v x s)^2` (at least 0), equal in exact arithmetic and free of the
/// cancellation that the textbook form suffers for long moves and small radii. On a hit writes
/// `*out`: normal from b toward a at time t, point on b's surface at time t.
C2D_API bool c2d_sweep_circles(c2d_circle a, c2d_vec2 move_a, c2d_circle b, c2d_vec2 move_b,
                               c2d_toi *out);

/// First touch of circle `c` moving by `move` and the static capsule `k` (no tunnelling).
/// In contact at the start (c2d_overlap_circle_capsule(), or a feature time of 0 below): a
/// hit at t = 0 only when `move . n < 0` (moving deeper), else no hit; `n` is the direction
/// of c2d_collide_circle_capsule()'s normal computed in double, the point the closest axis
/// point plus `n R`; otherwise the earliest touch of the two end circles
/// (radius R, as c2d_sweep_circles()) and of the side facing the circle (the axis offset by r+R)
/// within the axis span, all computed in double in one frame. The side decides "within the span"
/// from the same quantities the end circles' tests use, so a path that enters the capsule is never
/// missed by both: no path gets more than a few double roundings of its coordinates deep before the
/// reported t (docs/sweeps.md has the argument and the bound). Ties between features go to the
/// side, then the end circle at a, then at b; t is the double time rounded to float.
C2D_API bool c2d_sweep_circle_capsule(c2d_circle c, c2d_vec2 move, c2d_capsule k, c2d_toi *out);

/// First touch of circle `c` moving by `move` and capsule `k` moving by `capsule_move` (a
/// paddle, a platform: both linearly over t in [0, 1], the capsule translating without
/// turning; a turning flipper is swept by substeps, README: "The frame loop").
///
/// Exactly c2d_sweep_circle_capsule(c, rel, k, out) with the relative move
/// `rel = (move.x - capsule_move.x, move.y - capsule_move.y)` rounded to float, that is in
/// the frame of the capsule at its start, with one change: the reported `point` is in world
/// space at time t, `point + t * capsule_move` (float, no fused operations), on the capsule
/// where it is at time t. `t` and `normal` are the static answer's (a translation turns no
/// normal). So the start rule is the static one on the relative move: touching at the start
/// and the capsule moving into the ball is a hit at t = 0. A zero `capsule_move` gives
/// c2d_sweep_circle_capsule()'s answer (a point coordinate of -0 may come back as +0).
/// NaN in `capsule_move` gives no hit; `rel` overflowing to infinity (moves beyond about
/// 1.7e38 of opposite signs) is handled as an infinite move is.
C2D_API bool c2d_sweep_circle_moving_capsule(c2d_circle c, c2d_vec2 move, c2d_capsule k,
                                             c2d_vec2 capsule_move, c2d_toi *out);

/// The move with its part into `normal` removed: the slide of a collide-and-slide loop after a
/// sweep stopped a circle at t = 0 (README: "The frame loop": advance with c2d_scene_advance(),
/// then slide: the advance keeps the rounding of the position from taking the ball deeper,
/// which no move can). When `move . normal >= 0` (or
/// anything is NaN) `move` is returned as it is; otherwise `move - (move . normal) normal`,
/// rounded to float and, where that rounding leaves a hair of the inward part, pushed out
/// along `normal` by the few ulps that remove it, so that the result's `. normal` is `>= 0`
/// exactly, the test the sweeps make: a sweep from the same start along the result gets no
/// hit at t = 0 from the shape of that normal. `normal` should be unit (a sweep's or
/// contact's); the result is about as long as the move's tangential part.
C2D_API c2d_vec2 c2d_slide_move(c2d_vec2 move, c2d_vec2 normal);

/// Resolves a collision with an impulse along `normal` (unit, from b toward a).
/// `vn = dot(va - vb, normal)`; when separating (`vn >= 0`), when both bodies are static
/// (`inv_mass` sum 0) or when any input is NaN, nothing changes and 0 is returned. Otherwise
/// `e = sqrt(ea*eb)`, `j = -(1+e)*vn / (inv_a+inv_b)`, `va += j*inv_a*n`, `vb -= j*inv_b*n`,
/// and `j` is returned. NULL bodies, a negative or infinite `inv_mass`, restitutions whose
/// product is negative (e would be NaN), and an impulse too large for a float (from huge
/// velocities) or new velocities too large for a float also change nothing and return 0:
/// velocities never become NaN or infinite. Restitution is otherwise used as given (above 1
/// adds energy).
C2D_API float c2d_apply_impulse(c2d_body *a, c2d_body *b, c2d_vec2 normal);

/// c2d_apply_impulse() followed by a Coulomb friction impulse at the same contact.
///
/// The normal impulse `jn` is exactly c2d_apply_impulse(a, b, normal) (same bytes; spin
/// never changes it: a circle's contact normal passes through its centre). Then, only when
/// `jn > 0` and both `fa` and `fb` are given: the pair's coefficient is
/// `mu = sqrt(fa->friction * fb->friction)`; with the tangent `t = (-normal.y, normal.x)`
/// the relative tangential velocity of the contact points after the normal impulse is
/// `vt = (va - vb) . t - wa ra - wb rb` (w the angular velocities, r the `radius` fields:
/// a's contact point lies at `-normal ra` from its centre, b's at `+normal rb`), the
/// tangential mass `k = ((inv_a + inv_b) + ia ra^2) + ib rb^2` (i the inverse inertias),
/// and the tangential impulse `jt = -vt / k` clamped to `[-mu jn, mu jn]`. Then
/// `va += jt inv_a t`, `vb -= jt inv_b t`, `wa -= jt ia ra`, `wb -= jt ib rb`: unclamped, the
/// contact points stop sliding; clamped, friction only slows the sliding (Coulomb's law).
/// Using the fixed tangent t, with jt signed, is the same as taking the tangent along the
/// relative sliding velocity, without normalising it: a zero tangential velocity gives
/// jt = 0 and no NaN.
///
/// Returns `jn`; `*tangent_impulse` (may be NULL) receives jt (the impulse on a is
/// `jn normal + jt t`), 0 when no friction was applied. Nothing of the friction step is
/// written (the normal impulse stays applied) when: `fa` or `fb` is NULL, `jn` is 0, a
/// coefficient is negative or NaN or `mu` is 0 or not finite, an inverse inertia or radius
/// is negative or not finite, an angular velocity is not finite, jt is 0 or NaN, or a new
/// velocity or angular velocity would not be finite. So finite input never gives NaN or
/// infinite results, and with `mu = 0` the result equals c2d_apply_impulse()'s byte for byte.
/// `inv_inertia = 0` means the spin cannot change, not that it is zero: a body's stored
/// `angular_velocity` still moves its contact point (the `- w r` terms of vt), like a conveyor
/// belt, and friction drives the body toward `v = -w r` (a ball landing with w = 2, r = 0.5 and
/// its spin locked leaves sideways at 1). Pass `angular_velocity = 0` (or `radius = 0`) for a
/// body that must not turn: friction then only decelerates its sliding.
C2D_API float c2d_apply_impulse_friction(c2d_body *a, c2d_body_friction *fa, c2d_body *b,
                                         c2d_body_friction *fb, c2d_vec2 normal,
                                         float *tangent_impulse);

#ifdef __cplusplus
}
#endif

#endif
