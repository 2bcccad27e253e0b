/* c2d_w9_world: W9 (DESIGN.md section 15) on the world with its defaults, one case a run, as
 * key=value lines for scripts/w9_world (bench/w9_world.h says what each figure is).
 *
 *   c2d_w9_world pile N [--drop] [--floor]   W9b: lands, asleep, overlaps, energy, packing,
 *                                            mid-air sleepers, ms a step falling and asleep;
 *                                            then the drop test and/or the floor removal on
 *                                            the sleeping pile (drop first when both)
 *   c2d_w9_world board N [--stream K]        W9a, sleep on: ms a step falling, the step it
 *                                            sleeps at, ms a step asleep; the stream of K balls
 *                                            (section 15: 6,554 at 65,536)
 *   c2d_w9_world settle N                    W9a, sleep disabled: falling and settling windows
 *   c2d_w9_world fall N                      W9a, sleep on: steps 0-89 only (scripts/bench)
 *   c2d_w9_world drum N                      W9c: ms a step over steps 300-599, the balls
 *                                            outside the drum at the end (target 0)
 *   c2d_w9_world stream-empty N [--stream K] the stream (K: N / 10) onto W9a's board of N
 *                                            laid out with no balls: the same awake balls
 *                                            with no sleeping pile under them
 *     --cap S          CPU seconds of steps a case (or a part: the stream) may take (120)
 *     --sleep-limit K  board: steps to wait for the board to sleep (20,000)
 *     --check          board: count mid-air sleepers after every step (piles always do) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "w9_world.h"

static int fail(const char *what) {
    fprintf(stderr, "c2d_w9_world: %s\n", what);
    return 1;
}

static void print_midair(const w9w_scene *s) {
    printf("midair_max=%zu midair_steps=%zu midair_first=%zu checked_steps=%zu\n", s->midair_max,
           s->midair_steps, s->midair_first, s->check ? s->steps : 0);
}

/* The drop test at DROP_POINTS points across the pile (x from 0.1 W to 0.9 W), one after another
 * on the same pile, each once every ball sleeps again: one drop is one ball's chaotic path, so
 * the spread of the re-sleep times says more than the canonical drop alone. */
enum { DROP_POINTS = 24 };

static int compare_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int drop_spread(w9w_scene *s) {
    double t[DROP_POINTS];
    for (int k = 0; k < DROP_POINTS; k++)
        t[k] = 20.0; /* not within the limit */
    size_t awake_max = 0, over = 0, unslept = 0;
    double worst_max = 0.0;
    for (int k = 0; k < DROP_POINTS; k++) {
        w9w_drop d;
        const float at = 0.1f + 0.8f * ((float)k + 0.5f) / (float)DROP_POINTS;
        if (w9w_drop_ball(s, at, 0.5f, 20.0f, 20 * 60, &d) != 0) return -1;
        t[k] = d.resleep ? (double)d.resleep / 60.0 : 20.0;
        printf("drop_point=%d drop_at=%.3f drop_point_resleep_s=%.3f drop_point_awake_max=%zu "
               "drop_point_worst_max=%.4f\n",
               k, (double)at, t[k], d.awake_max, d.worst_max);
        unslept += d.resleep == 0;
        over += t[k] > 3.0;
        if (d.awake_max > awake_max) awake_max = d.awake_max;
        if (d.worst_max > worst_max) worst_max = d.worst_max;
        if (!d.resleep) break; /* the pile is awake: the next drops would measure nothing */
    }
    qsort(t, DROP_POINTS, sizeof t[0], compare_double);
    printf("drops=%d drops_resleep_median_s=%.3f drops_resleep_max_s=%.3f drops_over_3s=%zu "
           "drops_unslept=%zu drops_awake_max=%zu drops_worst_overlap_max=%.4f\n",
           DROP_POINTS, 0.5 * (t[DROP_POINTS / 2 - 1] + t[DROP_POINTS / 2]), t[DROP_POINTS - 1],
           over, unslept, awake_max, worst_max);
    return 0;
}

