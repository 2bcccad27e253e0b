/* Shared helpers of the ball tests: ball sets, the reference answers built from the public
 * scalar functions only (c2d_collide_circles, c2d_sweep_circles), and the check that runs the
 * batch and scene calls on every backend and compares them with the reference byte for byte. */
#ifndef C2D_TEST_BALLS_CHECK_H
#define C2D_TEST_BALLS_CHECK_H

#include "batch_check.h"

/* Balls with their moves, and optional filter words (NULL until balls_filter). */
typedef struct ball_set {
    size_t n;
    float *x, *y, *r, *mx, *my;
    uint32_t *category, *mask;
    c2d_circle_soa soa;
} ball_set;

/* n balls, every value 0. Aborts on failure. */
void balls_init(ball_set *s, size_t n);
void balls_free(ball_set *s);

/* Generators. Centres uniform in [0, span]^2, radii in [rlo, rhi], moves in [-move, move]^2. */
void balls_random(ball_set *s, c2d_rng *rng, float span, float rlo, float rhi, float move);
/* Hexagonal packing, rows of `per_row`, spacing d, radius r (overlap when 2r > d). */
void balls_hex(ball_set *s, size_t per_row, float d, float r, float move, c2d_rng *rng);
/* About `percent` % of all values replaced by special ones (NaN, infinities, huge, ...). */
void balls_sprinkle(ball_set *s, c2d_rng *rng, unsigned percent, bool tame);

/* Hostile set number k (of 0..3): random balls (span 10 or 100), `percent` % special values
 * (tame ones for odd k), every 11th radius negated, every `big_every`-th from the 5th a radius
 * of 40 (the grids' special balls). */
void balls_hostile(ball_set *s, c2d_rng *rng, unsigned k, unsigned percent, size_t big_every);

/* Random filter words on every ball (soa.category and soa.mask point at them): `bits` layers
 * (1..32), each word a random subset of them, with 0 and C2D_FILTER_ALL mixed in. */
void balls_filter(ball_set *s, c2d_rng *rng, unsigned bits);

/* Whether balls i and j of the set meet (collide2d/filter.h; NULL words: every layer). */
bool balls_meet(const ball_set *s, size_t i, size_t j);

/* The reference: every overlapping pair a < b that the filter allows, by a then b (*out
 * malloc'd), and each ball's earliest sweep hit over the balls it meets (out has n entries). */
size_t balls_ref_collide(const ball_set *s, c2d_circle_pair_contact **out);
void balls_ref_sweep(const ball_set *s, c2d_circle_hit *out);

bool same_ball_pair(const c2d_circle_pair_contact *a, const c2d_circle_pair_contact *b);
bool same_ball_hit(const c2d_circle_hit *a, const c2d_circle_hit *b);

/* c2d_batch_collide_circles and c2d_scene_collide_circles on every backend against the
 * reference: full output (canaries after it), every capacity near the total, capacity 0 with
 * and without an output (size query); then both sweeps. Asserts on any difference. Returns
 * the total number of pairs. */
size_t check_balls(const ball_set *s, const char *label);

#endif
