/* W9 on the world (bench/w9_world.h). */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include "w9_world.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double w9w_cpu_seconds(void) {
    struct timespec t = {0, 0}; /* left 0 where the clock is missing */
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void w9w_scene_destroy(w9w_scene *s) {
    c2d_world_destroy(s->world);
    w9_figures_destroy(s->f);
    free(s->capsule_ids);
    free(s->removed);
    free(s->live);
    free(s->touched);
    free(s->sx);
    free(s->sy);
    free(s->sr);
    w9_layout_free(&s->l);
    memset(s, 0, sizeof *s);
}

/* Scratch for n balls. */
static int scratch(w9w_scene *s, size_t n) {
    if (n <= s->scratch_cap) return 0;
    unsigned char *t = realloc(s->touched, n);
    if (!t) return -1;
    s->touched = t;
    float **arrays[3] = {&s->sx, &s->sy, &s->sr};
    for (int k = 0; k < 3; k++) {
        float *p = realloc(*arrays[k], n * sizeof(float));
        if (!p) return -1;
        *arrays[k] = p;
    }
    s->scratch_cap = n;
    return 0;
}

/* Adds n balls of the given centres and radii at rest, with W9's materials. */
static int add_balls(c2d_world *w, const w9_layout *l, const float *x, const float *y,
                     const float *r, size_t n, c2d_vec2 velocity) {
    c2d_ball_def *defs = malloc((n ? n : 1) * sizeof(c2d_ball_def));
    if (!defs) return -1;
    for (size_t i = 0; i < n; i++) {
        c2d_ball_def d = c2d_ball_default_def();
        d.position.x = x[i], d.position.y = y[i];
        d.velocity = velocity;
        d.radius = r[i];
        d.density = l->density;
        d.friction = l->friction;
        d.restitution = l->restitution;
        defs[i] = d;
    }
    const c2d_status st = c2d_world_add_balls(w, defs, n, NULL);
    free(defs);
    return st == C2D_OK ? 0 : -1;
}

/* The world of a layout already in s->l. */
static int scene_build(w9w_scene *s, bool enable_sleep, bool check) {
    const w9_layout *l = &s->l;
    s->check = check;
    c2d_world_def def = c2d_world_default_def();
    def.gravity.x = 0.0f, def.gravity.y = W9_GRAVITY;
    if (!enable_sleep) def.enable_sleep = false;
    s->capsule_ids = malloc(l->m * sizeof(c2d_capsule_id));
    s->removed = calloc(l->m, sizeof(bool));
    s->live = malloc(l->m * sizeof(c2d_capsule));
    c2d_capsule_def *defs = malloc(l->m * sizeof(c2d_capsule_def));
    s->f = w9_figures_create();
    if (!s->capsule_ids || !s->removed || !s->live || !defs || !s->f || scratch(s, l->n) != 0 ||
        c2d_world_create(&def, &s->world) != C2D_OK) {
        free(defs);
        return -1;
    }
    for (size_t k = 0; k < l->m; k++) {
        defs[k] = c2d_capsule_default_def();
        defs[k].shape = l->capsules[k];
        if (l->spin != 0.0f) {
            defs[k].motion = C2D_KINEMATIC;
            defs[k].pivot = l->pivot;
            defs[k].angular_velocity = l->spin;
        }
        s->live[k] = l->capsules[k];
    }
    s->live_count = l->m;
    const c2d_status st = c2d_world_add_capsules(s->world, defs, l->m, s->capsule_ids);
    free(defs);
    if (st != C2D_OK) return -1;
    const c2d_vec2 rest = {0.0f, 0.0f};
    return add_balls(s->world, l, l->x, l->y, l->radius, l->n, rest);
}

/* The world of the layout that `laid` (0) put in s->l, with `balls` of its balls added; on
 * failure nothing is left allocated. */
static int create(w9w_scene *s, int laid, size_t balls, bool enable_sleep, bool check) {
    if (laid != 0) return -1;
    const size_t n = s->l.n;
    s->l.n = balls;
    const int st = scene_build(s, enable_sleep, check);
    s->l.n = n;
    if (st != 0) {
        w9w_scene_destroy(s);
        return -1;
    }
    return 0;
}

