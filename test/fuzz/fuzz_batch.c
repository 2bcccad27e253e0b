/* Differential fuzzing of the batch layer (libFuzzer entry point).
 *
 * Each input becomes a scene: circles, capsules, moves, index pairs and output capacities, with
 * coordinates drawn from a few typical ranges and scales (2^-140 to 2^127), from a table of
 * special values (NaN, +-Inf, FLT_MAX, subnormals, the validator and culling limits), as raw
 * 32-bit patterns taken from the input, as copies of earlier values and as their neighbours a
 * few ulps away, and from shapes placed exactly touching each other. Then:
 *
 * - a direct loop over the public scalar functions gives the reference answer of every batch
 *   call (c2d_collide_circle_capsule, c2d_sweep_circle_capsule);
 * - every available backend (c2d_backend_select) runs c2d_batch_collide,
 *   c2d_batch_collide_pairs and c2d_batch_sweep; each result must equal the reference byte for
 *   byte (NaN compared as "both NaN"), `*count` must be the total, the status must say whether
 *   it was truncated, and nothing may be written past min(total, capacity) (a canary after the
 *   output; AddressSanitizer catches anything further, as every array is allocated to its
 *   exact size, some of them misaligned);
 * - every scalar result satisfies the contract of collide2d/query.h: NaN positions, moves or
 *   radii and negative radii give no hit, `out` is untouched without a hit, normals are never NaN
 * and are unit (||n| - 1| < 1e-5) for finite input, 0 <= depth <= r + R, t in [0, 1];
 * - the ball calls (fuzz_balls.h), the response calls (fuzz_response.h) and the search calls,
 *   ray casts and region queries, batch and scene (fuzz_search.h), against their scalar loops;
 * - the safe advance c2d_scene_advance (fuzz_advance.h): its rule against every capsule in
 *   double, the same bytes on every backend, in place and with t NULL;
 * - the world (fuzz_world.h): its range checks on the fuzzed defs, finite balls after a few
 *   steps, and the same hash on every backend.
 *
 * Any violation prints the inputs as hex floats and aborts, which libFuzzer records as a crash.
 *
 * Build and run: scripts/fuzz (clang, -fsanitize=fuzzer,address,undefined). The same file,
 * linked with test/fuzz/replay.c instead of libFuzzer, replays the seed corpus as a test. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collide2d.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Sizes: up to 4 full AVX-512 double-steps of circles plus a tail, and rarely enough capsules
 * to cross the sweep kernel's 256-capsule chunk. */
enum { MAX_CIRCLES = 133, MAX_CAPSULES = 262, MAX_PAIRS = 200, CANARY = 3 };

/* ---- input bytes ------------------------------------------------------------------------- */

/* The input, then (once it runs out) a splitmix64 stream seeded from the whole input, so short
 * inputs still describe complete scenes and every input is deterministic. */
typedef struct bytes {
    const uint8_t *p;
    size_t n;
    uint64_t state;
} bytes;

