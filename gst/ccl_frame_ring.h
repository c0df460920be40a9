// Frames in flight without threads: N slots, each an engine with the frame it labels. A frame is
// submitted to the next slot and the oldest one finished once all N hold frames, so the device
// labels one while the streaming thread pushes another; N = 1 labels each frame before it leaves.
#pragma once

#include <exception>
#include <memory>
#include <vector>

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "ccl/part_joiner.hpp"
#include "ccl/types.hpp"
#include "ccl_engine.h"

// What a frame is finished with, read from the properties when it arrived.
struct GstCclFrameSettings {
  ccl::Options options;
  bool attach_roi_meta;
  bool attach_analytics_meta;
  bool post_messages;
  bool show_mask;   // the frame becomes the mask that is labelled
  bool join_parts;  // one component per object followed (ccl/part_joiner.hpp)
};

// A gap without data: there is no frame to label, it is passed on as it came.
bool gst_ccl_is_empty_gap(GstBuffer* buffer);

class GstCclFrameRing {
 public:
  // Posts messages and errors as `trans`, with its segment's times.
  explicit GstCclFrameRing(GstBaseTransform* trans) : trans_(trans) {}
  ~GstCclFrameRing() { drop_all(); }

  // One slot per engine; frames still in the old slots are dropped.
  void set_engines(std::vector<std::unique_ptr<GstCclEngine>> engines);
  // Every engine, for frames of this size and memory (throws ccl::Error).
  void reserve(int width, int height, bool system_memory, const ccl::Options& options);

  // The next frame starts the engines' shared background model, and the objects followed to join
  // their parts, afresh (caps change, flush).
  void reset_background();
  // Starts labelling `buffer` (writable; the ring owns it) in the next free slot; a failure is
  // kept for finish_oldest(), so failures reach the user in frame order. `frame` counts from 1.
  // A DISCONT buffer resets the background model and the objects followed before its frame.
  void submit(GstBuffer* buffer, const GstVideoInfo& info, const GstCclFrameSettings& settings, guint64 frame);
  // True when every slot holds a frame: the oldest must be finished before the next submit.
  bool full() const { return !slots_.empty() && pending_ == slots_.size(); }
  bool empty() const { return pending_ == 0; }
  // Finishes the oldest frame: outputs attached, message posted, the buffer handed to `out`; on a
  // failure the error is posted, the buffer dropped and GST_FLOW_ERROR returned.
  GstFlowReturn finish_oldest(const GstVideoInfo& info, GstBuffer** out);
  // Finishes every frame and pushes it on `srcpad`, in order; the first flow that is not OK.
  GstFlowReturn drain(const GstVideoInfo& info, GstPad* srcpad);
  // Drops every frame, once the device is done with it.
  void drop_all();

 private:
  struct Slot {
    std::unique_ptr<GstCclEngine> engine;
    GstBuffer* buffer = nullptr;  // the frame here, or nullptr when the slot is free
    bool labelling = false;       // the engine holds it (false: an empty gap, or it failed)
    std::exception_ptr failure;
    GstCclFrameSettings settings;
    guint64 frame = 0;
    bool discont = false;  // the objects followed are forgotten before this frame's parts are joined
    ccl::Result result;  // reused, so frames do not reallocate the component list
  };
  Slot& oldest() { return slots_[(next_ + slots_.size() - pending_) % slots_.size()]; }
  void attach_outputs(const Slot& slot, GstBuffer* buffer);
  void join_parts(Slot& slot);

  GstBaseTransform* trans_;
  std::vector<Slot> slots_;
  std::size_t next_ = 0;     // the slot the next frame goes to
  std::size_t pending_ = 0;  // frames in the slots before next_
  ccl::PartJoiner joiner_;   // frames are finished in order: it follows the stream's objects
};