int w9w_pile_create(w9w_scene *s, size_t n) {
    memset(s, 0, sizeof *s);
    return create(s, w9_layout_pile(&s->l, n, W9B_PITCH), n, true, true);
}

int w9w_board_create_empty(w9w_scene *s, size_t n) {
    memset(s, 0, sizeof *s);
    return create(s, w9_layout_board(&s->l, n), 0, true, false); /* the board of n, no ball */
}

int w9w_drum_create(w9w_scene *s, size_t n) {
    memset(s, 0, sizeof *s);
    return create(s, w9_layout_drum(&s->l, n), n, true, false);
}

int w9w_drum_run(w9w_scene *s, double cap, w9w_drum *r) {
    memset(r, 0, sizeof *r);
    r->ms = -1.0;
    double sum = 0.0, at[5];
    while (s->steps < W9C_END && r->cpu_s < cap) {
        if (s->steps == W9C_FIRST) memcpy(at, s->stage, sizeof at);
        const double t = w9w_step(s);
        if (t < 0.0) return -1;
        r->cpu_s += t;
        if (s->steps > W9C_FIRST) sum += t;
    }
    r->steps = s->steps;
    if (s->steps == W9C_END) {
        r->ms = 1e3 * sum / (W9C_END - W9C_FIRST);
        w9w_split(at, s->stage, W9C_END - W9C_FIRST, r->split, sizeof r->split);
    }
    /* Balls whose centre is farther from the pivot than the drum's inner face: escaped. */
    w9_balls b = w9w_balls(s);
    for (size_t i = 0; i < b.count; i++) {
        const double dx = (double)b.x[i] - s->l.pivot.x, dy = (double)b.y[i] - s->l.pivot.y;
        if (sqrt(dx * dx + dy * dy) > (double)s->l.drum_radius) r->escaped++;
    }
    r->awake = c2d_world_awake_count(s->world);
    return 0;
}

int w9w_board_create(w9w_scene *s, size_t n, bool enable_sleep, bool check) {
    memset(s, 0, sizeof *s);
    return create(s, w9_layout_board(&s->l, n), n, enable_sleep, check);
}

w9_balls w9w_balls(const w9w_scene *s) {
    c2d_world_balls b;
    w9_balls out = {NULL, NULL, NULL, NULL, NULL, NULL, 0};
    if (c2d_world_get_balls(s->world, &b) != C2D_OK) return out;
    out.x = b.x, out.y = b.y, out.vx = b.vx, out.vy = b.vy, out.w = b.angular_velocity;
    out.radius = b.radius, out.count = b.count;
    return out;
}

/* Sleeping balls that touch neither a capsule nor another sleeping ball (within W9_TOUCH of
 * their own radius: w9_mark_supported()): section 14 says there are none. (size_t)-1: out of
 * memory. */
static size_t midair_sleepers(w9w_scene *s) {
    c2d_world_balls b;
    if (c2d_world_get_balls(s->world, &b) != C2D_OK) return (size_t)-1;
    if (c2d_world_awake_count(s->world) == b.count) return 0;
    if (scratch(s, b.count) != 0) return (size_t)-1;
    size_t k = 0;
    for (size_t i = 0; i < b.count; i++)
        if (!c2d_world_ball_awake(s->world, b.ids[i])) {
            s->sx[k] = b.x[i], s->sy[k] = b.y[i], s->sr[k] = b.radius[i];
            k++;
        }
    memset(s->touched, 0, k);
    const w9_balls sleeping = {s->sx, s->sy, NULL, NULL, NULL, s->sr, k};
    const size_t touching = w9_mark_supported(s->f, &sleeping, s->live, s->live_count, s->touched);
    return touching == (size_t)-1 ? touching : k - touching;
}

void w9w_split(const double from[5], const double to[5], size_t steps, char *out, size_t size) {
    double n = steps ? (double)steps : 1.0;
    snprintf(out, size, "%.3f/%.3f/%.3f/%.3f/%.3f", (to[0] - from[0]) / n, (to[1] - from[1]) / n,
             (to[2] - from[2]) / n, (to[3] - from[3]) / n, (to[4] - from[4]) / n);
}

