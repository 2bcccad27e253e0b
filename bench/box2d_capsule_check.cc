// Checks the Box2D peer's premise (bench/peer_box2d.cc): in Box2D 2.4.1 a two-sided b2EdgeShape
// whose m_radius is set to R collides with circles as a capsule of radius R, end caps included,
// and its bounding box covers the capsule. Random (circle, capsule) pairs at W1's sizes, many
// near the end caps, go through c2d_collide_circle_capsule, b2CollideEdgeAndCircle directly,
// and a b2World step (broad phase included); the hits, depths and normals must agree.
//
//   box2d_capsule_check [PAIRS]   prints the comparison; exit status 1 on a disagreement
#include <box2d/box2d.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "collide2d.h"

namespace {

// splitmix64: the check is the same on every run.
struct rng {
    uint64_t s;
    float unit() {
        uint64_t z = (s += 0x9e3779b97f4a7c15u);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        return static_cast<float>((z ^ (z >> 31)) >> 40) * 0x1p-24f;
    }
    float range(float lo, float hi) { return lo + (hi - lo) * unit(); }
};

struct pair_case {
    c2d_capsule k;
    c2d_circle c;
    int region; // 0: cap at a, 1: side, 2: cap at b (where the circle's centre projects)
};

struct tally {
    size_t pairs = 0, hits = 0, mismatched = 0, near_touch = 0;
    double max_depth_error = 0.0, max_normal_error = 0.0;
};

// Agreement of one Box2D answer with c2d's; a hit whose gap to touching is within `eps` may
// go either way (the two compute the distance in different orders).
void compare(tally &t, const pair_case &p, bool c2d_hit, const c2d_contact &c, bool b2_hit,
             float separation, b2Vec2 normal) {
    const float off_axis = p.k.radius + p.c.radius - c.depth;
    t.pairs++;
    if (c2d_hit != b2_hit) {
        const float gap = c2d_hit ? c.depth : -separation;
        if (std::fabs(gap) < 1e-5f)
            t.near_touch++;
        else
            t.mismatched++;
        return;
    }
    if (!c2d_hit) return;
    t.hits++;
    const double de = std::fabs(static_cast<double>(c.depth) + separation);
    const double ne = std::hypot(c.normal.x - normal.x, c.normal.y - normal.y);
    if (de > t.max_depth_error) t.max_depth_error = de;
    // the normal of a centre on the axis is any; compare it where the centre is off the axis
    if (off_axis > 1e-3f && ne > t.max_normal_error) t.max_normal_error = ne;
}

b2EdgeShape capsule_edge(const c2d_capsule &k) {
    b2EdgeShape e;
    e.SetTwoSided(b2Vec2(k.a.x, k.a.y), b2Vec2(k.b.x, k.b.y));
    e.m_radius = k.radius; // the capsule's radius (default: b2_polygonRadius, 0.01)
    return e;
}

} // namespace

