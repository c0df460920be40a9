// Everything random is a hash of (seed, stream, indices), as in the daylight scene: any frame
// renders alone. Luma stays in 12..200 before lighting, so a +30 % gain never clips.
#include "ccl_hard_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "ccl_scene_hash.h"

namespace ccl_demo {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Keys of the hash, apart from the daylight scene's (1..6) so the two scenes share no stream.
enum Stream : std::uint64_t {
  kBackground = 101,
  kChromaU,
  kChromaV,
  kMoverKey,
  kPass,
  kTexture,
  kStop,
  kNoise,
  kLeaves,
  kLeafEdge,
  kLeafChroma,
  kSway
};

constexpr std::uint64_t kGainEvery = 100;                               // gain-step: a change every 100 frames
constexpr std::uint64_t kIrPeriod = 400, kIrNight = 150, kIrDay = 350;  // ir-switch: night in [150, 350)
constexpr std::uint64_t kStopFrames = 100, kStopEnter = 10, kGhostFrames = 150;
constexpr int kStopSpeed = 3;      // pixels per frame of the stopping object
constexpr int kMinDifference = 4;  // an object pixel differs by this from what it hides (>= 2 after IR's 0.6)

double unit_of(int width, int height) { return std::max(std::min(width, height), 16); }

}  // namespace

struct HardScene::Mover {
  std::uint32_t id = 0;
  bool in_view = false;
  int x = 0, y = 0, width = 0, height = 0;  // top-left corner (may be outside the frame) and size
  bool ellipse = false;
  bool checker = false;  // else vertical stripes, across the horizontal motion
  int base = 0, amplitude = 0, cell = 1, u = 128, v = 128;
  std::uint64_t texture_key = 0;
  std::uint32_t still = 0;

  // Size, shape, texture and colour: saturated (40 from grey), so never the background's colour.
  void draw_look(Draws& d, double unit) {
    width = std::max(16, int(d.uniform(0.10, 0.20) * unit));
    height = std::max(12, int(d.uniform(0.08, 0.16) * unit));
    ellipse = d.uniform(0, 1) < 0.5;
    checker = d.uniform(0, 1) < 0.5;
    base = int(d.uniform(60, 160));
    amplitude = int(d.uniform(15, 30));
    cell = int(d.uniform(5, 12));
    const double hue = d.uniform(0, 2 * kPi);
    u = 128 + int(std::lround(40 * std::cos(hue))), v = 128 + int(std::lround(40 * std::sin(hue)));
  }
  bool covers(int lu, int lv) const {
    if (!ellipse) return true;
    const double rx = width / 2.0, ry = height / 2.0, dx = (lu + 0.5 - rx) / rx, dy = (lv + 0.5 - ry) / ry;
    return dx * dx + dy * dy <= 1.0;
  }
  int luma(int lu, int lv) const {
    const bool odd = checker ? ((lu / cell + lv / cell) & 1) : ((lu / cell) & 1);
    const int grain = int(hash(texture_key, std::uint64_t(lu), std::uint64_t(lv)) % 11) - 5;
    return clamp_byte(base + (odd ? amplitude : -amplitude) + grain, 30, 190);
  }
};

// Object 0 enters from the left at 3 pixels a frame, stands 100 frames in the middle of the frame,
// leaves to the right; its ghost is listed 150 frames more after it is gone, then the cycle repeats.
struct HardScene::StopPlan {
  Mover look;
  int x_stop = 0;
  std::uint64_t arrive = 0, leave = 0, period = 1;
};

HardScene::StopPlan HardScene::stop_plan() const {
  const double unit = unit_of(width_, height_);
  StopPlan p;
  Draws d{hash(seed_, kStop)};
  p.look.draw_look(d, unit);
  p.look.width = std::max(16, int(0.18 * unit)), p.look.height = std::max(12, int(0.12 * unit));
  p.look.texture_key = hash(seed_, kTexture, 1u << 20);
  p.look.y = (height_ - p.look.height) / 2;
  p.x_stop = (width_ - p.look.width) / 2;
  p.arrive = kStopEnter + std::uint64_t((p.x_stop + p.look.width + kStopSpeed - 1) / kStopSpeed);
  p.leave = p.arrive + kStopFrames;
  p.period = p.leave + std::uint64_t((width_ - p.x_stop + kStopSpeed - 1) / kStopSpeed) + kGhostFrames;
  return p;
}

