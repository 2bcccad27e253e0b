/* Minimal reproductions of the library bugs found by the hardening work (README.md in this
 * directory). Usage: known_bugs N (N = 1..6). Exit status 1 while bug N reproduces, 0 when it
 * does not. All six are fixed (2 and 3 in d6126e0, 1 in 367005b, 4 in 9a33359, 5 and 6 by the
 * sweep rewrite of docs/sweeps.md and the impulse range check): the tests guard the fixes.
 * A new bug found later goes here the same way, registered with should_fail : true until it
 * is fixed. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collide2d.h"
#include "hard_util.h"

static void print_toi(const char *who, bool hit, const c2d_toi *t) {
    if (hit)
        printf("  %-8s hit t=%a normal=(%a, %a)\n", who, (double)t->t, (double)t->normal.x,
               (double)t->normal.y);
    else
        printf("  %-8s no hit\n", who);
}

/* One circle swept against one capsule: the scalar function, then c2d_batch_sweep on every
 * backend. Returns true when some backend differs from the scalar function, or when the scalar
 * function reports a hit although `expect_hit` is false. */
static bool sweep_case(c2d_circle c, c2d_vec2 move, c2d_capsule k, bool expect_hit) {
    c2d_toi want;
    memset(&want, 0, sizeof want);
    const bool hit = c2d_sweep_circle_capsule(c, move, k, &want);
    printf("  circle (%a, %a) r=%a move (%a, %a)\n  capsule (%a, %a)-(%a, %a) R=%a\n",
           (double)c.center.x, (double)c.center.y, (double)c.radius, (double)move.x, (double)move.y,
           (double)k.a.x, (double)k.a.y, (double)k.b.x, (double)k.b.y, (double)k.radius);
    print_toi("scalar", hit, &want);
    bool bad = hit && !expect_hit;
    const c2d_circle_soa cs = {&c.center.x, &c.center.y, &c.radius, 1, NULL, NULL};
    const c2d_capsule_soa ks = {&k.a.x, &k.a.y, &k.b.x, &k.b.y, &k.radius, 1, NULL, NULL, NULL};
    c2d_backend backends[C2D_BACKEND_COUNT];
    const size_t nb = hard_backends(backends);
    for (size_t b = 0; b < nb; b++) {
        c2d_backend_select(backends[b]);
        c2d_circle_toi got;
        c2d_batch_sweep(&cs, &move.x, &move.y, &ks, &got);
        const bool got_hit = got.capsule != C2D_NONE;
        print_toi(c2d_backend_name(backends[b]), got_hit, &got.toi);
        if (got_hit != hit || (hit && !hard_same_toi(&got.toi, &want))) bad = true;
    }
    c2d_backend_select(C2D_BACKEND_AUTO);
    return bad;
}

/* Bug 1 (fixed in 367005b: the end-circle root is computed in double): products of the
 * end-circle sweep formula (now circles_touch_time in src/core/sweep_formula.h)
 * leave float range and the scalar sweep reports a touch the geometry does not have; the SIMD
 * kernels' culling boxes follow the true geometry and drop it, so the backends differ.
 * - underflow (tiny inputs): (v.v)(r+R)^2 and (v x s)^2 (before d6126e0: b^2 and (v.v)c) both
 *   become 0, the discriminant 0 passes, and t is the time of closest approach whatever the
 *   miss distance: here the path stays 2^-42 from a point capsule of radius 0 (or 2^-44).
 * - overflow (large, valid input, since d6126e0's discriminant (v.v)(r+R)^2 - (v x s)^2):
 *   (v.v)(r+R)^2 = 2^132 is +inf, t = c / inf = 0, a "hit" at the start although the circle
 *   (radius 2^36) ends 2^39 - 2^30 - 2^36 away from the point capsule. Every value is below
 *   2^40 (the kernels' tame limit) and C2D_MAX_MAGNITUDE: c2d_validate_* accept it, and
 *   validate.h promises that valid input keeps every squared distance finite. */
