/* The frame protocol of scenes (collide2d/scene.h): a frame binned or half-binned before a
 * capsule move is stale, calls out of order, another circle set and a missing part give
 * C2D_ERROR_STATE (never a silent wrong answer), and binning again gives the right answer.
 * Issue 16 and issue 20 item 7. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "collide2d.h"
#include "workload.h"

#ifndef C2D_FRAME_CHECKS
#error "C2D_FRAME_CHECKS comes from meson (frame_checks_args): 1 when the library checks values"
#endif

static const char state_message[] =
    "the call order is wrong or the frame is stale: bin the circles again";

/* The status is C2D_ERROR_STATE, with its message. */
static void assert_state(c2d_status st) {
    assert_int_equal(st, C2D_ERROR_STATE);
    assert_string_equal(c2d_status_string(st), state_message);
}

/* The board: two capsules far from one ball. */
static const float cap_ax[] = {0.0f, 100.0f}, cap_ay[] = {0.0f, 100.0f};
static const float cap_bx[] = {1.0f, 101.0f}, cap_by[] = {0.0f, 100.0f};
static const float cap_r[] = {0.5f, 0.5f};
static const float ball_x[] = {50.0f}, ball_y[] = {50.0f}, ball_r[] = {1.0f};
static const c2d_capsule_soa board = {cap_ax, cap_ay, cap_bx, cap_by, cap_r, 2, NULL, NULL, NULL};
static const c2d_circle_soa ball = {ball_x, ball_y, ball_r, 1, NULL, NULL};

/* Capsule 0 moved onto the ball: (49, 50)-(51, 50), radius 0.5. */
static const float on_ax[] = {49.0f}, on_ay[] = {50.0f}, on_bx[] = {51.0f}, on_by[] = {50.0f};
static const c2d_capsule_soa onto_ball = {on_ax, on_ay, on_bx, on_by, cap_r, 1, NULL, NULL, NULL};

/* The capsules after the move, for the oracle. */
static const float moved_ax[] = {49.0f, 100.0f}, moved_ay[] = {50.0f, 100.0f};
static const float moved_bx[] = {51.0f, 101.0f}, moved_by[] = {50.0f, 100.0f};
static const c2d_capsule_soa moved_board = {moved_ax, moved_ay, moved_bx, moved_by, cap_r,
                                            2,        NULL,     NULL,     NULL};

/* The range call over every capsule, the single call and the batch call all give the one
 * contact of the moved board, byte for byte (the frame must be binned). */
static void assert_one_contact(c2d_scene *sc) {
    c2d_pair_contact range[4], single[4], oracle[4];
    size_t n_range = 9, n_single = 9, n_oracle = 9;
    assert_int_equal(c2d_scene_collide_range(sc, &ball, 0, 2, range, 4, &n_range), C2D_OK);
    assert_int_equal(c2d_batch_collide(&ball, &moved_board, oracle, 4, &n_oracle), C2D_OK);
    assert_int_equal(n_oracle, 1);
    assert_int_equal(n_range, 1);
    assert_memory_equal(range, oracle, sizeof oracle[0]);
    assert_int_equal(c2d_scene_collide(sc, &ball, single, 4, &n_single), C2D_OK);
    assert_int_equal(n_single, 1);
    assert_memory_equal(single, oracle, sizeof oracle[0]);
}

/* Issue 16, first reproducer: bin_begin, bin_part, move, bin_end. */
static void frame_moved_between_part_and_end(void **state) {
    (void)state;
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&board, NULL, &sc), C2D_OK);
    assert_int_equal(c2d_scene_bin_begin(sc, &ball, 1), C2D_OK);
    assert_int_equal(c2d_scene_bin_part(sc, 0), C2D_OK);
    assert_int_equal(c2d_scene_move_capsules(sc, 0, &onto_ball), C2D_OK);
    assert_state(c2d_scene_bin_end(sc));
    size_t count = 9;
    c2d_pair_contact out[4];
    assert_state(c2d_scene_collide_range(sc, &ball, 0, 2, out, 4, &count));
    assert_int_equal(count, 0);
    /* binning again: the right answer, in parts as in one call */
    assert_int_equal(c2d_scene_bin_begin(sc, &ball, 1), C2D_OK);
    assert_int_equal(c2d_scene_bin_part(sc, 0), C2D_OK);
    assert_int_equal(c2d_scene_bin_end(sc), C2D_OK);
    assert_one_contact(sc);
    c2d_scene_destroy(sc);
}

