/* Bad input: the contract of collide2d/query.h for NaN, +-Inf, negative radii, zero-length
 * shapes and huge values (1e19, 1e30, FLT_MAX), in every scalar function and every batch call,
 * on every available backend.
 *
 * Scalar functions: from a few base scenes (overlapping, touching, separated with a sweep hit,
 * centre on the axis, zero-length axis), every input field and every pair of fields is set to
 * every special value; each result must hold the contract: no crash, NaN position or radius and
 * negative radii give no hit, `out` untouched without a hit, normals never NaN (unit for finite
 * input), 0 <= depth <= r+R, t in [0, 1], the same answer when asked twice, and the boolean
 * tests agree with the contact queries.
 *
 * Batch calls: circle and capsule sets made of the same substitutions, on every backend
 * (c2d_backend_select), equal byte for byte (NaN as "both NaN") to a loop over the scalar
 * functions, with counts, capacities and statuses as documented.
 *
 * Known bug 1 (README.md in this directory) needs tiny inputs that none of these scenes
 * contain; known_bugs.c reproduces it. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collide2d.h"
#include "hard_util.h"

/* ---- values and base scenes -------------------------------------------------------------- */

static const float specials[] = {
    NAN,       -NAN,   INFINITY,          -INFINITY,      1e19f,   -1e19f,
    1e30f,     -1e30f, FLT_MAX,           -FLT_MAX,       0.0f,    -0.0f,
    0x1p-149f, -1.0f,  C2D_MAX_MAGNITUDE, 0x1.000002p60f, 0x1p40f, -0x1p-149f,
};
enum { N_SPECIALS = sizeof specials / sizeof specials[0] };

/* The fields a base scene gives: circle (cx, cy, r) moving by (mx, my); capsule (ax, ay)-(bx, by)
 * of radius R (also the second circle (ax, ay), R, moving by (nx, ny)). */
enum { CX, CY, CR, MX, MY, AX, AY, BX, BY, KR, NX, NY, N_FIELDS };

static const float bases[][N_FIELDS] = {
    /* overlapping */
    {0.5f, 0.3f, 0.4f, 1.0f, -0.5f, 0.0f, 0.0f, 2.0f, 0.0f, 0.25f, -0.25f, 0.5f},
    /* touching exactly: distance 0.5 = 0.25 + 0.25 */
    {1.0f, 0.5f, 0.25f, 0.0f, -1.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.25f, 0.0f, 0.0f},
    /* separated; the sweep hits the side (and the second circle) */
    {1.0f, 3.0f, 0.5f, 0.0f, -4.0f, 1.0f, 0.0f, 3.0f, 0.0f, 0.5f, 0.0f, 0.0f},
    /* centre on the axis: the degenerate normal */
    {1.0f, 0.0f, 0.5f, 3.0f, 3.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.25f, 1.0f, 1.0f},
    /* zero-length axis at the circle's centre */
    {0.0f, 0.0f, 1.0f, 0.5f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.5f, 0.0f, 0.0f},
    /* far from the origin, near the validator's limit */
    {1e18f, -1e18f, 1e17f, -1e17f, 1e17f, 1e18f, -1e18f, 1.1e18f, -1e18f, 1e17f, 0.0f, 0.0f},
};
enum { N_BASES = sizeof bases / sizeof bases[0] };

/* ---- scalar queries as functions of a field vector --------------------------------------- */

typedef enum role { POS, RAD, MOVE } role;
typedef enum kind { BOOL, CONTACT, TOI, POINT } kind;

typedef union result {
    c2d_contact contact;
    c2d_toi toi;
    c2d_vec2 point;
} result;

typedef struct query {
    const char *name;
    kind kind;
    size_t n;
    int fields[10]; /* which base fields, in argument order */
    role roles[10];
    bool (*call)(const float *v, result *out);
    int partner; /* index of the contact query a boolean test must agree with, or -1 */
} query;

static bool q_closest(const float *v, result *out) {
    const c2d_segment s = {{v[2], v[3]}, {v[4], v[5]}};
    out->point = c2d_closest_point_on_segment((c2d_vec2){v[0], v[1]}, s);
    return true;
}
static bool q_overlap_circles(const float *v, result *out) {
    (void)out;
    return c2d_overlap_circles((c2d_circle){{v[0], v[1]}, v[2]}, (c2d_circle){{v[3], v[4]}, v[5]});
}
static bool q_overlap_segment(const float *v, result *out) {
    (void)out;
    const c2d_segment s = {{v[3], v[4]}, {v[5], v[6]}};
    return c2d_overlap_circle_segment((c2d_circle){{v[0], v[1]}, v[2]}, s);
}
static bool q_overlap_capsule(const float *v, result *out) {
    (void)out;
    const c2d_capsule k = {{v[3], v[4]}, {v[5], v[6]}, v[7]};
    return c2d_overlap_circle_capsule((c2d_circle){{v[0], v[1]}, v[2]}, k);
}
static bool q_point_in_capsule(const float *v, result *out) {
    (void)out;
    const c2d_capsule k = {{v[2], v[3]}, {v[4], v[5]}, v[6]};
    const bool in = c2d_point_in_capsule((c2d_vec2){v[0], v[1]}, k);
    if (in != c2d_overlap_circle_capsule((c2d_circle){{v[0], v[1]}, 0.0f}, k))
        fail_msg("%s", "point_in_capsule differs from the circle of radius 0");
    return in;
}
static bool q_collide_circles(const float *v, result *out) {
    return c2d_collide_circles((c2d_circle){{v[0], v[1]}, v[2]}, (c2d_circle){{v[3], v[4]}, v[5]},
                               &out->contact);
}
static bool q_collide_segment(const float *v, result *out) {
    const c2d_segment s = {{v[3], v[4]}, {v[5], v[6]}};
    return c2d_collide_circle_segment((c2d_circle){{v[0], v[1]}, v[2]}, s, &out->contact);
}
static bool q_collide_capsule(const float *v, result *out) {
    const c2d_capsule k = {{v[3], v[4]}, {v[5], v[6]}, v[7]};
    return c2d_collide_circle_capsule((c2d_circle){{v[0], v[1]}, v[2]}, k, &out->contact);
}
static bool q_sweep_circles(const float *v, result *out) {
    return c2d_sweep_circles((c2d_circle){{v[0], v[1]}, v[2]}, (c2d_vec2){v[3], v[4]},
                             (c2d_circle){{v[5], v[6]}, v[7]}, (c2d_vec2){v[8], v[9]}, &out->toi);
}
static bool q_sweep_capsule(const float *v, result *out) {
    const c2d_capsule k = {{v[5], v[6]}, {v[7], v[8]}, v[9]};
    return c2d_sweep_circle_capsule((c2d_circle){{v[0], v[1]}, v[2]}, (c2d_vec2){v[3], v[4]}, k,
                                    &out->toi);
}

