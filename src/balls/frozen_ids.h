/* The frozen index's map from a ball's id to its slot: an open-addressing hash table (linear
 * probing, at most half full), so its memory grows with the frozen balls, not with the largest
 * id (a table indexed by id needed 4 bytes for every id below the largest: id 0x40000000 alone
 * asked for 4 GiB, beyond a 32-bit size_t). Removal shifts the entries after the hole back, so
 * there are no tombstones and a lookup ends at the first empty entry. */
#ifndef C2D_BALLS_FROZEN_IDS_H
#define C2D_BALLS_FROZEN_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"

/* C2D_NONE (UINT32_MAX) is never a frozen id (freezing refuses it): it marks an empty entry. */
#define FROZEN_IDS_EMPTY UINT32_MAX

typedef struct frozen_id_entry {
    uint32_t id, slot;
} frozen_id_entry;

typedef struct frozen_ids {
    frozen_id_entry *entries; /* `capacity` entries, a power of two; NULL before the first use */
    size_t capacity;
    unsigned bits; /* log2(capacity) */
} frozen_ids;

/* Fibonacci hashing: the top `bits` bits of id times 2^64 / golden ratio, which spreads
 * consecutive ids (the usual case) over the whole table. */
static inline size_t frozen_ids_home(const frozen_ids *m, uint32_t id) {
    return (size_t)(((uint64_t)id * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - m->bits));
}

/* The slot of `id`, or UINT32_MAX when it is not in the map. */
static inline uint32_t frozen_ids_find(const frozen_ids *m, uint32_t id) {
    if (m->capacity == 0 || id == FROZEN_IDS_EMPTY) return UINT32_MAX; /* C2D_NONE: never held */
    const size_t mask = m->capacity - 1;
    for (size_t i = frozen_ids_home(m, id);; i = (i + 1) & mask) {
        const frozen_id_entry e = m->entries[i];
        if (e.id == id) return e.slot;
        if (e.id == FROZEN_IDS_EMPTY) return UINT32_MAX;
    }
}

/* Sets id's slot (inserting it when absent). The map must have room: frozen_ids_reserve. */
static inline void frozen_ids_set(frozen_ids *m, uint32_t id, uint32_t slot) {
    const size_t mask = m->capacity - 1;
    size_t i = frozen_ids_home(m, id);
    while (m->entries[i].id != FROZEN_IDS_EMPTY && m->entries[i].id != id)
        i = (i + 1) & mask;
    m->entries[i] = (frozen_id_entry){id, slot};
}

/* Removes id; returns its slot, or UINT32_MAX when it was not in the map. Each later entry of
 * the run moves into the hole when its home does not lie cyclically in (hole, entry]. */
static inline uint32_t frozen_ids_remove(frozen_ids *m, uint32_t id) {
    if (m->capacity == 0 || id == FROZEN_IDS_EMPTY) return UINT32_MAX;
    const size_t mask = m->capacity - 1;
    size_t hole = frozen_ids_home(m, id);
    while (m->entries[hole].id != id) {
        if (m->entries[hole].id == FROZEN_IDS_EMPTY) return UINT32_MAX;
        hole = (hole + 1) & mask;
    }
    const uint32_t slot = m->entries[hole].slot;
    for (size_t j = (hole + 1) & mask; m->entries[j].id != FROZEN_IDS_EMPTY; j = (j + 1) & mask) {
        const size_t home = frozen_ids_home(m, m->entries[j].id);
        /* distance from home to j, and from the hole to j, going forward around the table */
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            m->entries[hole] = m->entries[j];
            hole = j;
        }
    }
    m->entries[hole].id = FROZEN_IDS_EMPTY;
    return slot;
}

/* The capacity that holds `count` ids at most half full (a power of two, at least 64), or 0
 * when it, or its bytes, would not fit in size_t. */
static inline size_t frozen_ids_capacity_for(size_t count) {
    size_t cap = 64, bytes;
    while (cap / 2 < count) {
        if (cap > SIZE_MAX / 2) return 0;
        cap *= 2;
    }
    return c2d_size_mul(cap, sizeof(frozen_id_entry), &bytes) ? cap : 0;
}

/* A new, empty table of `capacity` entries (from frozen_ids_capacity_for), or NULL. */
static inline frozen_id_entry *frozen_ids_alloc(const c2d_allocator *a, size_t capacity) {
    frozen_id_entry *e = c2d_alloc_array(a, capacity, sizeof *e);
    for (size_t i = 0; e && i < capacity; i++)
        e[i].id = FROZEN_IDS_EMPTY;
    return e;
}

/* Moves every entry of m into `entries` (empty, `capacity` entries) and frees m's old table. */
static inline void frozen_ids_adopt(frozen_ids *m, const c2d_allocator *a, frozen_id_entry *entries,
                                    size_t capacity) {
    frozen_ids old = *m;
    m->entries = entries;
    m->capacity = capacity;
    m->bits = 0;
    while (((size_t)1 << m->bits) < capacity)
        m->bits++;
    for (size_t i = 0; i < old.capacity; i++)
        if (old.entries[i].id != FROZEN_IDS_EMPTY)
            frozen_ids_set(m, old.entries[i].id, old.entries[i].slot);
    c2d_free(a, old.entries);
}

#endif
