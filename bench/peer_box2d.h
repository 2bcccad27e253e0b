/* The benchmark's Box2D 2.4.1 peer (Debian's libbox2d-dev) for W5 and W6, bench/peer_box2d.cc:
 * a b2World with the same balls and pins. Box2D is C++; this is its C face for bench/box2d.c.
 * Built only when meson finds box2d (bench/meson.build). */
#ifndef C2D_BENCH_PEER_BOX2D_H
#define C2D_BENCH_PEER_BOX2D_H

#include <stddef.h>

#include "collide2d.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct peer_box2d peer_box2d;

/* A world without gravity or sleep: one static body per pin holding a two-sided b2EdgeShape
 * whose m_radius is the pin's radius (Box2D 2.4.1's capsule against circles, checked by
 * bench/box2d_capsule_check.cc), one dynamic body per ball holding a b2CircleShape. `pins` may
 * be NULL or empty (W6). Runs one frame, so the broad phase has its pairs. NULL when out of
 * memory. */
peer_box2d *peer_box2d_create(const c2d_circle_soa *balls, const c2d_capsule_soa *pins);

/* One frame of contact finding and nothing else: every ball set again at its own position
 * (b2Body::SetTransform: its box is updated in the broad phase), then b2World::Step with a time
 * step of 0, which finds new pairs and runs the narrow phase on every pair but skips the solver.
 * The contacts stay in the world's list, Box2D's output. */
void peer_box2d_frame(peer_box2d *p);

/* The touching contacts (b2Contact::IsTouching over the world's contact list). */
size_t peer_box2d_touching(const peer_box2d *p);

/* What one real step's b2Profile says (milliseconds of wall time, Box2D's own b2Timer). */
typedef struct peer_box2d_profile {
    double collide;    /* narrow phase over every pair (b2ContactManager::Collide) */
    double broadphase; /* the bodies' boxes updated, new pairs found */
    double step;       /* the whole step, solver included */
} peer_box2d_profile;

/* One step of 1/60 s with 0 velocity and 0 position iterations (the fewest Box2D allows),
 * positions set again first; returns its profile. */
peer_box2d_profile peer_box2d_step(peer_box2d *p);

/* The world's contacts: the pairs whose fattened boxes overlap, touching or not. */
size_t peer_box2d_pairs(const peer_box2d *p);

void peer_box2d_destroy(peer_box2d *p);

#ifdef __cplusplus
}
#endif

#endif
