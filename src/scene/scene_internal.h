/* Scenes (collide2d/scene.h): the scene structure, its memory, and the parts of the broad
 * phase shared by the files of src/scene/.
 *
 * A scene owns a copy of its capsules, a static index of them (collides and sweeps), and
 * numbered scratch slots for per-frame data. Other topics that hang per-frame work on a scene
 * (circles against circles, simulations) reserve their own slots from C2D_SCENE_SLOT_FREE on. */
#ifndef C2D_SCENE_INTERNAL_H
#define C2D_SCENE_INTERNAL_H

#include <simde/x86/sse2.h>

#include "collide2d/scene.h"
#include "core/filter_words.h"
#include "prefetch.h"
#include "scalar/reference.h"

/* Frame checks (meson option frame_checks): range calls compare a checksum of the binned
 * circles' values with the one taken when they were binned. Built without meson: on unless
 * NDEBUG is defined. */
#ifndef C2D_FRAME_CHECKS
#ifdef NDEBUG
#define C2D_FRAME_CHECKS 0
#else
#define C2D_FRAME_CHECKS 1
#endif
#endif

/* Scratch slots. Collide frames use slots 0-2, sweeps slot 7 (3-6 are spare); slots from
 * C2D_SCENE_SLOT_FREE up to C2D_SCENE_SLOTS - 1 are free for other users of the scene. */
enum {
    C2D_SCENE_SLOT_PARTS = 0,    /* collide: the parts of a frame (c2d_scene_part) */
    C2D_SCENE_SLOT_OFFSET = 1,   /* collide: each capsule's first contact */
    C2D_SCENE_SLOT_CONTACTS = 2, /* collide: pointers to the parts' contacts, by capsule then
                                    circle */
    C2D_SCENE_SLOT_MOVERS = 7,   /* sweeps: the capsules that move (c2d_scene_mover) */
    C2D_SCENE_SLOT_FREE = 8,     /* first slot for other topics */
    C2D_SCENE_SLOTS = 16
};

/* One scratch buffer: `bytes` usable bytes at `ptr` (NULL when never reserved). */
typedef struct c2d_scene_scratch {
    void *ptr;
    size_t bytes;
} c2d_scene_scratch;

/* A uniform grid over a rectangle: cell (cx, cy) covers [x0 + cx*size, x0 + (cx+1)*size) x
 * [y0 + cy*size, ...) (up to rounding); coordinates outside are clamped to the border cells.
 * The cell of a coordinate is monotone in it (float subtraction, multiplication by a positive
 * constant and clamping all are), which is all the queries rely on: a point inside a box lies
 * in a cell between its corners' cells, as long as both use c2d_grid_coord. */
typedef struct c2d_grid {
    float x0, y0, inv_size, size;
    uint32_t nx, ny; /* cells per row and per column (>= 1) */
} c2d_grid;

/* Cell column of v (or row): (v - v0) * inv_size clamped to [0, n-1], truncated. Branch-free
 * (min and max); NaN maps to some valid cell. */
static inline uint32_t c2d_grid_coord(float v, float v0, float inv_size, uint32_t n) {
    float t = (v - v0) * inv_size;
    const float last = (float)(n - 1);
    t = t < last ? t : last;
    t = t > 0.0f ? t : 0.0f;
    return (uint32_t)t;
}

/* c2d_grid_coord on four values: the same operations (sub, mul, min, max, truncate), so the
 * same cells. */
static inline simde__m128i c2d_grid_coord4(simde__m128 v, float v0, float inv_size, uint32_t n) {
    simde__m128 t =
        simde_mm_mul_ps(simde_mm_sub_ps(v, simde_mm_set1_ps(v0)), simde_mm_set1_ps(inv_size));
    t = simde_mm_min_ps(t, simde_mm_set1_ps((float)(n - 1)));
    t = simde_mm_max_ps(t, simde_mm_setzero_ps());
    return simde_mm_cvttps_epi32(t);
}

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
    float *lo_x, *hi_x, *lo_y, *hi_y; /* each capsule's box, by index */
    unsigned char *kind;              /* each capsule's C2D_KIND_* */
} c2d_capsule_index;

