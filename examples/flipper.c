/* flipper.c: a pinball flipper, a capsule turning about its hinge, hitting falling balls. Build
 * it against the installed library:
 *
 *     cc -O2 flipper.c $(pkg-config --cflags --libs collide2d) -o flipper && ./flipper
 *
 * The library sweeps capsules that translate; a turning one is handled with substeps
 * (docs/frame_loop.md, moving capsules; the world does it itself: examples/world/pinball.c).
 * Each frame is cut into SUBSTEPS substeps of h = dt / SUBSTEPS, and each substep:
 *   1. turns the flipper by at most omega h toward its target angle: the substep's angular
 *      velocity is w = (angle turned) / h;
 *   2. sweeps the balls' moves v h against the flipper moving by a translation that covers the
 *      turn: the tip's displacement |w| h L along the flipper's normal (on the side it turns
 *      to). Every point of the turning flipper stays inside the region this translated capsule
 *      sweeps, so no ball can cross it unseen (c2d_batch_sweep_moving). A ball hit at
 *      t advances to the touch (c2d_scene_advance, against the flipper where it stands) and bounces
 * off a body of infinite mass moving at the flipper's velocity at the touch point, w x (point -
 * hinge) (c2d_apply_impulse); the rest of its substep is dropped (the next substep goes on);
 *   3. moves the flipper to its new angle (c2d_scene_move_capsules);
 *   4. finds the contacts with the flipper where it now is (c2d_scene_collide), resolves them
 *      with the flipper's velocity at each contact point (c2d_solve_capsule_contacts:
 *      angular velocity w about the hinge) and pushes the balls out (c2d_push_out_*).
 * No tunnelling needs: the tip moving less than a ball's radius plus the flipper's radius in a
 * substep (L |omega| h < r + R), so that a ball overlapped by the turn is still on its own side
 * of the axis and the push-out sends it back there. Balls do not hit each other here
 * (examples/pachinko.c shows that part of the loop).
 *
 * Compiled with FLIPPER_NO_MAIN, this file is what test/sim/test_flipper.c runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <collide2d.h>

typedef struct flipper_game {
    size_t n;                       /* balls */
    float *x, *y, *r, *vx, *vy;     /* balls */
    float *inv_mass, *e, *mx, *my;  /* per ball: 1 / mass, restitution, this substep's move */
    float *t;                       /* per ball: the fraction of its move it advances by */
    float hinge_x, hinge_y, length; /* the flipper: turning about its hinge */
    float angle, target, omega;     /* its angle, where it turns to, at most how fast */
    float e_flipper;                /* its restitution */
    float w;                        /* this substep's angular velocity */
    float ax[1], ay[1], bx[1], by[1], R[1]; /* the flipper as a capsule */
    float kmx[1], kmy[1];                   /* its translation for the sweep */
    c2d_scene *scene;
    c2d_circle_toi *hits;
    c2d_capsule_pair_contact *contacts;
    size_t contact_cap, sweep_hits;
} flipper_game;

/* cos and sin of a (|a| <= 2) by their Taylor series in double: the example links against the
 * library alone (no libm), and the answer is the same on every machine. */
static void cos_sin(float a, float *c, float *s) {
    double term = 1.0, cs = 0.0, sn = 0.0;
    for (int k = 0; k < 24; k++) { /* term = a^k / k! */
        if (k % 4 == 0) cs += term;
        if (k % 4 == 1) sn += term;
        if (k % 4 == 2) cs -= term;
        if (k % 4 == 3) sn -= term;
        term *= (double)a / (k + 1);
    }
    *c = (float)cs;
    *s = (float)sn;
}

/* The flipper's capsule at its current angle: from the hinge along (cos, sin) * length. */
static void flipper_pose(flipper_game *g) {
    float c, s;
    cos_sin(g->angle, &c, &s);
    g->ax[0] = g->hinge_x, g->ay[0] = g->hinge_y;
    g->bx[0] = g->hinge_x + c * g->length, g->by[0] = g->hinge_y + s * g->length;
}

static void game_free(flipper_game *g) {
    void *blocks[] = {g->x, g->y,  g->r,  g->vx, g->vy,   g->inv_mass,
                      g->e, g->mx, g->my, g->t,  g->hits, g->contacts};
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
        free(blocks[k]);
    c2d_scene_destroy(g->scene);
    memset(g, 0, sizeof *g);
}

