/* The 0.2.0 names (docs/design.md, "Names") against the 0.1.0 names they replace
 * (collide2d/compat.h): on every available backend the new call writes exactly the old call's
 * bytes and returns its status, good input and bad; the new type names are the old types. */
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "batch_check.h"

/* The new type names are the old types (assigning pointers across them needs no cast), and the
 * two hit records share one layout. */
static void test_types(void **state) {
    (void)state;
    c2d_pair_contact pc = {0};
    c2d_capsule_pair_contact *cpc = &pc;
    c2d_capsule_body_soa cb = {0};
    c2d_capsule_bodies *old_cb = &cb;
    assert_ptr_equal(cpc, &pc);
    assert_ptr_equal(old_cb, &cb);
    assert_int_equal(sizeof(c2d_circle_hit), sizeof(c2d_circle_toi));
    assert_int_equal(offsetof(c2d_circle_hit, other), offsetof(c2d_circle_toi, capsule));
    assert_int_equal(offsetof(c2d_circle_hit, toi), offsetof(c2d_circle_toi, toi));
    /* A positional 0.1.0 initialiser still means what it meant. */
    const float v[1] = {1.0f};
    const c2d_circle_soa c = {v, v, v, 1, NULL, NULL};
    assert_ptr_equal(c.radius, v);
    assert_null(c.mask);
    const c2d_solve_def d = c2d_solve_default_def(), zero = {0};
    assert_memory_equal(&d, &zero, sizeof d);
}

static void random_moves(float *x, float *y, size_t n, uint64_t seed, float size) {
    c2d_rng rng = {seed};
    for (size_t i = 0; i < n; i++) {
        x[i] = c2d_rng_range(&rng, -size, size);
        y[i] = c2d_rng_range(&rng, -size, size);
    }
}

/* c2d_batch_sweep_moving and c2d_scene_sweep_moving == the _moving_capsules calls. */
static void test_sweep_moving(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_make(&w, 1500, 100, C2D_WORKLOAD_SEED), 0);
    const size_t n = w.circles.count, m = w.capsules.count;
    float *kx = xmalloc(m * sizeof *kx), *ky = xmalloc(m * sizeof *ky);
    random_moves(kx, ky, m, 7, 3.0f);
    c2d_circle_toi *a = xmalloc(n * sizeof *a), *b = xmalloc(n * sizeof *b);
    const c2d_move_soa moves = {.x = w.move_x, .y = w.move_y}, capsule_moves = {.x = kx, .y = ky};
    const c2d_move_soa half = {.x = kx, .y = NULL}, none = {.x = NULL, .y = NULL};
    c2d_scene *scene;
    assert_int_equal(c2d_scene_create(&w.capsules, NULL, &scene), C2D_OK);
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t k = 0; k < nb; k++) {
        use_backend(list[k]);
        /* [moves, capsule moves] for the new call; the old call gets them unpacked */
        const c2d_move_soa *cases[][2] = {{&moves, &capsule_moves}, {&moves, NULL},
                                          {&moves, &none},          {&moves, &half},
                                          {NULL, &capsule_moves},   {&none, &capsule_moves}};
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            const c2d_move_soa *mv = cases[c][0], *km = cases[c][1];
            const float *mx = mv ? mv->x : NULL, *my = mv ? mv->y : NULL;
            const float *kmx = km ? km->x : NULL, *kmy = km ? km->y : NULL;
            memset(a, 0xA5, n * sizeof *a);
            memset(b, 0xA5, n * sizeof *b);
            assert_int_equal(
                c2d_batch_sweep_moving(&w.circles, mv, &w.capsules, km, a),
                c2d_batch_sweep_moving_capsules(&w.circles, mx, my, &w.capsules, kmx, kmy, b));
            assert_memory_equal(a, b, n * sizeof *a);
            memset(a, 0xA5, n * sizeof *a);
            memset(b, 0xA5, n * sizeof *b);
            assert_int_equal(
                c2d_scene_sweep_moving(scene, &w.circles, mv, km, a),
                c2d_scene_sweep_moving_capsules(scene, &w.circles, mx, my, kmx, kmy, b));
            assert_memory_equal(a, b, n * sizeof *a);
        }
        assert_int_equal(c2d_batch_sweep_moving(&w.circles, &moves, &w.capsules, NULL, a), C2D_OK);
        assert_int_equal(c2d_batch_sweep(&w.circles, w.move_x, w.move_y, &w.capsules, b), C2D_OK);
        assert_memory_equal(a, b, n * sizeof *a);
        assert_int_equal(c2d_batch_sweep_moving(NULL, &moves, &w.capsules, NULL, a),
                         C2D_ERROR_NULL);
        assert_int_equal(c2d_scene_sweep_moving(NULL, &w.circles, &moves, NULL, a), C2D_ERROR_NULL);
    }
    c2d_scene_destroy(scene);
    free(a);
    free(b);
    free(kx);
    free(ky);
    c2d_workload_free(&w);
}