static uint8_t byte(bytes *b) {
    if (b->n > 0) {
        b->n--;
        return *b->p++;
    }
    uint64_t z = (b->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (uint8_t)((z ^ (z >> 31)) >> 56);
}

static uint32_t word(bytes *b) {
    uint32_t w = 0;
    for (int i = 0; i < 4; i++)
        w |= (uint32_t)byte(b) << (8 * i);
    return w;
}

/* ---- floats ------------------------------------------------------------------------------ */

static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* f moved k representable floats up (k < 0: down); NaN stays NaN, +-Inf saturate. */
static float ulp_step(float f, int k) {
    if (f != f) return f;
    const uint32_t u = bits_of(f);
    /* a monotone key: negative floats reversed below the positive ones */
    int64_t key = (u & 0x80000000u) ? -(int64_t)(u & 0x7fffffffu) : (int64_t)u;
    key += k;
    if (key > 0x7f800000) key = 0x7f800000;
    if (key < -0x7f800000) key = -0x7f800000;
    return key < 0 ? float_of(0x80000000u | (uint32_t)(-key)) : float_of((uint32_t)key);
}

static bool same_float(float a, float b) {
    return (a != a && b != b) || bits_of(a) == bits_of(b);
}

static bool same_vec(c2d_vec2 a, c2d_vec2 b) {
    return same_float(a.x, b.x) && same_float(a.y, b.y);
}

static bool same_contact(const c2d_contact *a, const c2d_contact *b) {
    return same_vec(a->normal, b->normal) && same_float(a->depth, b->depth) &&
           same_vec(a->point, b->point);
}

static bool same_toi(const c2d_toi *a, const c2d_toi *b) {
    return same_float(a->t, b->t) && same_vec(a->normal, b->normal) && same_vec(a->point, b->point);
}

static bool same_pair(const c2d_pair_contact *a, const c2d_pair_contact *b) {
    return a->circle == b->circle && a->capsule == b->capsule &&
           same_contact(&a->contact, &b->contact);
}

static bool same_circle_toi(const c2d_circle_toi *a, const c2d_circle_toi *b) {
    return a->capsule == b->capsule && same_toi(&a->toi, &b->toi);
}

/* Values that sit on a boundary somewhere: IEEE specials, the overflow thresholds of squares,
 * C2D_MAX_MAGNITUDE (validate.h) and the 2^40 culling limit of the kernels (cull.h). */
static const float specials[] = {
    0.0f,           -0.0f,    NAN,       -NAN,           INFINITY,       -INFINITY,
    FLT_MAX,        -FLT_MAX, FLT_MIN,   -FLT_MIN,       0x1p-149f,      -0x1p-149f,
    1e19f,          -1e19f,   1e30f,     -1e30f,         0x1p60f,        -0x1p60f,
    0x1.000002p60f, 0x1p40f,  -0x1p40f,  0x1.000002p40f, 0x1.fffffep39f, 0x1p63f,
    0x1p64f,        -0x1p64f, 1.0f,      -1.0f,          0.5f,           0x1p-20f,
    0x1p-75f,       0x1p-64f, 0x1p-126f, 0x1p-100f,      1e-12f,         100.0f,
};
enum { N_SPECIALS = sizeof specials / sizeof specials[0] };

/* Common scales of a scene's coordinates. */
static const float scales[] = {
    1.0f,     1.0f,    1.0f,     1.0f,     0.25f,     4.0f,      0x1p-10f, 0x1p10f,
    0x1p-20f, 0x1p20f, 0x1p-40f, 0x1p-60f, 0x1p-100f, 0x1p-140f, 0x1p36f,  0x1p39f,
    0x1p40f,  0x1p44f, 0x1p60f,  0x1p100f, 0x1p120f,  1e-12f,
};
enum { N_SCALES = sizeof scales / sizeof scales[0] };

typedef struct gen {
    bytes b;
    float scale;  /* of coordinates */
    float offset; /* added to plain coordinates: a scene far from the origin */
    float hist[16];
    unsigned n_hist;
} gen;

static float remember(gen *g, float v) {
    g->hist[g->n_hist++ % 16] = v;
    return v;
}

static float recall(gen *g) {
    return g->hist[byte(&g->b) % 16];
}

/* A value of one of the kinds listed at the top; `plain` gives the typical ones. */
typedef enum kind { COORD, RADIUS, MOVE } kind;

static float plain_value(gen *g, kind k) {
    const int hi = (int8_t)byte(&g->b);
    const float lo = (float)byte(&g->b) / 256.0f;
    switch (k) {
    case COORD:
        return g->offset + ((float)hi + lo) * g->scale;
    case RADIUS:
        return ((float)(hi & 3) + lo) * g->scale * 0.25f;
    case MOVE:
        return ((float)hi + lo) * g->scale * 0.125f;
    }
    return 0.0f;
}

static float value(gen *g, kind k) {
    const uint8_t m = byte(&g->b);
    float v;
    if (m < 150)
        v = plain_value(g, k);
    else if (m < 180)
        v = specials[byte(&g->b) % N_SPECIALS];
    else if (m < 200)
        v = float_of(word(&g->b));
    else if (m < 225)
        v = recall(g);
    else
        v = ulp_step(recall(g), (int8_t)byte(&g->b) % 5);
    return remember(g, v);
}

/* ---- a scene ----------------------------------------------------------------------------- */

/* Every array is allocated to its exact size (some shifted by a few elements, so misaligned)
 * so that AddressSanitizer sees any read past its end. */
typedef struct scene {
    size_t nc, nk, np;
    float *x, *y, *r, *mx, *my;
    float *ax, *ay, *bx, *by, *R;
    uint32_t *ci, *ki;
    void *blocks[12];
    size_t n_blocks;
    uint8_t collide_capacity_mode, pairs_capacity_mode, capacity_byte;
} scene;

static void *exact_array(scene *s, size_t n, size_t elem, unsigned shift) {
    if (n == 0 && (shift & 1)) /* empty arrays: NULL, or a pointer nothing may read */
        return NULL;
    unsigned char *block = malloc((n + shift) * elem + (n + shift == 0));
    if (!block) abort();
    s->blocks[s->n_blocks++] = block;
    return block + shift * elem;
}

static void scene_free(scene *s) {
    for (size_t i = 0; i < s->n_blocks; i++)
        free(s->blocks[i]);
}

/* A unit direction from the input: axis-aligned, along or across capsule k's axis, or any. */
static void direction(gen *g, float ax, float ay, float bx, float by, float *dx, float *dy) {
    const uint8_t m = byte(&g->b) % 6;
    float x, y;
    switch (m) {
    case 0:
        x = 1.0f, y = 0.0f;
        break;
    case 1:
        x = 0.0f, y = -1.0f;
        break;
    case 2:
        x = bx - ax, y = by - ay;
        break; /* along the axis */
    case 3:
        x = -(by - ay), y = bx - ax;
        break; /* across it */
    default:
        x = (float)(int8_t)byte(&g->b) + 0.5f;
        y = (float)(int8_t)byte(&g->b) + 0.5f;
        break;
    }
    const float len = sqrtf(x * x + y * y);
    if (!(len > 0.0f) || !(len < INFINITY)) {
        x = 0.0f, y = 1.0f;
    } else {
        x /= len, y /= len;
    }
    *dx = x, *dy = y;
}

static void make_scene(scene *s, const uint8_t *data, size_t size) {
    memset(s, 0, sizeof *s);
    uint64_t seed = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < size; i++)
        seed = (seed ^ data[i]) * UINT64_C(0x100000001b3);
    gen g = {{data, size, seed}, 1.0f, 0.0f, {0}, 0};
    for (int i = 0; i < 16; i++)
        g.hist[i] = specials[i % 8];

    const uint8_t h0 = byte(&g.b), h1 = byte(&g.b), h2 = byte(&g.b), h3 = byte(&g.b);
    /* mostly small scenes (fast executions); 1 in 8 with many circles, 1 in 32 with more
     * capsules, 1 in 256 with enough capsules to cross the sweep kernel's 256-capsule chunk */
    s->nc = h0 >= 0xe0 ? 20u + byte(&g.b) % (MAX_CIRCLES - 20u + 1) : h0 % 20u;
    s->nk = h1 == 0xff   ? 250u + byte(&g.b) % (MAX_CAPSULES - 250u + 1)
            : h1 >= 0xf8 ? 9 + byte(&g.b) % 24u
                         : h1 % 9u;
    /* bounded work per execution: at most about 1024 pairs, and 5 circles (one SSE2 vector
     * and a tail) beside the 256-capsule chunk */
    if (s->nk >= 250 && s->nc > 5) s->nc = 5;
    if (s->nk > 0 && s->nc * s->nk > 1024) s->nc = 1024 / s->nk;
    s->np = (h2 & 0x80) ? byte(&g.b) % (MAX_PAIRS + 1) : h2 % 24u;
    /* dense inputs (1 in 4): most circles placed against a capsule, and the pairs listed in
     * runs as a broad phase emits them (one capsule, consecutive circles), which the kernels
     * read without gathers and where most lanes hit */
    const bool dense = (h2 & 0xc0) == 0xc0;
    g.scale = scales[h3 % N_SCALES];
    const uint8_t off = byte(&g.b);
    g.offset = off < 160 ? 0.0f : g.scale * (float)(1u << (off % 24)) * (float)(off & 7);
    const uint8_t shifts = byte(&g.b);
    s->collide_capacity_mode = byte(&g.b);
    s->pairs_capacity_mode = byte(&g.b);
    s->capacity_byte = byte(&g.b);

    s->x = exact_array(s, s->nc, sizeof(float), shifts & 3);
    s->y = exact_array(s, s->nc, sizeof(float), (shifts >> 1) & 3);
    s->r = exact_array(s, s->nc, sizeof(float), (shifts >> 2) & 3);
    s->mx = exact_array(s, s->nc, sizeof(float), (shifts >> 3) & 3);
    s->my = exact_array(s, s->nc, sizeof(float), (shifts >> 4) & 3);
    s->ax = exact_array(s, s->nk, sizeof(float), (shifts >> 5) & 3);
    s->ay = exact_array(s, s->nk, sizeof(float), (shifts >> 6) & 3);
    s->bx = exact_array(s, s->nk, sizeof(float), shifts & 1);
    s->by = exact_array(s, s->nk, sizeof(float), (shifts >> 2) & 1);
    s->R = exact_array(s, s->nk, sizeof(float), (shifts >> 4) & 1);
    s->ci = exact_array(s, s->np, sizeof(uint32_t), (shifts >> 5) & 1);
    s->ki = exact_array(s, s->np, sizeof(uint32_t), (shifts >> 6) & 1);

    for (size_t k = 0; k < s->nk; k++) {
        s->ax[k] = value(&g, COORD);
        s->ay[k] = value(&g, COORD);
        const uint8_t shape = byte(&g.b) % 8;
        if (shape == 0) { /* zero length */
            s->bx[k] = s->ax[k], s->by[k] = s->ay[k];
        } else if (shape == 1) { /* a few ulps long */
            s->bx[k] = ulp_step(s->ax[k], (int8_t)byte(&g.b) % 4);
            s->by[k] = ulp_step(s->ay[k], (int8_t)byte(&g.b) % 4);
        } else if (shape <= 4) { /* a + direction * length */
            float dx, dy;
            direction(&g, 0.0f, 0.0f, 1.0f, 0.0f, &dx, &dy);
            const float len = fabsf(plain_value(&g, MOVE)) * 2.0f;
            s->bx[k] = s->ax[k] + dx * len, s->by[k] = s->ay[k] + dy * len;
        } else {
            s->bx[k] = value(&g, COORD);
            s->by[k] = value(&g, COORD);
        }
        s->R[k] = value(&g, RADIUS);
    }

    for (size_t i = 0; i < s->nc; i++) {
        s->r[i] = value(&g, RADIUS);
        const uint8_t place = byte(&g.b);
        if (s->nk > 0 && place < (dense ? 230 : 100)) {
            /* placed against capsule k: at axis parameter t, in a direction, at distance r+R
             * moved a few ulps, or at another simple distance */
            const size_t k = byte(&g.b) % s->nk;
            const float ax = s->ax[k], ay = s->ay[k], bx = s->bx[k], by = s->by[k];
            const uint8_t tm = byte(&g.b);
            const float t = tm < 64 ? 0.0f : tm < 128 ? 1.0f : (float)(tm - 128) / 127.0f;
            float dx, dy;
            direction(&g, ax, ay, bx, by, &dx, &dy);
            const float rs = s->r[i] + s->R[k];
            const uint8_t dm = byte(&g.b) % 4;
            float dist = dm == 0   ? ulp_step(rs, (int8_t)byte(&g.b) % 3)
                         : dm == 1 ? 0.0f
                         : dm == 2 ? rs * ((float)byte(&g.b) / 128.0f)
                                   : rs + plain_value(&g, RADIUS);
            float px = ax + t * (bx - ax) + dx * dist, py = ay + t * (by - ay) + dy * dist;
            s->x[i] = remember(&g, ulp_step(px, (int8_t)byte(&g.b) % 2));
            s->y[i] = remember(&g, ulp_step(py, (int8_t)byte(&g.b) % 2));
            /* a move straight back in (by the gap plus a bit), across (grazing), or any */
            const uint8_t mm = byte(&g.b) % 4;
            const float len = (dist - rs) + fabsf(plain_value(&g, MOVE));
            if (mm == 0) {
                s->mx[i] = -dx * len, s->my[i] = -dy * len;
            } else if (mm == 1) {
                s->mx[i] = -dy * len, s->my[i] = dx * len;
            } else {
                s->mx[i] = value(&g, MOVE), s->my[i] = value(&g, MOVE);
            }
        } else {
            s->x[i] = value(&g, COORD);
            s->y[i] = value(&g, COORD);
            s->mx[i] = value(&g, MOVE);
            s->my[i] = value(&g, MOVE);
        }
    }

    size_t run_left = 0;
    uint32_t run_circle = 0, run_capsule = 0;
    for (size_t p = 0; p < s->np; p++) {
        if (dense && s->nc > 0 && s->nk > 0) {
            if (run_left == 0) { /* a new run: its length, capsule and first circle */
                run_left = 1u + byte(&g.b) % 40u;
                run_capsule = byte(&g.b) % (uint32_t)s->nk;
                run_circle = byte(&g.b) % (uint32_t)s->nc;
            }
            run_left--;
            s->ci[p] = run_circle;
            s->ki[p] = run_capsule;
            run_circle = run_circle + 1 < s->nc ? run_circle + 1 : 0;
            continue;
        }
        const uint8_t m = byte(&g.b);
        /* mostly in range; sometimes one past the end or far out (C2D_ERROR_INDEX) */
        s->ci[p] = m == 255 ? (uint32_t)s->nc + byte(&g.b) % 2 * 0xfffffu
                   : s->nc  ? byte(&g.b) % (uint32_t)s->nc
                            : 0;
        const uint8_t n = byte(&g.b);
        s->ki[p] = n == 255 ? (byte(&g.b) & 1 ? UINT32_MAX : (uint32_t)s->nk)
                   : s->nk  ? byte(&g.b) % (uint32_t)s->nk
                            : 0;
    }
}

