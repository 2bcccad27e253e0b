/* Blocks of the ball grid, a lane a ball (AVX-512 only): up to 16 consecutive sorted balls of
 * one row of cells, with each lane's spans of the sorted arrays (a row of three cells around
 * its own) read through windows of 64 entries instead of gathers. The contacts' pair walk
 * (x86/ball_pairs_avx512.h) and the sweeps' walk (x86/ball_sweeps_avx512.h) test a block's 16
 * balls at once against their k-th partner, k = 0, 1, ... of a span; their opening comments give
 * the figures by which they beat the SIMDe walks.
 *
 * Raw intrinsics because SIMDe 0.7 lacks the AVX-512 gathers, reductions and the double to
 * unsigned conversion; this backend is only ever built for x86 with -mavx512f, where the SIMDe
 * types are the native ones. The windows instead of gathers measured 1.08x, then 1.21x, on the
 * frame cut after the contacts' walk (docs/speed-log.md, "A fourteenth session", Zen 5). */
#ifndef C2D_BATCH_X86_BALL_BLOCKS_AVX512_H
#define C2D_BATCH_X86_BALL_BLOCKS_AVX512_H

#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "batch/lane_simd.h"
#include "batch/dlane_simd.h"
#include "batch/ball_coord_lanes.h"

enum {
    C2D_BLOCK = 16, /* balls a block: one a lane */
    C2D_WINDOW = 64 /* entries of a window of an array, read with permutes instead of gathers */
};

/* The first n lanes (n may exceed 16 or be negative). */
static inline __mmask16 c2d_first_lanes(ptrdiff_t n) {
    return n >= 16 ? (__mmask16)0xffff : n <= 0 ? (__mmask16)0 : (__mmask16)((1u << n) - 1u);
}

