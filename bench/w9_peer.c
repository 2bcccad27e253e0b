/* c2d_w9_peer: the Box2D 2.4.1 peer's W9 figures (DESIGN.md section 15), one case a run, as
 * key=value lines for scripts/w9_peer. Time is the thread's CPU clock around b2World::Step
 * alone (the figures are computed outside it); a case stops when that reaches the cap.
 *
 *   c2d_w9_peer pile N [--pitch P]     W9b: lands, asleep, overlaps, energy, packing
 *   c2d_w9_peer board N                W9a: ms a step falling and settling, sleep disabled
 *   c2d_w9_peer stream-empty N --stream K
 *                                      W9a's stream of K balls onto the board of N laid out
 *                                      with no balls (c2d_w9_world's yardstick), sleep on: the
 *                                      mean step while at least a tenth of them are awake
 *     --cap S            CPU seconds of Step a case may take (120)
 *     --no-ccd           Box2D's continuous physics off (b2World::SetContinuousPhysics)
 *     --settle-from K    board: the settling window from step K, not from the first step whose
 *                        mean speed is low (bench/w9_layout.h)
 *     --trace K          board: the balls' mean speed, highest top and share below the pins
 *                        every K steps
 *     --steps K          board: stop after K steps (90: the falling window alone, for
 *                        scripts/bench) */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peer_box2d_w9.h"
#include "w9_figures.h"
#include "w9_layout.h"

/* W9b: the figures are taken 20 simulated s after landing unless every ball sleeps first. */
enum { PILE_AFTER_LANDING = 1200, PILE_MAX_STEPS = 100000, ENERGY_FIRST = 60 };

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct state {
    float *x, *y, *vx, *vy, *w;
} state;

static int state_alloc(state *s, size_t n) {
    s->x = malloc(n * sizeof(float));
    s->y = malloc(n * sizeof(float));
    s->vx = malloc(n * sizeof(float));
    s->vy = malloc(n * sizeof(float));
    s->w = malloc(n * sizeof(float));
    return s->x && s->y && s->vx && s->vy && s->w ? 0 : -1;
}

static void state_free(state *s) {
    free(s->x), free(s->y), free(s->vx), free(s->vy), free(s->w);
}

static w9_balls balls_of(const state *s, const w9_layout *l) {
    w9_balls b = {s->x, s->y, s->vx, s->vy, s->w, l->radius, l->n};
    return b;
}

static int fail(const char *what) {
    fprintf(stderr, "c2d_w9_peer: %s\n", what);
    return 1;
}

