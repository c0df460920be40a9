#include "tracker/candidate_grid.hpp"

#include <emmintrin.h>  // SSE2: every x86-64

#include <algorithm>
#include <cmath>

#include "tracker/pair_cost.hpp"

namespace ccl::track {

namespace {

// The grid has at most this many cells per track (plus a few), so clearing it costs no more than binning.
constexpr float kMaxCellsPerTrack = 4;
// The cell side: the largest region side, but at most this many mean region sides (the larger of
// the mean width and the mean height; larger regions go to the big-region lists).
constexpr float kMaxCellInMeanSides = 2;
// Entries past the last one that a four-wide load may read (the longer-run pass's four starting
// four past a run's start, which may be the last entry).
constexpr std::size_t kPadding = 8;

// For each 4-bit mask: the set lanes' indices in order, then zeros; and how many are set.
alignas(16) constexpr std::int32_t kPackedLanes[16][4] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
    {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0}, {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
constexpr std::uint8_t kLaneCount[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

// y * columns + x for four cells, 32-bit products from SSE2's two 64-bit multiplies.
inline __m128i cell_index(__m128i y, __m128i x, __m128i columns) {
  const __m128i even = _mm_mul_epu32(y, columns), odd = _mm_mul_epu32(_mm_srli_si128(y, 4), columns);
  const __m128i product = _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                                             _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
  return _mm_add_epi32(product, x);
}

// Replaces counts[0 .. n) by their exclusive prefix sums and returns the total: four at a time (a
// scan within the four, then the running total added), the counting sort's cell starts.
std::uint32_t exclusive_scan(std::uint32_t* counts, std::size_t n) {
  __m128i total = _mm_setzero_si128();
  std::size_t c = 0;
  for (; c + 4 <= n; c += 4) {
    __m128i* four = reinterpret_cast<__m128i*>(counts + c);
    const __m128i k = _mm_loadu_si128(four);
    __m128i inclusive = _mm_add_epi32(k, _mm_slli_si128(k, 4));
    inclusive = _mm_add_epi32(inclusive, _mm_slli_si128(inclusive, 8));
    _mm_storeu_si128(four, _mm_add_epi32(total, _mm_sub_epi32(inclusive, k)));
    total = _mm_add_epi32(total, _mm_shuffle_epi32(inclusive, _MM_SHUFFLE(3, 3, 3, 3)));
  }
  std::uint32_t sum = std::uint32_t(_mm_cvtsi128_si32(total));
  for (; c < n; ++c) {
    const std::uint32_t k = counts[c];
    counts[c] = sum;
    sum += k;
  }
  return sum;
}

}  // namespace

void CandidateGrid::build(const RegionPass& pass) {
  const std::size_t n = predicted_.size();
  home_.resize(n);
  columns_ = rows_ = 0;
  n_big_ = 0;
  if (n == 0) return;
  // The arrays as locals: a member's data pointer would be reloaded after every store.
  const float* const region = region_.data();
  std::int32_t* const home = home_.data();
  // The grid spans the regions' bounds (from the region pass).
  alignas(16) float low[4], high[4];
  _mm_store_ps(low, pass.lowest_), _mm_store_ps(high, pass.highest_);
  const float x0 = low[0], y0 = low[1], x1 = high[2], y1 = high[3];
  alignas(16) float extent_sum[4], extent_max[4];
  _mm_store_ps(extent_sum, pass.extent_sum_), _mm_store_ps(extent_max, pass.extent_max_);
  const float side_max = std::max(extent_max[0], extent_max[1]), side_sum = std::max(extent_sum[0], extent_sum[1]);
  float cell = std::max(1.0f, std::min(side_max, kMaxCellInMeanSides * side_sum / float(n)));
  const float limit = kMaxCellsPerTrack * float(n) + 64;
  const float cells = ((x1 - x0) / cell + 1) * ((y1 - y0) / cell + 1);
  if (cells > limit) cell *= std::sqrt(cells / limit);
  // One empty column left and row above: every home cell a detection looks at (left of and above its
  // own) then exists, without bounds checks.
  origin_x_ = x0 - cell, origin_y_ = y0 - cell, inverse_cell_ = 1 / cell;
  columns_ = cell_x(x1) + 1, rows_ = cell_y(y1) + 1;
  const std::size_t n_cells = std::size_t(columns_) * rows_;

  // Counting sort of the small regions by home cell: counts, exclusive prefix sum, scatter. count[c]
  // is cell_start_[c + 1]: after the scatter it holds the end of cell c, i.e. the start of c + 1.
  cell_start_.assign(n_cells + 2, 0);  // the cells' starts, the last end, and the big regions' count
  std::uint32_t* count = cell_start_.data() + 1;
  const __m128 origin = _mm_setr_ps(origin_x_, origin_y_, origin_x_, origin_y_), inverse = _mm_set1_ps(inverse_cell_);
  const int columns = columns_;
  std::size_t n_big = 0;
  std::size_t t = 0;
  // Four regions at a time: their corner cells transposed to x0, y0, x1, y1 of the four. A big
  // region's home is -1 and its count goes to a slot past the cells (count[n_cells], which the
  // scan leaves out), so the four counts need no branch.
  const __m128i row_length = _mm_set1_epi32(columns), one = _mm_set1_epi32(1);
  const __m128i past_the_cells = _mm_set1_epi32(std::int32_t(n_cells));
  for (; t + 4 <= n; t += 4) {
    auto corner_cells = [&](std::size_t u) {
      return _mm_castsi128_ps(_mm_cvttps_epi32(_mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(region + 4 * u), origin), inverse)));
    };
    __m128 x0 = corner_cells(t), y0 = corner_cells(t + 1), x1 = corner_cells(t + 2), y1 = corner_cells(t + 3);
    _MM_TRANSPOSE4_PS(x0, y0, x1, y1);
    const __m128i cx0 = _mm_castps_si128(x0), cy0 = _mm_castps_si128(y0);
    const __m128i big = _mm_or_si128(_mm_cmpgt_epi32(_mm_sub_epi32(_mm_castps_si128(x1), cx0), one),
                                     _mm_cmpgt_epi32(_mm_sub_epi32(_mm_castps_si128(y1), cy0), one));
    const __m128i h = _mm_or_si128(cell_index(cy0, cx0, row_length), big);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(home + t), h);
    n_big += kLaneCount[_mm_movemask_ps(_mm_castsi128_ps(big))];
    alignas(16) std::int32_t counted[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(counted), _mm_or_si128(_mm_and_si128(big, past_the_cells), _mm_andnot_si128(big, h)));
    count[counted[0]]++, count[counted[1]]++, count[counted[2]]++, count[counted[3]]++;
  }
  for (; t < n; ++t) {
    // The cells of the region's corners (cell_x, cell_y of all four bounds at once).
    const __m128i cells = _mm_cvttps_epi32(_mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(region + 4 * t), origin), inverse));
    const int cx0 = _mm_cvtsi128_si32(cells), cy0 = _mm_cvtsi128_si32(_mm_shuffle_epi32(cells, 1));
    const __m128i spans = _mm_sub_epi32(cells, _mm_shuffle_epi32(cells, _MM_SHUFFLE(1, 0, 1, 0)));
    const bool small = (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(spans, _mm_set1_epi32(1)))) & 0xc) == 0;
    const std::int32_t h = small ? cy0 * columns + cx0 : -1;
    home[t] = h;
    if (small) count[h]++;
    n_big += !small;
  }
  n_big_ = n_big;
  std::uint32_t sum = exclusive_scan(count, n_cells);
  for (auto& f : field_) f.resize(sum + kPadding);
  track_.resize(sum + kPadding);
  for (std::size_t i = sum; i < sum + kPadding; ++i) {  // the padding the last four-wide loads read
    for (auto& f : field_) f[i] = 0;
    track_[i] = 0;
  }
  float* const f[kFields] = {field_[0].data(), field_[1].data(), field_[2].data(), field_[3].data()};
  std::int32_t* const track = track_.data();
  // The scatter places the track indices only; the regions follow in binned order, four at a time
  // (a transpose of four rows), so the corner arrays are written in order rather than at random.
  for (std::size_t t = 0; t < n; ++t) {
    const std::int32_t h = home[t];
    if (h < 0) continue;
    track[count[h]++] = std::int32_t(t);
  }
  std::size_t k = 0;
  for (; k + 4 <= sum; k += 4) {
    __m128 x0 = _mm_loadu_ps(region + 4 * std::size_t(track[k])), y0 = _mm_loadu_ps(region + 4 * std::size_t(track[k + 1]));
    __m128 x1 = _mm_loadu_ps(region + 4 * std::size_t(track[k + 2])), y1 = _mm_loadu_ps(region + 4 * std::size_t(track[k + 3]));
    _MM_TRANSPOSE4_PS(x0, y0, x1, y1);
    _mm_storeu_ps(f[kX0] + k, x0), _mm_storeu_ps(f[kY0] + k, y0);
    _mm_storeu_ps(f[kX1] + k, x1), _mm_storeu_ps(f[kY1] + k, y1);
  }
  for (; k < sum; ++k) {
    const float* r = region + 4 * std::size_t(track[k]);
    f[kX0][k] = r[0], f[kY0][k] = r[1], f[kX1][k] = r[2], f[kY1][k] = r[3];
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
  sum = exclusive_scan(big_count, n_cells);
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
  RegionPass pass = regions(predicted.size());
  for (std::size_t t = 0; t < predicted.size(); ++t) {
    const Box& b = predicted.box[t];
    pass.add(t, _mm_setr_ps(b.x, b.y, b.width, b.height),
             _mm_setr_ps(predicted.centroid_x[t], predicted.centroid_y[t], predicted.gate_px[t], 0.0f));
  }
  const std::size_t count = find_predicted(pass, detections, n, min_iou);
  out->insert(out->end(), pairs_.begin(), pairs_.begin() + std::ptrdiff_t(count));
}

