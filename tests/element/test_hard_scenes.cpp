// cclblobsrc's hard scenes (issue 33): each is deterministic, and its GstCclTruthMeta is right,
// checked against pixels the test reads itself (renders with and without objects, without noise)
// and against the schedules written here by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <string>

#include "hard_frames.hpp"

namespace {

using hard::Frame;

constexpr int kW = 320, kH = 180;  // small and fast; the scenes scale with the frame
const char* const kScenes[] = {"gain-step", "ir-switch", "shadows", "sway", "stopped-object", "noise"};

double mean_luma(const Frame& f) {
  double sum = 0;
  for (guint8 v : f.y) sum += v;
  return sum / double(f.y.size());
}

TEST(HardScenes, DeterministicWithTruthOnEveryFrame) {
  for (const char* scene : kScenes) {
    const std::vector<Frame> a = hard::pull(scene, 30, kW, kH, "NV12", "seed=3"),
                             b = hard::pull(scene, 30, kW, kH, "NV12", "seed=3"),
                             other = hard::pull(scene, 30, kW, kH, "NV12", "seed=4");
    ASSERT_EQ(a.size(), 30u) << scene;
    ASSERT_EQ(b.size(), 30u) << scene;
    ASSERT_EQ(other.size(), 30u) << scene;
    for (std::size_t i = 0; i < a.size(); ++i) {
      ASSERT_TRUE(a[i].has_truth && a[i].has_lighting) << scene << " frame " << i << " lacks its truth";
      EXPECT_EQ(a[i].number, i) << scene;
      EXPECT_EQ(a[i].y, b[i].y) << scene << " frame " << i << " differs between two runs";
      EXPECT_EQ(a[i].u, b[i].u) << scene << " frame " << i << " differs between two runs";
    }
    EXPECT_TRUE(a[0].objects.empty()) << scene << ": frame 0 should be empty";
    EXPECT_NE(a[29].y, other[29].y) << scene << ": the seed changes nothing";
  }
}

// The existing scenes keep their luma in the new formats, with grey chroma.
TEST(HardScenes, BlobsAndDaylightAreTheSameLumaInEveryFormat) {
  for (const char* scene : {"blobs", "daylight"}) {
    const std::vector<Frame> gray = hard::pull(scene, 5, kW, kH, "GRAY8");
    for (const char* format : {"NV12", "I420"}) {
      const std::vector<Frame> yuv = hard::pull(scene, 5, kW, kH, format);
      ASSERT_EQ(yuv.size(), gray.size()) << scene << " " << format;
      for (std::size_t i = 0; i < yuv.size(); ++i) {
        EXPECT_EQ(yuv[i].y, gray[i].y) << scene << " " << format << " frame " << i;
        EXPECT_EQ(yuv[i].u, std::vector<guint8>(yuv[i].u.size(), 128)) << scene << " " << format;
        EXPECT_EQ(yuv[i].v, std::vector<guint8>(yuv[i].v.size(), 128)) << scene << " " << format;
      }
    }
  }
}

// Without noise, the pixels that objects (and their shadows) change all lie in the true boxes,
// and each object's and shadow's box is tight: each of its edges holds a changed pixel.
TEST(HardScenes, TruthBoxesAreTheDrawnObjects) {
  const int n = 260;  // at this size stopped-object's object stands from frame 69 to 168
  for (const char* scene : kScenes) {
    const std::vector<Frame> with = hard::pull(scene, n, kW, kH, "NV12", "noise=false"),
                             without = hard::pull(scene, n, kW, kH, "NV12", "noise=false draw-objects=false");
    ASSERT_EQ(with.size(), std::size_t(n)) << scene;
    ASSERT_EQ(without.size(), std::size_t(n)) << scene;
    int frames_with_objects = 0;
    for (int i = 0; i < n; ++i) {
      const Frame& f = with[i];
      EXPECT_TRUE(without[i].objects.empty() && without[i].shadows.empty()) << scene << " frame " << i;
      frames_with_objects += !f.objects.empty();
      auto differs = [&](int x, int y) { return f.luma(x, y) != without[i].luma(x, y); };
      long stray = 0;
      for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x)
          stray += differs(x, y) && !hard::inside_any(f.objects, x, y) && !hard::inside_any(f.shadows, x, y);
      EXPECT_EQ(stray, 0) << scene << " frame " << i << ": pixels changed outside every true box";
      auto tight = [&](const auto& b, const char* what) {
        ASSERT_TRUE(b.x >= 0 && b.y >= 0 && b.width > 0 && b.height > 0 && b.x + b.width <= kW && b.y + b.height <= kH)
            << scene << " frame " << i << ": " << what << " " << b.id << " not clipped to the frame";
        bool top = false, bottom = false, left = false, right = false;
        for (int x = b.x; x < b.x + b.width; ++x) top |= differs(x, b.y), bottom |= differs(x, b.y + b.height - 1);
        for (int y = b.y; y < b.y + b.height; ++y) left |= differs(b.x, y), right |= differs(b.x + b.width - 1, y);
        EXPECT_TRUE(top && bottom && left && right) << scene << " frame " << i << ": " << what << " " << b.id;
      };
      for (const GstCclTruthBox& b : f.objects) tight(b, "object");
      for (const GstCclTruthRegion& r : f.shadows) tight(r, "shadow");
    }
    EXPECT_GE(frames_with_objects, n / 2) << scene << ": objects are seldom in view";
  }
}

