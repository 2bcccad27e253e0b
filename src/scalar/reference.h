/* Internal entry points of the scalar reference layer, shared with the batch layer.
 *
 * The public functions (collide2d/query.h) take structs; these take the loose floats that the
 * batch layer holds in its structure-of-arrays inputs. Both go through the same code, so a
 * contact found by a SIMD kernel is built by exactly the function the scalar layer uses. */
#ifndef C2D_SCALAR_REFERENCE_H
#define C2D_SCALAR_REFERENCE_H

#include "collide2d/query.h"

#if defined(__GNUC__) || defined(__clang__)
#define C2D_INTERNAL __attribute__((visibility("hidden")))
#else
#define C2D_INTERNAL
#endif

/* The contact of circle (px, py, r) and capsule (ax, ay)-(bx, by) of radius R:
 * c2d_collide_circle_capsule() on loose floats. Writes *out only on a hit. */
C2D_INTERNAL bool c2d_capsule_contact(float px, float py, float r, float ax, float ay, float bx,
                                      float by, float R, c2d_contact *out);

/* The first touch of circle (px, py, r) moving by (mx, my) and the static capsule:
 * c2d_sweep_circle_capsule() on loose floats. Writes *out only on a hit. */
C2D_INTERNAL bool c2d_capsule_sweep(float px, float py, float r, float mx, float my, float ax,
                                    float ay, float bx, float by, float R, c2d_toi *out);

/* c2d_sweep_circle_moving_capsule() on loose floats: the static sweep with the relative move
 * (mx - cmx, my - cmy), the point moved to time t. Writes *out only on a hit. */
C2D_INTERNAL bool c2d_moving_capsule_sweep(float px, float py, float r, float mx, float my,
                                           float ax, float ay, float bx, float by, float R,
                                           float cmx, float cmy, c2d_toi *out);

/* The direction (x, y) scaled to unit length, or `fallback` where it has none (zero, NaN or
 * infinite). Dividing by the larger magnitude first keeps the squares from overflowing or
 * underflowing, so every finite nonzero vector gets a unit normal. */
C2D_INTERNAL c2d_vec2 c2d_unit_or(float x, float y, c2d_vec2 fallback);

/* The left perpendicular of the axis a->b, unit length; (0, 1) for a zero-length axis. */
C2D_INTERNAL c2d_vec2 c2d_axis_normal(float ax, float ay, float bx, float by);

#endif
