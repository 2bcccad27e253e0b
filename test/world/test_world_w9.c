/* Issue 43's quality targets at the small size: W9b's pile of 2,500 balls (DESIGN.md section
 * 15) on a world with c2d_world_default_def() and only gravity set, stepped by 1/60 s
 * (bench/w9_world.c builds it; bench/w9_figures.c computes the figures, tested by
 * test/sim/test_w9.c). The pile lands, sleeps within 5 s of landing with its overlap, energy
 * and packing inside the targets; no sleeping ball is ever in mid-air; removing the floor
 * wakes it and lets it fall; a ball dropped onto it wakes few balls, which sleep again soon.
 * No CPU cap: every figure comes from one fixed, deterministic run. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "w9_world.h"

enum { PILE = 2500 };

/* The targets at 2,500 balls. */
#define OVERLAP_MAX 0.05
#define OVERLAP_P99 0.035
#define ASLEEP_S 5.0
#define ENERGY_RISE 1e-3
#define PACKING_LOW 0.80
#define PACKING_HIGH 0.91
#define DROP_AWAKE 1000
#define DROP_ASLEEP_S 3.0

/* The pile, stepped until it sleeps (or 20 s after landing). */
static void pile_settle(w9w_scene *s, w9w_quality *q) {
    assert_int_equal(w9w_pile_create(s, PILE), 0);
    assert_int_equal(w9w_pile_quality(s, HUGE_VAL, q), 0);
    print_message("# pile %d: lands at step %zu, asleep at step %zu (%.2f s after landing), "
                  "overlap %.4f / %.4f (worst %.4f / %.4f), energy rise %.2e (step %zu), "
                  "packing %.4f, mid-air sleepers at most %zu\n",
                  PILE, q->lands, q->asleep,
                  q->asleep ? (double)(q->asleep - q->lands) / 60.0 : -1.0, q->at.max, q->at.p99,
                  q->worst_max, q->worst_p99, q->energy_rise, q->energy_rise_step, q->packing,
                  s->midair_max);
    assert_true(q->lands > 0);
}

static void pile_quality(void **state) {
    (void)state;
    w9w_scene s;
    w9w_quality q;
    pile_settle(&s, &q);
    assert_true(q.asleep > 0);
    assert_true((double)(q.asleep - q.lands) / 60.0 <= ASLEEP_S);
    assert_true(q.at.max <= OVERLAP_MAX);
    assert_true(q.at.p99 <= OVERLAP_P99);
    assert_true(q.energy_rise <= ENERGY_RISE);
    assert_true(q.packing >= PACKING_LOW && q.packing <= PACKING_HIGH);
    /* after every step, the 60 asleep ones included */
    assert_int_equal(s.midair_max, 0);
    w9w_scene_destroy(&s);
}

/* Without its floor the sleeping pile wakes within 10 steps and falls: every ball 0.5 lower
 * after 60 steps (free fall covers 5 units in that second). */
static void floor_removal(void **state) {
    (void)state;
    w9w_scene s;
    w9w_quality q;
    pile_settle(&s, &q);
    assert_true(q.asleep > 0);
    w9w_floor f;
    assert_int_equal(w9w_floor_removal(&s, &f), 0);
    print_message("# floor removed: %zu of %zu asleep before, %zu after 10 steps, %zu less than "
                  "0.5 lower after 60 (least fall %.3f)\n",
                  f.asleep_before, f.balls, f.asleep_after_10, f.not_lower_60, f.least_drop);
    assert_int_equal(f.asleep_before, PILE);
    assert_int_equal(f.asleep_after_10, 0);
    assert_int_equal(f.not_lower_60, 0);
    assert_int_equal(s.midair_max, 0);
    w9w_scene_destroy(&s);
}

/* A ball of radius 0.5 at 20 units/s onto the sleeping pile's centre: at most 1,000 balls awake,
 * all asleep again within 3 s, the overlap still inside the target. Then the same drop at 8
 * more points across the pile, one after another: the overlap stays inside the target at every
 * step, the impact's included (with a quarter of its move as its margin against the sleeping
 * ball it struck, a ball sank up to a third of a radius into it for a step). */
