/* Internal entry points of the scalar references of collide2d/search.h, on loose floats (the
 * batch and scene calls hold structure-of-arrays inputs). */
#ifndef C2D_SCALAR_SEARCH_H
#define C2D_SCALAR_SEARCH_H

#include "collide2d/search.h"
#include "scalar/reference.h"

/* c2d_overlap_box_capsule() on loose floats. */
C2D_INTERNAL bool c2d_box_capsule_overlap(float lo_x, float lo_y, float hi_x, float hi_y, float ax,
                                          float ay, float bx, float by, float R);

#endif
