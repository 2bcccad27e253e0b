/* c2d_world_step(): one step of the world.
 *
 * 1. The capsule scenes are rebuilt if capsules were added or removed; sleeping balls that a
 *    moving kinematic capsule may reach wake.
 * 2. The awake balls are gathered (ascending dense index) with their speculative margins, and
 *    each kinematic capsule's path over the step is planned.
 * 3. Contacts, once (world_contacts.c); again, after they wake, when awake balls strike
 *    sleeping ones (c2d_world_wake_struck). Everything the step needs is allocated up to here,
 *    so a failure leaves the world as it was (but for those balls awake).
 * 4. Substeps: gravity, warm start, solve, kinematic capsules advance, swept moves, relax
 *    (world_solver.c, world_move.c). Then restitution and the warm-start memory.
 * 5. Sleep and waking (world_sleep.c), then events (world_events.c). */
#include <math.h>
#include <string.h>
#include <time.h>

#include "world_internal.h"
#include "world_kinematic.h"

/* Wall-clock milliseconds (C11), for the profile only. */
static double now_ms(void) {
    struct timespec t;
    if (timespec_get(&t, TIME_UTC) != TIME_UTC) return 0.0;
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Runs task(0, count) through the program's task system when it has one. */
static void run_task(c2d_world *w, c2d_task_fn *task, int count, void *ctx) {
    if (count <= 0) return;
    if (w->def.enqueue_task) {
        void *handle = w->def.enqueue_task(task, count, 1024, ctx, w->def.user_task_context);
        if (handle) w->def.finish_task(handle, w->def.user_task_context);
        return;
    }
    task(0, count, 0, ctx);
}

/* Gravity on the bodies [start, end): independent per ball, so any split gives the same
 * bytes. With balls of their own motion (forces, damping, gravity scale) each gets its own
 * change, in Box2D v3's order, v = v d + dv; a ball with the defaults gets exactly v + g h
 * either way (d is 1 and dv is g h x 1). */
typedef struct gravity_job {
    c2d_world *w;
    float gx, gy;
    float max_speed;
    bool own; /* per ball: bgx, bgy, bdamp, bdamp_spin */
} gravity_job;

static void gravity_task(int start, int end, uint32_t worker, void *ctx) {
    (void)worker;
    const gravity_job *job = ctx;
    c2d_world *w = job->w;
    if (!job->own) {
        for (int i = start; i < end; i++) {
            if (w->binv_mass[i] == 0.0f) continue;
            w->bvx[i] += job->gx;
            w->bvy[i] += job->gy;
        }
        return;
    }
    float limit = job->max_speed * job->max_speed;
    for (int i = start; i < end; i++) {
        if (w->binv_mass[i] == 0.0f) continue;
        w->bvx[i] = w->bvx[i] * w->bdamp[i] + w->bgx[i];
        w->bvy[i] = w->bvy[i] * w->bdamp[i] + w->bgy[i];
        w->bw[i] *= w->bdamp_spin[i];
        if (w->bvx[i] * w->bvx[i] + w->bvy[i] * w->bvy[i] > limit)
            c2d_world_clamp_speed(&w->bvx[i], &w->bvy[i], job->max_speed);
    }
}

/* Whether this step has balls of their own motion. */
static bool own_motion(const c2d_world *w) {
    return w->motion_balls > 0 || w->forces;
}

/* Each awake ball's change a substep of length h: gravity times its scale plus its force over
 * its mass, and its damping factors (1 / (1 + h d): 1 exactly for d = 0). */
static void prepare_motion(c2d_world *w, float h) {
    float gx = w->def.gravity.x * h, gy = w->def.gravity.y * h;
    for (size_t i = 0; i < w->awake_list_count; i++) {
        uint32_t k = w->awake[i];
        float s = w->gravity_scale[k];
        float dx = gx * s, dy = gy * s;
        if (w->force_x[k] != 0.0f || w->force_y[k] != 0.0f) {
            float im = w->inv_mass[k];
            dx += w->force_x[k] * im * h;
            dy += w->force_y[k] * im * h;
        }
        w->bgx[i] = dx;
        w->bgy[i] = dy;
        w->bdamp[i] = 1.0f / (1.0f + h * w->linear_damping[k]);
        w->bdamp_spin[i] = 1.0f / (1.0f + h * w->angular_damping[k]);
    }
}

/* The acceleration ball k's margins must allow for: gravity times its scale plus its force over
 * its mass (g itself for a ball with the defaults). */
static float ball_acceleration(const c2d_world *w, uint32_t k, float g) {
    float s = w->gravity_scale[k];
    if (s == 1.0f && w->force_x[k] == 0.0f && w->force_y[k] == 0.0f) return g;
    float ax = w->def.gravity.x * s + w->force_x[k] * w->inv_mass[k];
    float ay = w->def.gravity.y * s + w->force_y[k] * w->inv_mass[k];
    return sqrtf(ax * ax + ay * ay);
}

/* Room for `need` entries in every per-awake-ball array (the solver's bodies included). */
static c2d_status reserve_awake(c2d_world *w, size_t need) {
    world_array_ref refs[] = {AWAKE_ARRAYS(w)};
    return c2d_world_reserve_all(w, refs, sizeof refs / sizeof refs[0], &w->awake_capacity, need)
               ? C2D_OK
               : C2D_ERROR_ALLOC;
}

/* The solver's bodies: the awake balls, one still body, one per kinematic contact. */
static c2d_status reserve_bodies(c2d_world *w) {
    size_t kinematic = 0;
    for (size_t i = 0; i < w->contact_count; i++)
        kinematic += w->contacts[i].kinematic;
    return reserve_awake(w, w->awake_list_count + 1 + kinematic);
}

static c2d_status gather_awake(c2d_world *w, float dt) {
    c2d_status st = reserve_awake(w, w->awake_count + 1);
    if (st != C2D_OK) return st;
    float base = w->def.speculative_distance;
    float g = sqrtf(w->def.gravity.x * w->def.gravity.x + w->def.gravity.y * w->def.gravity.y);
    bool statics = w->static_scene && c2d_scene_capsule_count(w->static_scene) > 0;
    bool kinematic = w->kinematic_count > 0;
    bool own = own_motion(w);
    float max_speed = w->def.max_speed;
    /* The awake balls' indices first, then each array in its own loop through restrict
     * pointers (one pass writing twenty arrays through the world reloads every pointer). */
    uint32_t *restrict awake = w->awake, *restrict local_of = w->local_of;
    const uint8_t *restrict flags = w->flags;
    size_t n = 0;
    for (size_t k = 0; k < w->ball_count; k++) {
        if (!(flags[k] & WORLD_BALL_AWAKE)) continue;
        awake[n] = (uint32_t)k;
        local_of[k] = (uint32_t)n;
        n++;
    }
    const float *restrict x = w->x, *restrict y = w->y, *restrict vx = w->vx, *restrict vy = w->vy;
    const float *restrict radius = w->radius;
    float *restrict ax = w->ax, *restrict ay = w->ay, *restrict sx = w->start_x,
                    *restrict sy = w->start_y, *restrict margin = w->margin, *restrict ar = w->ar,
                    *restrict arf = w->ar_frozen, *restrict mcap = w->margin_capsule,
                    *restrict arc = w->ar_capsule, *restrict clear = w->clearance,
                    *restrict mfro = w->margin_frozen;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = awake[i];
        float r = radius[k];
        /* (A velocity above max_speed comes back to it in the first substep.) */
        float speed = sqrtf(vx[k] * vx[k] + vy[k] * vy[k]);
        float move = (speed < max_speed ? speed : max_speed) * dt;
        /* Awake balls: a quarter of the step's move is enough to catch a landing (measured:
         * the prototype's W9b landings; both sides move); capsules: the whole move and what
         * gravity adds, so a ball with no capsule within it needs no sweep this step. */
        float m = base + (flags[k] & WORLD_BALL_STRIKER ? 1.0f : 0.25f) * move;
        float gk = own ? ball_acceleration(w, k, g) : g;
        float pull = gk * dt * dt; /* what gravity adds to the move */
        if (!(pull < max_speed * dt)) pull = max_speed * dt;
        float mc = base + 1.25f * move + pull;
        /* A sleeping ball does not come to meet it: against those, the whole move and what
         * gravity adds. A ball that strikes one (waking it before the solve) keeps that margin
         * in the gather that follows, against the ball it woke. With a quarter, a ball dropped
         * at 20 units/s onto a sleeping pile found the ball it struck too late and ended up to
         * the rest of its move deep in it: 0.33 of a radius. */
        float mf = base + move + pull;
        ax[i] = sx[i] = x[k];
        ay[i] = sy[i] = y[k];
        margin[i] = m;
        ar[i] = r + m;
        mfro[i] = mf;
        arf[i] = r + mf + base;
        mcap[i] = mc;
        arc[i] = r + mc;
        /* (With kinematic capsules, a ball beyond its margin has left the box its list of them
         * was made for, and is swept: world_move.c.) */
        clear[i] =
            statics || kinematic ? mc - c2d_world_move_slack(w, x[k], y[k], r, mc) : INFINITY;
    }
    uint32_t *restrict acat = w->acat, *restrict amask = w->amask;
    for (size_t i = 0; i < n; i++) {
        acat[i] = w->category[awake[i]];
        amask[i] = w->mask[awake[i]];
    }
    float *restrict bvx = w->bvx, *restrict bvy = w->bvy, *restrict bw = w->bw;
    float fastest = 0.0f; /* the largest squared speed (a max the loop vectorizes) */
    for (size_t i = 0; i < n; i++) {
        bvx[i] = vx[awake[i]];
        bvy[i] = vy[awake[i]];
        bw[i] = w->angular_velocity[awake[i]];
        float s2 = bvx[i] * bvx[i] + bvy[i] * bvy[i];
        fastest = s2 > fastest ? s2 : fastest;
    }
    /* A call may have set a ball faster than max_speed: it starts the step at max_speed. */
    if (!(fastest <= max_speed * max_speed))
        for (size_t i = 0; i < n; i++)
            if (!(bvx[i] * bvx[i] + bvy[i] * bvy[i] <= max_speed * max_speed))
                c2d_world_clamp_speed(&bvx[i], &bvy[i], max_speed);
    float *restrict bim = w->binv_mass, *restrict bii = w->binv_inertia;
    for (size_t i = 0; i < n; i++) {
        bim[i] = w->inv_mass[awake[i]];
        bii[i] = w->inv_inertia[awake[i]];
    }
    memset(w->bdx, 0, n * sizeof(float));
    memset(w->bdy, 0, n * sizeof(float));
    memset(w->travelled, 0, n * sizeof(float));
    memset(w->move_taken, 0, n * sizeof(float));
    size_t i = n;
    w->awake_list_count = i;
    return C2D_OK;
}

