/* Part of fuzz_batch.c (included after fuzz_frozen.h and fuzz_filter_scene.h): collision filters in
 * the ball calls.
 *
 * Filter words for the scene's circles drawn from the input (fuzz_filter_scene.h's words from
 * the bits of each ball's values and the capacity byte): some of three layers, sometimes 0 or
 * C2D_FILTER_ALL, so that refused and allowed pairs are both common. Then the ball calls of
 * fuzz_balls.h (batch and scene, contacts and sweeps) and the frozen calls of fuzz_frozen.h run on
 * the filtered set, against the same scalar loops over the allowed pairs only, on every backend. */

/* Word `salt` of ball i. */
static uint32_t ball_filter_word(const scene *s, size_t i, uint32_t salt) {
    /* fuzz_filter_scene.h's words, salted by the ball's y and the capacity byte too */
    return fuzz_filter_word(s->x[i], i, salt ^ (bits_of(s->y[i]) * 0x85ebca6bu) ^ s->capacity_byte);
}

static void fuzz_filter_balls(const scene *s, const c2d_backend *list, size_t n_list) {
    uint32_t *cat = malloc((s->nc + 1) * sizeof *cat), *mask = malloc((s->nc + 1) * sizeof *mask);
    if (!cat || !mask) abort();
    for (size_t i = 0; i < s->nc; i++) {
        cat[i] = ball_filter_word(s, i, 1);
        mask[i] = ball_filter_word(s, i, 2);
    }
    /* both words, then a category alone (the mask NULL: every layer) */
    const c2d_circle_soa both = {s->x, s->y, s->r, s->nc, cat, mask};
    const c2d_circle_soa only_category = {s->x, s->y, s->r, s->nc, cat, NULL};
    fuzz_balls(s, &both, list, n_list);
    fuzz_balls(s, &only_category, list, n_list);
    fuzz_frozen_filtered(s, cat, mask, list, n_list);
    free(cat);
    free(mask);
}
