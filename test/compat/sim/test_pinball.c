/* The pinball example (examples/pinball.c, included as it is): filters, a sensor, a moving
 * capsule and a ray cast in one frame loop, on every backend. After every frame it checks:
 *   - no plain ball gets below the gate before it has rolled off its lower end (plain balls meet
 *     it), while some ghost ball ends below it (ghosts do not);
 *   - the drain (a sensor) stops nothing: in the end the balls lie on the floor inside it;
 *   - the drain query lists exactly the balls that overlap the drain (c2d_overlap_circle_capsule);
 *   - the laser's hit is the earliest of c2d_ray_capsule over the capsules its filter allows (no
 *     gate, no sensor) and c2d_ray_circle over the balls, ties to capsules, then the lowest
 *     index (the same bytes);
 * and that every backend ends with the same bytes. */
#define PINBALL_NO_MAIN
#include "../../examples/pinball.c"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

enum { TEST_BALLS = 8, TEST_FRAMES = 360 };

/* Ball i's signed distance above the gate's axis line (positive above), in double. */
static double above_gate(const pinball *p, size_t i) {
    const double ux = (double)p->bx[GATE_CAPSULE] - p->ax[GATE_CAPSULE];
    const double uy = (double)p->by[GATE_CAPSULE] - p->ay[GATE_CAPSULE];
    const double px = (double)p->x[i] - p->ax[GATE_CAPSULE];
    const double py = (double)p->y[i] - p->ay[GATE_CAPSULE];
    return (ux * py - uy * px) / sqrt(ux * ux + uy * uy);
}

static void check_drain(const pinball *p) {
    const c2d_capsule drain = {{p->ax[DRAIN_CAPSULE], p->ay[DRAIN_CAPSULE]},
                               {p->bx[DRAIN_CAPSULE], p->by[DRAIN_CAPSULE]},
                               p->R[DRAIN_CAPSULE]};
    size_t listed = 0;
    for (size_t i = 0; i < p->n; i++) {
        const c2d_circle ball = {{p->x[i], p->y[i]}, p->r[i]};
        if (!c2d_overlap_circle_capsule(ball, drain)) continue;
        assert_true(listed < p->n_in_drain);
        assert_int_equal(p->in_drain[listed].query, i);
        assert_int_equal(p->in_drain[listed].shape, DRAIN_CAPSULE);
        listed++;
    }
    assert_int_equal(listed, p->n_in_drain);
}

static void check_laser(const pinball *p) {
    const c2d_vec2 o = {9.8f, 3.0f}, d = {-9.7f, 0.0f};
    c2d_ray_hit best;
    memset(&best, 0, sizeof best);
    best.shape = C2D_NONE;
    for (uint32_t k = 0; k < CAPSULES; k++) {
        if (k == GATE_CAPSULE || k == DRAIN_CAPSULE) continue; /* filtered out; a sensor */
        const c2d_capsule cap = {{p->ax[k], p->ay[k]}, {p->bx[k], p->by[k]}, p->R[k]};
        c2d_toi toi;
        if (c2d_ray_capsule(o, d, cap, &toi) && (best.kind == C2D_SHAPE_NONE || toi.t < best.toi.t))
            best = (c2d_ray_hit){k, C2D_SHAPE_CAPSULE, toi};
    }
    for (uint32_t i = 0; i < p->n; i++) {
        const c2d_circle ball = {{p->x[i], p->y[i]}, p->r[i]};
        c2d_toi toi;
        if (c2d_ray_circle(o, d, ball, &toi) && (best.kind == C2D_SHAPE_NONE || toi.t < best.toi.t))
            best = (c2d_ray_hit){i, C2D_SHAPE_CIRCLE, toi};
    }
    assert_memory_equal(&best, &p->laser, sizeof best);
}

/* Runs the example's table on the active backend; returns a hash of the final state. */
static uint64_t run_table(size_t *laser_hits, size_t *ghosts_through) {
    pinball p;
    assert_int_equal(pinball_make(&p, TEST_BALLS), 0);
    *laser_hits = 0;
    int rolled_off[TEST_BALLS] = {0}; /* a plain ball past the gate's lower end is free */
    for (int f = 0; f < TEST_FRAMES; f++) {
        p.target = f >= 85 && f < 105 ? 0.5f : -0.4f;
        assert_int_equal(pinball_frame(&p, 1.0f / 60.0f, -9.8f), 0);
        for (size_t i = 0; i < p.n; i += 2) { /* plain balls: even indices */
            rolled_off[i] |= p.x[i] > p.bx[GATE_CAPSULE];
            if (!rolled_off[i]) assert_true(above_gate(&p, i) > 0.0);
        }
        check_drain(&p);
        check_laser(&p);
        *laser_hits += p.laser.kind != C2D_SHAPE_NONE;
    }
    *ghosts_through = 0;
    for (size_t i = 1; i < p.n; i += 2)
        *ghosts_through += above_gate(&p, i) < 0.0 && p.x[i] < 7.0f;
    /* the drain stops nothing: the balls have fallen through it onto the floor */
    size_t on_floor = 0;
    for (size_t i = 0; i < p.n; i++)
        on_floor += p.y[i] < p.r[i] + 0.2f;
    assert_true(on_floor >= p.n / 2);
    assert_true(p.n_in_drain >= on_floor);
    uint64_t h = 14695981039346656037ull;
    const float *arrays[] = {p.x, p.y, p.vx, p.vy};
    for (size_t a = 0; a < 4; a++)
        for (size_t i = 0; i < p.n; i++) {
            unsigned char bytes[sizeof(float)];
            memcpy(bytes, &arrays[a][i], sizeof bytes);
            for (size_t b = 0; b < sizeof bytes; b++)
                h = (h ^ bytes[b]) * 1099511628211ull;
        }
    pinball_free(&p);
    return h;
}

static void table_on_every_backend(void **state) {
    (void)state;
    const c2d_backend backends[] = {C2D_BACKEND_SCALAR,      C2D_BACKEND_SSE2,   C2D_BACKEND_SSE41,
                                    C2D_BACKEND_AVX2,        C2D_BACKEND_AVX512, C2D_BACKEND_NEON,
                                    C2D_BACKEND_WASM_SIMD128};
    const c2d_backend before = c2d_backend_active();
    uint64_t first = 0;
    int runs = 0;
    for (size_t b = 0; b < sizeof backends / sizeof backends[0]; b++) {
        if (c2d_backend_select(backends[b]) != C2D_OK) continue;
        size_t laser_hits, ghosts;
        const uint64_t h = run_table(&laser_hits, &ghosts);
        assert_true(laser_hits > 0); /* the laser met something: a ball or the raised flipper */
        assert_true(ghosts > 0);     /* a ghost ball fell through the gate */
        if (runs++ == 0) first = h;
        assert_true(h == first);
        print_message("# %s: state hash %016llx, laser hits in %zu frames, %zu ghosts below the "
                      "gate\n",
                      c2d_backend_name(backends[b]), (unsigned long long)h, laser_hits, ghosts);
    }
    assert_true(runs > 0);
    assert_int_equal(c2d_backend_select(before), C2D_OK);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(table_on_every_backend)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
