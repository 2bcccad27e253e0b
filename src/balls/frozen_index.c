/* The frozen index: resting balls (a scene's frozen balls, collide2d/frozen.h, whose entry
 * points are src/scene/scene_frozen.c) in an index that takes insertions and removals one ball
 * at a time. It knows nothing of scenes: its owner gives it the allocator hooks.
 *
 * The index: slots (one per frozen ball: its copy and its id) with a free list; a hash map from
 * id to slot (frozen_ids.h: memory for the balls held, whatever their ids); a hashed hierarchical
 * grid (levels of power-of-two cells, level 0's side chosen from the centres' spacing, each ball on
 * the first level whose cell side is at least its radius: pick_cell, place), each cell's slots in a
 * doubly linked list through the slots (so a removal is O(1)); and a list of "special" slots tested
 * against every awake ball (values beyond C2D_TAME_LIMIT, or a radius beyond every level). Slots
 * with a NaN centre or a radius that is not >= 0 are held but listed nowhere: they touch nothing.
 * The grid only chooses which pairs get the exact test (frozen_query.c). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "balls/frozen_index.h"
#include "balls/frozen_layout.h"
#include "core/filter_words.h"

static void list_push(c2d_frozen *f, uint32_t *head, uint32_t s) {
    f->slots[s].prev = FROZEN_NIL;
    f->slots[s].next = *head;
    if (*head != FROZEN_NIL) f->slots[*head].prev = s;
    *head = s;
}

static void list_unlink(c2d_frozen *f, uint32_t *head, uint32_t s) {
    const frozen_slot *p = &f->slots[s];
    if (p->prev != FROZEN_NIL)
        f->slots[p->prev].next = p->next;
    else
        *head = p->next;
    if (p->next != FROZEN_NIL) f->slots[p->next].prev = p->prev;
}

/* Lists slot s where its values say (the slot's values are set). */
static void place(c2d_frozen *f, uint32_t s) {
    frozen_slot *p = &f->slots[s];
    if (p->x != p->x || p->y != p->y || !(p->r >= 0.0f)) {
        p->home = FROZEN_HOME_DEAD;
        return;
    }
    unsigned L = 0;
    if (frozen_tame(p->x) && frozen_tame(p->y) && frozen_tame(p->r))
        for (double side = f->cell; (double)p->r > side && L < FROZEN_LEVELS; side *= 2.0)
            L++;
    else
        L = FROZEN_LEVELS;
    if (L == FROZEN_LEVELS) { /* beyond every level: tested against every awake ball */
        p->home = FROZEN_HOME_SPECIAL;
        list_push(f, &f->special_head, s);
        return;
    }
    const int64_t cx = frozen_cell_coord(f->inv_cell[L], p->x);
    const int64_t cy = frozen_cell_coord(f->inv_cell[L], p->y);
    p->home = frozen_bucket_of(f, cx, cy, L);
    p->key = frozen_cell_key(cx, cy, L);
    list_push(f, &f->bucket[p->home], s);
    f->r_max[L] = p->r > f->r_max[L] ? p->r : f->r_max[L];
    f->level_count[L]++;
    f->levels |= 1u << L;
}

static void unplace(c2d_frozen *f, uint32_t s) {
    const uint32_t home = f->slots[s].home;
    if (home == FROZEN_HOME_SPECIAL) {
        list_unlink(f, &f->special_head, s);
    } else if (home != FROZEN_HOME_DEAD) {
        list_unlink(f, &f->bucket[home], s);
        const unsigned L = f->slots[s].key >> 24;
        if (--f->level_count[L] == 0) f->levels &= ~(1u << L);
    }
}

/* ---- the cell side ----------------------------------------------------------------------- */

/* Level 0's cell side follows the spacing of the balls' centres, not their radii: half the
 * smallest power of two 2^e whose cells hold the balls at least two to an occupied cell on
 * average (about the spacing: then an awake ball of about the spacing's size visits a few cells
 * of a ball or two, whatever the frozen radii; a zero radius or one boulder no longer sets every
 * query's reach: the balls too large for level 0 go up a level). On W8's pile (spacing 1) half
 * is the measured best: scattered10's collide part 0.58x of the all-awake one with cells of 1,
 * 0.83x with 2, 0.90x with 0.5. Occupied cells are counted in a bitmap, one pass a guess of a
 * binary search over e. */
