/* Part of fuzz_batch.c (included after its helpers): the world (collide2d/world.h).
 *
 * The fuzzed balls (centres, radii, moves as velocities) and capsules become a world with the
 * defaults: each ball def and capsule def alone, so a def outside its range is refused with
 * C2D_ERROR_VALUE and changes nothing (the hash and the counts), and one that is in range is
 * added. The world then takes a few steps on every backend. Checked:
 * - a def is refused exactly when a value is outside the range world.h writes beside it;
 * - every step returns C2D_OK, and afterwards every ball's centre, velocity and angle are
 *   finite;
 * - the same bytes on every backend (c2d_world_hash after each step);
 * - c2d_world_ball_state reads every ball as c2d_world_get_balls's arrays hold it;
 * - queries over the result answer C2D_OK;
 * - the first capsule, when in range and within 2^10 of the origin, is kinematic, turning at
 *   1 rad/s about its end a: c2d_world_capsule_motion reads that back (and a static capsule
 *   reads static), and after a c2d_world_move_capsule_to() its pivot is the target's a to the
 *   bit (a pivot at a is carried exactly). */

static bool world_ball_in_range(float x, float y, float r, float vx, float vy) {
    /* world.h's range; density 1: the mass, its inverse and the inverse inertia finite */
    const float m = 3.14159265f * r * r;
    return isfinite(x) && isfinite(y) && isfinite(vx) && isfinite(vy) && isfinite(r) && r > 0.0f &&
           isfinite(m) && m > 0.0f && isfinite(1.0f / m) && isfinite(2.0f / (m * r * r));
}

static bool world_capsule_in_range(float ax, float ay, float bx, float by, float R) {
    return isfinite(ax) && isfinite(ay) && isfinite(bx) && isfinite(by) && isfinite(R) && R >= 0.0f;
}

/* Whether the first capsule is made kinematic: in range and within 2^10 of the origin (a
 * turning capsule far out sweeps slowly: that is the batch layer's to fuzz). */
static bool world_kinematic_first(const scene *s) {
    return s->nk > 0 && world_capsule_in_range(s->ax[0], s->ay[0], s->bx[0], s->by[0], s->R[0]) &&
           fabsf(s->ax[0]) < 0x1p10f && fabsf(s->ay[0]) < 0x1p10f && fabsf(s->bx[0]) < 0x1p10f &&
           fabsf(s->by[0]) < 0x1p10f && s->R[0] < 0x1p10f;
}

/* The capsules' motion read back (`kinematic`: the first capsule's id when it is kinematic,
 * `fixed`: a static capsule's; either UINT32_MAX when there is none), then the kinematic one
 * moved by (1, 0) over a step: its pivot, at its end a, is the target's a exactly. */
static void world_check_motion(c2d_world *w, c2d_capsule_id kinematic, c2d_capsule_id fixed,
                               const char *name) {
    c2d_capsule_motion m;
    if (fixed != UINT32_MAX &&
        (!c2d_world_capsule_motion(w, fixed, &m) || m.motion != C2D_STATIC || m.to_target ||
         m.sensor || m.velocity.x != 0.0f || m.velocity.y != 0.0f || m.angular_velocity != 0.0f))
        fail("world_capsule_motion: a static capsule", name);
    if (kinematic == UINT32_MAX) return;
    c2d_capsule now;
    if (!c2d_world_capsule_motion(w, kinematic, &m) || !c2d_world_capsule(w, kinematic, &now) ||
        m.motion != C2D_KINEMATIC || m.to_target || m.angular_velocity != 1.0f ||
        m.velocity.x != 0.0f || m.velocity.y != 0.0f ||
        memcmp(&m.pivot, &now.a, sizeof m.pivot) != 0)
        fail("world_capsule_motion: the kinematic capsule", name);
    const c2d_capsule target = {{now.a.x + 1.0f, now.a.y}, {now.b.x + 1.0f, now.b.y}, now.radius};
    if (c2d_world_move_capsule_to(w, kinematic, target) != C2D_OK)
        fail("world_move_capsule_to: status", name);
    if (c2d_world_step(w, 1.0f / 60.0f) != C2D_OK) fail("world_step: status", name);
    if (!c2d_world_capsule_motion(w, kinematic, &m) || m.to_target ||
        memcmp(&m.pivot, &target.a, sizeof m.pivot) != 0)
        fail("world_move_capsule_to: the pivot at a not carried to the target's a", name);
}

