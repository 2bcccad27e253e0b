/* The scene's fine scan in lanes (batch/kernels_scene.h): for a block of circles, the cell of
 * each centre in a fine index (fine_cells); later, one gather of the cells' bit words, the bit
 * test, and the circles whose bit is set compressed into a list, all without a branch per
 * circle, then the ranks of their cells (fine_hits). Compiled once per backend like kernels.c:
 * AVX-512 (16 lanes, compress instructions) and AVX2 (8 lanes, a table of permutations) have it;
 * the backends of 4 lanes and the scalar one leave the table entry NULL, and
 * src/scene/scene_collide.c scans for them with its shared code (four circles at once, then the
 * bits one circle at a time).
 *
 * Same cells, so the same candidates on every backend: a centre's cell is
 * trunc(max(min((x - x0) * inv, nx - 1), 0)) per axis (float sub, mul, min, max, truncate, the
 * shared code's operations in the same order), and row * nx + column in integers (exact: nx * ny
 * < 2^24, where the shared code's float products are exact too). Lanes the index does not serve,
 * or whose centre lies outside the region, read no word. */
#include "batch/kernels_scene.h"

#if C2D_LANES >= 8 && (defined(__AVX512F__) || defined(__AVX2__))
#include "batch/cull.h"

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
static void ranks(const c2d_fine_grid *g, uint32_t *rank, size_t nh) {
    const uint64_t *bits = g->bits;
    const uint32_t *base = g->base;
    for (size_t a = 0; a < nh; a++) {
        const uint32_t k = rank[a], w = k >> 6;
        rank[a] =
            base[w] + (uint32_t)__builtin_popcountll(bits[w] & ((UINT64_C(2) << (k & 63)) - 1)) - 1;
        __builtin_prefetch(&g->slot[rank[a]]);
    }
}

/* The kernels themselves are written for one instruction set each (batch/x86/). */
#if C2D_LANES == 16
#include "batch/x86/scene_cells_avx512.h"
#else
#include "batch/x86/scene_cells_avx2.h"
#endif

#else
/* No kernel for this backend (ISO C wants a declaration in every file). */
typedef int c2d_no_fine_scan;
#endif
