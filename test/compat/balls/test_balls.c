/* Balls against balls: c2d_batch_collide_circles, c2d_scene_collide_circles,
 * c2d_batch_sweep_circles and c2d_scene_sweep_circles against loops over c2d_collide_circles
 * and c2d_sweep_circles, byte for byte on every backend: worked examples, random, packed,
 * coincident and hostile sets, every tail length, truncation, size queries, bad arguments and
 * the scene's memory rules. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "balls_check.h"

/* Three balls on a line: 0 and 1 overlap by 0.5, 1 and 2 touch, 0 and 2 are apart. */
static void worked_example(void **state) {
    (void)state;
    const float x[] = {0.0f, 1.5f, 3.5f}, y[] = {0.0f, 0.0f, 0.0f}, r[] = {1.0f, 1.0f, 1.0f};
    const c2d_circle_soa balls = {x, y, r, 3, NULL, NULL};
    c2d_circle_pair_contact out[4];
    size_t n;
    assert_int_equal(c2d_batch_collide_circles(&balls, out, 4, &n), C2D_OK);
    assert_int_equal(n, 2);
    assert_int_equal(out[0].a, 0);
    assert_int_equal(out[0].b, 1);
    assert_true(out[0].contact.normal.x == -1.0f && out[0].contact.normal.y == 0.0f);
    assert_true(out[0].contact.depth == 0.5f);
    assert_true(out[0].contact.point.x == 0.5f); /* on ball 1's surface */
    assert_int_equal(out[1].a, 1);
    assert_int_equal(out[1].b, 2);
    assert_true(out[1].contact.depth == 0.0f);

    /* 0 moves right by 4 and meets 1 at once (overlapping); 2 moves left into 1 at t = 0
     * (touching counts as overlap at the start? no: c == 0 is not < 0, and they move apart
     * from 1... so compute: 2 moving left toward 1, touching at start, b < 0: t = 0). */
    const float mx[] = {4.0f, 0.0f, -1.0f}, my[] = {0.0f, 0.0f, 0.0f};
    c2d_circle_hit hits[3];
    assert_int_equal(c2d_batch_sweep_circles(&balls, mx, my, hits), C2D_OK);
    assert_int_equal(hits[0].other, 1);
    assert_true(hits[0].toi.t == 0.0f);
    assert_int_equal(hits[1].other, 0); /* 0 and 2 both at t = 0: the lowest index */
    assert_int_equal(hits[2].other, 1);
    ball_set s;
    balls_init(&s, 3);
    memcpy(s.x, x, sizeof x);
    memcpy(s.r, r, sizeof r);
    memcpy(s.mx, mx, sizeof mx);
    assert_int_equal(check_balls(&s, "worked example"), 2);
    balls_free(&s);
}

static void random_sets(void **state) {
    (void)state;
    const struct {
        size_t n;
        float span, rlo, rhi, move;
    } cases[] = {
        {700, 100.0f, 0.5f, 2.0f, 3.0f},  /* a few contacts a ball */
        {500, 1000.0f, 0.1f, 1.0f, 1.0f}, /* gas */
        {400, 10.0f, 0.1f, 3.0f, 2.0f},   /* dense: tens of contacts a ball */
        {300, 50.0f, 0.0f, 0.0f, 5.0f},   /* points */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        c2d_rng rng = {0xba11 + k};
        ball_set s;
        balls_init(&s, cases[k].n);
        balls_random(&s, &rng, cases[k].span, cases[k].rlo, cases[k].rhi, cases[k].move);
        char label[64];
        snprintf(label, sizeof label, "random %zu", k);
        check_balls(&s, label);
        balls_free(&s);
    }
}

/* Hexagonal packing with small overlaps: six contacts inside, rounding at the touching
 * distance decides some of them. */
