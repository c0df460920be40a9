// Helpers of the core tests: run a backend on a frame and compare the result and the label map
// with the flood-fill oracle; extra frame generators (garbage padding, gray noise, hand drawn).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ccl/analyzer.hpp"
#include "compare.hpp"
#include "frames.hpp"
#include "oracle.hpp"

namespace corecheck {

inline std::string describe(const ccl::Options& o) {
  std::ostringstream s;
  s << "conn=" << o.connectivity << " thr=" << int(o.threshold);
  if (o.min_area) s << " min-area=" << o.min_area;
  if (o.max_area != ccl::kUnlimited) s << " max-area=" << o.max_area;
  if (o.max_objects != ccl::kUnlimited) s << " max-objects=" << o.max_objects;
  s << " order=" << ccl::to_string(o.order);
  return s.str();
}

inline ccl::Options opts(int connectivity, std::uint8_t threshold = 0) {
  ccl::Options o;
  o.connectivity = connectivity;
  o.threshold = threshold;
  return o;
}

inline ccl::ImageView view(const frames::Frame& f) { return {f.pixels.data(), f.width, f.height, f.stride, {}}; }

// The frame as text ('#' foreground, '.' background) so a failing small frame can be redrawn.
inline std::string ascii(const frames::Frame& f, std::uint8_t threshold) {
  if (std::size_t(f.width) * f.height > 48 * 48) return "";
  std::string s = "\n";
  for (int y = 0; y < f.height; ++y) {
    for (int x = 0; x < f.width; ++x) s += f.at(x, y) > threshold ? '#' : '.';
    s += '\n';
  }
  return s;
}

// A copy of `f` with `pad` extra bytes per row, all random and non-zero (1..255): a backend
// that reads past the width sees foreground for every threshold below the byte's value.
inline frames::Frame repad(const frames::Frame& f, int pad, std::uint32_t seed) {
  frames::Frame g;
  g.name = f.name + " pad=" + std::to_string(pad);
  g.width = f.width; g.height = f.height; g.stride = f.width + pad;
  g.pixels.assign(std::size_t(g.stride) * g.height, 0);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> garbage(1, 255);
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) g.at(x, y) = f.at(x, y);
    for (int x = g.width; x < g.stride; ++x) g.at(x, y) = std::uint8_t(pad > 1 && x == g.width + 1 ? 255 : garbage(rng));
  }
  return g;
}

// Every pixel uniform in [0, 255]: background is not only 0, so thresholds really cut.
inline frames::Frame gray_noise(int w, int h, std::uint32_t seed, int pad = 0) {
  frames::Frame f = frames::blank("gray noise " + std::to_string(w) + "x" + std::to_string(h) +
                                      " seed=" + std::to_string(seed), w, h, pad);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(0, 255);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.at(x, y) = std::uint8_t(value(rng));
  return f;
}

// Hand-drawn frame: '#' = 255, '.' = 0, a digit d = value 10*d (for threshold tests).
inline frames::Frame drawn(const std::string& name, const std::vector<std::string>& rows, int pad = 0) {
  frames::Frame f = frames::blank(name, int(rows.at(0).size()), int(rows.size()), pad);
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) {
      const char c = rows[y].at(x);
      f.at(x, y) = c == '#' ? 255 : (c >= '0' && c <= '9') ? std::uint8_t(10 * (c - '0')) : 0;
    }
  return f;
}

