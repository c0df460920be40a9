#include "tracker/candidate_grid.hpp"

#include <algorithm>
#include <cmath>

#include "tracker/tracker.hpp"

namespace ccl::track {

namespace {

// The grid has at most this many cells per track (plus a few), so clearing it costs no more than binning.
constexpr float kMaxCellsPerTrack = 4;

}  // namespace

void CandidateGrid::build(const Predictions& predicted) {
  const std::size_t n = predicted.size();
  binned_.resize(n);
  columns_ = rows_ = 0;
  if (n == 0) return;
  float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, side_sum = 0;
  for (std::size_t t = 0; t < n; ++t) {
    const Box& b = predicted.box[t];
    const float cx = predicted.centroid_x[t], cy = predicted.centroid_y[t], gate = predicted.gate_px[t];
    Binned& r = binned_[t];
    r.x0 = std::min(b.x, cx - gate), r.y0 = std::min(b.y, cy - gate);
    r.x1 = std::max(b.x + b.width, cx + gate), r.y1 = std::max(b.y + b.height, cy + gate);
    r.box = b, r.centroid_x = cx, r.centroid_y = cy, r.gate = gate;
    x0 = std::min(x0, r.x0), y0 = std::min(y0, r.y0), x1 = std::max(x1, r.x1), y1 = std::max(y1, r.y1);
    side_sum += std::max(r.x1 - r.x0, r.y1 - r.y0);
  }
  // Cells about the size of a typical region: each track lands in a few cells, each cell holds a few tracks.
  float cell = std::max(1.0f, side_sum / float(n));
  const float limit = kMaxCellsPerTrack * float(n) + 64;
  const float cells = ((x1 - x0) / cell + 1) * ((y1 - y0) / cell + 1);
  if (cells > limit) cell *= std::sqrt(cells / limit);
  origin_x_ = x0, origin_y_ = y0, inverse_cell_ = 1 / cell;
  columns_ = cell_x(x1) + 1, rows_ = cell_y(y1) + 1;

  cell_start_.assign(std::size_t(columns_) * rows_ + 1, 0);
  cells_of_.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    const Binned& r = binned_[t];
    const CellRange cr{cell_x(r.x0), cell_x(r.x1), cell_y(r.y0), cell_y(r.y1)};
    cells_of_[t] = cr;
    for (int y = cr.y0; y <= cr.y1; ++y)
      for (int x = cr.x0; x <= cr.x1; ++x) cell_start_[std::size_t(y) * columns_ + x + 1]++;
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  cell_tracks_.resize(cell_start_.back());
  // Filled in track order, so each cell lists its tracks oldest first.
  fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t t = 0; t < n; ++t) {
    const CellRange& cr = cells_of_[t];
    for (int y = cr.y0; y <= cr.y1; ++y)
      for (int x = cr.x0; x <= cr.x1; ++x) cell_tracks_[fill_[std::size_t(y) * columns_ + x]++] = std::int32_t(t);
  }
}

void CandidateGrid::find(const Predictions& predicted, const Detection* detections, std::size_t n, float min_iou,
                         std::vector<Candidate>* out) {
  build(predicted);
  if (columns_ == 0) return;
  for (std::size_t j = 0; j < n; ++j) {
    const Detection& d = detections[j];
    // A pair needs the detection's centroid inside the track's region, so the centroid's cell
    // lists every track it can pair with, each once.
    const float px = d.centroid_x, py = d.centroid_y;
    const int x = cell_x(px), y = cell_y(py);
    if (px < origin_x_ || py < origin_y_ || x >= columns_ || y >= rows_) continue;
    const float detection_area = area_of(d.box);
    const std::size_t c = std::size_t(y) * columns_ + x;
    for (std::uint32_t k = cell_start_[c]; k < cell_start_[c + 1]; ++k) {
      const std::int32_t t = cell_tracks_[k];
      const Binned& r = binned_[t];
      if (px < r.x0 || px > r.x1 || py < r.y0 || py > r.y1) continue;
      // The gate tests without a division or a square root; those only for the pairs that pass.
      const float both = intersection(r.box, d.box), either = area_of(r.box) + detection_area - both;
      const float dx = px - r.centroid_x, dy = py - r.centroid_y, squared = dx * dx + dy * dy;
      if (both < min_iou * either && squared > r.gate * r.gate) continue;
      const float closeness = r.gate > 0 ? std::min(std::sqrt(squared) / r.gate, 1.0f) : 1.0f;
      out->push_back(Candidate{(1 - both / either) + closeness, t, std::int32_t(j)});
    }
  }
}

}  // namespace ccl::track
