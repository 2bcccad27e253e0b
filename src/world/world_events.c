/* Events: contact begin, end and hit for pairs where a side asked (`events`), and sensor enter
 * and exit for every sensor, each list in id order.
 *
 * Both kinds keep a sorted list of the pairs that touch (are inside) between steps. A pair is
 * looked at again when one side is awake; a sleeping pair keeps its state. Touching begins at
 * overlap (touching counts) and ends when the gap exceeds 0.01 x the smaller radius, so a ball
 * resting with a twitch does not chatter; a sensor likewise (0.01 x the ball's radius). A ball
 * or capsule removed ends its pairs at the next step. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "world_internal.h"

#define HYSTERESIS 0.01f

static float max_f(float a, float b) {
    return a > b ? a : b;
}

static int pair_cmp(const void *pa, const void *pb) {
    const world_pair *a = pa, *b = pb;
    if (a->ball != b->ball) return a->ball < b->ball ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->other != b->other) return a->other < b->other ? -1 : 1;
    return 0;
}

static int event_cmp(const void *pa, const void *pb) {
    const c2d_world_contact_event *a = pa, *b = pb;
    if (a->ball != b->ball) return a->ball < b->ball ? -1 : 1;
    if (a->other_kind != b->other_kind) return a->other_kind < b->other_kind ? -1 : 1;
    if (a->other != b->other) return a->other < b->other ? -1 : 1;
    /* The same pair twice (a swept hit and a contact): the faster first, then by bytes. */
    if (a->approach_speed != b->approach_speed)
        return a->approach_speed > b->approach_speed ? -1 : 1;
    return memcmp(a, b, sizeof *a);
}

static int sensor_cmp(const void *pa, const void *pb) {
    const c2d_world_sensor_event *a = pa, *b = pb;
    if (a->sensor != b->sensor) return a->sensor < b->sensor ? -1 : 1;
    if (a->ball != b->ball) return a->ball < b->ball ? -1 : 1;
    return 0;
}

static void sort_events(world_array *a) {
    if (a->count > 1) qsort(a->data, a->count, sizeof(c2d_world_contact_event), event_cmp);
}

/* The pair key and event of a contact, oriented by section 14's rule (ball-ball: the lower id
 * is `ball`, the normal toward it), with the normal and point where the shapes are at the end
 * of the step, and the gap then. */
static world_pair contact_key(const c2d_world *w, const world_contact *c,
                              c2d_world_contact_event *e, double *gap, float *smaller) {
    uint32_t ka = w->awake[c->a];
    double ax = w->x[ka], ay = w->y[ka];
    if (c->kind == C2D_SHAPE_CAPSULE) {
        c2d_capsule s = w->shape[c->other];
        double bx = s.a.x, by = s.a.y, dx = (double)s.b.x - bx, dy = (double)s.b.y - by;
        double len2 = dx * dx + dy * dy;
        double u = len2 > 0 ? ((ax - bx) * dx + (ay - by) * dy) / len2 : 0.0;
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        double qx = bx + u * dx, qy = by + u * dy, ex = ax - qx, ey = ay - qy;
        double d = sqrt(ex * ex + ey * ey);
        c2d_vec2 n = d > 0 ? (c2d_vec2){(float)(ex / d), (float)(ey / d)} : c->normal;
        *gap = d - s.radius - w->radius[ka];
        *smaller = w->radius[ka];
        c2d_vec2 p = {(float)(qx + n.x * (double)s.radius), (float)(qy + n.y * (double)s.radius)};
        *e = (c2d_world_contact_event){
            w->ids[ka], w->capsule_ids[c->other], C2D_SHAPE_CAPSULE, p, n, 0.0f};
        return (world_pair){w->ids[ka], C2D_SHAPE_CAPSULE, w->capsule_ids[c->other]};
    }
    uint32_t kb = c->b != C2D_NONE ? w->awake[c->b] : c->other;
    double dx = ax - w->x[kb], dy = ay - w->y[kb];
    double d = sqrt(dx * dx + dy * dy);
    /* n: from b toward a. */
    c2d_vec2 n = d > 0 ? (c2d_vec2){(float)(dx / d), (float)(dy / d)} : c->normal;
    *gap = d - w->radius[ka] - w->radius[kb];
    *smaller = fminf(w->radius[ka], w->radius[kb]);
    uint32_t ia = w->ids[ka], ib = w->ids[kb];
    if (ia < ib) {
        /* `ball` is a: the point on b's surface, the normal toward a. */
        c2d_vec2 p = {w->x[kb] + n.x * w->radius[kb], w->y[kb] + n.y * w->radius[kb]};
        *e = (c2d_world_contact_event){ia, ib, C2D_SHAPE_CIRCLE, p, n, 0.0f};
        return (world_pair){ia, C2D_SHAPE_CIRCLE, ib};
    }
    /* `ball` is b: the point on a's surface, the normal toward b. */
    c2d_vec2 p = {w->x[ka] - n.x * w->radius[ka], w->y[ka] - n.y * w->radius[ka]};
    *e = (c2d_world_contact_event){ib, ia, C2D_SHAPE_CIRCLE, p, (c2d_vec2){-n.x, -n.y}, 0.0f};
    return (world_pair){ib, C2D_SHAPE_CIRCLE, ia};
}

