/* pachinko.c: the frame loop of a libcollide2d game, ready to copy. Build it against the
 * installed library:
 *
 *     cc -O2 pachinko.c $(pkg-config --cflags --libs collide2d) -o pachinko && ./pachinko
 *
 * Balls fall through a walled board of staggered pins (circles, short capsules and thin
 * segments) and pile up on its floor. Every frame runs the frame loop of docs/frame_loop.md
 * (the path below the world, examples/world/pachinko.c):
 *   1. contacts: balls against pins (c2d_scene_collide) and against each other
 *      (c2d_scene_collide_circles), with a buffer that grows on C2D_ERROR_TRUNCATED;
 *   2. resolve: sequential impulses over both lists (c2d_solve_*_contacts);
 *   3. push out: the displacement that parts overlapping balls until they just touch
 *      (c2d_push_out_*), written into (dx, dy) rather than the positions, so that it is
 *      swept with the move: a crowd cannot push a ball into a wall;
 *   4. move by velocity * dt + (dx, dy): up to PASSES sweeps against the pins
 *      (c2d_scene_sweep), each followed by the advance (c2d_scene_advance: the whole move
 *      without a hit, t of it for a hit at t; never into a pin, where float rounding of
 *      x + move * t would have gone). A hit at t (t = 0: the ball was already touching and
 *      its move goes deeper): bounce, and sweep the rest of the frame at the new velocity
 *      without its part into the pin (c2d_slide_move): after a bounce that part is usually
 *      nothing; at t = 0 it makes the ball slide. A ball touching a pin and moving away gets
 *      no hit, so push-out's "just touching" never stops it.
 * The data are structure-of-arrays, one array per coordinate, so the SIMD backends read them
 * directly. It prints the library version, the backend, and per-frame totals.
 *
 * Compiled with PACHINKO_NO_MAIN, this file is the loop the tests run (test/sim/test_loop.c):
 * what docs/frame_loop.md shows is what is tested. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <collide2d.h>

/* Up to three sweeps a frame: a ball may bounce off one pin into a second and, in a corner,
 * into a third in the same frame; a move still left after that (a ball wedged between pins)
 * is dropped for this frame and the contacts of the next frame take over. */
enum { PASSES = 3 };

typedef struct board {
    size_t n, m;                     /* balls, pins (walls included) */
    float width, height;             /* the inside of the walls */
    float *x, *y, *r, *vx, *vy;      /* balls */
    float *inv_mass, *e;             /* per ball: 1 / mass, restitution */
    float *dx, *dy;                  /* this frame's push-out */
    float *mx, *my, *left;           /* this frame's move, and the fraction of the frame left */
    float *t;                        /* a pass's fraction of each move (its hit time, or 1) */
    float *sx, *sy, *sr, *smx, *smy; /* the balls still moving in a pass, compact */
    uint32_t *active;                /* their indices */
    float *ax, *ay, *bx, *by, *R;    /* pins */
    float *pin_e;                    /* per pin: restitution */
    c2d_scene *scene;                /* the pins, indexed once */
    c2d_circle_toi *hits;            /* one per ball */
    c2d_capsule_pair_contact *pin_contacts;
    c2d_circle_pair_contact *ball_contacts;
    size_t pin_cap, ball_cap, n_pin, n_ball;
    size_t swept_hits, start_hits; /* totals: sweep hits, and those at t = 0 */
} board;

/* A small deterministic generator (xorshift32): the same board on every machine. */
static float uniform(unsigned *s, float lo, float hi) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return lo + (hi - lo) * (float)(*s >> 8) * (1.0f / 16777216.0f);
}

/* sqrt(v) for v >= 1 by Newton's method: the template links against the library alone (no
 * libm), and the board is the same on every machine. */
static float square_root(float v) {
    float r = v;
    for (int k = 0; k < 40; k++)
        r = 0.5f * (r + v / r);
    return r;
}

