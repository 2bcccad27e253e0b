/* The ball grid's pair walk a lane a ball with AVX-512 (ball_cell_pairs of the AVX-512 table;
 * included by batch/kernels_ball_pairs.c when it is compiled for 16 lanes, -mavx512f, whose
 * walk a lane a partner serves grids too large for blocks): 16 consecutive balls of one row of
 * cells against their k-th partner at once, each ball's hits written with one `vpcompressd`,
 * and the pairs' group sizes counted on the way (ball_pairs_sized).
 *
 * Raw intrinsics because SIMDe 0.7 has no AVX-512 gather, reduction or double-to-unsigned
 * conversion (batch/x86/ball_blocks_avx512.h). Why it beats the SIMDe walk a lane a partner
 * (walk_by_partner, which 16 lanes ran before): the blocks within a row, spans read through
 * windows, made the frame cut after the walk 1.21x as fast as the 8-lane walk, and the full
 * frames of the pile and the gas at 262,144 balls 1.03-1.04x and 1.18-1.24x; counting the groups
 * here then gave the pile 1.04-1.05x (docs/speed-log.md, "A fourteenth session", Zen 5).
 *
 * Measured again in issue 41 against the same tree with the SIMDe walk at 16 lanes (and the
 * grouping's count pass), 31 alternating calls (`bash scripts/ab --backend avx512`, Intel Xeon
 * guest): pile at 262,144 balls 1.14x least / 1.16x paired, gas 1.16x / 1.14x. */
#ifndef C2D_BATCH_X86_BALL_PAIRS_AVX512_H
#define C2D_BATCH_X86_BALL_PAIRS_AVX512_H

#include <immintrin.h>

#include "batch/ball_pair_walk.h"
#include "batch/x86/ball_blocks_avx512.h"

enum {
    TESTS = 16, /* partner tests a block: bits of a lane's hit word, lanes of its partners */
    DENSE = 8   /* a block with this many balls with pairs writes every ball's, unbranched */
};

/* A block: sorted entries p .. p + n - 1 and their half spans (batch/x86/ball_blocks_avx512.h). */
typedef struct ball_block {
    size_t p, n;
    c2d_half_spans s;
} ball_block;

/* The block at the cursor; its cells are those of its centres. */
C2D_FORMULA ball_block block_at(const c2d_ball_cells *g, const c2d_block_cursor *at) {
    ball_block b;
    b.p = at->p;
    b.n = c2d_block_balls(at);
    const __m512 x = _mm512_loadu_ps(g->x + b.p);
    const c2d_block_cells cells = c2d_block_cells_of(
        c2d_block_columns(dlane_from_lane(x, 0), dlane_from_lane(x, 1), g->x0, g->inv, g->nx), b.n,
        at->cy, g->nx);
    b.s = c2d_block_half_spans(g->start, g->nx, g->ny, &cells, b.p, at->cy);
    return b;
}

/* span_pairs' overlap test with the block's balls as the visiting ones. */
static inline __mmask16 block_overlap(__m512 x, __m512 y, __m512 r, __m512 qx, __m512 qy,
                                      __m512 qr) {
    const __m512 dx = _mm512_sub_ps(x, qx), dy = _mm512_sub_ps(y, qy);
    const __m512 d2 = _mm512_add_ps(_mm512_mul_ps(dx, dx), _mm512_mul_ps(dy, dy));
    const __m512 rs = _mm512_add_ps(r, qr);
    return _mm512_cmp_ps_mask(d2, _mm512_mul_ps(rs, rs), _CMP_LE_OQ);
}

/* bit t of each lane's hit word where `hit` */
static inline __m512i mark(__m512i word, __mmask16 hit, uint32_t t) {
    return _mm512_mask_or_epi32(word, hit, word, _mm512_set1_epi32((int)(1u << t)));
}

/* The block's tests of the next row, bits own_max + k of the hit word: partner up_lo + k of
 * each lane, read through windows of 32 or 64 entries (`wide`) from `base`. */
static inline __m512i up_tests(const c2d_ball_cells *g, const ball_block *b, __m512 x, __m512 y,
                               __m512 r, __m512i word, size_t base, size_t top, bool wide) {
    const int vectors = wide ? 4 : 2;
    const c2d_window wx = c2d_window_load(g->x, base, top, vectors);
    const c2d_window wy = c2d_window_load(g->y, base, top, vectors);
    const c2d_window wr = c2d_window_load(g->r, base, top, vectors);
    const c2d_row_span *up = &b->s.up;
    __m512i at = _mm512_sub_epi32(up->lo, _mm512_set1_epi32((int)base));
    for (uint32_t k = 0; k < up->longest; k++, at = _mm512_add_epi32(at, _mm512_set1_epi32(1))) {
        const __mmask16 in = _mm512_cmpgt_epu32_mask(up->len, _mm512_set1_epi32((int)k));
        const __mmask16 hit =
            in & block_overlap(x, y, r, _mm512_castsi512_ps(c2d_window_pick(&wx, at, wide)),
                               _mm512_castsi512_ps(c2d_window_pick(&wy, at, wide)),
                               _mm512_castsi512_ps(c2d_window_pick(&wr, at, wide)));
        word = mark(word, hit, b->s.own_max + k);
    }
    return word;
}

