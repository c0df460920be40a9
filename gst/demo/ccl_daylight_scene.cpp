// Everything random here is a hash of (seed, what, indices): no state carries from frame to frame,
// so any frame can be rendered alone, in any order, at any frame rate.
#include "ccl_daylight_scene.h"

#include <algorithm>
#include <cmath>

#include "ccl_scene_hash.h"

namespace ccl_demo {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Keys of the hash, so the streams of random numbers never coincide (kLattice is value_noise's).
enum Stream : std::uint64_t { kLattice = 1, kObject, kCrossing, kTexture, kNoise, kDrift };

}  // namespace

// Object `i` crosses the frame once per period, entering and leaving wholly outside it; each pass
// draws its own size, shape, path and texture.
struct DaylightScene::Crossing {
  bool in_view = false;
  std::uint64_t pass = 0;  // which crossing of its slot this is: each pass is another object
  int x = 0, y = 0, width = 0, height = 0;  // top-left corner (may be outside the frame) and size
  bool ellipse = false;
  int pattern = 0;  // 0 checker, 1 horizontal stripes, 2 vertical stripes (across the motion, never along it)
  int base = 0, amplitude = 0, cell = 1;
  std::uint64_t texture_key = 0;
};

DaylightScene::DaylightScene(int width, int height, std::uint32_t seed, unsigned n_objects)
    : width_(width), height_(height), seed_(seed), n_objects_(n_objects), background_(std::size_t(width) * height) {
  // Three octaves of value noise, contrast-stretched over 25..230: mid-grey texture at every scale.
  const double unit = std::max(std::min(width, height), 16);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const double s = 0.55 * value_noise(seed, 0, x, y, unit * 0.18) + 0.30 * value_noise(seed, 1, x, y, unit * 0.06) +
                       0.15 * value_noise(seed, 2, x, y, unit * 0.02);
      const double v = std::min(1.0, std::max(0.0, 0.5 + 1.8 * (s - 0.5)));
      background_[std::size_t(y) * width + x] = std::uint8_t(std::lround(25 + 205 * v));
    }
}

DaylightScene::Crossing DaylightScene::crossing(unsigned i, std::uint64_t n) const {
  const double w = width_, h = height_, unit = std::max(std::min(width_, height_), 16);
  Draws object{hash(seed_, kObject, i)};
  // Speeds and texture cells are in pixels, whatever the frame size: a background model sees pixels
  // change per frame, so these fix how hard the scene is. A period long enough to cross the width.
  const double speed = object.uniform(2.9, 5.0);
  const std::uint64_t gap_max = 60, period = std::uint64_t((w + 0.3 * unit) / speed) + gap_max;
  const std::uint64_t first =
      1 + std::uint64_t(object.uniform(0, double(gap_max)));  // the empty frame 0 warms models up
  Crossing c;
  if (n < first) return c;
  const std::uint64_t pass = (n - first) / period, t = (n - first) % period;
  c.pass = pass;
  Draws d{hash(seed_, kCrossing, i, pass)};
  const std::uint64_t travel = period - std::uint64_t(d.uniform(0, double(gap_max)));
  if (t >= travel) return c;

  c.width = std::max(16, int(d.uniform(0.08, 0.22) * unit));
  c.height = std::max(16, int(std::min(0.3 * unit, std::max(0.06 * unit, c.width * d.uniform(0.5, 1.6)))));
  c.ellipse = d.uniform(0, 1) < 0.5;
  const bool checker = d.uniform(0, 1) < 0.5;
  c.base = int(d.uniform(55, 200));
  c.amplitude = int(d.uniform(35, 55));
  c.cell = int(d.uniform(5, 13));
  c.texture_key = hash(seed_, kTexture, i, pass);

  // From just outside one edge to just outside the opposite one, with a random slope.
  const double ow = c.width, oh = c.height;
  double x0, y0, x1, y1;
  const int edge = int(d.uniform(0, 4));
  if (edge < 2) {  // horizontal crossings, left to right or right to left
    x0 = -ow, x1 = w;
    y0 = d.uniform(-oh / 2, h - oh / 2), y1 = d.uniform(-oh / 2, h - oh / 2);
    if (edge == 1) std::swap(x0, x1);
    c.pattern = checker ? 0 : 2;  // stripes along the motion would look still inside the object
  } else {                        // vertical crossings
    y0 = -oh, y1 = h;
    x0 = d.uniform(-ow / 2, w - ow / 2), x1 = d.uniform(-ow / 2, w - ow / 2);
    if (edge == 3) std::swap(y0, y1);
    c.pattern = checker ? 0 : 1;
  }
  const double f = double(t) / double(travel);
  c.x = int(std::floor(x0 + (x1 - x0) * f)), c.y = int(std::floor(y0 + (y1 - y0) * f));
  c.in_view = c.x < width_ && c.y < height_ && c.x + c.width > 0 && c.y + c.height > 0;
  return c;
}