static void add_pin(board *b, float ax, float ay, float bx, float by, float R, float e) {
    const size_t k = b->m++;
    b->ax[k] = ax, b->ay[k] = ay, b->bx[k] = bx, b->by[k] = by, b->R[k] = R, b->pin_e[k] = e;
}

static void board_free(board *b) {
    void *blocks[] = {b->x,  b->y,  b->r,  b->vx,    b->vy,   b->inv_mass,     b->e,
                      b->dx, b->dy, b->mx, b->my,    b->left, b->ax,           b->ay,
                      b->bx, b->by, b->R,  b->pin_e, b->hits, b->pin_contacts, b->ball_contacts,
                      b->sx, b->sy, b->sr, b->smx,   b->smy,  b->active,       b->t};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
        free(blocks[k]);
    c2d_scene_destroy(b->scene);
    memset(b, 0, sizeof *b);
}

static float *floats(size_t n) {
    return calloc(n ? n : 1, sizeof(float));
}

/* n balls above a board of rows x columns staggered pins, inside four walls. Returns 0, or -1
 * when out of memory or the scene cannot be made. */
static int board_make(board *b, size_t n, unsigned seed) {
    memset(b, 0, sizeof *b);
    /* 100 units wide for 10,000 balls, wider in proportion to sqrt(n) beyond; tall enough for
     * the balls to start above the pins */
    const float scale = n > 10000 ? square_root((float)n / 10000.0f) : 1.0f;
    const size_t columns = (size_t)(24.0f * scale), rows = 14, max_pins = 4 + rows * columns;
    const size_t per_row = (size_t)((100.0f * scale - 2.0f) / 0.7f);
    b->n = n;
    b->width = 100.0f * scale;
    b->height = 112.0f + 0.7f * (float)((n + per_row - 1) / per_row) + 2.0f;
    float **ball_arrays[] = {&b->x,  &b->y,  &b->r,  &b->vx,  &b->vy,  &b->inv_mass,
                             &b->e,  &b->dx, &b->dy, &b->mx,  &b->my,  &b->left,
                             &b->sx, &b->sy, &b->sr, &b->smx, &b->smy, &b->t};
    for (size_t k = 0; k < sizeof ball_arrays / sizeof ball_arrays[0]; k++)
        if (!(*ball_arrays[k] = floats(n))) return board_free(b), -1;
    float **pin_arrays[] = {&b->ax, &b->ay, &b->bx, &b->by, &b->R, &b->pin_e};
    for (size_t k = 0; k < sizeof pin_arrays / sizeof pin_arrays[0]; k++)
        if (!(*pin_arrays[k] = floats(max_pins))) return board_free(b), -1;
    if (!(b->hits = malloc((n ? n : 1) * sizeof *b->hits))) return board_free(b), -1;
    if (!(b->active = malloc((n ? n : 1) * sizeof *b->active))) return board_free(b), -1;

    /* walls: capsules of radius 1 just outside the inside box */
    const float W = b->width, H = b->height;
    add_pin(b, -1, -1, W + 1, -1, 1, 0.3f);       /* floor */
    add_pin(b, -1, H + 1, W + 1, H + 1, 1, 0.3f); /* ceiling */
    add_pin(b, -1, -1, -1, H + 1, 1, 0.3f);       /* left */
    add_pin(b, W + 1, -1, W + 1, H + 1, 1, 0.3f); /* right */
    /* pins: rows alternate circles, short tilted capsules and thin segments, every other row
     * shifted by half a column */
    for (size_t row = 0; row < rows; row++) {
        const float y = 40.0f + 5.0f * (float)row;
        for (size_t col = 0; col < columns; col++) {
            /* 2 to 4 units clear of the walls: no gap a ball could wedge in */
            const float x = 3.0f + ((W - 6.0f) / columns) * ((float)col + (row % 2 ? 0.5f : 0.0f));
            switch (row % 3) {
            case 0:
                add_pin(b, x, y, x, y, 0.6f, 0.5f);
                break; /* a circle */
            case 1:
                add_pin(b, x - 0.8f, y - 0.3f, x + 0.8f, y + 0.3f, 0.25f, 0.5f);
                break;
            default:
                add_pin(b, x - 1.0f, y + 0.4f, x + 1.0f, y - 0.4f, 0.0f, 0.5f);
                break;
            }
        }
    }
    /* balls: a jittered grid above the pins (0.7 apart, so they start apart), moving a little */
    for (size_t i = 0; i < n; i++) {
        b->x[i] = 1.0f + 0.7f * (float)(i % per_row) + uniform(&seed, -0.05f, 0.05f);
        b->y[i] = H - 1.5f - 0.7f * (float)(i / per_row);
        b->r[i] = uniform(&seed, 0.15f, 0.3f);
        b->vx[i] = uniform(&seed, -3.0f, 3.0f);
        b->vy[i] = uniform(&seed, -3.0f, 0.0f);
        b->inv_mass[i] = 1.0f / (b->r[i] * b->r[i]);
        b->e[i] = 0.5f;
    }
    const c2d_capsule_soa pins = {
        .ax = b->ax, .ay = b->ay, .bx = b->bx, .by = b->by, .radius = b->R, .count = b->m};
    if (c2d_scene_create(&pins, NULL, &b->scene) != C2D_OK) return board_free(b), -1;
    return 0;
}

