/* Memory of the library's own structures (scenes, their indices, frozen balls): through a
 * caller's c2d_allocator hooks, with sizes that are checked before they are used.
 *
 * Ground floor: public types only, so any layer may allocate without knowing who owns the
 * hooks. Every count x size product of an allocation goes through c2d_size_mul, which fails
 * instead of wrapping (a 32-bit size_t reaches its limit long before the counts' UINT32_MAX). */
#ifndef C2D_ALLOC_H
#define C2D_ALLOC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "collide2d/scene.h"

/* *bytes = count * size; false (and *bytes untouched) when the product does not fit in size_t. */
static inline bool c2d_size_mul(size_t count, size_t size, size_t *bytes) {
    if (size != 0 && count > SIZE_MAX / size) return false;
    *bytes = count * size;
    return true;
}

/* `bytes` bytes from the hooks (a request for 0 asks for 1, so NULL always means failure). */
static inline void *c2d_alloc(const c2d_allocator *a, size_t bytes) {
    return a->alloc(bytes ? bytes : 1, a->user);
}

/* count elements of `size` bytes; NULL when the hooks fail or the size does not fit. */
static inline void *c2d_alloc_array(const c2d_allocator *a, size_t count, size_t size) {
    size_t bytes;
    return c2d_size_mul(count, size, &bytes) ? c2d_alloc(a, bytes) : NULL;
}

/* Releases memory of c2d_alloc (NULL: nothing). */
static inline void c2d_free(const c2d_allocator *a, void *ptr) {
    if (ptr) a->free(ptr, a->user);
}

static inline void *c2d_malloc_hook(size_t size, void *user) {
    (void)user;
    return malloc(size);
}

static inline void c2d_free_hook(void *ptr, void *user) {
    (void)user;
    free(ptr);
}

/* The hooks `a` holds, or malloc and free when a is NULL. */
static inline c2d_allocator c2d_allocator_or_malloc(const c2d_allocator *a) {
    return a ? *a : (c2d_allocator){c2d_malloc_hook, c2d_free_hook, NULL};
}

/* A capacity for `need` elements grown from `have` by doubling (64 at first), so a stream of
 * growing requests allocates O(log) times; exactly `need` where doubling would overflow. */
static inline size_t c2d_grown(size_t have, size_t need) {
    size_t cap = have ? have : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : 2 * cap;
    return cap;
}

#endif
