/* World queries (collide2d/world.h): c2d_world_cast_ray and c2d_world_query_box / _disc / _point
 * against a loop over every ball and capsule with the scalar predicates (the oracle), in worlds
 * with awake and sleeping balls, static, kinematic and sensor capsules and filter words, between
 * steps and after the calls that change a world; the count, capacity, size-query and truncation
 * rules; ties; NULL, NaN and calls during a step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "collide2d/query.h"
#include "collide2d/world.h"

/* ---- a small deterministic generator ----------------------------------------------------------
 */

typedef struct rng {
    uint64_t s;
} rng;

static uint32_t next(rng *r) {
    r->s = r->s * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(r->s >> 33);
}

static float uniform(rng *r, float lo, float hi) {
    return lo + (hi - lo) * (float)(next(r) % 1000001u) / 1000000.0f;
}

static const uint32_t words[] = {C2D_FILTER_ALL, C2D_FILTER_ALL, 1, 2, 3, 6, 0};

static uint32_t word(rng *r) {
    return words[next(r) % (sizeof words / sizeof words[0])];
}

/* ---- the model: what the test knows of its world ----------------------------------------------
 */

#define SLOTS (1u << 16)

typedef struct capsule_rec {
    c2d_capsule_id id;
    uint32_t category, mask;
    bool sensor, live;
} capsule_rec;

typedef struct model {
    c2d_world *w;
    uint32_t ball_category[SLOTS], ball_mask[SLOTS]; /* by slot */
    capsule_rec capsules[512];
    size_t capsule_count;
} model;

static model *model_new(void) {
    model *m = calloc(1, sizeof *m);
    assert_non_null(m);
    c2d_world_def def = c2d_world_default_def();
    assert_int_equal(c2d_world_create(&def, &m->w), C2D_OK);
    return m;
}

static void model_free(model *m) {
    c2d_world_destroy(m->w);
    free(m);
}

static c2d_ball_id add_ball(model *m, c2d_ball_def def) {
    c2d_ball_id id;
    assert_int_equal(c2d_world_add_balls(m->w, &def, 1, &id), C2D_OK);
    assert_true((id & 0xFFFFFFu) < SLOTS);
    m->ball_category[id & 0xFFFFFFu] = def.category;
    m->ball_mask[id & 0xFFFFFFu] = def.mask;
    return id;
}

static c2d_capsule_id add_capsule(model *m, c2d_capsule_def def) {
    c2d_capsule_id id;
    assert_int_equal(c2d_world_add_capsules(m->w, &def, 1, &id), C2D_OK);
    assert_true(m->capsule_count < sizeof m->capsules / sizeof m->capsules[0]);
    m->capsules[m->capsule_count++] = (capsule_rec){id, def.category, def.mask, def.sensor, true};
    return id;
}

/* ---- the oracle ----------------------------------------------------------------------------- */

typedef enum kind { BOX, DISC, POINT } kind;

typedef struct region {
    kind kind;
    c2d_box box;
    c2d_circle disc;
    c2d_vec2 point;
} region;

static bool meets_ball(const region *q, c2d_circle c) {
    switch (q->kind) {
    case BOX:
        return c2d_overlap_box_circle(q->box, c);
    case DISC:
        return c2d_overlap_circles(q->disc, c);
    default:
        return c2d_overlap_circles((c2d_circle){q->point, 0.0f}, c);
    }
}

static bool meets_capsule(const region *q, c2d_capsule k) {
    switch (q->kind) {
    case BOX:
        return c2d_overlap_box_capsule(q->box, k);
    case DISC:
        return c2d_overlap_circle_capsule(q->disc, k);
    default:
        return c2d_point_in_capsule(q->point, k);
    }
}

