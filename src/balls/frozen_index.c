/* The frozen index: resting balls (a scene's frozen balls, collide2d/frozen.h, whose entry
 * points are src/scene/scene_frozen.c) in an index that takes insertions and removals one ball
 * at a time. It knows nothing of scenes: its owner gives it the allocator hooks.
 *
 * The index: slots (one per frozen ball: its copy and its id) with a free list; a hash map from
 * id to slot (frozen_ids.h: memory for the balls held, whatever their ids); a hierarchical grid
 * (levels of power-of-two cells, level 0's side chosen from the centres' spacing, each ball on
 * the first level whose cell side is at least its radius: pick_cell, place), each level a torus
 * of buckets whose balls sit packed in blocks of four lanes (frozen_layout.h), so a removal is
 * O(1): the bucket's last ball fills the hole; and a list of "special" slots tested against
 * every awake ball (values beyond C2D_TAME_LIMIT, or a radius beyond every level). Slots with a
 * NaN centre or a radius that is not >= 0 are held but listed nowhere: they touch nothing.
 * The grid only chooses which pairs get the exact test (frozen_query.c). */
#include <math.h>
#include <string.h>

#include "alloc.h"
#include "balls/frozen_index.h"
#include "balls/frozen_layout.h"
#include "core/filter_words.h"

/* ---- a level's buckets and blocks --------------------------------------------------------- */

static void bit_set(uint64_t *map, size_t b) {
    map[b / 64] |= (uint64_t)1 << (b % 64);
}

static void bit_clear(uint64_t *map, size_t b) {
    map[b / 64] &= ~((uint64_t)1 << (b % 64));
}

/* Marks the lanes of block k unused: a NaN centre and radius fail every test. */
static void block_clear(frozen_level *lv, uint32_t k) {
    for (unsigned j = 0; j < FROZEN_LANES; j++) {
        lv->block[k].x[j] = lv->block[k].y[j] = lv->block[k].r[j] = NAN;
        lv->block[k].id[j] = FROZEN_NIL;
    }
    lv->next[k] = FROZEN_NIL;
}

/* The bitmap words of a level of `buckets` buckets, one spare (frozen_bits_at). */
static size_t bitmap_words(size_t buckets) {
    return buckets / 64 + 2;
}

static void level_free(const c2d_allocator *a, frozen_level *lv) {
    c2d_free(a, lv->block);
    c2d_free(a, lv->lane_slot);
    c2d_free(a, lv->next);
    c2d_free(a, lv->fill);
    c2d_free(a, lv->occupied);
    c2d_free(a, lv->chained);
    c2d_free(a, lv->near);
    memset(lv, 0, sizeof *lv);
}

/* An empty level of cells of side 1 / inv_cell with room for `balls` balls: a power of two of
 * buckets, at least `balls` (nx >= ny), and as many chained blocks as they can need (a bucket
 * of n > 0 balls chains ceil(n / 4) - 1 < n / 4 blocks: a quarter of the balls in all). */
