/* Part of fuzz_batch.c (included after fuzz_search.h and fuzz_filter_scene.h, whose filter
 * words and filtered references it uses): collision filters and sensors in the batch and search
 * calls (collide2d/filter.h).
 *
 * The filter words come from the scene's values (fuzz_filter_word(), with salts of their own),
 * so the fuzzer steers them: no layer, every layer, or some of three layers; some capsules are
 * sensors; a mode taken from the scene's sizes and capacity byte leaves each array NULL or
 * not. The rays, boxes, discs and points of fuzz_search.h carry the circles' words.
 * The references are fuzz_batch.c's per-pair scalar results (and the scalar ray and region
 * loops) over the pairs the rule allows. Checked on every backend:
 * - c2d_batch_collide and c2d_batch_collide_pairs with the capacity modes of the collide
 *   checks, on the filtered total;
 * - c2d_batch_sweep and c2d_batch_sweep_moving_capsules: the earliest allowed hit (sensors
 *   skipped);
 * - c2d_batch_ray_cast (both sets) and c2d_scene_ray_cast: the earliest allowed hit;
 * - the region queries, batch and scene (two backends: they use no kernel), with the capacity
 *   modes: the unfiltered pairs less the refused ones, sensors seen. */

static uint32_t fbatch_at(const uint32_t *a, unsigned mode, unsigned bit, size_t i) {
    return mode & bit ? a[i] : C2D_FILTER_ALL;
}

/* Query (or ray) i, with the circles' words, and shape k of the circles or capsules meet in a
 * region query or ray cast (the rule only: sensors are handled by the caller). */
static bool fbatch_allows(const filter_words *f, size_t i, size_t k, bool circles) {
    return c2d_filter_allows(
        fbatch_at(f->cc, f->mode, 1, i), fbatch_at(f->cm, f->mode, 2, i),
        circles ? fbatch_at(f->cc, f->mode, 1, k) : fbatch_at(f->kc, f->mode, 4, k),
        circles ? fbatch_at(f->cm, f->mode, 2, k) : fbatch_at(f->km, f->mode, 8, k));
}

/* A contact call with a capacity mode against the expected contacts. */
static void fbatch_check_contacts(const scene *s, uint8_t mode, const c2d_pair_contact *want,
                                  size_t total, const c2d_circle_soa *cs, const c2d_capsule_soa *ks,
                                  bool pairs, const char *backend) {
    bool null_out;
    const size_t cap = choose_capacity(mode, s->capacity_byte, total, &null_out);
    c2d_pair_contact *out = malloc((cap + CANARY) * sizeof *out);
    if (!out) abort();
    memset(out, CANARY_BYTE, (cap + CANARY) * sizeof *out);
    size_t count = 12345;
    c2d_pair_contact *o = null_out ? NULL : out;
    const c2d_status st = pairs
                              ? c2d_batch_collide_pairs(cs, ks, s->ci, s->ki, s->np, o, cap, &count)
                              : c2d_batch_collide(cs, ks, o, cap, &count);
    const c2d_status expect = total > cap && !null_out ? C2D_ERROR_TRUNCATED : C2D_OK;
    if (st != expect || count != total) {
        fprintf(stderr, "  status %d (want %d), count %zu (want %zu), capacity %zu\n", (int)st,
                (int)expect, count, total, cap);
        fail(pairs ? "filtered pairs: status or count" : "filtered collide: status or count",
             backend);
    }
    const size_t written = null_out ? 0 : total < cap ? total : cap;
    for (size_t n = 0; n < written; n++)
        if (!same_pair(&out[n], &want[n])) {
            print_pair("got", &out[n]);
            print_pair("want", &want[n]);
            fail(pairs ? "filtered pairs: differ" : "filtered collide: differs", backend);
        }
    if (!untouched(out + written, (cap + CANARY - written) * sizeof *out))
        fail("filtered contacts: wrote past min(total, capacity)", backend);
    free(out);
}

