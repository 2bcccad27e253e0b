/* The web page's Galton board on the world (board.h says what each function does). The board,
 * x across and y up, the floor's top at y = 0:
 *   - rows + 3 bins of width PITCH between vertical dividers of height BIN_HEIGHT, a sensor down
 * the middle of each (its radius reaches the dividers, so it overlaps every ball in the bin and
 *     none in the next);
 *   - `rows` rows of round pins PITCH apart, each row offset by half a pitch, the lowest row
 *     over the dividers (so balls leave it over a bin's middle) and the top one with a pin at
 *     x = 0, under the drop point: a ball that goes right m times of `rows` lands in bin m + 1
 *     (a real board's bounces spread them wider than the binomial law);
 *   - two walls from the floor to above the top row.
 * Every step's inputs (spawn points and velocities) come from integers and a fixed schedule,
 * so the world after N steps is the same bytes natively and in the page. */
#include "board.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <collide2d.h>

#define BALL_RADIUS 0.25f
#define PIN_RADIUS 0.2f
#define DIVIDER_RADIUS 0.08f
#define WALL_RADIUS 0.3f
#define PITCH 2.0f
#define ROW_HEIGHT 1.732f /* equilateral triangles of pins */
#define BIN_HEIGHT 18.0f
#define DT (1.0f / 60.0f)
#define SPAWN_EVERY 5 /* steps between two drops of SPAWN_BALLS balls */
#define SPAWN_BALLS 2
#define BALL_RESTITUTION 0.2f
#define PIN_RESTITUTION 0.3f /* mixed with a ball's: sqrt(0.2 x 0.3) = 0.24 */
#define MAX_BINS 64
#define MAX_CAPSULES 2048

enum { KIND_WALL, KIND_DIVIDER, KIND_PIN };

static struct {
    c2d_world *world;
    int rows, bins, total, dropped, hash_step;
    uint32_t rng;
    double steps;
    float left, right, top, drop_y;
    /* the solid capsules, for drawing */
    int n_caps;
    float ax[MAX_CAPSULES], ay[MAX_CAPSULES], bx[MAX_CAPSULES], by[MAX_CAPSULES];
    float cr[MAX_CAPSULES];
    uint8_t kind[MAX_CAPSULES];
    int32_t count[MAX_BINS], count_at[MAX_BINS];
    char hash_at[17], hash_now[17];
    c2d_world_balls balls;
    uint8_t *awake;
    size_t awake_capacity;
} g;

GW_EXPORT int gw_select_backend(const char *name) {
    for (int b = C2D_BACKEND_AUTO; b < C2D_BACKEND_COUNT; b++)
        if (strcmp(name, c2d_backend_name((c2d_backend)b)) == 0)
            return c2d_backend_select((c2d_backend)b) == C2D_OK ? 0 : -1;
    return -1;
}

GW_EXPORT const char *gw_backend(void) {
    return c2d_backend_name(c2d_backend_active());
}

/* A jitter in [-1, 1) from the board's own generator (xorshift32): exact floats, no libm. */
static float jitter(void) {
    g.rng ^= g.rng << 13;
    g.rng ^= g.rng >> 17;
    g.rng ^= g.rng << 5;
    return (float)(int32_t)(g.rng >> 8) / 8388608.0f - 1.0f;
}

static int add_solid(float ax, float ay, float bx, float by, float r, int kind) {
    if (g.n_caps == MAX_CAPSULES) return -1;
    c2d_capsule_def d = c2d_capsule_default_def();
    d.shape = (c2d_capsule){.a = {ax, ay}, .b = {bx, by}, .radius = r};
    d.restitution = PIN_RESTITUTION;
    if (c2d_world_add_capsules(g.world, &d, 1, NULL) != C2D_OK) return -1;
    int k = g.n_caps++;
    g.ax[k] = ax, g.ay[k] = ay, g.bx[k] = bx, g.by[k] = by, g.cr[k] = r;
    g.kind[k] = (uint8_t)kind;
    return 0;
}

