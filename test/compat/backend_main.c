/* Wiring, not a copy (README.md, "Differences from the 0.1.0 wiring"): runs 0.1.0's
 * batch/test_backend.c, built with its main() renamed, without its case `status_strings`.
 * That case asserts that C2D_ERROR_STATE + 1 is an unknown status; DESIGN.md section 14 appends
 * C2D_ERROR_VALUE there, which c2d_status_string() must name. test/batch/test_backend.c checks
 * the strings of every status, the new one included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

int compat_backend_main(void);

int main(void) {
    cmocka_set_skip_filter("status_strings");
    return compat_backend_main();
}
