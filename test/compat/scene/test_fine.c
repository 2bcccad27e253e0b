/* The scene's fine index (src/scene/scene_fine.c) against the batch layer, byte for byte on
 * every backend: centres exactly on cell edges and a few ulps off, radii at rho and one ulp
 * either side, the region's borders, capsules whose reach just meets a cell corner, moved
 * capsules, a frame where rho grows, tiny and huge coordinates, boards too large for it, and
 * every tail of the scan's vectors and blocks.
 * The test reads the index's parameters (internal) to aim at its borders. */
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

#include "scene/scene_internal.h"
#include "scene_check.h"

static void check_one(c2d_scene *sc, const scene *s, void *ctx, const char *label) {
    (void)ctx;
    check_scene_once(sc, s, label);
}

/* check_scene_once on every backend with one scene (its fine index kept across them). */
static void check_all_backends(c2d_scene *sc, const scene *s, const char *label) {
    on_every_backend(sc, s, check_one, NULL, label);
}

/* A uniform W5 board of n balls and m pins (seed), as a scene over s's capsules. */
static c2d_scene *open_w5(c2d_workload *w, scene *s, size_t n, size_t m, uint64_t seed) {
    assert_int_equal(c2d_workload_w5(w, n, m, C2D_W5_UNIFORM, seed), 0);
    scene_from_workload(s, w, LAYOUT_ALIGNED);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s->capsules, NULL, &sc), C2D_OK);
    return sc;
}

/* A first frame with radii in [0.05, 0.25] over the capsules' area: fixes rho. */
static void calibrate(c2d_scene *sc, float lo, float hi, float span, float rmax) {
    enum { N = 2000 };
    static float x[N], y[N], r[N];
    c2d_rng rng = {0xca11b};
    for (size_t i = 0; i < N; i++) {
        x[i] = c2d_rng_range(&rng, lo, hi);
        y[i] = c2d_rng_range(&rng, lo, lo + span);
        r[i] = c2d_rng_range(&rng, 0.2f * rmax, rmax);
    }
    const c2d_circle_soa c = {x, y, r, N, NULL, NULL};
    size_t count = 0;
    assert_int_equal(c2d_scene_collide(sc, &c, NULL, 0, &count), C2D_OK);
}

/* src's capsules into dst (as many). */
static void copy_capsules(scene *dst, const scene *src) {
    float *const to[] = {dst->ax, dst->ay, dst->bx, dst->by, dst->R};
    const float *const from[] = {src->ax, src->ay, src->bx, src->by, src->R};
    for (int a = 0; a < 5; a++)
        memcpy(to[a], from[a], src->m * sizeof(float));
}

/* Cell edge e (column or row) as the scan sees it: a float just at the edge. */
static float edge(float v0, float inv, uint32_t e) {
    return v0 + (float)e / inv;
}

/* Frames whose only candidates come from the big circles' index: every small circle far from
 * the one capsule, one big ball on it in each block of the scan (1,024 circles). Its cell's
 * single capsule was once written before any room was made for it: on a new scene, through a
 * null pointer. */
static void fine_big_alone(void **state) {
    (void)state;
    const size_t sizes[] = {33, 64, 1025, 2100};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const size_t n = sizes[k];
        scene s;
        scene_init(&s, n, 1, LAYOUT_ALIGNED);
        s.bx[0] = 10.0f;
        s.R[0] = 0.5f;
        for (size_t i = 0; i < n; i++) {
            s.x[i] = 1000.0f + (float)i;
            s.y[i] = 1000.0f;
            s.r[i] = 0.1f;
            if (i % 1024 == 17 || i == n - 1) { /* a big ball touching the capsule */
                s.x[i] = 5.0f;
                s.y[i] = 3.0f;
                s.r[i] = 4.0f;
            }
        }
        check_scene(&s, "big ball alone");
        scene_free(&s);
    }
}