/* Whether ball k sat out this step: asleep now, or asleep through the step and woken at its
 * end (not in the step's awake list, so no contact or sensor overlap was looked for). */
static bool sat_out(const c2d_world *w, uint32_t k) {
    if (!(w->flags[k] & WORLD_BALL_AWAKE)) return true;
    uint32_t i = w->local_of[k];
    return !(i < w->awake_list_count && w->awake[i] == k);
}

/* Whether a remembered pair may keep its state without a contact this step: both sides still
 * exist and neither took part in the step (a sleeping pair, or one woken at the step's end). */
static bool pair_sleeps(const c2d_world *w, const world_pair *p, bool *gone) {
    uint32_t ka, kb;
    *gone = !c2d_world_lookup_ball(w, p->ball, &ka);
    if (*gone) return false;
    if (p->kind == C2D_SHAPE_CAPSULE) {
        *gone = !c2d_world_lookup_capsule(w, p->other, &kb);
        return !*gone && sat_out(w, ka);
    }
    *gone = !c2d_world_lookup_ball(w, p->other, &kb);
    return !*gone && sat_out(w, ka) && sat_out(w, kb);
}

static bool push(c2d_world *w, world_array *a, const void *e, size_t size) {
    return c2d_world_array_push(w, a, e, size);
}

