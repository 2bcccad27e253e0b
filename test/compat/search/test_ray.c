/* Ray casts (collide2d/search.h): worked examples of c2d_ray_capsule() and c2d_ray_circle(),
 * their agreement with a double-precision reference, and c2d_batch_ray_cast() /
 * c2d_scene_ray_cast() against the scalar loop (capsules in index order, then circles; a hit
 * replaces the kept one only when strictly earlier), byte for byte on every backend, for random
 * and adversarial rays (along an axis, grazing, zero-length, starting inside, NaN, infinite,
 * huge) and every tail length; plus the status rules. */
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

#include "batch_check.h"
#include "dref.h"
#include "ray_check.h"

/* ---- worked examples -------------------------------------------------------------------- */

static const c2d_capsule bar = {{0.0f, 0.0f}, {10.0f, 0.0f}, 1.0f};

static void expect_hit(c2d_vec2 o, c2d_vec2 d, float t, float nx, float ny, float px, float py) {
    c2d_toi toi;
    assert_true(c2d_ray_capsule(o, d, bar, &toi));
    assert_true(toi.t == t);
    assert_true(fabsf(toi.normal.x - nx) <= 1e-6f && fabsf(toi.normal.y - ny) <= 1e-6f);
    assert_true(fabsf(toi.point.x - px) <= 1e-5f && fabsf(toi.point.y - py) <= 1e-5f);
}

static void worked_capsule(void **state) {
    (void)state;
    /* straight down onto the top side: y = 1 at t = 4/10 */
    expect_hit((c2d_vec2){5.0f, 5.0f}, (c2d_vec2){0.0f, -10.0f}, 0.4f, 0.0f, 1.0f, 5.0f, 1.0f);
    /* along the axis into the end circle at a: x = -1 at t = 4/20 */
    expect_hit((c2d_vec2){-5.0f, 0.0f}, (c2d_vec2){20.0f, 0.0f}, 0.2f, -1.0f, 0.0f, -1.0f, 0.0f);
    /* along the axis from beyond b, backwards: x = 11 at t = 4/20 */
    expect_hit((c2d_vec2){15.0f, 0.0f}, (c2d_vec2){-20.0f, 0.0f}, 0.2f, 1.0f, 0.0f, 11.0f, 0.0f);
    /* grazing the top of the end circle at a: the touch (0, 1) at t = 5/20 */
    expect_hit((c2d_vec2){-5.0f, 1.0f}, (c2d_vec2){20.0f, 0.0f}, 0.25f, 0.0f, 1.0f, 0.0f, 1.0f);
    /* ending exactly on the surface: t = 1 */
    expect_hit((c2d_vec2){5.0f, 3.0f}, (c2d_vec2){0.0f, -2.0f}, 1.0f, 0.0f, 1.0f, 5.0f, 1.0f);
    /* starting inside, heading deeper: t = 0, the normal from the axis to the origin */
    expect_hit((c2d_vec2){5.0f, 0.5f}, (c2d_vec2){0.0f, -1.0f}, 0.0f, 0.0f, 1.0f, 5.0f, 1.0f);
    /* starting on the surface heading in */
    expect_hit((c2d_vec2){5.0f, 1.0f}, (c2d_vec2){1.0f, -1.0f}, 0.0f, 0.0f, 1.0f, 5.0f, 1.0f);
    c2d_toi toi;
    /* starting inside heading out, or along the surface: no hit, it leaves */
    assert_false(c2d_ray_capsule((c2d_vec2){5.0f, 0.5f}, (c2d_vec2){0.0f, 3.0f}, bar, &toi));
    assert_false(c2d_ray_capsule((c2d_vec2){5.0f, 1.0f}, (c2d_vec2){3.0f, 0.0f}, bar, &toi));
    /* zero-length rays never hit, inside or out */
    assert_false(c2d_ray_capsule((c2d_vec2){5.0f, 0.5f}, (c2d_vec2){0.0f, 0.0f}, bar, &toi));
    assert_false(c2d_ray_capsule((c2d_vec2){5.0f, 5.0f}, (c2d_vec2){0.0f, 0.0f}, bar, &toi));
    /* too short, passing by, pointing away, NaN */
    assert_false(c2d_ray_capsule((c2d_vec2){5.0f, 5.0f}, (c2d_vec2){0.0f, -3.9f}, bar, &toi));
    assert_false(c2d_ray_capsule((c2d_vec2){-5.0f, 1.001f}, (c2d_vec2){20.0f, 0.0f}, bar, &toi));
    assert_false(c2d_ray_capsule((c2d_vec2){5.0f, 5.0f}, (c2d_vec2){0.0f, 10.0f}, bar, &toi));
    assert_false(c2d_ray_capsule((c2d_vec2){NAN, 5.0f}, (c2d_vec2){0.0f, -10.0f}, bar, &toi));
    assert_false(c2d_ray_capsule((c2d_vec2){5.0f, 5.0f}, (c2d_vec2){0.0f, NAN}, bar, &toi));
}