/* Circles centred on cell corners and edges of the fine grid (and 1-2 ulps off), with radii
 * rho, one ulp below and above, and a few well above; capsules near-touching nearby. */
static void fine_cell_borders(void **state) {
    (void)state;
    c2d_rng rng = {0xb0bde5};
    scene caps;
    scene_init(&caps, 0, 60, LAYOUT_ALIGNED);
    fill_near_touch(&caps, &rng, 3.0f, 3.0f, 2.0f);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&caps.capsules, NULL, &sc), C2D_OK);
    calibrate(sc, 0.0f, 25.0f, 25.0f, 0.25f);
    const c2d_fine_index *f = &sc->fine;
    assert_true(c2d_fine_ready(sc));
    assert_true(f->rho > 0.0f);
    /* centres on a lattice of cell edges around the capsules */
    const uint32_t cols = f->nx < 48 ? f->nx : 48, rows = f->ny < 48 ? f->ny : 48;
    const size_t n = (size_t)(cols + 1) * (rows + 1) * 5;
    scene s;
    scene_init(&s, n, caps.m, LAYOUT_OFFSET);
    copy_capsules(&s, &caps);
    const uint32_t cx0 = f->nx > cols ? (uint32_t)(c2d_rng_next(&rng) % (f->nx - cols)) : 0;
    const uint32_t cy0 = f->ny > rows ? (uint32_t)(c2d_rng_next(&rng) % (f->ny - rows)) : 0;
    size_t i = 0, above = 0;
    for (uint32_t a = 0; a <= rows; a++)
        for (uint32_t b = 0; b <= cols; b++)
            for (int k = 0; k < 5; k++, i++) {
                /* on the corner, on each edge a little inside, and ulps off */
                const int dx = k == 1 ? -1 : (k == 2 ? 1 : 0), dy = k == 3 ? -2 : (k == 4 ? 2 : 0);
                s.x[i] = ulp_step(edge(f->x0, f->inv_size, cx0 + b), dx);
                s.y[i] = ulp_step(edge(f->y0, f->inv_size, cy0 + a), dy);
                const unsigned pick = (unsigned)(c2d_rng_next(&rng) % 100);
                s.r[i] = pick < 46 ? f->rho : (pick < 92 ? ulp_step(f->rho, -1) : f->rho * 0.3f);
                if (pick >= 97) { /* just above: the coarse path (few, so rho stays) */
                    s.r[i] = ulp_step(f->rho, 1);
                    above++;
                }
            }
    assert_int_equal(i, n);
    const float rho = f->rho;
    check_all_backends(sc, &s, "cell borders");
    assert_true(f->rho == rho); /* still the same index: the paths above were the ones aimed at */
    assert_true(above > 0);
    c2d_scene_destroy(sc);
    scene_free(&s);
    scene_free(&caps);
}

/* The big circles' index: centres on its cell edges with radii at its bound and one ulp either
 * side, among many small circles (so neither bound moves). */
