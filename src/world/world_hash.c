/* c2d_world_hash(): a hash of the world's state (the balls in id order, the kinematic
 * capsules' shapes), the same on every platform: the golden tests compare it. */
#include <string.h>

#include "world_internal.h"

/* FNV-1a over bytes, 64 bits: small, portable, and the same on every platform. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t fnv_float(uint64_t h, float v) {
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    unsigned char b[4] = {(unsigned char)bits, (unsigned char)(bits >> 8),
                          (unsigned char)(bits >> 16), (unsigned char)(bits >> 24)};
    return fnv(h, b, 4);
}

uint64_t c2d_world_hash(const c2d_world *w) {
    if (!w || c2d_world_busy(w)) return 0;
    uint64_t h = 0xcbf29ce484222325ull;
    /* In id order: slots ascending (an id is its slot plus a generation). */
    for (size_t s = 0; s < w->ball_slots.count; s++) {
        uint32_t k = w->ball_slots.dense[s];
        if (k == C2D_NONE) continue;
        uint32_t id = w->ids[k];
        unsigned char idb[4] = {(unsigned char)id, (unsigned char)(id >> 8),
                                (unsigned char)(id >> 16), (unsigned char)(id >> 24)};
        h = fnv(h, idb, 4);
        h = fnv_float(h, w->x[k]);
        h = fnv_float(h, w->y[k]);
        h = fnv_float(h, w->vx[k]);
        h = fnv_float(h, w->vy[k]);
        h = fnv_float(h, w->angle[k]);
        h = fnv_float(h, w->angular_velocity[k]);
        unsigned char awake = (w->flags[k] & WORLD_BALL_AWAKE) != 0;
        h = fnv(h, &awake, 1);
    }
    for (size_t s = 0; s < w->capsule_slots.count; s++) {
        uint32_t k = w->capsule_slots.dense[s];
        if (k == C2D_NONE || w->motion[k] != C2D_KINEMATIC) continue;
        h = fnv_float(h, w->shape[k].a.x);
        h = fnv_float(h, w->shape[k].a.y);
        h = fnv_float(h, w->shape[k].b.x);
        h = fnv_float(h, w->shape[k].b.y);
    }
    return h;
}
