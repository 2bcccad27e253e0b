/* What the two x86 scans of the scene's fine index share (x86/scene_cells_avx512.c and
 * x86/scene_cells_avx2.c): the circles asked for ahead, and the ranks of the hits' cells. */
#ifndef C2D_BATCH_X86_SCENE_CELLS_H
#define C2D_BATCH_X86_SCENE_CELLS_H

#include "batch/kernels_scene.h"

/* Circles a scan asks memory for ahead of the one it reads (their x, y and radius; the hardware
 * prefetcher alone left the scan waiting on them). */
enum { AHEAD = C2D_FINE_SCAN_AHEAD };

/* Asks memory for circle i + AHEAD's values, when there is one. */
static inline void circles_ahead(const c2d_circle_soa *c, size_t i) {
    if (i + AHEAD < c->count) {
        __builtin_prefetch(c->x + i + AHEAD);
        __builtin_prefetch(c->y + i + AHEAD);
        __builtin_prefetch(c->radius + i + AHEAD);
    }
}

/* Ranks of the hits' cells (rank[a] holds the cell on entry), and their slots asked for. */
static inline void ranks(const c2d_fine_grid *g, uint32_t *rank, size_t nh) {
    const uint64_t *bits = g->bits;
    const uint32_t *base = g->base;
    for (size_t a = 0; a < nh; a++) {
        const uint32_t k = rank[a], w = k >> 6;
        rank[a] =
            base[w] + (uint32_t)__builtin_popcountll(bits[w] & ((UINT64_C(2) << (k & 63)) - 1)) - 1;
        __builtin_prefetch(&g->slot[rank[a]]);
    }
}

#endif