static int ref_order(const void *a, const void *b) {
    const c2d_world_shape_ref *x = a, *y = b;
    if (x->kind != y->kind) return x->kind == C2D_SHAPE_CIRCLE ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Every ball, then every capsule, the region meets: balls in id order, then capsules. */
static size_t oracle_region(const model *m, const region *q, uint32_t category, uint32_t mask,
                            c2d_world_shape_ref *out) {
    c2d_world_balls b;
    assert_int_equal(c2d_world_get_balls(m->w, &b), C2D_OK);
    size_t n = 0;
    for (size_t k = 0; k < b.count; k++) {
        const uint32_t slot = b.ids[k] & 0xFFFFFFu;
        if (!c2d_filter_allows(category, mask, m->ball_category[slot], m->ball_mask[slot]))
            continue;
        if (meets_ball(q, (c2d_circle){{b.x[k], b.y[k]}, b.radius[k]}))
            out[n++] = (c2d_world_shape_ref){b.ids[k], C2D_SHAPE_CIRCLE};
    }
    for (size_t i = 0; i < m->capsule_count; i++) {
        const capsule_rec *c = &m->capsules[i];
        c2d_capsule shape;
        if (!c->live) continue;
        assert_true(c2d_world_capsule(m->w, c->id, &shape));
        if (!c2d_filter_allows(category, mask, c->category, c->mask)) continue;
        if (meets_capsule(q, shape)) out[n++] = (c2d_world_shape_ref){c->id, C2D_SHAPE_CAPSULE};
    }
    qsort(out, n, sizeof *out, ref_order);
    return n;
}

/* The earliest hit: t, then balls before capsules, then the lower id. */
static c2d_world_ray_hit oracle_ray(const model *m, c2d_vec2 o, c2d_vec2 d, uint32_t category,
                                    uint32_t mask) {
    c2d_world_ray_hit best = {.id = C2D_NONE, .kind = C2D_SHAPE_NONE};
    c2d_world_balls b;
    assert_int_equal(c2d_world_get_balls(m->w, &b), C2D_OK);
    for (size_t k = 0; k < b.count; k++) {
        const uint32_t slot = b.ids[k] & 0xFFFFFFu;
        c2d_toi toi;
        if (!c2d_filter_allows(category, mask, m->ball_category[slot], m->ball_mask[slot]) ||
            !c2d_ray_circle(o, d, (c2d_circle){{b.x[k], b.y[k]}, b.radius[k]}, &toi))
            continue;
        if (best.kind == C2D_SHAPE_NONE || toi.t < best.toi.t ||
            (toi.t == best.toi.t && b.ids[k] < best.id))
            best = (c2d_world_ray_hit){b.ids[k], C2D_SHAPE_CIRCLE, toi};
    }
    c2d_world_ray_hit cap = {.id = C2D_NONE, .kind = C2D_SHAPE_NONE};
    for (size_t i = 0; i < m->capsule_count; i++) {
        const capsule_rec *c = &m->capsules[i];
        c2d_capsule shape;
        c2d_toi toi;
        if (!c->live || c->sensor) continue;
        assert_true(c2d_world_capsule(m->w, c->id, &shape));
        if (!c2d_filter_allows(category, mask, c->category, c->mask) ||
            !c2d_ray_capsule(o, d, shape, &toi))
            continue;
        if (cap.kind == C2D_SHAPE_NONE || toi.t < cap.toi.t ||
            (toi.t == cap.toi.t && c->id < cap.id))
            cap = (c2d_world_ray_hit){c->id, C2D_SHAPE_CAPSULE, toi};
    }
    if (cap.kind != C2D_SHAPE_NONE && (best.kind == C2D_SHAPE_NONE || cap.toi.t < best.toi.t))
        return cap;
    return best;
}

/* ---- random queries against the oracle --------------------------------------------------------
 */

typedef struct tally {
    size_t queries, nonempty, ray_hits;
} tally;

/* A centre: near a ball (half the time), or anywhere in [-span, span]^2 around (cx, cy). */
static c2d_vec2 somewhere(const model *m, rng *r, float cx, float cy, float span) {
    c2d_world_balls b;
    assert_int_equal(c2d_world_get_balls(m->w, &b), C2D_OK);
    if (b.count && next(r) % 2) {
        const size_t k = next(r) % b.count;
        return (c2d_vec2){b.x[k] + uniform(r, -0.5f, 0.5f) * b.radius[k],
                          b.y[k] + uniform(r, -0.5f, 0.5f) * b.radius[k]};
    }
    return (c2d_vec2){cx + uniform(r, -span, span), cy + uniform(r, -span, span)};
}

static void check_queries(const model *m, rng *r, size_t count, float cx, float cy, float span,
                          tally *t) {
    const size_t cap = 4096;
    c2d_world_shape_ref *got = malloc(cap * sizeof *got), *want = malloc(cap * sizeof *want);
    assert_non_null(got);
    assert_non_null(want);
    for (size_t i = 0; i < count; i++) {
        uint32_t category = word(r), mask = word(r);
        const c2d_vec2 c = somewhere(m, r, cx, cy, span);
        const float size = next(r) % 6 == 0 ? uniform(r, 0.0f, span) : uniform(r, 0.0f, 3.0f);
        const unsigned what = next(r) % 4;
        t->queries++;
        if (what == 3) {
            c2d_vec2 d = {uniform(r, -2.0f, 2.0f) * size, uniform(r, -2.0f, 2.0f) * size};
            if (next(r) % 8 == 0) d = (c2d_vec2){0.0f, -size}; /* straight down, onto the pile */
            if (next(r) % 16 == 0) d = (c2d_vec2){0.0f, 0.0f};
            c2d_world_ray_hit h;
            const c2d_world_ray_hit o = oracle_ray(m, c, d, category, mask);
            assert_int_equal(c2d_world_cast_ray(m->w, c, d, category, mask, &h), C2D_OK);
            if (memcmp(&h, &o, sizeof h) != 0)
                fail_msg("ray (%g, %g) + (%g, %g) words %x/%x: got %x kind %d t %.9g, want %x "
                         "kind %d t %.9g",
                         (double)c.x, (double)c.y, (double)d.x, (double)d.y, category, mask, h.id,
                         (int)h.kind, (double)h.toi.t, o.id, (int)o.kind, (double)o.toi.t);
            t->ray_hits += h.kind != C2D_SHAPE_NONE;
            continue;
        }
        region q = {.kind = (kind)what};
        size_t n = 0;
        c2d_status st;
        if (q.kind == BOX) {
            float wx = uniform(r, 0.0f, size), wy = uniform(r, 0.0f, size);
            if (next(r) % 4 == 0) wy *= 0.02f; /* long and thin */
            if (next(r) % 2) {
                const float s = wx;
                wx = wy;
                wy = s;
            }
            q.box = (c2d_box){{c.x - wx, c.y - wy}, {c.x + wx, c.y + wy}};
            st = c2d_world_query_box(m->w, q.box, category, mask, got, cap, &n);
        } else if (q.kind == DISC) {
            q.disc = (c2d_circle){c, size};
            st = c2d_world_query_disc(m->w, q.disc, category, mask, got, cap, &n);
        } else {
            q.point = c;
            st = c2d_world_query_point(m->w, c, category, mask, got, cap, &n);
        }
        const size_t expect = oracle_region(m, &q, category, mask, want);
        assert_int_equal(st, C2D_OK);
        assert_int_equal(n, expect);
        if (memcmp(got, want, n * sizeof *got) != 0)
            fail_msg("region kind %d at (%g, %g) size %g: results differ", (int)q.kind, (double)c.x,
                     (double)c.y, (double)size);
        t->nonempty += n > 0;
    }
    free(got);
    free(want);
}

/* One region query against the oracle. */
static void check_region(const model *m, const region *q, uint32_t category, uint32_t mask) {
    enum { CAP = 4096 };
    static c2d_world_shape_ref got[CAP], want[CAP];
    size_t n = 0;
    c2d_status st = q->kind == BOX ? c2d_world_query_box(m->w, q->box, category, mask, got, CAP, &n)
                    : q->kind == DISC
                        ? c2d_world_query_disc(m->w, q->disc, category, mask, got, CAP, &n)
                        : c2d_world_query_point(m->w, q->point, category, mask, got, CAP, &n);
    assert_int_equal(st, C2D_OK);
    const size_t expect = oracle_region(m, q, category, mask, want);
    assert_int_equal(n, expect);
    assert_memory_equal(got, want, n * sizeof *got);
}

static void check_ray(const model *m, c2d_vec2 o, c2d_vec2 d) {
    c2d_world_ray_hit h;
    assert_int_equal(c2d_world_cast_ray(m->w, o, d, C2D_FILTER_ALL, C2D_FILTER_ALL, &h), C2D_OK);
    const c2d_world_ray_hit want = oracle_ray(m, o, d, C2D_FILTER_ALL, C2D_FILTER_ALL);
    assert_memory_equal(&h, &want, sizeof h);
}

/* ---- worlds ---------------------------------------------------------------------------------- */

/* Where the worlds of random_worlds sit (their floor's middle). */
static c2d_vec2 base;

static c2d_vec2 at(float x, float y) {
    return (c2d_vec2){base.x + x, base.y + y};
}

/* A box of static walls (floor at y = 0, x in [-width, width]), pegs, sensors and kinematic
 * paddles, with random filter words. */
static void add_scenery(model *m, rng *r, float width, float height) {
    c2d_capsule_def wall = c2d_capsule_default_def();
    wall.shape = (c2d_capsule){at(-width, 0.0f), at(width, 0.0f), 0.5f};
    add_capsule(m, wall);
    wall.shape = (c2d_capsule){at(-width, 0.0f), at(-width, height), 0.5f};
    add_capsule(m, wall);
    wall.shape = (c2d_capsule){at(width, 0.0f), at(width, height), 0.5f};
    add_capsule(m, wall);
    for (int i = 0; i < 24; i++) {
        c2d_capsule_def d = c2d_capsule_default_def();
        const c2d_vec2 a = at(uniform(r, -width, width), uniform(r, 2.0f, height));
        const c2d_vec2 b = {a.x + uniform(r, -2.0f, 2.0f), a.y + uniform(r, -1.0f, 1.0f)};
        d.shape = (c2d_capsule){a, next(r) % 3 ? b : a, uniform(r, 0.05f, 0.4f)};
        d.category = word(r);
        d.mask = word(r);
        const unsigned what = next(r) % 6;
        d.sensor = what >= 4;
        if (what == 3) { /* (sensors are static) */
            d.motion = C2D_KINEMATIC;
            d.pivot = a;
            d.angular_velocity = uniform(r, -3.0f, 3.0f);
            d.velocity = (c2d_vec2){uniform(r, -0.5f, 0.5f), 0.0f};
        }
        add_capsule(m, d);
        if (next(r) % 5 == 0) { /* a twin: ties between capsules */
            d.category = word(r);
            add_capsule(m, d);
        }
    }
}

/* n kinematic paddles spinning about one end (turning and moving every step: the queries' index
 * of them is brought up to date after each). */
static void add_paddles(model *m, rng *r, size_t n, float width, float height) {
    for (size_t i = 0; i < n; i++) {
        c2d_capsule_def d = c2d_capsule_default_def();
        const c2d_vec2 a = at(uniform(r, -width, width), uniform(r, 2.0f, height));
        d.shape = (c2d_capsule){a, {a.x + uniform(r, 0.2f, 1.5f), a.y}, uniform(r, 0.05f, 0.3f)};
        d.category = word(r);
        d.mask = word(r);
        d.motion = C2D_KINEMATIC;
        d.pivot = a;
        d.angular_velocity = uniform(r, -4.0f, 4.0f);
        d.velocity = (c2d_vec2){0.0f, uniform(r, -0.3f, 0.3f)};
        add_capsule(m, d);
    }
}

static void add_balls(model *m, rng *r, size_t n, float width, float height) {
    for (size_t i = 0; i < n; i++) {
        c2d_ball_def d = c2d_ball_default_def();
        d.radius = uniform(r, 0.15f, 0.5f);
        if (next(r) % 40 == 0) d.radius *= 6.0f;
        d.position = at(uniform(r, -width + 1.0f, width - 1.0f), uniform(r, 1.0f, height));
        d.velocity = (c2d_vec2){uniform(r, -2.0f, 2.0f), uniform(r, -2.0f, 0.0f)};
        d.category = word(r);
        d.mask = word(r);
        if (next(r) % 50 == 0) d.density = 0.0f; /* fixed */
        add_ball(m, d);
    }
}

/* Puts about `percent` of the awake balls to sleep where they are. */
static void doze(model *m, rng *r, unsigned percent) {
    c2d_world_balls b;
    assert_int_equal(c2d_world_get_balls(m->w, &b), C2D_OK);
    const size_t n = b.count;
    c2d_ball_id *ids = malloc((n + 1) * sizeof *ids);
    assert_non_null(ids);
    memcpy(ids, b.ids, n * sizeof *ids);
    for (size_t k = 0; k < n; k++)
        if (next(r) % 100 < percent)
            assert_int_equal(c2d_world_set_ball_awake(m->w, ids[k], false), C2D_OK);
    free(ids);
}

static void random_worlds(void **state) {
    (void)state;
    const struct {
        size_t balls;
        float width, height;
        unsigned doze;
        c2d_vec2 base;
        size_t paddles;
    } cases[] = {{400, 10.0f, 20.0f, 50, {0, 0}, 0},
                 {1500, 25.0f, 30.0f, 80, {0, 0}, 0},
                 {150, 40.0f, 10.0f, 20, {0, 0}, 0},
                 {400, 10.0f, 20.0f, 50, {16384.0f, -16384.0f}, 0}, /* far from the origin */
                 {300, 25.0f, 20.0f, 30, {0, 0}, 300}};             /* many kinematic capsules */
    tally t = {0};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        rng r = {0x51d0 + c};
        model *m = model_new();
        const float w = cases[c].width, h = cases[c].height;
        base = cases[c].base;
        const float cx = base.x, cy = base.y + h / 2;
        add_scenery(m, &r, w, h);
        add_paddles(m, &r, cases[c].paddles, w, h);
        add_balls(m, &r, cases[c].balls, w, h);
        /* Before any step: the capsules' scenes are stale, nothing is gridded. */
        check_queries(m, &r, 150, cx, cy, w, &t);
        for (int round = 0; round < 6; round++) {
            for (int s = 0; s < 10; s++)
                assert_int_equal(c2d_world_step(m->w, 1.0f / 60.0f), C2D_OK);
            check_queries(m, &r, 150, cx, cy, w, &t);
            doze(m, &r, cases[c].doze); /* sleeping balls, no step between */
            check_queries(m, &r, 100, cx, cy, w, &t);
            /* Calls between steps: teleport, wake, add, remove. */
            c2d_world_balls b;
            assert_int_equal(c2d_world_get_balls(m->w, &b), C2D_OK);
            c2d_ball_id some[8];
            for (int i = 0; i < 8; i++)
                some[i] = b.ids[(size_t)(next(&r) % b.count)];
            assert_int_equal(c2d_world_set_ball_position(m->w, some[0],
                                                         at(uniform(&r, -w, w), uniform(&r, 1, h))),
                             C2D_OK);
            assert_int_equal(c2d_world_set_ball_awake(m->w, some[1], true), C2D_OK);
            assert_int_equal(c2d_world_set_ball_velocity(m->w, some[2], (c2d_vec2){1.0f, 2.0f}),
                             C2D_OK);
            add_balls(m, &r, 5, w, h);
            if (some[3] != some[4])
                assert_int_equal(c2d_world_remove_balls(m->w, &some[3], 2), C2D_OK);
            check_queries(m, &r, 100, cx, cy, w, &t);
            if (round == 2) { /* stale scenes until the next step */
                for (size_t i = 0; i < m->capsule_count; i++)
                    if (m->capsules[i].live && next(&r) % 8 == 0) {
                        assert_int_equal(c2d_world_remove_capsules(m->w, &m->capsules[i].id, 1),
                                         C2D_OK);
                        m->capsules[i].live = false;
                    }
                add_scenery(m, &r, w * 0.5f, h * 0.5f);
                check_queries(m, &r, 100, cx, cy, w, &t);
            }
        }
        print_message("# world %zu: %zu of %zu balls asleep at the end\n", c,
                      c2d_world_ball_count(m->w) - c2d_world_awake_count(m->w),
                      c2d_world_ball_count(m->w));
        assert_true(c2d_world_awake_count(m->w) < c2d_world_ball_count(m->w)); /* some sleep */
        model_free(m);
    }
    /* The queries found things (the comparisons were not all of empty answers). */
    assert_true(t.nonempty > t.queries / 4);
    assert_true(t.ray_hits > t.queries / 10);
    print_message("# %zu queries, %zu regions non-empty, %zu rays hit\n", t.queries, t.nonempty,
                  t.ray_hits);
}

