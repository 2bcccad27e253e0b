/* The W9 layouts (bench/w9_layout.h). */
#include "w9_layout.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

static int layout_alloc(w9_layout *l, size_t n, size_t m) {
    memset(l, 0, sizeof *l);
    l->n = n;
    l->m = m;
    l->x = malloc(n * sizeof(float));
    l->y = malloc(n * sizeof(float));
    l->radius = malloc(n * sizeof(float));
    l->capsules = malloc(m * sizeof(c2d_capsule));
    if (!l->x || !l->y || !l->radius || !l->capsules) {
        w9_layout_free(l);
        return -1;
    }
    l->density = 1.0f;
    l->friction = 0.6f;
    l->restitution = 0.0f;
    l->capsule_friction = 1.0f;
    l->capsule_restitution = 1.0f;
    return 0;
}

static c2d_capsule capsule(float ax, float ay, float bx, float by, float radius) {
    c2d_capsule k;
    k.a.x = ax, k.a.y = ay, k.b.x = bx, k.b.y = by, k.radius = radius;
    return k;
}

/* sqrt by Newton's method, as examples/pachinko.c computes W7's scale (v >= 1). */
static float newton_sqrt(float v) {
    float r = v;
    for (int k = 0; k < 40; k++)
        r = 0.5f * (r + v / r);
    return r;
}

int w9_layout_pile(w9_layout *l, size_t n, float pitch) {
    if (n == 0 || !(pitch > 0.0f)) return -1;
    if (layout_alloc(l, n, 3) != 0) return -1;
    /* sqrtf is correctly rounded everywhere: the same W on every machine */
    const float w = sqrtf((float)n) * 1.1f;
    size_t cols = (size_t)(w / pitch);
    if (cols == 0) cols = 1;
    c2d_rng rng = {C2D_WORKLOAD_SEED};
    for (size_t i = 0; i < n; i++) {
        l->radius[i] = c2d_rng_range(&rng, 0.4f, 0.6f);
        const float jitter = c2d_rng_range(&rng, -0.05f, 0.05f);
        l->x[i] = 0.5f * pitch + pitch * (float)(i % cols) + jitter;
        l->y[i] = 0.7f + pitch * (float)(i / cols);
    }
    const float top = 0.7f + pitch * (float)((n - 1) / cols) + 20.0f;
    l->capsules[0] = capsule(-1.0f, -1.0f, w + 1.0f, -1.0f, 1.0f);
    l->capsules[1] = capsule(-1.0f, -1.0f, -1.0f, top, 1.0f);
    l->capsules[2] = capsule(w + 1.0f, -1.0f, w + 1.0f, top, 1.0f);
    l->width = w;
    l->floor_y = 0.0f;
    return 0;
}

/* examples/pachinko.c's generator (xorshift32), draw for draw. */
static float uniform(unsigned *s, float lo, float hi) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return lo + (hi - lo) * (float)(*s >> 8) * (1.0f / 16777216.0f);
}

int w9_layout_board(w9_layout *l, size_t n) {
    if (n == 0) return -1;
    /* board_make's sizes: 100 wide for 10,000 balls, wider by sqrt(n / 10,000) beyond */
    const float scale = n > 10000 ? newton_sqrt((float)n / 10000.0f) : 1.0f;
    const size_t columns = (size_t)(24.0f * scale), rows = 14;
    const size_t per_row = (size_t)((100.0f * scale - 2.0f) / 0.7f);
    if (layout_alloc(l, n, 4 + rows * columns) != 0) return -1;
    const float w = 100.0f * scale;
    const float h = 112.0f + 0.7f * (float)((n + per_row - 1) / per_row) + 2.0f;
    size_t m = 0;
    l->capsules[m++] = capsule(-1, -1, w + 1, -1, 1);       /* floor */
    l->capsules[m++] = capsule(-1, h + 1, w + 1, h + 1, 1); /* ceiling */
    l->capsules[m++] = capsule(-1, -1, -1, h + 1, 1);       /* left */
    l->capsules[m++] = capsule(w + 1, -1, w + 1, h + 1, 1); /* right */
    for (size_t row = 0; row < rows; row++) {
        const float y = 40.0f + 5.0f * (float)row;
        for (size_t col = 0; col < columns; col++) {
            const float x =
                3.0f + ((w - 6.0f) / (float)columns) * ((float)col + (row % 2 ? 0.5f : 0.0f));
            switch (row % 3) {
            case 0:
                l->capsules[m++] = capsule(x, y, x, y, 0.6f);
                break;
            case 1:
                l->capsules[m++] = capsule(x - 0.8f, y - 0.3f, x + 0.8f, y + 0.3f, 0.25f);
                break;
            default:
                l->capsules[m++] = capsule(x - 1.0f, y + 0.4f, x + 1.0f, y - 0.4f, 0.0f);
                break;
            }
        }
    }
    unsigned seed = 2463534242u;
    for (size_t i = 0; i < n; i++) {
        l->x[i] = 1.0f + 0.7f * (float)(i % per_row) + uniform(&seed, -0.05f, 0.05f);
        l->y[i] = h - 1.5f - 0.7f * (float)(i / per_row);
        l->radius[i] = uniform(&seed, 0.15f, 0.3f);
        (void)uniform(&seed, -3.0f, 3.0f); /* W7's velocities: drawn, not used (at rest) */
        (void)uniform(&seed, -3.0f, 0.0f);
    }
    l->width = w;
    l->floor_y = 0.0f;
    return 0;
}

