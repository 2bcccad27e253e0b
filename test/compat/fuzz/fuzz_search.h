/* Part of fuzz_batch.c (included after its helpers): the search calls (collide2d/search.h).
 *
 * Rays start at the scene's circle centres and travel their moves; their targets are the
 * scene's capsules and its circles (so every ray starts on its own circle, and the start rule
 * is exercised on every input). Boxes run from each centre to its move read as a corner (often
 * empty, NaN or huge) or to the centre plus |radius|; discs are the circles, points their
 * centres. Checked on every backend:
 * - c2d_ray_capsule() and c2d_ray_circle() are the sweeps of a radius-0 circle, byte for byte
 *   (whose contract the sweep checks cover), with t in [0, 1];
 * - c2d_batch_ray_cast() (both sets, capsules only, circles only) and c2d_scene_ray_cast()
 *   equal the scalar loop: capsules in index order, then circles, a later hit kept only when
 *   strictly earlier;
 * - every region query, batch and scene, equals the scalar loop (query-major, then shape),
 *   with the capacity modes of the collide checks: *count the total, the status, nothing
 *   written past min(total, capacity). */

static bool same_ray_hit(const c2d_ray_hit *a, const c2d_ray_hit *b) {
    return a->shape == b->shape && a->kind == b->kind && same_toi(&a->toi, &b->toi);
}

/* The scalar loop of a ray cast over the scene's capsules (when `caps`) and circles (when
 * `circles`). */
static void ref_rays(const scene *s, bool caps, bool circles, c2d_ray_hit *out) {
    for (size_t i = 0; i < s->nc; i++) {
        c2d_ray_hit h = {C2D_NONE, C2D_SHAPE_NONE, {0.0f, {0.0f, 0.0f}, {0.0f, 0.0f}}};
        const c2d_vec2 o = {s->x[i], s->y[i]}, d = {s->mx[i], s->my[i]};
        c2d_toi toi;
        for (size_t k = 0; caps && k < s->nk; k++)
            if (c2d_ray_capsule(o, d, capsule_at(s, k), &toi) &&
                (h.kind == C2D_SHAPE_NONE || toi.t < h.toi.t))
                h = (c2d_ray_hit){(uint32_t)k, C2D_SHAPE_CAPSULE, toi};
        for (size_t k = 0; circles && k < s->nc; k++)
            if (c2d_ray_circle(o, d, circle_at(s, k), &toi) &&
                (h.kind == C2D_SHAPE_NONE || toi.t < h.toi.t))
                h = (c2d_ray_hit){(uint32_t)k, C2D_SHAPE_CIRCLE, toi};
        out[i] = h;
    }
}

/* The scalar references on the first pairs: a ray is the sweep of a radius-0 circle. */
static void check_ray_scalars(const scene *s) {
    for (size_t i = 0; i < s->nc && i < 16; i++) {
        const c2d_vec2 o = {s->x[i], s->y[i]}, d = {s->mx[i], s->my[i]};
        const c2d_circle point = {o, 0.0f};
        const c2d_vec2 still = {0.0f, 0.0f};
        c2d_toi a, b;
        for (size_t k = 0; k < s->nk && k < 16; k++) {
            memset(&a, CANARY_BYTE, sizeof a), memset(&b, CANARY_BYTE, sizeof b);
            const bool ha = c2d_ray_capsule(o, d, capsule_at(s, k), &a);
            const bool hb = c2d_sweep_circle_capsule(point, d, capsule_at(s, k), &b);
            if (ha != hb || memcmp(&a, &b, sizeof a) != 0)
                fail("c2d_ray_capsule is not the sweep of a radius-0 circle", "scalar");
            if (ha && !(a.t >= 0.0f && a.t <= 1.0f)) fail("c2d_ray_capsule: t", "scalar");
        }
        for (size_t k = 0; k < s->nc && k < 16; k++) {
            memset(&a, CANARY_BYTE, sizeof a), memset(&b, CANARY_BYTE, sizeof b);
            const bool ha = c2d_ray_circle(o, d, circle_at(s, k), &a);
            const bool hb = c2d_sweep_circles(point, d, circle_at(s, k), still, &b);
            if (ha != hb || memcmp(&a, &b, sizeof a) != 0)
                fail("c2d_ray_circle is not the sweep of a radius-0 circle", "scalar");
            if (ha && !(a.t >= 0.0f && a.t <= 1.0f)) fail("c2d_ray_circle: t", "scalar");
        }
    }
}