/* Builds the world from the scene and returns it, with the ids of its kinematic capsule and of
 * one static capsule (UINT32_MAX: none). */
static c2d_world *world_from(const scene *s, c2d_capsule_id *kinematic, c2d_capsule_id *fixed) {
    *kinematic = *fixed = UINT32_MAX;
    c2d_world_def def = c2d_world_default_def();
    c2d_world *w;
    if (c2d_world_create(&def, &w) != C2D_OK) fail("world_create", "defaults");
    for (size_t k = 0; k < s->nk; k++) {
        c2d_capsule_def d = c2d_capsule_default_def();
        d.shape = (c2d_capsule){{s->ax[k], s->ay[k]}, {s->bx[k], s->by[k]}, s->R[k]};
        if (k == 0 && world_kinematic_first(s)) {
            d.motion = C2D_KINEMATIC;
            d.pivot = d.shape.a;
            d.angular_velocity = 1.0f;
        }
        const uint64_t before = c2d_world_hash(w);
        const size_t count = c2d_world_capsule_count(w);
        c2d_capsule_id id;
        const c2d_status st = c2d_world_add_capsules(w, &d, 1, &id);
        const bool ok = world_capsule_in_range(s->ax[k], s->ay[k], s->bx[k], s->by[k], s->R[k]);
        if (ok && d.motion == C2D_KINEMATIC) *kinematic = id;
        if (ok && d.motion == C2D_STATIC) *fixed = id;
        if (st != (ok ? C2D_OK : C2D_ERROR_VALUE)) fail("world_add_capsules: status", "range");
        if (!ok && (c2d_world_hash(w) != before || c2d_world_capsule_count(w) != count))
            fail("world_add_capsules: a refused def changed the world", "range");
    }
    for (size_t i = 0; i < s->nc; i++) {
        c2d_ball_def d = c2d_ball_default_def();
        d.position = (c2d_vec2){s->x[i], s->y[i]};
        d.radius = s->r[i];
        d.velocity = (c2d_vec2){s->mx[i], s->my[i]};
        /* The balls' own motion on some: damping, floating, falling faster. */
        d.linear_damping = (float)(i % 3);
        d.angular_damping = (float)(i % 2) * 0.5f;
        d.gravity_scale = (float)(i % 4) - 1.0f;
        const uint64_t before = c2d_world_hash(w);
        const size_t count = c2d_world_ball_count(w);
        const c2d_status st = c2d_world_add_balls(w, &d, 1, NULL);
        const bool ok = world_ball_in_range(s->x[i], s->y[i], s->r[i], s->mx[i], s->my[i]);
        if (st != (ok ? C2D_OK : C2D_ERROR_VALUE)) fail("world_add_balls: status", "range");
        if (!ok && (c2d_world_hash(w) != before || c2d_world_ball_count(w) != count))
            fail("world_add_balls: a refused def changed the world", "range");
    }
    return w;
}

enum { WORLD_FUZZ_STEPS = 3 };

/* A force on every ball from the scene's moves (refused only when it, or its acceleration, is
 * not a float), a spin on every other (refused only when not finite), and the world's gravity
 * tilted by the first move (likewise). */
static void world_push(c2d_world *w, const scene *s) {
    c2d_world_balls b;
    if (c2d_world_get_balls(w, &b) != C2D_OK) fail("world_get_balls", "push");
    for (size_t i = 0; i < b.count; i++) {
        const size_t j = i % (s->nc ? s->nc : 1);
        const c2d_vec2 f = {s->nc ? s->my[j] : 0.0f, s->nc ? s->mx[j] : 0.0f};
        const c2d_status st = c2d_world_apply_ball_force(w, b.ids[i], f);
        if (st != C2D_OK && st != C2D_ERROR_VALUE) fail("world_apply_ball_force: status", "push");
        if (st == C2D_ERROR_VALUE && isfinite(f.x) && isfinite(f.y) && fabsf(f.x) < 0x1p100f &&
            fabsf(f.y) < 0x1p100f)
            fail("world_apply_ball_force: a modest force refused", "push");
        if (i % 2 && c2d_world_set_ball_angular_velocity(w, b.ids[i], f.x) !=
                         (isfinite(f.x) ? C2D_OK : C2D_ERROR_VALUE))
            fail("world_set_ball_angular_velocity: status", "push");
    }
    const c2d_vec2 g = {(s->nc ? s->mx[0] : 0.0f) * 0x1p-10f, -10.0f};
    if (c2d_world_set_gravity(w, g) != (isfinite(g.x) ? C2D_OK : C2D_ERROR_VALUE))
        fail("world_set_gravity: status", "push");
}

