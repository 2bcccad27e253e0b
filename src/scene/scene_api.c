/* Scenes' public entry points (collide2d/scene.h): creation, capsule moves, binning, collides
 * and sweeps. Each checks its arguments (contract.h) and calls the parts below it: the capsule
 * index (scene_index.c), the fine index (scene_fine.c), binning (scene_bin.c), the contacts of
 * capsule ranges (scene_collide.c), sweeps (scene_sweep.c) and the frozen balls. */
#include <string.h>

#include "alloc.h"
#include "balls/frozen_index.h"
#include "batch/cull.h"
#include "contract.h"
#include "core/filter_words.h"
#include "scene/scene_collide.h"
#include "scene/scene_fine.h"
#include "scene/scene_scratch.h"
#include "scene/scene_sweep.h"
#include "scene/scene_sweep_build.h"

/* Copies capsules[0..n) into the scene's arrays from index `first`. */
static void copy_capsules(c2d_scene *s, size_t first, const c2d_capsule_soa *k) {
    const size_t bytes = k->count * sizeof(float);
    if (bytes == 0) return;
    memcpy(s->ax + first, k->ax, bytes);
    memcpy(s->ay + first, k->ay, bytes);
    memcpy(s->bx + first, k->bx, bytes);
    memcpy(s->by + first, k->by, bytes);
    memcpy(s->radius + first, k->radius, bytes);
}

/* Gives the scene its filter block (every capsule on every layer, meeting every layer, no
 * sensors) if it has none yet. */
static c2d_status ensure_filter(c2d_scene *s) {
    const size_t m = s->capsule_count;
    if (s->filter || m == 0) return C2D_OK;
    uint32_t *block = c2d_alloc_array(&s->allocator, m, 2 * sizeof(uint32_t) + 1);
    if (!block) return C2D_ERROR_ALLOC;
    for (size_t i = 0; i < 2 * m; i++)
        block[i] = C2D_FILTER_ALL;
    memset(block + 2 * m, 0, m);
    s->filter = block;
    s->capsules.category = block;
    s->capsules.mask = block + m;
    s->capsules.sensor = (const uint8_t *)(block + 2 * m);
    return C2D_OK;
}

/* Copies the filter words of capsules[0..n) that the set carries into the scene's block from
 * index `first` (an array the set leaves NULL keeps the scene's words). */
static void copy_filter(c2d_scene *s, size_t first, const c2d_capsule_soa *k) {
    if (!s->filter || k->count == 0) return;
    const size_t m = s->capsule_count;
    if (k->category) memcpy(s->filter + first, k->category, k->count * sizeof(uint32_t));
    if (k->mask) memcpy(s->filter + m + first, k->mask, k->count * sizeof(uint32_t));
    if (k->sensor) memcpy((uint8_t *)(s->filter + 2 * m) + first, k->sensor, k->count);
}

c2d_status c2d_scene_create(const c2d_capsule_soa *capsules, const c2d_allocator *allocator,
                            c2d_scene **scene) {
    if (!scene) return C2D_ERROR_NULL;
    *scene = NULL;
    if (allocator && (!allocator->alloc || !allocator->free)) return C2D_ERROR_NULL;
    const c2d_status st = c2d_check_capsules(capsules);
    if (st != C2D_OK) return st;
    const c2d_allocator hooks = c2d_allocator_or_malloc(allocator);
    c2d_scene *s = hooks.alloc(sizeof *s, hooks.user);
    if (!s) return C2D_ERROR_ALLOC;
    memset(s, 0, sizeof *s);
    s->allocator = hooks;
    const size_t m = capsules->count;
    s->capsule_count = m;
    if (m > 0) {
        float *block = c2d_alloc_array(&s->allocator, m, 5 * sizeof(float));
        if (!block) {
            hooks.free(s, hooks.user);
            return C2D_ERROR_ALLOC;
        }
        s->ax = block;
        s->ay = block + m;
        s->bx = block + 2 * m;
        s->by = block + 3 * m;
        s->radius = block + 4 * m;
        copy_capsules(s, 0, capsules);
    }
    s->capsules = (c2d_capsule_soa){s->ax, s->ay, s->bx, s->by, s->radius, m, NULL, NULL, NULL};
    if ((c2d_capsule_soa_filtered(capsules) && ensure_filter(s) != C2D_OK) ||
        c2d_capsule_index_build(&hooks, &s->capsules, &s->index) != C2D_OK) {
        c2d_free(&hooks, s->filter);
        c2d_free(&hooks, s->ax);
        hooks.free(s, hooks.user);
        return C2D_ERROR_ALLOC;
    }
    copy_filter(s, 0, capsules);
    *scene = s;
    return C2D_OK;
}

