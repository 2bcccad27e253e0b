/* The frozen-ball identity check (frozen_check.c), shared by the frozen and filter tests. */
#ifndef C2D_TEST_FROZEN_CHECK_H
#define C2D_TEST_FROZEN_CHECK_H

#include "balls_check.h"
#include "collide2d/frozen.h"

/* A scene of zero capsules. */
c2d_scene *empty_scene(void);

/* The identity on the active backend, with the scene holding the balls of s marked frozen:
 * contacts (sorted) and sweeps (frozen balls still) against c2d_batch_collide_circles and
 * c2d_batch_sweep_circles over all of s, the order and truncation of the frozen pairs. */
void check_identity(c2d_scene *scene, const ball_set *s, const bool *frozen, const char *label);

/* Every backend, `percent` % of the balls (chosen at random from `seed`) frozen into a fresh
 * scene through a history of freezes, replacements and thaws, then check_identity. */
void check_frozen(const ball_set *s, unsigned percent, uint64_t seed, const char *label);

#endif
