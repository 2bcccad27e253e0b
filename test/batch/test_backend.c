/* The backend API: names, availability, selection (AUTO, unavailable, out of range), the
 * active backend, and the status strings. */
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "collide2d.h"

/* Values outside the enum, as a caller might pass them. */
static const int out_of_range[] = {C2D_BACKEND_COUNT, C2D_BACKEND_COUNT + 1, 99, -1, 1 << 30};
enum { N_OUT_OF_RANGE = sizeof out_of_range / sizeof out_of_range[0] };

static void backend_names(void **state) {
    (void)state;
    static const char *const names[C2D_BACKEND_COUNT] = {
        [C2D_BACKEND_AUTO] = "auto", [C2D_BACKEND_SCALAR] = "scalar",
        [C2D_BACKEND_SSE2] = "sse2", [C2D_BACKEND_SSE41] = "sse41",
        [C2D_BACKEND_AVX2] = "avx2", [C2D_BACKEND_AVX512] = "avx512",
        [C2D_BACKEND_NEON] = "neon", [C2D_BACKEND_WASM_SIMD128] = "wasm_simd128",
    };
    for (int b = 0; b < C2D_BACKEND_COUNT; b++) {
        const char *name = c2d_backend_name((c2d_backend)b);
        assert_non_null(name);
        assert_string_equal(name, names[b]);
    }
    for (size_t k = 0; k < N_OUT_OF_RANGE; k++) {
        const char *name = c2d_backend_name((c2d_backend)out_of_range[k]);
        assert_non_null(name);
        assert_string_equal(name, "unknown");
    }
}

/* What this CPU runs, independently of the library's own probe. */
static bool cpu_has(c2d_backend b) {
#if defined(__x86_64__)
    __builtin_cpu_init();
    switch (b) {
    case C2D_BACKEND_SSE2:
        return __builtin_cpu_supports("sse2");
    case C2D_BACKEND_SSE41:
        return __builtin_cpu_supports("sse4.1");
    case C2D_BACKEND_AVX2:
        return __builtin_cpu_supports("avx2");
    case C2D_BACKEND_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl");
    case C2D_BACKEND_NEON:
        return false;
    case C2D_BACKEND_WASM_SIMD128:
        return false;
    default:
        return true;
    }
#elif defined(__aarch64__)
    return b == C2D_BACKEND_NEON || b == C2D_BACKEND_SCALAR || b == C2D_BACKEND_AUTO;
#elif defined(__wasm__)
    /* the library's wasm builds compile the SIMD128 kernels in; an engine without SIMD128
     * would not have loaded this program */
    return b == C2D_BACKEND_WASM_SIMD128 || b == C2D_BACKEND_SCALAR || b == C2D_BACKEND_AUTO;
#else
    return b == C2D_BACKEND_SCALAR || b == C2D_BACKEND_AUTO;
#endif
}

static void backend_availability(void **state) {
    (void)state;
    assert_true(c2d_backend_available(C2D_BACKEND_AUTO));
    assert_true(c2d_backend_available(C2D_BACKEND_SCALAR));
    /* every SIMD backend the build targets is there exactly when the CPU runs it: none is
     * silently skipped by the equivalence tests */
    for (int b = C2D_BACKEND_SSE2; b < C2D_BACKEND_COUNT; b++)
        assert_int_equal(c2d_backend_available((c2d_backend)b), cpu_has((c2d_backend)b));
    for (size_t k = 0; k < N_OUT_OF_RANGE; k++)
        assert_false(c2d_backend_available((c2d_backend)out_of_range[k]));
#if defined(__x86_64__)
    assert_true(c2d_backend_available(C2D_BACKEND_SSE2)); /* x86-64 baseline */
#elif defined(__aarch64__)
    assert_true(c2d_backend_available(C2D_BACKEND_NEON));
#elif defined(__wasm__)
    assert_true(c2d_backend_available(C2D_BACKEND_WASM_SIMD128));
#endif
}

static void backend_active_never_auto(void **state) {
    (void)state;
    const c2d_backend b = c2d_backend_active();
    assert_int_not_equal(b, C2D_BACKEND_AUTO);
    assert_true(b > C2D_BACKEND_AUTO && b < C2D_BACKEND_COUNT);
    assert_true(c2d_backend_available(b));
    /* without an override, the first choice is the automatic one */
    if (!getenv("COLLIDE2D_BACKEND")) {
        assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
        assert_int_equal(c2d_backend_active(), b);
    }
}

