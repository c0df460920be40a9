// The cudaccl instance: one private state struct, shared by the element's files.
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include <memory>
#include <string>

#include "ccl/types.hpp"
#include "ccl_frame_ring.h"
#include "gstcclenums.h"
#include "gstcudaccl.h"

#if CCL_HAVE_CUDA
#include "ccl_cuda_context.h"
#endif

// The element's state: constructed in the GObject private area by instance_init, destroyed in finalize.
struct GstCudaCclPrivate {
  explicit GstCudaCclPrivate(GstBaseTransform* trans);

  // Properties, guarded by the object lock; read once per frame (instance_init sets their defaults).
  ccl::Options options;
  GstCudaCclBackend backend{};
  gint device_id{};
  gboolean attach_roi_meta{};
  gboolean attach_analytics_meta{};  // always FALSE where built without gstreamer-analytics
  gboolean post_messages{};
  gboolean show_mask{};
  gboolean join_parts{};
  guint frames_in_flight{};
  gboolean gpu_only_logged{};  // the "ignored on the CPU backend" note was logged for these values
  std::string refused_caps;    // the last caps whose refusal was posted as a warning (posted once each)

  // Streaming state, from start() to stop().
  GstCudaCclActiveBackend active_backend{};  // read under the object lock
  GstVideoInfo info;
  gboolean system_memory{};               // the negotiated caps carry system memory
#if CCL_HAVE_CUDA
  GstCudaCclSharedContext cuda_context;  // declared before the ring: the engines go first
#endif
  std::unique_ptr<GstCclFrameRing> ring;  // the frames in flight and their engines
  GstFlowReturn held_flow{};              // a frame pushed at an event or query failed: upstream hears it next
  guint64 frames{};                       // frames labeled since start, so errors can say which one failed
};

struct _GstCudaCcl {
  GstBaseTransform parent;
  GstCudaCclPrivate* priv;  // in the GObject private area: GObject frees it, finalize destroys it
};
