// The tracks' motion model: a constant-velocity Kalman filter on the box centre (cx, cy) and size
// (w, h), each with its velocity (SORT / ByteTrack's 8-state filter). With diagonal process and
// measurement noise, as there, the 8 x 8 covariance stays four independent 2 x 2 blocks (a
// coordinate and its velocity), so the filter runs as four 2-state filters: the same estimates,
// ~30 operations per coordinate instead of 8 x 8 matrix products.
// Noise scales with the object's size s = max(w, h) (ByteTrack's weights, where s is the height):
// position std s/20 (process and measurement), velocity std s/160 (process); a new track starts
// with position std 2 s/20 and velocity std 10 s/160.
#pragma once

#include <algorithm>

#include "tracker/geometry.hpp"

namespace ccl::track {

// One coordinate and its velocity (per frame), covariance [[pp, pv], [pv, vv]].
struct AxisFilter {
  float p = 0, v = 0;
  float pp = 0, pv = 0, vv = 0;

  void start(float z, float pos_var, float vel_var) { p = z, v = 0, pp = pos_var, pv = 0, vv = vel_var; }

  // x = F x, P = F P F' + Q with F = [[1, 1], [0, 1]], Q = diag(q_pos, q_vel).
  void predict(float q_pos, float q_vel) {
    p += v;
    pp += 2 * pv + vv + q_pos;
    pv += vv;
    vv += q_vel;
  }

  // Measurement z of p with variance r: gain K = P H' / (pp + r), H = [1, 0].
  void update(float z, float r) {
    const float s = pp + r;
    const float kp = pp / s, kv = pv / s;
    const float innovation = z - p;
    p += kp * innovation;
    v += kv * innovation;
    vv -= kv * pv;
    pv -= kp * pv;
    pp -= kp * pp;
  }
};

// The box's four filters.
struct BoxFilter {
  AxisFilter cx, cy, w, h;

  static constexpr float kPosition = 1.0f / 20, kVelocity = 1.0f / 160;

  static float scale(const Box& b) { return std::max({b.width, b.height, 1.0f}); }

  void start(const Box& b) {
    const float s = scale(b);
    const float pos_var = (2 * kPosition * s) * (2 * kPosition * s), vel_var = (10 * kVelocity * s) * (10 * kVelocity * s);
    cx.start(b.center_x(), pos_var, vel_var), cy.start(b.center_y(), pos_var, vel_var);
    w.start(b.width, pos_var, vel_var), h.start(b.height, pos_var, vel_var);
  }

  void predict() {
    const float s = scale(box());
    const float q_pos = (kPosition * s) * (kPosition * s), q_vel = (kVelocity * s) * (kVelocity * s);
    cx.predict(q_pos, q_vel), cy.predict(q_pos, q_vel), w.predict(q_pos, q_vel), h.predict(q_pos, q_vel);
  }

  void update(const Box& b) {
    const float s = scale(box());
    const float r = (kPosition * s) * (kPosition * s);
    cx.update(b.center_x(), r), cy.update(b.center_y(), r), w.update(b.width, r), h.update(b.height, r);
  }

  // The estimate as a box; the size never below one pixel.
  Box box() const {
    const float width = std::max(w.p, 1.0f), height = std::max(h.p, 1.0f);
    return {cx.p - width / 2, cy.p - height / 2, width, height};
  }
};

}  // namespace ccl::track
