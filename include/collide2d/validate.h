/// @file collide2d/validate.h
/// Checks a game can run once per frame on its batch inputs, to find bad data (NaN after a
/// bad frame, a body flung to infinity, a negative radius) before it silently produces no
/// contacts.
#ifndef COLLIDE2D_VALIDATE_H
#define COLLIDE2D_VALIDATE_H

#include "batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Largest magnitude a coordinate or radius may have to be "valid": 2^60 (about 1.15e18).
/// Up to it, every squared distance the library forms stays finite. There is no lower
/// limit, but below about 2^-75 squares underflow and shapes count as touching (query.h).
#define C2D_MAX_MAGNITUDE 1152921504606846976.0f

/// What is wrong with a value.
typedef enum c2d_defect {
    C2D_DEFECT_NONE = 0,        ///< Nothing: every value is valid.
    C2D_DEFECT_NAN,             ///< A coordinate or radius is NaN.
    C2D_DEFECT_INFINITE,        ///< A coordinate or radius is +-Inf.
    C2D_DEFECT_NEGATIVE_RADIUS, ///< A radius is below zero (-0 is fine).
    C2D_DEFECT_HUGE,            ///< A finite magnitude exceeds C2D_MAX_MAGNITUDE.
    C2D_DEFECT_NULL             ///< A needed array is NULL (count > 0).
} c2d_defect;

/// The first bad element of an array set: `index` is that element's index (0 when `defect`
/// is C2D_DEFECT_NONE or C2D_DEFECT_NULL).
typedef struct c2d_validation {
    c2d_defect defect;
    size_t index;
} c2d_validation;

/// Finds the first circle with a defect, checking x, y, then radius of each circle in turn.
/// A NULL `circles` is C2D_DEFECT_NULL.
C2D_API c2d_validation c2d_validate_circles(const c2d_circle_soa *circles);

/// Finds the first capsule with a defect, checking ax, ay, bx, by, then radius of each in turn.
/// Zero-length capsules are valid (they behave as circles). A NULL `capsules` is C2D_DEFECT_NULL.
C2D_API c2d_validation c2d_validate_capsules(const c2d_capsule_soa *capsules);

/// A short English description of `d` (never NULL).
C2D_API const char *c2d_defect_string(c2d_defect d);

#ifdef __cplusplus
}
#endif

#endif