static inline __m512i c2d_lane_numbers(void) {
    return _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/* Entries [base, base + 16 vectors) of a 32-bit array (from `top` on: zero), and entry `at`
 * of them lane by lane: 32 entries (two vectors) take one permute, 64 (four) two and a blend. */
typedef struct c2d_window {
    __m512i v[4];
} c2d_window;

static inline c2d_window c2d_window_load(const void *array, size_t base, size_t top, int vectors) {
    const uint32_t *a = array;
    c2d_window w;
    for (int k = 0; k < 4; k++)
        w.v[k] = k < vectors ? _mm512_maskz_loadu_epi32(
                                   c2d_first_lanes((ptrdiff_t)top - (ptrdiff_t)base - 16 * k),
                                   a + base + 16 * k)
                             : _mm512_setzero_si512();
    return w;
}

static inline __m512i c2d_window_pick(const c2d_window *w, __m512i at, bool wide) {
    const __m512i low = _mm512_permutex2var_epi32(w->v[0], at, w->v[1]);
    if (!wide) return low;
    const __mmask16 high = _mm512_cmpge_epu32_mask(at, _mm512_set1_epi32(32));
    return _mm512_mask_blend_epi32(high, low, _mm512_permutex2var_epi32(w->v[2], at, w->v[3]));
}

/* The grid cells' columns of a block, from the two double halves of the binned coordinate,
 * as the binning kernels computed them (the same double operations, then truncation). */
static inline __m512i c2d_block_columns(dlane_t lo, dlane_t hi, double x0, double inv,
                                        uint32_t nx) {
    const dlane_t origin = dlane_splat(x0), scale = dlane_splat(inv);
    const dlane_t top = dlane_splat((double)(nx - 1));
    const __m256i a = _mm512_cvttpd_epu32(ball_grid_coord_dlanes(lo, origin, scale, top));
    const __m256i b = _mm512_cvttpd_epu32(ball_grid_coord_dlanes(hi, origin, scale, top));
    return _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
}

/* A block's cells: those of row cy, lane j's column col[j] (lanes past n: column of lane 0). */
typedef struct c2d_block_cells {
    __m512i cell;                /* cy * nx + column */
    __mmask16 valid, west, east; /* lanes with a ball; with a column to the west, east */
    uint32_t first, spanned;     /* lane 0's cell; the last lane's cell minus it */
    bool windowed;               /* the spans' starts read through windows, not gathers */
} c2d_block_cells;

static inline c2d_block_cells c2d_block_cells_of(__m512i columns, size_t n, uint32_t cy,
                                                 uint32_t nx) {
    c2d_block_cells b;
    b.valid = c2d_first_lanes((ptrdiff_t)n);
    uint32_t col[C2D_BLOCK];
    _mm512_storeu_si512(col, columns);
    b.first = cy * nx + col[0];
    b.spanned = col[n - 1] - col[0];
    b.windowed = b.spanned + 4 <= C2D_WINDOW; /* a row's indices run up to spanned + 3 */
    b.cell = _mm512_add_epi32(columns, _mm512_set1_epi32((int)(cy * nx)));
    b.east = _mm512_cmplt_epu32_mask(_mm512_add_epi32(columns, _mm512_set1_epi32(1)),
                                     _mm512_set1_epi32((int)nx));
    b.west = _mm512_test_epi32_mask(columns, columns);
    return b;
}

/* Each lane's sorted entries [lo, lo + len) in the three cells around its column in the row
 * `row_offset` cells from its own (-nx, 0 or nx; that row must exist), as c2d_ball_cell_spans
 * bounds them (cells past the row's ends left out); len is 0 in lanes past n. */
typedef struct c2d_row_span {
    __m512i lo, len;
    uint32_t longest; /* the largest len */
} c2d_row_span;

/* The same, where `with_lo` is false only the spans' ends: lo + len (in `len`, lo 0). */
static inline c2d_row_span c2d_block_row_part(const uint32_t *start, size_t starts,
                                              const c2d_block_cells *b, int64_t row_offset,
                                              bool with_lo) {
    const __m512i one = _mm512_set1_epi32(1), zero = _mm512_setzero_si512();
    const __m512i row = _mm512_add_epi32(b->cell, _mm512_set1_epi32((int)row_offset));
    const __m512i lo_at = _mm512_mask_sub_epi32(row, b->west, row, one);
    const __m512i next = _mm512_add_epi32(row, one);
    const __m512i hi_at = _mm512_mask_add_epi32(next, b->east, next, one);
    __m512i lo, hi;
    if (b->windowed) {
        const int64_t own = (int64_t)b->first + row_offset;
        const uint32_t first = own > 0 ? (uint32_t)(own - 1) : 0u;
        const c2d_window w = c2d_window_load(start, first, starts, 4);
        const __m512i base = _mm512_set1_epi32((int)first);
        lo = with_lo ? c2d_window_pick(&w, _mm512_sub_epi32(lo_at, base), true) : zero;
        hi = c2d_window_pick(&w, _mm512_sub_epi32(hi_at, base), true);
    } else {
        lo = with_lo ? _mm512_mask_i32gather_epi32(zero, b->valid, lo_at, (const int *)start, 4)
                     : zero;
        hi = _mm512_mask_i32gather_epi32(zero, b->valid, hi_at, (const int *)start, 4);
    }
    c2d_row_span s;
    s.lo = lo;
    s.len = _mm512_maskz_sub_epi32(b->valid, hi, lo);
    s.longest = _mm512_reduce_max_epu32(s.len);
    return s;
}

static inline c2d_row_span c2d_block_row(const uint32_t *start, size_t starts,
                                         const c2d_block_cells *b, int64_t row_offset) {
    return c2d_block_row_part(start, starts, b, row_offset, true);
}

/* The span's entries lie in [base, top): base the least lo, top the largest lo + len. */
static inline void c2d_row_bounds(const c2d_row_span *s, size_t *base, size_t *top) {
    const __mmask16 has = _mm512_test_epi32_mask(s->len, s->len);
    *base = _mm512_mask_reduce_min_epu32(has, s->lo);
    *top = _mm512_mask_reduce_max_epu32(has, _mm512_add_epi32(s->lo, s->len));
}

/* The half walk's spans of a block (sorted entries p .. p + n - 1 of row cy, its cells b), as
 * c2d_ball_cell_spans gives them lane by lane: ball p + j has own[j] partners after it in its
 * own span (the rest of its cell and the cell east: entries p + j + 1 ..), and the next row's
 * span `up` (empty in the top row). Shared by the contacts' and the sweeps' walks. */
typedef struct c2d_half_spans {
    __m512i own;
    uint32_t own_max; /* the largest own[j] */
    c2d_row_span up;
} c2d_half_spans;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline)) /* gcc left it out of line once: gas 0.96x */
#endif
static inline c2d_half_spans
c2d_block_half_spans(const uint32_t *start, uint32_t nx, uint32_t ny, const c2d_block_cells *b,
                     size_t p, uint32_t cy) {
    const size_t starts = (size_t)nx * ny + 2;
    const c2d_row_span ends = c2d_block_row_part(start, starts, b, 0, false);
    const __m512i after = _mm512_add_epi32(_mm512_set1_epi32((int)p + 1), c2d_lane_numbers());
    c2d_half_spans h;
    h.own = _mm512_maskz_sub_epi32(b->valid, ends.len, after); /* ends.len: the spans' ends */
    h.own_max = _mm512_reduce_max_epu32(h.own);
    h.up.lo = h.up.len = _mm512_setzero_si512();
    h.up.longest = 0;
    if (cy + 1 < ny) h.up = c2d_block_row(start, starts, b, nx);
    return h;
}

/* Where a walk by blocks stands: the next block's first entry, the end of its row's entries,
 * its row. */
typedef struct c2d_block_cursor {
    size_t p, row_end;
    uint32_t cy;
} c2d_block_cursor;

/* Whether a grid can be walked by blocks: gathers take signed 32-bit indices, so its cells
 * (with start[]'s two extra entries) and balls must stay below 2^31. */
static inline bool c2d_blocks_fit(const uint32_t *start, uint32_t nx, uint32_t ny) {
    const size_t starts = (size_t)nx * ny + 2;
    return starts <= INT32_MAX && start[starts - 2] <= INT32_MAX;
}

/* The balls of the block at the cursor: up to C2D_BLOCK, within its row. */
static inline size_t c2d_block_balls(const c2d_block_cursor *c) {
    return c->row_end - c->p < C2D_BLOCK ? c->row_end - c->p : C2D_BLOCK;
}

/* Moves on to the row of the next block (the rest of this row, or the next row with balls);
 * false past the last. */
static inline bool c2d_next_row(const uint32_t *start, uint32_t nx, uint32_t ny,
                                c2d_block_cursor *c) {
    while (c->p >= c->row_end) {
        if (++c->cy >= ny) return false;
        c->row_end = start[(size_t)(c->cy + 1) * nx];
    }
    return true;
}

#endif