static int run_pile(size_t n, float pitch, double cap, bool ccd) {
    w9_layout l;
    if (w9_layout_pile(&l, n, pitch) != 0) return fail("out of memory");
    peer_box2d_w9 *p = peer_box2d_w9_create(&l, true, ccd);
    w9_figures *f = w9_figures_create();
    unsigned char *touched = calloc(n, 1);
    state s;
    if (!p || !f || !touched || state_alloc(&s, n) != 0) return fail("out of memory");
    w9_balls b = balls_of(&s, &l);
    peer_box2d_w9_read(p, s.x, s.y, s.vx, s.vy, s.w);
    w9_rise rise;
    w9_rise_start(&rise, ENERGY_FIRST);
    w9_rise_add(&rise, w9_energy(&b, l.density, W9_GRAVITY, l.floor_y));
    size_t lands = 0, asleep = 0, k = 0, measured = 0;
    w9_overlap at = {0, 0.0, 0.0}, o;
    double worst_max = 0.0, worst_p99 = 0.0, packing = 0.0;
    double cpu = 0.0, fall_cpu = 0.0, last_cpu[60] = {0};
    while (k < PILE_MAX_STEPS && cpu < cap) {
        const double t0 = cpu_seconds();
        peer_box2d_w9_step(p);
        const double t = cpu_seconds() - t0;
        cpu += t;
        if (k >= W9A_FALL_FIRST && k < W9A_FALL_END) fall_cpu += t;
        last_cpu[k % 60] = t;
        k++; /* the state after k steps */
        peer_box2d_w9_read(p, s.x, s.y, s.vx, s.vy, s.w);
        const size_t count = lands ? n : w9_mark_touching(f, &b, l.capsules, l.m, touched);
        if (count == (size_t)-1 || w9_overlaps(f, &b, &o) != 0) return fail("out of memory");
        if (!lands && count == n) lands = k;
        if (o.max > worst_max) worst_max = o.max;
        if (o.p99 > worst_p99) worst_p99 = o.p99;
        w9_rise_add(&rise, w9_energy(&b, l.density, W9_GRAVITY, l.floor_y));
        if (!asleep && peer_box2d_w9_awake(p) == 0) asleep = k;
        if (asleep || (lands && k == lands + PILE_AFTER_LANDING)) {
            measured = k;
            at = o;
            packing = w9_packing(f, &b, l.width, l.floor_y);
            break;
        }
    }
    double last = 0.0;
    const size_t last_n = k < 60 ? k : 60;
    for (size_t j = 0; j < last_n; j++)
        last += last_cpu[j];
    printf("case=pile n=%zu pitch=%g width=%g capsules=%zu ccd=%d\n", n, (double)pitch,
           (double)l.width, l.m, ccd);
    printf("steps=%zu cpu_s=%.2f capped=%d cap_s=%g\n", k, cpu, measured ? 0 : 1, cap);
    printf("lands_step=%zu\n", lands);
    printf("asleep_step=%zu asleep_s=%.3f asleep_after_landing_s=%.3f\n", asleep,
           (double)asleep / 60.0, asleep && lands ? (double)(asleep - lands) / 60.0 : -1.0);
    printf("measured_step=%zu pairs=%zu overlap_max=%.4f overlap_p99=%.4f\n", measured, at.pairs,
           at.max, at.p99);
    printf("worst_overlap_max=%.4f worst_overlap_p99=%.4f\n", worst_max, worst_p99);
    printf("energy_rise=%.3e energy_rise_step=%zu energy_rises=%zu\n", rise.max, rise.max_at,
           rise.counted);
    printf("packing=%.4f\n", packing);
    printf("fall_ms=%.3f last60_ms=%.3f\n",
           k >= W9A_FALL_END ? 1e3 * fall_cpu / (W9A_FALL_END - W9A_FALL_FIRST) : -1.0,
           last_n ? 1e3 * last / (double)last_n : -1.0);
    state_free(&s);
    free(touched);
    w9_figures_destroy(f);
    peer_box2d_w9_destroy(p);
    w9_layout_free(&l);
    return 0;
}

/* The balls' mean speed, the highest top, and the fraction of centres below the pins (y < 38:
 * W7's lowest pins are at y = 40 - 0.6). */
typedef struct motion {
    double mean_speed, top, below;
} motion;

static motion motion_of(peer_box2d_w9 *p, const w9_layout *l, state *s) {
    peer_box2d_w9_read(p, s->x, s->y, s->vx, s->vy, s->w);
    motion m = {0.0, -1e30, 0.0};
    for (size_t i = 0; i < l->n; i++) {
        m.mean_speed += sqrt((double)s->vx[i] * s->vx[i] + (double)s->vy[i] * s->vy[i]);
        if ((double)s->y[i] + l->radius[i] > m.top) m.top = (double)s->y[i] + l->radius[i];
        m.below += s->y[i] < 38.0f;
    }
    m.mean_speed /= (double)l->n;
    m.below /= (double)l->n;
    return m;
}