double w9w_step(w9w_scene *s) {
    const double t0 = w9w_cpu_seconds();
    const c2d_status st = c2d_world_step(s->world, W9_DT);
    const double t = w9w_cpu_seconds() - t0;
    if (st != C2D_OK) return -1.0;
    c2d_world_profile pr;
    if (c2d_world_get_profile(s->world, &pr) == C2D_OK) {
        s->stage[0] += pr.contacts, s->stage[1] += pr.solve, s->stage[2] += pr.moves;
        s->stage[3] += pr.sleep, s->stage[4] += pr.events;
    }
    s->steps++;
    if (s->check) {
        const size_t midair = midair_sleepers(s);
        if (midair == (size_t)-1) return -1.0;
        if (midair > s->midair_max) s->midair_max = midair;
        if (midair) {
            s->midair_steps++;
            if (!s->midair_first) s->midair_first = s->steps;
        }
    }
    return t;
}

int w9w_pile_quality(w9w_scene *s, double cap, w9w_quality *q) {
    const w9_layout *l = &s->l;
    const size_t n = l->n;
    memset(q, 0, sizeof *q);
    q->fall_ms = -1.0, q->asleep_ms = -1.0;
    unsigned char *touched = calloc(n, 1);
    if (!touched) return -1;
    w9_rise rise;
    w9_rise_start(&rise, W9W_ENERGY_FIRST);
    w9_balls b = w9w_balls(s);
    w9_rise_add(&rise, w9_energy(&b, l->density, W9_GRAVITY, l->floor_y));
    double fall = 0.0;
    int status = 0;
    w9_overlap o;
    while (q->cpu_s < cap && s->steps < W9W_MAX_STEPS) {
        const size_t k = s->steps; /* this step's index; the state after it is step k + 1 */
        const double t = w9w_step(s);
        if (t < 0.0) {
            status = -1;
            break;
        }
        q->cpu_s += t;
        if (k >= W9A_FALL_FIRST && k < W9A_FALL_END) fall += t;
        b = w9w_balls(s);
        const size_t count = q->lands ? n : w9_mark_touching(s->f, &b, l->capsules, l->m, touched);
        if (count == (size_t)-1 || w9_overlaps(s->f, &b, &o) != 0) {
            status = -1;
            break;
        }
        if (!q->lands && count == n) q->lands = s->steps;
        if (o.max > q->worst_max) q->worst_max = o.max;
        if (o.p99 > q->worst_p99) q->worst_p99 = o.p99;
        w9_rise_add(&rise, w9_energy(&b, l->density, W9_GRAVITY, l->floor_y));
        if (!q->asleep && c2d_world_awake_count(s->world) == 0) q->asleep = s->steps;
        if (q->asleep || (q->lands && s->steps == q->lands + W9W_AFTER_LANDING)) {
            q->measured = s->steps;
            q->at = o;
            q->packing = w9_packing(s->f, &b, l->width, l->floor_y);
            break;
        }
    }
    free(touched);
    q->steps = s->steps;
    q->capped = q->measured == 0;
    q->energy_rise = rise.max;
    q->energy_rise_step = rise.max_at;
    if (s->steps >= W9A_FALL_END) q->fall_ms = 1e3 * fall / (W9A_FALL_END - W9A_FALL_FIRST);
    if (status == 0 && q->asleep) {
        double asleep = 0.0;
        for (int k = 0; k < W9W_ASLEEP_STEPS; k++) {
            const double t = w9w_step(s);
            if (t < 0.0) return -1;
            asleep += t;
        }
        q->asleep_ms = 1e3 * asleep / W9W_ASLEEP_STEPS;
    }
    return status;
}

int w9w_drop_ball(w9w_scene *s, float at, float radius, float speed, size_t limit_steps,
                  w9w_drop *d) {
    memset(d, 0, sizeof *d);
    w9_balls b = w9w_balls(s);
    float top = s->l.floor_y;
    for (size_t i = 0; i < b.count; i++)
        if (b.y[i] + b.radius[i] > top) top = b.y[i] + b.radius[i];
    const float x = at * s->l.width, y = top + 1.0f + radius;
    const c2d_vec2 v = {0.0f, -speed};
    if (add_balls(s->world, &s->l, &x, &y, &radius, 1, v) != 0 || scratch(s, b.count + 1) != 0)
        return -1;
    double cpu = 0.0;
    w9_overlap o = {0, 0.0, 0.0};
    while (d->steps < limit_steps) {
        const double t = w9w_step(s);
        if (t < 0.0) return -1;
        cpu += t;
        d->steps++;
        b = w9w_balls(s);
        if (w9_overlaps(s->f, &b, &o) != 0) return -1;
        if (o.max > d->worst_max) d->worst_max = o.max;
        if (o.p99 > d->worst_p99) d->worst_p99 = o.p99;
        const size_t awake = c2d_world_awake_count(s->world);
        if (awake > d->awake_max) d->awake_max = awake;
        if (awake == 0) {
            d->resleep = d->steps;
            break;
        }
    }
    d->at = o;
    d->ms = d->steps ? 1e3 * cpu / (double)d->steps : 0.0;
    return 0;
}

