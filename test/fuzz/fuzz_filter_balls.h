/* Part of fuzz_batch.c (included after fuzz_frozen.h): collision filters in the ball calls.
 *
 * Filter words for the scene's circles drawn from the input (the bits of each ball's values
 * and the capacity byte): mostly one or two of two layers, sometimes 0 or C2D_FILTER_ALL, so
 * that refused and allowed pairs are both common. Then the ball calls of fuzz_balls.h (batch
 * and scene, contacts and sweeps) and the frozen calls of fuzz_frozen.h run on the filtered
 * set, against the same scalar loops over the allowed pairs only, on every backend. */

/* Word `salt` of ball i. */
static uint32_t ball_filter_word(const scene *s, size_t i, uint32_t salt) {
    uint32_t x, y;
    memcpy(&x, &s->x[i], sizeof x);
    memcpy(&y, &s->y[i], sizeof y);
    uint32_t h = (x ^ (y * 0x85ebca6bu) ^ (salt * 0x9e3779b9u) ^ (uint32_t)i) + s->capacity_byte;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    switch (h % 8) {
    case 0:
        return 0;
    case 1:
        return C2D_FILTER_ALL;
    default:
        return 1u + (h >> 8) % 3u; /* layer 1, 2, or both */
    }
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
