/* The Galton board: building the board, dropping balls, and the fixed step.
 *
 * One step, always in this order:
 *   1. spawn a row of balls at the top of the hopper when there is room;
 *   2. contacts at the current positions: balls against capsules, balls against balls;
 *   3. impulses: the ball pairs, then the ball-capsule contacts, each list in its order
 *      (GALTON_IMPULSE_PASSES passes over both lists);
 *   4. push-out: the same lists, accumulated into a displacement instead of moving the balls;
 *   5. gravity and drag: v = v (1 - drag dt) - g dt (semi-implicit Euler: the new velocity
 *      moves the ball);
 *   6. motion = v dt + displacement, swept against the capsules: a ball that hits one advances
 *      to the time of impact, bounces (an impulse against the static capsule) and sweeps the
 *      rest of the step again, up to GALTON_PASSES times; after the last pass it stays at the
 *      time of impact. So no motion, push-out included, crosses a capsule at any speed;
 *   7. sleeping: balls resting in a bin stop (inverse mass 0) and are frozen into the scene
 *      (settle()); steps 2-6 see only the awake balls, plus their contacts with frozen ones.
 *      At the start of step 2 a frozen ball touched by a fast awake ball wakes (wake()).
 *
 * Sweeps use the radius 1 - skin and contacts the radius 1: a ball stopped by a sweep overlaps
 * the capsule by at most the skin, which the next step's contact sees (and pushes out), and a
 * ball resting on a pin is not "overlapping at the start" of the next sweep. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

enum { GALTON_PASSES = 4, GALTON_IMPULSE_PASSES = 4, GALTON_SETTLE_STEPS = 24 };

/* The sleep speed, squared: 20 radii per second. */
#define GALTON_SLEEP_SPEED2 400.0f

/* The wake speed, squared: 60 radii per second. Above the sleep speed, so that a woken ball
 * pushed along by a falling one does not wake the whole pile in turn (a strike at terminal
 * speed, 222 radii per second, wakes about three layers). */
#define GALTON_WAKE_SPEED2 3600.0f

/* Approach speeds below this (20 radii per second, more than the 8.3 that gravity adds in one
 * step) do not bounce off a capsule: the sweep stops the ball without restitution (Box2D's
 * restitution threshold). A ball resting on a pin otherwise bounces its own gravity step
 * back up every step, and a little energy comes from nowhere. */
static const float galton_bounce_speed = 20.0f;

static const float ball_radius = 1.0f;
static const float wall_radius = 1.0f;
static const float divider_radius = 0.5f;

void galton_defaults(galton_params *p, int rows, size_t balls) {
    memset(p, 0, sizeof *p);
    p->rows = rows;
    p->balls = balls;
    p->seed = 1;
    p->threads = 1;
    p->pitch = 12.0f;
    p->ball_restitution = 0.3f;
    p->pin_restitution = 0.3f;
    p->gravity = 2000.0f;
    p->dt = 1.0f / 240.0f;
    p->drag = 9.0f;
    p->pin_size = 3.0f;
    p->launch_speed = 0.0f;
    p->hopper_capacity = 30;
}

