/* A part of a collide frame (scene_part.c): its candidate pairs, appended by the scans
 * (scene_scan.c), and their exact tests, whose contacts the part keeps. The appends are inline:
 * the scans make one for every candidate. */
#ifndef C2D_SCENE_PART_H
#define C2D_SCENE_PART_H

#include "scene/scene_state.h"

/* Pairs handed to the pairs kernel at once (on the stack). */
enum { C2D_PART_CHUNK = 1024 };

/* A buffer of `capacity` pairs for the part, holding its pairs so far (kept for later frames). */
C2D_INTERNAL bool c2d_part_regrow(const c2d_scene *s, c2d_scene_part *p, size_t capacity);

/* A part's candidates are two arrays in one buffer, so the pairs kernel reads them where they
 * are: the capsules, and from [capacity] the circles. */
static inline uint32_t *c2d_pair_capsules(const c2d_scene_part *p) {
    return p->pairs;
}
static inline uint32_t *c2d_pair_circles(const c2d_scene_part *p) {
    return p->pairs + p->capacity;
}

/* Writes the pair (capsule, circle) at entry j (room was made). */
static inline void c2d_put_pair(const c2d_scene_part *p, size_t j, uint32_t capsule,
                                uint32_t circle) {
    c2d_pair_capsules(p)[j] = capsule;
    c2d_pair_circles(p)[j] = circle;
}

/* Appends the pair (capsule, circle) to the part, growing its buffer (1.5x) when full. */
static inline bool c2d_part_append(const c2d_scene *s, c2d_scene_part *p, uint32_t capsule,
                                   uint32_t circle) {
    if (p->count == p->capacity &&
        !c2d_part_regrow(s, p, p->capacity < 512 ? 1024 : p->capacity + p->capacity / 2))
        return false;
    c2d_put_pair(p, p->count++, capsule, circle);
    return true;
}

/* Makes room for `n` more pairs. */
static inline bool c2d_part_room(const c2d_scene *s, c2d_scene_part *p, size_t n) {
    if (p->capacity - p->count >= n) return true;
    /* 1.5x the old size or what is needed, whichever is larger: kept for later frames */
    const size_t need = p->count + n;
    size_t capacity = p->capacity < 512 ? 1024 : p->capacity + p->capacity / 2;
    if (capacity < need + need / 2) capacity = need + need / 2;
    return c2d_part_regrow(s, p, capacity);
}

/* The exact tests of the part's candidates, in order, but for dirty capsules (tested by
 * c2d_part_test_dirty); empties the candidate list. */
C2D_INTERNAL bool c2d_part_flush(const c2d_scene *s, c2d_scene_part *p);

/* Each dirty capsule (moved since the fine index was built) of kind GRID against every circle
 * of the part, by the all-pairs kernel: its contacts in circle order, as the scan would have
 * found them. */
C2D_INTERNAL bool c2d_part_test_dirty(const c2d_scene *s, c2d_scene_part *p);

/* Capsule k of the scene as a set of one, with its filter words and sensor byte when the scene
 * has them: the all-pairs kernel then applies the filter itself. */
C2D_INTERNAL c2d_capsule_soa c2d_one_capsule(const c2d_scene *s, size_t k);

#endif