// Horizontal runs joined alternately at the right and left ends: one component whose runs
// meet in reverse order every other row (labels must be merged down a long chain).
inline frames::Frame serpentine(int w, int h, int pad = 0) {
  frames::Frame f = frames::blank("serpentine " + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  for (int y = 0; y < h; ++y) {
    if (y % 2 == 0) {
      for (int x = 0; x < w; ++x) f.at(x, y) = 255;
    } else {
      f.at((y / 2) % 2 == 0 ? w - 1 : 0, y) = 255;
    }
  }
  return f;
}

// Many short runs in each row that join only through a diagonal staircase below-left, so the
// label with the smallest first pixel arrives last (tests numbering by first pixel, not by merge).
inline frames::Frame late_join(int w, int h, int pad = 0) {
  frames::Frame f = frames::blank("late join " + std::to_string(w) + "x" + std::to_string(h), w, h, pad);
  for (int x = 0; x < w; x += 3) f.at(x, 0) = 255;                 // isolated seeds on row 0
  for (int y = 1; y < h; ++y) {
    const int x = w - 1 - (y - 1);                                    // anti-diagonal from the right
    if (x >= 0) f.at(x, y) = 255;
    if (y % 4 == 0)
      for (int xx = 0; xx < w; xx += 4) f.at(xx, y) = 255;            // dots that touch nothing or the diagonal
  }
  return f;
}

// The shared shapes plus ours.
inline std::vector<frames::Frame> adversarial(int w, int h, int pad = 0) {
  std::vector<frames::Frame> v = frames::adversarial(w, h, pad);
  v.push_back(serpentine(w, h, pad));
  v.push_back(late_join(w, h, pad));
  return v;
}

// compare::diff prints centroids at default precision; a one-ulp difference needs all 17 digits.
inline std::string centroid_digits(const ccl::Result& got, const ccl::Result& want) {
  const std::size_t n = std::min(got.components.size(), want.components.size());
  for (std::size_t i = 0; i < n; ++i) {
    const ccl::Component &g = got.components[i], &w = want.components[i];
    if (g.centroid_x != w.centroid_x || g.centroid_y != w.centroid_y) {
      std::ostringstream s;
      s.precision(17);
      s << " [component " << i << " centroid got " << g.centroid_x << "," << g.centroid_y << " want "
        << w.centroid_x << "," << w.centroid_y << "]";
      return s.str();
    }
  }
  return "";
}

// Runs the backend without and with a label map and compares both with the oracle. The label map
// has a padded stride with a sentinel that must stay untouched. Returns "" when all is equal.
inline std::string check(ccl::Analyzer& analyzer, const frames::Frame& f, const ccl::Options& o) {
  constexpr std::uint32_t kSentinel = 0xDEADBEEFu;
  const oracle::Output want = oracle::flood_fill(f, o);
  try {
    ccl::Result got;
    got.truncated = true;  // stale content a backend must overwrite
    got.n_components_total = 12345;
    got.components.assign(2, ccl::Component{7, 7, 7, 7, 7, 7, 7.0, 7.0});
    analyzer.run(view(f), o, got);
    std::string d = compare::diff(got, want.result, 0.0);
    if (d.empty() && (got.width != f.width || got.height != f.height || got.connectivity != o.connectivity))
      d = "result header " + std::to_string(got.width) + "x" + std::to_string(got.height) + " conn " +
          std::to_string(got.connectivity);
    if (!d.empty()) return "without label map: " + d + centroid_digits(got, want.result);

    const std::ptrdiff_t ls = std::ptrdiff_t(f.width) + 3;
    std::vector<std::uint32_t> labels(std::size_t(ls) * f.height, kSentinel);
    ccl::LabelView lv{labels.data(), ls};
    ccl::Result got2;
    analyzer.run(view(f), o, got2, &lv);
    d = compare::diff(got2, want.result, 0.0);
    if (!d.empty()) return "with label map: " + d + centroid_digits(got2, want.result);
    for (int y = 0; y < f.height; ++y) {
      for (int x = 0; x < f.width; ++x) {
        const std::uint32_t g = labels[std::size_t(y) * ls + x], w = want.labels[std::size_t(y) * f.width + x];
        if (g != w)
          return "label map at (" + std::to_string(x) + "," + std::to_string(y) + "): got " + std::to_string(g) +
                 " want " + std::to_string(w);
      }
      for (std::ptrdiff_t x = f.width; x < ls; ++x)
        if (labels[std::size_t(y) * ls + x] != kSentinel)
          return "label map padding written at (" + std::to_string(x) + "," + std::to_string(y) + ")";
    }
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
  return "";
}

// Counts checked frames and failures of one test; reports the first few failures in full and
// the smallest failing frame (fewest pixels) at the end, so a backend bug has a minimal witness.
class Tally {
 public:
  explicit Tally(std::string test) : test_(std::move(test)) {}
  Tally(const Tally&) = delete;
  Tally& operator=(const Tally&) = delete;

  void check(ccl::Analyzer& analyzer, const frames::Frame& f, const ccl::Options& o) {
    ++frames_;
    const std::string d = corecheck::check(analyzer, f, o);
    if (d.empty()) return;
    const std::string msg = f.name + " (stride " + std::to_string(f.stride) + ") " + describe(o) + ": " + d +
                            ascii(f, o.threshold);
    if (++failures_ <= 3) ADD_FAILURE() << msg;
    const std::size_t px = std::size_t(f.width) * f.height;
    if (px < smallest_px_) { smallest_px_ = px; smallest_ = msg; }
  }
  int frames() const { return frames_; }

  ~Tally() {
    std::cout << "[ covered  ] " << test_ << ": " << frames_ << " frame/option cases, " << failures_ << " failing\n";
    if (failures_) ADD_FAILURE() << failures_ << " of " << frames_ << " cases fail; smallest failing: " << smallest_;
  }

 private:
  std::string test_;
  int frames_ = 0, failures_ = 0;
  std::size_t smallest_px_ = std::numeric_limits<std::size_t>::max();
  std::string smallest_;
};

}  // namespace corecheck