static void drop_ball(void **state) {
    (void)state;
    w9w_scene s;
    w9w_quality q;
    pile_settle(&s, &q);
    assert_true(q.asleep > 0);
    w9w_drop d;
    assert_int_equal(w9w_drop_ball(&s, 0.5f, 0.5f, 20.0f, 20 * 60, &d), 0);
    print_message("# drop: %zu awake at most, asleep again after %zu steps (%.2f s), overlap "
                  "%.4f / %.4f (worst %.4f / %.4f)\n",
                  d.awake_max, d.resleep, (double)d.resleep / 60.0, d.at.max, d.at.p99, d.worst_max,
                  d.worst_p99);
    assert_true(d.awake_max >= 1); /* the dropped ball itself */
    assert_true(d.awake_max <= DROP_AWAKE);
    assert_true(d.resleep > 0);
    assert_true((double)d.resleep / 60.0 <= DROP_ASLEEP_S);
    assert_true(d.at.max <= OVERLAP_MAX);
    assert_true(d.at.p99 <= OVERLAP_P99);
    double worst = d.worst_max;
    for (int k = 0; k < 8; k++) {
        const float at = 0.1f + 0.8f * ((float)k + 0.5f) / 8.0f;
        assert_int_equal(w9w_drop_ball(&s, at, 0.5f, 20.0f, 20 * 60, &d), 0);
        print_message("# drop at %.2f W: asleep again after %.2f s, worst overlap %.4f\n",
                      (double)at, (double)d.resleep / 60.0, d.worst_max);
        assert_true(d.resleep > 0);
        worst = d.worst_max > worst ? d.worst_max : worst;
    }
    assert_true(worst <= OVERLAP_MAX);
    assert_int_equal(s.midair_max, 0);
    w9w_scene_destroy(&s);
}

/* A change of gravity wakes the whole sleeping pile, and it stays where it is: each ball starts
 * its first step awake with the impulses its contacts held when it fell asleep, as a Box2D
 * island keeps its contacts while it sleeps. Three changes in turn, 2 s each: no ball moves a
 * tenth of a radius. Woken without them the pile sank while its contacts built up again (6
 * balls of 2,500 moved more than 0.2, one 0.33; 130 over four changes of the 10,000 pile, one
 * 0.79). */
static void wake_all_holds(void **state) {
    (void)state;
    w9w_scene s;
    w9w_quality q;
    pile_settle(&s, &q);
    assert_true(q.asleep > 0);
    const c2d_vec2 tilt[3] = {{0.0f, -10.001f}, {0.001f, -10.0f}, {0.0f, -9.999f}};
    static float x0[PILE], y0[PILE];
    double most = 0.0;
    for (int t = 0; t < 3; t++) {
        w9_balls b = w9w_balls(&s);
        assert_int_equal(b.count, PILE);
        for (size_t i = 0; i < b.count; i++)
            x0[i] = b.x[i], y0[i] = b.y[i];
        assert_int_equal(c2d_world_set_gravity(s.world, tilt[t]), C2D_OK);
        assert_int_equal(c2d_world_awake_count(s.world), PILE);
        for (int k = 0; k < 120; k++)
            w9w_step(&s);
        b = w9w_balls(&s);
        for (size_t i = 0; i < b.count; i++) {
            double d = hypot((double)b.x[i] - x0[i], (double)b.y[i] - y0[i]);
            most = d > most ? d : most;
        }
    }
    print_message("# woken whole three times: the farthest a ball moved in 2 s, %.4f\n", most);
    assert_true(most <= 0.05);
    assert_int_equal(s.midair_max, 0);
    w9w_scene_destroy(&s);
}

/* W9c's drum at a small size: 36 kinematic capsules turning around 2,000 balls for 600 steps
 * (each ball reads only the capsules near it: world_kinematic_near.c). None leaves the drum,
 * every ball stays finite, and the drum's balls never sleep (it wakes what it reaches). */
static void drum_holds(void **state) {
    (void)state;
    w9w_scene s;
    assert_int_equal(w9w_drum_create(&s, 2000), 0);
    w9w_drum r;
    assert_int_equal(w9w_drum_run(&s, HUGE_VAL, &r), 0);
    print_message("# drum: %zu capsules, radius %.2f, %.3f ms a step, %zu outside, %zu awake\n",
                  s.l.m, (double)s.l.drum_radius, r.ms, r.escaped, r.awake);
    assert_int_equal(r.steps, W9C_END);
    assert_int_equal(r.escaped, 0);
    w9_balls b = w9w_balls(&s);
    assert_int_equal(b.count, 2000);
    double lowest = HUGE_VAL;
    for (size_t i = 0; i < b.count; i++) {
        assert_true(isfinite(b.x[i]) && isfinite(b.y[i]));
        if (b.y[i] < lowest) lowest = b.y[i];
    }
    /* the balls lie in the drum's bottom, not stuck where they started */
    assert_true(lowest < s.l.pivot.y - 0.8 * s.l.drum_radius);
    w9w_scene_destroy(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pile_quality), cmocka_unit_test(floor_removal),
        cmocka_unit_test(drop_ball),    cmocka_unit_test(wake_all_holds),
        cmocka_unit_test(drum_holds),
    };
    return cmocka_run_group_tests_name("world_w9", tests, NULL, NULL);
}
