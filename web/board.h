/* The web page's Galton board on the world (collide2d/world.h): pins and walls as static
 * capsules, a sensor in each bin counting its balls from enter and exit events, balls dropped
 * a few at a time at the top. The same functions drive the page (web/board.c compiled with
 * emscripten, exported to JavaScript) and the native program web/board_main.c, which prints the
 * world hash the page shows: `galton_world --balls B --rows R --seed S --steps N`.
 * Lengths in metres (the world's defaults), one step of 1/60 s. */
#ifndef GW_BOARD_H
#define GW_BOARD_H

#include <stdint.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define GW_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define GW_EXPORT
#endif

/* Selects the backend named `name` ("auto", "scalar", "wasm_simd128", ...); 0 on success. */
GW_EXPORT int gw_select_backend(const char *name);
/* The active backend's name. */
GW_EXPORT const char *gw_backend(void);
/* (Re)builds the board: `balls` balls (1 to 20,000) through `rows` rows of pins (2 to 40, even),
 * spawn jitter from `seed`; the world hash and the bin counts are kept after step `hash_step`.
 * 0 on success, -1 on a bad value or a failed world call. */
GW_EXPORT int gw_create(int balls, int rows, unsigned seed, int hash_step);
/* Runs `n` steps of 1/60 s; returns how many ran (-1 on an error). */
GW_EXPORT int gw_step(int n);
/* Steps run so far. */
GW_EXPORT double gw_steps(void);
/* The step whose hash gw_hash_at() gives, and that hash as 16 hexadecimal digits ("" before). */
GW_EXPORT int gw_hash_step(void);
GW_EXPORT const char *gw_hash_at(void);
/* The world hash now, as 16 hexadecimal digits. */
GW_EXPORT const char *gw_hash(void);
/* Balls dropped so far, balls in all, balls awake. */
GW_EXPORT int gw_ball_count(void);
GW_EXPORT int gw_ball_total(void);
GW_EXPORT int gw_awake_count(void);
/* Refreshes the ball arrays below (c2d_world_get_balls, and an awake flag a ball) and returns
 * how many balls there are; the pointers stay valid until the next gw_step or gw_create. */
GW_EXPORT int gw_balls(void);
GW_EXPORT const float *gw_ball_x(void);
GW_EXPORT const float *gw_ball_y(void);
GW_EXPORT const uint8_t *gw_ball_awake(void);
GW_EXPORT double gw_ball_radius(void);
/* The static capsules (walls, dividers, pins) for drawing: count and arrays; kind 0 wall or
 * floor, 1 bin divider, 2 pin. */
GW_EXPORT int gw_capsule_count(void);
GW_EXPORT const float *gw_capsule_ax(void);
GW_EXPORT const float *gw_capsule_ay(void);
GW_EXPORT const float *gw_capsule_bx(void);
GW_EXPORT const float *gw_capsule_by(void);
GW_EXPORT const float *gw_capsule_radius(void);
GW_EXPORT const uint8_t *gw_capsule_kind(void);
/* The board's extent: 0 left, 1 right, 2 floor, 3 top. */
GW_EXPORT double gw_bound(int which);
/* Bins: their number, and the balls in each (the sensors' enters minus exits) now and at step
 * gw_hash_step() (int32 arrays). */
GW_EXPORT int gw_bin_count(void);
GW_EXPORT const int32_t *gw_bins(void);
GW_EXPORT const int32_t *gw_bins_at(void);

#endif
