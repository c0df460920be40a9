// ccl-bench-tracker: the tracker core's time per frame with N moving boxes on one core (without
// arguments: 200, then 2,000, the two sizes the targets name). Boxes move at constant velocity and bounce off the frame's edges; they may overlap (the
// tracker then sees contested pairs, as with components that touch). Components are handed over in
// raster order, as cudaccl reports them. Usage:
//   ccl-bench-tracker [components] [frames=2000] [width=1920] [height=1080]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "moving_boxes.hpp"
#include "percentile.hpp"
#include "tracker/tracker.hpp"

namespace {

void run(int n, int frames, float w, float h) {
  constexpr int kWarmUp = 50;  // scratch vectors reach their sizes, tracks get confirmed

  bench::MovingBoxes scene(n, w, h);
  ccl::track::Tracker tracker;
  std::vector<ccl::track::Detection> detections(static_cast<std::size_t>(n));
  std::vector<std::uint32_t> ids(detections.size());
  std::vector<double> us;
  long reported = 0, events = 0;
  for (int f = 0; f < kWarmUp + frames; ++f) {
    const std::vector<bench::BoxComponent>& components = scene.step();
    for (std::size_t i = 0; i < components.size(); ++i) {
      const bench::BoxComponent& c = components[i];
      ccl::track::Detection& d = detections[i];
      d.box = {float(c.x), float(c.y), float(c.width), float(c.height)};
      d.area = std::uint32_t(c.width * c.height);
      d.centroid_x = c.centroid_x, d.centroid_y = c.centroid_y;
    }
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
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 2 ? std::atoi(argv[2]) : 2000;
  const float w = argc > 3 ? float(std::atof(argv[3])) : 1920, h = argc > 4 ? float(std::atof(argv[4])) : 1080;
  bench::pin_to_one_core();
  if (argc > 1) {
    run(std::atoi(argv[1]), frames, w, h);
  } else {
    run(200, frames, w, h);
    run(2000, frames, w, h);
  }
  return 0;
}
