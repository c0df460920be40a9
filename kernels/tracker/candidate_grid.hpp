// Candidate pairs without an N x M cost matrix: each track's gated region (its predicted box grown
// by its centroid gate) is binned into a uniform grid; a detection meets only the tracks binned in
// the cell of its centroid.
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
  // Appends every (track, detection) pair whose detection centroid lies in the track's gated region
  // (predicted box grown to the square of half-side gate around the predicted centroid) and whose
  // IoU >= min_iou or centroid distance <= gate, each once, in detection order then track order.
  void find(const Predictions& predicted, const Detection* detections, std::size_t n, float min_iou,
            std::vector<Candidate>* out);

 private:
  // What a pair's test reads of a track, in one place: one cache line per track met.
  struct Binned {
    float x0, y0, x1, y1;  // the gated region (predicted box grown by the gate around the centroid)
    Box box;
    float centroid_x, centroid_y, gate;
  };

  void build(const Predictions& predicted);
  // Cell of a coordinate right of / below the origin (truncation is floor there).
  int cell_x(float x) const { return int((x - origin_x_) * inverse_cell_); }
  int cell_y(float y) const { return int((y - origin_y_) * inverse_cell_); }

  float origin_x_ = 0, origin_y_ = 0, inverse_cell_ = 1;
  int columns_ = 0, rows_ = 0;
  struct CellRange {
    int x0, x1, y0, y1;
  };
  std::vector<Binned> binned_;              // per track
  std::vector<CellRange> cells_of_;         // per track: the cells its region covers
  std::vector<std::uint32_t> cell_start_;   // CSR: tracks of cell c are cell_tracks_[cell_start_[c] ..[c+1])
  std::vector<std::int32_t> cell_tracks_;
  std::vector<std::uint32_t> fill_;         // per cell: next free slot while binning
};

}  // namespace ccl::track
