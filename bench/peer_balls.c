/* W6's peer: Chipmunk2D's cpSpace (bounding-box tree or spatial hash) on the same balls.
 *
 * A frame is the collision half of cpSpaceStep: cpSpatialIndexReindexQuery on the space's
 * dynamic index (it refreshes every shape's box, then reports every pair of overlapping
 * boxes), and cpShapesCollide, Chipmunk's narrow phase, on each reported pair. The balls do
 * not move between frames, so the tree keeps its boxes (fattened by velocity, here zero). */
#include <stdlib.h>

#include "peer_balls.h"

#ifdef C2D_BENCH_CHIPMUNK
#define CP_ALLOW_PRIVATE_ACCESS 1 /* the space's dynamic index: cpSpaceStep's own entry point */
#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_structs.h>

struct peer_balls {
    cpSpace *space;
    size_t n;
    cpBody **bodies;
    cpShape **shapes;
};

peer_balls *peer_balls_create(const c2d_workload *w, peer_index index) {
    peer_balls *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    const size_t n = w->circles.count;
    p->n = n;
    p->space = cpSpaceNew();
    p->bodies = calloc(n ? n : 1, sizeof *p->bodies);
    p->shapes = calloc(n ? n : 1, sizeof *p->shapes);
    if (!p->space || !p->bodies || !p->shapes) {
        peer_balls_destroy(p);
        return NULL;
    }
    if (index == PEER_SPATIAL_HASH) { /* cells of the ball diameter, a bucket a ball */
        cpFloat diameter = 0.0;
        for (size_t i = 0; i < n; i++)
            diameter = 2.0 * w->radius[i] > diameter ? 2.0 * w->radius[i] : diameter;
        cpSpaceUseSpatialHash(p->space, diameter, (int)n);
    }
    for (size_t i = 0; i < n; i++) {
        const cpFloat r = w->radius[i];
        p->bodies[i] =
            cpSpaceAddBody(p->space, cpBodyNew(1.0, cpMomentForCircle(1.0, 0.0, r, cpvzero)));
        cpBodySetPosition(p->bodies[i], cpv(w->x[i], w->y[i]));
        p->shapes[i] = cpSpaceAddShape(p->space, cpCircleShapeNew(p->bodies[i], r, cpvzero));
    }
    return p;
}

typedef struct frame_count {
    size_t contacts;
} frame_count;

static cpCollisionID collide_pair(void *a, void *b, cpCollisionID id, void *data) {
    const cpContactPointSet set = cpShapesCollide((cpShape *)a, (cpShape *)b);
    ((frame_count *)data)->contacts += set.count > 0;
    return id;
}

size_t peer_balls_frame(peer_balls *p) {
    frame_count count = {0};
    cpSpatialIndexReindexQuery(p->space->dynamicShapes, collide_pair, &count);
    return count.contacts;
}

void peer_balls_destroy(peer_balls *p) {
    if (!p) return;
    for (size_t i = 0; i < p->n; i++) {
        if (p->shapes && p->shapes[i]) {
            cpSpaceRemoveShape(p->space, p->shapes[i]);
            cpShapeFree(p->shapes[i]);
        }
        if (p->bodies && p->bodies[i]) {
            cpSpaceRemoveBody(p->space, p->bodies[i]);
            cpBodyFree(p->bodies[i]);
        }
    }
    if (p->space) cpSpaceFree(p->space);
    free(p->bodies);
    free(p->shapes);
    free(p);
}

#else

peer_balls *peer_balls_create(const c2d_workload *w, peer_index index) {
    (void)w;
    (void)index;
    return NULL;
}

size_t peer_balls_frame(peer_balls *p) {
    (void)p;
    return 0;
}

void peer_balls_destroy(peer_balls *p) {
    (void)p;
}

#endif