static void fine_big_borders(void **state) {
    (void)state;
    c2d_rng rng = {0xb16};
    scene caps;
    scene_init(&caps, 0, 80, LAYOUT_ALIGNED);
    fill_near_touch(&caps, &rng, 3.0f, 3.0f, 3.0f);
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&caps.capsules, NULL, &sc), C2D_OK);
    { /* a first frame: small circles and 2% of radius 1 to 2 */
        enum { N = 4000 };
        static float x[N], y[N], r[N];
        for (size_t i = 0; i < N; i++) {
            x[i] = c2d_rng_range(&rng, 0.0f, 36.0f);
            y[i] = c2d_rng_range(&rng, 0.0f, 36.0f);
            r[i] =
                i % 50 == 7 ? c2d_rng_range(&rng, 1.0f, 2.0f) : c2d_rng_range(&rng, 0.05f, 0.25f);
        }
        const c2d_circle_soa c = {x, y, r, N, NULL, NULL};
        size_t count = 0;
        assert_int_equal(c2d_scene_collide(sc, &c, NULL, 0, &count), C2D_OK);
    }
    assert_true(c2d_fine_big_ready(sc));
    const c2d_fine_index *f = &sc->fine_big;
    const float rho = sc->fine.rho, big = f->rho;
    assert_true(big > rho);
    const uint32_t cols = f->nx < 16 ? f->nx : 16, rows = f->ny < 16 ? f->ny : 16;
    const size_t lattice = (size_t)(cols + 1) * (rows + 1) * 5, n = lattice * 20;
    scene s;
    scene_init(&s, n, caps.m, LAYOUT_ALIGNED);
    copy_capsules(&s, &caps);
    size_t i = 0, above = 0;
    for (uint32_t a = 0; a <= rows; a++)
        for (uint32_t b = 0; b <= cols; b++)
            for (int k = 0; k < 5; k++) {
                const int dx = k == 1 ? -1 : (k == 2 ? 1 : 0), dy = k == 3 ? -2 : (k == 4 ? 2 : 0);
                s.x[i] = ulp_step(edge(f->x0, f->inv_size, b), dx);
                s.y[i] = ulp_step(edge(f->y0, f->inv_size, a), dy);
                const unsigned pick = (unsigned)(c2d_rng_next(&rng) % 100);
                s.r[i] = pick < 50 ? big : ulp_step(big, -1);
                if (pick >= 98 && above < 16) { /* just above: the coarse path */
                    s.r[i] = ulp_step(big, 1);
                    above++;
                }
                i++;
                for (int j = 0; j < 19; j++, i++) { /* small ones near the same point */
                    s.x[i] = s.x[i - 1 - j] + c2d_rng_range(&rng, -2.0f, 2.0f);
                    s.y[i] = s.y[i - 1 - j] + c2d_rng_range(&rng, -2.0f, 2.0f);
                    s.r[i] = c2d_rng_range(&rng, 0.05f, rho);
                }
            }
    assert_int_equal(i, n);
    check_all_backends(sc, &s, "big cell borders");
    assert_true(c2d_fine_big_ready(sc));
    assert_true(sc->fine.rho == rho && f->rho == big); /* the indices aimed at were used */
    c2d_scene_destroy(sc);
    scene_free(&s);
    scene_free(&caps);
}

/* Circle counts around every backend's scan vectors (0 .. 40: the tails of 4, 8 and 16 lanes)
 * and its blocks of 1,024 (one, two and three blocks in flight, and their tails), with circles
 * of every kind in every lane: served with their cell's bit set or clear, above rho, on and
 * outside the region's border, NaN, negative or infinite radii, beyond the tame range. */
static void fine_scan_tails(void **state) {
    (void)state;
    c2d_workload w;
    scene all;
    c2d_scene *sc = open_w5(&w, &all, 4096, 256, 77);
    check_all_backends(sc, &all, "first frame"); /* fixes rho */
    const c2d_fine_index *f = &sc->fine;
    assert_true(c2d_fine_ready(sc));
    const float rho = f->rho;
    c2d_rng rng = {0x7a115};
    size_t kinds[9] = {0};
    for (size_t i = 0; i < all.n; i++) {
        const unsigned kind = (unsigned)(c2d_rng_next(&rng) % 24);
        kinds[kind < 8 ? kind : 8]++;
        switch (kind) {
        case 0:
            all.r[i] = ulp_step(rho, 1);
            break; /* the coarse path (1/24: rho stays) */
        case 1:
            all.x[i] = NAN;
            break;
        case 2:
            all.r[i] = -1.0f;
            break;
        case 3:
            all.x[i] = ulp_step(f->lo_x, -1);
            break; /* just outside the region */
        case 4:
            all.y[i] = f->hi_y;
            break; /* on its border */
        case 5:
            all.x[i] = 3e12f;
            break; /* beyond the tame range: wild */
        case 6:
            all.r[i] = INFINITY;
            break;
        case 7:
            all.y[i] = ulp_step(f->lo_y, 1);
            break;
        default:
            break; /* served */
        }
    }
    for (size_t k = 0; k < 9; k++)
        assert_true(kinds[k] > 0);
    static const size_t more[] = {1023, 1024, 1025, 1041, 2047, 2048, 2049, 3071, 3073, 4096};
    for (size_t q = 0; q < 41 + sizeof more / sizeof more[0]; q++) {
        const size_t n = q < 41 ? q : more[q - 41];
        scene s;
        scene_init(&s, n, all.m, LAYOUT_OFFSET);
        copy_capsules(&s, &all);
        memcpy(s.x, all.x, n * sizeof(float));
        memcpy(s.y, all.y, n * sizeof(float));
        memcpy(s.r, all.r, n * sizeof(float));
        char label[64];
        snprintf(label, sizeof label, "%zu circles", n);
        check_all_backends(sc, &s, label);
        scene_free(&s);
    }
    assert_true(c2d_fine_ready(sc) && f->rho == rho); /* the index aimed at was used */
    c2d_scene_destroy(sc);
    scene_free(&all);
    c2d_workload_free(&w);
}