static void destroy(void) {
    c2d_world_destroy(g.world);
    free(g.awake);
    memset(&g, 0, sizeof g);
}

GW_EXPORT int gw_create(int balls, int rows, unsigned seed, int hash_step) {
    destroy();
    if (balls < 1 || balls > 20000 || rows < 2 || rows > 40 || rows % 2 || hash_step < 0) return -1;
    c2d_world_def def = c2d_world_default_def(); /* gravity (0, -10), the default solver */

    if (c2d_world_create(&def, &g.world) != C2D_OK) return -1;
    g.rows = rows, g.bins = rows + 3, g.total = balls, g.hash_step = hash_step;
    g.rng = seed * 2654435761u + 1u; /* never 0 */
    float half = 0.5f * PITCH * (float)g.bins;
    float pins_bottom = BIN_HEIGHT + 0.75f * PITCH;
    g.left = -half, g.right = half;
    g.top = pins_bottom + ROW_HEIGHT * (float)(rows - 1) + 4.0f;
    g.drop_y = g.top - 1.5f;
    int bad = 0;
    bad |= add_solid(-half - 1.0f, -WALL_RADIUS, half + 1.0f, -WALL_RADIUS, WALL_RADIUS, KIND_WALL);
    bad |= add_solid(-half - WALL_RADIUS, 0, -half - WALL_RADIUS, g.top, WALL_RADIUS, KIND_WALL);
    bad |= add_solid(half + WALL_RADIUS, 0, half + WALL_RADIUS, g.top, WALL_RADIUS, KIND_WALL);
    for (int k = 1; k < g.bins; k++) {
        float x = -half + PITCH * (float)k;
        bad |= add_solid(x, 0, x, BIN_HEIGHT, DIVIDER_RADIUS, KIND_DIVIDER);
    }
    for (int j = 0; j < rows; j++) { /* j = 0: the lowest row, over the dividers */
        float y = pins_bottom + ROW_HEIGHT * (float)j, off = (j % 2) ? 0.5f * PITCH : 0.0f;
        for (int k = 0; k <= g.bins; k++) {
            float x = -half + off + PITCH * (float)k;
            if (x - PIN_RADIUS - BALL_RADIUS <= -half || x + PIN_RADIUS + BALL_RADIUS >= half)
                continue; /* no pin in a wall, nor one a ball cannot pass beside */
            bad |= add_solid(x, y, x, y, PIN_RADIUS, KIND_PIN);
        }
    }
    /* Sensors: a bin's middle line, its round top at the bin's top. */
    float sr = 0.5f * PITCH - DIVIDER_RADIUS;
    for (int k = 0; k < g.bins && !bad; k++) {
        c2d_capsule_def d = c2d_capsule_default_def();
        float x = -half + PITCH * ((float)k + 0.5f);
        d.shape = (c2d_capsule){.a = {x, 0}, .b = {x, BIN_HEIGHT - sr}, .radius = sr};
        d.sensor = true;
        d.user_data = (uint64_t)k + 1;
        bad |= c2d_world_add_capsules(g.world, &d, 1, NULL) != C2D_OK;
    }
    if (bad) {
        destroy();
        return -1;
    }
    return 0;
}

/* Drops SPAWN_BALLS balls side by side over the top pin every SPAWN_EVERY steps; they start
 * fast enough downwards to be a diameter below the spawn line by the next drop. */
static int spawn(void) {
    if (g.dropped >= g.total || (int64_t)g.steps % SPAWN_EVERY) return 0;
    c2d_ball_def d[SPAWN_BALLS];
    int n = 0;
    for (; n < SPAWN_BALLS && g.dropped + n < g.total; n++) {
        d[n] = c2d_ball_default_def();
        d[n].radius = BALL_RADIUS;
        d[n].restitution = BALL_RESTITUTION;
        /* No rolling resistance: with the default (0.05, for piles on a floor) a ball that
         * lands within about 3 degrees of a pin's top can rest there. */
        d[n].rolling_resistance = 0.0f;
        d[n].position =
            (c2d_vec2){0.6f * ((float)n - 0.5f * (SPAWN_BALLS - 1)) + 0.05f * jitter(), g.drop_y};
        d[n].velocity = (c2d_vec2){0.3f * jitter(), -6.0f};
    }
    if (c2d_world_add_balls(g.world, d, (size_t)n, NULL) != C2D_OK) return -1;
    g.dropped += n;
    return 0;
}