/* A pile that settles and sleeps by itself, queried while it sleeps and as balls land on it. */
static void sleeping_pile(void **state) {
    (void)state;
    base = (c2d_vec2){0.0f, 0.0f};
    rng r = {0x9a1e};
    model *m = model_new();
    c2d_capsule_def wall = c2d_capsule_default_def();
    wall.shape = (c2d_capsule){{-6.0f, 0.0f}, {6.0f, 0.0f}, 0.5f};
    add_capsule(m, wall);
    wall.shape = (c2d_capsule){{-6.0f, 0.0f}, {-6.0f, 12.0f}, 0.5f};
    add_capsule(m, wall);
    wall.shape = (c2d_capsule){{6.0f, 0.0f}, {6.0f, 12.0f}, 0.5f};
    add_capsule(m, wall);
    for (int row = 0; row < 10; row++)
        for (int col = 0; col < 20; col++) {
            c2d_ball_def d = c2d_ball_default_def();
            d.radius = 0.25f;
            d.position = (c2d_vec2){-5.0f + 0.52f * (float)col + 0.1f * (float)(row % 2),
                                    0.8f + 0.52f * (float)row};
            d.category = word(&r);
            d.mask = word(&r);
            add_ball(m, d);
        }
    tally t = {0};
    size_t steps = 0;
    while (c2d_world_awake_count(m->w) > 20 && steps < 900) {
        assert_int_equal(c2d_world_step(m->w, 1.0f / 60.0f), C2D_OK);
        if (++steps % 60 == 0) check_queries(m, &r, 60, 0.0f, 3.0f, 6.0f, &t);
    }
    print_message("# pile: %zu of %zu awake after %zu steps\n", c2d_world_awake_count(m->w),
                  c2d_world_ball_count(m->w), steps);
    doze(m, &r, 100); /* (every supported ball asleep now, if the pile did not get there) */
    print_message("# pile: %zu awake after dozing\n", c2d_world_awake_count(m->w));
    check_queries(m, &r, 300, 0.0f, 3.0f, 6.0f, &t);
    for (int drop = 0; drop < 5; drop++) {
        add_balls(m, &r, 3, 6.0f, 10.0f);
        for (int s = 0; s < 20; s++)
            assert_int_equal(c2d_world_step(m->w, 1.0f / 60.0f), C2D_OK);
        check_queries(m, &r, 100, 0.0f, 3.0f, 6.0f, &t);
    }
    /* Many calls between steps (more than the noted list holds: the grid is rebuilt). */
    add_balls(m, &r, 150, 6.0f, 10.0f);
    check_queries(m, &r, 100, 0.0f, 3.0f, 6.0f, &t);
    c2d_world_balls b;
    assert_int_equal(c2d_world_get_balls(m->w, &b), C2D_OK);
    const size_t n = b.count;
    c2d_ball_id *ids = malloc(n * sizeof *ids);
    assert_non_null(ids);
    memcpy(ids, b.ids, n * sizeof *ids);
    for (size_t k = 0; k < n; k += 2)
        assert_int_equal(c2d_world_set_ball_position(
                             m->w, ids[k], (c2d_vec2){uniform(&r, -5, 5), uniform(&r, 1, 8)}),
                         C2D_OK);
    check_queries(m, &r, 100, 0.0f, 3.0f, 6.0f, &t);
    free(ids);
    assert_true(t.nonempty > t.queries / 4);
    model_free(m);
}