/* Capsules whose reach R + rho meets a cell corner just so (a few ulps in or out), circles of
 * radius rho at that corner and around it. */
static void fine_corner_touch(void **state) {
    (void)state;
    c2d_rng rng = {0xc0de};
    /* a first scene fixes the grid; the capsules then move to the corners (same index rules) */
    scene s;
    scene_init(&s, 400, 40, LAYOUT_ALIGNED);
    for (size_t k = 0; k < s.m; k++) {
        s.ax[k] = 2.0f + (float)k;
        s.ay[k] = 2.0f + (float)(k % 7);
        s.bx[k] = s.ax[k] + 1.0f;
        s.by[k] = s.ay[k];
        s.R[k] = 0.3f;
    }
    c2d_scene *sc;
    assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
    calibrate(sc, 0.0f, 45.0f, 12.0f, 0.25f);
    const c2d_fine_index *f = &sc->fine;
    assert_true(c2d_fine_ready(sc));
    const float rho = f->rho;
    /* capsule k: a point capsule diagonal from corner (cx, cy) at distance R + rho (+ ulps),
     * and circles of radius rho at the corner, or a few ulps off it */
    for (size_t k = 0; k < s.m; k++) {
        const uint32_t cx = 4 + (uint32_t)(c2d_rng_next(&rng) % (f->nx > 8 ? f->nx - 8 : 1));
        const uint32_t cy = 4 + (uint32_t)(c2d_rng_next(&rng) % (f->ny > 8 ? f->ny - 8 : 1));
        const float px = edge(f->x0, f->inv_size, cx), py = edge(f->y0, f->inv_size, cy);
        const float R = c2d_rng_range(&rng, 0.0f, 0.5f);
        const float d = (R + rho) / sqrtf(2.0f);
        const int off = (int)(c2d_rng_next(&rng) % 7) - 3;
        s.ax[k] = ulp_step(px + d, off);
        s.ay[k] = ulp_step(py + d, -off);
        s.bx[k] = k % 2 ? s.ax[k] : s.ax[k] + c2d_rng_range(&rng, 0.0f, 2.0f);
        s.by[k] = k % 3 ? s.ay[k] : s.ay[k] + c2d_rng_range(&rng, 0.0f, 2.0f);
        s.R[k] = R;
        for (size_t j = 0; j < 10; j++) {
            const size_t i = k * 10 + j;
            s.x[i] = ulp_step(px, (int)j % 5 - 2);
            s.y[i] = ulp_step(py, (int)(j / 2) % 5 - 2);
            s.r[i] = j == 9 ? ulp_step(rho, -1) : rho;
        }
    }
    assert_int_equal(c2d_scene_move_capsules(sc, 0, &s.capsules), C2D_OK);
    check_all_backends(sc, &s, "corner touch");
    assert_true(c2d_fine_ready(sc)); /* rebuilt after the move, used */
    assert_true(f->rho == rho);
    c2d_scene_destroy(sc);
    scene_free(&s);
}

