/* Shared helpers of the batch-layer tests: see batch_check.h. */
#define _DEFAULT_SOURCE /* mmap, MAP_ANONYMOUS */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "batch_check.h"
#include "filter_check.h"

/* ---- memory ------------------------------------------------------------------------------ */

void *xmalloc(size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    assert_non_null(p);
    return p;
}

void *guarded_alloc(size_t bytes, void **base, size_t *base_bytes) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t data_pages = (bytes + page - 1) / page;
    const size_t total = (data_pages + 1) * page;
    void *mem = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(mem != MAP_FAILED);
    unsigned char *guard = (unsigned char *)mem + data_pages * page;
    assert_int_equal(mprotect(guard, page, PROT_NONE), 0);
    *base = mem;
    *base_bytes = total;
    return guard - bytes;
}

void guarded_free(void *base, size_t base_bytes) {
    if (base) munmap(base, base_bytes);
}

static float *scene_array(scene *s, size_t slot, size_t n) {
    const size_t bytes = n * sizeof(float);
    switch (s->layout) {
    case LAYOUT_GUARDED: {
        float *p = guarded_alloc(bytes, &s->block[slot], &s->block_bytes[slot]);
        memset(p, 0, bytes);
        return p;
    }
    case LAYOUT_OFFSET:
    case LAYOUT_ALIGNED: {
        /* 64-byte aligned, a multiple of 64 bytes long, one float of room for the offset */
        const size_t rounded = ((bytes + sizeof(float)) + 63) / 64 * 64;
        float *p = aligned_alloc(64, rounded);
        assert_non_null(p);
        memset(p, 0, rounded);
        s->block[slot] = p;
        s->block_bytes[slot] = rounded;
        return s->layout == LAYOUT_OFFSET ? p + 1 : p;
    }
    }
    return NULL;
}

static void scene_bind(scene *s) {
    const c2d_circle_soa c = {s->x, s->y, s->r, s->n, NULL, NULL};
    const c2d_capsule_soa k = {s->ax, s->ay, s->bx, s->by, s->R, s->m, NULL, NULL, NULL};
    s->circles = c;
    s->capsules = k;
}

void scene_init(scene *s, size_t n, size_t m, scene_layout layout) {
    memset(s, 0, sizeof *s);
    s->n = n;
    s->m = m;
    s->layout = layout;
    float **circle_arrays[] = {&s->x, &s->y, &s->r, &s->mx, &s->my};
    float **capsule_arrays[] = {&s->ax, &s->ay, &s->bx, &s->by, &s->R};
    for (size_t i = 0; i < 5; i++)
        *circle_arrays[i] = scene_array(s, i, n);
    for (size_t i = 0; i < 5; i++)
        *capsule_arrays[i] = scene_array(s, 5 + i, m);
    scene_bind(s);
}

void scene_free(scene *s) {
    for (size_t i = 0; i < 10; i++) {
        if (s->layout == LAYOUT_GUARDED)
            guarded_free(s->block[i], s->block_bytes[i]);
        else
            free(s->block[i]);
        s->block[i] = NULL;
    }
}

void scene_copy(scene *dst, const scene *src, scene_layout layout) {
    scene_init(dst, src->n, src->m, layout);
    const size_t nb = src->n * sizeof(float), mb = src->m * sizeof(float);
    if (nb) {
        memcpy(dst->x, src->x, nb);
        memcpy(dst->y, src->y, nb);
        memcpy(dst->r, src->r, nb);
        memcpy(dst->mx, src->mx, nb);
        memcpy(dst->my, src->my, nb);
    }
    if (mb) {
        memcpy(dst->ax, src->ax, mb);
        memcpy(dst->ay, src->ay, mb);
        memcpy(dst->bx, src->bx, mb);
        memcpy(dst->by, src->by, mb);
        memcpy(dst->R, src->R, mb);
    }
}

void scene_from_workload(scene *dst, const c2d_workload *w, scene_layout layout) {
    scene src;
    memset(&src, 0, sizeof src);
    src.n = w->circles.count;
    src.m = w->capsules.count;
    src.x = w->x, src.y = w->y, src.r = w->radius, src.mx = w->move_x, src.my = w->move_y;
    src.ax = w->ax, src.ay = w->ay, src.bx = w->bx, src.by = w->by, src.R = w->capsule_radius;
    scene_copy(dst, &src, layout);
}

/* ---- generators -------------------------------------------------------------------------- */

