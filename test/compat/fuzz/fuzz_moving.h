/* Part of fuzz_batch.c (included after its helpers): sweeps against moving capsules.
 *
 * The capsules' moves come from the scene's values: capsule k moves as circle k % nc does
 * (for even k: no relative motion against that circle), or by its own axis (ax, by) (odd k),
 * so they take the fuzzer's special values (NaN, infinities, huge, subnormal). Checked:
 * - c2d_sweep_circle_moving_capsule is c2d_sweep_circle_capsule on the float relative move
 *   with the point moved by t times the capsule's move, byte for byte (the first pairs);
 * - c2d_batch_sweep_moving_capsules equals the scalar loop on every backend, byte for byte,
 *   and writes nothing past circles->count;
 * - NULL capsule moves give c2d_batch_sweep's answer; one NULL without the other is
 *   C2D_ERROR_NULL (with capsules);
 * - c2d_scene_sweep_moving_capsules equals the same scalar loop on every backend. */

static void fuzz_moving(const scene *s, const c2d_circle_soa *cs, const c2d_capsule_soa *ks,
                        const reference *ref, const c2d_backend *backends, size_t n_backends) {
    const size_t nc = s->nc, nk = s->nk;
    float *kmx = malloc((nk + 1) * sizeof(float)), *kmy = malloc((nk + 1) * sizeof(float));
    c2d_circle_toi *want = malloc((nc + 1) * sizeof *want);
    c2d_circle_toi *got = malloc((nc + CANARY) * sizeof *got);
    if (!kmx || !kmy || !want || !got) abort();
    for (size_t k = 0; k < nk; k++) {
        const bool same = k % 2 == 0 && nc > 0;
        kmx[k] = same ? s->mx[k % nc] : s->ax[k];
        kmy[k] = same ? s->my[k % nc] : s->by[k];
    }
    c2d_scene *sc;
    if (c2d_scene_create(ks, NULL, &sc) != C2D_OK) fail("scene_create", "moving");
    size_t checked = 0;
    for (size_t i = 0; i < nc; i++) {
        want[i].capsule = C2D_NONE;
        memset(&want[i].toi, 0, sizeof want[i].toi);
        const c2d_circle c = circle_at(s, i);
        const c2d_vec2 m = {s->mx[i], s->my[i]};
        for (size_t k = 0; k < nk; k++) {
            const c2d_capsule cap = capsule_at(s, k);
            const c2d_vec2 km = {kmx[k], kmy[k]};
            c2d_toi t;
            const bool hit = c2d_sweep_circle_moving_capsule(c, m, cap, km, &t);
            if (checked++ < 256) {
                c2d_toi d;
                const bool dhit =
                    c2d_sweep_circle_capsule(c, (c2d_vec2){m.x - km.x, m.y - km.y}, cap, &d);
                if (dhit) {
                    d.point.x = d.point.x + d.t * km.x;
                    d.point.y = d.point.y + d.t * km.y;
                }
                if (hit != dhit || (hit && !same_toi(&t, &d)))
                    fail("sweep_circle_moving_capsule",
                         "not the static sweep of the relative move");
            }
            if (hit && (want[i].capsule == C2D_NONE || t.t < want[i].toi.t)) {
                want[i].capsule = (uint32_t)k;
                want[i].toi = t;
            }
        }
    }
    for (size_t b = 0; b < n_backends; b++) {
        if (c2d_backend_select(backends[b]) != C2D_OK) fail("backend_select", "moving");
        const char *name = c2d_backend_name(backends[b]);
        memset(got, CANARY_BYTE, (nc + CANARY) * sizeof *got);
        if (c2d_batch_sweep_moving_capsules(cs, s->mx, s->my, ks, kmx, kmy, got) != C2D_OK)
            fail("batch_sweep_moving_capsules: status", name);
        for (size_t i = 0; i < nc; i++)
            if (!same_circle_toi(&got[i], &want[i])) {
                print_toi("got ", &got[i]);
                print_toi("want", &want[i]);
                print_circle(s, i);
                if (want[i].capsule < nk) print_capsule(s, want[i].capsule);
                fail("batch_sweep_moving_capsules: result differs from the scalar loop", name);
            }
        if (!untouched(got + nc, CANARY * sizeof *got))
            fail("batch_sweep_moving_capsules: wrote past circles->count", name);
        memset(got, CANARY_BYTE, (nc + CANARY) * sizeof *got);
        if (c2d_scene_sweep_moving_capsules(sc, cs, s->mx, s->my, kmx, kmy, got) != C2D_OK)
            fail("scene_sweep_moving_capsules: status", name);
        for (size_t i = 0; i < nc; i++)
            if (!same_circle_toi(&got[i], &want[i]))
                fail("scene_sweep_moving_capsules: result differs from the scalar loop", name);
        if (!untouched(got + nc, CANARY * sizeof *got))
            fail("scene_sweep_moving_capsules: wrote past circles->count", name);
        if (c2d_batch_sweep_moving_capsules(cs, s->mx, s->my, ks, NULL, NULL, got) != C2D_OK)
            fail("batch_sweep_moving_capsules (static): status", name);
        for (size_t i = 0; i < nc; i++)
            if (!same_circle_toi(&got[i], &ref->sweep[i]))
                fail("batch_sweep_moving_capsules (static): differs from batch_sweep", name);
    }
    if (nk > 0 &&
        c2d_batch_sweep_moving_capsules(cs, s->mx, s->my, ks, kmx, NULL, got) != C2D_ERROR_NULL)
        fail("batch_sweep_moving_capsules", "one capsule move array NULL accepted");
    c2d_scene_destroy(sc);
    free(kmx);
    free(kmy);
    free(want);
    free(got);
}