/* ---- reporting --------------------------------------------------------------------------- */

static void print_circle(const scene *s, size_t i) {
    fprintf(stderr, "  circle %zu: x=%a y=%a r=%a move=(%a, %a)\n", i, (double)s->x[i],
            (double)s->y[i], (double)s->r[i], (double)s->mx[i], (double)s->my[i]);
}

static void print_capsule(const scene *s, size_t k) {
    fprintf(stderr, "  capsule %zu: a=(%a, %a) b=(%a, %a) R=%a\n", k, (double)s->ax[k],
            (double)s->ay[k], (double)s->bx[k], (double)s->by[k], (double)s->R[k]);
}

static void print_toi(const char *label, const c2d_circle_toi *o) {
    fprintf(stderr, "  %s: capsule=%u t=%a n=(%a, %a) p=(%a, %a)\n", label, (unsigned)o->capsule,
            (double)o->toi.t, (double)o->toi.normal.x, (double)o->toi.normal.y,
            (double)o->toi.point.x, (double)o->toi.point.y);
}

static void print_pair(const char *label, const c2d_pair_contact *o) {
    fprintf(stderr, "  %s: circle=%u capsule=%u n=(%a, %a) depth=%a p=(%a, %a)\n", label,
            (unsigned)o->circle, (unsigned)o->capsule, (double)o->contact.normal.x,
            (double)o->contact.normal.y, (double)o->contact.depth, (double)o->contact.point.x,
            (double)o->contact.point.y);
}