static uint32_t rng_below(c2d_rng *rng, uint32_t n) {
    return (uint32_t)(c2d_rng_next(rng) % n);
}

void fill_random(scene *s, c2d_rng *rng, const random_spec *p) {
    for (size_t i = 0; i < s->n; i++) {
        s->x[i] = c2d_rng_range(rng, 0.0f, p->span);
        s->y[i] = c2d_rng_range(rng, 0.0f, p->span);
        s->r[i] = c2d_rng_range(rng, p->rlo, p->rhi);
        s->mx[i] = c2d_rng_range(rng, -p->move, p->move);
        s->my[i] = c2d_rng_range(rng, -p->move, p->move);
    }
    for (size_t k = 0; k < s->m; k++) {
        s->ax[k] = c2d_rng_range(rng, 0.0f, p->span);
        s->ay[k] = c2d_rng_range(rng, 0.0f, p->span);
        const c2d_vec2 d = c2d_rng_direction(rng);
        const float length = c2d_rng_range(rng, p->llo, p->lhi);
        s->bx[k] = s->ax[k] + d.x * length;
        s->by[k] = s->ay[k] + d.y * length;
        s->R[k] = c2d_rng_range(rng, p->Rlo, p->Rhi);
    }
}

float ulp_step(float x, int k) {
    for (; k > 0; k--)
        x = nextafterf(x, INFINITY);
    for (; k < 0; k++)
        x = nextafterf(x, -INFINITY);
    return x;
}

void fill_near_touch(scene *s, c2d_rng *rng, float ox, float oy, float scale) {
    for (size_t k = 0; k < s->m; k++) {
        const float ax = ox + c2d_rng_range(rng, 0.0f, 10.0f) * scale;
        const float ay = oy + c2d_rng_range(rng, 0.0f, 10.0f) * scale;
        const unsigned kind = rng_below(rng, 8);
        float length = c2d_rng_range(rng, 0.0f, 5.0f) * scale;
        c2d_vec2 d = c2d_rng_direction(rng);
        if (kind == 0)
            length = 0.0f; /* zero-length: a circle */
        else if (kind == 1)
            d.y = 0.0f, d.x = 1.0f; /* axis-aligned: exact touching distances */
        else if (kind == 2)
            d.x = 0.0f, d.y = -1.0f;
        else if (kind == 3) /* nearly axis-aligned: rounding, not geometry, decides */
            d.x = 1.0f, d.y = c2d_rng_range(rng, -1e-3f, 1e-3f) * c2d_rng_unit(rng);
        else if (kind == 4)
            d.x = c2d_rng_range(rng, -1e-5f, 1e-5f), d.y = 1.0f;
        s->ax[k] = ax;
        s->ay[k] = ay;
        s->bx[k] = ax + d.x * length;
        s->by[k] = ay + d.y * length;
        s->R[k] = rng_below(rng, 8) == 0 ? 0.0f : c2d_rng_range(rng, 0.0f, 1.0f) * scale;
    }
    for (size_t i = 0; i < s->n; i++) {
        const float r = rng_below(rng, 8) == 0 ? 0.0f : c2d_rng_range(rng, 0.0f, 1.0f) * scale;
        s->r[i] = r;
        s->mx[i] = c2d_rng_range(rng, -2.0f, 2.0f) * scale;
        s->my[i] = c2d_rng_range(rng, -2.0f, 2.0f) * scale;
        if (s->m == 0) {
            s->x[i] = ox + c2d_rng_range(rng, 0.0f, 10.0f) * scale;
            s->y[i] = oy + c2d_rng_range(rng, 0.0f, 10.0f) * scale;
            continue;
        }
        const size_t j = rng_below(rng, (uint32_t)s->m);
        const float ax = s->ax[j], ay = s->ay[j], bx = s->bx[j], by = s->by[j], R = s->R[j];
        const float dx = bx - ax, dy = by - ay;
        float px, py;
        switch (rng_below(rng, 8)) {
        case 0: /* exactly on an endpoint */
            px = ax, py = ay;
            break;
        case 1:
            px = bx, py = by;
            break;
        case 2: /* the axis midpoint */
            px = (ax + bx) * 0.5f, py = (ay + by) * 0.5f;
            break;
        case 3: { /* a point of the axis */
            const float t = c2d_rng_unit(rng);
            px = ax + t * dx, py = ay + t * dy;
            break;
        }
        case 4:
        case 5: { /* touching a side: along the axis' perpendicular */
            const float t = rng_below(rng, 4) == 0 ? (float)rng_below(rng, 2) : c2d_rng_unit(rng);
            const float len = sqrtf(dx * dx + dy * dy);
            float nx = 0.0f, ny = 1.0f;
            if (len > 0.0f) nx = -dy / len, ny = dx / len;
            if (rng_below(rng, 2)) nx = -nx, ny = -ny;
            px = (ax + t * dx) + nx * (r + R);
            py = (ay + t * dy) + ny * (r + R);
            break;
        }
        default: { /* touching an end circle from any direction */
            const c2d_vec2 n = c2d_rng_direction(rng);
            const bool at_a = rng_below(rng, 2) == 0;
            px = (at_a ? ax : bx) + n.x * (r + R);
            py = (at_a ? ay : by) + n.y * (r + R);
            break;
        }
        }
        /* a few ulps either way: just inside or just outside */
        s->x[i] = ulp_step(px, (int)rng_below(rng, 5) - 2);
        s->y[i] = ulp_step(py, (int)rng_below(rng, 5) - 2);
    }
}

