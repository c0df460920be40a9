// The foreground stage: how plane 0 becomes the binary mask the labellers read. Every backend
// computes it with the same integer arithmetic, so masks and results are byte-identical.
//
// Foreground::Threshold: fg = I > threshold (the original contract).
// Foreground::Motion, the Sigma-Delta background estimation of Manzanera and Richefeu, per pixel,
// with M (background) and V (deviation) bytes kept across frames in a BackgroundModel:
//   first frame after a reset:  M = I, V = kMotionMinDeviation, fg = 0
//   every later frame:          M += sign(I - M)                  (after this, D = |I - M|)
//                               if D != 0: V += sign(min(N * D, 255) - V)
//                               V = clamp(V, kMotionMinDeviation, kMotionMaxDeviation)
//                               fg = D >= V
//   N = Options::motion_factor. M is updated before D is taken, V before fg is decided (paper order).
// Foreground::Adaptive, Sigma-Delta made selective, for real cameras: per pixel M, V and C (the
// frames in a row it was foreground), per stream t (frames since the reset, the first is 0) and R
// (frames of relearning left):
//   first frame after a reset:  M = I, V = kMotionMinDeviation, C = 0, fg = 0, R = 0
//   frame t > 0:                R = R' > 0 ? R' - 1 : (8 F' > 3 P ? kRelearnFrames : 0)
//                                   (R', F': the previous frame's R and foreground count, P: pixels)
//     if R > 0 (most of the frame changed at once: a light change):  M = L'(M), C = 0, fg = 0 (V kept)
//            where L' is the previous frame's light fit (fit_light below): the straight line through
//            its (M, I) pairs, so the background follows the light and no object is copied into it
//     else:  if C >= A: M = I, C = 0        (A = Options::absorb_frames: stopped objects and ghosts join)
//            u = C == 0 or (t % kForegroundUpdatePeriod == 0 and C < kStandingFrames)
//                (foreground pixels learn 16 times slower; standing ones wait for the absorption)
//            if u: M += sign(I - M)
//            D = |I - M|; if u and D != 0: V += sign(min(N D, 255) - V); V = clamp(V, floor, 255)
//            fg = D >= V;  C = fg ? min(C + 1, 255) : 0
//   F counts the frame's fg pixels before any morphology; the light fit's sums pair each pixel's I
//   with the M the frame wrote.
// Options::chroma (Adaptive, where ImageView::chroma is present; every backend): per
// chroma block (cx, cy) = (x / 2, y / 2) a background U_M, V_M and a deviation V_c, and per frame
// the sums of its (U_M, U) and (V_M, V) pairs, as the luma's. The frame after a reset (or the first
// with chroma): U_M = U, V_M = V, V_c = kChromaMinDeviation. A relearning frame: U_M = L_u'(U_M),
// V_M = L_v'(V_M), fit_light of the previous frame's sums, V_c kept. Any other frame, in order:
//   1. absorb:  U_M = U, V_M = V where a pixel of the block has C >= A (C as the previous frame left it)
//   2. changed: K = max(|U - U_M|, |V - V_M|) >= V_c
//   3. the luma step above: fg, C
//   4. gap:     G = fg, or fg within kChromaReach pixels on both sides (x - r..x - 1 and x + 1..x + r
//               in the row, or likewise in the column); fg |= K(block) and G   (colour joins parts)
//   5. shadow:  if has_colour(the previous frame's chroma sums) (an IR camera's grey night has none),
//               for every pixel with fg = 1, with this frame's I and M (as the step wrote it) and the
//               chroma model as step 1 left it:
//               I < M  and  16 I >= kShadowRatioLow M  and  16 I <= kShadowRatioHigh M
//               and |U - U_M| <= kShadowChroma  and  |V - V_M| <= kShadowChroma
//               and over the (2 kShadowRadius + 1)^2 window clipped at the edges (n pixels,
//               SI = sum I, SM = sum M): sum |I(p) SM - M(p) SI| <= kShadowTexture n SM
//               then fg = 0 (M, V, C and F stay as the step wrote them)
//   6. learn, per block: u = no pixel has C != 0, and (no pixel has G = 1 or t % kForegroundUpdatePeriod == 0)
//               if u: U_M += sign(U - U_M), V_M += sign(V - V_M)
//               D_c = max(|U - U_M|, |V - V_M|); if D_c != 0:
//               V_c += sign(min(kChromaFactor D_c, kChromaMaxDeviation) - V_c),
//               V_c = max(V_c, kChromaMinDeviation)      (every block: colour that keeps moving stops counting)
// Then, in every mode: opening (erode, then dilate) with a (2 open_radius + 1)^2 square, then
// closing (dilate, then erode) with a (2 close_radius + 1)^2 square, then erosion with a
// (2 shrink_radius + 1)^2 square. The square is clipped at the frame's edges: pixels outside the
// frame take no part (OpenCV's default border for morphology).
#pragma once