HardScene::Mover HardScene::stopper(std::uint64_t n) const {
  const StopPlan p = stop_plan();
  const std::uint64_t t = n % p.period;
  Mover m = p.look;
  if (t < kStopEnter) return m;
  if (t < p.arrive) {
    m.x = -m.width + kStopSpeed * int(t - kStopEnter);
  } else if (t < p.leave) {
    m.x = p.x_stop, m.still = std::uint32_t(t - p.arrive + 1);
  } else {
    m.x = p.x_stop + kStopSpeed * int(t - p.leave + 1);
  }
  m.in_view = m.x < width_ && m.x + m.width > 0;
  return m;
}

// Object `i` crosses the frame horizontally once per period, in a lane of its own per pass; in
// stopped-object the lanes keep clear of the middle band where object 0 stops.
HardScene::Mover HardScene::mover(unsigned i, std::uint64_t n) const {
  if (case_ == HardCase::StoppedObject && i == 0) return stopper(n);
  const double w = width_, unit = unit_of(width_, height_);
  Draws object{hash(seed_, kMoverKey, i)};
  const double speed = object.uniform(2.5, 4.5);
  const std::uint64_t gap_max = 60, period = std::uint64_t((w + 0.25 * unit) / speed) + gap_max;
  const std::uint64_t first = 1 + std::uint64_t(object.uniform(0, double(gap_max)));  // frame 0 is empty
  Mover m;
  m.id = i;
  if (n < first) return m;
  const std::uint64_t pass = (n - first) / period, t = (n - first) % period;
  Draws d{hash(seed_, kPass, i, pass)};
  const std::uint64_t travel = period - std::uint64_t(d.uniform(0, double(gap_max)));
  if (t >= travel) return m;
  m.draw_look(d, unit);
  m.texture_key = hash(seed_, kTexture, i, pass);
  int lo = 0, hi = height_ - m.height;
  if (case_ == HardCase::StoppedObject) {
    if (i % 2)
      hi = int(0.4 * height_) - m.height;
    else
      lo = int(std::ceil(0.6 * height_));
  }
  hi = std::max(lo, hi);
  m.y = lo + int(d.uniform(0, double(hi - lo + 1)));
  const bool rightwards = d.uniform(0, 1) < 0.5;
  const double x0 = rightwards ? -m.width : w, x1 = rightwards ? w : -m.width;
  m.x = int(std::floor(x0 + (x1 - x0) * double(t) / double(travel)));
  m.in_view = m.x < width_ && m.x + m.width > 0 && m.y < height_ && m.y + m.height > 0;
  return m;
}

// The light of frame `n`: gain-step changes the gain every 100 frames (1 -> 1.3 -> 1 -> 0.7 -> 1
// ...), each change spread over 3 frames; ir-switch is night (luma 0.6 x + 70, chroma grey) from
// 150 to 349 of every 400 frames.
void HardScene::lighting(std::uint64_t n, HardTruth* truth) const {
  if (case_ == HardCase::GainStep) {
    static const double levels[] = {1.0, 1.3, 1.0, 0.7};
    const std::uint64_t k = n / kGainEvery, j = n % kGainEvery;
    auto level = [&](std::uint64_t e) { return levels[e % 4]; };
    truth->luma_gain = k >= 1 && j < 3 ? level(k - 1) + (level(k) - level(k - 1)) * double(j + 1) / 3 : level(k);
  } else if (case_ == HardCase::IrSwitch) {
    const std::uint64_t p = n % kIrPeriod;
    if (p >= kIrNight && p < kIrDay) truth->luma_gain = 0.6, truth->luma_offset = 70, truth->grey = true;
  }
}