/* A flipper of length 3 and radius 0.25 hinged at the origin, resting at -0.5 rad, and n balls
 * (to be placed by the caller). Returns 0, or -1 when out of memory. */
static int game_make(flipper_game *g, size_t n) {
    memset(g, 0, sizeof *g);
    g->n = n;
    float **arrays[] = {&g->x,        &g->y, &g->r,  &g->vx, &g->vy,
                        &g->inv_mass, &g->e, &g->mx, &g->my, &g->t};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        if (!(*arrays[k] = calloc(n ? n : 1, sizeof(float)))) return game_free(g), -1;
    g->hits = malloc((n ? n : 1) * sizeof *g->hits);
    g->contact_cap = n ? n : 1; /* one flipper: at most one contact a ball */
    g->contacts = malloc(g->contact_cap * sizeof *g->contacts);
    if (!g->hits || !g->contacts) return game_free(g), -1;
    g->length = 3.0f;
    g->R[0] = 0.25f;
    g->angle = g->target = -0.5f;
    g->omega = 20.0f;
    g->e_flipper = 1.0f;
    flipper_pose(g);
    const c2d_capsule_soa caps = {
        .ax = g->ax, .ay = g->ay, .bx = g->bx, .by = g->by, .radius = g->R, .count = 1};
    if (c2d_scene_create(&caps, NULL, &g->scene) != C2D_OK) return game_free(g), -1;
    return 0;
}

static int fail(const char *what, c2d_status st) {
    fprintf(stderr, "%s: %s\n", what, c2d_status_string(st));
    return -1;
}

/* Step 2: sweep the balls' moves against the flipper translated by its tip's displacement. */
static int sweep_balls(flipper_game *g, float h) {
    for (size_t i = 0; i < g->n; i++)
        g->mx[i] = g->vx[i] * h, g->my[i] = g->vy[i] * h;
    /* the normal of the flipper on the side it turns to, times the tip's displacement */
    const float ux = (g->bx[0] - g->ax[0]) / g->length, uy = (g->by[0] - g->ay[0]) / g->length;
    const float tip = g->w * h * g->length; /* signed: counter-clockwise positive */
    g->kmx[0] = -uy * tip, g->kmy[0] = ux * tip;
    const c2d_circle_soa balls = {.x = g->x, .y = g->y, .radius = g->r, .count = g->n};
    const c2d_capsule_soa caps = {
        .ax = g->ax, .ay = g->ay, .bx = g->bx, .by = g->by, .radius = g->R, .count = 1};
    const c2d_move_soa moves = {.x = g->mx, .y = g->my}, flipper_move = {.x = g->kmx, .y = g->kmy};
    c2d_status st = c2d_batch_sweep_moving(&balls, &moves, &caps, &flipper_move, g->hits);
    if (st != C2D_OK) return fail("c2d_batch_sweep_moving", st);
    /* advance by the hit times (1: no hit), in place, never closer to the flipper where it
     * stands (the scene still holds it at the substep's start) than float rounding of
     * x + move * t would take a ball */
    for (size_t i = 0; i < g->n; i++)
        g->t[i] = g->hits[i].capsule == C2D_NONE ? 1.0f : g->hits[i].toi.t;
    st = c2d_scene_advance(g->scene, &balls, &moves, g->t, g->x, g->y);
    if (st != C2D_OK) return fail("c2d_scene_advance", st);
    for (size_t i = 0; i < g->n; i++) {
        const c2d_circle_toi *hit = &g->hits[i];
        if (hit->capsule == C2D_NONE) continue;
        g->sweep_hits++;
        /* the flipper's surface at the touch point moves at w x (point - hinge) */
        const c2d_vec2 p = hit->toi.point;
        c2d_body ball = {{g->vx[i], g->vy[i]}, g->inv_mass[i], g->e[i]};
        c2d_body bat = {
            {-g->w * (p.y - g->hinge_y), g->w * (p.x - g->hinge_x)}, 0.0f, g->e_flipper};
        c2d_apply_impulse(&ball, &bat, hit->toi.normal);
        g->vx[i] = ball.velocity.x, g->vy[i] = ball.velocity.y;
    }
    return 0;
}

/* Step 4: the contacts with the flipper where it now is: impulses with its velocity at each
 * contact point, then push-out. */
