// The hard scenes of cclblobsrc (issue 33): a daylight-like street (textured background with
// colour, textured coloured objects crossing it) plus one case a motion foreground must survive: a
// global gain step, an IR day/night switch, cast shadows, a swaying textured patch, an object that
// stops for 100 frames then leaves, or strong sensor noise. Plain C++, no GStreamer: the frame
// number alone drives it, and every case comes with its exact ground truth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ccl_daylight_scene.h"

namespace ccl_demo {

enum class HardCase { GainStep, IrSwitch, Shadows, Sway, StoppedObject, Noise };

// A region of the truth that is not an object: a cast shadow (id: the object casting it), swaying
// clutter, or the ghost where a stopped object stood (id: that object; age: frames since it left).
struct TruthRegion {
  std::uint32_t id;
  int x, y, width, height;
  std::uint32_t age = 0;
};

// One frame's truth. Luma out = gain * luma + offset (then noise); grey: chroma flat at 128.
struct HardTruth {
  std::vector<TruthBox> objects;  // a stopped object stays an object, with `still` > 0
  std::vector<TruthRegion> shadows, clutter, ghosts;
  double luma_gain = 1, luma_offset = 0;
  bool grey = false;
};

// Where to write a frame: plane 0, and the U and V samples (4:2:0) when the format has chroma.
struct PlanesOut {
  std::uint8_t* y;
  std::ptrdiff_t y_stride;
  std::uint8_t *u = nullptr, *v = nullptr;  // nullptr for GRAY8
  std::ptrdiff_t c_stride = 0;
  int c_pixel_stride = 1;  // 2 for NV12's interleaved UV, 1 for I420
};

class HardScene {
 public:
  HardScene(HardCase which, int width, int height, std::uint32_t seed);

  // Writes frame `n` and returns its truth; without `draw_objects` the same frame is rendered
  // without objects or their shadows, without `sensor_noise` with no noise (for exact tests).
  HardTruth render(std::uint64_t n, const PlanesOut& out, bool draw_objects, bool sensor_noise) const;

  static constexpr int kMovers = 4;  // objects in every case (the stopped one is number 0)

 private:
  struct Mover;     // one object's placement and look in a frame
  struct StopPlan;  // stopped-object: when and where object 0 stops
  Mover mover(unsigned i, std::uint64_t n) const;
  StopPlan stop_plan() const;
  Mover stopper(std::uint64_t n) const;
  void lighting(std::uint64_t n, HardTruth* truth) const;
  bool in_canopy(int x, int y, int dx, int dy) const;
  void sway_offset(std::uint64_t n, int* dx, int* dy) const;

  HardCase case_;
  int width_, height_, c_width_, c_height_;
  std::uint32_t seed_;
  std::vector<std::uint8_t> luma_, u_, v_;  // the background before lighting and noise
  TruthRegion canopy_box_{};                // sway: everywhere the patch can reach
};

}  // namespace ccl_demo
