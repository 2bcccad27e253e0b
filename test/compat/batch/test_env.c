/* The COLLIDE2D_BACKEND override. Meson runs this program once per name, with
 * COLLIDE2D_BACKEND set and the same name as the first argument (or "auto" where the variable
 * holds something that is not an available backend's name):
 *   - a name of an available backend makes it the first active backend;
 *   - any other value (unavailable, unknown, empty, "auto", wrong case) is ignored: the first
 *     active backend is the automatic choice, the one c2d_backend_select(AUTO) makes.
 * The second argument is what c2d_backend_env_status() must say: "used", "unknown", or
 * "backend" (used when that backend is available, unavailable otherwise). */
#define _POSIX_C_SOURCE 200809L /* unsetenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "collide2d.h"

static const char *expected_name;   /* argv[1] */
static const char *expected_status; /* argv[2] */

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
        if (strcmp(expected_name, c2d_backend_name((c2d_backend)b)) == 0) named = (c2d_backend)b;
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
    /* the status call says what was asked and why it was (not) used */
    const char *requested = NULL;
    const c2d_backend_env status = c2d_backend_env_status(&requested);
    assert_ptr_equal(requested, env);
    c2d_backend_env want = C2D_BACKEND_ENV_UNKNOWN;
    if (strcmp(expected_status, "used") == 0)
        want = C2D_BACKEND_ENV_USED;
    else if (strcmp(expected_status, "backend") == 0)
        want = named != C2D_BACKEND_AUTO && c2d_backend_available(named)
                   ? C2D_BACKEND_ENV_USED
                   : C2D_BACKEND_ENV_UNAVAILABLE;
    else
        assert_string_equal(expected_status, "unknown");
    fprintf(stderr, "status: %s\n", c2d_backend_env_string(status));
    assert_int_equal(status, want);
    assert_int_equal(c2d_backend_env_status(NULL), want);

    /* the override is a starting point, not a lock */
    assert_int_equal(c2d_backend_select(C2D_BACKEND_SCALAR), C2D_OK);
    assert_int_equal(c2d_backend_active(), C2D_BACKEND_SCALAR);
}

/* Unset, the variable reports C2D_BACKEND_ENV_UNSET and no request; every status has a
 * description. (Runs after environment_override: the first choice is already made.) */
static void environment_unset(void **state) {
    (void)state;
    assert_int_equal(unsetenv("COLLIDE2D_BACKEND"), 0);
    const char *requested = "not written";
    assert_int_equal(c2d_backend_env_status(&requested), C2D_BACKEND_ENV_UNSET);
    assert_null(requested);
    const c2d_backend_env all[] = {C2D_BACKEND_ENV_UNSET, C2D_BACKEND_ENV_USED,
                                   C2D_BACKEND_ENV_UNKNOWN, C2D_BACKEND_ENV_UNAVAILABLE};
    for (size_t i = 0; i < 4; i++) {
        assert_non_null(c2d_backend_env_string(all[i]));
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(c2d_backend_env_string(all[i]), c2d_backend_env_string(all[j]));
    }
    assert_string_equal(c2d_backend_env_string((c2d_backend_env)99), "unknown status");
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s BACKEND-NAME|auto used|unknown|backend\n", argv[0]);
        return 2;
    }
    expected_name = argv[1];
    expected_status = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(environment_override),
        cmocka_unit_test(environment_unset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
