/* The frozen sweep's cull (src/balls/frozen_sweep_test.h): c2d_scene_sweep_frozen against the
 * plain exact formula, c2d_sweep_circles(awake ball, its move, frozen ball, (0, 0)) for every
 * frozen ball, the earliest hit kept (ties to the lowest id), byte for byte. Adversarial cases
 * for the cull's classes: balls exactly touching, moves exactly tangential, zero and tiny
 * moves, moves apart by tiny amounts, deep overlaps and shared centres, ties at t = 0 and at
 * t > 0 with ids in every order, large coordinates and tiny radii, more maybes than the sweep
 * keeps, values beyond the tame range, filter words, random piles with random moves; then the
 * identity with the all-awake c2d_batch_sweep_circles (frozen_check.c) on a few piles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "frozen_check.h"

enum { CAP = 16384 };

/* Frozen balls (x, y, r, id, filter words) and awake balls (x, y, r, move, id, words). */
typedef struct sweep_case {
    size_t nf, na;
    float fx[CAP], fy[CAP], fr[CAP];
    uint32_t fid[CAP], fcat[CAP], fmask[CAP];
    float ax[CAP], ay[CAP], ar[CAP], amx[CAP], amy[CAP];
    uint32_t aid[CAP], acat[CAP], amask[CAP];
    bool filtered;
} sweep_case;

static sweep_case *case_new(void) {
    sweep_case *c = calloc(1, sizeof *c);
    assert_non_null(c);
    return c;
}

static void add_frozen(sweep_case *c, float x, float y, float r, uint32_t id) {
    assert_true(c->nf < CAP);
    c->fx[c->nf] = x;
    c->fy[c->nf] = y;
    c->fr[c->nf] = r;
    c->fid[c->nf] = id;
    c->fcat[c->nf] = c->fmask[c->nf] = C2D_FILTER_ALL;
    c->nf++;
}

static void add_awake(sweep_case *c, float x, float y, float r, float mx, float my, uint32_t id) {
    assert_true(c->na < CAP);
    c->ax[c->na] = x;
    c->ay[c->na] = y;
    c->ar[c->na] = r;
    c->amx[c->na] = mx;
    c->amy[c->na] = my;
    c->aid[c->na] = id;
    c->acat[c->na] = c->amask[c->na] = C2D_FILTER_ALL;
    c->na++;
}

