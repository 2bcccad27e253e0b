/* The Galton board (examples/galton/sim.c) as a WebAssembly module for web/index.html: the page
 * creates a board, runs steps, and reads the balls, the capsules and the bins straight from the
 * module's memory. One thread (a page opened from a file has no SharedArrayBuffer); the same
 * parameters as `galton` on the command line, so the world hash after N steps is the native
 * one: `galton --balls B --rows R --seed S --hopper H --steps N`. */
#include <stdio.h>
#include <string.h>

#include <emscripten/emscripten.h>

#include "sim.h"

static galton board;
static int created;
static size_t bins[512];
static char text[32];

/* Selects the backend named `name` ("auto", "scalar", "wasm_simd128"); 0 on success. */
EMSCRIPTEN_KEEPALIVE int gw_select_backend(const char *name) {
    for (int b = C2D_BACKEND_AUTO; b < C2D_BACKEND_COUNT; b++)
        if (strcmp(name, c2d_backend_name((c2d_backend)b)) == 0)
            return c2d_backend_select((c2d_backend)b) == C2D_OK ? 0 : -1;
    return -1;
}

/* The active backend's name. */
EMSCRIPTEN_KEEPALIVE const char *gw_backend(void) {
    return c2d_backend_name(c2d_backend_active());
}

/* (Re)builds the board: `balls` balls through `rows` rows, spawn jitter from `seed`, at most
 * `hopper` balls waiting above the funnel (galton's --hopper, 300 there by default). 0 on
 * success. */
EMSCRIPTEN_KEEPALIVE int gw_create(int balls, int rows, unsigned seed, int hopper) {
    if (created) galton_destroy(&board);
    created = 0;
    if (balls < 1 || rows < 1 || rows + 3 > (int)(sizeof bins / sizeof bins[0]) || hopper < 1)
        return -1;
    galton_params p;
    galton_defaults(&p, rows, (size_t)balls);
    p.seed = seed;
    p.threads = 1;
    p.hopper_capacity = (size_t)hopper;
    if (galton_create(&board, &p) != 0) return -1;
    created = 1;
    return 0;
}

/* Runs up to `n` steps, fewer once every ball rests; returns how many ran (-1 on an error). */
EMSCRIPTEN_KEEPALIVE int gw_step(int n) {
    int done = 0;
    while (created && done < n && !galton_done(&board)) {
        if (galton_step(&board) != 0) return -1;
        done++;
    }
    return done;
}

/* 1 when every ball has been dropped and rests in a bin. */
EMSCRIPTEN_KEEPALIVE int gw_done(void) {
    return created && galton_done(&board);
}

/* Steps run so far (as a double: exact up to 2^53). */
EMSCRIPTEN_KEEPALIVE double gw_steps(void) {
    return created ? (double)board.steps : 0.0;
}

/* The world hash as 16 hexadecimal digits, as `galton` prints it. */
EMSCRIPTEN_KEEPALIVE const char *gw_hash(void) {
    snprintf(text, sizeof text, "%016llx",
             created ? (unsigned long long)galton_hash(&board) : 0ull);
    return text;
}

/* The balls in play and their arrays (x, y; one radius for all). */
EMSCRIPTEN_KEEPALIVE int gw_ball_count(void) {
    return created ? (int)board.n : 0;
}
EMSCRIPTEN_KEEPALIVE const float *gw_ball_x(void) {
    return board.x;
}
EMSCRIPTEN_KEEPALIVE const float *gw_ball_y(void) {
    return board.y;
}
EMSCRIPTEN_KEEPALIVE double gw_ball_radius(void) {
    return created && board.n ? board.r[0] : 1.0;
}

/* The capsules: count, the index where pins begin and where bin dividers begin, and the
 * arrays of end points and radii. */
EMSCRIPTEN_KEEPALIVE int gw_capsule_count(void) {
    return created ? (int)board.n_caps : 0;
}
EMSCRIPTEN_KEEPALIVE int gw_first_pin(void) {
    return (int)board.first_pin;
}
EMSCRIPTEN_KEEPALIVE int gw_first_divider(void) {
    return (int)board.first_divider;
}
EMSCRIPTEN_KEEPALIVE const float *gw_capsule_ax(void) {
    return board.ax;
}
EMSCRIPTEN_KEEPALIVE const float *gw_capsule_ay(void) {
    return board.ay;
}
EMSCRIPTEN_KEEPALIVE const float *gw_capsule_bx(void) {
    return board.bx;
}
EMSCRIPTEN_KEEPALIVE const float *gw_capsule_by(void) {
    return board.by;
}
EMSCRIPTEN_KEEPALIVE const float *gw_capsule_radius(void) {
    return board.cr;
}

/* The board's extent: 0 left, 1 right, 2 floor, 3 top. */
EMSCRIPTEN_KEEPALIVE double gw_bound(int which) {
    switch (which) {
    case 0:
        return board.left;
    case 1:
        return board.right;
    case 2:
        return board.floor_y;
    default:
        return board.top;
    }
}

/* Bins: their number, and balls per bin (counted below the pins) as a uint32 array. */
EMSCRIPTEN_KEEPALIVE int gw_bin_count(void) {
    return created ? galton_bin_count(&board) : 0;
}
EMSCRIPTEN_KEEPALIVE const size_t *gw_bins(void) {
    if (created) galton_bins(&board, bins);
    return bins;
}

/* The share of the balls bin k should get: bin k holds the balls that went right k - 1 times
 * of `rows`, C(rows, k - 1) / 2^rows (0 for the first and last bin). */
EMSCRIPTEN_KEEPALIVE double gw_binomial(int k) {
    if (!created || k < 1 || k > board.p.rows + 1) return 0.0;
    return galton_binomial(board.p.rows, k - 1);
}
