/* Part of fuzz_batch.c (included after its helpers): c2d_scene_advance (collide2d/scene.h).
 *
 * Each ball advances by t of its move, t its earliest hit's time over the scene's capsules (1
 * for no hit, as the README loop does) or a fuzzed fraction. Checked, on every backend:
 * - the rule of the header: for every capsule with finite values and every ball with a finite
 *   centre, radius and move, the distance from the new centre to the capsule's axis (double,
 *   from the floats) is at least min(its distance at the start, r + R); balls with a value that
 *   is not finite stay where they are;
 * - the same bytes on every backend, before and after a sweep has built the sweep index the
 *   advance may read, and t NULL equals t all 1;
 * - in place (out = the circles' own arrays) equals a separate output;
 * - nothing written past circles->count. */

/* The header's distance from (px, py) to the axis a-b, in double. */
static double advance_distance(float px, float py, float ax, float ay, float bx, float by) {
    const double dx = (double)bx - ax, dy = (double)by - ay;
    const double wx = (double)px - ax, wy = (double)py - ay;
    const double dd = dx * dx + dy * dy;
    double u = dd > 0.0 ? (wx * dx + wy * dy) / dd : 0.0;
    u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
    const double ex = wx - u * dx, ey = wy - u * dy;
    return sqrt(ex * ex + ey * ey);
}

static bool advance_finite(float v) {
    return isfinite(v);
}

static void advance_rule(const scene *s, const float *ox, const float *oy, const char *name) {
    for (size_t i = 0; i < s->nc; i++) {
        const float x = s->x[i], y = s->y[i], r = s->r[i];
        if (!(advance_finite(x) && advance_finite(y) && advance_finite(r) &&
              advance_finite(s->mx[i]) && advance_finite(s->my[i]))) {
            if (memcmp(&ox[i], &x, sizeof x) || memcmp(&oy[i], &y, sizeof y))
                fail("scene_advance: a ball that is not finite moved", name);
            continue;
        }
        for (size_t k = 0; k < s->nk; k++) {
            const float ax = s->ax[k], ay = s->ay[k], bx = s->bx[k], by = s->by[k], R = s->R[k];
            if (!(advance_finite(ax) && advance_finite(ay) && advance_finite(bx) &&
                  advance_finite(by) && advance_finite(R)))
                continue;
            const double touch = (double)r + (double)R;
            const double d0 = advance_distance(x, y, ax, ay, bx, by);
            const double d1 = advance_distance(ox[i], oy[i], ax, ay, bx, by);
            const double floor = d0 < touch ? d0 : touch;
            if (d1 < floor) {
                pair_scene = s, pair_circle = i, pair_capsule = k;
                fail("scene_advance: closer to an axis than min(start, r + R)", name);
            }
        }
    }
}

static void fuzz_advance(const scene *s, const c2d_circle_soa *cs, const c2d_capsule_soa *ks,
                         const c2d_backend *backends, size_t n_backends) {
    if (cs->category || cs->mask || ks->category || ks->mask || ks->sensor)
        return; /* the filter's part is test/scene/test_advance.c's */
    const size_t nc = s->nc;
    if (nc == 0) return; /* no ball: the statuses of empty sets are bad_input's */
    float *t = malloc((nc + 1) * sizeof(float));
    float *want_x = malloc((nc + 1) * sizeof(float)), *want_y = malloc((nc + 1) * sizeof(float));
    float *got_x = malloc((nc + CANARY) * sizeof(float));
    float *got_y = malloc((nc + CANARY) * sizeof(float));
    float *px = malloc((nc + 1) * sizeof(float)), *py = malloc((nc + 1) * sizeof(float));
    c2d_circle_toi *hits = malloc((nc + 1) * sizeof *hits);
    if (!t || !want_x || !want_y || !got_x || !got_y || !px || !py || !hits) abort();
    const c2d_move_soa moves = {.x = s->mx, .y = s->my};
    c2d_scene *sc;
    if (c2d_scene_create(ks, NULL, &sc) != C2D_OK) fail("scene_create", "advance");
    for (size_t b = 0; b < n_backends; b++) {
        if (c2d_backend_select(backends[b]) != C2D_OK) fail("backend_select", "advance");
        const char *name = c2d_backend_name(backends[b]);
        for (int round = 0; round < 3; round++) {
            /* round 0: t from the fuzzed radii (any float, NaN included), no sweep index;
             * round 1: t NULL against all ones; round 2: the sweep's hits, index built */
            if (round == 2 &&
                c2d_scene_sweep(sc, cs, nc ? s->mx : NULL, nc ? s->my : NULL, hits) != C2D_OK)
                fail("scene_sweep", "advance");
            for (size_t i = 0; i < nc; i++)
                t[i] = round == 0   ? s->r[(i + 1) % nc]
                       : round == 1 ? 1.0f
                                    : (hits[i].capsule == C2D_NONE ? 1.0f : hits[i].toi.t);
            memset(got_x, CANARY_BYTE, (nc + CANARY) * sizeof(float));
            memset(got_y, CANARY_BYTE, (nc + CANARY) * sizeof(float));
            if (c2d_scene_advance(sc, cs, &moves, t, got_x, got_y) != C2D_OK)
                fail("scene_advance", name);
            if (!untouched(got_x + nc, CANARY * sizeof(float)) ||
                !untouched(got_y + nc, CANARY * sizeof(float)))
                fail("scene_advance: wrote past the count", name);
            advance_rule(s, got_x, got_y, name);
            if (round == 1) {
                float *nx = malloc((nc + 1) * sizeof(float)),
                      *ny = malloc((nc + 1) * sizeof(float));
                if (!nx || !ny) abort();
                if (c2d_scene_advance(sc, cs, &moves, NULL, nx, ny) != C2D_OK ||
                    memcmp(nx, got_x, nc * sizeof(float)) || memcmp(ny, got_y, nc * sizeof(float)))
                    fail("scene_advance: t NULL is not t all 1", name);
                free(nx);
                free(ny);
            }
            /* in place: a copy of the centres advanced into themselves */
            memcpy(px, s->x, nc * sizeof(float));
            memcpy(py, s->y, nc * sizeof(float));
            c2d_circle_soa own = *cs;
            own.x = px, own.y = py;
            if (c2d_scene_advance(sc, &own, &moves, t, px, py) != C2D_OK ||
                memcmp(px, got_x, nc * sizeof(float)) || memcmp(py, got_y, nc * sizeof(float)))
                fail("scene_advance: in place differs", name);
            if (b == 0 && round == 2) {
                memcpy(want_x, got_x, nc * sizeof(float));
                memcpy(want_y, got_y, nc * sizeof(float));
            } else if (round == 2 && (memcmp(want_x, got_x, nc * sizeof(float)) ||
                                      memcmp(want_y, got_y, nc * sizeof(float)))) {
                fail("scene_advance: backends differ", name);
            }
        }
    }
    c2d_scene_destroy(sc);
    free(t), free(want_x), free(want_y), free(got_x), free(got_y), free(px), free(py), free(hits);
}