/* Special values; the first TAME_SPECIALS of them are "tame" (no infinity, nothing above
 * 2^40), the rest are wild. */
static const uint32_t special_bits[] = {
    0x7fc00000u,              /* NaN */
    0xffc00000u,              /* -NaN */
    0x7fa12345u,              /* signalling NaN with a payload */
    0x00000000u,              /* +0 */
    0x80000000u,              /* -0 */
    0x00000001u,              /* smallest subnormal */
    0x80000001u, 0x00400000u, /* a large subnormal */
    0x00800000u,              /* FLT_MIN */
    0x80800000u, 0x53800000u, /* 2^40 */
    0xd3800000u,              /* -2^40 */
    0x5368d4a5u,              /* 1e12 */
    0x47c35000u,              /* 1e5 */
    0x3f800000u,              /* 1 */
    0xbf800000u,              /* -1 */
    0x3f000000u,              /* 0.5 */
    0x1e3ce508u,              /* 1e-20 */
    /* wild */
    0x7f800000u,              /* +Inf */
    0xff800000u,              /* -Inf */
    0x7f7fffffu,              /* FLT_MAX */
    0xff7fffffu, 0x5f0ac723u, /* 1e19 */
    0xdf0ac723u, 0x7149f2cau, /* 1e30 */
    0xf149f2cau, 0x53800001u, /* 2^40 + 1 ulp */
    0x5d800000u,              /* 2^60 */
};
enum { TAME_SPECIALS = 18, ALL_SPECIALS = sizeof special_bits / sizeof special_bits[0] };

