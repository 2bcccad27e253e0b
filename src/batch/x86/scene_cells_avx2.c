/* The scene's fine scan with AVX2 (kernels fine_cells and fine_hits of the AVX2 table, compiled
 * into that backend only, with its flags; batch/kernels_scene.h declares them): 8 circles an
 * iteration, one `vpgatherdd` of the cells' bit words, the circles whose bit is set compacted by a
 * 256-entry table of permutations, and plain stores where AMD's masked store is microcoded. Why it
 * beats the SIMDe path that serves the 4-lane backends (four circles at once, then the bits one
 * circle at a time): that bit test instead of this fine_hits measured 0.92-0.96x on the W5 scene
 * (docs/speed-log.md, "Scenes", a fourth session, Zen 3), so this kernel is 4-9% faster;
 * fine_cells' plain store of whole vectors measured 1.06x on the frame (same section). fine_cells
 * has no figure against the shared code on its own and is kept beside fine_hits, whose cells it
 * writes (not measured apart in issue 41).
 *
 * Measured in issue 41 against the same tree with both entries NULL (the SIMDe scan), one
 * process, 31 alternating calls (`bash scripts/ab --backend avx2`, Intel Xeon guest): W5 at 65,536
 * balls 1.19x least / 1.19x paired, at 262,144 1.14x / 1.12x. */
#include <immintrin.h>

#include "batch/cull.h"
#include "batch/x86/scene_cells.h"

