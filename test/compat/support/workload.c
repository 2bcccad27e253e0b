/* Workload generation for tests, benchmarks and examples: see workload.h. */
#include <math.h>
#include <stdlib.h>

#include "workload.h"

uint64_t c2d_rng_next(c2d_rng *rng) {
    uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

float c2d_rng_unit(c2d_rng *rng) {
    return (float)(c2d_rng_next(rng) >> 40) * 0x1p-24f;
}

float c2d_rng_range(c2d_rng *rng, float lo, float hi) {
    return lo + (hi - lo) * c2d_rng_unit(rng);
}

c2d_vec2 c2d_rng_direction(c2d_rng *rng) {
    for (;;) {
        const float x = c2d_rng_range(rng, -1.0f, 1.0f), y = c2d_rng_range(rng, -1.0f, 1.0f);
        const float len2 = x * x + y * y;
        if (len2 > 1e-4f && len2 <= 1.0f) { /* inside the disc, away from its centre */
            const float len = sqrtf(len2);
            const c2d_vec2 d = {x / len, y / len};
            return d;
        }
    }
}

static float *floats(size_t n) {
    return malloc((n ? n : 1) * sizeof(float));
}

int c2d_workload_make(c2d_workload *w, size_t n_circles, size_t n_capsules, uint64_t seed) {
    float **arrays[] = {&w->x, &w->y, &w->radius, &w->move_x, &w->move_y};
    float **capsule_arrays[] = {&w->ax, &w->ay, &w->bx, &w->by, &w->capsule_radius};
    int failed = 0;
    for (size_t i = 0; i < 5; i++)
        failed |= !(*arrays[i] = floats(n_circles));
    for (size_t i = 0; i < 5; i++)
        failed |= !(*capsule_arrays[i] = floats(n_capsules));
    if (failed) {
        c2d_workload_free(w);
        return -1;
    }
    c2d_rng rng = {seed};
    for (size_t i = 0; i < n_circles; i++) {
        w->x[i] = c2d_rng_range(&rng, 0.0f, 100.0f);
        w->y[i] = c2d_rng_range(&rng, 0.0f, 100.0f);
        w->radius[i] = c2d_rng_range(&rng, 0.05f, 0.25f);
        w->move_x[i] = c2d_rng_range(&rng, -2.0f, 2.0f);
        w->move_y[i] = c2d_rng_range(&rng, -2.0f, 2.0f);
    }
    for (size_t k = 0; k < n_capsules; k++) {
        w->ax[k] = c2d_rng_range(&rng, 0.0f, 100.0f);
        w->ay[k] = c2d_rng_range(&rng, 0.0f, 100.0f);
        const c2d_vec2 d = c2d_rng_direction(&rng);
        const float length = c2d_rng_range(&rng, 0.5f, 5.0f);
        w->bx[k] = w->ax[k] + d.x * length;
        w->by[k] = w->ay[k] + d.y * length;
        w->capsule_radius[k] = c2d_rng_range(&rng, 0.05f, 0.5f);
    }
    const c2d_circle_soa circles = {w->x, w->y, w->radius, n_circles, NULL, NULL};
    const c2d_capsule_soa capsules = {w->ax,      w->ay, w->bx, w->by, w->capsule_radius,
                                      n_capsules, NULL,  NULL,  NULL};
    w->circles = circles;
    w->capsules = capsules;
    return 0;
}

const char *c2d_w5_name(c2d_w5_variant v) {
    static const char *const names[] = {"uniform", "clustered", "mixed", "floor"};
    return v < C2D_W5_VARIANTS ? names[v] : "unknown";
}

int c2d_workload_w5(c2d_workload *w, size_t n_circles, size_t n_capsules, c2d_w5_variant v,
                    uint64_t seed) {
    if (c2d_workload_make(w, n_circles, n_capsules, seed) != 0) return -1;
    /* W1's board is 100 wide for 4096 balls: keep the density (and so the contacts per ball) */
    const float side = 100.0f * sqrtf((float)n_circles / 4096.0f);
    const float scale = side / 100.0f;
    c2d_rng rng = {seed ^ UINT64_C(0x3535353535353535)};
    for (size_t i = 0; i < n_circles; i++) {
        w->x[i] *= scale;
        w->y[i] *= scale;
        if (v == C2D_W5_CLUSTERED) /* a column a tenth of the board wide, in its middle */
            w->x[i] = 0.45f * side + w->x[i] * 0.1f;
        if (v == C2D_W5_MIXED && i % 100 == 99) w->radius[i] *= 20.0f;
    }
    for (size_t k = 0; k < n_capsules; k++) { /* move the pins, keep their shape */
        const float dx = w->bx[k] - w->ax[k], dy = w->by[k] - w->ay[k];
        w->ax[k] = c2d_rng_range(&rng, 0.0f, side);
        w->ay[k] = c2d_rng_range(&rng, 0.0f, side);
        w->bx[k] = w->ax[k] + dx;
        w->by[k] = w->ay[k] + dy;
    }
    if (v == C2D_W5_FLOOR && n_capsules > 0) {
        const size_t k = n_capsules / 2;
        w->ax[k] = 0.0f;
        w->ay[k] = 0.02f * side;
        w->bx[k] = side;
        w->by[k] = 0.02f * side;
        w->capsule_radius[k] = 0.5f;
    }
    return 0;
}

const char *c2d_w6_name(c2d_w6_variant v) {
    static const char *const names[] = {"pile", "gas"};
    return v < C2D_W6_VARIANTS ? names[v] : "unknown";
}

int c2d_workload_w6(c2d_workload *w, size_t n, c2d_w6_variant v, uint64_t seed) {
    if (c2d_workload_make(w, n, 0, seed) != 0) return -1;
    c2d_rng rng = {seed ^ UINT64_C(0x6666666666666666)};
    size_t per_row = 1;
    while ((per_row + 1) * (per_row + 1) <= n)
        per_row++;
    /* gas: n balls of radius 0.5 on side^2 touch about n pi / side^2 others: 0.1 */
    const float side = sqrtf((float)n * 31.4159265f);
    for (size_t i = 0; i < n; i++) {
        if (v == C2D_W6_PILE) {
            const size_t row = i / per_row, col = i % per_row;
            const float shift = row % 2 ? 0.5f : 0.0f;
            w->x[i] = (float)col + shift + c2d_rng_range(&rng, -0.005f, 0.005f);
            w->y[i] =
                (float)row * 0.8660254f + c2d_rng_range(&rng, -0.005f, 0.005f); /* sqrt(3)/2 */
            w->radius[i] = 0.51f;
            w->move_x[i] = c2d_rng_range(&rng, -0.05f, 0.05f);
            w->move_y[i] = c2d_rng_range(&rng, -0.05f, 0.05f);
        } else {
            w->x[i] = c2d_rng_range(&rng, 0.0f, side);
            w->y[i] = c2d_rng_range(&rng, 0.0f, side);
            w->radius[i] = 0.5f;
            w->move_x[i] = c2d_rng_range(&rng, -0.5f, 0.5f);
            w->move_y[i] = c2d_rng_range(&rng, -0.5f, 0.5f);
        }
    }
    return 0;
}

void c2d_workload_free(c2d_workload *w) {
    float **all[] = {&w->x,  &w->y,  &w->radius, &w->move_x, &w->move_y,
                     &w->ax, &w->ay, &w->bx,     &w->by,     &w->capsule_radius};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        free(*all[i]);
        *all[i] = NULL;
    }
}