static int fail(const char *what, c2d_status st) {
    fprintf(stderr, "%s: %s\n", what, c2d_status_string(st));
    return -1;
}

/* Grows *buf to hold `need` entries of `size` bytes (twice as many, to grow rarely). */
static int grow(void **buf, size_t *cap, size_t need, size_t size) {
    void *p = realloc(*buf, 2 * need * size);
    if (!p) return -1;
    *buf = p;
    *cap = 2 * need;
    return 0;
}

/* Whether a call must be made again with a larger buffer: it said C2D_ERROR_TRUNCATED, or it
 * had no buffer at all (capacity 0 is the size query: C2D_OK, the total in the count, nothing
 * written). Either way the count holds the total. */
static int buffer_short(c2d_status st, size_t count, size_t capacity) {
    return st == C2D_ERROR_TRUNCATED || (st == C2D_OK && count > capacity);
}

/* Step 1: both contact lists, each buffer grown to the total when it is short. */
static int find_contacts(board *b) {
    const c2d_circle_soa balls = {.x = b->x, .y = b->y, .radius = b->r, .count = b->n};
    c2d_status st = c2d_scene_collide(b->scene, &balls, b->pin_contacts, b->pin_cap, &b->n_pin);
    if (buffer_short(st, b->n_pin, b->pin_cap)) {
        if (grow((void **)&b->pin_contacts, &b->pin_cap, b->n_pin, sizeof *b->pin_contacts))
            return fail("pin contacts", C2D_ERROR_ALLOC);
        st = c2d_scene_collide(b->scene, &balls, b->pin_contacts, b->pin_cap, &b->n_pin);
    }
    if (st != C2D_OK) return fail("c2d_scene_collide", st);
    st = c2d_scene_collide_circles(b->scene, &balls, b->ball_contacts, b->ball_cap, &b->n_ball);
    if (buffer_short(st, b->n_ball, b->ball_cap)) {
        if (grow((void **)&b->ball_contacts, &b->ball_cap, b->n_ball, sizeof *b->ball_contacts))
            return fail("ball contacts", C2D_ERROR_ALLOC);
        st = c2d_scene_collide_circles(b->scene, &balls, b->ball_contacts, b->ball_cap, &b->n_ball);
    }
    if (st != C2D_OK) return fail("c2d_scene_collide_circles", st);
    return 0;
}

/* Bounces ball i off a static pin (normal toward the ball): c2d_apply_impulse against a body
 * of inverse mass 0 with the pin's restitution. */