/* A move between bin_begin and bin_part: the part is refused too. */
static void frame_moved_before_part(void **state) {
    (void)state;
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&board, NULL, &sc), C2D_OK);
    assert_int_equal(c2d_scene_bin_begin(sc, &ball, 2), C2D_OK);
    assert_int_equal(c2d_scene_bin_part(sc, 0), C2D_OK);
    assert_int_equal(c2d_scene_move_capsules(sc, 0, &onto_ball), C2D_OK);
    assert_state(c2d_scene_bin_part(sc, 1));
    assert_state(c2d_scene_bin_end(sc));
    assert_int_equal(c2d_scene_bin(sc, &ball), C2D_OK);
    assert_one_contact(sc);
    c2d_scene_destroy(sc);
}

/* Issue 16, second reproducer: bin, move, then bin_end alone does not revive the frame. */
static void frame_moved_after_bin(void **state) {
    (void)state;
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&board, NULL, &sc), C2D_OK);
    assert_int_equal(c2d_scene_bin(sc, &ball), C2D_OK);
    assert_int_equal(c2d_scene_move_capsules(sc, 0, &onto_ball), C2D_OK);
    size_t count = 9;
    c2d_pair_contact out[4];
    assert_state(c2d_scene_collide_range(sc, &ball, 0, 2, out, 4, &count));
    assert_int_equal(count, 0);
    assert_state(c2d_scene_bin_end(sc));
    count = 9;
    assert_state(c2d_scene_collide_range(sc, &ball, 0, 2, out, 4, &count));
    assert_int_equal(count, 0);
    assert_state(c2d_scene_bin_part(sc, 0));
    /* a size query is refused the same way */
    count = 9;
    assert_state(c2d_scene_collide_range(sc, &ball, 0, 2, NULL, 0, &count));
    assert_int_equal(count, 0);
    assert_int_equal(c2d_scene_bin(sc, &ball), C2D_OK);
    assert_one_contact(sc);
    /* a move of no capsules changes nothing: the frame stays */
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    assert_int_equal(c2d_scene_move_capsules(sc, 1, &none), C2D_OK);
    assert_one_contact(sc);
    c2d_scene_destroy(sc);
}

