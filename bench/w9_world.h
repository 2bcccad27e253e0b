/* W9 (DESIGN.md section 15) on the world: the W9b pile's quality figures, the drop test and the
 * floor removal on a sleeping pile, and the W9a board's steps (falling, asleep, the stream,
 * settling with sleep disabled). Every world is made with c2d_world_default_def() with only W9's
 * gravity (0, -10) set (and enable_sleep cleared for settling), stepped by W9_DT; balls are
 * c2d_ball_default_def() with W9's radius, position, density, friction and restitution,
 * capsules c2d_capsule_default_def() with their shape (the rule: every figure with the
 * defaults). Used by bench/w9_world_main.c (c2d_w9_world) and test/world/test_world_w9.c.
 *
 * Times are the thread's CPU clock around c2d_world_step() alone; the figures are computed
 * outside it (bench/w9_figures.h). */
#ifndef C2D_BENCH_W9_WORLD_H
#define C2D_BENCH_W9_WORLD_H

#include <stdbool.h>
#include <stddef.h>

#include "collide2d.h"
#include "w9_figures.h"
#include "w9_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* W9b's figures are taken 20 simulated s after landing unless every ball sleeps first. */
enum {
    W9W_AFTER_LANDING = 1200,
    W9W_ENERGY_FIRST = 60,
    W9W_ASLEEP_STEPS = 60,
    W9W_MAX_STEPS = 100000
};

/* The thread's CPU time in seconds. */
double w9w_cpu_seconds(void);

/* A W9 layout in a world, with the scratch the figures need. */
typedef struct w9w_scene {
    w9_layout l;
    c2d_world *world;
    c2d_capsule_id *capsule_ids; /* the layout's capsules, in its order */
    bool *removed;               /* capsule k removed by w9w_floor_removal() */
    c2d_capsule *live;           /* the capsules still in the world */
    size_t live_count;
    w9_figures *f;
    unsigned char *touched; /* scratch, one a ball */
    float *sx, *sy, *sr;    /* scratch: the sleeping balls */
    size_t scratch_cap;
    size_t steps;        /* steps taken */
    double stage[5];     /* running sums of c2d_world_get_profile()'s stages, ms: contacts,
                            solve, moves, sleep, events */
    bool check;          /* count mid-air sleepers after every step */
    size_t midair_max;   /* the most mid-air sleepers after one step */
    size_t midair_steps; /* steps after which there was at least one */
    size_t midair_first; /* the first such step (0: none) */
} w9w_scene;

/* W9b's pile of n balls (bench/w9_layout.h, pitch W9B_PITCH) in a world with the defaults;
 * mid-air sleepers are counted after every step. Returns 0, or -1 (out of memory, or a world
 * call refused; nothing left allocated). */
int w9w_pile_create(w9w_scene *s, size_t n);
/* W9a's board of n balls; `enable_sleep` false: the world's def.enable_sleep cleared (the only
 * other field set); `check`: count mid-air sleepers after every step. */
int w9w_board_create(w9w_scene *s, size_t n, bool enable_sleep, bool check);
/* W9a's board laid out for n balls, but with none added (the stream's yardstick). */
int w9w_board_create_empty(w9w_scene *s, size_t n);
/* W9c's drum of n balls (w9_layout_drum()) in a world with the defaults. */
int w9w_drum_create(w9w_scene *s, size_t n);
void w9w_scene_destroy(w9w_scene *s);

/* One step: its CPU seconds (-1 when c2d_world_step() refuses or the check runs out of
 * memory). */
double w9w_step(w9w_scene *s);
/* The balls as w9_figures reads them (valid until the world changes). */
w9_balls w9w_balls(const w9w_scene *s);

/* W9b's quality figures (DESIGN.md section 15). */
/* The mean ms a step of each stage (contacts, solve, moves, sleep, events: wall clock, as
 * c2d_world_get_profile() times them) between two snapshots of w9w_scene.stage taken `steps`
 * steps apart, as one "a/b/c/d/e" string into out (at least 64 bytes). */
void w9w_split(const double from[5], const double to[5], size_t steps, char *out, size_t size);

typedef struct w9w_quality {
    size_t steps;    /* steps run */
    double cpu_s;    /* CPU seconds of those steps */
    bool capped;     /* stopped by the CPU cap before the figures were taken */
    size_t lands;    /* the step at which the last ball first touched anything (0: never) */
    size_t asleep;   /* the first step after which awake_count was 0 (0: never) */
    size_t measured; /* the step the figures below were taken at (0: capped) */
    w9_overlap at;   /* overlaps at `measured` */
    double worst_max, worst_p99; /* the worst over every step up to `measured` */
    double energy_rise;          /* the largest rise a step after step W9W_ENERGY_FIRST */
    size_t energy_rise_step;
    double packing;   /* at `measured` */
    double fall_ms;   /* ms a step over steps 30-89 (-1: not reached) */
    double asleep_ms; /* ms a step over the W9W_ASLEEP_STEPS steps after `asleep` (-1: none) */
} w9w_quality;

