// The tracker benches' scene: N square boxes (6..16 px) moving at constant velocity (up to 3 px a
// frame) and bouncing off the frame's edges; they may overlap (contested pairs, as with components
// that touch). Each frame gives them as whole-pixel components in raster order of their top-left
// corner, as cudaccl reports them. Also the benches' pinning to one core.
#pragma once

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

namespace bench {

struct MovingBox {
  float x, y, side, vx, vy;
};

// One frame's component, whole pixels.
struct BoxComponent {
  int x, y, width, height;
  float centroid_x, centroid_y;
};

class MovingBoxes {
 public:
  MovingBoxes(int n, float width, float height) : width_(width), height_(height) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> ux(0, width - 20), uy(0, height - 20), side(6, 16), speed(-3, 3);
    boxes_.resize(std::size_t(n));
    for (MovingBox& b : boxes_) b = {ux(rng), uy(rng), side(rng), speed(rng), speed(rng)};
  }

  // Moves every box one frame and returns the frame's components in raster order.
  const std::vector<BoxComponent>& step() {
    frame_.resize(boxes_.size());
    for (std::size_t i = 0; i < boxes_.size(); ++i) {
      MovingBox& b = boxes_[i];
      b.x += b.vx, b.y += b.vy;
      if (b.x < 0 || b.x + b.side > width_) b.vx = -b.vx, b.x += 2 * b.vx;
      if (b.y < 0 || b.y + b.side > height_) b.vy = -b.vy, b.y += 2 * b.vy;
      const int x = int(b.x), y = int(b.y), s = int(b.side);
      frame_[i] = {x, y, s, s, float(x) + float(s - 1) / 2, float(y) + float(s - 1) / 2};
    }
    std::sort(frame_.begin(), frame_.end(),
              [](const BoxComponent& a, const BoxComponent& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
    return frame_;
  }

 private:
  float width_, height_;
  std::vector<MovingBox> boxes_;
  std::vector<BoxComponent> frame_;
};

// Pins to the first core the process may run on: core 0 when started plainly, core 1 under
// `taskset -c 1` (away from whatever else shares the machine's core 0).
inline void pin_to_one_core() {
  cpu_set_t allowed, set;
  int core = 0;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0)
    while (core < CPU_SETSIZE - 1 && !CPU_ISSET(core, &allowed)) ++core;
  CPU_ZERO(&set);
  CPU_SET(core, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) std::perror("sched_setaffinity (timings may move between cores)");
}

}  // namespace bench