void c2d_scene_destroy(c2d_scene *scene) {
    if (!scene) return;
    const c2d_allocator hooks = scene->allocator;
    c2d_scene_part *part = scene->scratch[C2D_SCENE_SLOT_PARTS].ptr;
    for (size_t p = 0; part && p < C2D_SCENE_MAX_PARTS; p++) {
        c2d_free(&hooks, part[p].pairs);
        c2d_free(&hooks, part[p].contacts);
    }
    c2d_capsule_index_free(&hooks, &scene->index);
    c2d_fine_free(&hooks, &scene->fine);
    c2d_fine_free(&hooks, &scene->fine_big);
    c2d_sweep_index_free(&hooks, &scene->sweep);
    c2d_frozen_free(&hooks, scene->frozen);
    for (size_t i = 0; i < C2D_SCENE_SLOTS; i++)
        c2d_free(&hooks, scene->scratch[i].ptr);
    c2d_free(&hooks, scene->ax);
    c2d_free(&hooks, scene->filter);
    hooks.free(scene, hooks.user);
}

size_t c2d_scene_capsule_count(const c2d_scene *scene) {
    return scene ? scene->capsule_count : 0;
}

c2d_status c2d_scene_move_capsules(c2d_scene *scene, size_t first,
                                   const c2d_capsule_soa *capsules) {
    if (!scene) return C2D_ERROR_NULL;
    c2d_status st = c2d_check_capsules(capsules);
    if (st == C2D_OK) st = c2d_check_range(first, capsules->count, scene->capsule_count);
    if (st != C2D_OK) return st;
    if (capsules->count == 0) return C2D_OK;
    /* the steps that can fail first, and then nothing visible changed (a filter block of
     * default words means what no block means) */
    if (c2d_capsule_soa_filtered(capsules) && ensure_filter(scene) != C2D_OK)
        return C2D_ERROR_ALLOC;
    const c2d_status moved = c2d_capsule_index_move(&scene->allocator, &scene->index,
                                                    scene->capsule_count, first, capsules);
    if (moved != C2D_OK) return moved;
    copy_capsules(scene, first, capsules);
    copy_filter(scene, first, capsules);
    scene->generation++; /* every frame begun or binned before is stale */
    c2d_fine_moved(scene, first, capsules->count);
    return C2D_OK;
}

/* The whole binning on one thread. */
static c2d_status bin_all(c2d_scene *scene, const c2d_circle_soa *circles) {
    c2d_status st = c2d_scene_frame_begin(scene, circles, 1);
    if (st == C2D_OK) st = c2d_scene_frame_part(scene, 0);
    if (st == C2D_OK) st = c2d_scene_frame_end(scene);
    return st;
}

c2d_status c2d_scene_bin(c2d_scene *scene, const c2d_circle_soa *circles) {
    if (!scene) return C2D_ERROR_NULL;
    const c2d_status st = c2d_check_circles(circles);
    if (st != C2D_OK) return st;
    return bin_all(scene, circles);
}

c2d_status c2d_scene_bin_begin(c2d_scene *scene, const c2d_circle_soa *circles, size_t parts) {
    if (!scene) return C2D_ERROR_NULL;
    const c2d_status st = c2d_check_circles(circles);
    if (st != C2D_OK) return st;
    if (parts == 0 || parts > C2D_SCENE_MAX_PARTS) return C2D_ERROR_INDEX;
    return c2d_scene_frame_begin(scene, circles, parts);
}

