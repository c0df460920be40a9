// Frames labelled on several lanes at once and pushed downstream in the order they came: with one
// frame at a time the GPU sits idle while the host queues, waits and writes metadata, so a second
// frame in flight nearly doubles what a stream can pass (H100: 35k -> 59k frames/s at 1080p).
// Each lane has its own thread; the caller's thread only hands frames over.
#pragma once

#include <gst/gst.h>

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ccl_gst {

class FrameLanes {
 public:
  // Labels `buffer`, the `ticket`th frame handed over (from 0), on lane `lane` and attaches its
  // metadata, on that lane's thread; GST_FLOW_OK or the error it posted.
  using Label = std::function<GstFlowReturn(std::size_t lane, std::uint64_t ticket, GstBuffer* buffer)>;
  // In the frames' order: sends the buffer labelled on `lane` downstream when `push`, else drops it
  // (a flush, an earlier failure) with what the lane kept for it; takes the buffer either way.
  using Deliver = std::function<GstFlowReturn(std::size_t lane, GstBuffer* buffer, bool push)>;

  FrameLanes(std::size_t lanes, Label label, Deliver deliver);
  ~FrameLanes();  // drops frames not pushed yet and joins the threads
  FrameLanes(const FrameLanes&) = delete;
  FrameLanes& operator=(const FrameLanes&) = delete;

  // Hands `buffer` (writable, taken) to the next lane in turn, waiting while that lane still has
  // its last frame. A fatal flow (ERROR, NOT_NEGOTIATED) met by an earlier frame is returned until
  // reset() and the buffer dropped; GST_FLOW_FLUSHING while flushing. Another flow an earlier push
  // met (NOT_LINKED, EOS, FLUSHING from downstream) is returned once, as the push of that frame
  // would have returned it, and the buffer is still taken.
  GstFlowReturn submit(GstBuffer* buffer);
  // Waits until every frame handed over is pushed or dropped; returns the fatal or flushing flow,
  // if any (a flow returned once is left for the next submit()).
  GstFlowReturn drain();
  // Frames not pushed yet are dropped and submit() refuses new ones until reset(); returns at once.
  void flush();
  // After a flush, or new caps after a fatal flow: accepts frames again with a clean flow.
  void reset();

 private:
  struct Lane {
    GstBuffer* buffer = nullptr;  // the frame it works on, or nullptr when idle
    std::uint64_t ticket = 0;     // its place in the push order
    std::thread thread;
  };
  void run(std::size_t index);
  GstFlowReturn flow_locked() const { return flushing_ ? GST_FLOW_FLUSHING : flow_; }
  // The flow to give upstream now: a fatal or flushing one, else the last other one, once.
  GstFlowReturn take_flow_locked();

  Label label_;
  Deliver deliver_;
  std::mutex mutex_;
  std::condition_variable changed_;  // a lane took or finished a frame, a turn passed, a flush, the end
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::uint64_t next_ticket_ = 0;  // of the next frame handed over
  std::uint64_t next_push_ = 0;    // ticket whose turn it is to go downstream
  GstFlowReturn flow_ = GST_FLOW_OK;     // fatal: frames are dropped until reset()
  GstFlowReturn passing_ = GST_FLOW_OK;  // not fatal: returned once, frames go on
  bool flushing_ = false, stopping_ = false;
};

}  // namespace ccl_gst