/* The pair check_scalar_pair() is looking at, printed by fail(). */
static const struct scene *pair_scene;
static size_t pair_circle, pair_capsule;

static void fail(const char *what, const char *detail) {
    if (pair_scene) {
        print_circle(pair_scene, pair_circle);
        print_capsule(pair_scene, pair_capsule);
    }
    fprintf(stderr, "c2d fuzz: %s (%s)\n", what, detail);
    abort();
}

/* ---- the contract of one scalar result --------------------------------------------------- */

static bool is_nan(float v) {
    return v != v;
}
static bool finite(float v) {
    return v - v == 0.0f;
}

static bool unit(c2d_vec2 n) {
    const double len = sqrt((double)n.x * n.x + (double)n.y * n.y);
    return fabs(len - 1.0) < 1e-5;
}

static const unsigned char CANARY_BYTE = 0xa5;

static bool untouched(const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != CANARY_BYTE) return false;
    return true;
}

static c2d_circle circle_at(const scene *s, size_t i) {
    const c2d_circle c = {{s->x[i], s->y[i]}, s->r[i]};
    return c;
}

static c2d_capsule capsule_at(const scene *s, size_t k) {
    const c2d_capsule c = {{s->ax[k], s->ay[k]}, {s->bx[k], s->by[k]}, s->R[k]};
    return c;
}

/* Checks a contact query's result against the contract; r and R are the two radii, `values`
 * every coordinate and radius that went in. */
static void check_contact(bool hit, const c2d_contact *c, float r, float R, const float *values,
                          size_t n_values, const char *query) {
    bool any_nan = r != r || R != R, all_finite = true;
    for (size_t v = 0; v < n_values; v++) {
        any_nan |= is_nan(values[v]);
        all_finite &= finite(values[v]);
    }
    if (!hit) {
        if (!untouched(c, sizeof *c)) fail(query, "scalar layer: out written without a hit");
        return;
    }
    if (any_nan) fail(query, "scalar layer: NaN input gave a hit");
    if (r < 0.0f || R < 0.0f) fail(query, "scalar layer: negative radius gave a hit");
    if (is_nan(c->normal.x) || is_nan(c->normal.y)) fail(query, "scalar layer: NaN normal");
    if (!(c->depth >= 0.0f)) fail(query, "scalar layer: depth negative or NaN");
    if (!(c->depth <= r + R)) fail(query, "scalar layer: depth above the radius sum");
    if (all_finite && !unit(c->normal))
        fail(query, "scalar layer: normal not unit for finite input");
}

/* As check_contact for a sweep; `moves` are the motion's components. */
static void check_toi(bool hit, const c2d_toi *t, float r, float R, const float *values,
                      size_t n_values, const float *moves, size_t n_moves, const char *query) {
    bool any_nan = r != r || R != R, all_finite = true;
    for (size_t v = 0; v < n_values; v++) {
        any_nan |= is_nan(values[v]);
        all_finite &= finite(values[v]);
    }
    for (size_t v = 0; v < n_moves; v++) {
        any_nan |= is_nan(moves[v]);
        all_finite &= finite(moves[v]);
    }
    if (!hit) {
        if (!untouched(t, sizeof *t)) fail(query, "scalar layer: out written without a hit");
        return;
    }
    if (any_nan) fail(query, "scalar layer: NaN position, move or radius gave a hit");
    if (r < 0.0f || R < 0.0f) fail(query, "scalar layer: negative radius gave a hit");
    if (!(t->t >= 0.0f && t->t <= 1.0f)) fail(query, "scalar layer: t outside [0, 1]");
    if (is_nan(t->normal.x) || is_nan(t->normal.y)) fail(query, "scalar layer: NaN normal");
    if (all_finite && !unit(t->normal))
        fail(query, "scalar layer: normal not unit for finite input");
}

/* Every scalar query on circle i and capsule k (and, when `all`, on the circle and segment
 * made from k). */