static void packed(void **state) {
    (void)state;
    const float radii[] = {0.5f, 0.5005f, 0.52f};
    for (size_t k = 0; k < 3; k++) {
        c2d_rng rng = {0x4e7 + k};
        ball_set s;
        balls_init(&s, 600);
        balls_hex(&s, 25, 1.0f, radii[k], 0.3f, &rng);
        char label[64];
        snprintf(label, sizeof label, "hexagonal, r %g", (double)radii[k]);
        const size_t total = check_balls(&s, label);
        if (k > 0) assert_true(total > 2 * s.n); /* really packed */
        balls_free(&s);
    }
}

/* Two balls on one centre, crowds on a few points, every ball on one point. */
static void coincident(void **state) {
    (void)state;
    ball_set s;
    balls_init(&s, 200);
    c2d_rng rng = {0xc0c0};
    balls_random(&s, &rng, 30.0f, 0.2f, 1.0f, 2.0f);
    for (size_t i = 0; i < 200; i += 10) { /* pairs on one centre */
        s.x[i + 1] = s.x[i];
        s.y[i + 1] = s.y[i];
        s.mx[i + 1] = s.mx[i];
        s.my[i + 1] = s.my[i];
    }
    for (size_t i = 100; i < 160; i++) { /* a crowd on one point, half with zero radius */
        s.x[i] = 7.0f;
        s.y[i] = 7.0f;
        s.r[i] = i % 2 ? 0.0f : s.r[i];
    }
    check_balls(&s, "coincident");
    for (size_t i = 0; i < 200; i++) { /* all on one point */
        s.x[i] = 1.0f;
        s.y[i] = -2.0f;
    }
    const size_t total = check_balls(&s, "all on one point");
    assert_int_equal(total, 200 * 199 / 2);
    for (size_t i = 0; i < 200; i++) /* and all of radius 0, not moving */
        s.r[i] = s.mx[i] = s.my[i] = 0.0f;
    assert_int_equal(check_balls(&s, "all on one point, radius 0"), 200 * 199 / 2);
    balls_free(&s);
}

/* Mixed sizes: a few huge balls (the grid leaves them out) among small ones, and one ball as
 * large as the world. */
static void mixed_sizes(void **state) {
    (void)state;
    ball_set s;
    balls_init(&s, 500);
    c2d_rng rng = {0x312e};
    balls_random(&s, &rng, 200.0f, 0.2f, 0.8f, 1.0f);
    for (size_t i = 0; i < 500; i += 97)
        s.r[i] = 25.0f;
    check_balls(&s, "a few huge balls");
    s.r[250] = 1000.0f;
    s.mx[3] = 300.0f; /* one fast ball */
    check_balls(&s, "world-sized ball and a fast one");
    balls_free(&s);
}

/* NaN, infinities, huge and tiny values, negative radii. */
static void hostile(void **state) {
    (void)state;
    for (unsigned k = 0; k < 6; k++) {
        c2d_rng rng = {0xbad + k};
        ball_set s;
        balls_init(&s, 150 + 37 * k);
        balls_random(&s, &rng, k % 2 ? 10.0f : 100.0f, 0.1f, 2.0f, 2.0f);
        balls_sprinkle(&s, &rng, k < 3 ? 3 + 4 * k : 2 + k, k % 3 == 1);
        for (size_t i = 0; i < s.n; i += 11)
            s.r[i] = -s.r[i];
        char label[64];
        snprintf(label, sizeof label, "hostile %u", k);
        check_balls(&s, label);
        balls_free(&s);
    }
}

/* Every count 0..40: every vector tail of 4, 8 and 16 lanes. */
static void every_count(void **state) {
    (void)state;
    for (size_t n = 0; n <= 40; n++) {
        c2d_rng rng = {0x7a11 + n};
        ball_set s;
        balls_init(&s, n);
        balls_random(&s, &rng, 6.0f, 0.2f, 1.5f, 2.0f);
        if (n % 5 == 4) balls_sprinkle(&s, &rng, 5, false);
        char label[64];
        snprintf(label, sizeof label, "%zu balls", n);
        check_balls(&s, label);
        balls_free(&s);
    }
}