/* Odd geometry: an empty world, huge and degenerate regions, very long and very short rays. */
static void odd_queries(void **state) {
    (void)state;
    model *m = model_new();
    const region huge = {.kind = DISC, .disc = {{0, 0}, 1e30f}};
    const region everything = {.kind = BOX, .box = {{-1e30f, -1e30f}, {1e30f, 1e30f}}};
    for (int round = 0; round < 3; round++) {
        check_region(m, &huge, C2D_FILTER_ALL, C2D_FILTER_ALL);
        check_region(m, &everything, C2D_FILTER_ALL, C2D_FILTER_ALL);
        check_region(m, &(region){.kind = POINT, .point = {0.3f, 1.0f}}, C2D_FILTER_ALL,
                     C2D_FILTER_ALL);
        check_region(m, &(region){.kind = BOX, .box = {{0.3f, 1.0f}, {0.3f, 1.0f}}}, C2D_FILTER_ALL,
                     C2D_FILTER_ALL);
        check_region(m, &(region){.kind = BOX, .box = {{-50.0f, 1.0f}, {50.0f, 1.0f}}},
                     C2D_FILTER_ALL, C2D_FILTER_ALL);
        check_region(m, &(region){.kind = DISC, .disc = {{0.3f, 1.0f}, 0.0f}}, C2D_FILTER_ALL,
                     C2D_FILTER_ALL);
        check_ray(m, (c2d_vec2){-1e6f, 1.0f}, (c2d_vec2){2e6f, 0.0f});
        check_ray(m, (c2d_vec2){-1e6f, -1e6f}, (c2d_vec2){2e6f, 2e6f + 3.0f});
        check_ray(m, (c2d_vec2){0.0f, 30.0f}, (c2d_vec2){0.0f, -60.0f});
        check_ray(m, (c2d_vec2){0.3f, 1.0f}, (c2d_vec2){1e-6f, -1e-6f});
        check_ray(m, (c2d_vec2){0.3f, 1.0f}, (c2d_vec2){0.0f, -1e-30f});
        /* Balls and capsules for the next round (a row on the floor, then a stack). */
        rng r = {0x0dd + (uint64_t)round};
        base = (c2d_vec2){0.0f, 0.0f};
        if (round == 0) add_scenery(m, &r, 8.0f, 10.0f);
        add_balls(m, &r, 300, 8.0f, 10.0f);
        for (int s = 0; s < 30; s++)
            assert_int_equal(c2d_world_step(m->w, 1.0f / 60.0f), C2D_OK);
    }
    model_free(m);
}

