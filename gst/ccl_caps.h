// cudaccl's caps policy: which caps it takes (gstcclformats.h), in which order it offers them, and
// why it refuses the ones it cannot label.
#pragma once

#include <string>

#include <gst/gst.h>

// True for caps features naming CUDA memory (ANY features name no memory in particular).
bool gst_cuda_ccl_is_cuda_memory(const GstCapsFeatures* features);

// `caps` (same on both pads) with CUDA memory first, or system memory first when `cpu_first`;
// intersected with `filter` when given.
GstCaps* gst_cuda_ccl_order_caps(GstCaps* caps, bool cpu_first, GstCaps* filter);

// Why the pad template refuses the fixed `caps`, in words for the user; empty when it accepts them.
std::string gst_cuda_ccl_refusal(GstCaps* caps);