int main(int argc, char **argv) {
    const size_t n = argc > 1 ? static_cast<size_t>(std::strtoul(argv[1], nullptr, 10)) : 30000;
    rng r = {0x5eed2d2d2d2d2d2du};
    std::vector<pair_case> cases(n);
    for (auto &p : cases) {
        const float len = r.range(0.5f, 5.0f), kr = r.range(0.05f, 0.5f),
                    cr = r.range(0.05f, 0.25f);
        const float ang = r.range(0.0f, 6.2831853f), ux = std::cos(ang), uy = std::sin(ang);
        const c2d_vec2 a = {r.range(-2.0f, 2.0f), r.range(-2.0f, 2.0f)};
        p.k = {a, {a.x + len * ux, a.y + len * uy}, kr};
        // along the axis from beyond a to beyond b: a third of the centres past an end
        const float s = r.range(-(kr + cr) * 1.2f, len + (kr + cr) * 1.2f);
        const float off = r.range(-(kr + cr) * 1.2f, (kr + cr) * 1.2f);
        p.c = {{a.x + s * ux - off * uy, a.y + s * uy + off * ux}, cr};
        p.region = s < 0.0f ? 0 : s > len ? 2 : 1;
    }

    // 1. b2CollideEdgeAndCircle and b2WorldManifold, per region; the bounding box.
    tally direct[3];
    size_t aabb_short = 0;
    const b2Transform identity(b2Vec2(0.0f, 0.0f), b2Rot(0.0f));
    for (const auto &p : cases) {
        const b2EdgeShape edge = capsule_edge(p.k);
        b2CircleShape circle;
        circle.m_radius = p.c.radius;
        const b2Transform xf(b2Vec2(p.c.center.x, p.c.center.y), b2Rot(0.0f));
        b2Manifold m;
        b2CollideEdgeAndCircle(&m, &edge, identity, &circle, xf);
        b2WorldManifold wm;
        if (m.pointCount > 0) wm.Initialize(&m, identity, edge.m_radius, xf, circle.m_radius);
        c2d_contact c;
        const bool hit = c2d_collide_circle_capsule(p.c, p.k, &c);
        compare(direct[p.region], p, hit, c, m.pointCount > 0, wm.separations[0], wm.normal);
        b2AABB box;
        edge.ComputeAABB(&box, identity, 0);
        const float lo_x = std::fmin(p.k.a.x, p.k.b.x) - p.k.radius;
        const float hi_y = std::fmax(p.k.a.y, p.k.b.y) + p.k.radius;
        aabb_short += box.lowerBound.x > lo_x || box.upperBound.y < hi_y;
    }

    // 2. The peer's way: for each pair a world holding a static body at the capsule's end a (its
    // edge from (0, 0) to b - a) and a dynamic circle body; one step of time 0 finds the contact
    // (broad phase, then narrow phase).
    std::vector<bool> touching(n, false);
    std::vector<float> separation(n, 0.0f);
    std::vector<b2Vec2> normal(n, b2Vec2(0.0f, 0.0f));
    for (size_t i = 0; i < n; i++) {
        const c2d_capsule &k = cases[i].k;
        b2World world(b2Vec2(0.0f, 0.0f));
        b2BodyDef pin;
        pin.position.Set(k.a.x, k.a.y);
        b2EdgeShape edge;
        edge.SetTwoSided(b2Vec2(0.0f, 0.0f), b2Vec2(k.b.x - k.a.x, k.b.y - k.a.y));
        edge.m_radius = k.radius;
        world.CreateBody(&pin)->CreateFixture(&edge, 0.0f);
        b2BodyDef ball;
        ball.type = b2_dynamicBody;
        ball.position.Set(cases[i].c.center.x, cases[i].c.center.y);
        b2CircleShape circle;
        circle.m_radius = cases[i].c.radius;
        world.CreateBody(&ball)->CreateFixture(&circle, 1.0f);
        world.Step(0.0f, 0, 0);
        for (b2Contact *ct = world.GetContactList(); ct; ct = ct->GetNext()) {
            if (!ct->IsTouching()) continue;
            b2WorldManifold wm;
            ct->GetWorldManifold(&wm);
            touching[i] = true;
            separation[i] = wm.separations[0];
            // from A to B: c2d's direction (toward the circle) when A is the edge
            normal[i] = ct->GetFixtureA()->GetType() == b2Shape::e_edge ? wm.normal : -wm.normal;
        }
    }
    tally stepped[3];
    for (size_t i = 0; i < n; i++) {
        c2d_contact c;
        const bool hit = c2d_collide_circle_capsule(cases[i].c, cases[i].k, &c);
        compare(stepped[cases[i].region], cases[i], hit, c, touching[i], separation[i], normal[i]);
    }

    static const char *const names[3] = {"cap at a", "side", "cap at b"};
    bool ok = aabb_short == 0;
    // 2.4.1 still says 2.4.0 in b2_version
    std::printf("Box2D (b2_version %d.%d.%d) two-sided edge, m_radius = R, against "
                "c2d_collide_circle_capsule: %zu pairs\n",
                b2_version.major, b2_version.minor, b2_version.revision, n);
    std::printf("bounding boxes short of the capsule: %zu\n", aabb_short);
    for (int way = 0; way < 2; way++) {
        const tally *t = way == 0 ? direct : stepped;
        std::printf("%s\n",
                    way == 0 ? "b2CollideEdgeAndCircle:" : "b2World::Step(0), a world a pair:");
        for (int g = 0; g < 3; g++) {
            std::printf("  %-9s pairs %6zu  hits %6zu  disagree %zu (+%zu within 1e-5 of touching)"
                        "  max |depth + separation| %.3g  max |normal diff| %.3g\n",
                        names[g], t[g].pairs, t[g].hits, t[g].mismatched, t[g].near_touch,
                        t[g].max_depth_error, t[g].max_normal_error);
            ok = ok && t[g].mismatched == 0 && t[g].max_depth_error < 1e-5 &&
                 t[g].max_normal_error < 1e-3;
        }
    }
    std::printf("%s\n", ok ? "agree" : "DISAGREE");
    return ok ? 0 : 1;
}