/* The reference hit of awake ball k: the plain formula against every frozen ball it meets. */
static c2d_circle_hit reference(const sweep_case *c, size_t k) {
    c2d_circle_hit want = {C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
    const c2d_circle me = {{c->ax[k], c->ay[k]}, c->ar[k]};
    const c2d_vec2 move = {c->amx[k], c->amy[k]}, still = {0.0f, 0.0f};
    for (size_t j = 0; j < c->nf; j++) {
        if (c->fid[j] == c->aid[k]) continue;
        if (c->filtered && !c2d_filter_allows(c->acat[k], c->amask[k], c->fcat[j], c->fmask[j]))
            continue;
        const c2d_circle f = {{c->fx[j], c->fy[j]}, c->fr[j]};
        c2d_toi toi;
        if (!c2d_sweep_circles(me, move, f, still, &toi)) continue;
        if (want.other == C2D_NONE || toi.t < want.toi.t ||
            (toi.t == want.toi.t && c->fid[j] < want.other)) {
            want.other = c->fid[j];
            want.toi = toi;
        }
    }
    return want;
}

/* c2d_scene_sweep_frozen over the case against the reference, each awake ball. Returns the
 * number of awake balls with a hit. */
static size_t check_case(const sweep_case *c, const char *label) {
    c2d_scene *scene = empty_scene();
    const c2d_circle_soa frozen = {
        c->fx, c->fy, c->fr, c->nf, c->filtered ? c->fcat : NULL, c->filtered ? c->fmask : NULL};
    assert_int_equal(c2d_scene_freeze_balls(scene, &frozen, c->fid), C2D_OK);
    const c2d_circle_soa awake = {
        c->ax, c->ay, c->ar, c->na, c->filtered ? c->acat : NULL, c->filtered ? c->amask : NULL};
    const c2d_move_soa moves = {c->amx, c->amy};
    c2d_circle_hit *got = malloc((c->na + 1) * sizeof *got);
    assert_non_null(got);
    assert_int_equal(c2d_scene_sweep_frozen(scene, &awake, c->aid, &moves, got), C2D_OK);
    size_t hits = 0;
    for (size_t k = 0; k < c->na; k++) {
        const c2d_circle_hit want = reference(c, k);
        if (!same_ball_hit(&got[k], &want))
            fprintf(stderr,
                    "# %s: awake %zu (%a, %a) r %a move (%a, %a): got %u t %a n (%a, %a), "
                    "want %u t %a n (%a, %a)\n",
                    label, k, (double)c->ax[k], (double)c->ay[k], (double)c->ar[k],
                    (double)c->amx[k], (double)c->amy[k], got[k].other, (double)got[k].toi.t,
                    (double)got[k].toi.normal.x, (double)got[k].toi.normal.y, want.other,
                    (double)want.toi.t, (double)want.toi.normal.x, (double)want.toi.normal.y);
        assert_true(same_ball_hit(&got[k], &want));
        hits += want.other != C2D_NONE;
    }
    free(got);
    c2d_scene_destroy(scene);
    return hits;
}

/* Moves of length `len` in many directions: the axes, the diagonals, 64 around the circle,
 * and each of those turned by a hair both ways. */
static size_t directions(float len, float *mx, float *my) {
    size_t n = 0;
    for (int k = 0; k < 64; k++) {
        const double a = 2.0 * 3.14159265358979323846 * k / 64.0;
        const float cx = (float)cos(a), sy = (float)sin(a);
        mx[n] = len * cx;
        my[n++] = len * sy;
        mx[n] = len * cx + len * 0x1p-20f * sy;
        my[n++] = len * sy - len * 0x1p-20f * cx;
        mx[n] = len * cx - len * 0x1p-20f * sy;
        my[n++] = len * sy + len * 0x1p-20f * cx;
    }
    return n;
}

/* One frozen ball exactly touching (and a hair inside and outside) awake balls that move into
 * it, away from it, exactly along it, a hair off tangential, by nothing, and by tiny amounts;
 * at the origin, at 2^14 (both signs) and at 2^20, with ordinary and tiny radii. */
static void touching(void **state) {
    (void)state;
    const float offsets[] = {0.0f, 16384.0f, -16384.0f, 1048576.0f};
    const float radii[] = {0.5f, 1e-3f, 1e-6f, 0.0f};
    const float lens[] = {0.1f, 1e-4f, 1e-12f, 1e-30f, 1e-44f, 0.0f};
    static float mx[256], my[256];
    for (size_t o = 0; o < 4; o++)
        for (size_t rr = 0; rr < 4; rr++) {
            sweep_case *c = case_new();
            const float ox = offsets[o], oy = -offsets[o] * 0.5f, r = radii[rr];
            add_frozen(c, ox, oy, r, 5);
            uint32_t id = 100;
            /* along the axes (the sum exact) and along a diagonal (rounded) */
            const float gaps[] = {2.0f * r, nextafterf(2.0f * r, 0.0f),
                                  nextafterf(2.0f * r, INFINITY), 2.0f * r * 0.999f};
            for (size_t g = 0; g < 4; g++)
                for (size_t l = 0; l < 6; l++) {
                    const size_t nd = directions(lens[l], mx, my);
                    for (size_t d = 0; d < nd; d++) {
                        if (c->na + 4 > CAP) break;
                        add_awake(c, ox + gaps[g], oy, r, mx[d], my[d], id++);
                        add_awake(c, ox, oy - gaps[g], r, mx[d], my[d], id++);
                        add_awake(c, ox + gaps[g] * 0.70710678f, oy + gaps[g] * 0.70710678f, r,
                                  mx[d], my[d], id++);
                    }
                }
            /* exactly tangential in both senses, and apart by a tiny amount */
            add_awake(c, ox + 2.0f * r, oy, r, 0.0f, 0.1f, id++);
            add_awake(c, ox + 2.0f * r, oy, r, -0.0f, -0.1f, id++);
            add_awake(c, ox + 2.0f * r, oy, r, 1e-30f, 0.1f, id++);
            add_awake(c, ox + 2.0f * r, oy, r, -1e-30f, 0.1f, id++);
            add_awake(c, ox + 2.0f * r, oy, r, 0x1p-149f, 0.0f, id++);
            add_awake(c, ox + 2.0f * r, oy, r, -0x1p-149f, 0.0f, id++);
            char label[80];
            snprintf(label, sizeof label, "touching, offset %g, r %g", (double)ox, (double)r);
            check_case(c, label);
            free(c);
        }
}

/* Deep overlaps: shared centres (the normal's fallback), half and nearly full overlaps, a small
 * ball inside a big one, with moves in every direction and none. */
static void overlapping(void **state) {
    (void)state;
    static float mx[256], my[256];
    const float offsets[] = {0.0f, 16384.0f};
    for (size_t o = 0; o < 2; o++) {
        sweep_case *c = case_new();
        const float ox = offsets[o], oy = offsets[o];
        add_frozen(c, ox, oy, 1.0f, 7);
        add_frozen(c, ox + 10.0f, oy, 2.0f, 3);
        const float at[][3] = {{0.0f, 0.0f, 1.0f},  {0.0f, 0.0f, 0.0f},  {0.5f, 0.0f, 1.0f},
                               {1.0f, 1.0f, 0.25f}, {0.0f, 1e-7f, 1.0f}, {10.0f, 0.0f, 0.1f},
                               {11.0f, 0.5f, 0.5f}, {1e-30f, 0.0f, 1.0f}};
        uint32_t id = 100;
        const float lens[] = {0.1f, 3.0f, 1e-20f, 0.0f};
        for (size_t a = 0; a < sizeof at / sizeof at[0]; a++)
            for (size_t l = 0; l < 4; l++) {
                const size_t nd = directions(lens[l], mx, my);
                for (size_t d = 0; d < nd; d++)
                    add_awake(c, ox + at[a][0], oy + at[a][1], at[a][2], mx[d], my[d], id++);
            }
        check_case(c, o ? "overlapping at 2^14" : "overlapping");
        free(c);
    }
}

/* Ties: a ring of frozen balls all overlapping the awake ball (sure partners at t = 0, the
 * lowest id wins), with a tangential or apart one of a lower id among them (a maybe at t = 0,
 * or no hit), ids in increasing, decreasing and scrambled order against the walk's; and two
 * frozen balls symmetric about the move, touched at the same t > 0. */
static void ties(void **state) {
    (void)state;
    const uint32_t orders[][6] = {
        {1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1}, {40, 7, 19, 3, 88, 12}, {3, 900, 2, 901, 1, 902}};
    for (size_t o = 0; o < 4; o++) {
        sweep_case *c = case_new();
        const uint32_t *ids = orders[o];
        /* a ring of six around (0, 0), radius 0.5 at distance 0.9: all overlap a ball of 0.5 */
        for (int k = 0; k < 6; k++) {
            const double a = 2.0 * 3.14159265358979323846 * k / 6.0;
            add_frozen(c, (float)(0.9 * cos(a)), (float)(0.9 * sin(a)), 0.5f, ids[k]);
        }
        /* exactly touching on the x axis with a low id: tangential moves make it a maybe */
        add_frozen(c, -1.0f, 0.0f, 0.5f, 0);
        /* two balls symmetric about the x axis far to the right: the same t from both */
        add_frozen(c, 20.0f, 1.0f, 0.5f, ids[5] + 1000);
        add_frozen(c, 20.0f, -1.0f, 0.5f, ids[4] + 1000);
        uint32_t id = 5000;
        static float mx[256], my[256];
        const float lens[] = {0.05f, 0.5f, 3.0f, 0.0f};
        for (size_t l = 0; l < 4; l++) {
            const size_t nd = directions(lens[l], mx, my);
            for (size_t d = 0; d < nd; d++) {
                add_awake(c, 0.0f, 0.0f, 0.5f, mx[d], my[d], id++);
                add_awake(c, 0.0f, 0.0f, 0.1f, mx[d], my[d], id++);
            }
        }
        for (int k = 0; k < 20; k++) /* toward the symmetric pair: the same t from both */
            add_awake(c, 20.0f - 0.5f * (float)k, 0.0f, 0.5f + 0.01f * (float)k, 12.0f, 0.0f, id++);
        add_awake(c, 19.0f, 0.0f, 0.9f, 0.5f, 0.0f, id++);  /* both overlapping, moving deeper */
        add_awake(c, 0.0f, 0.0f, 0.5f, 0.0f, 0.1f, ids[2]); /* its own id is frozen: skipped */
        char label[64];
        snprintf(label, sizeof label, "ties, order %zu", o);
        check_case(c, label);
        free(c);
    }
}

/* Frozen balls on the same spot under different ids (ids up and down against the walk's
 * order), met head-on, where the time's lower bound is tightest: the same t from each, the
 * lowest id wins; and a larger one on the same spot, met earlier. */
static void duplicates(void **state) {
    (void)state;
    sweep_case *c = case_new();
    c2d_rng rng = {0xd0b1e};
    uint32_t id = 0;
    for (int k = 0; k < 200; k++) {
        const float ox = k % 2 ? 16384.0f : 0.0f;
        const float x = ox + c2d_rng_range(&rng, 0.0f, 100.0f);
        const float y = c2d_rng_range(&rng, 0.0f, 100.0f) + (float)k * 300.0f;
        const float r = c2d_rng_range(&rng, 0.0f, 1.0f);
        const uint32_t base = 10 * (uint32_t)k;
        add_frozen(c, x, y, r, base + (k % 3 == 0 ? 3u : 1u));
        add_frozen(c, x, y, r, base + 2u);
        add_frozen(c, x, y, r, base + (k % 3 == 0 ? 1u : 3u));
        if (k % 4 == 0) add_frozen(c, x, y, r * 1.5f, base + 9u);
        for (int a = 0; a < 8; a++) {
            const c2d_vec2 d = c2d_rng_direction(&rng);
            const float ar = c2d_rng_range(&rng, 0.0f, 1.0f);
            const float gap = c2d_rng_range(&rng, 0.0f, 2.0f);
            const float dist = r + ar + gap;
            const float len = gap * c2d_rng_range(&rng, 1.0f, 3.0f);
            add_awake(c, x + d.x * dist, y + d.y * dist, ar, -d.x * len, -d.y * len,
                      100000u + id++);
        }
    }
    assert_true(check_case(c, "duplicates") > 0);
    free(c);
}

/* Placements at the edge of contact where the formula's float overlap test and its double
 * c = |s|^2 - rs^2 disagree (either way), found among the ulp neighbours of a touching
 * position, with moves into, along and out of the contact. */
static void contact_edge(void **state) {
    (void)state;
    sweep_case *c = case_new();
    c2d_rng rng = {0xed9e};
    uint32_t id = 0;
    size_t found = 0;
    for (int k = 0; k < 3000 && c->na + 16 < CAP; k++) {
        const float ox = k % 3 == 1 ? 16384.0f : (k % 3 == 2 ? -3000.0f : 0.0f);
        const float x = ox + c2d_rng_range(&rng, 0.0f, 50.0f), y = c2d_rng_range(&rng, 0.0f, 50.0f);
        const float r = c2d_rng_range(&rng, 0.0f, 1.0f), ar = c2d_rng_range(&rng, 0.0f, 1.0f);
        const c2d_vec2 d = c2d_rng_direction(&rng);
        const float rs = r + ar;
        for (int i = -3; i <= 3; i++)
            for (int j = -3; j <= 3; j++) {
                float px = x + d.x * rs, py = y + d.y * rs;
                for (int s = 0; s < (i < 0 ? -i : i); s++)
                    px = nextafterf(px, i < 0 ? -INFINITY : INFINITY);
                for (int s = 0; s < (j < 0 ? -j : j); s++)
                    py = nextafterf(py, j < 0 ? -INFINITY : INFINITY);
                const float fx = px - x, fy = py - y, frs = ar + r;
                const bool over = fx * fx + fy * fy <= frs * frs;
                const double dx = (double)px - x, dy = (double)py - y, drs = (double)ar + r;
                const bool inside = dx * dx + dy * dy - drs * drs <= 0.0;
                if (over == inside) continue;
                found++;
                const float len = c2d_rng_range(&rng, 1e-6f, 0.5f);
                const float moves[][2] = {{-d.x, -d.y},
                                          {d.x, d.y},
                                          {-d.y, d.x},
                                          {d.y, -d.x},
                                          {-d.y - d.x * 1e-6f, d.x - d.y * 1e-6f}};
                for (size_t m = 0; m < 5; m++)
                    add_awake(c, px, py, ar, moves[m][0] * len, moves[m][1] * len, 100000u + id++);
                i = j = 4; /* one a position */
            }
        add_frozen(c, x, y, r, (uint32_t)k);
    }
    assert_true(found > 10);
    check_case(c, "contact edge");
    free(c);
}

/* More maybes than the sweep keeps: a long move through a field of small frozen balls (gas),
 * and a ball on a dense grid of points it grazes. */
static void many_maybes(void **state) {
    (void)state;
    sweep_case *c = case_new();
    c2d_rng rng = {0x3a7e};
    uint32_t id = 0;
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < 40; j++)
            add_frozen(c, (float)i * 0.5f + c2d_rng_range(&rng, -0.1f, 0.1f),
                       (float)j * 0.5f + c2d_rng_range(&rng, -0.1f, 0.1f),
                       c2d_rng_range(&rng, 0.0f, 0.2f),
                       id += 1 + (uint32_t)(c2d_rng_next(&rng) % 5));
    for (int k = 0; k < 400; k++) {
        const c2d_vec2 d = c2d_rng_direction(&rng);
        const float len = c2d_rng_range(&rng, 0.0f, 12.0f);
        add_awake(c, c2d_rng_range(&rng, -1.0f, 21.0f), c2d_rng_range(&rng, -1.0f, 21.0f),
                  c2d_rng_range(&rng, 0.0f, 0.3f), d.x * len, d.y * len, 100000u + (uint32_t)k);
    }
    assert_true(check_case(c, "many maybes") > 0);
    free(c);
}

