/* The batch layer's backends: one internal table of kernels per backend, the active one picked
 * by src/batch/dispatch.c. The public calls are the dispatch on top of it: they check every argument
 * before they call a kernel, so kernels see valid pointers and counts <= UINT32_MAX. */
#ifndef C2D_BATCH_KERNELS_H
#define C2D_BATCH_KERNELS_H

#include "collide2d/balls.h"
#include "collide2d/batch.h"
#include "scalar/reference.h"

struct c2d_ball_bins;
struct c2d_ball_cells;
struct c2d_ball_pair;
struct c2d_ball_sweep_cells;
struct c2d_fine_grid;

typedef struct c2d_kernels {
    /* Whole calls: the batch layer's entry points (batch.c, balls.c) check every argument,
     * then call these; their answers are the public calls' answers. */
    /* All pairs, capsule-major; writes the first `capacity` contacts, returns the total. */
    size_t (*collide)(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                      c2d_pair_contact *out, size_t capacity);
    /* Listed pairs (indices already checked), input order; as collide. */
    size_t (*collide_pairs)(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules,
                            const uint32_t *circle_index, const uint32_t *capsule_index,
                            size_t pair_count, c2d_pair_contact *out, size_t capacity);
    /* Earliest hit per circle; writes all circles->count entries of out. capsule_move_x/y:
     * both NULL (static capsules) or both given (c2d_moving_capsule_sweep). */
    void (*sweep)(const c2d_circle_soa *circles, const float *move_x, const float *move_y,
                  const c2d_capsule_soa *capsules, const float *capsule_move_x,
                  const float *capsule_move_y, c2d_circle_toi *out);
    /* Balls against balls (src/batch/kernels_balls.c): the pairs a < b for a in [first, end),
     * ordered by a then b, appended after the `total` found so far; returns the new total. */
    size_t (*collide_circles)(const c2d_circle_soa *circles, size_t first, size_t end,
                              c2d_circle_pair_contact *out, size_t capacity, size_t total);
    /* out[i] for i in [first, end): ball i's earliest sweep hit over every j != i. */
    void (*sweep_circles)(const c2d_circle_soa *circles, const float *move_x, const float *move_y,
                          size_t first, size_t end, c2d_circle_hit *out);
    /* Steps of the scene's and the ball grid's own algorithms (src/scene/, src/balls/), which
     * the public calls of those layers run in order. */
    /* Listed (circle, capsule) pairs, indices already checked, in any order: each pair's sweep,
     * kept by c2d_keep_smallest() in out[circle - base] and nan[circle - base] (the scene
     * sweeps' candidates, which come cell by cell rather than in capsule order). Capsule moves
     * as in `sweep` (NULL: static). */
    void (*sweep_pairs)(const c2d_circle_soa *circles, const float *move_x, const float *move_y,
                        const c2d_capsule_soa *capsules, const float *capsule_move_x,
                        const float *capsule_move_y, const uint32_t *circle_index,
                        const uint32_t *capsule_index, size_t pair_count, size_t base,
                        c2d_circle_toi *out, unsigned char *nan);
    /* The ball grid (src/balls/ball_grid.c; types in batch/kernels_balls.h): every pair of
     * overlapping grid balls once, as (min, max) of their indices, in cell order; writes the
     * first `capacity`, returns how many there are. */
    size_t (*ball_cell_pairs)(const struct c2d_ball_cells *cells, struct c2d_ball_pair *pairs,
                              size_t capacity);
    /* ball_cell_pairs also adds each pair (a, b) it finds to cells->sizes[a] (the caller
     * zeroed them), so the grid needs no pass to count its groups */
    bool ball_pairs_sized;
    /* The contacts of listed pairs (a < b, already in output order), appended after `total`
     * as collide_circles appends them; returns the new total. */
    size_t (*ball_pair_contacts)(const c2d_circle_soa *circles, const struct c2d_ball_pair *pairs,
                                 size_t count, c2d_circle_pair_contact *out, size_t capacity,
                                 size_t total);
    /* Every grid ball's earliest sweep hit among the grid balls, as sweep_circles gives it,
     * into out[id]: only the hits are written (cells->state; the caller writes "no hit" into
     * the slots left unwritten, then sweeps against the special balls). */
    void (*ball_cell_sweeps)(const struct c2d_ball_sweep_cells *cells,
                             const c2d_circle_soa *circles, const float *move_x,
                             const float *move_y, c2d_circle_hit *out);
    /* The scene's fine scan (batch/kernels_scene.h), circles first .. first+n-1 (n <= 65535):
     * fine_cells writes cell[t] for t < n, the cell of circle first+t's centre, or g->empty when
     * the index does not serve the circle or the centre lies outside the region; slow[] gets
     * the offsets t (ascending) of the circles it does not serve (not 0 <= r <= rho with |x|
     * and |y| tame: NaN included); returns their count. fine_hits, given those cells, writes
     * the offsets t whose cell's bit is set (ascending) to hit[] and the cells' ranks to
     * rank[], asks memory for their slots, and returns their count. Each output holds
     * C2D_FINE_SCAN_PAD entries past its count. NULL on backends that leave the scan to its
     * shared path. */
    size_t (*fine_cells)(const struct c2d_fine_grid *g, const c2d_circle_soa *circles, size_t first,
                         size_t n, uint32_t *cell, uint32_t *slow);
    size_t (*fine_hits)(const struct c2d_fine_grid *g, const uint32_t *cell, size_t n,
                        uint32_t *hit, uint32_t *rank);
    /* The ball grid's binning for contacts (types in batch/kernels_balls.h), first pass: each
     * ball's kind c2d_ball_kind into cell_of, and the grid balls' box and largest radius into
     * box as c2d_ball_box_add gives them from (+inf, -inf, +inf, -inf, 0). */
    void (*ball_classify)(const c2d_circle_soa *circles, uint32_t *cell_of, float box[5]);
    /* Second pass: each grid ball's (cell_of[i] == C2D_BALL_GRID) c2d_ball_bin_one into
     * cell_of[i], and count[cell + 2]++ for each cell number; other entries left alone. */
    void (*ball_bin)(const c2d_circle_soa *circles, const struct c2d_ball_bins *bins,
                     uint32_t *cell_of, uint32_t *count);
    /* The ball grid's binning for sweeps, first pass: each ball's c2d_ball_sweep_kind
     * (core/ball_bin_formula.h: a grid ball's swept size as float bits, or the kind) into
     * cell_of, and the grid balls' centres of move (x + mx/2, y + my/2 in float) and largest
     * swept size into box as c2d_ball_box_add gives them from (+inf, -inf, +inf, -inf, 0). */
    void (*ball_sweep_classify)(const c2d_circle_soa *circles, const float *move_x,
                                const float *move_y, uint32_t *cell_of, float box[5]);
    /* Second pass: each grid ball's (cell_of[i] below C2D_BALL_SPECIAL) c2d_ball_sweep_bin_one
     * into cell_of[i], and count[cell + 2]++ for each cell number; other entries left alone. */
    void (*ball_sweep_bin)(const c2d_circle_soa *circles, const float *move_x, const float *move_y,
                           const struct c2d_ball_bins *bins, uint32_t *cell_of, uint32_t *count);
} c2d_kernels;

