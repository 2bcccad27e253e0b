/* Part of fuzz_batch.c (included after its helpers): collision filters and sensors in the
 * scene calls (collide2d/filter.h, collide2d/scene.h).
 *
 * The filter words come from the scene's values (a hash of each element's bits and index), so
 * the fuzzer steers them: no layer, every layer, or a few of three layers; about one capsule in
 * eight is a sensor; a mode byte of the input leaves each array NULL or not. The reference is
 * the scalar loop of fuzz_batch.c (its per-pair results) over the allowed pairs. Checked on
 * every backend:
 * - c2d_scene_collide with the capacity modes of the collide checks, on the filtered total;
 * - a frame binned in two parts (in reverse) and collided in two capsule ranges concatenates to
 *   the same contacts;
 * - c2d_scene_sweep and two c2d_scene_sweep_range halves: the earliest allowed hit;
 * - c2d_scene_sweep_moving_capsules (capsules moving as in fuzz_moving.h) against the scalar
 *   loop of c2d_sweep_circle_moving_capsule over the allowed pairs;
 * - after a move of the first half of the capsules that changes their words (a gate that
 *   opens or closes), the collide and the sweep again. */

/* The filter words of one call's sets. */
typedef struct filter_words {
    uint32_t *cc, *cm, *kc, *km;
    uint8_t *sensor;
    unsigned mode; /* bits: circle category, circle mask, capsule category, capsule mask, sensor */
} filter_words;

/* A word from a value's bits and its index: 0, every layer, or some of three layers. */
static uint32_t fuzz_filter_word(float v, size_t i, uint32_t salt) {
    uint32_t h = bits_of(v) ^ ((uint32_t)i * 0x9e3779b9u) ^ salt;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    switch (h % 8) {
    case 0:
        return 0;
    case 1:
        return C2D_FILTER_ALL;
    default:
        return (h >> 8) % 8;
    }
}

/* The sets `cs` and `ks` with the words of `f` (arrays of its mode only). */
static c2d_circle_soa filtered_circles(const c2d_circle_soa *cs, const filter_words *f) {
    c2d_circle_soa c = *cs;
    c.category = f->mode & 1 ? f->cc : NULL;
    c.mask = f->mode & 2 ? f->cm : NULL;
    return c;
}

static c2d_capsule_soa filtered_capsules(const c2d_capsule_soa *ks, const filter_words *f) {
    c2d_capsule_soa k = *ks;
    k.category = f->mode & 4 ? f->kc : NULL;
    k.mask = f->mode & 8 ? f->km : NULL;
    k.sensor = f->mode & 16 ? f->sensor : NULL;
    return k;
}

/* Do circle i and capsule k meet (the rule, no sensor), with f's arrays of its mode. */
static bool fuzz_meets(const filter_words *f, size_t i, size_t k) {
    if (f->mode & 16 && f->sensor[k]) return false;
    return c2d_filter_allows(
        f->mode & 1 ? f->cc[i] : C2D_FILTER_ALL, f->mode & 2 ? f->cm[i] : C2D_FILTER_ALL,
        f->mode & 4 ? f->kc[k] : C2D_FILTER_ALL, f->mode & 8 ? f->km[k] : C2D_FILTER_ALL);
}

/* The allowed contacts (capsule-major) from the reference's per-pair results; their count. */
static size_t filtered_collide(const scene *s, const reference *ref, const filter_words *f,
                               c2d_pair_contact *out) {
    size_t total = 0;
    for (size_t k = 0; k < s->nk; k++)
        for (size_t i = 0; i < s->nc; i++)
            if (ref->hit[k * s->nc + i] && fuzz_meets(f, i, k))
                out[total++] =
                    (c2d_pair_contact){(uint32_t)i, (uint32_t)k, ref->contact[k * s->nc + i]};
    return total;
}

