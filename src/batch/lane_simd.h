/* SIMD lanes for src/core/segment_formula.h, src/core/contact_formula.h and the kernels, over
 * SIMDe.
 *
 * The kernel source is compiled once per backend with that backend's compiler flags and
 * C2D_LANES set to 4, 8 or 16. SIMDe turns the x86 intrinsics into native instructions on x86
 * and into NEON on AArch64 (4 lanes). Only IEEE +, -, *, /, compares, and min/max with x86
 * semantics are used: no FMA, no reciprocal or square-root estimates (lane_sqrt is the correctly
 * rounded sqrtps / fsqrt). */
#ifndef C2D_BATCH_LANE_SIMD_H
#define C2D_BATCH_LANE_SIMD_H

#include <stdint.h>

#if C2D_LANES == 16
#include <simde/x86/avx512.h>

typedef simde__m512 lane_t;
typedef simde__mmask16 mask_t;

#define lane_add simde_mm512_add_ps
#define lane_sub simde_mm512_sub_ps
#define lane_mul simde_mm512_mul_ps
#define lane_div simde_mm512_div_ps
#define lane_min simde_mm512_min_ps
#define lane_max simde_mm512_max_ps
#define lane_abs simde_mm512_abs_ps
#define lane_sqrt simde_mm512_sqrt_ps
#define lane_neg(a) simde_mm512_xor_ps((a), simde_mm512_set1_ps(-0.0f))
#define lane_splat simde_mm512_set1_ps
#define lane_load simde_mm512_loadu_ps
#define lane_store simde_mm512_storeu_ps
#define lane_le(a, b) simde_mm512_cmp_ps_mask((a), (b), SIMDE_CMP_LE_OQ)
#define lane_ge(a, b) simde_mm512_cmp_ps_mask((a), (b), SIMDE_CMP_GE_OQ)
#define lane_gt(a, b) simde_mm512_cmp_ps_mask((a), (b), SIMDE_CMP_GT_OQ)
/* NOT (a <= b): true for NaN as well as for a > b. Written as the complement of lane_le on
 * every width, because SIMDe 0.7's portable cmpnle is cmpgt, false for NaN. */
#define lane_not_le(a, b) ((mask_t)~lane_le((a), (b)))
#define mask_and(a, b) ((mask_t)((a) & (b)))
#define mask_or(a, b) ((mask_t)((a) | (b)))
#define mask_bits(m) ((uint32_t)(m))
#define mask_any(m) ((m) != 0)
#define mask_all(m) ((m) == (mask_t)0xffff)
#define lane_select(m, yes, no) simde_mm512_mask_blend_ps((m), (no), (yes))
#define lane_load_u32(p) simde_mm512_castsi512_ps(simde_mm512_loadu_si512(p))
#define lane_splat_u32(n) simde_mm512_castsi512_ps(simde_mm512_set1_epi32((int32_t)(n)))
#define lane_eq_u32(a, b)                                                                          \
    simde_mm512_cmpeq_epi32_mask(simde_mm512_castps_si512(a), simde_mm512_castps_si512(b))
#define lane_add_u32(a, n)                                                                         \
    simde_mm512_castsi512_ps(                                                                      \
        simde_mm512_add_epi32(simde_mm512_castps_si512(a), simde_mm512_set1_epi32((int32_t)(n))))
#define lane_min_u32(a, b)                                                                         \
    simde_mm512_castsi512_ps(                                                                      \
        simde_mm512_min_epu32(simde_mm512_castps_si512(a), simde_mm512_castps_si512(b)))
#define lane_store_u32(p, v) simde_mm512_storeu_si512((p), simde_mm512_castps_si512(v))
#define mask_from_bits(bits) ((mask_t)(bits))
#define lane_unpacklo simde_mm512_unpacklo_ps
#define lane_unpackhi simde_mm512_unpackhi_ps
#define lane_unpacklo64(a, b)                                                                      \
    simde_mm512_castpd_ps(                                                                         \
        simde_mm512_unpacklo_pd(simde_mm512_castps_pd(a), simde_mm512_castps_pd(b)))
#define lane_unpackhi64(a, b)                                                                      \
    simde_mm512_castpd_ps(                                                                         \
        simde_mm512_unpackhi_pd(simde_mm512_castps_pd(a), simde_mm512_castps_pd(b)))

#elif C2D_LANES == 8
#include <simde/x86/avx2.h>

typedef simde__m256 lane_t;
typedef simde__m256 mask_t;

