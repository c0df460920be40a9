// The "daylight" scene of cclblobsrc: textured objects over a textured background, sensor noise
// and illumination drift, so that no global threshold finds the objects but background
// subtraction (cudaccl foreground=motion) does. Plain C++, no GStreamer: the frame number alone
// drives it, so the same seed, size and frame number give the same pixels.
#pragma once

#include <cstdint>
#include <vector>

namespace ccl_demo {

// One object's true extent in a frame, clipped to the frame; id is stable while it crosses.
struct TruthBox {
  std::uint32_t id;
  int x, y, width, height;
  std::uint32_t still = 0;  // hard scenes: frames the object has stood still (0 while it moves)
};

class DaylightScene {
 public:
  DaylightScene(int width, int height, std::uint32_t seed, unsigned n_objects);

  // Writes frame `n` into `plane` (row stride `stride`) and returns the boxes of the objects in
  // view; without `draw_objects` the same frame is rendered empty (same noise, same drift), without
  // `sensor_noise` with no noise (for tests that compare pixels exactly).
  std::vector<TruthBox> render(std::uint64_t n, std::uint8_t* plane, std::ptrdiff_t stride, bool draw_objects,
                               bool sensor_noise = true) const;

 private:
  struct Crossing;  // one object's pass through the frame
  Crossing crossing(unsigned object, std::uint64_t n) const;

  int width_, height_;
  std::uint32_t seed_;
  unsigned n_objects_;
  std::vector<std::uint8_t> background_;  // width x height, tightly packed, before drift and noise
};

}  // namespace ccl_demo
