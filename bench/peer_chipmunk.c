/* W5 on Chipmunk2D 7.0.3 (Debian's libchipmunk-dev), the peer of bench/scene.c: the same balls
 * and pins, balls as circle shapes in a Chipmunk spatial index (its bounding-box tree or its
 * spatial hash), pins as segment shapes with a radius (Chipmunk's capsules).
 *
 * A frame: update every ball shape (its position is set again, unchanged: Chipmunk's best case)
 * and reindex the balls, then query the index with each pin's box in pin order and run
 * cpShapesCollide on every candidate; a contact is a candidate with at least one contact
 * point. Names: W5_chipmunk_bbtree/VARIANT/N and W5_chipmunk_hash/VARIANT/N; "hits" counts
 * contacts, to set beside the scene's (equal up to Chipmunk's own rounding, in double). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_unsafe.h>

#include "bench.h"

typedef struct peer {
    cpShape **balls, **pins;
    size_t n, m;
    cpSpatialIndex *index;
    cpBody *body; /* one static body at the origin holds every shape */
    size_t contacts;
} peer;

static cpBB shape_bb(void *obj) {
    return cpShapeGetBB(obj);
}

static cpCollisionID collide_pair(void *pin, void *ball, cpCollisionID id, void *data) {
    peer *p = data;
    const cpContactPointSet set = cpShapesCollide(ball, pin);
    p->contacts += set.count > 0;
    return id;
}

static void peer_free(peer *p) {
    if (p->index) cpSpatialIndexFree(p->index);
    for (size_t i = 0; p->balls && i < p->n; i++)
        if (p->balls[i]) cpShapeFree(p->balls[i]);
    for (size_t k = 0; p->pins && k < p->m; k++)
        if (p->pins[k]) cpShapeFree(p->pins[k]);
    free(p->balls);
    free(p->pins);
    if (p->body) cpBodyFree(p->body);
}

static bool peer_init(peer *p, const c2d_workload *w, bool hash) {
    *p = (peer){0};
    p->n = w->circles.count;
    p->m = w->capsules.count;
    p->balls = calloc(p->n, sizeof *p->balls);
    p->pins = calloc(p->m, sizeof *p->pins);
    p->body = cpBodyNewStatic();
    if (!p->balls || !p->pins || !p->body) return false;
    /* the spatial hash wants cells about the size of the objects and ~10x as many cells */
    p->index =
        hash ? cpSpaceHashNew(1.0, (int)(4 * p->n), shape_bb, NULL) : cpBBTreeNew(shape_bb, NULL);
    for (size_t k = 0; k < p->m; k++) {
        p->pins[k] = cpSegmentShapeNew(p->body, cpv(w->ax[k], w->ay[k]), cpv(w->bx[k], w->by[k]),
                                       w->capsule_radius[k]);
        cpShapeUpdate(p->pins[k], cpTransformIdentity);
    }
    for (size_t i = 0; i < p->n; i++) {
        p->balls[i] = cpCircleShapeNew(p->body, w->radius[i], cpv(w->x[i], w->y[i]));
        cpShapeUpdate(p->balls[i], cpTransformIdentity);
        cpSpatialIndexInsert(p->index, p->balls[i], (cpHashValue)i);
    }
    return true;
}

static void peer_frame(peer *p, const c2d_workload *w) {
    for (size_t i = 0; i < p->n; i++) {
        cpCircleShapeSetOffset(p->balls[i], cpv(w->x[i], w->y[i]));
        cpShapeUpdate(p->balls[i], cpTransformIdentity);
    }
    cpSpatialIndexReindex(p->index);
    p->contacts = 0;
    for (size_t k = 0; k < p->m; k++)
        cpSpatialIndexQuery(p->index, p->pins[k], cpShapeGetBB(p->pins[k]), collide_pair, p);
}

static void bm_chipmunk(gb_state *st, const void *arg, bool hash) {
    const c2d_w5_variant v = (c2d_w5_variant)(intptr_t)arg;
    const c2d_workload *w = bench_w5(v, (size_t)gb_range(st, 0));
    peer p;
    if (!w || !peer_init(&p, w, hash)) {
        gb_skip_with_error(st, "out of memory");
        if (w) peer_free(&p);
        return;
    }
    while (gb_keep_running(st)) {
        peer_frame(&p, w);
        gb_do_not_optimize(&p.contacts);
    }
    gb_set_counter(st, "hits", (double)p.contacts, GB_COUNTER_DEFAULT);
    peer_free(&p);
}

static void bm_bbtree(gb_state *st, const void *arg) {
    bm_chipmunk(st, arg, false);
}

static void bm_hash(gb_state *st, const void *arg) {
    bm_chipmunk(st, arg, true);
}

void bench_register_chipmunk(const bench_options *o) {
    (void)o;
    static const int64_t sizes[] = {4096, 65536, 262144, 1048576};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (intptr_t v = 0; v < C2D_W5_VARIANTS; v++) {
            char name[96];
            snprintf(name, sizeof name, "W5_chipmunk_bbtree/%s", c2d_w5_name((c2d_w5_variant)v));
            gb_benchmark *b =
                gb_unit(gb_register(name, bm_bbtree, (const void *)v), GB_MILLISECOND);
            gb_arg(gb_add_statistic(gb_add_statistic(b, GB_STAT_MIN), GB_STAT_MAX), sizes[s]);
            snprintf(name, sizeof name, "W5_chipmunk_hash/%s", c2d_w5_name((c2d_w5_variant)v));
            b = gb_unit(gb_register(name, bm_hash, (const void *)v), GB_MILLISECOND);
            gb_arg(gb_add_statistic(gb_add_statistic(b, GB_STAT_MIN), GB_STAT_MAX), sizes[s]);
        }
    }
}
