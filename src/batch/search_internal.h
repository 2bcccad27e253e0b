/* The shared parts of the search calls (collide2d/search.h): the batch calls
 * (src/batch/search_batch.c) and the scene calls (src/scene/scene_search.c) differ only in how
 * they find capsules, so both run the same code around it. */
#ifndef C2D_BATCH_SEARCH_INTERNAL_H
#define C2D_BATCH_SEARCH_INTERNAL_H

#include "collide2d/search.h"
#include "batch/cull.h"
#include "core/filter_words.h"
#include "scalar/ray_region.h"

/* Rays per pass of a capsule sweep: the pass gets the origins as circles of radius 0. */
#define C2D_RAY_CHUNK 512

/* The capsule part of a ray cast: the earliest capsule hit of `n` points (circles of radius 0)
 * moving by (dx, dy), written to out[0 .. n) as c2d_batch_sweep() writes it. */
typedef void (*c2d_ray_capsule_pass)(const void *ctx, const c2d_circle_soa *points, const float *dx,
                                     const float *dy, c2d_circle_toi *out);

/* Checks the arguments of a ray cast (NULL, then too large), with batch.h's rules. */
C2D_INTERNAL c2d_status c2d_ray_cast_check(const c2d_ray_soa *rays, const c2d_circle_soa *circles,
                                           const c2d_ray_hit *out);

/* The ray cast on checked arguments: the capsules through `pass` (NULL: no capsules), then
 * the circles (NULL: none), the earliest hit kept (ties to capsules, then the lowest index).
 * The pass's points carry the rays' filter words (category, mask): it skips the capsules they
 * do not meet and the sensors; the circle part skips the circles the filter refuses. */
C2D_INTERNAL void c2d_ray_cast_run(const c2d_ray_soa *rays, c2d_ray_capsule_pass pass,
                                   const void *ctx, const c2d_circle_soa *circles,
                                   c2d_ray_hit *out);

/* ---- region queries ----------------------------------------------------------------------- */

/* A set of query regions: boxes (p = lo_x, lo_y, hi_x, hi_y), discs (p = x, y, radius) or
 * points (p = x, y: discs of radius 0), with their optional filter words. */
typedef struct c2d_regions {
    bool missing; /* the set's pointer was NULL */
    bool box, points;
    const float *p[4];
    size_t count;
    const uint32_t *category, *mask; /* NULL: C2D_FILTER_ALL */
} c2d_regions;

/* Does region i meet a shape with these filter words (c2d_filter_allows(); region queries see
 * sensors, so only the rule decides). */
static inline bool c2d_region_allows(const c2d_regions *q, size_t i, uint32_t category,
                                     uint32_t mask) {
    return c2d_filter_allows(c2d_filter_word(q->category, i), c2d_filter_word(q->mask, i), category,
                             mask);
}

/* Region i against the capsule (ax, ay)-(bx, by) of radius R (a circle is a capsule with a
 * zero-length axis): c2d_overlap_box_capsule() or c2d_overlap_circle_capsule(). */
C2D_INTERNAL bool c2d_region_overlap(const c2d_regions *q, size_t i, float ax, float ay, float bx,
                                     float by, float R);

/* Relative and absolute slack of the culling boxes of region queries: each side's box is
 * grown by C2D_REGION_SLACK times the sum of its magnitudes plus C2D_ABSOLUTE_SLACK. The exact
 * tests err by at most a few float ulps (2^-22) of those magnitudes (the disc test in float;
 * the box test in double errs far less), so a pair the exact test accepts always has meeting
 * boxes. 2^-16. */
#define C2D_REGION_SLACK 1.52587890625e-05

/* The culling box of region i in double (lo_x, hi_x, lo_y, hi_y): false when a value is not
 * tame (or NaN): then every shape gets the exact test. */
C2D_INTERNAL bool c2d_region_bounds(const c2d_regions *q, size_t i, double box[4]);

/* Where the pairs go: written while below capacity, always counted. */
typedef struct c2d_pair_sink {
    c2d_query_pair *out;
    size_t capacity, total;
} c2d_pair_sink;

static inline void c2d_sink_pair(c2d_pair_sink *s, size_t query, size_t shape) {
    if (s->total < s->capacity) {
        s->out[s->total].query = (uint32_t)query;
        s->out[s->total].shape = (uint32_t)shape;
    }
    s->total++;
}

/* The argument checks of a region query (NULL first, then too large), with contract.h's
 * rules; `shapes_status` is the check of the shape set (or the scene). Every error leaves
 * *count = 0. */
C2D_INTERNAL c2d_status c2d_regions_check(const c2d_regions *q, c2d_status shapes_status,
                                          const c2d_query_pair *out, size_t capacity,
                                          size_t *count);

/* A query set from the public structs (NULL: a missing set, C2D_ERROR_NULL). */
static inline c2d_regions c2d_regions_of_boxes(const c2d_box_soa *b) {
    if (!b) return (c2d_regions){true, true, false, {NULL, NULL, NULL, NULL}, 0, NULL, NULL};
    return (c2d_regions){false,    true,        false,  {b->lo_x, b->lo_y, b->hi_x, b->hi_y},
                         b->count, b->category, b->mask};
}
static inline c2d_regions c2d_regions_of_discs(const c2d_circle_soa *d) {
    if (!d) return (c2d_regions){true, false, false, {NULL, NULL, NULL, NULL}, 0, NULL, NULL};
    return (c2d_regions){false,    false,       false,  {d->x, d->y, d->radius, NULL},
                         d->count, d->category, d->mask};
}
static inline c2d_regions c2d_regions_of_points(const c2d_point_soa *p) {
    if (!p) return (c2d_regions){true, false, true, {NULL, NULL, NULL, NULL}, 0, NULL, NULL};
    return (c2d_regions){false,    false,       true,   {p->x, p->y, NULL, NULL},
                         p->count, p->category, p->mask};
}

#endif
