// What today's foreground=motion makes of the hard scenes (issue 33), scored by hard_scenes.hpp and
// printed, not bounded yet: the bounds (at most 1 frame with a false object after a light change,
// no shadow as its own component, a ghost gone within N frames, no fragments) come with a
// foreground that meets them. The scorer itself is checked on hand-made frames.
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

// The two lines measured: the plain motion line and issue 33's best hand-tuned one.
const char* const kLines[] = {"cudaccl foreground=motion min-area=50",
                              "cudaccl foreground=motion motion-factor=2 open=1 close=3 min-area=50"};

void report(const hard::SceneScore& s) { std::printf("hard scene: %s\n", hard::summary(s).c_str()); }

// HARD_SCENE_SEED=n measures another seed (the README's numbers are seed 1's).
unsigned seed() {
  const char* s = std::getenv("HARD_SCENE_SEED");
  return s ? unsigned(std::strtoul(s, nullptr, 10)) : 1u;
}

hard::SceneScore run(const char* scene, const char* line, int n) {
  return hard::run(scene, line, n, 50, 60, 640, 360, seed());
}

TEST(HardSceneQuality, GainStep) {
  for (const char* line : kLines) {
    const hard::SceneScore s = run("gain-step", line, 500);
    EXPECT_EQ(s.frames, 500);
    EXPECT_EQ(s.change_frames, std::vector<int>({100, 200, 300, 400}));  // the scene's schedule, by hand
    report(s);
  }
}

TEST(HardSceneQuality, IrSwitch) {
  for (const char* line : kLines) {
    const hard::SceneScore s = run("ir-switch", line, 560);
    EXPECT_EQ(s.frames, 560);
    EXPECT_EQ(s.change_frames, std::vector<int>({150, 350, 550}));
    report(s);
  }
}

TEST(HardSceneQuality, Shadows) {
  for (const char* line : kLines) {
    const hard::SceneScore s = run("shadows", line, 300);
    EXPECT_EQ(s.frames, 300);
    report(s);
  }
}

TEST(HardSceneQuality, Sway) {
  for (const char* line : kLines) {
    const hard::SceneScore s = run("sway", line, 300);
    EXPECT_EQ(s.frames, 300);
    report(s);
  }
}

// At 640x360 the object stands from frame 128 to 227 and its ghost is listed until frame 495.
TEST(HardSceneQuality, StoppedObject) {
  for (const char* line : kLines) {
    const hard::SceneScore s = run("stopped-object", line, 520);
    EXPECT_EQ(s.frames, 520);
    EXPECT_EQ(s.still_frames, 100);
    EXPECT_EQ(s.ghost_lifetimes.size(), 1u);
    report(s);
  }
}

TEST(HardSceneQuality, Noise) {
  for (const char* line : kLines) {
    const hard::SceneScore s = run("noise", line, 300);
    EXPECT_EQ(s.frames, 300);
    report(s);
  }
}

}  // namespace
