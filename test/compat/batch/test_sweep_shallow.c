/* c2d_batch_sweep on shallow entries next to the ends of thin capsules (the cases of
 * test/support/shallow_entry.h), byte for byte against the scalar function on every backend:
 * the sweep kernels' culling boxes (src/batch/cull.h) must keep every lane the scalar sweep
 * hits, including the entries the rewritten side test now reports (docs/sweeps.md). Each scene
 * holds 64 circles, each aimed at one of its 64 capsules, and every circle is swept against
 * every capsule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "batch_check.h"
#include "shallow_entry.h"

static void shallow_scenes_match_scalar(void **state) {
    (void)state;
    gen g = {UINT64_C(0x5ba7c4)};
    size_t hits = 0, cases = 0;
    for (int sc = 0; sc < 100; sc++) {
        scene s;
        scene_init(&s, 64, 64, sc % 2 ? LAYOUT_OFFSET : LAYOUT_ALIGNED);
        for (size_t i = 0; i < 64; i++) {
            c2d_circle c;
            c2d_vec2 m;
            c2d_capsule k;
            shallow_entry(&g, &c, &m, &k);
            s.x[i] = c.center.x, s.y[i] = c.center.y, s.r[i] = c.radius;
            s.mx[i] = m.x, s.my[i] = m.y;
            s.ax[i] = k.a.x, s.ay[i] = k.a.y, s.bx[i] = k.b.x, s.by[i] = k.b.y, s.R[i] = k.radius;
        }
        c2d_circle_toi ref[64];
        ref_sweep(&s, ref);
        for (size_t i = 0; i < 64; i++)
            hits += ref[i].capsule != C2D_NONE;
        cases += 64;
        check_sweep(&s, "shallow entries");
        scene_free(&s);
    }
    assert_true(hits > cases / 2); /* the scenes are mostly hits, as designed */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shallow_scenes_match_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