/* Crowds of every size 0..2*16+3 in one grid cell among sparse balls: the grid's vector spans
 * (contacts and sweeps) end at every tail of 4, 8 and 16 lanes, and the lane queues of the
 * contacts and sweeps flush at every fill. Moves: none, equal for all (no relative move),
 * random, and apart from the crowd's centre. */
static void crowd_tails(void **state) {
    (void)state;
    for (size_t k = 0; k <= 2 * 16 + 3; k++) {
        c2d_rng rng = {0xc20d + k};
        ball_set s;
        balls_init(&s, 40 + k);
        balls_random(&s, &rng, 300.0f, 0.3f, 0.6f, 0.5f);
        for (size_t i = 40; i < 40 + k; i++) {
            s.x[i] = 100.0f + c2d_rng_range(&rng, 0.0f, 0.25f);
            s.y[i] = 100.0f + c2d_rng_range(&rng, 0.0f, 0.25f);
            s.r[i] = c2d_rng_range(&rng, 0.2f, 0.3f);
        }
        for (unsigned m = 0; m < 4; m++) {
            for (size_t i = 40; i < 40 + k; i++) {
                const float dx = s.x[i] - 100.125f, dy = s.y[i] - 100.125f;
                s.mx[i] = m == 0   ? 0.0f
                          : m == 1 ? 0.25f
                          : m == 2 ? c2d_rng_range(&rng, -0.3f, 0.3f)
                                   : dx;
                s.my[i] = m == 0   ? 0.0f
                          : m == 1 ? -0.125f
                          : m == 2 ? c2d_rng_range(&rng, -0.3f, 0.3f)
                                   : dy;
            }
            char label[64];
            snprintf(label, sizeof label, "crowd of %zu, moves %u", k, m);
            check_balls(&s, label);
        }
        balls_free(&s);
    }
}

/* Shapes for the AVX-512 walks a lane a ball (src/batch/ball_blocks.h): 16 balls of one row
 * of cells far apart (a block over more than 60 cells: its cells' starts are gathered) beside
 * a dense row (a block's partners beyond a window of 64 entries: gathered too), the dense row
 * above, below or both; and rows whose blocks end part-way, at every length. */
static void block_shapes(void **state) {
    (void)state;
    for (unsigned shape = 0; shape < 3; shape++)
        for (unsigned m = 0; m < 3; m++) {
            c2d_rng rng = {0xb10c + shape * 8 + m};
            const size_t sparse = 16, dense = 280, rows = shape == 2 ? 2 : 1;
            ball_set s;
            balls_init(&s, sparse + rows * dense);
            for (size_t i = 0; i < sparse; i++) { /* the sparse row at y = 0, 6 apart */
                s.x[i] = 6.0f * (float)i + c2d_rng_range(&rng, 0.0f, 0.1f);
                s.y[i] = c2d_rng_range(&rng, 0.0f, 0.1f);
                s.r[i] = c2d_rng_range(&rng, 0.45f, 0.5f);
            }
            for (size_t row = 0; row < rows; row++)
                for (size_t i = 0; i < dense; i++) { /* 0.35 apart, overlapping */
                    const size_t k = sparse + row * dense + i;
                    const float y = shape == 1 || row == 1 ? -1.0f : 1.0f;
                    s.x[k] = 0.35f * (float)i + c2d_rng_range(&rng, 0.0f, 0.05f);
                    s.y[k] = y + c2d_rng_range(&rng, -0.05f, 0.05f);
                    s.r[k] = c2d_rng_range(&rng, 0.3f, 0.5f);
                }
            for (size_t i = 0; i < s.n; i++) {
                s.mx[i] = m == 0 ? 0.0f : c2d_rng_range(&rng, -0.3f, 0.3f);
                s.my[i] = m == 2 ? c2d_rng_range(&rng, -0.3f, 0.3f) : 0.0f;
            }
            char label[64];
            snprintf(label, sizeof label, "block shape %u, moves %u", shape, m);
            check_balls(&s, label);
            balls_free(&s);
        }
    for (size_t n = 1; n <= 40; n++) { /* one row of n balls, then a second of n + 3 */
        c2d_rng rng = {0xb1 + n};
        ball_set s;
        balls_init(&s, 2 * n + 3);
        for (size_t i = 0; i < s.n; i++) {
            const bool second = i >= n;
            s.x[i] = 0.9f * (float)(second ? i - n : i) + c2d_rng_range(&rng, 0.0f, 0.05f);
            s.y[i] = (second ? 0.95f : 0.0f) + c2d_rng_range(&rng, 0.0f, 0.05f);
            s.r[i] = 0.5f;
            s.mx[i] = c2d_rng_range(&rng, -0.1f, 0.1f);
            s.my[i] = c2d_rng_range(&rng, -0.1f, 0.1f);
        }
        char label[64];
        snprintf(label, sizeof label, "rows of %zu and %zu", n, n + 3);
        check_balls(&s, label);
        balls_free(&s);
    }
}