float special_value(c2d_rng *rng, bool tame) {
    const uint32_t bits = special_bits[rng_below(rng, tame ? TAME_SPECIALS : ALL_SPECIALS)];
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static void sprinkle(float *a, size_t n, c2d_rng *rng, unsigned percent, bool tame) {
    for (size_t i = 0; i < n; i++)
        if (rng_below(rng, 100) < percent) a[i] = special_value(rng, tame);
}

static void sprinkle_scene(scene *s, c2d_rng *rng, unsigned percent, bool circles, bool capsules,
                           bool moves, bool tame) {
    if (circles) {
        sprinkle(s->x, s->n, rng, percent, tame);
        sprinkle(s->y, s->n, rng, percent, tame);
        sprinkle(s->r, s->n, rng, percent, tame);
    }
    if (moves) {
        sprinkle(s->mx, s->n, rng, percent, tame);
        sprinkle(s->my, s->n, rng, percent, tame);
    }
    if (capsules) {
        sprinkle(s->ax, s->m, rng, percent, tame);
        sprinkle(s->ay, s->m, rng, percent, tame);
        sprinkle(s->bx, s->m, rng, percent, tame);
        sprinkle(s->by, s->m, rng, percent, tame);
        sprinkle(s->R, s->m, rng, percent, tame);
    }
}

void sprinkle_special(scene *s, c2d_rng *rng, unsigned percent, bool circles, bool capsules,
                      bool moves) {
    sprinkle_scene(s, rng, percent, circles, capsules, moves, false);
}

void sprinkle_tame(scene *s, c2d_rng *rng, unsigned percent, bool circles, bool capsules,
                   bool moves) {
    sprinkle_scene(s, rng, percent, circles, capsules, moves, true);
}

/* ---- grazing paths (sweeps)
 * ----------------------------------------------------------------------- */

/* Circle i's path against capsule j, built to sit on a decision boundary: passing an end
 * circle at exactly the radius sum, hitting a side at the very end of the axis span, running
 * parallel to a side at the radius sum, or ending exactly at the touch (t = 1); then a few
 * ulps either way on the start and the move. */
static void graze(scene *s, size_t i, size_t j, c2d_rng *rng, float scale) {
    const float ax = s->ax[j], ay = s->ay[j], bx = s->bx[j], by = s->by[j], R = s->R[j];
    const float r = rng_below(rng, 6) == 0 ? 0.0f : c2d_rng_range(rng, 0.0f, 1.0f) * scale;
    const float rs = r + R;
    const float dx = bx - ax, dy = by - ay;
    const float len = sqrtf(dx * dx + dy * dy);
    c2d_vec2 u = {1.0f, 0.0f};
    if (len > 0.0f) u.x = dx / len, u.y = dy / len;
    const float side = rng_below(rng, 2) ? 1.0f : -1.0f;
    const c2d_vec2 nrm = {-u.y * side, u.x * side};
    const float l1 = c2d_rng_range(rng, 0.1f, 5.0f) * scale;
    const float l2 = c2d_rng_range(rng, 0.0f, 5.0f) * scale;
    const bool at_a = rng_below(rng, 2) == 0;
    const float ex = at_a ? ax : bx, ey = at_a ? ay : by;
    float px, py, mx, my;
    switch (rng_below(rng, 5)) {
    case 0: { /* tangent to an end circle */
        const c2d_vec2 d = c2d_rng_direction(rng);
        const float sgn = rng_below(rng, 2) ? 1.0f : -1.0f;
        const c2d_vec2 n = {-d.y * sgn, d.x * sgn};
        px = ex + n.x * rs - d.x * l1, py = ey + n.y * rs - d.y * l1;
        mx = d.x * (l1 + l2), my = d.y * (l1 + l2);
        break;
    }
    case 1: { /* straight onto a side, at the end of the span */
        px = ex + nrm.x * (rs + l1), py = ey + nrm.y * (rs + l1);
        mx = -nrm.x * (l1 + l2), my = -nrm.y * (l1 + l2);
        break;
    }
    case 2: { /* parallel to a side at the radius sum */
        px = ax + nrm.x * rs - u.x * l1, py = ay + nrm.y * rs - u.y * l1;
        mx = u.x * (len + l1 + l2), my = u.y * (len + l1 + l2);
        break;
    }
    case 3: { /* ends exactly where it would touch a side (t = 1) */
        const float t = c2d_rng_unit(rng);
        px = ax + t * dx + nrm.x * (rs + l1), py = ay + t * dy + nrm.y * (rs + l1);
        mx = -nrm.x * l1, my = -nrm.y * l1;
        break;
    }
    default: { /* ends exactly where it would touch an end circle (t = 1) */
        const c2d_vec2 d = c2d_rng_direction(rng);
        px = ex + d.x * (rs + l1), py = ey + d.y * (rs + l1);
        mx = -d.x * l1, my = -d.y * l1;
        break;
    }
    }
    s->r[i] = r;
    s->x[i] = ulp_step(px, (int)rng_below(rng, 5) - 2);
    s->y[i] = ulp_step(py, (int)rng_below(rng, 5) - 2);
    s->mx[i] = rng_below(rng, 3) == 0 ? ulp_step(mx, (int)rng_below(rng, 3) - 1) : mx;
    s->my[i] = rng_below(rng, 3) == 0 ? ulp_step(my, (int)rng_below(rng, 3) - 1) : my;
}

void grazing_scene(scene *s, size_t n, size_t m, scene_layout layout, c2d_rng *rng, float ox,
                   float oy, float scale) {
    scene_init(s, n, m, layout);
    fill_near_touch(s, rng, ox, oy, scale); /* the capsules (and circles, replaced below) */
    for (size_t i = 0; i < n && m > 0; i++)
        graze(s, i, rng_below(rng, (uint32_t)m), rng, scale);
}

/* ---- references -------------------------------------------------------------------------- */

static c2d_circle circle_of(const scene *s, size_t i) {
    const c2d_circle c = {{s->x[i], s->y[i]}, s->r[i]};
    return c;
}

static c2d_capsule capsule_of(const scene *s, size_t j) {
    const c2d_capsule k = {{s->ax[j], s->ay[j]}, {s->bx[j], s->by[j]}, s->R[j]};
    return k;
}

static c2d_pair_contact pair_contact(uint32_t i, uint32_t j, const c2d_contact *c) {
    c2d_pair_contact p;
    memset(&p, 0, sizeof p);
    p.circle = i;
    p.capsule = j;
    p.contact = *c;
    return p;
}

size_t ref_collide(const scene *s, c2d_pair_contact **out) {
    size_t total = 0;
    for (size_t j = 0; j < s->m; j++)
        for (size_t i = 0; i < s->n; i++)
            total += c2d_collide_circle_capsule(circle_of(s, i), capsule_of(s, j), NULL);
    c2d_pair_contact *v = xmalloc(total * sizeof *v);
    size_t k = 0;
    for (size_t j = 0; j < s->m; j++)
        for (size_t i = 0; i < s->n; i++) {
            c2d_contact c;
            if (c2d_collide_circle_capsule(circle_of(s, i), capsule_of(s, j), &c)) {
                assert_true(k < total);
                v[k++] = pair_contact((uint32_t)i, (uint32_t)j, &c);
            }
        }
    assert_int_equal(k, total);
    *out = v;
    return total;
}

size_t ref_pairs(const scene *s, const uint32_t *ci, const uint32_t *ki, size_t np,
                 c2d_pair_contact **out) {
    c2d_pair_contact *v = xmalloc(np * sizeof *v);
    size_t k = 0;
    for (size_t p = 0; p < np; p++) {
        c2d_contact c;
        if (c2d_collide_circle_capsule(circle_of(s, ci[p]), capsule_of(s, ki[p]), &c))
            v[k++] = pair_contact(ci[p], ki[p], &c);
    }
    *out = v;
    return k;
}

void ref_sweep_moving(const scene *s, const float *kmx, const float *kmy, c2d_circle_toi *out) {
    for (size_t i = 0; i < s->n; i++) {
        c2d_circle_toi best;
        memset(&best, 0, sizeof best);
        best.capsule = C2D_NONE;
        const c2d_vec2 move = {s->mx[i], s->my[i]};
        for (size_t j = 0; j < s->m; j++) {
            if (!meets(s, i, j)) continue; /* refused by the filters, or a sensor */
            c2d_toi toi;
            const bool hit =
                kmx ? c2d_sweep_circle_moving_capsule(circle_of(s, i), move, capsule_of(s, j),
                                                      (c2d_vec2){kmx[j], kmy[j]}, &toi)
                    : c2d_sweep_circle_capsule(circle_of(s, i), move, capsule_of(s, j), &toi);
            if (hit && (best.capsule == C2D_NONE || toi.t < best.toi.t)) {
                best.capsule = (uint32_t)j;
                best.toi = toi;
            }
        }
        out[i] = best;
    }
}

void ref_sweep(const scene *s, c2d_circle_toi *out) {
    ref_sweep_moving(s, NULL, NULL, out);
}

static bool is_nan(float f) {
    return f != f;
}

static bool unit_normal(c2d_vec2 n) {
    if (is_nan(n.x) || is_nan(n.y)) return false;
    const double len2 = (double)n.x * n.x + (double)n.y * n.y;
    return fabs(len2 - 1.0) <= 1e-5;
}

bool contacts_meet_contract(const scene *s, const c2d_pair_contact *c, size_t n,
                            const char *label) {
    for (size_t k = 0; k < n; k++) {
        const c2d_pair_contact *p = &c[k];
        const char *what = NULL;
        if (p->circle >= s->n || p->capsule >= s->m) {
            what = "index out of range";
        } else {
            const size_t i = p->circle, j = p->capsule;
            const float in[] = {s->x[i],  s->y[i],  s->r[i],  s->ax[j],
                                s->ay[j], s->bx[j], s->by[j], s->R[j]};
            for (size_t q = 0; q < sizeof in / sizeof in[0]; q++)
                if (is_nan(in[q])) what = "a hit from NaN input";
            if (!(s->r[i] >= 0.0f) || !(s->R[j] >= 0.0f))
                what = "a hit with a negative radius";
            else if (!unit_normal(p->contact.normal))
                what = "normal NaN or not unit";
            else if (!(p->contact.depth >= 0.0f))
                what = "depth negative or NaN";
        }
        if (what) {
            fprintf(stderr, "[%s] contact %zu breaks the contract: %s\n", label, k, what);
            fprintf(stderr, "  circle %u capsule %u normal (%a, %a) depth %a point (%a, %a)\n",
                    (unsigned)p->circle, (unsigned)p->capsule, (double)p->contact.normal.x,
                    (double)p->contact.normal.y, (double)p->contact.depth,
                    (double)p->contact.point.x, (double)p->contact.point.y);
            if (p->circle < s->n && p->capsule < s->m) {
                print_circle(s, p->circle, false);
                print_capsule(s, p->capsule);
            }
            return false;
        }
    }
    return true;
}

bool tois_meet_contract(const scene *s, const c2d_circle_toi *t, const char *label) {
    for (size_t i = 0; i < s->n; i++) {
        const c2d_circle_toi *e = &t[i];
        const char *what = NULL;
        if (e->capsule == C2D_NONE) {
            c2d_toi zero;
            memset(&zero, 0, sizeof zero);
            if (memcmp(&zero, &e->toi, sizeof zero) != 0) what = "no hit but toi not all zeros";
        } else if (e->capsule >= s->m) {
            what = "capsule index out of range";
        } else {
            /* "NaN gives no hit" has its own test (test_contract.c): the circle's own NaN
             * is checked here, the capsule's there. */
            const size_t j = e->capsule;
            if (is_nan(s->x[i]) || is_nan(s->y[i]) || is_nan(s->r[i]))
                what = "a hit from a NaN circle";
            if (!(s->r[i] >= 0.0f) || !(s->R[j] >= 0.0f))
                what = "a hit with a negative radius";
            else if (!(e->toi.t >= 0.0f && e->toi.t <= 1.0f))
                what = "t outside [0, 1] or NaN";
            else if (!unit_normal(e->toi.normal))
                what = "normal NaN or not unit";
        }
        if (what) {
            fprintf(stderr, "[%s] toi of circle %zu breaks the contract: %s\n", label, i, what);
            fprintf(stderr, "  capsule %u t %a normal (%a, %a) point (%a, %a)\n",
                    (unsigned)e->capsule, (double)e->toi.t, (double)e->toi.normal.x,
                    (double)e->toi.normal.y, (double)e->toi.point.x, (double)e->toi.point.y);
            print_circle(s, i, true);
            if (e->capsule < s->m) print_capsule(s, e->capsule);
            return false;
        }
    }
    return true;
}

/* ---- comparison -------------------------------------------------------------------------- */

bool same_float(float a, float b) {
    if (is_nan(a) || is_nan(b)) return is_nan(a) && is_nan(b);
    uint32_t ua, ub;
    memcpy(&ua, &a, sizeof ua);
    memcpy(&ub, &b, sizeof ub);
    return ua == ub;
}

static bool same_floats(const float *a, const float *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!same_float(a[i], b[i])) return false;
    return true;
}

