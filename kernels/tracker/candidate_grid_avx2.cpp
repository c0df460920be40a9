// The candidate grid's stages 1 and 2 eight lanes at a time (AVX2), for CPUs that have it: only the
// functions marked CCL_WIDE are built for AVX2 (the rest of the library stays baseline x86-64), and
// the grid calls them only when the CPU says it has AVX2. Stage 1: lanes 0-3 test the first four
// regions of a detection's first run, lanes 4-7 those of its second: the four-wide path's two tests
// in one, with the same comparisons, storing the same pairs in the same order. Stage 2: eight pairs
// at once, lanes 0-3 and 4-7 each a four of the four-wide path (pair_cost.hpp), the same operations
// in the same order, so the same costs.
#include <immintrin.h>

#include "tracker/candidate_grid.hpp"
#include "tracker/pair_cost.hpp"

#define CCL_WIDE __attribute__((target("avx2")))
#define CCL_WIDE_INLINE __attribute__((target("avx2"), always_inline)) inline

namespace ccl::track {

namespace {

// For each 8-bit mask of passing lanes: the lanes to gather so that, interleaved with the detection
// by unpacklo / unpackhi (which work within 128-bit halves), the pairs come out in lane order:
// passing lanes p0 .. p7 are placed as (p0 p1 p4 p5 p2 p3 p6 p7).
struct PairOrder {
  std::uint8_t lanes[256][8];
};
constexpr PairOrder make_pair_order() {
  PairOrder table{};
  constexpr int kSlot[8] = {0, 1, 4, 5, 2, 3, 6, 7};
  for (int mask = 0; mask < 256; ++mask) {
    std::uint8_t packed[8] = {};
    int k = 0;
    for (int lane = 0; lane < 8; ++lane)
      if (mask & (1 << lane)) packed[k++] = std::uint8_t(lane);
    for (int i = 0; i < 8; ++i) table.lanes[mask][i] = packed[kSlot[i]];
  }
  return table;
}
constexpr PairOrder kPairOrder = make_pair_order();

// Four floats from lo in lanes 0-3, four from hi in lanes 4-7.
CCL_WIDE_INLINE __m256 two_rows(const float* lo, const float* hi) {
  return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)), _mm_loadu_ps(hi), 1);
}

// The starts and ends of a detection's two runs (runs_of) as vectors: (s0 x4 | s1 x4) and
// (e0 x4 | e1 x4), from two 16-byte loads of the cell starts (a run's end is the start two cells on).
CCL_WIDE_INLINE void run_bounds(const std::uint32_t* start, std::size_t c, std::size_t columns, __m256i* s, __m256i* e) {
  const __m256i both = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(start + c - columns - 1))),
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(start + c - 1)), 1);  // (s0 . e0 . | s1 . e1 .)
  *s = _mm256_shuffle_epi32(both, _MM_SHUFFLE(0, 0, 0, 0));
  *e = _mm256_shuffle_epi32(both, _MM_SHUFFLE(2, 2, 2, 2));
}

// _MM_TRANSPOSE4_PS within each 128-bit half: rows (r0 | r4) .. (r3 | r7) to columns.
CCL_WIDE_INLINE void transpose_halves(__m256* a, __m256* b, __m256* c, __m256* d) {
  const __m256 ab_lo = _mm256_unpacklo_ps(*a, *b), cd_lo = _mm256_unpacklo_ps(*c, *d);
  const __m256 ab_hi = _mm256_unpackhi_ps(*a, *b), cd_hi = _mm256_unpackhi_ps(*c, *d);
  *a = _mm256_shuffle_ps(ab_lo, cd_lo, _MM_SHUFFLE(1, 0, 1, 0)), *b = _mm256_shuffle_ps(ab_lo, cd_lo, _MM_SHUFFLE(3, 2, 3, 2));
  *c = _mm256_shuffle_ps(ab_hi, cd_hi, _MM_SHUFFLE(1, 0, 1, 0)), *d = _mm256_shuffle_ps(ab_hi, cd_hi, _MM_SHUFFLE(3, 2, 3, 2));
}

