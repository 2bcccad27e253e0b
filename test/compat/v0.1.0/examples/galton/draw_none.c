/* Built without cairo: no pictures. */
#include <stdio.h>

#include "draw.h"

int galton_draw_png(const galton *g, const char *path) {
    (void)g;
    fprintf(stderr, "galton: built without cairo (libcairo2-dev): no picture %s\n", path);
    return -1;
}
