/// @file collide2d/balls.h
/// Circles against circles (interim: only the contact-pair type, until the ball-ball calls land).
#ifndef COLLIDE2D_BALLS_H
#define COLLIDE2D_BALLS_H

#include "batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A pair of overlapping circles of one set: a < b; `contact` is
/// c2d_collide_circles(circle a, circle b), its normal toward a.
typedef struct c2d_circle_pair_contact {
    uint32_t a, b;
    c2d_contact contact;
} c2d_circle_pair_contact;

#ifdef __cplusplus
}
#endif

#endif