static void fuzz_world(const scene *s, const c2d_backend *backends, size_t n_backends) {
    /* Values the world takes but no game gives (|coordinates| or speeds past 2^20, radii past
     * 2^10) make steps of many seconds: those inputs are the batch layer's to fuzz. */
    for (size_t i = 0; i < s->nc; i++)
        if (fabsf(s->x[i]) > 0x1p20f || fabsf(s->y[i]) > 0x1p20f || fabsf(s->r[i]) > 0x1p10f ||
            fabsf(s->mx[i]) > 0x1p20f || fabsf(s->my[i]) > 0x1p20f)
            return;
    for (size_t k = 0; k < s->nk; k++)
        if (fabsf(s->ax[k]) > 0x1p20f || fabsf(s->ay[k]) > 0x1p20f || fabsf(s->bx[k]) > 0x1p20f ||
            fabsf(s->by[k]) > 0x1p20f || fabsf(s->R[k]) > 0x1p10f)
            return;
    uint64_t first[WORLD_FUZZ_STEPS];
    for (size_t b = 0; b < n_backends; b++) {
        const char *name = c2d_backend_name(backends[b]);
        if (c2d_backend_select(backends[b]) != C2D_OK) fail("backend_select", name);
        c2d_capsule_id kinematic, fixed;
        c2d_world *w = world_from(s, &kinematic, &fixed);
        for (int k = 0; k < WORLD_FUZZ_STEPS; k++) {
            world_push(w, s);
            if (c2d_world_step(w, 1.0f / 60.0f) != C2D_OK) fail("world_step: status", name);
            c2d_world_balls balls;
            if (c2d_world_get_balls(w, &balls) != C2D_OK) fail("world_get_balls", name);
            for (size_t i = 0; i < balls.count; i++) {
                if (!isfinite(balls.x[i]) || !isfinite(balls.y[i]) || !isfinite(balls.vx[i]) ||
                    !isfinite(balls.vy[i]) || !isfinite(balls.angle[i]))
                    fail("world_step: a ball is not finite", name);
                /* c2d_world_ball_state reads the same bytes as the arrays */
                c2d_ball_state st;
                if (!c2d_world_ball_state(w, balls.ids[i], &st) ||
                    memcmp(&st.position.x, &balls.x[i], 4) ||
                    memcmp(&st.position.y, &balls.y[i], 4) ||
                    memcmp(&st.velocity.x, &balls.vx[i], 4) ||
                    memcmp(&st.velocity.y, &balls.vy[i], 4) ||
                    memcmp(&st.angle, &balls.angle[i], 4) ||
                    memcmp(&st.radius, &balls.radius[i], 4) ||
                    st.awake != c2d_world_ball_awake(w, balls.ids[i]) || !(st.mass >= 0.0f) ||
                    !isfinite(st.mass) || !(st.inertia >= 0.0f) || !isfinite(st.inertia))
                    fail("world_ball_state differs from the arrays", name);
            }
            const uint64_t h = c2d_world_hash(w);
            if (b == 0)
                first[k] = h;
            else if (h != first[k])
                fail("world_hash differs between backends", name);
        }
        size_t n = 0;
        const c2d_box box = {{-10.0f, -10.0f}, {10.0f, 10.0f}};
        if (c2d_world_query_box(w, box, C2D_FILTER_ALL, C2D_FILTER_ALL, NULL, 0, &n) != C2D_OK)
            fail("world_query_box: status", name);
        c2d_world_ray_hit hit;
        if (c2d_world_cast_ray(w, (c2d_vec2){-20.0f, 0.0f}, (c2d_vec2){40.0f, 0.0f}, C2D_FILTER_ALL,
                               C2D_FILTER_ALL, &hit) != C2D_OK)
            fail("world_cast_ray: status", name);
        world_check_motion(w, kinematic, fixed, name);
        c2d_world_destroy(w);
    }
}