static void worked_circle(void **state) {
    (void)state;
    const c2d_circle c = {{0.0f, 0.0f}, 1.0f};
    c2d_toi toi;
    assert_true(c2d_ray_circle((c2d_vec2){-5.0f, 0.0f}, (c2d_vec2){10.0f, 0.0f}, c, &toi));
    assert_true(toi.t == 0.4f && toi.normal.x == -1.0f && toi.normal.y == 0.0f);
    assert_true(toi.point.x == -1.0f && toi.point.y == 0.0f);
    /* grazing the top: touch at (0, 1), t = 0.5 */
    assert_true(c2d_ray_circle((c2d_vec2){-5.0f, 1.0f}, (c2d_vec2){10.0f, 0.0f}, c, &toi));
    assert_true(toi.t == 0.5f && toi.normal.x == 0.0f && toi.normal.y == 1.0f);
    assert_false(c2d_ray_circle((c2d_vec2){-5.0f, 1.001f}, (c2d_vec2){10.0f, 0.0f}, c, &toi));
    /* inside: heading toward the centre hits at 0 (normal toward the origin), outward not */
    assert_true(c2d_ray_circle((c2d_vec2){0.5f, 0.0f}, (c2d_vec2){-3.0f, 0.0f}, c, &toi));
    assert_true(toi.t == 0.0f && toi.normal.x == 1.0f && toi.point.x == 1.0f);
    assert_false(c2d_ray_circle((c2d_vec2){0.5f, 0.0f}, (c2d_vec2){3.0f, 0.0f}, c, &toi));
    assert_false(c2d_ray_circle((c2d_vec2){-5.0f, 0.0f}, (c2d_vec2){0.0f, 0.0f}, c, &toi));
    /* the same bytes as the sweep of a radius-0 circle */
    const c2d_circle point = {{-5.0f, 0.25f}, 0.0f};
    c2d_toi sweep;
    assert_true(
        c2d_sweep_circles(point, (c2d_vec2){10.0f, 0.0f}, c, (c2d_vec2){0.0f, 0.0f}, &sweep));
    assert_true(c2d_ray_circle(point.center, (c2d_vec2){10.0f, 0.0f}, c, &toi));
    assert_memory_equal(&toi, &sweep, sizeof toi);
}

/* ---- properties against the double reference ------------------------------------------- */

/* Random rays against random capsules: a hit only where the double reference comes within
 * the radius (up to rounding), its time close to the reference's first touch, its normal unit
 * and its point on the surface; a clear pass (the reference's path comes within R - 1e-4 and
 * does not start inside) is never missed. */