std::vector<TruthBox> DaylightScene::render(std::uint64_t n, std::uint8_t* plane, std::ptrdiff_t stride,
                                            bool draw_objects, bool sensor_noise) const {
  // The scene before lighting and noise, objects drawn in index order (later ones on top).
  std::vector<std::uint8_t> scene = background_;
  std::vector<TruthBox> boxes;
  for (unsigned i = 0; draw_objects && i < n_objects_; ++i) {
    const Crossing c = crossing(i, n);
    if (!c.in_view) continue;
    int bx0 = width_, by0 = height_, bx1 = -1, by1 = -1;  // the drawn pixels' extent
    const double rx = c.width / 2.0, ry = c.height / 2.0;
    for (int v = std::max(0, -c.y); v < c.height && c.y + v < height_; ++v)
      for (int u = std::max(0, -c.x); u < c.width && c.x + u < width_; ++u) {
        if (c.ellipse) {
          const double dx = (u + 0.5 - rx) / rx, dy = (v + 0.5 - ry) / ry;
          if (dx * dx + dy * dy > 1.0) continue;
        }
        const bool odd = c.pattern == 0   ? ((u / c.cell + v / c.cell) & 1)
                         : c.pattern == 1 ? ((v / c.cell) & 1)
                                          : ((u / c.cell) & 1);
        const int grain = int(hash(c.texture_key, std::uint64_t(u), std::uint64_t(v)) % 17) - 8;  // fixed to the object
        const int x = c.x + u, y = c.y + v;
        const std::size_t at = std::size_t(y) * width_ + x;
        int value = clamp_byte(c.base + (odd ? c.amplitude : -c.amplitude) + grain, 20, 235);
        if (value == background_[at])
          value += value < 128 ? 1 : -1;  // every drawn pixel differs: the truth box is exact
        scene[at] = std::uint8_t(value);
        bx0 = std::min(bx0, x), by0 = std::min(by0, y), bx1 = std::max(bx1, x), by1 = std::max(by1, y);
      }
    // Each pass draws a new size, shape, path and texture: another object, with an id of its own.
    const auto id = std::uint32_t(i + std::uint64_t(n_objects_) * c.pass);
    if (bx1 >= 0) boxes.push_back({id, bx0, by0, bx1 - bx0 + 1, by1 - by0 + 1});
  }

  // Illumination drifts +-5 grey levels over 700 frames; sensor noise is 3 draws of -2..2 (sigma ~2.4).
  const double phase = double(hash(seed_, kDrift) >> 11) / double(1ull << 53) * 2 * kPi;
  const int drift = int(std::lround(5.0 * std::sin(2 * kPi * double(n) / 700.0 + phase)));
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x) {
      const std::uint64_t r = hash(seed_, kNoise, n, std::uint64_t(y) * std::uint64_t(width_) + std::uint64_t(x));
      const int noise = sensor_noise ? int(r % 5) + int((r >> 16) % 5) + int((r >> 32) % 5) - 6 : 0;
      plane[std::size_t(y) * stride + x] = std::uint8_t(clamp_byte(scene[std::size_t(y) * width_ + x] + drift + noise));
    }
  return boxes;
}

}  // namespace ccl_demo
