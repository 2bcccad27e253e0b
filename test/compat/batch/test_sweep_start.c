/* The sweeps' start rule (query.h) on every backend, through every sweep call: a circle in
 * contact at the start is hit at t = 0, with the contact query's normal and point, only when
 * its move goes deeper; moving out, along or not at all, it gets no hit from that shape, and a
 * later shape still stops it. Worked cases: touching and overlapping deep, at a capsule's side,
 * at its end, on a segment's axis and between balls; outward, tangential both ways, no move
 * and inward. Checked against the expected answer for c2d_sweep_circle_capsule,
 * c2d_sweep_circles, c2d_batch_sweep, c2d_scene_sweep, c2d_batch_sweep_circles and
 * c2d_scene_sweep_circles, byte for byte between them, on every available backend. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "batch_check.h"

/* One circle against the capsules below: its start, radius and move, and what must happen. */
typedef struct start_case {
    const char *name;
    float x, y, r, mx, my;
    uint32_t capsule; /* the expected hit: C2D_NONE, or a capsule index */
    float t;          /* its time (0: in contact and moving deeper) */
    float nx, ny;     /* its normal */
} start_case;

/* Capsule 0: the axis (0,0)-(10,0) of radius 1. Capsule 1: a wall x = 30, far to the right,
 * that a circle leaving capsule 0 to the right can still hit. Capsule 2: a segment (radius 0)
 * from (0,20) to (10,20). */
static const float cap_ax[] = {0, 31, 0}, cap_ay[] = {0, -50, 20};
static const float cap_bx[] = {10, 31, 10}, cap_by[] = {0, 50, 20};
static const float cap_r[] = {1, 1, 0};

static const start_case cases[] = {
    /* touching the side from above (distance 2 = r + R) */
    {"side, touching, outward", 5, 2, 1, 0, 3, C2D_NONE, 0, 0, 0},
    {"side, touching, tangential +x", 5, 2, 1, 3, 0, C2D_NONE, 0, 0, 0},
    {"side, touching, tangential -x", 5, 2, 1, -3, 0, C2D_NONE, 0, 0, 0},
    {"side, touching, no move", 5, 2, 1, 0, 0, C2D_NONE, 0, 0, 0},
    {"side, touching, inward", 5, 2, 1, 1, -1, 0, 0, 0, 1},
    /* overlapping the side deep (centre 0.25 above the axis) */
    {"side, deep, outward", 5, 0.25f, 1, 0, 4, C2D_NONE, 0, 0, 0},
    {"side, deep, inward", 5, 0.25f, 1, 0, -0.5f, 0, 0, 0, 1},
    /* centre on the axis: the normal is the axis' left perpendicular (0, 1) */
    {"on the axis, +y", 5, 0, 1, 0, 4, C2D_NONE, 0, 0, 0},
    {"on the axis, -y", 5, 0, 1, 0.5f, -4, 0, 0, 0, 1},
    /* touching end b from the right: outward is +x; leaving that way it meets the wall at
     * x = 30 (surface 30, circle radius 1: centre 29, from 12 over 20: t = 0.85) */
    {"end b, touching, outward to the wall", 12, 0, 1, 20, 0, 1, 0.85f, -1, 0},
    {"end b, touching, tangential", 12, 0, 1, 0, 3, C2D_NONE, 0, 0, 0},
    {"end b, touching, inward", 12, 0, 1, -3, 0.5f, 0, 0, 1, 0},
    /* a point on a segment: normal (0, 1) */
    {"point on a segment, +y", 5, 20, 0, 0.5f, 1, C2D_NONE, 0, 0, 0},
    {"point on a segment, along", 5, 20, 0, 2, 0, C2D_NONE, 0, 0, 0},
    {"point on a segment, -y", 5, 20, 0, 0.5f, -1, 2, 0, 0, 1},
};
enum { N_CASES = sizeof cases / sizeof cases[0], N_CAPS = 3 };

static bool same(const void *a, const void *b, size_t n) {
    return memcmp(a, b, n) == 0;
}

