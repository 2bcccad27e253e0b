/* galton_world: the web page's Galton board (board.c) on the command line. Prints the world hash
 * and the bin counts after N steps, the lines the page shows and scripts/wasm compares:
 *
 *     galton_world [--balls 1000] [--rows 14] [--seed 1] [--steps 600] [--check S]
 *
 * --check S then runs to step S and checks the board: every coordinate finite, every ball
 * inside the board and not inside a pin, wall or divider (nor two balls a quarter radius deep
 * in each other), each bin's sensor count equal to the balls whose centre lies in it (while
 * no bin overflows: about 1,200 balls), and no ball awake at the end; exit status 1 when one
 * fails. It also prints the balls resting above the bins and the milliseconds a step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"

static double now(void) {
    struct timespec t;
    timespec_get(&t, TIME_UTC);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void print_bins(const char *label, const int32_t *bins) {
    printf("%s:", label);
    for (int k = 0; k < gw_bin_count(); k++)
        printf(" %d", (int)bins[k]);
    printf("\n");
}

/* Squared distance from (x, y) to the segment (ax, ay)-(bx, by). */
static float dist2(float x, float y, float ax, float ay, float bx, float by) {
    float dx = bx - ax, dy = by - ay, l = dx * dx + dy * dy;
    float t = l > 0 ? ((x - ax) * dx + (y - ay) * dy) / l : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    float ex = x - ax - t * dx, ey = y - ay - t * dy;
    return ex * ex + ey * ey;
}

/* The checks of --check; returns the number of failures, printing each kind once. */
static int check(void) {
    int n = gw_balls(), bad = 0, bins = gw_bin_count();
    const float *x = gw_ball_x(), *y = gw_ball_y();
    float r = (float)gw_ball_radius(), deepest = 0;
    int in_bin[64] = {0}, outside = 0, nan = 0, above = 0;
    float bin_top = 0; /* the dividers' top */
    for (int c = 0; c < gw_capsule_count(); c++)
        if (gw_capsule_kind()[c] == 1 && gw_capsule_by()[c] > bin_top) bin_top = gw_capsule_by()[c];
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i])) {
            nan++;
            continue;
        }
        if (x[i] < gw_bound(0) || x[i] > gw_bound(1) || y[i] < gw_bound(2) || y[i] > gw_bound(3))
            outside++;
        for (int c = 0; c < gw_capsule_count(); c++) {
            float d = sqrtf(dist2(x[i], y[i], gw_capsule_ax()[c], gw_capsule_ay()[c],
                                  gw_capsule_bx()[c], gw_capsule_by()[c]));
            float depth = (r + gw_capsule_radius()[c] - d) / r;
            if (depth > deepest) deepest = depth;
        }
        float w = (float)(gw_bound(1) - gw_bound(0) - 1.2) / (float)bins;
        int k = (int)floorf((x[i] - (float)(gw_bound(0) + 0.6)) / w);
        if (y[i] < bin_top && k >= 0 && k < bins)
            in_bin[k]++;
        else
            above++;
    }
    float overlap = 0; /* the deepest two balls overlap */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            float dx = x[i] - x[j], dy = y[i] - y[j];
            if (dx * dx + dy * dy < 4 * r * r) {
                float depth = (2 * r - sqrtf(dx * dx + dy * dy)) / r;
                if (depth > overlap) overlap = depth;
            }
        }
    printf("check: %d balls, %d not finite, %d outside, %d above the bins, deepest in a capsule "
           "%.4f radii, deepest ball pair %.4f radii, awake %d\n",
           n, nan, outside, above, (double)deepest, (double)overlap, gw_awake_count());
    /* Not a failure: a ball that comes to rest within a few degrees of a pin's top may sleep
     * there (sleep holds the balance; the default rolling resistance holds it up to ~3 degrees) */
    bad += nan > 0 || outside > 0 || deepest > 0.05f || overlap > 0.25f || gw_awake_count() > 0;
    for (int k = 0; k < bins; k++)
        if (in_bin[k] != gw_bins()[k]) {
            printf("check: bin %d holds %d balls, its sensor counts %d\n", k, in_bin[k],
                   (int)gw_bins()[k]);
            bad++;
        }
    return bad;
}

int main(int argc, char **argv) {
    int balls = 1000, rows = 14, steps = 600, until = 0;
    unsigned seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--balls"))
            balls = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rows"))
            rows = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed"))
            seed = (unsigned)strtoul(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--steps"))
            steps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--check"))
            until = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (gw_create(balls, rows, seed, steps) != 0) {
        fprintf(stderr, "cannot build the board\n");
        return 1;
    }
    double t0 = now();
    if (gw_step(steps) != steps) return 1;
    double t1 = now();
    printf("backend: %s\nsteps: %d\nballs: %d of %d, %d awake\n", gw_backend(), steps,
           gw_ball_count(), gw_ball_total(), gw_awake_count());
    print_bins("bins", gw_bins_at());
    printf("world hash: %s\n", gw_hash_at());
    if (until <= steps) return 0;
    fprintf(stderr, "%.3f ms a step over the first %d steps\n", 1e3 * (t1 - t0) / steps, steps);
    for (int s = steps; s < until; s += 600) {
        double a = now();
        int k = until - s < 600 ? until - s : 600;
        if (gw_step(k) != k) return 1;
        fprintf(stderr, "steps %d-%d: %.3f ms a step, %d balls, %d awake\n", s, s + k,
                1e3 * (now() - a) / k, gw_ball_count(), gw_awake_count());
    }
    print_bins("bins at the end", gw_bins());
    return check() ? 1 : 0;
}