static bool level_make(const c2d_allocator *a, frozen_level *lv, size_t balls, double inv_cell) {
    memset(lv, 0, sizeof *lv);
    unsigned log = 4;
    while (((size_t)1 << log) < balls)
        log++;
    lv->buckets = (size_t)1 << log;
    lv->capacity = lv->buckets + lv->buckets / 4 + 1;
    lv->block = c2d_alloc_array(a, lv->capacity, sizeof *lv->block);
    lv->lane_slot = c2d_alloc_array(a, lv->capacity, FROZEN_LANES * sizeof *lv->lane_slot);
    lv->next = c2d_alloc_array(a, lv->capacity, sizeof *lv->next);
    lv->fill = c2d_alloc_array(a, lv->buckets, sizeof *lv->fill);
    lv->occupied = c2d_alloc_array(a, bitmap_words(lv->buckets), sizeof *lv->occupied);
    lv->chained = c2d_alloc_array(a, bitmap_words(lv->buckets), sizeof *lv->chained);
    lv->near = c2d_alloc_array(a, lv->buckets >> 2 * FROZEN_TILE_LOG, sizeof *lv->near);
    if (!lv->block || !lv->lane_slot || !lv->next || !lv->fill || !lv->occupied || !lv->chained ||
        !lv->near) {
        level_free(a, lv);
        return false;
    }
    lv->shift = (log + 1) / 2;
    lv->mask_x = ((uint64_t)1 << lv->shift) - 1;
    lv->mask_y = ((uint64_t)1 << (log - lv->shift)) - 1;
    lv->inv_cell = inv_cell;
    lv->coarse = inv_cell <= 0x1p19;
    lv->used = lv->buckets;
    lv->free_block = FROZEN_NIL;
    for (size_t k = 0; k < lv->capacity; k++) /* the spare blocks too: a walk reads them */
        block_clear(lv, (uint32_t)k);
    memset(lv->fill, 0, lv->buckets * sizeof *lv->fill);
    memset(lv->occupied, 0, bitmap_words(lv->buckets) * sizeof *lv->occupied);
    memset(lv->chained, 0, bitmap_words(lv->buckets) * sizeof *lv->chained);
    memset(lv->near, 0, (lv->buckets >> 2 * FROZEN_TILE_LOG) * sizeof *lv->near);
    return true;
}

/* Adds delta to the near counts of the 3 x 3 tiles about bucket b's tile (tiles wrap around
 * the torus; with fewer than three a side, a tile is counted more than once, alike when added
 * and when taken away). */
static void near_add(frozen_level *lv, uint32_t b, uint32_t delta) {
    const uint64_t mx = ((lv->mask_x + 1) >> FROZEN_TILE_LOG) - 1;
    const uint64_t my = ((lv->mask_y + 1) >> FROZEN_TILE_LOG) - 1;
    const uint64_t tx = (b & lv->mask_x) >> FROZEN_TILE_LOG,
                   ty = (b >> lv->shift) >> FROZEN_TILE_LOG;
    const unsigned row = lv->shift - FROZEN_TILE_LOG;
    for (uint64_t dy = 0; dy < 3; dy++) {
        uint32_t *r = lv->near + (((ty + dy - 1) & my) << row);
        r[(tx - 1) & mx] += delta;
        r[tx] += delta;
        r[(tx + 1) & mx] += delta;
    }
}

/* Lists slot s in level lv, after the balls of its bucket. */
static void level_place(frozen_level *lv, frozen_slot *slots, uint32_t s) {
    frozen_slot *p = &slots[s];
    const uint32_t b = frozen_bucket_at(lv, p->x, p->y);
    const uint32_t n = lv->fill[b]++;
    uint32_t k = b;
    for (uint32_t i = FROZEN_LANES; i <= n; i += FROZEN_LANES) {
        if (lv->next[k] == FROZEN_NIL) { /* n is a multiple of four: a new block */
            uint32_t fresh = lv->free_block;
            if (fresh != FROZEN_NIL)
                lv->free_block = lv->next[fresh];
            else
                fresh = (uint32_t)lv->used++; /* within capacity: see level_make */
            block_clear(lv, fresh);
            lv->next[k] = fresh;
        }
        k = lv->next[k];
    }
    const unsigned j = n % FROZEN_LANES;
    lv->block[k].x[j] = p->x;
    lv->block[k].y[j] = p->y;
    lv->block[k].r[j] = p->r;
    lv->block[k].id[j] = p->id;
    lv->lane_slot[(size_t)k * FROZEN_LANES + j] = s;
    p->where = k * FROZEN_LANES + j;
    bit_set(lv->occupied, b);
    if (n == FROZEN_LANES) bit_set(lv->chained, b);
    near_add(lv, b, 1);
    lv->r_max = p->r > lv->r_max ? p->r : lv->r_max;
    lv->count++;
}

