/* SIMD double lanes for src/core/sweep_formula.h, over SIMDe: the companion of
 * batch/lane_simd.h, which must be included first. A float vector of C2D_LANES lanes converts
 * to two double vectors of C2D_LANES / 2 lanes (its low and high halves) and back.
 *
 * Only correctly rounded IEEE double operations: + - * / sqrt, compares, and min/max with x86
 * semantics (the second operand unless the compare holds, so on NaN). The conversions are
 * exact (float to double) or round to nearest (double to float), as the C casts of the scalar
 * layer. No FMA. */
#ifndef C2D_BATCH_DLANE_SIMD_H
#define C2D_BATCH_DLANE_SIMD_H

#define DLANE_HALVES 2

#if C2D_LANES == 16
typedef simde__m512d dlane_t;
typedef simde__mmask8 dmask_t;

#define dlane_add simde_mm512_add_pd
#define dlane_sub simde_mm512_sub_pd
#define dlane_mul simde_mm512_mul_pd
#define dlane_div simde_mm512_div_pd
#define dlane_sqrt simde_mm512_sqrt_pd
#define dlane_min simde_mm512_min_pd
#define dlane_max simde_mm512_max_pd
#define dlane_abs simde_mm512_abs_pd
#define dlane_neg(a) simde_mm512_xor_pd((a), simde_mm512_set1_pd(-0.0))
#define dlane_splat simde_mm512_set1_pd
#define dlane_select(m, yes, no) simde_mm512_mask_blend_pd((m), (no), (yes))
#define dlane_lt(a, b) simde_mm512_cmp_pd_mask((a), (b), SIMDE_CMP_LT_OQ)
#define dlane_le(a, b) simde_mm512_cmp_pd_mask((a), (b), SIMDE_CMP_LE_OQ)
#define dlane_gt(a, b) simde_mm512_cmp_pd_mask((a), (b), SIMDE_CMP_GT_OQ)
#define dlane_ge(a, b) simde_mm512_cmp_pd_mask((a), (b), SIMDE_CMP_GE_OQ)
#define dmask_and(a, b) ((dmask_t)((a) & (b)))
#define dmask_any(m) ((m) != 0)
/* dlane_from_lane and lane_from_dlanes: SIMDe 0.7 has no AVX-512 float/double conversion */
#include "batch/x86/dlane_avx512.h"

#elif C2D_LANES == 8
typedef simde__m256d dlane_t;
typedef simde__m256d dmask_t;

#define dlane_add simde_mm256_add_pd
#define dlane_sub simde_mm256_sub_pd
#define dlane_mul simde_mm256_mul_pd
#define dlane_div simde_mm256_div_pd
#define dlane_sqrt simde_mm256_sqrt_pd
#define dlane_min simde_mm256_min_pd
#define dlane_max simde_mm256_max_pd
#define dlane_abs(a) simde_mm256_andnot_pd(simde_mm256_set1_pd(-0.0), (a))
#define dlane_neg(a) simde_mm256_xor_pd((a), simde_mm256_set1_pd(-0.0))
#define dlane_splat simde_mm256_set1_pd
#define dlane_select(m, yes, no) simde_mm256_blendv_pd((no), (yes), (m))
#define dlane_lt(a, b) simde_mm256_cmp_pd((a), (b), SIMDE_CMP_LT_OQ)
#define dlane_le(a, b) simde_mm256_cmp_pd((a), (b), SIMDE_CMP_LE_OQ)
#define dlane_gt(a, b) simde_mm256_cmp_pd((a), (b), SIMDE_CMP_GT_OQ)
#define dlane_ge(a, b) simde_mm256_cmp_pd((a), (b), SIMDE_CMP_GE_OQ)
#define dmask_and simde_mm256_and_pd
#define dmask_any(m) (simde_mm256_movemask_pd(m) != 0)
#define dlane_from_lane(a, half)                                                                   \
    simde_mm256_cvtps_pd((half) ? simde_mm256_extractf128_ps((a), 1)                               \
                                : simde_mm256_castps256_ps128(a))
#define lane_from_dlanes(lo, hi)                                                                   \
    simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm256_cvtpd_ps(lo)),               \
                              simde_mm256_cvtpd_ps(hi), 1)

#elif C2D_LANES == 4
typedef simde__m128d dlane_t;
typedef simde__m128d dmask_t;

#define dlane_add simde_mm_add_pd
#define dlane_sub simde_mm_sub_pd
#define dlane_mul simde_mm_mul_pd
#define dlane_div simde_mm_div_pd
#define dlane_sqrt simde_mm_sqrt_pd
#define dlane_abs(a) simde_mm_andnot_pd(simde_mm_set1_pd(-0.0), (a))
#define dlane_neg(a) simde_mm_xor_pd((a), simde_mm_set1_pd(-0.0))
#define dlane_splat simde_mm_set1_pd
#define dlane_select(m, yes, no)                                                                   \
    simde_mm_or_pd(simde_mm_and_pd((m), (yes)), simde_mm_andnot_pd((m), (no)))
#define dlane_lt simde_mm_cmplt_pd
#define dlane_le simde_mm_cmple_pd
#define dlane_gt simde_mm_cmpgt_pd
#define dlane_ge simde_mm_cmpge_pd
#define dmask_and simde_mm_and_pd
#define dmask_any(m) (simde_mm_movemask_pd(m) != 0)
#if defined(SIMDE_X86_SSE2_NATIVE)
#define dlane_min simde_mm_min_pd
#define dlane_max simde_mm_max_pd
#else
/* SIMDe 0.7 maps min/max_pd to NEON's fmin/fmax, which return NaN for a NaN operand: the x86
 * rule is written out. */
#define dlane_min(a, b) dlane_select(dlane_lt((a), (b)), (a), (b))
#define dlane_max(a, b) dlane_select(dlane_gt((a), (b)), (a), (b))
#endif
#define dlane_from_lane(a, half) simde_mm_cvtps_pd((half) ? simde_mm_movehl_ps((a), (a)) : (a))
#define lane_from_dlanes(lo, hi) simde_mm_movelh_ps(simde_mm_cvtpd_ps(lo), simde_mm_cvtpd_ps(hi))

#endif

#endif