static c2d_status contact_events(c2d_world *w) {
    bool ok = true;
    world_array *old = &w->touching, *next = &w->touching_next;
    next->count = 0;
    if (!c2d_world_reserve(w, (void **)&w->matched, &w->matched_capacity, old->count + 1, 1))
        return C2D_ERROR_ALLOC;
    memset(w->matched, 0, old->count);
    const world_pair *prev = old->data;
    for (size_t i = 0; i < w->contact_count; i++) {
        const world_contact *c = &w->contacts[i];
        if (!c->events) continue;
        c2d_world_contact_event e;
        double gap;
        float smaller;
        world_pair key = contact_key(w, c, &e, &gap, &smaller);
        const world_pair *found = bsearch(&key, prev, old->count, sizeof key, pair_cmp);
        if (found) {
            w->matched[found - prev] = 1;
            if (gap <= HYSTERESIS * smaller) {
                ok &= push(w, next, &key, sizeof key);
            } else {
                ok &= push(w, &w->ends, &e, sizeof e);
            }
        } else if (gap <= 0.005 * smaller ||
                   (c->max_normal_impulse > 0.0f && c->relative_velocity < 0.0f)) {
            /* Touching (the sweeps stop a rounding short), or touched within the step (it took
             * a normal impulse while approaching): begins, and a hit if it was fast. A pair
             * already parted by more than the hysteresis (a glancing blow) ends in the same
             * step. */
            e.approach_speed = max_f(-c->relative_velocity, 0.0f);
            ok &= push(w, &w->begins, &e, sizeof e);
            if (e.approach_speed >= w->def.hit_speed && e.approach_speed > 0.0f)
                ok &= push(w, &w->hits, &e, sizeof e);
            if (gap <= HYSTERESIS * smaller) {
                ok &= push(w, next, &key, sizeof key);
            } else {
                c2d_world_contact_event end = e;
                end.approach_speed = 0.0f;
                ok &= push(w, &w->ends, &end, sizeof end);
            }
        }
    }
    /* Pairs not seen: kept while they sleep, ended otherwise. */
    for (size_t i = 0; i < old->count; i++) {
        if (w->matched[i]) continue;
        bool gone;
        if (pair_sleeps(w, &prev[i], &gone)) {
            ok &= push(w, next, &prev[i], sizeof prev[i]);
            continue;
        }
        c2d_world_contact_event e = {prev[i].ball, prev[i].other, (c2d_shape_kind)prev[i].kind,
                                     {0.0f, 0.0f}, {0.0f, 0.0f},  0.0f};
        ok &= push(w, &w->ends, &e, sizeof e);
    }
    /* The sweeps' hits. */
    const c2d_world_contact_event *sh = w->swept_hits.data;
    for (size_t i = 0; i < w->swept_hits.count; i++)
        ok &= push(w, &w->hits, &sh[i], sizeof sh[i]);
    w->swept_hits.count = 0;
    if (next->count > 1) qsort(next->data, next->count, sizeof(world_pair), pair_cmp);
    world_array t = *old;
    *old = *next;
    *next = t;
    sort_events(&w->begins);
    sort_events(&w->ends);
    sort_events(&w->hits);
    /* One hit a pair a step. */
    c2d_world_contact_event *h = w->hits.data;
    size_t m = 0;
    for (size_t i = 0; i < w->hits.count; i++)
        if (m == 0 || h[m - 1].ball != h[i].ball || h[m - 1].other != h[i].other ||
            h[m - 1].other_kind != h[i].other_kind)
            h[m++] = h[i];
    w->hits.count = m;
    return ok ? C2D_OK : C2D_ERROR_ALLOC;
}

/* Sensor pairs are kept as world_pair {sensor id, inside flag, ball id}, sorted by sensor then
 * ball (the `kind` field carries the flag in sensor_found; 0 in `inside`). */
static int sensor_pair_cmp(const void *pa, const void *pb) {
    const world_pair *a = pa, *b = pb;
    if (a->ball != b->ball) return a->ball < b->ball ? -1 : 1; /* .ball holds the sensor id */
    if (a->other != b->other) return a->other < b->other ? -1 : 1;
    return 0;
}

/* The awake balls (radii in w->ar) against the sensors. */
static c2d_status sensor_overlaps(c2d_world *w, void *out, size_t capacity, size_t *total,
                                  const void *ctx) {
    (void)ctx;
    c2d_circle_soa soa = c2d_world_awake_soa(w, w->ar);
    return c2d_scene_collide(w->sensor_scene, &soa, out, capacity, total);
}