/* Calls out of order and another circle set. */
static void frame_call_order(void **state) {
    (void)state;
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&board, NULL, &sc), C2D_OK);
    size_t count = 9;
    c2d_pair_contact out[4];
    /* nothing binned yet */
    assert_state(c2d_scene_collide_range(sc, &ball, 0, 2, out, 4, &count));
    assert_int_equal(count, 0);
    assert_state(c2d_scene_bin_part(sc, 0));
    assert_state(c2d_scene_bin_end(sc));
    /* a range outside the scene is still an index error */
    assert_int_equal(c2d_scene_collide_range(sc, &ball, 1, 2, out, 4, &count), C2D_ERROR_INDEX);
    /* a part missing: the end is refused, ranges too; the part may still come */
    assert_int_equal(c2d_scene_bin_begin(sc, &ball, 2), C2D_OK);
    assert_int_equal(c2d_scene_bin_part(sc, 1), C2D_OK);
    assert_state(c2d_scene_bin_end(sc));
    assert_state(c2d_scene_collide_range(sc, &ball, 0, 2, out, 4, &count));
    assert_int_equal(c2d_scene_bin_part(sc, 2), C2D_ERROR_INDEX); /* not a part of the frame */
    assert_int_equal(c2d_scene_bin_part(sc, 0), C2D_OK);
    assert_int_equal(c2d_scene_bin_end(sc), C2D_OK);
    assert_int_equal(c2d_scene_collide_range(sc, &ball, 0, 2, out, 4, &count), C2D_OK);
    assert_int_equal(count, 0);
    /* the frame is complete: no part and no second end */
    assert_state(c2d_scene_bin_part(sc, 0));
    assert_state(c2d_scene_bin_end(sc));
    assert_int_equal(c2d_scene_collide_range(sc, &ball, 0, 2, out, 4, &count), C2D_OK);
    /* another circle set: other arrays, or another count */
    const float x2[] = {50.0f, 0.5f}, y2[] = {50.0f, 0.0f}, r2[] = {1.0f, 1.0f};
    const c2d_circle_soa other = {x2, y2, r2, 1, NULL, NULL};
    count = 9;
    assert_state(c2d_scene_collide_range(sc, &other, 0, 2, out, 4, &count));
    assert_int_equal(count, 0);
    c2d_circle_soa fewer = ball;
    fewer.count = 0;
    assert_state(c2d_scene_collide_range(sc, &fewer, 0, 2, out, 4, &count));
    const c2d_circle_soa more = {x2, y2, r2, 2, NULL, NULL};
    assert_int_equal(c2d_scene_bin(sc, &more), C2D_OK);
    assert_state(c2d_scene_collide_range(sc, &other, 0, 2, out, 4, &count));
    assert_int_equal(c2d_scene_collide_range(sc, &more, 0, 2, out, 4, &count), C2D_OK);
    assert_int_equal(count, 1); /* circle 1 on capsule 0 */
    /* a new begin replaces the binned frame at once */
    assert_int_equal(c2d_scene_bin_begin(sc, &more, 1), C2D_OK);
    assert_state(c2d_scene_collide_range(sc, &more, 0, 2, out, 4, &count));
    /* parts out of range leave the frame as it was */
    assert_int_equal(c2d_scene_bin_begin(sc, &more, 0), C2D_ERROR_INDEX);
    assert_int_equal(c2d_scene_bin_part(sc, 0), C2D_OK);
    assert_int_equal(c2d_scene_bin_end(sc), C2D_OK);
    assert_int_equal(c2d_scene_collide_range(sc, &more, 0, 2, out, 4, &count), C2D_OK);
    assert_int_equal(count, 1);
    /* the single call bins too: its frame serves ranges */
    assert_int_equal(c2d_scene_collide(sc, &ball, out, 4, &count), C2D_OK);
    assert_int_equal(c2d_scene_collide_range(sc, &ball, 0, 2, out, 4, &count), C2D_OK);
    assert_int_equal(count, 0);
    assert_state(c2d_scene_collide_range(sc, &more, 0, 2, out, 4, &count));
    c2d_scene_destroy(sc);
}

/* An allocator that fails while `fail` is set. */
static void *maybe_alloc(size_t size, void *user) {
    return *(const bool *)user ? NULL : malloc(size);
}

static void plain_free(void *ptr, void *user) {
    (void)user;
    free(ptr);
}

/* A frame that fails to bin replaces the one before: ranges refuse both until a bin succeeds;
 * a part that failed may be binned again. */