CandidateGrid::CandidateGrid() : wide_(wide_supported()) {}

void CandidateGrid::set_wide(bool wide) { wide_ = wide && wide_supported(); }

// Four entries from k on: those in the run (k + lane < end) whose region holds the centroid (PX, PY)
// are stored at `in` as (entry, detection D) pairs; returns the pointer past them.
// f: the binned regions' corner arrays.
inline CandidateGrid::Inside* CandidateGrid::four_inside(const float* const f[kFields], std::uint32_t k, std::uint32_t end,
                                                         __m128 PX, __m128 PY, __m128i D, Inside* in) {
  const __m128 x0 = _mm_loadu_ps(f[kX0] + k), y0 = _mm_loadu_ps(f[kY0] + k);
  const __m128 x1 = _mm_loadu_ps(f[kX1] + k), y1 = _mm_loadu_ps(f[kY1] + k);
  // NaN-exact negations of the scalar test's rejections (px < x0 || px > x1 || ...).
  const __m128 inside = _mm_and_ps(_mm_and_ps(_mm_cmpnlt_ps(PX, x0), _mm_cmpngt_ps(PX, x1)),
                                   _mm_and_ps(_mm_cmpnlt_ps(PY, y0), _mm_cmpngt_ps(PY, y1)));
  const __m128i K = _mm_set1_epi32(std::int32_t(k));
  const __m128i in_range = _mm_cmplt_epi32(_mm_add_epi32(K, _mm_set_epi32(3, 2, 1, 0)), _mm_set1_epi32(std::int32_t(end)));
  const int pass = _mm_movemask_ps(_mm_and_ps(inside, _mm_castsi128_ps(in_range)));
  // The passing lanes packed to the front (a table per mask), stored as four pairs at once.
  const __m128i entries = _mm_add_epi32(K, _mm_load_si128(reinterpret_cast<const __m128i*>(kPackedLanes[pass])));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(in), _mm_unpacklo_epi32(entries, D));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(in) + 1, _mm_unpackhi_epi32(entries, D));
  return in + kLaneCount[pass];
}