/* The sweep's start cases in lanes: pairs exactly touching (distance r_a + r_b in float),
 * overlapping, on one centre, of radius 0, each moving apart, along the tangent, deeper, not at
 * all, or by tiny amounts (a time that rounds to 0), at small, large and subnormal scales; and
 * a resting pile with the moves of W6 (most neighbours in contact and moving apart). */
static void sweep_starts(void **state) {
    (void)state;
    const float scales[] = {1.0f, 1e-3f, 4096.0f, 1e-38f};
    for (size_t sc = 0; sc < 4; sc++) {
        c2d_rng rng = {0x57a7 + sc};
        ball_set s;
        balls_init(&s, 240);
        const float u = scales[sc];
        for (size_t i = 0; i < 240; i += 2) {
            const size_t kind = (i / 2) % 6, move = (i / 12) % 5;
            const float cx = (float)(i % 24) * 4.0f * u, cy = (float)(i / 24) * 4.0f * u;
            const float ra = 0.5f * u, rb = kind == 3 ? 0.0f : 0.5f * u;
            float gap = ra + rb;          /* exactly touching */
            if (kind == 1) gap *= 0.75f;  /* overlapping */
            if (kind == 2) gap = 0.0f;    /* one centre */
            if (kind == 4) gap *= 1.001f; /* just apart */
            if (kind == 5) gap = nextafterf(gap, 0.0f);
            s.x[i] = cx;
            s.y[i] = cy;
            s.r[i] = ra;
            s.x[i + 1] = cx + gap;
            s.y[i + 1] = cy;
            s.r[i + 1] = rb;
            const float d = 0.125f * u;
            const float mxa[5] = {-d, 0.0f, d, 0.0f, 1e-30f * u};
            const float mya[5] = {0.0f, d, 0.0f, 0.0f, 0.0f};
            s.mx[i] = mxa[move];
            s.my[i] = mya[move];
            s.mx[i + 1] = move == 3 ? 0.0f : c2d_rng_range(&rng, -d, d) * (float)(kind % 2);
            s.my[i + 1] = 0.0f;
        }
        char label[64];
        snprintf(label, sizeof label, "sweep starts, scale %g", (double)u);
        check_balls(&s, label);
        balls_free(&s);
    }
    c2d_rng rng = {0x9113};
    ball_set s;
    balls_init(&s, 1024);
    balls_hex(&s, 32, 1.0f, 0.51f, 0.05f, &rng);
    check_balls(&s, "pile, W6 moves");
    for (size_t i = 0; i < s.n; i++) { /* the whole pile moving as one: no relative move */
        s.mx[i] = 0.03125f;
        s.my[i] = -0.0625f;
    }
    check_balls(&s, "pile moving as one");
    balls_free(&s);
}

