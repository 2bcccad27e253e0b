/* W1 "pachinko" through the scalar layer: 4096 balls against 256 pins, every pair tested
 * with c2d_collide_circle_capsule(). Prints contacts found and time per pair. */
#include <stdio.h>
#include <time.h>

#include "workload.h"

static double now_seconds(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void) {
    c2d_workload w;
    if (c2d_workload_make(&w, 4096, 256, C2D_WORKLOAD_SEED) != 0) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    enum { FRAMES = 20 };
    size_t contacts = 0;
    float depth_sum = 0.0f;
    const double start = now_seconds();
    for (int frame = 0; frame < FRAMES; frame++) {
        contacts = 0;
        for (size_t k = 0; k < w.capsules.count; k++) {
            const c2d_capsule pin = {{w.ax[k], w.ay[k]}, {w.bx[k], w.by[k]}, w.capsule_radius[k]};
            for (size_t i = 0; i < w.circles.count; i++) {
                const c2d_circle ball = {{w.x[i], w.y[i]}, w.radius[i]};
                c2d_contact c;
                if (c2d_collide_circle_capsule(ball, pin, &c)) {
                    contacts++;
                    depth_sum += c.depth;
                }
            }
        }
    }
    const double pairs = (double)FRAMES * (double)w.circles.count * (double)w.capsules.count;
    const double ns = (now_seconds() - start) * 1e9 / pairs;
    printf("W1 pachinko, scalar layer: %zu circles x %zu capsules\n", w.circles.count,
           w.capsules.count);
    printf("contacts per frame: %zu (mean depth %.4f)\n", contacts,
           (double)depth_sum / (double)(contacts * FRAMES));
    printf("time per pair: %.3f ns\n", ns);
    c2d_workload_free(&w);
    return 0;
}
