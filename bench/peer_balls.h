/* The benchmark's peer for W6: Chipmunk2D 7.0.3's cpSpace with the same balls (bench/peer_balls.c).
 * Without libchipmunk-dev the functions exist and peer_balls_create returns NULL. */
#ifndef C2D_BENCH_PEER_BALLS_H
#define C2D_BENCH_PEER_BALLS_H

#include <stddef.h>

#include "workload.h"

typedef struct peer_balls peer_balls;

/* Chipmunk's two dynamic indexes. */
typedef enum peer_index { PEER_BBTREE, PEER_SPATIAL_HASH } peer_index;

/* A cpSpace holding one dynamic body with a cpCircleShape per ball of w; NULL when Chipmunk
 * is not built in or memory runs out. */
peer_balls *peer_balls_create(const c2d_workload *w, peer_index index);
/* One frame: the space's dynamic index reindexed and queried (what cpSpaceStep does before
 * solving), cpShapesCollide on every candidate pair; returns the pairs in contact. */
size_t peer_balls_frame(peer_balls *p);
void peer_balls_destroy(peer_balls *p);

#endif
