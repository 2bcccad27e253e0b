/* Reading the optional filter arrays of a shape set (collide2d/filter.h).
 *
 * Every call that honours filters reads them through these helpers, so "NULL means every
 * layer" and "a sensor is invisible to collide, sweep and ray calls" are written once. A call
 * checks c2d_*_soa_filtered() once and keeps its unfiltered path untouched when it is false:
 * sets without filters pay nothing.
 */
#ifndef C2D_CORE_FILTER_WORDS_H
#define C2D_CORE_FILTER_WORDS_H

#include "collide2d/batch.h"

/* Element i's word of an optional category or mask array. */
static inline uint32_t c2d_filter_word(const uint32_t *words, size_t i) {
    return words ? words[i] : C2D_FILTER_ALL;
}

/* True when the circle set carries a filter. */
static inline bool c2d_circle_soa_filtered(const c2d_circle_soa *c) {
    return c->category != NULL || c->mask != NULL;
}

/* True when the capsule set carries a filter or sensors. */
static inline bool c2d_capsule_soa_filtered(const c2d_capsule_soa *k) {
    return k->category != NULL || k->mask != NULL || k->sensor != NULL;
}

/* Whether circle i and capsule k meet in a collide or sweep call: the filter allows the pair
 * and the capsule is not a sensor. (Region queries use c2d_filter_allows() alone.) */
static inline bool c2d_circle_meets_capsule(const c2d_circle_soa *c, size_t i,
                                            const c2d_capsule_soa *k, size_t j) {
    return !(k->sensor && k->sensor[j]) &&
           c2d_filter_allows(c2d_filter_word(c->category, i), c2d_filter_word(c->mask, i),
                             c2d_filter_word(k->category, j), c2d_filter_word(k->mask, j));
}

/* Whether circles i and j of one set meet. */
static inline bool c2d_circles_meet(const c2d_circle_soa *c, size_t i, size_t j) {
    return c2d_filter_allows(c2d_filter_word(c->category, i), c2d_filter_word(c->mask, i),
                             c2d_filter_word(c->category, j), c2d_filter_word(c->mask, j));
}

#endif