c2d_status c2d_scene_bin_part(c2d_scene *scene, size_t part) {
    if (!scene) return C2D_ERROR_NULL;
    if (!c2d_scene_frame_current(scene, C2D_FRAME_BEGUN)) return C2D_ERROR_STATE;
    if (part >= scene->frame.parts) return C2D_ERROR_INDEX;
    return c2d_scene_frame_part(scene, part);
}

c2d_status c2d_scene_bin_end(c2d_scene *scene) {
    if (!scene) return C2D_ERROR_NULL;
    if (!c2d_scene_frame_current(scene, C2D_FRAME_BEGUN)) return C2D_ERROR_STATE;
    return c2d_scene_frame_end(scene);
}

c2d_status c2d_scene_collide(c2d_scene *scene, const c2d_circle_soa *circles, c2d_pair_contact *out,
                             size_t capacity, size_t *count) {
    c2d_status st = c2d_check_scene_counted(scene, circles, out, capacity, count);
    if (st != C2D_OK) return st;
    st = bin_all(scene, circles);
    if (st != C2D_OK) return st;
    const size_t total = c2d_scene_collide_binned(scene, 0, scene->capsule_count, out, capacity);
    return c2d_finish_count(total, out, capacity, count);
}

/* C2D_OK when `c` may use the binned frame: binned completely, no capsule moved since, the
 * same pointers (filter words included) and count as the binned set and, with
 * C2D_FRAME_CHECKS, the same values (a read of every circle: O(n) a call). */
static c2d_status check_frame(const c2d_scene *s, const c2d_circle_soa *c) {
    const c2d_circle_soa *b = &s->frame.circles;
    if (!c2d_scene_frame_current(s, C2D_FRAME_BINNED) || b->count != c->count || b->x != c->x ||
        b->y != c->y || b->radius != c->radius || b->category != c->category || b->mask != c->mask)
        return C2D_ERROR_STATE;
    if (C2D_FRAME_CHECKS && c2d_circle_checksum(c, 0, c->count) != s->frame.checksum)
        return C2D_ERROR_STATE;
    return C2D_OK;
}

c2d_status c2d_scene_collide_range(const c2d_scene *scene, const c2d_circle_soa *circles,
                                   size_t capsule_first, size_t capsule_count,
                                   c2d_pair_contact *out, size_t capacity, size_t *count) {
    c2d_status st = c2d_check_scene_counted(scene, circles, out, capacity, count);
    if (st != C2D_OK) return st;
    st = c2d_check_range(capsule_first, capsule_count, scene->capsule_count);
    if (st == C2D_OK) st = check_frame(scene, circles);
    if (st != C2D_OK) return st;
    const size_t total =
        c2d_scene_collide_binned(scene, capsule_first, capsule_count, out, capacity);
    return c2d_finish_count(total, out, capacity, count);
}

c2d_status c2d_scene_sweep_range(const c2d_scene *scene, const c2d_circle_soa *circles,
                                 const float *move_x, const float *move_y, size_t circle_first,
                                 size_t circle_count, c2d_circle_toi *out) {
    if (!scene) return C2D_ERROR_NULL;
    c2d_status st = c2d_check_circles(circles);
    if (st != C2D_OK) return st;
    if (!c2d_array_given(circles->count, move_x) || !c2d_array_given(circles->count, move_y))
        return C2D_ERROR_NULL;
    if (!c2d_array_given(circle_count, out)) return C2D_ERROR_NULL;
    st = c2d_check_range(circle_first, circle_count, circles->count);
    if (st != C2D_OK) return st;
    c2d_scene_sweep_circle_range(scene, circles, move_x, move_y, circle_first, circle_count, out);
    return C2D_OK;
}

