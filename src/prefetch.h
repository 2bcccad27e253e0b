/* Hints to memory: ask for a line before it is read or written. Nothing is read, so any address
 * is fine; compilers without the builtin get nothing. */
#ifndef C2D_PREFETCH_H
#define C2D_PREFETCH_H

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
