/* A tiny consumer of libcollide2d, built by every way test/consumers/run.sh installs or embeds
 * the library: checks the version, a count query and one contact, and exits 0 on success. */
#include <stdio.h>

#include <collide2d.h>

int main(void) {
    if (c2d_version() != C2D_VERSION_NUMBER) {
        fprintf(stderr, "library %s, headers %s\n", c2d_version_string(), C2D_VERSION_STRING);
        return 1;
    }
    const float x[2] = {0.0f, 5.0f}, y[2] = {0.25f, 0.0f}, r[2] = {1.0f, 1.0f};
    const float ax[1] = {-1.0f}, ay[1] = {0.0f}, bx[1] = {1.0f}, by[1] = {0.0f}, R[1] = {0.5f};
    const c2d_circle_soa balls = {x, y, r, 2, NULL, NULL};
    const c2d_capsule_soa pins = {ax, ay, bx, by, R, 1, NULL, NULL, NULL};
    size_t n = 99;
    if (c2d_batch_collide(&balls, &pins, NULL, 0, &n) != C2D_OK || n != 1) {
        fprintf(stderr, "count query: %zu contacts\n", n);
        return 1;
    }
    c2d_pair_contact out[1];
    if (c2d_batch_collide(&balls, &pins, out, 1, &n) != C2D_OK || out[0].circle != 0) {
        fprintf(stderr, "c2d_batch_collide failed\n");
        return 1;
    }
    printf("collide2d %s, backend %s: %zu contact, depth %g\n", c2d_version_string(),
           c2d_backend_name(c2d_backend_active()), n, (double)out[0].contact.depth);
    return 0;
}