/* ---- ties ------------------------------------------------------------------------------------ */

static void ray_ties(void **state) {
    (void)state;
    model *m = model_new();
    /* Two coincident capsules and two coincident balls, all touched by the ray at t = 0.4. */
    c2d_capsule_def k = c2d_capsule_default_def();
    k.shape = (c2d_capsule){{5.0f, 0.0f}, {5.0f, 0.0f}, 1.0f};
    const c2d_capsule_id cap0 = add_capsule(m, k);
    const c2d_capsule_id cap1 = add_capsule(m, k);
    assert_int_equal(c2d_world_step(m->w, 1.0f / 60.0f), C2D_OK); /* the capsules' scenes */
    c2d_ball_def b = c2d_ball_default_def();
    b.position = (c2d_vec2){5.0f, 0.0f};
    b.radius = 1.0f;
    const c2d_ball_id b0 = add_ball(m, b), b1 = add_ball(m, b);
    const c2d_vec2 o = {0.0f, 0.0f}, d = {10.0f, 0.0f};
    for (int pass = 0; pass < 3; pass++) { /* awake (noted), asleep (noted), asleep */
        c2d_world_ray_hit h;
        assert_int_equal(c2d_world_cast_ray(m->w, o, d, C2D_FILTER_ALL, C2D_FILTER_ALL, &h),
                         C2D_OK);
        assert_int_equal(h.kind, C2D_SHAPE_CIRCLE); /* balls before capsules */
        assert_int_equal(h.id, b0 < b1 ? b0 : b1);  /* then the lower id */
        assert_float_equal(h.toi.t, 0.4f, 1e-6f);
        c2d_world_ray_hit want = oracle_ray(m, o, d, C2D_FILTER_ALL, C2D_FILTER_ALL);
        assert_memory_equal(&h, &want, sizeof h);
        assert_int_equal(c2d_world_set_ball_awake(m->w, b0, false), C2D_OK);
        assert_int_equal(c2d_world_set_ball_awake(m->w, b1, false), C2D_OK);
        assert_int_equal(c2d_world_awake_count(m->w), 0);
        if (pass == 1) /* the grid rebuilt with nothing awake: the frozen index alone */
            assert_int_equal(c2d_world_step(m->w, 1.0f / 60.0f), C2D_OK);
        assert_int_equal(c2d_world_awake_count(m->w), 0); /* (resting on the capsules) */
    }
    assert_int_equal(c2d_world_remove_balls(m->w, (c2d_ball_id[]){b0, b1}, 2), C2D_OK);
    c2d_world_ray_hit h;
    assert_int_equal(c2d_world_cast_ray(m->w, o, d, C2D_FILTER_ALL, C2D_FILTER_ALL, &h), C2D_OK);
    assert_int_equal(h.kind, C2D_SHAPE_CAPSULE);
    assert_int_equal(h.id, cap0 < cap1 ? cap0 : cap1);
    /* A ray starting inside, heading deeper: t = 0; heading out: no hit. */
    assert_int_equal(c2d_world_cast_ray(m->w, (c2d_vec2){4.5f, 0.0f}, (c2d_vec2){1.0f, 0.0f},
                                        C2D_FILTER_ALL, C2D_FILTER_ALL, &h),
                     C2D_OK);
    assert_int_equal(h.kind, C2D_SHAPE_CAPSULE);
    assert_true(h.toi.t == 0.0f);
    assert_int_equal(c2d_world_cast_ray(m->w, (c2d_vec2){4.5f, 0.0f}, (c2d_vec2){-1.0f, 0.0f},
                                        C2D_FILTER_ALL, C2D_FILTER_ALL, &h),
                     C2D_OK);
    assert_int_equal(h.kind, C2D_SHAPE_NONE);
    assert_int_equal(h.id, C2D_NONE);
    const c2d_toi zero = {0};
    assert_memory_equal(&h.toi, &zero, sizeof zero);
    model_free(m);
}

