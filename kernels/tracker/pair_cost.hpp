// The association test of the tracker for four (track, detection) pairs at once, SSE2: the
// candidate grid's second stage and its big-region path share it, so every pair's cost has the same
// bits. Also the four-detection centroid load the grid's cell pass uses.
#pragma once

#include <emmintrin.h>  // SSE2: every x86-64

#include "tracker/geometry.hpp"

namespace ccl::track {

// The centroids of four detections as (x0 x1 x2 x3) and (y0 y1 y2 y3): an 8-byte load each
// (unaligned, never past the detection).
inline void four_centroids(const Detection* const d[4], __m128* x, __m128* y) {
  auto centroid = [](const Detection* q) {  // (cx, cy, 0, 0)
    return _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&q->centroid_x)));
  };
  const __m128 c01 = _mm_unpacklo_ps(centroid(d[0]), centroid(d[1]));  // cx0 cx1 cy0 cy1
  const __m128 c23 = _mm_unpacklo_ps(centroid(d[2]), centroid(d[3]));
  *x = _mm_movelh_ps(c01, c23), *y = _mm_movehl_ps(c23, c01);
}

// The gate and cost of four pairs whose centroids lie in their tracks' regions: a pair passes when
// its IoU >= min_iou or its centroid distance <= gate; cost = (1 - IoU) + min(distance / gate, 1) +
// penalty. Every operation is the scalar one in the same order (std::min(a, b) is _mm_min_ps(b, a),
// std::max(a, b) _mm_max_ps(b, a), comparisons NaN-exact), so the floats are those of one pair at a time.
// Returns the passing lanes as a 4-bit mask; costs go to cost[0..3]. Always inlined: a call passes
// the pointer arrays and the costs through the stack.
[[gnu::always_inline]] inline int four_pair_costs(const Predicted* const p[4], const Detection* const d[4],
                                                  __m128 min_iou, float* cost) {
  // Predictions: two 16-byte rows each, transposed to (x, y, w, h) and (cx, cy, gate, penalty).
  __m128 X = _mm_loadu_ps(&p[0]->box.x), Y = _mm_loadu_ps(&p[1]->box.x);
  __m128 W = _mm_loadu_ps(&p[2]->box.x), H = _mm_loadu_ps(&p[3]->box.x);
  _MM_TRANSPOSE4_PS(X, Y, W, H);
  __m128 CX = _mm_loadu_ps(&p[0]->centroid_x), CY = _mm_loadu_ps(&p[1]->centroid_x);
  __m128 G = _mm_loadu_ps(&p[2]->centroid_x), PEN = _mm_loadu_ps(&p[3]->centroid_x);
  _MM_TRANSPOSE4_PS(CX, CY, G, PEN);
  __m128 DX = _mm_loadu_ps(&d[0]->box.x), DY = _mm_loadu_ps(&d[1]->box.x);
  __m128 DW = _mm_loadu_ps(&d[2]->box.x), DH = _mm_loadu_ps(&d[3]->box.x);
  _MM_TRANSPOSE4_PS(DX, DY, DW, DH);
  __m128 DCX, DCY;
  four_centroids(d, &DCX, &DCY);

  const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
  const __m128 w = _mm_max_ps(_mm_sub_ps(_mm_min_ps(_mm_add_ps(DX, DW), _mm_add_ps(X, W)), _mm_max_ps(DX, X)), zero);
  const __m128 h = _mm_max_ps(_mm_sub_ps(_mm_min_ps(_mm_add_ps(DY, DH), _mm_add_ps(Y, H)), _mm_max_ps(DY, Y)), zero);
  const __m128 both = _mm_mul_ps(w, h);
  const __m128 either = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(W, H), _mm_mul_ps(DW, DH)), both);
  const __m128 dx = _mm_sub_ps(DCX, CX), dy = _mm_sub_ps(DCY, CY);
  const __m128 squared = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy));
  const __m128 gated = _mm_cmpgt_ps(G, zero);
  const __m128 near = _mm_min_ps(one, _mm_div_ps(_mm_sqrt_ps(squared), G));
  const __m128 closeness = _mm_or_ps(_mm_and_ps(gated, near), _mm_andnot_ps(gated, one));
  _mm_storeu_ps(cost, _mm_add_ps(_mm_add_ps(_mm_sub_ps(one, _mm_div_ps(both, either)), closeness), PEN));
  return _mm_movemask_ps(_mm_or_ps(_mm_cmpnlt_ps(both, _mm_mul_ps(min_iou, either)),
                                   _mm_cmpngt_ps(squared, _mm_mul_ps(G, G))));
}

}  // namespace ccl::track
