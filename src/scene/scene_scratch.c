/* The scene's scratch slots: per-frame memory that stays with the scene, grown geometrically
 * (so frames of about the same size allocate nothing). */
#include "scene/scene_scratch.h"

/* Geometric growth with headroom: 1.5x what is needed, at least 1.5x the old size, so frames
 * that vary a little allocate nothing and a growing stream allocates O(log) times. */
static size_t grown_size(size_t old, size_t bytes) {
    const size_t grown = old + old / 2, wanted = bytes + bytes / 2;
    const size_t size = grown > wanted ? grown : wanted;
    return size >= bytes ? size : bytes; /* on overflow, exactly what is needed */
}

c2d_status c2d_scene_reserve_all(c2d_scene *s, size_t n, const int *slots, const size_t *bytes,
                                 void **ptrs) {
    void *fresh[C2D_SCENE_SLOTS] = {NULL};
    size_t fresh_bytes[C2D_SCENE_SLOTS] = {0};
    for (size_t i = 0; i < n; i++) {
        const c2d_scene_scratch *sc = &s->scratch[slots[i]];
        if (sc->bytes >= bytes[i] && sc->ptr) continue;
        fresh_bytes[i] = grown_size(sc->bytes, bytes[i]);
        fresh[i] = c2d_alloc(&s->allocator, fresh_bytes[i]);
        if (!fresh[i]) {
            for (size_t j = 0; j < i; j++)
                c2d_free(&s->allocator, fresh[j]);
            return C2D_ERROR_ALLOC;
        }
    }
    for (size_t i = 0; i < n; i++) {
        c2d_scene_scratch *sc = &s->scratch[slots[i]];
        if (fresh[i]) {
            c2d_free(&s->allocator, sc->ptr);
            sc->ptr = fresh[i];
            sc->bytes = fresh_bytes[i];
        }
        ptrs[i] = sc->ptr;
    }
    return C2D_OK;
}

c2d_status c2d_scene_reserve(c2d_scene *s, int slot, size_t bytes, void **ptr) {
    return c2d_scene_reserve_all(s, 1, &slot, &bytes, ptr);
}