int w9w_floor_removal(w9w_scene *s, w9w_floor *r) {
    memset(r, 0, sizeof *r);
    w9_balls b = w9w_balls(s);
    const size_t n = b.count;
    float *before = malloc((n ? n : 1) * sizeof(float));
    if (!before) return -1;
    memcpy(before, b.y, n * sizeof(float));
    r->balls = n;
    r->asleep_before = n - c2d_world_awake_count(s->world);
    if (c2d_world_remove_capsules(s->world, &s->capsule_ids[0], 1) != C2D_OK) {
        free(before);
        return -1;
    }
    /* the figures' capsules: those left */
    s->removed[0] = true;
    s->live_count = 0;
    for (size_t k = 0; k < s->l.m; k++)
        if (!s->removed[k]) s->live[s->live_count++] = s->l.capsules[k];
    for (int k = 0; k < 60; k++) {
        if (w9w_step(s) < 0.0) {
            free(before);
            return -1;
        }
        if (k == 9) r->asleep_after_10 = n - c2d_world_awake_count(s->world);
    }
    b = w9w_balls(s);
    r->least_drop = HUGE_VAL;
    for (size_t i = 0; i < n; i++) {
        const double drop = (double)before[i] - (double)b.y[i];
        if (drop < r->least_drop) r->least_drop = drop;
        r->not_lower_60 += drop < 0.5;
    }
    free(before);
    return 0;
}

int w9w_board_run(w9w_scene *s, size_t stream, double cap, size_t sleep_limit, w9w_board *r) {
    memset(r, 0, sizeof *r);
    r->fall_ms = -1.0, r->asleep_ms = -1.0, r->stream_ms = -1.0;
    double fall = 0.0, at[5];
    while (r->cpu_s < cap && s->steps < sleep_limit) {
        const size_t k = s->steps;
        if (k == W9A_FALL_FIRST) memcpy(at, s->stage, sizeof at);
        const double t = w9w_step(s);
        if (t < 0.0) return -1;
        r->cpu_s += t;
        if (k >= W9A_FALL_FIRST && k < W9A_FALL_END) fall += t;
        if (s->steps == W9A_FALL_END) {
            r->fall_ms = 1e3 * fall / (W9A_FALL_END - W9A_FALL_FIRST);
            w9w_split(at, s->stage, W9A_FALL_END - W9A_FALL_FIRST, r->fall_split,
                      sizeof r->fall_split);
        }
        if (c2d_world_awake_count(s->world) == 0) {
            r->asleep = s->steps;
            break;
        }
    }
    r->steps = s->steps;
    if (!r->asleep) return 0;
    double asleep = 0.0;
    memcpy(at, s->stage, sizeof at);
    for (int k = 0; k < W9W_ASLEEP_STEPS; k++) {
        const double t = w9w_step(s);
        if (t < 0.0) return -1;
        asleep += t;
    }
    r->asleep_ms = 1e3 * asleep / W9W_ASLEEP_STEPS;
    w9w_split(at, s->stage, W9W_ASLEEP_STEPS, r->asleep_split, sizeof r->asleep_split);
    r->steps = s->steps;
    if (!stream) return 0;
    return w9w_stream_run(s, stream, cap, r);
}

