/* The sweeps' walk a lane a ball with AVX-512 (sweep_blocks; included by
 * batch/kernels_ball_sweeps.c when it is compiled for 16 lanes, -mavx512f; the queue, pair
 * tests and fallback walk it uses are batch/ball_sweep_walk.h's): the ball grid's sweeps
 * without a filter.
 *
 * Raw intrinsics because SIMDe 0.7 has no AVX-512 gather, reduction or double-to-unsigned
 * conversion (batch/x86/ball_blocks_avx512.h). Why it beats the SIMDe walk a lane a partner
 * (sweep_walk, which 16 lanes ran before and still run with a filter): the blocks over the 3x3
 * cells measured 1.13x least / 1.11x paired on the pile's sweeps at 262,144 balls, 1.07x / 1.08x
 * on the gas's and 1.15x on the pile's at 65,536 (`bash scripts/ab --ref b0657f3 --frames 41`),
 * and this half walk then 1.29x / 1.32x on the gas's at 262,144 and 1.46x / 1.42x at 65,536, the
 * pile's 0.99x at 262,144 and 1.04x at 65,536 (`--ref fbe3820`; docs/speed-log.md, "A fourteenth
 * session", Zen 5).
 *
 * The half walk of sweep_walk, turned around: blocks of 16 balls of a row of cells
 * (batch/x86/ball_blocks_avx512.h), 16 balls against their k-th partner at once, first in their own
 * span (the rest of the cell and the cell east: entry p + j + k, contiguous), then in the next
 * row's. A block keeps its balls' sure[] entries in a register: it starts from what the row
 * below left in memory and what the block before lowered (`carry`), takes each ball's own sure
 * partners and those of earlier balls of the block, and stores them once at its end. An own-span
 * partner's entry is lowered in lanes (the block's ids moved up k lanes, into the block or into
 * the carry for the next block, which starts where this one ends: own spans stay in their row);
 * a next-row partner's, one by one in memory, before its row is walked. Maybe pairs are queued
 * both ways.
 *
 * Measured again in issue 41 against the same tree with sweep_walk at 16 lanes, 31 alternating
 * calls (`bash scripts/ab --backend avx512`, Intel Xeon guest): pile sweeps at 262,144 balls 1.32x
 * least / 1.28x paired, gas sweeps 1.21x / 1.22x. */
#ifndef C2D_BATCH_X86_BALL_SWEEPS_AVX512_H
#define C2D_BATCH_X86_BALL_SWEEPS_AVX512_H

#include <immintrin.h>

#include "batch/ball_sweep_walk.h"
#include "batch/x86/ball_blocks_avx512.h"

enum { SWEEP_TESTS = 48 }; /* a block with more tests (a crowd) goes ball by ball */

/* One test of the next row: the partners' values v (x, y, r, mx, my, id) in the lanes `in`, k
 * the test's number; a sure partner lowers the lane's `best` and, in memory, the partner's
 * sure[] entry; maybe pairs are queued both ways. */
static inline __m512i sweep_up_test(sweep_queue *qu, const c2d_ball_sweep_cells *g,
                                    const sweep_ball *s, size_t p, const uint32_t *lo,
                                    const uint32_t *ids, uint32_t k, __mmask16 in,
                                    const __m512i v[6], __m512i best) {
    uint32_t sure, maybe;
    if (!sweep_lanes_of(s, _mm512_castsi512_ps(v[0]), _mm512_castsi512_ps(v[1]),
                        _mm512_castsi512_ps(v[2]), _mm512_castsi512_ps(v[3]),
                        _mm512_castsi512_ps(v[4]), in, &sure, &maybe))
        return best;
    best = _mm512_mask_min_epu32(best, (__mmask16)sure, best, v[5]);
    for (; sure; sure &= sure - 1) {
        const unsigned j = (unsigned)__builtin_ctz(sure);
        uint32_t *entry = g->sure + lo[j] + k;
        *entry = ids[j] < *entry ? ids[j] : *entry;
    }
    for (; maybe; maybe &= maybe - 1) {
        const unsigned j = (unsigned)__builtin_ctz(maybe);
        sweep_push(qu, (uint32_t)(p + j), lo[j] + k);
        sweep_push(qu, lo[j] + k, (uint32_t)(p + j));
    }
    return best;
}

/* The block's tests of the next row's partners, entry lo + k of each lane for k < longest,
 * read through windows of 32 (`wide`: 64) entries of the sorted arrays from `base`. */
