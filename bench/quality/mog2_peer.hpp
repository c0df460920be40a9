// The peer users run today: OpenCV's MOG2 background subtractor with its defaults on the BGR
// frames from frame 1 (the element's I420 frames made BGR as cv::imread would, libjpeg_colour.hpp) (its shadow value
// 127 counts as background, as every value but 255), then an opening with a 3x3 square and connectedComponentsWithStats
// (8-connected, area >= 50) for the objects. The pixel score takes MOG2's own mask, the object score the opened mask's
// components.
#pragma once

#include <gst/gst.h>

#include <vector>

#include "cdnet_sequence.hpp"
#include "scores.hpp"

namespace quality {

struct PeerResult {
  PixelCounts pixels;
  ObjectCounts objects;
  double seconds = 0;  // MOG2, opening and components over every frame (decoding not counted)
};

// `frames`, `caps`: decode_frames(s); `truth_boxes[t - s.first]`: the truth objects of
// evaluated frame t.
PeerResult run_mog2_peer(const CdnetSequence& s, const std::vector<GstBuffer*>& frames, GstCaps* caps,
                         const std::vector<std::vector<Box>>& truth_boxes);

}  // namespace quality