#define lane_add simde_mm256_add_ps
#define lane_sub simde_mm256_sub_ps
#define lane_mul simde_mm256_mul_ps
#define lane_div simde_mm256_div_ps
#define lane_min simde_mm256_min_ps
#define lane_max simde_mm256_max_ps
#define lane_abs(a)                                                                                \
    simde_mm256_and_ps((a), simde_mm256_castsi256_ps(simde_mm256_set1_epi32(0x7fffffff)))
#define lane_sqrt simde_mm256_sqrt_ps
#define lane_neg(a) simde_mm256_xor_ps((a), simde_mm256_set1_ps(-0.0f))
#define lane_splat simde_mm256_set1_ps
#define lane_load simde_mm256_loadu_ps
#define lane_store simde_mm256_storeu_ps
#define lane_le(a, b) simde_mm256_cmp_ps((a), (b), SIMDE_CMP_LE_OQ)
#define lane_ge(a, b) simde_mm256_cmp_ps((a), (b), SIMDE_CMP_GE_OQ)
#define lane_gt(a, b) simde_mm256_cmp_ps((a), (b), SIMDE_CMP_GT_OQ)
#define lane_not_le(a, b)                                                                          \
    simde_mm256_xor_ps(lane_le((a), (b)), simde_mm256_castsi256_ps(simde_mm256_set1_epi32(-1)))
#define mask_and simde_mm256_and_ps
#define mask_or simde_mm256_or_ps
#define mask_bits(m) ((uint32_t)simde_mm256_movemask_ps(m))
#define mask_any(m) (!simde_mm256_testz_ps((m), (m)))
#define mask_all(m) (mask_bits(m) == 0xffu)
#define lane_select(m, yes, no) simde_mm256_blendv_ps((no), (yes), (m))
#define lane_load_u32(p) simde_mm256_castsi256_ps(simde_mm256_loadu_si256(p))
#define lane_splat_u32(n) simde_mm256_castsi256_ps(simde_mm256_set1_epi32((int32_t)(n)))
#define lane_eq_u32(a, b)                                                                          \
    simde_mm256_castsi256_ps(                                                                      \
        simde_mm256_cmpeq_epi32(simde_mm256_castps_si256(a), simde_mm256_castps_si256(b)))
#define lane_add_u32(a, n)                                                                         \
    simde_mm256_castsi256_ps(                                                                      \
        simde_mm256_add_epi32(simde_mm256_castps_si256(a), simde_mm256_set1_epi32((int32_t)(n))))
#define lane_min_u32(a, b)                                                                         \
    simde_mm256_castsi256_ps(                                                                      \
        simde_mm256_min_epu32(simde_mm256_castps_si256(a), simde_mm256_castps_si256(b)))
#define lane_store_u32(p, v)                                                                       \
    simde_mm256_storeu_si256((simde__m256i *)(p), simde_mm256_castps_si256(v))
#define mask_from_bits(bits)                                                                       \
    simde_mm256_castsi256_ps(simde_mm256_cmpeq_epi32(                                              \
        simde_mm256_and_si256(simde_mm256_set1_epi32((int32_t)(bits)),                             \
                              simde_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)),                \
        simde_mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)))
#define lane_unpacklo simde_mm256_unpacklo_ps
#define lane_unpackhi simde_mm256_unpackhi_ps
#define lane_unpacklo64(a, b)                                                                      \
    simde_mm256_castpd_ps(                                                                         \
        simde_mm256_unpacklo_pd(simde_mm256_castps_pd(a), simde_mm256_castps_pd(b)))
#define lane_unpackhi64(a, b)                                                                      \
    simde_mm256_castpd_ps(                                                                         \
        simde_mm256_unpackhi_pd(simde_mm256_castps_pd(a), simde_mm256_castps_pd(b)))

#elif C2D_LANES == 4
#include <simde/x86/sse2.h>
#include <simde/x86/sse4.1.h> /* min_epu32 (emulated on SSE2 builds) */
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
#include <simde/arm/neon/maxv.h>
#include <simde/arm/neon/minv.h>
#include <simde/arm/neon/reinterpret.h>
#endif

typedef simde__m128 lane_t;
typedef simde__m128 mask_t;

#define lane_add simde_mm_add_ps
#define lane_sub simde_mm_sub_ps
#define lane_mul simde_mm_mul_ps
#define lane_div simde_mm_div_ps
#define lane_min simde_mm_min_ps
#define lane_max simde_mm_max_ps
#define lane_abs(a) simde_mm_and_ps((a), simde_mm_castsi128_ps(simde_mm_set1_epi32(0x7fffffff)))
#define lane_sqrt simde_mm_sqrt_ps
#define lane_neg(a) simde_mm_xor_ps((a), simde_mm_set1_ps(-0.0f))
#define lane_splat simde_mm_set1_ps
#define lane_load simde_mm_loadu_ps
#define lane_store simde_mm_storeu_ps
#define lane_le simde_mm_cmple_ps
#define lane_ge simde_mm_cmpge_ps
#define lane_gt simde_mm_cmpgt_ps
#define lane_not_le(a, b)                                                                          \
    simde_mm_xor_ps(lane_le((a), (b)), simde_mm_castsi128_ps(simde_mm_set1_epi32(-1)))
