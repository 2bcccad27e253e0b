/* Binning a collide frame: begin (the parts of the circles), each part (its scan, any thread)
 * and end (the contacts sorted by capsule, for the range calls of scene_collide.c); and the
 * frame checksum the range calls compare. */
#include <string.h>

#include <simde/x86/sse2.h>

#include "alloc.h"
#include "scene/scene_collide.h"
#include "scene/scene_fine.h"
#include "scene/scene_part.h"
#include "scene/scene_scan.h"
#include "scene/scene_scratch.h"

/* The index's multiplier in the frame checksum (2^32 / golden ratio, odd). */
#define CHECKSUM_STEP 0x9e3779b9u

/* ---- the frame checksum ---------------------------------------------------------------- */

/* Circle i's term: x, the index, y and the radius mixed in turn by xorshifts. Each step is a
 * bijection of the running value for the other inputs fixed, so changing any one input always
 * changes the term; the additions make it nonlinear, so swapped values show too. */
static inline uint32_t xorshift(uint32_t a) {
    a ^= a << 13;
    a ^= a >> 17;
    return a ^ a << 5;
}

static inline uint32_t checksum_term(uint32_t x, uint32_t y, uint32_t r, uint32_t i) {
    return xorshift(xorshift(xorshift(x ^ i * CHECKSUM_STEP) + y) + r);
}

/* checksum_term on four circles (the same operations, lane by lane; SSE2 has them all). */
static inline simde__m128i xorshift4(simde__m128i a) {
    a = simde_mm_xor_si128(a, simde_mm_slli_epi32(a, 13));
    a = simde_mm_xor_si128(a, simde_mm_srli_epi32(a, 17));
    return simde_mm_xor_si128(a, simde_mm_slli_epi32(a, 5));
}

uint32_t c2d_circle_checksum(const c2d_circle_soa *c, size_t first, size_t n) {
    size_t i = first;
    const size_t end = first + n;
    /* i * CHECKSUM_STEP in the lanes (mod 2^32, as in checksum_term) */
    const uint32_t step = (uint32_t)i * CHECKSUM_STEP;
    simde__m128i index =
        simde_mm_set_epi32((int32_t)(step + 3 * CHECKSUM_STEP), (int32_t)(step + 2 * CHECKSUM_STEP),
                           (int32_t)(step + CHECKSUM_STEP), (int32_t)step);
    const simde__m128i index_step = simde_mm_set1_epi32((int32_t)(4 * CHECKSUM_STEP));
    simde__m128i sum4 = simde_mm_setzero_si128();
    for (; i + 4 <= end; i += 4) {
        const simde__m128i x = simde_mm_castps_si128(simde_mm_loadu_ps(c->x + i));
        const simde__m128i y = simde_mm_castps_si128(simde_mm_loadu_ps(c->y + i));
        const simde__m128i r = simde_mm_castps_si128(simde_mm_loadu_ps(c->radius + i));
        simde__m128i a = xorshift4(simde_mm_xor_si128(x, index));
        a = xorshift4(simde_mm_add_epi32(a, y));
        sum4 = simde_mm_add_epi32(sum4, xorshift4(simde_mm_add_epi32(a, r)));
        index = simde_mm_add_epi32(index, index_step);
    }
    uint32_t lanes[4];
    simde_mm_storeu_si128((simde__m128i *)lanes, sum4);
    uint32_t sum = lanes[0] + lanes[1] + lanes[2] + lanes[3];
    for (; i < end; i++) {
        uint32_t x, y, r;
        memcpy(&x, c->x + i, sizeof x);
        memcpy(&y, c->y + i, sizeof y);
        memcpy(&r, c->radius + i, sizeof r);
        sum += checksum_term(x, y, r, (uint32_t)i);
    }
    return sum;
}

/* ---- binning ----------------------------------------------------------------------------- */

