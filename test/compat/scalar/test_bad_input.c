/* Bad input (include/collide2d/query.h, "Bad input"): NaN gives no hit in every query, a
 * negative radius gives no hit, -0 is a radius of 0, infinite and huge values give a defined
 * and repeatable answer whose normal is never NaN and whose depth is never negative or NaN,
 * and `out` is written only on a hit. Nothing crashes (run under ASan/valgrind by CI). */
#include <float.h>

#include "scalar_test.h"
#include "workload.h"

/* Every query's inputs as one array of floats, so a field can be replaced by a bad value. */
enum {
    CX,
    CY,
    CR, /* the circle (the first shape) */
    KAX,
    KAY,
    KBX,
    KBY, /* the capsule's axis; a is also the second circle's centre */
    KR,  /* the capsule's radius; also the second circle's radius */
    MX,
    MY, /* the circle's move */
    MBX,
    MBY, /* the second circle's move (c2d_sweep_circles) */
    NFIELDS
};

static const char *const field_names[NFIELDS] = {"cx", "cy", "r",  "ax", "ay",  "bx",
                                                 "by", "R",  "mx", "my", "mbx", "mby"};

typedef enum query {
    Q_OVERLAP_CAPSULE,
    Q_OVERLAP_SEGMENT,
    Q_POINT_IN_CAPSULE,
    Q_OVERLAP_CIRCLES,
    Q_COLLIDE_CAPSULE,
    Q_COLLIDE_SEGMENT,
    Q_COLLIDE_CIRCLES,
    Q_SWEEP_CIRCLES,
    Q_SWEEP_CAPSULE,
    NQUERIES
} query;

static const char *const query_names[NQUERIES] = {
    "overlap_circle_capsule", "overlap_circle_segment", "point_in_capsule",
    "overlap_circles",        "collide_circle_capsule", "collide_circle_segment",
    "collide_circles",        "sweep_circles",          "sweep_circle_capsule"};

/* Which fields each query reads, and which of them are radii. */
static bool uses(query q, int field) {
    switch (q) {
    case Q_OVERLAP_CAPSULE:
    case Q_COLLIDE_CAPSULE:
        return field <= KR;
    case Q_OVERLAP_SEGMENT:
    case Q_COLLIDE_SEGMENT:
        return field <= KBY;
    case Q_POINT_IN_CAPSULE:
        return field != CR && field <= KR;
    case Q_OVERLAP_CIRCLES:
    case Q_COLLIDE_CIRCLES:
        return field <= KAY || field == KR;
    case Q_SWEEP_CIRCLES:
        return field <= KAY || field >= KR;
    case Q_SWEEP_CAPSULE:
        return field <= MY;
    default:
        return false;
    }
}
static bool is_radius(int field) {
    return field == CR || field == KR;
}
static bool is_move(int field) {
    return field >= MX;
}

/* One call: the hit flag and the raw output (contact or toi), written over a sentinel. */
typedef struct answer {
    bool hit;
    union {
        c2d_contact contact;
        c2d_toi toi;
    } out;
} answer;

static answer ask(query q, const float *f) {
    const c2d_circle c = {{f[CX], f[CY]}, f[CR]};
    const c2d_capsule k = {{f[KAX], f[KAY]}, {f[KBX], f[KBY]}, f[KR]};
    const c2d_segment s = {k.a, k.b};
    const c2d_circle b = {k.a, f[KR]};
    const c2d_vec2 m = {f[MX], f[MY]}, mb = {f[MBX], f[MBY]};
    answer a;
    memset(&a, C2D_SENTINEL_BYTE, sizeof a);
    switch (q) {
    case Q_OVERLAP_CAPSULE:
        a.hit = c2d_overlap_circle_capsule(c, k);
        break;
    case Q_OVERLAP_SEGMENT:
        a.hit = c2d_overlap_circle_segment(c, s);
        break;
    case Q_POINT_IN_CAPSULE:
        a.hit = c2d_point_in_capsule(c.center, k);
        break;
    case Q_OVERLAP_CIRCLES:
        a.hit = c2d_overlap_circles(c, b);
        break;
    case Q_COLLIDE_CAPSULE:
        a.hit = c2d_collide_circle_capsule(c, k, &a.out.contact);
        break;
    case Q_COLLIDE_SEGMENT:
        a.hit = c2d_collide_circle_segment(c, s, &a.out.contact);
        break;
    case Q_COLLIDE_CIRCLES:
        a.hit = c2d_collide_circles(c, b, &a.out.contact);
        break;
    case Q_SWEEP_CIRCLES:
        a.hit = c2d_sweep_circles(c, m, b, mb, &a.out.toi);
        break;
    case Q_SWEEP_CAPSULE:
        a.hit = c2d_sweep_circle_capsule(c, m, k, &a.out.toi);
        break;
    default:
        break;
    }
    return a;
}

