/* pinball.c: a small table that uses the queries a game reaches for after the frame loop:
 * collision filters, a sensor, a moving capsule (a flipper) and ray casts. Build it against
 * the installed library:
 *
 *     cc -O2 pinball.c $(pkg-config --cflags --libs collide2d) -o pinball && ./pinball
 *
 * The table (x in [0, 10], y up from the floor at 0):
 *   - walls, a floor and a few round pins, on the layer SOLID;
 *   - a slanted gate across the upper table, on the layer GATE. Plain balls meet it and roll
 *     off its lower end; "ghost" balls do not have GATE in their mask and fall through it
 *     (collide2d/filter.h: a pair meets only when each side's category is in the other's mask);
 *   - a drain along the floor, a SENSOR: balls pass through it (the collide calls and the
 *     sweeps skip sensors), and a region query of the balls as discs, with a mask holding only
 *     the drain's layer, tells which balls lie in it;
 *   - a flipper turning about its hinge (a moving capsule: c2d_scene_sweep_moving with
 *     substeps, as examples/flipper.c explains), in the frame loop's collide and slide
 *     (docs/frame_loop.md);
 *   - a laser across the table: each frame, a ray cast (c2d_scene_ray_cast) against the table
 *     and the balls reports what it meets first. Its mask leaves out GATE, so the gate does
 *     not block it, and the drain, a sensor, never does.
 * Balls do not hit each other here (examples/pachinko.c shows that part of the loop).
 *
 * Compiled with PINBALL_NO_MAIN, this file is what test/sim/test_pinball.c runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <collide2d.h>

enum { SOLID = 1u << 0, GATE = 1u << 1, DRAIN = 1u << 2, BALL = 1u << 3, LASER = 1u << 4 };
enum { FLIPPER = 0, GATE_CAPSULE = 1, DRAIN_CAPSULE = 2, PINS = 4, CAPSULES = 10 };
enum { MAX_BALLS = 16, SUBSTEPS = 16, PASSES = 3 };

typedef struct pinball {
    size_t n; /* balls */
    float x[MAX_BALLS], y[MAX_BALLS], r[MAX_BALLS], vx[MAX_BALLS], vy[MAX_BALLS];
    float inv_mass[MAX_BALLS], e[MAX_BALLS], mx[MAX_BALLS], my[MAX_BALLS];
    float t[MAX_BALLS]; /* a pass's fraction of each move: its hit time, or 1 */
    uint32_t category[MAX_BALLS], mask[MAX_BALLS]; /* per ball: BALL, and what it meets */
    uint32_t drain_only[MAX_BALLS];                /* DRAIN for every ball: the sensor query */
    float ax[CAPSULES], ay[CAPSULES], bx[CAPSULES], by[CAPSULES], R[CAPSULES];
    uint32_t kcat[CAPSULES], kmask[CAPSULES];
    uint8_t sensor[CAPSULES];
    float ke[CAPSULES], kw[CAPSULES], pivot_x[CAPSULES], pivot_y[CAPSULES]; /* as bodies */
    float kmx[CAPSULES], kmy[CAPSULES]; /* this substep's capsule moves: the flipper's only */
    float angle, target, omega, length; /* the flipper */
    c2d_scene *scene;
    c2d_circle_toi hits[MAX_BALLS];
    c2d_capsule_pair_contact contacts[MAX_BALLS * CAPSULES];
    c2d_query_pair in_drain[MAX_BALLS];
    size_t n_in_drain;
    c2d_ray_hit laser;
    size_t sweep_hits;
} pinball;

/* cos and sin of a (|a| <= 2) by their Taylor series in double, as in examples/flipper.c. */
static void cos_sin(float a, float *c, float *s) {
    double term = 1.0, cs = 0.0, sn = 0.0;
    for (int k = 0; k < 24; k++) {
        if (k % 4 == 0) cs += term;
        if (k % 4 == 1) sn += term;
        if (k % 4 == 2) cs -= term;
        if (k % 4 == 3) sn -= term;
        term *= (double)a / (k + 1);
    }
    *c = (float)cs;
    *s = (float)sn;
}