/* What one part of a frame found: a block's candidate (capsule, circle) pairs in circle order
 * (capsule UINT32_MAX marks a wild circle, tested against every listed capsule), and the
 * contacts of the exact tests of all its candidates so far, in circle order. */
typedef struct c2d_scene_part {
    uint32_t *pairs; /* 2 * capacity entries: the capsules, then the circles from [capacity] */
    size_t count, capacity;
    bool wild; /* some pair since the last flush is a wild circle's (capsule UINT32_MAX) */
    c2d_pair_contact *contacts; /* contact_capacity entries */
    size_t found, contact_capacity;
    size_t first, n;   /* its circles */
    uint32_t checksum; /* c2d_circle_checksum of its circles (C2D_FRAME_CHECKS) */
    size_t above_rho;  /* tame circles that missed the fine index by their radius */
    size_t above_big;  /* those that missed the big circles' index too */
    c2d_status status; /* C2D_ERROR_STATE until binned */
} c2d_scene_part;

/* Most parts a frame can be split into. */
#define C2D_SCENE_MAX_PARTS 64

/* Where a frame is in its protocol: nothing binned, begun (parts may be binned), binned
 * (range calls may run). */
typedef enum c2d_frame_state { C2D_FRAME_NONE, C2D_FRAME_BEGUN, C2D_FRAME_BINNED } c2d_frame_state;

/* The binned frame: which circles, how it was split, how far it got, and for which capsules.
 * A frame is current only while `generation` equals the scene's: a capsule move makes every
 * frame begun or binned before it stale (c2d_scene_frame_current). */
typedef struct c2d_scene_frame {
    c2d_circle_soa circles; /* the binned set (pointers and count) */
    size_t parts;           /* parts of the frame being binned */
    uint64_t generation;    /* the scene's generation at c2d_scene_frame_begin */
    uint32_t checksum;      /* the circles' checksum when binned (C2D_FRAME_CHECKS) */
    c2d_frame_state state;
    bool fine; /* binned with the fine index: its long capsules are binned too */
} c2d_scene_frame;

/* The fine index (scene_fine.c): for circles of radius at most rho, a grid of small cells
 * looked up by the circle's centre alone. Cell (cx, cy) lists, ascending, every capsule of kind
 * GRID (radius >= 0) that a circle of radius <= rho centred anywhere in the cell might touch,
 * so a small circle reads exactly one cell. Cells are found through one bit each: bits[w]
 * holds those of cells 64w .. 64w+63 and base[w] the number of listed cells before them (apart,
 * so the bits a frame reads stay compact); listed cell j (the rank of its bit) has slot[j]: its
 * one capsule, or C2D_FINE_MANY | e with multi[e] the count and multi[e + 1 ..] the capsules. */
#define C2D_FINE_MANY 0x80000000u

/* Moved capsules the fine index tracks before it is rebuilt: each is tested against every
 * circle of a frame instead (about 0.1 ns a circle), a rebuild costs far more. */
#define C2D_FINE_DIRTY_MAX 32

/* Long capsules (kind EVERYWHERE but tame: a floor as long as the world) the fine index lists;
 * with more, none is listed and the range calls test them against every circle. */
#define C2D_FINE_LONG_MAX 16

