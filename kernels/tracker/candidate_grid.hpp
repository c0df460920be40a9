// Candidate pairs without an N x M cost matrix: each track's gated region (its predicted box grown
// by its centroid gate) is binned into a uniform grid; a detection meets only the tracks binned in
// the cells next to the cell of its centroid.
#pragma once

#include <emmintrin.h>  // SSE2: every x86-64

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "tracker/geometry.hpp"

namespace ccl::track {

// Where every live track is expected this frame, one entry per track, in track order.
struct Predictions {
  std::vector<Box> box;
  std::vector<float> centroid_x, centroid_y;
  std::vector<float> gate_px;  // largest centroid distance that still pairs
  void clear() { box.clear(), centroid_x.clear(), centroid_y.clear(), gate_px.clear(); }
  std::size_t size() const { return box.size(); }
};

// A pair that passed the gate; lower cost = better: (1 - IoU) + min(distance / gate, 1) + penalty.
struct Candidate {
  float cost;
  std::int32_t track;
  std::int32_t detection;
};

// The tracks' predictions and their gated regions, written in one pass over the tracks (the Tracker
// predicts and adds each track in the same loop, so a prediction is read once): a region is the
// predicted box grown to the square of half-side gate around the predicted centroid, as (x0, y0,
// x1, y1). The pass keeps the regions' bounds and the sums and maximums of their widths and heights,
// which size the grid, in registers where add() is inlined: take it by value from
// CandidateGrid::regions(), hand a copy back to find_predicted().
class RegionPass {
 public:
  // Track t's prediction: box (x, y, width, height), centre (centroid_x, centroid_y, gate, penalty),
  // the two halves of a Predicted.
  [[gnu::always_inline]] void add(std::size_t t, __m128 box, __m128 centre) {
    _mm_storeu_ps(&predicted_[t].box.x, box);
    _mm_storeu_ps(&predicted_[t].centroid_x, centre);
    // min(box corner, centroid - gate), max(far box corner, centroid + gate), all four at once.
    const __m128 gate = _mm_shuffle_ps(centre, centre, _MM_SHUFFLE(2, 2, 2, 2));
    const __m128 c = _mm_movelh_ps(centre, centre);           // cx cy cx cy
    const __m128 far = _mm_add_ps(box, _mm_movehl_ps(box, box));  // x + w, y + h, ...
    const __m128 lo = _mm_min_ps(_mm_sub_ps(c, gate), box), hi = _mm_max_ps(_mm_add_ps(c, gate), far);
    const __m128 r = _mm_movelh_ps(lo, hi);
    _mm_storeu_ps(region_ + 4 * t, r);
    lowest_ = _mm_min_ps(lowest_, r), highest_ = _mm_max_ps(highest_, r);
    const __m128 extent = _mm_sub_ps(hi, lo);  // width, height, ...
    extent_sum_ = _mm_add_ps(extent_sum_, extent), extent_max_ = _mm_max_ps(extent, extent_max_);  // NaN: kept out
  }

 private:
  friend class CandidateGrid;
  RegionPass(Predicted* predicted, float* region) : predicted_(predicted), region_(region) {}
  Predicted* predicted_;
  float* region_;
  __m128 lowest_ = _mm_set1_ps(INFINITY), highest_ = _mm_set1_ps(-INFINITY);
  __m128 extent_sum_ = _mm_setzero_ps(), extent_max_ = _mm_setzero_ps();  // lanes 0, 1: widths, heights
};

class CandidateGrid {
 public:
  CandidateGrid();

  // Appends every (track, detection) pair whose detection centroid lies in the track's gated region
  // (predicted box grown to the square of half-side gate around the predicted centroid) and whose
  // IoU >= min_iou or centroid distance <= gate, each once (in no particular order).
  void find(const Predictions& predicted, const Detection* detections, std::size_t n, float min_iou,
            std::vector<Candidate>* out);

  // The same without copies: add every track 0 .. n_tracks to regions(n_tracks) (the Tracker does
  // while predicting), hand it to find_predicted; the pairs are then pairs()[0 .. count) (valid
  // until the next call).
  RegionPass regions(std::size_t n_tracks) {
    predicted_.resize(n_tracks);
    region_.resize(4 * n_tracks);
    return RegionPass(predicted_.data(), region_.data());
  }
  std::size_t find_predicted(const RegionPass& pass, const Detection* detections, std::size_t n, float min_iou);
  Candidate* pairs() { return pairs_.data(); }

  // Stages 1 and 2 run eight lanes at a time (AVX2) where the CPU has AVX2 (checked once), else four
  // (SSE2): the same pairs, costs and order. false forces the four-wide paths (tests compare them).
  void set_wide(bool wide);
  bool wide() const { return wide_; }
  static bool wide_supported();  // candidate_grid_avx2.cpp