enum { CELL_E_LO = -60, CELL_E_HI = 44 };

typedef struct cell_probe {
    uint64_t *bits; /* 2^log_bits bits */
    unsigned log_bits;
    size_t set, balls; /* bits set, balls seen */
    double inv;
} cell_probe;

static inline void probe_ball(cell_probe *c, float x, float y, float r) {
    if (x != x || y != y || !(r >= 0.0f) || !frozen_tame(x) || !frozen_tame(y) || !frozen_tame(r))
        return;
    const uint64_t cx = (uint64_t)frozen_cell_coord(c->inv, x);
    const uint64_t cy = (uint64_t)frozen_cell_coord(c->inv, y);
    const uint64_t h = (cx * UINT64_C(0x9E3779B97F4A7C15) ^ cy * UINT64_C(0xC2B2AE3D27D4EB4F)) *
                       UINT64_C(0xFF51AFD7ED558CCD);
    const uint64_t bit = h >> (64 - c->log_bits);
    const uint64_t m = UINT64_C(1) << (bit & 63);
    c->set += !(c->bits[bit >> 6] & m);
    c->bits[bit >> 6] |= m;
    c->balls++;
}

/* Whether cells of side 2^e hold the balls held plus `extra` two or more to a cell. */
static bool cells_shared(const c2d_frozen *f, const c2d_circle_soa *extra, cell_probe *c, int e) {
    memset(c->bits, 0, ((size_t)1 << c->log_bits) / 8);
    c->set = c->balls = 0;
    c->inv = ldexp(1.0, -e);
    for (size_t s = 0; s < f->used; s++)
        if (f->slots[s].id != FROZEN_NIL)
            probe_ball(c, f->slots[s].x, f->slots[s].y, f->slots[s].r);
    for (size_t k = 0; extra && k < extra->count; k++)
        probe_ball(c, extra->x[k], extra->y[k], extra->radius[k]);
    return 2 * c->set <= c->balls;
}

/* The cell side for the balls held plus `extra`; `scratch`: words words of memory (a power of
 * two, words >= the balls / 2). */
static double pick_cell(const c2d_frozen *f, const c2d_circle_soa *extra, uint64_t *scratch,
                        size_t words) {
    cell_probe c = {scratch, 6, 0, 0, 0.0}; /* 4 to 8 bits a ball: in cache, few collisions */
    while (((size_t)1 << c.log_bits) < 8 * (f->count + (extra ? extra->count : 0)) &&
           ((size_t)1 << (c.log_bits - 5)) <= words)
        c.log_bits++;
    int lo = CELL_E_LO, hi = CELL_E_HI; /* lo: taken as too fine; hi: as coarse enough */
    if (f->cell > 0.0) {                /* the side before, when it still holds: two passes */
        int e;
        frexp(f->cell, &e); /* f->cell = 2^(e - 1), chosen as 2^(hi - 1): hi = e */
        if (e > CELL_E_LO + 1 && e <= CELL_E_HI && cells_shared(f, extra, &c, e)) {
            hi = e;
            if (!cells_shared(f, extra, &c, e - 1)) return f->cell;
        } else if (e > CELL_E_LO && e < CELL_E_HI) {
            lo = e;
        }
    }
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        if (cells_shared(f, extra, &c, mid))
            hi = mid;
        else
            lo = mid;
    }
    return ldexp(1.0, hi - 1); /* half: see above */
}

