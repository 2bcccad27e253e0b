/* pachinko.c: a template for libcollide2d's batch layer. Copy it and build it against the
 * installed library:
 *
 *     cc -O2 pachinko.c $(pkg-config --cflags --libs collide2d) -o pachinko && ./pachinko
 *
 * 4096 balls fall through 256 static pins for 120 frames. Every frame:
 *   1. c2d_batch_sweep: each ball's earliest hit along its move (no tunnelling), then the ball
 *      moves to the touch and bounces (c2d_apply_impulse against a static pin);
 *   2. a count query (out NULL, capacity 0) sizes the contact buffer, c2d_batch_collide fills
 *      it, and each contact pushes its ball out of the pin and bounces it.
 * The data are structure-of-arrays: one array per coordinate, so the SIMD backends read them
 * directly. It prints the library version, the backend in use and per-frame totals. */
#include <stdio.h>
#include <stdlib.h>

#include <collide2d.h>

enum { BALLS = 4096, PINS = 256, FRAMES = 120 };

/* A small deterministic generator (xorshift32): the same board on every machine. */
static unsigned rng_state = 2463534242u;
static float uniform(float lo, float hi) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return lo + (hi - lo) * (float)(rng_state >> 8) * (1.0f / 16777216.0f);
}

/* The board: balls and pins as parallel arrays. */
static float ball_x[BALLS], ball_y[BALLS], ball_r[BALLS], vel_x[BALLS], vel_y[BALLS];
static float move_x[BALLS], move_y[BALLS];
static float pin_ax[PINS], pin_ay[PINS], pin_bx[PINS], pin_by[PINS], pin_r[PINS];

static void build_board(void) {
    for (size_t i = 0; i < BALLS; i++) {
        ball_x[i] = uniform(0.0f, 100.0f);
        ball_y[i] = uniform(0.0f, 100.0f);
        ball_r[i] = uniform(0.05f, 0.25f);
        vel_x[i] = uniform(-1.0f, 1.0f);
        vel_y[i] = 0.0f;
    }
    for (size_t k = 0; k < PINS; k++) { /* short tilted capsules on a 16 x 16 grid */
        const float cx = 3.0f + 6.25f * (float)(k % 16), cy = 3.0f + 6.25f * (float)(k / 16);
        const float half = uniform(0.25f, 2.5f), tilt = uniform(-0.5f, 0.5f);
        pin_ax[k] = cx - half, pin_ay[k] = cy - half * tilt;
        pin_bx[k] = cx + half, pin_by[k] = cy + half * tilt;
        pin_r[k] = uniform(0.05f, 0.5f);
    }
}

/* Bounces ball i off a static pin whose contact normal points toward the ball. */
static void bounce(size_t i, c2d_vec2 normal) {
    c2d_body ball = {{vel_x[i], vel_y[i]}, 1.0f, 0.6f};
    c2d_body pin = {{0.0f, 0.0f}, 0.0f, 0.6f}; /* inv_mass 0: static */
    c2d_apply_impulse(&ball, &pin, normal);
    vel_x[i] = ball.velocity.x, vel_y[i] = ball.velocity.y;
}

int main(void) {
    printf("libcollide2d %s (headers %s)\n", c2d_version_string(), C2D_VERSION_STRING);
    const char *asked;
    const c2d_backend_env env = c2d_backend_env_status(&asked);
    if (env == C2D_BACKEND_ENV_UNKNOWN || env == C2D_BACKEND_ENV_UNAVAILABLE)
        fprintf(stderr, "COLLIDE2D_BACKEND='%s': %s\n", asked, c2d_backend_env_string(env));
    printf("backend: %s\n", c2d_backend_name(c2d_backend_active()));

    build_board();
    const c2d_circle_soa balls = {ball_x, ball_y, ball_r, BALLS};
    const c2d_capsule_soa pins = {pin_ax, pin_ay, pin_bx, pin_by, pin_r, PINS};
    static c2d_circle_toi hits[BALLS];
    c2d_pair_contact *contacts = NULL;
    size_t capacity = 0, total_contacts = 0, total_hits = 0;
    const float dt = 1.0f / 60.0f, gravity = -9.8f;

    for (int frame = 0; frame < FRAMES; frame++) {
        /* 1. sweep each ball's move against every pin, move to the first touch, bounce */
        for (size_t i = 0; i < BALLS; i++) {
            vel_y[i] += gravity * dt;
            move_x[i] = vel_x[i] * dt, move_y[i] = vel_y[i] * dt;
        }
        c2d_status st = c2d_batch_sweep(&balls, move_x, move_y, &pins, hits);
        if (st != C2D_OK) {
            fprintf(stderr, "c2d_batch_sweep: %s\n", c2d_status_string(st));
            return 1;
        }
        for (size_t i = 0; i < BALLS; i++) {
            const float t = hits[i].capsule == C2D_NONE ? 1.0f : hits[i].toi.t;
            ball_x[i] += move_x[i] * t, ball_y[i] += move_y[i] * t;
            if (hits[i].capsule != C2D_NONE) {
                bounce(i, hits[i].toi.normal);
                total_hits++;
            }
            if (ball_y[i] < 0.0f) ball_y[i] += 100.0f, vel_y[i] = 0.0f; /* recycle at the top */
        }

        /* 2. contacts: ask how many, size the buffer, collect them, resolve them */
        size_t count;
        st = c2d_batch_collide(&balls, &pins, NULL, 0, &count); /* the count query */
        if (st != C2D_OK) {
            fprintf(stderr, "c2d_batch_collide: %s\n", c2d_status_string(st));
            return 1;
        }
        if (count > capacity) {
            capacity = count * 2;
            c2d_pair_contact *grown = realloc(contacts, capacity * sizeof *grown);
            if (!grown) {
                fprintf(stderr, "out of memory\n");
                return 1;
            }
            contacts = grown;
        }
        st = c2d_batch_collide(&balls, &pins, contacts, capacity, &count);
        if (st != C2D_OK) {
            fprintf(stderr, "c2d_batch_collide: %s\n", c2d_status_string(st));
            return 1;
        }
        for (size_t n = 0; n < count; n++) {
            const size_t i = contacts[n].circle;
            const c2d_contact c = contacts[n].contact;
            /* normal * depth leaves the ball touching the pin; a little slop parts them */
            const float push = c.depth + 1e-4f;
            ball_x[i] += c.normal.x * push, ball_y[i] += c.normal.y * push;
            bounce(i, c.normal);
        }
        total_contacts += count;
        if (frame % 30 == 0)
            printf("frame %3d: %4zu swept hits so far, %3zu contacts this frame\n", frame,
                   total_hits, count);
    }
    printf("%d frames, %d balls x %d pins: %zu swept hits, %zu contacts\n", FRAMES, BALLS, PINS,
           total_hits, total_contacts);
    free(contacts);
    return 0;
}