enum { Q_COLLIDE_CIRCLES = 5, Q_COLLIDE_SEGMENT = 6, Q_COLLIDE_CAPSULE = 7, Q_SWEEP_CAPSULE = 9 };

static const query queries[] = {
    {"closest_point_on_segment",
     POINT,
     6,
     {CX, CY, AX, AY, BX, BY},
     {POS, POS, POS, POS, POS, POS},
     q_closest,
     -1},
    {"overlap_circles",
     BOOL,
     6,
     {CX, CY, CR, AX, AY, KR},
     {POS, POS, RAD, POS, POS, RAD},
     q_overlap_circles,
     Q_COLLIDE_CIRCLES},
    {"overlap_circle_segment",
     BOOL,
     7,
     {CX, CY, CR, AX, AY, BX, BY},
     {POS, POS, RAD, POS, POS, POS, POS},
     q_overlap_segment,
     Q_COLLIDE_SEGMENT},
    {"overlap_circle_capsule",
     BOOL,
     8,
     {CX, CY, CR, AX, AY, BX, BY, KR},
     {POS, POS, RAD, POS, POS, POS, POS, RAD},
     q_overlap_capsule,
     Q_COLLIDE_CAPSULE},
    {"point_in_capsule",
     BOOL,
     7,
     {CX, CY, AX, AY, BX, BY, KR},
     {POS, POS, POS, POS, POS, POS, RAD},
     q_point_in_capsule,
     -1},
    {"collide_circles",
     CONTACT,
     6,
     {CX, CY, CR, AX, AY, KR},
     {POS, POS, RAD, POS, POS, RAD},
     q_collide_circles,
     -1},
    {"collide_circle_segment",
     CONTACT,
     7,
     {CX, CY, CR, AX, AY, BX, BY},
     {POS, POS, RAD, POS, POS, POS, POS},
     q_collide_segment,
     -1},
    {"collide_circle_capsule",
     CONTACT,
     8,
     {CX, CY, CR, AX, AY, BX, BY, KR},
     {POS, POS, RAD, POS, POS, POS, POS, RAD},
     q_collide_capsule,
     -1},
    {"sweep_circles",
     TOI,
     10,
     {CX, CY, CR, MX, MY, AX, AY, KR, NX, NY},
     {POS, POS, RAD, MOVE, MOVE, POS, POS, RAD, MOVE, MOVE},
     q_sweep_circles,
     -1},
    {"sweep_circle_capsule",
     TOI,
     10,
     {CX, CY, CR, MX, MY, AX, AY, BX, BY, KR},
     {POS, POS, RAD, MOVE, MOVE, POS, POS, POS, POS, RAD},
     q_sweep_capsule,
     -1},
};
enum { N_QUERIES = sizeof queries / sizeof queries[0] };

static bool unit(c2d_vec2 n) {
    const double len = sqrt((double)n.x * n.x + (double)n.y * n.y);
    return fabs(len - 1.0) < 1e-5;
}

static void print_fields(const query *q, const float *v) {
    print_message("%s(", q->name);
    for (size_t i = 0; i < q->n; i++)
        print_message("%s%a", i ? ", " : "", (double)v[i]);
    print_message(")\n");
}

#define CHECK(cond, what)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            print_fields(q, v);                                                                    \
            fail_msg("%s: %s", q->name, what);                                                     \
        }                                                                                          \
    } while (0)

/* Runs query q on fields v and checks its result against the contract. */
static void check_query(const query *q, const float *v) {
    bool nan_pos = false, nan_move = false, negative = false, finite = true;
    float radius_sum = 0.0f;
    for (size_t i = 0; i < q->n; i++) {
        const bool nan = hard_is_nan(v[i]);
        if (q->roles[i] == MOVE)
            nan_move |= nan;
        else
            nan_pos |= nan;
        if (q->roles[i] == RAD) {
            negative |= v[i] < 0.0f;
            radius_sum += v[i];
        }
        finite &= hard_finite(v[i]);
    }

    result out, again;
    memset(&out, HARD_CANARY, sizeof out);
    memset(&again, HARD_CANARY, sizeof again);
    const bool hit = q->call(v, &out);
    CHECK(q->call(v, &again) == hit && memcmp(&out, &again, sizeof out) == 0, "not repeatable");

    switch (q->kind) {
    case POINT: {
        const c2d_vec2 a = {v[2], v[3]}, b = {v[4], v[5]}, p = out.point;
        const bool segment_finite = hard_finite(a.x) && hard_finite(a.y) && hard_finite(b.x) &&
                                    hard_finite(b.y) && hard_finite(b.x - a.x) &&
                                    hard_finite(b.y - a.y);
        if (segment_finite && (hard_is_nan(v[0]) || hard_is_nan(v[1])))
            CHECK((p.x == a.x && p.y == a.y) || (p.x == b.x && p.y == b.y),
                  "NaN point did not give an endpoint");
        if (segment_finite && a.x == b.x && a.y == b.y)
            CHECK(p.x == a.x && p.y == a.y, "zero-length segment did not give a");
        if (segment_finite && !hard_is_nan(v[0]) && !hard_is_nan(v[1]))
            CHECK(!hard_is_nan(p.x) && !hard_is_nan(p.y), "NaN closest point");
        return;
    }
    case BOOL:
        if (nan_pos) CHECK(!hit, "NaN gave a hit");
        if (negative) CHECK(!hit, "negative radius gave a hit");
        if (q->partner >= 0) {
            result c;
            CHECK(queries[q->partner].call(v, &c) == hit, "boolean test and contact disagree");
        }
        return;
    case CONTACT:
        if (!hit) {
            CHECK(hard_untouched(&out, sizeof out), "out written without a hit");
            return;
        }
        CHECK(!nan_pos, "NaN gave a hit");
        CHECK(!negative, "negative radius gave a hit");
        CHECK(!hard_is_nan(out.contact.normal.x) && !hard_is_nan(out.contact.normal.y),
              "NaN normal");
        CHECK(out.contact.depth >= 0.0f, "depth negative or NaN");
        CHECK(out.contact.depth <= radius_sum, "depth above the radius sum");
        if (finite) CHECK(unit(out.contact.normal), "normal not unit for finite input");
        CHECK(hard_untouched((const unsigned char *)&out + sizeof out.contact,
                             sizeof out - sizeof out.contact),
              "wrote past the contact");
        return;
    case TOI:
        if (!hit) {
            CHECK(hard_untouched(&out, sizeof out), "out written without a hit");
            return;
        }
        CHECK(!nan_pos, "NaN position or radius gave a hit");
        CHECK(!nan_move, "NaN move gave a hit");
        CHECK(!negative, "negative radius gave a hit");
        CHECK(out.toi.t >= 0.0f && out.toi.t <= 1.0f, "t outside [0, 1]");
        CHECK(!hard_is_nan(out.toi.normal.x) && !hard_is_nan(out.toi.normal.y), "NaN normal");
        if (finite) CHECK(unit(out.toi.normal), "normal not unit for finite input");
        return;
    }
}

