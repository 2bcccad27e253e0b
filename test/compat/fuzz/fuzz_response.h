/* Part of fuzz_batch.c (included after its helpers): the response calls (collide2d/response.h),
 * c2d_slide_move, and (fuzz_friction) friction, spin and moving capsules.
 *
 * The scene's circles as bodies: positions x, y, velocities the moves, inverse masses the radii
 * and restitutions the capsule radii (so both take the fuzzer's special values: NaN, infinities,
 * negatives, subnormals, FLT_MIN). The contact lists are the reference's capsule contacts and
 * the contacts of neighbouring circles (c2d_collide_circles). Checked:
 * - the resolve calls equal a loop of c2d_apply_impulse, byte for byte;
 * - push-out never writes a NaN or infinite position from finite input, and moves no body
 *   whose inverse mass is 0;
 * - a bad index changes nothing and says C2D_ERROR_INDEX;
 * - the _ex calls equal a loop of c2d_apply_impulse_friction, byte for byte, with friction
 *   coefficients, spins, inverse inertias and capsule velocities taken from the scene's values
 *   (specials included); without friction and with capsules at rest they equal the plain
 *   calls; the friction impulse never exceeds mu jn; finite input stays finite. */

static bool finite_f(float v) {
    return v >= -FLT_MAX && v <= FLT_MAX;
}

/* Copies of the body arrays, so each call starts from the same state. */
typedef struct bodies_copy {
    float *x, *y, *vx, *vy, *inv, *e;
    size_t n;
} bodies_copy;

static void bodies_load(bodies_copy *b, const scene *s) {
    const size_t n = s->nc, bytes = (n + 1) * sizeof(float);
    b->n = n;
    float **arrays[] = {&b->x, &b->y, &b->vx, &b->vy, &b->inv, &b->e};
    for (size_t k = 0; k < 6; k++)
        if (!(*arrays[k] = malloc(bytes))) abort();
    if (n) {
        memcpy(b->x, s->x, n * sizeof(float));
        memcpy(b->y, s->y, n * sizeof(float));
        memcpy(b->vx, s->mx, n * sizeof(float));
        memcpy(b->vy, s->my, n * sizeof(float));
        memcpy(b->inv, s->r, n * sizeof(float));
        for (size_t i = 0; i < n; i++)
            b->e[i] = s->nk ? s->R[i % s->nk] : 0.5f;
    }
}

static void bodies_free(bodies_copy *b) {
    float *arrays[] = {b->x, b->y, b->vx, b->vy, b->inv, b->e};
    for (size_t k = 0; k < 6; k++)
        free(arrays[k]);
}

static c2d_body_soa soa_of(bodies_copy *b) {
    const c2d_body_soa soa = {b->x, b->y, b->vx, b->vy, b->inv, b->e, b->n};
    return soa;
}

/* c2d_slide_move on the sweeps' answers: after a hit at t = 0, the slid move has no part into
 * the hit's normal (exactly, the sweeps' own sign), so the same capsule does not stop it at
 * t = 0 again; a move that had no inward part comes back as it was. */
static void fuzz_slide(const scene *s, const reference *ref) {
    for (size_t i = 0; i < s->nc; i++) {
        const c2d_circle_toi *h = &ref->sweep[i];
        if (h->capsule == C2D_NONE || h->toi.t != 0.0f) continue;
        const c2d_vec2 m = {s->mx[i], s->my[i]}, n = h->toi.normal;
        const c2d_vec2 slid = c2d_slide_move(m, n);
        if (!finite_f(m.x) || !finite_f(m.y)) continue;
        const double left = (double)slid.x * n.x + (double)slid.y * n.y;
        if (!(left >= 0.0)) {
            fprintf(stderr, "m (%a,%a) n (%a,%a) slid (%a,%a) left %a\n", (double)m.x, (double)m.y,
                    (double)n.x, (double)n.y, (double)slid.x, (double)slid.y, left);
            fail("c2d_slide_move", "an inward part is left");
        }
        const uint32_t k = h->capsule;
        const c2d_capsule cap = {{s->ax[k], s->ay[k]}, {s->bx[k], s->by[k]}, s->R[k]};
        const c2d_circle c = {{s->x[i], s->y[i]}, s->r[i]};
        c2d_toi again;
        if (c2d_sweep_circle_capsule(c, slid, cap, &again) && again.t == 0.0f)
            fail("c2d_slide_move", "the slid move is stopped at t = 0 again");
        const c2d_vec2 out = c2d_slide_move(slid, n);
        if (!same_vec(out, slid)) fail("c2d_slide_move", "a move without an inward part changed");
    }
}

/* Friction, spin and moving capsules: c2d_resolve_*_contacts_ex against a loop of
 * c2d_apply_impulse_friction. The friction coefficients are the radii, the angular velocities
 * the y moves, the inverse inertias the x moves' magnitudes and the lever arms the radii; the
 * capsules move at (ax, ay) and turn at R about (bx, by). */