/* xorshift32: the spawn jitter, the same numbers everywhere. */
static uint32_t next_random(uint32_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Uniform in [-1, 1), exactly representable steps of 2^-23. */
static float signed_unit(uint32_t *s) {
    return (float)(int32_t)(next_random(s) >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

static void add_capsule(galton *g, float ax, float ay, float bx, float by, float radius) {
    const size_t k = g->n_caps++;
    g->ax[k] = ax;
    g->ay[k] = ay;
    g->bx[k] = bx;
    g->by[k] = by;
    g->cr[k] = radius;
    g->ce[k] = g->p.pin_restitution;
}

double galton_binomial(int n, int k) {
    double p = 1.0;
    for (int i = 1; i <= n; i++) {
        p *= 0.5;
        if (i <= k) p *= (double)(n - k + i) / (double)i;
    }
    return p;
}

static float row_y(const galton *g, int row) {
    const float rh = g->p.pitch * 0.8660254f; /* sqrt(3)/2: equilateral triangles */
    return g->bins_top + 0.8f * rh + (float)(g->p.rows - 1 - row) * rh;
}

/* Pins of one row: x = (m - row/2) * pitch across the board. Rows alternate three shapes:
 * circles (zero-length capsules), short vertical capsules, thin vertical segments. */
static void add_pins(galton *g, int row) {
    const float d = g->p.pitch, y = row_y(g, row);
    const float limit = g->right - 0.75f * d;
    for (int m = -g->p.rows - 2; m <= g->p.rows + 2; m++) {
        const float x = (float)m * d - (float)row * 0.5f * d;
        if (x < -limit || x > limit) continue;
        switch (row % 3) {
        case 0:
            add_capsule(g, x, y, x, y, g->pin_size);
            break;
        case 1:
            add_capsule(g, x, y - 1.0f, x, y + 1.0f, g->pin_size);
            break;
        default:
            add_capsule(g, x, y - g->pin_size, x, y + g->pin_size, 0.0f);
            break;
        }
    }
}

static void build_board(galton *g) {
    const galton_params *p = &g->p;
    const float d = p->pitch, rh = d * 0.8660254f;
    const int bins = p->rows + 3;
    g->left = -0.5f * (float)bins * d;
    g->right = -g->left;
    g->floor_y = 0.0f;
    /* Bins tall enough for the fullest bin's expected count in layers 1.7 radii apart. */
    const double per_layer = (double)(int)((d - 2.0f * divider_radius) / (2.0f * ball_radius));
    const double fullest = (double)p->balls * galton_binomial(p->rows, p->rows / 2) + 20.0;
    g->bins_top = (float)(fullest / per_layer * 1.7) + 2.0f * d;
    if (p->launch_speed > 0.0f) g->bins_top = 3.0f * d;
    g->pins_top = row_y(g, 0) + 3.0f;
    g->outlet_y = row_y(g, 0) + rh;
    const float outlet = 0.4f * d, slope = 0.6f;
    g->funnel_top = g->outlet_y + (g->right - outlet) * slope;
    g->top = g->funnel_top + 5.0f * d;
    g->skin = 0.02f;
    g->pin_size = p->pin_size;

    g->n_caps = 0;
    add_capsule(g, g->left, g->floor_y, g->left, g->top, wall_radius);
    add_capsule(g, g->right, g->floor_y, g->right, g->top, wall_radius);
    add_capsule(g, g->left, g->floor_y, g->right, g->floor_y, wall_radius);
    add_capsule(g, g->left, g->top, g->right, g->top, wall_radius);
    add_capsule(g, -outlet, g->outlet_y, g->left, g->funnel_top, wall_radius);
    add_capsule(g, outlet, g->outlet_y, g->right, g->funnel_top, wall_radius);
    g->first_pin = g->n_caps;
    for (int row = 0; row < p->rows; row++)
        add_pins(g, row);
    g->n_pins = g->n_caps - g->first_pin;
    g->first_divider = g->n_caps;
    for (int k = 1; k < bins; k++) {
        const float x = g->left + (float)k * d;
        add_capsule(g, x, g->floor_y, x, g->bins_top, divider_radius);
    }
}

static void add_ball(galton *g, float x, float y, float vx, float vy) {
    const size_t i = g->n++;
    g->x[i] = x;
    g->y[i] = y;
    g->vx[i] = vx;
    g->vy[i] = vy;
    g->r[i] = ball_radius;
    g->rs[i] = ball_radius - g->skin;
    g->inv_mass[i] = 1.0f;
    g->e[i] = g->p.ball_restitution;
    g->quiet[i] = 0;
}

/* Whether a ball at (x, y) would come within half a radius of a capsule. */
static bool near_capsule(const galton *g, float x, float y) {
    const c2d_circle c = {{x, y}, 1.5f * ball_radius};
    for (size_t k = 0; k < g->n_caps; k++) {
        const c2d_capsule cap = {{g->ax[k], g->ay[k]}, {g->bx[k], g->by[k]}, g->cr[k]};
        if (c2d_overlap_circle_capsule(c, cap)) return true;
    }
    return false;
}

/* Test mode: every ball starts inside the pin field, between two rows and two pins, moving
 * in a random direction at launch_speed (the direction without trigonometry: a random point
 * of the square, normalised; rejected near the centre). */
static void launch_all(galton *g) {
    const float d = g->p.pitch, rh = d * 0.8660254f;
    const int slots_per_row = g->p.rows + 2;
    size_t slot = 0;
    while (g->n < g->p.balls) {
        const int row = (int)((slot / (size_t)slots_per_row) % (size_t)(g->p.rows - 1));
        const int m = (int)(slot % (size_t)slots_per_row) - slots_per_row / 2;
        const int layer = (int)(slot / ((size_t)slots_per_row * (size_t)(g->p.rows - 1)));
        slot++;
        const float x = (float)m * d - (float)row * 0.5f * d + 0.25f * d;
        const float y = row_y(g, row) - 0.5f * rh + (float)(layer % 3) * 2.2f - 2.2f;
        if (layer >= 3) break;
        if (x < g->left + 3.0f || x > g->right - 3.0f || near_capsule(g, x, y)) continue;
        float ux, uy, len2;
        do {
            ux = signed_unit(&g->rng);
            uy = signed_unit(&g->rng);
            len2 = ux * ux + uy * uy;
        } while (!(len2 > 0.04f && len2 <= 1.0f));
        const float s = g->p.launch_speed / sqrtf(len2);
        add_ball(g, x, y, ux * s, uy * s);
    }
}

int galton_create(galton *g, const galton_params *p) {
    memset(g, 0, sizeof *g);
    if (p->rows < 2 || p->rows > 500 || p->balls == 0 || p->balls > UINT32_MAX || p->threads < 1)
        return -1;
    g->p = *p;
    g->rng = p->seed ? p->seed : 1;
    const size_t caps = 6 + (size_t)p->rows * (size_t)(2 * p->rows + 5) + (size_t)p->rows + 3;
    float **cap_arrays[] = {&g->ax, &g->ay, &g->bx, &g->by, &g->cr, &g->ce};
    for (size_t k = 0; k < sizeof cap_arrays / sizeof *cap_arrays; k++)
        if (!(*cap_arrays[k] = malloc(caps * sizeof(float)))) goto fail;
    float **ball_arrays[] = {&g->x,  &g->y,  &g->vx, &g->vy, &g->r,  &g->rs, &g->inv_mass, &g->e,
                             &g->dx, &g->dy, &g->mx, &g->my, &g->sx, &g->sy, &g->smx,      &g->smy};
    for (size_t k = 0; k < sizeof ball_arrays / sizeof *ball_arrays; k++)
        if (!(*ball_arrays[k] = malloc(p->balls * sizeof(float)))) goto fail;
    g->active = malloc(p->balls * sizeof *g->active);
    g->quiet = malloc(p->balls * sizeof *g->quiet);
    g->ids = malloc(p->balls * sizeof *g->ids);
    g->toi = malloc(p->balls * sizeof *g->toi);
    g->pin_cap = p->balls;
    g->ball_cap = 2 * p->balls;
    g->pin_hits = malloc(g->pin_cap * sizeof *g->pin_hits);
    g->ball_hits = malloc(g->ball_cap * sizeof *g->ball_hits);
    if (!g->active || !g->quiet || !g->ids || !g->toi || !g->pin_hits || !g->ball_hits) goto fail;
    build_board(g);
    const c2d_capsule_soa caps_soa = {g->ax,     g->ay, g->bx, g->by, g->cr,
                                      g->n_caps, NULL,  NULL,  NULL};
    if (galton_queries_init(&g->q, &caps_soa, p->threads) != 0) goto fail;
    if (p->launch_speed > 0.0f) launch_all(g);
    return 0;
fail:
    galton_destroy(g);
    return -1;
}

void galton_destroy(galton *g) {
    galton_queries_free(&g->q);
    float *arrays[] = {g->ax, g->ay, g->bx, g->by, g->cr,       g->ce, g->x,  g->y,
                       g->vx, g->vy, g->r,  g->rs, g->inv_mass, g->e,  g->dx, g->dy,
                       g->mx, g->my, g->sx, g->sy, g->smx,      g->smy};
    for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
        free(arrays[k]);
    free(g->active);
    free(g->quiet);
    free(g->ids);
    free(g->merged);
    free(g->toi);
    free(g->pin_hits);
    free(g->ball_hits);
    memset(g, 0, sizeof *g);
}

/* A row of balls under the ceiling when the previous row has moved away and the hopper is
 * not full. */
static void spawn(galton *g) {
    if (g->p.launch_speed > 0.0f || g->n >= g->p.balls) return;
    const float y = g->top - wall_radius - ball_radius - 0.5f;
    size_t in_hopper = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (g->y[i] > y - 2.6f) return;
        in_hopper += g->y[i] > g->outlet_y;
    }
    if (in_hopper >= g->p.hopper_capacity) return;
    /* From the middle outward, alternating sides, until the row or the hopper is full. */
    for (int k = 0; g->n < g->p.balls && in_hopper < g->p.hopper_capacity; k++, in_hopper++) {
        const float x = (float)((k + 1) / 2) * ((k & 1) ? 3.0f : -3.0f);
        if (x < g->left + 3.0f || x > g->right - 3.0f) break;
        add_ball(g, x + 0.45f * signed_unit(&g->rng), y, 0.0f, -60.0f);
    }
}

static int report(const char *what, c2d_status st) {
    fprintf(stderr, "galton: %s: %s\n", what, c2d_status_string(st));
    return -1;
}

/* Ball pairs into ball_hits from `at` on (a query: awake against awake when ids is NULL,
 * else awake against frozen), growing it as needed; the count found goes to *found. */
static int ball_pairs(galton *g, const c2d_circle_soa *awake, const uint32_t *ids, size_t at,
                      size_t *found) {
    for (;;) {
        const c2d_status st =
            ids ? galton_collide_frozen(&g->q, awake, ids, g->ball_hits + at, g->ball_cap - at,
                                        found)
                : galton_collide_balls(&g->q, awake, g->ball_hits + at, g->ball_cap - at, found);
        if (st == C2D_OK) return 0;
        if (st != C2D_ERROR_TRUNCATED) return report("ball-ball contacts", st);
        c2d_circle_pair_contact *more = realloc(g->ball_hits, 2 * (at + *found) * sizeof *more);
        if (!more) return -1;
        g->ball_hits = more;
        g->ball_cap = 2 * (at + *found);
    }
}

static int by_pair(const void *pa, const void *pb) {
    const c2d_circle_pair_contact *a = pa, *b = pb;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : (a->b > b->b);
}

/* ball_hits[0, aa) (sorted: the awake pairs, ids increasing) and ball_hits[aa, aa + af) (the
 * frozen pairs, by awake ball) into one list sorted by (a, b): the frozen pairs sorted, then
 * both merged through `merged`. */
static int merge_pairs(galton *g, size_t aa, size_t af) {
    c2d_circle_pair_contact *h = g->ball_hits;
    qsort(h + aa, af, sizeof *h, by_pair);
    if (g->merged_cap < aa + af) {
        free(g->merged);
        g->merged_cap = 2 * (aa + af);
        if (!(g->merged = malloc(g->merged_cap * sizeof *g->merged))) return -1;
    }
    size_t i = 0, j = aa, k = 0;
    while (i < aa || j < aa + af)
        g->merged[k++] = j == aa + af || (i < aa && by_pair(&h[i], &h[j]) < 0) ? h[i++] : h[j++];
    memcpy(h, g->merged, (aa + af) * sizeof *h);
    return 0;
}

/* Contacts of the awake balls at the current positions into pin_hits and ball_hits (ball
 * indices, not awake-set indices), growing them as needed. The ball pairs are the awake pairs
 * and the awake-frozen pairs, sorted: the pairs of all balls that involve an awake ball, in the
 * order (and with the bytes) c2d_batch_collide_circles gives them. */
/* The awake balls (inverse mass not 0), in increasing index order: positions in sx, sy and
 * their indices in ids. */
static c2d_circle_soa compact_awake(galton *g) {
    g->n_awake = 0;
    for (size_t i = 0; i < g->n; i++)
        if (g->inv_mass[i] != 0.0f) {
            g->sx[g->n_awake] = g->x[i];
            g->sy[g->n_awake] = g->y[i];
            g->ids[g->n_awake++] = (uint32_t)i;
        }
    /* r holds the same value for every ball, so its first n_awake entries serve. */
    const c2d_circle_soa awake = {g->sx, g->sy, g->r, g->n_awake, NULL, NULL};
    return awake;
}

/* Waking: a frozen ball that an awake ball faster than the sleep speed touches is thawed (it
 * moves again from this step on). A slow ball resting on frozen ones wakes nothing, so a ball
 * that lands on a pile wakes the balls it strikes and not the whole pile. */
static int wake(galton *g) {
    /* only a fast ball can wake one: ask for theirs (mx, my and active are free here) */
    size_t n_fast = 0;
    for (size_t i = 0; i < g->n; i++)
        if (g->inv_mass[i] != 0.0f &&
            g->vx[i] * g->vx[i] + g->vy[i] * g->vy[i] >= GALTON_WAKE_SPEED2) {
            g->mx[n_fast] = g->x[i];
            g->my[n_fast] = g->y[i];
            g->active[n_fast++] = (uint32_t)i;
        }
    const c2d_circle_soa fast = {g->mx, g->my, g->r, n_fast, NULL, NULL};
    size_t found;
    if (ball_pairs(g, &fast, g->active, 0, &found) != 0) return -1;
    size_t woken = 0;
    for (size_t k = 0; k < found; k++) {
        const c2d_circle_pair_contact *h = &g->ball_hits[k];
        const uint32_t frozen = g->inv_mass[h->a] == 0.0f ? h->a : h->b;
        if (g->inv_mass[frozen] != 0.0f) continue; /* woken already */
        g->inv_mass[frozen] = 1.0f;
        g->quiet[frozen] = 0;
        g->active[woken++] = frozen; /* the fast list is read no more */
    }
    g->woken += woken;
    const c2d_status st = galton_thaw(&g->q, g->active, woken);
    return st == C2D_OK ? 0 : report("thaw", st);
}

static int find_contacts(galton *g) {
    if (wake(g) != 0) return -1;
    const c2d_circle_soa awake = compact_awake(g);
    double broad = 0.0, narrow = 0.0;
    c2d_status st = galton_collide_pins(&g->q, &awake, g->pin_hits, g->pin_cap, &g->n_pin_hits,
                                        &broad, &narrow);
    if (st == C2D_ERROR_TRUNCATED) {
        free(g->pin_hits);
        g->pin_cap = 2 * g->n_pin_hits;
        if (!(g->pin_hits = malloc(g->pin_cap * sizeof *g->pin_hits))) return -1;
        st = galton_collide_pins(&g->q, &awake, g->pin_hits, g->pin_cap, &g->n_pin_hits, &broad,
                                 &narrow);
    }
    if (st != C2D_OK) return report("ball-capsule contacts", st);
    for (size_t k = 0; k < g->n_pin_hits; k++)
        g->pin_hits[k].circle = g->ids[g->pin_hits[k].circle];
    g->timing.broad += broad;
    g->timing.narrow += narrow;
    const double t0 = galton_now();
    size_t aa, af;
    if (ball_pairs(g, &awake, NULL, 0, &aa) != 0) return -1;
    for (size_t k = 0; k < aa; k++) {
        g->ball_hits[k].a = g->ids[g->ball_hits[k].a];
        g->ball_hits[k].b = g->ids[g->ball_hits[k].b];
    }
    if (ball_pairs(g, &awake, g->ids, aa, &af) != 0) return -1;
    g->n_ball_hits = aa + af;
    if (af > 0 && merge_pairs(g, aa, af) != 0) return -1;
    g->timing.narrow += galton_now() - t0;
    return 0;
}

/* Impulses, then push-out into the displacement (dx, dy). */
static int respond(galton *g) {
    const c2d_body_soa bodies = {g->dx, g->dy, g->vx, g->vy, g->inv_mass, g->e, g->n};
    c2d_status st = C2D_OK;
    /* Several passes over the same lists let a push travel through a pile (each pass is
     * sequential impulses in list order; a contact already separating changes nothing). */
    for (int pass = 0; pass < GALTON_IMPULSE_PASSES && st == C2D_OK; pass++) {
        st = c2d_resolve_circle_contacts(&bodies, g->ball_hits, g->n_ball_hits, NULL);
        if (st == C2D_OK)
            st = c2d_resolve_capsule_contacts(&bodies, g->pin_hits, g->n_pin_hits, g->ce, g->n_caps,
                                              NULL);
    }
    memset(g->dx, 0, g->n * sizeof *g->dx);
    memset(g->dy, 0, g->n * sizeof *g->dy);
    if (st == C2D_OK) st = c2d_push_out_circle_contacts(&bodies, g->ball_hits, g->n_ball_hits);
    if (st == C2D_OK) st = c2d_push_out_capsule_contacts(&bodies, g->pin_hits, g->n_pin_hits);
    return st == C2D_OK ? 0 : report("response", st);
}

/* Bounce ball i off capsule c (normal toward the ball): c2d_apply_impulse against a static
 * body with the capsule's restitution. */
static void bounce(galton *g, size_t i, uint32_t c, c2d_vec2 normal) {
    c2d_body ball = {{g->vx[i], g->vy[i]}, g->inv_mass[i], g->e[i]};
    const float approach = -(g->vx[i] * normal.x + g->vy[i] * normal.y);
    c2d_body capsule = {{0.0f, 0.0f}, 0.0f, approach < galton_bounce_speed ? 0.0f : g->ce[c]};
    c2d_apply_impulse(&ball, &capsule, normal);
    g->vx[i] = ball.velocity.x;
    g->vy[i] = ball.velocity.y;
}

/* Step 6: move every ball by (mx, my), swept against the capsules. */
static int move_swept(galton *g, bool relax) {
    const float dt = relax ? 0.0f : g->p.dt;
    const double gravity = g->p.gravity;
    const int passes = relax ? 1 : GALTON_PASSES;
    size_t n_active = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (g->inv_mass[i] == 0.0f) continue; /* frozen: it does not move */
        g->mx[i] = g->vx[i] * dt + g->dx[i];
        g->my[i] = g->vy[i] * dt + g->dy[i];
        g->active[n_active++] = (uint32_t)i;
    }
    for (int pass = 0; pass < passes && n_active > 0; pass++) {
        for (size_t k = 0; k < n_active; k++) {
            const uint32_t i = g->active[k];
            g->sx[k] = g->x[i];
            g->sy[k] = g->y[i];
            g->smx[k] = g->mx[i];
            g->smy[k] = g->my[i];
        }
        /* rs holds the same value for every ball, so its first n_active entries serve. */
        const c2d_circle_soa moving = {g->sx, g->sy, g->rs, n_active, NULL, NULL};
        const double t0 = galton_now();
        const c2d_status st = galton_sweep_pins(&g->q, &moving, g->smx, g->smy, g->toi);
        g->timing.narrow += galton_now() - t0;
        if (st != C2D_OK) return report("sweep", st);
        size_t still = 0;
        for (size_t k = 0; k < n_active; k++) {
            const uint32_t i = g->active[k];
            const c2d_circle_toi *h = &g->toi[k];
            if (h->capsule == C2D_NONE) {
                g->x[i] += g->mx[i];
                g->y[i] += g->my[i];
                if (pass == 0) g->lifted += gravity * (double)g->dy[i];
                continue;
            }
            g->sweep_hits++;
            const float t = h->toi.t;
            const c2d_vec2 n = h->toi.normal;
            if (t > 0.0f) { /* advance to the touch */
                g->x[i] += t * g->mx[i];
                g->y[i] += t * g->my[i];
                if (pass == 0) g->lifted += gravity * (double)t * (double)g->dy[i];
            }
            /* Bounce, and sweep the rest of the step without any part into the capsule: at
             * t = 0 (already touching and pushing in, say from a crowd) the ball slides. A
             * ball touching a capsule and moving away gets no hit at all (query.h), so no
             * step-out is needed. */
            if (!relax) bounce(g, i, h->capsule, n);
            const float rest = (1.0f - t) * dt;
            const c2d_vec2 slid = c2d_slide_move((c2d_vec2){g->vx[i] * rest, g->vy[i] * rest}, n);
            g->mx[i] = slid.x;
            g->my[i] = slid.y;
            if (pass + 1 < passes) g->active[still++] = i;
        }
        n_active = still;
    }
    return 0;
}

/* Sleeping: a ball in a bin that has moved slower than 20 radii per second for
 * GALTON_SETTLE_STEPS steps in a row stops (velocity 0, inverse mass 0) and is frozen until a fast
 * ball strikes it (wake()), so a pile
 * is built on balls that no longer give way. Without it, one pass of impulses and push-out
 * per step cannot hold up a deep pile, which sinks into itself. */
static int settle(galton *g) {
    size_t n_frozen = 0;
    for (size_t i = 0; i < g->n; i++) {
        if (g->inv_mass[i] == 0.0f) continue;
        const bool slow = g->vx[i] * g->vx[i] + g->vy[i] * g->vy[i] < GALTON_SLEEP_SPEED2;
        g->quiet[i] = slow && g->y[i] < g->bins_top ? g->quiet[i] + 1 : 0;
        if (g->quiet[i] >= GALTON_SETTLE_STEPS) {
            g->inv_mass[i] = 0.0f;
            g->vx[i] = 0.0f;
            g->vy[i] = 0.0f;
            g->sx[n_frozen] = g->x[i];
            g->sy[n_frozen] = g->y[i];
            g->ids[n_frozen++] = (uint32_t)i;
        }
    }
    const c2d_circle_soa frozen = {g->sx, g->sy, g->r, n_frozen, NULL, NULL};
    const c2d_status st = galton_freeze(&g->q, &frozen, g->ids);
    return st == C2D_OK ? 0 : report("freeze", st);
}

int galton_step(galton *g) {
    spawn(g);
    if (find_contacts(g) != 0) return -1;
    const double t1 = galton_now();
    if (respond(g) != 0) return -1;
    /* Gravity and drag after the impulses: a ball resting on another is not bounced by the
     * velocity gravity just gave it (which would lift it a little every step). */
    const float gdt = g->p.gravity * g->p.dt, keep = 1.0f - g->p.drag * g->p.dt;
    for (size_t i = 0; i < g->n; i++) {
        if (g->inv_mass[i] == 0.0f) continue; /* asleep */
        g->vx[i] *= keep;
        g->vy[i] = g->vy[i] * keep - gdt;
    }
    g->timing.response += galton_now() - t1;
    const double narrow_before = g->timing.narrow;
    const double t2 = galton_now();
    if (move_swept(g, false) != 0) return -1;
    if (settle(g) != 0) return -1;
    /* The sweeps' own time was counted as narrow phase; the rest of the move is response. */
    g->timing.response += (galton_now() - t2) - (g->timing.narrow - narrow_before);
    g->steps++;
    return 0;
}

int galton_done(const galton *g) {
    if (g->n < g->p.balls) return 0;
    for (size_t i = 0; i < g->n; i++) {
        if (g->y[i] > g->bins_top) return 0;
        if (g->vx[i] * g->vx[i] + g->vy[i] * g->vy[i] > 150.0f * 150.0f) return 0;
    }
    return 1;
}

uint64_t galton_hash(const galton *g) {
    uint64_t h = 14695981039346656037ull;
    const float *arrays[] = {g->x, g->y, g->vx, g->vy};
    for (size_t i = 0; i < g->n; i++)
        for (size_t a = 0; a < 4; a++) {
            unsigned char bytes[sizeof(float)];
            memcpy(bytes, &arrays[a][i], sizeof bytes);
            for (size_t b = 0; b < sizeof bytes; b++)
                h = (h ^ bytes[b]) * 1099511628211ull;
        }
    for (int b = 0; b < 64; b += 8)
        h = (h ^ ((g->steps >> b) & 0xffu)) * 1099511628211ull;
    return h;
}

double galton_energy(const galton *g) {
    double e = 0.0;
    for (size_t i = 0; i < g->n; i++) {
        const double vx = g->vx[i], vy = g->vy[i];
        e += 0.5 * (vx * vx + vy * vy) + (double)g->p.gravity * (double)g->y[i];
    }
    return e;
}

int galton_bin_count(const galton *g) {
    return g->p.rows + 3;
}

int galton_bin_of(const galton *g, float x) {
    const float k = (x - g->left) / g->p.pitch;
    if (!(k > 0.0f)) return 0;
    const int bin = (int)k;
    return bin < galton_bin_count(g) ? bin : galton_bin_count(g) - 1;
}

void galton_bins(const galton *g, size_t *counts) {
    memset(counts, 0, (size_t)galton_bin_count(g) * sizeof *counts);
    for (size_t i = 0; i < g->n; i++)
        if (g->y[i] < g->bins_top) counts[galton_bin_of(g, g->x[i])]++;
}