/* Takes slot s out of level lv: the bucket's last ball moves into its lane. */
static void level_unplace(frozen_level *lv, frozen_slot *slots, uint32_t s) {
    const frozen_slot *p = &slots[s];
    const uint32_t b = frozen_bucket_at(lv, p->x, p->y);
    const uint32_t n = --lv->fill[b]; /* the last ball's place in the bucket */
    uint32_t k = b, prev = FROZEN_NIL;
    for (uint32_t i = FROZEN_LANES; i <= n; i += FROZEN_LANES) {
        prev = k;
        k = lv->next[k];
    }
    const uint32_t last = k * FROZEN_LANES + n % FROZEN_LANES, hole = p->where;
    frozen_block *from = &lv->block[last / FROZEN_LANES];
    const unsigned jl = last % FROZEN_LANES;
    if (last != hole) {
        frozen_block *to = &lv->block[hole / FROZEN_LANES];
        const unsigned jh = hole % FROZEN_LANES;
        to->x[jh] = from->x[jl];
        to->y[jh] = from->y[jl];
        to->r[jh] = from->r[jl];
        to->id[jh] = from->id[jl];
        const uint32_t moved = lv->lane_slot[last];
        lv->lane_slot[hole] = moved;
        slots[moved].where = hole;
    }
    from->x[jl] = from->y[jl] = from->r[jl] = NAN;
    from->id[jl] = FROZEN_NIL;
    if (jl == 0 && n > 0) { /* a chained block emptied */
        lv->next[prev] = FROZEN_NIL;
        lv->next[k] = lv->free_block;
        lv->free_block = k;
    }
    near_add(lv, b, UINT32_MAX); /* - 1 */
    if (n == 0) bit_clear(lv->occupied, b);
    if (n == FROZEN_LANES) bit_clear(lv->chained, b);
    lv->count--;
}

/* The level of a ball for level 0's cell side `cell`: the first whose side is at least its
 * radius; FROZEN_LEVELS: beyond every level, or values beyond C2D_TAME_LIMIT (special);
 * FROZEN_LEVELS + 1: a NaN centre or a radius that is not >= 0 (touches nothing). */
static unsigned level_of(double cell, float x, float y, float r) {
    if (x != x || y != y || !(r >= 0.0f)) return FROZEN_LEVELS + 1;
    if (!frozen_tame(x) || !frozen_tame(y) || !frozen_tame(r)) return FROZEN_LEVELS;
    unsigned L = 0;
    for (double side = cell; (double)r > side && L < FROZEN_LEVELS; side *= 2.0)
        L++;
    return L;
}

/* Lists slot s where its values say (the slot's values are set, its level laid out). */
static void place(c2d_frozen *f, uint32_t s) {
    frozen_slot *p = &f->slots[s];
    const unsigned L = level_of(f->cell, p->x, p->y, p->r);
    if (L > FROZEN_LEVELS) {
        p->home = FROZEN_HOME_DEAD;
    } else if (L == FROZEN_LEVELS) {
        p->home = FROZEN_HOME_SPECIAL;
        p->where = (uint32_t)f->special_count;
        f->special[f->special_count++] = s;
    } else {
        p->home = L;
        level_place(&f->level[L], f->slots, s);
        f->levels |= 1u << L;
    }
}

static void unplace(c2d_frozen *f, uint32_t s) {
    frozen_slot *p = &f->slots[s];
    if (p->home == FROZEN_HOME_SPECIAL) {
        const uint32_t last = f->special[--f->special_count];
        f->special[p->where] = last;
        f->slots[last].where = p->where;
    } else if (p->home != FROZEN_HOME_DEAD) {
        frozen_level *lv = &f->level[p->home];
        level_unplace(lv, f->slots, s);
        if (lv->count == 0) f->levels &= ~(1u << p->home);
    }
    p->home = FROZEN_HOME_DEAD;
}

/* ---- the cell side ----------------------------------------------------------------------- */

