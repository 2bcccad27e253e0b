// The Box2D 2.4.1 peer of W8 (bench/peer_box2d_w8.h): the resting pile with its frozen balls
// asleep. Box2D wakes a sleeping body when an awake body in its island touches it, so in a
// continuous pile the first step wakes every ball the awake ones are connected to.
#include "peer_box2d_w8.h"

#include <box2d/box2d.h>

#include "box2d_bodies.h"

#include <memory>
#include <new>
#include <vector>

struct peer_box2d_w8 {
    b2World world{b2Vec2(0.0f, 0.0f)};
    std::vector<b2Body *> balls;
};

extern "C" {

peer_box2d_w8 *peer_box2d_w8_create(const c2d_circle_soa *balls, const c2d_capsule_soa *box,
                                    const unsigned char *awake) {
    try {
        std::unique_ptr<peer_box2d_w8> p(new peer_box2d_w8);
        p->world.SetAllowSleeping(true);
        p->world.SetContinuousPhysics(false);
        for (size_t k = 0; k < box->count; k++)
            box2d_capsule_body(p->world, box->ax[k], box->ay[k], box->bx[k], box->by[k],
                               box->radius[k], 0x0001);
        p->balls.reserve(balls->count);
        for (size_t i = 0; i < balls->count; i++)
            p->balls.push_back(box2d_ball_body(p->world, balls->x[i], balls->y[i], balls->radius[i],
                                               awake[i] != 0, 0xFFFF));
        return p.release();
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

double peer_box2d_w8_step(peer_box2d_w8 *p) {
    p->world.Step(1.0f / 60.0f, 8, 3);
    return p->world.GetProfile().step;
}

size_t peer_box2d_w8_awake(const peer_box2d_w8 *p) {
    size_t n = 0;
    for (const b2Body *b : p->balls)
        n += b->IsAwake();
    return n;
}

size_t peer_box2d_w8_touching(const peer_box2d_w8 *p) {
    size_t n = 0;
    for (const b2Contact *c = p->world.GetContactList(); c; c = c->GetNext())
        n += c->IsTouching();
    return n;
}

void peer_box2d_w8_destroy(peer_box2d_w8 *p) {
    delete p;
}

} // extern "C"