/* ---- counts and statuses --------------------------------------------------------------------- */

static model *small_world(void) {
    model *m = model_new();
    rng r = {7};
    for (int i = 0; i < 30; i++) {
        c2d_ball_def d = c2d_ball_default_def();
        d.position = (c2d_vec2){uniform(&r, -2.0f, 2.0f), uniform(&r, -2.0f, 2.0f)};
        add_ball(m, d);
    }
    c2d_capsule_def k = c2d_capsule_default_def();
    k.shape = (c2d_capsule){{-3.0f, 0.0f}, {3.0f, 0.0f}, 0.2f};
    add_capsule(m, k);
    k.sensor = true;
    add_capsule(m, k);
    return m;
}

static void count_rules(void **state) {
    (void)state;
    model *m = small_world();
    const c2d_box box = {{-3.0f, -3.0f}, {3.0f, 3.0f}};
    c2d_world_shape_ref all[64], part[64];
    size_t n = 99, total = 0;
    assert_int_equal(
        c2d_world_query_box(m->w, box, C2D_FILTER_ALL, C2D_FILTER_ALL, all, 64, &total), C2D_OK);
    assert_int_equal(total, 32); /* every ball, the capsule and the sensor */
    assert_int_equal(all[30].kind, C2D_SHAPE_CAPSULE);
    /* Size query. */
    assert_int_equal(c2d_world_query_box(m->w, box, C2D_FILTER_ALL, C2D_FILTER_ALL, NULL, 0, &n),
                     C2D_OK);
    assert_int_equal(n, total);
    /* Truncation: the first `capacity`, nothing past them. */
    for (size_t cap = 0; cap <= total; cap++) {
        memset(part, 0xAB, sizeof part);
        const c2d_status st =
            c2d_world_query_box(m->w, box, C2D_FILTER_ALL, C2D_FILTER_ALL, part, cap, &n);
        assert_int_equal(st, cap < total ? C2D_ERROR_TRUNCATED : C2D_OK);
        assert_int_equal(n, total);
        assert_memory_equal(part, all, cap * sizeof *part);
        const unsigned char *rest = (const unsigned char *)(part + cap);
        for (size_t i = 0; i < (64 - cap) * sizeof *part; i++)
            assert_int_equal(rest[i], 0xAB);
    }
    /* Empty box: nothing; a box with lo == hi is a point. */
    assert_int_equal(c2d_world_query_box(m->w, (c2d_box){{1, 1}, {0, 2}}, C2D_FILTER_ALL,
                                         C2D_FILTER_ALL, all, 64, &n),
                     C2D_OK);
    assert_int_equal(n, 0);
    /* NULLs: *count 0. */
    n = 5;
    assert_int_equal(c2d_world_query_box(m->w, box, C2D_FILTER_ALL, C2D_FILTER_ALL, NULL, 3, &n),
                     C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    assert_int_equal(c2d_world_query_box(m->w, box, C2D_FILTER_ALL, C2D_FILTER_ALL, all, 3, NULL),
                     C2D_ERROR_NULL);
    n = 5;
    assert_int_equal(c2d_world_query_box(NULL, box, C2D_FILTER_ALL, C2D_FILTER_ALL, all, 3, &n),
                     C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    n = 5;
    assert_int_equal(c2d_world_query_disc(NULL, (c2d_circle){{0, 0}, 1}, C2D_FILTER_ALL,
                                          C2D_FILTER_ALL, all, 3, &n),
                     C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    n = 5;
    assert_int_equal(
        c2d_world_query_point(m->w, (c2d_vec2){0, 0}, C2D_FILTER_ALL, C2D_FILTER_ALL, NULL, 1, &n),
        C2D_ERROR_NULL);
    assert_int_equal(n, 0);
    c2d_world_ray_hit h;
    assert_int_equal(c2d_world_cast_ray(NULL, (c2d_vec2){0, 0}, (c2d_vec2){1, 0}, C2D_FILTER_ALL,
                                        C2D_FILTER_ALL, &h),
                     C2D_ERROR_NULL);
    assert_int_equal(c2d_world_cast_ray(m->w, (c2d_vec2){0, 0}, (c2d_vec2){1, 0}, C2D_FILTER_ALL,
                                        C2D_FILTER_ALL, NULL),
                     C2D_ERROR_NULL);
    /* Category 0 meets nothing. */
    assert_int_equal(c2d_world_query_box(m->w, box, 0, C2D_FILTER_ALL, all, 64, &n), C2D_OK);
    assert_int_equal(n, 0);
    model_free(m);
}

static void bad_values(void **state) {
    (void)state;
    model *m = small_world();
    const float bad[] = {NAN, INFINITY, -INFINITY};
    c2d_world_shape_ref out[64];
    c2d_world_ray_hit h, untouched;
    memset(&untouched, 0x5A, sizeof untouched);
    for (size_t i = 0; i < 3; i++) {
        const float v = bad[i];
        for (int field = 0; field < 4; field++) {
            c2d_box box = {{-1, -1}, {1, 1}};
            float *f[] = {&box.lo.x, &box.lo.y, &box.hi.x, &box.hi.y};
            *f[field] = v;
            size_t n = 5;
            assert_int_equal(
                c2d_world_query_box(m->w, box, C2D_FILTER_ALL, C2D_FILTER_ALL, out, 64, &n),
                C2D_ERROR_VALUE);
            assert_int_equal(n, 0);
        }
        for (int field = 0; field < 3; field++) {
            c2d_circle disc = {{0, 0}, 1};
            float *f[] = {&disc.center.x, &disc.center.y, &disc.radius};
            *f[field] = v;
            size_t n = 5;
            assert_int_equal(
                c2d_world_query_disc(m->w, disc, C2D_FILTER_ALL, C2D_FILTER_ALL, out, 64, &n),
                C2D_ERROR_VALUE);
            assert_int_equal(n, 0);
        }
        for (int field = 0; field < 2; field++) {
            c2d_vec2 p = {0, 0};
            float *f[] = {&p.x, &p.y};
            *f[field] = v;
            size_t n = 5;
            assert_int_equal(
                c2d_world_query_point(m->w, p, C2D_FILTER_ALL, C2D_FILTER_ALL, out, 64, &n),
                C2D_ERROR_VALUE);
            assert_int_equal(n, 0);
        }
        for (int field = 0; field < 4; field++) {
            c2d_vec2 o = {0, 0}, d = {1, 0};
            float *f[] = {&o.x, &o.y, &d.x, &d.y};
            *f[field] = v;
            h = untouched;
            assert_int_equal(c2d_world_cast_ray(m->w, o, d, C2D_FILTER_ALL, C2D_FILTER_ALL, &h),
                             C2D_ERROR_VALUE);
            assert_memory_equal(&h, &untouched, sizeof h);
        }
    }
    size_t n = 5;
    assert_int_equal(c2d_world_query_disc(m->w, (c2d_circle){{0, 0}, -1.0f}, C2D_FILTER_ALL,
                                          C2D_FILTER_ALL, out, 64, &n),
                     C2D_ERROR_VALUE);
    assert_int_equal(n, 0);
    /* A zero-length ray hits nothing. */
    assert_int_equal(c2d_world_cast_ray(m->w, (c2d_vec2){0, 0}, (c2d_vec2){0, 0}, C2D_FILTER_ALL,
                                        C2D_FILTER_ALL, &h),
                     C2D_OK);
    assert_int_equal(h.kind, C2D_SHAPE_NONE);
    model_free(m);
}

/* Queries from inside a step (the program's task system runs them): C2D_ERROR_STATE. */
typedef struct step_probe {
    c2d_world *w;
    int calls;
    c2d_status box, ray;
} step_probe;

static void *probe_enqueue(c2d_task_fn *task, int item_count, int min_range, void *task_context,
                           void *user_context) {
    (void)min_range;
    step_probe *p = user_context;
    c2d_world_shape_ref out[4];
    size_t n = 7;
    c2d_world_ray_hit h;
    p->box = c2d_world_query_box(p->w, (c2d_box){{-1, -1}, {1, 1}}, C2D_FILTER_ALL, C2D_FILTER_ALL,
                                 out, 4, &n);
    if (n != 0) p->box = C2D_OK; /* (fails the check below) */
    p->ray = c2d_world_cast_ray(p->w, (c2d_vec2){0, 5}, (c2d_vec2){0, -10}, C2D_FILTER_ALL,
                                C2D_FILTER_ALL, &h);
    p->calls++;
    task(0, item_count, 0, task_context);
    return NULL;
}

static void probe_finish(void *user_task, void *user_context) {
    (void)user_task;
    (void)user_context;
}

static void during_step(void **state) {
    (void)state;
    step_probe p = {0};
    c2d_world_def def = c2d_world_default_def();
    def.worker_count = 2;
    def.enqueue_task = probe_enqueue;
    def.finish_task = probe_finish;
    def.user_task_context = &p;
    assert_int_equal(c2d_world_create(&def, &p.w), C2D_OK);
    c2d_ball_def b = c2d_ball_default_def();
    for (int i = 0; i < 64; i++) {
        b.position = (c2d_vec2){(float)(i % 8), (float)(i / 8)};
        assert_int_equal(c2d_world_add_balls(p.w, &b, 1, NULL), C2D_OK);
    }
    assert_int_equal(c2d_world_step(p.w, 1.0f / 60.0f), C2D_OK);
    if (p.calls == 0) {
        c2d_world_destroy(p.w);
        skip(); /* the step ran no task: nothing to probe from inside it */
    }
    assert_int_equal(p.box, C2D_ERROR_STATE);
    assert_int_equal(p.ray, C2D_ERROR_STATE);
    c2d_world_destroy(p.w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_worlds), cmocka_unit_test(sleeping_pile),
        cmocka_unit_test(ray_ties),      cmocka_unit_test(count_rules),
        cmocka_unit_test(bad_values),    cmocka_unit_test(during_step),
        cmocka_unit_test(odd_queries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
