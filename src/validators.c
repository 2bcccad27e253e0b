/* Input validators: the first bad value of a circle or capsule set, and why. */
#include <math.h>

#include "collide2d/validate.h"
#include "contract.h"

static c2d_defect defect_of(float v, bool is_radius) {
    if (v != v) return C2D_DEFECT_NAN;
    if (isinf(v)) return C2D_DEFECT_INFINITE;
    if (is_radius && v < 0.0f) return C2D_DEFECT_NEGATIVE_RADIUS;
    if (fabsf(v) > C2D_MAX_MAGNITUDE) return C2D_DEFECT_HUGE;
    return C2D_DEFECT_NONE;
}

/* Scans element by element, fields in the order given; the last field is the radius. */
static c2d_validation first_defect(const float *const *fields, size_t n_fields, size_t count) {
    if (!c2d_arrays_given(count, fields, n_fields)) {
        const c2d_validation v = {C2D_DEFECT_NULL, 0};
        return v;
    }
    for (size_t i = 0; i < count; i++)
        for (size_t f = 0; f < n_fields; f++) {
            const c2d_defect d = defect_of(fields[f][i], f + 1 == n_fields);
            if (d != C2D_DEFECT_NONE) {
                const c2d_validation v = {d, i};
                return v;
            }
        }
    const c2d_validation ok = {C2D_DEFECT_NONE, 0};
    return ok;
}

c2d_validation c2d_validate_circles(const c2d_circle_soa *circles) {
    if (!circles) {
        const c2d_validation v = {C2D_DEFECT_NULL, 0};
        return v;
    }
    const float *const fields[] = {circles->x, circles->y, circles->radius};
    return first_defect(fields, 3, circles->count);
}

c2d_validation c2d_validate_capsules(const c2d_capsule_soa *capsules) {
    if (!capsules) {
        const c2d_validation v = {C2D_DEFECT_NULL, 0};
        return v;
    }
    const float *const fields[] = {capsules->ax, capsules->ay, capsules->bx, capsules->by,
                                   capsules->radius};
    return first_defect(fields, 5, capsules->count);
}

const char *c2d_defect_string(c2d_defect d) {
    switch (d) {
    case C2D_DEFECT_NONE:
        return "valid";
    case C2D_DEFECT_NAN:
        return "NaN coordinate or radius";
    case C2D_DEFECT_INFINITE:
        return "infinite coordinate or radius";
    case C2D_DEFECT_NEGATIVE_RADIUS:
        return "negative radius";
    case C2D_DEFECT_HUGE:
        return "magnitude above C2D_MAX_MAGNITUDE";
    case C2D_DEFECT_NULL:
        return "NULL array";
    }
    return "unknown defect";
}
