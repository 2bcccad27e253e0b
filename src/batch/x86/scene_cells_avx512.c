/* The scene's fine scan with AVX-512 (kernels fine_cells and fine_hits of the AVX-512 table,
 * compiled into that backend only, with its flags; batch/kernels_scene.h declares them): 16 circles
 * an iteration, the tests into mask registers, one gather of the cells' bit words and `vpcompressd`
 * of the circles whose bit is set. Raw intrinsics because SIMDe 0.7 has no AVX-512 gather. Why it
 * beats the shared SIMDe path (the scan of four circles at once, then the bits one at a time, that
 * the AVX-512 table ran before): cells, bits and ranks in this kernel took the W5 scene from 3.67x
 * to 4.37x at 65,536 balls and from 3.68x to 4.23x at 262,144 against 178c445, 1.19x and 1.15x
 * (docs/scenes.md, "The scan kernels: measured", Zen 5).
 *
 * Measured again in issue 41 against the same tree with both entries NULL (the SIMDe scan), one
 * process, 31 alternating calls (`bash scripts/ab --backend avx512`, Intel Xeon guest): W5 at
 * 65,536 balls 1.35x least / 1.34x paired, at 262,144 1.28x / 1.25x. */
#include <immintrin.h>

#include "batch/cull.h"
#include "batch/x86/scene_cells.h"

/* The lanes that are a tail's first n - t (all 16 when n - t >= 16). */
static inline __mmask16 valid_lanes(size_t n, size_t t) {
    return n - t >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << (n - t)) - 1u);
}

size_t C2D_SCENE_KERNEL(C2D_BACKEND_TABLE, fine_cells)(const c2d_fine_grid *g,
                                                       const c2d_circle_soa *c, size_t first,
                                                       size_t n, uint32_t *cell, uint32_t *slow) {
    const __m512 sign = _mm512_set1_ps(-0.0f), limit = _mm512_set1_ps(C2D_TAME_LIMIT);
    const __m512 zero = _mm512_setzero_ps(), rho = _mm512_set1_ps(g->rho);
    const __m512 lo_x = _mm512_set1_ps(g->lo_x), hi_x = _mm512_set1_ps(g->hi_x);
    const __m512 lo_y = _mm512_set1_ps(g->lo_y), hi_y = _mm512_set1_ps(g->hi_y);
    const __m512 x0 = _mm512_set1_ps(g->x0), y0 = _mm512_set1_ps(g->y0);
    const __m512 inv = _mm512_set1_ps(g->inv_size);
    const __m512 last_x = _mm512_set1_ps((float)(g->nx - 1));
    const __m512 last_y = _mm512_set1_ps((float)(g->ny - 1));
    const __m512i nx = _mm512_set1_epi32((int32_t)g->nx), step = _mm512_set1_epi32(16);
    const __m512i empty = _mm512_set1_epi32((int32_t)g->empty);
    __m512i t_lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    size_t ns = 0;
    for (size_t t = 0; t < n; t += 16, t_lanes = _mm512_add_epi32(t_lanes, step)) {
        const __mmask16 valid = valid_lanes(n, t);
        const size_t i = first + t;
        circles_ahead(c, i);
        const __m512 X = _mm512_maskz_loadu_ps(valid, c->x + i);
        const __m512 Y = _mm512_maskz_loadu_ps(valid, c->y + i);
        const __m512 R = _mm512_maskz_loadu_ps(valid, c->radius + i);
        const __m512 AX = _mm512_andnot_ps(sign, X), AY = _mm512_andnot_ps(sign, Y);
        /* served: 0 <= r <= rho, |x| and |y| tame (false on NaN) */
        const __mmask16 served = _mm512_mask_cmp_ps_mask(
            _mm512_mask_cmp_ps_mask(
                _mm512_mask_cmp_ps_mask(_mm512_mask_cmp_ps_mask(valid, AX, limit, _CMP_LE_OQ), AY,
                                        limit, _CMP_LE_OQ),
                R, zero, _CMP_GE_OQ),
            R, rho, _CMP_LE_OQ);
        const __mmask16 use = _mm512_mask_cmp_ps_mask(
            _mm512_mask_cmp_ps_mask(
                _mm512_mask_cmp_ps_mask(_mm512_mask_cmp_ps_mask(served, X, lo_x, _CMP_GE_OQ), X,
                                        hi_x, _CMP_LE_OQ),
                Y, lo_y, _CMP_GE_OQ),
            Y, hi_y, _CMP_LE_OQ);
        __m512 tx = _mm512_mul_ps(_mm512_sub_ps(X, x0), inv);
        __m512 ty = _mm512_mul_ps(_mm512_sub_ps(Y, y0), inv);
        tx = _mm512_max_ps(_mm512_min_ps(tx, last_x), zero);
        ty = _mm512_max_ps(_mm512_min_ps(ty, last_y), zero);
        const __m512i k = _mm512_add_epi32(_mm512_mullo_epi32(_mm512_cvttps_epi32(ty), nx),
                                           _mm512_cvttps_epi32(tx));
        _mm512_mask_storeu_epi32(cell + t, valid, _mm512_mask_blend_epi32(use, empty, k));
        const __mmask16 rest = (__mmask16)(valid & ~served);
        if (rest) { /* rare: radius above rho, NaN, not tame */
            _mm512_storeu_si512(slow + ns, _mm512_maskz_compress_epi32(rest, t_lanes));
            ns += (size_t)__builtin_popcount(rest);
        }
    }
    return ns;
}

size_t C2D_SCENE_KERNEL(C2D_BACKEND_TABLE, fine_hits)(const c2d_fine_grid *g, const uint32_t *cell,
                                                      size_t n, uint32_t *hit, uint32_t *rank) {
    const __m512i one = _mm512_set1_epi32(1), low5 = _mm512_set1_epi32(31);
    const __m512i step = _mm512_set1_epi32(16);
    const int *words = (const int *)(const void *)g->bits; /* 32-bit words (little-endian) */
    __m512i t_lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    size_t nh = 0;
    for (size_t t = 0; t < n; t += 16, t_lanes = _mm512_add_epi32(t_lanes, step)) {
        const __mmask16 valid = valid_lanes(n, t);
        const __m512i k = _mm512_maskz_loadu_epi32(valid, cell + t);
        const __m512i word = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), valid,
                                                         _mm512_srli_epi32(k, 5), words, 4);
        const __mmask16 set = _mm512_mask_test_epi32_mask(
            valid, _mm512_srlv_epi32(word, _mm512_and_si512(k, low5)), one);
        _mm512_storeu_si512(hit + nh, _mm512_maskz_compress_epi32(set, t_lanes));
        _mm512_storeu_si512(rank + nh, _mm512_maskz_compress_epi32(set, k));
        nh += (size_t)__builtin_popcount(set);
    }
    ranks(g, rank, nh);
    return nh;
}
