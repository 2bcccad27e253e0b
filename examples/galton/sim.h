/* The Galton board simulation: board, balls and one fixed step, on libcollide2d's public API.
 * Shared by the example (galton.c) and the tests (test/sim/). Lengths are in ball radii
 * (1 = the radius of a ball; think millimetres), time in seconds.
 *
 * Every value in the world state comes from + - * / and sqrt on floats in a fixed order
 * (no libm transcendental calls, no reduction across threads in a variable order), so the
 * state after N steps is the same bytes on every backend, thread count and CPU. */
#ifndef GALTON_SIM_H
#define GALTON_SIM_H

#include <stddef.h>
#include <stdint.h>

#include <collide2d.h>

#include "queries.h"

/* The board's shape and the run's settings. galton_defaults() fills it. */
typedef struct galton_params {
    int rows;               /* rows of pins; the board has rows + 3 bins */
    size_t balls;           /* balls dropped from the hopper (or launched) */
    uint32_t seed;          /* jitter of the spawn positions */
    int threads;            /* 1 or more: the scene queries are split over this many threads */
    float pitch;            /* distance between neighbouring pins of a row */
    float ball_restitution; /* each ball's restitution */
    float pin_restitution;  /* each capsule's restitution; a contact uses sqrt(eb * ep) */
    float gravity;          /* downward acceleration (a board tilted by about 12 degrees) */
    float dt;               /* the fixed step */
    float pin_size;         /* radius of the round pins and capsules, half-length of segments */
    float drag;             /* air and rolling drag: v *= 1 - drag dt each step (1/s) */
    float launch_speed;     /* 0: drop from the hopper; > 0: all balls start at once inside the
                               pin field, in random directions at this speed (tests) */
    size_t hopper_capacity; /* no new row of balls while this many are above the funnel */
} galton_params;

/* Timings of the steps so far, in seconds (not part of the state). */
typedef struct galton_timing {
    double broad;    /* binning the balls (the scene's index) */
    double narrow;   /* contacts and sweeps */
    double response; /* impulses, push-out, integration */
} galton_timing;

typedef struct galton {
    galton_params p;
    /* Static capsules: walls and funnel, pins, bin dividers (in that order). */
    size_t n_caps, first_pin, n_pins, first_divider;
    float *ax, *ay, *bx, *by, *cr, *ce;
    float left, right, floor_y, bins_top, pins_top, outlet_y, funnel_top, top;
    float pin_size;
    float skin; /* sweeps use radius 1 - skin: a resting ball may sink this deep, no deeper */
    /* Balls (structure-of-arrays), n of capacity p.balls. */
    size_t n;
    float *x, *y, *vx, *vy, *r, *rs, *inv_mass, *e;
    /* Scratch: push-out displacement, motion, sweep lists. */
    float *dx, *dy, *mx, *my, *sx, *sy, *smx, *smy, *st; /* st: a pass's hit times */
    uint32_t *active;
    uint32_t *quiet; /* steps in a row each ball has been slow in a bin */
    uint32_t *ids;   /* the awake balls (inv_mass != 0), increasing; the rest are frozen */
    size_t n_awake;
    c2d_circle_toi *toi;
    c2d_capsule_pair_contact *pin_hits;
    size_t pin_cap, n_pin_hits;
    c2d_circle_pair_contact *ball_hits;
    size_t ball_cap, n_ball_hits;
    c2d_circle_pair_contact *merged; /* scratch of the pair merge */
    size_t merged_cap;
    galton_queries q;
    uint32_t rng;
    uint64_t steps;
    uint64_t sweep_hits; /* times a sweep stopped a ball at a capsule */
    uint64_t woken;      /* frozen balls woken by a fast ball's touch */
    /* Potential energy (per unit mass) the position corrections added so far: push-out and
     * putting deep balls back on a surface move balls without velocity (not state). */
    double lifted;
    galton_timing timing;
} galton;

/* Defaults for a board of `rows` rows and `balls` balls. */
void galton_defaults(galton_params *p, int rows, size_t balls);

/* Builds the board; 0 on success, -1 when memory runs out or a parameter is bad. */
int galton_create(galton *g, const galton_params *p);
void galton_destroy(galton *g);

/* One fixed step. 0 on success, -1 on a library error (printed to stderr). */
int galton_step(galton *g);

/* True when every ball has been dropped and all have come to rest below the pins. */
int galton_done(const galton *g);

/* FNV-1a (64-bit) over the bytes of every ball's x, y, vx, vy and the step count. */
uint64_t galton_hash(const galton *g);

/* Kinetic plus potential energy per unit mass, summed in double (floor at height 0). */
double galton_energy(const galton *g);

/* Number of bins (rows + 3) and the bin of x (clamped). */
int galton_bin_count(const galton *g);
int galton_bin_of(const galton *g, float x);

/* Balls per bin (counts has galton_bin_count() entries), counting balls below the pins. */
void galton_bins(const galton *g, size_t *counts);

/* C(n, k) / 2^n, the binomial probability of k of n fair choices, in double (pictures and
 * checks only, never the state). */
double galton_binomial(int n, int k);

#endif
