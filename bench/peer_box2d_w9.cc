// The Box2D 2.4.1 peer of W9 (bench/peer_box2d_w9.h).
//
// Capsules, as the other peers build them (bench/box2d_bodies.h, checked by
// box2d_capsule_check.cc): a static body at end a holding a two-sided b2EdgeShape from (0, 0)
// to b - a whose m_radius is the capsule's radius, so Box2D collides circles with it as with the
// capsule, end caps included. A capsule of zero length (W7's round pins) is a b2CircleShape of
// its radius instead: an edge needs two distinct vertices. W7's thin segments are edges with
// m_radius 0 (Box2D's own edges carry 0.01).
#include "peer_box2d_w9.h"

#include <box2d/box2d.h>

#include <cmath>
#include <memory>
#include <new>
#include <vector>

namespace {

// Section 14 mixes restitution as sqrt(a * b); Box2D 2.4.1 takes max(a, b) when it makes a
// contact, so each new contact is given the world's value.
struct restitution_mix : b2ContactListener {
    void BeginContact(b2Contact *c) override {
        const float a = c->GetFixtureA()->GetRestitution(), b = c->GetFixtureB()->GetRestitution();
        c->SetRestitution(std::sqrt(a * b));
    }
};

void add_capsule(b2World &world, const c2d_capsule &k, float friction, float restitution) {
    b2BodyDef def;
    def.position.Set(k.a.x, k.a.y);
    b2Body *body = world.CreateBody(&def);
    b2FixtureDef fd;
    fd.friction = friction;
    fd.restitution = restitution;
    b2EdgeShape edge;
    b2CircleShape round;
    if (k.a.x == k.b.x && k.a.y == k.b.y) {
        round.m_radius = k.radius;
        fd.shape = &round;
    } else {
        edge.SetTwoSided(b2Vec2(0.0f, 0.0f), b2Vec2(k.b.x - k.a.x, k.b.y - k.a.y));
        edge.m_radius = k.radius;
        fd.shape = &edge;
    }
    body->CreateFixture(&fd);
}

} // namespace

struct peer_box2d_w9 {
    restitution_mix mix; // outlives the world
    b2World world{b2Vec2(0.0f, W9_GRAVITY)};
    std::vector<b2Body *> balls;
};

extern "C" {

peer_box2d_w9 *peer_box2d_w9_create(const w9_layout *l, bool allow_sleep, bool ccd) {
    try {
        std::unique_ptr<peer_box2d_w9> p(new peer_box2d_w9);
        p->world.SetAllowSleeping(allow_sleep);
        p->world.SetContinuousPhysics(ccd);
        p->world.SetContactListener(&p->mix);
        for (size_t k = 0; k < l->m; k++)
            add_capsule(p->world, l->capsules[k], l->capsule_friction, l->capsule_restitution);
        p->balls.reserve(l->n);
        for (size_t i = 0; i < l->n; i++)
            if (peer_box2d_w9_add_ball(p.get(), l, l->x[i], l->y[i], l->radius[i]) != 0)
                return nullptr;
        return p.release();
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

int peer_box2d_w9_add_ball(peer_box2d_w9 *p, const w9_layout *l, float x, float y, float radius) {
    try {
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.position.Set(x, y);
        b2Body *body = p->world.CreateBody(&def);
        b2CircleShape circle;
        circle.m_radius = radius;
        b2FixtureDef fd;
        fd.shape = &circle;
        fd.density = l->density;
        fd.friction = l->friction;
        fd.restitution = l->restitution;
        body->CreateFixture(&fd);
        p->balls.push_back(body);
        return 0;
    } catch (const std::bad_alloc &) {
        return -1;
    }
}

void peer_box2d_w9_step(peer_box2d_w9 *p) {
    p->world.Step(W9_DT, 8, 3);
}

size_t peer_box2d_w9_awake(const peer_box2d_w9 *p) {
    size_t n = 0;
    for (const b2Body *b : p->balls)
        n += b->IsAwake();
    return n;
}

void peer_box2d_w9_read(const peer_box2d_w9 *p, float *x, float *y, float *vx, float *vy,
                        float *w) {
    for (size_t i = 0; i < p->balls.size(); i++) {
        const b2Body *b = p->balls[i];
        const b2Vec2 c = b->GetPosition(), v = b->GetLinearVelocity();
        x[i] = c.x, y[i] = c.y, vx[i] = v.x, vy[i] = v.y;
        w[i] = b->GetAngularVelocity();
    }
}

void peer_box2d_w9_destroy(peer_box2d_w9 *p) {
    delete p;
}

} // extern "C"