static int run_pile(size_t n, double cap, bool drop, bool floor_test) {
    w9w_scene s;
    if (w9w_pile_create(&s, n) != 0) return fail("out of memory or a world call refused");
    w9w_quality q;
    if (w9w_pile_quality(&s, cap, &q) != 0) return fail("the pile failed");
    printf("case=pile n=%zu pitch=%g width=%g capsules=%zu\n", n, (double)W9B_PITCH,
           (double)s.l.width, s.l.m);
    printf("steps=%zu cpu_s=%.2f capped=%d cap_s=%g\n", q.steps, q.cpu_s, q.capped, cap);
    printf("lands_step=%zu\n", q.lands);
    printf("asleep_step=%zu asleep_s=%.3f asleep_after_landing_s=%.3f\n", q.asleep,
           (double)q.asleep / 60.0,
           q.asleep && q.lands ? (double)(q.asleep - q.lands) / 60.0 : -1.0);
    printf("measured_step=%zu pairs=%zu overlap_max=%.4f overlap_p99=%.4f\n", q.measured,
           q.at.pairs, q.at.max, q.at.p99);
    printf("worst_overlap_max=%.4f worst_overlap_p99=%.4f\n", q.worst_max, q.worst_p99);
    printf("energy_rise=%.3e energy_rise_step=%zu\n", q.energy_rise, q.energy_rise_step);
    printf("packing=%.4f\n", q.packing);
    printf("fall_ms=%.3f asleep_ms=%.4f\n", q.fall_ms, q.asleep_ms);
    if (drop && q.asleep) {
        w9w_drop d;
        if (w9w_drop_ball(&s, 0.5f, 0.5f, 20.0f, 20 * 60, &d) != 0) return fail("the drop failed");
        printf("drop_awake_max=%zu drop_resleep_steps=%zu drop_resleep_s=%.3f drop_steps=%zu\n",
               d.awake_max, d.resleep, d.resleep ? (double)d.resleep / 60.0 : -1.0, d.steps);
        printf("drop_overlap_max=%.4f drop_overlap_p99=%.4f drop_worst_max=%.4f "
               "drop_worst_p99=%.4f drop_ms=%.4f\n",
               d.at.max, d.at.p99, d.worst_max, d.worst_p99, d.ms);
        if (d.resleep && drop_spread(&s) != 0) return fail("the drops across the pile failed");
    } else if (drop) {
        printf("drop_skipped=1 (the pile never slept)\n");
    }
    if (floor_test && q.asleep) {
        w9w_floor f;
        if (w9w_floor_removal(&s, &f) != 0) return fail("the floor removal failed");
        printf("floor_balls=%zu floor_asleep_before=%zu floor_asleep_after_10=%zu "
               "floor_not_lower_60=%zu floor_least_drop=%.3f\n",
               f.balls, f.asleep_before, f.asleep_after_10, f.not_lower_60, f.least_drop);
    } else if (floor_test) {
        printf("floor_skipped=1 (the pile never slept)\n");
    }
    print_midair(&s);
    w9w_scene_destroy(&s);
    return 0;
}

static int run_board(size_t n, double cap, size_t stream, size_t sleep_limit, bool check,
                     bool fall_only) {
    w9w_scene s;
    if (w9w_board_create(&s, n, true, check) != 0)
        return fail("out of memory or a world call refused");
    w9w_board r;
    if (w9w_board_run(&s, stream, cap, fall_only ? W9A_FALL_END : sleep_limit, &r) != 0)
        return fail("the board failed");
    printf("case=%s n=%zu width=%g capsules=%zu\n", fall_only ? "fall" : "board", n,
           (double)s.l.width, s.l.m);
    printf("steps=%zu cpu_s=%.2f cap_s=%g\n", r.steps, r.cpu_s, cap);
    printf("fall_ms=%.3f\n", r.fall_ms);
    if (r.fall_split[0]) printf("fall_split=%s\n", r.fall_split);
    if (r.asleep_split[0]) printf("asleep_split=%s\n", r.asleep_split);
    if (!fall_only) {
        printf("asleep_step=%zu asleep_ms=%.4f\n", r.asleep, r.asleep_ms);
        if (stream && r.asleep)
            printf("stream=%zu stream_ms=%.3f stream_counted=%zu stream_steps=%zu "
                   "stream_awake_max=%zu stream_awake_mean=%.0f stream_ended=%d\n",
                   r.stream, r.stream_ms, r.stream_counted, r.stream_steps, r.stream_awake_max,
                   r.stream_awake_mean, r.stream_ended);
        if (stream && r.asleep && r.stream_split[0]) printf("stream_split=%s\n", r.stream_split);
    }
    if (check) print_midair(&s);
    w9w_scene_destroy(&s);
    return 0;
}

static int run_drum(size_t n, double cap) {
    w9w_scene s;
    if (w9w_drum_create(&s, n) != 0) return fail("out of memory or a world call refused");
    w9w_drum r;
    if (w9w_drum_run(&s, cap, &r) != 0) return fail("the drum failed");
    printf("case=drum n=%zu radius=%.2f capsules=%zu spin=%g\n", n, (double)s.l.drum_radius, s.l.m,
           (double)s.l.spin);
    printf("steps=%zu cpu_s=%.2f cap_s=%g\n", r.steps, r.cpu_s, cap);
    printf("drum_ms=%.3f escaped=%zu awake=%zu\n", r.ms, r.escaped, r.awake);
    if (r.split[0]) printf("drum_split=%s\n", r.split);
    w9w_scene_destroy(&s);
    return 0;
}

