/* The bounds behind every conservative test (the batch layer's culling boxes, batch/cull.h, and
 * the ball grid's swept sizes, core/ball_bin_formula.h): the magnitude up to which a value is
 * "tame" and the slack that covers float rounding. Plain constants, so every floor may use them. */
#ifndef C2D_CORE_SLACK_H
#define C2D_CORE_SLACK_H

/* Magnitude up to which a value is "tame": squares and sums of tame values stay far from
 * overflow, so the float error bounds behind the boxes hold. 2^40. */
#define C2D_TAME_LIMIT 1099511627776.0f

/* Slack of the sweep boxes. The time of impact comes from a square root of a difference of
 * squares: an error of eps (2^-24) relative to |s|^2 in that difference moves a grazing hit by
 * up to about sqrt(eps)|s| = 2^-12 |s|, where |s| is bounded by the motion plus the radii. So
 * sizes (motion, radii, axis length) get 2^-8 of slack, and positions, whose rounding errors
 * are not amplified, 2^-16; both are far above the errors they cover. */
#define C2D_SWEEP_SIZE_SLACK 0.00390625f            /* 2^-8 */
#define C2D_SWEEP_POSITION_SLACK 1.52587890625e-05f /* 2^-16 */

/* Relative slack of the collide boxes, 2^-20. The exact test can accept a centre at most
 * (r+R)(1 + 3.5 eps) from an axis point that float rounding may have moved 3 eps max|coord|
 * past the axis ends (eps = 2^-24); 2^-20 of the magnitudes covers both with room to spare.
 * The absolute 2^-60 covers underflow: squares below 2^-126 lose absolute precision
 * (about 2^-149), which moves a distance by at most 2^-74. */
#define C2D_COLLIDE_RELATIVE_SLACK 9.5367431640625e-07 /* 2^-20 */
#define C2D_ABSOLUTE_SLACK 8.673617379884035e-19       /* 2^-60 */

#endif