/* The earliest allowed hit of each circle: the reference's (kmx NULL) or the moving sweep's. */
static void filtered_sweep(const scene *s, const reference *ref, const filter_words *f,
                           const float *kmx, const float *kmy, c2d_circle_toi *out) {
    for (size_t i = 0; i < s->nc; i++) {
        out[i].capsule = C2D_NONE;
        memset(&out[i].toi, 0, sizeof out[i].toi);
        for (size_t k = 0; k < s->nk; k++) {
            if (!fuzz_meets(f, i, k)) continue;
            c2d_toi t;
            bool hit = !kmx && ref->swept[k * s->nc + i];
            if (hit) t = ref->toi[k * s->nc + i];
            if (kmx)
                hit = c2d_sweep_circle_moving_capsule(
                    circle_at(s, i), (c2d_vec2){s->mx[i], s->my[i]}, capsule_at(s, k),
                    (c2d_vec2){kmx[k], kmy[k]}, &t);
            if (hit && (out[i].capsule == C2D_NONE || t.t < out[i].toi.t)) {
                out[i].capsule = (uint32_t)k;
                out[i].toi = t;
            }
        }
    }
}

static void expect_contacts(const c2d_pair_contact *got, const c2d_pair_contact *want, size_t n,
                            const char *what, const char *backend) {
    for (size_t j = 0; j < n; j++)
        if (!same_pair(&got[j], &want[j])) {
            print_pair("got ", &got[j]);
            print_pair("want", &want[j]);
            fail(what, backend);
        }
}

static void expect_tois(const scene *s, const c2d_circle_toi *got, const c2d_circle_toi *want,
                        size_t n, const char *what, const char *backend) {
    for (size_t i = 0; i < n; i++)
        if (!same_circle_toi(&got[i], &want[i])) {
            print_toi("got ", &got[i]);
            print_toi("want", &want[i]);
            print_circle(s, i);
            fail(what, backend);
        }
}

/* One round of checks of scene sc (with f's capsule words) on the active backend. */
static void check_filter_scene(const scene *s, c2d_scene *sc, const c2d_circle_soa *fc,
                               const reference *ref, const filter_words *f, const float *kmx,
                               const float *kmy, const char *backend) {
    c2d_pair_contact *want = malloc((s->nc * s->nk + 1) * sizeof *want);
    const size_t room = s->nc * s->nk + 8 + CANARY; /* every capacity choose_capacity gives */
    c2d_pair_contact *out = malloc(room * sizeof *out);
    c2d_circle_toi *wt = malloc((s->nc + 1) * sizeof *wt),
                   *got = malloc((s->nc + CANARY) * sizeof *got);
    if (!want || !out || !wt || !got) abort();
    const size_t total = filtered_collide(s, ref, f, want);
    bool null_out;
    const size_t cap =
        choose_capacity(s->collide_capacity_mode, s->capacity_byte, total, &null_out);
    memset(out, CANARY_BYTE, room * sizeof *out);
    size_t count = 12345;
    c2d_status st = c2d_scene_collide(sc, fc, null_out ? NULL : out, cap, &count);
    if (st != (total > cap && !null_out ? C2D_ERROR_TRUNCATED : C2D_OK) || count != total)
        fail("filtered scene_collide: status or count", backend);
    const size_t written = null_out ? 0 : total < cap ? total : cap;
    expect_contacts(out, want, written, "filtered scene_collide: contact", backend);
    if (!untouched(out + written, (cap - written + CANARY) * sizeof *out))
        fail("filtered scene_collide: wrote past min(total, capacity)", backend);
    /* two parts, two ranges */
    const size_t split = s->nk / 2;
    size_t first = 0, second = 0;
    if (c2d_scene_bin_begin(sc, fc, 2) != C2D_OK || c2d_scene_bin_part(sc, 1) != C2D_OK ||
        c2d_scene_bin_part(sc, 0) != C2D_OK || c2d_scene_bin_end(sc) != C2D_OK)
        fail("filtered scene_bin parts", backend);
    st = c2d_scene_collide_range(sc, fc, 0, split, out, total, &first);
    if (st != C2D_OK || first > total) fail("filtered scene_collide_range: status", backend);
    st = c2d_scene_collide_range(sc, fc, split, s->nk - split, out + first, total - first, &second);
    if (st != C2D_OK || first + second != total)
        fail("filtered scene_collide_range: status or count", backend);
    expect_contacts(out, want, total, "filtered scene_collide_range: contact", backend);
    /* sweeps: whole, in two ranges, and against moving capsules */
    filtered_sweep(s, ref, f, NULL, NULL, wt);
    memset(got, CANARY_BYTE, (s->nc + CANARY) * sizeof *got);
    if (c2d_scene_sweep(sc, fc, s->mx, s->my, got) != C2D_OK)
        fail("filtered scene_sweep: status", backend);
    expect_tois(s, got, wt, s->nc, "filtered scene_sweep: differs from the scalar loop", backend);
    if (!untouched(got + s->nc, CANARY * sizeof *got))
        fail("filtered scene_sweep: wrote past circles->count", backend);
    const size_t half = s->nc / 2;
    if (c2d_scene_sweep_range(sc, fc, s->mx, s->my, 0, half, got) != C2D_OK ||
        c2d_scene_sweep_range(sc, fc, s->mx, s->my, half, s->nc - half, got + half) != C2D_OK)
        fail("filtered scene_sweep_range: status", backend);
    expect_tois(s, got, wt, s->nc, "filtered scene_sweep_range: differs", backend);
    filtered_sweep(s, ref, f, kmx, kmy, wt);
    if (c2d_scene_sweep_moving_capsules(sc, fc, s->mx, s->my, kmx, kmy, got) != C2D_OK)
        fail("filtered scene_sweep_moving_capsules: status", backend);
    expect_tois(s, got, wt, s->nc, "filtered scene_sweep_moving_capsules: differs", backend);
    free(want);
    free(out);
    free(wt);
    free(got);
}

