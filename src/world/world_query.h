/* World queries (collide2d/world.h): a ray's first hit, and the balls and capsules in a box, a
 * disc or at a point, by id.
 *
 * Every (query, shape) pair is decided by the library's scalar predicate on the world's own
 * values (c2d_ray_circle / c2d_ray_capsule, c2d_overlap_box_circle / c2d_overlap_box_capsule,
 * c2d_overlap_circles / c2d_overlap_circle_capsule, c2d_point_in_capsule), so the answer is
 * that of a loop over every ball and capsule. The indexes only find candidates, generously
 * (every bound grown by a margin far above float rounding), and never decide a pair:
 *   - sleeping balls: the frozen index of balls_scene (dense index = frozen id), through
 *     c2d_scene_collide_frozen (regions) and c2d_scene_sweep_frozen (rays: a circle of radius 0,
 *     which is c2d_ray_circle's definition);
 *   - awake balls: a grid of ids (c2d_world_query_grid_build), built by the first query after a
 *     step, plus the balls noted since (c2d_world_query_note_ball: added, moved or woken);
 *   - capsules: static_scene and sensor_scene through their indexes, the kinematic ones
 *     through a scene of where the last step left them (c2d_world_query_kinematic_scene);
 *     every capsule one by one while the scenes are stale (capsules_dirty).
 * A ball may be found twice (asleep now but awake at the grid's build, or noted after it): the
 * ids are sorted and repeats dropped. Ids, not dense indices, are kept in the grid, so removals
 * (which move the last balls into the holes) never make it wrong: a removed id is not found.
 *
 * Why the first query builds the grid and not the step: the build costs O(balls / 8 + awake)
 * (0.4 ms of a 7.5 ms falling step at 65,536 balls), which a world that is never queried should
 * not pay; and the queries cannot run at once anyway (c2d_scene_collide_frozen writes the
 * frozen index's scratch), so a query may as well write the grid: one query at a time, world.h
 * says so. (A step that calls c2d_world_query_grid_build at its end makes the queries read
 * only.) The queries allocate (w->allocator) for the grid, and when more shapes than their
 * stack buffers hold lie near the query (freed before returning).
 *
 * Four files: the grid of the awake balls (world_query_grid.c), the kinematic capsules' index
 * (world_query_kinematic.c), the region queries (world_query_region.c) and the ray
 * (world_query_ray.c); this header holds what they share. */
#ifndef C2D_WORLD_QUERY_H
#define C2D_WORLD_QUERY_H

#include "world_internal.h"

/* The query's own id for the frozen index: above every dense index (< 2^24), never C2D_NONE. */
#define QUERY_ID (UINT32_MAX - 1u)

/* Stack room before a query allocates. */
enum { STACK_IDS = 256, STACK_CONTACTS = 64, STACK_PAIRS = 128, BOX_TILES = 32 };

/* ---- the grid of awake balls --------------------------------------------------------------- */

/* Awake balls by the cell of their centre, on levels of cells of side h, 4h, 16h, ... over the
 * box of the centres (a centre outside it would be clamped into the border cell; queries clamp
 * the same way). A ball lives on the finest level whose cells are at least its diameter, so it
 * lies within its level's r_max of its cell; a ball too large for every level, or with a value
 * that is not finite, goes to the `big` list, tested by every query. */
#define GRID_LEVELS 8

typedef struct grid_level {
    double inv_h, h;
    uint32_t nx, ny;
    size_t base, count; /* its cells are cell_start[base .. base + nx ny]; balls held */
    float r_max;
} grid_level;

typedef struct query_grid {
    bool usable; /* false: stale (the next query builds it), or its build ran out of memory */
    double x0, y0, x1, y1; /* the box of the binned centres */
    grid_level level[GRID_LEVELS];
    uint32_t levels;      /* bit L: level L holds a ball */
    double scale;         /* level 0's first cell at the last build with awake balls, or sampled */
    uint32_t *cell_start; /* every level's cells, + 1 */
    uint32_t *cell_ids;   /* ids, by cell */
    size_t binned, cell_capacity, id_capacity;
    uint32_t *big;
    size_t big_count, big_capacity;
    uint32_t *extra; /* ids of the balls noted since the build */
    size_t extra_count, extra_capacity;
    uint32_t *dense, *cell_of; /* build scratch: the awake balls' dense indices, their cells */
    size_t dense_capacity, cell_of_capacity;
} query_grid;

/* The grid when it holds every awake ball, built first when a step ran since; NULL when out of
 * memory: then the queries test every ball. */
C2D_INTERNAL const query_grid *c2d_world_query_grid_fresh(const c2d_world *w);

/* The kinematic capsules' scene (capsule j is kinematic_list[j]), built first when a step ran
 * since; NULL when there are none, the capsule scenes are stale, or out of memory: then the
 * queries test every kinematic capsule (world_query_kinematic.c). */
C2D_INTERNAL const c2d_scene *c2d_world_query_kinematic_scene(const c2d_world *w);

/* A window of cells of one level: [ix0, ix1] x [iy0, iy1]. */
typedef struct grid_window {
    uint32_t ix0, iy0, ix1, iy1;
} grid_window;

/* Level lv's cells around the double box, grown by the level's r_max and the margin; returns
 * how many. */
C2D_INTERNAL double c2d_world_query_window(const query_grid *g, const grid_level *lv, double lo_x,
                                           double lo_y, double hi_x, double hi_y, double margin,
                                           grid_window *win);

/* The ids of the window's cells: [cell_start[first], cell_start[first + ...]) a row. */
#define FOR_WINDOW_IDS(g, lv, win, i)                                                              \
    for (uint32_t iy_ = (win).iy0; iy_ <= (win).iy1; iy_++)                                        \
        for (size_t row_ = (lv)->base + (size_t)iy_ * (lv)->nx,                                    \
                    i = (g)->cell_start[row_ + (win).ix0];                                         \
             i < (g)->cell_start[row_ + (win).ix1 + 1]; i++)

/* ---- results and regions (world_query_region.c) -------------------------------------------- */

/* A growing list of ids: a stack buffer first, then the world's allocator. */
typedef struct id_list {
    uint32_t *v;
    size_t n, cap;
    const c2d_allocator *a;
    bool heap, failed;
} id_list;

C2D_INTERNAL void c2d_world_query_ids_init(id_list *l, uint32_t *stack, size_t cap,
                                           const c2d_allocator *a);
C2D_INTERNAL void c2d_world_query_ids_release(id_list *l);

typedef enum region_kind { REGION_BOX, REGION_DISC, REGION_POINT } region_kind;

/* A region query: its shape, its words, and a box around it in double ([lo, hi], finite). */
typedef struct region {
    region_kind kind;
    c2d_box box;
    c2d_circle disc; /* the disc; the point as a disc of radius 0 */
    uint32_t category, mask;
    double lo_x, lo_y, hi_x, hi_y;
    double margin; /* far above the rounding of any predicate near the region */
} region;

/* The frozen balls that touch any of the discs (x, y, r)[0 .. n), each given to the region's
 * predicate. */
C2D_INTERNAL void c2d_world_query_frozen_candidates(const c2d_world *w, const region *q,
                                                    const float *x, const float *y, const float *r,
                                                    size_t n, id_list *out);

/* A margin far above the rounding of any predicate near coordinates of size `size`. */
C2D_INTERNAL double c2d_world_query_margin(double size);

#endif