// The tree-like patch: a ragged ellipse of fine leaf texture, all of it shifted by (dx, dy).
bool HardScene::in_canopy(int x, int y, int dx, int dy) const {
  const double unit = unit_of(width_, height_), cx = 0.72 * width_, cy = 0.32 * height_;
  const double rx = 0.22 * unit, ry = 0.16 * unit, lx = x - dx, ly = y - dy;
  const double ex = (lx - cx) / rx, ey = (ly - cy) / ry;
  return ex * ex + ey * ey <= 1.0 - 0.35 * value_noise(seed_, 0, lx, ly, 5, kLeafEdge);
}

// Sways every frame: 2 pixels a frame across, between -4 and 4 (a triangle wave), and up to 2
// pixels along, so every frame moves the patch.
void HardScene::sway_offset(std::uint64_t n, int* dx, int* dy) const {
  static const int across[] = {-4, -2, 0, 2, 4, 2, 0, -2};
  const std::uint64_t h = hash(seed_, kSway);
  const double phase = double(h >> 11) / double(1ull << 53) * 2 * kPi;
  *dx = across[(n + (h & 7)) % 8];
  *dy = int(std::lround(1.5 * std::sin(2 * kPi * double(n) / 13 + phase)));
}

HardScene::HardScene(HardCase which, int width, int height, std::uint32_t seed)
    : case_(which),
      width_(width),
      height_(height),
      c_width_((width + 1) / 2),
      c_height_((height + 1) / 2),
      seed_(seed),
      luma_(std::size_t(width) * height),
      u_(std::size_t(c_width_) * c_height_),
      v_(std::size_t(c_width_) * c_height_) {
  // As the daylight scene's background, over 30..190; mildly coloured (chroma 128 +- 14).
  const double unit = unit_of(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const double s = 0.55 * value_noise(seed, 0, x, y, unit * 0.18, kBackground) +
                       0.30 * value_noise(seed, 1, x, y, unit * 0.06, kBackground) +
                       0.15 * value_noise(seed, 2, x, y, unit * 0.02, kBackground);
      const double v = std::min(1.0, std::max(0.0, 0.5 + 1.8 * (s - 0.5)));
      luma_[std::size_t(y) * width + x] = std::uint8_t(std::lround(30 + 160 * v));
    }
  for (int y = 0; y < c_height_; ++y)
    for (int x = 0; x < c_width_; ++x) {
      const std::size_t at = std::size_t(y) * c_width_ + x;
      u_[at] = std::uint8_t(128 + std::lround(14 * (2 * value_noise(seed, 0, x, y, unit * 0.06, kChromaU) - 1)));
      v_[at] = std::uint8_t(128 + std::lround(14 * (2 * value_noise(seed, 0, x, y, unit * 0.06, kChromaV) - 1)));
    }
  // Everywhere the swaying patch can reach: the ellipse's box grown by the largest offsets (4, 2).
  const double cx = 0.72 * width, cy = 0.32 * height, rx = 0.22 * unit, ry = 0.16 * unit;
  const int x0 = std::max(0, int(std::floor(cx - rx)) - 4), x1 = std::min(width - 1, int(std::ceil(cx + rx)) + 4);
  const int y0 = std::max(0, int(std::floor(cy - ry)) - 2), y1 = std::min(height - 1, int(std::ceil(cy + ry)) + 2);
  if (which == HardCase::Sway && x1 >= x0 && y1 >= y0) canopy_box_ = {0, x0, y0, x1 - x0 + 1, y1 - y0 + 1};
}