c2d_status c2d_scene_frame_begin(c2d_scene *s, const c2d_circle_soa *circles, size_t parts) {
    void *ptr;
    s->frame.state = C2D_FRAME_NONE; /* the frame binned before is replaced, even on failure */
    c2d_fine_prepare(s, circles);
    const size_t have = s->scratch[C2D_SCENE_SLOT_PARTS].bytes / sizeof(c2d_scene_part);
    c2d_status st = c2d_scene_reserve(s, C2D_SCENE_SLOT_PARTS,
                                      C2D_SCENE_MAX_PARTS * sizeof(c2d_scene_part), &ptr);
    if (st != C2D_OK) return st;
    c2d_scene_part *part = ptr;
    if (have < C2D_SCENE_MAX_PARTS) /* a fresh array: no buffers yet */
        memset(part, 0, C2D_SCENE_MAX_PARTS * sizeof *part);
    s->frame.circles = *circles;
    s->frame.parts = parts;
    s->frame.generation = s->generation;
    const size_t n = circles->count;
    for (size_t p = 0; p < parts; p++) {
        part[p].first = n * p / parts;
        part[p].n = n * (p + 1) / parts - part[p].first;
        part[p].count = 0;
        part[p].wild = false;
        part[p].status = C2D_ERROR_STATE; /* not binned yet */
    }
    s->frame.state = C2D_FRAME_BEGUN;
    return C2D_OK;
}

c2d_status c2d_scene_frame_part(c2d_scene *s, size_t index) {
    c2d_scene_part *p = (c2d_scene_part *)s->scratch[C2D_SCENE_SLOT_PARTS].ptr + index;
    const c2d_circle_soa *c = &s->frame.circles;
    p->count = 0;
    p->wild = false;
    p->found = 0;
    p->above_rho = 0;
    p->above_big = 0;
    p->status = C2D_ERROR_ALLOC;
    if (!(c2d_fine_ready(s) ? c2d_scan_fine(s, p) : c2d_scan_coarse(s, p))) return C2D_ERROR_ALLOC;
    /* keep room for a block's candidates, so similar frames do not allocate */
    if (!c2d_part_room(s, p, C2D_CELL_SLOTS * C2D_FINE_BLOCK)) return C2D_ERROR_ALLOC;
    p->checksum = C2D_FRAME_CHECKS ? c2d_circle_checksum(c, p->first, p->n) : 0;
    p->status = C2D_OK;
    return C2D_OK;
}

c2d_status c2d_scene_frame_end(c2d_scene *s) {
    const c2d_scene_part *part = s->scratch[C2D_SCENE_SLOT_PARTS].ptr;
    const size_t parts = s->frame.parts, m = s->capsule_count;
    size_t found = 0, above = 0, above_big = 0;
    uint32_t checksum = 0;
    for (size_t p = 0; p < parts; p++) {
        if (part[p].status != C2D_OK) return part[p].status;
        found += part[p].found;
        checksum += part[p].checksum;
        above += part[p].above_rho;
        above_big += part[p].above_big;
    }
    /* many circles missed the fine index by their radius: the next frame chooses rho again;
     * the big circles' index (unless it could not be built) grows for a few */
    const size_t n = s->frame.circles.count;
    if (above > n / 16 + 64) s->fine.regrow = true;
    if (above_big > n / 1024 + 16 && !s->fine_big.declined) s->fine_big.regrow = true;
    const int slots[] = {C2D_SCENE_SLOT_OFFSET, C2D_SCENE_SLOT_CONTACTS};
    size_t bytes[2];
    if (!c2d_size_mul(m + 2, sizeof(uint32_t), &bytes[0]) ||
        !c2d_size_mul(found + 1, sizeof(const c2d_pair_contact *), &bytes[1]))
        return C2D_ERROR_ALLOC;
    void *ptr[2];
    const c2d_status st = c2d_scene_reserve_all(s, 2, slots, bytes, ptr);
    if (st != C2D_OK) return st;
    uint32_t *offset = ptr[0];
    const c2d_pair_contact **sorted = ptr[1];
    /* counting sort by capsule of pointers into the parts' contacts (a copy of each contact
     * here, then another into the output, measured 1.04-1.07x slower at 262,144 balls and up);
     * parts in order, each in circle order: stable, ascending */
    memset(offset, 0, (m + 2) * sizeof(uint32_t));
    for (size_t p = 0; p < parts; p++)
        for (size_t j = 0; j < part[p].found; j++)
            offset[part[p].contacts[j].capsule + 2]++;
    for (size_t k = 3; k < m + 2; k++)
        offset[k] += offset[k - 1];
    for (size_t p = 0; p < parts; p++)
        for (size_t j = 0; j < part[p].found; j++)
            sorted[offset[part[p].contacts[j].capsule + 1]++] = &part[p].contacts[j];
    /* capsule k's contacts: sorted[offset[k] .. offset[k + 1]) */
    s->frame.checksum = checksum;
    s->frame.fine = c2d_fine_ready(s);
    s->frame.state = C2D_FRAME_BINNED;
    return C2D_OK;
}