/* Every base scene, with each field and each pair of fields set to every special value. */
static void test_scalar_substitutions(void **state) {
    (void)state;
    for (size_t qi = 0; qi < N_QUERIES; qi++) {
        const query *q = &queries[qi];
        for (size_t b = 0; b < N_BASES; b++) {
            float v[10];
            for (size_t i = 0; i < q->n; i++)
                v[i] = bases[b][q->fields[i]];
            check_query(q, v);
            for (size_t f = 0; f < q->n; f++)
                for (size_t s = 0; s < N_SPECIALS; s++) {
                    float w[10];
                    memcpy(w, v, sizeof w);
                    w[f] = specials[s];
                    check_query(q, w);
                    for (size_t g = f + 1; g < q->n; g++)
                        for (size_t t = 0; t < N_SPECIALS; t++) {
                            w[g] = specials[t];
                            check_query(q, w);
                            w[g] = v[g];
                        }
                }
            /* every field the same special value */
            for (size_t s = 0; s < N_SPECIALS; s++) {
                float w[10];
                for (size_t i = 0; i < q->n; i++)
                    w[i] = specials[s];
                check_query(q, w);
            }
        }
    }
}

/* Zero-length shapes behave as points and circles at a, byte for byte. */
static void test_zero_length_shapes(void **state) {
    (void)state;
    static const float coords[] = {0.0f, 1.0f, -2.5f, 1e-20f, 3e5f, 1e18f};
    static const float radii[] = {0.0f, 0.25f, 1.0f, 1e6f};
    enum { NC = sizeof coords / sizeof coords[0], NR = sizeof radii / sizeof radii[0] };
    for (size_t i = 0; i < NC * NC; i++)
        for (size_t j = 0; j < NC * NC; j++)
            for (size_t r = 0; r < NR; r++)
                for (size_t R = 0; R < NR; R++) {
                    const c2d_circle c = {{coords[i % NC], coords[i / NC]}, radii[r]};
                    const c2d_vec2 a = {coords[j % NC], coords[j / NC]};
                    const c2d_capsule k = {a, a, radii[R]};
                    const c2d_circle other = {a, radii[R]};
                    const c2d_segment s = {a, a};

                    /* the closest point of a zero-length segment is a */
                    const c2d_vec2 q = c2d_closest_point_on_segment(c.center, s);
                    assert_true(q.x == a.x && q.y == a.y);

                    /* capsule of zero length = circle at a */
                    c2d_contact ck, cc;
                    memset(&ck, HARD_CANARY, sizeof ck);
                    memset(&cc, HARD_CANARY, sizeof cc);
                    const bool hk = c2d_collide_circle_capsule(c, k, &ck);
                    const bool hc = c2d_collide_circles(c, other, &cc);
                    assert_int_equal(hk, hc);
                    assert_true(!hk || hard_same_contact(&ck, &cc));
                    assert_int_equal(c2d_overlap_circle_capsule(c, k), hk);

                    /* segment of zero length = capsule of radius 0 */
                    const c2d_capsule thin = {a, a, 0.0f};
                    c2d_contact cs, ct;
                    const bool hs = c2d_collide_circle_segment(c, s, &cs);
                    assert_int_equal(hs, c2d_collide_circle_capsule(c, thin, &ct));
                    assert_true(!hs || hard_same_contact(&cs, &ct));
                    assert_int_equal(c2d_point_in_capsule(c.center, k),
                                     c2d_overlap_circles((c2d_circle){c.center, 0.0f}, other));

                    /* both centres equal: the normal is (0, 1) */
                    if (hk && c.center.x == a.x && c.center.y == a.y) {
                        assert_true(ck.normal.x == 0.0f && ck.normal.y == 1.0f);
                        assert_true(ck.depth == radii[r] + radii[R]);
                    }

                    /* sweeps: the zero-length capsule = the static circle at a; no move = a
                     * hit only on an overlap at the start, at t = 0 */
                    const c2d_vec2 moves[] = {{0.0f, 0.0f}, {1.5f, -0.5f}, {-3e5f, 2e5f}};
                    for (size_t m = 0; m < 3; m++) {
                        c2d_toi tk, tc;
                        memset(&tk, HARD_CANARY, sizeof tk);
                        memset(&tc, HARD_CANARY, sizeof tc);
                        const bool sk = c2d_sweep_circle_capsule(c, moves[m], k, &tk);
                        const bool sc =
                            c2d_sweep_circles(c, moves[m], other, (c2d_vec2){0.0f, 0.0f}, &tc);
                        assert_int_equal(sk, sc);
                        if (sk) {
                            assert_true(hard_same(tk.t, tc.t));
                            assert_true(hard_same_vec(tk.normal, tc.normal));
                            assert_true(tk.point.x == tc.point.x && tk.point.y == tc.point.y);
                        }
                        if (m == 0 && sk) assert_true(tk.t == 0.0f);
                    }
                }
}