static bool same_contact_body(const c2d_contact *a, const c2d_contact *b) {
    const float fa[] = {a->normal.x, a->normal.y, a->depth, a->point.x, a->point.y};
    const float fb[] = {b->normal.x, b->normal.y, b->depth, b->point.x, b->point.y};
    return same_floats(fa, fb, 5);
}

bool same_contact(const c2d_pair_contact *a, const c2d_pair_contact *b) {
    return a->circle == b->circle && a->capsule == b->capsule &&
           same_contact_body(&a->contact, &b->contact);
}

bool same_toi(const c2d_circle_toi *a, const c2d_circle_toi *b) {
    const float fa[] = {a->toi.t, a->toi.normal.x, a->toi.normal.y, a->toi.point.x, a->toi.point.y};
    const float fb[] = {b->toi.t, b->toi.normal.x, b->toi.normal.y, b->toi.point.x, b->toi.point.y};
    return a->capsule == b->capsule && same_floats(fa, fb, 5);
}

void print_circle(const scene *s, size_t i, bool with_move) {
    fprintf(stderr, "  circle %zu: centre (%a, %a) radius %a", i, (double)s->x[i], (double)s->y[i],
            (double)s->r[i]);
    if (with_move) fprintf(stderr, " move (%a, %a)", (double)s->mx[i], (double)s->my[i]);
    fprintf(stderr, "\n");
}