/* Byte q of entry m: the lane of m's q-th set bit (the permutation that compresses m's lanes). */
static const uint64_t compress_lanes[256] = {
    0x0000000000000000u, 0x0000000000000000u, 0x0000000000000001u, 0x0000000000000100u,
    0x0000000000000002u, 0x0000000000000200u, 0x0000000000000201u, 0x0000000000020100u,
    0x0000000000000003u, 0x0000000000000300u, 0x0000000000000301u, 0x0000000000030100u,
    0x0000000000000302u, 0x0000000000030200u, 0x0000000000030201u, 0x0000000003020100u,
    0x0000000000000004u, 0x0000000000000400u, 0x0000000000000401u, 0x0000000000040100u,
    0x0000000000000402u, 0x0000000000040200u, 0x0000000000040201u, 0x0000000004020100u,
    0x0000000000000403u, 0x0000000000040300u, 0x0000000000040301u, 0x0000000004030100u,
    0x0000000000040302u, 0x0000000004030200u, 0x0000000004030201u, 0x0000000403020100u,
    0x0000000000000005u, 0x0000000000000500u, 0x0000000000000501u, 0x0000000000050100u,
    0x0000000000000502u, 0x0000000000050200u, 0x0000000000050201u, 0x0000000005020100u,
    0x0000000000000503u, 0x0000000000050300u, 0x0000000000050301u, 0x0000000005030100u,
    0x0000000000050302u, 0x0000000005030200u, 0x0000000005030201u, 0x0000000503020100u,
    0x0000000000000504u, 0x0000000000050400u, 0x0000000000050401u, 0x0000000005040100u,
    0x0000000000050402u, 0x0000000005040200u, 0x0000000005040201u, 0x0000000504020100u,
    0x0000000000050403u, 0x0000000005040300u, 0x0000000005040301u, 0x0000000504030100u,
    0x0000000005040302u, 0x0000000504030200u, 0x0000000504030201u, 0x0000050403020100u,
    0x0000000000000006u, 0x0000000000000600u, 0x0000000000000601u, 0x0000000000060100u,
    0x0000000000000602u, 0x0000000000060200u, 0x0000000000060201u, 0x0000000006020100u,
    0x0000000000000603u, 0x0000000000060300u, 0x0000000000060301u, 0x0000000006030100u,
    0x0000000000060302u, 0x0000000006030200u, 0x0000000006030201u, 0x0000000603020100u,
    0x0000000000000604u, 0x0000000000060400u, 0x0000000000060401u, 0x0000000006040100u,
    0x0000000000060402u, 0x0000000006040200u, 0x0000000006040201u, 0x0000000604020100u,
    0x0000000000060403u, 0x0000000006040300u, 0x0000000006040301u, 0x0000000604030100u,
    0x0000000006040302u, 0x0000000604030200u, 0x0000000604030201u, 0x0000060403020100u,
    0x0000000000000605u, 0x0000000000060500u, 0x0000000000060501u, 0x0000000006050100u,
    0x0000000000060502u, 0x0000000006050200u, 0x0000000006050201u, 0x0000000605020100u,
    0x0000000000060503u, 0x0000000006050300u, 0x0000000006050301u, 0x0000000605030100u,
    0x0000000006050302u, 0x0000000605030200u, 0x0000000605030201u, 0x0000060503020100u,
    0x0000000000060504u, 0x0000000006050400u, 0x0000000006050401u, 0x0000000605040100u,
    0x0000000006050402u, 0x0000000605040200u, 0x0000000605040201u, 0x0000060504020100u,
    0x0000000006050403u, 0x0000000605040300u, 0x0000000605040301u, 0x0000060504030100u,
    0x0000000605040302u, 0x0000060504030200u, 0x0000060504030201u, 0x0006050403020100u,
    0x0000000000000007u, 0x0000000000000700u, 0x0000000000000701u, 0x0000000000070100u,
    0x0000000000000702u, 0x0000000000070200u, 0x0000000000070201u, 0x0000000007020100u,
    0x0000000000000703u, 0x0000000000070300u, 0x0000000000070301u, 0x0000000007030100u,
    0x0000000000070302u, 0x0000000007030200u, 0x0000000007030201u, 0x0000000703020100u,
    0x0000000000000704u, 0x0000000000070400u, 0x0000000000070401u, 0x0000000007040100u,
    0x0000000000070402u, 0x0000000007040200u, 0x0000000007040201u, 0x0000000704020100u,
    0x0000000000070403u, 0x0000000007040300u, 0x0000000007040301u, 0x0000000704030100u,
    0x0000000007040302u, 0x0000000704030200u, 0x0000000704030201u, 0x0000070403020100u,
    0x0000000000000705u, 0x0000000000070500u, 0x0000000000070501u, 0x0000000007050100u,
    0x0000000000070502u, 0x0000000007050200u, 0x0000000007050201u, 0x0000000705020100u,
    0x0000000000070503u, 0x0000000007050300u, 0x0000000007050301u, 0x0000000705030100u,
    0x0000000007050302u, 0x0000000705030200u, 0x0000000705030201u, 0x0000070503020100u,
    0x0000000000070504u, 0x0000000007050400u, 0x0000000007050401u, 0x0000000705040100u,
    0x0000000007050402u, 0x0000000705040200u, 0x0000000705040201u, 0x0000070504020100u,
    0x0000000007050403u, 0x0000000705040300u, 0x0000000705040301u, 0x0000070504030100u,
    0x0000000705040302u, 0x0000070504030200u, 0x0000070504030201u, 0x0007050403020100u,
    0x0000000000000706u, 0x0000000000070600u, 0x0000000000070601u, 0x0000000007060100u,
    0x0000000000070602u, 0x0000000007060200u, 0x0000000007060201u, 0x0000000706020100u,
    0x0000000000070603u, 0x0000000007060300u, 0x0000000007060301u, 0x0000000706030100u,
    0x0000000007060302u, 0x0000000706030200u, 0x0000000706030201u, 0x0000070603020100u,
    0x0000000000070604u, 0x0000000007060400u, 0x0000000007060401u, 0x0000000706040100u,
    0x0000000007060402u, 0x0000000706040200u, 0x0000000706040201u, 0x0000070604020100u,
    0x0000000007060403u, 0x0000000706040300u, 0x0000000706040301u, 0x0000070604030100u,
    0x0000000706040302u, 0x0000070604030200u, 0x0000070604030201u, 0x0007060403020100u,
    0x0000000000070605u, 0x0000000007060500u, 0x0000000007060501u, 0x0000000706050100u,
    0x0000000007060502u, 0x0000000706050200u, 0x0000000706050201u, 0x0000070605020100u,
    0x0000000007060503u, 0x0000000706050300u, 0x0000000706050301u, 0x0000070605030100u,
    0x0000000706050302u, 0x0000070605030200u, 0x0000070605030201u, 0x0007060503020100u,
    0x0000000007060504u, 0x0000000706050400u, 0x0000000706050401u, 0x0000070605040100u,
    0x0000000706050402u, 0x0000070605040200u, 0x0000070605040201u, 0x0007060504020100u,
    0x0000000706050403u, 0x0000070605040300u, 0x0000070605040301u, 0x0007060504030100u,
    0x0000070605040302u, 0x0007060504030200u, 0x0007060504030201u, 0x0706050403020100u,
};