// Stage 1, per detection: the binned entries whose region holds its centroid, from its two runs of
// home cells, four at a time. A run holds 2.5 regions on average: the first four of every run is
// tested here, the detections with a longer run (the rare ones) listed for later, so this loop has
// no branch that depends on the data. The passing entries are packed and stored four at once, so no
// store waits on the one before. Returns how many pairs are in inside_; *n_longer gets the count of
// longer_.
std::size_t CandidateGrid::find_inside(const Detection* detections, std::size_t n, std::size_t* n_longer) {
  std::size_t longer = 0;
  const std::uint32_t* start = cell_start_.data();
  const float* const f[kFields] = {field_[0].data(), field_[1].data(), field_[2].data(), field_[3].data()};
  const std::int32_t* const cell = detection_cell_.data();
  const std::size_t columns = std::size_t(columns_);
  std::int32_t* const listed = longer_.data();
  Inside* const first = inside_.data();
  Inside* in = first;
  for (std::size_t j = 0; j < n; ++j) {
    const Detection& d = detections[j];
    if (cell[j] < 0) continue;
    const Runs r = runs_of(start, std::size_t(cell[j]), columns);
    const __m128 PX = _mm_set1_ps(d.centroid_x), PY = _mm_set1_ps(d.centroid_y);
    const __m128i D = _mm_set1_epi32(std::int32_t(j));
    in = four_inside(f, r.s0, r.e0, PX, PY, D, in);
    in = four_inside(f, r.s1, r.e1, PX, PY, D, in);
    longer = list_longer(r, std::int32_t(j), listed, longer);
  }
  *n_longer = longer;
  return std::size_t(in - first);
}