static int run_board(size_t n, double cap, size_t settle_from, size_t trace, bool ccd,
                     size_t max_steps) {
    w9_layout l;
    if (w9_layout_board(&l, n) != 0) return fail("out of memory");
    peer_box2d_w9 *p = peer_box2d_w9_create(&l, false, ccd);
    state s;
    if (!p || state_alloc(&s, n) != 0) return fail("out of memory");
    double cpu = 0.0, fall = 0.0, settle = 0.0, ring[W9A_SETTLE_STEPS] = {0};
    size_t k = 0, first = settle_from; /* 0: not found yet */
    motion at = {-1.0, -1.0, -1.0};
    while (cpu < cap && !(first && k == first + W9A_SETTLE_STEPS) &&
           (!max_steps || k < max_steps)) {
        const bool look = !first && k >= W9A_FALL_END && k % W9A_SETTLE_EVERY == 0;
        if (look || (trace && k % trace == 0) || (first && k == first)) {
            const motion m = motion_of(p, &l, &s);
            if (trace && k % trace == 0)
                printf("trace step=%zu mean_speed=%.3f top=%.2f below_pins=%.4f cpu_s=%.2f\n", k,
                       m.mean_speed, m.top, m.below, cpu);
            if (look && (m.mean_speed < (double)W9A_SETTLE_SPEED || k >= W9A_SETTLE_LIMIT))
                first = k;
            if (first == k) at = m; /* where the settling window starts */
        }
        const double t0 = cpu_seconds();
        peer_box2d_w9_step(p);
        const double t = cpu_seconds() - t0;
        cpu += t;
        ring[k % W9A_SETTLE_STEPS] = t;
        if (k >= W9A_FALL_FIRST && k < W9A_FALL_END) fall += t;
        if (first && k >= first) settle += t;
        k++;
    }
    /* A window the cap cut short reads "> t": the mean of its steps so far, or, when the cap
     * came before it, of the last 60 steps run (the pile was still forming). */
    double recent = 0.0;
    const size_t recent_n = k < W9A_SETTLE_STEPS ? k : W9A_SETTLE_STEPS;
    for (size_t j = 0; j < recent_n; j++)
        recent += ring[j];
    recent = recent_n ? 1e3 * recent / (double)recent_n : 0.0;
    const size_t fall_n = k < W9A_FALL_END ? (k > W9A_FALL_FIRST ? k - W9A_FALL_FIRST : 0)
                                           : W9A_FALL_END - W9A_FALL_FIRST;
    const double fall_ms = fall_n ? 1e3 * fall / (double)fall_n : recent;
    const double settle_ms = first && k > first ? 1e3 * settle / (double)(k - first) : recent;
    printf("case=board n=%zu width=%g capsules=%zu ccd=%d\n", n, (double)l.width, l.m, ccd);
    printf("steps=%zu cpu_s=%.2f cap_s=%g\n", k, cpu, cap);
    printf("fall_ms=%.3f fall_capped=%d\n", fall_ms, k < W9A_FALL_END);
    printf("settle_from=%zu settle_ms=%.3f settle_capped=%d settle_reached=%d\n", first, settle_ms,
           !(first && k == first + W9A_SETTLE_STEPS), first != 0 && k > first);
    printf("settle_start_mean_speed=%.3f settle_start_top=%.2f settle_start_below_pins=%.4f\n",
           at.mean_speed, at.top, at.below);
    printf("last60_ms=%.3f\n", recent);
    state_free(&s);
    peer_box2d_w9_destroy(p);
    w9_layout_free(&l);
    return 0;
}

/* The stream onto the empty board, counted as bench/w9_world.c counts ours: the rows released
 * before the first W9_STREAM_ROWS steps, the window w9_stream_window's (or cut by the cap). */
