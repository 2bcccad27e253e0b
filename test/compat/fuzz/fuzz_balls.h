/* Part of fuzz_batch.c (included after its helpers): balls against balls.
 *
 * The scene's circles and moves as one ball set: c2d_batch_collide_circles,
 * c2d_scene_collide_circles (a scene of zero capsules), c2d_batch_sweep_circles and
 * c2d_scene_sweep_circles on every backend against loops over c2d_collide_circles and
 * c2d_sweep_circles, byte for byte, with the capacities of check_collide and a canary after
 * every output. */

static bool same_ball_pair(const c2d_circle_pair_contact *a, const c2d_circle_pair_contact *b) {
    return a->a == b->a && a->b == b->b && same_contact(&a->contact, &b->contact);
}

static bool same_ball_hit(const c2d_circle_hit *a, const c2d_circle_hit *b) {
    return a->other == b->other && same_toi(&a->toi, &b->toi);
}

/* Whether balls i and j of the set meet (collide2d/filter.h; NULL words: every layer). */
static bool ball_words_meet(const c2d_circle_soa *cs, size_t i, size_t j) {
    const uint32_t all = C2D_FILTER_ALL;
    return c2d_filter_allows(cs->category ? cs->category[i] : all, cs->mask ? cs->mask[i] : all,
                             cs->category ? cs->category[j] : all, cs->mask ? cs->mask[j] : all);
}

/* One collide call, batch (scene NULL) or scene, against the reference. */
static void check_ball_collide(const scene *s, c2d_scene *sc, const c2d_circle_soa *cs,
                               const c2d_circle_pair_contact *want, size_t total,
                               const char *backend) {
    bool null_out;
    const size_t cap = choose_capacity(s->pairs_capacity_mode, s->capacity_byte, total, &null_out);
    c2d_circle_pair_contact *out = null_out ? NULL : malloc((cap + CANARY) * sizeof *out);
    if (!null_out && !out) abort();
    if (out) memset(out, CANARY_BYTE, (cap + CANARY) * sizeof *out);
    size_t count = 12345;
    const c2d_status st = sc ? c2d_scene_collide_circles(sc, cs, out, cap, &count)
                             : c2d_batch_collide_circles(cs, out, cap, &count);
    const c2d_status want_st = total > cap && out ? C2D_ERROR_TRUNCATED : C2D_OK;
    if (st != want_st || count != total) {
        fprintf(stderr, "  status %d (want %d), count %zu (want %zu), capacity %zu\n", (int)st,
                (int)want_st, count, total, cap);
        fail(sc ? "scene_collide_circles: status or count"
                : "batch_collide_circles: status or count",
             backend);
    }
    const size_t written = out ? (total < cap ? total : cap) : 0;
    for (size_t n = 0; n < written; n++)
        if (!same_ball_pair(&out[n], &want[n])) {
            fprintf(stderr, "  pair %zu: got (%u, %u), want (%u, %u)\n", n, out[n].a, out[n].b,
                    want[n].a, want[n].b);
            print_circle(s, want[n].a);
            print_circle(s, want[n].b);
            fail(sc ? "scene_collide_circles: differs from the scalar loop"
                    : "batch_collide_circles: differs from the scalar loop",
                 backend);
        }
    if (out && !untouched(out + written, (cap + CANARY - written) * sizeof *out))
        fail("collide_circles: wrote past min(total, capacity)", backend);
    free(out);
}

static void check_ball_sweep(const scene *s, c2d_scene *sc, const c2d_circle_soa *cs,
                             const c2d_circle_hit *want, const char *backend) {
    c2d_circle_hit *out = malloc((s->nc + CANARY) * sizeof *out);
    if (!out) abort();
    memset(out, CANARY_BYTE, (s->nc + CANARY) * sizeof *out);
    const c2d_status st = sc ? c2d_scene_sweep_circles(sc, cs, s->mx, s->my, out)
                             : c2d_batch_sweep_circles(cs, s->mx, s->my, out);
    if (st != C2D_OK) fail("sweep_circles: status", backend);
    for (size_t i = 0; i < s->nc; i++)
        if (!same_ball_hit(&out[i], &want[i])) {
            fprintf(stderr, "  ball %zu: got other %u t %a, want other %u t %a\n", i, out[i].other,
                    out[i].toi.t, want[i].other, want[i].toi.t);
            print_circle(s, i);
            fail(sc ? "scene_sweep_circles: differs from the scalar loop"
                    : "batch_sweep_circles: differs from the scalar loop",
                 backend);
        }
    if (!untouched(out + s->nc, CANARY * sizeof *out))
        fail("sweep_circles: wrote past circles->count", backend);
    free(out);
}

static void fuzz_balls(const scene *s, const c2d_circle_soa *cs, const c2d_backend *list,
                       size_t n_list) {
    const size_t n = s->nc;
    c2d_circle_pair_contact *pairs = malloc((n * n / 2 + 1) * sizeof *pairs);
    c2d_circle_hit *hits = malloc((n + 1) * sizeof *hits);
    if (!pairs || !hits) abort();
    size_t total = 0;
    for (size_t a = 0; a < n; a++) {
        c2d_circle_hit best = {C2D_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
        for (size_t b = 0; b < n; b++) {
            c2d_contact c;
            if (!ball_words_meet(cs, a, b)) continue; /* refused: neither contact nor hit */
            if (b > a && c2d_collide_circles(circle_at(s, a), circle_at(s, b), &c)) {
                pairs[total].a = (uint32_t)a;
                pairs[total].b = (uint32_t)b;
                pairs[total++].contact = c;
            }
            c2d_toi t;
            const c2d_vec2 ma = {s->mx[a], s->my[a]}, mb = {s->mx[b], s->my[b]};
            if (b != a && c2d_sweep_circles(circle_at(s, a), ma, circle_at(s, b), mb, &t) &&
                (best.other == C2D_NONE || t.t < best.toi.t)) {
                best.other = (uint32_t)b;
                best.toi = t;
            }
        }
        hits[a] = best;
    }
    const c2d_capsule_soa none = {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    c2d_scene *sc;
    if (c2d_scene_create(&none, NULL, &sc) != C2D_OK) abort();
    for (size_t k = 0; k < n_list; k++) {
        if (c2d_backend_select(list[k]) != C2D_OK)
            fail("backend_select", c2d_backend_name(list[k]));
        const char *name = c2d_backend_name(list[k]);
        check_ball_collide(s, NULL, cs, pairs, total, name);
        check_ball_collide(s, sc, cs, pairs, total, name);
        check_ball_sweep(s, NULL, cs, hits, name);
        check_ball_sweep(s, sc, cs, hits, name);
    }
    c2d_scene_destroy(sc);
    free(pairs);
    free(hits);
}