#define mask_and simde_mm_and_ps
#define mask_or simde_mm_or_ps
#define mask_bits(m) ((uint32_t)simde_mm_movemask_ps(m))
#define lane_select(m, yes, no)                                                                    \
    simde_mm_or_ps(simde_mm_and_ps((m), (yes)), simde_mm_andnot_ps((m), (no)))
#define lane_load_u32(p) simde_mm_castsi128_ps(simde_mm_loadu_si128(p))
#define lane_splat_u32(n) simde_mm_castsi128_ps(simde_mm_set1_epi32((int32_t)(n)))
#define lane_eq_u32(a, b)                                                                          \
    simde_mm_castsi128_ps(simde_mm_cmpeq_epi32(simde_mm_castps_si128(a), simde_mm_castps_si128(b)))
#define lane_add_u32(a, n)                                                                         \
    simde_mm_castsi128_ps(                                                                         \
        simde_mm_add_epi32(simde_mm_castps_si128(a), simde_mm_set1_epi32((int32_t)(n))))
#define lane_min_u32(a, b)                                                                         \
    simde_mm_castsi128_ps(simde_mm_min_epu32(simde_mm_castps_si128(a), simde_mm_castps_si128(b)))
#define lane_store_u32(p, v) simde_mm_storeu_si128((simde__m128i *)(p), simde_mm_castps_si128(v))
#define mask_from_bits(bits)                                                                       \
    simde_mm_castsi128_ps(simde_mm_cmpeq_epi32(                                                    \
        simde_mm_and_si128(simde_mm_set1_epi32((int32_t)(bits)), simde_mm_setr_epi32(1, 2, 4, 8)), \
        simde_mm_setr_epi32(1, 2, 4, 8)))
#define lane_unpacklo simde_mm_unpacklo_ps
#define lane_unpackhi simde_mm_unpackhi_ps
#define lane_unpacklo64(a, b)                                                                      \
    simde_mm_castpd_ps(simde_mm_unpacklo_pd(simde_mm_castps_pd(a), simde_mm_castps_pd(b)))
#define lane_unpackhi64(a, b)                                                                      \
    simde_mm_castpd_ps(simde_mm_unpackhi_pd(simde_mm_castps_pd(a), simde_mm_castps_pd(b)))
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
/* movemask has no NEON instruction (SIMDe builds it from several); the any-lane test that
 * guards every rare hit is one horizontal max instead. */
#define mask_any(m) (simde_vmaxvq_u32(simde_vreinterpretq_u32_f32(simde__m128_to_neon_f32(m))) != 0)
#define mask_all(m) (simde_vminvq_u32(simde_vreinterpretq_u32_f32(simde__m128_to_neon_f32(m))) != 0)
#else
#define mask_any(m) (mask_bits(m) != 0)
#define mask_all(m) (mask_bits(m) == 0xfu)
#endif

#else
#error "C2D_LANES must be 4, 8 or 16"
#endif

/* lane_load_u32(p): W uint32_t from p as the bits of a vector; lane_add_u32(a, n): those bits
 * plus n as integers (indices travel in float vectors to be transposed with the contacts);
 * lane_min_u32(a, b): the smaller of two such integers, per lane; lane_store_u32(p, v): the W
 * integers to p. mask_from_bits(bits): the mask whose lane j is set when bit j of `bits` is.
 * lane_splat_u32(n): n in every lane; lane_eq_u32(a, b): the lanes whose bits are equal.
 * lane_unpacklo/hi, lane_unpacklo64/hi64: the unpack instructions on 32- and 64-bit elements,
 * within each 128-bit block (a 4 x 4 transpose per block takes four of each). */

/* base[idx[0..W-1]] as a vector. Plain loads through a small buffer: on the AMD cores measured
 * here the AVX2/AVX-512 gather instructions are slower than scalar loads (W2 ran 1.3x slower
 * with them), and they take signed 32-bit offsets, which indices up to UINT32_MAX overflow. */
static inline lane_t lane_gather(const float *base, const uint32_t *idx) {
    float buf[C2D_LANES];
    for (int j = 0; j < C2D_LANES; j++)
        buf[j] = base[idx[j]];
    return lane_load(buf);
}

#endif