static void bounce(board *b, size_t i, uint32_t pin, c2d_vec2 normal) {
    c2d_body ball = {{b->vx[i], b->vy[i]}, b->inv_mass[i], b->e[i]};
    c2d_body still = {{0.0f, 0.0f}, 0.0f, b->pin_e[pin]};
    c2d_apply_impulse(&ball, &still, normal);
    b->vx[i] = ball.velocity.x, b->vy[i] = ball.velocity.y;
}

/* Ball i hit a pin (sweep hit `h`; the advance took it to the touch): bounce, and leave the
 * rest of the frame at the new velocity, without any part into the pin. */
static void bounce_and_slide(board *b, size_t i, const c2d_circle_toi *h, float dt) {
    b->swept_hits++;
    const float t = h->toi.t;
    if (t == 0.0f) b->start_hits++;
    bounce(b, i, h->capsule, h->toi.normal);
    b->left[i] *= 1.0f - t;
    const c2d_vec2 rest = {b->vx[i] * dt * b->left[i], b->vy[i] * dt * b->left[i]};
    const c2d_vec2 slid = c2d_slide_move(rest, h->toi.normal);
    b->mx[i] = slid.x, b->my[i] = slid.y;
}

/* One pass of step 4 over n balls at (x, y) of radii r with their moves (the board's balls, or
 * the compact set of those still moving): sweep, then advance each ball by its hit time (1: no hit,
 * the whole move) in place. c2d_scene_advance is `x += move * t` except where float rounding would
 * take a ball closer to a pin than it was (or than touching): there it stops short, so a ball
 * wedged between pins cannot ratchet through the gap. */
static int sweep_and_advance(board *b, float *x, float *y, const float *r, size_t n,
                             const float *move_x, const float *move_y) {
    const c2d_circle_soa set = {.x = x, .y = y, .radius = r, .count = n};
    c2d_status st = c2d_scene_sweep(b->scene, &set, move_x, move_y, b->hits);
    if (st != C2D_OK) return fail("c2d_scene_sweep", st);
    for (size_t k = 0; k < n; k++)
        b->t[k] = b->hits[k].capsule == C2D_NONE ? 1.0f : b->hits[k].toi.t;
    const c2d_move_soa moves = {.x = move_x, .y = move_y};
    st = c2d_scene_advance(b->scene, &set, &moves, b->t, x, y);
    return st == C2D_OK ? 0 : fail("c2d_scene_advance", st);
}

/* Step 4: move every ball by its velocity over dt plus its push-out, swept against the pins,
 * with bounce and slide. The first pass sweeps the board's own arrays; each later pass sweeps
 * the balls still moving, copied into a compact set, so it costs only the few balls that hit. */
static int move_balls(board *b, float dt) {
    for (size_t i = 0; i < b->n; i++) {
        b->left[i] = 1.0f;
        b->mx[i] = b->vx[i] * dt + b->dx[i], b->my[i] = b->vy[i] * dt + b->dy[i];
    }
    if (sweep_and_advance(b, b->x, b->y, b->r, b->n, b->mx, b->my) != 0) return -1;
    size_t moving = 0;
    for (size_t i = 0; i < b->n; i++)
        if (b->hits[i].capsule != C2D_NONE) {
            bounce_and_slide(b, i, &b->hits[i], dt);
            b->active[moving++] = (uint32_t)i;
        }
    for (int pass = 1; pass < PASSES && moving > 0; pass++) {
        for (size_t k = 0; k < moving; k++) {
            const uint32_t i = b->active[k];
            b->sx[k] = b->x[i], b->sy[k] = b->y[i], b->sr[k] = b->r[i];
            b->smx[k] = b->mx[i], b->smy[k] = b->my[i];
        }
        if (sweep_and_advance(b, b->sx, b->sy, b->sr, moving, b->smx, b->smy) != 0) return -1;
        size_t still = 0;
        for (size_t k = 0; k < moving; k++) {
            const uint32_t i = b->active[k];
            b->x[i] = b->sx[k], b->y[i] = b->sy[k];
            if (b->hits[k].capsule == C2D_NONE) continue;
            bounce_and_slide(b, i, &b->hits[k], dt);
            b->active[still++] = i;
        }
        moving = still;
    }
    return 0;
}

