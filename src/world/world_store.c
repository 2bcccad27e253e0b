/* The world's storage primitives: arrays that grow through the world's allocator, and the
 * slot tables that turn ids into dense indices. The floor under every other file of the world:
 * it calls none of them. */
#include <string.h>

#include "world_internal.h"

bool c2d_world_reserve(c2d_world *w, void **array, size_t *capacity, size_t need, size_t size) {
    if (need <= *capacity) return true;
    size_t cap = c2d_grown(*capacity, need);
    void *p = c2d_alloc_array(&w->allocator, cap, size);
    if (!p) return false;
    if (*array) {
        memcpy(p, *array, *capacity * size);
        c2d_free(&w->allocator, *array);
    }
    *array = p;
    *capacity = cap;
    return true;
}

bool c2d_world_array_push(c2d_world *w, world_array *a, const void *element, size_t size) {
    if (!c2d_world_reserve(w, &a->data, &a->capacity, a->count + 1, size)) return false;
    memcpy((char *)a->data + a->count * size, element, size);
    a->count++;
    return true;
}

/* Grows every array of `refs` from `*capacity` to hold `need` elements; all or nothing. */
bool c2d_world_reserve_all(c2d_world *w, world_array_ref *refs, size_t n, size_t *capacity,
                           size_t need) {
    if (need <= *capacity) return true;
    size_t cap = c2d_grown(*capacity, need);
    void *fresh[32];
    for (size_t i = 0; i < n; i++) {
        fresh[i] = c2d_alloc_array(&w->allocator, cap, refs[i].size);
        if (!fresh[i]) {
            while (i--)
                c2d_free(&w->allocator, fresh[i]);
            return false;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (*refs[i].array) {
            memcpy(fresh[i], *refs[i].array, *capacity * refs[i].size);
            c2d_free(&w->allocator, *refs[i].array);
        }
        *refs[i].array = fresh[i];
    }
    *capacity = cap;
    return true;
}

/* ---- slots ---- */

/* Room for `more` new slots (all or nothing as far as the slots in use go: a failure leaves
 * the table as it was, perhaps with a larger array that is not yet counted). */
bool c2d_world_slots_reserve(c2d_world *w, world_slots *s, size_t more) {
    size_t need = s->count + more;
    size_t c1 = s->capacity, c2 = s->capacity, c3 = s->capacity;
    if (!c2d_world_reserve(w, (void **)&s->dense, &c1, need, sizeof(uint32_t)) ||
        !c2d_world_reserve(w, (void **)&s->generation, &c2, need, sizeof(uint8_t)) ||
        !c2d_world_reserve(w, (void **)&s->free_list, &c3, need, sizeof(uint32_t)))
        return false;
    s->capacity = c1;
    return true;
}

/* Takes a slot (room reserved) for dense index `dense`; returns the id. */
uint32_t c2d_world_slots_take(world_slots *s, uint32_t dense) {
    uint32_t slot;
    if (s->free_count > 0) {
        slot = s->free_list[--s->free_count];
    } else {
        slot = (uint32_t)s->count++;
        s->generation[slot] = 0;
    }
    s->dense[slot] = dense;
    return world_make_id(slot, s->generation[slot]);
}

/* Frees `id`'s slot: its generation moves on, so the id is refused from now on. */
void c2d_world_slots_release(world_slots *s, uint32_t id) {
    uint32_t slot = world_id_slot(id);
    s->dense[slot] = C2D_NONE;
    s->generation[slot]++;
    /* A generation that would make an id equal to C2D_NONE is skipped. */
    if (world_make_id(slot, s->generation[slot]) == C2D_NONE) s->generation[slot]++;
    s->free_list[s->free_count++] = slot;
}

static bool slots_lookup(const world_slots *s, uint32_t id, uint32_t *dense) {
    uint32_t slot = world_id_slot(id);
    if (id == C2D_NONE || slot >= s->count || s->dense[slot] == C2D_NONE ||
        world_make_id(slot, s->generation[slot]) != id)
        return false;
    *dense = s->dense[slot];
    return true;
}

bool c2d_world_lookup_ball(const c2d_world *w, c2d_ball_id id, uint32_t *dense) {
    return slots_lookup(&w->ball_slots, id, dense);
}

bool c2d_world_lookup_capsule(const c2d_world *w, c2d_capsule_id id, uint32_t *dense) {
    return slots_lookup(&w->capsule_slots, id, dense);
}
