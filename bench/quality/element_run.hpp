// One run of a cudaccl line over a sequence's frames, the way an application would run it:
// appsrc ! <line> show-mask=true backend=<backend> ! appsink. Per frame it keeps the mask the
// element showed (plane 0) and the GstCclMeta's components.
#pragma once

#include <gst/gst.h>

#include <string>
#include <vector>

#include "ccl/gstcclmeta.h"

namespace quality {

struct ElementRun {
  std::string active_backend;                            // what the element said it ran on
  std::vector<std::vector<std::uint8_t>> masks;          // per frame, width*height
  std::vector<std::vector<GstCclComponent>> components;  // per frame, the meta's order
  double seconds = 0;                                    // first push to EOS
};

// Throws std::runtime_error for a line that is not one cudaccl element ("bad --line ...") and for
// a run that fails (the element's error message).
void check_line(const std::string& line);
ElementRun run_element(const std::string& line, const char* backend, const std::vector<GstBuffer*>& frames,
                       GstCaps* caps);

// "" when both runs gave the same mask bytes and components; otherwise where they first differ.
std::string first_difference(const ElementRun& a, const ElementRun& b);

}  // namespace quality
