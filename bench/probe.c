/* The W1 "probe" of docs/design.md section 8: every (ball, pin) pair of a frame through a
 * boolean-only overlap test written with intrinsics at one backend's width, no culling. The
 * batch kernels must beat it by 1.25x (their box test first); bench/collide.c times it beside
 * W1_collide. Compiled once per width (bench/meson.build: PROBE_WIDTH, PROBE_FUNCTION and the
 * width's flags), like the library's kernels, and linked into the benchmark only.
 *
 * The test has no division: with d = b - a, p = c - a and s = r + R, the ball meets the pin when
 *   p.d <= 0       and |p|^2 <= s^2       (nearest to end a),
 *   p.d >= d.d     and |c - b|^2 <= s^2   (nearest to end b),
 *   otherwise      (p x d)^2 <= s^2 (d.d) (nearest to the inside of the axis).
 * Its rounding differs from the library's projection, so a pair within a few ulps of touching
 * may count differently; the benchmark checks the count against c2d_batch_collide's. */
#include <stddef.h>
#include <stdint.h>

#include "probe.h"

#if PROBE_WIDTH == 16
#include <simde/x86/avx512.h>
typedef simde__m512 vf;
typedef simde__mmask16 vm;
static inline vf vf_set1(float v) {
    return simde_mm512_set1_ps(v);
}
static inline vf vf_load(const float *p) {
    return simde_mm512_loadu_ps(p);
}
static inline vf vf_add(vf a, vf b) {
    return simde_mm512_add_ps(a, b);
}
static inline vf vf_sub(vf a, vf b) {
    return simde_mm512_sub_ps(a, b);
}
static inline vf vf_mul(vf a, vf b) {
    return simde_mm512_mul_ps(a, b);
}
static inline vm vm_le(vf a, vf b) {
    return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ);
}
static inline vm vm_lt(vf a, vf b) {
    return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ);
}
static inline vm vm_and(vm a, vm b) {
    return (vm)(a & b);
}
static inline vm vm_or(vm a, vm b) {
    return (vm)(a | b);
}
static inline vm vm_andnot(vm a, vm b) {
    return (vm)(~a & b);
} /* b and not a */
/* per-lane counts of the lanes set, summed at the end (no popcount instruction needed) */
typedef simde__m512i vi;
static inline vi vi_zero(void) {
    return simde_mm512_setzero_si512();
}
static inline vi vi_count(vi acc, vm m) {
    return simde_mm512_mask_add_epi32(acc, m, acc, simde_mm512_set1_epi32(1));
}
static inline size_t vi_sum(vi acc) {
    uint32_t v[16];
    simde_mm512_storeu_si512((void *)v, acc);
    size_t sum = 0;
    for (int j = 0; j < 16; j++)
        sum += v[j];
    return sum;
}
#elif PROBE_WIDTH == 8
#include <simde/x86/avx2.h>
typedef simde__m256 vf;
typedef simde__m256 vm;
static inline vf vf_set1(float v) {
    return simde_mm256_set1_ps(v);
}
static inline vf vf_load(const float *p) {
    return simde_mm256_loadu_ps(p);
}
static inline vf vf_add(vf a, vf b) {
    return simde_mm256_add_ps(a, b);
}
static inline vf vf_sub(vf a, vf b) {
    return simde_mm256_sub_ps(a, b);
}
static inline vf vf_mul(vf a, vf b) {
    return simde_mm256_mul_ps(a, b);
}
static inline vm vm_le(vf a, vf b) {
    return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ);
}
static inline vm vm_lt(vf a, vf b) {
    return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ);
}
static inline vm vm_and(vm a, vm b) {
    return simde_mm256_and_ps(a, b);
}
static inline vm vm_or(vm a, vm b) {
    return simde_mm256_or_ps(a, b);
}
static inline vm vm_andnot(vm a, vm b) {
    return simde_mm256_andnot_ps(a, b);
}
typedef simde__m256i vi;
static inline vi vi_zero(void) {
    return simde_mm256_setzero_si256();
}
static inline vi vi_count(vi acc, vm m) { /* a set lane is -1 */
    return simde_mm256_sub_epi32(acc, simde_mm256_castps_si256(m));
}
static inline size_t vi_sum(vi acc) {
    uint32_t v[8];
    simde_mm256_storeu_si256((simde__m256i *)(void *)v, acc);
    size_t sum = 0;
    for (int j = 0; j < 8; j++)
        sum += v[j];
    return sum;
}
#elif PROBE_WIDTH == 4
/* SSE2 on x86; SIMDe maps it to NEON on AArch64 and to SIMD128 on WebAssembly */
#include <simde/x86/sse2.h>
typedef simde__m128 vf;
typedef simde__m128 vm;
static inline vf vf_set1(float v) {
    return simde_mm_set1_ps(v);
}
static inline vf vf_load(const float *p) {
    return simde_mm_loadu_ps(p);
}
static inline vf vf_add(vf a, vf b) {
    return simde_mm_add_ps(a, b);
}
static inline vf vf_sub(vf a, vf b) {
    return simde_mm_sub_ps(a, b);
}
static inline vf vf_mul(vf a, vf b) {
    return simde_mm_mul_ps(a, b);
}
static inline vm vm_le(vf a, vf b) {
    return simde_mm_cmple_ps(a, b);
}
static inline vm vm_lt(vf a, vf b) {
    return simde_mm_cmplt_ps(a, b);
}
static inline vm vm_and(vm a, vm b) {
    return simde_mm_and_ps(a, b);
}
static inline vm vm_or(vm a, vm b) {
    return simde_mm_or_ps(a, b);
}
static inline vm vm_andnot(vm a, vm b) {
    return simde_mm_andnot_ps(a, b);
}
typedef simde__m128i vi;
static inline vi vi_zero(void) {
    return simde_mm_setzero_si128();
}
static inline vi vi_count(vi acc, vm m) { /* a set lane is -1 */
    return simde_mm_sub_epi32(acc, simde_mm_castps_si128(m));
}
static inline size_t vi_sum(vi acc) {
    uint32_t v[4];
    simde_mm_storeu_si128((simde__m128i *)(void *)v, acc);
    return (size_t)v[0] + v[1] + v[2] + v[3];
}
#else
#error "PROBE_WIDTH must be 4, 8 or 16"
#endif