#include <cstdint>
#include <memory>

#include "ccl/types.hpp"

#if defined(__CUDACC__)
#define CCL_FOREGROUND_HOST_DEVICE __host__ __device__
#else
#define CCL_FOREGROUND_HOST_DEVICE
#endif

namespace ccl {

constexpr std::uint8_t kMotionMinDeviation = 2;    // V's floor: a still pixel needs D >= 2 to be foreground
constexpr std::uint8_t kMotionMaxDeviation = 255;  // V's ceiling
constexpr int kForegroundUpdatePeriod = 16;  // Adaptive: a foreground pixel's model moves every 16th frame
// Adaptive: a pixel foreground this many frames in a row (two slow turns) stands, and its model
// waits for absorb_frames: drifting on, a standing object's faintest bands would join the
// background first and split it.
constexpr int kStandingFrames = 2 * kForegroundUpdatePeriod;
constexpr int kRelearnFrames = 4;           // Adaptive: frames relearnt after a light change (a ramp of 3 + 1)
// Adaptive relearns when more than 3/8 of the previous frame was foreground (real traffic: < 0.28).
constexpr std::uint64_t kRelearnNumerator = 3, kRelearnDenominator = 8;

// The sums of one frame's (M, I) pairs that Adaptive keeps for the next frame.
struct LightSums {
  std::uint64_t m = 0, i = 0, mm = 0, mi = 0;
};

// M -> (gain M + offset) / 2^16, rounded, clamped to 0..255: the least-squares line of I on M, in
// fixed point (gain Q16, offset Q16) from sums scaled by 256 / pixels, so every backend computes
// the same integers. A flat background (no variance) gets gain 1 and the mean's offset.
struct LightFit {
  std::int64_t gain = 65536, offset = 0;
};

// A sum's mean over `pixels` (> 0), in Q8.
CCL_FOREGROUND_HOST_DEVICE inline std::int64_t q8_mean(std::uint64_t sum, std::uint64_t pixels) {
  return std::int64_t(sum * 256) / std::int64_t(pixels);
}

// The variance from the Q8 means of M and M^2, in Q8 level^2 (<= 2^24).
CCL_FOREGROUND_HOST_DEVICE inline std::int64_t q8_variance(std::int64_t mean_m, std::int64_t mean_mm) {
  return mean_mm - mean_m * mean_m / 256;
}

// The variance of the sums' M over `pixels` (> 0), in Q8 level^2.
CCL_FOREGROUND_HOST_DEVICE inline std::int64_t light_variance(const LightSums& s, std::uint64_t pixels) {
  return q8_variance(q8_mean(s.m, pixels), q8_mean(s.mm, pixels));
}

CCL_FOREGROUND_HOST_DEVICE inline LightFit fit_light(const LightSums& s, std::uint64_t pixels) {
  LightFit fit;
  if (pixels == 0) return fit;
  const std::int64_t mean_m = q8_mean(s.m, pixels), mean_i = q8_mean(s.i, pixels);
  const std::int64_t var = light_variance(s, pixels);
  const std::int64_t cov = q8_mean(s.mi, pixels) - mean_m * mean_i / 256;
  if (var > 256) fit.gain = cov * 65536 / var;  // Q16; a variance under 1 level^2 fits no slope
  if (fit.gain < 0) fit.gain = 0;
  if (fit.gain > 4 * 65536) fit.gain = 4 * 65536;
  fit.offset = mean_i * 256 - fit.gain * mean_m / 256;  // Q16
  return fit;
}

// has_colour from the four Q8 means (U_M's, U_M^2's, V_M's, V_M^2's), where they are computed apart.
CCL_FOREGROUND_HOST_DEVICE inline bool has_colour_of_means(std::int64_t u_m, std::int64_t u_mm, std::int64_t v_m,
                                                           std::int64_t v_mm) {
  return q8_variance(u_m, u_mm) + q8_variance(v_m, v_mm) > 256;
}

// Whether a frame's chroma background has colour to tell a shadow by: the variances of U_M and V_M
// (from the frame's sums, Q8 as in fit_light) add up to more than 1 level^2. An IR camera's night
// picture is grey: there a shadow test would take dark objects.
CCL_FOREGROUND_HOST_DEVICE inline bool has_colour(const LightSums& u, const LightSums& v, std::uint64_t blocks) {
  return blocks != 0 && has_colour_of_means(q8_mean(u.m, blocks), q8_mean(u.mm, blocks), q8_mean(v.m, blocks),
                                            q8_mean(v.mm, blocks));
}

CCL_FOREGROUND_HOST_DEVICE inline int apply_light(const LightFit& fit, int m) {
  const std::int64_t v = fit.gain * m + fit.offset + 32768;
  const std::int64_t level = v >= 0 ? v / 65536 : -1;  // division of a non-negative value only
  return level < 0 ? 0 : level > 255 ? 255 : int(level);
}

// Options::chroma's constants, measured on the hard scenes and highway (BENCHMARKS.md).
constexpr std::uint8_t kChromaMinDeviation = 7;  // V_c's floor: a block's colour must stray 7 levels
constexpr int kChromaFactor = 3;                 // V_c follows 3 D_c
constexpr std::uint8_t kChromaMaxDeviation = 36;  // V_c's ceiling: a colour 36 levels off always counts
constexpr int kChromaReach = 6;                  // the widest gap colour bridges, from each side
constexpr int kShadowRatioLow = 6, kShadowRatioHigh = 15;  // a shadow keeps 6/16..15/16 of the light
constexpr int kShadowChroma = 6;                 // and its colour within 6 levels
constexpr int kShadowRadius = 2, kShadowTexture = 3;  // and its texture: a mean residual <= 3 levels, 5x5
                                                      // (3x3 and 4 took the daylight scene's dark objects)

// Foreground::Adaptive as cudaccl's foreground=adaptive runs it, the one set measured on real
// traffic (BENCHMARKS.md): factor 3, shrink 1, and opening 1 and closing 2 where the caller left
// them at 0. Other modes are returned as they are.
inline Options adaptive_recipe(Options options) {
  if (options.foreground != Foreground::Adaptive) return options;
  options.motion_factor = 3;
  if (options.open_radius == 0) options.open_radius = 1;
  if (options.close_radius == 0) options.close_radius = 2;
  options.shrink_radius = 1;
  return options;
}

// Whether a foreground mode keeps per-pixel state across frames.
CCL_FOREGROUND_HOST_DEVICE inline bool uses_background_model(Foreground mode) { return mode != Foreground::Threshold; }

// Whether a frame needs the foreground stage at all: the default (threshold, no morphology) labels
// plane 0 directly, on every backend.
inline bool foreground_stage_needed(const Options& options) {
  return uses_background_model(options.foreground) || options.open_radius > 0 || options.close_radius > 0 ||
         options.shrink_radius > 0;
}

// R of a frame from the previous frame's R and foreground count (the formula above), every backend.
CCL_FOREGROUND_HOST_DEVICE inline int next_relearn_frames(int previous_relearn, std::uint64_t previous_foreground, std::uint64_t pixels) {
  if (previous_relearn > 0) return previous_relearn - 1;
  return kRelearnDenominator * previous_foreground > kRelearnNumerator * pixels ? kRelearnFrames : 0;
}

// The per-pixel state of Foreground::Motion for one stream. Analyzers that label frames of one
// stream share one model (the element's frames in flight do), and must be submitted in frame
// order: each frame's update sees the previous frame's. The model sizes itself on the first frame
// after a reset; a frame of another size, or of the other mode (Motion, Adaptive), resets it.
class BackgroundModel {
 public:
  virtual ~BackgroundModel() = default;
  virtual const char* backend_name() const = 0;
  // The next frame starts the model afresh (caps change, flush, DISCONT).
  virtual void reset() = 0;
  // Frames the model has seen since the last reset (the first one initialises it).
  virtual std::uint64_t frames_seen() const = 0;
};

// Host memory; for the CPU backend. make_cuda_background_model() is in ccl/cuda_analyzer.hpp.
std::shared_ptr<BackgroundModel> make_cpu_background_model();

}  // namespace ccl