/* Level 0's cell side follows the spacing of the balls' centres, not their radii: 2^(e - 1/2)
 * for the smallest power of two 2^e whose cells hold the balls at least two to an occupied
 * cell on average (about the spacing: then an awake ball of about the spacing's size visits a
 * few cells of a ball or two, whatever the frozen radii; a zero radius or one boulder no longer
 * sets every query's reach: the balls too large for level 0 go up a level). The side need not
 * be a power of two: placement and queries compute a cell as floor(v / side) the same way, and
 * rounding is monotonic, so a query's window holds every ball within its box. On W8's pile
 * (spacing 1, blocks of four) 2^(e - 1/2) = 1.41 is the measured best: scattered10's collide
 * part 0.65 ms against 0.78 with 1 and 0.66 with 2, crater10's 0.30 against 0.31 and 0.29 (65,536
 * balls, median of 3). Occupied cells are counted in a bitmap, one pass a guess of a binary
 * search over e. */
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
        frexp(f->cell, &e); /* f->cell = 2^(hi - 1/2), in [2^(e-1), 2^e): hi = e */
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
    return ldexp(0.70710678118654752, hi); /* 2^(hi - 1/2): see above */
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
    return f;
}

void c2d_frozen_free(const c2d_allocator *a, c2d_frozen *f) {
    if (!f) return;
    for (unsigned L = 0; L < FROZEN_LEVELS; L++)
        level_free(a, &f->level[L]);
    c2d_free(a, f->slots);
    c2d_free(a, f->slot_of.entries);
    c2d_free(a, f->special);
    c2d_free(a, f->hits);
    c2d_free(a, f->words);
    c2d_free(a, f);
}

/* Grows the slots and what is sized by them (the special list, the candidates, the filter
 * words, the id map) for `slots_need` balls, all or nothing. */
static c2d_status reserve_slots(const c2d_allocator *a, c2d_frozen *f, const c2d_circle_soa *c,
                                size_t slots_need) {
    const size_t slot_cap =
        f->capacity >= slots_need ? f->capacity : c2d_grown(f->capacity, slots_need);
    /* at most slots_need ids afterwards (a repeated id or one held already takes no entry) */
    const size_t id_cap = f->slot_of.capacity / 2 >= slots_need
                              ? f->slot_of.capacity
                              : frozen_ids_capacity_for(slots_need);
    if (id_cap == 0 || slot_cap > SIZE_MAX - FROZEN_LANES) return C2D_ERROR_ALLOC;
    frozen_slot *slots = f->slots;
    frozen_id_entry *slot_of = f->slot_of.entries;
    uint32_t *special = f->special;
    frozen_hit *hits = f->hits;
    if (slot_cap != f->capacity) {
        slots = grow_array(a, f->slots, f->used * sizeof *slots, slot_cap, sizeof *slots);
        special = grow_array(a, f->special, f->special_count * sizeof *special, slot_cap,
                             sizeof *special);
        hits = c2d_alloc_array(a, slot_cap + FROZEN_LANES, sizeof *hits);
    }
    if (id_cap != f->slot_of.capacity) slot_of = frozen_ids_alloc(a, id_cap);
    /* filter words: from the first freeze that brings a filter on (the balls held before it
     * get every layer), growing with the slots */
    const bool want_words = f->words || c2d_circle_soa_filtered(c);
    uint32_t *words = f->words;
    if (want_words && (!f->words || slot_cap != f->capacity)) {
        words = c2d_alloc_array(a, slot_cap, 2 * sizeof *words);
        for (size_t k = 0; words && k < 2 * f->used; k++)
            words[k] = f->words ? f->words[k] : C2D_FILTER_ALL;
    }
    if (!slots || !special || !hits || !slot_of || (want_words && !words)) {
        if (words != f->words) c2d_free(a, words);
        if (slots != f->slots) c2d_free(a, slots);
        if (special != f->special) c2d_free(a, special);
        if (hits != f->hits) c2d_free(a, hits);
        if (slot_of != f->slot_of.entries) c2d_free(a, slot_of);
        return C2D_ERROR_ALLOC;
    }
    if (words != f->words) {
        c2d_free(a, f->words);
        f->words = words;
    }
    if (slots != f->slots) {
        c2d_free(a, f->slots);
        c2d_free(a, f->special);
        c2d_free(a, f->hits);
        f->slots = slots;
        f->special = special;
        f->hits = hits;
        f->capacity = slot_cap;
    }
    if (slot_of != f->slot_of.entries) frozen_ids_adopt(&f->slot_of, a, slot_of, id_cap);
    return C2D_OK;
}