static void check_scalar_pair(const scene *s, size_t i, size_t k, bool all, c2d_contact *contact,
                              bool *hit, c2d_toi *toi, bool *swept) {
    pair_scene = s, pair_circle = i, pair_capsule = k;
    const c2d_circle c = circle_at(s, i);
    const c2d_capsule cap = capsule_at(s, k);
    const c2d_vec2 move = {s->mx[i], s->my[i]};
    const float values[] = {c.center.x, c.center.y, cap.a.x, cap.a.y, cap.b.x, cap.b.y};
    const float moves[] = {move.x, move.y};

    memset(contact, CANARY_BYTE, sizeof *contact);
    *hit = c2d_collide_circle_capsule(c, cap, contact);
    check_contact(*hit, contact, c.radius, cap.radius, values, 6, "collide_circle_capsule");
    if (c2d_overlap_circle_capsule(c, cap) != *hit)
        fail("overlap_circle_capsule disagrees with collide_circle_capsule", "scalar");
    if (c2d_collide_circle_capsule(c, cap, NULL) != *hit)
        fail("collide_circle_capsule(out = NULL) disagrees", "scalar");

    memset(toi, CANARY_BYTE, sizeof *toi);
    *swept = c2d_sweep_circle_capsule(c, move, cap, toi);
    check_toi(*swept, toi, c.radius, cap.radius, values, 6, moves, 2, "sweep_circle_capsule");
    if (!all) {
        pair_scene = NULL;
        return;
    }
    if (c2d_sweep_circle_capsule(c, move, cap, NULL) != *swept)
        fail("sweep_circle_capsule(out = NULL) disagrees", "scalar");

    /* the segment a-b: the capsule with R = 0 */
    const c2d_segment seg = {cap.a, cap.b};
    const c2d_capsule thin = {cap.a, cap.b, 0.0f};
    c2d_contact cs, ck;
    memset(&cs, CANARY_BYTE, sizeof cs);
    memset(&ck, CANARY_BYTE, sizeof ck);
    const bool hs = c2d_collide_circle_segment(c, seg, &cs);
    const bool hk = c2d_collide_circle_capsule(c, thin, &ck);
    check_contact(hs, &cs, c.radius, 0.0f, values, 6, "collide_circle_segment");
    if (hs != hk || (hs && !same_contact(&cs, &ck)) || hs != c2d_overlap_circle_segment(c, seg))
        fail("collide_circle_segment differs from the capsule with R = 0", "scalar");

    /* the circle (a, R): a zero-length capsule */
    const c2d_circle other = {cap.a, cap.radius};
    const c2d_capsule dot = {cap.a, cap.a, cap.radius};
    memset(&cs, CANARY_BYTE, sizeof cs);
    memset(&ck, CANARY_BYTE, sizeof ck);
    const bool hc = c2d_collide_circles(c, other, &cs);
    const bool hd = c2d_collide_circle_capsule(c, dot, &ck);
    check_contact(hc, &cs, c.radius, cap.radius, values, 4, "collide_circles");
    if (hc != hd || (hc && !same_contact(&cs, &ck)) || hc != c2d_overlap_circles(c, other))
        fail("collide_circles differs from the zero-length capsule", "scalar");

    /* point in capsule: the circle of radius 0 */
    const c2d_circle point = {c.center, 0.0f};
    if (c2d_point_in_capsule(c.center, cap) != c2d_overlap_circle_capsule(point, cap))
        fail("point_in_capsule differs from the circle of radius 0", "scalar");

    /* the closest point lies on the segment's bounding box for finite input */
    const c2d_vec2 q = c2d_closest_point_on_segment(c.center, seg);
    bool all_finite = true;
    for (size_t v = 0; v < 6; v++)
        all_finite &= finite(values[v]);
    if (all_finite && finite(cap.b.x - cap.a.x) && finite(cap.b.y - cap.a.y)) {
        const float lox = fminf(cap.a.x, cap.b.x), hix = fmaxf(cap.a.x, cap.b.x);
        const float loy = fminf(cap.a.y, cap.b.y), hiy = fmaxf(cap.a.y, cap.b.y);
        const float slack_x = 0x1p-22f * fmaxf(fabsf(lox), fabsf(hix)) + 0x1p-149f;
        const float slack_y = 0x1p-22f * fmaxf(fabsf(loy), fabsf(hiy)) + 0x1p-149f;
        if (!(q.x >= lox - slack_x && q.x <= hix + slack_x && q.y >= loy - slack_y &&
              q.y <= hiy + slack_y))
            fail("closest_point_on_segment off the segment", "scalar");
    }

    /* two moving circles: circle i by its move, the circle (a, R) by b - a */
    const c2d_vec2 move_b = {cap.b.x - cap.a.x, cap.b.y - cap.a.y};
    const float moves2[] = {move.x, move.y, move_b.x, move_b.y};
    c2d_toi t2;
    memset(&t2, CANARY_BYTE, sizeof t2);
    const bool h2 = c2d_sweep_circles(c, move, other, move_b, &t2);
    check_toi(h2, &t2, c.radius, cap.radius, values, 4, moves2, 4, "sweep_circles");
    pair_scene = NULL;
}

/* ---- the checks -------------------------------------------------------------------------- */

typedef struct reference {
    c2d_pair_contact *collide; /* capsule-major, all hits */
    size_t total;
    c2d_pair_contact *pairs; /* listed pairs, input order */
    size_t pairs_total;
    bool pairs_in_range;
    c2d_circle_toi *sweep; /* earliest per circle */
    /* per-pair scalar results, [k * nc + i] */
    bool *hit, *swept;
    c2d_contact *contact;
    c2d_toi *toi;
} reference;

static size_t choose_capacity(uint8_t mode, uint8_t b, size_t total, bool *null_out) {
    *null_out = false;
    switch (mode % 8) {
    case 0:
        *null_out = true;
        return 0;
    case 1:
        return 0;
    case 2:
        return total;
    case 3:
        return total > 0 ? total - 1 : 0;
    case 4:
        return total + 1;
    case 5:
        return b % (total + 2);
    case 6:
        return total / 2;
    default:
        return b % 8u;
    }
}

static void check_collide(const scene *s, const c2d_circle_soa *cs, const c2d_capsule_soa *ks,
                          const reference *ref, const char *backend) {
    bool null_out;
    const size_t cap =
        choose_capacity(s->collide_capacity_mode, s->capacity_byte, ref->total, &null_out);
    c2d_pair_contact *out = null_out ? NULL : malloc((cap + CANARY) * sizeof *out);
    if (!null_out && !out) abort();
    if (out) memset(out, CANARY_BYTE, (cap + CANARY) * sizeof *out);
    size_t count = 12345;
    const c2d_status st = c2d_batch_collide(cs, ks, out, cap, &count);
    /* a size query (no output, capacity 0) is C2D_OK with the total */
    const c2d_status want = ref->total > cap && out ? C2D_ERROR_TRUNCATED : C2D_OK;
    if (st != want || count != ref->total) {
        fprintf(stderr, "  status %d (want %d), count %zu (want %zu), capacity %zu\n", (int)st,
                (int)want, count, ref->total, cap);
        fail("batch_collide: status or count", backend);
    }
    const size_t written = ref->total < cap ? ref->total : cap;
    for (size_t n = 0; n < written; n++)
        if (!same_pair(&out[n], &ref->collide[n])) {
            print_pair("got ", &out[n]);
            print_pair("want", &ref->collide[n]);
            print_circle(s, ref->collide[n].circle);
            print_capsule(s, ref->collide[n].capsule);
            fail("batch_collide: contact differs from the scalar loop", backend);
        }
    if (out && !untouched(out + written, (cap + CANARY - written) * sizeof *out))
        fail("batch_collide: wrote past min(total, capacity)", backend);
    free(out);
}