/* The same test on one pair, for the circles past the last whole vector. */
static int pair_overlaps(float x, float y, float r, float ax, float ay, float dx, float dy,
                         float dd, float bx, float by, float R) {
    const float px = x - ax, py = y - ay, s = r + R;
    const float dot = px * dx + py * dy, s2 = s * s;
    if (dot <= 0.0f) return px * px + py * py <= s2;
    if (!(dot < dd)) {
        const float qx = x - bx, qy = y - by;
        return qx * qx + qy * qy <= s2;
    }
    const float cross = px * dy - py * dx;
    return cross * cross <= s2 * dd;
}

size_t PROBE_FUNCTION(const c2d_circle_soa *c, const c2d_capsule_soa *k) {
    size_t count = 0;
    const size_t whole = c->count / PROBE_WIDTH * PROBE_WIDTH;
    const vf zero = vf_set1(0.0f);
    vi lanes = vi_zero(); /* each lane's count below 2^32: a frame's pairs a lane are fewer */
    for (size_t j = 0; j < k->count; j++) {
        const float ax = k->ax[j], ay = k->ay[j], bx = k->bx[j], by = k->by[j], R = k->radius[j];
        const float dx = bx - ax, dy = by - ay, dd = dx * dx + dy * dy;
        const vf vax = vf_set1(ax), vay = vf_set1(ay), vbx = vf_set1(bx), vby = vf_set1(by);
        const vf vdx = vf_set1(dx), vdy = vf_set1(dy), vdd = vf_set1(dd), vR = vf_set1(R);
        for (size_t i = 0; i < whole; i += PROBE_WIDTH) {
            const vf x = vf_load(c->x + i), y = vf_load(c->y + i), r = vf_load(c->radius + i);
            const vf px = vf_sub(x, vax), py = vf_sub(y, vay), s = vf_add(r, vR);
            const vf dot = vf_add(vf_mul(px, vdx), vf_mul(py, vdy)), s2 = vf_mul(s, s);
            const vf qx = vf_sub(x, vbx), qy = vf_sub(y, vby);
            const vf cross = vf_sub(vf_mul(px, vdy), vf_mul(py, vdx));
            const vm before = vm_le(dot, zero), inside = vm_lt(dot, vdd);
            const vm near_a = vm_and(before, vm_le(vf_add(vf_mul(px, px), vf_mul(py, py)), s2));
            const vm near_b = vm_andnot(inside, vm_le(vf_add(vf_mul(qx, qx), vf_mul(qy, qy)), s2));
            const vm near_axis =
                vm_andnot(before, vm_and(inside, vm_le(vf_mul(cross, cross), vf_mul(s2, vdd))));
            lanes = vi_count(lanes, vm_or(vm_or(near_a, near_b), near_axis));
        }
        for (size_t i = whole; i < c->count; i++)
            count += (size_t)pair_overlaps(c->x[i], c->y[i], c->radius[i], ax, ay, dx, dy, dd, bx,
                                           by, R);
    }
    return count + vi_sum(lanes);
}
