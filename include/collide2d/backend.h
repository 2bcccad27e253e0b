/// @file collide2d/backend.h
/// Choice of the SIMD backend that runs the batch layer. The CPU is probed once, on first
/// use, thread-safely; the environment variable COLLIDE2D_BACKEND=<name> (a name from
/// c2d_backend_name(), exactly: lower case, no spaces) overrides the automatic choice when
/// that backend is available, and is ignored otherwise. The library never prints: ask
/// c2d_backend_env_status() whether, and why not, the variable was used. Every backend
/// returns the same bytes; only speed differs.
#ifndef COLLIDE2D_BACKEND_H
#define COLLIDE2D_BACKEND_H

#include "batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The batch layer's implementations.
typedef enum c2d_backend {
    C2D_BACKEND_AUTO,   ///< The best available (for c2d_backend_select()).
    C2D_BACKEND_SCALAR, ///< Plain loops over the scalar reference layer; always available.
    C2D_BACKEND_SSE2,   ///< 4 lanes, x86-64 baseline.
    C2D_BACKEND_SSE41,  ///< Alias of SSE2: SSE4.1 adds nothing these kernels use.
    C2D_BACKEND_AVX2,   ///< 8 lanes (AVX2, no FMA).
    C2D_BACKEND_AVX512, ///< 16 lanes (AVX-512 F, DQ, VL).
    C2D_BACKEND_NEON,   ///< 4 lanes on AArch64 (the SSE2 kernel source mapped to NEON by SIMDe).
    C2D_BACKEND_WASM_SIMD128, ///< 4 lanes in WebAssembly builds (the SSE2 kernel source mapped to
                              ///< SIMD128 by SIMDe; no relaxed SIMD).
    C2D_BACKEND_COUNT
} c2d_backend;

/// True when `b` was compiled in and this CPU runs it. AUTO is always available.
C2D_API bool c2d_backend_available(c2d_backend b);

/// Makes `b` the active backend for every thread (AUTO: the best available). Returns
/// C2D_ERROR_UNSUPPORTED, and changes nothing, when `b` is not available or out of range.
C2D_API c2d_status c2d_backend_select(c2d_backend b);

/// The backend batch calls use now (never AUTO).
C2D_API c2d_backend c2d_backend_active(void);

/// "auto", "scalar", "sse2", "sse41", "avx2", "avx512", "neon" or "wasm_simd128"; "unknown"
/// out of range.
C2D_API const char *c2d_backend_name(c2d_backend b);

/// What the environment variable COLLIDE2D_BACKEND asks for, and whether it is honoured.
typedef enum c2d_backend_env {
    C2D_BACKEND_ENV_UNSET,      ///< Not set: the automatic choice.
    C2D_BACKEND_ENV_USED,       ///< Names an available backend (or "auto"): the first choice.
    C2D_BACKEND_ENV_UNKNOWN,    ///< Not a backend name (names are exact: lower case, no
                                ///< spaces); ignored, the automatic choice is made.
    C2D_BACKEND_ENV_UNAVAILABLE ///< A backend this build or CPU lacks; ignored, the
                                ///< automatic choice is made.
} c2d_backend_env;

/// Reads COLLIDE2D_BACKEND now and tells whether the first backend choice follows it (a
/// c2d_backend_select() call made before any batch call replaces that choice). `requested`,
/// if not NULL, receives the variable's value (NULL when unset), valid until the environment
/// changes. A program can report an ignored override itself, e.g.:
/// @code
/// const char *asked;
/// const c2d_backend_env e = c2d_backend_env_status(&asked);
/// if (e == C2D_BACKEND_ENV_UNKNOWN || e == C2D_BACKEND_ENV_UNAVAILABLE)
///     fprintf(stderr, "COLLIDE2D_BACKEND='%s': %s\n", asked, c2d_backend_env_string(e));
/// @endcode
C2D_API c2d_backend_env c2d_backend_env_status(const char **requested);

/// A short English description of `e` (never NULL; "unknown status" for other values).
C2D_API const char *c2d_backend_env_string(c2d_backend_env e);

#ifdef __cplusplus
}
#endif

#endif