static void frame_failed_binning(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 3000, 200, C2D_W5_UNIFORM, 16), 0);
    bool fail = false;
    const c2d_allocator a = {maybe_alloc, plain_free, &fail};
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&w.capsules, &a, &sc), C2D_OK);
    c2d_circle_soa few = w.circles;
    few.count = 10;
    assert_int_equal(c2d_scene_bin(sc, &few), C2D_OK);
    size_t total = 0;
    assert_int_equal(c2d_batch_collide(&w.circles, &w.capsules, NULL, 0, &total), C2D_OK);
    c2d_pair_contact *ref = malloc((total + 1) * sizeof *ref);
    c2d_pair_contact *got = malloc((total + 1) * sizeof *got);
    assert_int_equal(c2d_batch_collide(&w.circles, &w.capsules, ref, total + 1, &total), C2D_OK);
    size_t count = 9;
    /* the whole set needs more pair memory than the 10 circles' frame left */
    assert_int_equal(c2d_scene_bin_begin(sc, &w.circles, 1), C2D_OK);
    fail = true;
    const c2d_status part = c2d_scene_bin_part(sc, 0); /* fails if its buffer must grow */
    assert_true(part == C2D_OK || part == C2D_ERROR_ALLOC);
    assert_int_equal(c2d_scene_bin_end(sc), C2D_ERROR_ALLOC); /* its sort buffers must grow */
    assert_state(c2d_scene_collide_range(sc, &few, 0, w.capsules.count, got, total, &count));
    assert_state(c2d_scene_collide_range(sc, &w.circles, 0, w.capsules.count, got, total, &count));
    fail = false;
    if (part != C2D_OK) assert_int_equal(c2d_scene_bin_part(sc, 0), C2D_OK);
    assert_int_equal(c2d_scene_bin_end(sc), C2D_OK);
    assert_int_equal(
        c2d_scene_collide_range(sc, &w.circles, 0, w.capsules.count, got, total + 1, &count),
        C2D_OK);
    assert_int_equal(count, total);
    assert_memory_equal(got, ref, total * sizeof *ref);
    free(ref);
    free(got);
    c2d_scene_destroy(sc);
    c2d_workload_free(&w);
}

/* What a range call with changed circle values returns: C2D_ERROR_STATE when the library
 * checks the values (C2D_FRAME_CHECKS, set by meson), else C2D_OK with an answer for values
 * that no longer exist (the caller's duty, documented). */
static void assert_changed(c2d_status st) {
#if C2D_FRAME_CHECKS
    assert_state(st);
#else
    assert_int_equal(st, C2D_OK);
#endif
}

/* A binned circle's value changed between binning and a range call: refused with the frame
 * checks compiled in; restored, the frame answers again (the same values, the same answer). */
static void frame_values_changed(void **state) {
    (void)state;
#if !C2D_FRAME_CHECKS
    printf("# frame checks not compiled in (-Dframe_checks=false, or auto in a release build): "
           "changed circle values go undetected; their C2D_ERROR_STATE assertions are "
           "skipped\n");
#endif
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 2000, 150, C2D_W5_MIXED, 21), 0);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&w.capsules, NULL, &sc), C2D_OK);
    size_t total = 0;
    assert_int_equal(c2d_batch_collide(&w.circles, &w.capsules, NULL, 0, &total), C2D_OK);
    c2d_pair_contact *ref = malloc((total + 1) * sizeof *ref);
    c2d_pair_contact *got = malloc((total + 1) * sizeof *got);
    assert_int_equal(c2d_scene_collide(sc, &w.circles, ref, total + 1, &total), C2D_OK);
    const size_t n = w.circles.count, m = w.capsules.count;
    float *const arrays[] = {w.x, w.y, w.radius};
    const size_t at[] = {0, 1, n / 2, n - 1};
    for (size_t a = 0; a < 3; a++)
        for (size_t j = 0; j < sizeof at / sizeof at[0]; j++) {
            /* binned in one call, or in three parts with the change after the parts */
            const bool split = j % 2 == 1;
            if (split) {
                assert_int_equal(c2d_scene_bin_begin(sc, &w.circles, 3), C2D_OK);
                for (size_t p = 0; p < 3; p++)
                    assert_int_equal(c2d_scene_bin_part(sc, p), C2D_OK);
            } else {
                assert_int_equal(c2d_scene_bin(sc, &w.circles), C2D_OK);
            }
            const float kept = arrays[a][at[j]];
            arrays[a][at[j]] = a == 2 ? kept * 2.0f + 1.0f : kept + 0.25f;
            if (split) assert_int_equal(c2d_scene_bin_end(sc), C2D_OK);
            size_t count = 9;
            assert_changed(c2d_scene_collide_range(sc, &w.circles, 0, m, got, total + 1, &count));
            arrays[a][at[j]] = kept;
            assert_int_equal(c2d_scene_collide_range(sc, &w.circles, 0, m, got, total + 1, &count),
                             C2D_OK);
            assert_int_equal(count, total);
            assert_memory_equal(got, ref, total * sizeof *ref);
        }
    /* two radii swapped; one coordinate's sign bit (-0 for 0 counts as a change too) */
    size_t count = 9;
    assert_int_equal(c2d_scene_bin(sc, &w.circles), C2D_OK);
    size_t big = 0;
    while (w.radius[big] == w.radius[0])
        big++;
    float t = w.radius[0];
    w.radius[0] = w.radius[big];
    w.radius[big] = t;
    assert_changed(c2d_scene_collide_range(sc, &w.circles, 0, m, got, total + 1, &count));
    w.radius[big] = w.radius[0];
    w.radius[0] = t;
    assert_int_equal(c2d_scene_collide_range(sc, &w.circles, 0, m, got, total + 1, &count), C2D_OK);
    w.y[3] = -w.y[3];
    assert_changed(c2d_scene_collide_range(sc, &w.circles, 0, m, got, total + 1, &count));
    free(ref);
    free(got);
    c2d_scene_destroy(sc);
    c2d_workload_free(&w);
}

