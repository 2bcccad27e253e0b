/* W7 (the game frame): the README's frame loop (examples/pachinko.c, included as it is) on its
 * walled pin board with 16,384, 65,536 and 262,144 balls, on the best backend.
 *
 *   W7_frame/BACKEND/N: one iteration is one frame (contacts, resolve, push-out, gravity, the
 *   swept move with bounce and slide). The board is built and run for W7_WARMUP frames before
 *   timing, then each iteration advances it by one frame; after W7_SPAN timed frames it is put
 *   back to the state after the warm-up (untimed), so every run times the same frames.
 *   Counters: contacts_ms, resolve_ms, push_out_ms, move_ms (each stage's mean wall time per
 *   frame), contacts (ball-pin plus ball-ball, per frame) and hits (sweep hits per frame).
 *   ms per frame is the benchmark's own time. */
#include <time.h>

#define PACHINKO_NO_MAIN
#include "../examples/pachinko.c"

#include "bench.h"

enum { W7_WARMUP = 90, W7_SPAN = 60, W7_SIZES = 3 };
static const size_t w7_sizes[W7_SIZES] = {16384, 65536, 262144};

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* A board after the warm-up, and a copy of its ball state to return to. */
typedef struct w7_board {
    board live;
    float *saved[4]; /* x, y, vx, vy: the rest is recomputed every frame */
    bool ready;
} w7_board;

static float **ball_state(board *b, size_t k) {
    float **arrays[] = {&b->x, &b->y, &b->vx, &b->vy};
    return arrays[k];
}

static w7_board *w7_get(size_t index) {
    static w7_board boards[W7_SIZES];
    w7_board *w = &boards[index];
    if (w->ready) return w;
    if (board_make(&w->live, w7_sizes[index], 2463534242u) != 0) return NULL;
    for (int f = 0; f < W7_WARMUP; f++)
        if (board_frame(&w->live, 1.0f / 60.0f, -9.8f) != 0) return NULL;
    for (size_t k = 0; k < 4; k++) {
        w->saved[k] = malloc(w->live.n * sizeof(float));
        if (!w->saved[k]) return NULL;
        memcpy(w->saved[k], *ball_state(&w->live, k), w->live.n * sizeof(float));
    }
    w->ready = true;
    return w;
}

static void w7_restore(w7_board *w) {
    for (size_t k = 0; k < 4; k++)
        memcpy(*ball_state(&w->live, k), w->saved[k], w->live.n * sizeof(float));
}

static void bm_w7(gb_state *st, const void *arg) {
    const bench_case *c = arg;
    if (!bench_select(st, c)) return;
    size_t index = 0;
    while (index + 1 < W7_SIZES && w7_sizes[index] != (size_t)gb_range(st, 0))
        index++;
    w7_board *w = w7_get(index);
    if (!w) {
        gb_skip_with_error(st, "W7: out of memory or a frame failed");
        return;
    }
    board *b = &w->live;
    w7_restore(w);
    double stage[4] = {0, 0, 0, 0};
    size_t frames = 0, since = 0, contacts = 0, hits = 0;
    while (gb_keep_running(st)) {
        if (since == W7_SPAN) {
            gb_pause_timing(st);
            w7_restore(w);
            since = 0;
            gb_resume_timing(st);
        }
        const double t0 = now_ms();
        int bad = find_contacts(b);
        const double t1 = now_ms();
        bad |= resolve(b);
        const double t2 = now_ms();
        bad |= push_out(b);
        const double t3 = now_ms();
        const size_t hits_before = b->swept_hits;
        fall(b, 1.0f / 60.0f, -9.8f);
        bad |= move_balls(b, 1.0f / 60.0f);
        hits += b->swept_hits - hits_before;
        const double t4 = now_ms();
        if (bad) {
            gb_skip_with_error(st, "W7: a frame failed");
            return;
        }
        stage[0] += t1 - t0, stage[1] += t2 - t1, stage[2] += t3 - t2, stage[3] += t4 - t3;
        contacts += b->n_pin + b->n_ball;
        frames++, since++;
    }
    const double per = frames ? 1.0 / (double)frames : 0.0;
    gb_set_counter(st, "contacts_ms", stage[0] * per, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "resolve_ms", stage[1] * per, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "push_out_ms", stage[2] * per, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "move_ms", stage[3] * per, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "contacts", (double)contacts * per, GB_COUNTER_DEFAULT);
    gb_set_counter(st, "hits", (double)hits * per, GB_COUNTER_DEFAULT);
    gb_set_items_processed(st, (int64_t)frames * (int64_t)b->n);
}

void bench_register_frame(const bench_options *o) {
    (void)o;
    static bench_case best;
    best.backend = C2D_BACKEND_AUTO;
    for (int k = C2D_BACKEND_COUNT - 1; k > C2D_BACKEND_AUTO; k--)
        if (c2d_backend_available((c2d_backend)k)) {
            best.backend = (c2d_backend)k;
            break;
        }
    static char name[48];
    snprintf(name, sizeof name, "W7_frame/%s", c2d_backend_name(best.backend));
    for (size_t k = 0; k < W7_SIZES; k++)
        gb_unit(gb_arg(gb_register(name, bm_w7, &best), (int64_t)w7_sizes[k]), GB_MILLISECOND);
}
