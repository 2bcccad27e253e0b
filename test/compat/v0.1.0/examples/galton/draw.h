/* Pictures of the Galton board (cairo): the board, the balls, and the histogram of balls per
 * bin beside the binomial distribution. */
#ifndef GALTON_DRAW_H
#define GALTON_DRAW_H

#include "sim.h"

/* Writes a PNG of the board to `path`: 0 on success; -1 (with a message) on failure or when
 * the example was built without cairo. */
int galton_draw_png(const galton *g, const char *path);

#endif