/* Steps 2 and 3: impulses (velocities), then push-out into (dx, dy), over both lists. */
static int resolve(board *b) {
    const c2d_body_soa bodies = {.x = b->dx,
                                 .y = b->dy,
                                 .vx = b->vx,
                                 .vy = b->vy,
                                 .inv_mass = b->inv_mass,
                                 .restitution = b->e,
                                 .count = b->n};
    const c2d_capsule_body_soa pins = {.restitution = b->pin_e, .count = b->m};
    const c2d_solve_def with_pins = {.capsules = &pins};
    c2d_status st = c2d_solve_circle_contacts(&bodies, b->ball_contacts, b->n_ball, NULL);
    if (st == C2D_OK)
        st = c2d_solve_capsule_contacts(&bodies, b->pin_contacts, b->n_pin, &with_pins);
    return st == C2D_OK ? 0 : fail("resolve", st);
}

static int push_out(board *b) {
    memset(b->dx, 0, b->n * sizeof *b->dx);
    memset(b->dy, 0, b->n * sizeof *b->dy);
    const c2d_body_soa bodies = {.x = b->dx,
                                 .y = b->dy,
                                 .vx = b->vx,
                                 .vy = b->vy,
                                 .inv_mass = b->inv_mass,
                                 .restitution = b->e,
                                 .count = b->n};
    c2d_status st = c2d_push_out_circle_contacts(&bodies, b->ball_contacts, b->n_ball);
    if (st == C2D_OK) st = c2d_push_out_capsule_contacts(&bodies, b->pin_contacts, b->n_pin);
    return st == C2D_OK ? 0 : fail("push-out", st);
}

/* Gravity, after the impulses: a ball resting on a pin is not bounced by the speed gravity
 * just gave it. */
static void fall(board *b, float dt, float gravity) {
    for (size_t i = 0; i < b->n; i++)
        b->vy[i] += gravity * dt;
}

/* One frame of dt seconds. */
static int board_frame(board *b, float dt, float gravity) {
    if (find_contacts(b) != 0 || resolve(b) != 0 || push_out(b) != 0) return -1;
    fall(b, dt, gravity);
    return move_balls(b, dt);
}

#ifndef PACHINKO_NO_MAIN
int main(int argc, char **argv) {
    const size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 10000;
    const int frames = argc > 2 ? atoi(argv[2]) : 400;
    printf("libcollide2d %s (headers %s)\n", c2d_version_string(), C2D_VERSION_STRING);
    const char *asked;
    const c2d_backend_env env = c2d_backend_env_status(&asked);
    if (env == C2D_BACKEND_ENV_UNKNOWN || env == C2D_BACKEND_ENV_UNAVAILABLE)
        fprintf(stderr, "COLLIDE2D_BACKEND='%s': %s\n", asked, c2d_backend_env_string(env));
    printf("backend: %s\n", c2d_backend_name(c2d_backend_active()));

    board b;
    if (board_make(&b, n, 2463534242u) != 0) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    const float dt = 1.0f / 60.0f, gravity = -9.8f;
    size_t contacts = 0;
    for (int frame = 0; frame < frames; frame++) {
        if (board_frame(&b, dt, gravity) != 0) return board_free(&b), 1;
        contacts += b.n_pin + b.n_ball;
        if (frame % 100 == 0)
            printf("frame %3d: %zu pin and %zu ball contacts, %zu swept hits so far\n", frame,
                   b.n_pin, b.n_ball, b.swept_hits);
    }
    printf("%d frames, %zu balls x %zu pins: %zu swept hits (%zu at t = 0), %zu contacts\n", frames,
           b.n, b.m, b.swept_hits, b.start_hits, contacts);
    board_free(&b);
    return 0;
}
#endif