/* The widest available backend. */
static void backend_select_auto(void **state) {
    (void)state;
    assert_int_equal(c2d_backend_select(C2D_BACKEND_SCALAR), C2D_OK);
    assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
    const c2d_backend b = c2d_backend_active();
    assert_int_not_equal(b, C2D_BACKEND_AUTO);
    assert_true(c2d_backend_available(b));
    if (c2d_backend_available(C2D_BACKEND_AVX512))
        assert_int_equal(b, C2D_BACKEND_AVX512);
    else if (c2d_backend_available(C2D_BACKEND_AVX2))
        assert_int_equal(b, C2D_BACKEND_AVX2);
    else if (c2d_backend_available(C2D_BACKEND_NEON))
        assert_int_equal(b, C2D_BACKEND_NEON);
    else if (c2d_backend_available(C2D_BACKEND_WASM_SIMD128))
        assert_int_equal(b, C2D_BACKEND_WASM_SIMD128);
    else if (c2d_backend_available(C2D_BACKEND_SSE2))
        assert_true(b == C2D_BACKEND_SSE41 || b == C2D_BACKEND_SSE2);
    else
        assert_int_equal(b, C2D_BACKEND_SCALAR);
    /* selecting AUTO again from another backend gives the same choice */
    for (int from = C2D_BACKEND_SCALAR; from < C2D_BACKEND_COUNT; from++) {
        if (!c2d_backend_available((c2d_backend)from)) continue;
        assert_int_equal(c2d_backend_select((c2d_backend)from), C2D_OK);
        assert_int_equal(c2d_backend_select(C2D_BACKEND_AUTO), C2D_OK);
        assert_int_equal(c2d_backend_active(), b);
    }
}

static void backend_select_each(void **state) {
    (void)state;
    int selected = 0;
    for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++) {
        if (!c2d_backend_available((c2d_backend)b)) continue;
        assert_int_equal(c2d_backend_select((c2d_backend)b), C2D_OK);
        assert_int_equal(c2d_backend_active(), b);
        assert_int_equal(c2d_backend_active(), b); /* stable */
        selected++;
    }
#if defined(__x86_64__) || defined(__aarch64__) || defined(__wasm__)
    assert_true(selected >= 2); /* scalar and at least one SIMD backend */
#else
    assert_true(selected >= 1);
#endif
}

/* Unavailable or out-of-range: C2D_ERROR_UNSUPPORTED and the active backend unchanged, from
 * every starting backend. */
static void backend_select_unsupported(void **state) {
    (void)state;
    int refused = 0;
    for (int from = C2D_BACKEND_SCALAR; from < C2D_BACKEND_COUNT; from++) {
        if (!c2d_backend_available((c2d_backend)from)) continue;
        assert_int_equal(c2d_backend_select((c2d_backend)from), C2D_OK);
        for (int b = C2D_BACKEND_SCALAR; b < C2D_BACKEND_COUNT; b++) {
            if (c2d_backend_available((c2d_backend)b)) continue;
            assert_int_equal(c2d_backend_select((c2d_backend)b), C2D_ERROR_UNSUPPORTED);
            assert_int_equal(c2d_backend_active(), from);
            refused++;
        }
        for (size_t k = 0; k < N_OUT_OF_RANGE; k++) {
            assert_int_equal(c2d_backend_select((c2d_backend)out_of_range[k]),
                             C2D_ERROR_UNSUPPORTED);
            assert_int_equal(c2d_backend_active(), from);
            refused++;
        }
    }
    /* x86 has no NEON and AArch64 and WebAssembly no SSE: some backend is always unavailable */
#if defined(__x86_64__) || defined(__aarch64__) || defined(__wasm__)
    assert_false(c2d_backend_available(C2D_BACKEND_NEON) &&
                 c2d_backend_available(C2D_BACKEND_SSE2));
#endif
    assert_true(refused > 0);
}

static void status_strings(void **state) {
    (void)state;
    const c2d_status all[] = {C2D_OK,
                              C2D_ERROR_NULL,
                              C2D_ERROR_INDEX,
                              C2D_ERROR_TRUNCATED,
                              C2D_ERROR_UNSUPPORTED,
                              C2D_ERROR_TOO_LARGE,
                              C2D_ERROR_ALLOC,
                              C2D_ERROR_STATE,
                              C2D_ERROR_VALUE};
    const size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        const char *s = c2d_status_string(all[i]);
        assert_non_null(s);
        assert_true(strlen(s) > 0);
        assert_string_not_equal(s, "unknown status");
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(s, c2d_status_string(all[j]));
    }
    const int others[] = {C2D_ERROR_VALUE + 1, 99, -1};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        const char *s = c2d_status_string((c2d_status)others[i]);
        assert_non_null(s);
        assert_string_equal(s, "unknown status");
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        /* first: it checks the very first, automatic choice */
        cmocka_unit_test(backend_active_never_auto),
        cmocka_unit_test(backend_names),
        cmocka_unit_test(backend_availability),
        cmocka_unit_test(backend_select_auto),
        cmocka_unit_test(backend_select_each),
        cmocka_unit_test(backend_select_unsupported),
        cmocka_unit_test(status_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
