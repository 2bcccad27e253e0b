/* The scene's fine scan in lanes: for a block of circles, the cell of each centre in a fine
 * index (src/scene/scene_fine.c; kernel fine_cells); later, one gather of the cells' bit words,
 * the bit test, and the circles whose bit is set compressed into a list, all without a branch
 * per circle, then the ranks of their cells (fine_hits). AVX-512 (16 lanes, compress
 * instructions: src/batch/x86/scene_cells_avx512.c) and AVX2 (8 lanes, a table of permutations:
 * x86/scene_cells_avx2.c) have them, each compiled into its backend only; the backends of 4
 * lanes and the scalar one leave the table entries NULL, and src/scene/scene_collide.c scans for
 * them with its shared SIMDe code (four circles at once, then the bits one circle at a time).
 *
 * Same cells, so the same candidates on every backend: a centre's cell is
 * trunc(max(min((x - x0) * inv, nx - 1), 0)) per axis (float sub, mul, min, max, truncate, the
 * shared code's operations in the same order), and row * nx + column in integers (exact: nx * ny
 * < 2^24, where the shared code's float products are exact too). Lanes the index does not serve,
 * or whose centre lies outside the region, read no word. */
#ifndef C2D_BATCH_KERNELS_SCENE_H
#define C2D_BATCH_KERNELS_SCENE_H

#include "batch/kernels.h"

/* What the scan reads of a fine index (the fields of c2d_fine_index of the same names). */
typedef struct c2d_fine_grid {
    float x0, y0, inv_size;       /* cell of a centre: sub, mul, min, max, truncate */
    float lo_x, hi_x, lo_y, hi_y; /* the region */
    float rho;                    /* the radius bound */
    uint32_t nx, ny;              /* cells a row, rows (nx * ny < 2^24) */
    const uint64_t *bits;         /* one bit a cell */
    const uint32_t *base;         /* listed cells before each word */
    const uint32_t *slot;         /* asked for (prefetched) at each rank found */
    uint32_t empty;               /* a cell whose bit is never set (fine_cells' "no cell") */
} c2d_fine_grid;

/* The types of the kernels' fine_cells and fine_hits (batch/kernels.h says what they do). */
typedef size_t c2d_fine_cells_fn(const c2d_fine_grid *g, const c2d_circle_soa *circles,
                                 size_t first, size_t n, uint32_t *cell, uint32_t *slow);
typedef size_t c2d_fine_hits_fn(const c2d_fine_grid *g, const uint32_t *cell, size_t n,
                                uint32_t *hit, uint32_t *rank);

/* How far ahead (in circles) the scan asks memory for the circles' values: 2 KB of each array. */
#define C2D_FINE_SCAN_AHEAD 512

/* Room the scan's output arrays need past the block's circles (whole vectors are stored). */
enum { C2D_FINE_SCAN_PAD = 16 };

/* Per-backend names: c2d_kernels_avx512 gives c2d_kernels_avx512_fine_scan. */
#define C2D_SCENE_KERNEL_(table, name) table##_##name
#define C2D_SCENE_KERNEL(table, name) C2D_SCENE_KERNEL_(table, name)

#if defined(C2D_BACKEND_TABLE) && defined(C2D_LANES) && C2D_LANES >= 8 &&                          \
    (defined(__AVX512F__) || defined(__AVX2__))
/* The kernels' fine_cells and fine_hits, for backends of 8 and 16 lanes; backends of 4 lanes
 * and the scalar one leave them NULL (the scan's shared path serves them). */
C2D_INTERNAL size_t C2D_SCENE_KERNEL(C2D_BACKEND_TABLE, fine_cells)(const c2d_fine_grid *g,
                                                                    const c2d_circle_soa *circles,
                                                                    size_t first, size_t n,
                                                                    uint32_t *cell, uint32_t *slow);
C2D_INTERNAL size_t C2D_SCENE_KERNEL(C2D_BACKEND_TABLE, fine_hits)(const c2d_fine_grid *g,
                                                                   const uint32_t *cell, size_t n,
                                                                   uint32_t *hit, uint32_t *rank);
#define C2D_SCENE_FINE_CELLS C2D_SCENE_KERNEL(C2D_BACKEND_TABLE, fine_cells)
#define C2D_SCENE_FINE_HITS C2D_SCENE_KERNEL(C2D_BACKEND_TABLE, fine_hits)
#else
#define C2D_SCENE_FINE_CELLS NULL
#define C2D_SCENE_FINE_HITS NULL
#endif

#endif