// +30 % at 100..102 (ramped over 3 frames), back at 200, -30 % at 300, back at 400.
double expected_gain(int n) {
  static const std::map<int, double> ramps = {{100, 1.1}, {101, 1.2}, {200, 1.2}, {201, 1.1},
                                              {300, 0.9}, {301, 0.8}, {400, 0.8}, {401, 0.9}};
  if (ramps.count(n)) return ramps.at(n);
  if (n < 102) return 1.0;
  if (n < 202) return 1.3;
  if (n < 302) return 1.0;
  if (n < 402) return 0.7;
  return 1.0;
}

TEST(HardScenes, GainStepScalesTheLumaOnSchedule) {
  const std::vector<Frame> f = hard::pull("gain-step", 420, kW, kH, "GRAY8", "noise=false draw-objects=false");
  ASSERT_EQ(f.size(), 420u);
  const double base = mean_luma(f[0]);
  for (int i = 0; i < 420; ++i) {
    EXPECT_NEAR(mean_luma(f[i]) / base, expected_gain(i), 0.003) << "frame " << i;
    EXPECT_NEAR(f[i].gain, expected_gain(i), 1e-9) << "frame " << i << ": the truth's luma-gain";
  }
}

// Night (150..349): luma = 0.6 x + 70 of the day's, chroma flat grey; day again at 350.
TEST(HardScenes, IrSwitchChangesContrastLevelAndColourAtOnce) {
  const std::vector<Frame> f = hard::pull("ir-switch", 352, kW, kH, "I420", "noise=false draw-objects=false");
  ASSERT_EQ(f.size(), 352u);
  const Frame &day = f[149], &night = f[150];
  int worst = 0;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x)
      worst = std::max(worst, std::abs(night.luma(x, y) - int(std::lround(0.6 * day.luma(x, y) + 70))));
  EXPECT_LE(worst, 1) << "night luma is not 0.6 x + 70 of the day's";
  EXPECT_EQ(night.u, std::vector<guint8>(night.u.size(), 128));
  EXPECT_EQ(night.v, std::vector<guint8>(night.v.size(), 128));
  EXPECT_NE(day.u, std::vector<guint8>(day.u.size(), 128)) << "the day has no colour";
  EXPECT_EQ(f[349].y, night.y);
  EXPECT_EQ(f[350].y, day.y) << "the day does not come back at 350";
  EXPECT_EQ(f[350].u, day.u);
  for (int i = 0; i < 352; ++i)
    EXPECT_EQ(bool(f[i].grey), i >= 150 && i < 350) << "frame " << i << ": the truth's grey";
}