int w9w_stream_run(w9w_scene *s, size_t stream, double cap, w9w_board *r) {
    /* the stream: one row before each of the first W9_STREAM_ROWS steps */
    const size_t most = w9_stream_row_most(stream);
    float *x = malloc(3 * most * sizeof(float));
    if (!x) return -1;
    float *y = x + most, *rad = y + most;
    w9_stream_window window = w9_stream_window_start(stream);
    const c2d_vec2 rest = {0.0f, 0.0f};
    unsigned seed = W9_STREAM_SEED;
    double cpu = 0.0;
    double zero[5] = {0.0}, split[5] = {0.0}, before[5];
    size_t row = 0;
    for (;;) {
        if (row < W9_STREAM_ROWS) {
            const size_t m = w9_stream_row(&s->l, stream, row++, &seed, x, y, rad);
            if (add_balls(s->world, &s->l, x, y, rad, m, rest) != 0) {
                free(x);
                return -1;
            }
            r->stream += m;
        }
        const size_t awake = c2d_world_awake_count(s->world);
        if (awake > r->stream_awake_max) r->stream_awake_max = awake;
        if (w9_stream_window_ended(&window, row, awake)) {
            r->stream_ended = true;
            break;
        }
        if (cpu >= cap) break;
        memcpy(before, s->stage, sizeof before);
        const double t = w9w_step(s);
        if (t < 0.0) {
            free(x);
            return -1;
        }
        cpu += t;
        r->stream_steps++;
        if (w9_stream_window_add(&window, awake, t))
            for (int k = 0; k < 5; k++)
                split[k] += s->stage[k] - before[k];
    }
    free(x);
    r->cpu_s += cpu;
    r->steps = s->steps;
    r->stream_counted = window.counted;
    if (r->stream_counted) {
        r->stream_ms = 1e3 * window.sum / (double)r->stream_counted;
        r->stream_awake_mean = window.awake_sum / (double)r->stream_counted;
        w9w_split(zero, split, r->stream_counted, r->stream_split, sizeof r->stream_split);
    }
    return 0;
}

int w9w_board_settle(w9w_scene *s, double cap, w9w_settle *r) {
    memset(r, 0, sizeof *r);
    r->fall_ms = -1.0, r->settle_ms = -1.0;
    r->start_mean_speed = -1.0, r->start_top = -1.0;
    double fall = 0.0, settle = 0.0, ring[W9A_SETTLE_STEPS] = {0};
    size_t first = 0; /* 0: not found yet */
    double at[5] = {0};
    while (r->cpu_s < cap && !(first && s->steps == first + W9A_SETTLE_STEPS)) {
        const size_t k = s->steps;
        if (!first && k >= W9A_FALL_END && k % W9A_SETTLE_EVERY == 0) {
            const w9_balls b = w9w_balls(s);
            double speed = 0.0, top = -1e30;
            for (size_t i = 0; i < b.count; i++) {
                speed += sqrt((double)b.vx[i] * b.vx[i] + (double)b.vy[i] * b.vy[i]);
                if ((double)b.y[i] + b.radius[i] > top) top = (double)b.y[i] + b.radius[i];
            }
            speed /= (double)b.count;
            if (speed < (double)W9A_SETTLE_SPEED || k >= W9A_SETTLE_LIMIT) {
                first = k;
                r->start_mean_speed = speed, r->start_top = top;
                memcpy(at, s->stage, sizeof at);
            }
        }
        const double t = w9w_step(s);
        if (t < 0.0) return -1;
        r->cpu_s += t;
        ring[k % W9A_SETTLE_STEPS] = t;
        if (k >= W9A_FALL_FIRST && k < W9A_FALL_END) fall += t;
        if (first && k >= first) settle += t;
    }
    r->steps = s->steps;
    r->from = first;
    /* a window the cap cut: the mean of the last steps run, as bench/w9_peer.c reports it */
    double recent = 0.0;
    const size_t recent_n = s->steps < W9A_SETTLE_STEPS ? s->steps : W9A_SETTLE_STEPS;
    for (size_t j = 0; j < recent_n; j++)
        recent += ring[j];
    recent = recent_n ? 1e3 * recent / (double)recent_n : 0.0;
    r->fall_ms = s->steps >= W9A_FALL_END ? 1e3 * fall / (W9A_FALL_END - W9A_FALL_FIRST) : recent;
    r->capped = !(first && s->steps == first + W9A_SETTLE_STEPS);
    r->settle_ms = first && s->steps > first ? 1e3 * settle / (double)(s->steps - first) : recent;
    if (first && s->steps > first)
        w9w_split(at, s->stage, s->steps - first, r->settle_split, sizeof r->settle_split);
    return 0;
}