/* Each kinematic capsule's shape at the step's start and end, and how far any of its points
 * moves (the growth of its contacts). */
static c2d_status plan_kinematic(c2d_world *w, float dt) {
    size_t n = w->kinematic_count;
    world_array_ref refs[] = {{(void **)&w->kin_start, sizeof(c2d_capsule)},
                              {(void **)&w->kin_step_start, sizeof(c2d_capsule)},
                              {(void **)&w->kin_step_end, sizeof(c2d_capsule)},
                              {(void **)&w->kin_reach, sizeof(float)},
                              {(void **)&w->kin_box, sizeof(world_box)},
                              {(void **)&w->kin_stamp, sizeof(uint32_t)}};
    if (!c2d_world_reserve_all(w, refs, sizeof refs / sizeof refs[0], &w->kin_capacity, n))
        return C2D_ERROR_ALLOC;
    float h = dt / (float)w->def.substeps;
    for (size_t j = 0; j < n; j++) {
        uint32_t c = w->kinematic_list[j];
        c2d_capsule s0 = w->shape[c], s1;
        float reach;
        if (w->kin_target[c]) {
            s1 = w->kin_goal[c];
            float da = c2d_world_len(s1.a.x - s0.a.x, s1.a.y - s0.a.y);
            float db = c2d_world_len(s1.b.x - s0.b.x, s1.b.y - s0.b.y);
            reach = fmaxf(da, db);
        } else {
            c2d_world_kin copy = w->kin[c];
            for (int s = 0; s < w->def.substeps; s++)
                c2d_world_kin_advance(&copy, h);
            s1 = c2d_world_kin_shape(&copy);
            const c2d_world_kin *k = &w->kin[c];
            float ra = c2d_world_len(s0.a.x - k->pivot.x, s0.a.y - k->pivot.y);
            float rb = c2d_world_len(s0.b.x - k->pivot.x, s0.b.y - k->pivot.y);
            /* An arc is no longer than its angle times its radius. */
            reach = c2d_world_len(k->velocity.x, k->velocity.y) * dt +
                    fabsf(k->angular_velocity) * dt * fmaxf(ra, rb);
        }
        w->kin_step_start[j] = s0;
        w->kin_step_end[j] = s1;
        w->kin_reach[j] = reach * 1.001f + 1e-6f;
    }
    return C2D_OK;
}

