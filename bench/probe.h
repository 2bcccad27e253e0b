/* The W1 probe (bench/probe.c): every pair of a frame through a boolean-only overlap test at one
 * backend's width, no culling; returns how many pairs overlap. One function a width compiled
 * (bench/meson.build); NULL entries in bench_probe_for() where the build has none. */
#ifndef C2D_BENCH_PROBE_H
#define C2D_BENCH_PROBE_H
#include <stddef.h>

#include "collide2d.h"

typedef size_t (*bench_probe_fn)(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules);

size_t bench_probe_sse2(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules);
size_t bench_probe_avx2(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules);
size_t bench_probe_avx512(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules);
size_t bench_probe_neon(const c2d_circle_soa *circles, const c2d_capsule_soa *capsules);

#endif