/* Relists every slot in `buckets` buckets of side `cell` (bucket memory given). */
static void rebuild(c2d_frozen *f, uint32_t *bucket, size_t buckets, double cell) {
    f->bucket = bucket;
    f->buckets = buckets;
    unsigned log = 0;
    while (((size_t)1 << log) < buckets)
        log++;
    f->shift = (log + 1) / 2; /* nx >= ny */
    f->mask_x = ((uint64_t)1 << f->shift) - 1;
    f->mask_y = ((uint64_t)1 << (log - f->shift)) - 1;
    f->cell = cell;
    for (unsigned L = 0; L < FROZEN_LEVELS; L++) {
        f->inv_cell[L] = ldexp(1.0 / cell, -(int)L);
        f->r_max[L] = 0.0f;
        f->level_count[L] = 0;
    }
    f->levels = 0;
    f->changes = 0;
    f->special_head = FROZEN_NIL;
    for (size_t b = 0; b < buckets; b++)
        bucket[b] = FROZEN_NIL;
    for (size_t s = 0; s < f->used; s++)
        if (f->slots[s].id != FROZEN_NIL) place(f, (uint32_t)s);
}

/* ---- memory ------------------------------------------------------------------------------ */

static void *grow_array(const c2d_allocator *a, void *old, size_t old_bytes, size_t count,
                        size_t size) {
    void *fresh = c2d_alloc_array(a, count, size);
    if (fresh && old_bytes) memcpy(fresh, old, old_bytes);
    return fresh;
}

c2d_frozen *c2d_frozen_new(const c2d_allocator *a) {
    c2d_frozen *f = c2d_alloc(a, sizeof *f);
    if (!f) return NULL;
    memset(f, 0, sizeof *f);
    f->free_head = FROZEN_NIL;
    f->special_head = FROZEN_NIL;
    return f;
}

void c2d_frozen_free(const c2d_allocator *a, c2d_frozen *f) {
    if (!f) return;
    c2d_free(a, f->slots);
    c2d_free(a, f->slot_of.entries);
    c2d_free(a, f->bucket);
    c2d_free(a, f->hits);
    c2d_free(a, f->words);
    c2d_free(a, f);
}

/* Makes room for `more` balls, all or nothing. Rebuilds the grid, its cell chosen again, when
 * the buckets would hold more than one ball each, or when the balls frozen and thawed since the
 * last rebuild outnumber four times the balls it chose the cell for (they may lie elsewhere now, or
 * be spaced otherwise): both amortised O(1) a ball. */
static c2d_status reserve(const c2d_allocator *a, c2d_frozen *f, const c2d_circle_soa *c,
                          size_t more) {
    const size_t slots_need = f->count + more; /* free slots are reused first */
    const size_t slot_cap =
        f->capacity >= slots_need ? f->capacity : c2d_grown(f->capacity, slots_need);
    /* at most slots_need ids afterwards (a repeated id or one held already takes no entry) */
    const size_t id_cap = f->slot_of.capacity / 2 >= slots_need
                              ? f->slot_of.capacity
                              : frozen_ids_capacity_for(slots_need);
    if (id_cap == 0) return C2D_ERROR_ALLOC; /* the table's bytes would not fit in size_t */
    const size_t bucket_cap =
        f->buckets >= slots_need ? f->buckets : c2d_grown(f->buckets, slots_need);
    frozen_slot *slots = f->slots;
    frozen_id_entry *slot_of = f->slot_of.entries;
    uint32_t *bucket = f->bucket;
    uint64_t *hits = f->hits;
    if (slot_cap != f->capacity) {
        slots = grow_array(a, f->slots, f->used * sizeof *slots, slot_cap, sizeof *slots);
        hits = c2d_alloc_array(a, slot_cap, sizeof *hits);
    }
    if (id_cap != f->slot_of.capacity) slot_of = frozen_ids_alloc(a, id_cap);
    if (bucket_cap != f->buckets) bucket = c2d_alloc_array(a, bucket_cap, sizeof *bucket);
    /* filter words: from the first freeze that brings a filter on (the balls held before it
     * get every layer), growing with the slots */
    const bool want_words = f->words || c2d_circle_soa_filtered(c);
    uint32_t *words = f->words;
    if (want_words && (!f->words || slot_cap != f->capacity)) {
        words = c2d_alloc_array(a, slot_cap, 2 * sizeof *words);
        for (size_t k = 0; words && k < 2 * f->used; k++)
            words[k] = f->words ? f->words[k] : C2D_FILTER_ALL;
    }
    if (!slots || !slot_of || !bucket || !hits || (want_words && !words)) {
        if (words != f->words) c2d_free(a, words);
        if (slots != f->slots) c2d_free(a, slots);
        if (hits != f->hits) c2d_free(a, hits);
        if (slot_of != f->slot_of.entries) c2d_free(a, slot_of);
        if (bucket != f->bucket) c2d_free(a, bucket);
        return C2D_ERROR_ALLOC;
    }
    if (words != f->words) {
        c2d_free(a, f->words);
        f->words = words;
    }
    if (slots != f->slots) {
        c2d_free(a, f->slots);
        c2d_free(a, f->hits);
        f->slots = slots;
        f->hits = hits;
        f->capacity = slot_cap;
    }
    if (slot_of != f->slot_of.entries) frozen_ids_adopt(&f->slot_of, a, slot_of, id_cap);
    const bool grown = bucket != f->bucket;
    if (grown || f->changes + more > 4 * f->rebuilt_for + 64) {
        if (grown) c2d_free(a, f->bucket);
        /* the scratch: f->hits, capacity entries >= slots_need (a power of two's share) */
        size_t words = 1;
        while (words * 2 <= f->capacity)
            words *= 2;
        const double cell = pick_cell(f, c, f->hits, words);
        if (grown || cell != f->cell) /* (the same cell and buckets: the grid is kept) */
            rebuild(f, bucket, bucket_cap, cell);
        f->changes = 0;
        f->rebuilt_for = slots_need;
    }
    return C2D_OK;
}

