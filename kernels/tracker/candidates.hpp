// Candidate (track, detection) pairs of one association stage, found through a uniform grid of the
// detections' centres instead of testing every pair: work linear in tracks + detections.
#pragma once

#include <cstddef>
#include <vector>

#include "tracker/geometry.hpp"

namespace ccl::track {

struct Candidate {
  float cost;     // lower is better
  int track;      // index into the stage's queries
  int detection;  // index into the detections
};

// A track as one stage sees it: the box and centroid it is expected at, and its centroid-distance
// gate (pixels).
struct Query {
  Box box;
  float centroid_x, centroid_y;
  float gate_px;
};

class CandidateSearch {
 public:
  // Every pair of a query and a detection of `detections[subset[k]]` whose boxes overlap with
  // IoU >= min_iou or whose centroids are at most gate_px apart. Cost: (1 - IoU) +
  // min(distance / gate_px, 1) (1 with gate_px 0), in [0, 2]. Pairs come query by query, in an order
  // fixed by the input (same input, same pairs in the same order). Detections with a non-finite box have no pair.
  void find(const std::vector<Query>& queries, const Detection* detections, const std::vector<int>& subset,
            float min_iou, std::vector<Candidate>* out);

  // Appends to *out the detections of the last find()'s subset that may meet `box` (edges
  // included): every finite one whose box does, and some that do not (the caller tests them). A query
  // of the grid find() built, no new one: only when ready().
  void near(const Box& box, std::vector<int>* out) const;
  // Whether the last find() built a grid (it had a finite detection, with or without queries).
  bool ready() const { return ready_; }

 private:
  // A detection as the pair test reads it: its corners and area computed once (the floats the
  // test would compute), its centroid and index.
  struct Binned {
    float x0, y0, x1, y1, area, cx, cy;
    int index;
  };
  static constexpr int kLanes = 4;  // detections a row's run is tested at once (overlap-only queries)
  // Scratch kept between frames; sized up, never down (no refill of a shrunk vector each frame).
  std::vector<int> cell_start_, cell_of_, big_;
  // The binned detections in cell order, as columns (Binned's fields), kLanes entries of padding.
  std::vector<float> x0_, y0_, x1_, y1_, area_, cx_, cy_;
  std::vector<int> index_;
  std::vector<Binned> big_binned_;
  std::vector<Candidate> buffer_;  // never shrinks: the tests write into it without a branch
  // The last find()'s grid, for near(): whether it was built, its origin, cell and extent.
  bool ready_ = false, grid_ = false;
  float min_x_ = 0, min_y_ = 0, inv_cell_ = 0, half_ = 0;
  int cols_ = 0, rows_ = 0;
};

}  // namespace ccl::track
