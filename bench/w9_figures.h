/* The W9b quality figures of DESIGN.md section 15 over plain arrays of ball state, so that the
 * Box2D peer (bench/w9_peer.c) and the world's tests compute them the same way. Sums in double.
 *
 * Touching: two balls touch when their gap is at most W9_TOUCH times the smaller radius (gap =
 * distance of the centres - r1 - r2, negative when they overlap); a ball touches a capsule when
 * the gap from its centre to the capsule is at most W9_TOUCH times the ball's radius (the
 * issue's "within 0.005 x its radius"). Percentiles are nearest-rank: the p-th of n sorted
 * values is the one at rank ceil(p n). */
#ifndef C2D_BENCH_W9_FIGURES_H
#define C2D_BENCH_W9_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "collide2d.h"

#ifdef __cplusplus
extern "C" {
#endif

#define W9_TOUCH 0.005f

/* Ball state: n balls' centres, velocities, angular velocities (rad/s) and radii. A figure
 * reads only the arrays it names; the others may be NULL. */
typedef struct w9_balls {
    const float *x, *y, *vx, *vy, *w, *radius;
    size_t count;
} w9_balls;

/* Scratch memory (a hashed grid, the pairs' overlaps), reused from call to call. */
typedef struct w9_figures w9_figures;
w9_figures *w9_figures_create(void); /* NULL when out of memory */
void w9_figures_destroy(w9_figures *f);

/* Sets touched[i] to 1 for every ball i touching a capsule or another ball now (entries
 * already 1 stay 1); reads x, y, radius. Returns how many entries are 1, or (size_t)-1 when
 * out of memory. Called after every step it gives "lands": the step at which this reaches n. */
size_t w9_mark_touching(w9_figures *f, const w9_balls *b, const c2d_capsule *capsules, size_t m,
                        unsigned char *touched);

/* As w9_mark_touching() with the rule for support ("each sleeping ball touches a
 * capsule or another sleeping ball, within 0.005 x its radius"): ball i is marked when its gap
 * to another ball is at most W9_TOUCH times i's own radius (a large ball resting on a small one
 * counts a little farther than the pair rule above). */
size_t w9_mark_supported(w9_figures *f, const w9_balls *b, const c2d_capsule *capsules, size_t m,
                         unsigned char *touched);

/* The overlaps of touching ball pairs, each as a fraction of the pair's smaller radius (0 for
 * a touching pair with a gap). */
typedef struct w9_overlap {
    size_t pairs; /* touching pairs */
    double max;   /* 0 when no pair touches */
    double p99;   /* nearest-rank 99th percentile; 0 when no pair touches */
} w9_overlap;
/* Reads x, y, radius. Returns 0, or -1 when out of memory. */
int w9_overlaps(w9_figures *f, const w9_balls *b, w9_overlap *out);

/* E = sum of 1/2 m |v|^2 + 1/2 I w^2 + m g (y - floor_y), m = density pi r^2, I = m r^2 / 2 (a
 * disc), g = |gravity|. Reads every array (w may be NULL: no rotation). */
double w9_energy(const w9_balls *b, float density, float gravity, float floor_y);

/* The largest relative rise of E from one step to the next, over the steps k >= first
 * ((E[k+1] - E[k]) / E[k]; section 15: first = 60). Feed E[k] after step k for k = 0, 1, ... */
typedef struct w9_rise {
    size_t first;   /* the first k whose rise counts */
    size_t next;    /* the k of the next energy fed */
    double last;    /* E[next - 1] */
    double max;     /* the largest rise so far (-inf before the first) */
    size_t max_at;  /* the k of that rise */
    size_t counted; /* rises counted */
} w9_rise;
void w9_rise_start(w9_rise *r, size_t first);
void w9_rise_add(w9_rise *r, double energy);

/* Packing: the balls' area over width x h95, h95 the nearest-rank 95th percentile of the
 * balls' tops (y + r - floor_y). Reads y, radius. Returns -1 when out of memory. */
double w9_packing(w9_figures *f, const w9_balls *b, float width, float floor_y);

#ifdef __cplusplus
}
#endif

#endif