/* Per-backend names of kernels defined outside kernels.c: c2d_kernels_avx2 gives
 * c2d_kernels_avx2_sweep, and so on. */
#define C2D_KERNEL_(table, name) table##_##name
#define C2D_KERNEL(table, name) C2D_KERNEL_(table, name)

#ifdef C2D_BACKEND_TABLE
/* batch/kernels_sweep.c */
C2D_INTERNAL void C2D_KERNEL(C2D_BACKEND_TABLE,
                             sweep)(const c2d_circle_soa *circles, const float *move_x,
                                    const float *move_y, const c2d_capsule_soa *capsules,
                                    const float *capsule_move_x, const float *capsule_move_y,
                                    c2d_circle_toi *out);
C2D_INTERNAL void C2D_KERNEL(C2D_BACKEND_TABLE,
                             sweep_pairs)(const c2d_circle_soa *circles, const float *move_x,
                                          const float *move_y, const c2d_capsule_soa *capsules,
                                          const float *capsule_move_x, const float *capsule_move_y,
                                          const uint32_t *circle_index,
                                          const uint32_t *capsule_index, size_t pair_count,
                                          size_t base, c2d_circle_toi *out, unsigned char *nan);
#endif

C2D_INTERNAL extern const c2d_kernels c2d_kernels_scalar;
C2D_INTERNAL extern const c2d_kernels c2d_kernels_sse2;
C2D_INTERNAL extern const c2d_kernels c2d_kernels_avx2;
C2D_INTERNAL extern const c2d_kernels c2d_kernels_avx512;
C2D_INTERNAL extern const c2d_kernels c2d_kernels_neon;
C2D_INTERNAL extern const c2d_kernels c2d_kernels_wasm_simd128;

/* Appends one contact: written only while below capacity, always counted. */
static inline void c2d_emit(c2d_pair_contact *out, size_t capacity, size_t *total, uint32_t circle,
                            uint32_t capsule, const c2d_contact *contact) {
    if (*total < capacity) {
        out[*total].circle = circle;
        out[*total].capsule = capsule;
        out[*total].contact = *contact;
    }
    (*total)++;
}

/* Records capsule k's sweep hit for a circle if it is the earliest so far. Capsules arrive in
 * increasing index order, so keeping only strictly earlier hits sends ties to the lowest. */
static inline void c2d_keep_earliest(c2d_circle_toi *slot, uint32_t capsule, const c2d_toi *toi) {
    if (slot->capsule == C2D_NONE || toi->t < slot->toi.t) {
        slot->capsule = capsule;
        slot->toi = *toi;
    }
}

/* Records capsule k's sweep hit for a circle if (t, k) is the smallest so far: earlier, or as
 * early with a lower index. Any arrival order then gives c2d_keep_earliest()'s answer for
 * capsules in increasing order, as long as no time is NaN; a NaN time sets *nan instead, and
 * the caller answers that circle with the ordered scan. */
static inline void c2d_keep_smallest(c2d_circle_toi *slot, unsigned char *nan, uint32_t capsule,
                                     const c2d_toi *toi) {
    if (toi->t != toi->t) {
        *nan = 1;
        return;
    }
    if (slot->capsule == C2D_NONE || toi->t < slot->toi.t ||
        (toi->t == slot->toi.t && capsule < slot->capsule)) {
        slot->capsule = capsule;
        slot->toi = *toi;
    }
}

/* Sets every entry to "no hit": capsule C2D_NONE, toi all zeros. */
static inline void c2d_clear_tois(c2d_circle_toi *out, size_t n) {
    const c2d_circle_toi none = {C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
    for (size_t i = 0; i < n; i++)
        out[i] = none;
}

#endif