/* Values beyond the tame range (the index's special list, the formula for every candidate),
 * NaN and infinite values, negative radii, next to ordinary balls. */
static void untamed(void **state) {
    (void)state;
    sweep_case *c = case_new();
    const float big = 0x1p41f;
    add_frozen(c, 0.0f, 0.0f, 0.5f, 1);
    add_frozen(c, big, 0.0f, 0.5f, 2);
    add_frozen(c, 0.0f, 0.0f, big, 3);
    add_frozen(c, NAN, 0.0f, 0.5f, 4);
    add_frozen(c, 1.0f, 0.0f, -0.5f, 5);
    add_frozen(c, INFINITY, 0.0f, 0.5f, 6);
    add_frozen(c, 1.0f, 1.0f, 0.5f, 7);
    uint32_t id = 100;
    static float mx[256], my[256];
    const size_t nd = directions(0.5f, mx, my);
    for (size_t d = 0; d < nd; d += 3) {
        add_awake(c, 0.9f, 0.0f, 0.5f, mx[d], my[d], id++);
        add_awake(c, big - 1.0f, 0.0f, 0.5f, mx[d], my[d], id++);
        add_awake(c, 0.9f, 0.0f, 0.5f, mx[d] * big, my[d] * big, id++);
        add_awake(c, 0.9f, 0.0f, big, mx[d], my[d], id++);
        add_awake(c, 0.9f, 0.0f, -0.5f, mx[d], my[d], id++);
    }
    add_awake(c, 0.9f, 0.0f, 0.5f, NAN, 0.0f, id++);
    add_awake(c, 0.9f, 0.0f, 0.5f, INFINITY, 0.0f, id++);
    check_case(c, "untamed");
    free(c);
}

