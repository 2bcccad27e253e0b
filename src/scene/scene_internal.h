/* Scenes (collide2d/scene.h): the scene structure, its memory, and the parts of the broad
 * phase shared by the files of src/scene/.
 *
 * A scene owns a copy of its capsules, a static index of them (for sweeps), and numbered
 * scratch slots for per-frame data. Other topics that hang per-frame work on a scene (circles
 * against circles, simulations) reserve their own slots from C2D_SCENE_SLOT_FREE on. */
#ifndef C2D_SCENE_INTERNAL_H
#define C2D_SCENE_INTERNAL_H

#include "collide2d/scene.h"
#include "scalar/reference.h"

/* Scratch slots. Collide frames use slots 0-5; slots from C2D_SCENE_SLOT_FREE up to
 * C2D_SCENE_SLOTS - 1 are free for other users of the scene. */
enum {
    C2D_SCENE_SLOT_CELLS = 0,  /* collide: cell starts of every level's grid */
    C2D_SCENE_SLOT_ORDER = 1,  /* collide: circle indices sorted by cell */
    C2D_SCENE_SLOT_POINTS = 2, /* collide: circle centres in cell order */
    C2D_SCENE_SLOT_KEYS = 3,   /* collide: cell of each circle */
    C2D_SCENE_SLOT_WILD = 4,   /* collide: circles tested against every capsule */
    C2D_SCENE_SLOT_SPARE = 5,
    C2D_SCENE_SLOT_FREE = 8, /* first slot for other topics */
    C2D_SCENE_SLOTS = 16
};

/* One scratch buffer: `bytes` usable bytes at `ptr` (NULL when never reserved). */
typedef struct c2d_scene_scratch {
    void *ptr;
    size_t bytes;
} c2d_scene_scratch;

/* A uniform grid over a rectangle: cell (cx, cy) covers
 * [x0 + cx*size, x0 + (cx+1)*size) x [y0 + cy*size, ...); points outside are clamped to the
 * border cells. The cell of a coordinate is monotone in it (float rounding is monotone), which
 * is all the queries rely on: a point inside a box lies in a cell between the box's corners'
 * cells. */
typedef struct c2d_grid {
    float x0, y0, inv_size; /* origin and 1 / cell size */
    float size;
    uint32_t nx, ny; /* cells per row and per column (>= 1) */
} c2d_grid;

/* Cell column of x (or row, with y0 and ny): floor((x - x0) * inv_size) clamped to [0, n-1].
 * Monotone in x; NaN maps to 0. */
static inline uint32_t c2d_grid_coord(float x, float x0, float inv_size, uint32_t n) {
    const float v = (x - x0) * inv_size;
    if (!(v > 0.0f)) return 0;
    if (v >= (float)(n - 1)) return n - 1;
    return (uint32_t)v;
}

/* The static index of the capsules, for sweeps: capsules listed in every grid cell their
 * (conservative) sweep box touches, in increasing index order; capsules whose box spans too
 * many cells, or is infinite, are in `everywhere` and tested against every circle. Capsules
 * with a NaN never hit and are in neither. */
typedef struct c2d_capsule_index {
    c2d_grid grid;
    uint32_t *cell_start; /* nx*ny + 1 offsets into `entries` */
    uint32_t *entries;    /* capsule indices */
    uint32_t *everywhere; /* capsule indices, increasing */
    size_t everywhere_count, entry_count;
    /* each capsule's sweep box (cull.h's c2d_sweep_capsule_boxes), by index */
    float *lo_x, *hi_x, *lo_y, *hi_y;
    bool empty; /* no capsule in the grid */
} c2d_capsule_index;

/* The binned frame of c2d_scene_bin(): which circles, and the per-frame index. */
typedef struct c2d_scene_frame {
    bool valid;             /* a bin succeeded and no capsule moved since */
    c2d_circle_soa circles; /* the binned set (pointers and count) */
    size_t level_count;     /* grids in use, by radius class */
    c2d_grid grid[8];       /* level l holds tame circles with radius <= max_radius[l] */
    float max_radius[8];    /* the largest radius binned into each level */
    size_t cell_first[8];   /* where each level's cell starts begin in the cells slot */
    size_t order_first[8];  /* where each level's circles begin in the order slot */
    size_t wild_count;      /* circles tested exactly against every capsule */
    bool census_tame;       /* no circle beyond C2D_TAME_LIMIT (for the full-scan path) */
} c2d_scene_frame;

struct c2d_scene {
    c2d_allocator allocator; /* never NULL hooks: malloc/free filled in */
    size_t capsule_count;
    float *ax, *ay, *bx, *by, *radius; /* the capsules (one block) */
    c2d_capsule_soa capsules;          /* a view of the arrays above */
    c2d_capsule_index index;
    c2d_scene_frame frame;
    c2d_scene_scratch scratch[C2D_SCENE_SLOTS];
};

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

/* Argument checks shared with the batch layer's rules: NULL first, then too large. */
C2D_INTERNAL c2d_status c2d_scene_check_circles(const c2d_circle_soa *c);
C2D_INTERNAL c2d_status c2d_scene_check_capsules(const c2d_capsule_soa *k);

/* The binning of c2d_scene_bin() after its arguments were checked. */
C2D_INTERNAL c2d_status c2d_scene_bin_circles(c2d_scene *s, const c2d_circle_soa *circles);
/* Contacts of capsules [first, first+n) against the binned circles: writes the first
 * `capacity`, returns the total. */
C2D_INTERNAL size_t c2d_scene_collide_binned(const c2d_scene *s, size_t first, size_t n,
                                             c2d_pair_contact *out, size_t capacity);
/* The sweep of circles [first, first+n) (arguments checked); out has n entries. */
C2D_INTERNAL void c2d_scene_sweep_circle_range(const c2d_scene *s, const c2d_circle_soa *circles,
                                               const float *move_x, const float *move_y,
                                               size_t first, size_t n, c2d_circle_toi *out);

#endif