static void fuzz_friction(const scene *s, const c2d_circle_pair_contact *balls, size_t nb,
                          const reference *ref) {
    const size_t n = s->nc, nk = s->nk, bytes = (n + 1) * sizeof(float);
    float *w_got = malloc(bytes), *w_want = malloc(bytes), *inertia = malloc(bytes);
    float *jt = malloc((ref->total + nb + 1) * sizeof(float));
    if (!w_got || !w_want || !inertia || !jt) abort();
    for (size_t i = 0; i < n; i++) {
        w_got[i] = w_want[i] = s->my[i];
        inertia[i] = fabsf(s->mx[i]);
    }
    bodies_copy got, want;
    bodies_load(&got, s);
    bodies_load(&want, s);
    c2d_body_soa gs = soa_of(&got);
    const c2d_body_friction_soa spin = {s->r, w_got, inertia, s->r};
    if (c2d_resolve_circle_contacts_ex(&gs, &spin, balls, nb, NULL, jt) != C2D_OK)
        fail("resolve circles ex", "status");
    for (size_t k = 0; k < nb; k++) {
        const uint32_t a = balls[k].a, b = balls[k].b;
        c2d_body A = {{want.vx[a], want.vy[a]}, want.inv[a], want.e[a]};
        c2d_body B = {{want.vx[b], want.vy[b]}, want.inv[b], want.e[b]};
        c2d_body_friction FA = {s->r[a], w_want[a], inertia[a], s->r[a]};
        c2d_body_friction FB = {s->r[b], w_want[b], inertia[b], s->r[b]};
        float t;
        const float j = c2d_apply_impulse_friction(&A, &FA, &B, &FB, balls[k].contact.normal, &t);
        if (!same_float(t, jt[k])) fail("resolve circles ex", "tangent impulse differs");
        /* Coulomb: |jt| <= mu jn */
        if (!(fabsf(t) <= sqrtf(FA.friction * FB.friction) * j) && t != 0.0f)
            fail("apply_impulse_friction", "|jt| > mu jn");
        want.vx[a] = A.velocity.x, want.vy[a] = A.velocity.y, w_want[a] = FA.angular_velocity;
        want.vx[b] = B.velocity.x, want.vy[b] = B.velocity.y, w_want[b] = FB.angular_velocity;
    }
    /* moving, turning capsules with friction */
    const c2d_capsule_bodies caps = {s->R, s->R, s->ax, s->ay, s->R, s->bx, s->by, nk};
    if (c2d_resolve_capsule_contacts_ex(&gs, &spin, ref->collide, ref->total, &caps, NULL, jt) !=
        C2D_OK)
        fail("resolve capsules ex", "status");
    for (size_t k = 0; k < ref->total; k++) {
        const uint32_t i = ref->collide[k].circle, c = ref->collide[k].capsule;
        const c2d_vec2 p = ref->collide[k].contact.point;
        c2d_body A = {{want.vx[i], want.vy[i]}, want.inv[i], want.e[i]};
        c2d_body K = {
            {s->ax[c] - s->R[c] * (p.y - s->by[c]), s->ay[c] + s->R[c] * (p.x - s->bx[c])},
            0.0f,
            s->R[c]};
        c2d_body_friction FA = {s->r[i], w_want[i], inertia[i], s->r[i]};
        c2d_body_friction FK = {s->R[c], 0.0f, 0.0f, 0.0f};
        float t;
        c2d_apply_impulse_friction(&A, &FA, &K, &FK, ref->collide[k].contact.normal, &t);
        if (!same_float(t, jt[k])) fail("resolve capsules ex", "tangent impulse differs");
        want.vx[i] = A.velocity.x, want.vy[i] = A.velocity.y, w_want[i] = FA.angular_velocity;
    }
    if (n &&
        (memcmp(got.vx, want.vx, n * sizeof(float)) || memcmp(got.vy, want.vy, n * sizeof(float)) ||
         memcmp(w_got, w_want, n * sizeof(float))))
        fail("resolve ex", "differs from a loop of c2d_apply_impulse_friction");
    for (size_t i = 0; i < n; i++) {
        const bool was_finite = finite_f(s->mx[i]) && finite_f(s->my[i]);
        if (was_finite && !(finite_f(got.vx[i]) && finite_f(got.vy[i]) && finite_f(w_got[i])))
            fail("resolve ex", "a finite velocity became NaN or infinite");
    }
    /* without friction and at rest: the plain calls' bytes */
    bodies_copy plain, ex;
    bodies_load(&plain, s);
    bodies_load(&ex, s);
    c2d_body_soa ps = soa_of(&plain), es = soa_of(&ex);
    const c2d_capsule_bodies still = {
        nk ? s->R : NULL, nk ? s->ay : NULL, NULL, NULL, NULL, NULL, NULL, nk};
    if (c2d_resolve_circle_contacts(&ps, balls, nb, NULL) != C2D_OK ||
        c2d_resolve_capsule_contacts(&ps, ref->collide, ref->total, nk ? s->R : NULL, nk, NULL) !=
            C2D_OK ||
        c2d_resolve_circle_contacts_ex(&es, NULL, balls, nb, NULL, NULL) != C2D_OK ||
        c2d_resolve_capsule_contacts_ex(&es, NULL, ref->collide, ref->total, &still, NULL, NULL) !=
            C2D_OK)
        fail("resolve ex without friction", "status");
    if (n &&
        (memcmp(plain.vx, ex.vx, n * sizeof(float)) || memcmp(plain.vy, ex.vy, n * sizeof(float))))
        fail("resolve ex without friction", "differs from the plain calls");
    bodies_free(&plain);
    bodies_free(&ex);
    bodies_free(&got);
    bodies_free(&want);
    free(w_got);
    free(w_want);
    free(inertia);
    free(jt);
}

