/* Collide frames: binning (scene_bin.c) and the contacts of capsule ranges (scene_collide.c). */
#ifndef C2D_SCENE_COLLIDE_H
#define C2D_SCENE_COLLIDE_H

#include "scene/scene_state.h"

/* The three steps of binning (arguments checked): begin (reserves the parts), each part
 * (any thread; may grow its own buffer), end (sorts the candidates by capsule). Begin makes
 * the frame C2D_FRAME_BEGUN (NONE when it fails), end makes it BINNED once every part is
 * binned. Callers check the order with c2d_scene_frame_current. */
C2D_INTERNAL c2d_status c2d_scene_frame_begin(c2d_scene *s, const c2d_circle_soa *circles,
                                              size_t parts);
C2D_INTERNAL c2d_status c2d_scene_frame_part(c2d_scene *s, size_t part);
C2D_INTERNAL c2d_status c2d_scene_frame_end(c2d_scene *s);
/* A checksum of circles [first, first + n): the sum (mod 2^32) over i of a mix of i and the
 * bits of x[i], y[i] and radius[i], so the sums of consecutive ranges add up to the whole
 * set's in any split. Changing any one value always changes it; several changes go unseen
 * with a chance near 2^-32. About 0.7 ns a circle on x86-64 (SSE2 or NEON through SIMDe). */
C2D_INTERNAL uint32_t c2d_circle_checksum(const c2d_circle_soa *c, size_t first, size_t n);
/* Contacts of capsules [first, first+n) against the binned circles (copied from the binned
 * contacts; capsules of kind EVERYWHERE tested here): writes the first `capacity`, returns the
 * total. */
C2D_INTERNAL size_t c2d_scene_collide_binned(const c2d_scene *s, size_t first, size_t n,
                                             c2d_pair_contact *out, size_t capacity);

#endif
