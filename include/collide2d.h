/// @file collide2d.h
/// libcollide2d: 2D collision of circles against capsules, segments and other circles, for
/// games and simulations that test thousands of balls against static geometry every frame.
///
/// Usage:
/// @code
/// #include <collide2d.h>
///
/// c2d_circle ball = {{1.0f, 0.5f}, 0.25f};
/// c2d_capsule pin = c2d_capsule_from_axis((c2d_vec2){1, 0}, (c2d_vec2){1, 0}, 2.0f, 0.5f);
/// c2d_contact c;
/// if (c2d_collide_circle_capsule(ball, pin, &c)) {
///     ball.center.x += c.normal.x * c.depth;          // now touching, not overlapping
///     ball.center.y += c.normal.y * c.depth;
/// }
///
/// // A frame of many balls against static pins: structure-of-arrays, SIMD, same bytes.
/// c2d_circle_soa balls = {.x = xs, .y = ys, .radius = radii, .count = n_balls};
/// c2d_capsule_soa pins = {.ax = ax, .ay = ay, .bx = bx, .by = by, .radius = pin_radii,
///                         .count = n_pins};
/// c2d_capsule_pair_contact hits[1024];
/// size_t n;
/// c2d_status st = c2d_batch_collide(&balls, &pins, hits, 1024, &n);
/// // st == C2D_ERROR_TRUNCATED when more than 1024 contacts exist (n tells how many).
/// @endcode
///
/// The scalar functions (collide2d/query.h) define every answer; the batch calls
/// (collide2d/batch.h) return the same bytes on every backend (collide2d/backend.h).
/// Names follow one rule (docs/design.md, "Names"); the 0.1.0 names it replaced still work
/// (collide2d/compat.h, CHANGES.md).
#ifndef COLLIDE2D_H
#define COLLIDE2D_H

#include "collide2d/types.h"
#include "collide2d/query.h"
#include "collide2d/batch.h"
#include "collide2d/backend.h"
#include "collide2d/validate.h"
#include "collide2d/version.h"
#include "collide2d/scene.h"
#include "collide2d/balls.h"
#include "collide2d/frozen.h"
#include "collide2d/response.h"
#include "collide2d/search.h"
#include "collide2d/filter.h"
#include "collide2d/world.h"
#include "collide2d/compat.h"

#endif
