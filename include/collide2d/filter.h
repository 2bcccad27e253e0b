/// @file collide2d/filter.h
/// Collision filters and sensors: which pairs a call looks at.
///
/// Filters. Every shape set (c2d_circle_soa, c2d_capsule_soa) and every query set
/// (c2d_ray_soa, c2d_box_soa, c2d_point_soa) may carry two optional arrays of 32-bit words,
/// one word per element: `category`, the layers the element is on, and `mask`, the layers it
/// meets. A NULL array stands for C2D_FILTER_ALL in every element, so a set without filters
/// meets everything, as before filters existed. A pair is considered only when
/// c2d_filter_allows() holds for its two elements (Box2D's rule: each side's category shares a
/// bit with the other side's mask). A pair the filter refuses is never reported by any call:
/// no contact, no region-query result, and no sweep or ray hit (the earliest hit skips it, so
/// a filtered capsule never hides one behind it). A category of 0 meets nothing.
///
/// Sensors. c2d_capsule_soa's optional `sensor` array (NULL = no sensors) marks capsules that
/// take part in the region queries (collide2d/search.h) only: the collide calls, the sweeps
/// and the ray casts skip a sensor as if the filter refused it, so balls pass through it and a
/// frame loop needs no special case. To learn which balls are inside a sensor, query the balls
/// as discs against the capsules (c2d_batch_query_disc_capsules() or c2d_scene_query_disc()),
/// with a disc mask that holds only the sensors' category.
///
/// Filters change which pairs exist, never a reported pair's bytes: a pair that is reported
/// carries exactly the contact, time of impact or query answer it has without filters, and
/// ordering and tie rules are unchanged among the pairs that remain.
#ifndef COLLIDE2D_FILTER_H
#define COLLIDE2D_FILTER_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Every layer: what a NULL `category` or `mask` array stands for.
#define C2D_FILTER_ALL UINT32_MAX

/// True when two elements with these filter words may meet: category_a & mask_b and
/// category_b & mask_a are both non-zero. Symmetric in its two elements.
static inline bool c2d_filter_allows(uint32_t category_a, uint32_t mask_a, uint32_t category_b,
                                     uint32_t mask_b) {
    return (category_a & mask_b) != 0 && (category_b & mask_a) != 0;
}

#ifdef __cplusplus
}
#endif

#endif
