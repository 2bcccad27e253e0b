/* The world's Galton board (examples/world/galton.c, included as it is) on 100 balls: after
 * 900 steps every ball lies in a bin, each bin's sensor count (enters minus exits, from the
 * events alone) equals the balls whose centres lie in it, and every backend gives the same
 * counts and the same world hash. */
#define GALTON_NO_MAIN
#include "../../examples/world/galton.c"

#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

enum { TEST_BALLS = 100, TEST_FRAMES = 900 };

static void bins_on_every_backend(void **state) {
    (void)state;
    int first_counts[BINS];
    uint64_t first_hash = 0;
    size_t runs = 0;
    for (int b = 0; b < C2D_BACKEND_COUNT; b++) {
        if (!c2d_backend_available((c2d_backend)b)) continue;
        assert_int_equal(c2d_backend_select((c2d_backend)b), C2D_OK);
        int counts[BINS], in_bin[BINS], total = 0;
        const uint64_t hash = galton_run(TEST_BALLS, TEST_FRAMES, counts, in_bin);
        fprintf(stderr, "galton %-12s: hash 0x%016llx, bins", c2d_backend_name((c2d_backend)b),
                (unsigned long long)hash);
        for (int k = 0; k < BINS; k++)
            fprintf(stderr, " %d", counts[k]);
        fprintf(stderr, "\n");
        assert_true(hash != 0);
        for (int k = 0; k < BINS; k++) {
            assert_int_equal(counts[k], in_bin[k]);
            total += in_bin[k];
        }
        assert_int_equal(total, TEST_BALLS); /* none left on a pin or bouncing */
        if (runs++ == 0) {
            first_hash = hash;
            memcpy(first_counts, counts, sizeof counts);
        } else {
            assert_true(hash == first_hash);
            assert_memory_equal(counts, first_counts, sizeof counts);
        }
    }
    assert_true(runs > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(bins_on_every_backend)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
