/* Helpers of the scene tests: a scene's answers against the batch layer's (the oracle), byte
 * for byte, on every backend, with every capacity around the total and split into ranges. */
#ifndef C2D_TEST_SCENE_CHECK_H
#define C2D_TEST_SCENE_CHECK_H

#include "batch_check.h"

/* c2d_scene_collide, c2d_scene_collide_range (split into a few ranges) and c2d_scene_sweep /
 * c2d_scene_sweep_range of scene `sc` (built over s's capsules) against c2d_batch_collide and
 * c2d_batch_sweep over s, on the active backend. Asserts on any difference. */
void check_scene_once(c2d_scene *sc, const scene *s, const char *label);

/* check_scene_once against given answers: `ref` (total contacts, capsule-major) for the
 * collide calls (every capacity around the total, size queries, ranges of frames binned whole
 * and in parts) and `sweep` (s->n entries) for the sweeps and sweep ranges. */
void check_scene_expect(c2d_scene *sc, const scene *s, const c2d_pair_contact *ref, size_t total,
                        const c2d_circle_toi *sweep, const char *label);

/* A check of scene sc over s on the active backend (ctx: the caller's). */
typedef void scene_check_fn(c2d_scene *sc, const scene *s, void *ctx, const char *label);

/* check on every available backend, with the label "LABEL [backend]", then the automatic
 * choice again. */
void on_every_backend(c2d_scene *sc, const scene *s, scene_check_fn *check, void *ctx,
                      const char *label);

/* check_scene_once on every available backend, with a scene created from s's capsules. */
void check_scene(const scene *s, const char *label);

#endif