c2d_status c2d_scene_sweep(c2d_scene *scene, const c2d_circle_soa *circles, const float *move_x,
                           const float *move_y, c2d_circle_toi *out) {
    if (!scene) return C2D_ERROR_NULL;
    c2d_status st = c2d_check_circles(circles);
    if (st == C2D_OK) st = c2d_check_moves(circles->count, move_x, move_y, out);
    if (st != C2D_OK) return st;
    c2d_sweep_prepare(scene, circles, move_x, move_y);
    c2d_scene_sweep_circle_range(scene, circles, move_x, move_y, 0, circles->count, out);
    return C2D_OK;
}

/* The capsules whose move is not zero (NaN included), each with its sweep box grown by the
 * move as the batch kernel grows it, into the movers slot. */
static c2d_status list_movers(c2d_scene *s, const float *kmx, const float *kmy,
                              c2d_scene_movers *movers) {
    size_t count = 0;
    for (size_t k = 0; k < s->capsule_count; k++)
        count += !(kmx[k] == 0.0f && kmy[k] == 0.0f);
    void *ptr;
    size_t bytes;
    if (!c2d_size_mul(count + 1, sizeof(c2d_scene_mover), &bytes)) return C2D_ERROR_ALLOC;
    const c2d_status st = c2d_scene_reserve(s, C2D_SCENE_SLOT_MOVERS, bytes, &ptr);
    if (st != C2D_OK) return st;
    c2d_scene_mover *list = ptr;
    const c2d_capsule_index *x = &s->index;
    c2d_sweep_boxes box;
    size_t n = 0;
    for (size_t k = 0; k < s->capsule_count; k++) {
        if (kmx[k] == 0.0f && kmy[k] == 0.0f) continue;
        box.lo_x[0] = x->lo_x[k];
        box.hi_x[0] = x->hi_x[k];
        box.lo_y[0] = x->lo_y[k];
        box.hi_y[0] = x->hi_y[k];
        c2d_sweep_boxes_add_moves(kmx + k, kmy + k, 1, &box);
        list[n++] =
            (c2d_scene_mover){box.lo_x[0], box.hi_x[0], box.lo_y[0], box.hi_y[0], (uint32_t)k};
    }
    *movers = (c2d_scene_movers){kmx, kmy, list, n};
    return C2D_OK;
}

c2d_status c2d_scene_sweep_moving(c2d_scene *scene, const c2d_circle_soa *circles,
                                  const c2d_move_soa *moves, const c2d_move_soa *capsule_moves,
                                  c2d_circle_toi *out) {
    const float *move_x = moves ? moves->x : NULL, *move_y = moves ? moves->y : NULL;
    const float *capsule_move_x = capsule_moves ? capsule_moves->x : NULL;
    const float *capsule_move_y = capsule_moves ? capsule_moves->y : NULL;
    if (!scene) return C2D_ERROR_NULL;
    c2d_status st = c2d_check_circles(circles);
    if (st == C2D_OK) st = c2d_check_moves(circles->count, move_x, move_y, out);
    if (st == C2D_OK)
        st = c2d_check_move_pair(scene->capsule_count, capsule_move_x, capsule_move_y);
    if (st != C2D_OK) return st;
    if (scene->capsule_count == 0 || !capsule_move_x) /* nothing reads the capsule moves */
        return c2d_scene_sweep(scene, circles, move_x, move_y, out);
    c2d_scene_movers movers;
    st = list_movers(scene, capsule_move_x, capsule_move_y, &movers);
    if (st != C2D_OK) return st;
    c2d_sweep_prepare(scene, circles, move_x, move_y);
    c2d_scene_sweep_moving_range(scene, circles, move_x, move_y, &movers, 0, circles->count, out);
    return C2D_OK;
}

/* The 0.1.0 name (collide2d/compat.h): its loose moves packed into records. */
c2d_status c2d_scene_sweep_moving_capsules(c2d_scene *scene, const c2d_circle_soa *circles,
                                           const float *move_x, const float *move_y,
                                           const float *capsule_move_x, const float *capsule_move_y,
                                           c2d_circle_toi *out) {
    const c2d_move_soa moves = {move_x, move_y}, capsule_moves = {capsule_move_x, capsule_move_y};
    return c2d_scene_sweep_moving(scene, circles, &moves, &capsule_moves, out);
}