// four_pair_costs for eight pairs, p[0 .. 3] / d[0 .. 3] in lanes 0-3 and p[4 .. 7] / d[4 .. 7] in
// lanes 4-7: its operations in its order, its NaN-exact comparisons. Returns the 8-bit pass mask;
// the costs go to cost[0 .. 7].
CCL_WIDE_INLINE int eight_pair_costs(const Predicted* const p[8], const Detection* const d[8], __m256 min_iou, float* cost) {
  // Rows of pairs l and l + 4 in one register, transposed within the halves.
  __m256 X = two_rows(&p[0]->box.x, &p[4]->box.x), Y = two_rows(&p[1]->box.x, &p[5]->box.x);
  __m256 W = two_rows(&p[2]->box.x, &p[6]->box.x), H = two_rows(&p[3]->box.x, &p[7]->box.x);
  transpose_halves(&X, &Y, &W, &H);
  __m256 CX = two_rows(&p[0]->centroid_x, &p[4]->centroid_x), CY = two_rows(&p[1]->centroid_x, &p[5]->centroid_x);
  __m256 G = two_rows(&p[2]->centroid_x, &p[6]->centroid_x), PEN = two_rows(&p[3]->centroid_x, &p[7]->centroid_x);
  transpose_halves(&CX, &CY, &G, &PEN);
  __m256 DX = two_rows(&d[0]->box.x, &d[4]->box.x), DY = two_rows(&d[1]->box.x, &d[5]->box.x);
  __m256 DW = two_rows(&d[2]->box.x, &d[6]->box.x), DH = two_rows(&d[3]->box.x, &d[7]->box.x);
  transpose_halves(&DX, &DY, &DW, &DH);
  __m128 cx_lo, cy_lo, cx_hi, cy_hi;
  four_centroids(d, &cx_lo, &cy_lo);
  four_centroids(d + 4, &cx_hi, &cy_hi);
  const __m256 DCX = _mm256_set_m128(cx_hi, cx_lo), DCY = _mm256_set_m128(cy_hi, cy_lo);

  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
  const __m256 w = _mm256_max_ps(_mm256_sub_ps(_mm256_min_ps(_mm256_add_ps(DX, DW), _mm256_add_ps(X, W)), _mm256_max_ps(DX, X)), zero);
  const __m256 h = _mm256_max_ps(_mm256_sub_ps(_mm256_min_ps(_mm256_add_ps(DY, DH), _mm256_add_ps(Y, H)), _mm256_max_ps(DY, Y)), zero);
  const __m256 both = _mm256_mul_ps(w, h);
  const __m256 either = _mm256_sub_ps(_mm256_add_ps(_mm256_mul_ps(W, H), _mm256_mul_ps(DW, DH)), both);
  const __m256 dx = _mm256_sub_ps(DCX, CX), dy = _mm256_sub_ps(DCY, CY);
  const __m256 squared = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
  const __m256 gated = _mm256_cmp_ps(G, zero, _CMP_GT_OQ);
  const __m256 near = _mm256_min_ps(one, _mm256_div_ps(_mm256_sqrt_ps(squared), G));
  const __m256 closeness = _mm256_or_ps(_mm256_and_ps(gated, near), _mm256_andnot_ps(gated, one));
  _mm256_storeu_ps(cost, _mm256_add_ps(_mm256_add_ps(_mm256_sub_ps(one, _mm256_div_ps(both, either)), closeness), PEN));
  return _mm256_movemask_ps(_mm256_or_ps(_mm256_cmp_ps(both, _mm256_mul_ps(min_iou, either), _CMP_NLT_UQ),
                                         _mm256_cmp_ps(squared, _mm256_mul_ps(G, G), _CMP_NGT_UQ)));
}

}  // namespace

bool CandidateGrid::wide_supported() {
  static const bool supported = __builtin_cpu_supports("avx2");
  return supported;
}