/* The frozen balls' new names == the old ones, on two scenes fed the same calls. */
static void test_frozen(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_w6(&w, 2500, C2D_W6_PILE, C2D_WORKLOAD_SEED), 0);
    const size_t n = w.circles.count, half = n / 2;
    uint32_t *ids = xmalloc(n * sizeof *ids);
    for (size_t i = 0; i < n; i++)
        ids[i] = (uint32_t)i;
    /* resting: the even balls; awake: the odd ones */
    float *rx = xmalloc(n * sizeof(float)), *ry = xmalloc(n * sizeof(float));
    float *rr = xmalloc(n * sizeof(float)), *mx = xmalloc(n * sizeof(float));
    float *my = xmalloc(n * sizeof(float));
    uint32_t *rid = xmalloc(n * sizeof *rid), *aid = xmalloc(n * sizeof *aid);
    size_t nr = 0, na = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 2 == 0) {
            rx[nr] = w.x[i], ry[nr] = w.y[i], rr[nr] = w.radius[i], rid[nr++] = (uint32_t)i;
        } else {
            aid[na++] = (uint32_t)i;
        }
    }
    float *ax = xmalloc(n * sizeof(float)), *ay = xmalloc(n * sizeof(float));
    float *ar = xmalloc(n * sizeof(float));
    for (size_t k = 0; k < na; k++) {
        ax[k] = w.x[aid[k]], ay[k] = w.y[aid[k]], ar[k] = w.radius[aid[k]];
        mx[k] = w.move_x[aid[k]], my[k] = w.move_y[aid[k]];
    }
    const c2d_circle_soa resting = {.x = rx, .y = ry, .radius = rr, .count = nr};
    const c2d_circle_soa awake = {.x = ax, .y = ay, .radius = ar, .count = na};
    const c2d_capsule_soa no_capsules = {.count = 0};
    c2d_scene *s_new, *s_old;
    assert_int_equal(c2d_scene_create(&no_capsules, NULL, &s_new), C2D_OK);
    assert_int_equal(c2d_scene_create(&no_capsules, NULL, &s_old), C2D_OK);
    assert_int_equal(c2d_scene_freeze_balls(s_new, &resting, rid), C2D_OK);
    assert_int_equal(c2d_scene_freeze_circles(s_old, &resting, rid), C2D_OK);
    assert_int_equal(c2d_scene_frozen_count(s_new), c2d_scene_frozen_count(s_old));
    for (uint32_t id = 0; id < n + 2; id++) {
        c2d_circle p, q;
        memset(&p, 0, sizeof p);
        memset(&q, 0, sizeof q);
        assert_int_equal(c2d_scene_frozen_ball(s_new, id, &p),
                         c2d_scene_frozen_circle(s_old, id, &q));
        assert_memory_equal(&p, &q, sizeof p);
    }
    const size_t cap = 8 * n;
    c2d_circle_pair_contact *pa = xmalloc(cap * sizeof *pa), *pb = xmalloc(cap * sizeof *pb);
    c2d_circle_hit *ha = xmalloc(n * sizeof *ha), *hb = xmalloc(n * sizeof *hb);
    const c2d_move_soa moves = {.x = mx, .y = my}, half_moves = {.x = mx, .y = NULL};
    c2d_backend list[C2D_BACKEND_COUNT];
    const size_t nb = available_backends(list);
    for (size_t b = 0; b < nb; b++) {
        use_backend(list[b]);
        size_t ca = 1, cb = 2;
        memset(pa, 0xA5, cap * sizeof *pa);
        memset(pb, 0xA5, cap * sizeof *pb);
        assert_int_equal(c2d_scene_collide_frozen(s_new, &awake, aid, pa, cap, &ca),
                         c2d_scene_collide_frozen_circles(s_old, &awake, aid, pb, cap, &cb));
        assert_int_equal(ca, cb);
        assert_true(ca > 0);
        assert_memory_equal(pa, pb, cap * sizeof *pa);
        /* a truncated call and a size query */
        assert_int_equal(c2d_scene_collide_frozen(s_new, &awake, aid, pa, ca / 2, &ca),
                         c2d_scene_collide_frozen_circles(s_old, &awake, aid, pb, cb / 2, &cb));
        assert_int_equal(ca, cb);
        assert_int_equal(c2d_scene_collide_frozen(s_new, &awake, aid, NULL, 0, &ca),
                         c2d_scene_collide_frozen_circles(s_old, &awake, aid, NULL, 0, &cb));
        assert_int_equal(ca, cb);
        memset(ha, 0xA5, n * sizeof *ha);
        memset(hb, 0xA5, n * sizeof *hb);
        assert_int_equal(c2d_scene_sweep_frozen(s_new, &awake, aid, &moves, ha),
                         c2d_scene_sweep_frozen_circles(s_old, &awake, aid, mx, my, hb));
        assert_memory_equal(ha, hb, na * sizeof *ha);
        /* bad input: the same statuses */
        assert_int_equal(c2d_scene_sweep_frozen(s_new, &awake, aid, NULL, ha),
                         c2d_scene_sweep_frozen_circles(s_old, &awake, aid, NULL, NULL, hb));
        assert_int_equal(c2d_scene_sweep_frozen(s_new, &awake, aid, &half_moves, ha),
                         c2d_scene_sweep_frozen_circles(s_old, &awake, aid, mx, NULL, hb));
        assert_int_equal(c2d_scene_sweep_frozen(NULL, &awake, aid, &moves, ha), C2D_ERROR_NULL);
        assert_int_equal(c2d_scene_collide_frozen(NULL, &awake, aid, pa, cap, &ca),
                         c2d_scene_collide_frozen_circles(NULL, &awake, aid, pb, cap, &cb));
        assert_int_equal(ca, cb);
    }
    /* thaw half of them (and some ids never frozen) */
    assert_int_equal(c2d_scene_thaw_balls(s_new, ids, half), C2D_OK);
    assert_int_equal(c2d_scene_thaw_circles(s_old, ids, half), C2D_OK);
    assert_int_equal(c2d_scene_frozen_count(s_new), c2d_scene_frozen_count(s_old));
    assert_int_equal(c2d_scene_thaw_balls(s_new, NULL, 1), c2d_scene_thaw_circles(s_old, NULL, 1));
    assert_int_equal(c2d_scene_thaw_balls(NULL, ids, 1), C2D_ERROR_NULL);
    assert_int_equal(c2d_scene_freeze_balls(NULL, &resting, rid),
                     c2d_scene_freeze_circles(NULL, &resting, rid));
    for (uint32_t id = 0; id < n; id++)
        assert_int_equal(c2d_scene_frozen_ball(s_new, id, NULL),
                         c2d_scene_frozen_circle(s_old, id, NULL));
    c2d_scene_destroy(s_new);
    c2d_scene_destroy(s_old);
    free(pa), free(pb), free(ha), free(hb), free(ids), free(rid), free(aid);
    free(rx), free(ry), free(rr), free(ax), free(ay), free(ar), free(mx), free(my);
    c2d_workload_free(&w);
}

