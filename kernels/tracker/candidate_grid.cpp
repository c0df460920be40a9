#include "tracker/candidate_grid.hpp"

#include <emmintrin.h>  // SSE2: every x86-64

#include <algorithm>
#include <cmath>

#include "tracker/tracker.hpp"

namespace ccl::track {

namespace {

// The grid has at most this many cells per track (plus a few), so clearing it costs no more than binning.
constexpr float kMaxCellsPerTrack = 4;
// The cell side: the largest region side, but at most this many mean region sides (larger regions
// go to the big-region lists).
constexpr float kMaxCellInMeanSides = 2;
// Entries past the last one that the four-wide loads may read (a row's two fixed fours).
constexpr std::size_t kPadding = 8;

// The gate of one pair whose centroid lies in the track's region (IoU >= min_iou or distance <=
// gate) and its cost, both computed without a branch: the caller keeps the pair when it passes. One
// function for the grid and the big-region paths, so both compute the same floats in the same order.
inline bool pair_cost(const Predicted& p, const Detection& d, float detection_area, float min_iou, float* cost) {
  const float both = intersection(p.box, d.box), either = area_of(p.box) + detection_area - both;
  const float dx = d.centroid_x - p.centroid_x, dy = d.centroid_y - p.centroid_y, squared = dx * dx + dy * dy;
  const float closeness = p.gate > 0 ? std::min(std::sqrt(squared) / p.gate, 1.0f) : 1.0f;
  *cost = ((1 - both / either) + closeness) + p.penalty;
  return !(both < min_iou * either) | !(squared > p.gate * p.gate);
}

}  // namespace

void CandidateGrid::build() {
  const std::size_t n = predicted_.size();
  region_.resize(4 * n);
  home_.resize(n);
  columns_ = rows_ = 0;
  n_big_ = 0;
  if (n == 0) return;
  float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, side_sum = 0, side_max = 0;
  for (std::size_t t = 0; t < n; ++t) {
    const Predicted& p = predicted_[t];
    const Box& b = p.box;
    const float cx = p.centroid_x, cy = p.centroid_y, gate = p.gate;
    float* r = &region_[4 * t];
    r[0] = std::min(b.x, cx - gate), r[1] = std::min(b.y, cy - gate);
    r[2] = std::max(b.x + b.width, cx + gate), r[3] = std::max(b.y + b.height, cy + gate);
    x0 = std::min(x0, r[0]), y0 = std::min(y0, r[1]), x1 = std::max(x1, r[2]), y1 = std::max(y1, r[3]);
    const float side = std::max(r[2] - r[0], r[3] - r[1]);
    side_sum += side, side_max = std::max(side_max, side);
  }
  float cell = std::max(1.0f, std::min(side_max, kMaxCellInMeanSides * side_sum / float(n)));
  const float limit = kMaxCellsPerTrack * float(n) + 64;
  const float cells = ((x1 - x0) / cell + 1) * ((y1 - y0) / cell + 1);
  if (cells > limit) cell *= std::sqrt(cells / limit);
  origin_x_ = x0, origin_y_ = y0, inverse_cell_ = 1 / cell;
  columns_ = cell_x(x1) + 1, rows_ = cell_y(y1) + 1;
  const std::size_t n_cells = std::size_t(columns_) * rows_;

  // Counting sort of the small regions by home cell: counts, exclusive prefix sum, scatter. count[c]
  // is cell_start_[c + 1]: after the scatter it holds the end of cell c, i.e. the start of c + 1.
  cell_start_.assign(n_cells + 2, 0);
  std::uint32_t* count = cell_start_.data() + 1;
  for (std::size_t t = 0; t < n; ++t) {
    const float* r = &region_[4 * t];
    const int cx0 = cell_x(r[0]), cy0 = cell_y(r[1]);
    const bool small = cell_x(r[2]) - cx0 <= 1 && cell_y(r[3]) - cy0 <= 1;
    const std::int32_t h = small ? cy0 * columns_ + cx0 : -1;
    home_[t] = h;
    if (small) count[h]++;
    n_big_ += !small;
  }
  std::uint32_t sum = 0;
  for (std::size_t c = 0; c < n_cells; ++c) {
    const std::uint32_t k = count[c];
    count[c] = sum;
    sum += k;
  }
  for (auto& f : field_) f.resize(sum + kPadding);
  track_.resize(sum + kPadding);
  binned_.resize(sum);
  for (std::size_t i = sum; i < sum + kPadding; ++i) {  // the padding the last four-wide loads read
    for (auto& f : field_) f[i] = 0;
    track_[i] = 0;
  }
  float* const f[kFields] = {field_[0].data(), field_[1].data(), field_[2].data(), field_[3].data()};
  for (std::size_t t = 0; t < n; ++t) {
    const std::int32_t h = home_[t];
    if (h < 0) continue;
    const std::uint32_t k = count[h]++;
    const float* r = &region_[4 * t];
    f[kX0][k] = r[0], f[kY0][k] = r[1], f[kX1][k] = r[2], f[kY1][k] = r[3];
    track_[k] = std::int32_t(t);
    binned_[k] = predicted_[t];
  }

  // Big regions: in every cell they cover (a detection then looks in its own cell only).
  if (n_big_ == 0) return;
  big_start_.assign(n_cells + 1, 0);
  std::uint32_t* big_count = big_start_.data() + 1;
  for (std::size_t t = 0; t < n; ++t) {
    if (home_[t] >= 0) continue;
    const float* r = &region_[4 * t];
    for (int y = cell_y(r[1]); y <= cell_y(r[3]); ++y)
      for (int x = cell_x(r[0]); x <= cell_x(r[2]); ++x) big_count[std::size_t(y) * columns_ + x]++;
  }
  sum = 0;
  for (std::size_t c = 0; c < n_cells; ++c) {
    const std::uint32_t k = big_count[c];
    big_count[c] = sum;
    sum += k;
  }
  big_tracks_.resize(sum);
  for (std::size_t t = 0; t < n; ++t) {  // in track order: each cell lists its big tracks oldest first
    if (home_[t] >= 0) continue;
    const float* r = &region_[4 * t];
    for (int y = cell_y(r[1]); y <= cell_y(r[3]); ++y)
      for (int x = cell_x(r[0]); x <= cell_x(r[2]); ++x)
        big_tracks_[big_count[std::size_t(y) * columns_ + x]++] = std::int32_t(t);
  }
}

void CandidateGrid::find(const Predictions& predicted, const Detection* detections, std::size_t n, float min_iou,
                         std::vector<Candidate>* out) {
  Predicted* p = this->predicted(predicted.size());
  for (std::size_t t = 0; t < predicted.size(); ++t)
    p[t] = Predicted{predicted.box[t], predicted.centroid_x[t], predicted.centroid_y[t], predicted.gate_px[t], 0.0f};
  const std::size_t count = find_predicted(detections, n, min_iou);
  out->insert(out->end(), pairs_.begin(), pairs_.begin() + std::ptrdiff_t(count));
}

std::size_t CandidateGrid::find_predicted(const Detection* detections, std::size_t n, float min_iou) {
  build();
  if (columns_ == 0) return 0;
  // Stage 1, per detection: the binned entries whose region holds its centroid. The two cell rows
  // are scanned two fours at a time whether or not they hold that many (masked, branch-free): the
  // scan then costs the same for every detection and its branches are predicted (a row of more
  // than eight entries takes the loop after them).
  if (inside_.size() < 2 * n + 64) inside_.resize(2 * n + 64);
  std::size_t n_inside = 0;
  const std::uint32_t* start = cell_start_.data();
  const float* const f[kFields] = {field_[0].data(), field_[1].data(), field_[2].data(), field_[3].data()};
  const __m128i lane = _mm_set_epi32(3, 2, 1, 0);
  for (std::size_t j = 0; j < n; ++j) {
    const Detection& d = detections[j];
    const float px = d.centroid_x, py = d.centroid_y;
    int x, y;
    if (!cell_of(px, py, &x, &y)) continue;
    // A small region with this centroid has its home cell at (x - 1 .. x, y - 1 .. y).
    const std::size_t left = std::size_t(std::max(x - 1, 0));
    std::uint32_t s[2], e[2];
    for (int k = 0; k < 2; ++k) {
      const int row = std::max(y - 1 + k, 0);
      const bool used = y - 1 + k >= 0;
      s[k] = start[std::size_t(row) * columns_ + left];
      e[k] = used ? start[std::size_t(row) * columns_ + std::size_t(x) + 1] : s[k];
    }
    const std::size_t most = std::size_t(e[0] - s[0]) + (e[1] - s[1]) + 2 * kPadding;
    if (n_inside + most > inside_.size()) inside_.resize(std::max(2 * inside_.size(), n_inside + most));
    Inside* in = inside_.data() + n_inside;
    const __m128 PX = _mm_set1_ps(px), PY = _mm_set1_ps(py);
    const std::int32_t detection = std::int32_t(j);
    // Four entries from k on: those in the row (k + lane < end) whose region holds the centroid are
    // written, the pointer advanced past them.
    auto four = [&](std::uint32_t k, __m128i end) {
      const __m128 x0 = _mm_loadu_ps(f[kX0] + k), y0 = _mm_loadu_ps(f[kY0] + k);
      const __m128 x1 = _mm_loadu_ps(f[kX1] + k), y1 = _mm_loadu_ps(f[kY1] + k);
      // NaN-exact negations of the scalar test's rejections (px < x0 || px > x1 || ...).
      const __m128 inside = _mm_and_ps(_mm_and_ps(_mm_cmpnlt_ps(PX, x0), _mm_cmpngt_ps(PX, x1)),
                                       _mm_and_ps(_mm_cmpnlt_ps(PY, y0), _mm_cmpngt_ps(PY, y1)));
      const __m128i in_range = _mm_cmplt_epi32(_mm_add_epi32(_mm_set1_epi32(std::int32_t(k)), lane), end);
      const int pass = _mm_movemask_ps(_mm_and_ps(inside, _mm_castsi128_ps(in_range)));
      for (std::uint32_t l = 0; l < 4; ++l) {
        *in = Inside{std::int32_t(k + l), detection};
        in += (pass >> l) & 1;
      }
    };
    for (int r = 0; r < 2; ++r) {
      const __m128i end = _mm_set1_epi32(std::int32_t(e[r]));
      four(s[r], end);
      four(s[r] + 4, end);
      for (std::uint32_t k = s[r] + 8; k < e[r]; k += 4) four(k, end);
    }
    n_inside = std::size_t(in - inside_.data());
  }

  // Stage 2, over all those pairs in one loop: the gate and the cost, branch-free.
  if (pairs_.size() < n_inside + 64) pairs_.resize(std::max(2 * pairs_.size(), n_inside + 64));
  std::size_t count = 0;
  const std::int32_t* track = track_.data();
  const Predicted* binned = binned_.data();
  Candidate* pairs = pairs_.data();
  for (std::size_t i = 0; i < n_inside; ++i) {
    const Inside in = inside_[i];
    const Detection& d = detections[in.detection];
    float cost;
    const bool pass = pair_cost(binned[in.entry], d, area_of(d.box), min_iou, &cost);
    pairs[count] = Candidate{cost, track[in.entry], in.detection};
    count += pass;
  }
  if (n_big_ > 0) count = find_big(detections, n, min_iou, count);
  return count;
}

// The big regions, one cell per detection, the scalar test (same operations as the four-wide one).
std::size_t CandidateGrid::find_big(const Detection* detections, std::size_t n, float min_iou, std::size_t count) {
  for (std::size_t j = 0; j < n; ++j) {
    const Detection& d = detections[j];
    const float px = d.centroid_x, py = d.centroid_y;
    int x, y;
    if (!cell_of(px, py, &x, &y)) continue;
    const float detection_area = area_of(d.box);
    const std::size_t c = std::size_t(y) * columns_ + x;
    for (std::uint32_t k = big_start_[c]; k < big_start_[c + 1]; ++k) {
      const std::int32_t t = big_tracks_[k];
      const float* r = &region_[4 * std::size_t(t)];
      if (px < r[0] || px > r[2] || py < r[1] || py > r[3]) continue;
      float cost;
      if (!pair_cost(predicted_[std::size_t(t)], d, detection_area, min_iou, &cost)) continue;
      if (count == pairs_.size()) pairs_.resize(2 * pairs_.size());
      pairs_[count++] = Candidate{cost, t, std::int32_t(j)};
    }
  }
  return count;
}

}  // namespace ccl::track