static bool is_sweep(query q) {
    return q == Q_SWEEP_CIRCLES || q == Q_SWEEP_CAPSULE;
}
static bool is_contact(query q) {
    return q >= Q_COLLIDE_CAPSULE && q <= Q_COLLIDE_CIRCLES;
}

static bool untouched(const answer *a) {
    unsigned char pattern[sizeof a->out];
    memset(pattern, C2D_SENTINEL_BYTE, sizeof pattern);
    return memcmp(&a->out, pattern, sizeof pattern) == 0;
}

static void print_fields(const float *f) {
    for (int i = 0; i < NFIELDS; i++)
        print_error("%s%s=%a", i ? " " : "    ", field_names[i], (double)f[i]);
    print_error("\n");
}

/* Checks one answer against the bad-input rules for the fields query q reads: NULL when it
 * obeys them, else what it broke. */
static const char *breach(query q, const float *f, const answer *a) {
    bool nan_place = false, nan_move = false, negative = false;
    for (int i = 0; i < NFIELDS; i++) {
        if (!uses(q, i)) continue;
        if (f[i] != f[i]) *(is_move(i) ? &nan_move : &nan_place) = true;
        if (is_radius(i) && f[i] < 0.0f) negative = true;
    }
    const char *why = NULL;
    if (a->hit) {
        if (nan_place)
            why = "a NaN coordinate or radius gave a hit";
        else if (negative)
            why = "a negative radius gave a hit";
        else if (nan_move && !(a->out.toi.t == 0.0f))
            /* A NaN move with the shapes overlapping at the start is reported at t = 0 by the
             * library (its start test does not read the move); anything later is a breach. */
            why = "a NaN move gave a hit after t = 0";
        else if (is_contact(q) && (a->out.contact.normal.x != a->out.contact.normal.x ||
                                   a->out.contact.normal.y != a->out.contact.normal.y))
            why = "contact normal is NaN";
        else if (is_contact(q) && !(a->out.contact.depth >= 0.0f))
            why = "contact depth is negative or NaN";
        else if (is_sweep(q) && !(a->out.toi.t >= 0.0f && a->out.toi.t <= 1.0f))
            why = "toi t outside [0, 1] or NaN";
        else if (is_sweep(q) && (a->out.toi.normal.x != a->out.toi.normal.x ||
                                 a->out.toi.normal.y != a->out.toi.normal.y))
            why = "toi normal is NaN";
    } else if ((is_contact(q) || is_sweep(q)) && !untouched(a)) {
        why = "out written on a miss";
    }
    return why;
}

/* As breach(), printing the query and its inputs on a breach; true when obeyed. */
static bool obeys_rules(query q, const float *f, const answer *a) {
    const char *why = breach(q, f, a);
    if (!why) return true;
    print_error("%s: %s\n", query_names[q], why);
    print_fields(f);
    return false;
}

static bool quietly_obeys_rules(query q, const float *f, const answer *a) {
    return breach(q, f, a) == NULL;
}

/* ---- systematic: each field of a hitting configuration made NaN -------------------------- */

/* Configurations where every query hits with valid input: the sweeps as given, the static
 * queries with both circles moved to the end of their moves (see at_end). */
static const float hitting[][NFIELDS] = {
    /* onto the capsule's side from above; the second circle (at a) comes to meet it */
    {4, 3, 1, 0, 0, 10, 0, 1, 0, -2.5f, 3.5f, 0},
    /* into the cap at a along the axis; the second circle waits at a */
    {-4, 0, 1, 0, 0, 10, 0, 1, 3, 0, 0, 0},
    /* into the cap at b diagonally; the second circle (at a) comes to meet it */
    {14, 3, 1.5f, 0, 0, 10, 0, 1, -3.5f, -2.5f, 10, 2.5f},
    /* overlapping at the start, moving deeper, and still overlapping at the end */
    {5, 0.25f, 0.5f, 4.5f, 0, 10, 0, 1, 0.5f, -0.25f, 0.5f, 0},
};
#define N_HITTING (sizeof hitting / sizeof hitting[0])

/* The inputs of configuration `base` for query q: static queries see the end of the moves. */
static void at_end(query q, size_t base, float *f) {
    memcpy(f, hitting[base], NFIELDS * sizeof f[0]);
    if (!is_sweep(q)) {
        f[CX] += f[MX];
        f[CY] += f[MY];
        f[KAX] += f[MBX];
        f[KAY] += f[MBY];
    }
}

