/* The library's version at run time: the macros of the headers it was built with. */
#include "collide2d/version.h"

uint32_t c2d_version(void) {
    return C2D_VERSION_NUMBER;
}

const char *c2d_version_string(void) {
    return C2D_VERSION_STRING;
}