static void check_ray_casts(const scene *s, const c2d_capsule_soa *ks, const c2d_circle_soa *cs,
                            c2d_scene *sc, const char *backend) {
    const c2d_ray_soa rays = {s->x, s->y, s->mx, s->my, s->nc, NULL, NULL};
    c2d_ray_hit *want = malloc((s->nc + 1) * sizeof *want);
    c2d_ray_hit *got = malloc((s->nc + CANARY) * sizeof *got);
    if (!want || !got) abort();
    for (int mode = 0; mode < 3; mode++) { /* both sets, capsules only, circles only */
        const bool caps = mode != 2, circles = mode != 1;
        ref_rays(s, caps, circles, want);
        for (int scene_call = 0; scene_call < 2; scene_call++) {
            if (scene_call && !caps) continue;
            memset(got, CANARY_BYTE, (s->nc + CANARY) * sizeof *got);
            const c2d_status st =
                scene_call ? c2d_scene_ray_cast(sc, &rays, circles ? cs : NULL, got)
                           : c2d_batch_ray_cast(&rays, caps ? ks : NULL, circles ? cs : NULL, got);
            if (st != C2D_OK) fail("ray_cast: status", backend);
            for (size_t i = 0; i < s->nc; i++)
                if (!same_ray_hit(&got[i], &want[i])) {
                    fprintf(stderr,
                            "ray %zu (mode %d, scene %d): got %u/%u t %a, want %u/%u t %a\n", i,
                            mode, scene_call, got[i].shape, got[i].kind, (double)got[i].toi.t,
                            want[i].shape, want[i].kind, (double)want[i].toi.t);
                    print_circle(s, i);
                    fail("ray_cast: differs from the scalar loop", backend);
                }
            if (!untouched(got + s->nc, CANARY * sizeof *got))
                fail("ray_cast: wrote past rays->count", backend);
        }
    }
    free(want);
    free(got);
}

/* Region queries: 0 box/capsules, 1 box/circles, 2 disc/capsules, 3 disc/circles,
 * 4 point/capsules, 5 point/circles; scene calls for the capsule ones. */
typedef struct fuzz_regions {
    c2d_box_soa boxes;
    c2d_circle_soa discs;
    c2d_point_soa points;
    float *hx, *hy;
} fuzz_regions;

static bool ref_region(const fuzz_regions *q, int kind, size_t i, const scene *s, size_t k) {
    const c2d_box b = {{q->boxes.lo_x[i], q->boxes.lo_y[i]}, {q->boxes.hi_x[i], q->boxes.hi_y[i]}};
    const c2d_circle disc = circle_at(s, i), point = {{s->x[i], s->y[i]}, 0.0f};
    switch (kind) {
    case 0:
        return c2d_overlap_box_capsule(b, capsule_at(s, k));
    case 1:
        return c2d_overlap_box_circle(b, circle_at(s, k));
    case 2:
        return c2d_overlap_circle_capsule(disc, capsule_at(s, k));
    case 3:
        return c2d_overlap_circles(disc, circle_at(s, k));
    case 4:
        return c2d_point_in_capsule(point.center, capsule_at(s, k));
    default:
        return c2d_overlap_circles(point, circle_at(s, k));
    }
}

static c2d_status region_call(const fuzz_regions *q, int kind, bool scene_call, c2d_scene *sc,
                              const c2d_capsule_soa *ks, const c2d_circle_soa *cs,
                              c2d_query_pair *out, size_t cap, size_t *count) {
    if (scene_call) {
        if (kind == 0) return c2d_scene_query_box(sc, &q->boxes, out, cap, count);
        if (kind == 2) return c2d_scene_query_disc(sc, &q->discs, out, cap, count);
        return c2d_scene_query_point(sc, &q->points, out, cap, count);
    }
    switch (kind) {
    case 0:
        return c2d_batch_query_box_capsules(&q->boxes, ks, out, cap, count);
    case 1:
        return c2d_batch_query_box_circles(&q->boxes, cs, out, cap, count);
    case 2:
        return c2d_batch_query_disc_capsules(&q->discs, ks, out, cap, count);
    case 3:
        return c2d_batch_query_disc_circles(&q->discs, cs, out, cap, count);
    case 4:
        return c2d_batch_query_point_capsules(&q->points, ks, out, cap, count);
    default:
        return c2d_batch_query_point_circles(&q->points, cs, out, cap, count);
    }
}