typedef struct c2d_fine_index {
    float x0, y0, inv_size; /* cell of a centre: as c2d_grid_coord (sub, mul, min, max, trunc) */
    float lo_x, hi_x, lo_y, hi_y; /* the region: centres outside it touch no listed capsule */
    float rho;                    /* the radius bound of the circles that use it */
    uint32_t nx, ny;              /* cells per row and column; nx * ny < 2^24 */
    uint32_t empty;               /* a cell index whose bit is always clear (outside the grid) */
    uint64_t *bits;               /* (nx * ny) / 64 + 2 words, then base */
    uint32_t *base;
    uint32_t *slot, *multi;         /* see above */
    uint32_t *start, *list, *cells; /* while building: offsets, capsules, (cell, capsule) */
    size_t word_capacity, slot_capacity, multi_capacity, start_capacity, list_capacity,
        cells_capacity;
    unsigned char *dirty; /* per capsule: moved since the build (its listings are stale) */
    size_t dirty_capacity, dirty_count;
    uint32_t dirty_list[C2D_FINE_DIRTY_MAX]; /* the moved capsules, dirty_count of them */
    uint32_t longs[C2D_FINE_LONG_MAX];       /* the long capsules listed (at the build) */
    size_t long_count;
    uint32_t age;        /* frames begun since the build */
    uint32_t pause;      /* frames to go on the coarse index (moves undid builds too soon) */
    uint32_t pause_next; /* the next pause (doubled while it recurs) */
    uint64_t generation; /* the scene generation it is current for */
    bool ready;          /* built, and usable while generation is the scene's */
    bool tried;          /* a build was attempted for `generation` (failed or declined) */
    bool regrow;         /* the last frame had many circles above rho: choose it again */
    bool declined;       /* the big circles' index could not be built for these capsules */
} c2d_fine_index;

