// The Box2D 2.4.1 bodies of the benchmark peers (bench/peer_box2d.cc, bench/peer_box2d_w8.cc).
#ifndef C2D_BENCH_BOX2D_BODIES_H
#define C2D_BENCH_BOX2D_BODIES_H

#include <box2d/box2d.h>

// A capsule as a static body at end a holding a two-sided edge from (0, 0) to b - a whose
// m_radius is the capsule's radius (b2CollideEdgeAndCircle works in the edge's frame, where
// board-sized vertices would cost it precision). One body per capsule: b2ContactManager::AddPair
// walks a body's contact list to find a pair it has, so one body for every capsule would make
// each new pair walk them all.
inline b2Body *box2d_capsule_body(b2World &world, float ax, float ay, float bx, float by,
                                  float radius, uint16 category) {
    b2BodyDef def;
    def.position.Set(ax, ay);
    b2Body *body = world.CreateBody(&def);
    b2EdgeShape edge;
    edge.SetTwoSided(b2Vec2(0.0f, 0.0f), b2Vec2(bx - ax, by - ay));
    edge.m_radius = radius;
    b2FixtureDef fd;
    fd.shape = &edge;
    fd.filter.categoryBits = category;
    body->CreateFixture(&fd);
    return body;
}

// A ball as a dynamic body holding a b2CircleShape of density 1.
inline b2Body *box2d_ball_body(b2World &world, float x, float y, float radius, bool awake,
                               uint16 mask) {
    b2BodyDef def;
    def.type = b2_dynamicBody;
    def.position.Set(x, y);
    def.awake = awake;
    b2Body *body = world.CreateBody(&def);
    b2CircleShape circle;
    circle.m_radius = radius;
    b2FixtureDef fd;
    fd.shape = &circle;
    fd.density = 1.0f;
    fd.filter.maskBits = mask;
    body->CreateFixture(&fd);
    return body;
}

#endif