HardTruth HardScene::render(std::uint64_t n, const PlanesOut& out, bool draw_objects, bool sensor_noise) const {
  HardTruth truth;
  lighting(n, &truth);
  std::vector<std::uint8_t> luma = luma_, u = u_, v = v_;
  const std::size_t w = std::size_t(width_), cw = std::size_t(c_width_);

  if (case_ == HardCase::Sway && canopy_box_.width > 0) {
    int dx = 0, dy = 0;
    sway_offset(n, &dx, &dy);
    const TruthRegion& b = canopy_box_;
    for (int y = b.y; y < b.y + b.height; ++y)
      for (int x = b.x; x < b.x + b.width; ++x) {
        if (!in_canopy(x, y, dx, dy)) continue;
        const double lx = x - dx, ly = y - dy;
        const double s =
            0.6 * value_noise(seed_, 0, lx, ly, 3, kLeaves) + 0.4 * value_noise(seed_, 1, lx, ly, 1.5, kLeaves);
        luma[y * w + x] = std::uint8_t(std::lround(40 + 130 * std::min(1.0, std::max(0.0, 0.5 + 1.6 * (s - 0.5)))));
        if (x % 2 == 0 && y % 2 == 0) {  // this 2x2 block's chroma sample: green leaves
          const double c = value_noise(seed_, 0, lx, ly, 4, kLeafChroma);
          u[std::size_t(y / 2) * cw + x / 2] = std::uint8_t(std::lround(100 + 12 * c));
          v[std::size_t(y / 2) * cw + x / 2] = std::uint8_t(std::lround(106 + 12 * c));
        }
      }
    truth.clutter.push_back(canopy_box_);
  }

  std::vector<Mover> movers;
  for (unsigned i = 0; draw_objects && i < unsigned(kMovers); ++i) {
    Mover m = mover(i, n);
    m.id = i;
    if (m.in_view) movers.push_back(m);
  }
  const bool shadows = case_ == HardCase::Shadows;
  std::vector<std::int16_t> shadow_of(shadows ? luma.size() : 0, -1), object_at(luma.size(), -1);
  for (std::size_t k = 0; shadows && k < movers.size(); ++k) {
    // The object's silhouette shifted down-right by half its size, on the ground: luma x 0.55.
    const Mover& m = movers[k];
    const int sx = m.x + int(std::lround(0.5 * m.width)), sy = m.y + int(std::lround(0.6 * m.height));
    for (int lv = std::max(0, -sy); lv < m.height && sy + lv < height_; ++lv)
      for (int lu = std::max(0, -sx); lu < m.width && sx + lu < width_; ++lu) {
        const std::size_t at = std::size_t(sy + lv) * w + std::size_t(sx + lu);
        if (!m.covers(lu, lv) || shadow_of[at] >= 0) continue;
        luma[at] = std::uint8_t((luma[at] * 11 + 10) / 20);
        shadow_of[at] = std::int16_t(k);
      }
  }
  for (std::size_t k = 0; k < movers.size(); ++k) {  // in index order, later ones on top
    const Mover& m = movers[k];
    int bx0 = width_, by0 = height_, bx1 = -1, by1 = -1;
    for (int lv = std::max(0, -m.y); lv < m.height && m.y + lv < height_; ++lv)
      for (int lu = std::max(0, -m.x); lu < m.width && m.x + lu < width_; ++lu) {
        if (!m.covers(lu, lv)) continue;
        const int x = m.x + lu, y = m.y + lv;
        const std::size_t at = std::size_t(y) * w + std::size_t(x);
        // Differs from what it hides and from the bare background, so the truth box is exact.
        const int want = m.luma(lu, lv);
        int value = want;
        for (int step = 1; std::abs(value - luma[at]) < kMinDifference || std::abs(value - luma_[at]) < kMinDifference;
             ++step)
          value = clamp_byte(want + (step % 2 ? 1 : -1) * kMinDifference * ((step + 1) / 2), 12, 200);
        luma[at] = std::uint8_t(value);
        object_at[at] = std::int16_t(k);
        bx0 = std::min(bx0, x), by0 = std::min(by0, y), bx1 = std::max(bx1, x), by1 = std::max(by1, y);
      }
    if (bx1 < 0) continue;
    TruthBox b{m.id, bx0, by0, bx1 - bx0 + 1, by1 - by0 + 1};
    b.still = m.still;
    truth.objects.push_back(b);
  }
  // A 2x2 block's chroma is the object's colour when its top-left pixel is the object's.
  for (int y = 0; y < c_height_; ++y)
    for (int x = 0; x < c_width_; ++x) {
      const int k = object_at[std::size_t(2 * y) * w + std::size_t(2 * x)];
      if (k >= 0)
        u[std::size_t(y) * cw + x] = std::uint8_t(movers[k].u), v[std::size_t(y) * cw + x] = std::uint8_t(movers[k].v);
    }

  if (shadows) {  // each shadow's box: its pixels no object hides
    std::vector<TruthRegion> boxes(movers.size(), TruthRegion{0, width_, height_, -1, -1});
    for (int y = 0; y < height_; ++y)
      for (int x = 0; x < width_; ++x) {
        const std::size_t at = std::size_t(y) * w + std::size_t(x);
        if (shadow_of[at] < 0 || object_at[at] >= 0) continue;
        TruthRegion& b = boxes[std::size_t(shadow_of[at])];
        b.x = std::min(b.x, x), b.y = std::min(b.y, y), b.width = std::max(b.width, x),
        b.height = std::max(b.height, y);
      }
    for (std::size_t k = 0; k < movers.size(); ++k)
      if (boxes[k].width >= 0)
        truth.shadows.push_back(
            {movers[k].id, boxes[k].x, boxes[k].y, boxes[k].width - boxes[k].x + 1, boxes[k].height - boxes[k].y + 1});
  }

  if (case_ == HardCase::StoppedObject && draw_objects) {  // where object 0 stood, once it moves on
    const StopPlan p = stop_plan();
    const std::uint64_t t = n % p.period;
    if (t >= p.leave) {
      const Mover& m = p.look;
      int bx0 = width_, by0 = height_, bx1 = -1, by1 = -1;
      for (int lv = std::max(0, -m.y); lv < m.height && m.y + lv < height_; ++lv)
        for (int lu = std::max(0, -p.x_stop); lu < m.width && p.x_stop + lu < width_; ++lu)
          if (m.covers(lu, lv))
            bx0 = std::min(bx0, p.x_stop + lu), by0 = std::min(by0, m.y + lv), bx1 = std::max(bx1, p.x_stop + lu),
            by1 = std::max(by1, m.y + lv);
      if (bx1 >= 0) truth.ghosts.push_back({0, bx0, by0, bx1 - bx0 + 1, by1 - by0 + 1, std::uint32_t(t - p.leave)});
    }
  }

  // Lighting, then sensor noise on luma: 3 draws of -2..2 (sigma ~2.4), or for scene=noise 4
  // draws of -3..3 (sigma 4). Chroma has no noise, so a shadow's chroma is exactly the ground's.
  const bool strong = case_ == HardCase::Noise;
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x) {
      int noise = 0;
      if (sensor_noise) {
        const std::uint64_t r = hash(seed_, kNoise, n, std::uint64_t(y) * w + std::uint64_t(x));
        noise = strong ? int(r % 7) + int((r >> 16) % 7) + int((r >> 32) % 7) + int((r >> 48) % 7) - 12
                       : int(r % 5) + int((r >> 16) % 5) + int((r >> 32) % 5) - 6;
      }
      const long lit = std::lround(truth.luma_gain * luma[std::size_t(y) * w + x] + truth.luma_offset);
      out.y[std::ptrdiff_t(y) * out.y_stride + x] = std::uint8_t(clamp_byte(int(lit) + noise));
    }
  if (!out.u || !out.v) return truth;
  for (int y = 0; y < c_height_; ++y)
    for (int x = 0; x < c_width_; ++x) {
      const std::size_t at = std::size_t(y) * cw + x;
      const std::ptrdiff_t o = std::ptrdiff_t(y) * out.c_stride + std::ptrdiff_t(x) * out.c_pixel_stride;
      auto lit = [&](int c) {
        return truth.grey ? 128 : clamp_byte(int(std::lround(128 + truth.luma_gain * (c - 128))));
      };
      out.u[o] = std::uint8_t(lit(u[at])), out.v[o] = std::uint8_t(lit(v[at]));
    }
  return truth;
}

}  // namespace ccl_demo
