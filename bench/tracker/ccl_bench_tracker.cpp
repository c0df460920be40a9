// ccl-bench-tracker: the tracker core's time per frame with N moving boxes (default 2,000) on one
// core. Boxes move at constant velocity and bounce off the frame's edges; they may overlap (the
// tracker then sees contested pairs, as with components that touch). Components are handed over in
// raster order, as cudaccl reports them. Usage:
//   ccl-bench-tracker [components=2000] [frames=2000] [width=1920] [height=1080]
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "percentile.hpp"
#include "tracker/tracker.hpp"

namespace {

struct Box {
  float x, y, side, vx, vy;
};

// Pins to the first core the process may run on: core 0 when started plainly, core 1 under
// `taskset -c 1` (away from whatever else shares the machine's core 0).
void pin_to_one_core() {
  cpu_set_t allowed, set;
  int core = 0;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0)
    while (core < CPU_SETSIZE - 1 && !CPU_ISSET(core, &allowed)) ++core;
  CPU_ZERO(&set);
  CPU_SET(core, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) std::perror("sched_setaffinity (timings may move between cores)");
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int frames = argc > 2 ? std::atoi(argv[2]) : 2000;
  const float w = argc > 3 ? float(std::atof(argv[3])) : 1920, h = argc > 4 ? float(std::atof(argv[4])) : 1080;
  constexpr int kWarmUp = 50;  // scratch vectors reach their sizes, tracks get confirmed
  pin_to_one_core();

  std::mt19937 rng(1);
  std::uniform_real_distribution<float> ux(0, w - 20), uy(0, h - 20), side(6, 16), speed(-3, 3);
  std::vector<Box> boxes(static_cast<std::size_t>(n));
  for (Box& b : boxes) b = {ux(rng), uy(rng), side(rng), speed(rng), speed(rng)};

  ccl::track::Tracker tracker;
  std::vector<ccl::track::Detection> detections(boxes.size());
  std::vector<std::uint32_t> ids(boxes.size());
  std::vector<double> us;
  long reported = 0, events = 0;
  for (int f = 0; f < kWarmUp + frames; ++f) {
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      Box& b = boxes[i];
      b.x += b.vx, b.y += b.vy;
      if (b.x < 0 || b.x + b.side > w) b.vx = -b.vx, b.x += 2 * b.vx;
      if (b.y < 0 || b.y + b.side > h) b.vy = -b.vy, b.y += 2 * b.vy;
      ccl::track::Detection& d = detections[i];
      d.box = {float(int(b.x)), float(int(b.y)), float(int(b.side)), float(int(b.side))};  // whole pixels, as CCL gives
      d.area = std::uint32_t(d.box.width * d.box.height);
      d.centroid_x = d.box.x + (d.box.width - 1) / 2, d.centroid_y = d.box.y + (d.box.height - 1) / 2;
    }
    // cudaccl reports components in raster order of their first pixel (top row, then left): so here.
    std::sort(detections.begin(), detections.end(), [](const auto& a, const auto& b) {
      return a.box.y != b.box.y ? a.box.y < b.box.y : a.box.x < b.box.x;
    });
    const auto t0 = std::chrono::steady_clock::now();
    tracker.update(detections.data(), detections.size(), f, ids.data());
    const auto t1 = std::chrono::steady_clock::now();
    if (f < kWarmUp) continue;
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    for (std::uint32_t id : ids) reported += id != 0;
    events += long(tracker.events().size());
  }
  double mean = 0;
  for (double v : us) mean += v;
  mean /= double(us.size());
  std::printf("tracker, %d moving boxes (6..16 px, up to 3 px/frame) in %.0fx%.0f, %d frames after %d warm-up, one core\n",
              n, double(w), double(h), frames, kWarmUp);
  std::printf("per frame: median %.1f us, p10 %.1f us, p90 %.1f us, p99 %.1f us, mean %.1f us\n",
              bench::percentile(us, 0.5), bench::percentile(us, 0.1), bench::percentile(us, 0.9),
              bench::percentile(us, 0.99), mean);
  std::printf("reported (confirmed) share of components: %.4f; track starts and ends per frame: %.2f; live tracks at the end: %zu\n",
              double(reported) / (double(frames) * n), double(events) / frames, tracker.tracks().size());
  return 0;
}