static void set_capsule(pinball *p, int k, float ax, float ay, float bx, float by, float r,
                        uint32_t category) {
    p->ax[k] = ax, p->ay[k] = ay, p->bx[k] = bx, p->by[k] = by, p->R[k] = r;
    p->kcat[k] = category;
    p->kmask[k] = BALL | LASER; /* every capsule meets balls and the laser; the balls choose */
    p->ke[k] = 0.5f;
}

static void flipper_pose(pinball *p) {
    float c, s;
    cos_sin(p->angle, &c, &s);
    p->bx[FLIPPER] = p->ax[FLIPPER] + c * p->length;
    p->by[FLIPPER] = p->ay[FLIPPER] + s * p->length;
}

static int fail(const char *what, c2d_status st) {
    fprintf(stderr, "%s: %s\n", what, c2d_status_string(st));
    return -1;
}

/* The table, and n balls falling from the top; ball i is a ghost when i is odd. */
static int pinball_make(pinball *p, size_t n) {
    memset(p, 0, sizeof *p);
    if (n > MAX_BALLS) return -1;
    p->length = 2.5f, p->angle = p->target = -0.4f, p->omega = 15.0f;
    set_capsule(p, FLIPPER, 3.0f, 2.5f, 0.0f, 0.0f, 0.25f, SOLID);
    p->pivot_x[FLIPPER] = 3.0f, p->pivot_y[FLIPPER] = 2.5f, p->ke[FLIPPER] = 0.9f;
    flipper_pose(p);
    set_capsule(p, GATE_CAPSULE, 0.0f, 11.0f, 7.5f, 9.0f, 0.1f, GATE);
    set_capsule(p, DRAIN_CAPSULE, 0.5f, 0.6f, 9.5f, 0.6f, 0.6f, DRAIN);
    p->sensor[DRAIN_CAPSULE] = 1;
    set_capsule(p, 3, 0.0f, 0.0f, 10.0f, 0.0f, 0.1f, SOLID);   /* the floor */
    set_capsule(p, 4, 0.0f, 0.0f, 0.0f, 16.0f, 0.1f, SOLID);   /* the left wall */
    set_capsule(p, 5, 10.0f, 0.0f, 10.0f, 16.0f, 0.1f, SOLID); /* the right wall */
    for (int k = 6; k < CAPSULES; k++) {                       /* round pins */
        const float px = 2.0f + 2.0f * (float)(k - 6), py = k % 2 ? 6.0f : 5.0f;
        set_capsule(p, k, px, py, px, py, 0.35f, SOLID);
    }
    p->n = n;
    for (size_t i = 0; i < n; i++) {
        p->x[i] = 1.2f + 0.55f * (float)i, p->y[i] = 14.0f + 0.3f * (float)(i % 3);
        p->r[i] = 0.2f, p->inv_mass[i] = 1.0f, p->e[i] = 0.5f;
        p->category[i] = BALL;
        p->mask[i] = i % 2 ? SOLID : SOLID | GATE; /* a ghost does not meet the gate */
        p->drain_only[i] = DRAIN;
    }
    const c2d_capsule_soa table = {.ax = p->ax,
                                   .ay = p->ay,
                                   .bx = p->bx,
                                   .by = p->by,
                                   .radius = p->R,
                                   .count = CAPSULES,
                                   .category = p->kcat,
                                   .mask = p->kmask,
                                   .sensor = p->sensor};
    const c2d_status st = c2d_scene_create(&table, NULL, &p->scene);
    return st == C2D_OK ? 0 : fail("c2d_scene_create", st);
}

static void pinball_free(pinball *p) {
    c2d_scene_destroy(p->scene);
    p->scene = NULL;
}

static c2d_circle_soa balls_of(const pinball *p) {
    const c2d_circle_soa balls = {.x = p->x,
                                  .y = p->y,
                                  .radius = p->r,
                                  .count = p->n,
                                  .category = p->category,
                                  .mask = p->mask};
    return balls;
}

/* Bounce ball i off capsule k, whose surface at the touch point moves at (ux, uy). Slower
 * than 0.5 along the normal it only stops (no bounce): a resting ball does not hop. */
static void bounce(pinball *p, size_t i, uint32_t k, c2d_vec2 normal, float ux, float uy) {
    const float approach = -((p->vx[i] - ux) * normal.x + (p->vy[i] - uy) * normal.y);
    c2d_body ball = {{p->vx[i], p->vy[i]}, p->inv_mass[i], p->e[i]};
    c2d_body capsule = {{ux, uy}, 0.0f, approach < 0.5f ? 0.0f : p->ke[k]};
    c2d_apply_impulse(&ball, &capsule, normal);
    p->vx[i] = ball.velocity.x, p->vy[i] = ball.velocity.y;
}

