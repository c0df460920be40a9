#include "tracker/candidate_grid.hpp"

#include <algorithm>
#include <cmath>

#include "tracker/tracker.hpp"

namespace ccl::track {

namespace {

// The grid has at most this many cells per track (plus a few), so clearing it costs no more than binning.
constexpr float kMaxCellsPerTrack = 4;

Box gated_region(const Box& b, float cx, float cy, float gate) {
  const float x0 = std::min(b.x, cx - gate), y0 = std::min(b.y, cy - gate);
  const float x1 = std::max(b.x + b.width, cx + gate), y1 = std::max(b.y + b.height, cy + gate);
  return Box{x0, y0, x1 - x0, y1 - y0};
}

}  // namespace

int CandidateGrid::cell_x(float x) const { return int(std::floor((x - origin_x_) / cell_size_)); }
int CandidateGrid::cell_y(float y) const { return int(std::floor((y - origin_y_) / cell_size_)); }

void CandidateGrid::build(const Predictions& predicted) {
  const std::size_t n = predicted.size();
  region_.resize(n);
  columns_ = rows_ = 0;
  if (n == 0) return;
  float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, side_sum = 0;
  for (std::size_t t = 0; t < n; ++t) {
    const Box r = gated_region(predicted.box[t], predicted.centroid_x[t], predicted.centroid_y[t], predicted.gate_px[t]);
    region_[t] = r;
    x0 = std::min(x0, r.x), y0 = std::min(y0, r.y);
    x1 = std::max(x1, r.x + r.width), y1 = std::max(y1, r.y + r.height);
    side_sum += std::max(r.width, r.height);
  }
  // Cells about the size of a typical region: each track lands in a few cells, each cell holds a few tracks.
  cell_size_ = std::max(1.0f, side_sum / float(n));
  const float limit = kMaxCellsPerTrack * float(n) + 64;
  const float cells = ((x1 - x0) / cell_size_ + 1) * ((y1 - y0) / cell_size_ + 1);
  if (cells > limit) cell_size_ *= std::sqrt(cells / limit);
  origin_x_ = x0, origin_y_ = y0;
  columns_ = cell_x(x1) + 1, rows_ = cell_y(y1) + 1;

  cell_start_.assign(std::size_t(columns_) * rows_ + 1, 0);
  for (std::size_t t = 0; t < n; ++t) {
    const Box& r = region_[t];
    const int cx0 = cell_x(r.x), cx1 = cell_x(r.x + r.width), cy0 = cell_y(r.y), cy1 = cell_y(r.y + r.height);
    for (int y = cy0; y <= cy1; ++y)
      for (int x = cx0; x <= cx1; ++x) cell_start_[std::size_t(y) * columns_ + x + 1]++;
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  cell_tracks_.resize(cell_start_.back());
  // Filled in track order, so each cell lists its tracks oldest first.
  std::vector<std::uint32_t>& fill = seen_by_;  // borrowed as the per-cell write cursor
  fill.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t t = 0; t < n; ++t) {
    const Box& r = region_[t];
    const int cx0 = cell_x(r.x), cx1 = cell_x(r.x + r.width), cy0 = cell_y(r.y), cy1 = cell_y(r.y + r.height);
    for (int y = cy0; y <= cy1; ++y)
      for (int x = cx0; x <= cx1; ++x) cell_tracks_[fill[std::size_t(y) * columns_ + x]++] = std::int32_t(t);
  }
}

void CandidateGrid::find(const Predictions& predicted, const Detection* detections, std::size_t n, float min_iou,
                         std::vector<Candidate>* out) {
  build(predicted);
  if (columns_ == 0) return;
  seen_by_.assign(predicted.size(), 0);
  for (std::size_t j = 0; j < n; ++j) {
    const Detection& d = detections[j];
    const int cx0 = std::max(0, cell_x(d.box.x)), cx1 = std::min(columns_ - 1, cell_x(d.box.x + d.box.width));
    const int cy0 = std::max(0, cell_y(d.box.y)), cy1 = std::min(rows_ - 1, cell_y(d.box.y + d.box.height));
    const std::uint32_t stamp = std::uint32_t(j) + 1;
    for (int y = cy0; y <= cy1; ++y)
      for (int x = cx0; x <= cx1; ++x) {
        const std::size_t c = std::size_t(y) * columns_ + x;
        for (std::uint32_t k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
          const std::int32_t t = cell_tracks_[k];
          if (seen_by_[t] == stamp) continue;  // met through another cell already
          seen_by_[t] = stamp;
          const float overlap = iou(predicted.box[t], d.box);
          const float gate = predicted.gate_px[t];
          const float dist = distance(predicted.centroid_x[t], predicted.centroid_y[t], d.centroid_x, d.centroid_y);
          if (overlap < min_iou && dist > gate) continue;
          out->push_back(Candidate{(1 - overlap) + std::min(dist / gate, 1.0f), t, std::int32_t(j)});
        }
      }
  }
}

}  // namespace ccl::track
