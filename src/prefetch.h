/* Hints to memory: ask for a line before it is read or written. Nothing is read, so any address
 * is fine; compilers without the builtin get nothing. */
#ifndef C2D_PREFETCH_H
#define C2D_PREFETCH_H

/* How far ahead the contact-list calls (src/response/) ask for a contact's bodies: a list
 * reaches some of its bodies in no order (b in the scenes' ball lists, whose a ascends; the
 * circle in their capsule lists), and the arrays of a large set are not in a core's cache. */
enum { C2D_CONTACTS_AHEAD = 16 };

/* Asks memory for *p, to be read. */
static inline void c2d_prefetch(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* Asks memory for *p, to be written. */
static inline void c2d_prefetch_write(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 1);
#else
    (void)p;
#endif
}

#endif