static c2d_status sensor_events(c2d_world *w) {
    bool ok = true;
    world_array *found = &w->sensor_found;
    found->count = 0;
    size_t n = w->awake_list_count;
    if (w->sensor_scene && w->sensor_count > 0 && n > 0) {
        /* Overlaps at the end of the step, with the radius grown by the hysteresis. */
        for (size_t i = 0; i < n; i++) {
            uint32_t k = w->awake[i];
            w->ax[i] = w->x[k];
            w->ay[i] = w->y[k];
            w->ar[i] = w->radius[k] * (1.0f + HYSTERESIS);
        }
        size_t total;
        c2d_status st =
            c2d_world_into_scratch(w, sensor_overlaps, sizeof(c2d_pair_contact), NULL, &total);
        if (st != C2D_OK) return st;
        const c2d_pair_contact *pc = w->scratch;
        for (size_t i = 0; i < total; i++) {
            uint32_t k = w->awake[pc[i].circle];
            bool inside = pc[i].contact.depth >= HYSTERESIS * w->radius[k];
            world_pair p = {w->capsule_ids[w->sensor_map[pc[i].capsule]], inside ? 1u : 0u,
                            w->ids[k]};
            ok &= push(w, found, &p, sizeof p);
        }
        if (found->count > 1) qsort(found->data, found->count, sizeof(world_pair), sensor_pair_cmp);
    }
    /* Merge the remembered pairs with this step's. */
    world_array *old = &w->inside, *next = &w->inside_next;
    next->count = 0;
    const world_pair *a = old->data, *b = found->data;
    size_t i = 0, j = 0;
    while (i < old->count || j < found->count) {
        int cmp = i == old->count ? 1 : j == found->count ? -1 : sensor_pair_cmp(&a[i], &b[j]);
        if (cmp < 0) {
            /* Inside before, not near now: kept if the ball sleeps (and both exist). */
            uint32_t kb, ks;
            bool ball = c2d_world_lookup_ball(w, a[i].other, &kb);
            bool sensor = c2d_world_lookup_capsule(w, a[i].ball, &ks);
            if (ball && sensor && sat_out(w, kb)) {
                ok &= push(w, next, &a[i], sizeof a[i]);
            } else {
                c2d_world_sensor_event e = {a[i].ball, a[i].other};
                ok &= push(w, &w->exits, &e, sizeof e);
            }
            i++;
        } else if (cmp > 0) {
            if (b[j].kind) {
                world_pair p = {b[j].ball, 0, b[j].other};
                c2d_world_sensor_event e = {b[j].ball, b[j].other};
                ok &= push(w, next, &p, sizeof p);
                ok &= push(w, &w->enters, &e, sizeof e);
            }
            j++;
        } else {
            ok &= push(w, next, &a[i], sizeof a[i]); /* still within the hysteresis */
            i++;
            j++;
        }
    }
    world_array t = *old;
    *old = *next;
    *next = t;
    /* Passed wholly through within the step: the sweep from the start finds the sensor, and
     * the ball was inside it neither before nor now. */
    if (w->sensor_scene && w->sensor_count > 0 && n > 0) {
        float *mx = w->bdx, *my = w->bdy; /* the step's moves */
        for (size_t q = 0; q < n; q++) {
            w->ax[q] = w->start_x[q];
            w->ay[q] = w->start_y[q];
            w->ar[q] = w->radius[w->awake[q]];
        }
        c2d_circle_soa soa = c2d_world_awake_soa(w, w->ar);
        c2d_circle_toi *toi = w->scratch; /* room: c2d_world_move_reserve() */
        c2d_status st = c2d_scene_sweep(w->sensor_scene, &soa, mx, my, toi);
        if (st != C2D_OK) return st;
        for (size_t q = 0; q < n; q++) {
            if (toi[q].capsule == C2D_NONE) continue;
            world_pair key = {w->capsule_ids[w->sensor_map[toi[q].capsule]], 0,
                              w->ids[w->awake[q]]};
            if (bsearch(&key, old->data, old->count, sizeof key, sensor_pair_cmp) ||
                bsearch(&key, next->data, next->count, sizeof key, sensor_pair_cmp))
                continue;
            c2d_world_sensor_event e = {key.ball, key.other};
            ok &= push(w, &w->enters, &e, sizeof e);
            ok &= push(w, &w->exits, &e, sizeof e);
        }
    }
    if (w->enters.count > 1)
        qsort(w->enters.data, w->enters.count, sizeof(c2d_world_sensor_event), sensor_cmp);
    if (w->exits.count > 1)
        qsort(w->exits.data, w->exits.count, sizeof(c2d_world_sensor_event), sensor_cmp);
    return ok ? C2D_OK : C2D_ERROR_ALLOC;
}

