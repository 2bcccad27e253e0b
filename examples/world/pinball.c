/* pinball.c: a pinball table on the world (collide2d/world.h): two flippers, three bumpers,
 * a drain sensor and balls shot up a lane; it prints the hits and drains and the world hash.
 *     cc -O2 pinball.c $(pkg-config --cflags --libs collide2d) -lm -o pinball && ./pinball
 * A flipper is a kinematic capsule turning about its hinge: c2d_world_set_capsule_motion()
 * swings it, and when the next step would pass its limit, c2d_world_move_capsule_to() ends the
 * swing exactly there (the program's pose, from cosf and sinf). The presses are scripted on
 * fixed frames: every run prints the same events and hash (test/sim/test_world_golden.c). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include <collide2d.h>

enum { FRAMES = 600, BALLS = 4 };
enum { WALL = 1, LEFT_FLIPPER, RIGHT_FLIPPER, BUMPER, DRAIN }; /* capsules' user_data */
#define SPEED 30.0f                                            /* a flipper's swing, rad/s */
#define DOWN (-0.5f) /* its limits, rad above the horizontal */
#define UP 0.45f
#define DT (1.0f / 60.0f)

typedef struct flipper {
    c2d_capsule_id id;
    c2d_vec2 hinge;
    float side;  /* +1: the left flipper (tip to the right); -1: the right one */
    float angle; /* where the program has sent it */
} flipper;

static c2d_capsule flipper_pose(const flipper *f, float angle) {
    const c2d_vec2 tip = {f->hinge.x + f->side * 2.0f * cosf(angle),
                          f->hinge.y + 2.0f * sinf(angle)};
    return (c2d_capsule){.a = f->hinge, .b = tip, .radius = 0.25f};
}

/* Swings the flipper toward UP (pressed) or DOWN, and stops it exactly at the limit. */
static void flipper_drive(c2d_world *world, flipper *f, bool pressed) {
    const float target = pressed ? UP : DOWN, turn = SPEED * DT;
    if (f->angle == target) return; /* resting at a limit: its motion is zero */
    if (fabsf(target - f->angle) <= turn) {
        c2d_world_move_capsule_to(world, f->id, flipper_pose(f, target));
        f->angle = target;
    } else {
        const float dir = target > f->angle ? 1.0f : -1.0f; /* counter-clockwise for the left */
        c2d_world_set_capsule_motion(world, f->id, (c2d_vec2){0, 0}, dir * f->side * SPEED);
        f->angle += dir * turn;
    }
}

static c2d_capsule_def part(float ax, float ay, float bx, float by, float radius, uint64_t kind) {
    c2d_capsule_def d = c2d_capsule_default_def();
    d.shape = (c2d_capsule){.a = {ax, ay}, .b = {bx, by}, .radius = radius};
    d.user_data = kind;
    d.restitution = kind == BUMPER ? 2.0f : 0.4f; /* with the ball's 0.5: 1.0 and 0.45 */
    d.sensor = kind == DRAIN;
    return d;
}

/* Runs the table for `frames` frames, printing events to `log` (NULL: silent); returns the
 * world hash, or 0 when the world refused a call. */