/* Moves the kinematic capsules one substep (substep s of the step, 0-based). */
static void advance_kinematic(c2d_world *w, int s, float h) {
    float f = (float)(s + 1) / (float)w->def.substeps;
    for (size_t j = 0; j < w->kinematic_count; j++) {
        uint32_t c = w->kinematic_list[j];
        w->kin_start[j] = w->shape[c];
        if (w->kin_target[c]) {
            c2d_capsule a = w->kin_step_start[j], b = w->kin_goal[c];
            if (s + 1 == w->def.substeps) {
                w->shape[c] = b;
            } else {
                w->shape[c] =
                    (c2d_capsule){{a.a.x + (b.a.x - a.a.x) * f, a.a.y + (b.a.y - a.a.y) * f},
                                  {a.b.x + (b.b.x - a.b.x) * f, a.b.y + (b.b.y - a.b.y) * f},
                                  a.radius};
            }
        } else {
            c2d_world_kin_advance(&w->kin[c], h);
            w->shape[c] = c2d_world_kin_shape(&w->kin[c]);
        }
    }
}

/* After the step: a capsule moved to a target rests there, its motion zero, its pivot carried
 * with it (a later spin turns it about the same point of the capsule). */
static void finish_kinematic(c2d_world *w) {
    for (size_t j = 0; j < w->kinematic_count; j++) {
        uint32_t c = w->kinematic_list[j];
        if (!w->kin_target[c]) continue;
        c2d_vec2 pivot =
            c2d_world_carry_point(w->kin_step_start[j], w->kin_goal[c], w->kin[c].pivot);
        c2d_world_kin_init(&w->kin[c], w->kin_goal[c], pivot, (c2d_vec2){0.0f, 0.0f}, 0.0f);
        w->shape[c] = w->kin_goal[c];
        w->kin_target[c] = 0;
    }
}