// Shadow pixels (changed, in a shadow box, in no object box) are the ground's luma x 0.55 and keep
// its chroma exactly; each shadow touches the object that casts it.
TEST(HardScenes, ShadowsDarkenLumaAndKeepChroma) {
  const int n = 200;
  const std::vector<Frame> with = hard::pull("shadows", n, kW, kH, "NV12", "noise=false"),
                           without = hard::pull("shadows", n, kW, kH, "NV12", "noise=false draw-objects=false");
  ASSERT_EQ(with.size(), std::size_t(n));
  ASSERT_EQ(without.size(), std::size_t(n));
  long shadow_pixels = 0, wrong_luma = 0, wrong_chroma = 0, shadows = 0;
  for (int i = 0; i < n; ++i) {
    const Frame &f = with[i], &g = without[i];
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) {
        if (f.luma(x, y) == g.luma(x, y) || hard::inside_any(f.objects, x, y) || !hard::inside_any(f.shadows, x, y))
          continue;
        shadow_pixels++;
        wrong_luma += std::abs(f.luma(x, y) - 0.55 * g.luma(x, y)) > 1;
        if (x % 2 == 0 && y % 2 == 0)
          wrong_chroma += f.cu(x / 2, y / 2) != g.cu(x / 2, y / 2) || f.cv(x / 2, y / 2) != g.cv(x / 2, y / 2);
      }
    for (const GstCclTruthRegion& s : f.shadows) {
      shadows++;
      bool listed = false, attached = false;
      for (const GstCclTruthBox& o : f.objects) {
        listed |= o.id == s.id;
        attached |= o.id == s.id && s.x <= o.x + o.width && o.x <= s.x + s.width && s.y <= o.y + o.height &&
                    o.y <= s.y + s.height;
      }
      // An object just outside the frame may cast its shadow into it, from the edge; where shadows
      // overlap, the pixels are the first one's, so a shadow may be cut off by another.
      if (!listed) attached = s.x == 0 || s.y == 0 || s.x + s.width == kW || s.y + s.height == kH;
      for (const GstCclTruthRegion& o : f.shadows)
        attached |= o.id != s.id && s.x <= o.x + o.width && o.x <= s.x + s.width && s.y <= o.y + o.height &&
                    o.y <= s.y + s.height;
      EXPECT_TRUE(attached) << "frame " << i << ": shadow " << s.id << " at " << s.x << "," << s.y << " " << s.width
                            << "x" << s.height << " is not at its object";
    }
  }
  EXPECT_GT(shadows, n / 2);
  EXPECT_GT(shadow_pixels, 20000);
  EXPECT_EQ(wrong_luma, 0) << "of " << shadow_pixels << " shadow pixels";
  EXPECT_EQ(wrong_chroma, 0);
}

// Without objects, only the swaying patch changes, in almost every frame; it is clutter, no object.
TEST(HardScenes, SwayMovesOnlyTheClutter) {
  const int n = 60;
  const std::vector<Frame> f = hard::pull("sway", n, kW, kH, "NV12", "noise=false draw-objects=false");
  ASSERT_EQ(f.size(), std::size_t(n));
  int moving_frames = 0;
  for (int i = 1; i < n; ++i) {
    ASSERT_EQ(f[i].clutter.size(), 1u) << "frame " << i;
    EXPECT_TRUE(f[i].objects.empty());
    long changed = 0, stray = 0;
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) {
        const bool c = f[i].luma(x, y) != f[i - 1].luma(x, y);
        changed += c, stray += c && !hard::inside_any(f[i].clutter, x, y);
      }
    EXPECT_EQ(stray, 0) << "frame " << i;
    moving_frames += changed > 200;
  }
  EXPECT_GE(moving_frames, 50) << "the patch should move nearly every frame";
}