static uint64_t pinball_run(int frames, FILE *log) {
    static const char *names[] = {"", "", "the left flipper", "the right flipper", "a bumper"};
    c2d_world_def def = c2d_world_default_def();
    c2d_world *world;
    if (c2d_world_create(&def, &world) != C2D_OK) return 0;
    /* walls, lid and floor; top corners; the shooter lane; slopes; bumpers; the drain */
    const c2d_capsule_def table[] = {
        part(-0.5f, -2.5f, -0.5f, 20.5f, 0.5f, WALL), part(12.5f, -2.5f, 12.5f, 20.5f, 0.5f, WALL),
        part(-0.5f, 20.5f, 12.5f, 20.5f, 0.5f, WALL), part(-0.5f, -2.5f, 12.5f, -2.5f, 0.5f, WALL),
        part(9.0f, 20.0f, 12.0f, 17.0f, 0.2f, WALL),  part(0.0f, 17.0f, 3.0f, 20.0f, 0.2f, WALL),
        part(11.1f, 0.0f, 11.1f, 14.0f, 0.15f, WALL), part(11.1f, 0.7f, 12.0f, 0.7f, 0.15f, WALL),
        part(0.0f, 5.0f, 3.2f, 2.6f, 0.2f, WALL),     part(10.85f, 4.3f, 8.8f, 2.6f, 0.2f, WALL),
        part(4.5f, 13.2f, 4.5f, 13.2f, 0.7f, BUMPER), part(7.5f, 13.2f, 7.5f, 13.2f, 0.7f, BUMPER),
        part(6.0f, 10.5f, 6.0f, 10.5f, 0.7f, BUMPER), part(0.5f, -1.0f, 11.5f, -1.0f, 0.6f, DRAIN),
    };
    c2d_world_add_capsules(world, table, sizeof table / sizeof table[0], NULL);
    flipper flippers[2] = {{.hinge = {3.3f, 2.5f}, .side = 1.0f, .angle = DOWN},
                           {.hinge = {8.7f, 2.5f}, .side = -1.0f, .angle = DOWN}};
    for (int k = 0; k < 2; k++) { /* kinematic: moved by the program, never pushed by balls */
        c2d_capsule_def d = part(0, 0, 0, 0, 0, LEFT_FLIPPER + k);
        d.shape = flipper_pose(&flippers[k], DOWN);
        d.motion = C2D_KINEMATIC;
        d.pivot = flippers[k].hinge;
        d.restitution = 0.5f;
        c2d_world_add_capsules(world, &d, 1, &flippers[k].id);
    }
    c2d_ball_def ball = c2d_ball_default_def(); /* waiting in the shooter lane */
    ball.position = (c2d_vec2){11.625f, 1.2f};
    ball.radius = 0.3f;
    ball.restitution = 0.5f;
    ball.events = true; /* contact and hit events */
    for (int frame = 0; frame < frames; frame++) {
        if (frame % 120 == 0 && frame / 120 < BALLS) { /* a new ball, shot by the plunger */
            ball.velocity = (c2d_vec2){0.0f, 21.0f + (float)(frame / 120)};
            c2d_world_add_balls(world, &ball, 1, NULL);
        }
        const int f = frame < 480 ? frame % 40 : 40; /* presses: 12 frames in 40, then none */
        flipper_drive(world, &flippers[0], f < 12);
        flipper_drive(world, &flippers[1], f >= 20 && f < 32);
        c2d_world_events ev;
        if (c2d_world_step(world, DT) != C2D_OK || c2d_world_get_events(world, &ev) != C2D_OK)
            break;
        for (size_t k = 0; log && k < ev.hit_count; k++) { /* hits on flippers and bumpers */
            const c2d_world_contact_event *h = &ev.hits[k];
            const uint64_t kind = h->other_kind == C2D_SHAPE_CAPSULE
                                      ? c2d_world_capsule_user_data(world, h->other)
                                      : WALL;
            if (kind != WALL)
                fprintf(log, "frame %3d: ball %u hits %s at %.1f units/s\n", frame, h->ball,
                        names[kind], (double)h->approach_speed);
        }
        for (size_t k = 0; log && k < ev.enter_count; k++)
            fprintf(log, "frame %3d: ball %u enters the drain\n", frame, ev.enters[k].ball);
        for (size_t k = 0; log && k < ev.exit_count; k++)
            fprintf(log, "frame %3d: ball %u leaves the drain\n", frame, ev.exits[k].ball);
    }
    const uint64_t hash = c2d_world_hash(world);
    c2d_world_destroy(world);
    return hash;
}

#ifndef PINBALL_NO_MAIN
int main(void) {
    const uint64_t hash = pinball_run(FRAMES, stdout);
    printf("after %d steps: world hash 0x%016llx\n", FRAMES, (unsigned long long)hash);
    return hash == 0;
}
#endif
