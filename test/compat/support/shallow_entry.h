/* Shallow entries next to the ends of thin capsules: the cases on which the old float side
 * test of c2d_sweep_circle_capsule tunnelled (docs/sweeps.md). Shared by the scalar property
 * test (test/scalar/test_sweep_tunnel.c) and the batch byte-for-byte test
 * (test/batch/test_sweep_shallow.c). Header-only. */
#ifndef C2D_TEST_SHALLOW_ENTRY_H
#define C2D_TEST_SHALLOW_ENTRY_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "collide2d.h"

static inline c2d_vec2 shallow_v2(float x, float y) {
    const c2d_vec2 v = {x, y};
    return v;
}

/* splitmix64: a self-contained generator, so the cases do not move when the library's does. */
typedef struct gen {
    uint64_t s;
} gen;

static inline uint64_t gen_next(gen *g) {
    uint64_t z = (g->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static inline double gen_unit(gen *g) { /* [0, 1) */
    return (double)(gen_next(g) >> 11) * 0x1p-53;
}

static inline double gen_range(gen *g, double lo, double hi) {
    return lo + (hi - lo) * gen_unit(g);
}

static inline double gen_log(gen *g, double lo_exp10, double hi_exp10) {
    return pow(10.0, gen_range(g, lo_exp10, hi_exp10));
}

static inline double gen_sign(gen *g) {
    return (gen_next(g) & 1) ? 1.0 : -1.0;
}

/* A shallow entry next to one end of a thin capsule: the path crosses the line h = +-rs
 * (the side) near the end, inside the span or beyond it, at a slope down to 1e-7, moving
 * toward the span or away from it, at any orientation; sizes 1e-4 to 1. */
static inline void shallow_entry(gen *g, c2d_circle *c, c2d_vec2 *m, c2d_capsule *k) {
    const int mode = (int)(gen_next(g) % 6);
    const bool hard = mode >= 4; /* thin, crossing just inside the span, going on into it */
    const double ang = gen_range(g, 0.0, 6.283185307179586);
    const double ux = cos(ang), uy = sin(ang);
    const double len = hard ? gen_log(g, -1.0, 0.0) : gen_log(g, -4.0, 0.0);
    const double top = hard ? -1.5 : 0.0; /* largest radius, log10 */
    const double cx = gen_range(g, -1.0, 1.0), cy = gen_range(g, -1.0, 1.0);
    k->a = shallow_v2((float)(cx - 0.5 * len * ux), (float)(cy - 0.5 * len * uy));
    k->b = shallow_v2((float)(cx + 0.5 * len * ux), (float)(cy + 0.5 * len * uy));
    k->radius = (gen_next(g) % 16 == 0) ? 0.0f : (float)gen_log(g, -4.0, top);
    c->radius = (gen_next(g) % 16 == 0) ? 0.0f : (float)gen_log(g, -4.0, top);
    if (k->radius == 0.0f && c->radius == 0.0f) c->radius = 1e-4f;
    const double rs = (double)c->radius + k->radius;
    /* the frame of the chosen end, from the float endpoints */
    const bool at_b = gen_next(g) & 1;
    const double ex = at_b ? k->b.x : k->a.x, ey = at_b ? k->b.y : k->a.y;
    double ox = (double)k->b.x - k->a.x, oy = (double)k->b.y - k->a.y;
    const double olen = sqrt(ox * ox + oy * oy);
    if (olen > 0.0) {
        ox = (at_b ? 1.0 : -1.0) * ox / olen;
        oy = (at_b ? 1.0 : -1.0) * oy / olen;
    } else {
        ox = 1.0, oy = 0.0;
    }
    const double side = gen_sign(g);
    const double nx = -oy * side, ny = ox * side; /* toward the circle's side */
    /* where the path crosses near the side line, relative to the end */
    const double slope = mode < 4 ? gen_log(g, -7.0, -0.5) : gen_log(g, -7.0, -2.0);
    double x, h = rs * (1.0 + gen_sign(g) * gen_log(g, -12.0, -1.0));
    switch (mode) {
    case 0:
        x = gen_sign(g) * rs * gen_log(g, -9.0, 1.0);
        break;
    case 1:
        x = gen_sign(g) * rs * slope * gen_range(g, 0.0, 1.0);
        break; /* the tangent zone */
    case 2:
        x = -gen_log(g, -9.0, 0.0) * (len < rs ? len : rs);
        break; /* inside */
    case 3:
        x = gen_sign(g) * gen_log(g, -12.0, -6.0);
        break;
    default: /* inside by up to what a float rounding of the height moves along the axis */
        x = -gen_range(g, 0.0, 1.0) * 0x1p-24 / slope;
        x = x < -len ? -len * gen_unit(g) : x;
        h = rs; /* crossing the side line right there */
        break;
    }
    const double X = ex + ox * x + nx * h, Y = ey + oy * x + ny * h;
    /* direction: along the axis (outward or inward), descending toward it at `slope` */
    const double dir = hard ? -1.0 : gen_sign(g);
    const double cs = cos(slope), sn = sin(slope);
    const double speed = hard ? gen_log(g, -1.0, 0.5) : gen_log(g, -3.0, 0.5);
    const double mx = speed * (dir * cs * ox - sn * nx), my = speed * (dir * cs * oy - sn * ny);
    const double tx = hard ? gen_range(g, 0.0, 0.5) : gen_range(g, -0.1, 1.2);
    c->center = shallow_v2((float)(X - tx * mx), (float)(Y - tx * my));
    *m = shallow_v2((float)mx, (float)my);
}

#endif