/* The stream of K balls onto W9a's board of n laid out with no balls: what the same awake
 * balls cost with no sleeping pile under them. */
static int run_stream_empty(size_t n, size_t stream, double cap) {
    w9w_scene s;
    if (w9w_board_create_empty(&s, n) != 0) return fail("out of memory or a world call refused");
    w9w_board r;
    memset(&r, 0, sizeof r);
    r.stream_ms = -1.0;
    if (w9w_stream_run(&s, stream, cap, &r) != 0) return fail("the stream failed");
    printf("case=stream-empty n=%zu width=%g capsules=%zu\n", n, (double)s.l.width, s.l.m);
    printf("stream=%zu stream_ms=%.3f stream_counted=%zu stream_steps=%zu "
           "stream_awake_max=%zu stream_awake_mean=%.0f stream_ended=%d\n",
           r.stream, r.stream_ms, r.stream_counted, r.stream_steps, r.stream_awake_max,
           r.stream_awake_mean, r.stream_ended);
    if (r.stream_split[0]) printf("stream_split=%s\n", r.stream_split);
    w9w_scene_destroy(&s);
    return 0;
}

static int run_settle(size_t n, double cap) {
    w9w_scene s;
    if (w9w_board_create(&s, n, false, false) != 0)
        return fail("out of memory or a world call refused");
    w9w_settle r;
    if (w9w_board_settle(&s, cap, &r) != 0) return fail("the board failed");
    printf("case=settle n=%zu width=%g capsules=%zu\n", n, (double)s.l.width, s.l.m);
    printf("steps=%zu cpu_s=%.2f cap_s=%g\n", r.steps, r.cpu_s, cap);
    printf("fall_ms=%.3f\n", r.fall_ms);
    printf("settle_from=%zu settle_ms=%.3f settle_capped=%d settle_reached=%d\n", r.from,
           r.settle_ms, r.capped, r.from != 0);
    if (r.settle_split[0]) printf("settle_split=%s\n", r.settle_split);
    printf("settle_start_mean_speed=%.3f settle_start_top=%.2f\n", r.start_mean_speed, r.start_top);
    w9w_scene_destroy(&s);
    return 0;
}

int main(int argc, char **argv) {
    const char *cases[] = {"pile", "board", "settle", "fall", "drum", "stream-empty"};
    int which = -1;
    for (int k = 0; argc >= 3 && k < 6; k++)
        if (strcmp(argv[1], cases[k]) == 0) which = k;
    if (which < 0) {
        fprintf(stderr,
                "usage: c2d_w9_world pile|board|settle|fall|drum|stream-empty N [--drop] [--floor] "
                "[--stream K] [--cap S] [--sleep-limit K] [--check]\n");
        return 2;
    }
    const size_t n = (size_t)strtoul(argv[2], NULL, 10);
    double cap = 120.0;
    size_t stream = 0, sleep_limit = 20000;
    bool drop = false, floor_test = false, check = false;
    for (int a = 3; a < argc; a++) {
        if (strcmp(argv[a], "--drop") == 0)
            drop = true;
        else if (strcmp(argv[a], "--floor") == 0)
            floor_test = true;
        else if (strcmp(argv[a], "--check") == 0)
            check = true;
        else if (a + 1 >= argc)
            return fail("an option needs a value, or is unknown");
        else if (strcmp(argv[a], "--cap") == 0)
            cap = strtod(argv[++a], NULL);
        else if (strcmp(argv[a], "--stream") == 0)
            stream = (size_t)strtoul(argv[++a], NULL, 10);
        else if (strcmp(argv[a], "--sleep-limit") == 0)
            sleep_limit = (size_t)strtoul(argv[++a], NULL, 10);
        else
            return fail("unknown option");
    }
    if (n == 0) return fail("N must be positive");
    switch (which) {
    case 0:
        return run_pile(n, cap, drop, floor_test);
    case 1:
        return run_board(n, cap, stream, sleep_limit, check, false);
    case 2:
        return run_settle(n, cap);
    case 3:
        return run_board(n, cap, 0, 0, false, true);
    case 4:
        return run_drum(n, cap);
    default:
        return run_stream_empty(n, stream ? stream : n / 10, cap);
    }
}