static void check_pairs(const scene *s, const c2d_circle_soa *cs, const c2d_capsule_soa *ks,
                        const reference *ref, const char *backend) {
    bool null_out;
    const size_t cap =
        choose_capacity(s->pairs_capacity_mode, s->capacity_byte, ref->pairs_total, &null_out);
    c2d_pair_contact *out = null_out ? NULL : malloc((cap + CANARY) * sizeof *out);
    if (!null_out && !out) abort();
    if (out) memset(out, CANARY_BYTE, (cap + CANARY) * sizeof *out);
    size_t count = 12345;
    const c2d_status st = c2d_batch_collide_pairs(cs, ks, s->ci, s->ki, s->np, out, cap, &count);
    if (!ref->pairs_in_range) {
        if (st != C2D_ERROR_INDEX || count != 0)
            fail("batch_collide_pairs: out-of-range index not reported", backend);
        if (out && !untouched(out, (cap + CANARY) * sizeof *out))
            fail("batch_collide_pairs: wrote output on C2D_ERROR_INDEX", backend);
        free(out);
        return;
    }
    const c2d_status want = ref->pairs_total > cap && out ? C2D_ERROR_TRUNCATED : C2D_OK;
    if (st != want || count != ref->pairs_total)
        fail("batch_collide_pairs: status or count", backend);
    const size_t written = ref->pairs_total < cap ? ref->pairs_total : cap;
    for (size_t n = 0; n < written; n++)
        if (!same_pair(&out[n], &ref->pairs[n])) {
            print_pair("got ", &out[n]);
            print_pair("want", &ref->pairs[n]);
            print_circle(s, ref->pairs[n].circle);
            print_capsule(s, ref->pairs[n].capsule);
            fail("batch_collide_pairs: contact differs from the scalar loop", backend);
        }
    if (out && !untouched(out + written, (cap + CANARY - written) * sizeof *out))
        fail("batch_collide_pairs: wrote past min(total, capacity)", backend);
    free(out);
}

static void check_sweep(const scene *s, const c2d_circle_soa *cs, const c2d_capsule_soa *ks,
                        const reference *ref, const char *backend) {
    c2d_circle_toi *out = malloc((s->nc + CANARY) * sizeof *out);
    if (!out) abort();
    memset(out, CANARY_BYTE, (s->nc + CANARY) * sizeof *out);
    const c2d_status st = c2d_batch_sweep(cs, s->mx, s->my, ks, out);
    if (st != C2D_OK) fail("batch_sweep: status", backend);
    for (size_t i = 0; i < s->nc; i++) {
        if (same_circle_toi(&out[i], &ref->sweep[i])) continue;
        print_toi("got ", &out[i]);
        print_toi("want", &ref->sweep[i]);
        print_circle(s, i);
        if (ref->sweep[i].capsule < s->nk) print_capsule(s, ref->sweep[i].capsule);
        if (out[i].capsule < s->nk && out[i].capsule != ref->sweep[i].capsule)
            print_capsule(s, out[i].capsule);
        fail("batch_sweep: result differs from the scalar loop", backend);
    }
    if (!untouched(out + s->nc, CANARY * sizeof *out))
        fail("batch_sweep: wrote past circles->count", backend);
    free(out);
}

/* Scenes (collide2d/scene.h): c2d_scene_collide and c2d_scene_sweep equal the scalar loop,
 * with the collide capacity rules, and a frame binned in two parts and collided in two capsule
 * ranges concatenates to the same contacts. */