static void hex(char *out, uint64_t h) {
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

GW_EXPORT int gw_step(int n) {
    int done = 0;
    for (; g.world && done < n; done++) {
        c2d_world_events ev;
        if (spawn() != 0 || c2d_world_step(g.world, DT) != C2D_OK ||
            c2d_world_get_events(g.world, &ev) != C2D_OK)
            return -1;
        for (size_t k = 0; k < ev.enter_count; k++)
            g.count[c2d_world_capsule_user_data(g.world, ev.enters[k].sensor) - 1]++;
        for (size_t k = 0; k < ev.exit_count; k++)
            g.count[c2d_world_capsule_user_data(g.world, ev.exits[k].sensor) - 1]--;
        g.steps += 1.0;
        if (g.steps == (double)g.hash_step) {
            hex(g.hash_at, c2d_world_hash(g.world));
            memcpy(g.count_at, g.count, sizeof g.count);
        }
    }
    return done;
}

GW_EXPORT double gw_steps(void) {
    return g.steps;
}
GW_EXPORT int gw_hash_step(void) {
    return g.hash_step;
}
GW_EXPORT const char *gw_hash_at(void) {
    return g.hash_at;
}
GW_EXPORT const char *gw_hash(void) {
    hex(g.hash_now, c2d_world_hash(g.world));
    return g.hash_now;
}
GW_EXPORT int gw_ball_count(void) {
    return g.dropped;
}
GW_EXPORT int gw_ball_total(void) {
    return g.total;
}
GW_EXPORT int gw_awake_count(void) {
    return (int)c2d_world_awake_count(g.world);
}

GW_EXPORT int gw_balls(void) {
    memset(&g.balls, 0, sizeof g.balls);
    if (!g.world || c2d_world_get_balls(g.world, &g.balls) != C2D_OK) return 0;
    if (g.balls.count > g.awake_capacity) {
        uint8_t *a = realloc(g.awake, g.balls.count);
        if (!a) return 0;
        g.awake = a, g.awake_capacity = g.balls.count;
    }
    for (size_t k = 0; k < g.balls.count; k++)
        g.awake[k] = c2d_world_ball_awake(g.world, g.balls.ids[k]);
    return (int)g.balls.count;
}
GW_EXPORT const float *gw_ball_x(void) {
    return g.balls.x;
}
GW_EXPORT const float *gw_ball_y(void) {
    return g.balls.y;
}
GW_EXPORT const uint8_t *gw_ball_awake(void) {
    return g.awake;
}
GW_EXPORT double gw_ball_radius(void) {
    return BALL_RADIUS;
}

GW_EXPORT int gw_capsule_count(void) {
    return g.n_caps;
}
GW_EXPORT const float *gw_capsule_ax(void) {
    return g.ax;
}
GW_EXPORT const float *gw_capsule_ay(void) {
    return g.ay;
}
GW_EXPORT const float *gw_capsule_bx(void) {
    return g.bx;
}
GW_EXPORT const float *gw_capsule_by(void) {
    return g.by;
}
GW_EXPORT const float *gw_capsule_radius(void) {
    return g.cr;
}
GW_EXPORT const uint8_t *gw_capsule_kind(void) {
    return g.kind;
}

GW_EXPORT double gw_bound(int which) {
    switch (which) {
    case 0:
        return g.left - WALL_RADIUS * 2;
    case 1:
        return g.right + WALL_RADIUS * 2;
    case 2:
        return -WALL_RADIUS * 2;
    default:
        return g.top;
    }
}

GW_EXPORT int gw_bin_count(void) {
    return g.bins;
}
GW_EXPORT const int32_t *gw_bins(void) {
    return g.count;
}
GW_EXPORT const int32_t *gw_bins_at(void) {
    return g.count_at;
}