/* The lanes of v set in m, first, stored at out (8 entries written). */
static inline void compress_store(uint32_t *out, __m256i v, unsigned m) {
    const __m256i perm = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)&compress_lanes[m]));
    _mm256_storeu_si256((__m256i *)out, _mm256_permutevar8x32_epi32(v, perm));
}

/* The lanes that are a tail's first n - t (all 8 when n - t >= 8), as a vector mask. */
static inline __m256i valid_lanes(size_t n, size_t t) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n - t >= 8 ? 8 : (int32_t)(n - t)),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

size_t C2D_SCENE_KERNEL(C2D_BACKEND_TABLE, fine_cells)(const c2d_fine_grid *g,
                                                       const c2d_circle_soa *c, size_t first,
                                                       size_t n, uint32_t *cell, uint32_t *slow) {
    const __m256 sign = _mm256_set1_ps(-0.0f), limit = _mm256_set1_ps(C2D_TAME_LIMIT);
    const __m256 zero = _mm256_setzero_ps(), rho = _mm256_set1_ps(g->rho);
    const __m256 lo_x = _mm256_set1_ps(g->lo_x), hi_x = _mm256_set1_ps(g->hi_x);
    const __m256 lo_y = _mm256_set1_ps(g->lo_y), hi_y = _mm256_set1_ps(g->hi_y);
    const __m256 x0 = _mm256_set1_ps(g->x0), y0 = _mm256_set1_ps(g->y0);
    const __m256 inv = _mm256_set1_ps(g->inv_size);
    const __m256 last_x = _mm256_set1_ps((float)(g->nx - 1));
    const __m256 last_y = _mm256_set1_ps((float)(g->ny - 1));
    const __m256i nx = _mm256_set1_epi32((int32_t)g->nx), step = _mm256_set1_epi32(8);
    const __m256i empty = _mm256_set1_epi32((int32_t)g->empty);
    __m256i t_lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    size_t ns = 0;
    for (size_t t = 0; t < n; t += 8, t_lanes = _mm256_add_epi32(t_lanes, step)) {
        const size_t i = first + t;
        const __m256i valid = valid_lanes(n, t); /* lanes past n read nothing (zeros) */
        if (t % 16 == 0) circles_ahead(c, i);
        const __m256 X = _mm256_maskload_ps(c->x + i, valid);
        const __m256 Y = _mm256_maskload_ps(c->y + i, valid);
        const __m256 R = _mm256_maskload_ps(c->radius + i, valid);
        const __m256 AX = _mm256_andnot_ps(sign, X), AY = _mm256_andnot_ps(sign, Y);
        const __m256 served = _mm256_and_ps(
            _mm256_and_ps(_mm256_cmp_ps(AX, limit, _CMP_LE_OQ),
                          _mm256_cmp_ps(AY, limit, _CMP_LE_OQ)),
            _mm256_and_ps(_mm256_cmp_ps(R, zero, _CMP_GE_OQ), _mm256_cmp_ps(R, rho, _CMP_LE_OQ)));
        const __m256 inside = _mm256_and_ps(
            _mm256_and_ps(_mm256_cmp_ps(X, lo_x, _CMP_GE_OQ), _mm256_cmp_ps(X, hi_x, _CMP_LE_OQ)),
            _mm256_and_ps(_mm256_cmp_ps(Y, lo_y, _CMP_GE_OQ), _mm256_cmp_ps(Y, hi_y, _CMP_LE_OQ)));
        __m256 tx = _mm256_mul_ps(_mm256_sub_ps(X, x0), inv);
        __m256 ty = _mm256_mul_ps(_mm256_sub_ps(Y, y0), inv);
        tx = _mm256_max_ps(_mm256_min_ps(tx, last_x), zero);
        ty = _mm256_max_ps(_mm256_min_ps(ty, last_y), zero);
        const __m256i k = _mm256_add_epi32(_mm256_mullo_epi32(_mm256_cvttps_epi32(ty), nx),
                                           _mm256_cvttps_epi32(tx));
        const __m256i use = _mm256_castps_si256(_mm256_and_ps(served, inside));
        const __m256i cells = _mm256_blendv_epi8(empty, k, use);
        if (n - t >= 8) /* a plain store: AMD's masked stores are microcoded and slow */
            _mm256_storeu_si256((__m256i *)(cell + t), cells);
        else
            _mm256_maskstore_epi32((int *)(cell + t), valid, cells);
        const unsigned rest =
            (unsigned)_mm256_movemask_ps(_mm256_andnot_ps(served, _mm256_castsi256_ps(valid)));
        if (rest) { /* rare: radius above rho, NaN, not tame */
            compress_store(slow + ns, t_lanes, rest);
            ns += (size_t)__builtin_popcount(rest);
        }
    }
    return ns;
}