static void ray_properties(void **state) {
    (void)state;
    c2d_rng rng = {0x4a77};
    size_t hits = 0;
    for (int i = 0; i < 200000; i++) {
        const c2d_capsule k = {
            {c2d_rng_range(&rng, -10.0f, 10.0f), c2d_rng_range(&rng, -10.0f, 10.0f)},
            {c2d_rng_range(&rng, -10.0f, 10.0f), c2d_rng_range(&rng, -10.0f, 10.0f)},
            c2d_rng_range(&rng, 0.0f, 3.0f)};
        const c2d_vec2 o = {c2d_rng_range(&rng, -20.0f, 20.0f), c2d_rng_range(&rng, -20.0f, 20.0f)};
        const c2d_vec2 d = {c2d_rng_range(&rng, -30.0f, 30.0f), c2d_rng_range(&rng, -30.0f, 30.0f)};
        double t_ref, d_min;
        const bool near = dref_sweep(dvec_of(o), dvec_of(d), dvec_of(k.a), dvec_of(k.b), k.radius,
                                     &t_ref, &d_min);
        c2d_toi toi;
        const bool hit = c2d_ray_capsule(o, d, k, &toi);
        const double start = dref_dist_point_segment(dvec_of(o), dvec_of(k.a), dvec_of(k.b));
        if (hit) {
            hits++;
            assert_true(d_min <= k.radius + 1e-4);
            assert_true(fabs(hypot(toi.normal.x, toi.normal.y) - 1.0) < 1e-5);
            const double on =
                dref_dist_point_segment(dvec_of(toi.point), dvec_of(k.a), dvec_of(k.b));
            assert_true(fabs(on - k.radius) < 1e-4);
            if (toi.t > 0.0f) assert_true(fabs(toi.t - t_ref) * hypot(d.x, d.y) < 1e-3);
        } else if (near && start > k.radius + 1e-4) {
            assert_true(d_min > k.radius - 1e-4);
        }
    }
    assert_true(hits > 20000);
}

/* ---- batch and scene against the scalar loop ------------------------------------------- */

/* Rays from a test scene's circles (origins) and moves (translations); capsules from its
 * capsules; target circles from a second scene's circles. */
typedef struct ray_case {
    const scene *rays;    /* x, y, mx, my */
    const scene *targets; /* its circles, or NULL */
    bool with_capsules;
} ray_case;

static c2d_ray_soa rays_of(const scene *s) {
    return (c2d_ray_soa){s->x, s->y, s->mx, s->my, s->n, NULL, NULL};
}

static void ref_ray_cast(const ray_case *c, c2d_ray_hit *out) {
    ref_ray_hits(c->rays, c->with_capsules, c->targets, out);
}

/* The batch call on every backend, and the scene call (a scene of the capsules), against the
 * scalar loop; outputs sit between a canary entry and a guard page. */
static void check_rays(const ray_case *c, const char *label) {
    const scene *s = c->rays;
    c2d_ray_hit *want = xmalloc((s->n + 1) * sizeof *want);
    ref_ray_cast(c, want);
    const c2d_ray_soa rays = rays_of(s);
    const c2d_capsule_soa *caps = c->with_capsules ? &s->capsules : NULL;
    const c2d_circle_soa *circles = c->targets ? &c->targets->circles : NULL;
    c2d_scene *sc = NULL;
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    assert_int_equal(c2d_scene_create(caps ? caps : &none, NULL, &sc), C2D_OK);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    bool all_same = true;
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        void *base;
        size_t base_bytes;
        const size_t bytes = (s->n + 1) * sizeof(c2d_ray_hit);
        c2d_ray_hit *buf = guarded_alloc(bytes, &base, &base_bytes);
        memset(buf, CANARY_BYTE, bytes);
        assert_int_equal(c2d_batch_ray_cast(&rays, caps, circles, buf + 1), C2D_OK);
        assert_true(bytes_are(buf, sizeof *buf, CANARY_BYTE));
        all_same &= compare_ray_hits(c->rays, want, buf + 1, label, c2d_backend_name(list[b]));
        memset(buf, CANARY_BYTE, bytes);
        assert_int_equal(c2d_scene_ray_cast(sc, &rays, circles, buf + 1), C2D_OK);
        assert_true(bytes_are(buf, sizeof *buf, CANARY_BYTE));
        all_same &= compare_ray_hits(c->rays, want, buf + 1, label, "scene");
        guarded_free(base, base_bytes);
    }
    c2d_scene_destroy(sc);
    free(want);
    assert_true(all_same);
}