void print_capsule(const scene *s, size_t j) {
    fprintf(stderr, "  capsule %zu: a (%a, %a) b (%a, %a) radius %a\n", j, (double)s->ax[j],
            (double)s->ay[j], (double)s->bx[j], (double)s->by[j], (double)s->R[j]);
}

static void print_contact(const char *what, const c2d_pair_contact *p) {
    fprintf(stderr, "  %s: circle %u capsule %u normal (%a, %a) depth %a point (%a, %a)\n", what,
            (unsigned)p->circle, (unsigned)p->capsule, (double)p->contact.normal.x,
            (double)p->contact.normal.y, (double)p->contact.depth, (double)p->contact.point.x,
            (double)p->contact.point.y);
}

static void print_toi(const char *what, const c2d_circle_toi *e) {
    fprintf(stderr, "  %s: capsule %u t %a normal (%a, %a) point (%a, %a)\n", what,
            (unsigned)e->capsule, (double)e->toi.t, (double)e->toi.normal.x,
            (double)e->toi.normal.y, (double)e->toi.point.x, (double)e->toi.point.y);
}

bool compare_contacts(const scene *s, const c2d_pair_contact *expected, const c2d_pair_contact *got,
                      size_t n, const char *label) {
    for (size_t k = 0; k < n; k++) {
        if (same_contact(&expected[k], &got[k])) continue;
        fprintf(stderr, "[%s] backend %s: contact %zu of %zu differs from the scalar reference\n",
                label, c2d_backend_name(c2d_backend_active()), k, n);
        print_contact("expected", &expected[k]);
        print_contact("got     ", &got[k]);
        print_circle(s, expected[k].circle, false);
        print_capsule(s, expected[k].capsule);
        if (got[k].circle < s->n && got[k].capsule < s->m &&
            (got[k].circle != expected[k].circle || got[k].capsule != expected[k].capsule)) {
            print_circle(s, got[k].circle, false);
            print_capsule(s, got[k].capsule);
        }
        return false;
    }
    return true;
}

