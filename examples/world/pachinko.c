/* pachinko.c: a pachinko board on the world (collide2d/world.h). Walls, rows of round pins
 * and slanted short pins, and a few thousand balls poured in from the top; the world runs
 * the frame (contacts, substeps, sweeps against the pins, sleep). Build it against the
 * installed library:
 *
 *     cc -O2 pachinko.c $(pkg-config --cflags --libs collide2d) -o pachinko && ./pachinko
 *
 * It prints a summary: frames, balls, how many are awake, and the step's cost. The frame loop
 * written by hand on the layers below is examples/pachinko.c (docs/frame_loop.md). */
#include <stdio.h>
#include <time.h>

#include <collide2d.h>

enum { BALLS = 3000, PER_FRAME = 20, FRAMES = 1400, ROWS = 8, PINS = 8 };
#define WIDTH 30.0f
#define HEIGHT 75.0f

static c2d_capsule_def wall(float ax, float ay, float bx, float by, float radius) {
    c2d_capsule_def d = c2d_capsule_default_def();
    d.shape = (c2d_capsule){.a = {ax, ay}, .b = {bx, by}, .radius = radius};
    d.restitution = 0.5f; /* a ball's 0.3 mixes to sqrt(0.3 x 0.5) = 0.39 */
    return d;
}

/* The board: a box (floor's top at y = 0) and ROWS rows of pins, staggered. Even rows hold
 * round pins (a capsule whose a == b), odd rows short slanted capsules. */
static int build_board(c2d_world *world) {
    c2d_capsule_def pins[4 + ROWS * PINS];
    size_t m = 0;
    pins[m++] = wall(-1, -1, WIDTH + 1, -1, 1);            /* floor */
    pins[m++] = wall(-1, -1, -1, HEIGHT, 1);               /* left */
    pins[m++] = wall(WIDTH + 1, -1, WIDTH + 1, HEIGHT, 1); /* right */
    pins[m++] = wall(-1, HEIGHT, WIDTH + 1, HEIGHT, 1);    /* lid */
    for (int row = 0; row < ROWS; row++) {
        const float y = 30.0f + 4.0f * (float)row, step = WIDTH / PINS;
        for (int k = 0; k < PINS; k++) {
            const float x = step * ((float)k + (row % 2 ? 1.0f : 0.5f));
            if (row % 2 == 0)
                pins[m++] = wall(x, y, x, y, 0.3f);
            else if (x < WIDTH) /* slanted in turn left and right */
                pins[m++] = wall(x - 0.4f, y + (k % 2 ? 0.25f : -0.25f), x + 0.4f,
                                 y + (k % 2 ? -0.25f : 0.25f), 0.12f);
        }
    }
    return c2d_world_add_capsules(world, pins, m, NULL) == C2D_OK ? 0 : -1;
}

/* Pours a row of PER_FRAME balls across the top (every 4th frame: the last row has moved
 * away by then) until `count` are in; `rng` varies the radii. */
static int pour(c2d_world *world, size_t count, int frame, unsigned *rng) {
    const size_t have = c2d_world_ball_count(world);
    if (have >= count || frame % 4 != 0) return 0;
    c2d_ball_def defs[PER_FRAME];
    size_t n = count - have < PER_FRAME ? count - have : PER_FRAME;
    for (size_t k = 0; k < n; k++) {
        *rng = *rng * 1664525u + 1013904223u; /* a fixed-seed generator: the same run always */
        defs[k] = c2d_ball_default_def();
        defs[k].radius = 0.2f + 0.1f * (float)(*rng >> 8) / 16777216.0f;
        defs[k].position = (c2d_vec2){0.7f + (WIDTH - 1.4f) * (float)k / PER_FRAME, 70.0f};
        defs[k].velocity = (c2d_vec2){0.0f, -10.0f};
        defs[k].restitution = 0.3f;
        defs[k].rolling_resistance = 0.0f; /* the default 0.05 lets a ball rest on a pin's top */
    }
    return c2d_world_add_balls(world, defs, n, NULL) == C2D_OK ? 0 : -1;
}

/* Runs `balls` balls for `frames` frames; returns 0 and the summary, or -1. */
typedef struct pachinko_summary {
    size_t balls, awake;
    double ms_per_step;
    uint64_t hash;
} pachinko_summary;

static int pachinko_run(size_t balls, int frames, pachinko_summary *out) {
    c2d_world_def def = c2d_world_default_def(); /* gravity (0, -10), 8 substeps, sleep on */
    c2d_world *world;
    if (c2d_world_create(&def, &world) != C2D_OK) return -1;
    unsigned rng = 12345u;
    int status = build_board(world);
    clock_t cpu = 0;
    for (int frame = 0; frame < frames && status == 0; frame++) {
        status = pour(world, balls, frame, &rng);
        const clock_t start = clock();
        if (status == 0 && c2d_world_step(world, 1.0f / 60.0f) != C2D_OK) status = -1;
        cpu += clock() - start;
    }
    out->balls = c2d_world_ball_count(world);
    out->awake = c2d_world_awake_count(world);
    out->ms_per_step = 1000.0 * (double)cpu / CLOCKS_PER_SEC / (frames > 0 ? frames : 1);
    out->hash = c2d_world_hash(world);
    c2d_world_destroy(world);
    return status;
}

#ifndef PACHINKO_NO_MAIN
int main(void) {
    pachinko_summary s;
    if (pachinko_run(BALLS, FRAMES, &s) != 0) {
        fprintf(stderr, "pachinko: the world refused a call\n");
        return 1;
    }
    printf("pachinko: %d frames, %zu balls, %zu awake, %.3f ms a step (CPU), hash 0x%016llx\n",
           FRAMES, s.balls, s.awake, s.ms_per_step, (unsigned long long)s.hash);
    return 0;
}
#endif