static void check_scene(const scene *s, const c2d_capsule_soa *ks, const c2d_circle_soa *cs,
                        const reference *ref, const char *backend) {
    c2d_scene *sc;
    if (c2d_scene_create(ks, NULL, &sc) != C2D_OK) fail("scene_create", backend);
    bool null_out;
    const size_t cap =
        choose_capacity(s->collide_capacity_mode, s->capacity_byte, ref->total, &null_out);
    c2d_pair_contact *out = malloc((ref->total + cap + CANARY) * sizeof *out);
    if (!out) abort();
    memset(out, CANARY_BYTE, (ref->total + cap + CANARY) * sizeof *out);
    size_t count = 12345;
    c2d_status st = c2d_scene_collide(sc, cs, null_out ? NULL : out, cap, &count);
    const c2d_status want =
        ref->total > cap && !null_out ? C2D_ERROR_TRUNCATED : C2D_OK; /* NULL: a size query */
    if (st != want || count != ref->total) fail("scene_collide: status or count", backend);
    const size_t written = null_out ? 0 : ref->total < cap ? ref->total : cap;
    for (size_t n = 0; n < written; n++)
        if (!same_pair(&out[n], &ref->collide[n])) {
            print_pair("got ", &out[n]);
            print_pair("want", &ref->collide[n]);
            fail("scene_collide: contact differs from the scalar loop", backend);
        }
    if (!untouched(out + written, (cap + CANARY - written) * sizeof *out))
        fail("scene_collide: wrote past min(total, capacity)", backend);
    /* two parts, two ranges */
    const size_t split = s->nk / 2;
    size_t first_count = 0, second_count = 0;
    if (c2d_scene_bin_begin(sc, cs, 2) != C2D_OK || c2d_scene_bin_part(sc, 1) != C2D_OK ||
        c2d_scene_bin_part(sc, 0) != C2D_OK || c2d_scene_bin_end(sc) != C2D_OK)
        fail("scene_bin parts", backend);
    st = c2d_scene_collide_range(sc, cs, 0, split, out, ref->total + cap, &first_count);
    if (st != C2D_OK) fail("scene_collide_range: status", backend);
    st = c2d_scene_collide_range(sc, cs, split, s->nk - split, out + first_count,
                                 ref->total + cap - first_count, &second_count);
    if (st != C2D_OK || first_count + second_count != ref->total)
        fail("scene_collide_range: status or count", backend);
    for (size_t n = 0; n < ref->total; n++)
        if (!same_pair(&out[n], &ref->collide[n])) fail("scene_collide_range: contact", backend);
    /* the frame protocol: no second end; a capsule move (even in place) makes the frame stale */
    if (c2d_scene_bin_end(sc) != C2D_ERROR_STATE) fail("scene_bin_end twice: status", backend);
    if (s->nk > 0) {
        const c2d_capsule_soa first = {ks->ax, ks->ay, ks->bx, ks->by, ks->radius,
                                       1,      NULL,   NULL,   NULL};
        if (c2d_scene_move_capsules(sc, 0, &first) != C2D_OK) fail("scene_move_capsules", backend);
        first_count = 12345;
        st = c2d_scene_collide_range(sc, cs, 0, s->nk, out, ref->total + cap, &first_count);
        if (st != C2D_ERROR_STATE || first_count != 0)
            fail("scene_collide_range after a move: status or count", backend);
    }
    free(out);
    c2d_circle_toi *toi = malloc((s->nc + CANARY) * sizeof *toi);
    if (!toi) abort();
    /* twice: the second sweep of the capsules' generation builds the sweep index and uses it */
    for (int round = 0; round < 2; round++) {
        memset(toi, CANARY_BYTE, (s->nc + CANARY) * sizeof *toi);
        if (c2d_scene_sweep(sc, cs, s->mx, s->my, toi) != C2D_OK)
            fail("scene_sweep: status", backend);
        for (size_t i = 0; i < s->nc; i++)
            if (!same_circle_toi(&toi[i], &ref->sweep[i])) {
                print_toi("got ", &toi[i]);
                print_toi("want", &ref->sweep[i]);
                print_circle(s, i);
                fail(round ? "scene_sweep (sweep index): result differs from the scalar loop"
                           : "scene_sweep: result differs from the scalar loop",
                     backend);
            }
        if (!untouched(toi + s->nc, CANARY * sizeof *toi))
            fail("scene_sweep: wrote past circles->count", backend);
    }
    free(toi);
    c2d_scene_destroy(sc);
}

/* Counts above UINT32_MAX are refused before anything is read; *count is set to 0. */
static void check_too_large(const scene *s, const c2d_circle_soa *cs, const c2d_capsule_soa *ks) {
#if SIZE_MAX > UINT32_MAX
    c2d_circle_soa big_c = *cs;
    c2d_capsule_soa big_k = *ks;
    big_c.count = (size_t)UINT32_MAX + 1;
    big_k.count = (size_t)UINT32_MAX + 1;
    size_t count = 7;
    c2d_pair_contact out[1];
    if (s->nc > 0 && c2d_batch_collide(&big_c, ks, out, 1, &count) != C2D_ERROR_TOO_LARGE)
        fail("batch_collide: count above UINT32_MAX accepted", "any");
    if (s->nk > 0 && c2d_batch_collide(cs, &big_k, out, 1, &count) != C2D_ERROR_TOO_LARGE)
        fail("batch_collide: count above UINT32_MAX accepted", "any");
    if (s->np > 0 && c2d_batch_collide_pairs(cs, ks, s->ci, s->ki, (size_t)UINT32_MAX + 1, out, 1,
                                             &count) != C2D_ERROR_TOO_LARGE)
        fail("batch_collide_pairs: pair_count above UINT32_MAX accepted", "any");
    if (count != ((s->nc > 0 || s->nk > 0 || s->np > 0) ? 0 : 7))
        fail("C2D_ERROR_TOO_LARGE did not set *count to 0", "any");
#else
    (void)s, (void)cs, (void)ks;
#endif
}

/* ---- validators ------------------------------------------------------------------------- */

static c2d_defect defect_of(float v, bool radius) {
    if (v != v) return C2D_DEFECT_NAN;
    if (v == INFINITY || v == -INFINITY) return C2D_DEFECT_INFINITE;
    if (radius && v < 0.0f) return C2D_DEFECT_NEGATIVE_RADIUS;
    if (v > C2D_MAX_MAGNITUDE || v < -C2D_MAX_MAGNITUDE) return C2D_DEFECT_HUGE;
    return C2D_DEFECT_NONE;
}

/* The first defect of n elements whose fields (the last one the radius) are listed. */
static c2d_validation first_defect(const float *const *fields, size_t n_fields, size_t n) {
    c2d_validation v = {C2D_DEFECT_NONE, 0};
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < n_fields; f++)
            if ((v.defect = defect_of(fields[f][i], f + 1 == n_fields)) != C2D_DEFECT_NONE) {
                v.index = i;
                return v;
            }
    return v;
}

/* The validators against a plain re-implementation; returns whether both sets are valid. */
static bool check_validators(const scene *s, const c2d_circle_soa *cs, const c2d_capsule_soa *ks) {
    const float *const cf[] = {s->x, s->y, s->r};
    const float *const kf[] = {s->ax, s->ay, s->bx, s->by, s->R};
    const c2d_validation wc = first_defect(cf, 3, s->nc), wk = first_defect(kf, 5, s->nk);
    const c2d_validation gc = c2d_validate_circles(cs), gk = c2d_validate_capsules(ks);
    if (gc.defect != wc.defect || gc.index != wc.index || gk.defect != wk.defect ||
        gk.index != wk.index) {
        fprintf(stderr,
                "  circles: got %d at %zu, want %d at %zu; capsules: got %d at %zu, "
                "want %d at %zu\n",
                (int)gc.defect, gc.index, (int)wc.defect, wc.index, (int)gk.defect, gk.index,
                (int)wk.defect, wk.index);
        fail("validate: first defect differs from a plain scan", "scalar");
    }
    return wc.defect == C2D_DEFECT_NONE && wk.defect == C2D_DEFECT_NONE;
}

/* Valid input (validate.h) keeps every contact finite, and every time of impact finite when the
 * moves are within C2D_MAX_MAGNITUDE too. */