/* The degenerate normals of query.h, exactly. */
static void test_degenerate_normals(void **state) {
    (void)state;
    c2d_contact c;
    /* centre on the axis: left perpendicular of b - a */
    assert_true(c2d_collide_circle_capsule((c2d_circle){{1.0f, 0.0f}, 0.5f},
                                           (c2d_capsule){{0.0f, 0.0f}, {2.0f, 0.0f}, 0.25f}, &c));
    assert_true(c.normal.x == 0.0f && c.normal.y == 1.0f && c.depth == 0.75f);
    assert_true(c2d_collide_circle_capsule((c2d_circle){{0.0f, -1.0f}, 0.5f},
                                           (c2d_capsule){{0.0f, 1.0f}, {0.0f, -3.0f}, 0.0f}, &c));
    assert_true(c.normal.x == 1.0f && c.normal.y == 0.0f); /* -(b-a).y > 0 */
    /* coincident circle centres and a zero-length capsule at the centre: (0, 1) */
    assert_true(c2d_collide_circles((c2d_circle){{3.0f, 4.0f}, 1.0f},
                                    (c2d_circle){{3.0f, 4.0f}, 2.0f}, &c));
    assert_true(c.normal.x == 0.0f && c.normal.y == 1.0f && c.depth == 3.0f);
    assert_true(c2d_collide_circle_capsule((c2d_circle){{-1.0f, 0.0f}, 0.0f},
                                           (c2d_capsule){{-1.0f, 0.0f}, {-1.0f, 0.0f}, 0.0f}, &c));
    assert_true(c.normal.x == 0.0f && c.normal.y == 1.0f && c.depth == 0.0f);
    /* -0 radius is 0: touching points */
    assert_true(
        c2d_overlap_circles((c2d_circle){{0.0f, 0.0f}, -0.0f}, (c2d_circle){{0.0f, 0.0f}, -0.0f}));
    assert_false(c2d_overlap_circles((c2d_circle){{0.0f, 0.0f}, -0x1p-149f},
                                     (c2d_circle){{0.0f, 0.0f}, 1.0f}));
}

/* Huge but finite input: a defined answer, normals never NaN, depth never negative. */
static void test_huge_values(void **state) {
    (void)state;
    static const float huge[] = {1e19f, -1e19f, 1e30f, -1e30f, FLT_MAX, -FLT_MAX, 0x1p64f};
    enum { N = sizeof huge / sizeof huge[0] };
    const query *q = &queries[Q_COLLIDE_CAPSULE];
    for (size_t i = 0; i < N; i++)
        for (size_t j = 0; j < N; j++) {
            /* a circle as large as the distance to a capsule far away, and the reverse */
            const float v1[] = {huge[i], huge[j], FLT_MAX, 0.0f, 0.0f, 1.0f, 0.0f, 1.0f};
            const float v2[] = {0.0f, 0.0f, 1.0f, huge[i], huge[j], -huge[i], huge[j], FLT_MAX};
            const float v3[] = {huge[i], huge[j], 1.0f, huge[i], huge[j], huge[j], huge[i], 1.0f};
            check_query(q, v1);
            check_query(q, v2);
            check_query(q, v3);
            check_query(&queries[Q_COLLIDE_CIRCLES], v1);
            check_query(&queries[Q_COLLIDE_SEGMENT], v3);
            const float s1[] = {huge[i], huge[j], 1.0f, -huge[i], -huge[j],
                                0.0f,    0.0f,    0.0f, 1.0f,     1.0f};
            const float s2[] = {0.0f,    0.0f, 1.0f,    huge[i], huge[j],
                                huge[i], 0.0f, huge[j], 0.0f,    1.0f};
            check_query(&queries[Q_SWEEP_CAPSULE], s1);
            check_query(&queries[Q_SWEEP_CAPSULE], s2);
            check_query(&queries[8], s1);
            check_query(&queries[8], s2);
        }
}

/* One impulse on fields v (velocity a, inv_mass a, restitution a, the same for b, normal):
 * NaN anywhere, a negative or infinite inverse mass change nothing and return 0; the impulse
 * is never NaN or negative; a 0 impulse changes nothing; no NaN velocity comes out of input
 * without NaN. */
static void check_impulse(const float *v) {
    c2d_body ba = {{v[0], v[1]}, v[2], v[3]}, bb = {{v[4], v[5]}, v[6], v[7]};
    const c2d_body ba0 = ba, bb0 = bb;
    const float j = c2d_apply_impulse(&ba, &bb, (c2d_vec2){v[8], v[9]});
    bool any_nan = false;
    for (size_t i = 0; i < 10; i++)
        any_nan |= hard_is_nan(v[i]);
    const bool bad_mass = !(v[2] >= 0.0f && hard_finite(v[2]) && v[6] >= 0.0f && hard_finite(v[6]));
    if (any_nan || bad_mass) assert_true(j == 0.0f);
    assert_false(hard_is_nan(j));
    assert_true(j >= 0.0f);
    if (j == 0.0f) {
        assert_memory_equal(&ba, &ba0, sizeof ba);
        assert_memory_equal(&bb, &bb0, sizeof bb);
    }
    if (!any_nan)
        assert_false(hard_is_nan(ba.velocity.x) || hard_is_nan(ba.velocity.y) ||
                     hard_is_nan(bb.velocity.x) || hard_is_nan(bb.velocity.y));
}

/* The impulse: NULL bodies, NaN anywhere, separating bodies and two static bodies change
 * nothing and return 0. */
