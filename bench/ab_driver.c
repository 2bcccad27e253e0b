/* c2d_ab: two builds of libcollide2d in one process, one call timed alternately.
 *
 *   c2d_ab LIB_A LIB_B CASE N BACKEND [FRAMES]
 *
 * Loads both shared libraries (dlopen, each bound to its own symbols), makes the same input
 * (test/support/workload.c) and the same scene in each, then calls A, B, A, B, ... on it,
 * FRAMES times each after three untimed rounds, and times every call with the thread's CPU
 * clock. A busy neighbour on a shared machine slows a call of A and the next call of B alike,
 * so the ratio of the two, call by call, is steadier than whole runs of two programs (what
 * scripts/compare does): usually within a few % from run to run, though a change of the host's
 * load moves it more (up to 15% between two sittings an hour apart on the 2-core guest). Prints one
 * line: the minimum and the median of each, the ratio of the minima and the median of the per-round
 * ratios A/B (above 1: B is faster), and whether both gave the same bytes. scripts/ab builds a
 * ref's library beside HEAD's and runs this.
 *
 * CASE: w1 (c2d_batch_collide, W1: N circles, N/16 capsules; W1 itself is N = 4096), w2d
 * (c2d_batch_collide_pairs, W2d: N listed pairs, about 60% hits, in order), w3
 * (c2d_batch_sweep, W3: W1's circles with their moves), w5 (c2d_scene_collide, W5 uniform: N
 * balls, N/16 pins), w5sweep (c2d_scene_sweep on
 * the same, W3's moves), pile, gas (c2d_scene_collide_circles on W6), pilesweep, gassweep
 * (c2d_scene_sweep_circles on W6 with its moves), pileresolve, gasresolve, pilepushout,
 * gaspushout (c2d_resolve_circle_contacts and c2d_push_out_circle_contacts on the W6 set's
 * contacts, each call on the same bodies: the velocities or positions are put back before it,
 * untimed), w7 (one frame of the README's loop, examples/pachinko.c, on its board of N balls:
 * each library runs its own board, 90 frames and the three untimed rounds first, then a frame
 * of A and the same frame of B in turn; the bytes compared are the balls' positions and
 * velocities at the end; a ref without one of the loop's functions cannot run it).
 * BACKEND: a name of c2d_backend_name (scalar, sse2, avx2, avx512, neon), or two joined by a
 * comma, A's and B's: with the same library on both sides (scripts/ab --ref HEAD, so two files
 * and two loaded copies) that times one backend against another in the same way, e.g.
 * scalar,avx2 for the SIMD gain. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collide2d.h"
#include "workload.h"

/* The library functions the W7 frame calls, from one library: examples/pachinko.c is included
 * below with each of its calls sent through `ab_frame_api`, which points at the library whose
 * board is running. */
typedef struct frame_api {
    float (*apply_impulse)(c2d_body *, c2d_body *, c2d_vec2);
    c2d_status (*push_out_capsule)(const c2d_body_soa *, const c2d_pair_contact *, size_t);
    c2d_status (*push_out_circle)(const c2d_body_soa *, const c2d_circle_pair_contact *, size_t);
    c2d_status (*resolve_capsule)(const c2d_body_soa *, const c2d_pair_contact *, size_t,
                                  const float *, size_t, float *);
    c2d_status (*resolve_circle)(const c2d_body_soa *, const c2d_circle_pair_contact *, size_t,
                                 float *);
    c2d_status (*collide)(c2d_scene *, const c2d_circle_soa *, c2d_pair_contact *, size_t,
                          size_t *);
    c2d_status (*collide_circles)(c2d_scene *, const c2d_circle_soa *, c2d_circle_pair_contact *,
                                  size_t, size_t *);
    c2d_status (*create)(const c2d_capsule_soa *, const c2d_allocator *, c2d_scene **);
    void (*destroy)(c2d_scene *);
    c2d_status (*sweep)(c2d_scene *, const c2d_circle_soa *, const float *, const float *,
                        c2d_circle_toi *);
    c2d_vec2 (*slide_move)(c2d_vec2, c2d_vec2);
    c2d_status (*solve_circle)(const c2d_body_soa *, const c2d_circle_pair_contact *, size_t,
                               const c2d_solve_def *);
    c2d_status (*solve_capsule)(const c2d_body_soa *, const c2d_pair_contact *, size_t,
                                const c2d_solve_def *);
    c2d_status (*advance)(const c2d_scene *, const c2d_circle_soa *, const c2d_move_soa *,
                          const float *, float *, float *);
    /* a ref before 0.2.0 has no solve calls: its _ex forms serve (solve_*_from_ex) */
    c2d_status (*resolve_circle_ex)(const c2d_body_soa *, const c2d_body_friction_soa *,
                                    const c2d_circle_pair_contact *, size_t, float *, float *);
    c2d_status (*resolve_capsule_ex)(const c2d_body_soa *, const c2d_body_friction_soa *,
                                     const c2d_pair_contact *, size_t, const c2d_capsule_bodies *,
                                     float *, float *);
    const char *(*status_string)(c2d_status);
} frame_api;

