/// @file collide2d/compat.h
/// The 0.1.0 names that the naming rule (docs/design.md, "Names") replaced in 0.2.0, kept as
/// plain aliases so that every program written for 0.1.0 compiles and runs as before: same
/// signatures, same layouts, same answers and statuses. Each is exactly the call or type its
/// note names (an old function and its new name run the same code, one calling the other in
/// one line; both are exported, so a program linked against the 0.1.0 library runs with this
/// one). Deprecated: new code uses the new names;
/// these stay until at least 1.0 (CHANGES.md).
///
/// Each header that had such names includes this file at its end, and only that header's part
/// below is declared (keyed on a macro the header defines once its own declarations are
/// complete), so a program that includes one header, as 0.1.0 allowed, still sees that
/// header's old names.

/* No include guard of its own: each part has one. */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(COLLIDE2D_BATCH_DECLARED) && !defined(COLLIDE2D_COMPAT_BATCH)
#define COLLIDE2D_COMPAT_BATCH

/// Deprecated since 0.2.0: c2d_batch_sweep_moving(circles, &(c2d_move_soa){move_x, move_y},
/// capsules, &(c2d_move_soa){capsule_move_x, capsule_move_y}, out).
C2D_API c2d_status c2d_batch_sweep_moving_capsules(const c2d_circle_soa *circles,
                                                   const float *move_x, const float *move_y,
                                                   const c2d_capsule_soa *capsules,
                                                   const float *capsule_move_x,
                                                   const float *capsule_move_y,
                                                   c2d_circle_toi *out);

#endif

#if defined(COLLIDE2D_SCENE_DECLARED) && !defined(COLLIDE2D_COMPAT_SCENE)
#define COLLIDE2D_COMPAT_SCENE

/// Deprecated since 0.2.0: c2d_scene_sweep_moving(scene, circles,
/// &(c2d_move_soa){move_x, move_y}, &(c2d_move_soa){capsule_move_x, capsule_move_y}, out).
C2D_API c2d_status c2d_scene_sweep_moving_capsules(c2d_scene *scene, const c2d_circle_soa *circles,
                                                   const float *move_x, const float *move_y,
                                                   const float *capsule_move_x,
                                                   const float *capsule_move_y,
                                                   c2d_circle_toi *out);

#endif

#if defined(COLLIDE2D_FROZEN_DECLARED) && !defined(COLLIDE2D_COMPAT_FROZEN)
#define COLLIDE2D_COMPAT_FROZEN

/// Deprecated since 0.2.0: c2d_scene_freeze_balls() (same arguments).
C2D_API c2d_status c2d_scene_freeze_circles(c2d_scene *scene, const c2d_circle_soa *circles,
                                            const uint32_t *ids);

/// Deprecated since 0.2.0: c2d_scene_thaw_balls() (same arguments).
C2D_API c2d_status c2d_scene_thaw_circles(c2d_scene *scene, const uint32_t *ids, size_t count);

/// Deprecated since 0.2.0: c2d_scene_frozen_ball() (same arguments).
C2D_API bool c2d_scene_frozen_circle(const c2d_scene *scene, uint32_t id, c2d_circle *out);

/// Deprecated since 0.2.0: c2d_scene_collide_frozen() (same arguments).
C2D_API c2d_status c2d_scene_collide_frozen_circles(c2d_scene *scene, const c2d_circle_soa *circles,
                                                    const uint32_t *ids,
                                                    c2d_circle_pair_contact *out, size_t capacity,
                                                    size_t *count);

/// Deprecated since 0.2.0: c2d_scene_sweep_frozen(scene, circles, ids,
/// &(c2d_move_soa){move_x, move_y}, out).
C2D_API c2d_status c2d_scene_sweep_frozen_circles(const c2d_scene *scene,
                                                  const c2d_circle_soa *circles,
                                                  const uint32_t *ids, const float *move_x,
                                                  const float *move_y, c2d_circle_hit *out);

#endif

#if defined(COLLIDE2D_RESPONSE_DECLARED) && !defined(COLLIDE2D_COMPAT_RESPONSE)
#define COLLIDE2D_COMPAT_RESPONSE

/// Deprecated since 0.2.0: c2d_capsule_body_soa (the same type).
typedef struct c2d_capsule_bodies c2d_capsule_bodies;

/// Deprecated since 0.2.0: c2d_solve_circle_contacts(bodies, contacts, count,
/// &(c2d_solve_def){.impulses = impulses}).
C2D_API c2d_status c2d_resolve_circle_contacts(const c2d_body_soa *bodies,
                                               const c2d_circle_pair_contact *contacts,
                                               size_t count, float *impulses);

/// Deprecated since 0.2.0: c2d_solve_capsule_contacts(bodies, contacts, count,
/// &(c2d_solve_def){.capsules = &(c2d_capsule_body_soa){.restitution = capsule_restitution,
/// .count = capsule_count}, .impulses = impulses}). Unlike a NULL `capsules` there, the capsule
/// indices are checked against `capsule_count` even when `capsule_restitution` is NULL.
C2D_API c2d_status c2d_resolve_capsule_contacts(const c2d_body_soa *bodies,
                                                const c2d_pair_contact *contacts, size_t count,
                                                const float *capsule_restitution,
                                                size_t capsule_count, float *impulses);

/// Deprecated since 0.2.0: c2d_solve_circle_contacts(bodies, contacts, count,
/// &(c2d_solve_def){.friction = spin, .impulses = impulses,
/// .tangent_impulses = tangent_impulses}).
C2D_API c2d_status c2d_resolve_circle_contacts_ex(const c2d_body_soa *bodies,
                                                  const c2d_body_friction_soa *spin,
                                                  const c2d_circle_pair_contact *contacts,
                                                  size_t count, float *impulses,
                                                  float *tangent_impulses);

/// Deprecated since 0.2.0: c2d_solve_capsule_contacts(bodies, contacts, count,
/// &(c2d_solve_def){.friction = spin, .capsules = capsules, .impulses = impulses,
/// .tangent_impulses = tangent_impulses}).
C2D_API c2d_status c2d_resolve_capsule_contacts_ex(const c2d_body_soa *bodies,
                                                   const c2d_body_friction_soa *spin,
                                                   const c2d_pair_contact *contacts, size_t count,
                                                   const c2d_capsule_bodies *capsules,
                                                   float *impulses, float *tangent_impulses);

#endif

#ifdef __cplusplus
}
#endif