static void test_impulse_bad_input(void **state) {
    (void)state;
    const c2d_body base_a = {{-1.0f, 0.5f}, 1.0f, 0.5f}, base_b = {{1.0f, 0.0f}, 0.5f, 0.8f};
    const c2d_vec2 n = {1.0f, 0.0f};
    c2d_body a = base_a, b = base_b;
    assert_true(c2d_apply_impulse(NULL, &b, n) == 0.0f);
    assert_true(c2d_apply_impulse(&a, NULL, n) == 0.0f);
    assert_memory_equal(&b, &base_b, sizeof b);
    assert_memory_equal(&a, &base_a, sizeof a);
    /* a normal case first: approaching bodies get a positive impulse */
    assert_true(c2d_apply_impulse(&a, &b, n) > 0.0f);

    /* each field, and each pair of fields, set to each special value */
    for (size_t f = 0; f < 10; f++)
        for (size_t g = f; g < 10; g++)
            for (size_t s = 0; s < N_SPECIALS; s++)
                for (size_t t = 0; t < (g == f ? 1 : N_SPECIALS); t++) {
                    float v[10] = {base_a.velocity.x,
                                   base_a.velocity.y,
                                   base_a.inv_mass,
                                   base_a.restitution,
                                   base_b.velocity.x,
                                   base_b.velocity.y,
                                   base_b.inv_mass,
                                   base_b.restitution,
                                   n.x,
                                   n.y};
                    v[f] = specials[s];
                    if (g != f) v[g] = specials[t];
                    check_impulse(v);
                }
    /* both static */
    c2d_body sa = {{-1.0f, 0.0f}, 0.0f, 1.0f}, sb = {{1.0f, 0.0f}, 0.0f, 1.0f};
    assert_true(c2d_apply_impulse(&sa, &sb, n) == 0.0f);
    assert_true(sa.velocity.x == -1.0f && sb.velocity.x == 1.0f);
    /* separating */
    c2d_body pa = {{1.0f, 0.0f}, 1.0f, 1.0f}, pb = {{-1.0f, 0.0f}, 1.0f, 1.0f};
    assert_true(c2d_apply_impulse(&pa, &pb, n) == 0.0f);
    assert_true(pa.velocity.x == 1.0f && pb.velocity.x == -1.0f);
}

/* ---- batch calls on every backend -------------------------------------------------------- */

typedef struct soa_set {
    size_t nc, nk;
    float *x, *y, *r, *mx, *my;
    float *ax, *ay, *bx, *by, *R;
} soa_set;

static float *floats(size_t n) {
    float *p = malloc((n ? n : 1) * sizeof *p);
    assert_non_null(p);
    return p;
}

static void set_alloc(soa_set *s, size_t nc, size_t nk) {
    s->nc = nc, s->nk = nk;
    s->x = floats(nc), s->y = floats(nc), s->r = floats(nc), s->mx = floats(nc), s->my = floats(nc);
    s->ax = floats(nk), s->ay = floats(nk), s->bx = floats(nk), s->by = floats(nk),
    s->R = floats(nk);
}

static void set_free(soa_set *s) {
    float *all[] = {s->x, s->y, s->r, s->mx, s->my, s->ax, s->ay, s->bx, s->by, s->R};
    for (size_t i = 0; i < 10; i++)
        free(all[i]);
}

static void put_circle(soa_set *s, size_t i, const float *f) {
    s->x[i] = f[CX], s->y[i] = f[CY], s->r[i] = f[CR], s->mx[i] = f[MX], s->my[i] = f[MY];
}

static void put_capsule(soa_set *s, size_t k, const float *f) {
    s->ax[k] = f[AX], s->ay[k] = f[AY], s->bx[k] = f[BX], s->by[k] = f[BY], s->R[k] = f[KR];
}

/* Which specials to use: all, or only those that keep the circle census tame (cull.h: NaN,
 * negative and small values), so that the kernels' culled path runs too. */
static bool tame_special(float v) {
    return v != v || (v > -2.0f && v < 2.0f);
}

/* The circles of every base with each circle field set to each special (optionally only tame
 * ones), and the bases' own circles. */
static size_t bad_circles(soa_set *s, bool tame_only, size_t first) {
    size_t i = first;
    for (size_t b = 0; b < N_BASES; b++) {
        put_circle(s, i++, bases[b]);
        const int fields[] = {CX, CY, CR, MX, MY};
        for (size_t f = 0; f < 5; f++)
            for (size_t v = 0; v < N_SPECIALS; v++) {
                if (tame_only && !tame_special(specials[v])) continue;
                if (tame_only && b == N_BASES - 1) continue; /* the far base is not tame */
                float c[N_FIELDS];
                memcpy(c, bases[b], sizeof c);
                c[fields[f]] = specials[v];
                put_circle(s, i++, c);
            }
    }
    return i;
}

static size_t bad_capsules(soa_set *s, size_t first, size_t n_bases) {
    size_t k = first;
    for (size_t b = 0; b < n_bases; b++) {
        put_capsule(s, k++, bases[b]);
        const int fields[] = {AX, AY, BX, BY, KR};
        for (size_t f = 0; f < 5; f++)
            for (size_t v = 0; v < N_SPECIALS; v++) {
                float c[N_FIELDS];
                memcpy(c, bases[b], sizeof c);
                c[fields[f]] = specials[v];
                put_capsule(s, k++, c);
            }
    }
    return k;
}

enum { BAD_PER_BASE = 1 + 5 * N_SPECIALS, N_BAD = N_BASES * BAD_PER_BASE, N_GOOD = 21 };

/* Good shapes near the bases (all tame), from a fixed sequence. */
static void good_circles(soa_set *s, size_t first, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const float t = (float)i / (float)n;
        const float c[N_FIELDS] = {
            3.0f * t - 0.5f, 1.0f - 2.0f * t, 0.1f + t, 2.0f - 4.0f * t, t, 0, 0, 0, 0, 0, 0, 0};
        put_circle(s, first + i, c);
    }
}

static void good_capsules(soa_set *s, size_t first, size_t n) {
    for (size_t k = 0; k < n; k++) {
        const float t = (float)k / (float)n;
        const float c[N_FIELDS] = {
            0, 0, 0, 0, 0, 2.0f * t - 1.0f, t, 1.5f - t, 2.0f * t, 0.05f + 0.5f * t, 0, 0};
        put_capsule(s, first + k, c);
    }
}