/* A ref without c2d_scene_advance (before issue 42) advanced by float arithmetic: the same
 * here, so its frame is the loop it shipped. */
static c2d_status float_advance(const c2d_scene *scene, const c2d_circle_soa *circles,
                                const c2d_move_soa *moves, const float *t, float *out_x,
                                float *out_y) {
    (void)scene;
    for (size_t i = 0; i < circles->count; i++) {
        const float ti = t ? t[i] : 1.0f;
        out_x[i] = circles->x[i] + moves->x[i] * ti, out_y[i] = circles->y[i] + moves->y[i] * ti;
    }
    return C2D_OK;
}

static const frame_api *ab_frame_api;

/* c2d_solve_*_contacts(bodies, contacts, n, def) of 0.2.0 is the 0.1.0 _ex call with the def's
 * fields (CHANGES.md): what a ref before 0.2.0 runs in the frame. */
static c2d_status solve_circle_from_ex(const c2d_body_soa *b, const c2d_circle_pair_contact *c,
                                       size_t n, const c2d_solve_def *d) {
    const c2d_solve_def none = {0};
    d = d ? d : &none;
    return ab_frame_api->resolve_circle_ex(b, d->friction, c, n, d->impulses, d->tangent_impulses);
}
static c2d_status solve_capsule_from_ex(const c2d_body_soa *b, const c2d_pair_contact *c, size_t n,
                                        const c2d_solve_def *d) {
    const c2d_solve_def none = {0};
    d = d ? d : &none;
    return ab_frame_api->resolve_capsule_ex(b, d->friction, c, n, d->capsules, d->impulses,
                                            d->tangent_impulses);
}

/* (collide2d.h is included above, so these rename the calls of pachinko.c, not the headers'
 * declarations; the driver links no library, so a call not listed here fails to link) */
#define c2d_apply_impulse(...) ab_frame_api->apply_impulse(__VA_ARGS__)
#define c2d_push_out_capsule_contacts(...) ab_frame_api->push_out_capsule(__VA_ARGS__)
#define c2d_push_out_circle_contacts(...) ab_frame_api->push_out_circle(__VA_ARGS__)
#define c2d_resolve_capsule_contacts(...) ab_frame_api->resolve_capsule(__VA_ARGS__)
#define c2d_resolve_circle_contacts(...) ab_frame_api->resolve_circle(__VA_ARGS__)
#define c2d_scene_collide(...) ab_frame_api->collide(__VA_ARGS__)
#define c2d_scene_collide_circles(...) ab_frame_api->collide_circles(__VA_ARGS__)
#define c2d_scene_create(...) ab_frame_api->create(__VA_ARGS__)
#define c2d_scene_destroy(...) ab_frame_api->destroy(__VA_ARGS__)
#define c2d_scene_sweep(...) ab_frame_api->sweep(__VA_ARGS__)
#define c2d_slide_move(...) ab_frame_api->slide_move(__VA_ARGS__)
#define c2d_scene_advance(...) ab_frame_api->advance(__VA_ARGS__)
#define c2d_solve_circle_contacts(...) ab_frame_api->solve_circle(__VA_ARGS__)
#define c2d_solve_capsule_contacts(...) ab_frame_api->solve_capsule(__VA_ARGS__)
#define c2d_status_string(...) ab_frame_api->status_string(__VA_ARGS__)
#define PACHINKO_NO_MAIN
#include "../examples/pachinko.c"
#undef c2d_apply_impulse
#undef c2d_push_out_capsule_contacts
#undef c2d_push_out_circle_contacts
#undef c2d_resolve_capsule_contacts
#undef c2d_resolve_circle_contacts
#undef c2d_scene_collide
#undef c2d_scene_collide_circles
#undef c2d_scene_create
#undef c2d_scene_destroy
#undef c2d_scene_sweep
#undef c2d_slide_move
#undef c2d_scene_advance
#undef c2d_solve_circle_contacts
#undef c2d_solve_capsule_contacts
#undef c2d_status_string