bool compare_tois(const scene *s, const c2d_circle_toi *expected, const c2d_circle_toi *got,
                  size_t n, const char *label) {
    for (size_t i = 0; i < n; i++) {
        if (same_toi(&expected[i], &got[i])) continue;
        fprintf(stderr,
                "[%s] backend %s: toi of circle %zu of %zu differs from the scalar "
                "reference\n",
                label, c2d_backend_name(c2d_backend_active()), i, n);
        print_toi("expected", &expected[i]);
        print_toi("got     ", &got[i]);
        print_circle(s, i, true);
        if (expected[i].capsule < s->m) print_capsule(s, expected[i].capsule);
        if (got[i].capsule < s->m && got[i].capsule != expected[i].capsule)
            print_capsule(s, got[i].capsule);
        return false;
    }
    return true;
}

bool bytes_are(const void *p, size_t n, unsigned char value) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != value) return false;
    return true;
}

/* ---- backends ---------------------------------------------------------------------------- */

size_t available_backends(c2d_backend *list) {
    size_t n = 0;
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++)
        if (c2d_backend_available((c2d_backend)b)) list[n++] = (c2d_backend)b;
    assert_true(n >= 1 && list[0] == C2D_BACKEND_SCALAR);
    return n;
}

void use_backend(c2d_backend b) {
    assert_int_equal(c2d_backend_select(b), C2D_OK);
    assert_int_equal(c2d_backend_active(), b);
}

/* Output buffer of `cap` entries followed by `tail` canary entries and a guard page. */
typedef struct guarded_out {
    void *base;
    size_t base_bytes;
    c2d_pair_contact *p;
} guarded_out;

static c2d_pair_contact *contacts_buffer(guarded_out *g, size_t cap, size_t tail) {
    const size_t bytes = (cap + tail) * sizeof(c2d_pair_contact);
    g->p = guarded_alloc(bytes, &g->base, &g->base_bytes);
    memset(g->p, CANARY_BYTE, bytes);
    return g->p;
}

/* The truncation checks shared by check_collide and check_pairs: `run` calls the batch
 * function with (out, capacity, count). */
typedef c2d_status (*contact_call)(const void *ctx, c2d_pair_contact *out, size_t capacity,
                                   size_t *count);