static void bad_arguments(void **state) {
    (void)state;
    const float v[] = {0.0f, 0.5f}, zero[] = {0.0f, 0.0f}; /* (0,0) r 0 touches (0.5,0) r 0.5 */
    const c2d_circle_soa ok = {v, zero, v, 2, NULL, NULL};
    const c2d_circle_soa no_y = {v, NULL, v, 2, NULL, NULL};
#if SIZE_MAX > UINT32_MAX /* a 32-bit size_t (wasm32) cannot hold a count above UINT32_MAX */
    const c2d_circle_soa huge = {v, v, v, (size_t)UINT32_MAX + 1, NULL, NULL};
#endif
    const c2d_circle_soa empty = {NULL, NULL, NULL, 0, NULL, NULL};
    c2d_circle_pair_contact out[4];
    c2d_circle_hit hits[2];
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *scene;
    assert_int_equal(c2d_scene_create(&none, NULL, &scene), C2D_OK);
    size_t n = 99;
    for (int sc = 0; sc < 2; sc++) {
        c2d_scene *use = sc ? scene : NULL;
#define COLLIDE(c, o, cap, cnt)                                                                    \
    (use ? c2d_scene_collide_circles(use, (c), (o), (cap), (cnt))                                  \
         : c2d_batch_collide_circles((c), (o), (cap), (cnt)))
#define SWEEP(c, x, y, o)                                                                          \
    (use ? c2d_scene_sweep_circles(use, (c), (x), (y), (o))                                        \
         : c2d_batch_sweep_circles((c), (x), (y), (o)))
        assert_int_equal(COLLIDE(&ok, out, 4, NULL), C2D_ERROR_NULL);
        n = 99;
        assert_int_equal(COLLIDE(NULL, out, 4, &n), C2D_ERROR_NULL);
        assert_int_equal(n, 0);
        n = 99;
        assert_int_equal(COLLIDE(&ok, NULL, 4, &n), C2D_ERROR_NULL);
        assert_int_equal(n, 0);
        n = 99;
        assert_int_equal(COLLIDE(&no_y, out, 4, &n), C2D_ERROR_NULL);
        assert_int_equal(n, 0);
#if SIZE_MAX > UINT32_MAX
        n = 99;
        assert_int_equal(COLLIDE(&huge, out, 4, &n), C2D_ERROR_TOO_LARGE);
        assert_int_equal(n, 0);
#endif
        n = 99;
        assert_int_equal(COLLIDE(&empty, NULL, 0, &n), C2D_OK);
        assert_int_equal(n, 0);
        n = 99;
        assert_int_equal(COLLIDE(&ok, NULL, 0, &n), C2D_OK); /* size query */
        assert_int_equal(n, 1);
        assert_int_equal(SWEEP(NULL, v, v, hits), C2D_ERROR_NULL);
        assert_int_equal(SWEEP(&ok, NULL, v, hits), C2D_ERROR_NULL);
        assert_int_equal(SWEEP(&ok, v, NULL, hits), C2D_ERROR_NULL);
        assert_int_equal(SWEEP(&ok, v, v, NULL), C2D_ERROR_NULL);
        assert_int_equal(SWEEP(&no_y, v, v, hits), C2D_ERROR_NULL);
#if SIZE_MAX > UINT32_MAX
        assert_int_equal(SWEEP(&huge, v, v, hits), C2D_ERROR_TOO_LARGE);
#endif
        assert_int_equal(SWEEP(&empty, NULL, NULL, NULL), C2D_OK);
#undef COLLIDE
#undef SWEEP
    }
    n = 99;
    assert_int_equal(c2d_scene_collide_circles(NULL, &ok, out, 4, &n), C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_scene_sweep_circles(NULL, &ok, v, v, hits), C2D_ERROR_NULL);
    c2d_scene_destroy(scene);
}

/* ---- scene memory ---------------------------------------------------------------------- */

typedef struct counting {
    size_t allocations, fail_after; /* fail every allocation once `allocations` reaches it */
} counting;

static void *counting_alloc(size_t size, void *user) {
    counting *c = user;
    if (c->allocations >= c->fail_after) return NULL;
    c->allocations++;
    return malloc(size);
}

static void counting_free(void *p, void *user) {
    (void)user;
    free(p);
}

