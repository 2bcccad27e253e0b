/* Backend dispatch: the kernel table of the active backend. */
#ifndef C2D_DISPATCH_H
#define C2D_DISPATCH_H

#include "collide2d/backend.h"
#include "batch/kernels.h"

/* The active backend's kernels; probes the CPU on first use. Never NULL. */
C2D_INTERNAL const c2d_kernels *c2d_active_kernels(void);

#endif
