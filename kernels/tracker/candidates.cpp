#include "tracker/candidates.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace ccl::track {

namespace {

// x - x is 0 for a finite x and NaN for an infinite or NaN one (sums past the float range count
// as infinite: no box is that large).
bool finite(const Box& b) {
  const float sum = b.x + b.y + b.width + b.height;
  return sum - sum == 0;
}

// The test of one query against detections, with the query's bounds computed once.
struct QueryTest {
  Box box;
  float x1, y1, area, cx, cy, inv_gate, gate2, min_iou;
  QueryTest(const Query& q, float min_iou_)
      : box(q.box), x1(q.box.x + q.box.width), y1(q.box.y + q.box.height), area(area_of(q.box)), cx(q.centroid_x),
        cy(q.centroid_y), inv_gate(q.gate_px > 0 ? 1 / q.gate_px : 0.0f), gate2(q.gate_px * q.gate_px), min_iou(min_iou_) {}

  // Writes the pair to *slot and returns whether it passes: branch-free, as whether a pair passes
  // is a coin toss the CPU cannot predict. NaN anywhere fails every comparison: no pair. Without a
  // gate (kGate false) the closeness term is 1 for every pair and no distance is computed.
  template <bool kGate>
  bool run(int query, const Box& b, float centroid_x, float centroid_y, int detection, Candidate* slot) const {
    const float iw = std::max(std::min(x1, b.x + b.width) - std::max(box.x, b.x), 0.0f);
    const float ih = std::max(std::min(y1, b.y + b.height) - std::max(box.y, b.y), 0.0f);
    const float inter = iw * ih, either = area + area_of(b) - inter;
    const float overlap = either > 0 ? inter / either : 0.0f;
    if (!kGate) {
      *slot = {2 - overlap, query, detection};
      return overlap >= min_iou;
    }
    const float dx = cx - centroid_x, dy = cy - centroid_y, d2 = dx * dx + dy * dy;
    const bool near = d2 <= gate2;
    *slot = {(1 - overlap) + std::min(std::sqrt(d2) * inv_gate, 1.0f), query, detection};
    return (overlap >= min_iou) | near;
  }
};

}  // namespace

void CandidateSearch::find(const std::vector<Query>& queries, const Detection* detections, const std::vector<int>& subset,
                           float min_iou, std::vector<Candidate>* out) {
  out->clear();
  if (queries.empty() || subset.empty()) return;
  // Cell side: 1.5 x the mean detection size (measured: 1, 2, 3 and 4 x tested more pairs or
  // visited more cells per query). Detections larger than three cells (rare) are "big":
  // tested against every query, so one huge box does not widen every query's search.
  double size_sum = 0;
  int n_finite = 0;
  for (int j : subset)
    if (finite(detections[j].box)) size_sum += std::max(detections[j].box.width, detections[j].box.height), ++n_finite;
  if (n_finite == 0) return;
  float cell = std::max(1.5f * float(size_sum / n_finite), 1.0f);
  const float big = 3 * cell;
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
    const int c = int((b.center_x() - min_x) / cell), r = int((b.center_y() - min_y) / cell);  // in range: min/max above
    cell_of_[k] = r * cols + c;
    ++cell_start_[std::size_t(cell_of_[k]) + 1];
  }
  for (std::size_t c = 1; c < cell_start_.size(); ++c) cell_start_[c] += cell_start_[c - 1];
  by_cell_.resize(subset.size());
  fill_.assign(cell_start_.begin(), cell_start_.end() - 1);
  for (std::size_t k = 0; k < subset.size(); ++k)
    if (cell_of_[k] >= 0) {
      const Detection& d = detections[subset[k]];
      by_cell_[std::size_t(fill_[std::size_t(cell_of_[k])]++)] = {d.box, d.centroid_x, d.centroid_y, subset[k]};
    }

  const float inv_cell = 1 / cell;
  std::size_t n = 0;  // pairs written to buffer_ (each test writes its slot, the count moves on a pass)
  // One query's pairs; `has_gate` (a std::bool_constant) picks the test without distance for
  // queries without a gate (the first tier's, most of them).
  auto visit = [&](int q, auto has_gate) {
    constexpr bool kGate = decltype(has_gate)::value;
    const Query& query = queries[std::size_t(q)];
    const Box& b = query.box;
    const QueryTest test(query, min_iou);
    // A detection can pair when its box centre lies within the query's box grown by the largest
    // detection half-size (overlap), or within its centroid grown by the gate plus that half-size
    // (distance: a detection's centroid lies in its box).
    const float reach = query.gate_px + half;
    if (grid) {
      const float x0 = (std::min(b.x - half, query.centroid_x - reach) - min_x) * inv_cell;
      const float x1 = (std::max(b.x + b.width + half, query.centroid_x + reach) - min_x) * inv_cell;
      const float y0 = (std::min(b.y - half, query.centroid_y - reach) - min_y) * inv_cell;
      const float y1 = (std::max(b.y + b.height + half, query.centroid_y + reach) - min_y) * inv_cell;
      if (x1 >= 0 && y1 >= 0 && x0 < float(cols) && y0 < float(rows)) {  // false for NaN
        const int c0 = int(std::max(x0, 0.0f)), c1 = int(std::min(x1, float(cols - 1)));
        const int r0 = int(std::max(y0, 0.0f)), r1 = int(std::min(y1, float(rows - 1)));
        // Cells c0..c1 of a row are consecutive in the cell order: one run of detections per row.
        for (int r = r0; r <= r1; ++r) {
          const std::size_t row = std::size_t(r) * std::size_t(cols);
          const int begin = cell_start_[row + std::size_t(c0)], end = cell_start_[row + std::size_t(c1) + 1];
          if (n + std::size_t(end - begin) > buffer_.size()) buffer_.resize(2 * (n + std::size_t(end - begin)));
          for (int k = begin; k < end; ++k) {
            const Binned& d = by_cell_[std::size_t(k)];
            n += test.template run<kGate>(q, d.box, d.centroid_x, d.centroid_y, d.index, &buffer_[n]);
          }
        }
      }
    }
    if (n + big_.size() > buffer_.size()) buffer_.resize(2 * (n + big_.size()));
    for (int j : big_)
      n += test.template run<kGate>(q, detections[j].box, detections[j].centroid_x, detections[j].centroid_y, j, &buffer_[n]);
  };
  for (int q = 0; q < int(queries.size()); ++q) {
    if (queries[std::size_t(q)].gate_px > 0)
      visit(q, std::true_type{});
    else
      visit(q, std::false_type{});
  }
  out->assign(buffer_.begin(), buffer_.begin() + std::ptrdiff_t(n));
}

}  // namespace ccl::track
