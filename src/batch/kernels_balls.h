/* The ball-against-ball kernels of one backend (src/batch/kernels_balls.c, compiled once per
 * backend like kernels.c) and the helpers both the kernels and the ball grid use. */
#ifndef C2D_BATCH_KERNELS_BALLS_H
#define C2D_BATCH_KERNELS_BALLS_H

#include "batch/kernels.h"

/* Per-backend names: c2d_kernels_avx2 gives c2d_kernels_avx2_collide_circles, and so on. */
#define C2D_BALL_KERNEL_(table, name) table##_##name
#define C2D_BALL_KERNEL(table, name) C2D_BALL_KERNEL_(table, name)

#ifdef C2D_BACKEND_TABLE
C2D_INTERNAL size_t C2D_BALL_KERNEL(C2D_BACKEND_TABLE,
                                    collide_circles)(const c2d_circle_soa *circles, size_t first,
                                                     size_t end, c2d_circle_pair_contact *out,
                                                     size_t capacity, size_t total);
C2D_INTERNAL void C2D_BALL_KERNEL(C2D_BACKEND_TABLE,
                                  sweep_circles)(const c2d_circle_soa *circles, const float *move_x,
                                                 const float *move_y, size_t first, size_t end,
                                                 c2d_circle_hit *out);
#endif

/* Appends one ball pair: written only while below capacity, always counted. */
static inline void c2d_emit_ball_pair(c2d_circle_pair_contact *out, size_t capacity, size_t *total,
                                      uint32_t a, uint32_t b, const c2d_contact *contact) {
    if (*total < capacity) {
        out[*total].a = a;
        out[*total].b = b;
        out[*total].contact = *contact;
    }
    (*total)++;
}

/* The exact contact of balls a < b (c2d_collide_circles(a, b): b is a zero-length capsule). */
static inline bool c2d_ball_contact(const c2d_circle_soa *c, size_t a, size_t b,
                                    c2d_contact *contact) {
    return c2d_capsule_contact(c->x[a], c->y[a], c->radius[a], c->x[b], c->y[b], c->x[b], c->y[b],
                               c->radius[b], contact);
}

/* Ball i's sweep against ball j: c2d_sweep_circles(i, move i, j, move j). */
static inline bool c2d_ball_sweep(const c2d_circle_soa *c, const float *mx, const float *my,
                                  size_t i, size_t j, c2d_toi *toi) {
    const c2d_circle ci = {{c->x[i], c->y[i]}, c->radius[i]};
    const c2d_circle cj = {{c->x[j], c->y[j]}, c->radius[j]};
    const c2d_vec2 vi = {mx[i], my[i]}, vj = {mx[j], my[j]};
    return c2d_sweep_circles(ci, vi, cj, vj, toi);
}

/* Keeps ball j's hit if it is earlier than the slot's, or as early with a lower index, so
 * candidates may arrive in any order and still give the lowest j among the earliest. */
static inline void c2d_keep_earliest_ball(c2d_circle_hit *slot, uint32_t j, const c2d_toi *toi) {
    if (slot->other == C2D_NONE || toi->t < slot->toi.t ||
        (toi->t == slot->toi.t && j < slot->other)) {
        slot->other = j;
        slot->toi = *toi;
    }
}

/* "No hit": other C2D_NONE, toi all zeros. */
static inline c2d_circle_hit c2d_no_ball_hit(void) {
    const c2d_circle_hit none = {C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
    return none;
}

#endif