/* Each lane's hit word: bit t for the block's t-th test, own partners first (entry p + j + 1
 * + t for t < own_max), then the next row's (up_lo + t - own_max). */
static inline __m512i block_hits(const c2d_ball_cells *g, const ball_block *b) {
    const size_t p = b->p;
    const __m512 x = _mm512_loadu_ps(g->x + p), y = _mm512_loadu_ps(g->y + p);
    const __m512 r = _mm512_loadu_ps(g->r + p);
    __m512i word = _mm512_setzero_si512();
    const c2d_half_spans *h = &b->s;
    for (uint32_t k = 1; k <= h->own_max; k++) {
        const __mmask16 in = _mm512_cmpge_epu32_mask(h->own, _mm512_set1_epi32((int)k));
        const __mmask16 hit =
            in & block_overlap(x, y, r, _mm512_loadu_ps(g->x + p + k),
                               _mm512_loadu_ps(g->y + p + k), _mm512_loadu_ps(g->r + p + k));
        word = mark(word, hit, k - 1);
    }
    if (h->up.longest == 0) return word;
    size_t base, top;
    c2d_row_bounds(&h->up, &base, &top);
    if (top - base <= C2D_WINDOW / 2) return up_tests(g, b, x, y, r, word, base, top, false);
    if (top - base <= C2D_WINDOW) return up_tests(g, b, x, y, r, word, base, top, true);
    const __m512 nan = _mm512_set1_ps(NAN);
    __m512i at = h->up.lo;
    for (uint32_t k = 0; k < h->up.longest; k++, at = _mm512_add_epi32(at, _mm512_set1_epi32(1))) {
        const __mmask16 in = _mm512_cmpgt_epu32_mask(h->up.len, _mm512_set1_epi32((int)k));
        const __mmask16 hit =
            in & block_overlap(x, y, r, _mm512_mask_i32gather_ps(nan, in, at, g->x, 4),
                               _mm512_mask_i32gather_ps(nan, in, at, g->y, 4),
                               _mm512_mask_i32gather_ps(nan, in, at, g->r, 4));
        word = mark(word, hit, h->own_max + k);
    }
    return word;
}

/* Ball p + j's pairs from its hit word, in test order: its partners' indices from two loads
 * (its own span's and its next row span's, `pick` puts them in test order), min and max in
 * lanes, the hit lanes compressed and interleaved into pairs, written without a test (the
 * caller made room for 16 more). Each pair is counted in sizes[min]: ball p + j's own in one
 * add, the others one by one (a partner below it; about one pair in six in a pile). */
static inline size_t lane_pairs(const c2d_ball_cells *g, size_t p, unsigned j, uint32_t word,
                                uint32_t up_lo, __m512i pick, c2d_ball_pair *pairs, size_t count) {
    const __m512i interleave =
        _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const uint32_t id = g->id[p + j];
    const __m512i me = _mm512_set1_epi32((int)id);
    const __m512i own = _mm512_loadu_si512(g->id + p + j + 1);
    const __m512i up = _mm512_loadu_si512(g->id + up_lo);
    const __m512i other = _mm512_permutex2var_epi32(own, pick, up);
    const __mmask16 hit = (__mmask16)word;
    const __m512i lo = _mm512_maskz_compress_epi32(hit, _mm512_min_epu32(me, other));
    const __m512i hi = _mm512_maskz_compress_epi32(hit, _mm512_max_epu32(me, other));
    _mm512_storeu_si512(pairs + count, _mm512_permutex2var_epi32(lo, interleave, hi));
    const unsigned found = (unsigned)__builtin_popcount(word);
    if (found > 8)
        _mm512_storeu_si512(
            pairs + count + 8,
            _mm512_permutex2var_epi32(lo, _mm512_add_epi32(interleave, _mm512_set1_epi32(8)), hi));
    const __mmask16 above = hit & _mm512_cmpgt_epu32_mask(other, me);
    g->sizes[id] += (uint32_t)__builtin_popcount(above);
    const __mmask16 below = hit & (__mmask16)~above;
    if (below) {
        uint32_t lower[16];
        _mm512_storeu_si512(lower, _mm512_maskz_compress_epi32(below, other));
        for (int k = 0; k < __builtin_popcount(below); k++)
            g->sizes[lower[k]]++;
    }
    return count + found;
}