typedef struct library {
    void *handle;
    c2d_status (*select)(c2d_backend);
    c2d_status (*sweep_circles)(c2d_scene *, const c2d_circle_soa *, const float *, const float *,
                                c2d_circle_hit *);
    c2d_status (*batch_collide)(const c2d_circle_soa *, const c2d_capsule_soa *, c2d_pair_contact *,
                                size_t, size_t *);
    c2d_status (*batch_collide_pairs)(const c2d_circle_soa *, const c2d_capsule_soa *,
                                      const uint32_t *, const uint32_t *, size_t,
                                      c2d_pair_contact *, size_t, size_t *);
    c2d_status (*batch_sweep)(const c2d_circle_soa *, const float *, const float *,
                              const c2d_capsule_soa *, c2d_circle_toi *);
    frame_api frame; /* also the calls the other cases time (collide, sweep, resolve, ...) */
    board *board;    /* the w7 case's */
    c2d_scene *scene;
} library;

typedef enum kind { W1, W2D, W3, W5, W5_SWEEP, BALLS, BALL_SWEEPS, RESOLVE, PUSH_OUT, W7 } kind;

/* W2d's listed pairs (the w2d case's; c2d_workload_dense_pairs). */
static uint32_t *w2d_circle, *w2d_capsule;
static size_t w2d_count;

/* W7's frames before the timed ones, and its frame step, gravity as the README's loop. */
enum { W7_WARMUP = 90 };
static const float W7_DT = 1.0f / 60.0f, W7_GRAVITY = -9.8f;

/* The bodies of the resolve and pushout cases: the W6 balls with their moves as velocities,
 * inverse mass 1 / r^2, restitution 0.5; `saved` holds what each call starts from. */
typedef struct bodies {
    c2d_body_soa soa;
    float *saved_x, *saved_y;
    const c2d_circle_pair_contact *contacts;
    size_t count;
} bodies;

static void *symbol(void *handle, const char *path, const char *name) {
    void *p = dlsym(handle, name);
    if (!p) {
        fprintf(stderr, "%s has no %s\n", path, name);
        exit(1);
    }
    return p;
}

static double thread_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double least(const double *v, int n) {
    double m = v[0];
    for (int k = 1; k < n; k++)
        m = v[k] < m ? v[k] : m;
    return m;
}

static void load(library *l, const char *path, c2d_backend backend,
                 const c2d_capsule_soa *capsules) {
    l->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!l->handle) {
        fprintf(stderr, "%s\n", dlerror());
        exit(1);
    }
    /* ISO C has no conversion from void * to a function pointer; POSIX gives them one
     * representation, so the address is copied */
#define BIND(field, name)                                                                          \
    do {                                                                                           \
        void *address = symbol(l->handle, path, name);                                             \
        memcpy(&l->field, &address, sizeof address);                                               \
    } while (0)
    BIND(select, "c2d_backend_select");
    BIND(sweep_circles, "c2d_scene_sweep_circles");
    BIND(batch_collide, "c2d_batch_collide");
    BIND(batch_collide_pairs, "c2d_batch_collide_pairs");
    BIND(batch_sweep, "c2d_batch_sweep");
    BIND(frame.apply_impulse, "c2d_apply_impulse");
    BIND(frame.push_out_capsule, "c2d_push_out_capsule_contacts");
    BIND(frame.push_out_circle, "c2d_push_out_circle_contacts");
    BIND(frame.resolve_capsule, "c2d_resolve_capsule_contacts");
    BIND(frame.resolve_circle, "c2d_resolve_circle_contacts");
    BIND(frame.collide, "c2d_scene_collide");
    BIND(frame.collide_circles, "c2d_scene_collide_circles");
    BIND(frame.create, "c2d_scene_create");
    BIND(frame.destroy, "c2d_scene_destroy");
    BIND(frame.sweep, "c2d_scene_sweep");
    BIND(frame.status_string, "c2d_status_string");