std::size_t CandidateGrid::find_predicted(const RegionPass& pass, const Detection* detections, std::size_t n,
                                          float min_iou) {
  build(pass);
  if (columns_ == 0) return 0;
  if (inside_.size() < 8 * n + kInsideSlack) inside_.resize(8 * n + kInsideSlack);
  if (longer_.size() < n + 1) longer_.resize(n + 1);
  find_cells(detections, n);
  std::size_t n_longer = 0;
  std::size_t n_inside = wide_ ? find_inside_wide(detections, n, &n_longer) : find_inside(detections, n, &n_longer);
  // The longer runs past their first four entries, four at a time.
  const float* const f[kFields] = {field_[0].data(), field_[1].data(), field_[2].data(), field_[3].data()};
  for (std::size_t i = 0; i < n_longer; ++i) {
    const std::int32_t j = longer_[i];
    const Detection& d = detections[j];
    const Runs r = runs_of(cell_start_.data(), std::size_t(detection_cell_[std::size_t(j)]), std::size_t(columns_));
    const std::size_t most = std::size_t(r.e0 - r.s0) + std::size_t(r.e1 - r.s1) + 2 * kInsideSlack;
    if (n_inside + most > inside_.size()) inside_.resize(std::max(2 * inside_.size(), n_inside + most));
    const __m128 PX = _mm_set1_ps(d.centroid_x), PY = _mm_set1_ps(d.centroid_y);
    const __m128i D = _mm_set1_epi32(j);
    Inside* in = inside_.data() + n_inside;
    // The second four of both runs whatever their lengths (a run of four or less adds nothing), so
    // the common case has no loop whose length depends on the data; runs past eight are rarer.
    in = four_inside(f, r.s0 + 4, r.e0, PX, PY, D, in);
    for (std::uint32_t k = r.s0 + 8; k < r.e0; k += 4) in = four_inside(f, k, r.e0, PX, PY, D, in);
    in = four_inside(f, r.s1 + 4, r.e1, PX, PY, D, in);
    for (std::uint32_t k = r.s1 + 8; k < r.e1; k += 4) in = four_inside(f, k, r.e1, PX, PY, D, in);
    n_inside = std::size_t(in - inside_.data());
  }

  // The list padded to a multiple of eight with copies of a real pair, masked out in stage 2.
  const std::size_t padded = (n_inside + 7) & ~std::size_t(7);
  if (inside_.size() < padded) inside_.resize(padded);
  for (std::size_t i = n_inside; i < padded; ++i) inside_[i] = inside_[0];
  if (pairs_.size() < n_inside + 64) pairs_.resize(std::max(2 * pairs_.size(), n_inside + 64));
  std::size_t count = wide_ ? find_costs_wide(detections, n_inside, min_iou) : find_costs(detections, n_inside, min_iou);
  if (n_big_ > 0) count = find_big(detections, n, min_iou, count);
  return count;
}