/* One substep of h seconds: turn the flipper, sweep, move the flipper, contacts. */
static int substep(pinball *p, float h, float gravity) {
    float turn = p->target - p->angle;
    const float most = p->omega * h;
    turn = turn > most ? most : turn < -most ? -most : turn;
    const float w = turn / h;
    p->kw[FLIPPER] = w;
    /* the flipper's sweep move: its tip's displacement along its normal (examples/flipper.c) */
    const float ux = (p->bx[FLIPPER] - p->ax[FLIPPER]) / p->length;
    const float uy = (p->by[FLIPPER] - p->ay[FLIPPER]) / p->length;
    const float tip = w * h * p->length;
    p->kmx[FLIPPER] = -uy * tip, p->kmy[FLIPPER] = ux * tip;
    for (size_t i = 0; i < p->n; i++) {
        p->vy[i] += gravity * h;
        p->mx[i] = p->vx[i] * h, p->my[i] = p->vy[i] * h;
    }
    /* Collide and slide (docs/frame_loop.md): up to PASSES sweeps, each followed by the
     * advance (c2d_scene_advance); a hit advances to the touch, bounces, and the rest of the
     * substep is swept again at the new velocity, its part into the capsule removed when the ball
     * was already touching (t = 0). The first pass sees the flipper move; later passes see the
     * table as it is (a ball bounced off the flipper heads away from it, and the contacts below
     * catch the rest). */
    const c2d_circle_soa balls = balls_of(p);
    const c2d_move_soa moves = {.x = p->mx, .y = p->my}, table_moves = {.x = p->kmx, .y = p->kmy};
    c2d_status st = C2D_OK;
    for (int pass = 0; pass < PASSES; pass++) {
        st = c2d_scene_sweep_moving(p->scene, &balls, &moves, pass == 0 ? &table_moves : NULL,
                                    p->hits);
        if (st != C2D_OK) return fail("c2d_scene_sweep_moving", st);
        /* advance by the hit times, in place: never closer to a capsule where the scene holds
         * it (the flipper at the substep's start) than float rounding of x + move * t would
         * take a ball */
        for (size_t i = 0; i < p->n; i++)
            p->t[i] = p->hits[i].capsule == C2D_NONE ? 1.0f : p->hits[i].toi.t;
        st = c2d_scene_advance(p->scene, &balls, &moves, p->t, p->x, p->y);
        if (st != C2D_OK) return fail("c2d_scene_advance", st);
        for (size_t i = 0; i < p->n; i++) {
            const c2d_circle_toi *hit = &p->hits[i];
            if (hit->capsule == C2D_NONE) {
                p->mx[i] = p->my[i] = 0.0f; /* done for this substep */
                continue;
            }
            p->sweep_hits++;
            const float t = hit->toi.t;
            const c2d_vec2 q = hit->toi.point; /* the surface there moves at w x (q - pivot) */
            const float kw = pass == 0 ? p->kw[hit->capsule] : 0.0f;
            bounce(p, i, hit->capsule, hit->toi.normal, -kw * (q.y - p->pivot_y[hit->capsule]),
                   kw * (q.x - p->pivot_x[hit->capsule]));
            c2d_vec2 rest = {p->vx[i] * h * (1.0f - t), p->vy[i] * h * (1.0f - t)};
            if (t == 0.0f) rest = c2d_slide_move(rest, hit->toi.normal);
            p->mx[i] = rest.x, p->my[i] = rest.y; /* a move left after the last pass is dropped */
        }
    }
    p->angle += turn;
    flipper_pose(p);
    /* moving one capsule: its filter words stay (the set carries none) */
    const c2d_capsule_soa flipper = {
        .ax = p->ax, .ay = p->ay, .bx = p->bx, .by = p->by, .radius = p->R, .count = 1};
    st = c2d_scene_move_capsules(p->scene, FLIPPER, &flipper);
    if (st != C2D_OK) return fail("c2d_scene_move_capsules", st);
    size_t count;
    st = c2d_scene_collide(p->scene, &balls, p->contacts, MAX_BALLS * CAPSULES, &count);
    if (st != C2D_OK) return fail("c2d_scene_collide", st);
    const c2d_body_soa bodies = {.x = p->x,
                                 .y = p->y,
                                 .vx = p->vx,
                                 .vy = p->vy,
                                 .inv_mass = p->inv_mass,
                                 .restitution = p->e,
                                 .count = p->n};
    const c2d_capsule_body_soa table = {.restitution = p->ke,
                                        .angular_velocity = p->kw,
                                        .pivot_x = p->pivot_x,
                                        .pivot_y = p->pivot_y,
                                        .count = CAPSULES};
    const c2d_solve_def with_table = {.capsules = &table};
    st = c2d_solve_capsule_contacts(&bodies, p->contacts, count, &with_table);
    if (st == C2D_OK) st = c2d_push_out_capsule_contacts(&bodies, p->contacts, count);
    return st == C2D_OK ? 0 : fail("resolve / push-out", st);
}

