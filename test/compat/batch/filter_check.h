/* Filter words for the filter tests (test_filter_batch.c, test_filter_search.c): random
 * category and mask words with few bits (so both refused and allowed pairs are common), 0 and
 * C2D_FILTER_ALL among them, random sensors, arrays left NULL at random, and the rule written
 * again from collide2d/filter.h's words (the tests do not read src/). */
#ifndef C2D_TEST_FILTER_CHECK_H
#define C2D_TEST_FILTER_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "batch_check.h"

/* ---- filter words ----------------------------------------------------------------------- */

/* The words of one scene: circles' and capsules' category and mask, capsules' sensor flags. */
typedef struct words {
    uint32_t *ccat, *cmask, *kcat, *kmask;
    uint8_t *sensor;
} words;

/* A category: mostly one of three bits, sometimes 0 (meets nothing), ALL, or two bits. */
static inline uint32_t random_category(c2d_rng *rng) {
    const uint32_t u = c2d_rng_next(rng) % 20;
    if (u == 0) return 0;
    if (u == 1) return C2D_FILTER_ALL;
    if (u == 2) return 3u << (c2d_rng_next(rng) % 2);
    return 1u << (c2d_rng_next(rng) % 3);
}

/* A mask: any of the three bits (0 included), sometimes ALL. */
static inline uint32_t random_mask(c2d_rng *rng) {
    return c2d_rng_next(rng) % 12 == 0 ? C2D_FILTER_ALL : (uint32_t)(c2d_rng_next(rng) % 8);
}

static inline void words_init(words *w, size_t n, size_t m) {
    w->ccat = xmalloc((n + 1) * sizeof(uint32_t));
    w->cmask = xmalloc((n + 1) * sizeof(uint32_t));
    w->kcat = xmalloc((m + 1) * sizeof(uint32_t));
    w->kmask = xmalloc((m + 1) * sizeof(uint32_t));
    w->sensor = xmalloc(m + 1);
}

/* Words that are all C2D_FILTER_ALL and a sensor array of zeros: NULL arrays in effect. */
static inline void words_init_all(words *w, size_t n, size_t m) {
    words_init(w, n, m);
    for (size_t i = 0; i < n; i++)
        w->ccat[i] = w->cmask[i] = C2D_FILTER_ALL;
    for (size_t j = 0; j < m; j++)
        w->kcat[j] = w->kmask[j] = C2D_FILTER_ALL, w->sensor[j] = 0;
}

static inline void words_free(words *w) {
    free(w->ccat), free(w->cmask), free(w->kcat), free(w->kmask), free(w->sensor);
}

/* Random words for s (sensors: about `sensors` in 16), attached to its sets; each array is
 * left NULL with probability 1/4 when `some_null`. */
static inline void words_attach(words *w, scene *s, c2d_rng *rng, unsigned sensors,
                                bool some_null) {
    words_init(w, s->n, s->m);
    for (size_t i = 0; i < s->n; i++)
        w->ccat[i] = random_category(rng), w->cmask[i] = random_mask(rng);
    for (size_t j = 0; j < s->m; j++) {
        w->kcat[j] = random_category(rng), w->kmask[j] = random_mask(rng);
        w->sensor[j] =
            (uint8_t)(c2d_rng_next(rng) % 16 < sensors ? 1 + c2d_rng_next(rng) % 255 : 0);
    }
#define MAYBE(p) (some_null && c2d_rng_next(rng) % 4 == 0 ? NULL : (p))
    s->circles.category = MAYBE(w->ccat);
    s->circles.mask = MAYBE(w->cmask);
    s->capsules.category = MAYBE(w->kcat);
    s->capsules.mask = MAYBE(w->kmask);
    s->capsules.sensor = MAYBE(w->sensor);
#undef MAYBE
}

static inline void words_detach(scene *s) {
    s->circles.category = s->circles.mask = NULL;
    s->capsules.category = s->capsules.mask = NULL;
    s->capsules.sensor = NULL;
}

/* The rule, again: NULL is every layer; each category shares a bit with the other's mask; a
 * sensor never meets a circle in a collide or sweep call. */
static inline uint32_t word(const uint32_t *a, size_t i) {
    return a ? a[i] : 0xffffffffu;
}
static inline bool meets(const scene *s, size_t i, size_t j) {
    const c2d_circle_soa *c = &s->circles;
    const c2d_capsule_soa *k = &s->capsules;
    if (k->sensor && k->sensor[j]) return false;
    return (word(c->category, i) & word(k->mask, j)) != 0 &&
           (word(k->category, j) & word(c->mask, i)) != 0;
}

/* The rule between two elements' words (each side's category shares a bit with the other's
 * mask). */
static inline bool allows(uint32_t cat_a, uint32_t mask_a, uint32_t cat_b, uint32_t mask_b) {
    return (cat_a & mask_b) != 0 && (cat_b & mask_a) != 0;
}

#endif
