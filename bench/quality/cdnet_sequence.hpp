// A sequence in CDnet layout (input/inNNNNNN.jpg, groundtruth/gtNNNNNN.png, ROI.bmp,
// temporalROI.txt), read for the quality harness: the frames decoded by GStreamer (jpegdec, its
// accurate integer IDCT, so every run and host decodes the same bytes), the truth of the evaluated
// frames, the ROI. Throws std::runtime_error naming what is missing or malformed.
#pragma once

#include <gst/gst.h>

#include <cstdint>
#include <string>
#include <vector>

namespace quality {

struct CdnetSequence {
  std::string dir;
  std::string name;  // the folder's last component
  int width = 0, height = 0;
  int frames = 0;                 // input frames 1..frames
  int first = 0, last = 0;        // temporalROI: the evaluated frames, 1-based, inclusive
  std::vector<std::uint8_t> roi;  // width*height
  // truth[t - first]: groundtruth of frame t, width*height grey values (0, 50, 85, 170, 255).
  std::vector<std::vector<std::uint8_t>> truth;

  bool evaluated(int t) const { return t >= first && t <= last; }
  const std::uint8_t* truth_of(int t) const { return truth[std::size_t(t - first)].data(); }
};

// Checks the layout, reads temporalROI.txt, ROI.bmp and the evaluated frames' truth; the input
// frames are counted, not decoded (decode_frames does that).
CdnetSequence read_cdnet_sequence(const std::string& dir);

// Frames 1..frames as jpegdec decodes them: I420, the JPEG's own planes (the element's input; the
// MOG2 peer makes BGR of them as libjpeg would), in order; each buffer carries its PTS (30
// frames/s) and a GstVideoMeta when its layout is not the default. `caps` gets the frames' caps.
// The caller unrefs both.
std::vector<GstBuffer*> decode_frames(const CdnetSequence& s, GstCaps** caps);

}  // namespace quality
