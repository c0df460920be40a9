// The quality harness's scorer, written for the bench and sharing no code with what it scores:
// pixel counts by the CDnet 2014 comparator's rules and object matches by box IoU, with its own
// 8-connected labelling of the truth (a plain breadth-first search). Header only, no OpenCV, no
// GStreamer: tests/quality checks it on hand-made cases.
//
// Pixel level (CDnet 2014, per sequence): only frames of temporalROI.txt; a pixel counts only where
// ROI != 0 and the truth is neither 85 (outside the ROI) nor 170 (unknown); truth 255 is motion,
// every other truth value (0 static, 50 shadow) is background; a detection is foreground only when
// it is exactly 255. TP, FP, FN, TN are summed over the frames, then recall = TP / (TP + FN),
// precision = TP / (TP + FP), F = 2PR / (P + R), PWC = 100 (FN + FP) / (TP + FN + FP + TN).
//
// Object level, per frame: truth objects are the 8-connected components of truth == 255 pixels with
// at least kMinObjectArea pixels (their bounding boxes); a reported box matches a truth box when
// their IoU is >= 0.5, pairs taken greedily by IoU, best first, each box in at most one pair. TP =
// pairs, FP = reported boxes left, FN = truth boxes left, summed over the frames; recall, precision
// and F1 as above.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace quality {

constexpr std::uint8_t kTruthMotion = 255, kTruthShadow = 50, kTruthOutside = 85, kTruthUnknown = 170;
constexpr std::uint8_t kDetected = 255;
constexpr std::uint32_t kMinObjectArea = 50;
constexpr double kMatchIou = 0.5;

inline double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }
inline double harmonic(double a, double b) { return a + b > 0 ? 2 * a * b / (a + b) : 0.0; }

struct PixelCounts {
  std::uint64_t tp = 0, fp = 0, fn = 0, tn = 0;

  // One frame: `detection`, `truth` and `roi` are width*height bytes, rows without padding.
  void add(const std::uint8_t* detection, const std::uint8_t* truth, const std::uint8_t* roi, std::size_t pixels) {
    for (std::size_t i = 0; i < pixels; ++i) {
      if (roi[i] == 0 || truth[i] == kTruthOutside || truth[i] == kTruthUnknown) continue;
      const bool motion = truth[i] == kTruthMotion, detected = detection[i] == kDetected;
      if (motion && detected)
        ++tp;
      else if (detected)
        ++fp;
      else if (motion)
        ++fn;
      else
        ++tn;
    }
  }
  double recall() const { return ratio(double(tp), double(tp + fn)); }
  double precision() const { return ratio(double(tp), double(tp + fp)); }
  double f_measure() const { return harmonic(recall(), precision()); }
  double pwc() const { return 100.0 * ratio(double(fn + fp), double(tp + fn + fp + tn)); }
};

// A bounding box in pixels: columns x .. x + width - 1, rows y .. y + height - 1.
struct Box {
  int x = 0, y = 0, width = 0, height = 0;
};

inline bool operator==(const Box& a, const Box& b) {
  return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

inline double iou(const Box& a, const Box& b) {
  const long iw = std::max(0, std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x));
  const long ih = std::max(0, std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y));
  const long inter = iw * ih;
  const long uni = long(a.width) * a.height + long(b.width) * b.height - inter;
  return uni > 0 ? double(inter) / double(uni) : 0.0;
}

// The boxes of the 8-connected components of pixels == `value` with at least `min_area` pixels, in
// raster order of their first pixel.
inline std::vector<Box> components_of(const std::uint8_t* pixels, int width, int height, std::uint8_t value,
                                      std::uint32_t min_area) {
  std::vector<Box> boxes;
  std::vector<std::uint8_t> seen(std::size_t(width) * height, 0);
  std::vector<std::pair<int, int>> queue;
  for (int y0 = 0; y0 < height; ++y0)
    for (int x0 = 0; x0 < width; ++x0) {
      const std::size_t start = std::size_t(y0) * width + x0;
      if (pixels[start] != value || seen[start]) continue;
      seen[start] = 1;
      queue.assign(1, {x0, y0});
      int left = x0, right = x0, top = y0, bottom = y0;
      for (std::size_t head = 0; head < queue.size(); ++head) {
        const auto [x, y] = queue[head];
        left = std::min(left, x), right = std::max(right, x), top = std::min(top, y), bottom = std::max(bottom, y);
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int nx = x + dx, ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
            const std::size_t n = std::size_t(ny) * width + nx;
            if (pixels[n] != value || seen[n]) continue;
            seen[n] = 1;
            queue.push_back({nx, ny});
          }
      }
      if (queue.size() >= min_area) boxes.push_back(Box{left, top, right - left + 1, bottom - top + 1});
    }
  return boxes;
}

inline std::vector<Box> truth_objects(const std::uint8_t* truth, int width, int height) {
  return components_of(truth, width, height, kTruthMotion, kMinObjectArea);
}

struct ObjectCounts {
  std::uint64_t tp = 0, fp = 0, fn = 0;

  // One frame; returns the pairs matched (truth index, reported index), best IoU first.
  std::vector<std::pair<std::size_t, std::size_t>> add(const std::vector<Box>& truth,
                                                       const std::vector<Box>& reported) {
    struct Pair {
      double iou;
      std::size_t t, r;
    };
    std::vector<Pair> pairs;
    for (std::size_t t = 0; t < truth.size(); ++t)
      for (std::size_t r = 0; r < reported.size(); ++r) {
        const double v = iou(truth[t], reported[r]);
        if (v >= kMatchIou) pairs.push_back({v, t, r});
      }
    // Best first; equal IoUs in truth, then reported order, so the matching is deterministic.
    std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.iou > b.iou; });
    std::vector<bool> truth_used(truth.size(), false), reported_used(reported.size(), false);
    std::vector<std::pair<std::size_t, std::size_t>> matched;
    for (const Pair& p : pairs) {
      if (truth_used[p.t] || reported_used[p.r]) continue;
      truth_used[p.t] = reported_used[p.r] = true;
      matched.push_back({p.t, p.r});
    }
    tp += matched.size();
    fp += reported.size() - matched.size();
    fn += truth.size() - matched.size();
    return matched;
  }
  double recall() const { return ratio(double(tp), double(tp + fn)); }
  double precision() const { return ratio(double(tp), double(tp + fp)); }
  double f1() const { return harmonic(recall(), precision()); }
};

}  // namespace quality