/* The awake balls, the kinematic capsules' plans and lists, and the step's contacts. */
static c2d_status gather_and_collide(c2d_world *w, float dt) {
    c2d_status st = gather_awake(w, dt);
    if (st == C2D_OK) st = plan_kinematic(w, dt);
    if (st == C2D_OK) st = c2d_world_find_kinematic_near(w);
    return st == C2D_OK ? c2d_world_find_contacts(w, dt) : st;
}

static c2d_status step(c2d_world *w, float dt) {
    double t0 = now_ms();
    double t_solve = 0.0, t_moves = 0.0;
    c2d_world_query_kinematic_drop(w, false); /* the kinematic capsules are about to move */
    c2d_status st = c2d_world_refresh_scenes(w);
    if (st != C2D_OK) return st;
    st = c2d_world_wake_near_kinematic(w, dt);
    if (st != C2D_OK) return st;
    st = gather_and_collide(w, dt);
    /* (Balls put to sleep by a call sleep in a world without enable_sleep too.) Once: the
     * balls they strike in turn wake by the usual rule after the step. */
    size_t struck = 0;
    if (st == C2D_OK && c2d_scene_frozen_count(w->balls_scene) > 0)
        st = c2d_world_wake_struck(w, dt, &struck);
    if (st == C2D_OK && struck > 0) {
        st = gather_and_collide(w, dt);
        for (size_t i = 0; i < w->awake_list_count; i++)
            w->flags[w->awake[i]] &= (uint8_t)~WORLD_BALL_STRIKER;
    }
    if (st == C2D_OK) st = reserve_bodies(w);
    if (st == C2D_OK) st = c2d_world_warm_reserve(w);
    if (st == C2D_OK) st = c2d_world_move_reserve(w);
    if (st == C2D_OK) st = c2d_world_events_reserve(w);
    if (st != C2D_OK) return st;
    double t1 = now_ms();
    w->begins.count = w->ends.count = w->hits.count = 0;
    w->enters.count = w->exits.count = 0;
    w->swept_hits.count = 0;

    int substeps = w->def.substeps;
    float h = dt / (float)substeps;
    /* Balls of their own motion, or a gravity that could carry a ball past max_speed within
     * the step, take the loop that brings each substep's velocity back to max_speed; the
     * others started the step no faster (gather_awake) and gain at most g dt within it. */
    float g = sqrtf(w->def.gravity.x * w->def.gravity.x + w->def.gravity.y * w->def.gravity.y);
    gravity_job gravity = {w, w->def.gravity.x * h, w->def.gravity.y * h, w->def.max_speed,
                           own_motion(w) || !(g * dt <= w->def.max_speed)};
    if (gravity.own) prepare_motion(w, h);
    c2d_world_solve_prepare(w, h);
    for (int s = 0; s < substeps; s++) {
        double a = now_ms();
        run_task(w, gravity_task, (int)w->awake_list_count, &gravity);
        c2d_world_warm_start(w);
        c2d_world_solve(w, h, true);
        double b = now_ms();
        advance_kinematic(w, s, h);
        st = c2d_world_move_balls(w, h);
        if (st != C2D_OK) return st; /* cannot happen: the scene calls had their memory */
        double c = now_ms();
        c2d_world_solve(w, h, false);
        t_solve += (b - a) + (now_ms() - c);
        t_moves += c - b;
    }
    double t2 = now_ms();
    c2d_world_restitution(w);
    c2d_world_store_impulses(w);
    const float max_speed = w->def.max_speed;
    for (size_t i = 0; i < w->awake_list_count; i++) {
        uint32_t k = w->awake[i];
        if (w->binv_mass[i] == 0.0f) continue;
        /* No ball leaves a step faster than max_speed (two bounces of a restitution far above
         * 1 in one substep, each within it, left a ball at 1.7 times it). */
        if (!(w->bvx[i] * w->bvx[i] + w->bvy[i] * w->bvy[i] <= max_speed * max_speed))
            c2d_world_clamp_speed(&w->bvx[i], &w->bvy[i], max_speed);
        w->vx[k] = w->bvx[i];
        w->vy[k] = w->bvy[i];
        w->angular_velocity[k] = w->bw[i];
    }
    finish_kinematic(w);
    if (w->forces) { /* a force lasts one step */
        for (size_t i = 0; i < w->awake_list_count; i++)
            w->force_x[w->awake[i]] = w->force_y[w->awake[i]] = 0.0f;
        w->forces = false;
    }

    double t3 = now_ms();
    c2d_status sleep = c2d_world_update_sleep(w, dt);
    if (sleep == C2D_OK) sleep = c2d_world_check_support(w);
    double t4 = now_ms();
    c2d_status events = c2d_world_update_events(w, dt);
    double t5 = now_ms();
    w->profile = (c2d_world_profile){.step = (float)(t5 - t0),
                                     .contacts = (float)(t1 - t0),
                                     .solve = (float)(t_solve + (t3 - t2)),
                                     .moves = (float)t_moves,
                                     .sleep = (float)(t4 - t3),
                                     .events = (float)(t5 - t4)};
    w->step_index++;
    return sleep != C2D_OK ? sleep : events;
}

c2d_status c2d_world_step(c2d_world *w, float dt) {
    if (!w) return C2D_ERROR_NULL;
    int idle = 0;
    if (!atomic_compare_exchange_strong(&w->stepping, &idle, 1)) return C2D_ERROR_STATE;
    c2d_status st = isfinite(dt) && dt > 0.0f ? step(w, dt) : C2D_ERROR_VALUE;
    atomic_store(&w->stepping, 0);
    return st;
}
