/* The frozen balls a scene holds (collide2d/frozen.h; src/balls/frozen.c). */
#ifndef C2D_BALLS_FROZEN_INTERNAL_H
#define C2D_BALLS_FROZEN_INTERNAL_H

#include "collide2d/frozen.h"
#include "scalar/reference.h"

typedef struct c2d_frozen c2d_frozen;

/* Releases a scene's frozen balls (NULL: nothing). */
C2D_INTERNAL void c2d_frozen_free(const c2d_scene *scene, c2d_frozen *frozen);

#endif
