/* The ball grid's sweeps (kernel ball_cell_sweeps), compiled once per backend with the flags
 * and macros of kernels.c: the half walk of c2d_ball_half_walk (batch/kernels_balls.h), each
 * grid ball against its neighbours' balls a vector at a time, the pairs that need the exact
 * formula queued and swept W at a time (core/ball_sweep_formula.h), the pairs surely in
 * contact kept as one partner per ball and swept once at the end. The AVX-512 backend walks
 * without a filter by blocks of 16 balls instead (batch/x86/ball_sweeps_avx512.h). */
#include "batch/ball_sweep_walk.h"

/* Up to W balls (sorted positions) with their lowest sure partner (an index). */
typedef struct sure_batch {
    size_t n;
    uint32_t pos[W], other[W];
} sure_batch;

/* Each ball of the batch against its sure partner (read by index from the caller's arrays:
 * the same values): the hit at t = 0 that c2d_sweep_circles gives them, kept if it beats what
 * the queue left. `run`: the batch is W consecutive positions (their values load as vectors).
 * Unused lanes repeat the first.
 *
 * The walk's sure test is what c2d_sweep_circles would decide, so only the hit's normal and
 * point are computed (ball_start_hit_lanes), not the decision. Its float tests imply each of
 * the formula's: the overlap is the same test on the same d2 (b - b + 0 is b, up to the sign of
 * a zero, whose square is the same), so t = 0; v1 > 0 in float means a relative move in double
 * too (a float difference is 0 only for equal operands); grid balls are tame with radii >= 0;
 * and -v.s > 2^-10 |v|_1 |s|_1 in float leaves the double v.s below -2^-11 |v|_1 |s|_1, so the
 * formula's "apart" (v.s > 2^-20 ...) fails and its "deeper" (v.n < 0, n the start normal
 * within a few units of 2^-53 of s / |s|, rounded to float) holds. The exact decision ran here
 * before and never disagreed; it cost a tenth of a resting pile's sweep frame. */
static void sure_flush(const sweep_queue *qu, sure_batch *s, bool run) {
    if (s->n == 0) return;
    const c2d_ball_sweep_cells *g = qu->w.g;
    const c2d_circle_soa *c = qu->w.c;
    for (size_t j = s->n; j < W; j++) {
        s->pos[j] = s->pos[0];
        s->other[j] = s->other[0];
    }
    const size_t p = s->pos[0];
    toi_lanes k;
    ball_start_hit_lanes(run ? lane_load(g->x + p) : lane_gather(g->x, s->pos),
                         run ? lane_load(g->y + p) : lane_gather(g->y, s->pos),
                         lane_gather(c->x, s->other), lane_gather(c->y, s->other),
                         lane_gather(c->radius, s->other), &k);
    toi_rows f;
    toi_rows_of(&f, &k);
    for (size_t j = 0; j < s->n; j++) {
        const uint32_t i = g->id[s->pos[j]];
        c2d_circle_hit *slot = &qu->w.out[i];
        if (c2d_ball_slot_takes(slot, g->state, i, s->other[j], 0.0f)) {
            slot->other = s->other[j];
            slot->toi = toi_row(&f, j);
            c2d_ball_slot_mark(g->state, i);
        }
    }
    s->n = 0;
}

/* The bytes of the sure hits at t = 0, over the sorted entries W at a time: W entries that all
 * hold a sure partner (a pile) go to the formula as they are; scattered ones (a gas) are
 * gathered into full batches first; W entries with none are skipped with one compare. */
static void sweep_sure(const sweep_queue *qu) {
    const c2d_ball_sweep_cells *g = qu->w.g;
    const size_t grid_balls = g->start[(size_t)g->nx * g->ny];
    sure_batch scattered = {0}, run;
    for (size_t p = 0; p < grid_balls; p += W) {
        const size_t lanes = grid_balls - p < W ? grid_balls - p : W;
        if (lanes == W) {
            const mask_t none = lane_eq_u32(lane_load_u32(g->sure + p), lane_splat_u32(UINT32_MAX));
            const uint32_t bits = mask_bits(none);
            if (bits == c2d_valid_lanes(W)) continue; /* no sure partner in these W */
            if (bits == 0) {
                run.n = W;
                for (size_t j = 0; j < W; j++) {
                    run.pos[j] = (uint32_t)(p + j);
                    run.other[j] = g->sure[p + j];
                }
                sure_flush(qu, &run, true);
                continue;
            }
        }
        for (size_t j = 0; j < lanes; j++) {
            if (g->sure[p + j] == UINT32_MAX) continue;
            scattered.pos[scattered.n] = (uint32_t)(p + j);
            scattered.other[scattered.n] = g->sure[p + j];
            if (++scattered.n == W) sure_flush(qu, &scattered, false);
        }
    }
    sure_flush(qu, &scattered, false);
}

#if C2D_LANES == 16
#include "batch/x86/ball_sweeps_avx512.h"
#endif

/* The grid sweeps; `filtered` as in collide_row. */
C2D_FORMULA void cell_sweeps(const c2d_ball_sweep_cells *cells, const c2d_circle_soa *circles,
                             const float *move_x, const float *move_y, c2d_circle_hit *out,
                             bool filtered) {
    sweep_queue q;
    q.w = (c2d_sweep_walk){cells, circles, move_x, move_y, out};
    q.n = 0;
#if C2D_LANES == 16
    if (!filtered)
        sweep_blocks(&q);
    else
        sweep_walk(&q, true);
#else
    sweep_walk(&q, filtered);
#endif
    sweep_flush(&q);
    sweep_sure(&q);
}

C2D_COLD void cell_sweeps_filtered(const c2d_ball_sweep_cells *cells, const c2d_circle_soa *circles,
                                   const float *move_x, const float *move_y, c2d_circle_hit *out) {
    cell_sweeps(cells, circles, move_x, move_y, out, true);
}

void C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_cell_sweeps)(const c2d_ball_sweep_cells *cells,
                                                          const c2d_circle_soa *circles,
                                                          const float *move_x, const float *move_y,
                                                          c2d_circle_hit *out) {
    if (c2d_circle_soa_filtered(circles))
        cell_sweeps_filtered(cells, circles, move_x, move_y, out);
    else
        cell_sweeps(cells, circles, move_x, move_y, out, false);
}