/* Random piles with random moves: hexagonal packing (exactly touching, or overlapping by a
 * little) and random discs, radii from points to large, moves from none to long, at the origin
 * and at 2^14; with and without filter words. */
static void random_piles(void **state) {
    (void)state;
    c2d_rng rng = {0x5eeb};
    for (int k = 0; k < 24; k++) {
        sweep_case *c = case_new();
        const float ox = k % 3 == 1 ? 16384.0f : (k % 3 == 2 ? -16384.0f : 0.0f);
        const float d = 1.0f;
        const float r = k % 4 == 0 ? 0.5f : (k % 4 == 1 ? 0.5005f : (k % 4 == 2 ? 0.49f : 0.52f));
        const float move = k < 8 ? 0.1f : (k < 16 ? 1.5f : 1e-5f);
        const size_t per_row = 40, n = 1600;
        uint32_t id = 0;
        for (size_t i = 0; i < n; i++) {
            const size_t row = i / per_row, col = i % per_row;
            const float x = ox + (float)col * d + (row % 2 ? 0.5f * d : 0.0f);
            const float y = (float)row * d * 0.8660254f;
            id += 1 + (uint32_t)(c2d_rng_next(&rng) % 3);
            const float mx = c2d_rng_next(&rng) % 16 == 0 ? 0.0f : c2d_rng_range(&rng, -move, move);
            const float my = c2d_rng_range(&rng, -move, move);
            if (c2d_rng_next(&rng) % 10 == 0)
                add_awake(c, x, y, r, mx, my, id);
            else
                add_frozen(c, x, y, r, id);
        }
        c->filtered = k % 6 == 5;
        if (c->filtered) {
            for (size_t i = 0; i < c->nf; i++) {
                c->fcat[i] = 1u << (c2d_rng_next(&rng) % 3);
                c->fmask[i] = c2d_rng_next(&rng) % 4 ? C2D_FILTER_ALL : 3u;
            }
            for (size_t i = 0; i < c->na; i++) {
                c->acat[i] = 1u << (c2d_rng_next(&rng) % 3);
                c->amask[i] = c2d_rng_next(&rng) % 4 ? C2D_FILTER_ALL : 5u;
            }
        }
        char label[64];
        snprintf(label, sizeof label, "hex pile %d", k);
        check_case(c, label);
        free(c);
    }
    for (int k = 0; k < 12; k++) {
        sweep_case *c = case_new();
        const float span = k < 4 ? 30.0f : (k < 8 ? 300.0f : 8.0f);
        const float rhi = k % 4 == 0 ? 0.0f : (k % 4 == 1 ? 1e-6f : (k % 4 == 2 ? 1.0f : 4.0f));
        const float ox = k % 2 ? 16384.0f : 0.0f;
        for (uint32_t i = 0; i < 2000; i++) {
            const float x = ox + c2d_rng_range(&rng, 0.0f, span);
            const float y = ox + c2d_rng_range(&rng, 0.0f, span);
            const float r = c2d_rng_range(&rng, 0.0f, rhi);
            const float mx = c2d_rng_range(&rng, -2.0f, 2.0f);
            const float my = c2d_rng_range(&rng, -2.0f, 2.0f);
            if (i % 5 == 0)
                add_awake(c, x, y, r, mx, my, i * 2654435761u % 100003u);
            else
                add_frozen(c, x, y, r, i * 2654435761u % 100003u);
        }
        char label[64];
        snprintf(label, sizeof label, "random disc %d", k);
        check_case(c, label);
        free(c);
    }
}

/* The identity with the all-awake batch sweep (frozen_check.c) on piles where the cull has
 * work: resting piles, a tenth awake, short moves. */
static void identity(void **state) {
    (void)state;
    const float radii[] = {0.5f, 0.5002f, 0.55f};
    for (size_t k = 0; k < 3; k++) {
        c2d_rng rng = {0x1de + k};
        ball_set s;
        balls_init(&s, 900);
        balls_hex(&s, 30, 1.0f, radii[k], 0.1f, &rng);
        char label[64];
        snprintf(label, sizeof label, "resting pile, r %g", (double)radii[k]);
        check_frozen(&s, 90, 0x1df + k, label);
        balls_free(&s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(touching),   cmocka_unit_test(overlapping),  cmocka_unit_test(ties),
        cmocka_unit_test(duplicates), cmocka_unit_test(contact_edge), cmocka_unit_test(many_maybes),
        cmocka_unit_test(untamed),    cmocka_unit_test(random_piles), cmocka_unit_test(identity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
