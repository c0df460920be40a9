// Test frames: the benchmark protocol's random images (MT19937, density, granularity) and the
// adversarial shapes that break labeling algorithms. Padding bytes are never zero, so a backend
// that reads past the width is caught.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace frames {

struct Frame {
  std::string name;
  int width = 0, height = 0;
  std::ptrdiff_t stride = 0;
  std::vector<std::uint8_t> pixels;  // stride * height bytes
  std::uint8_t& at(int x, int y) { return pixels[std::size_t(y) * stride + x]; }
  std::uint8_t at(int x, int y) const { return pixels[std::size_t(y) * stride + x]; }
};

inline Frame blank(const std::string& name, int w, int h, int pad = 0) {
  Frame f;
  f.name = name; f.width = w; f.height = h; f.stride = w + pad;
  f.pixels.assign(std::size_t(f.stride) * h, 0);
  for (int y = 0; y < h; ++y)
    for (int x = w; x < f.stride; ++x) f.at(x, y) = 0xA5;  // garbage in the padding
  return f;
}

// g x g blocks are foreground with probability density_percent/100; foreground values are
// random in [1, 255] when `gray`, else 255, so thresholds can be tested on the same frames.
inline Frame random(int w, int h, int density_percent, int g, std::uint32_t seed, int pad = 0, bool gray = false) {
  Frame f = blank("random " + std::to_string(w) + "x" + std::to_string(h) + " d=" +
                      std::to_string(density_percent) + "% g=" + std::to_string(g) + " seed=" + std::to_string(seed),
                  w, h, pad);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> percent(0, 99), value(1, 255);
  const int bw = (w + g - 1) / g, bh = (h + g - 1) / g;
  std::vector<std::uint8_t> block(std::size_t(bw) * bh);
  for (auto& b : block) b = percent(rng) < density_percent;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      f.at(x, y) = block[std::size_t(y / g) * bw + x / g] ? (gray ? std::uint8_t(value(rng)) : 255) : 0;
  return f;
}

inline Frame full(int w, int h, int pad = 0) {
  Frame f = blank("full " + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.at(x, y) = 255;
  return f;
}

// A one-pixel-wide square spiral walked inward with a one-pixel gap between arms: one long
// component (worst case for label propagation and for union-find path lengths).
inline Frame spiral(int w, int h, int pad = 0) {
  Frame f = blank("spiral " + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  const int dx[4] = {1, 0, -1, 0}, dy[4] = {0, 1, 0, -1};
  auto inside = [&](int x, int y) { return x >= 0 && y >= 0 && x < w && y < h; };
  auto can_step = [&](int x, int y, int d) {
    const int ax = x + dx[d], ay = y + dy[d], bx = ax + dx[d], by = ay + dy[d];
    return inside(ax, ay) && !f.at(ax, ay) && !(inside(bx, by) && f.at(bx, by));
  };
  int x = 0, y = 0, d = 0;
  f.at(x, y) = 255;
  for (;;) {
    if (!can_step(x, y, d)) {
      d = (d + 1) % 4;
      if (!can_step(x, y, d)) break;
    }
    x += dx[d]; y += dy[d];
    f.at(x, y) = 255;
  }
  return f;
}

// Vertical teeth joined by a bottom bar (or a top bar when reversed): components that merge only
// on the last (or first) row.
inline Frame comb(int w, int h, bool reversed, int pad = 0) {
  Frame f = blank(std::string(reversed ? "reversed comb " : "comb ") + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; x += 2) f.at(x, y) = 255;
  const int bar = reversed ? 0 : h - 1;
  for (int x = 0; x < w; ++x) f.at(x, bar) = 255;
  return f;
}

// Single pixels touching only diagonally: w*h/2 components in 4-connectivity, one in 8.
inline Frame checkerboard(int w, int h, int pad = 0) {
  Frame f = blank("checkerboard " + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.at(x, y) = ((x + y) & 1) ? 0 : 255;
  return f;
}

// Diagonal staircases running both ways, connected only through corners.
inline Frame stairs(int w, int h, int pad = 0) {
  Frame f = blank("stairs " + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if ((x + y) % 5 == 0 || (x - y + 5 * h) % 7 == 0) f.at(x, y) = 255;
  return f;
}

// The four corner pixels and the middle of each edge.
inline Frame corners(int w, int h, int pad = 0) {
  Frame f = blank("corners " + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  f.at(0, 0) = f.at(w - 1, 0) = f.at(0, h - 1) = f.at(w - 1, h - 1) = 255;
  f.at(w / 2, 0) = f.at(w / 2, h - 1) = f.at(0, h / 2) = f.at(w - 1, h / 2) = 255;
  return f;
}

// One-pixel lines: every other row (horizontal) or column (vertical) foreground.
inline Frame lines(int w, int h, bool vertical, int pad = 0) {
  Frame f = blank(std::string(vertical ? "vertical lines " : "horizontal lines ") + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if ((vertical ? x : y) % 2 == 0) f.at(x, y) = 255;
  return f;
}

// Concentric square rings: nested components, each surrounding the next.
inline Frame rings(int w, int h, int pad = 0) {
  Frame f = blank("rings " + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int d = std::min(std::min(x, y), std::min(w - 1 - x, h - 1 - y));
      if (d % 2 == 0) f.at(x, y) = 255;
    }
  return f;
}

// Every adversarial shape at one size.
inline std::vector<Frame> adversarial(int w, int h, int pad = 0) {
  std::vector<Frame> v;
  v.push_back(blank("empty " + std::to_string(w) + "x" + std::to_string(h), w, h, pad));
  v.push_back(full(w, h, pad));
  v.push_back(spiral(w, h, pad));
  v.push_back(comb(w, h, false, pad));
  v.push_back(comb(w, h, true, pad));
  v.push_back(checkerboard(w, h, pad));
  v.push_back(stairs(w, h, pad));
  v.push_back(corners(w, h, pad));
  v.push_back(lines(w, h, false, pad));
  v.push_back(lines(w, h, true, pad));
  v.push_back(rings(w, h, pad));
  return v;
}

}  // namespace frames
