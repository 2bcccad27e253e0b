/* The Box2D 2.4.1 peer of W8 (bench/peer_box2d_w8.cc): the resting pile as a b2World whose
 * frozen balls start asleep. Built only when meson finds box2d (bench/meson.build). */
#ifndef C2D_BENCH_PEER_BOX2D_W8_H
#define C2D_BENCH_PEER_BOX2D_W8_H

#include <stddef.h>

#include "collide2d.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct peer_box2d_w8 peer_box2d_w8;

/* A world without gravity, sleep allowed: one static body per box capsule (a two-sided edge
 * with the capsule's radius), one dynamic body with a b2CircleShape per ball, awake when
 * awake[i] is non-zero and asleep otherwise. NULL when out of memory. */
peer_box2d_w8 *peer_box2d_w8_create(const c2d_circle_soa *balls, const c2d_capsule_soa *box,
                                    const unsigned char *awake);

/* One b2World::Step of 1/60 s with 8 velocity and 3 position iterations (Box2D's usual);
 * returns the step's own time (b2Profile, ms). */
double peer_box2d_w8_step(peer_box2d_w8 *p);

/* Bodies awake now, and touching contacts. */
size_t peer_box2d_w8_awake(const peer_box2d_w8 *p);
size_t peer_box2d_w8_touching(const peer_box2d_w8 *p);

void peer_box2d_w8_destroy(peer_box2d_w8 *p);

#ifdef __cplusplus
}
#endif

#endif