static void check_all_kinds(const scene *s, const scene *targets, const char *label) {
    const ray_case both = {s, targets, true}, caps = {s, NULL, true}, circles = {s, targets, false};
    check_rays(&both, label);
    check_rays(&caps, label);
    check_rays(&circles, label);
}

static const random_spec board = {40.0f, 0.1f, 1.0f, 30.0f, 0.0f, 6.0f, 0.0f, 1.0f};

static void rays_random(void **state) {
    (void)state;
    c2d_rng rng = {0x7a75};
    scene s, t;
    scene_init(&s, 1500, 90, LAYOUT_OFFSET);
    fill_random(&s, &rng, &board);
    scene_init(&t, 150, 0, LAYOUT_ALIGNED);
    fill_random(&t, &rng, &board);
    c2d_ray_hit *want = xmalloc(s.n * sizeof *want);
    const ray_case c = {&s, &t, true};
    ref_ray_cast(&c, want);
    size_t caps = 0, circles = 0, zero = 0;
    for (size_t i = 0; i < s.n; i++) {
        caps += want[i].kind == C2D_SHAPE_CAPSULE;
        circles += want[i].kind == C2D_SHAPE_CIRCLE;
        zero += want[i].kind != C2D_SHAPE_NONE && want[i].toi.t == 0.0f;
    }
    free(want);
    assert_true(caps > s.n / 5 && circles > s.n / 20 && zero > 10); /* a mix of outcomes */
    check_all_kinds(&s, &t, "random board");
    scene_free(&s);
    scene_free(&t);
}

/* Rays at the decision boundaries (grazing, along an axis, ending at the touch), near-touch
 * origins (inside, on the surface), zero-length rays and special values. */
static void rays_adversarial(void **state) {
    (void)state;
    static const float offsets[] = {0.0f, 1e5f, -1e9f};
    for (size_t o = 0; o < 3; o++) {
        c2d_rng rng = {0xad0 + o};
        scene s, t;
        grazing_scene(&s, 700, 12, LAYOUT_ALIGNED, &rng, offsets[o], -offsets[o], 1.0f);
        /* the targets: circles at the capsules' ends and at the rays' origins */
        scene_init(&t, 2 * s.m + 40, 0, LAYOUT_OFFSET);
        for (size_t k = 0; k < s.m; k++) {
            t.x[2 * k] = s.ax[k], t.y[2 * k] = s.ay[k], t.r[2 * k] = s.R[k];
            t.x[2 * k + 1] = s.bx[k], t.y[2 * k + 1] = s.by[k], t.r[2 * k + 1] = s.R[k];
        }
        for (size_t k = 2 * s.m; k < t.n; k++) {
            const size_t i = c2d_rng_next(&rng) % s.n;
            t.x[k] = s.x[i], t.y[k] = s.y[i], t.r[k] = c2d_rng_range(&rng, 0.0f, 1.0f);
        }
        /* rays along each capsule's axis and zero-length rays */
        for (size_t i = 0; i < 60; i++) {
            const size_t k = i % s.m;
            s.x[i] = s.ax[k] - (s.bx[k] - s.ax[k]), s.y[i] = s.ay[k] - (s.by[k] - s.ay[k]);
            s.mx[i] = 3.0f * (s.bx[k] - s.ax[k]), s.my[i] = 3.0f * (s.by[k] - s.ay[k]);
            if (i % 5 == 0) s.mx[i] = s.my[i] = 0.0f;
        }
        char label[64];
        snprintf(label, sizeof label, "grazing rays at offset %g", (double)offsets[o]);
        check_all_kinds(&s, &t, label);
        scene_free(&s);

        scene_init(&s, 500, 20, LAYOUT_GUARDED);
        fill_near_touch(&s, &rng, offsets[o], offsets[o], 2.0f);
        snprintf(label, sizeof label, "near-touch origins at offset %g", (double)offsets[o]);
        check_all_kinds(&s, &t, label);
        sprinkle_special(&s, &rng, 6, true, true, true);
        sprinkle_special(&t, &rng, 6, true, false, false);
        snprintf(label, sizeof label, "special values at offset %g", (double)offsets[o]);
        check_all_kinds(&s, &t, label);
        scene_free(&s);
        scene_free(&t);
    }
}

