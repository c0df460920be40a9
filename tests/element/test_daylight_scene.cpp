// cclblobsrc scene=daylight (issue 23's test scene): its GstCclTruthMeta boxes are where the
// objects are drawn, no global threshold separates the objects from the background, and the
// foreground=motion chain (oracle Sigma-Delta, factor 4, open 1, min-area 50) finds every object
// and nothing else in at least 95 % of the frames after a 30-frame warm-up.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "ccl/cuda_analyzer.hpp"
#include "daylight_frames.hpp"
#include "motion_chain.hpp"
#include "threshold_separation.hpp"

namespace {

using scene::Shot;

constexpr int kWidth = 640, kHeight = 360;  // cclblobsrc's default size, the one the demo shows

TEST(DaylightScene, DeterministicAndFramedByItsTruth) {
  const std::vector<Shot> a = scene::pull(12, 160, 90, "seed=5"), b = scene::pull(12, 160, 90, "seed=5");
  const std::vector<Shot> other = scene::pull(12, 160, 90, "seed=6");
  ASSERT_EQ(a.size(), 12u);
  ASSERT_EQ(b.size(), 12u);
  ASSERT_EQ(other.size(), 12u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_TRUE(a[i].has_truth) << "frame " << i << " lacks GstCclTruthMeta";
    EXPECT_EQ(a[i].number, i);
    EXPECT_EQ(a[i].frame.pixels, b[i].frame.pixels) << "frame " << i << " differs between two runs";
  }
  EXPECT_NE(a[11].frame.pixels, other[11].frame.pixels) << "the seed changes nothing";
}

// The truth rides along through cudaccl, so an application can score the element's GstCclMeta.
TEST(DaylightScene, TruthSurvivesCudaccl) {
  const std::vector<Shot> direct = scene::pull(40, 160, 90, "seed=4");
  const std::vector<Shot> through = scene::pull(40, 160, 90, "seed=4", "cudaccl backend=cpu threshold=128 ! ");
  ASSERT_EQ(through.size(), direct.size());
  for (std::size_t i = 0; i < through.size(); ++i) {
    ASSERT_TRUE(through[i].has_truth) << "frame " << i << " lost its GstCclTruthMeta in cudaccl";
    EXPECT_EQ(through[i].number, direct[i].number);
    ASSERT_EQ(through[i].boxes.size(), direct[i].boxes.size()) << "frame " << i;
    for (std::size_t j = 0; j < direct[i].boxes.size(); ++j)
      EXPECT_EQ(std::memcmp(&through[i].boxes[j], &direct[i].boxes[j], sizeof(GstCclTruthBox)), 0) << "frame " << i;
    EXPECT_EQ(through[i].n_ccl_metas, 1) << "frame " << i << " has no GstCclMeta";
  }
}

// Pixels that differ from the same frame rendered without objects all lie inside the true boxes,
// and every box is tight: each of its four edges holds such a pixel.
TEST(DaylightScene, TruthBoxesAreTheDrawnObjects) {
  const int n = 240;
  const std::vector<Shot> with = scene::pull(n, kWidth, kHeight),
                          without = scene::pull(n, kWidth, kHeight, "draw-objects=false");
  ASSERT_EQ(with.size(), std::size_t(n));
  ASSERT_EQ(without.size(), std::size_t(n));
  EXPECT_TRUE(with[0].boxes.empty()) << "frame 0 should be empty, so a background model starts clean";
  std::size_t most_in_view = 0, border_boxes = 0;
  std::map<guint, GstCclTruthBox> previous;
  for (int i = 0; i < n; ++i) {
    const Shot& s = with[i];
    ASSERT_TRUE(s.has_truth) << "frame " << i;
    EXPECT_TRUE(without[i].has_truth && without[i].boxes.empty()) << "frame " << i << " without objects has boxes";
    most_in_view = std::max(most_in_view, s.boxes.size());
    auto differs = [&](int x, int y) { return s.frame.at(x, y) != without[i].frame.at(x, y); };
    long stray = 0;
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x) stray += differs(x, y) && !scene::inside_any(s.boxes, x, y);
    EXPECT_EQ(stray, 0) << "frame " << i << ": pixels changed outside every true box";
    std::map<guint, GstCclTruthBox> now;
    for (const GstCclTruthBox& b : s.boxes) {
      ASSERT_TRUE(b.x >= 0 && b.y >= 0 && b.width > 0 && b.height > 0 && b.x + b.width <= kWidth &&
                  b.y + b.height <= kHeight)
          << "frame " << i << ": box " << b.id << " not clipped to the frame";
      bool top = false, bottom = false, left = false, right = false;
      for (int x = b.x; x < b.x + b.width; ++x) top |= differs(x, b.y), bottom |= differs(x, b.y + b.height - 1);
      for (int y = b.y; y < b.y + b.height; ++y) left |= differs(b.x, y), right |= differs(b.x + b.width - 1, y);
      EXPECT_TRUE(top && bottom && left && right) << "frame " << i << ": box " << b.id << " is not tight";
      border_boxes += b.x == 0 || b.y == 0 || b.x + b.width == kWidth || b.y + b.height == kHeight;
      // Whole objects (away from the edges) move 1..8 pixels a frame.
      auto p = previous.find(b.id);
      const bool whole = b.x > 0 && b.y > 0 && b.x + b.width < kWidth && b.y + b.height < kHeight;
      if (p != previous.end() && whole && p->second.width == b.width && p->second.height == b.height) {
        const int step = std::max(std::abs(b.x - p->second.x), std::abs(b.y - p->second.y));
        EXPECT_TRUE(step >= 1 && step <= 8) << "frame " << i << ": object " << b.id << " moved " << step;
      }
      now[b.id] = b;
    }
    previous = now;
  }
  EXPECT_GE(most_in_view, 5u) << "too few objects in view at once";
  EXPECT_GT(border_boxes, 0u) << "no object ever entered or left the frame";
}

