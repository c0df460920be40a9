#include "ccl_frame_ring.h"

#include <utility>

#include "ccl_debug.h"
#include "ccl_frame_errors.h"
#include "ccl_outputs.h"

#define GST_CAT_DEFAULT gst_ccl_frame_ring_debug

bool gst_ccl_is_empty_gap(GstBuffer* buffer) {
  return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_GAP) && gst_buffer_get_size(buffer) == 0;
}

void GstCclFrameRing::set_engines(std::vector<std::unique_ptr<GstCclEngine>> engines) {
  drop_all();
  slots_ = std::vector<Slot>(engines.size());
  for (std::size_t i = 0; i < engines.size(); ++i) slots_[i].engine = std::move(engines[i]);
  next_ = 0;
}

void GstCclFrameRing::reserve(int width, int height, bool system_memory, const ccl::Options& options) {
  for (Slot& slot : slots_) slot.engine->reserve(width, height, system_memory, options);
}

void GstCclFrameRing::reset_background() {
  joiner_.reset();
  if (slots_.empty()) return;
  try {
    slots_[0].engine->reset_background();  // the engines share one model
  } catch (const ccl::Error& e) {
    GST_WARNING_OBJECT(trans_, "could not reset the background model: %s", e.what());
  }
}

void GstCclFrameRing::submit(GstBuffer* buffer, const GstVideoInfo& info, const GstCclFrameSettings& settings,
                             guint64 frame) {
  Slot& slot = slots_[next_];
  g_assert(!slot.buffer);
  slot.buffer = buffer;
  slot.settings = settings;
  slot.frame = frame;
  slot.failure = nullptr;
  slot.labelling = false;
  slot.discont = GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DISCONT);
  try {
    if (slot.discont) slot.engine->reset_background();
    if (!gst_ccl_is_empty_gap(buffer)) {
      ccl::Options options = settings.options;
      if (settings.join_parts) options.max_objects = ccl::kUnlimited;  // counted once the parts are joined
      slot.engine->submit(buffer, info, options, settings.show_mask);
      slot.labelling = true;
    }
  } catch (...) {
    slot.failure = std::current_exception();
  }
  next_ = (next_ + 1) % slots_.size();
  ++pending_;
}

void GstCclFrameRing::attach_outputs(const Slot& slot, GstBuffer* buffer) {
  const ccl::Result& result = slot.result;
  gst_ccl_outputs_remove(buffer);
  gst_ccl_outputs_add_meta(buffer, result);
  if (slot.settings.attach_roi_meta) gst_ccl_outputs_add_roi_metas(buffer, result.components);
#if CCL_HAVE_ANALYTICS
  if (slot.settings.attach_analytics_meta) gst_ccl_outputs_add_analytics_meta(buffer, result.components);
#endif
  if (slot.settings.post_messages) {
    const GstCclFrameTimes times = gst_ccl_outputs_frame_times(trans_->segment, buffer);
    gst_element_post_message(
        GST_ELEMENT(trans_),
        gst_message_new_element(GST_OBJECT(trans_), gst_ccl_outputs_message_structure(result, times)));
  }
  GST_LOG_OBJECT(trans_, "%zu of %u components%s", result.components.size(), result.n_components_total,
                 result.truncated ? " (truncated)" : "");
}

void GstCclFrameRing::join_parts(Slot& slot) {
  if (slot.settings.join_parts)
    joiner_.join(slot.result, slot.settings.options.order, slot.settings.options.max_objects);
  else
    joiner_.reset();  // turned on again later, it starts afresh
}

GstFlowReturn GstCclFrameRing::finish_oldest(const GstVideoInfo& info, GstBuffer** out) {
  Slot& slot = oldest();
  --pending_;
  *out = nullptr;
  GstBuffer* buffer = std::exchange(slot.buffer, nullptr);
  if (slot.discont) joiner_.reset();  // in frame order, as the background model was at submit
  if (slot.labelling) {
    slot.labelling = false;
    try {
      slot.engine->collect(slot.result);
    } catch (...) {
      slot.failure = std::current_exception();
    }
  } else if (!slot.failure) {
    *out = buffer;  // an empty gap goes on as it came
    return GST_FLOW_OK;
  }
  if (slot.failure) {
    gst_cuda_ccl_post_error(GST_ELEMENT(trans_), std::exchange(slot.failure, nullptr), info, slot.frame, buffer);
    gst_buffer_unref(buffer);
    return GST_FLOW_ERROR;
  }
  join_parts(slot);
  attach_outputs(slot, buffer);
  *out = buffer;
  return GST_FLOW_OK;
}

GstFlowReturn GstCclFrameRing::drain(const GstVideoInfo& info, GstPad* srcpad) {
  GstFlowReturn first = GST_FLOW_OK;
  while (!empty()) {
    GstBuffer* buffer = nullptr;
    GstFlowReturn flow = finish_oldest(info, &buffer);
    // After a flow that ends the stream downstream (not a branch unlinked for a moment), the
    // frames left are only finished.
    const bool pushing = first == GST_FLOW_OK || first == GST_FLOW_NOT_LINKED;
    if (buffer && pushing)
      flow = gst_pad_push(srcpad, buffer);
    else if (buffer)
      gst_buffer_unref(buffer);
    if (flow != GST_FLOW_OK && (first == GST_FLOW_OK || first == GST_FLOW_NOT_LINKED)) first = flow;
  }
  return first;
}

void GstCclFrameRing::drop_all() {
  while (!empty()) {
    Slot& slot = oldest();
    --pending_;
    if (slot.labelling) {
      try {
        slot.engine->collect(slot.result);  // the device must be done with the frame before it goes
      } catch (...) {
      }
      slot.labelling = false;
    }
    slot.failure = nullptr;
    gst_clear_buffer(&slot.buffer);
  }
}