/* Short rays along the axes that end exactly on a target circle (t = 1, the touch at the
 * extreme of the circle's box) or a few ulps short of it: the boxes that cull circles must
 * keep them all. */
static void rays_touching_circles(void **state) {
    (void)state;
    c2d_rng rng = {0x70c4};
    scene s, t;
    scene_init(&s, 800, 0, LAYOUT_ALIGNED);
    scene_init(&t, 25, 0, LAYOUT_OFFSET); /* apart, near the origin: little slack */
    for (size_t k = 0; k < t.n; k++) {
        t.x[k] = 8.0f * (float)(k % 5) - 16.0f;
        t.y[k] = 8.0f * (float)(k / 5) - 16.0f;
        t.r[k] = (float)(4 + (int)c2d_rng_range(&rng, 0.0f, 8.0f)) * 0.25f;
    }
    for (size_t i = 0; i < s.n; i++) {
        const size_t k = c2d_rng_next(&rng) % t.n;
        const float len = 0x1p-10f * (float)(1 + i % 7);
        const int side = (int)(i % 4), ulps = (int)(i / 4 % 5) - 2;
        const float sx = side == 0 ? 1.0f : side == 1 ? -1.0f : 0.0f;
        const float sy = side == 2 ? 1.0f : side == 3 ? -1.0f : 0.0f;
        s.x[i] = ulp_step(t.x[k] + sx * (t.r[k] + len), sx != 0.0f ? ulps : 0);
        s.y[i] = ulp_step(t.y[k] + sy * (t.r[k] + len), sy != 0.0f ? ulps : 0);
        s.mx[i] = -sx * len, s.my[i] = -sy * len;
    }
    const ray_case c = {&s, &t, false};
    c2d_ray_hit *want = xmalloc(s.n * sizeof *want);
    ref_ray_cast(&c, want);
    size_t at_end = 0;
    for (size_t i = 0; i < s.n; i++)
        at_end += want[i].kind == C2D_SHAPE_CIRCLE && want[i].toi.t == 1.0f;
    free(want);
    assert_true(at_end > s.n / 10);
    check_rays(&c, "rays ending on circles");
    scene_free(&s);
    scene_free(&t);
}

/* Every ray count from 0 to 2 x the widest vector + 5, around the pass chunk too. */
static void rays_tails(void **state) {
    (void)state;
    c2d_rng rng = {0x7a11};
    scene t;
    scene_init(&t, 20, 0, LAYOUT_ALIGNED);
    fill_random(&t, &rng, &board);
    static const size_t big[] = {511, 512, 513, 1030};
    for (size_t n = 0; n < 37 + 4; n++) {
        const size_t count = n < 37 ? n : big[n - 37];
        scene s;
        scene_init(&s, count, 7, LAYOUT_GUARDED);
        fill_random(&s, &rng, &board);
        char label[48];
        snprintf(label, sizeof label, "%zu rays", count);
        check_all_kinds(&s, &t, label);
        scene_free(&s);
    }
    scene_free(&t);
}

/* The W5 board: balls' positions as origins, aimed anywhere, short and across the board
 * (the scene walks long rays through its index piece by piece), and rays along pins' axes
 * and grazing pins' ends, against the pins. */