/* The lanes of 8 cells k whose bit is set in their words (those outside `valid` never are):
 * their offsets (t_lanes) and cells appended to hit and rank after nh; returns the new nh. */
static inline size_t set_lanes(__m256i k, __m256i word, __m256i valid, __m256i t_lanes,
                               uint32_t *hit, uint32_t *rank, size_t nh) {
    const __m256i one = _mm256_set1_epi32(1);
    const __m256i bit =
        _mm256_and_si256(_mm256_srlv_epi32(word, _mm256_and_si256(k, _mm256_set1_epi32(31))), one);
    const unsigned set = (unsigned)_mm256_movemask_ps(
        _mm256_castsi256_ps(_mm256_and_si256(valid, _mm256_cmpeq_epi32(bit, one))));
    compress_store(hit + nh, t_lanes, set);
    compress_store(rank + nh, k, set);
    return nh + (size_t)__builtin_popcount(set);
}

size_t C2D_SCENE_KERNEL(C2D_BACKEND_TABLE, fine_hits)(const c2d_fine_grid *g, const uint32_t *cell,
                                                      size_t n, uint32_t *hit, uint32_t *rank) {
    const __m256i step = _mm256_set1_epi32(8), all = _mm256_set1_epi32(-1);
    const int *words = (const int *)(const void *)g->bits; /* 32-bit words (little-endian) */
    __m256i t_lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    size_t nh = 0, t = 0;
    /* whole vectors with a plain load and gather, then the tail masked (a masked load and gather
     * for every vector made the W5 scan 1.04-1.07x slower at 65,536 circles on Zen 3) */
    for (; t + 8 <= n; t += 8, t_lanes = _mm256_add_epi32(t_lanes, step)) {
        const __m256i k = _mm256_loadu_si256((const __m256i *)(const void *)(cell + t));
        const __m256i word = _mm256_i32gather_epi32(words, _mm256_srli_epi32(k, 5), 4);
        nh = set_lanes(k, word, all, t_lanes, hit, rank, nh);
    }
    if (t < n) {
        const __m256i valid = valid_lanes(n, t);
        const __m256i k = _mm256_maskload_epi32((const int *)(cell + t), valid);
        const __m256i word = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), words,
                                                         _mm256_srli_epi32(k, 5), valid, 4);
        nh = set_lanes(k, word, valid, t_lanes, hit, rank, nh);
    }
    ranks(g, rank, nh);
    return nh;
}