// Object 0 stands exactly 100 frames at one place (still 1..100), then moves; its ghost is listed
// from then on, at the box where it stood, its age counting the frames.
TEST(HardScenes, StoppedObjectStands100FramesThenLeavesAGhost) {
  const int n = 420;
  const std::vector<Frame> f = hard::pull("stopped-object", n, kW, kH, "GRAY8", "noise=false");
  ASSERT_EQ(f.size(), std::size_t(n));
  int first_still = -1, last_still = -1, first_ghost = -1;
  GstCclTruthBox stood{};
  for (int i = 0; i < n; ++i) {
    for (const GstCclTruthBox& b : f[i].objects) {
      if (b.id != 0 || b.still == 0) continue;
      if (first_still < 0) first_still = i, stood = b;
      EXPECT_EQ(last_still, i - 1 < first_still ? -1 : i - 1) << "frame " << i << ": the stop is not one run";
      last_still = i;
      EXPECT_EQ(int(b.still), i - first_still + 1) << "frame " << i;
      EXPECT_TRUE(b.x == stood.x && b.y == stood.y && b.width == stood.width && b.height == stood.height)
          << "frame " << i << ": moved while still";
      for (int y = b.y; y < b.y + b.height; ++y)
        for (int x = b.x; x < b.x + b.width; ++x)
          if (f[i].luma(x, y) != f[first_still].luma(x, y)) {
            ADD_FAILURE() << "frame " << i << ": the stopped object's pixels change at " << x << "," << y;
            y = b.y + b.height;
            break;
          }
    }
    for (const GstCclTruthRegion& g : f[i].ghosts) {
      if (first_ghost < 0) first_ghost = i;
      EXPECT_EQ(int(g.age), i - first_ghost) << "frame " << i;
      EXPECT_TRUE(g.x == stood.x && g.y == stood.y && g.width == stood.width && g.height == stood.height)
          << "frame " << i << ": the ghost is not where the object stood";
    }
  }
  ASSERT_GE(first_still, 1);
  EXPECT_EQ(last_still - first_still + 1, 100);
  EXPECT_EQ(first_ghost, last_still + 1);
  bool moved_on = false;
  for (const GstCclTruthBox& b : f[last_still + 1].objects) moved_on |= b.id == 0 && b.still == 0 && b.x > stood.x;
  EXPECT_TRUE(moved_on) << "the object does not move on after its stop";
}

// Sensor noise: scene=noise has sigma 4, the other hard scenes about 2.4; zero mean; new every frame.
TEST(HardScenes, NoiseHasTheSigmaTheScenesSay) {
  for (const auto& [scene, sigma] : std::map<std::string, double>{{"noise", 4.0}, {"shadows", 2.45}}) {
    const std::vector<Frame> noisy = hard::pull(scene, 4, kW, kH, "GRAY8", "draw-objects=false"),
                             clean = hard::pull(scene, 4, kW, kH, "GRAY8", "draw-objects=false noise=false");
    ASSERT_EQ(noisy.size(), 4u);
    ASSERT_EQ(clean.size(), 4u);
    for (int i = 0; i < 4; ++i) {
      double sum = 0, sq = 0;
      for (std::size_t p = 0; p < noisy[i].y.size(); ++p) {
        const double d = double(noisy[i].y[p]) - clean[i].y[p];
        sum += d, sq += d * d;
      }
      const double count = double(noisy[i].y.size()), mean = sum / count;
      EXPECT_NEAR(mean, 0, 0.05) << scene << " frame " << i;
      EXPECT_NEAR(std::sqrt(sq / count - mean * mean), sigma, 0.1) << scene << " frame " << i;
    }
    EXPECT_NE(noisy[1].y, noisy[2].y) << scene;
    EXPECT_EQ(clean[1].y, clean[2].y) << scene;
  }
}

}  // namespace