static void nan_in_any_field_gives_no_hit(void **state) {
    (void)state;
    const float nans[2] = {NAN, -NAN};
    int breaches = 0, checked = 0;
    for (size_t base = 0; base < N_HITTING; base++) {
        for (int q = 0; q < NQUERIES; q++) {
            float f[NFIELDS];
            at_end((query)q, base, f);
            if (!ask((query)q, f).hit) {
                print_error("test set-up: configuration %zu does not hit %s\n", base,
                            query_names[q]);
                print_fields(f);
                fail();
            }
            for (int field = 0; field < NFIELDS; field++) {
                if (!uses((query)q, field)) continue;
                for (int k = 0; k < 2; k++) {
                    float g[NFIELDS];
                    memcpy(g, f, sizeof g);
                    g[field] = nans[k];
                    const answer a = ask((query)q, g);
                    checked++;
                    if (!obeys_rules((query)q, g, &a)) breaches++;
                }
            }
        }
    }
    if (breaches) {
        print_error("%d of %d NaN substitutions broke the rules\n", breaches, checked);
        fail();
    }
}

static void negative_radius_gives_no_hit(void **state) {
    (void)state;
    const float negatives[4] = {-1.0f, -FLT_MIN, -1e-45f, -INFINITY};
    int breaches = 0;
    for (size_t base = 0; base < N_HITTING; base++) {
        for (int q = 0; q < NQUERIES; q++) {
            for (int field = 0; field < NFIELDS; field++) {
                if (!uses((query)q, field) || !is_radius(field)) continue;
                for (int k = 0; k < 4; k++) {
                    float g[NFIELDS];
                    at_end((query)q, base, g);
                    /* Keep the overlap: a huge other radius, so only the sign stops the hit. */
                    g[field == CR ? KR : CR] = 100.0f;
                    g[field] = negatives[k];
                    const answer a = ask((query)q, g);
                    if (a.hit || !untouched(&a)) {
                        obeys_rules((query)q, g, &a);
                        breaches++;
                    }
                }
            }
        }
    }
    assert_int_equal(breaches, 0);
}

static void negative_zero_radius_is_zero(void **state) {
    (void)state;
    /* -0 is a radius of 0: a point on the segment touches it, and touching counts. */
    c2d_contact c;
    assert_true(c2d_overlap_circle_segment(circle(5, 0, -0.0f), segment(0, 0, 10, 0)));
    assert_true(c2d_overlap_circle_capsule(circle(5, 1, -0.0f), capsule(0, 0, 10, 0, 1)));
    assert_true(c2d_overlap_circle_capsule(circle(5, 1, 1), capsule(0, 2, 10, 2, -0.0f)));
    assert_true(c2d_point_in_capsule(v2(5, 0), capsule(0, 0, 10, 0, -0.0f)));
    assert_true(c2d_overlap_circles(circle(0, 0, -0.0f), circle(0, 0, -0.0f)));
    assert_true(c2d_collide_circle_capsule(circle(5, 1, -0.0f), capsule(0, 0, 10, 0, 1), &c));
    CHECK_VEC_EQ(c.normal, 0.0f, 1.0f);
    assert_true(c.depth >= 0.0f);
    c2d_toi t;
    assert_true(
        c2d_sweep_circles(circle(0, 0, -0.0f), v2(4, 0), circle(2, 0, -0.0f), v2(0, 0), &t));
    CHECK_FEQ(t.t, 0.5f);
    assert_true(
        c2d_sweep_circle_capsule(circle(5, 4, -0.0f), v2(0, -4), capsule(0, 0, 10, 0, 2), &t));
    CHECK_FEQ(t.t, 0.5f);
    /* Just off: a point slightly above a segment of radius -0 is not in it. */
    assert_false(c2d_point_in_capsule(v2(5, 1e-10f), capsule(0, 0, 10, 0, -0.0f)));
}

