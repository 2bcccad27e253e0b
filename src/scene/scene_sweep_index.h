/* The layout of the sweep index (built and read by scene_sweep.c). */
#ifndef C2D_SCENE_SWEEP_INDEX_H
#define C2D_SCENE_SWEEP_INDEX_H

#include <math.h>

#include "batch/cull.h"
#include "scene/scene_grid.h"

/* Four capsules of a sweep-index cell, with their index boxes (unused slots: an empty box,
 * lo = +inf, hi = -inf, that meets nothing). */
typedef struct c2d_sweep_group {
    float lo_x[4], hi_x[4], lo_y[4], hi_y[4];
    uint32_t capsule[4];
} c2d_sweep_group;

/* The sweep index (scene_sweep.c): for circles whose swept box is at most `gate` wide and high,
 * a grid looked up by the box's low corner alone. Cell c lists (group[start[c] .. start[c+1]),
 * four a group, ascending) every capsule of kind GRID whose box, grown by `span` to the left and
 * below, holds a point of the cell (by c2d_grid_coord, which is monotone, so no rounding escapes
 * it): a box no larger than gate < span that meets the capsule's box has its low corner there.
 * Built by c2d_scene_sweep() for the scene's generation; range calls read it when it is current. */
typedef struct c2d_sweep_index {
    c2d_grid grid;
    float gate, span;           /* the largest box that uses it; how far capsules were grown */
    uint32_t *start;            /* nx * ny + 1 offsets into group */
    c2d_sweep_group *group;     /* the listed capsules with their index boxes */
    uint64_t generation;        /* the scene generation it is current for */
    uint64_t seen;              /* 1 + the generation of the last sweep (built at the second) */
    uint32_t uses;              /* sweeps since the build */
    uint32_t checked;           /* `uses` when the circles' sizes were last checked */
    uint32_t pause, pause_next; /* sweeps to go without it (capsules moved soon after builds) */
    bool ready, tried;          /* built; a build was attempted for `generation` */
} c2d_sweep_index;

/* One circle's inputs and swept box. */
typedef struct c2d_swept_circle {
    float px, py, r, mx, my;
    float lo_x, hi_x, lo_y, hi_y;
} c2d_swept_circle;

/* The swept box of cull.h's kernels (everything within r of the path, plus slack), grown by a
 * further 1/8 and 2^-10 of the sizes. False when some input is not tame (or NaN). */
static inline bool c2d_swept_box(c2d_swept_circle *c) {
    const float ar = fabsf(c->r), amx = fabsf(c->mx), amy = fabsf(c->my);
    const float apx = fabsf(c->px), apy = fabsf(c->py);
    const float L = C2D_TAME_LIMIT;
    if (!(apx <= L && apy <= L && amx <= L && amy <= L && ar <= L)) return false;
    const float size = amx + amy + ar;
    const float grow =
        (ar + size * C2D_SWEEP_SIZE_SLACK + (apx + apy) * C2D_SWEEP_POSITION_SLACK + 1e-18f) *
            1.125f +
        size * 0x1p-10f;
    const float ex = c->px + c->mx, ey = c->py + c->my;
    c->lo_x = (c->px < ex ? c->px : ex) - grow;
    c->hi_x = (c->px > ex ? c->px : ex) + grow;
    c->lo_y = (c->py < ey ? c->py : ey) - grow;
    c->hi_y = (c->py > ey ? c->py : ey) + grow;
    return true;
}

#endif