/* A steady stream of frames allocates nothing after the first; a failed allocation returns
 * C2D_ERROR_ALLOC and leaves the scene working. */
static void scene_memory(void **state) {
    (void)state;
    counting cnt = {0, SIZE_MAX};
    const c2d_allocator alloc = {counting_alloc, counting_free, &cnt};
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *scene;
    assert_int_equal(c2d_scene_create(&none, &alloc, &scene), C2D_OK);
    ball_set s;
    balls_init(&s, 400);
    c2d_rng rng = {0x3e3};
    balls_random(&s, &rng, 40.0f, 0.3f, 1.0f, 1.0f);
    c2d_circle_pair_contact *ref;
    const size_t total = balls_ref_collide(&s, &ref);
    c2d_circle_pair_contact *out = xmalloc((total + 1) * sizeof *out);
    c2d_circle_hit *hits = xmalloc(s.n * sizeof *hits);
    size_t n;
    assert_int_equal(c2d_scene_collide_circles(scene, &s.soa, out, total, &n), C2D_OK);
    const size_t after_first = cnt.allocations;
    for (int frame = 0; frame < 5; frame++) {
        assert_int_equal(c2d_scene_collide_circles(scene, &s.soa, out, total, &n), C2D_OK);
        assert_int_equal(c2d_scene_sweep_circles(scene, &s.soa, s.mx, s.my, hits), C2D_OK);
    }
    assert_int_equal(cnt.allocations, after_first);
    /* a frame twice as large needs more scratch: make that allocation fail */
    ball_set big;
    balls_init(&big, 1600);
    balls_random(&big, &rng, 80.0f, 0.3f, 1.0f, 1.0f);
    cnt.fail_after = cnt.allocations;
    n = 99;
    assert_int_equal(c2d_scene_collide_circles(scene, &big.soa, out, total, &n), C2D_ERROR_ALLOC);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_scene_sweep_circles(scene, &big.soa, big.mx, big.my, hits),
                     C2D_ERROR_ALLOC);
    /* the scene still answers the earlier frame, without allocating */
    memset(out, 0, (total + 1) * sizeof *out);
    assert_int_equal(c2d_scene_collide_circles(scene, &s.soa, out, total, &n), C2D_OK);
    assert_int_equal(n, total);
    for (size_t k = 0; k < total; k++)
        assert_true(same_ball_pair(&ref[k], &out[k]));
    cnt.fail_after = SIZE_MAX;
    balls_free(&big);
    balls_free(&s);
    free(ref);
    free(out);
    free(hits);
    c2d_scene_destroy(scene);
}

/* Resting piles for the grid sweep's walk: hexagonal piles whose spacing against the radius
 * puts 1 to 3 balls in a cell (a ball's two spans then fit one vector of 4, 8 or 16 lanes, or
 * do not), with their indices shuffled (the lowest sure partner is not the nearest entry), at
 * unit, large (2^20: coarse floats) and tiny scales, with moves random, equal for all (no
 * relative move), inwards (most neighbours moving deeper: sure hits at t = 0), outwards, and
 * tiny. Counts end at every tail of the last sweep pass's vector. */