CCL_WIDE std::size_t CandidateGrid::find_inside_wide(const Detection* detections, std::size_t n,
                                                     std::size_t* n_longer) {
  std::size_t n_inside = 0, longer = 0;
  const std::uint32_t* start = cell_start_.data();
  const float* const f[kFields] = {field_[0].data(), field_[1].data(), field_[2].data(), field_[3].data()};
  const std::int32_t* const cell = detection_cell_.data();
  const std::size_t columns = std::size_t(columns_);
  std::int32_t* const listed_longer = longer_.data();
  Inside* const listed = inside_.data();
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 0, 1, 2, 3), four = _mm256_set1_epi32(4);
  for (std::size_t j = 0; j < n; ++j) {
    const Detection& d = detections[j];
    if (cell[j] < 0) continue;
    // The two runs of two home cells (see find_inside).
    const std::size_t c = std::size_t(cell[j]);
    const std::uint32_t s0 = start[c - columns - 1], s1 = start[c - 1];
    __m256i run_start, run_end;
    run_bounds(start, c, columns, &run_start, &run_end);
    const __m256 px = _mm256_set1_ps(d.centroid_x), py = _mm256_set1_ps(d.centroid_y);
    const __m256 x0 = two_rows(f[kX0] + s0, f[kX0] + s1), y0 = two_rows(f[kY0] + s0, f[kY0] + s1);
    const __m256 x1 = two_rows(f[kX1] + s0, f[kX1] + s1), y1 = two_rows(f[kY1] + s0, f[kY1] + s1);
    // The four-wide path's NaN-exact comparisons.
    const __m256 inside =
        _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(px, x0, _CMP_NLT_UQ), _mm256_cmp_ps(px, x1, _CMP_NGT_UQ)),
                      _mm256_and_ps(_mm256_cmp_ps(py, y0, _CMP_NLT_UQ), _mm256_cmp_ps(py, y1, _CMP_NGT_UQ)));
    const __m256i entry = _mm256_add_epi32(run_start, lane);
    const __m256 in_run = _mm256_castsi256_ps(_mm256_cmpgt_epi32(run_end, entry));
    const int pass = _mm256_movemask_ps(_mm256_and_ps(inside, in_run));
    const __m256i order = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(kPairOrder.lanes[pass])));
    const __m256i placed = _mm256_permutevar8x32_epi32(entry, order);
    const __m256i detection = _mm256_set1_epi32(std::int32_t(j));
    __m256i* in = reinterpret_cast<__m256i*>(listed + n_inside);
    _mm256_storeu_si256(in, _mm256_unpacklo_epi32(placed, detection));
    _mm256_storeu_si256(in + 1, _mm256_unpackhi_epi32(placed, detection));
    n_inside += std::size_t(__builtin_popcount(unsigned(pass)));
    // Listed when a run is longer than four (list_longer, from the vectors).
    listed_longer[longer] = std::int32_t(j);
    longer += !_mm256_testz_si256(_mm256_cmpgt_epi32(_mm256_sub_epi32(run_end, run_start), four), _mm256_set1_epi32(-1));
  }
  *n_longer = longer;
  return n_inside;
}

CCL_WIDE std::size_t CandidateGrid::find_costs_wide(const Detection* detections, std::size_t n_inside, float min_iou) {
  std::size_t count = 0;
  const std::int32_t* track = track_.data();
  const Predicted* predicted = predicted_.data();
  Candidate* pairs = pairs_.data();
  const __m256 MI = _mm256_set1_ps(min_iou);
  for (std::size_t i = 0; i < n_inside; i += 8) {
    const Inside* in = &inside_[i];
    std::int32_t t[8];
    const Predicted* p[8];
    const Detection* d[8];
#pragma GCC unroll 8
    for (int l = 0; l < 8; ++l) t[l] = track[in[l].entry], p[l] = &predicted[t[l]], d[l] = &detections[in[l].detection];
    float cost[8];
    const int real = i + 8 <= n_inside ? 255 : (1 << (n_inside - i)) - 1;
    const int pass = eight_pair_costs(p, d, MI, cost) & real;
#pragma GCC unroll 8
    for (int l = 0; l < 8; ++l) {
      pairs[count] = Candidate{cost[l], t[l], in[l].detection};
      count += (pass >> l) & 1;
    }
  }
  return count;
}

}  // namespace ccl::track