/* Two copies of the bodies' mutable state, so old and new calls start from the same bytes. */
typedef struct bodies {
    float *vx, *vy, *w;
    c2d_body_soa soa;
    c2d_body_friction_soa spin;
} bodies;

static void bodies_init(bodies *b, const c2d_workload *w, const float *inv_mass, const float *e,
                        const float *mu, const float *inv_inertia) {
    const size_t n = w->circles.count;
    b->vx = xmalloc(n * sizeof(float));
    b->vy = xmalloc(n * sizeof(float));
    b->w = xmalloc(n * sizeof(float));
    memcpy(b->vx, w->move_x, n * sizeof(float));
    memcpy(b->vy, w->move_y, n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        b->w[i] = 0.25f * w->move_x[i];
    b->soa = (c2d_body_soa){.x = w->x,
                            .y = w->y,
                            .vx = b->vx,
                            .vy = b->vy,
                            .inv_mass = inv_mass,
                            .restitution = e,
                            .count = n};
    b->spin = (c2d_body_friction_soa){
        .friction = mu, .angular_velocity = b->w, .inv_inertia = inv_inertia, .radius = w->radius};
}

static void bodies_equal(const bodies *a, const bodies *b, size_t n) {
    assert_memory_equal(a->vx, b->vx, n * sizeof(float));
    assert_memory_equal(a->vy, b->vy, n * sizeof(float));
    assert_memory_equal(a->w, b->w, n * sizeof(float));
}

static void bodies_free(bodies *b) {
    free(b->vx), free(b->vy), free(b->w);
}

/* c2d_solve_circle_contacts / c2d_solve_capsule_contacts == the four c2d_resolve_* calls. */
static void test_solve(void **state) {
    (void)state;
    c2d_workload w;
    assert_int_equal(c2d_workload_make(&w, 3000, 200, C2D_WORKLOAD_SEED), 0);
    const size_t n = w.circles.count, m = w.capsules.count;
    /* denser balls: scale the radii so that ball pairs exist */
    for (size_t i = 0; i < n; i++)
        w.radius[i] *= 4.0f;
    float *inv_mass = xmalloc(n * sizeof(float)), *e = xmalloc(n * sizeof(float));
    float *mu = xmalloc(n * sizeof(float)), *ii = xmalloc(n * sizeof(float));
    c2d_rng rng = {11};
    for (size_t i = 0; i < n; i++) {
        inv_mass[i] = i % 17 == 0 ? 0.0f : c2d_rng_range(&rng, 0.5f, 2.0f);
        e[i] = c2d_rng_unit(&rng);
        mu[i] = c2d_rng_unit(&rng);
        ii[i] = 2.0f * inv_mass[i] / (w.radius[i] * w.radius[i]);
    }
    float *ke = xmalloc(m * sizeof(float)), *kmu = xmalloc(m * sizeof(float));
    float *kvx = xmalloc(m * sizeof(float)), *kvy = xmalloc(m * sizeof(float));
    float *kw = xmalloc(m * sizeof(float)), *kpx = xmalloc(m * sizeof(float));
    float *kpy = xmalloc(m * sizeof(float));
    for (size_t k = 0; k < m; k++) {
        ke[k] = c2d_rng_unit(&rng), kmu[k] = c2d_rng_unit(&rng);
        kvx[k] = c2d_rng_range(&rng, -1, 1), kvy[k] = c2d_rng_range(&rng, -1, 1);
        kw[k] = c2d_rng_range(&rng, -1, 1), kpx[k] = w.ax[k], kpy[k] = w.ay[k];
    }
    size_t nc, nk;
    assert_int_equal(c2d_batch_collide_circles(&w.circles, NULL, 0, &nc), C2D_OK);
    assert_int_equal(c2d_batch_collide(&w.circles, &w.capsules, NULL, 0, &nk), C2D_OK);
    assert_true(nc > 20 && nk > 20);
    c2d_circle_pair_contact *cc = xmalloc(nc * sizeof *cc);
    c2d_capsule_pair_contact *kc = xmalloc(nk * sizeof *kc);
    assert_int_equal(c2d_batch_collide_circles(&w.circles, cc, nc, &nc), C2D_OK);
    assert_int_equal(c2d_batch_collide(&w.circles, &w.capsules, kc, nk, &nk), C2D_OK);
    const size_t most = nc > nk ? nc : nk;
    float *ja = xmalloc(most * sizeof(float)), *jb = xmalloc(most * sizeof(float));
    float *ta = xmalloc(most * sizeof(float)), *tb = xmalloc(most * sizeof(float));
    const c2d_capsule_body_soa at_rest = {.restitution = ke, .count = m};
    const c2d_capsule_body_soa moving = {.restitution = ke,
                                         .friction = kmu,
                                         .vx = kvx,
                                         .vy = kvy,
                                         .angular_velocity = kw,
                                         .pivot_x = kpx,
                                         .pivot_y = kpy,
                                         .count = m};
    const c2d_capsule_body_soa short_set = {.restitution = ke, .count = m / 2};
    const c2d_capsule_body_soa one_velocity = {.vx = kvx, .count = m};
    bodies a, b;
    for (int round = 0; round < 2; round++) { /* round 1: a list with a bad index at its end */
        if (round == 1) cc[nc - 1].b = (uint32_t)n;
        bodies_init(&a, &w, inv_mass, e, mu, ii);
        bodies_init(&b, &w, inv_mass, e, mu, ii);
        const c2d_status want = round == 0 ? C2D_OK : C2D_ERROR_INDEX;
        /* plain ball-ball */
        memset(ja, 0, most * sizeof(float)), memset(jb, 0, most * sizeof(float));
        c2d_solve_def d = {.impulses = ja};
        assert_int_equal(c2d_solve_circle_contacts(&a.soa, cc, nc, &d), want);
        assert_int_equal(c2d_resolve_circle_contacts(&b.soa, cc, nc, jb), want);
        bodies_equal(&a, &b, n);
        assert_memory_equal(ja, jb, nc * sizeof(float));
        assert_int_equal(c2d_solve_circle_contacts(&a.soa, cc, nc, NULL),
                         c2d_resolve_circle_contacts(&b.soa, cc, nc, NULL));
        bodies_equal(&a, &b, n);
        /* with friction and spin */
        d = (c2d_solve_def){.friction = &a.spin, .impulses = ja, .tangent_impulses = ta};
        assert_int_equal(c2d_solve_circle_contacts(&a.soa, cc, nc, &d),
                         c2d_resolve_circle_contacts_ex(&b.soa, &b.spin, cc, nc, jb, tb));
        bodies_equal(&a, &b, n);
        assert_memory_equal(ja, jb, nc * sizeof(float));
        assert_memory_equal(ta, tb, nc * sizeof(float));
        bodies_free(&a), bodies_free(&b);
    }
    /* capsules: at rest (plain), at rest with a short set (index errors), moving with friction,
     * NULL capsules, and a half-given velocity (NULL error) */
    const c2d_capsule_body_soa *sets[] = {&at_rest, &short_set, &moving, NULL, &one_velocity};
    for (size_t c = 0; c < sizeof sets / sizeof sets[0]; c++) {
        for (int friction = 0; friction < 2; friction++) {
            bodies_init(&a, &w, inv_mass, e, mu, ii);
            bodies_init(&b, &w, inv_mass, e, mu, ii);
            memset(ja, 0, most * sizeof(float)), memset(jb, 0, most * sizeof(float));
            memset(ta, 0, most * sizeof(float)), memset(tb, 0, most * sizeof(float));
            const c2d_solve_def d = {.friction = friction ? &a.spin : NULL,
                                     .capsules = sets[c],
                                     .impulses = ja,
                                     .tangent_impulses = ta};
            assert_int_equal(c2d_solve_capsule_contacts(&a.soa, kc, nk, &d),
                             c2d_resolve_capsule_contacts_ex(&b.soa, friction ? &b.spin : NULL, kc,
                                                             nk, sets[c], jb, tb));
            bodies_equal(&a, &b, n);
            assert_memory_equal(ja, jb, nk * sizeof(float));
            assert_memory_equal(ta, tb, nk * sizeof(float));
            bodies_free(&a), bodies_free(&b);
        }
        /* the plain 0.1.0 call: restitution array and count */
        if (sets[c] && !sets[c]->vx && !sets[c]->angular_velocity) {
            bodies_init(&a, &w, inv_mass, e, mu, ii);
            bodies_init(&b, &w, inv_mass, e, mu, ii);
            const c2d_solve_def d = {.capsules = sets[c], .impulses = ja};
            assert_int_equal(c2d_solve_capsule_contacts(&a.soa, kc, nk, &d),
                             c2d_resolve_capsule_contacts(&b.soa, kc, nk, sets[c]->restitution,
                                                          sets[c]->count, jb));
            bodies_equal(&a, &b, n);
            assert_memory_equal(ja, jb, nk * sizeof(float));
            bodies_free(&a), bodies_free(&b);
        }
    }
    /* NULL arrays: the same statuses */
    bodies_init(&a, &w, inv_mass, e, mu, ii);
    a.soa.restitution = NULL;
    assert_int_equal(c2d_solve_capsule_contacts(&a.soa, kc, nk, NULL),
                     c2d_resolve_capsule_contacts(&a.soa, kc, nk, NULL, m, NULL));
    assert_int_equal(c2d_solve_circle_contacts(&a.soa, cc, nc, NULL),
                     c2d_resolve_circle_contacts(&a.soa, cc, nc, NULL));
    assert_int_equal(c2d_solve_circle_contacts(NULL, cc, nc, NULL), C2D_ERROR_NULL);
    bodies_free(&a);
    free(cc), free(kc), free(ja), free(jb), free(ta), free(tb);
    free(inv_mass), free(e), free(mu), free(ii);
    free(ke), free(kmu), free(kvx), free(kvy), free(kw), free(kpx), free(kpy);
    c2d_workload_free(&w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_sweep_moving),
        cmocka_unit_test(test_frozen),
        cmocka_unit_test(test_solve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