static void sweep_piles(void **state) {
    (void)state;
    const float spacings[] = {1.0f, 0.75f, 1.5f};
    const float scales[] = {1.0f, 1e-20f, 1.0f};
    const float offsets[] = {0.0f, 0.0f, 1048576.0f};
    size_t count = 0;
    for (size_t sp = 0; sp < 3; sp++)
        for (size_t sc = 0; sc < 3; sc++)
            for (unsigned m = 0; m < 5; m++, count++) {
                c2d_rng rng = {0x9113 + count};
                const size_t per_row = 9 + count % 7, n = per_row * 6 + count % 19;
                ball_set s;
                balls_init(&s, n);
                const float d = spacings[sp] * scales[sc];
                balls_hex(&s, per_row, d, 0.51f * scales[sc], 0.05f * d, &rng);
                const float cx = 0.5f * d * (float)per_row, cy = 0.5f * d * (float)(n / per_row);
                for (size_t i = 0; i < n; i++) {
                    const float dx = s.x[i] - cx, dy = s.y[i] - cy;
                    if (m == 1) s.mx[i] = 0.03f * d, s.my[i] = -0.02f * d;
                    if (m == 2) s.mx[i] = -0.02f * dx, s.my[i] = -0.02f * dy;
                    if (m == 3) s.mx[i] = 0.02f * dx, s.my[i] = 0.02f * dy;
                    if (m == 4) s.mx[i] *= 1e-6f, s.my[i] *= 1e-6f;
                    s.x[i] += offsets[sc];
                    s.y[i] += offsets[sc];
                }
                for (size_t i = n; i-- > 1;) { /* shuffle the indices */
                    const size_t j = (size_t)(c2d_rng_next(&rng) % (i + 1));
                    float *arrays[] = {s.x, s.y, s.r, s.mx, s.my};
                    for (size_t k = 0; k < 5; k++) {
                        const float t = arrays[k][i];
                        arrays[k][i] = arrays[k][j];
                        arrays[k][j] = t;
                    }
                }
                char label[80];
                snprintf(label, sizeof label, "pile, spacing %g, scale %g, moves %u, %zu balls",
                         (double)spacings[sp], (double)scales[sc], m, n);
                check_balls(&s, label);
                balls_free(&s);
            }
}

/* A scene's capsules play no part: a scene of pins answers the ball calls as the batch does,
 * and its own capsule calls still work between ball frames. */
static void scene_with_capsules(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_make(&w, 1200, 40, C2D_WORKLOAD_SEED ^ 9), 0);
    c2d_scene *scene;
    assert_int_equal(c2d_scene_create(&w.capsules, NULL, &scene), C2D_OK);
    size_t want, got, pins_before, pins_after;
    c2d_circle_pair_contact *a = xmalloc(2000 * sizeof *a), *b = xmalloc(2000 * sizeof *b);
    c2d_circle_hit *ha = xmalloc(1200 * sizeof *ha), *hb = xmalloc(1200 * sizeof *hb);
    assert_int_equal(c2d_scene_collide(scene, &w.circles, NULL, 0, &pins_before), C2D_OK);
    assert_int_equal(c2d_batch_collide_circles(&w.circles, a, 2000, &want), C2D_OK);
    assert_int_equal(c2d_scene_collide_circles(scene, &w.circles, b, 2000, &got), C2D_OK);
    assert_int_equal(got, want);
    assert_true(want > 0);
    for (size_t k = 0; k < want; k++)
        assert_true(same_ball_pair(&a[k], &b[k]));
    assert_int_equal(c2d_batch_sweep_circles(&w.circles, w.move_x, w.move_y, ha), C2D_OK);
    assert_int_equal(c2d_scene_sweep_circles(scene, &w.circles, w.move_x, w.move_y, hb), C2D_OK);
    for (size_t i = 0; i < 1200; i++)
        assert_true(same_ball_hit(&ha[i], &hb[i]));
    assert_int_equal(c2d_scene_collide(scene, &w.circles, NULL, 0, &pins_after), C2D_OK);
    assert_int_equal(pins_after, pins_before);
    free(a);
    free(b);
    free(ha);
    free(hb);
    c2d_scene_destroy(scene);
    c2d_workload_free(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_example), cmocka_unit_test(random_sets),
        cmocka_unit_test(packed),         cmocka_unit_test(coincident),
        cmocka_unit_test(mixed_sizes),    cmocka_unit_test(hostile),
        cmocka_unit_test(every_count),    cmocka_unit_test(bad_arguments),
        cmocka_unit_test(scene_memory),   cmocka_unit_test(scene_with_capsules),
        cmocka_unit_test(crowd_tails),    cmocka_unit_test(block_shapes),
        cmocka_unit_test(sweep_starts),   cmocka_unit_test(sweep_piles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