// Stage 2, over the n_inside pairs of stage 1 four at a time: the gate and the cost, branch-free.
// The passing pairs go to pairs_; returns how many.
std::size_t CandidateGrid::find_costs(const Detection* detections, std::size_t n_inside, float min_iou) {
  std::size_t count = 0;
  const std::int32_t* track = track_.data();
  const Predicted* predicted = predicted_.data();
  Candidate* pairs = pairs_.data();
  const __m128 MI = _mm_set1_ps(min_iou);
  for (std::size_t i = 0; i < n_inside; i += 4) {
    const Inside* in = &inside_[i];
    const std::int32_t t[4] = {track[in[0].entry], track[in[1].entry], track[in[2].entry], track[in[3].entry]};
    const Predicted* p[4] = {&predicted[t[0]], &predicted[t[1]], &predicted[t[2]], &predicted[t[3]]};
    const Detection* d[4] = {&detections[in[0].detection], &detections[in[1].detection],
                             &detections[in[2].detection], &detections[in[3].detection]};
    float cost[4];
    const int real = i + 4 <= n_inside ? 15 : (1 << (n_inside - i)) - 1;
    const int pass = four_pair_costs(p, d, MI, cost) & real;
#pragma GCC unroll 4
    for (int l = 0; l < 4; ++l) {
      pairs[count] = Candidate{cost[l], t[l], in[l].detection};
      count += (pass >> l) & 1;
    }
  }
  return count;
}

// Every detection's cell (x, y), clamped to x, y >= 1 (x or y is 0 only by rounding at the padding's
// edge: the runs from 1 then hold those), as an index, or -1: four detections at a time, the test of
// cell_of.
void CandidateGrid::find_cells(const Detection* detections, std::size_t n) {
  detection_cell_.resize(n);
  std::int32_t* cell = detection_cell_.data();
  const __m128 origin_x = _mm_set1_ps(origin_x_), origin_y = _mm_set1_ps(origin_y_);
  const __m128 inverse = _mm_set1_ps(inverse_cell_), zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
  const __m128 columns = _mm_set1_ps(float(columns_)), rows = _mm_set1_ps(float(rows_));
  const __m128i row_length = _mm_set1_epi32(columns_);
  std::size_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const Detection* const four[4] = {&detections[j], &detections[j + 1], &detections[j + 2], &detections[j + 3]};
    __m128 px, py;
    four_centroids(four, &px, &py);
    const __m128 fx = _mm_mul_ps(_mm_sub_ps(px, origin_x), inverse);
    const __m128 fy = _mm_mul_ps(_mm_sub_ps(py, origin_y), inverse);
    const __m128 inside = _mm_and_ps(_mm_and_ps(_mm_cmpge_ps(fx, zero), _mm_cmpge_ps(fy, zero)),
                                     _mm_and_ps(_mm_cmplt_ps(fx, columns), _mm_cmplt_ps(fy, rows)));
    const __m128i x = _mm_cvttps_epi32(_mm_max_ps(fx, one)), y = _mm_cvttps_epi32(_mm_max_ps(fy, one));
    const __m128i index = cell_index(y, x, row_length);
    const __m128i outside = _mm_castps_si128(_mm_andnot_ps(inside, _mm_castsi128_ps(_mm_set1_epi32(-1))));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(cell + j), _mm_or_si128(index, outside));
  }
  for (; j < n; ++j) {
    int x, y;
    cell[j] = cell_of(detections[j].centroid_x, detections[j].centroid_y, &x, &y)
                  ? std::max(y, 1) * columns_ + std::max(x, 1)
                  : -1;
  }
}

// The big regions, one cell per detection, the scalar test (same operations as the four-wide one).
std::size_t CandidateGrid::find_big(const Detection* detections, std::size_t n, float min_iou, std::size_t count) {
  for (std::size_t j = 0; j < n; ++j) {
    const Detection& d = detections[j];
    const float px = d.centroid_x, py = d.centroid_y;
    int x, y;
    if (!cell_of(px, py, &x, &y)) continue;
    const std::size_t c = std::size_t(y) * columns_ + x;
    for (std::uint32_t k = big_start_[c]; k < big_start_[c + 1]; ++k) {
      const std::int32_t t = big_tracks_[k];
      const float* r = &region_[4 * std::size_t(t)];
      if (px < r[0] || px > r[2] || py < r[1] || py > r[3]) continue;
      const Predicted* p = &predicted_[std::size_t(t)];
      const Predicted* const ps[4] = {p, p, p, p};
      const Detection* const ds[4] = {&d, &d, &d, &d};
      float cost[4];
      if ((four_pair_costs(ps, ds, _mm_set1_ps(min_iou), cost) & 1) == 0) continue;
      if (count == pairs_.size()) pairs_.resize(2 * pairs_.size());
      pairs_[count++] = Candidate{cost[0], t, std::int32_t(j)};
    }
  }
  return count;
}

}  // namespace ccl::track