int w9_layout_drum(w9_layout *l, size_t n) {
    if (n == 0) return -1;
    /* W9a's radii are uniform in [0.15, 0.3]: E[r^2] = (0.3^3 - 0.15^3) / (3 * 0.15) */
    const double mean_area = 3.14159265358979 * (0.027 - 0.003375) / 0.45;
    const float radius = (float)sqrt(3.0 * (double)n * mean_area / (0.82 * 3.14159265358979));
    const float wall = 0.5f, ring = radius + wall; /* the segments' axes */
    const size_t segments = (size_t)(2.0 * 3.14159265358979 * ring / 4.0) + 1, ribs = 4;
    if (layout_alloc(l, n, segments + ribs) != 0) return -1;
    const float cx = radius + 2.0f, cy = radius + 2.0f;
    for (size_t k = 0; k < segments; k++) {
        const double a0 = 2.0 * 3.14159265358979 * (double)k / (double)segments;
        const double a1 = 2.0 * 3.14159265358979 * (double)(k + 1) / (double)segments;
        l->capsules[k] = capsule(cx + ring * (float)cos(a0), cy + ring * (float)sin(a0),
                                 cx + ring * (float)cos(a1), cy + ring * (float)sin(a1), wall);
    }
    for (size_t k = 0; k < ribs; k++) {
        const double a = 2.0 * 3.14159265358979 * ((double)k + 0.5) / (double)ribs;
        const float c = (float)cos(a), s = (float)sin(a), inner = radius - radius / 6.0f;
        l->capsules[segments + k] =
            capsule(cx + ring * c, cy + ring * s, cx + inner * c, cy + inner * s, wall);
    }
    /* The grid's lowest points inside the drum and clear of the ribs, row by row. */
    unsigned seed = 2463534242u;
    const float inside = radius - 0.35f;
    size_t i = 0;
    for (float y = cy - inside + 0.35f; i < n && y < cy + inside; y += 0.7f) {
        for (float x = cx - inside; i < n && x < cx + inside; x += 0.7f) {
            const float dx = x - cx, dy = y - cy;
            if (dx * dx + dy * dy > inside * inside) continue;
            bool near_rib = false;
            for (size_t k = 0; k < ribs; k++) {
                const c2d_capsule r = l->capsules[segments + k];
                const float ex = r.b.x - r.a.x, ey = r.b.y - r.a.y;
                float u = ((x - r.a.x) * ex + (y - r.a.y) * ey) / (ex * ex + ey * ey);
                u = u < 0.0f ? 0.0f : u > 1.0f ? 1.0f : u;
                const float px = x - r.a.x - u * ex, py = y - r.a.y - u * ey;
                if (px * px + py * py < (wall + 0.4f) * (wall + 0.4f)) near_rib = true;
            }
            if (near_rib) continue;
            l->x[i] = x + uniform(&seed, -0.05f, 0.05f);
            l->y[i] = y;
            l->radius[i] = uniform(&seed, 0.15f, 0.3f);
            i++;
        }
    }
    if (i < n) { /* (cannot happen: the disc holds about 1.2 n points) */
        w9_layout_free(l);
        return -1;
    }
    l->width = 2.0f * (radius + 2.0f);
    l->floor_y = cy - radius;
    l->spin = W9C_SPIN;
    l->pivot.x = cx, l->pivot.y = cy;
    l->drum_radius = radius;
    return 0;
}

void w9_layout_free(w9_layout *l) {
    free(l->x);
    free(l->y);
    free(l->radius);
    free(l->capsules);
    memset(l, 0, sizeof *l);
}

size_t w9_stream_row_most(size_t total) {
    return total / W9_STREAM_ROWS + 1;
}

size_t w9_stream_row(const w9_layout *l, size_t total, size_t row, unsigned *seed, float *x,
                     float *y, float *r) {
    const size_t first = total * row / W9_STREAM_ROWS, end = total * (row + 1) / W9_STREAM_ROWS;
    const size_t per_row = w9_stream_row_most(total);
    const size_t columns = per_row > W9_STREAM_COLUMNS ? per_row : W9_STREAM_COLUMNS;
    const float ceiling = l->capsules[1].a.y - l->capsules[1].radius; /* its lower face */
    const float row_y = ceiling - 1.5f - 0.7f * (float)(W9_STREAM_ROWS - 1 - row);
    const float left = 0.5f * l->width - 0.35f * (float)(columns - 1);
    size_t k = 0;
    for (size_t i = first; i < end; i++, k++) {
        x[k] = left + 0.7f * (float)k;
        y[k] = row_y;
        r[k] = uniform(seed, 0.15f, 0.3f);
    }
    return k;
}

w9_stream_window w9_stream_window_start(size_t total) {
    return (w9_stream_window){.threshold = (total + 9) / 10};
}

bool w9_stream_window_ended(const w9_stream_window *v, size_t rows, size_t awake) {
    return rows == W9_STREAM_ROWS && awake < v->threshold;
}

bool w9_stream_window_add(w9_stream_window *v, size_t awake, double seconds) {
    if (awake < v->threshold) return false;
    v->counted++;
    v->sum += seconds;
    v->awake_sum += (double)awake;
    return true;
}
