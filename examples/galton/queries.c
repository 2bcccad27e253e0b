/* Interim queries until the scene API is merged: the all-pairs batch calls for balls against
 * capsules, and a uniform grid over the public scalar c2d_collide_circles() for ball pairs,
 * sorted into the batch layer's order (a, then b). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "queries.h"

double galton_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int galton_queries_init(galton_queries *q, const c2d_capsule_soa *capsules, int threads) {
    q->capsules = *capsules;
    q->threads = threads;
    q->impl = NULL;
    return 0;
}

void galton_queries_free(galton_queries *q) {
    (void)q;
}

c2d_status galton_collide_pins(galton_queries *q, const c2d_circle_soa *balls,
                               c2d_pair_contact *out, size_t capacity, size_t *count, double *broad,
                               double *narrow) {
    const double t0 = galton_now();
    const c2d_status st = c2d_batch_collide(balls, &q->capsules, out, capacity, count);
    *broad = 0.0;
    *narrow = galton_now() - t0;
    return st;
}

static int pair_order(const void *pa, const void *pb) {
    const c2d_circle_pair_contact *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

c2d_status galton_collide_balls(galton_queries *q, const c2d_circle_soa *balls,
                                c2d_circle_pair_contact *out, size_t capacity, size_t *count) {
    (void)q;
    const size_t n = balls->count;
    float minx = 0, miny = 0, maxx = 0, maxy = 0, rmax = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || balls->x[i] < minx) minx = balls->x[i];
        if (i == 0 || balls->y[i] < miny) miny = balls->y[i];
        if (i == 0 || balls->x[i] > maxx) maxx = balls->x[i];
        if (i == 0 || balls->y[i] > maxy) maxy = balls->y[i];
        if (balls->radius[i] > rmax) rmax = balls->radius[i];
    }
    const float cell = 2.0f * rmax > 0.0f ? 2.0f * rmax : 1.0f;
    const size_t cw = (size_t)((maxx - minx) / cell) + 1, ch = (size_t)((maxy - miny) / cell) + 1;
    size_t *head = malloc(cw * ch * sizeof *head), *next = malloc((n + 1) * sizeof *next);
    size_t total = 0;
    if (!head || !next) {
        free(head);
        free(next);
        *count = 0;
        return C2D_ERROR_NULL;
    }
    for (size_t c = 0; c < cw * ch; c++)
        head[c] = SIZE_MAX;
    for (size_t i = n; i-- > 0;) {
        const size_t c =
            (size_t)((balls->y[i] - miny) / cell) * cw + (size_t)((balls->x[i] - minx) / cell);
        next[i] = head[c];
        head[c] = i;
    }
    for (size_t i = 0; i < n; i++) {
        const size_t cx = (size_t)((balls->x[i] - minx) / cell);
        const size_t cy = (size_t)((balls->y[i] - miny) / cell);
        for (size_t yy = cy ? cy - 1 : 0; yy <= cy + 1 && yy < ch; yy++)
            for (size_t xx = cx ? cx - 1 : 0; xx <= cx + 1 && xx < cw; xx++)
                for (size_t j = head[yy * cw + xx]; j != SIZE_MAX; j = next[j]) {
                    if (j <= i) continue;
                    const c2d_circle a = {{balls->x[i], balls->y[i]}, balls->radius[i]};
                    const c2d_circle b = {{balls->x[j], balls->y[j]}, balls->radius[j]};
                    c2d_contact c;
                    if (!c2d_collide_circles(a, b, &c)) continue;
                    if (total < capacity) {
                        out[total].a = (uint32_t)i;
                        out[total].b = (uint32_t)j;
                        out[total].contact = c;
                    }
                    total++;
                }
    }
    free(head);
    free(next);
    *count = total;
    if (total > capacity) return C2D_ERROR_TRUNCATED;
    qsort(out, total, sizeof *out, pair_order);
    return C2D_OK;
}

c2d_status galton_sweep_pins(galton_queries *q, const c2d_circle_soa *balls, const float *move_x,
                             const float *move_y, c2d_circle_toi *out) {
    return c2d_batch_sweep(balls, move_x, move_y, &q->capsules, out);
}