static void fuzz_filter_batch(const scene *s, const c2d_circle_soa *cs0, const c2d_capsule_soa *ks0,
                              const reference *ref, const c2d_backend *list, size_t n_list) {
    const size_t nc = s->nc, nk = s->nk;
    filter_words f;
    f.cc = malloc((nc + 1) * sizeof(uint32_t)), f.cm = malloc((nc + 1) * sizeof(uint32_t));
    f.kc = malloc((nk + 1) * sizeof(uint32_t)), f.km = malloc((nk + 1) * sizeof(uint32_t));
    f.sensor = malloc(nk + 1);
    float *kmx = malloc((nk + 1) * sizeof(float)), *kmy = malloc((nk + 1) * sizeof(float));
    const size_t most = nc * (nk > nc ? nk : nc) + s->np + 1;
    c2d_pair_contact *want = malloc(most * sizeof *want);
    c2d_circle_toi *twant = malloc((nc + 1) * sizeof *twant);
    c2d_circle_toi *tgot = malloc((nc + CANARY) * sizeof *tgot);
    c2d_ray_hit *rwant = malloc((nc + 1) * sizeof *rwant);
    c2d_ray_hit *rgot = malloc((nc + CANARY) * sizeof *rgot);
    c2d_query_pair *qwant = malloc(most * sizeof *qwant);
    if (!f.cc || !f.cm || !f.kc || !f.km || !f.sensor || !kmx || !kmy || !want || !twant || !tgot ||
        !rwant || !rgot || !qwant)
        abort();
    f.mode = (unsigned)(nc * 7 + nk * 3 + s->capacity_byte) % 32;
    if (f.mode == 0) f.mode = 31;
    for (size_t i = 0; i < nc; i++) {
        f.cc[i] = fuzz_filter_word(s->x[i], i, 0x11u);
        f.cm[i] = fuzz_filter_word(s->y[i], i, 0x22u);
    }
    for (size_t k = 0; k < nk; k++) {
        f.kc[k] = fuzz_filter_word(s->ax[k], k, 0x33u);
        f.km[k] = fuzz_filter_word(s->by[k], k, 0x44u);
        f.sensor[k] = (uint8_t)(fuzz_filter_word(s->R[k], k, 0x55u) % 8 == 3);
        kmx[k] = k % 2 && nc > 0 ? s->mx[k % nc] : s->bx[k] - s->ax[k];
        kmy[k] = k % 2 && nc > 0 ? s->my[k % nc] : s->ay[k];
    }
    const c2d_circle_soa cs = filtered_circles(cs0, &f);
    const c2d_capsule_soa ks = filtered_capsules(ks0, &f);

    /* references: contacts, listed pairs, sweeps */
    const size_t total = filtered_collide(s, ref, &f, want);
    size_t ptotal = 0;
    c2d_pair_contact *pwant = want + total;
    if (ref->pairs_in_range)
        for (size_t p = 0; p < s->np; p++) {
            const size_t at = (size_t)s->ki[p] * nc + s->ci[p];
            if (ref->hit[at] && fuzz_meets(&f, s->ci[p], s->ki[p]))
                pwant[ptotal++] = (c2d_pair_contact){s->ci[p], s->ki[p], ref->contact[at]};
        }
    c2d_scene *sc;
    if (c2d_scene_create(&ks, NULL, &sc) != C2D_OK) fail("scene_create", "filter batch");
    const c2d_ray_soa rays = {s->x, s->y, s->mx, s->my, nc, cs.category, cs.mask};
    for (size_t i = 0; i < nc; i++) { /* the rays: allowed capsules, then allowed circles */
        c2d_ray_hit h = {C2D_NONE, C2D_SHAPE_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
        const c2d_vec2 o = {s->x[i], s->y[i]}, d = {s->mx[i], s->my[i]};
        c2d_toi toi;
        for (size_t k = 0; k < nk; k++)
            if (fuzz_meets(&f, i, k) && c2d_ray_capsule(o, d, capsule_at(s, k), &toi) &&
                (h.kind == C2D_SHAPE_NONE || toi.t < h.toi.t))
                h = (c2d_ray_hit){(uint32_t)k, C2D_SHAPE_CAPSULE, toi};
        for (size_t k = 0; k < nc; k++)
            if (fbatch_allows(&f, i, k, true) && c2d_ray_circle(o, d, circle_at(s, k), &toi) &&
                (h.kind == C2D_SHAPE_NONE || toi.t < h.toi.t))
                h = (c2d_ray_hit){(uint32_t)k, C2D_SHAPE_CIRCLE, toi};
        rwant[i] = h;
    }
    /* the region queries of fuzz_search.h, with the circles' words */
    fuzz_regions q;
    q.hx = malloc((nc + 1) * sizeof(float)), q.hy = malloc((nc + 1) * sizeof(float));
    if (!q.hx || !q.hy) abort();
    for (size_t i = 0; i < nc; i++) {
        q.hx[i] = i % 3 == 0 ? s->mx[i] : s->x[i] + fabsf(s->r[i]);
        q.hy[i] = i % 3 == 0 ? s->my[i] : s->y[i] + fabsf(s->r[i]);
    }
    q.boxes = (c2d_box_soa){s->x, s->y, q.hx, q.hy, nc, cs.category, cs.mask};
    q.discs = cs;
    q.points = (c2d_point_soa){s->x, s->y, nc, cs.category, cs.mask};

    for (size_t b = 0; b < n_list; b++) {
        if (c2d_backend_select(list[b]) != C2D_OK) fail("backend_select", "filter batch");
        const char *name = c2d_backend_name(list[b]);
        fbatch_check_contacts(s, s->collide_capacity_mode, want, total, &cs, &ks, false, name);
        if (ref->pairs_in_range)
            fbatch_check_contacts(s, s->pairs_capacity_mode, pwant, ptotal, &cs, &ks, true, name);
        for (int moving = 0; moving < 2; moving++) {
            filtered_sweep(s, ref, &f, moving ? kmx : NULL, moving ? kmy : NULL, twant);
            memset(tgot, CANARY_BYTE, (nc + CANARY) * sizeof *tgot);
            const c2d_status st =
                moving ? c2d_batch_sweep_moving_capsules(&cs, s->mx, s->my, &ks, kmx, kmy, tgot)
                       : c2d_batch_sweep(&cs, s->mx, s->my, &ks, tgot);
            if (st != C2D_OK) fail("filtered sweep: status", name);
            for (size_t i = 0; i < nc; i++)
                if (!same_circle_toi(&tgot[i], &twant[i])) {
                    print_circle(s, i);
                    fail(moving ? "filtered moving sweep: differs" : "filtered sweep: differs",
                         name);
                }
            if (!untouched(tgot + nc, CANARY * sizeof *tgot))
                fail("filtered sweep: wrote past circles->count", name);
        }
        for (int scene_call = 0; scene_call < 2; scene_call++) {
            memset(rgot, CANARY_BYTE, (nc + CANARY) * sizeof *rgot);
            const c2d_status st = scene_call ? c2d_scene_ray_cast(sc, &rays, &cs, rgot)
                                             : c2d_batch_ray_cast(&rays, &ks, &cs, rgot);
            if (st != C2D_OK) fail("filtered ray_cast: status", name);
            for (size_t i = 0; i < nc; i++)
                if (!same_ray_hit(&rgot[i], &rwant[i])) {
                    fprintf(stderr, "ray %zu (scene %d): got %u/%u t %a, want %u/%u t %a\n", i,
                            scene_call, rgot[i].shape, rgot[i].kind, (double)rgot[i].toi.t,
                            rwant[i].shape, rwant[i].kind, (double)rwant[i].toi.t);
                    fail("filtered ray_cast: differs from the scalar loop", name);
                }
            if (!untouched(rgot + nc, CANARY * sizeof *rgot))
                fail("filtered ray_cast: wrote past rays->count", name);
        }
        if (b != 0 && b + 1 != n_list) continue; /* region queries use no kernel */
        for (int kind = 0; kind < 6; kind++) {
            const bool circles = kind % 2 == 1;
            size_t qtotal = 0;
            for (size_t i = 0; i < nc; i++)
                for (size_t k = 0; k < (circles ? nc : nk); k++)
                    if (fbatch_allows(&f, i, k, circles) && ref_region(&q, kind, i, s, k))
                        qwant[qtotal++] = (c2d_query_pair){(uint32_t)i, (uint32_t)k};
            for (int scene_call = 0; scene_call < 1 + !circles; scene_call++) {
                bool null_out;
                const size_t cap = choose_capacity((uint8_t)(s->pairs_capacity_mode + kind + 3),
                                                   s->capacity_byte, qtotal, &null_out);
                c2d_query_pair *out = malloc((cap + CANARY) * sizeof *out);
                if (!out) abort();
                memset(out, CANARY_BYTE, (cap + CANARY) * sizeof *out);
                size_t count = 12345;
                const c2d_status st = region_call(&q, kind, scene_call, sc, &ks, &cs,
                                                  null_out ? NULL : out, cap, &count);
                const c2d_status expect = qtotal > cap && !null_out ? C2D_ERROR_TRUNCATED : C2D_OK;
                if (st != expect || count != qtotal)
                    fail("filtered region query: status or count", name);
                const size_t written = null_out ? 0 : qtotal < cap ? qtotal : cap;
                if (memcmp(out, qwant, written * sizeof *out) != 0)
                    fail("filtered region query: differs from the scalar loop", name);
                if (!untouched(out + written, (cap + CANARY - written) * sizeof *out))
                    fail("filtered region query: wrote past min(total, capacity)", name);
                free(out);
            }
        }
    }
    c2d_scene_destroy(sc);
    free(q.hx), free(q.hy);
    free(f.cc), free(f.cm), free(f.kc), free(f.km), free(f.sensor), free(kmx), free(kmy);
    free(want), free(twant), free(tgot), free(rwant), free(rgot), free(qwant);
}