static void fuzz_filter_scene(const scene *s, const c2d_circle_soa *cs, const c2d_capsule_soa *ks,
                              const reference *ref, const c2d_backend *backends,
                              size_t n_backends) {
    const size_t nc = s->nc, nk = s->nk;
    filter_words f;
    f.cc = malloc((nc + 1) * sizeof *f.cc);
    f.cm = malloc((nc + 1) * sizeof *f.cm);
    f.kc = malloc((nk + 1) * sizeof *f.kc);
    f.km = malloc((nk + 1) * sizeof *f.km);
    f.sensor = malloc(nk + 1);
    float *kmx = malloc((nk + 1) * sizeof(float)), *kmy = malloc((nk + 1) * sizeof(float));
    if (!f.cc || !f.cm || !f.kc || !f.km || !f.sensor || !kmx || !kmy) abort();
    f.mode = (s->pairs_capacity_mode ^ s->capacity_byte) & 31u;
    for (size_t i = 0; i < nc; i++) {
        f.cc[i] = fuzz_filter_word(s->x[i], i, 0x51u);
        f.cm[i] = fuzz_filter_word(s->r[i], i, 0x52u);
    }
    for (size_t k = 0; k < nk; k++) {
        f.kc[k] = fuzz_filter_word(s->ax[k], k, 0x53u);
        f.km[k] = fuzz_filter_word(s->R[k], k, 0x54u);
        f.sensor[k] = fuzz_filter_word(s->by[k], k, 0x55u) == 0;
        const bool same = k % 2 == 0 && nc > 0; /* the capsule moves of fuzz_moving.h */
        kmx[k] = same ? s->mx[k % nc] : s->ax[k];
        kmy[k] = same ? s->my[k % nc] : s->by[k];
    }
    const c2d_circle_soa fc = filtered_circles(cs, &f);
    const c2d_capsule_soa fk = filtered_capsules(ks, &f);
    c2d_scene *sc;
    if (c2d_scene_create(&fk, NULL, &sc) != C2D_OK) fail("filtered scene_create", "");
    for (size_t b = 0; b < n_backends; b++) {
        if (c2d_backend_select(backends[b]) != C2D_OK) fail("backend_select", "filters");
        check_filter_scene(s, sc, &fc, ref, &f, kmx, kmy, c2d_backend_name(backends[b]));
    }
    /* the first half of the capsules moves in place with other words: gates open and close */
    const size_t moved = nk / 2;
    for (size_t k = 0; k < moved; k++) {
        f.kc[k] = ~f.kc[k];
        f.sensor[k] = !f.sensor[k];
    }
    c2d_capsule_soa half = fk;
    half.count = moved;
    if (c2d_scene_move_capsules(sc, 0, &half) != C2D_OK) fail("filtered scene_move_capsules", "");
    check_filter_scene(s, sc, &fc, ref, &f, kmx, kmy, "after a move");
    c2d_scene_destroy(sc);
    free(f.cc);
    free(f.cm);
    free(f.kc);
    free(f.km);
    free(f.sensor);
    free(kmx);
    free(kmy);
}