static void rays_w5(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w5(&w, 2048, 512, C2D_W5_UNIFORM, C2D_WORKLOAD_SEED), 0);
    scene s;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    c2d_rng rng = {0x55};
    for (size_t i = 0; i < s.n; i++) {
        const c2d_vec2 d = c2d_rng_direction(&rng);
        const float len = c2d_rng_range(&rng, 0.0f, i % 2 ? 60.0f : 150.0f);
        s.mx[i] = d.x * len, s.my[i] = d.y * len;
        const size_t k = c2d_rng_next(&rng) % s.m;
        const float ax = s.ax[k], ay = s.ay[k], bx = s.bx[k], by = s.by[k];
        const float ux = bx - ax, uy = by - ay;
        const float l = sqrtf(ux * ux + uy * uy);
        if (i % 5 == 1 && l > 0.0f) { /* along the axis, from far away */
            s.x[i] = ax - ux * 20.0f, s.y[i] = ay - uy * 20.0f;
            s.mx[i] = ux * 40.0f, s.my[i] = uy * 40.0f;
        } else if (i % 5 == 3 && l > 0.0f) { /* grazing end b, a few ulps either way */
            const float nx = -uy / l, ny = ux / l;
            const int ulps = (int)(i / 5 % 5) - 2;
            s.x[i] = ulp_step(bx + nx * s.R[k] - ux * 30.0f, ulps);
            s.y[i] = ulp_step(by + ny * s.R[k] - uy * 30.0f, ulps);
            s.mx[i] = ux * 60.0f, s.my[i] = uy * 60.0f;
        }
    }
    const ray_case c = {&s, NULL, true};
    c2d_ray_hit *want = xmalloc(s.n * sizeof *want);
    ref_ray_cast(&c, want);
    size_t far = 0;
    for (size_t i = 0; i < s.n; i++)
        far += want[i].kind != C2D_SHAPE_NONE && want[i].toi.t * fabsf(s.mx[i]) > 10.0f;
    free(want);
    assert_true(far > 100); /* hits many cells away from the origin */
    check_rays(&c, "W5 pins");
    scene_free(&s);
    c2d_workload_free(&w);
}

/* ---- golden -------------------------------------------------------------------------------- */

/* W3 (W1's 4,096 circles with their moves, 256 capsules, C2D_WORKLOAD_SEED) as rays from the
 * centres along the moves, against the capsules and the first 300 circles: FNV-1a-64 of all
 * 4,096 c2d_ray_hit entries, one value on every backend, on x86 and AArch64 alike (the batch
 * call, the scene call and the scalar loop): 434 capsule hits, 205 circle hits. Re-measure with the
 * scalar loop if the arithmetic changes on purpose. */
#define GOLDEN_RAYS_HASH UINT64_C(0xcb52ce5ec2d345ea)

static void rays_golden(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_make(&w, 4096, 256, C2D_WORKLOAD_SEED), 0);
    scene s, t;
    scene_from_workload(&s, &w, LAYOUT_ALIGNED);
    scene_init(&t, 300, 0, LAYOUT_ALIGNED);
    memcpy(t.x, s.x, t.n * sizeof(float));
    memcpy(t.y, s.y, t.n * sizeof(float));
    memcpy(t.r, s.r, t.n * sizeof(float));
    const ray_case c = {&s, &t, true};
    c2d_ray_hit *want = xmalloc(s.n * sizeof *want);
    ref_ray_cast(&c, want);
    const uint64_t hash = c2d_fnv1a(C2D_FNV_OFFSET, want, s.n * sizeof *want);
    size_t caps = 0, circles = 0;
    for (size_t i = 0; i < s.n; i++)
        caps += want[i].kind == C2D_SHAPE_CAPSULE, circles += want[i].kind == C2D_SHAPE_CIRCLE;
    printf("# rays golden: 0x%016llx, %zu capsule hits, %zu circle hits\n",
           (unsigned long long)hash, caps, circles);
    assert_true(hash == GOLDEN_RAYS_HASH);
    free(want);
    check_rays(&c, "golden W3 rays");
    scene_free(&s);
    scene_free(&t);
    c2d_workload_free(&w);
}

/* ---- statuses ----------------------------------------------------------------------------- */