static void check_contact_call(const scene *s, contact_call run, const void *ctx,
                               const c2d_pair_contact *ref, size_t total, const char *label) {
    enum { TAIL = 3 };
    /* ample capacity: everything written, nothing past it */
    {
        guarded_out g;
        c2d_pair_contact *out = contacts_buffer(&g, total + 2, TAIL);
        size_t count = 12345;
        assert_int_equal(run(ctx, out, total + 2, &count), C2D_OK);
        assert_int_equal(count, total);
        assert_true(compare_contacts(s, ref, out, total, label));
        assert_true(bytes_are(out + total, (2 + TAIL) * sizeof *out, CANARY_BYTE));
        guarded_free(g.base, g.base_bytes);
    }
    /* capacity exactly the total: OK, not truncated */
    {
        guarded_out g;
        c2d_pair_contact *out = contacts_buffer(&g, total, TAIL);
        size_t count = 12345;
        assert_int_equal(run(ctx, out, total, &count), C2D_OK);
        assert_int_equal(count, total);
        assert_true(compare_contacts(s, ref, out, total, label));
        assert_true(bytes_are(out + total, TAIL * sizeof *out, CANARY_BYTE));
        guarded_free(g.base, g.base_bytes);
    }
    /* truncated: the first `cap` of the full answer, a canary after them untouched */
    const size_t caps[] = {total - 1, total / 2, 1};
    for (size_t c = 0; total > 0 && c < sizeof caps / sizeof caps[0]; c++) {
        const size_t cap = caps[c];
        if (cap == 0 || cap >= total || (c > 0 && cap == caps[c - 1])) continue;
        guarded_out g;
        c2d_pair_contact *out = contacts_buffer(&g, cap, TAIL);
        size_t count = 12345;
        assert_int_equal(run(ctx, out, cap, &count), C2D_ERROR_TRUNCATED);
        assert_int_equal(count, total);
        assert_true(compare_contacts(s, ref, out, cap, label));
        assert_true(bytes_are(out + cap, TAIL * sizeof *out, CANARY_BYTE));
        guarded_free(g.base, g.base_bytes);
    }
    /* capacity 0: NULL out is the size query (C2D_OK with the total), and a real buffer is
     * a truncation that leaves the buffer alone */
    {
        size_t count = 12345;
        assert_int_equal(run(ctx, NULL, 0, &count), C2D_OK);
        assert_int_equal(count, total);
        guarded_out g;
        c2d_pair_contact *out = contacts_buffer(&g, 0, TAIL);
        count = 12345;
        assert_int_equal(run(ctx, out, 0, &count), total ? C2D_ERROR_TRUNCATED : C2D_OK);
        assert_int_equal(count, total);
        assert_true(bytes_are(out, TAIL * sizeof *out, CANARY_BYTE));
        guarded_free(g.base, g.base_bytes);
    }
}

static c2d_status run_collide(const void *ctx, c2d_pair_contact *out, size_t capacity,
                              size_t *count) {
    const scene *s = ctx;
    return c2d_batch_collide(&s->circles, &s->capsules, out, capacity, count);
}

void check_collide(const scene *s, const char *label) {
    c2d_pair_contact *ref;
    const size_t total = ref_collide(s, &ref);
    assert_true(contacts_meet_contract(s, ref, total, label));
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        check_contact_call(s, run_collide, s, ref, total, label);
    }
    free(ref);
}

c2d_status run_pairs(const void *ctx, c2d_pair_contact *out, size_t capacity, size_t *count) {
    const pairs_ctx *p = ctx;
    return c2d_batch_collide_pairs(&p->s->circles, &p->s->capsules, p->ci, p->ki, p->np, out,
                                   capacity, count);
}

void check_pairs(const scene *s, const uint32_t *ci, const uint32_t *ki, size_t np,
                 const char *label) {
    c2d_pair_contact *ref;
    const size_t total = ref_pairs(s, ci, ki, np, &ref);
    assert_true(contacts_meet_contract(s, ref, total, label));
    const pairs_ctx ctx = {s, ci, ki, np};
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        check_contact_call(s, run_pairs, &ctx, ref, total, label);
    }
    free(ref);
}

void check_sweep(const scene *s, const char *label) {
    c2d_circle_toi *ref = xmalloc(s->n * sizeof *ref);
    ref_sweep(s, ref);
    assert_true(tois_meet_contract(s, ref, label));
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    bool all_same = true; /* every backend is compared (and reported) before failing */
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        /* one canary entry before the output, a guard page right after it */
        void *base;
        size_t base_bytes;
        const size_t bytes = (s->n + 1) * sizeof(c2d_circle_toi);
        c2d_circle_toi *buf = guarded_alloc(bytes, &base, &base_bytes);
        memset(buf, CANARY_BYTE, bytes);
        assert_int_equal(c2d_batch_sweep(&s->circles, s->mx, s->my, &s->capsules, buf + 1), C2D_OK);
        assert_true(bytes_are(buf, sizeof *buf, CANARY_BYTE));
        all_same &= compare_tois(s, ref, buf + 1, s->n, label);
        guarded_free(base, base_bytes);
    }
    free(ref);
    assert_true(all_same);
}
