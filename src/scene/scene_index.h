/* The static capsule index (scene_index.c): a uniform grid over the capsules' boxes, shared by
 * collides, sweeps and queries. It knows its capsules and allocator, not the scene. */
#ifndef C2D_SCENE_INDEX_H
#define C2D_SCENE_INDEX_H

#include "collide2d/scene.h"
#include "scalar/reference.h"
#include "scene/scene_grid.h"

/* One capsule listed in one cell, with its box (copied for locality). */
typedef struct c2d_index_entry {
    float lo_x, hi_x, lo_y, hi_y;
    uint32_t capsule;
} c2d_index_entry;

/* Capsules a cell holds inline (one 64-byte line of boxes); more go to its overflow list. */
#define C2D_CELL_SLOTS 4

/* The boxes of a cell's first capsules; unused slots hold an empty box (lo = +inf,
 * hi = -inf) that meets nothing, so a query tests all four without a branch. */
typedef struct c2d_index_cell {
    float lo_x[C2D_CELL_SLOTS], hi_x[C2D_CELL_SLOTS], lo_y[C2D_CELL_SLOTS], hi_y[C2D_CELL_SLOTS];
    uint32_t capsule[C2D_CELL_SLOTS]; /* the capsules of the slots */
    uint32_t first, end;              /* its overflow: entries[first .. end) */
    uint32_t count, fill;             /* capsules listed here; slots filled (while listing) */
    uint32_t pad[8];                  /* 128 bytes: two cache lines, fetched together */
} c2d_index_cell;

/* How the index holds a capsule. */
enum {
    C2D_KIND_GRID,       /* listed in the cells its box touches */
    C2D_KIND_EVERYWHERE, /* box infinite, huge, or over too many cells: tested against all */
    C2D_KIND_NEVER       /* a NaN: it hits nothing */
};

/* The static index of the capsules, shared by sweeps and collides. Every capsule has a box
 * (cull.h's sweep box, which also contains its collide culling box for radius 0); capsules of
 * kind GRID are listed, in increasing index order, in every cell their box touches. */
typedef struct c2d_capsule_index {
    c2d_grid grid;
    c2d_index_cell *cells; /* nx*ny cells, 128-byte aligned in cell_block */
    void *cell_block;
    c2d_index_entry *entries; /* overflow entries (entry_capacity allocated) */
    uint32_t *everywhere;     /* capsules of kind EVERYWHERE, increasing */
    size_t everywhere_count, entry_count, entry_capacity;
    size_t listed;                    /* capsules of kind GRID */
    double listed_box[4];             /* the box of their boxes (lo_x, hi_x, lo_y, hi_y): what
                                         a ray walks near, kept so a ray need not scan them */
    float *lo_x, *hi_x, *lo_y, *hi_y; /* each capsule's box, by index */
    unsigned char *kind;              /* each capsule's C2D_KIND_* */
} c2d_capsule_index;

/* Bit j set when slot j's box meets [lo_x, hi_x] x [lo_y, hi_y]. */
static inline unsigned c2d_cell_mask(const c2d_index_cell *c, float lo_x, float hi_x, float lo_y,
                                     float hi_y) {
    return c2d_slots_mask(c->lo_x, c->hi_x, c->lo_y, c->hi_y,
                          simde_mm_setr_ps(lo_x, hi_x, lo_y, hi_y));
}

/* Writing the slots that met a query without a branch a slot: for each 4-bit mask, the set
 * slots in order, then the others (so four writes always fill four entries), and how many
 * are set. A query writes all four and keeps the first c2d_slots_set[mask]. */
C2D_INTERNAL extern const unsigned char c2d_slot_order[16][4];
C2D_INTERNAL extern const unsigned char c2d_slots_set[16];

/* Circle i against four slots' capsules: all four written at capsule[n..n+3] in the order of
 * c2d_slot_order[mask] and i at circle[n..n+3] (room for four was made), no branch a slot;
 * returns n plus the slots that met, the ones kept. Candidate lists of the collide scan and of
 * the sweeps. */
static inline size_t c2d_write_slots(uint32_t *circle, uint32_t *capsule, size_t n, uint32_t i,
                                     const uint32_t slot[4], unsigned mask) {
    const unsigned char *order = c2d_slot_order[mask];
    simde_mm_storeu_si128((simde__m128i *)(void *)(circle + n), simde_mm_set1_epi32((int32_t)i));
    capsule[n] = slot[order[0]];
    capsule[n + 1] = slot[order[1]];
    capsule[n + 2] = slot[order[2]];
    capsule[n + 3] = slot[order[3]];
    return n + c2d_slots_set[mask];
}

/* Builds the index of `capsules` into *index (its arrays from the hooks `a`); on
 * C2D_ERROR_ALLOC nothing is allocated. c2d_capsule_index_free releases one. */
C2D_INTERNAL c2d_status c2d_capsule_index_build(const c2d_allocator *a,
                                                const c2d_capsule_soa *capsules,
                                                c2d_capsule_index *index);
C2D_INTERNAL void c2d_capsule_index_free(const c2d_allocator *a, c2d_capsule_index *index);
/* Updates the index of m capsules for capsules [first, first + moved->count) replaced by
 * `moved` (call it before copying them over the owner's). Allocates only when the overflow
 * outgrows its memory; C2D_ERROR_ALLOC leaves the index as it was. */
C2D_INTERNAL c2d_status c2d_capsule_index_move(const c2d_allocator *a, c2d_capsule_index *index,
                                               size_t m, size_t first,
                                               const c2d_capsule_soa *moved);

#endif
