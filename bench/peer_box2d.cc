// The Box2D 2.4.1 peer of W5 and W6 (bench/peer_box2d.h). Box2D keeps its pairs from frame to
// frame and the balls do not move, so a frame here is its best case, as Chipmunk's is: no box
// leaves its fattened box, the broad phase finds no new pair, and the narrow phase runs on every
// pair it kept.
#include "peer_box2d.h"

#include <box2d/box2d.h>

#include "box2d_bodies.h"

#include <memory>
#include <new>
#include <vector>

struct peer_box2d {
    b2World world{b2Vec2(0.0f, 0.0f)};
    std::vector<b2Body *> balls;
    std::vector<b2Vec2> at; // each ball's position, set again every frame
};

namespace {

const uint16 pin_category = 0x0002; // balls are Box2D's default category, 0x0001

void reset_positions(peer_box2d *p) {
    for (size_t i = 0; i < p->balls.size(); i++)
        p->balls[i]->SetTransform(p->at[i], 0.0f);
}

} // namespace

extern "C" {

peer_box2d *peer_box2d_create(const c2d_circle_soa *balls, const c2d_capsule_soa *pins) {
    try {
        std::unique_ptr<peer_box2d> p(new peer_box2d);
        p->world.SetAllowSleeping(false);     // a resting body's pairs would skip the narrow phase
        p->world.SetContinuousPhysics(false); // time of impact is the solver's business
        const size_t m = pins ? pins->count : 0;
        for (size_t k = 0; k < m; k++)
            box2d_capsule_body(p->world, pins->ax[k], pins->ay[k], pins->bx[k], pins->by[k],
                               pins->radius[k], pin_category);
        p->balls.reserve(balls->count);
        p->at.reserve(balls->count);
        // W5 counts balls against pins only (mask: pins); W6 balls against balls (the default)
        const uint16 mask = m > 0 ? pin_category : 0xFFFF;
        for (size_t i = 0; i < balls->count; i++) {
            p->balls.push_back(
                box2d_ball_body(p->world, balls->x[i], balls->y[i], balls->radius[i], true, mask));
            p->at.push_back(b2Vec2(balls->x[i], balls->y[i]));
        }
        peer_box2d_frame(p.get()); // the first Step creates every pair
        return p.release();
    } catch (const std::bad_alloc &) {
        return nullptr;
    }
}

void peer_box2d_frame(peer_box2d *p) {
    reset_positions(p);
    p->world.Step(0.0f, 0, 0);
}

size_t peer_box2d_touching(const peer_box2d *p) {
    size_t n = 0;
    for (const b2Contact *c = p->world.GetContactList(); c; c = c->GetNext())
        n += c->IsTouching();
    return n;
}

peer_box2d_profile peer_box2d_step(peer_box2d *p) {
    reset_positions(p);
    p->world.Step(1.0f / 60.0f, 0, 0);
    const b2Profile &prof = p->world.GetProfile();
    return peer_box2d_profile{prof.collide, prof.broadphase, prof.step};
}

size_t peer_box2d_pairs(const peer_box2d *p) {
    return static_cast<size_t>(p->world.GetContactCount());
}

void peer_box2d_destroy(peer_box2d *p) {
    delete p;
}

} // extern "C"
