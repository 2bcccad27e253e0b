/* A part of a collide frame: growing its candidate buffer, and the exact tests of its
 * candidates (the active backend's listed-pairs kernel; the all-pairs kernel for wild circles'
 * and dirty capsules' pairs), whose contacts it keeps in circle order. */
#include <string.h>

#include "alloc.h"
#include "batch/dispatch.h"
#include "scene/scene_fine.h"
#include "scene/scene_part.h"

/* A buffer of `capacity` pairs for the part, holding its pairs so far (kept for later frames). */
bool c2d_part_regrow(const c2d_scene *s, c2d_scene_part *p, size_t capacity) {
    uint32_t *pairs = c2d_alloc_array(&s->allocator, capacity, 2 * sizeof(uint32_t));
    if (!pairs) return false;
    if (p->count) {
        memcpy(pairs, c2d_pair_capsules(p), p->count * sizeof(uint32_t));
        memcpy(pairs + capacity, c2d_pair_circles(p), p->count * sizeof(uint32_t));
    }
    c2d_free(&s->allocator, p->pairs);
    p->pairs = pairs;
    p->capacity = capacity;
    return true;
}

/* Makes room for n more contacts in the part (1.5x what is needed, kept for later frames). */
static bool contact_room(const c2d_scene *s, c2d_scene_part *p, size_t n) {
    if (p->contact_capacity - p->found >= n) return true;
    const size_t need = p->found + n, capacity = need + need / 2 + 256;
    c2d_pair_contact *fresh = c2d_alloc_array(&s->allocator, capacity, sizeof *fresh);
    if (!fresh) return false;
    if (p->found) memcpy(fresh, p->contacts, p->found * sizeof *fresh);
    c2d_free(&s->allocator, p->contacts);
    p->contacts = fresh;
    p->contact_capacity = capacity;
    return true;
}

/* The exact tests of pairs (ci[j], ki[j]), j < n, appended to the part's contacts (a pair
 * gives at most one contact, so room for n is made first). */
static bool test_pairs(const c2d_scene *s, c2d_scene_part *p, const uint32_t *ci,
                       const uint32_t *ki, size_t n) {
    if (n == 0) return true;
    if (!contact_room(s, p, n)) return false;
    p->found += c2d_active_kernels()->collide_pairs(&s->frame.circles, &s->capsules, ci, ki, n,
                                                    p->contacts + p->found, n);
    return true;
}

/* A wild circle i against every listed capsule (radius >= 0, not dirty), ascending. */
static bool test_wild(const c2d_scene *s, c2d_scene_part *p, uint32_t i) {
    uint32_t ci[C2D_PART_CHUNK], ki[C2D_PART_CHUNK];
    size_t fill = 0;
    for (size_t k = 0; k < s->capsule_count; k++) {
        const bool listed =
            s->index.kind[k] == C2D_KIND_GRID || (c2d_fine_ready(s) && c2d_fine_long(s, k));
        if (!listed || !(s->radius[k] >= 0.0f) || c2d_fine_dirty(s, k)) continue;
        ci[fill] = i;
        ki[fill++] = (uint32_t)k;
        if (fill == C2D_PART_CHUNK) {
            if (!test_pairs(s, p, ci, ki, fill)) return false;
            fill = 0;
        }
    }
    return test_pairs(s, p, ci, ki, fill);
}

/* A word array from element `first` on (NULL stays NULL: no arithmetic on it). */
static inline const uint32_t *words_from(const uint32_t *w, size_t first) {
    return w ? w + first : NULL;
}

/* Capsule k of the scene as a set of one, with its filter words and sensor byte when the scene
 * has them: the all-pairs kernel then applies the filter itself. */
c2d_capsule_soa c2d_one_capsule(const c2d_scene *s, size_t k) {
    const c2d_capsule_soa *K = &s->capsules;
    const c2d_capsule_soa one = {K->ax + k,
                                 K->ay + k,
                                 K->bx + k,
                                 K->by + k,
                                 K->radius + k,
                                 1,
                                 words_from(K->category, k),
                                 words_from(K->mask, k),
                                 K->sensor ? K->sensor + k : NULL};
    return one;
}

/* The exact tests of the part's candidates, in order, but for dirty capsules (tested by
 * test_dirty); empties the candidate list. */
bool c2d_part_flush(const c2d_scene *s, c2d_scene_part *p) {
    const size_t count = p->count;
    if (count == 0) return true; /* (the buffer may not exist yet) */
    const uint32_t *caps = c2d_pair_capsules(p), *circs = c2d_pair_circles(p);
    p->count = 0;
    if (!p->wild && !c2d_fine_dirty_any(s)) /* the usual case: every pair as it is */
        return test_pairs(s, p, circs, caps, count);
    p->wild = false;
    uint32_t ci[C2D_PART_CHUNK], ki[C2D_PART_CHUNK];
    size_t fill = 0;
    for (size_t j = 0; j < count; j++) {
        const uint32_t k = caps[j], i = circs[j];
        if (k != UINT32_MAX && c2d_fine_dirty(s, k)) continue;
        if (k == UINT32_MAX) { /* in circle order: the pairs before it first */
            if (!test_pairs(s, p, ci, ki, fill) || !test_wild(s, p, i)) return false;
            fill = 0;
            continue;
        }
        ci[fill] = i;
        ki[fill++] = k;
        if (fill == C2D_PART_CHUNK) {
            if (!test_pairs(s, p, ci, ki, fill)) return false;
            fill = 0;
        }
    }
    return test_pairs(s, p, ci, ki, fill);
}

/* Each dirty capsule (moved since the fine index was built) of kind GRID against every circle
 * of the part, by the all-pairs kernel: its contacts in circle order, as the scan would have
 * found them. */
bool c2d_part_test_dirty(const c2d_scene *s, c2d_scene_part *p) {
    const c2d_fine_index *f = &s->fine;
    const c2d_circle_soa *c = &s->frame.circles;
    /* the part's circles with their words: the kernel drops the refused pairs */
    const c2d_circle_soa part = {c->x + p->first,
                                 c->y + p->first,
                                 c->radius + p->first,
                                 p->n,
                                 words_from(c->category, p->first),
                                 words_from(c->mask, p->first)};
    for (size_t d = 0; d < f->dirty_count && p->n > 0; d++) {
        const size_t k = f->dirty_list[d];
        const bool listed = s->index.kind[k] == C2D_KIND_GRID && s->radius[k] >= 0.0f;
        if (!listed && !c2d_fine_long(s, k)) continue; /* the range calls test it */
        const c2d_capsule_soa one = c2d_one_capsule(s, k);
        for (;;) {
            const size_t room = p->contact_capacity - p->found;
            const size_t found = c2d_active_kernels()->collide(
                &part, &one, room ? p->contacts + p->found : NULL, room);
            if (found <= room) {
                for (size_t j = p->found; j < p->found + found; j++) {
                    p->contacts[j].circle += (uint32_t)p->first;
                    p->contacts[j].capsule = (uint32_t)k;
                }
                p->found += found;
                break;
            }
            if (!contact_room(s, p, found)) return false;
        }
    }
    return true;
}