C2D_FORMULA __m512i sweep_up_windowed(sweep_queue *qu, const c2d_ball_sweep_cells *g,
                                      const sweep_ball *s, size_t p, const c2d_row_span *row,
                                      size_t base, size_t top, bool wide, const uint32_t *lo,
                                      const uint32_t *ids, __m512i best) {
    const int vectors = wide ? 4 : 2;
    const c2d_window wx = c2d_window_load(g->x, base, top, vectors);
    const c2d_window wy = c2d_window_load(g->y, base, top, vectors);
    const c2d_window wr = c2d_window_load(g->r, base, top, vectors);
    const c2d_window wmx = c2d_window_load(g->mx, base, top, vectors);
    const c2d_window wmy = c2d_window_load(g->my, base, top, vectors);
    const c2d_window wid = c2d_window_load(g->id, base, top, vectors);
    __m512i at = _mm512_sub_epi32(row->lo, _mm512_set1_epi32((int)base));
    for (uint32_t k = 0; k < row->longest; k++, at = _mm512_add_epi32(at, _mm512_set1_epi32(1))) {
        const __mmask16 in = _mm512_cmpgt_epu32_mask(row->len, _mm512_set1_epi32((int)k));
        const __m512i v[6] = {c2d_window_pick(&wx, at, wide),  c2d_window_pick(&wy, at, wide),
                              c2d_window_pick(&wr, at, wide),  c2d_window_pick(&wmx, at, wide),
                              c2d_window_pick(&wmy, at, wide), c2d_window_pick(&wid, at, wide)};
        best = sweep_up_test(qu, g, s, p, lo, ids, k, in, v, best);
    }
    return best;
}

/* The same with the partners gathered (the row's spans reach further than a window). */
static __m512i sweep_up_gathered(sweep_queue *qu, const c2d_ball_sweep_cells *g,
                                 const sweep_ball *s, size_t p, const c2d_row_span *row,
                                 const uint32_t *lo, const uint32_t *ids, __m512i best) {
    const void *arrays[6] = {g->x, g->y, g->r, g->mx, g->my, g->id};
    __m512i at = row->lo;
    for (uint32_t k = 0; k < row->longest; k++, at = _mm512_add_epi32(at, _mm512_set1_epi32(1))) {
        const __mmask16 in = _mm512_cmpgt_epu32_mask(row->len, _mm512_set1_epi32((int)k));
        __m512i v[6];
        for (int a = 0; a < 6; a++)
            v[a] = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), in, at, arrays[a], 4);
        best = sweep_up_test(qu, g, s, p, lo, ids, k, in, v, best);
    }
    return best;
}

/* The block's tests of the next row. */
static inline __m512i sweep_up_row(sweep_queue *qu, const c2d_ball_sweep_cells *g,
                                   const sweep_ball *s, size_t p, const c2d_row_span *row,
                                   __m512i best) {
    size_t base, top;
    c2d_row_bounds(row, &base, &top);
    uint32_t lo[C2D_BLOCK], ids[C2D_BLOCK];
    _mm512_storeu_si512(lo, row->lo);
    _mm512_storeu_si512(ids, _mm512_loadu_si512(g->id + p));
    if (top - base <= C2D_WINDOW / 2)
        return sweep_up_windowed(qu, g, s, p, row, base, top, false, lo, ids, best);
    if (top - base <= C2D_WINDOW)
        return sweep_up_windowed(qu, g, s, p, row, base, top, true, lo, ids, best);
    return sweep_up_gathered(qu, g, s, p, row, lo, ids, best);
}

