// The frame's "connected-component" ROI metas, attached before its components are known: while
// the GPU labels the frame, the streaming thread attaches as many blank ROI metas as the last frame
// had; once the components arrive it fills them in place, attaches any missing and removes the
// surplus. What is left after the GPU is writing a few values per component.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstddef>
#include <vector>

#include "ccl/types.hpp"

#include "ccl_roi_params.h"

namespace ccl_gst {

class RoiMetaWriter {
 public:
  // A frame of about `n` components comes: its blank params are built in the background from now.
  // (Not earlier, right after the last frame: the workers' allocations then contended with the
  // freeing of that frame's metas, which took up to twice as long on the H100 host.)
  void expect(std::size_t n);
  // Attaches the expected number of blank ROI metas to `buffer`, each with a blank param.
  void attach_blanks(GstBuffer* buffer);
  // One ROI meta per component, in order: the blanks filled, more attached where the frame has more
  // components, the surplus removed (its params are kept for later frames).
  void finish(GstBuffer* buffer, const std::vector<ccl::Component>& components);
  // Removes the blanks (the frame failed).
  void abandon(GstBuffer* buffer);

 private:
  void remove_unfilled(GstBuffer* buffer, std::size_t first);

  RoiParamStock params_;
  std::size_t expected_ = 0;
  struct Blank {
    GstVideoRegionOfInterestMeta* roi;
    RoiParam param;  // its one param, also in roi->params
  };
  std::vector<Blank> blanks_;  // of the frame in progress, in attach order
};

}  // namespace ccl_gst