/* The scalar loops the batch calls must reproduce, and the contract on their results. */
static size_t reference_collide(const soa_set *s, c2d_pair_contact *out) {
    size_t n = 0;
    for (size_t k = 0; k < s->nk; k++)
        for (size_t i = 0; i < s->nc; i++) {
            c2d_contact c;
            if (c2d_collide_circle_capsule(
                    (c2d_circle){{s->x[i], s->y[i]}, s->r[i]},
                    (c2d_capsule){{s->ax[k], s->ay[k]}, {s->bx[k], s->by[k]}, s->R[k]}, &c)) {
                assert_false(hard_is_nan(c.normal.x) || hard_is_nan(c.normal.y));
                assert_true(c.depth >= 0.0f);
                out[n].circle = (uint32_t)i;
                out[n].capsule = (uint32_t)k;
                out[n++].contact = c;
            }
        }
    return n;
}

static void reference_sweep(const soa_set *s, c2d_circle_toi *out) {
    for (size_t i = 0; i < s->nc; i++) {
        out[i].capsule = C2D_NONE;
        memset(&out[i].toi, 0, sizeof out[i].toi);
        for (size_t k = 0; k < s->nk; k++) {
            c2d_toi t;
            if (c2d_sweep_circle_capsule(
                    (c2d_circle){{s->x[i], s->y[i]}, s->r[i]}, (c2d_vec2){s->mx[i], s->my[i]},
                    (c2d_capsule){{s->ax[k], s->ay[k]}, {s->bx[k], s->by[k]}, s->R[k]}, &t) &&
                (out[i].capsule == C2D_NONE || t.t < out[i].toi.t)) {
                assert_true(t.t >= 0.0f && t.t <= 1.0f);
                assert_false(hard_is_nan(t.normal.x) || hard_is_nan(t.normal.y));
                out[i].capsule = (uint32_t)k;
                out[i].toi = t;
            }
        }
    }
}