/* Capsules moved between frames (tracked as dirty, or the index rebuilt), then collided. */
static void fine_moved_capsules(void **state) {
    (void)state;
    c2d_rng rng = {0x30fed};
    c2d_workload w;
    scene s;
    c2d_scene *sc = open_w5(&w, &s, 4000, 250, 31);
    check_all_backends(sc, &s, "before moves");
    assert_true(c2d_fine_ready(sc));
    for (unsigned round = 0; round < 4; round++) {
        const size_t first = (size_t)(c2d_rng_next(&rng) % s.m);
        const size_t n = 1 + (size_t)(c2d_rng_next(&rng) % (s.m - first));
        for (size_t k = first; k < first + n; k++) {
            s.ax[k] += c2d_rng_range(&rng, -4.0f, 4.0f);
            s.ay[k] += c2d_rng_range(&rng, -4.0f, 4.0f);
            s.bx[k] = s.ax[k] + c2d_rng_range(&rng, -3.0f, 3.0f);
            s.by[k] = s.ay[k] + c2d_rng_range(&rng, -3.0f, 3.0f);
            if (round == 3 && k == first) s.ax[k] = -1000.0f; /* outside the old region */
        }
        const c2d_capsule_soa moved = {s.ax + first, s.ay + first, s.bx + first,
                                       s.by + first, s.R + first,  n,
                                       NULL,         NULL,         NULL};
        assert_int_equal(c2d_scene_move_capsules(sc, first, &moved), C2D_OK);
        char label[64];
        snprintf(label, sizeof label, "after move %u", round);
        check_all_backends(sc, &s, label);
        assert_true(c2d_fine_ready(sc));
    }
    c2d_scene_destroy(sc);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* A few capsules moved every frame (flippers): tracked as dirty, tested against every circle,
 * until more than C2D_FINE_DIRTY_MAX have moved and the next frame rebuilds the index. */
static void fine_flippers(void **state) {
    (void)state;
    c2d_rng rng = {0xf11b};
    c2d_workload w;
    scene s;
    c2d_scene *sc = open_w5(&w, &s, 3000, 200, 12);
    check_all_backends(sc, &s, "flippers, frame 0");
    bool saw_dirty = false, saw_rebuild = false;
    for (unsigned frame = 1; frame <= 24; frame++) {
        /* two or three flippers, some reused, swinging around their first end */
        const size_t moved = 2 + frame % 2, first = (frame * 7) % (s.m - moved);
        for (size_t k = first; k < first + moved; k++) {
            const float angle = c2d_rng_range(&rng, -1.5f, 1.5f);
            s.bx[k] = s.ax[k] + 2.0f * cosf(angle);
            s.by[k] = s.ay[k] + 2.0f * sinf(angle);
            if (frame == 9) s.R[k] = NAN;       /* a broken one: hits nothing */
            if (frame == 10) s.ax[k] = 1e30f;   /* a huge one: tested by the range call */
            if (frame == 11) s.ax[k] = s.bx[k]; /* back, shortened */
        }
        const c2d_capsule_soa one = {s.ax + first, s.ay + first, s.bx + first,
                                     s.by + first, s.R + first,  moved,
                                     NULL,         NULL,         NULL};
        assert_int_equal(c2d_scene_move_capsules(sc, first, &one), C2D_OK);
        saw_dirty |= c2d_fine_ready(sc) && sc->fine.dirty_count > 0;
        saw_rebuild |= !c2d_fine_ready(sc);
        char label[64];
        snprintf(label, sizeof label, "flippers, frame %u", frame);
        if (frame % 6 == 0 || (frame >= 9 && frame <= 11))
            check_all_backends(sc, &s, label);
        else
            check_scene_once(sc, &s, label);
        assert_true(c2d_fine_ready(sc));
    }
    assert_true(saw_dirty);
    assert_true(saw_rebuild);
    c2d_scene_destroy(sc);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* Floors as long as the board (kind EVERYWHERE in the coarse index) listed in the fine index:
 * small, big, wild and NaN circles against them, a floor moved (dirty), made huge and moved
 * back, and more floors than the fine index lists (the range calls test those). */
static void fine_long_floors(void **state) {
    (void)state;
    c2d_rng rng = {0xf100};
    for (int many = 0; many < 2; many++) {
        const size_t floors = many ? C2D_FINE_LONG_MAX + 2 : 3, pins = 1000;
        scene s;
        scene_init(&s, 1000, pins + floors, LAYOUT_ALIGNED);
        for (size_t k = 0; k < pins; k++) { /* tiny pins: small coarse cells */
            s.ax[k] = c2d_rng_range(&rng, 0.0f, 100.0f);
            s.ay[k] = c2d_rng_range(&rng, 0.0f, 100.0f);
            s.bx[k] = s.ax[k] + c2d_rng_range(&rng, -0.3f, 0.3f);
            s.by[k] = s.ay[k] + c2d_rng_range(&rng, -0.3f, 0.3f);
            s.R[k] = c2d_rng_range(&rng, 0.0f, 0.1f);
        }
        for (size_t j = 0; j < floors; j++) { /* floors across the board */
            const size_t k = pins + j;
            s.ax[k] = -60.0f;
            s.bx[k] = 160.0f;
            s.ay[k] = 5.0f + 90.0f * (float)j / (float)floors;
            s.by[k] = s.ay[k] + 2.0f + (float)(j % 3); /* over several rows of cells */
            s.R[k] = 0.5f;
        }
        for (size_t i = 0; i < s.n; i++) {
            const size_t k = pins + i % floors; /* half near a floor */
            s.x[i] = c2d_rng_range(&rng, 0.0f, 100.0f);
            s.y[i] = i % 2 ? c2d_rng_range(&rng, 0.0f, 100.0f)
                           : s.ay[k] + c2d_rng_range(&rng, -1.5f, 3.5f);
            s.r[i] =
                i % 97 == 3 ? c2d_rng_range(&rng, 1.0f, 3.0f) : c2d_rng_range(&rng, 0.05f, 0.25f);
        }
        s.x[10] = NAN;
        s.x[12] = 3e12f; /* wild */
        s.y[14] = -2e12f;
        s.r[16] = -1.0f;
        c2d_scene *sc;
        assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
        assert_int_equal(sc->index.kind[pins], C2D_KIND_EVERYWHERE); /* the case aimed at */
        char label[64];
        snprintf(label, sizeof label, "%zu floors", floors);
        check_all_backends(sc, &s, label);
        assert_true(c2d_fine_ready(sc));
        assert_int_equal(sc->index.everywhere_count, floors);
        assert_int_equal(sc->fine.long_count, many ? 0 : sc->index.everywhere_count);
        for (size_t i = 0; i < 8; i++) /* above both bounds: the coarse path, floors listed */
            s.r[2 * i] = 6.0f;
        snprintf(label, sizeof label, "%zu floors, balls above both bounds", floors);
        check_all_backends(sc, &s, label);
        assert_true(s.r[0] > sc->fine_big.rho);
        for (int round = 0; round < 3; round++) { /* move a floor: tilt, huge, back */
            const size_t k = pins + 1;
            s.by[k] = round == 0 ? s.ay[k] + 7.0f : s.ay[k];
            s.bx[k] = round == 1 ? 1e30f : 160.0f;
            const c2d_capsule_soa one = {s.ax + k, s.ay + k, s.bx + k, s.by + k, s.R + k,
                                         1,        NULL,     NULL,     NULL};
            assert_int_equal(c2d_scene_move_capsules(sc, k, &one), C2D_OK);
            snprintf(label, sizeof label, "%zu floors, move %d", floors, round);
            check_all_backends(sc, &s, label);
        }
        c2d_scene_destroy(sc);
        scene_free(&s);
    }
}

/* Every capsule moved every frame: the builds go stale at once, so the scene pauses on the
 * coarse index (no build a frame) and builds again once the moves stop. */
static void fine_bulk_moves(void **state) {
    (void)state;
    c2d_rng rng = {0xb01c};
    c2d_workload w;
    scene s;
    c2d_scene *sc = open_w5(&w, &s, 1500, 100, 77);
    bool paused = false;
    for (unsigned frame = 0; frame < 40; frame++) {
        if (frame < 30) {
            for (size_t k = 0; k < s.m; k++) {
                s.ax[k] += c2d_rng_range(&rng, -0.5f, 0.5f);
                s.bx[k] += c2d_rng_range(&rng, -0.5f, 0.5f);
            }
            assert_int_equal(c2d_scene_move_capsules(sc, 0, &s.capsules), C2D_OK);
        }
        /* one frame begun per frame, as a game does; its range call against the batch call */
        assert_int_equal(c2d_scene_bin(sc, &s.circles), C2D_OK);
        paused |= !c2d_fine_ready(sc);
        size_t count = 0, want = 0;
        assert_int_equal(c2d_batch_collide(&s.circles, &s.capsules, NULL, 0, &want), C2D_OK);
        c2d_pair_contact *got = xmalloc((want + 1) * sizeof *got);
        c2d_pair_contact *ref = xmalloc((want + 1) * sizeof *ref);
        assert_int_equal(c2d_batch_collide(&s.circles, &s.capsules, ref, want + 1, &want), C2D_OK);
        assert_int_equal(c2d_scene_collide_range(sc, &s.circles, 0, s.m, got, want + 1, &count),
                         C2D_OK);
        assert_int_equal(count, want);
        assert_memory_equal(got, ref, want * sizeof *got);
        free(got);
        free(ref);
    }
    check_all_backends(sc, &s, "bulk moves, after");
    assert_true(paused);
    assert_true(c2d_fine_ready(sc)); /* built again after the moves stopped */
    c2d_scene_destroy(sc);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* Frames whose radii outgrow rho: the first is served by the coarse path, the next by a fine
 * index with a larger rho; every frame equals the batch answer. */
static void fine_rho_grows(void **state) {
    (void)state;
    c2d_workload w;
    scene s;
    c2d_scene *sc = open_w5(&w, &s, 3000, 200, 8);
    float scale = 1.0f, last = 0.0f;
    for (unsigned frame = 0; frame < 6; frame++) {
        char label[64];
        snprintf(label, sizeof label, "radii x%g", (double)scale);
        check_all_backends(sc, &s, label);
        assert_true(sc->fine.rho >= last); /* it never shrinks */
        last = sc->fine.rho;
        if (frame % 2 == 1) { /* larger balls every other frame */
            scale *= 3.0f;
            for (size_t i = 0; i < s.n; i++)
                s.r[i] = w.radius[i] * scale;
        }
    }
    assert_true(c2d_fine_ready(sc));
    assert_true(sc->fine.rho >= 0.25f * 9.0f); /* grown to the last radii */
    c2d_scene_destroy(sc);
    scene_free(&s);
    c2d_workload_free(&w);
}

/* The same board at tiny and at huge coordinates (and huge offsets within the tame range). */
static void fine_tiny_huge(void **state) {
    (void)state;
    static const float scales[] = {1e-30f, 1e-6f, 1e4f, 1e9f};
    static const float offsets[] = {0.0f, 1e6f, -3e9f, 1e11f};
    for (size_t a = 0; a < 4; a++)
        for (size_t b = 0; b < 4; b++) {
            c2d_workload w;
            assert_int_equal(c2d_workload_w5(&w, 500, 32, C2D_W5_UNIFORM, 40 + a * 4 + b), 0);
            scene s;
            scene_from_workload(&s, &w, LAYOUT_ALIGNED);
            const float k = scales[a], o = offsets[b] * (a == 3 ? 10.0f : 1.0f);
            for (size_t i = 0; i < s.n; i++) {
                s.x[i] = s.x[i] * k + o;
                s.y[i] = s.y[i] * k - o;
                s.r[i] *= k;
            }
            for (size_t j = 0; j < s.m; j++) {
                s.ax[j] = s.ax[j] * k + o;
                s.bx[j] = s.bx[j] * k + o;
                s.ay[j] = s.ay[j] * k - o;
                s.by[j] = s.by[j] * k - o;
                s.R[j] *= k;
            }
            char label[64];
            snprintf(label, sizeof label, "scale %g offset %g", (double)k, (double)o);
            check_scene(&s, label);
            scene_free(&s);
            c2d_workload_free(&w);
        }
}

/* Boards the fine index must not grow with: capsules spread over a huge area (cells capped),
 * capsules of many cells each (listings capped), a floor as long as the world. */
static void fine_hostile_boards(void **state) {
    (void)state;
    c2d_rng rng = {0x4057};
    for (int kind = 0; kind < 3; kind++) {
        scene s;
        scene_init(&s, 3000, 300, LAYOUT_ALIGNED);
        for (size_t k = 0; k < s.m; k++) {
            const float span = kind == 0 ? 1e7f : 200.0f;
            s.ax[k] = c2d_rng_range(&rng, 0.0f, span);
            s.ay[k] = c2d_rng_range(&rng, 0.0f, span);
            const float len = kind == 1 ? 60.0f : 1.0f;
            s.bx[k] = s.ax[k] + c2d_rng_range(&rng, -len, len);
            s.by[k] = s.ay[k] + c2d_rng_range(&rng, -len, len);
            s.R[k] = c2d_rng_range(&rng, 0.0f, 0.5f);
        }
        if (kind == 2) {
            s.ax[7] = -10.0f;
            s.bx[7] = 210.0f;
            s.ay[7] = s.by[7] = 100.0f;
        }
        for (size_t i = 0; i < s.n; i++) {
            const size_t k = i % s.m; /* near a capsule, so there are contacts */
            s.x[i] = s.ax[k] + c2d_rng_range(&rng, -2.0f, 2.0f);
            s.y[i] = s.ay[k] + c2d_rng_range(&rng, -2.0f, 2.0f);
            s.r[i] = c2d_rng_range(&rng, 0.05f, 0.25f);
        }
        c2d_scene *sc;
        assert_int_equal(c2d_scene_create(&s.capsules, NULL, &sc), C2D_OK);
        char label[64];
        snprintf(label, sizeof label, "hostile board %d", kind);
        check_all_backends(sc, &s, label);
        if (sc->fine.ready) /* bounded: fewer than 2^24 cells */
            assert_true((size_t)sc->fine.nx * sc->fine.ny < ((size_t)1 << 24));
        c2d_scene_destroy(sc);
        scene_free(&s);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fine_cell_borders), cmocka_unit_test(fine_big_borders),
        cmocka_unit_test(fine_big_alone),    cmocka_unit_test(fine_scan_tails),
        cmocka_unit_test(fine_corner_touch), cmocka_unit_test(fine_moved_capsules),
        cmocka_unit_test(fine_flippers),     cmocka_unit_test(fine_long_floors),
        cmocka_unit_test(fine_bulk_moves),   cmocka_unit_test(fine_rho_grows),
        cmocka_unit_test(fine_tiny_huge),    cmocka_unit_test(fine_hostile_boards),
    };
    if (getenv("FINE_FILTER")) cmocka_set_test_filter(getenv("FINE_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
