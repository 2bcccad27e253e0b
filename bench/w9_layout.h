/* The W9 layouts of DESIGN.md section 15 (the world workload), as plain arrays and c2d_capsule
 * values, so the Box2D peer (bench/peer_box2d_w9.cc) and the world's benchmark and tests build
 * the same bodies. No Box2D, no world: positions, radii, capsules and materials only. */
#ifndef C2D_BENCH_W9_LAYOUT_H
#define C2D_BENCH_W9_LAYOUT_H

#include <stddef.h>

#include "collide2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* W9's time step and gravity (section 15: dt 1/60, gravity (0, -10)). */
#define W9_DT (1.0f / 60.0f)
#define W9_GRAVITY (-10.0f)
/* W9b's grid pitch (section 15). The Box2D row was measured at 1.25. */
#define W9B_PITCH 1.3f
/* W9a's windows: falling is steps 30-89 (section 15: frames 30-90). Settling (sleep disabled)
 * is ours: the 60 steps from the first step k >= 90, k a multiple of 10, at which the balls'
 * mean speed is below W9A_SETTLE_SPEED (the board has drained into the pile; on W7's board
 * with the world's frictions that takes about 1,200 steps at 2,000 balls), or from step
 * W9A_SETTLE_LIMIT if that comes first. */
enum {
    W9A_FALL_FIRST = 30,
    W9A_FALL_END = 90,
    W9A_SETTLE_STEPS = 60,
    W9A_SETTLE_EVERY = 10,
    W9A_SETTLE_LIMIT = 3600
};
#define W9A_SETTLE_SPEED 1.0f
/* W9c's drum turns at 0.5 rad/s (section 15); its ms a step is the mean over steps
 * W9C_FIRST .. W9C_END - 1, once the balls have fallen into the drum's bottom and tumble. */
#define W9C_SPIN 0.5f
enum { W9C_FIRST = 300, W9C_END = 600 };

/* One layout: balls at rest (every velocity 0), capsules (all static), and the materials. */
typedef struct w9_layout {
    size_t n;                  /* balls */
    float *x, *y, *radius;     /* ball i's centre and radius */
    size_t m;                  /* capsules */
    c2d_capsule *capsules;     /* world coordinates */
    float width;               /* the inner width: balls between x = 0 and x = width */
    float floor_y;             /* the floor's top: energy's y and packing's heights from it */
    float density;             /* every ball */
    float friction;            /* every ball */
    float restitution;         /* every ball */
    float capsule_friction;    /* every capsule: section 14's capsule defaults (1, 1); a pair */
    float capsule_restitution; /* mixes sqrt(a * b), so a ball of friction 0.6 gets 0.775 */
    float spin;                /* 0: the capsules are static; else every one is kinematic and */
    c2d_vec2 pivot;            /* turns at `spin` rad/s about `pivot` (W9c's drum) */
    float drum_radius;         /* W9c: the drum's inner radius (0 for the others) */
} w9_layout;

/* W9b, the pile: n balls, radii uniform in [0.4, 0.6] (c2d_rng from C2D_WORKLOAD_SEED; per
 * ball the radius is drawn first, then the x jitter in [-0.05, 0.05]) on a grid of `pitch`
 * (W9B_PITCH): W = sqrt(n) * 1.1, cols = floor(W / pitch), ball i at (pitch / 2 + pitch
 * (i mod cols) + jitter, 0.7 + pitch (i div cols)). Density 1, friction 0.6, restitution 0.
 * Three capsules of radius 1: the floor from (-1, -1) to (W + 1, -1) (top at y = 0) and the
 * walls from (-1, -1) and (W + 1, -1) up to 20 above the top row's centres (inner faces at
 * x = 0 and x = W). Returns 0, or -1 when out of memory or n is 0 (nothing left allocated). */
int w9_layout_pile(w9_layout *l, size_t n, float pitch);

/* W9a, the pachinko board: W7's board (examples/pachinko.c's board_make, seed 2463534242):
 * walls and ceiling (capsules of radius 1 outside a box of W7's width and height, floor's top
 * at y = 0), 14 rows of staggered pins (circles of radius 0.6, short capsules of radius 0.25,
 * segments of radius 0), W7's balls (a grid 0.7 apart above the pins, radii in [0.15, 0.3],
 * the same generator draws) but at rest, with the world's ball defaults: density 1, friction
 * 0.6, restitution 0. W7's board has no bins. Returns 0, or -1 when out of memory. */
int w9_layout_board(w9_layout *l, size_t n);

/* W9c, the drum: n balls with W9a's radii (the board's generator and seed) at rest on a grid
 * 0.7 apart in the lowest rows of a drum whose inner radius R makes them a third of its area
 * at a packing of 0.82 (R = sqrt(3 n E[pi r^2] / (0.82 pi))). The drum is a ring of capsules
 * of radius 0.5 (segments about 4 long, their inner faces R from the centre) and four ribs
 * R / 6 long pointing in, like a washer's, all kinematic, turning at W9C_SPIN rad/s about the
 * centre (R + 2, R + 2). Returns 0, or -1 when out of memory or n is 0. */
int w9_layout_drum(w9_layout *l, size_t n);

void w9_layout_free(w9_layout *l);

/* W9a's stream (section 15): `total` balls dropped at the top centre over W9_STREAM_ROWS steps,
 * row `row` (0: the bottom one, released first) before step `row`, in rows 0.7 apart of 110
 * columns 0.7 apart (or one row of all when a row holds more), radii uniform in [0.15, 0.3]
 * from examples/pachinko.c's generator, seeded with W9_STREAM_SEED. */
enum { W9_STREAM_ROWS = 60, W9_STREAM_COLUMNS = 110 };
#define W9_STREAM_SEED 88172645u

/* The most balls a row of a stream of `total` holds. */
size_t w9_stream_row_most(size_t total);

/* Row `row` of a stream of `total` on board l: its balls' centres and radii into x, y, r (room
 * for w9_stream_row_most(total)); returns how many. `seed` carries the generator from row to
 * row. */
size_t w9_stream_row(const w9_layout *l, size_t total, size_t row, unsigned *seed, float *x,
                     float *y, float *r);

/* The stream's window, one rule for every engine: the steps begun with at least a tenth of the
 * stream awake are counted (their mean is the figure), and the window ends before a step once
 * every row is out and fewer than that are awake. */
typedef struct w9_stream_window {
    size_t threshold;      /* a tenth of the stream, rounded up */
    size_t counted;        /* steps counted */
    double sum, awake_sum; /* their seconds, and the balls awake when each began */
} w9_stream_window;
w9_stream_window w9_stream_window_start(size_t total);
/* Before a step, with `rows` rows released and `awake` balls awake: whether the window ended. */
bool w9_stream_window_ended(const w9_stream_window *v, size_t rows, size_t awake);
/* A step of `seconds` begun with `awake` balls awake: returns whether it counts. */
bool w9_stream_window_add(w9_stream_window *v, size_t awake, double seconds);

#ifdef __cplusplus
}
#endif

#endif
