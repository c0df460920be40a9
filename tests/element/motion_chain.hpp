// The per-frame verdict test_daylight_scene.cpp counts (every sizeable true object overlaps a
// component's box, and every component of at least min-area overlaps a true box), and the
// foreground=motion chain written with the oracles (Sigma-Delta, opening, flood fill).
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "daylight_frames.hpp"
#include "foreground_oracle.hpp"
#include "oracle.hpp"

namespace scene {

struct ChainSettings {
  int motion_factor = 4;
  int open_radius = 1;
  std::uint32_t min_area = 50;
};

// Empty when `components` find every sizeable object of `boxes` and nothing outside them, else why not.
inline std::string frame_verdict(const std::vector<GstCclTruthBox>& boxes,
                                 const std::vector<ccl::Component>& components) {
  std::ostringstream why;
  for (const GstCclTruthBox& b : boxes) {
    if (!sizeable(b)) continue;
    bool found = false;
    for (const ccl::Component& c : components) found = found || overlaps(b, c.x, c.y, c.width, c.height);
    if (!found)
      why << "object " << b.id << " at " << b.x << "," << b.y << " " << b.width << "x" << b.height << " missed; ";
  }
  for (const ccl::Component& c : components) {
    bool explained = false;
    for (const GstCclTruthBox& b : boxes) explained = explained || overlaps(b, c.x, c.y, c.width, c.height);
    if (!explained)
      why << "false component at " << c.x << "," << c.y << " " << c.width << "x" << c.height << " area " << c.area
          << "; ";
  }
  return why.str();
}

// Runs one frame through the chain (updating `model`) and judges it.
inline std::string chain_verdict(oracle::SigmaDelta& model, const Shot& s, const ChainSettings& cs) {
  const int w = s.frame.width, h = s.frame.height;
  const oracle::Mask mask = oracle::open_close(model.next(s.frame, cs.motion_factor), w, h, cs.open_radius, 0);
  ccl::Options o;
  o.connectivity = 8;
  o.min_area = cs.min_area;
  return frame_verdict(s.boxes, oracle::flood_fill(oracle::mask_frame(mask, w, h), o).result.components);
}

}  // namespace scene