/* Frames split in parts over many frames with capsules moving in between: the ranges always
 * equal the single call, and a frame binned before a move is always refused. */
static void frame_split_agrees_with_single_call(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 4000, 300, C2D_W5_CLUSTERED, 20), 0);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&w.capsules, NULL, &sc), C2D_OK);
    size_t cap = 0;
    assert_int_equal(c2d_batch_collide(&w.circles, &w.capsules, NULL, 0, &cap), C2D_OK);
    cap = 4 * cap + 64;
    c2d_pair_contact *ref = malloc(cap * sizeof *ref), *got = malloc(cap * sizeof *got);
    const size_t m = w.capsules.count;
    for (size_t frame = 0; frame < 6; frame++) {
        const size_t parts = 1 + frame * 3 % 7;
        assert_int_equal(c2d_scene_bin_begin(sc, &w.circles, parts), C2D_OK);
        for (size_t p = 0; p < parts; p++) /* in reverse */
            assert_int_equal(c2d_scene_bin_part(sc, parts - 1 - p), C2D_OK);
        assert_int_equal(c2d_scene_bin_end(sc), C2D_OK);
        size_t done = 0;
        for (size_t r = 0; r < 3; r++) {
            const size_t first = m * r / 3, last = m * (r + 1) / 3;
            size_t count = 0;
            assert_int_equal(c2d_scene_collide_range(sc, &w.circles, first, last - first,
                                                     got + done, cap - done, &count),
                             C2D_OK);
            done += count;
        }
        size_t total = 0;
        assert_int_equal(c2d_scene_collide(sc, &w.circles, ref, cap, &total), C2D_OK);
        assert_int_equal(done, total);
        assert_memory_equal(got, ref, total * sizeof *ref);
        /* a flipper moves: the frame is stale until binned again */
        w.bx[7] += 0.3f;
        w.ay[8] -= 0.3f;
        const c2d_capsule_soa flipper = {
            w.ax + 7, w.ay + 7, w.bx + 7, w.by + 7, w.capsule_radius + 7, 2, NULL, NULL, NULL};
        assert_int_equal(c2d_scene_move_capsules(sc, 7, &flipper), C2D_OK);
        size_t count = 9;
        assert_state(c2d_scene_collide_range(sc, &w.circles, 0, m, got, cap, &count));
        assert_int_equal(count, 0);
        for (size_t i = 0; i < w.circles.count; i++)
            w.y[i] -= 0.4f;
    }
    free(ref);
    free(got);
    c2d_scene_destroy(sc);
    c2d_workload_free(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(frame_moved_between_part_and_end),
        cmocka_unit_test(frame_moved_before_part),
        cmocka_unit_test(frame_moved_after_bin),
        cmocka_unit_test(frame_call_order),
        cmocka_unit_test(frame_failed_binning),
        cmocka_unit_test(frame_values_changed),
        cmocka_unit_test(frame_split_agrees_with_single_call),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