static void ray_statuses(void **state) {
    (void)state;
    const float x[1] = {-1.0f}, zero[1] = {0.0f}, two[1] = {2.0f}, lo[1] = {-1.0f};
    const float one[1] = {1.0f}, half[1] = {0.5f}, five[1] = {5.0f};
    c2d_ray_hit out[1];
    const c2d_ray_soa rays = {x, zero, two, zero, 1, NULL, NULL};
    const c2d_capsule_soa caps = {zero, lo, zero, one, half, 1, NULL, NULL, NULL};
    const c2d_circle_soa circles = {five, five, one, 1, NULL, NULL};
    assert_int_equal(c2d_batch_ray_cast(NULL, &caps, &circles, out), C2D_ERROR_NULL);
    assert_int_equal(c2d_batch_ray_cast(&rays, &caps, &circles, NULL), C2D_ERROR_NULL);
    c2d_ray_soa bad = rays;
    bad.dy = NULL;
    assert_int_equal(c2d_batch_ray_cast(&bad, &caps, &circles, out), C2D_ERROR_NULL);
    c2d_capsule_soa bad_caps = caps;
    bad_caps.radius = NULL;
    assert_int_equal(c2d_batch_ray_cast(&rays, &bad_caps, NULL, out), C2D_ERROR_NULL);
    c2d_circle_soa bad_circles = circles;
    bad_circles.x = NULL;
    assert_int_equal(c2d_batch_ray_cast(&rays, NULL, &bad_circles, out), C2D_ERROR_NULL);
    /* no rays: NULL arrays and output are fine */
    const c2d_ray_soa empty = {NULL, NULL, NULL, NULL, 0, NULL, NULL};
    assert_int_equal(c2d_batch_ray_cast(&empty, &caps, &circles, NULL), C2D_OK);
    /* no shapes at all: every ray misses */
    out[0].shape = 7;
    assert_int_equal(c2d_batch_ray_cast(&rays, NULL, NULL, out), C2D_OK);
    assert_true(out[0].shape == C2D_NONE && out[0].kind == C2D_SHAPE_NONE && out[0].toi.t == 0.0f);
    if (SIZE_MAX > UINT32_MAX) {
        c2d_ray_soa huge = rays;
        huge.count = (size_t)UINT32_MAX + 1;
        assert_int_equal(c2d_batch_ray_cast(&huge, NULL, NULL, out), C2D_ERROR_TOO_LARGE);
        c2d_circle_soa many = circles;
        many.count = (size_t)UINT32_MAX + 1;
        assert_int_equal(c2d_batch_ray_cast(&rays, NULL, &many, out), C2D_ERROR_TOO_LARGE);
        c2d_capsule_soa lots = caps;
        lots.count = (size_t)UINT32_MAX + 1;
        assert_int_equal(c2d_batch_ray_cast(&rays, &lots, NULL, out), C2D_ERROR_TOO_LARGE);
        /* NULL wins over too large */
        assert_int_equal(c2d_batch_ray_cast(&huge, &bad_caps, NULL, out), C2D_ERROR_NULL);
    }
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&caps, NULL, &sc), C2D_OK);
    assert_int_equal(c2d_scene_ray_cast(NULL, &rays, NULL, out), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_ray_cast(sc, NULL, NULL, out), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_ray_cast(sc, &rays, &bad_circles, out), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_ray_cast(sc, &rays, NULL, NULL), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_ray_cast(sc, &rays, NULL, out), C2D_OK);
    assert_true(out[0].kind == C2D_SHAPE_CAPSULE && out[0].shape == 0);
    c2d_scene_destroy(sc);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(worked_capsule),   cmocka_unit_test(worked_circle),
        cmocka_unit_test(ray_properties),   cmocka_unit_test(rays_random),
        cmocka_unit_test(rays_adversarial), cmocka_unit_test(rays_tails),
        cmocka_unit_test(rays_w5),          cmocka_unit_test(rays_touching_circles),
        cmocka_unit_test(ray_statuses),     cmocka_unit_test(rays_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
