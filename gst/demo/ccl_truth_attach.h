// Writes GstCclTruthMeta (ccl_truth_meta.h) onto cclblobsrc's buffers.
#pragma once

#include <gst/gst.h>

#include <vector>

#include "ccl_daylight_scene.h"
#include "ccl_hard_scene.h"

// Registers the custom meta once; call from class_init.
void gst_ccl_truth_meta_register();

// Adds the meta for frame `frame` with `boxes` to a writable buffer.
void gst_ccl_truth_meta_add(GstBuffer* buffer, guint64 frame, const std::vector<ccl_demo::TruthBox>& boxes);

// The same for a hard scene: objects with their `still` count, the lists of regions that are not
// objects (shadows, clutter, ghosts) and the lighting.
void gst_ccl_truth_meta_add_hard(GstBuffer* buffer, guint64 frame, const ccl_demo::HardTruth& truth);
