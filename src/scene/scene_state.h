/* The scene structure (collide2d/scene.h): what a scene owns. The layouts of its parts come
 * from the headers below it; the code that works on a scene includes this one. */
#ifndef C2D_SCENE_STATE_H
#define C2D_SCENE_STATE_H

#include "alloc.h"
#include "core/filter_words.h"
#include "scene/scene_fine_index.h"
#include "scene/scene_frame.h"
#include "scene/scene_index.h"
#include "scene/scene_sweep_index.h"

/* Scratch slots. Collide frames use slots 0-2, sweeps slot 7 (3-6 are spare); slots from
 * C2D_SCENE_SLOT_FREE up to C2D_SCENE_SLOTS - 1 are free for other users of the scene. */
enum {
    C2D_SCENE_SLOT_PARTS = 0,    /* collide: the parts of a frame (c2d_scene_part) */
    C2D_SCENE_SLOT_OFFSET = 1,   /* collide: each capsule's first contact */
    C2D_SCENE_SLOT_CONTACTS = 2, /* collide: pointers to the parts' contacts, by capsule then
                                    circle */
    C2D_SCENE_SLOT_MOVERS = 7,   /* sweeps: the capsules that move (c2d_scene_mover) */
    C2D_SCENE_SLOT_FREE = 8,     /* first slot for other topics */
    C2D_SCENE_SLOTS = 16
};

/* One scratch buffer: `bytes` usable bytes at `ptr` (NULL when never reserved). */
typedef struct c2d_scene_scratch {
    void *ptr;
    size_t bytes;
} c2d_scene_scratch;

struct c2d_scene {
    c2d_allocator allocator; /* never NULL hooks: malloc/free filled in */
    size_t capsule_count;
    float *ax, *ay, *bx, *by, *radius; /* the capsules (one block) */
    uint32_t *filter;                  /* category words, then mask words, then the sensor
                                          bytes (one block; NULL until a set carries a filter) */
    c2d_capsule_soa capsules;          /* a view of the arrays above (filter pointers NULL
                                          while `filter` is) */
    c2d_capsule_index index;
    c2d_fine_index fine;     /* built lazily by frame begins (scene_fine.c) */
    c2d_fine_index fine_big; /* the same for circles above fine.rho (its dirty set unused) */
    c2d_sweep_index sweep;   /* built lazily by sweeps (scene_sweep.c) */
    uint64_t generation;     /* bumped by every capsule move: older frames are stale */
    c2d_scene_frame frame;
    c2d_scene_scratch scratch[C2D_SCENE_SLOTS];
    struct c2d_frozen *frozen; /* frozen balls (balls/frozen_index.h), NULL until the first */
};

/* Does a call of `circles` against the scene's capsules need the filter (collide2d/filter.h):
 * the circles carry filter words, or the scene has a filter block. Checked once a call; when
 * false, the calls take their unfiltered paths. */
static inline bool c2d_scene_filtered(const c2d_scene *s, const c2d_circle_soa *circles) {
    return s->filter != NULL || c2d_circle_soa_filtered(circles);
}

/* Is the frame in `state` and begun since the last capsule move. */
static inline bool c2d_scene_frame_current(const c2d_scene *s, c2d_frame_state state) {
    return s->frame.state == state && s->frame.generation == s->generation;
}

#endif