/* Makes room for `more` balls, all or nothing. Chooses the cell again at the first freeze, when
 * the balls held would outgrow twice those it was chosen for, or when the balls frozen and
 * thawed since outnumber four times those (they may lie elsewhere now, or be spaced otherwise):
 * amortised O(1) a ball. A new cell lays every level out again; otherwise a level that would
 * hold more balls than buckets is laid out again twice as large. */
static c2d_status reserve(const c2d_allocator *a, c2d_frozen *f, const c2d_circle_soa *c,
                          size_t more) {
    const size_t slots_need = f->count + more; /* free slots are reused first */
    const c2d_status rs = reserve_slots(a, f, c, slots_need);
    if (rs != C2D_OK) return rs;
    const bool again = f->cell == 0.0 || slots_need > 2 * f->rebuilt_for ||
                       f->changes + more > 4 * f->rebuilt_for + 64;
    double cell = f->cell;
    if (again) { /* the scratch: f->hits, 2 (capacity + 4) words, a power of two's share */
        size_t words = 1;
        while (words * 2 <= f->capacity)
            words *= 2;
        cell = pick_cell(f, c, (uint64_t *)(void *)f->hits, words);
    }
    const bool relayout = cell != f->cell;
    size_t need[FROZEN_LEVELS + 2] = {0}; /* the balls of each level afterwards, at most */
    for (unsigned L = 0; L < FROZEN_LEVELS && !relayout; L++)
        need[L] = f->level[L].count;
    for (size_t s = 0; s < f->used && relayout; s++)
        if (f->slots[s].id != FROZEN_NIL)
            need[level_of(cell, f->slots[s].x, f->slots[s].y, f->slots[s].r)]++;
    for (size_t k = 0; k < c->count; k++)
        need[level_of(cell, c->x[k], c->y[k], c->radius[k])]++;
    frozen_level fresh[FROZEN_LEVELS];
    bool made[FROZEN_LEVELS] = {false};
    for (unsigned L = 0; L < FROZEN_LEVELS; L++) {
        if (need[L] == 0 || (!relayout && need[L] <= f->level[L].buckets)) continue;
        if (!level_make(a, &fresh[L], need[L], ldexp(1.0 / cell, -(int)L))) {
            for (unsigned M = 0; M < L; M++)
                if (made[M]) level_free(a, &fresh[M]);
            return C2D_ERROR_ALLOC;
        }
        made[L] = true;
    }
    if (relayout) { /* every level anew, every slot listed again */
        for (unsigned L = 0; L < FROZEN_LEVELS; L++) {
            level_free(a, &f->level[L]);
            if (made[L]) f->level[L] = fresh[L];
        }
        f->cell = cell;
        f->levels = 0;
        f->special_count = 0;
        for (size_t s = 0; s < f->used; s++)
            if (f->slots[s].id != FROZEN_NIL) place(f, (uint32_t)s);
    } else { /* the grown levels: their slots listed again */
        for (unsigned L = 0; L < FROZEN_LEVELS; L++)
            if (made[L]) {
                for (size_t s = 0; s < f->used; s++)
                    if (f->slots[s].id != FROZEN_NIL && f->slots[s].home == L)
                        level_place(&fresh[L], f->slots, (uint32_t)s);
                level_free(a, &f->level[L]);
                f->level[L] = fresh[L];
            }
    }
    if (again) {
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
                f->free_head = f->slots[s].where;
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
        f->slots[s].where = f->free_head;
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
