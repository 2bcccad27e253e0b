/* galton.c: a Galton board on the world (collide2d/world.h). Balls fall through rows of round
 * pins into bins; a sensor capsule fills each bin, and the bins are counted from the sensor
 * events alone (enters minus exits). Build it against the installed library:
 *
 *     cc -O2 galton.c $(pkg-config --cflags --libs collide2d) -o galton && ./galton
 *
 * It prints each bin's count and the world hash, then checks the counts against the balls
 * whose centres lie in each bin, and exits non-zero on a mismatch. */
#include <stdio.h>

#include <collide2d.h>

enum { BALLS = 400, FRAMES = 1400, ROWS = 10, BINS = ROWS + 1 };
#define PITCH 1.0f    /* between pins in a row, and between bins */
#define ROW 0.866f    /* between rows: equilateral triangles */
#define BIN_TOP 12.0f /* the bins' walls rise from the floor (y = 0) to here */
#define TOP (BIN_TOP + ROW * ROWS)

static c2d_capsule_def capsule(float ax, float ay, float bx, float by, float radius) {
    c2d_capsule_def d = c2d_capsule_default_def();
    d.shape = (c2d_capsule){.a = {ax, ay}, .b = {bx, by}, .radius = radius};
    d.restitution = 0.3f;
    return d;
}

/* Bin k's centre; its walls stand half a pitch either side. */
static float bin_x(int k) {
    return PITCH * (float)(k - ROWS / 2);
}

/* Builds the board; bin k's sensor carries user_data k + 1. */
static int build_board(c2d_world *world) {
    c2d_capsule_def parts[ROWS * (ROWS + 2) + BINS + 2];
    size_t m = 0;
    parts[m++] = capsule(bin_x(0) - PITCH, -0.5f, bin_x(ROWS) + PITCH, -0.5f, 0.5f); /* floor */
    for (int k = 0; k <= BINS; k++) { /* bin walls; the outer two are the board's sides */
        const float x = bin_x(k) - 0.5f * PITCH, top = k == 0 || k == BINS ? TOP + 4 : BIN_TOP;
        parts[m++] = capsule(x, 0.0f, x, top, 0.05f);
    }
    /* Staggered rows of round pins (a == b). Odd rows end with half pins on the walls; even
     * rows stop a pitch short of them (a pin there would leave a corner for a ball to rest in). */
    for (int row = 0; row < ROWS; row++)
        for (int j = -ROWS / 2 - row % 2; j <= ROWS / 2; j++) {
            const float x = PITCH * ((float)j + 0.5f * (float)(row % 2)),
                        y = TOP - ROW * (float)row;
            if (row % 2 == 1 || (j > -ROWS / 2 && j < ROWS / 2))
                parts[m++] = capsule(x, y, x, y, 0.25f);
        }
    if (c2d_world_add_capsules(world, parts, m, NULL) != C2D_OK) return -1;
    c2d_capsule_def bins[BINS]; /* a sensor filling each bin, between its walls' inner faces */
    for (int k = 0; k < BINS; k++) {
        const float half = 0.5f * PITCH - 0.05f;
        bins[k] = capsule(bin_x(k), 0.0f, bin_x(k), BIN_TOP - half, half);
        bins[k].sensor = true;
        bins[k].user_data = (uint64_t)k + 1;
    }
    return c2d_world_add_capsules(world, bins, BINS, NULL) == C2D_OK ? 0 : -1;
}

/* Drops `balls` balls, one every second frame, for `frames` frames; counts[k] receives bin k's
 * sensor count and in_bin[k] the balls whose centres lie in bin k at the end. Returns the
 * world hash, or 0 when the world refused a call. */
static uint64_t galton_run(size_t balls, int frames, int counts[BINS], int in_bin[BINS]) {
    c2d_world_def def = c2d_world_default_def();
    c2d_world *world;
    if (c2d_world_create(&def, &world) != C2D_OK) return 0;
    int ok = build_board(world) == 0;
    unsigned rng = 1u;
    for (int k = 0; k < BINS; k++)
        counts[k] = in_bin[k] = 0;
    for (int frame = 0; frame < frames && ok; frame++) {
        if (frame % 2 == 0 && c2d_world_ball_count(world) < balls) { /* one ball, at the top */
            rng = rng * 1664525u + 1013904223u; /* a fixed seed: every run the same */
            c2d_ball_def ball = c2d_ball_default_def();
            ball.position = (c2d_vec2){(float)(rng >> 8) * 0x1p-27f - 0.0625f, TOP + 2.0f};
            ball.velocity = (c2d_vec2){0.0f, -10.0f}; /* 0.33 a frame: clear of the last one */
            ball.radius = 0.15f;
            ball.restitution = 0.3f;
            ball.friction = 0.0f; /* no spin: a rolling ball would keep its way from pin to pin */
            ok = c2d_world_add_balls(world, &ball, 1, NULL) == C2D_OK;
        }
        c2d_world_events ev;
        ok = ok && c2d_world_step(world, 1.0f / 60.0f) == C2D_OK &&
             c2d_world_get_events(world, &ev) == C2D_OK;
        for (size_t e = 0; ok && e < ev.enter_count; e++) /* a bin's sensor's user_data: k + 1 */
            counts[c2d_world_capsule_user_data(world, ev.enters[e].sensor) - 1]++;
        for (size_t e = 0; ok && e < ev.exit_count; e++)
            counts[c2d_world_capsule_user_data(world, ev.exits[e].sensor) - 1]--;
    }
    c2d_world_balls b; /* the check: where the centres are */
    c2d_world_get_balls(world, &b);
    for (size_t i = 0; i < b.count; i++) {
        const int k = (int)((b.x[i] - bin_x(0)) / PITCH + 1.5f) - 1; /* -1 left of bin 0 */
        if (b.y[i] < BIN_TOP && k >= 0 && k < BINS) in_bin[k]++;
    }
    const uint64_t hash = ok ? c2d_world_hash(world) : 0;
    c2d_world_destroy(world);
    return hash;
}

#ifndef GALTON_NO_MAIN
int main(void) {
    int counts[BINS], in_bin[BINS], same = 1;
    const uint64_t hash = galton_run(BALLS, FRAMES, counts, in_bin);
    for (int k = 0; k < BINS; k++) {
        printf("bin %2d: %3d %.*s\n", k, counts[k], counts[k] / 2,
               "##################################"
               "##################################");
        same &= counts[k] == in_bin[k];
    }
    printf("world hash 0x%016llx; sensor counts %s the balls in the bins\n",
           (unsigned long long)hash, same ? "equal" : "differ from");
    printf("%s\n", same && hash ? "OK" : "MISMATCH");
    return same && hash ? 0 : 1;
}
#endif