static void infinite_and_huge_values_are_defined(void **state) {
    (void)state;
    /* Answers need not be meaningful, but they must not be NaN and must repeat. */
    const float bad[] = {INFINITY, -INFINITY, 1e30f, -1e30f, 1e19f, -1e19f, FLT_MAX, -FLT_MAX};
    const size_t nbad = sizeof bad / sizeof bad[0];
    int breaches = 0, hits = 0;
    for (size_t base = 0; base < N_HITTING; base++) {
        for (int q = 0; q < NQUERIES; q++) {
            for (int field = 0; field < NFIELDS; field++) {
                if (!uses((query)q, field)) continue;
                for (size_t k = 0; k < nbad; k++) {
                    float g[NFIELDS];
                    at_end((query)q, base, g);
                    g[field] = bad[k];
                    const answer a = ask((query)q, g), again = ask((query)q, g);
                    hits += a.hit;
                    if (!obeys_rules((query)q, g, &a))
                        breaches++;
                    else if (a.hit != again.hit || memcmp(&a.out, &again.out, sizeof a.out) != 0) {
                        print_error("%s: answer not repeatable\n", query_names[q]);
                        print_fields(g);
                        breaches++;
                    }
                }
            }
        }
    }
    assert_int_equal(breaches, 0);
    assert_true(hits > 0); /* infinite radii do overlap */
    /* Everything huge at once: a circle of radius 1e30 at 1e30 against a capsule spanning it. */
    c2d_contact c;
    if (c2d_collide_circle_capsule(circle(1e30f, 1e30f, 1e30f), capsule(-1e30f, 0, 1e30f, 0, 1e30f),
                                   &c)) {
        assert_true(c.normal.x == c.normal.x && c.normal.y == c.normal.y);
        assert_true(c.depth >= 0.0f);
    }
    if (c2d_collide_circles(circle(INFINITY, 0, 1), circle(INFINITY, 0, 1), &c)) {
        assert_true(c.normal.x == c.normal.x && c.normal.y == c.normal.y);
        assert_true(c.depth >= 0.0f);
    }
    /* Closest point and capsule_from_axis: no crash, and finite input stays finite. */
    const c2d_vec2 p =
        c2d_closest_point_on_segment(v2(1e30f, -1e30f), segment(-1e30f, 0, 1e30f, 0));
    assert_true(p.x == p.x && p.y == p.y);
    (void)c2d_closest_point_on_segment(v2(INFINITY, NAN), segment(-INFINITY, 0, INFINITY, 0));
    (void)c2d_capsule_from_axis(v2(INFINITY, NAN), v2(NAN, 1), INFINITY, -1.0f);
}

/* The minimal case of a NaN endpoint: the ball flies into the cap at b of a capsule whose a
 * is NaN. The capsule is not a valid shape, and a NaN coordinate must give no hit. */
static void sweep_capsule_nan_endpoint_minimal(void **state) {
    (void)state;
    c2d_toi t;
    memset(&t, C2D_SENTINEL_BYTE, sizeof t);
    assert_false(
        c2d_sweep_circle_capsule(circle(10, 0, 1), v2(-10, 0), capsule(NAN, 0, 5, 0, 1), &t));
    assert_false(
        c2d_sweep_circle_capsule(circle(-5, 0, 1), v2(10, 0), capsule(0, 0, 5, NAN, 1), &t));
    /* The boolean and contact queries agree already: no hit where the ball would end. */
    assert_false(c2d_overlap_circle_capsule(circle(0, 0, 1), capsule(NAN, 0, 5, 0, 1)));
    assert_false(c2d_collide_circle_capsule(circle(6, 0, 1), capsule(NAN, 0, 5, 0, 1), NULL));
}

/* ---- random: 100,000 mixes of good and bad values ---------------------------------------- */

static float bad_value(c2d_rng *rng) {
    static const float pool[] = {NAN,   -NAN,   INFINITY, -INFINITY, 1e30f,   -1e30f,
                                 1e19f, -1e19f, FLT_MAX,  -FLT_MAX,  FLT_MIN, 1e-45f,
                                 0.0f,  -0.0f,  -1.0f,    -1e-45f};
    return pool[c2d_rng_next(rng) % (sizeof pool / sizeof pool[0])];
}

