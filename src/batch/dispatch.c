/* Backend dispatch: which kernels this build has, which this CPU runs, which is active.
 *
 * The CPU is probed once, lazily, on the first call that needs a backend. The choice lives in
 * one atomic int: the first probe installs its result only if no choice exists yet
 * (compare-exchange), so concurrent first calls and c2d_backend_select() never race. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"

static const char *const backend_names[C2D_BACKEND_COUNT] = {
    "auto", "scalar", "sse2", "sse41", "avx2", "avx512", "neon", "wasm_simd128",
};

/* The kernels compiled into this build, by backend (NULL: not built). SSE4.1 runs the SSE2
 * kernels: nothing SSE4.1 adds (blendv, dpps, round) pays off in them. */
static const c2d_kernels *const built[C2D_BACKEND_COUNT] = {
    [C2D_BACKEND_SCALAR] = &c2d_kernels_scalar,
#ifdef C2D_HAVE_SSE2
    [C2D_BACKEND_SSE2] = &c2d_kernels_sse2,
    [C2D_BACKEND_SSE41] = &c2d_kernels_sse2,
#endif
#ifdef C2D_HAVE_AVX2
    [C2D_BACKEND_AVX2] = &c2d_kernels_avx2,
#endif
#ifdef C2D_HAVE_AVX512
    [C2D_BACKEND_AVX512] = &c2d_kernels_avx512,
#endif
#ifdef C2D_HAVE_NEON
    [C2D_BACKEND_NEON] = &c2d_kernels_neon,
#endif
#ifdef C2D_HAVE_WASM_SIMD128
    [C2D_BACKEND_WASM_SIMD128] = &c2d_kernels_wasm_simd128,
#endif
};

static bool cpu_runs(c2d_backend b) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init(); /* idempotent; needed before __builtin_cpu_supports in early code */
    switch (b) {
    case C2D_BACKEND_SSE2:
        return __builtin_cpu_supports("sse2");
    case C2D_BACKEND_SSE41:
        return __builtin_cpu_supports("sse4.1");
    case C2D_BACKEND_AVX2:
        return __builtin_cpu_supports("avx2");
    case C2D_BACKEND_AVX512:
        /* the AVX-512 table also holds AVX2 kernels (batch/kernels.c) */
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    default:
        return b == C2D_BACKEND_SCALAR;
    }
#elif defined(__wasm__)
    /* WebAssembly has no CPU probe: an engine without SIMD128 rejects the whole module, so a
     * module that runs at all runs the SIMD128 kernels compiled into it. */
    return b == C2D_BACKEND_SCALAR || b == C2D_BACKEND_WASM_SIMD128;
#else
    /* AArch64: Advanced SIMD (NEON) is part of the base architecture. */
    return b == C2D_BACKEND_SCALAR || b == C2D_BACKEND_NEON;
#endif
}

bool c2d_backend_available(c2d_backend b) {
    if (b == C2D_BACKEND_AUTO) return true;
    if ((unsigned)b >= C2D_BACKEND_COUNT || !built[b]) return false;
    return cpu_runs(b);
}

static c2d_backend best_available(void) {
    static const c2d_backend preference[] = {C2D_BACKEND_AVX512, C2D_BACKEND_AVX2,
                                             C2D_BACKEND_NEON,   C2D_BACKEND_WASM_SIMD128,
                                             C2D_BACKEND_SSE41,  C2D_BACKEND_SSE2};
    for (size_t i = 0; i < sizeof preference / sizeof preference[0]; i++)
        if (c2d_backend_available(preference[i])) return preference[i];
    return C2D_BACKEND_SCALAR;
}

/* What COLLIDE2D_BACKEND holds: its status and the backend it names (AUTO when none). */
static c2d_backend_env read_environment(const char **requested, c2d_backend *named) {
    const char *name = getenv("COLLIDE2D_BACKEND");
    if (requested) *requested = name;
    *named = C2D_BACKEND_AUTO;
    if (!name) return C2D_BACKEND_ENV_UNSET;
    for (int b = C2D_BACKEND_AUTO; b < C2D_BACKEND_COUNT; b++)
        if (strcmp(name, backend_names[b]) == 0) {
            if (!c2d_backend_available((c2d_backend)b)) return C2D_BACKEND_ENV_UNAVAILABLE;
            *named = (c2d_backend)b;
            return C2D_BACKEND_ENV_USED;
        }
    return C2D_BACKEND_ENV_UNKNOWN;
}

/* COLLIDE2D_BACKEND=<name>, if it names an available backend; else AUTO. */
static c2d_backend from_environment(void) {
    c2d_backend named;
    read_environment(NULL, &named);
    return named;
}

c2d_backend_env c2d_backend_env_status(const char **requested) {
    c2d_backend named;
    return read_environment(requested, &named);
}

const char *c2d_backend_env_string(c2d_backend_env e) {
    switch (e) {
    case C2D_BACKEND_ENV_UNSET:
        return "COLLIDE2D_BACKEND is not set";
    case C2D_BACKEND_ENV_USED:
        return "COLLIDE2D_BACKEND names an available backend";
    case C2D_BACKEND_ENV_UNKNOWN:
        return "COLLIDE2D_BACKEND is not a backend name (lower case, no spaces); ignored";
    case C2D_BACKEND_ENV_UNAVAILABLE:
        return "COLLIDE2D_BACKEND names a backend this build or CPU lacks; ignored";
    }
    return "unknown status";
}

/* C2D_BACKEND_AUTO (0) here means "not chosen yet". */
static _Atomic int active = C2D_BACKEND_AUTO;

c2d_backend c2d_backend_active(void) {
    int b = atomic_load_explicit(&active, memory_order_acquire);
    if (b != C2D_BACKEND_AUTO) return (c2d_backend)b;
    c2d_backend chosen = from_environment();
    if (chosen == C2D_BACKEND_AUTO) chosen = best_available();
    int expected = C2D_BACKEND_AUTO;
    if (atomic_compare_exchange_strong_explicit(&active, &expected, (int)chosen,
                                                memory_order_acq_rel, memory_order_acquire))
        return chosen;
    return (c2d_backend)expected; /* another thread chose first */
}

c2d_status c2d_backend_select(c2d_backend b) {
    if (!c2d_backend_available(b)) return C2D_ERROR_UNSUPPORTED;
    atomic_store_explicit(&active, (int)(b == C2D_BACKEND_AUTO ? best_available() : b),
                          memory_order_release);
    return C2D_OK;
}

const char *c2d_backend_name(c2d_backend b) {
    return (unsigned)b < C2D_BACKEND_COUNT ? backend_names[b] : "unknown";
}

const c2d_kernels *c2d_active_kernels(void) {
    return built[c2d_backend_active()];
}