/* ---- freeze and thaw --------------------------------------------------------------------- */

c2d_status c2d_frozen_insert(c2d_frozen *f, const c2d_allocator *a, const c2d_circle_soa *circles,
                             const uint32_t *ids) {
    const size_t n = circles->count;
    if (f->count + n >= (size_t)UINT32_MAX - 1) return C2D_ERROR_TOO_LARGE; /* slot numbers */
    const c2d_status rs = reserve(a, f, circles, n);
    if (rs != C2D_OK) return rs;
    for (size_t k = 0; k < n; k++) {
        const uint32_t id = ids ? ids[k] : (uint32_t)k;
        uint32_t s = frozen_ids_find(&f->slot_of, id);
        if (s != FROZEN_NIL) {
            unplace(f, s);
        } else {
            if (f->free_head != FROZEN_NIL) {
                s = f->free_head;
                f->free_head = f->slots[s].next;
            } else {
                s = (uint32_t)f->used++;
            }
            frozen_ids_set(&f->slot_of, id, s);
            f->count++;
        }
        frozen_slot *p = &f->slots[s];
        p->x = circles->x[k];
        p->y = circles->y[k];
        p->r = circles->radius[k];
        p->id = id;
        p->key = 0;
        place(f, s);
    }
    f->changes += n;
    if (f->words) /* the filter words, in a pass of their own (the last of a repeated id wins) */
        for (size_t k = 0; k < n; k++) {
            const size_t s = frozen_ids_find(&f->slot_of, ids ? ids[k] : (uint32_t)k);
            f->words[2 * s] = c2d_filter_word(circles->category, k);
            f->words[2 * s + 1] = c2d_filter_word(circles->mask, k);
        }
    return C2D_OK;
}

void c2d_frozen_remove(c2d_frozen *f, const uint32_t *ids, size_t count) {
    for (size_t k = 0; k < count; k++) {
        const uint32_t s = frozen_ids_remove(&f->slot_of, ids[k]);
        if (s == FROZEN_NIL) continue; /* not held */
        unplace(f, s);
        f->slots[s].id = FROZEN_NIL;
        f->slots[s].home = FROZEN_HOME_DEAD;
        f->slots[s].next = f->free_head;
        f->free_head = s;
        f->count--;
        f->changes++;
    }
}

size_t c2d_frozen_count(const c2d_frozen *f) {
    return f ? f->count : 0;
}

bool c2d_frozen_get(const c2d_frozen *f, uint32_t id, c2d_circle *out) {
    const uint32_t s = f ? frozen_ids_find(&f->slot_of, id) : FROZEN_NIL;
    if (s == FROZEN_NIL) return false;
    const frozen_slot *p = &f->slots[s];
    if (out) {
        out->center.x = p->x;
        out->center.y = p->y;
        out->radius = p->r;
    }
    return true;
}