/* After a frame: the balls in the drain (a sensor query) and the laser (a ray cast). */
static int look(pinball *p) {
    const c2d_circle_soa probes = {.x = p->x,
                                   .y = p->y,
                                   .radius = p->r,
                                   .count = p->n,
                                   .category = p->category,
                                   .mask = p->drain_only};
    c2d_status st = c2d_scene_query_disc(p->scene, &probes, p->in_drain, MAX_BALLS, &p->n_in_drain);
    if (st != C2D_OK) return fail("c2d_scene_query_disc", st);
    const float ox = 9.8f, oy = 3.0f, dx = -9.7f, dy = 0.0f;
    const uint32_t laser_cat = LASER, laser_mask = SOLID | BALL; /* not GATE, not DRAIN */
    const c2d_ray_soa laser = {.x = &ox,
                               .y = &oy,
                               .dx = &dx,
                               .dy = &dy,
                               .count = 1,
                               .category = &laser_cat,
                               .mask = &laser_mask};
    /* the balls as ray targets: they meet the laser too */
    uint32_t targets_mask[MAX_BALLS];
    for (size_t i = 0; i < p->n; i++)
        targets_mask[i] = LASER;
    const c2d_circle_soa targets = {.x = p->x,
                                    .y = p->y,
                                    .radius = p->r,
                                    .count = p->n,
                                    .category = p->category,
                                    .mask = targets_mask};
    st = c2d_scene_ray_cast(p->scene, &laser, &targets, &p->laser);
    return st == C2D_OK ? 0 : fail("c2d_scene_ray_cast", st);
}

static int pinball_frame(pinball *p, float dt, float gravity) {
    for (int s = 0; s < SUBSTEPS; s++)
        if (substep(p, dt / (float)SUBSTEPS, gravity) != 0) return -1;
    return look(p);
}

#ifndef PINBALL_NO_MAIN
int main(void) {
    enum { BALLS = 8, FRAMES = 360 };
    printf("libcollide2d %s, backend %s\n", c2d_version_string(),
           c2d_backend_name(c2d_backend_active()));
    pinball p;
    if (pinball_make(&p, BALLS) != 0) return 1;
    const float dt = 1.0f / 60.0f, gravity = -9.8f;
    for (int f = 0; f < FRAMES; f++) {
        p.target = f >= 85 && f < 105 ? 0.5f : -0.4f; /* the button, pressed for 1/3 s */
        if (pinball_frame(&p, dt, gravity) != 0) return pinball_free(&p), 1;
        if (f % 45 == 44) {
            printf("frame %3d: %zu balls in the drain; the laser meets ", f + 1, p.n_in_drain);
            if (p.laser.kind == C2D_SHAPE_CIRCLE)
                printf("ball %u at t = %.3f\n", p.laser.shape, (double)p.laser.toi.t);
            else if (p.laser.kind == C2D_SHAPE_CAPSULE)
                printf("capsule %u at t = %.3f\n", p.laser.shape, (double)p.laser.toi.t);
            else
                printf("nothing\n");
        }
    }
    for (size_t i = 0; i < BALLS; i++)
        printf("ball %zu (%s): at (%.2f, %.2f)\n", i, i % 2 ? "ghost" : "plain", (double)p.x[i],
               (double)p.y[i]);
    printf("%zu sweep hits\n", p.sweep_hits);
    pinball_free(&p);
    return 0;
}
#endif
