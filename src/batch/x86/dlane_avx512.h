/* The float/double conversions of batch/dlane_simd.h's 16-lane double lanes, in AVX-512
 * intrinsics: SIMDe 0.7 has no AVX-512 conversion between float and double, so there is no SIMDe
 * version to measure against. The 16-lane backend is only ever built for x86 with -mavx512f
 * -mavx512dq, where SIMDe's types are the native ones. */
#ifndef C2D_BATCH_X86_DLANE_AVX512_H
#define C2D_BATCH_X86_DLANE_AVX512_H

#include <immintrin.h>

/* Float lanes [8 half, 8 half + 8) as doubles (exact). */
#define dlane_from_lane(a, half)                                                                   \
    ((half) ? _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1)))    \
            : _mm512_cvtps_pd(_mm512_castps512_ps256(a)))
/* Two double vectors as one float vector, low lanes first (round to nearest). */
#define lane_from_dlanes(lo, hi)                                                                   \
    _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1)

#endif
