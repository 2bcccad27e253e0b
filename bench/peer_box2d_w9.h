/* The Box2D 2.4.1 peer of W9 (bench/peer_box2d_w9.cc): a W9 layout (bench/w9_layout.h) as a
 * b2World stepped as DESIGN.md section 15 says: gravity (0, -10), b2World::Step(1/60, 8, 3).
 * Built only when meson finds box2d (bench/meson.build). */
#ifndef C2D_BENCH_PEER_BOX2D_W9_H
#define C2D_BENCH_PEER_BOX2D_W9_H

#include <stdbool.h>
#include <stddef.h>

#include "w9_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct peer_box2d_w9 peer_box2d_w9;

/* One dynamic body holding a b2CircleShape per ball (the layout's density, friction and
 * restitution), one static body per capsule (see peer_box2d_w9.cc for the shapes); sleep and
 * continuous physics as `allow_sleep` and `ccd` say (Box2D's defaults: both on), its other
 * settings its defaults. A pair's
 * restitution is sqrt(a * b) (section 14's rule; Box2D's own is max(a, b)), its friction
 * Box2D's sqrt(a * b). NULL when out of memory. */
peer_box2d_w9 *peer_box2d_w9_create(const w9_layout *l, bool allow_sleep, bool ccd);

/* One more ball, as the layout's are made, at (x, y) of `radius`; -1 when out of memory. */
int peer_box2d_w9_add_ball(peer_box2d_w9 *p, const w9_layout *l, float x, float y, float radius);

/* One b2World::Step(W9_DT, 8, 3). */
void peer_box2d_w9_step(peer_box2d_w9 *p);

/* Balls awake now. */
size_t peer_box2d_w9_awake(const peer_box2d_w9 *p);

/* The balls' state in layout order: centres, velocities, angular velocities (rad/s). */
void peer_box2d_w9_read(const peer_box2d_w9 *p, float *x, float *y, float *vx, float *vy, float *w);

void peer_box2d_w9_destroy(peer_box2d_w9 *p);

#ifdef __cplusplus
}
#endif

#endif