// The criterion can say yes: bright boxes over a dark frame are separated by t = 128.
TEST(DaylightScene, SeparationCriterionAcceptsTheBlobsCase) {
  frames::Frame f = frames::blank("dark with bright boxes", 64, 48);
  for (auto& v : f.pixels) v = 40;
  const std::vector<GstCclTruthBox> boxes = {{0, 5, 5, 10, 12}, {1, 40, 20, 16, 9}};
  for (const GstCclTruthBox& b : boxes)
    for (int y = b.y; y < b.y + b.height; ++y)
      for (int x = b.x; x < b.x + b.width; ++x) f.at(x, y) = 200;
  EXPECT_TRUE(scene::ThresholdJudge(f, boxes).judge(128).separates());
  EXPECT_FALSE(scene::ThresholdJudge(f, boxes).judge(220).separates());
}

// Every 10th frame from 30 on, with a sizeable object in view: no t in 0..254 separates.
TEST(DaylightScene, NoGlobalThresholdSeparatesTheObjects) {
  for (const char* seed : {"seed=1", "seed=2"}) {
    const std::vector<Shot> shots = scene::pull(300, kWidth, kHeight, seed);
    ASSERT_EQ(shots.size(), 300u);
    int judged = 0;
    double tightest = 1;  // over frames: the least outside share of a threshold that finds every object
    for (std::size_t i = 30; i < shots.size(); i += 10) {
      bool any = false;
      for (const GstCclTruthBox& b : shots[i].boxes) any = any || scene::sizeable(b);
      if (!any) continue;
      judged++;
      const scene::ThresholdJudge judge(shots[i].frame, shots[i].boxes);
      for (int t = 0; t <= 254; ++t)
        if (judge.judge(t).worst_object_share >= scene::kMinObjectShare)
          tightest = std::min(tightest, judge.judge(t).outside_share);
      const std::vector<int> ts = scene::separating_thresholds(shots[i].frame, shots[i].boxes);
      EXPECT_TRUE(ts.empty()) << seed << " frame " << i << ": threshold " << ts.front() << " separates the objects";
    }
    std::printf(
        "daylight %s: %d frames judged; a threshold finding every object marks at least %.1f %% of the "
        "background (2 %% would separate)\n",
        seed, judged, 100 * tightest);
    EXPECT_GE(judged, 20) << seed;
  }
}