/* Runs the three batch calls on every backend and compares with the scalar loops. */
static void check_batch_set(const soa_set *s, const char *label) {
    const c2d_circle_soa cs = {s->x, s->y, s->r, s->nc, NULL, NULL};
    const c2d_capsule_soa ks = {s->ax, s->ay, s->bx, s->by, s->R, s->nk, NULL, NULL, NULL};
    const size_t all = s->nc * s->nk;
    c2d_pair_contact *want = malloc((all + 1) * sizeof *want);
    c2d_pair_contact *got = malloc((all + 4) * sizeof *got);
    uint32_t *ci = malloc((all + 1) * sizeof *ci), *ki = malloc((all + 1) * sizeof *ki);
    assert_true(want && got && ci && ki);
    const size_t total = reference_collide(s, want);

    /* the pairs: every pair, in reverse order */
    size_t np = 0;
    for (size_t k = s->nk; k-- > 0;)
        for (size_t i = s->nc; i-- > 0;)
            ci[np] = (uint32_t)i, ki[np++] = (uint32_t)k;
    c2d_pair_contact *want_pairs = malloc((all + 1) * sizeof *want_pairs);
    size_t *where = calloc(all + 1, sizeof *where); /* contact index + 1 of pair k*nc + i */
    assert_true(want_pairs && where);
    for (size_t n = 0; n < total; n++)
        where[(size_t)want[n].capsule * s->nc + want[n].circle] = n + 1;
    size_t total_pairs = 0;
    for (size_t p = 0; p < np; p++) {
        const size_t w = where[(size_t)ki[p] * s->nc + ci[p]];
        if (w) want_pairs[total_pairs++] = want[w - 1];
    }
    free(where);

    /* the sweep */
    const size_t swc = s->nc;
    c2d_circle_toi *want_toi = malloc((swc + 1) * sizeof *want_toi);
    c2d_circle_toi *got_toi = malloc((swc + 2) * sizeof *got_toi);
    assert_true(want_toi && got_toi);
    reference_sweep(s, want_toi);

    c2d_backend backends[C2D_BACKEND_COUNT];
    const size_t nb = hard_backends(backends);
    for (size_t b = 0; b < nb; b++) {
        assert_int_equal(c2d_backend_select(backends[b]), C2D_OK);
        const char *name = c2d_backend_name(backends[b]);
        /* full capacity, then a capacity that truncates */
        const size_t caps[] = {total + 1, total / 2};
        for (size_t c = 0; c < 2; c++) {
            memset(got, HARD_CANARY, (all + 4) * sizeof *got);
            size_t count = 0;
            const c2d_status st = c2d_batch_collide(&cs, &ks, got, caps[c], &count);
            if (count != total || st != (total > caps[c] ? C2D_ERROR_TRUNCATED : C2D_OK))
                fail_msg("%s, %s: batch_collide status %d count %zu, want %zu", label, name,
                         (int)st, count, total);
            const size_t written = total < caps[c] ? total : caps[c];
            for (size_t n = 0; n < written; n++)
                if (!hard_same_pair(&got[n], &want[n]))
                    fail_msg("%s, %s: batch_collide contact %zu (circle %u, capsule %u) differs",
                             label, name, n, (unsigned)want[n].circle, (unsigned)want[n].capsule);
            assert_true(hard_untouched(got + written, (all + 4 - written) * sizeof *got));

            memset(got, HARD_CANARY, (all + 4) * sizeof *got);
            const size_t cap_pairs = c == 0 ? total_pairs : total_pairs / 2;
            const c2d_status sp =
                c2d_batch_collide_pairs(&cs, &ks, ci, ki, np, got, cap_pairs, &count);
            if (count != total_pairs ||
                sp != (total_pairs > cap_pairs ? C2D_ERROR_TRUNCATED : C2D_OK))
                fail_msg("%s, %s: batch_collide_pairs status %d count %zu, want %zu", label, name,
                         (int)sp, count, total_pairs);
            const size_t written_pairs = total_pairs < cap_pairs ? total_pairs : cap_pairs;
            for (size_t n = 0; n < written_pairs; n++)
                if (!hard_same_pair(&got[n], &want_pairs[n]))
                    fail_msg("%s, %s: batch_collide_pairs contact %zu differs", label, name, n);
            assert_true(
                hard_untouched(got + written_pairs, (all + 4 - written_pairs) * sizeof *got));
        }
        memset(got_toi, HARD_CANARY, (swc + 2) * sizeof *got_toi);
        assert_int_equal(c2d_batch_sweep(&cs, s->mx, s->my, &ks, got_toi), C2D_OK);
        for (size_t i = 0; i < swc; i++)
            if (!hard_same_circle_toi(&got_toi[i], &want_toi[i]))
                fail_msg("%s, %s: batch_sweep circle %zu (x=%a y=%a r=%a move=(%a, %a)): capsule "
                         "%u t=%a, want capsule %u t=%a",
                         label, name, i, (double)s->x[i], (double)s->y[i], (double)s->r[i],
                         (double)s->mx[i], (double)s->my[i], (unsigned)got_toi[i].capsule,
                         (double)got_toi[i].toi.t, (unsigned)want_toi[i].capsule,
                         (double)want_toi[i].toi.t);
        assert_true(hard_untouched(got_toi + swc, 2 * sizeof *got_toi));
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    free(want_toi), free(got_toi), free(want), free(got), free(want_pairs), free(ci), free(ki);
}

/* Bad circles (every special, so the kernels take their exact path) against good capsules. */
static void test_batch_bad_circles(void **state) {
    (void)state;
    soa_set s;
    set_alloc(&s, N_BAD + N_GOOD, N_BASES + N_GOOD);
    const size_t nc = bad_circles(&s, false, 0);
    good_circles(&s, nc, N_GOOD);
    s.nc = nc + N_GOOD;
    for (size_t b = 0; b < N_BASES; b++)
        put_capsule(&s, b, bases[b]);
    good_capsules(&s, N_BASES, N_GOOD);
    check_batch_set(&s, "bad circles");
    set_free(&s);
}

/* Circles bad only in ways that keep them tame (NaN, negative or tiny values), so the
 * kernels cull with boxes, against good and bad capsules. */
static void test_batch_tame_bad_circles(void **state) {
    (void)state;
    soa_set s;
    set_alloc(&s, N_BAD + N_GOOD, N_BAD + N_GOOD);
    const size_t nc = bad_circles(&s, true, 0);
    good_circles(&s, nc, N_GOOD);
    s.nc = nc + N_GOOD;
    const size_t nk = bad_capsules(&s, 0, 2);
    good_capsules(&s, nk, N_GOOD);
    s.nk = nk + N_GOOD;
    check_batch_set(&s, "tame bad circles");
    set_free(&s);
}

/* Good circles against bad capsules (NaN: skipped; infinite or huge: exact; tame: boxed). */
static void test_batch_bad_capsules(void **state) {
    (void)state;
    soa_set s;
    set_alloc(&s, N_BASES + N_GOOD, N_BAD + N_GOOD);
    for (size_t b = 0; b < N_BASES - 1; b++) /* the far base would make the census wild */
        put_circle(&s, b, bases[b]);
    good_circles(&s, N_BASES - 1, N_GOOD);
    s.nc = N_BASES - 1 + N_GOOD;
    const size_t nk = bad_capsules(&s, 0, N_BASES);
    good_capsules(&s, nk, N_GOOD);
    s.nk = nk + N_GOOD;
    check_batch_set(&s, "bad capsules");
    set_free(&s);
}

/* Huge scenes: every coordinate about 1e19, 1e30 or FLT_MAX, overlapping. */
static void test_batch_huge(void **state) {
    (void)state;
    static const float scales[] = {1e19f, 1e30f, 0x1.fffffcp127f};
    for (size_t sc = 0; sc < 3; sc++) {
        soa_set s;
        set_alloc(&s, 19, 7);
        const float h = scales[sc];
        for (size_t i = 0; i < 19; i++) {
            const float t = (float)i / 19.0f;
            s.x[i] = h * (t - 0.5f), s.y[i] = h * (0.25f - t * t), s.r[i] = h * t * 0.5f;
            s.mx[i] = -h * t, s.my[i] = h * (0.5f - t);
        }
        for (size_t k = 0; k < 7; k++) {
            const float t = (float)k / 7.0f;
            s.ax[k] = h * (t - 0.5f), s.ay[k] = -h * t * 0.5f;
            s.bx[k] = h * (0.5f - t), s.by[k] = h * t * 0.25f, s.R[k] = h * t * 0.25f;
        }
        check_batch_set(&s, "huge");
        set_free(&s);
    }
}

/* The batch API's bad pointers and counts: C2D_ERROR_NULL, C2D_ERROR_INDEX,
 * C2D_ERROR_TOO_LARGE, writing nothing; counts of 0 with NULL arrays are fine. */
static void test_batch_bad_arguments(void **state) {
    (void)state;
    float one[1] = {1.0f}, zero[1] = {0.0f}, two[1] = {2.0f};
    const c2d_circle_soa cs = {zero, zero, one, 1, NULL, NULL};
    const c2d_capsule_soa ks = {zero, zero, two, zero, one, 1, NULL, NULL, NULL};
    const c2d_circle_soa empty_c = {NULL, NULL, NULL, 0, NULL, NULL};
    const c2d_capsule_soa empty_k = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_backend backends[C2D_BACKEND_COUNT];
    const size_t nb = hard_backends(backends);
    for (size_t b = 0; b < nb; b++) {
        assert_int_equal(c2d_backend_select(backends[b]), C2D_OK);
        c2d_pair_contact out[2];
        c2d_circle_toi toi[2];
        size_t count = 99;
        memset(out, HARD_CANARY, sizeof out);
        memset(toi, HARD_CANARY, sizeof toi);
        /* NULL sets, arrays, count pointer, output with capacity */
        assert_int_equal(c2d_batch_collide(NULL, &ks, out, 2, &count), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide(&cs, NULL, out, 2, &count), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide(&cs, &ks, out, 2, NULL), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide(&cs, &ks, NULL, 2, &count), C2D_ERROR_NULL);
        for (int f = 0; f < 3; f++) {
            c2d_circle_soa c = cs;
            const float **field = f == 0 ? &c.x : f == 1 ? &c.y : &c.radius;
            *field = NULL;
            assert_int_equal(c2d_batch_collide(&c, &ks, out, 2, &count), C2D_ERROR_NULL);
            assert_int_equal(c2d_batch_sweep(&c, one, one, &ks, toi), C2D_ERROR_NULL);
        }
        for (int f = 0; f < 5; f++) {
            c2d_capsule_soa k = ks;
            const float **fields[] = {&k.ax, &k.ay, &k.bx, &k.by, &k.radius};
            *fields[f] = NULL;
            assert_int_equal(c2d_batch_collide(&cs, &k, out, 2, &count), C2D_ERROR_NULL);
            assert_int_equal(c2d_batch_sweep(&cs, one, one, &k, toi), C2D_ERROR_NULL);
        }
        assert_int_equal(c2d_batch_sweep(&cs, NULL, one, &ks, toi), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_sweep(&cs, one, NULL, &ks, toi), C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_sweep(&cs, one, one, &ks, NULL), C2D_ERROR_NULL);
        const uint32_t idx0[1] = {0}, idx1[1] = {1};
        assert_int_equal(c2d_batch_collide_pairs(&cs, &ks, NULL, idx0, 1, out, 2, &count),
                         C2D_ERROR_NULL);
        assert_int_equal(c2d_batch_collide_pairs(&cs, &ks, idx0, NULL, 1, out, 2, &count),
                         C2D_ERROR_NULL);
        assert_true(hard_untouched(out, sizeof out) && hard_untouched(toi, sizeof toi));
        assert_true(count == 0); /* every error sets the count */
        /* out-of-range index: nothing written, count 0 */
        assert_int_equal(c2d_batch_collide_pairs(&cs, &ks, idx1, idx0, 1, out, 2, &count),
                         C2D_ERROR_INDEX);
        assert_true(count == 0 && hard_untouched(out, sizeof out));
        count = 99;
        assert_int_equal(c2d_batch_collide_pairs(&cs, &ks, idx0, idx1, 1, out, 2, &count),
                         C2D_ERROR_INDEX);
        assert_true(count == 0 && hard_untouched(out, sizeof out));
        /* counts of 0: NULL arrays are fine, nothing is written */
        count = 99;
        assert_int_equal(c2d_batch_collide(&empty_c, &ks, NULL, 0, &count), C2D_OK);
        assert_true(count == 0);
        count = 99;
        assert_int_equal(c2d_batch_collide(&cs, &empty_k, NULL, 0, &count), C2D_OK);
        assert_true(count == 0);
        count = 99;
        assert_int_equal(c2d_batch_collide_pairs(&cs, &ks, NULL, NULL, 0, NULL, 0, &count), C2D_OK);
        assert_true(count == 0);
        assert_int_equal(c2d_batch_sweep(&empty_c, NULL, NULL, &ks, NULL), C2D_OK);
        assert_int_equal(c2d_batch_sweep(&cs, one, one, &empty_k, toi), C2D_OK);
        assert_true(toi[0].capsule == C2D_NONE && toi[0].toi.t == 0.0f);
        assert_true(hard_untouched(&toi[1], sizeof toi[1]));
        /* capacity 0 with a hit: truncated, count 1, nothing written */
        memset(out, HARD_CANARY, sizeof out);
        assert_int_equal(c2d_batch_collide(&cs, &ks, out, 0, &count), C2D_ERROR_TRUNCATED);
        assert_true(count == 1 && hard_untouched(out, sizeof out));
        count = 99; /* the size query */
        assert_int_equal(c2d_batch_collide(&cs, &ks, NULL, 0, &count), C2D_OK);
        assert_true(count == 1);
#if SIZE_MAX > UINT32_MAX
        /* counts above UINT32_MAX: refused before anything is read */
        c2d_circle_soa big_c = cs;
        c2d_capsule_soa big_k = ks;
        big_c.count = big_k.count = (size_t)UINT32_MAX + 1;
        count = 99;
        assert_int_equal(c2d_batch_collide(&big_c, &ks, out, 2, &count), C2D_ERROR_TOO_LARGE);
        assert_int_equal(c2d_batch_collide(&cs, &big_k, out, 2, &count), C2D_ERROR_TOO_LARGE);
        assert_int_equal(c2d_batch_sweep(&big_c, one, one, &ks, toi), C2D_ERROR_TOO_LARGE);
        assert_int_equal(
            c2d_batch_collide_pairs(&cs, &ks, idx0, idx0, (size_t)UINT32_MAX + 1, out, 2, &count),
            C2D_ERROR_TOO_LARGE);
        assert_true(count == 0);
#endif
    }
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    /* bad backends: refused, the choice unchanged */
    const c2d_backend before = c2d_backend_active();
    const int bad_backends[] = {-1, C2D_BACKEND_COUNT, 99, INT32_MAX};
    for (size_t i = 0; i < sizeof bad_backends / sizeof bad_backends[0]; i++) {
        assert_int_equal(c2d_backend_select((c2d_backend)bad_backends[i]), C2D_ERROR_UNSUPPORTED);
        assert_false(c2d_backend_available((c2d_backend)bad_backends[i]));
        assert_string_equal(c2d_backend_name((c2d_backend)bad_backends[i]), "unknown");
    }
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++)
        if (!c2d_backend_available((c2d_backend)b))
            assert_int_equal(c2d_backend_select((c2d_backend)b), C2D_ERROR_UNSUPPORTED);
    assert_int_equal(c2d_backend_active(), before);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar_substitutions),
        cmocka_unit_test(test_zero_length_shapes),
        cmocka_unit_test(test_degenerate_normals),
        cmocka_unit_test(test_huge_values),
        cmocka_unit_test(test_impulse_bad_input),
        cmocka_unit_test(test_batch_bad_circles),
        cmocka_unit_test(test_batch_tame_bad_circles),
        cmocka_unit_test(test_batch_bad_capsules),
        cmocka_unit_test(test_batch_huge),
        cmocka_unit_test(test_batch_bad_arguments),
    };
    return cmocka_run_group_tests_name("bad input", tests, NULL, NULL);
}