static int run_stream_empty(size_t n, size_t stream, double cap, bool ccd) {
    w9_layout l;
    if (w9_layout_board(&l, n) != 0) return fail("out of memory");
    w9_layout empty = l;
    empty.n = 0; /* the board of n, no ball */
    peer_box2d_w9 *p = peer_box2d_w9_create(&empty, true, ccd);
    const size_t most = w9_stream_row_most(stream);
    float *x = malloc(3 * most * sizeof(float));
    if (!p || !x) {
        free(x);
        if (p) peer_box2d_w9_destroy(p);
        w9_layout_free(&l);
        return fail("out of memory");
    }
    float *y = x + most, *r = y + most;
    w9_stream_window window = w9_stream_window_start(stream);
    unsigned seed = W9_STREAM_SEED;
    size_t row = 0, steps = 0, added = 0;
    double cpu = 0.0;
    bool ended = false, out_of_memory = false;
    for (;;) {
        if (row < W9_STREAM_ROWS) {
            const size_t m = w9_stream_row(&l, stream, row++, &seed, x, y, r);
            size_t i = 0;
            while (i < m && peer_box2d_w9_add_ball(p, &l, x[i], y[i], r[i]) == 0)
                i++;
            added += i;
            if (i < m) {
                out_of_memory = true;
                break;
            }
        }
        const size_t awake = peer_box2d_w9_awake(p);
        if (w9_stream_window_ended(&window, row, awake)) {
            ended = true;
            break;
        }
        if (cpu >= cap) break;
        const double t0 = cpu_seconds();
        peer_box2d_w9_step(p);
        const double t = cpu_seconds() - t0;
        cpu += t;
        steps++;
        w9_stream_window_add(&window, awake, t);
    }
    if (out_of_memory) {
        free(x);
        peer_box2d_w9_destroy(p);
        w9_layout_free(&l);
        return fail("out of memory");
    }
    printf("case=stream-empty n=%zu width=%g capsules=%zu ccd=%d\n", n, (double)l.width, l.m, ccd);
    printf("stream=%zu stream_ms=%.3f stream_counted=%zu stream_steps=%zu stream_awake_mean=%.0f "
           "stream_ended=%d cpu_s=%.2f cap_s=%g\n",
           added, window.counted ? 1e3 * window.sum / (double)window.counted : -1.0, window.counted,
           steps, window.counted ? window.awake_sum / (double)window.counted : 0.0, ended, cpu,
           cap);
    free(x);
    peer_box2d_w9_destroy(p);
    w9_layout_free(&l);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3 || (strcmp(argv[1], "pile") != 0 && strcmp(argv[1], "board") != 0 &&
                     strcmp(argv[1], "stream-empty") != 0)) {
        fprintf(stderr, "usage: c2d_w9_peer pile|board|stream-empty N [--pitch P] [--cap S] "
                        "[--no-ccd] [--settle-from K] [--trace K] [--steps K] [--stream K]\n");
        return 2;
    }
    const size_t n = (size_t)strtoul(argv[2], NULL, 10);
    float pitch = W9B_PITCH;
    double cap = 120.0;
    size_t settle_from = 0, trace = 0, max_steps = 0, stream = 0;
    bool ccd = true;
    for (int a = 3; a < argc; a += 2) {
        if (strcmp(argv[a], "--no-ccd") == 0) {
            ccd = false;
            a--;
        } else if (a + 1 >= argc)
            return fail("an option needs a value");
        else if (strcmp(argv[a], "--pitch") == 0)
            pitch = strtof(argv[a + 1], NULL);
        else if (strcmp(argv[a], "--cap") == 0)
            cap = strtod(argv[a + 1], NULL);
        else if (strcmp(argv[a], "--settle-from") == 0)
            settle_from = (size_t)strtoul(argv[a + 1], NULL, 10);
        else if (strcmp(argv[a], "--trace") == 0)
            trace = (size_t)strtoul(argv[a + 1], NULL, 10);
        else if (strcmp(argv[a], "--steps") == 0)
            max_steps = (size_t)strtoul(argv[a + 1], NULL, 10);
        else if (strcmp(argv[a], "--stream") == 0)
            stream = (size_t)strtoul(argv[a + 1], NULL, 10);
        else
            return fail("unknown option");
    }
    if (n == 0) return fail("N must be positive");
    if (argv[1][0] == 's') {
        if (stream == 0) return fail("stream-empty needs --stream K (K > 0)");
        return run_stream_empty(n, stream, cap, ccd);
    }
    return argv[1][0] == 'p' ? run_pile(n, pitch, cap, ccd)
                             : run_board(n, cap, settle_from, trace, ccd, max_steps);
}
