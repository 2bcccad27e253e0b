/* The Galton board example: drops balls through a lattice of capsule pins into bins, on the
 * library's scenes, sweeps, ball-ball contacts and contact response, then draws the board and
 * the histogram of balls per bin beside the binomial distribution (PNG, with cairo).
 *
 *   galton [--balls N] [--rows R] [--seed S] [--threads T] [--restitution E]
 *          [--hopper H] [--steps MAX] [--png PATH] [--frames DIR] [--frame-every K]
 *          [--backend NAME]
 *
 * --hopper is how many balls may wait above the funnel (a denser stream drops faster);
 * --frames writes DIR/frame00000.png ... every K steps for an animation.
 */
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <collide2d.h>

#include "draw.h"
#include "sim.h"

static void usage(void) {
    fprintf(stderr, "usage: galton [--balls N (20000; try 200000)] [--rows R (24)] [--seed S (1)]\n"
                    "              [--threads T (1)] [--restitution E (0.3)] [--hopper H (300)]\n"
                    "              [--steps MAX (100000)] [--png PATH (galton.png)]\n"
                    "              [--frames DIR] [--frame-every K (8)]\n"
                    "              [--backend scalar|sse2|sse41|avx2|avx512|neon|wasm_simd128]\n");
}

static c2d_backend backend_named(const char *name) {
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++)
        if (strcmp(c2d_backend_name((c2d_backend)b), name) == 0) return (c2d_backend)b;
    return C2D_BACKEND_COUNT;
}

int main(int argc, char **argv) {
    size_t balls = 20000, max_steps = 100000, frame_every = 8;
    int rows = 24, threads = 1;
    double restitution = -1.0;
    size_t hopper = 300;
    unsigned long seed = 1;
    const char *png = "galton.png", *frames = NULL;
    for (int a = 1; a < argc; a++) {
        const char *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
            usage();
            return 0;
        } else if (v && !strcmp(argv[a], "--balls"))
            balls = strtoul(v, NULL, 10), a++;
        else if (v && !strcmp(argv[a], "--rows"))
            rows = atoi(v), a++;
        else if (v && !strcmp(argv[a], "--restitution"))
            restitution = atof(v), a++;
        else if (v && !strcmp(argv[a], "--hopper"))
            hopper = strtoul(v, NULL, 10), a++;
        else if (v && !strcmp(argv[a], "--seed"))
            seed = strtoul(v, NULL, 10), a++;
        else if (v && !strcmp(argv[a], "--threads"))
            threads = atoi(v), a++;
        else if (v && !strcmp(argv[a], "--steps"))
            max_steps = strtoul(v, NULL, 10), a++;
        else if (v && !strcmp(argv[a], "--png"))
            png = v, a++;
        else if (v && !strcmp(argv[a], "--frames"))
            frames = v, a++;
        else if (v && !strcmp(argv[a], "--frame-every"))
            frame_every = strtoul(v, NULL, 10), a++;
        else if (v && !strcmp(argv[a], "--backend")) {
            const c2d_backend b = backend_named(v);
            if (b == C2D_BACKEND_COUNT || c2d_backend_select(b) != C2D_OK) {
                fprintf(stderr, "galton: backend %s is not available here\n", v);
                return 2;
            }
            a++;
        } else {
            usage();
            return 2;
        }
    }
    galton_params p;
    galton_defaults(&p, rows, balls);
    p.seed = (uint32_t)seed;
    p.threads = threads;
    p.hopper_capacity = hopper;
    if (restitution >= 0.0) p.ball_restitution = p.pin_restitution = (float)restitution;
    galton g;
    if (galton_create(&g, &p) != 0) {
        fprintf(stderr, "galton: cannot build the board (out of memory or bad parameters)\n");
        return 1;
    }
    printf("Galton board: %d rows, %zu bins, %zu capsules (%zu pins), %zu balls, backend %s, "
           "%d thread%s\n",
           rows, (size_t)galton_bin_count(&g), g.n_caps, g.n_pins, balls,
           c2d_backend_name(c2d_backend_active()), threads, threads == 1 ? "" : "s");
    size_t frame = 0;
    if (frames && mkdir(frames, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "galton: cannot create %s\n", frames);
        return 1;
    }
    const double start = galton_now();
    size_t peak_awake = 0; /* the most balls the contact steps saw in one step */
    while (g.steps < max_steps && !galton_done(&g)) {
        if (galton_step(&g) != 0) return 1;
        if (g.n_awake > peak_awake) peak_awake = g.n_awake;
        if (frames && g.steps % frame_every == 0) {
            char path[4096];
            snprintf(path, sizeof path, "%s/frame%05zu.png", frames, frame++);
            if (galton_draw_png(&g, path) != 0) return 1;
        }
    }
    const double wall = galton_now() - start;
    const double per = 1e3 / (double)(g.steps ? g.steps : 1);
    printf("%llu steps of %.6f s (%.2f s simulated) in %.2f s wall clock\n",
           (unsigned long long)g.steps, (double)p.dt, (double)g.steps * (double)p.dt, wall);
    printf("per step: broad %.3f ms, narrow %.3f ms, response %.3f ms\n", g.timing.broad * per,
           g.timing.narrow * per, g.timing.response * per);
    printf("sleeping: at most %zu balls awake in a step, %llu wakings\n", peak_awake,
           (unsigned long long)g.woken);
    printf("world hash: %016llx\n", (unsigned long long)galton_hash(&g));
    size_t counts[512];
    galton_bins(&g, counts);
    printf("balls per bin:");
    for (int k = 0; k < galton_bin_count(&g); k++)
        printf(" %zu", counts[k]);
    printf("\n");
    if (frames) printf("frames: %s/frame%%05d.png (%zu frames)\n", frames, frame);
    if (galton_draw_png(&g, png) == 0) printf("picture: %s\n", png);
    galton_destroy(&g);
    return 0;
}
