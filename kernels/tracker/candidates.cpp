#include "tracker/candidates.hpp"

#include <algorithm>
#include <cmath>

namespace ccl::track {

namespace {

bool finite(const Box& b) {
  return std::isfinite(b.x) && std::isfinite(b.y) && std::isfinite(b.width) && std::isfinite(b.height);
}

// The test of one query against detections, with the query's bounds computed once.
struct QueryTest {
  Box box;
  float x1, y1, cx, cy, gate, gate2, min_iou;
  QueryTest(const Query& q, float min_iou_)
      : box(q.box), x1(q.box.x + q.box.width), y1(q.box.y + q.box.height), cx(q.centroid_x), cy(q.centroid_y),
        gate(q.gate_px), gate2(q.gate_px * q.gate_px), min_iou(min_iou_) {}

  // Appends the pair when it passes; most pairs fail on the first comparisons (no overlap, far).
  void run(int query, const Detection& d, int detection, std::vector<Candidate>* out) const {
    const Box& b = d.box;
    const float dx = cx - d.centroid_x, dy = cy - d.centroid_y, d2 = dx * dx + dy * dy;
    const bool near = d2 <= gate2;
    const float iw = std::min(x1, b.x + b.width) - std::max(box.x, b.x);
    const float ih = std::min(y1, b.y + b.height) - std::max(box.y, b.y);
    if (!near && !(iw > 0 && ih > 0)) return;
    const float overlap = iou(box, b);
    if (overlap < min_iou && !near) return;
    const float closeness = gate > 0 ? std::min(std::sqrt(d2) / gate, 1.0f) : 1.0f;
    out->push_back({(1 - overlap) + closeness, query, detection});
  }
};

}  // namespace

void CandidateSearch::find(const std::vector<Query>& queries, const Detection* detections, const std::vector<int>& subset,
                           float min_iou, std::vector<Candidate>* out) {
  out->clear();
  if (queries.empty() || subset.empty()) return;
  // Cell side: twice the mean detection size. Detections larger than two cells (rare) are "big":
  // tested against every query, so one huge box does not widen every query's search.
  double size_sum = 0;
  int n_finite = 0;
  for (int j : subset)
    if (finite(detections[j].box)) size_sum += std::max(detections[j].box.width, detections[j].box.height), ++n_finite;
  if (n_finite == 0) return;
  float cell = std::max(2.0f * float(size_sum / n_finite), 1.0f);
  const float big = 2 * cell;
  big_.clear();
  float min_x = INFINITY, min_y = INFINITY, max_x = -INFINITY, max_y = -INFINITY, half = 0;
  for (int j : subset) {
    const Box& b = detections[j].box;
    if (!finite(b)) continue;
    if (std::max(b.width, b.height) > big) {
      big_.push_back(j);
      continue;
    }
    min_x = std::min(min_x, b.center_x()), max_x = std::max(max_x, b.center_x());
    min_y = std::min(min_y, b.center_y()), max_y = std::max(max_y, b.center_y());
    half = std::max(half, std::max(b.width, b.height) / 2);
  }
  // At most ~4 cells per detection: a sparse frame gets larger cells, not a huge empty grid.
  const float max_cells = 4.0f * float(subset.size()) + 16;
  while (((max_x - min_x) / cell + 1) * ((max_y - min_y) / cell + 1) > max_cells) cell *= 2;
  const bool grid = min_x <= max_x;
  const int cols = grid ? int((max_x - min_x) / cell) + 1 : 0, rows = grid ? int((max_y - min_y) / cell) + 1 : 0;

  // Counting sort of the detections by cell; within a cell they stay in ascending index.
  cell_start_.assign(std::size_t(cols) * std::size_t(rows) + 1, 0);
  cell_of_.assign(subset.size(), -1);
  for (std::size_t k = 0; k < subset.size(); ++k) {
    const Box& b = detections[subset[k]].box;
    if (!finite(b) || std::max(b.width, b.height) > big) continue;
    const int c = int((b.center_x() - min_x) / cell), r = int((b.center_y() - min_y) / cell);
    cell_of_[k] = r * cols + c;
    ++cell_start_[std::size_t(cell_of_[k]) + 1];
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  by_cell_.resize(subset.size());
  fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t k = 0; k < subset.size(); ++k)
    if (cell_of_[k] >= 0) by_cell_[std::size_t(fill_[std::size_t(cell_of_[k])]++)] = subset[k];

  for (std::size_t q = 0; q < queries.size(); ++q) {
    const Query& query = queries[q];
    const Box& b = query.box;
    if (!finite(b) || !std::isfinite(query.centroid_x) || !std::isfinite(query.centroid_y)) continue;
    const QueryTest test(query, min_iou);
    // A detection can pair when its box centre lies within the query's box and centroid grown by
    // the gate plus the largest detection half-size (its centroid lies in its box).
    const float reach = query.gate_px + half;
    if (grid) {
      const float x0 = (std::min(b.x, query.centroid_x) - reach - min_x) / cell;
      const float x1 = (std::max(b.x + b.width, query.centroid_x) + reach - min_x) / cell;
      const float y0 = (std::min(b.y, query.centroid_y) - reach - min_y) / cell;
      const float y1 = (std::max(b.y + b.height, query.centroid_y) + reach - min_y) / cell;
      if (x1 >= 0 && y1 >= 0 && x0 < float(cols) && y0 < float(rows)) {
        const int c0 = int(std::max(x0, 0.0f)), c1 = int(std::min(x1, float(cols - 1)));
        const int r0 = int(std::max(y0, 0.0f)), r1 = int(std::min(y1, float(rows - 1)));
        for (int r = r0; r <= r1; ++r)
          for (int c = c0; c <= c1; ++c) {
            const std::size_t cell_index = std::size_t(r) * std::size_t(cols) + std::size_t(c);
            for (int k = cell_start_[cell_index]; k < cell_start_[cell_index + 1]; ++k)
              test.run(int(q), detections[by_cell_[std::size_t(k)]], by_cell_[std::size_t(k)], out);
          }
      }
    }
    for (int j : big_) test.run(int(q), detections[j], j, out);
  }
}

}  // namespace ccl::track