int c2d_workload_pairs(const c2d_workload *w, size_t n, uint64_t seed, uint32_t **circle_index,
                       uint32_t **capsule_index) {
    *circle_index = malloc((n ? n : 1) * sizeof(uint32_t));
    *capsule_index = malloc((n ? n : 1) * sizeof(uint32_t));
    if (!*circle_index || !*capsule_index || w->circles.count == 0 || w->capsules.count == 0) {
        free(*circle_index);
        free(*capsule_index);
        *circle_index = *capsule_index = NULL;
        return -1;
    }
    c2d_rng rng = {seed};
    for (size_t i = 0; i < n; i++) {
        (*circle_index)[i] = (uint32_t)(c2d_rng_next(&rng) % w->circles.count);
        (*capsule_index)[i] = (uint32_t)(c2d_rng_next(&rng) % w->capsules.count);
    }
    return 0;
}

/* Circles per capsule in W2d. */
enum { DENSE_PER_CAPSULE = 256 };

int c2d_workload_dense_pairs(c2d_workload *w, size_t n_pairs, uint64_t seed,
                             uint32_t **circle_index, uint32_t **capsule_index) {
    const size_t m = n_pairs / DENSE_PER_CAPSULE ? n_pairs / DENSE_PER_CAPSULE : 1;
    if (c2d_workload_make(w, n_pairs, m, seed) != 0) return -1;
    *circle_index = malloc((n_pairs ? n_pairs : 1) * sizeof(uint32_t));
    *capsule_index = malloc((n_pairs ? n_pairs : 1) * sizeof(uint32_t));
    if (!*circle_index || !*capsule_index) {
        free(*circle_index);
        free(*capsule_index);
        *circle_index = *capsule_index = NULL;
        c2d_workload_free(w);
        return -1;
    }
    /* W1's density: 256 capsules on a 100 x 100 board. sqrtf is correctly rounded. */
    const float side = 100.0f * sqrtf((float)m / 256.0f);
    c2d_rng rng = {seed ^ UINT64_C(0xd2d2d2d2d2d2d2d2)};
    for (size_t k = 0; k < m; k++) {
        w->ax[k] = c2d_rng_range(&rng, 0.0f, side);
        w->ay[k] = c2d_rng_range(&rng, 0.0f, side);
        const float length = c2d_rng_range(&rng, 0.5f, 5.0f);
        const c2d_vec2 d = c2d_rng_direction(&rng);
        w->bx[k] = w->ax[k] + d.x * length;
        w->by[k] = w->ay[k] + d.y * length;
        w->capsule_radius[k] = c2d_rng_range(&rng, 0.05f, 0.5f);
    }
    for (size_t p = 0; p < n_pairs; p++) {
        size_t k = p / DENSE_PER_CAPSULE;
        if (k >= m) k = m - 1;
        const float ax = w->ax[k], ay = w->ay[k], bx = w->bx[k], by = w->by[k];
        const float r = c2d_rng_range(&rng, 0.05f, 0.25f);
        const float gap = c2d_rng_range(&rng, 0.0f, 5.0f / 3.0f) * (r + w->capsule_radius[k]);
        float x, y;
        const float ex = bx - ax, ey = by - ay, len = sqrtf(ex * ex + ey * ey);
        if (c2d_rng_next(&rng) % 5 != 0) { /* beside the axis: along its perpendicular */
            const float t = c2d_rng_unit(&rng);
            const float side_sign = (c2d_rng_next(&rng) & 1) ? 1.0f : -1.0f;
            x = ax + t * ex - side_sign * ey / len * gap;
            y = ay + t * ey + side_sign * ex / len * gap;
        } else { /* beyond an end: a direction pointing away from the axis */
            const bool at_b = c2d_rng_next(&rng) & 1;
            c2d_vec2 d = c2d_rng_direction(&rng);
            const float away = at_b ? 1.0f : -1.0f;
            if ((d.x * ex + d.y * ey) * away < 0.0f) {
                d.x = -d.x;
                d.y = -d.y;
            }
            x = (at_b ? bx : ax) + d.x * gap;
            y = (at_b ? by : ay) + d.y * gap;
        }
        w->x[p] = x;
        w->y[p] = y;
        w->radius[p] = r;
        w->move_x[p] = w->move_y[p] = 0.0f;
        (*circle_index)[p] = (uint32_t)p;
        (*capsule_index)[p] = (uint32_t)k;
    }
    return 0;
}

void c2d_pairs_shuffle(uint32_t *circle_index, uint32_t *capsule_index, size_t n, uint64_t seed) {
    c2d_rng rng = {seed};
    for (size_t i = n; i > 1; i--) {
        const size_t j = (size_t)(c2d_rng_next(&rng) % i);
        const uint32_t c = circle_index[i - 1], k = capsule_index[i - 1];
        circle_index[i - 1] = circle_index[j];
        capsule_index[i - 1] = capsule_index[j];
        circle_index[j] = c;
        capsule_index[j] = k;
    }
}

uint64_t c2d_fnv1a(uint64_t h, const void *bytes, size_t n) {
    const unsigned char *p = bytes;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}
