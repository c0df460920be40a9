// Writes GstCclTruthMeta (ccl_truth_meta.h) onto cclblobsrc's buffers.
#pragma once

#include <gst/gst.h>

#include <vector>

#include "ccl_daylight_scene.h"

// Registers the custom meta once; call from class_init.
void gst_ccl_truth_meta_register();

// Adds the meta for frame `frame` with `boxes` to a writable buffer.
void gst_ccl_truth_meta_add(GstBuffer* buffer, guint64 frame, const std::vector<ccl_demo::TruthBox>& boxes);
