// The synthetic daylight scene of daylight_frames.hpp. Everything is a function of the pixel
// coordinates, the frame index and the seed (counter-based hashes, no shared generator state), so
// frames are generated on several threads and come out identical on every host.
#include "daylight_frames.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>

namespace bench {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::uint64_t mix(std::uint64_t z) {  // splitmix64's finaliser
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Uniform in [-1, 1] from integer coordinates.
double hash_unit(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const std::uint64_t h = mix(a * 0x100000001b3ull ^ mix(b * 0x9e3779b1ull ^ mix(c)));
  return double(h >> 11) / double(1ull << 53) * 2.0 - 1.0;
}

// Smooth value noise: bilinear between hashed lattice values, cell `cell` pixels.
double value_noise(double x, double y, double cell, std::uint64_t salt) {
  const double fx = x / cell, fy = y / cell;
  const double x0 = std::floor(fx), y0 = std::floor(fy);
  const double tx = fx - x0, ty = fy - y0;
  const auto ix = std::int64_t(x0), iy = std::int64_t(y0);
  const double a = hash_unit(std::uint64_t(ix), std::uint64_t(iy), salt);
  const double b = hash_unit(std::uint64_t(ix + 1), std::uint64_t(iy), salt);
  const double c = hash_unit(std::uint64_t(ix), std::uint64_t(iy + 1), salt);
  const double d = hash_unit(std::uint64_t(ix + 1), std::uint64_t(iy + 1), salt);
  const double sx = tx * tx * (3 - 2 * tx), sy = ty * ty * (3 - 2 * ty);
  return (a * (1 - sx) + b * sx) * (1 - sy) + (c * (1 - sx) + d * sx) * sy;
}

std::uint8_t clamp_byte(double v) { return std::uint8_t(std::clamp(std::lround(v), 16l, 235l)); }

// Position on [0, span] of a point moving at constant speed and bouncing at both ends.
double bounce(double p, double span) {
  if (span <= 0) return 0;
  const double period = 2 * span;
  double m = std::fmod(p, period);
  if (m < 0) m += period;
  return m <= span ? m : period - m;
}

struct Object {
  int w = 0, h = 0;
  double x0 = 0, y0 = 0, vx = 0, vy = 0;
  std::vector<std::uint8_t> texture;  // w x h scene values
  std::vector<std::uint8_t> inside;   // 1 where the shape covers the pixel
};

// Static background: mid-grey with large soft variations (sky/road/facade-like bands), blocky
// "structures" of a few tens of pixels, and fine texture; values 40..215.
std::vector<std::uint8_t> make_background(int w, int h, double s, std::uint32_t seed, int threads) {
  std::vector<std::uint8_t> bg(std::size_t(w) * std::size_t(h));
  const auto rows = [&](int t, int n) {
    for (int y = t; y < h; y += n)
      for (int x = 0; x < w; ++x) {
        double v = 128;
        v += 22 * value_noise(x, y, 300 * s, seed + 1);  // large soft shading
        v += 10 * std::sin(2 * kPi * y / (h / 3.0)) * std::cos(2 * kPi * x / (w / 5.0));
        const int bx = int(x / (48 * s)), by = int(y / (36 * s));
        v += 18 * hash_unit(std::uint64_t(bx), std::uint64_t(by), seed + 2);  // blocks
        v += 12 * value_noise(x, y, 3 * s, seed + 3);                         // fine texture
        v += 4 * hash_unit(std::uint64_t(x), std::uint64_t(y), seed + 4);     // grain
        bg[std::size_t(y) * std::size_t(w) + std::size_t(x)] = std::uint8_t(std::clamp(std::lround(v), 40l, 215l));
      }
  };
  std::vector<std::thread> pool;
  const int n = std::max(1, threads);
  for (int t = 0; t < n; ++t) pool.emplace_back(rows, t, n);
  for (std::thread& t : pool) t.join();
  return bg;
}

std::vector<Object> make_objects(int w, int h, double s, const DaylightParams& p) {
  std::mt19937 rng(p.seed);
  std::uniform_real_distribution<double> u01(0, 1);
  std::vector<Object> objects(std::size_t(std::max(0, p.objects)));
  int id = 0;
  for (Object& o : objects) {
    ++id;
    const bool vehicle = u01(rng) < 0.5;  // wide rounded boxes, or tall ellipses ("pedestrians")
    o.w = std::max(6, int((vehicle ? 60 + 120 * u01(rng) : 14 + 18 * u01(rng)) * s));
    o.h = std::max(6, int((vehicle ? 30 + 40 * u01(rng) : 40 + 50 * u01(rng)) * s));
    o.w = std::min(o.w, w / 2), o.h = std::min(o.h, h / 2);
    o.x0 = u01(rng) * (w - o.w);
    o.y0 = u01(rng) * (h - o.h);
    const double speed = (vehicle ? 1.0 + 4.0 * u01(rng) : 0.4 + 1.2 * u01(rng)) * s;
    const double angle = (vehicle ? (u01(rng) - 0.5) * 0.5 + (u01(rng) < 0.5 ? 0 : kPi) : 2 * kPi * u01(rng));
    o.vx = speed * std::cos(angle), o.vy = speed * std::sin(angle);
    const double base = 70 + 120 * u01(rng);  // overlaps the background's 40..215
    const double cell = (2 + 6 * u01(rng)) * s;
    o.texture.resize(std::size_t(o.w) * std::size_t(o.h));
    o.inside.resize(o.texture.size());
    for (int v = 0; v < o.h; ++v)
      for (int u = 0; u < o.w; ++u) {
        const double nx = (u + 0.5) / o.w * 2 - 1, ny = (v + 0.5) / o.h * 2 - 1;
        bool in;
        if (vehicle) {  // rounded box: superellipse of order 4
          in = nx * nx * nx * nx + ny * ny * ny * ny <= 1;
        } else {
          in = nx * nx + ny * ny <= 1;
        }
        double t = base + 28 * value_noise(u, v, cell, p.seed + 100 + std::uint64_t(id)) +
                   10 * std::sin(u * 0.35 / s + id) +
                   6 * hash_unit(std::uint64_t(u), std::uint64_t(v), std::uint64_t(id));
        if (vehicle && ny < -0.3) t -= 25;  // a darker "window" band
        const std::size_t at = std::size_t(v) * std::size_t(o.w) + std::size_t(u);
        o.inside[at] = in;
        o.texture[at] = clamp_byte(t);
      }
  }
  return objects;
}

}  // namespace

DaylightSequence make_daylight_sequence(int width, int height, int k, const DaylightParams& params, int threads) {
  const double s = width / 1920.0;
  const std::vector<std::uint8_t> background = make_background(width, height, s, params.seed, threads);
  const std::vector<Object> objects = make_objects(width, height, s, params);

  // Sum of three uniform bytes (0..765), mean 382.5 and standard deviation ~127.8: a cheap near-Gaussian.
  std::vector<int> noise_lut(766);
  for (int i = 0; i < 766; ++i) noise_lut[std::size_t(i)] = int(std::lround((i - 382.5) / 127.8 * params.noise_sigma));

  DaylightSequence seq;
  seq.width = width, seq.height = height, seq.stride = std::size_t(width);
  seq.frames.resize(std::size_t(std::max(0, k)));

  const auto make_frame = [&](int i) {
    std::vector<std::uint8_t> f = background;
    for (const Object& o : objects) {
      const int px = int(bounce(o.x0 + o.vx * i, width - o.w)), py = int(bounce(o.y0 + o.vy * i, height - o.h));
      for (int v = 0; v < o.h; ++v) {
        std::uint8_t* row = f.data() + std::size_t(py + v) * std::size_t(width) + std::size_t(px);
        const std::size_t at = std::size_t(v) * std::size_t(o.w);
        for (int u = 0; u < o.w; ++u)
          if (o.inside[at + std::size_t(u)]) row[u] = o.texture[at + std::size_t(u)];
      }
    }
    // Illumination drift (gain about mid-grey and offset, a slow sine), then sensor noise.
    const double phase = 2 * kPi * i / params.drift_period;
    const double offset = params.drift_amplitude * std::sin(phase);
    const double gain = 1 + 0.5 * params.drift_amplitude / 128 * std::sin(phase + 1.0);
    int gain_lut[256];
    for (int v = 0; v < 256; ++v) gain_lut[v] = int(std::lround(128 + (v - 128) * gain + offset));
    for (int y = 0; y < height; ++y) {
      std::uint64_t state = mix(params.seed ^ mix(std::uint64_t(i) * 0x10001ull + std::uint64_t(y)));
      std::uint8_t* row = f.data() + std::size_t(y) * std::size_t(width);
      for (int x = 0; x < width; x += 2) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;  // xorshift64
        const int n0 = noise_lut[(state & 0xff) + ((state >> 8) & 0xff) + ((state >> 16) & 0xff)];
        const int n1 = noise_lut[((state >> 24) & 0xff) + ((state >> 32) & 0xff) + ((state >> 40) & 0xff)];
        row[x] = std::uint8_t(std::clamp(gain_lut[row[x]] + n0, 0, 255));
        if (x + 1 < width) row[x + 1] = std::uint8_t(std::clamp(gain_lut[row[x + 1]] + n1, 0, 255));
      }
    }
    seq.frames[std::size_t(i)] = std::move(f);
  };

  const int n_threads = std::max(1, std::min(threads, k));
  std::vector<std::thread> pool;
  for (int t = 0; t < n_threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = t; i < k; i += n_threads) make_frame(i);
    });
  for (std::thread& t : pool) t.join();
  return seq;
}

}  // namespace bench
