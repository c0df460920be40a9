// What the foreground lines make of the hard scenes (issue 33), scored by hard_scenes.hpp and
// printed. The recommended line, foreground=adaptive chroma=true (the scenes are NV12), with and
// without join-parts=true, is bounded where it meets issue 33: at most 1 frame with a false object
// after a light change, no shadow as its own component, a stopped object reported while it stands
// and its ghost gone within absorb-frames (plus the frames its leaving takes), no false object on
// noise. The same line without colour (what GRAY8 frames get) holds all but the shadows; all are
// held at the README's fragment counts (seed 1; issue 33 aims at 0). The scorer is checked on
// hand-made frames.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "hard_scenes.hpp"

namespace {

using hard::Frame;

ccl::Component component(int x, int y, int w, int h, std::uint32_t area) {
  ccl::Component c{};
  c.x = x, c.y = y, c.width = w, c.height = h, c.area = area;
  return c;
}

TEST(HardSceneScore, CountsFalseShadowAndFragmentComponents) {
  Frame f;
  f.objects = {{0, 10, 10, 20, 20}};
  f.shadows = {{0, 30, 25, 15, 10, 0}};
  f.components = {component(12, 12, 8, 8, 60), component(22, 22, 6, 6, 30),  // two parts of the object, one small
                  component(100, 50, 10, 10, 80),                            // nowhere: false
                  component(31, 26, 12, 8, 70),                              // on the shadow only
                  component(15, 15, 12, 12, 120)};                           // the object's second part
  const hard::FrameScore s = hard::score_frame(f, 50);
  EXPECT_EQ(s.false_objects, 2);
  EXPECT_EQ(s.shadow_components, 1);
  EXPECT_EQ(s.fragmented_objects, 1);
  EXPECT_EQ(s.ghost_components, 0);
  f.components.pop_back();
  EXPECT_EQ(hard::score_frame(f, 50).fragmented_objects, 0) << "a part under min-area is no fragment";
  EXPECT_EQ(s.merged_components, 0);
}

TEST(HardSceneScore, CountsComponentsHoldingTwoObjectsApart) {
  Frame f;
  f.objects = {{0, 10, 10, 20, 20}, {0, 40, 10, 20, 20}, {0, 10, 30, 20, 10}};  // the third touches the first
  f.components = {component(10, 10, 50, 20, 700)};
  EXPECT_EQ(hard::score_frame(f, 50).merged_components, 1);
  f.components = {component(10, 10, 20, 30, 500)};  // the first and the third: touching, so no false join
  EXPECT_EQ(hard::score_frame(f, 50).merged_components, 0);
  f.components = {component(10, 10, 35, 20, 500)};  // 5 of the second's 20 columns
  EXPECT_EQ(hard::score_frame(f, 50).merged_components, 0);
}

TEST(HardSceneScore, FindsLightChangesAndGhostLifetimes) {
  std::vector<Frame> frames(12);
  const double gains[] = {1, 1, 1, 1.1, 1.2, 1.3, 1.3, 1.3, 1.3, 1.3, 1.3, 1.3};
  for (int i = 0; i < 12; ++i) frames[i].gain = gains[i];
  frames[4].components = {component(0, 0, 10, 10, 100)};  // false, in the ramp
  frames[7].components = {component(0, 0, 10, 10, 100)};
  for (int i = 6; i < 11; ++i) frames[i].ghosts = {{0, 50, 50, 10, 10, std::uint32_t(i - 6)}};
  frames[6].components.push_back(component(50, 50, 10, 10, 100));
  frames[7].components.push_back(component(51, 51, 8, 8, 64));
  const hard::SceneScore s = hard::score(frames, 50, 0);
  EXPECT_EQ(s.change_frames, std::vector<int>({3}));
  EXPECT_EQ(s.false_frames_after_change, std::vector<int>({3}));  // frames 4, 6 (the ghost) and 7
  EXPECT_EQ(s.false_frames_before_first_change, 0);
  EXPECT_EQ(s.worst_after_change(), 3);
  EXPECT_EQ(s.ghost_lifetimes, std::vector<int>({2}));
  EXPECT_EQ(s.longest_ghost(), 2);
  EXPECT_EQ(s.ghost_cleared, std::vector<bool>({true}));
}

// The lines measured: the plain motion line, issue 33's best hand-tuned one, the recommended one
// without colour (GRAY8's), and the recommended one.
const char* const kLumaLine = "cudaccl foreground=adaptive min-area=50";
const char* const kRecommended = "cudaccl foreground=adaptive chroma=true min-area=50";
const char* const kJoined = "cudaccl foreground=adaptive chroma=true min-area=50 join-parts=true";
const char* const kLines[] = {"cudaccl foreground=motion min-area=50",
                              "cudaccl foreground=motion motion-factor=2 open=1 close=3 min-area=50", kLumaLine,
                              kRecommended, kJoined};
bool luma_only(const char* line) { return std::string(line) == kLumaLine; }
bool joined(const char* line) { return std::string(line) == kJoined; }
// The recommended line, and the same with join-parts=true: the same bounds, their own fragments.
bool recommended(const char* line) { return std::string(line) == kRecommended || joined(line); }

void report(const hard::SceneScore& s) { std::printf("hard scene: %s\n", hard::summary(s).c_str()); }

// HARD_SCENE_SEED=n measures another seed (the README's numbers are seed 1's).
unsigned seed() {
  const char* s = std::getenv("HARD_SCENE_SEED");
  return s ? unsigned(std::strtoul(s, nullptr, 10)) : 1u;
}

// Thousands of frames through three lines: minutes under valgrind or the sanitizers, where the
// scenes' truth tests still run; the plain build asserts the bounds (the 1.26 and aarch64 targets
// leave these scores to it: tools/test-126.sh, tools/test-arm64.sh).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#define SKIP_UNDER_VALGRIND() \
  if (kSanitized || elcheck::under_valgrind()) GTEST_SKIP() << "long pipelines; run in the plain build"

// What the README says the recommended line still misses (seed 1): frames with a fragmented
// object, and with a shadow or clutter component, held from getting worse (issue 33 aims at 0).
void expect_no_worse_than_readme(const hard::SceneScore& s, int fragments, int shadows = 0, int clutter = 0) {
  if (seed() != 1) return;
  EXPECT_LE(s.frames_with_fragment, fragments) << hard::summary(s);
  EXPECT_LE(s.frames_with_shadow_component, shadows) << hard::summary(s);
  EXPECT_LE(s.frames_with_clutter_component, clutter) << hard::summary(s);
}

hard::SceneScore run(const char* scene, const char* line, int n) {
  return hard::run(scene, line, n, 50, 60, 640, 360, seed());
}

TEST(HardSceneQuality, GainStep) {
  SKIP_UNDER_VALGRIND();
  for (const char* line : kLines) {
    const hard::SceneScore s = run("gain-step", line, 500);
    EXPECT_EQ(s.frames, 500);
    EXPECT_EQ(s.change_frames, std::vector<int>({100, 200, 300, 400}));  // the scene's schedule, by hand
    report(s);
    if (luma_only(line)) {
      EXPECT_LE(s.worst_after_change(), 1) << hard::summary(s);
      EXPECT_EQ(s.false_frames_before_first_change, 0) << hard::summary(s);
      expect_no_worse_than_readme(s, 38);
    }
    if (recommended(line)) {
      EXPECT_LE(s.worst_after_change(), 1) << hard::summary(s);
      EXPECT_EQ(s.false_frames_before_first_change, 0) << hard::summary(s);
      expect_no_worse_than_readme(s, joined(line) ? 2 : 4);
    }
  }
}

TEST(HardSceneQuality, IrSwitch) {
  SKIP_UNDER_VALGRIND();
  for (const char* line : kLines) {
    const hard::SceneScore s = run("ir-switch", line, 560);
    EXPECT_EQ(s.frames, 560);
    EXPECT_EQ(s.change_frames, std::vector<int>({150, 350, 550}));
    report(s);
    if (luma_only(line)) {
      EXPECT_LE(s.worst_after_change(), 1) << hard::summary(s);
      expect_no_worse_than_readme(s, 165);
    }
    if (recommended(line)) {  // at night the colour is grey: the fragments left are the night's
      EXPECT_LE(s.worst_after_change(), 1) << hard::summary(s);
      expect_no_worse_than_readme(s, joined(line) ? 44 : 130);
    }
  }
}

TEST(HardSceneQuality, Shadows) {
  SKIP_UNDER_VALGRIND();
  for (const char* line : kLines) {
    const hard::SceneScore s = run("shadows", line, 300);
    EXPECT_EQ(s.frames, 300);
    report(s);
    if (luma_only(line)) expect_no_worse_than_readme(s, 0, 17);
    if (recommended(line)) {  // every seed: no shadow of its own, nothing false
      EXPECT_EQ(s.frames_with_shadow_component, 0) << hard::summary(s);
      EXPECT_EQ(s.frames_with_false_object, 0) << hard::summary(s);
      expect_no_worse_than_readme(s, 0);
    }
  }
}

TEST(HardSceneQuality, Sway) {
  SKIP_UNDER_VALGRIND();
  for (const char* line : kLines) {
    const hard::SceneScore s = run("sway", line, 300);
    EXPECT_EQ(s.frames, 300);
    report(s);
    if (luma_only(line)) expect_no_worse_than_readme(s, 28, 0, 49);
    if (recommended(line)) expect_no_worse_than_readme(s, 0, 0, 50);
  }
}

// At 640x360 the object stands from frame 128 to 227 and its ghost is listed until frame 495.
TEST(HardSceneQuality, StoppedObject) {
  SKIP_UNDER_VALGRIND();
  for (const char* line : kLines) {
    const hard::SceneScore s = run("stopped-object", line, 520);
    EXPECT_EQ(s.frames, 520);
    EXPECT_EQ(s.still_frames, 100);
    EXPECT_EQ(s.ghost_lifetimes.size(), 1u);
    report(s);
    if (luma_only(line)) {  // absorb-frames is 100, longer than the stop: reported all along
      EXPECT_GE(s.still_frames_detected, 95) << hard::summary(s);
      // each pixel it uncovers is a ghost for at most 100 frames; uncovering its place takes it
      // under 20 frames (under 60 pixels wide, leaving at 3 pixels a frame)
      EXPECT_LE(s.longest_ghost(), 100 + 20) << hard::summary(s);
      EXPECT_EQ(s.ghost_cleared, std::vector<bool>({true})) << hard::summary(s);
      expect_no_worse_than_readme(s, 25);
    }
    if (recommended(line)) {
      EXPECT_GE(s.still_frames_detected, 95) << hard::summary(s);
      EXPECT_LE(s.longest_ghost(), 100 + 20) << hard::summary(s);
      EXPECT_EQ(s.ghost_cleared, std::vector<bool>({true})) << hard::summary(s);
      expect_no_worse_than_readme(s, joined(line) ? 0 : 11);
    }
  }
}

TEST(HardSceneQuality, Noise) {
  SKIP_UNDER_VALGRIND();
  for (const char* line : kLines) {
    const hard::SceneScore s = run("noise", line, 300);
    EXPECT_EQ(s.frames, 300);
    report(s);
    if (luma_only(line)) {
      EXPECT_EQ(s.frames_with_false_object, 0) << hard::summary(s);
      expect_no_worse_than_readme(s, 106);
    }
    if (recommended(line)) {
      EXPECT_EQ(s.frames_with_false_object, 0) << hard::summary(s);
      expect_no_worse_than_readme(s, 0);
    }
  }
}

}  // namespace
