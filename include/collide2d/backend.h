/// @file collide2d/backend.h
/// Choice of the SIMD backend that runs the batch layer. The CPU is probed once, on first
/// use, thread-safely; the environment variable COLLIDE2D_BACKEND=<name> (a name from
/// c2d_backend_name()) overrides the automatic choice when that backend is available, and is
/// ignored otherwise. Every backend returns the same bytes; only speed differs.
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
    C2D_BACKEND_COUNT
} c2d_backend;

/// True when `b` was compiled in and this CPU runs it. AUTO is always available.
C2D_API bool c2d_backend_available(c2d_backend b);

/// Makes `b` the active backend for every thread (AUTO: the best available). Returns
/// C2D_ERROR_UNSUPPORTED, and changes nothing, when `b` is not available or out of range.
C2D_API c2d_status c2d_backend_select(c2d_backend b);

/// The backend batch calls use now (never AUTO).
C2D_API c2d_backend c2d_backend_active(void);

/// "auto", "scalar", "sse2", "sse41", "avx2", "avx512" or "neon"; "unknown" out of range.
C2D_API const char *c2d_backend_name(c2d_backend b);

#ifdef __cplusplus
}
#endif

#endif
