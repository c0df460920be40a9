// Candidate pairs without an N x M cost matrix: each track's gated region (its predicted box grown
// by its centroid gate) is binned into a uniform grid; a detection meets only the tracks binned in
// the cells its box covers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tracker/geometry.hpp"

namespace ccl::track {

struct Detection;

// Where every live track is expected this frame, one entry per track, in track order.
struct Predictions {
  std::vector<Box> box;
  std::vector<float> centroid_x, centroid_y;
  std::vector<float> gate_px;  // largest centroid distance that still pairs
  void clear() { box.clear(), centroid_x.clear(), centroid_y.clear(), gate_px.clear(); }
  std::size_t size() const { return box.size(); }
};

// A pair that passed the gate; lower cost = better: (1 - IoU) + min(distance / gate, 1).
struct Candidate {
  float cost;
  std::int32_t track;
  std::int32_t detection;
};

class CandidateGrid {
 public:
  // Appends every (track, detection) pair with IoU >= min_iou or centroid distance <= its gate,
  // each once, in detection order then track order.
  void find(const Predictions& predicted, const Detection* detections, std::size_t n, float min_iou,
            std::vector<Candidate>* out);

 private:
  void build(const Predictions& predicted);
  int cell_x(float x) const;
  int cell_y(float y) const;

  float origin_x_ = 0, origin_y_ = 0, cell_size_ = 1;
  int columns_ = 0, rows_ = 0;
  std::vector<Box> region_;                 // per track: the gated region binned
  std::vector<std::uint32_t> cell_start_;   // CSR: tracks of cell c are cell_tracks_[cell_start_[c] ..[c+1])
  std::vector<std::int32_t> cell_tracks_;
  std::vector<std::uint32_t> seen_by_;      // per track: 1 + the last detection that met it
};

}  // namespace ccl::track