static bool reserve(c2d_world *w, world_array *a, size_t need, size_t size) {
    return c2d_world_reserve(w, &a->data, &a->capacity, need, size);
}

/* Memory for this step's events, before the substeps, so that recording them cannot fail
 * after the world has moved: the contact events' bounds are exact (each contact gives at most
 * one begin, one end and one hit, each remembered pair at most one end, each ball one swept
 * hit); the sensors' come from the overlaps within each ball's capsule margin at the step's
 * start, which holds unless a ball ends farther than that margin from where it started. */
c2d_status c2d_world_events_reserve(c2d_world *w) {
    size_t c = w->contact_count, t = w->touching.count, a = w->awake_list_count;
    bool ok = reserve(w, &w->begins, c + 1, sizeof(c2d_world_contact_event)) &&
              reserve(w, &w->ends, c + t + 1, sizeof(c2d_world_contact_event)) &&
              reserve(w, &w->hits, c + a + 1, sizeof(c2d_world_contact_event)) &&
              reserve(w, &w->swept_hits, a + 1, sizeof(c2d_world_contact_event)) &&
              reserve(w, &w->touching_next, c + t + 1, sizeof(world_pair)) &&
              c2d_world_reserve(w, (void **)&w->matched, &w->matched_capacity, t + 1, 1);
    if (!ok) return C2D_ERROR_ALLOC;
    if (!w->sensor_scene || w->sensor_count == 0 || a == 0) return C2D_OK;
    c2d_circle_soa soa = c2d_world_awake_soa(w, w->ar_capsule);
    size_t total = 0;
    c2d_status st = c2d_scene_collide(w->sensor_scene, &soa, NULL, 0, &total);
    if (st != C2D_OK) return st;
    size_t bytes;
    size_t i = w->inside.count;
    ok = c2d_size_mul(total + 1, sizeof(c2d_pair_contact), &bytes) &&
         c2d_world_reserve(w, &w->scratch, &w->scratch_bytes, bytes, 1) &&
         reserve(w, &w->sensor_found, total + 1, sizeof(world_pair)) &&
         reserve(w, &w->inside_next, i + total + 1, sizeof(world_pair)) &&
         reserve(w, &w->enters, total + a + 1, sizeof(c2d_world_sensor_event)) &&
         reserve(w, &w->exits, i + a + 1, sizeof(c2d_world_sensor_event));
    return ok ? C2D_OK : C2D_ERROR_ALLOC;
}

c2d_status c2d_world_update_events(c2d_world *w, float dt) {
    (void)dt;
    c2d_status a = contact_events(w);
    c2d_status b = sensor_events(w);
    return a != C2D_OK ? a : b;
}

c2d_status c2d_world_get_profile(const c2d_world *w, c2d_world_profile *out) {
    if (!w || !out) return C2D_ERROR_NULL;
    if (atomic_load(&((c2d_world *)w)->stepping)) return C2D_ERROR_STATE;
    *out = w->profile;
    return C2D_OK;
}

c2d_status c2d_world_get_events(const c2d_world *w, c2d_world_events *out) {
    if (!w || !out) return C2D_ERROR_NULL;
    if (atomic_load(&((c2d_world *)w)->stepping)) return C2D_ERROR_STATE;
    *out = (c2d_world_events){.begins = w->begins.data,
                              .ends = w->ends.data,
                              .hits = w->hits.data,
                              .begin_count = w->begins.count,
                              .end_count = w->ends.count,
                              .hit_count = w->hits.count,
                              .enters = w->enters.data,
                              .exits = w->exits.data,
                              .enter_count = w->enters.count,
                              .exit_count = w->exits.count};
    return C2D_OK;
}
