/* The contacts of capsule ranges against a binned frame (c2d_scene_collide_range and
 * c2d_scene_collide): the binned contacts, sorted by capsule at the end of binning
 * (scene_bin.c), copied through their pointers; capsules of kind EVERYWHERE, never binned,
 * tested in their place by the all-pairs kernel. */
#include "batch/dispatch.h"
#include "scene/scene_collide.h"
#include "scene/scene_fine.h"
#include "scene/scene_part.h"

/* Where contacts go, and how many were found. */
typedef struct sink {
    c2d_pair_contact *out;
    size_t capacity, written, total;
} sink;

/* The rest of the output buffer: NULL once full (no pointer past the end is formed). */
static c2d_pair_contact *rest_of(const sink *o, size_t *capacity) {
    *capacity = o->capacity - o->written;
    return *capacity ? o->out + o->written : NULL;
}

static void account(sink *o, size_t found) {
    const size_t room = o->capacity - o->written;
    o->written += found < room ? found : room;
    o->total += found;
}

/* n binned contacts (pointers to them) into the output. */
static void copy_out(sink *o, const c2d_pair_contact *const *from, size_t n) {
    if (n == 0) return;
    size_t capacity;
    c2d_pair_contact *out = rest_of(o, &capacity);
    if (out)
        for (size_t j = 0, w = n < capacity ? n : capacity; j < w; j++)
            out[j] = *from[j];
    account(o, n);
}

/* Capsule k against every circle, by the all-pairs kernel: huge or infinite capsules, and
 * capsules whose box covers too many cells. */
static void collide_all(const c2d_scene *s, size_t k, sink *o) {
    const c2d_capsule_soa one = c2d_one_capsule(s, k); /* with the frame's words: filtered there */
    size_t capacity;
    c2d_pair_contact *out = rest_of(o, &capacity);
    const size_t found = c2d_active_kernels()->collide(&s->frame.circles, &one, out, capacity);
    const size_t written = found < capacity ? found : capacity;
    for (size_t i = 0; i < written; i++)
        out[i].capsule = (uint32_t)k;
    account(o, found);
}

size_t c2d_scene_collide_binned(const c2d_scene *s, size_t first, size_t n, c2d_pair_contact *out,
                                size_t capacity) {
    sink o = {out, capacity, 0, 0};
    if (s->frame.circles.count == 0 || n == 0) return 0;
    const uint32_t *offset = s->scratch[C2D_SCENE_SLOT_OFFSET].ptr;
    const c2d_pair_contact *const *sorted = s->scratch[C2D_SCENE_SLOT_CONTACTS].ptr;
    const unsigned char *kind = s->index.kind;
    const float *R = s->capsules.radius;
    /* runs of binned contacts are copied at once; capsules of kind EVERYWHERE (never binned)
     * are tested in their place */
    size_t run = offset[first];
    const bool longs = s->frame.fine && s->fine.long_count > 0;
    for (size_t k = first; k < first + n; k++) {
        if (kind[k] != C2D_KIND_EVERYWHERE || (longs && c2d_fine_long(s, k))) continue;
        copy_out(&o, sorted + run, offset[k] - run);
        run = offset[k + 1];
        if (R[k] >= 0.0f) collide_all(s, k, &o);
    }
    copy_out(&o, sorted + run, offset[first + n] - run);
    return o.total;
}