static int contacts(flipper_game *g) {
    const c2d_circle_soa balls = {.x = g->x, .y = g->y, .radius = g->r, .count = g->n};
    size_t count;
    c2d_status st = c2d_scene_collide(g->scene, &balls, g->contacts, g->contact_cap, &count);
    if (st != C2D_OK) return fail("c2d_scene_collide", st);
    const c2d_body_soa bodies = {.x = g->x,
                                 .y = g->y,
                                 .vx = g->vx,
                                 .vy = g->vy,
                                 .inv_mass = g->inv_mass,
                                 .restitution = g->e,
                                 .count = g->n};
    const c2d_capsule_body_soa bat = {.restitution = &g->e_flipper,
                                      .angular_velocity = &g->w,
                                      .pivot_x = &g->hinge_x,
                                      .pivot_y = &g->hinge_y,
                                      .count = 1};
    const c2d_solve_def with_bat = {.capsules = &bat};
    st = c2d_solve_capsule_contacts(&bodies, g->contacts, count, &with_bat);
    if (st == C2D_OK) st = c2d_push_out_capsule_contacts(&bodies, g->contacts, count);
    return st == C2D_OK ? 0 : fail("resolve / push-out", st);
}

/* One substep of h seconds. */
static int substep(flipper_game *g, float h, float gravity) {
    /* 1. the turn of this substep, and its angular velocity */
    float turn = g->target - g->angle;
    const float most = g->omega * h;
    turn = turn > most ? most : turn < -most ? -most : turn;
    g->w = turn / h;
    for (size_t i = 0; i < g->n; i++)
        g->vy[i] += gravity * h;
    if (sweep_balls(g, h) != 0) return -1; /* 2. */
    g->angle += turn;                      /* 3. */
    flipper_pose(g);
    const c2d_capsule_soa caps = {
        .ax = g->ax, .ay = g->ay, .bx = g->bx, .by = g->by, .radius = g->R, .count = 1};
    const c2d_status st = c2d_scene_move_capsules(g->scene, 0, &caps);
    if (st != C2D_OK) return fail("c2d_scene_move_capsules", st);
    return contacts(g); /* 4. */
}

static int frame(flipper_game *g, float dt, int substeps, float gravity) {
    for (int s = 0; s < substeps; s++)
        if (substep(g, dt / (float)substeps, gravity) != 0) return -1;
    return 0;
}

/* Places ball i of radius r resting `gap` above the flipper at distance `along` from the hinge,
 * falling at speed `fall`. */
static void place_ball(flipper_game *g, size_t i, float along, float r, float gap, float fall) {
    float c, s;
    cos_sin(g->angle, &c, &s);
    const float up = g->R[0] + r + gap; /* along the flipper's left normal (-s, c) */
    g->x[i] = g->hinge_x + c * along - s * up;
    g->y[i] = g->hinge_y + s * along + c * up;
    g->r[i] = r;
    g->vx[i] = 0.0f, g->vy[i] = -fall;
    g->inv_mass[i] = 1.0f;
    g->e[i] = 0.5f;
}

#ifndef FLIPPER_NO_MAIN
int main(void) {
    enum { BALLS = 5, SUBSTEPS = 16 };
    printf("libcollide2d %s, backend %s\n", c2d_version_string(),
           c2d_backend_name(c2d_backend_active()));
    flipper_game g;
    if (game_make(&g, BALLS) != 0) return fprintf(stderr, "out of memory\n"), 1;
    for (size_t i = 0; i < BALLS; i++)
        place_ball(&g, i, 0.6f + 0.55f * (float)i, 0.25f, 0.05f, 1.0f);
    const float dt = 1.0f / 60.0f, gravity = -9.8f;
    g.target = 0.6f; /* the button is pressed: the flipper swings up */
    for (int f = 0; f < 8; f++)
        if (frame(&g, dt, SUBSTEPS, gravity) != 0) return game_free(&g), 1;
    for (size_t i = 0; i < BALLS; i++) {
        const float speed2 = g.vx[i] * g.vx[i] + g.vy[i] * g.vy[i];
        printf("ball %zu (%.2f from the hinge): leaves at (%.2f, %.2f), speed^2 %.1f\n", i,
               (double)(0.6f + 0.55f * (float)i), (double)g.vx[i], (double)g.vy[i], (double)speed2);
    }
    printf("%zu sweep hits\n", g.sweep_hits);
    game_free(&g);
    return 0;
}
#endif
