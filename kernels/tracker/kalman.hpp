// The tracks' motion model: a constant-velocity Kalman filter on the box centre (cx, cy) and size
// (w, h), each with its velocity (SORT / ByteTrack's 8-state filter). With diagonal process and
// measurement noise, as there, the 8 x 8 covariance stays four independent 2 x 2 blocks (a
// coordinate and its velocity); and as the four coordinates get the same noise here, the four
// blocks are equal: one 2 x 2 covariance and one gain serve all four. The same estimates as the
// 8-state filter, for ~40 operations a step instead of 8 x 8 matrix products.
// Noise scales with the object's size s = max(w, h) (ByteTrack's weights, where s is the height):
// position std s/20 (process and measurement), velocity std s/160 (process); a new track starts
// with position std 2 s/20 and velocity std 10 s/160.
#pragma once

#include <algorithm>

#include "tracker/geometry.hpp"

namespace ccl::track {

struct BoxFilter {
  // Means: coordinate and velocity (per frame) of cx, cy, w, h.
  float cx = 0, cy = 0, w = 0, h = 0;
  float vx = 0, vy = 0, vw = 0, vh = 0;
  // The covariance [[pp, pv], [pv, vv]] every coordinate shares.
  float pp = 0, pv = 0, vv = 0;

  static constexpr float kPosition = 1.0f / 20, kVelocity = 1.0f / 160;

  static float scale(float width, float height) { return std::max({width, height, 1.0f}); }

  void start(const Box& b) {
    const float s = scale(b.width, b.height);
    cx = b.center_x(), cy = b.center_y(), w = b.width, h = b.height;
    vx = vy = vw = vh = 0;
    pp = (2 * kPosition * s) * (2 * kPosition * s), pv = 0, vv = (10 * kVelocity * s) * (10 * kVelocity * s);
  }

  // x = F x, P = F P F' + Q with F = [[1, 1], [0, 1]], Q = diag(q_pos, q_vel) (s before the step).
  void predict() {
    const float s = scale(w, h);
    cx += vx, cy += vy, w += vw, h += vh;
    pp += 2 * pv + vv + (kPosition * s) * (kPosition * s);
    pv += vv;
    vv += (kVelocity * s) * (kVelocity * s);
  }

  // The box measured, variance r per coordinate: gain K = P H' / (pp + r), H = [1, 0].
  void update(const Box& b) {
    const float s = scale(w, h);
    const float r = (kPosition * s) * (kPosition * s);
    const float inv = 1 / (pp + r);
    const float kp = pp * inv, kv = pv * inv;
    const float ex = b.center_x() - cx, ey = b.center_y() - cy, ew = b.width - w, eh = b.height - h;
    cx += kp * ex, cy += kp * ey, w += kp * ew, h += kp * eh;
    vx += kv * ex, vy += kv * ey, vw += kv * ew, vh += kv * eh;
    vv -= kv * pv;
    pv -= kp * pv;
    pp -= kp * pp;
  }

  // The estimate as a box; the size never below one pixel.
  Box box() const {
    const float width = std::max(w, 1.0f), height = std::max(h, 1.0f);
    return {cx - width / 2, cy - height / 2, width, height};
  }
};

}  // namespace ccl::track
