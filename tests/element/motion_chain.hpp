// The foreground=motion chain written with the oracles (Sigma-Delta, opening, flood fill) and the
// per-frame verdict test_daylight_scene.cpp counts: every sizeable true object overlaps a
// component's box, and every component of at least min-area overlaps a true box.
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

// Runs one frame through the chain (updating `model`); empty when the frame passes, else why not.
inline std::string chain_verdict(oracle::SigmaDelta& model, const Shot& s, const ChainSettings& cs) {
  const int w = s.frame.width, h = s.frame.height;
  const oracle::Mask mask = oracle::open_close(model.next(s.frame, cs.motion_factor), w, h, cs.open_radius, 0);
  ccl::Options o;
  o.connectivity = 8;
  o.min_area = cs.min_area;
  const ccl::Result r = oracle::flood_fill(oracle::mask_frame(mask, w, h), o).result;
  std::ostringstream why;
  for (const GstCclTruthBox& b : s.boxes) {
    if (!sizeable(b)) continue;
    bool found = false;
    for (const ccl::Component& c : r.components) found = found || overlaps(b, c.x, c.y, c.width, c.height);
    if (!found)
      why << "object " << b.id << " at " << b.x << "," << b.y << " " << b.width << "x" << b.height << " missed; ";
  }
  for (const ccl::Component& c : r.components) {
    bool explained = false;
    for (const GstCclTruthBox& b : s.boxes) explained = explained || overlaps(b, c.x, c.y, c.width, c.height);
    if (!explained)
      why << "false component at " << c.x << "," << c.y << " " << c.width << "x" << c.height << " area " << c.area
          << "; ";
  }
  return why.str();
}

}  // namespace scene
