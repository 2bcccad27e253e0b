/* Scene collide frames: binning the circles, then the contacts of capsule ranges. */
#include "dispatch.h"
#include "scene/scene_internal.h"

c2d_status c2d_scene_bin_circles(c2d_scene *s, const c2d_circle_soa *circles) {
    s->frame.valid = true;
    s->frame.circles = *circles;
    return C2D_OK;
}

size_t c2d_scene_collide_binned(const c2d_scene *s, size_t first, size_t n, c2d_pair_contact *out,
                                size_t capacity) {
    const c2d_capsule_soa *k = &s->capsules;
    const c2d_capsule_soa range = {k->ax + first, k->ay + first,     k->bx + first,
                                   k->by + first, k->radius + first, n};
    if (n == 0) return 0;
    const size_t total = c2d_active_kernels()->collide(&s->frame.circles, &range, out, capacity);
    const size_t written = total < capacity ? total : capacity;
    for (size_t i = 0; i < written; i++)
        out[i].capsule += (uint32_t)first;
    return total;
}