#undef BIND
    /* refs before the start rule (45f751a) have no c2d_slide_move: only w7 needs it */
    void *slide = dlsym(l->handle, "c2d_slide_move");
    memcpy(&l->frame.slide_move, &slide, sizeof slide);
    /* the frame's solve calls (0.2.0; w7 needs them, the other cases do not) */
    void *solve = dlsym(l->handle, "c2d_solve_circle_contacts");
    memcpy(&l->frame.solve_circle, &solve, sizeof solve);
    solve = dlsym(l->handle, "c2d_solve_capsule_contacts");
    memcpy(&l->frame.solve_capsule, &solve, sizeof solve);
    void *advance = dlsym(l->handle, "c2d_scene_advance"); /* issue 42 */
    memcpy(&l->frame.advance, &advance, sizeof advance);
    if (!l->frame.advance) l->frame.advance = float_advance;
    if (!l->frame.solve_circle || !l->frame.solve_capsule) {
        void *ex = dlsym(l->handle, "c2d_resolve_circle_contacts_ex");
        memcpy(&l->frame.resolve_circle_ex, &ex, sizeof ex);
        ex = dlsym(l->handle, "c2d_resolve_capsule_contacts_ex");
        memcpy(&l->frame.resolve_capsule_ex, &ex, sizeof ex);
        if (l->frame.resolve_circle_ex && l->frame.resolve_capsule_ex) {
            l->frame.solve_circle = solve_circle_from_ex;
            l->frame.solve_capsule = solve_capsule_from_ex;
        }
    }
    if (l->select(backend) != C2D_OK) {
        fprintf(stderr, "%s: backend not available\n", path);
        exit(1);
    }
    if (l->frame.create(capsules, NULL, &l->scene) != C2D_OK) {
        fprintf(stderr, "%s: c2d_scene_create failed\n", path);
        exit(1);
    }
}

/* Stops the program unless a call succeeded (and its output fit: count <= capacity). */
static void check(bool ok, const char *what) {
    if (ok) return;
    fprintf(stderr, "%s failed\n", what);
    exit(1);
}

/* One call; returns the output's bytes (its count in *count). The resolve and pushout cases
 * write the bodies' velocities or positions, and w7 its board (out unused): those bytes are
 * compared at the end instead. */