/* The walk by blocks. */
static void sweep_blocks(sweep_queue *qu) {
    /* a copy of the cells: the stores into sure[] could otherwise change the struct */
    const c2d_ball_sweep_cells cells = *qu->w.g;
    const c2d_ball_sweep_cells *g = &cells;
    if (!c2d_blocks_fit(g->start, g->nx, g->ny)) {
        sweep_walk(qu, false);
        return;
    }
    const __m512i none = _mm512_set1_epi32(-1), lane = c2d_lane_numbers();
    __m512i carry = none; /* lowerings of the next block's entries */
    c2d_block_cursor at = {0, g->start[g->nx], 0};
    while (c2d_next_row(g->start, g->nx, g->ny, &at)) {
        const size_t p = at.p, n = c2d_block_balls(&at);
        at.p = p + n;
        const __m512 x = _mm512_loadu_ps(g->x + p), y = _mm512_loadu_ps(g->y + p);
        const sweep_ball s = {x,
                              y,
                              _mm512_loadu_ps(g->r + p),
                              _mm512_loadu_ps(g->mx + p),
                              _mm512_loadu_ps(g->my + p),
                              lane_add(lane_abs(x), lane_abs(y))};
        /* binned by the centre of the move, x + mx / 2 in double */
        const dlane_t half = dlane_splat(0.5);
        const c2d_block_cells b = c2d_block_cells_of(
            c2d_block_columns(
                dlane_add(dlane_from_lane(x, 0), dlane_mul(half, dlane_from_lane(s.mx, 0))),
                dlane_add(dlane_from_lane(x, 1), dlane_mul(half, dlane_from_lane(s.mx, 1))), g->x0,
                g->inv, g->nx),
            n, at.cy, g->nx);
        const c2d_half_spans h = c2d_block_half_spans(g->start, g->nx, g->ny, &b, p, at.cy);
        const __m512i own = h.own;
        const uint32_t own_max = h.own_max;
        const c2d_row_span up = h.up;
        __m512i best = _mm512_min_epu32(_mm512_mask_loadu_epi32(none, b.valid, g->sure + p), carry);
        carry = none;
        /* a crowd (or an own span past the next block, which the carry cannot reach): ball
         * by ball, a lane a partner */
        if (own_max > C2D_BLOCK || own_max + up.longest > SWEEP_TESTS) {
            _mm512_mask_storeu_epi32(g->sure + p, b.valid, best);
            uint32_t up_lo[C2D_BLOCK], up_len[C2D_BLOCK], own_n[C2D_BLOCK];
            _mm512_storeu_si512(up_lo, up.lo);
            _mm512_storeu_si512(up_len, up.len);
            _mm512_storeu_si512(own_n, own);
            for (size_t j = 0; j < n; j++) {
                const size_t q = p + j;
                const float xq = g->x[q], yq = g->y[q];
                const sweep_ball one = {lane_splat(xq),       lane_splat(yq),
                                        lane_splat(g->r[q]),  lane_splat(g->mx[q]),
                                        lane_splat(g->my[q]), lane_splat(fabsf(xq) + fabsf(yq))};
                uint32_t mine = sweep_span(qu, &one, q, q + 1, q + 1 + own_n[j], false);
                const uint32_t above =
                    sweep_span(qu, &one, q, up_lo[j], (size_t)up_lo[j] + up_len[j], false);
                mine = above < mine ? above : mine;
                g->sure[q] = mine < g->sure[q] ? mine : g->sure[q];
            }
            continue;
        }
        const __m512i ids = _mm512_loadu_si512(g->id + p);
        for (uint32_t k = 1; k <= own_max; k++) { /* the own span: entries p + j + k */
            const __mmask16 in = _mm512_cmpge_epu32_mask(own, _mm512_set1_epi32((int)k));
            uint32_t sure, maybe;
            if (!sweep_lanes_of(&s, _mm512_loadu_ps(g->x + p + k), _mm512_loadu_ps(g->y + p + k),
                                _mm512_loadu_ps(g->r + p + k), _mm512_loadu_ps(g->mx + p + k),
                                _mm512_loadu_ps(g->my + p + k), in, &sure, &maybe))
                continue;
            best = _mm512_mask_min_epu32(best, (__mmask16)sure, best,
                                         _mm512_loadu_si512(g->id + p + k));
            /* the partners' entries: the block's ids moved up k lanes */
            const __m512i mine = _mm512_mask_mov_epi32(none, (__mmask16)sure, ids);
            const __m512i shift = _mm512_sub_epi32(lane, _mm512_set1_epi32((int)k));
            best = _mm512_min_epu32(
                best, _mm512_permutex2var_epi32(
                          none, _mm512_add_epi32(shift, _mm512_set1_epi32(16)), mine));
            carry = _mm512_min_epu32(
                carry, _mm512_permutex2var_epi32(
                           none, _mm512_add_epi32(shift, _mm512_set1_epi32(32)), mine));
            for (; maybe; maybe &= maybe - 1) {
                const uint32_t j = (uint32_t)__builtin_ctz(maybe);
                sweep_push(qu, (uint32_t)p + j, (uint32_t)p + j + k);
                sweep_push(qu, (uint32_t)p + j + k, (uint32_t)p + j);
            }
        }
        if (up.longest) best = sweep_up_row(qu, g, &s, p, &up, best);
        _mm512_mask_storeu_epi32(g->sure + p, b.valid, best);
    }
}

#endif
