/* The COLLIDE2D_BACKEND override. Meson runs this program once per name, with
 * COLLIDE2D_BACKEND set and the same name as the argument (or "auto" where the variable holds
 * something that is not an available backend's name):
 *   - a name of an available backend makes it the first active backend;
 *   - any other value (unavailable, unknown, empty, "auto", wrong case) is ignored: the first
 *     active backend is the automatic choice, the one c2d_backend_select(AUTO) makes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "collide2d.h"

static const char *expected_name; /* argv[1] */

static void environment_override(void **state) {
    (void)state;
    const char *env = getenv("COLLIDE2D_BACKEND");
    assert_non_null(env); /* meson sets it */
    fprintf(stderr, "COLLIDE2D_BACKEND='%s', expecting '%s'\n", env, expected_name);

    /* the very first library call that makes a choice (threads are left to the hardening
     * suite: qemu-user here cannot create them) */
    const c2d_backend first = c2d_backend_active();
    assert_int_equal(c2d_backend_active(), first); /* stable */
    assert_int_not_equal(first, C2D_BACKEND_AUTO);

    /* the backend the argument names, if available */
    c2d_backend named = C2D_BACKEND_AUTO;
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++)
        if (strcmp(expected_name, c2d_backend_name((c2d_backend)b)) == 0)
            named = (c2d_backend)b;
    if (named != C2D_BACKEND_AUTO && c2d_backend_available(named)) {
        assert_string_equal(env, expected_name);
        assert_int_equal(first, named);
        fprintf(stderr, "active: %s (override)\n", c2d_backend_name(first));
    } else {
        /* ignored: the automatic choice */
        assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
        const c2d_backend automatic = c2d_backend_active();
        assert_int_equal(first, automatic);
        fprintf(stderr, "active: %s (automatic)\n", c2d_backend_name(first));
    }
    /* the override is a starting point, not a lock */
    assert_int_equal(c2d_backend_select(C2D_BACKEND_SCALAR), C2D_OK);
    assert_int_equal(c2d_backend_active(), C2D_BACKEND_SCALAR);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s BACKEND-NAME|auto\n", argv[0]);
        return 2;
    }
    expected_name = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(environment_override),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