static size_t run(library *l, kind k, const c2d_workload *w, const bodies *b, void *out,
                  size_t capacity, size_t *count) {
    const size_t n = w->circles.count;
    switch (k) {
    case W1:
        check(l->batch_collide(&w->circles, &w->capsules, out, capacity, count) == C2D_OK &&
                  *count <= capacity,
              "c2d_batch_collide");
        return *count * sizeof(c2d_pair_contact);
    case W2D:
        check(l->batch_collide_pairs(&w->circles, &w->capsules, w2d_circle, w2d_capsule, w2d_count,
                                     out, capacity, count) == C2D_OK &&
                  *count <= capacity,
              "c2d_batch_collide_pairs");
        return *count * sizeof(c2d_pair_contact);
    case W3:
        check(l->batch_sweep(&w->circles, w->move_x, w->move_y, &w->capsules, out) == C2D_OK,
              "c2d_batch_sweep");
        return n * sizeof(c2d_circle_toi);
    case RESOLVE:
        check(l->frame.resolve_circle(&b->soa, b->contacts, b->count, NULL) == C2D_OK,
              "c2d_resolve_circle_contacts");
        return 0;
    case PUSH_OUT:
        check(l->frame.push_out_circle(&b->soa, b->contacts, b->count) == C2D_OK,
              "c2d_push_out_circle_contacts");
        return 0;
    case W7:
        ab_frame_api = &l->frame;
        check(board_frame(l->board, W7_DT, W7_GRAVITY) == 0, "a W7 frame");
        return 0;
    case W5:
        check(l->frame.collide(l->scene, &w->circles, out, capacity, count) == C2D_OK &&
                  *count <= capacity,
              "c2d_scene_collide");
        return *count * sizeof(c2d_pair_contact);
    case W5_SWEEP:
        check(l->frame.sweep(l->scene, &w->circles, w->move_x, w->move_y, out) == C2D_OK,
              "c2d_scene_sweep");
        return n * sizeof(c2d_circle_toi);
    case BALLS:
        check(l->frame.collide_circles(l->scene, &w->circles, out, capacity, count) == C2D_OK &&
                  *count <= capacity,
              "c2d_scene_collide_circles");
        return *count * sizeof(c2d_circle_pair_contact);
    default:
        check(l->sweep_circles(l->scene, &w->circles, w->move_x, w->move_y, out) == C2D_OK,
              "c2d_scene_sweep_circles");
        return n * sizeof(c2d_circle_hit);
    }
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr,
                "usage: %s LIB_A LIB_B CASE N BACKEND [FRAMES]\n"
                "  CASE: w1 w2d w3 w5 w5sweep pile gas pilesweep gassweep pileresolve gasresolve\n"
                "        pilepushout gaspushout w7\n",
                argv[0]);
        return 2;
    }
    const char *name = argv[3];
    const size_t n = strtoul(argv[4], NULL, 10);
    const int frames = argc > 6 ? atoi(argv[6]) : 31;
    /* the backends by the names B's own c2d_backend_name gives them: "X" for both, "X,Y" for A
     * on X and B on Y */
    void *names_of = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!names_of) return fprintf(stderr, "%s\n", dlerror()), 1;
    const char *(*name_of)(c2d_backend);
    void *address = symbol(names_of, argv[2], "c2d_backend_name");
    memcpy(&name_of, &address, sizeof address);
    const char *comma = strchr(argv[5], ',');
    const size_t first_length = comma ? (size_t)(comma - argv[5]) : strlen(argv[5]);
    c2d_backend backend[2] = {C2D_BACKEND_COUNT, C2D_BACKEND_COUNT};
    for (int b = 0; b < C2D_BACKEND_COUNT; b++) {
        const char *backend_name = name_of((c2d_backend)b);
        if (strlen(backend_name) == first_length && !strncmp(argv[5], backend_name, first_length))
            backend[0] = (c2d_backend)b;
        if (!strcmp(comma ? comma + 1 : argv[5], backend_name)) backend[1] = (c2d_backend)b;
    }
    const kind k = !strcmp(name, "w1")        ? W1
                   : !strcmp(name, "w2d")     ? W2D
                   : !strcmp(name, "w3")      ? W3
                   : !strcmp(name, "w7")      ? W7
                   : !strcmp(name, "w5")      ? W5
                   : !strcmp(name, "w5sweep") ? W5_SWEEP
                   : strstr(name, "resolve")  ? RESOLVE
                   : strstr(name, "pushout")  ? PUSH_OUT
                   : strstr(name, "sweep")    ? BALL_SWEEPS
                                              : BALLS;
    const bool pile = !strncmp(name, "pile", 4), on_bodies = k == RESOLVE || k == PUSH_OUT;
    if (backend[0] == C2D_BACKEND_COUNT || backend[1] == C2D_BACKEND_COUNT || n == 0 ||
        frames < 1 || (k >= BALLS && k != W7 && !pile && strncmp(name, "gas", 3))) {
        fprintf(stderr, "bad case, size, backend or frame count\n");
        return 2;
    }
    c2d_workload w;
    w2d_count = n;
    const int made =
        k == W1 || k == W3 ? c2d_workload_make(&w, n, n / 16, C2D_WORKLOAD_SEED)
        : k == W2D   ? c2d_workload_dense_pairs(&w, n, C2D_WORKLOAD_SEED, &w2d_circle, &w2d_capsule)
        : k == W7    ? c2d_workload_w6(&w, 16, C2D_W6_GAS, C2D_WORKLOAD_SEED) /* unused */
        : k >= BALLS ? c2d_workload_w6(&w, n, pile ? C2D_W6_PILE : C2D_W6_GAS, C2D_WORKLOAD_SEED)
                     : c2d_workload_w5(&w, n, n / 16, C2D_W5_UNIFORM, C2D_WORKLOAD_SEED);
    if (made != 0) return fprintf(stderr, "out of memory\n"), 1;
    const c2d_capsule_soa none = {0};
    library lib[2];
    for (int s = 0; s < 2; s++)
        load(&lib[s], argv[1 + s], backend[s], k >= BALLS ? &none : &w.capsules);
    /* W6 piles: 3 pairs a ball; W5: 0.08 contacts; W1: about 0.08 a circle; W2d: 0.6 a pair */
    const size_t capacity = 8 * n + 16;
    void *out[2] = {malloc(capacity * sizeof(c2d_pair_contact)),
                    malloc(capacity * sizeof(c2d_pair_contact))};
    double *t[2] = {malloc((size_t)frames * sizeof(double)),
                    malloc((size_t)frames * sizeof(double))};
    double *ratio = malloc((size_t)frames * sizeof(double));
    if (!out[0] || !out[1] || !t[0] || !t[1] || !ratio) return fprintf(stderr, "no memory\n"), 1;
    size_t count[2] = {0, 0}, bytes[2] = {0, 0};
    bodies body[2] = {{{0}, NULL, NULL, NULL, 0}, {{0}, NULL, NULL, NULL, 0}};
    if (on_bodies) { /* the set's contacts, by B, and a set of bodies for each library */
        check(lib[1].frame.collide_circles(lib[1].scene, &w.circles, out[1], capacity, &count[1]) ==
                      C2D_OK &&
                  count[1] <= capacity,
              "c2d_scene_collide_circles (the contacts to resolve)");
        for (int s = 0; s < 2; s++) {
            float *v[8];
            for (int a = 0; a < 8; a++)
                if (!(v[a] = malloc(n * sizeof(float)))) return fprintf(stderr, "no memory\n"), 1;
            for (size_t i = 0; i < n; i++) {
                const float r = w.circles.radius[i];
                v[0][i] = w.circles.x[i], v[1][i] = w.circles.y[i];
                v[2][i] = w.move_x[i], v[3][i] = w.move_y[i];
                v[4][i] = 1.0f / (r * r), v[5][i] = 0.5f;
            }
            const bool moves = k == RESOLVE; /* what a call changes, saved */
            memcpy(v[6], moves ? v[2] : v[0], n * sizeof(float));
            memcpy(v[7], moves ? v[3] : v[1], n * sizeof(float));
            body[s] =
                (bodies){{v[0], v[1], v[2], v[3], v[4], v[5], n}, v[6], v[7], out[1], count[1]};
        }
    }
    board boards[2];
    if (k == W7) /* each library's board, warmed up */
        for (int s = 0; s < 2; s++) {
            check(lib[s].frame.slide_move != NULL, "w7 (a library without c2d_slide_move)");
            check(lib[s].frame.solve_circle && lib[s].frame.solve_capsule,
                  "w7 (a library without c2d_solve_*_contacts or their _ex forms)");
            ab_frame_api = &lib[s].frame;
            lib[s].board = &boards[s];
            check(board_make(&boards[s], n, 2463534242u) == 0, "the W7 board (board_make)");
            for (int f = 0; f < W7_WARMUP; f++)
                check(board_frame(&boards[s], W7_DT, W7_GRAVITY) == 0, "a W7 warm-up frame");
        }
    for (int f = -3; f < frames; f++) {
        for (int s = 0; s < 2; s++) {
            if (on_bodies) { /* the same start for every call */
                const c2d_body_soa *b = &body[s].soa;
                memcpy(k == RESOLVE ? b->vx : b->x, body[s].saved_x, n * sizeof(float));
                memcpy(k == RESOLVE ? b->vy : b->y, body[s].saved_y, n * sizeof(float));
            }
            const double t0 = thread_ms();
            bytes[s] = run(&lib[s], k, &w, &body[s], out[s], capacity, &count[s]);
            if (f >= 0) t[s][f] = thread_ms() - t0;
        }
        if (f >= 0) ratio[f] = t[0][f] / t[1][f];
    }
    bool same = bytes[0] == bytes[1] && memcmp(out[0], out[1], bytes[0]) == 0;
    if (on_bodies) {
        const c2d_body_soa *a = &body[0].soa, *b = &body[1].soa;
        const size_t z = n * sizeof(float);
        same = k == RESOLVE ? !memcmp(a->vx, b->vx, z) && !memcmp(a->vy, b->vy, z)
                            : !memcmp(a->x, b->x, z) && !memcmp(a->y, b->y, z);
    }
    if (k == W7) {
        const board *a = &boards[0], *b = &boards[1];
        const size_t z = n * sizeof(float);
        same = !memcmp(a->x, b->x, z) && !memcmp(a->y, b->y, z) && !memcmp(a->vx, b->vx, z) &&
               !memcmp(a->vy, b->vy, z);
    }
    const double min_a = least(t[0], frames), min_b = least(t[1], frames);
    printf(
        "%-9s %-11s %8zu  A %8.3f / %8.3f ms  B %8.3f / %8.3f ms  min %5.2fx  paired %5.2fx  %s\n",
        name, argv[5], n, min_a, median(t[0], frames), min_b, median(t[1], frames), min_a / min_b,
        median(ratio, frames), same ? "same bytes" : "BYTES DIFFER");
    return 0;
}