 private:
  void build(const RegionPass& pass);
  // Cell of a coordinate right of / below the origin (truncation is floor there).
  int cell_x(float x) const { return int((x - origin_x_) * inverse_cell_); }
  int cell_y(float y) const { return int((y - origin_y_) * inverse_cell_); }
  // The cell holding the point (px, py); false when it lies outside the grid (no region holds it)
  // or is NaN. (find_cells makes the same test four at a time.)
  bool cell_of(float px, float py, int* x, int* y) const {
    const float fx = (px - origin_x_) * inverse_cell_, fy = (py - origin_y_) * inverse_cell_;
    if (!(fx >= 0 && fy >= 0 && fx < float(columns_) && fy < float(rows_))) return false;
    *x = int(fx), *y = int(fy);
    return true;
  }
  void find_cells(const Detection* detections, std::size_t n);
  struct Inside;
  // Slots of the inside list past its pairs that may be written: a four stores four slots whatever
  // passes.
  static constexpr std::size_t kInsideSlack = 4;
  // The entries a detection whose centroid is in cell c streams through: the small regions with home
  // cells (x - 1 .. x, y - 1) and (x - 1 .. x, y), two runs [s0, e0) and [s1, e1) of the binned order.
  struct Runs {
    std::uint32_t s0, e0, s1, e1;
  };
  static Runs runs_of(const std::uint32_t* start, std::size_t c, std::size_t columns) {
    return Runs{start[c - columns - 1], start[c - columns + 1], start[c - 1], start[c + 1]};
  }
  // Lists the detection at listed[n_longer] for the pass after stage 1's main loop, which tests its
  // runs past their first four entries: written always, counted only when a run is longer than four.
  // Returns the new count.
  static std::size_t list_longer(const Runs& r, std::int32_t detection, std::int32_t* listed, std::size_t n_longer) {
    listed[n_longer] = detection;
    return n_longer + (std::max(r.e0 - r.s0, r.e1 - r.s1) > 4);
  }
  std::size_t find_inside(const Detection* detections, std::size_t n, std::size_t* n_longer);
  std::size_t find_inside_wide(const Detection* detections, std::size_t n, std::size_t* n_longer);  // AVX2
  // Stage 2 over inside_[0 .. padded), padded a multiple of eight (copies of a real pair past
  // n_inside, masked out): four pairs at a time, or eight where the CPU has AVX2 (the same pairs,
  // costs and order).
  std::size_t find_costs(const Detection* detections, std::size_t n_inside, float min_iou);
  std::size_t find_costs_wide(const Detection* detections, std::size_t n_inside, float min_iou);  // AVX2
  static Inside* four_inside(const float* const f[], std::uint32_t k, std::uint32_t end, __m128 PX, __m128 PY,
                             __m128i D, Inside* in);
  std::size_t find_big(const Detection* detections, std::size_t n, float min_iou, std::size_t count);

  bool wide_;
  float origin_x_ = 0, origin_y_ = 0, inverse_cell_ = 1;
  int columns_ = 0, rows_ = 0;
  std::vector<Predicted> predicted_;  // per track, in track order
  std::vector<float> region_;         // per track: x0, y0, x1, y1 of its gated region
  std::vector<std::int32_t> home_;    // per track: its home cell, or -1 for a big region

  // Small regions (the cell side or less: at most 2 x 2 cells, from the home cell of the region's
  // top-left corner right and down): the regions' corners, one array each, and the tracks, in
  // home-cell order (counting sort), so a detection streams through the regions of the 2 x 2 home
  // cells that can hold one with its centroid, four at a time. Padded for the last four-wide loads.
  std::vector<std::uint32_t> cell_start_;  // CSR over the home cells
  enum Field { kX0, kY0, kX1, kY1, kFields };
  std::vector<float> field_[kFields];
  std::vector<std::int32_t> track_;

  // Big regions (rare: one far larger than the typical one): listed in every cell they cover.
  std::vector<std::uint32_t> big_start_;
  std::vector<std::int32_t> big_tracks_;
  std::size_t n_big_ = 0;

  struct Inside {
    std::int32_t entry, detection;
  };
  // Per detection: the cell of the last of its home cells, (x, y) with x, y >= 1 (the runs left and
  // above then exist), as an index; -1 when its centroid is outside the grid.
  std::vector<std::int32_t> detection_cell_;
  // The (binned entry, detection) pairs whose region holds the centroid: room for 8 per detection
  // (two fours) and the slack, so stage 1's main loop needs no capacity check.
  std::vector<Inside> inside_;
  std::vector<std::int32_t> longer_;  // the detections with a run longer than four
  std::vector<Candidate> pairs_;  // grows, never shrinks: no clearing per frame
};

}  // namespace ccl::track