/* Appends the block's pairs, ball by ball, each ball's in test order: the walk's order. */
static inline size_t block_pairs(const c2d_ball_cells *g, const ball_block *b, __m512i word,
                                 c2d_ball_pair *pairs, size_t capacity, size_t count) {
    uint32_t lanes = _mm512_test_epi32_mask(word, word);
    if (!lanes) return count;
    uint32_t words[C2D_BLOCK], up_lo[C2D_BLOCK];
    _mm512_storeu_si512(words, word);
    _mm512_storeu_si512(up_lo, b->s.up.lo);
    const size_t p = b->p;
    const uint32_t own_max = b->s.own_max, tests = own_max + b->s.up.longest;
    if (count <= capacity && capacity - count >= C2D_BLOCK * tests + C2D_BLOCK) {
        /* test t < own_max: lane t of the own load; the others lane t - own_max of the up load */
        const __m512i t = c2d_lane_numbers();
        const __m512i from_up = _mm512_add_epi32(t, _mm512_set1_epi32(16 - (int)own_max));
        const __m512i pick = _mm512_mask_mov_epi32(
            t, _mm512_cmpge_epu32_mask(t, _mm512_set1_epi32((int)own_max)), from_up);
        if (__builtin_popcount(lanes) >= DENSE)
            for (unsigned j = 0; j < b->n; j++)
                count = lane_pairs(g, p, j, words[j], up_lo[j], pick, pairs, count);
        else
            for (; lanes; lanes &= lanes - 1) {
                const unsigned j = (unsigned)__builtin_ctz(lanes);
                count = lane_pairs(g, p, j, words[j], up_lo[j], pick, pairs, count);
            }
        return count;
    }
    for (; lanes; lanes &= lanes - 1) { /* near the capacity: one pair at a time */
        const unsigned j = (unsigned)__builtin_ctz(lanes);
        const uint32_t me = g->id[p + j];
        const size_t own_at = p + j + 1, up_at = (size_t)up_lo[j] - own_max;
        for (uint32_t bits = words[j]; bits; bits &= bits - 1) {
            const unsigned k = (unsigned)__builtin_ctz(bits);
            const uint32_t other = g->id[(k < own_max ? own_at : up_at) + k];
            count = c2d_add_ball_pair(pairs, capacity, count, me, other);
            g->sizes[me < other ? me : other]++;
        }
    }
    return count;
}

/* A crowded block (more than TESTS tests: a crowd in a few cells): ball by ball, a lane a
 * partner. */
static size_t crowded_block(const c2d_ball_cells *g, const ball_block *b, c2d_ball_pair *pairs,
                            size_t capacity, size_t count) {
    uint32_t own[C2D_BLOCK], up_lo[C2D_BLOCK], up_len[C2D_BLOCK];
    _mm512_storeu_si512(own, b->s.own);
    _mm512_storeu_si512(up_lo, b->s.up.lo);
    _mm512_storeu_si512(up_len, b->s.up.len);
    for (size_t j = 0; j < b->n; j++) {
        const size_t p = b->p + j;
        const __m512 x = _mm512_set1_ps(g->x[p]), y = _mm512_set1_ps(g->y[p]);
        const __m512 r = _mm512_set1_ps(g->r[p]);
        count =
            span_pairs(g, x, y, r, g->id[p], p + 1, p + 1 + own[j], pairs, capacity, count, true);
        count = span_pairs(g, x, y, r, g->id[p], up_lo[j], (size_t)up_lo[j] + up_len[j], pairs,
                           capacity, count, true);
    }
    return count;
}

/* The walk a lane a ball, with the group sizes counted. Each block's spans are read one block
 * ahead, so that their loads are done by the time its tests need them. */
size_t C2D_BALL_KERNEL(C2D_BACKEND_TABLE, ball_cell_pairs)(const c2d_ball_cells *g,
                                                           c2d_ball_pair *pairs, size_t capacity) {
    if (!c2d_blocks_fit(g->start, g->nx, g->ny)) return walk_by_partner(g, pairs, capacity, true);
    c2d_block_cursor at = {0, g->start[g->nx], 0};
    if (!c2d_next_row(g->start, g->nx, g->ny, &at)) return 0;
    size_t count = 0;
    ball_block b = block_at(g, &at);
    for (;;) {
        at.p += b.n;
        const bool more = c2d_next_row(g->start, g->nx, g->ny, &at);
        ball_block next = b;
        if (more) next = block_at(g, &at);
        if (b.s.own_max + b.s.up.longest <= TESTS)
            count = block_pairs(g, &b, block_hits(g, &b), pairs, capacity, count);
        else
            count = crowded_block(g, &b, pairs, capacity, count);
        if (!more) return count;
        b = next;
    }
}

#endif