static void check_valid_results(const scene *s, const reference *ref) {
    for (size_t n = 0; n < ref->total; n++) {
        const c2d_contact *c = &ref->collide[n].contact;
        if (!finite(c->depth) || !finite(c->point.x) || !finite(c->point.y)) {
            print_pair("contact", &ref->collide[n]);
            fail("valid input gave a non-finite contact", "scalar");
        }
    }
    for (size_t i = 0; i < s->nc; i++) {
        if (defect_of(s->mx[i], false) != C2D_DEFECT_NONE ||
            defect_of(s->my[i], false) != C2D_DEFECT_NONE || ref->sweep[i].capsule == C2D_NONE)
            continue;
        const c2d_toi *t = &ref->sweep[i].toi;
        if (!finite(t->point.x) || !finite(t->point.y)) {
            print_toi("toi", &ref->sweep[i]);
            print_circle(s, i);
            fail("valid input gave a non-finite time-of-impact point", "scalar");
        }
    }
}

#include "fuzz_balls.h"
#include "fuzz_response.h"
#include "fuzz_moving.h"
#include "fuzz_advance.h"
#include "fuzz_filter_scene.h"
#include "fuzz_search.h"
#include "fuzz_frozen.h"
#include "fuzz_filter_batch.h"
#include "fuzz_filter_balls.h"
#include "fuzz_world.h"

static bool initialised;
static c2d_backend backends[C2D_BACKEND_COUNT];
static size_t n_backends;

static void init(void) {
    if (initialised) return;
    initialised = true;
    /* the scalar backend first: it is the reference for the others */
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++)
        if (c2d_backend_available((c2d_backend)b)) backends[n_backends++] = (c2d_backend)b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    init();
    scene s;
    make_scene(&s, data, size);
    const c2d_circle_soa cs = {s.x, s.y, s.r, s.nc, NULL, NULL};
    const c2d_capsule_soa ks = {s.ax, s.ay, s.bx, s.by, s.R, s.nk, NULL, NULL, NULL};

    /* the reference: the public scalar functions in plain loops */
    const size_t n_pairs_all = s.nc * s.nk;
    reference ref = {0};
    ref.collide = malloc((n_pairs_all + 1) * sizeof *ref.collide);
    ref.pairs = malloc((s.np + 1) * sizeof *ref.pairs);
    ref.sweep = malloc((s.nc + 1) * sizeof *ref.sweep);
    ref.hit = malloc(n_pairs_all + 1);
    ref.swept = malloc(n_pairs_all + 1);
    ref.contact = malloc((n_pairs_all + 1) * sizeof *ref.contact);
    ref.toi = malloc((n_pairs_all + 1) * sizeof *ref.toi);
    if (!ref.collide || !ref.pairs || !ref.sweep || !ref.hit || !ref.swept || !ref.contact ||
        !ref.toi)
        abort();
    for (size_t i = 0; i < s.nc; i++) {
        ref.sweep[i].capsule = C2D_NONE;
        memset(&ref.sweep[i].toi, 0, sizeof ref.sweep[i].toi);
    }
    for (size_t k = 0; k < s.nk; k++)
        for (size_t i = 0; i < s.nc; i++) {
            const size_t at = k * s.nc + i;
            /* every query on the first pairs, the batch calls' own queries on the rest */
            check_scalar_pair(&s, i, k, at < 256, &ref.contact[at], &ref.hit[at], &ref.toi[at],
                              &ref.swept[at]);
            if (ref.hit[at]) {
                c2d_pair_contact *p = &ref.collide[ref.total++];
                p->circle = (uint32_t)i;
                p->capsule = (uint32_t)k;
                p->contact = ref.contact[at];
            }
            if (ref.swept[at] &&
                (ref.sweep[i].capsule == C2D_NONE || ref.toi[at].t < ref.sweep[i].toi.t)) {
                ref.sweep[i].capsule = (uint32_t)k;
                ref.sweep[i].toi = ref.toi[at];
            }
        }
    ref.pairs_in_range = true;
    for (size_t p = 0; p < s.np; p++)
        ref.pairs_in_range &= s.ci[p] < s.nc && s.ki[p] < s.nk;
    if (ref.pairs_in_range)
        for (size_t p = 0; p < s.np; p++) {
            const size_t at = (size_t)s.ki[p] * s.nc + s.ci[p];
            if (ref.hit[at]) {
                c2d_pair_contact *q = &ref.pairs[ref.pairs_total++];
                q->circle = s.ci[p];
                q->capsule = s.ki[p];
                q->contact = ref.contact[at];
            }
        }

    if (check_validators(&s, &cs, &ks)) check_valid_results(&s, &ref);

    for (size_t b = 0; b < n_backends; b++) {
        if (c2d_backend_select(backends[b]) != C2D_OK || c2d_backend_active() != backends[b])
            fail("backend_select", c2d_backend_name(backends[b]));
        const char *name = c2d_backend_name(backends[b]);
        check_collide(&s, &cs, &ks, &ref, name);
        check_pairs(&s, &cs, &ks, &ref, name);
        check_sweep(&s, &cs, &ks, &ref, name);
        check_scene(&s, &ks, &cs, &ref, name);
    }
    check_too_large(&s, &cs, &ks);
    fuzz_balls(&s, &cs, backends, n_backends);
    fuzz_response(&s, &ref);
    fuzz_moving(&s, &cs, &ks, &ref, backends, n_backends);
    fuzz_advance(&s, &cs, &ks, backends, n_backends);
    fuzz_filter_scene(&s, &cs, &ks, &ref, backends, n_backends);
    fuzz_search(&s, &cs, &ks, backends, n_backends);
    fuzz_frozen(&s, backends, n_backends);
    fuzz_world(&s, backends, n_backends);
    fuzz_filter_batch(&s, &cs, &ks, &ref, backends, n_backends);
    fuzz_filter_balls(&s, backends, n_backends);

    free(ref.collide);
    free(ref.pairs);
    free(ref.sweep);
    free(ref.hit);
    free(ref.swept);
    free(ref.contact);
    free(ref.toi);
    scene_free(&s);
    return 0;
}