static void capsule_sweeps_follow_the_start_rule(void **state) {
    (void)state;
    float x[N_CASES], y[N_CASES], r[N_CASES], mx[N_CASES], my[N_CASES];
    c2d_circle_toi want[N_CASES];
    const c2d_capsule_soa caps = {cap_ax, cap_ay, cap_bx, cap_by, cap_r, N_CAPS, NULL, NULL, NULL};
    for (size_t i = 0; i < N_CASES; i++) {
        const start_case *c = &cases[i];
        x[i] = c->x, y[i] = c->y, r[i] = c->r, mx[i] = c->mx, my[i] = c->my;
        /* the scalar layer: the expected capsule, time and normal; the point is the contact
         * query's at t = 0 */
        memset(&want[i], 0, sizeof want[i]);
        want[i].capsule = C2D_NONE;
        for (uint32_t k = 0; k < N_CAPS; k++) {
            const c2d_capsule cap = {{cap_ax[k], cap_ay[k]}, {cap_bx[k], cap_by[k]}, cap_r[k]};
            c2d_toi toi;
            if (c2d_sweep_circle_capsule((c2d_circle){{c->x, c->y}, c->r}, (c2d_vec2){c->mx, c->my},
                                         cap, &toi))
                if (want[i].capsule == C2D_NONE || toi.t < want[i].toi.t) { /* ties: lowest */
                    want[i].capsule = k;
                    want[i].toi = toi;
                }
        }
        if (want[i].capsule != c->capsule) {
            print_error("%s: capsule %u, expected %u\n", c->name, want[i].capsule, c->capsule);
            fail();
        }
        if (c->capsule == C2D_NONE) continue;
        assert_true(fabsf(want[i].toi.t - c->t) <= 1e-6f);
        assert_true(fabsf(want[i].toi.normal.x - c->nx) <= 1e-6f &&
                    fabsf(want[i].toi.normal.y - c->ny) <= 1e-6f);
        if (c->t == 0.0f) { /* the contact's normal and point (exact here: the same bytes) */
            const uint32_t k = c->capsule;
            const c2d_capsule cap = {{cap_ax[k], cap_ay[k]}, {cap_bx[k], cap_by[k]}, cap_r[k]};
            c2d_contact ct;
            assert_true(c2d_collide_circle_capsule((c2d_circle){{c->x, c->y}, c->r}, cap, &ct));
            assert_true(same(&ct.normal, &want[i].toi.normal, sizeof ct.normal));
            assert_true(same(&ct.point, &want[i].toi.point, sizeof ct.point));
        }
    }
    /* every backend, batch and scene: the same bytes; every circle count (tails) */
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    c2d_scene *scene;
    assert_int_equal(c2d_scene_create(&caps, NULL, &scene), C2D_OK);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        for (size_t n = 1; n <= N_CASES; n++) {
            const c2d_circle_soa circles = {x, y, r, n, NULL, NULL};
            c2d_circle_toi got[N_CASES];
            assert_int_equal(c2d_batch_sweep(&circles, mx, my, &caps, got), C2D_OK);
            assert_true(same(got, want, n * sizeof *got));
            assert_int_equal(c2d_scene_sweep(scene, &circles, mx, my, got), C2D_OK);
            assert_true(same(got, want, n * sizeof *got));
        }
    }
    c2d_scene_destroy(scene);
}

/* Balls: ball 0 touches ball 1 (centres 2 apart, radii 1); ball 2 overlaps ball 3 deep. */
static void ball_sweeps_follow_the_start_rule(void **state) {
    (void)state;
    const c2d_vec2 moves[][2] = {
        /* move of the first ball of the pair, of the second; hit expected? */
        {{0, 3}, {0, 0}},  /* apart along the normal: no hit */
        {{3, 0}, {3, 0}},  /* together: no relative move */
        {{3, 0}, {0, 0}},  /* tangential */
        {{0, 0}, {0, 0}},  /* none */
        {{0, -1}, {0, 0}}, /* into the other: a hit at 0 */
        {{0, 0}, {0, 1}},  /* the other comes in: a hit at 0 for both */
        {{0, 1}, {0, 2}},  /* both move up, the lower faster: a hit at 0 */
    };
    const bool hits[] = {false, false, false, false, true, true, true};
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    c2d_scene *scene;
    assert_int_equal(c2d_scene_create(&(c2d_capsule_soa){0}, NULL, &scene), C2D_OK);
    for (size_t m = 0; m < sizeof hits / sizeof hits[0]; m++) {
        /* two pairs far apart: touching (0,2)-(0,0), and deep (50,0.5)-(50,0) */
        float x[4] = {0, 0, 50, 50}, y[4] = {2, 0, 0.5f, 0}, r[4] = {1, 1, 1, 1};
        float mx[4] = {moves[m][0].x, moves[m][1].x, moves[m][0].x, moves[m][1].x};
        float my[4] = {moves[m][0].y, moves[m][1].y, moves[m][0].y, moves[m][1].y};
        const c2d_circle_soa balls = {x, y, r, 4, NULL, NULL};
        c2d_circle_hit want[4];
        for (size_t i = 0; i < 4; i++) {
            const size_t j = i ^ 1;
            c2d_toi toi;
            const bool hit =
                c2d_sweep_circles((c2d_circle){{x[i], y[i]}, r[i]}, (c2d_vec2){mx[i], my[i]},
                                  (c2d_circle){{x[j], y[j]}, r[j]}, (c2d_vec2){mx[j], my[j]}, &toi);
            assert_true(hit == hits[m]);
            memset(&want[i], 0, sizeof want[i]);
            want[i].other = C2D_NONE;
            if (hit) {
                assert_true(toi.t == 0.0f);
                c2d_contact ct;
                assert_true(c2d_collide_circles((c2d_circle){{x[i], y[i]}, r[i]},
                                                (c2d_circle){{x[j], y[j]}, r[j]}, &ct));
                assert_true(same(&ct.normal, &toi.normal, sizeof ct.normal));
                assert_true(same(&ct.point, &toi.point, sizeof ct.point));
                want[i].other = (uint32_t)j;
                want[i].toi = toi;
            }
        }
        for (size_t b = 0; b < nb; b++) {
            use_backend(list[b]);
            c2d_circle_hit got[4];
            assert_int_equal(c2d_batch_sweep_circles(&balls, mx, my, got), C2D_OK);
            assert_true(same(got, want, sizeof got));
            assert_int_equal(c2d_scene_sweep_circles(scene, &balls, mx, my, got), C2D_OK);
            assert_true(same(got, want, sizeof got));
        }
    }
    c2d_scene_destroy(scene);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(capsule_sweeps_follow_the_start_rule),
        cmocka_unit_test(ball_sweeps_follow_the_start_rule),
    };
    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
