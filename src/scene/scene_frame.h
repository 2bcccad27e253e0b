/* The layout of a collide frame: its parts (binned by scene_bin.c) and its state. */
#ifndef C2D_SCENE_FRAME_H
#define C2D_SCENE_FRAME_H

#include "collide2d/scene.h"

/* Frame checks (meson option frame_checks): range calls compare a checksum of the binned
 * circles' values with the one taken when they were binned. Built without meson: on unless
 * NDEBUG is defined. */
#ifndef C2D_FRAME_CHECKS
#ifdef NDEBUG
#define C2D_FRAME_CHECKS 0
#else
#define C2D_FRAME_CHECKS 1
#endif
#endif

/* What one part of a frame found: a block's candidate (capsule, circle) pairs in circle order
 * (capsule UINT32_MAX marks a wild circle, tested against every listed capsule), and the
 * contacts of the exact tests of all its candidates so far, in circle order. */
typedef struct c2d_scene_part {
    uint32_t *pairs; /* 2 * capacity entries: the capsules, then the circles from [capacity] */
    size_t count, capacity;
    bool wild; /* some pair since the last flush is a wild circle's (capsule UINT32_MAX) */
    c2d_pair_contact *contacts; /* contact_capacity entries */
    size_t found, contact_capacity;
    size_t first, n;   /* its circles */
    uint32_t checksum; /* c2d_circle_checksum of its circles (C2D_FRAME_CHECKS) */
    size_t above_rho;  /* tame circles that missed the fine index by their radius */
    size_t above_big;  /* those that missed the big circles' index too */
    c2d_status status; /* C2D_ERROR_STATE until binned */
} c2d_scene_part;

/* Most parts a frame can be split into. */
#define C2D_SCENE_MAX_PARTS 64

/* Where a frame is in its protocol: nothing binned, begun (parts may be binned), binned
 * (range calls may run). */
typedef enum c2d_frame_state { C2D_FRAME_NONE, C2D_FRAME_BEGUN, C2D_FRAME_BINNED } c2d_frame_state;

/* The binned frame: which circles, how it was split, how far it got, and for which capsules.
 * A frame is current only while `generation` equals the scene's: a capsule move makes every
 * frame begun or binned before it stale (c2d_scene_frame_current). */
typedef struct c2d_scene_frame {
    c2d_circle_soa circles; /* the binned set (pointers and count) */
    size_t parts;           /* parts of the frame being binned */
    uint64_t generation;    /* the scene's generation at c2d_scene_frame_begin */
    uint32_t checksum;      /* the circles' checksum when binned (C2D_FRAME_CHECKS) */
    c2d_frame_state state;
    bool fine; /* binned with the fine index: its long capsules are binned too */
} c2d_scene_frame;

#endif