static bool bug1(void) {
    puts("bug 1 (fixed): sweep products out of float range: spurious scalar hit, SIMD culls it");
    const c2d_capsule point = {{0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f};
    bool bad = sweep_case((c2d_circle){{-0x1p-41f, 0x1p-42f}, 0.0f}, (c2d_vec2){0x1p-40f, 0.0f},
                          point, false);
    bad |= sweep_case((c2d_circle){{-0x1p-41f, 0x1p-42f}, 0x1p-44f}, (c2d_vec2){0x1p-40f, 0.0f},
                      point, false);
    const c2d_capsule far = {{0.0f, 0x1p39f}, {0.0f, 0x1p39f}, 0.0f};
    bad |= sweep_case((c2d_circle){{0.0f, 0.0f}, 0x1p36f}, (c2d_vec2){0.0f, 0x1p30f}, far, false);
    return bad;
}

/* Bug 2 (fixed in d6126e0): c2d_sweep_circle_capsule ignored a NaN endpoint coordinate and
 * reported a hit on the other end circle (contract: NaN gives no hit); the SIMD kernels' boxes
 * are NaN and dropped it, so backends differed too. */
static bool bug2(void) {
    puts("bug 2 (fixed): NaN capsule endpoint: scalar sweep hit, SIMD backends none");
    return sweep_case((c2d_circle){{3.0f, 0.0f}, 0.5f}, (c2d_vec2){-4.0f, 0.0f},
                      (c2d_capsule){{NAN, 0.0f}, {0.0f, 0.0f}, 0.5f}, false);
}

/* Bug 3 (fixed in d6126e0 by "NaN move gives no hit"): a circle with a NaN move that
 * overlapped the capsule at the start: the scalar sweep reported t = 0; the 4-lane kernels
 * (SSE2/SSE4.1, NEON) culled the lane, because their "NaN or not tame" test, lane_not_le =
 * simde_mm_cmpnle_ps, is implemented by SIMDe as cmpgt (false on NaN), so a NaN lane's box is
 * NaN instead of infinite. AVX2 and AVX-512 (true _CMP_NLE_UQ) agreed with the scalar function.
 * The SIMDe behaviour remains (harmless now that NaN never hits). */
static bool bug3(void) {
    puts("bug 3 (fixed): NaN move with an overlap at the start: scalar t = 0, SSE2/NEON no hit");
    return sweep_case((c2d_circle){{0.0f, 0.0f}, 1.0f}, (c2d_vec2){NAN, 0.0f},
                      (c2d_capsule){{0.0f, 0.0f}, {1.0f, 0.0f}, 1.0f}, false);
}

/* Bug 4 (fixed in 9a33359): c2d_apply_impulse: huge finite velocities overflow j to inf, and j *
 * inv_mass * n then writes NaN into both bodies' velocities, including a static body's (inv_mass 0:
 * inf * 0 = NaN) and the component along which the normal is 0. (The infinite-inverse-mass
 * half, j = 0 with NaN velocities, was fixed in d6126e0 and is checked here too.) */
static bool bug4(void) {
    puts("bug 4 (fixed): c2d_apply_impulse writes NaN velocities when j overflows");
    bool bad = false;
    c2d_body a = {{-1.0f, 0.5f}, INFINITY, 0.5f}, b = {{1.0f, 0.0f}, 0.5f, 0.8f};
    float j = c2d_apply_impulse(&a, &b, (c2d_vec2){1.0f, 0.0f});
    printf("  inv_mass inf: j=%a a.velocity=(%a, %a)\n", (double)j, (double)a.velocity.x,
           (double)a.velocity.y);
    bad |= hard_is_nan(a.velocity.x) || hard_is_nan(a.velocity.y);
    c2d_body c = {{-FLT_MAX, 0.0f}, 1.0f, 1.0f}, s = {{0.0f, 0.0f}, 0.0f, 1.0f};
    j = c2d_apply_impulse(&c, &s, (c2d_vec2){1.0f, 0.0f});
    printf("  velocity (-FLT_MAX, 0) vs static: j=%a a.velocity=(%a, %a) "
           "static.velocity=(%a, %a)\n",
           (double)j, (double)c.velocity.x, (double)c.velocity.y, (double)s.velocity.x,
           (double)s.velocity.y);
    bad |= hard_is_nan(s.velocity.x) || hard_is_nan(s.velocity.y) || hard_is_nan(c.velocity.y);
    c2d_body d = {{-3e38f, 0.0f}, 0.5f, 1.0f}, e = {{3e38f, 0.0f}, 0.5f, 1.0f};
    j = c2d_apply_impulse(&d, &e, (c2d_vec2){1.0f, 0.0f});
    printf("  velocities -3e38 vs 3e38: j=%a a.velocity=(%a, %a) b.velocity=(%a, %a)\n", (double)j,
           (double)d.velocity.x, (double)d.velocity.y, (double)e.velocity.x, (double)e.velocity.y);
    bad |= hard_is_nan(d.velocity.x) || hard_is_nan(d.velocity.y) || hard_is_nan(e.velocity.y);
    return bad;
}

/* One sweep that must hit (bug 5): the scalar function must report a hit no later than
 * `latest`, and every backend the same bytes. */
static bool sweep_must_hit(c2d_circle c, c2d_vec2 move, c2d_capsule k, float latest) {
    c2d_toi t;
    const bool hit = c2d_sweep_circle_capsule(c, move, k, &t);
    bool bad = !hit || !(t.t <= latest);
    bad |= sweep_case(c, move, k, true);
    return bad;
}

/* Bug 5 (fixed: the side test decides the axis span from the same double quantities as the
 * end-circle tests, docs/sweeps.md): c2d_sweep_circle_capsule tunnelled through thin capsules
 * when the ball entered next to an end at a shallow angle: the float side test put the
 * crossing just past the end, the end-circle test correctly found the path missing the end
 * circle, and neither fired. The three cases; the bounds are the long-double entry
 * times (0.2728, about 0.2, 0.152) plus a little. */
static bool bug5(void) {
    puts("bug 5 (fixed): shallow entries next to an end tunnel through thin capsules");
    bool bad = sweep_must_hit((c2d_circle){{0x1.e5fep-1f, 0x1.6d5ap-1f}, 0x1p-11f},
                              (c2d_vec2){-0x1.193236p-1f, -0x1.a77f96p-2f},
                              (c2d_capsule){{0.0f, 0.0f}, {0.8f, 0.6f}, 0x1p-11f}, 0.2729f);
    bad |= sweep_must_hit((c2d_circle){{0x1.d72e0cp+0f, 0x1.17f5c2p-2f}, 0x1.743404p-11f},
                          (c2d_vec2){-0x1.8d9696p-1f, 0x1.4abd0cp-3f},
                          (c2d_capsule){{0x1.6b6f62p-1f, 0x1.03fd7ap-1f},
                                        {0x1.b06f16p+0f, 0x1.39029p-2f},
                                        0x1.31ab2ep-14f},
                          0.2f);
    bad |= sweep_must_hit((c2d_circle){{-0x1.6994e4p+0f, -0x1.57acbp-4f}, 0x1.c79886p-20f},
                          (c2d_vec2){0x1.5d4638p+1f, 0x1.506342p-3f},
                          (c2d_capsule){{0x1.ff0c9ep-1f, 0x1.f2fe62p-5f},
                                        {-0x1.ff0c9ep-1f, -0x1.f2fe6p-5f},
                                        0x1.fc78cep-10f},
                          0.153f);
    return bad;
}

/* Bug 6 (fixed: the new velocities are checked too): c2d_apply_impulse with a finite impulse
 * that pushes a velocity past float range wrote +inf. */
static bool bug6(void) {
    puts("bug 6 (fixed): c2d_apply_impulse writes an infinite velocity");
    c2d_body a = {{0x1.2cp+127f, 0.0f}, 1.0f, 1.0f}, b = {{0x1.c2p+127f, 0.0f}, 0.0f, 1.0f};
    const float j = c2d_apply_impulse(&a, &b, (c2d_vec2){1.0f, 0.0f});
    printf("  j=%a a.velocity=(%a, %a)\n", (double)j, (double)a.velocity.x, (double)a.velocity.y);
    return !(fabsf(a.velocity.x) <= FLT_MAX && fabsf(b.velocity.x) <= FLT_MAX);
}

int main(int argc, char **argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 0;
    bool (*const bugs[])(void) = {bug1, bug2, bug3, bug4, bug5, bug6};
    if (n < 1 || n > 6) {
        fprintf(stderr, "usage: known_bugs N (1..6)\n");
        return 2;
    }
    const bool present = bugs[n - 1]();
    puts(present ? "=> reproduces (bug open)" : "=> does not reproduce (fixed?)");
    return present ? 1 : 0;
}
