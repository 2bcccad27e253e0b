/* Shared by the benchmark bodies: the workloads of docs/design.md section 7 (built once, on first
 * use), the backend list, and the checks every body makes. */
#ifndef C2D_BENCH_H
#define C2D_BENCH_H

#include <stdint.h>

#include "collide2d.h"
#include "gbench.h"
#include "workload.h"

/* The capsules of every workload (W1: 4096 circles x 256 capsules). */
enum { BENCH_W1_CIRCLES = 4096, BENCH_CAPSULES = 256 };
/* W2: random (circle, capsule) index pairs over the W1 sets. */
#define BENCH_W2_PAIRS ((size_t)1 << 20)

/* One benchmark's parameters, given to gb_register() as `arg` (static storage). */
typedef struct bench_case {
    c2d_backend backend; /* C2D_BACKEND_AUTO: a plain loop over the scalar functions */
} bench_case;

/* The registration options main() parsed. */
typedef struct bench_options {
    double slow_min_time; /* > 0: the min time of the slowest benchmarks (scalar W3, W4) */
} bench_options;

/* The W1-style workload with n circles and 256 capsules (seeded with C2D_WORKLOAD_SEED),
 * built on first use and kept; NULL when out of memory. */
const c2d_workload *bench_workload(size_t n_circles);
/* The W2 pair lists over bench_workload(4096); false when out of memory. */
bool bench_pairs(const uint32_t **circle_index, const uint32_t **capsule_index);

/* The name of a case's backend in benchmark names: c2d_backend_name() or "scalar_loop". */
const char *bench_case_name(const bench_case *c);

/* Makes the case's backend active; on failure skips the benchmark and returns false. */
bool bench_select(gb_state *st, const bench_case *c);

/* Reports the run: items_per_second counts `pairs_per_iteration` circle-capsule pairs an
 * iteration; "pairs" and "hits" (contacts or hit circles) are per frame, "checksum" is a 32-bit
 * fold of FNV-1a over the frame's output bytes (equal on every backend: the same bytes). */
void bench_report(gb_state *st, double pairs_per_iteration, size_t hits, const void *output,
                  size_t output_bytes);

/* Registers `fn` for case `c` as "workload/backend" (times in microseconds, with the min and
 * max aggregates beside the median); the caller may add an argument. */
gb_benchmark *bench_register(const char *workload, gb_function fn, const bench_case *c);

/* The cases: every available backend, the x86 SSE4.1 alias included, plus the plain loop. */
extern const bench_case bench_scalar_loop;
/* The available backends, in the order AUTO picks last to first (scalar first); returns how
 * many were written to `out` (at most C2D_BACKEND_COUNT). */
size_t bench_backends(const bench_case **out);

/* Registration, one per workload file. */
void bench_register_collide(const bench_options *o); /* W1 and W4 (collide.c) */
void bench_register_pairs(const bench_options *o);   /* W2 (pairs.c) */
void bench_register_sweep(const bench_options *o);   /* W3, W3d (sweep.c) */
/* W2d (pairs_dense.c) */
/* BENCH_W2_PAIRS listed pairs through c2d_collide_circle_capsule() in a plain loop (pairs.c):
 * writes the first `capacity` contacts in input order, returns the total. */
size_t bench_pairs_loop(const c2d_workload *w, const uint32_t *ci, const uint32_t *ki,
                        c2d_pair_contact *out, size_t capacity);
void bench_register_pairs_dense(const bench_options *o);
void bench_register_scene(const bench_options *o);    /* W5 scenes (scene.c) */
void bench_register_chipmunk(const bench_options *o); /* W5 on Chipmunk2D (peer_chipmunk.c) */
void bench_register_box2d(const bench_options *o);    /* W5, W6 on Box2D (box2d.c) */

/* The W5 workload of variant v with n_circles balls and n_circles / 16 pins, built on first
 * use and kept; NULL when out of memory. */
const c2d_workload *bench_w5(c2d_w5_variant v, size_t n_circles);
/* A W6 ball set (variant, n balls), built on first use and kept (balls.c); NULL when out of
 * memory or when more than three sizes of one variant are asked for. */
const c2d_workload *bench_w6(c2d_w6_variant v, size_t n);

/* W6 (balls against balls, bench/balls.c). */
void bench_register_balls(const bench_options *o);
void bench_register_frame(const bench_options *o);  /* W7 game frame (frame.c) */
void bench_register_rays(const bench_options *o);   /* ray casts on W5 (rays.c) */
void bench_register_freeze(const bench_options *o); /* W8 frozen balls (freeze.c) */

#endif
