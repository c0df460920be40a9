// ccl-bench-analytics: the scene analytics engine's time per frame on one core, for 32 rules
// (16 lines + 16 zones of 4..8 corners) x 200 tracked objects and 8 rules (4 + 4) x 50 objects on a
// 1920x1080 frame. Objects are 6..16 px wide, 12..40 px tall, move at up to 3 px a frame and bounce
// off the frame's edges; ids stay, one object in 50 is unseen each frame (occlusion); every zone has
// a dwell time and an overcrowd limit, so every check runs. The engine skips the rules an object
// cannot have reached since it last evaluated them, so faster objects cost more: max-speed (px a
// frame, default 3) shows by how much. Usage:
//   ccl-bench-analytics [objects lines zones [frames=5000 [max-speed=3]]]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "analytics/scene.hpp"
#include "moving_boxes.hpp"
#include "percentile.hpp"

namespace {

using namespace ccl::scene;

constexpr double kW = 1920, kH = 1080;

Rules make_rules(int n_lines, int n_zones, std::mt19937& rng) {
  std::uniform_real_distribution<double> ux(0, kW), uy(0, kH), length(100, 600), angle(0, 2 * M_PI),
      radius(60, 200), jitter(0.6, 1.0);
  Rules rules;
  for (int i = 0; i < n_lines; ++i) {
    LineRule l;
    l.name = "line" + std::to_string(i);
    l.from = {ux(rng), uy(rng)};
    const double a = angle(rng), len = length(rng);
    l.to = {l.from.x + len * std::cos(a), l.from.y + len * std::sin(a)};
    l.anchor = i % 4 == 3 ? Anchor::Box : Anchor::BottomCenter;
    rules.lines.push_back(l);
  }
  for (int i = 0; i < n_zones; ++i) {
    ZoneRule z;
    z.name = "zone" + std::to_string(i);
    const int corners = 4 + i % 5;  // 4..8
    const Point c{ux(rng), uy(rng)};
    const double r = radius(rng);
    for (int k = 0; k < corners; ++k) {  // a star-shaped polygon around c
      const double a = 2 * M_PI * k / corners, rk = r * jitter(rng);
      z.polygon.push_back({c.x + rk * std::cos(a), c.y + rk * std::sin(a)});
    }
    z.anchor = i % 4 == 3 ? Anchor::Box : Anchor::BottomCenter;
    z.dwell = 2.0;
    z.max_objects = 3;
    z.overcrowd_time = 1.0;
    rules.zones.push_back(z);
  }
  return rules;
}

void run(int n_objects, int n_lines, int n_zones, int frames, double max_speed) {
  constexpr int kWarmUp = 100;
  std::mt19937 rng(1);
  SceneAnalytics engine;
  engine.set_rules(make_rules(n_lines, n_zones, rng));
  struct Mover {
    double x, y, w, h, vx, vy;
  };
  std::uniform_real_distribution<double> ux(0, kW - 20), uy(0, kH - 40), side(6, 16), tall(12, 40), speed(-max_speed, max_speed);
  std::vector<Mover> movers(static_cast<std::size_t>(n_objects));
  for (Mover& m : movers) m = {ux(rng), uy(rng), side(rng), tall(rng), speed(rng), speed(rng)};
  std::vector<TrackedBox> objects;
  std::vector<double> us;
  std::size_t events = 0;
  for (int f = 0; f < kWarmUp + frames; ++f) {
    objects.clear();
    for (std::size_t i = 0; i < movers.size(); ++i) {
      Mover& m = movers[i];
      m.x += m.vx, m.y += m.vy;
      if (m.x < 0 || m.x + m.w > kW) m.vx = -m.vx, m.x += 2 * m.vx;
      if (m.y < 0 || m.y + m.h > kH) m.vy = -m.vy, m.y += 2 * m.vy;
      if ((i + std::size_t(f)) % 50 == 0) continue;  // occluded this frame
      objects.push_back({std::uint32_t(i + 1), float(m.x), float(m.y), float(m.w), float(m.h)});
    }
    Frame frame;
    frame.time = std::int64_t(f) * 40000000;  // 25 fps
    frame.width = unsigned(kW), frame.height = unsigned(kH);
    frame.objects = objects.data(), frame.n_objects = objects.size();
    const auto t0 = std::chrono::steady_clock::now();
    engine.update(frame);
    const auto t1 = std::chrono::steady_clock::now();
    if (f < kWarmUp) continue;
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    events += engine.events().size();
  }
  double mean = 0;
  for (double v : us) mean += v;
  mean /= double(us.size());
  std::uint64_t crossings = 0, visits = 0;
  for (const LineCounts& c : engine.line_counts()) crossings += c.forward + c.backward;
  for (const ZoneCounts& c : engine.zone_counts()) visits += c.entered;
  std::printf("analytics, %d rules (%d lines + %d zones) x %d objects (up to %.0f px/frame) in %.0fx%.0f, %d frames after %d warm-up, one core\n",
              n_lines + n_zones, n_lines, n_zones, n_objects, max_speed, kW, kH, frames, kWarmUp);
  std::printf("per frame: median %.2f us, p10 %.2f us, p90 %.2f us, p99 %.2f us, mean %.2f us\n",
              bench::percentile(us, 0.5), bench::percentile(us, 0.1), bench::percentile(us, 0.9),
              bench::percentile(us, 0.99), mean);
  std::printf("events per frame %.2f; crossings %llu, zone visits %llu in all\n", double(events) / frames,
              (unsigned long long)crossings, (unsigned long long)visits);
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 4 ? std::atoi(argv[4]) : 5000;
  const double max_speed = argc > 5 ? std::atof(argv[5]) : 3;
  bench::pin_to_one_core();
  if (argc > 3) {
    run(std::atoi(argv[1]), std::atoi(argv[2]), std::atoi(argv[3]), frames, max_speed);
  } else {
    run(200, 16, 16, frames, max_speed);
    run(50, 4, 4, frames, max_speed);
  }
  return 0;
}