static void check_regions(const scene *s, const fuzz_regions *q, const c2d_capsule_soa *ks,
                          const c2d_circle_soa *cs, c2d_scene *sc, const char *backend) {
    const size_t most = s->nc * (s->nk > s->nc ? s->nk : s->nc);
    c2d_query_pair *want = malloc((most + 1) * sizeof *want);
    if (!want) abort();
    for (int kind = 0; kind < 6; kind++) {
        const bool circles = kind % 2 == 1;
        size_t total = 0;
        for (size_t i = 0; i < s->nc; i++)
            for (size_t k = 0; k < (circles ? s->nc : s->nk); k++)
                if (ref_region(q, kind, i, s, k))
                    want[total++] = (c2d_query_pair){(uint32_t)i, (uint32_t)k};
        for (int scene_call = 0; scene_call < 1 + !circles; scene_call++) {
            bool null_out;
            const size_t cap = choose_capacity((uint8_t)(s->pairs_capacity_mode + kind),
                                               s->capacity_byte, total, &null_out);
            c2d_query_pair *out = malloc((cap + CANARY) * sizeof *out);
            if (!out) abort();
            memset(out, CANARY_BYTE, (cap + CANARY) * sizeof *out);
            size_t count = 12345;
            const c2d_status st =
                region_call(q, kind, scene_call, sc, ks, cs, null_out ? NULL : out, cap, &count);
            const c2d_status expect = total > cap && !null_out ? C2D_ERROR_TRUNCATED : C2D_OK;
            if (st != expect || count != total) fail("region query: status or count", backend);
            const size_t written = null_out ? 0 : total < cap ? total : cap;
            for (size_t n = 0; n < written; n++)
                if (out[n].query != want[n].query || out[n].shape != want[n].shape) {
                    fprintf(stderr,
                            "region kind %d scene %d pair %zu: got (%u, %u) want (%u, %u)\n", kind,
                            scene_call, n, out[n].query, out[n].shape, want[n].query,
                            want[n].shape);
                    fail("region query: differs from the scalar loop", backend);
                }
            if (!untouched(out + written, (cap + CANARY - written) * sizeof *out))
                fail("region query: wrote past min(total, capacity)", backend);
            free(out);
        }
    }
    free(want);
}

static void fuzz_search(const scene *s, const c2d_circle_soa *cs, const c2d_capsule_soa *ks,
                        const c2d_backend *list, size_t n_list) {
    check_ray_scalars(s);
    fuzz_regions q;
    q.hx = malloc((s->nc + 1) * sizeof(float));
    q.hy = malloc((s->nc + 1) * sizeof(float));
    if (!q.hx || !q.hy) abort();
    for (size_t i = 0; i < s->nc; i++) {
        const bool corner = i % 3 == 0;
        q.hx[i] = corner ? s->mx[i] : s->x[i] + fabsf(s->r[i]);
        q.hy[i] = corner ? s->my[i] : s->y[i] + fabsf(s->r[i]);
    }
    q.boxes = (c2d_box_soa){s->x, s->y, q.hx, q.hy, s->nc, NULL, NULL};
    q.discs = *cs;
    q.points = (c2d_point_soa){s->x, s->y, s->nc, NULL, NULL};
    c2d_scene *sc;
    if (c2d_scene_create(ks, NULL, &sc) != C2D_OK) fail("scene_create", "search");
    for (size_t b = 0; b < n_list; b++) {
        if (c2d_backend_select(list[b]) != C2D_OK) fail("backend_select", "search");
        const char *name = c2d_backend_name(list[b]);
        check_ray_casts(s, ks, cs, sc, name);
        if (b == 0 || b + 1 == n_list) /* the region queries use no kernel: two backends */
            check_regions(s, &q, ks, cs, sc, name);
    }
    c2d_scene_destroy(sc);
    free(q.hx);
    free(q.hy);
}
