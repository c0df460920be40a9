#include "tracker/candidates.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ccl::track {

namespace {

// x - x is 0 for a finite x and NaN for an infinite or NaN one (sums past the float range count
// as infinite: no box is that large).
bool finite(const Box& b) {
  const float sum = b.x + b.y + b.width + b.height;
  return sum - sum == 0;
}

// `keep ? v : +0.0f` by masking v's bits: compilers turn the plain conditional into a branch, and
// whether a pair overlaps is a coin toss the CPU cannot predict.
inline float kept_or_0(bool keep, float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  bits &= 0u - std::uint32_t(keep);
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// std::max(v, 0.0f): v, also for NaN and -0, unless v < 0.
inline float at_least_0(float v) { return kept_or_0(!(v < 0.0f), v); }

// The test of one query against detections, with the query's bounds computed once.
struct QueryTest {
  float x0, y0, x1, y1, area, cx, cy, inv_gate, gate2, min_iou;
  QueryTest(const Query& q, float min_iou_)
      : x0(q.box.x), y0(q.box.y), x1(q.box.x + q.box.width), y1(q.box.y + q.box.height), area(area_of(q.box)), cx(q.centroid_x),
        cy(q.centroid_y), inv_gate(q.gate_px > 0 ? 1 / q.gate_px : 0.0f), gate2(q.gate_px * q.gate_px), min_iou(min_iou_) {}

  // Writes the pair to *slot and returns whether it passes: branch-free, as whether a pair passes
  // is a coin toss the CPU cannot predict. NaN anywhere fails every comparison: no pair. Without a
  // gate (kGate false) the closeness term is 1 for every pair and no distance is computed.
  template <bool kGate, class D>
  bool run(int query, const D& d, Candidate* slot) const {
    if (!kGate) {
      // Only an overlap can pass, and where both extents are positive the clamps below change
      // nothing: the same pass and cost from fewer operations (a failing pair's cost is not kept).
      const float w = std::min(x1, d.x1) - std::max(x0, d.x0), h = std::min(y1, d.y1) - std::max(y0, d.y0);
      const float inter = w * h, either = area + d.area - inter, overlap = inter / either;
      *slot = {2 - overlap, query, d.index};
      return (w > 0) & (h > 0) & (either > 0) & (overlap >= min_iou);
    }
    // std::max(v, 0.0f) and iou()'s `either > 0 ? inter / either : 0`, written so that the
    // compiler selects instead of branching (the quotient is computed whatever `either`: a
    // division it need not guard).
    const float iw = at_least_0(std::min(x1, d.x1) - std::max(x0, d.x0));
    const float ih = at_least_0(std::min(y1, d.y1) - std::max(y0, d.y0));
    const float inter = iw * ih, either = area + d.area - inter;
    const float quotient = inter / either;
    const float overlap = kept_or_0(either > 0, quotient);
    const float dx = cx - d.cx, dy = cy - d.cy, d2 = dx * dx + dy * dy;
    const bool near = d2 <= gate2;
    *slot = {(1 - overlap) + std::min(std::sqrt(d2) * inv_gate, 1.0f), query, d.index};
    return (overlap >= min_iou) | near;
  }
};

}  // namespace

void CandidateSearch::find(const std::vector<Query>& queries, const Detection* detections, const std::vector<int>& subset,
                           float min_iou, std::vector<Candidate>* out) {
  out->clear();
  ready_ = false;
  if (subset.empty()) return;  // (without queries the grid is still built, for near())
  // Cell side: 1.5 x the mean detection size (measured: 1, 2, 3 and 4 x tested more pairs or
  // visited more cells per query). Detections larger than three cells (rare) are "big":
  // tested against every query, so one huge box does not widen every query's search.
  const std::size_t n_subset = subset.size();
  if (cell_of_.size() < n_subset) cell_of_.resize(n_subset);
  if (index_.size() < n_subset + kLanes) {
    for (std::vector<float>* column : {&x0_, &y0_, &x1_, &y1_, &area_, &cx_, &cy_}) column->resize(n_subset + kLanes);
    index_.resize(n_subset + kLanes);
  }
  int* const cell_of = cell_of_.data();
  // One pass for the mean size and, over every finite detection, the extent of the centres and
  // the largest size: unless some detection is big (rare), that is the grid's extent too.
  double size_sum = 0;
  int n_finite = 0;
  float min_x = INFINITY, min_y = INFINITY, max_x = -INFINITY, max_y = -INFINITY, largest = 0;
  for (std::size_t k = 0; k < n_subset; ++k) {
    const Box& b = detections[subset[k]].box;
    const bool ok = finite(b);
    cell_of[k] = ok ? 0 : -1;
    if (!ok) continue;
    const float size = std::max(b.width, b.height);
    size_sum += size, ++n_finite;
    min_x = std::min(min_x, b.center_x()), max_x = std::max(max_x, b.center_x());
    min_y = std::min(min_y, b.center_y()), max_y = std::max(max_y, b.center_y());
    largest = std::max(largest, size);
  }
  if (n_finite == 0) return;
  float cell = std::max(1.5f * float(size_sum / n_finite), 1.0f);
  const float big = 3 * cell;
  big_.clear();
  float half = largest / 2;
  if (largest > big) {
    min_x = min_y = INFINITY, max_x = max_y = -INFINITY, half = 0;
    for (std::size_t k = 0; k < n_subset; ++k) {
      if (cell_of[k] < 0) continue;
      const Box& b = detections[subset[k]].box;
      if (std::max(b.width, b.height) > big) {
        big_.push_back(subset[k]);
        cell_of[k] = -1;
        continue;
      }
      min_x = std::min(min_x, b.center_x()), max_x = std::max(max_x, b.center_x());
      min_y = std::min(min_y, b.center_y()), max_y = std::max(max_y, b.center_y());
      half = std::max(half, std::max(b.width, b.height) / 2);
    }
  }
  // At most ~4 cells per detection: a sparse frame gets larger cells, not a huge empty grid.
  const float max_cells = 4.0f * float(n_subset) + 16;
  while (((max_x - min_x) / cell + 1) * ((max_y - min_y) / cell + 1) > max_cells) cell *= 2;
  const bool grid = min_x <= max_x;
  const int cols = grid ? int((max_x - min_x) / cell) + 1 : 0, rows = grid ? int((max_y - min_y) / cell) + 1 : 0;

  // Counting sort of the detections by cell; within a cell they stay in ascending index.
  const std::size_t n_cells = std::size_t(cols) * std::size_t(rows);
  cell_start_.assign(n_cells + 2, 0);
  int* const start = cell_start_.data();
  for (std::size_t k = 0; k < n_subset; ++k) {
    if (cell_of[k] < 0) continue;
    const Box& b = detections[subset[k]].box;
    const int c = int((b.center_x() - min_x) / cell), r = int((b.center_y() - min_y) / cell);  // in range: min/max above
    cell_of[k] = r * cols + c;
    ++start[cell_of[k] + 2];
  }
  // Prefix sums one slot ahead: start[c + 1] = the start of cell c; the scatter moves it to cell
  // c's end, which is cell c + 1's start: afterwards start[c] is cell c's start, start[c + 1] its end.
  for (std::size_t c = 2; c < n_cells + 2; ++c) start[c] += start[c - 1];
  // The detections in cell order as columns (the overlap-only queries read four at a time), with
  // kLanes entries of padding after the last: a group of lanes may start there.
  float *const lx0 = x0_.data(), *const ly0 = y0_.data(), *const lx1 = x1_.data(), *const ly1 = y1_.data();
  float *const larea = area_.data(), *const lcx = cx_.data(), *const lcy = cy_.data();
  int* const lindex = index_.data();
  for (std::size_t k = 0; k < n_subset; ++k)
    if (cell_of[k] >= 0) {
      const Detection& d = detections[subset[k]];
      const Box& b = d.box;
      const int at = start[cell_of[k] + 1]++;
      lx0[at] = b.x, ly0[at] = b.y, lx1[at] = b.x + b.width, ly1[at] = b.y + b.height, larea[at] = area_of(b);
      lcx[at] = d.centroid_x, lcy[at] = d.centroid_y, lindex[at] = subset[k];
    }
  const int n_binned = start[n_cells];
  for (int k = n_binned; k < n_binned + kLanes; ++k) lx0[k] = ly0[k] = lx1[k] = ly1[k] = larea[k] = lcx[k] = lcy[k] = 0, lindex[k] = -1;
  big_binned_.clear();
  for (int j : big_) {
    const Detection& d = detections[j];
    const Box& b = d.box;
    big_binned_.push_back({b.x, b.y, b.x + b.width, b.y + b.height, area_of(b), d.centroid_x, d.centroid_y, j});
  }

  const float inv_cell = 1 / cell;
  ready_ = true, grid_ = grid, min_x_ = min_x, min_y_ = min_y, inv_cell_ = inv_cell, half_ = half, cols_ = cols, rows_ = rows;
  if (queries.empty()) return;
  // Pairs written to buffer_ (each test writes its slot, the count moves on a pass). A query has
  // at most one pair per detection: room for n_subset more is checked once per query.
  std::size_t n = 0;
  // One query's pairs; `has_gate` (a std::bool_constant) picks the test without distance for
  // queries without a gate (the first tier's, most of them).
  auto visit = [&](int q, auto has_gate) {
    constexpr bool kGate = decltype(has_gate)::value;
    const Query& query = queries[std::size_t(q)];
    const Box& b = query.box;
    const QueryTest test(query, min_iou);
    if (n + n_subset > buffer_.size()) buffer_.resize(2 * (n + n_subset));
    Candidate* const slots = buffer_.data();
    // A detection can pair when its box centre lies within the query's box grown by the largest
    // detection half-size (overlap), or within its centroid grown by the gate plus that half-size
    // (distance: a detection's centroid lies in its box).
    if (grid) {
      float x0, x1, y0, y1;
      if (kGate) {
        const float reach = query.gate_px + half;
        x0 = (std::min(b.x - half, query.centroid_x - reach) - min_x) * inv_cell;
        x1 = (std::max(b.x + b.width + half, query.centroid_x + reach) - min_x) * inv_cell;
        y0 = (std::min(b.y - half, query.centroid_y - reach) - min_y) * inv_cell;
        y1 = (std::max(b.y + b.height + half, query.centroid_y + reach) - min_y) * inv_cell;
      } else {
        x0 = (b.x - half - min_x) * inv_cell;
        x1 = (b.x + b.width + half - min_x) * inv_cell;
        y0 = (b.y - half - min_y) * inv_cell;
        y1 = (b.y + b.height + half - min_y) * inv_cell;
      }
      if (x1 >= 0 && y1 >= 0 && x0 < float(cols) && y0 < float(rows)) {  // false for NaN
        const int c0 = int(std::max(x0, 0.0f)), c1 = int(std::min(x1, float(cols - 1)));
        const int r0 = int(std::max(y0, 0.0f)), r1 = int(std::min(y1, float(rows - 1)));
        // Cells c0..c1 of a row are consecutive in the cell order: one run of detections per row.
        const int* row = start + std::ptrdiff_t(r0) * cols;
        // Overlap-only queries of at most two rows of at most kLanes detections each (most of
        // them): both runs tested kLanes wide, whatever their lengths (lanes past a run's end
        // never pass), so that nothing in a query's test depends on a branch the CPU could
        // mispredict, and the compiler may test the lanes side by side.
        const int two = r1 > r0;
        const int* const row1 = row + two * cols;
        const int b0 = row[c0], b1 = row1[c0];
        const int len0 = row[c1 + 1] - b0, len1 = two * (row1[c1 + 1] - b1);
        if (!kGate && (r1 - r0 <= 1) & (len0 <= kLanes) & (len1 <= kLanes)) {
          float cost[2 * kLanes];
          int index[2 * kLanes], pass[2 * kLanes];
          const float qx0 = test.x0, qy0 = test.y0, qx1 = test.x1, qy1 = test.y1, qarea = test.area;
          const auto run_lanes = [&](const int b, const int len, float* c, int* index_of, int* passes) {
            const float *const x0s = lx0 + b, *const y0s = ly0 + b, *const x1s = lx1 + b, *const y1s = ly1 + b;
            const float* const areas = larea + b;
            const int* const indices = lindex + b;
            for (int i = 0; i < kLanes; ++i) {
              const float w = std::min(qx1, x1s[i]) - std::max(qx0, x0s[i]);
              const float h = std::min(qy1, y1s[i]) - std::max(qy0, y0s[i]);
              const float inter = w * h, either = qarea + areas[i] - inter, overlap = inter / either;
              c[i] = 2 - overlap;
              index_of[i] = indices[i];
              passes[i] = (w > 0) & (h > 0) & (either > 0) & (overlap >= min_iou) & (i < len);
            }
          };
          run_lanes(b0, len0, cost, index, pass);
          run_lanes(b1, len1, cost + kLanes, index + kLanes, pass + kLanes);
          for (int i = 0; i < 2 * kLanes; ++i) slots[n] = {cost[i], q, index[i]}, n += std::size_t(pass[i]);
        } else
        for (int r = r0; r <= r1; ++r, row += cols) {
          for (int k = row[c0], end = row[c1 + 1]; k < end; ++k) {
            const Binned d{lx0[k], ly0[k], lx1[k], ly1[k], larea[k], lcx[k], lcy[k], lindex[k]};
            n += test.template run<kGate>(q, d, slots + n);
          }
        }
      }
    }
    for (const Binned& d : big_binned_) n += test.template run<kGate>(q, d, slots + n);
  };
  for (int q = 0; q < int(queries.size()); ++q) {
    if (queries[std::size_t(q)].gate_px > 0)
      visit(q, std::true_type{});
    else
      visit(q, std::false_type{});
  }
  out->assign(buffer_.begin(), buffer_.begin() + std::ptrdiff_t(n));
}

void CandidateSearch::near(const Box& box, std::vector<int>* out) const {
  if (!ready_) return;  // (no detection was binned)
  if (grid_) {
    // A box meeting `box` has its centre within `box` grown by its half-size (at most half_); a
    // pixel of slack (and a relative one for large coordinates) keeps rounding from losing an edge.
    const float lo_x = std::min(box.x, box.x + box.width), hi_x = std::max(box.x, box.x + box.width);
    const float lo_y = std::min(box.y, box.y + box.height), hi_y = std::max(box.y, box.y + box.height);
    const float reach = half_ + 1 + 1e-5f * (std::fabs(lo_x) + std::fabs(hi_x) + std::fabs(lo_y) + std::fabs(hi_y) + half_ +
                                             std::fabs(min_x_) + std::fabs(min_y_));
    const float x0 = (lo_x - reach - min_x_) * inv_cell_, x1 = (hi_x + reach - min_x_) * inv_cell_;
    const float y0 = (lo_y - reach - min_y_) * inv_cell_, y1 = (hi_y + reach - min_y_) * inv_cell_;
    if (x1 >= 0 && y1 >= 0 && x0 < float(cols_) && y0 < float(rows_)) {  // false for NaN
      const int c0 = int(std::max(x0, 0.0f)), c1 = int(std::min(x1, float(cols_ - 1)));
      const int r0 = int(std::max(y0, 0.0f)), r1 = int(std::min(y1, float(rows_ - 1)));
      const int* row = cell_start_.data() + std::ptrdiff_t(r0) * cols_;
      for (int r = r0; r <= r1; ++r, row += cols_)
        for (int k = row[c0], end = row[c1 + 1]; k < end; ++k) out->push_back(index_[std::size_t(k)]);
    }
  }
  for (const Binned& d : big_binned_) out->push_back(d.index);
}

}  // namespace ccl::track