/* Set bits of a 64-bit word (a bit trick where no instruction is sure to exist). */
static inline uint32_t c2d_popcount64(uint64_t x) {
#if defined(__POPCNT__) || defined(__aarch64__)
    return (uint32_t)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

/* The listed-cell number of cell c, whose bit is set. */
static inline uint32_t c2d_fine_rank(const c2d_fine_index *f, uint32_t c) {
    return f->base[c >> 6] + c2d_popcount64(f->bits[c >> 6] & ((UINT64_C(2) << (c & 63)) - 1)) - 1;
}

/* Four capsules of a sweep-index cell, with their index boxes (unused slots: an empty box,
 * lo = +inf, hi = -inf, that meets nothing). */
typedef struct c2d_sweep_group {
    float lo_x[4], hi_x[4], lo_y[4], hi_y[4];
    uint32_t capsule[4];
} c2d_sweep_group;

/* The sweep index (scene_sweep.c): for circles whose swept box is at most `gate` wide and high,
 * a grid looked up by the box's low corner alone. Cell c lists (group[start[c] .. start[c+1]),
 * four a group, ascending) every capsule of kind GRID whose box, grown by `span` to the left and
 * below, holds a point of the cell (by c2d_grid_coord, which is monotone, so no rounding escapes
 * it): a box no larger than gate < span that meets the capsule's box has its low corner there.
 * Built by c2d_scene_sweep() for the scene's generation; range calls read it when it is current. */
typedef struct c2d_sweep_index {
    c2d_grid grid;
    float gate, span;           /* the largest box that uses it; how far capsules were grown */
    uint32_t *start;            /* nx * ny + 1 offsets into group */
    c2d_sweep_group *group;     /* the listed capsules with their index boxes */
    uint64_t generation;        /* the scene generation it is current for */
    uint64_t seen;              /* 1 + the generation of the last sweep (built at the second) */
    uint32_t uses;              /* sweeps since the build */
    uint32_t checked;           /* `uses` when the circles' sizes were last checked */
    uint32_t pause, pause_next; /* sweeps to go without it (capsules moved soon after builds) */
    bool ready, tried;          /* built; a build was attempted for `generation` */
} c2d_sweep_index;

struct c2d_scene {
    c2d_allocator allocator; /* never NULL hooks: malloc/free filled in */
    size_t capsule_count;
    float *ax, *ay, *bx, *by, *radius; /* the capsules (one block) */
    uint32_t *filter;                  /* category words, then mask words, then the sensor
                                          bytes (one block; NULL until a set carries a filter) */
    c2d_capsule_soa capsules;          /* a view of the arrays above (filter pointers NULL
                                          while `filter` is) */
    c2d_capsule_index index;
    c2d_fine_index fine;     /* built lazily by frame begins (scene_fine.c) */
    c2d_fine_index fine_big; /* the same for circles above fine.rho (its dirty set unused) */
    c2d_sweep_index sweep;   /* built lazily by sweeps (scene_sweep.c) */
    uint64_t generation;     /* bumped by every capsule move: older frames are stale */
    c2d_scene_frame frame;
    c2d_scene_scratch scratch[C2D_SCENE_SLOTS];
    struct c2d_frozen *frozen; /* frozen balls (src/balls/frozen.c), NULL until the first */
};

/* Does a call of `circles` against the scene's capsules need the filter (collide2d/filter.h):
 * the circles carry filter words, or the scene has a filter block. Checked once a call; when
 * false, the calls take their unfiltered paths. */
static inline bool c2d_scene_filtered(const c2d_scene *s, const c2d_circle_soa *circles) {
    return s->filter != NULL || c2d_circle_soa_filtered(circles);
}

/* The scene's allocator hooks. */
C2D_INTERNAL void *c2d_scene_alloc(const c2d_scene *s, size_t bytes);
C2D_INTERNAL void c2d_scene_free(const c2d_scene *s, void *ptr);

/* Makes scratch slot `slot` hold at least `bytes` bytes (grown geometrically, kept) and sets
 * *ptr to it. Contents are not kept when it grows. C2D_ERROR_ALLOC: the slot is as before. */
C2D_INTERNAL c2d_status c2d_scene_reserve(c2d_scene *s, int slot, size_t bytes, void **ptr);

/* c2d_scene_reserve for n slots at once, all or nothing: on C2D_ERROR_ALLOC no slot changed. */
C2D_INTERNAL c2d_status c2d_scene_reserve_all(c2d_scene *s, size_t n, const int *slots,
                                              const size_t *bytes, void **ptrs);

/* Builds the capsule index of s's capsules into *index (allocating its arrays); on
 * C2D_ERROR_ALLOC nothing is allocated. c2d_capsule_index_free releases one. */
C2D_INTERNAL c2d_status c2d_capsule_index_build(const c2d_scene *s, c2d_capsule_index *index);
C2D_INTERNAL void c2d_capsule_index_free(const c2d_scene *s, c2d_capsule_index *index);
/* Updates the index for capsules [first, first + moved->count) replaced by `moved` (call it
 * before copying them into the scene). Allocates only when the overflow outgrows its memory;
 * C2D_ERROR_ALLOC leaves the index as it was. */
C2D_INTERNAL c2d_status c2d_capsule_index_move(const c2d_scene *s, c2d_capsule_index *index,
                                               size_t first, const c2d_capsule_soa *moved);
/* Makes the fine index fit the scene's capsules and this frame's circles (rebuilt when the
 * capsules moved or rho must grow; allocates only when it needs more than before). On any
 * failure, or when it would be too large, the index is left unready and the scan uses the
 * coarse index alone. */
C2D_INTERNAL void c2d_fine_prepare(c2d_scene *s, const c2d_circle_soa *circles);
C2D_INTERNAL void c2d_fine_free(const c2d_scene *s, c2d_fine_index *f);
/* Capsules [first, first + n) moved (after the scene's generation was bumped): a current fine
 * index marks them dirty, or becomes stale (rebuilt by the next frame) when too many are. */
C2D_INTERNAL void c2d_fine_moved(c2d_scene *s, size_t first, size_t n);
/* Is the fine index usable for the current capsules (and the big circles' one, which is used
 * only with it). */
static inline bool c2d_fine_ready(const c2d_scene *s) {
    return s->fine.ready && s->fine.generation == s->generation;
}
static inline bool c2d_fine_big_ready(const c2d_scene *s) {
    return c2d_fine_ready(s) && s->fine_big.ready && s->fine_big.generation == s->generation;
}
/* Does a usable fine index have dirty capsules; is capsule k one (its scan candidates are then
 * ignored: the frame tests it against every circle instead). */
static inline bool c2d_fine_dirty_any(const c2d_scene *s) {
    return s->fine.dirty_count > 0 && c2d_fine_ready(s);
}
static inline bool c2d_fine_dirty(const c2d_scene *s, size_t k) {
    return c2d_fine_dirty_any(s) && s->fine.dirty[k];
}
/* Is capsule k one of the long capsules the fine index lists (s->fine's list, shared by the
 * big circles' index). */
static inline bool c2d_fine_long(const c2d_scene *s, size_t k) {
    for (size_t j = 0; j < s->fine.long_count; j++)
        if (s->fine.longs[j] == k) return true;
    return false;
}

/* Cell span of a box, and its cell count. */
typedef struct c2d_cell_span {
    uint32_t x0, x1, y0, y1;
} c2d_cell_span;
static inline c2d_cell_span c2d_grid_span(const c2d_grid *g, double lo_x, double hi_x, double lo_y,
                                          double hi_y) {
    return (c2d_cell_span){c2d_grid_coord(lo_x, g->x0, g->inv_size, g->nx),
                           c2d_grid_coord(hi_x, g->x0, g->inv_size, g->nx),
                           c2d_grid_coord(lo_y, g->y0, g->inv_size, g->ny),
                           c2d_grid_coord(hi_y, g->y0, g->inv_size, g->ny)};
}
static inline size_t c2d_span_cells(const c2d_cell_span *c) {
    return (size_t)(c->x1 - c->x0 + 1) * (c->y1 - c->y0 + 1);
}
/* Is cell (cx, cy) the one cell where a pair of boxes is reported: the cell of the low corner
 * of their overlap (a_lo = one box's low corner, b_lo = the other's), which both boxes cover,
 * so a pair seen from several shared cells is kept exactly once. */
static inline bool c2d_grid_owns(const c2d_grid *g, uint32_t cx, uint32_t cy, float a_lo_x,
                                 float a_lo_y, float b_lo_x, float b_lo_y) {
    const float ox = a_lo_x > b_lo_x ? a_lo_x : b_lo_x;
    const float oy = a_lo_y > b_lo_y ? a_lo_y : b_lo_y;
    return c2d_grid_coord(ox, g->x0, g->inv_size, g->nx) == cx &&
           c2d_grid_coord(oy, g->y0, g->inv_size, g->ny) == cy;
}
/* Bit j set when box j of four (lo_x[j], hi_x[j], lo_y[j], hi_y[j]) meets the box held in one
 * vector as (lo_x, hi_x, lo_y, hi_y): four boxes at once (SIMDe: SSE on x86, NEON on AArch64),
 * the query box's bounds splat by shuffles. A NaN compares false, as in scalar code. */
static inline unsigned c2d_slots_mask(const float *lo_x, const float *hi_x, const float *lo_y,
                                      const float *hi_y, simde__m128 box) {
    const simde__m128 bx0 = simde_mm_shuffle_ps(box, box, SIMDE_MM_SHUFFLE(0, 0, 0, 0));
    const simde__m128 bx1 = simde_mm_shuffle_ps(box, box, SIMDE_MM_SHUFFLE(1, 1, 1, 1));
    const simde__m128 by0 = simde_mm_shuffle_ps(box, box, SIMDE_MM_SHUFFLE(2, 2, 2, 2));
    const simde__m128 by1 = simde_mm_shuffle_ps(box, box, SIMDE_MM_SHUFFLE(3, 3, 3, 3));
    const simde__m128 x = simde_mm_and_ps(simde_mm_cmple_ps(bx0, simde_mm_loadu_ps(hi_x)),
                                          simde_mm_cmpge_ps(bx1, simde_mm_loadu_ps(lo_x)));
    const simde__m128 y = simde_mm_and_ps(simde_mm_cmple_ps(by0, simde_mm_loadu_ps(hi_y)),
                                          simde_mm_cmpge_ps(by1, simde_mm_loadu_ps(lo_y)));
    return (unsigned)simde_mm_movemask_ps(simde_mm_and_ps(x, y));
}

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

/* A query box spanning more cells than this visits every capsule instead. */
#define C2D_SCENE_SPAN_LIMIT 64

/* Argument checks shared with the batch layer's rules: NULL first, then too large. */
C2D_INTERNAL c2d_status c2d_scene_check_circles(const c2d_circle_soa *c);
C2D_INTERNAL c2d_status c2d_scene_check_capsules(const c2d_capsule_soa *k);

/* The three steps of binning (arguments checked): begin (reserves the parts), each part
 * (any thread; may grow its own buffer), end (sorts the candidates by capsule). Begin makes
 * the frame C2D_FRAME_BEGUN (NONE when it fails), end makes it BINNED once every part is
 * binned. Callers check the order with c2d_scene_frame_current. */
C2D_INTERNAL c2d_status c2d_scene_frame_begin(c2d_scene *s, const c2d_circle_soa *circles,
                                              size_t parts);
C2D_INTERNAL c2d_status c2d_scene_frame_part(c2d_scene *s, size_t part);
C2D_INTERNAL c2d_status c2d_scene_frame_end(c2d_scene *s);
/* A checksum of circles [first, first + n): the sum (mod 2^32) over i of a mix of i and the
 * bits of x[i], y[i] and radius[i], so the sums of consecutive ranges add up to the whole
 * set's in any split. Changing any one value always changes it; several changes go unseen
 * with a chance near 2^-32. About 0.7 ns a circle on x86-64 (SSE2 or NEON through SIMDe). */
C2D_INTERNAL uint32_t c2d_circle_checksum(const c2d_circle_soa *c, size_t first, size_t n);
/* Is the frame in `state` and begun since the last capsule move. */
static inline bool c2d_scene_frame_current(const c2d_scene *s, c2d_frame_state state) {
    return s->frame.state == state && s->frame.generation == s->generation;
}
/* Contacts of capsules [first, first+n) against the binned circles (copied from the binned
 * contacts; capsules of kind EVERYWHERE tested here): writes the first `capacity`, returns the
 * total. */
C2D_INTERNAL size_t c2d_scene_collide_binned(const c2d_scene *s, size_t first, size_t n,
                                             c2d_pair_contact *out, size_t capacity);
/* A capsule that moves during a sweep, with its sweep box grown to cover the move
 * (c2d_sweep_boxes_add_moves). */
typedef struct c2d_scene_mover {
    float lo_x, hi_x, lo_y, hi_y;
    uint32_t capsule;
} c2d_scene_mover;

/* The capsule moves of a sweep: every capsule's move, and the capsules whose move is not zero
 * (NaN included), which the index, built for the capsules at rest, cannot stand for. */
typedef struct c2d_scene_movers {
    const float *move_x, *move_y;
    const c2d_scene_mover *list;
    size_t count;
} c2d_scene_movers;

/* Makes the sweep index fit the scene's capsules and these circles' swept boxes (built when
 * missing or stale, unless capsules keep moving; any failure leaves it unready, and sweeps use
 * the coarse index alone). c2d_sweep_index_free releases it. */
C2D_INTERNAL void c2d_sweep_prepare(c2d_scene *s, const c2d_circle_soa *circles,
                                    const float *move_x, const float *move_y);
C2D_INTERNAL void c2d_sweep_index_free(const c2d_scene *s, c2d_sweep_index *w);

/* The sweep of circles [first, first+n) (arguments checked); out has n entries. */
C2D_INTERNAL void c2d_scene_sweep_circle_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                               const float *move_x, const float *move_y,
                                               size_t first, size_t n, c2d_circle_toi *out);
/* The same against capsules that move (movers NULL: c2d_scene_sweep_circle_range): the
 * answer of c2d_batch_sweep_moving_capsules() for those circles. */
C2D_INTERNAL void c2d_scene_sweep_moving_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                               const float *move_x, const float *move_y,
                                               const c2d_scene_movers *movers, size_t first,
                                               size_t n, c2d_circle_toi *out);

#endif
