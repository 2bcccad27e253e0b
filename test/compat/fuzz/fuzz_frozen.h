/* Part of fuzz_batch.c (included after fuzz_balls.h): frozen balls.
 *
 * About a third of the scene's circles frozen into a scene of zero capsules (which ones
 * depends on the input), the rest awake: c2d_scene_collide_frozen_circles and
 * c2d_scene_sweep_frozen_circles on every backend against loops over c2d_collide_circles (in
 * the all-awake orientation: a < b are the ids) and c2d_sweep_circles (frozen balls still),
 * byte for byte, with a canary after every output. */

/* With filter words cat and mask (NULL: every layer) on the balls, awake and frozen alike;
 * the reference leaves out the pairs they refuse. */
static void fuzz_frozen_filtered(const scene *s, const uint32_t *cat, const uint32_t *mask,
                                 const c2d_backend *list, size_t n_list) {
    const size_t n = s->nc;
    bool *frozen = malloc(n + 1);
    uint32_t *fid = malloc((n + 1) * sizeof *fid), *aid = malloc((n + 1) * sizeof *aid);
    float *buf = malloc(10 * (n + 1) * sizeof *buf);
    uint32_t *words = malloc(4 * (n + 1) * sizeof *words); /* frozen, awake: cat, mask */
    c2d_circle_pair_contact *want = malloc((n * n / 2 + 1) * sizeof *want);
    c2d_circle_pair_contact *got = malloc((n * n / 2 + 1 + CANARY) * sizeof *got);
    c2d_circle_hit *hits = malloc((n + 1) * sizeof *hits);
    c2d_circle_hit *out = malloc((n + 1 + CANARY) * sizeof *out);
    if (!frozen || !fid || !aid || !buf || !words || !want || !got || !hits || !out) abort();
    uint32_t *fcat = words, *fmask = words + (n + 1);
    uint32_t *acat = words + 2 * (n + 1), *amask = words + 3 * (n + 1);
    const c2d_circle_soa all = {s->x, s->y, s->r, n, cat, mask};
    float *fx = buf, *fy = buf + (n + 1), *fr = buf + 2 * (n + 1);
    float *ax = buf + 3 * (n + 1), *ay = buf + 4 * (n + 1), *ar = buf + 5 * (n + 1);
    float *amx = buf + 6 * (n + 1), *amy = buf + 7 * (n + 1);
    size_t nf = 0, na = 0;
    for (size_t i = 0; i < n; i++) {
        frozen[i] = (i * 7 + s->capacity_byte) % 3 == 0;
        if (frozen[i]) {
            fx[nf] = s->x[i], fy[nf] = s->y[i], fr[nf] = s->r[i];
            fcat[nf] = cat ? cat[i] : 0, fmask[nf] = mask ? mask[i] : 0;
            fid[nf++] = (uint32_t)i;
        } else {
            ax[na] = s->x[i], ay[na] = s->y[i], ar[na] = s->r[i];
            amx[na] = s->mx[i], amy[na] = s->my[i];
            acat[na] = cat ? cat[i] : 0, amask[na] = mask ? mask[i] : 0;
            aid[na++] = (uint32_t)i;
        }
    }
    size_t total = 0;
    for (size_t k = 0; k < na; k++) {
        const uint32_t i = aid[k];
        c2d_circle_hit best = {C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
        for (size_t f = 0; f < nf; f++) { /* frozen ids increase with f */
            const uint32_t j = fid[f], a = i < j ? i : j, b = i < j ? j : i;
            if (!ball_words_meet(&all, i, j)) continue;
            c2d_contact c;
            if (c2d_collide_circles(circle_at(s, a), circle_at(s, b), &c)) {
                want[total].a = a;
                want[total].b = b;
                want[total++].contact = c;
            }
            c2d_toi t;
            const c2d_vec2 mi = {s->mx[i], s->my[i]}, still = {0.0f, 0.0f};
            if (c2d_sweep_circles(circle_at(s, i), mi, circle_at(s, j), still, &t) &&
                (best.other == C2D_NONE || t.t < best.toi.t)) {
                best.other = j;
                best.toi = t;
            }
        }
        hits[k] = best;
    }
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *sc;
    if (c2d_scene_create(&none, NULL, &sc) != C2D_OK) abort();
    const c2d_circle_soa fs = {fx, fy, fr, nf, cat ? fcat : NULL, mask ? fmask : NULL};
    const c2d_circle_soa as = {ax, ay, ar, na, cat ? acat : NULL, mask ? amask : NULL};
    if (c2d_scene_freeze_circles(sc, &fs, fid) != C2D_OK) fail("freeze_circles", "any");
    for (size_t k = 0; k < n_list; k++) {
        if (c2d_backend_select(list[k]) != C2D_OK)
            fail("backend_select", c2d_backend_name(list[k]));
        const char *name = c2d_backend_name(list[k]);
        memset(got, CANARY_BYTE, (total + CANARY) * sizeof *got);
        size_t count = 12345;
        if (c2d_scene_collide_frozen_circles(sc, &as, aid, got, total, &count) != C2D_OK ||
            count != total)
            fail("collide_frozen_circles: status or count", name);
        for (size_t p = 0; p < total; p++)
            if (!same_ball_pair(&got[p], &want[p])) {
                fprintf(stderr, "  pair %zu: got (%u, %u), want (%u, %u)\n", p, got[p].a, got[p].b,
                        want[p].a, want[p].b);
                fail("collide_frozen_circles: differs from the scalar loop", name);
            }
        if (!untouched(got + total, CANARY * sizeof *got))
            fail("collide_frozen_circles: wrote past the total", name);
        memset(out, CANARY_BYTE, (na + CANARY) * sizeof *out);
        if (c2d_scene_sweep_frozen_circles(sc, &as, aid, amx, amy, out) != C2D_OK)
            fail("sweep_frozen_circles: status", name);
        for (size_t a = 0; a < na; a++)
            if (!same_ball_hit(&out[a], &hits[a])) {
                fprintf(stderr, "  ball %u: got other %u, want other %u\n", aid[a], out[a].other,
                        hits[a].other);
                fail("sweep_frozen_circles: differs from the scalar loop", name);
            }
        if (!untouched(out + na, CANARY * sizeof *out))
            fail("sweep_frozen_circles: wrote past circles->count", name);
    }
    c2d_scene_destroy(sc);
    free(frozen);
    free(fid);
    free(aid);
    free(buf);
    free(words);
    free(want);
    free(got);
    free(hits);
    free(out);
}

static void fuzz_frozen(const scene *s, const c2d_backend *list, size_t n_list) {
    fuzz_frozen_filtered(s, NULL, NULL, list, n_list);
}