/* Steps the pile until every ball sleeps or W9W_AFTER_LANDING steps after landing (or until
 * `cap` CPU seconds of steps), takes the figures there and, when asleep, times
 * W9W_ASLEEP_STEPS more steps. Returns 0, or -1 (out of memory, a call refused). */
int w9w_pile_quality(w9w_scene *s, double cap, w9w_quality *q);

/* The drop test: on the sleeping pile, one ball of `radius` at (`at` W, 1 + radius above the
 * highest ball top) moving down at `speed`, stepped until every ball sleeps again or
 * `limit_steps` steps. The canonical drop is at 0.5. */
typedef struct w9w_drop {
    size_t awake_max; /* the most balls awake after one step (the dropped ball included) */
    size_t resleep;   /* steps from the drop until awake_count was 0 (0: not within limit) */
    size_t steps;     /* steps run */
    w9_overlap at;    /* overlaps when asleep again (or at the limit) */
    double worst_max, worst_p99; /* the worst over those steps */
    double ms;                   /* ms a step over those steps */
} w9w_drop;
int w9w_drop_ball(w9w_scene *s, float at, float radius, float speed, size_t limit_steps,
                  w9w_drop *d);

/* The floor removal: c2d_world_remove_capsules() of the floor (the layout's first capsule),
 * then 60 steps. */
typedef struct w9w_floor {
    size_t balls;
    size_t asleep_before;   /* balls asleep before the removal */
    size_t asleep_after_10; /* balls asleep after 10 steps (target 0) */
    size_t not_lower_60;    /* balls less than 0.5 lower after 60 steps than before (target 0) */
    double least_drop;      /* the smallest fall over the 60 steps */
} w9w_floor;
int w9w_floor_removal(w9w_scene *s, w9w_floor *r);

/* W9a with sleep on: falling ms a step (steps 30-89), the step at which the board sleeps,
 * ms a step asleep (W9W_ASLEEP_STEPS steps), then, when `stream` is not 0, that many balls
 * (section 15: 6,554 at 65,536) dropped at the top centre over 60 steps: a block of rows 0.7
 * apart, 110 columns wide (or one row of all when a row holds more; centred on the board, top
 * row 1.5 below the ceiling), released one row a step from the bottom row up (the rows below have
 * fallen away from it), at rest, radii uniform in [0.15, 0.3] (xorshift32, seed 88172645); the
 * stream's figure is the mean step over the steps that start with at least 10% of the stream awake,
 * until fewer are awake after the last row or `cap` is reached. */
typedef struct w9w_board {
    size_t steps;
    double cpu_s;
    double fall_ms;                        /* -1: not reached */
    size_t asleep;                         /* the step the board slept at (0: not within the cap) */
    double asleep_ms;                      /* -1: never asleep */
    char fall_split[64], asleep_split[64]; /* w9w_split() of those windows ("": none) */
    size_t stream;                         /* balls streamed */
    double stream_ms;                      /* -1: not run */
    size_t stream_counted;                 /* steps in that mean */
    size_t stream_steps; /* steps from the first row until fewer than 10% were awake */
    size_t stream_awake_max;
    double stream_awake_mean; /* balls awake, the mean over the steps counted */
    bool stream_ended;        /* fewer than 10% awake before the cap */
    char stream_split[64];    /* w9w_split() of the steps counted ("": none) */
} w9w_board;
int w9w_board_run(w9w_scene *s, size_t stream, double cap, size_t sleep_limit, w9w_board *r);
/* The stream alone, on the world as it is (w9w_board_run() runs it on the sleeping board): its
 * fields of r (stream*), and r->cpu_s and r->steps. */
int w9w_stream_run(w9w_scene *s, size_t stream, double cap, w9w_board *r);

/* W9c: steps 0 .. W9C_END - 1 (or until `cap` CPU seconds): ms a step over W9C_FIRST ..
 * W9C_END - 1, and at the end the balls outside the drum (target 0) and those awake. */
typedef struct w9w_drum {
    size_t steps;
    double cpu_s;
    double ms; /* -1: the window was not reached within the cap */
    char split[64];
    size_t escaped, awake;
} w9w_drum;
int w9w_drum_run(w9w_scene *s, double cap, w9w_drum *r);

/* W9a with sleep disabled: the falling and the settling windows of bench/w9_layout.h. */
typedef struct w9w_settle {
    size_t steps;
    double cpu_s;
    double fall_ms;
    size_t from; /* the settling window's first step (0: not reached) */
    double settle_ms;
    char settle_split[64]; /* w9w_split() of the settling window ("": none) */
    bool capped; /* the window was cut by the cap ("> t": the mean of the last steps run) */
    double start_mean_speed, start_top;
} w9w_settle;
int w9w_board_settle(w9w_scene *s, double cap, w9w_settle *r);

#ifdef __cplusplus
}
#endif

#endif