// The foreground=motion chain, on the oracles: share of frames after warm-up where it finds every
// sizeable object and nothing else. Measured at 640x360: 98.4..100 % over seeds 1..10 (at 320x240
// 95.9..99.2 %, at 1280x720 98.6..100 %, seeds 1..3); most misses are objects leaving the frame,
// whose visible rest the model has absorbed. SCENE_VERBOSE=1 prints every failing frame.
TEST(DaylightScene, MotionChainFindsTheObjects) {
  // 1,200 frames through the chain and the oracles: a quarter of an hour of valgrind's element run.
  if (elcheck::under_valgrind()) GTEST_SKIP() << "long pipelines; run in the plain build";
  constexpr int kFrames = 400, kWarmUp = 30;
  constexpr double kRequiredShare = 0.95;
  for (const char* seed : {"seed=1", "seed=2", "seed=3"}) {
    const std::vector<Shot> shots = scene::pull(kFrames, kWidth, kHeight, seed);
    ASSERT_EQ(shots.size(), std::size_t(kFrames));
    oracle::SigmaDelta model;
    int judged = 0, passed = 0;
    std::string first_failure;
    for (int i = 0; i < kFrames; ++i) {
      const std::string why = scene::chain_verdict(model, shots[i], scene::ChainSettings{});
      if (i < kWarmUp) continue;
      judged++;
      passed += why.empty();
      if (!why.empty() && std::getenv("SCENE_VERBOSE")) std::printf("%s frame %d: %s\n", seed, i, why.c_str());
      if (!why.empty() && first_failure.empty()) first_failure = "frame " + std::to_string(i) + ": " + why;
    }
    const double share = double(passed) / judged;
    std::printf("daylight %s: motion chain passes %d of %d frames after warm-up (%.1f %%)%s%s\n", seed, passed, judged,
                100 * share, first_failure.empty() ? "" : "; first failure: ", first_failure.c_str());
    EXPECT_GE(share, kRequiredShare) << seed << ": " << first_failure;
  }
}

// The element itself (CPU backend everywhere, the CUDA backend where a device is usable):
// cudaccl foreground=motion open=1 min-area=50 passes exactly the frames the oracle chain passes.
void expect_element_passes_as_the_oracle(const char* backend) {
  constexpr int kFrames = 200, kWarmUp = 30;
  const std::string element = std::string("cudaccl backend=") + backend + " foreground=motion open=1 min-area=50 ! ";
  const std::vector<Shot> shots = scene::pull(kFrames, kWidth, kHeight, "seed=1", element.c_str());
  ASSERT_EQ(shots.size(), std::size_t(kFrames));
  oracle::SigmaDelta model;
  int judged = 0, passed = 0;
  for (int i = 0; i < kFrames; ++i) {
    ASSERT_EQ(shots[i].n_ccl_metas, 1) << "frame " << i;
    const std::string verdict = scene::frame_verdict(shots[i].boxes, shots[i].ccl.components);
    const std::string oracle_chain = scene::chain_verdict(model, shots[i], scene::ChainSettings{});
    EXPECT_EQ(verdict, oracle_chain) << "frame " << i;
    if (i < kWarmUp) continue;
    judged++;
    passed += verdict.empty();
  }
  std::printf("daylight seed=1 through cudaccl backend=%s: %d of %d frames after warm-up pass\n", backend, passed,
              judged);
  EXPECT_GE(double(passed) / judged, 0.95);
}

TEST(DaylightScene, CudacclMotionFindsTheObjectsAsTheOracleDoes) { expect_element_passes_as_the_oracle("cpu"); }

TEST(DaylightScene, CudacclMotionOnTheGpuFindsTheObjectsAsTheOracleDoes) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  expect_element_passes_as_the_oracle("cuda");
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

// The daylight scene is grey: chroma=true has no colour to join parts by and no shadow test to run
// (an IR camera's night), so its components are chroma=false's, frame by frame. A shadow test
// without that colour gate, with a 3x3 window and tau 4, took parts of its dark objects.
TEST(DaylightScene, ChromaChangesNothingOnAGreyPicture) {
  const std::string line = "cudaccl backend=cpu foreground=adaptive min-area=50 ";
  const std::vector<Shot> plain = scene::pull(120, 320, 240, "", line + "! ", "NV12");
  const std::vector<Shot> colour = scene::pull(120, 320, 240, "", line + "chroma=true ! ", "NV12");
  ASSERT_EQ(plain.size(), 120u);
  ASSERT_EQ(colour.size(), 120u);
  std::size_t components = 0;
  for (std::size_t i = 0; i < plain.size(); ++i) {
    ASSERT_EQ(plain[i].ccl.components.size(), colour[i].ccl.components.size()) << "frame " << i;
    for (std::size_t k = 0; k < plain[i].ccl.components.size(); ++k) {
      const ccl::Component &a = plain[i].ccl.components[k], &b = colour[i].ccl.components[k];
      EXPECT_TRUE(a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height && a.area == b.area)
          << "frame " << i << " component " << k;
    }
    components += plain[i].ccl.components.size();
  }
  EXPECT_GT(components, 200u) << "the scene's objects are found";
}

}  // namespace