static void fuzz_response(const scene *s, const reference *ref) {
    fuzz_slide(s, ref);
    const size_t n = s->nc;
    /* ball contacts between neighbours (a < b) */
    c2d_circle_pair_contact *balls = malloc((n + 1) * sizeof *balls);
    if (!balls) abort();
    size_t nb = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        c2d_contact c;
        const c2d_circle a = {{s->x[i], s->y[i]}, s->r[i]},
                         b = {{s->x[i + 1], s->y[i + 1]}, s->r[i + 1]};
        if (c2d_collide_circles(a, b, &c)) {
            balls[nb].a = (uint32_t)i;
            balls[nb].b = (uint32_t)(i + 1);
            balls[nb++].contact = c;
        }
    }
    bodies_copy got, want;
    bodies_load(&got, s);
    bodies_load(&want, s);
    c2d_body_soa gs = soa_of(&got);
    /* resolve: ball pairs, then capsules; the same as c2d_apply_impulse in order */
    if (c2d_resolve_circle_contacts(&gs, balls, nb, NULL) != C2D_OK)
        fail("resolve circles", "status");
    for (size_t k = 0; k < nb; k++) {
        const uint32_t a = balls[k].a, b = balls[k].b;
        c2d_body A = {{want.vx[a], want.vy[a]}, want.inv[a], want.e[a]};
        c2d_body B = {{want.vx[b], want.vy[b]}, want.inv[b], want.e[b]};
        c2d_apply_impulse(&A, &B, balls[k].contact.normal);
        want.vx[a] = A.velocity.x, want.vy[a] = A.velocity.y;
        want.vx[b] = B.velocity.x, want.vy[b] = B.velocity.y;
    }
    const float *cap_e = s->nk ? s->R : NULL;
    if (c2d_resolve_capsule_contacts(&gs, ref->collide, ref->total, cap_e, s->nk, NULL) != C2D_OK)
        fail("resolve capsules", "status");
    for (size_t k = 0; k < ref->total; k++) {
        const uint32_t i = ref->collide[k].circle;
        c2d_body A = {{want.vx[i], want.vy[i]}, want.inv[i], want.e[i]};
        c2d_body K = {{0.0f, 0.0f}, 0.0f, s->R[ref->collide[k].capsule]};
        c2d_apply_impulse(&A, &K, ref->collide[k].contact.normal);
        want.vx[i] = A.velocity.x, want.vy[i] = A.velocity.y;
    }
    if (n &&
        (memcmp(got.vx, want.vx, n * sizeof(float)) || memcmp(got.vy, want.vy, n * sizeof(float))))
        fail("resolve", "differs from a loop of c2d_apply_impulse");
    /* push-out: finite stays finite, static stays put */
    if (c2d_push_out_circle_contacts(&gs, balls, nb) != C2D_OK ||
        c2d_push_out_capsule_contacts(&gs, ref->collide, ref->total) != C2D_OK)
        fail("push-out", "status");
    for (size_t i = 0; i < n; i++) {
        const bool was_finite = finite_f(s->x[i]) && finite_f(s->y[i]);
        if (was_finite && !(finite_f(got.x[i]) && finite_f(got.y[i])))
            fail("push-out", "a finite position became NaN or infinite");
        if (s->r[i] == 0.0f && (!same_float(got.x[i], s->x[i]) || !same_float(got.y[i], s->y[i])))
            fail("push-out", "moved a static body");
    }
    fuzz_friction(s, balls, nb, ref);
    /* a bad index: nothing changes */
    if (nb > 0) {
        bodies_copy before;
        bodies_load(&before, s);
        c2d_body_soa bs = soa_of(&before);
        const uint32_t keep = balls[nb - 1].b;
        balls[nb - 1].b = (uint32_t)n;
        if (c2d_resolve_circle_contacts(&bs, balls, nb, NULL) != C2D_ERROR_INDEX ||
            c2d_push_out_circle_contacts(&bs, balls, nb) != C2D_ERROR_INDEX)
            fail("response", "a bad index was not reported");
        balls[nb - 1].b = keep;
        if (memcmp(before.vx, s->mx, n * sizeof(float)) ||
            memcmp(before.x, s->x, n * sizeof(float)))
            fail("response", "a bad index changed a body");
        bodies_free(&before);
    }
    bodies_free(&got);
    bodies_free(&want);
    free(balls);
}