static void random_bad_input_never_breaks_the_rules(void **state) {
    (void)state;
    c2d_rng rng = {UINT64_C(0xbadf100d)};
    int breaches = 0, hits = 0, nan_queries = 0, impulse_breaches = 0, pair_breaches = 0;
    int per_query[NQUERIES] = {0};
    for (int i = 0; i < 100000; i++) {
        /* A configuration near a hit: circle close to a short capsule, small moves. */
        float f[NFIELDS];
        f[KAX] = c2d_rng_range(&rng, -10, 10);
        f[KAY] = c2d_rng_range(&rng, -10, 10);
        f[KBX] = f[KAX] + c2d_rng_range(&rng, -3, 3);
        f[KBY] = f[KAY] + c2d_rng_range(&rng, -3, 3);
        f[KR] = c2d_rng_range(&rng, 0, 1);
        f[CR] = c2d_rng_range(&rng, 0, 1);
        f[CX] = f[KAX] + c2d_rng_range(&rng, -3, 3);
        f[CY] = f[KAY] + c2d_rng_range(&rng, -3, 3);
        f[MX] = c2d_rng_range(&rng, -4, 4);
        f[MY] = c2d_rng_range(&rng, -4, 4);
        f[MBX] = c2d_rng_range(&rng, -2, 2);
        f[MBY] = c2d_rng_range(&rng, -2, 2);
        /* One to three fields replaced by bad values (and sometimes none). */
        const int nbad = (int)(c2d_rng_next(&rng) % 4);
        for (int j = 0; j < nbad; j++)
            f[c2d_rng_next(&rng) % NFIELDS] = bad_value(&rng);
        for (int q = 0; q < NQUERIES; q++) {
            const answer a = ask((query)q, f);
            hits += a.hit;
            for (int k = 0; k < NFIELDS; k++)
                if (uses((query)q, k) && f[k] != f[k]) {
                    nan_queries++;
                    break;
                }
            /* Print the first few breaches in full, count them all. */
            if (breaches < 5 ? !obeys_rules((query)q, f, &a)
                             : !quietly_obeys_rules((query)q, f, &a)) {
                breaches++;
                per_query[q]++;
            }
        }
        /* The boolean and the contact forms of a query give the same answer. */
        static const query pairs[3][2] = {{Q_OVERLAP_CAPSULE, Q_COLLIDE_CAPSULE},
                                          {Q_OVERLAP_SEGMENT, Q_COLLIDE_SEGMENT},
                                          {Q_OVERLAP_CIRCLES, Q_COLLIDE_CIRCLES}};
        for (int q = 0; q < 3; q++) {
            const bool b = ask(pairs[q][0], f).hit, c = ask(pairs[q][1], f).hit;
            if (b != c && pair_breaches++ < 5) {
                print_error("%s = %d but %s = %d\n", query_names[pairs[q][0]], b,
                            query_names[pairs[q][1]], c);
                print_fields(f);
            }
        }
        /* Closest point, capsule_from_axis and impulse: no crash; NaN impulse input is no-op. */
        const c2d_vec2 p =
            c2d_closest_point_on_segment(v2(f[CX], f[CY]), segment(f[KAX], f[KAY], f[KBX], f[KBY]));
        (void)p;
        (void)c2d_capsule_from_axis(v2(f[CX], f[CY]), v2(f[MX], f[MY]), f[KR], f[CR]);
        c2d_body ba = {{f[MX], f[MY]}, f[CR], f[KR]}, bb = {{f[MBX], f[MBY]}, f[KR], f[CR]};
        const c2d_body ba0 = ba, bb0 = bb;
        const c2d_vec2 n = v2(f[KAX], f[KAY]);
        const float j = c2d_apply_impulse(&ba, &bb, n);
        bool any_nan = false;
        const float used[] = {f[MX], f[MY], f[CR], f[KR], f[MBX], f[MBY], f[KAX], f[KAY]};
        for (size_t k = 0; k < sizeof used / sizeof used[0]; k++)
            any_nan |= used[k] != used[k];
        if (any_nan &&
            (j != 0.0f || memcmp(&ba, &ba0, sizeof ba) || memcmp(&bb, &bb0, sizeof bb)) &&
            impulse_breaches++ < 5) {
            print_error("apply_impulse changed bodies on NaN input (j = %g)\n", (double)j);
            print_fields(f);
        }
    }
    for (int q = 0; q < NQUERIES; q++)
        if (per_query[q])
            print_error("%s: %d inputs broke the bad-input rules\n", query_names[q], per_query[q]);
    if (pair_breaches) print_error("overlap_* and collide_* disagreed %d times\n", pair_breaches);
    if (impulse_breaches)
        print_error("apply_impulse changed bodies on NaN input %d times\n", impulse_breaches);
    if (breaches || pair_breaches || impulse_breaches) fail();
    assert_true(hits > 10000);
    assert_true(nan_queries > 10000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nan_in_any_field_gives_no_hit),
        cmocka_unit_test(negative_radius_gives_no_hit),
        cmocka_unit_test(negative_zero_radius_is_zero),
        cmocka_unit_test(infinite_and_huge_values_are_defined),
        cmocka_unit_test(sweep_capsule_nan_endpoint_minimal),
        cmocka_unit_test(random_bad_input_never_breaks_the_rules),
    };
    return C2D_RUN_TESTS(tests);
}
