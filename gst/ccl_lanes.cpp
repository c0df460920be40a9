#include "ccl_lanes.h"

#include <utility>

namespace ccl_gst {
namespace {

// ERROR, NOT_NEGOTIATED and worse: the stream cannot go on without a new start or new caps.
bool fatal(GstFlowReturn flow) { return flow <= GST_FLOW_NOT_NEGOTIATED; }

}  // namespace

GstFlowReturn FrameLanes::take_flow_locked() {
  const GstFlowReturn flow = flow_locked();
  if (flow != GST_FLOW_OK) return flow;
  return std::exchange(passing_, GST_FLOW_OK);
}

FrameLanes::FrameLanes(std::size_t lanes, Label label, Deliver deliver)
    : label_(std::move(label)), deliver_(std::move(deliver)) {
  for (std::size_t i = 0; i < lanes; ++i) lanes_.push_back(std::make_unique<Lane>());
  for (std::size_t i = 0; i < lanes; ++i) lanes_[i]->thread = std::thread([this, i] { run(i); });
}

FrameLanes::~FrameLanes() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    flushing_ = stopping_ = true;
  }
  changed_.notify_all();
  for (auto& lane : lanes_) lane->thread.join();
}

GstFlowReturn FrameLanes::submit(GstBuffer* buffer) {
  std::unique_lock<std::mutex> lock(mutex_);
  Lane& lane = *lanes_[next_ticket_ % lanes_.size()];
  changed_.wait(lock, [&] { return lane.buffer == nullptr || flow_locked() != GST_FLOW_OK; });
  if (const GstFlowReturn refused = flow_locked(); refused != GST_FLOW_OK) {
    lock.unlock();
    gst_buffer_unref(buffer);
    return refused;
  }
  lane.buffer = buffer;
  lane.ticket = next_ticket_++;
  const GstFlowReturn flow = take_flow_locked();
  lock.unlock();
  changed_.notify_all();
  return flow;
}

GstFlowReturn FrameLanes::drain() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return next_push_ == next_ticket_; });
  return flow_locked();
}

void FrameLanes::flush() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    flushing_ = true;
  }
  changed_.notify_all();
}

void FrameLanes::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  flushing_ = false;
  flow_ = passing_ = GST_FLOW_OK;
}

void FrameLanes::run(std::size_t index) {
  Lane& lane = *lanes_[index];
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return lane.buffer != nullptr || stopping_; });
    if (!lane.buffer) return;  // stopping, nothing left
    GstBuffer* buffer = lane.buffer;
    const bool skip = flow_locked() != GST_FLOW_OK;
    lock.unlock();
    // Labelled even while an earlier frame waits to go out: that is the point of the lanes.
    GstFlowReturn flow = skip ? GST_FLOW_OK : label_(index, lane.ticket, buffer);
    lock.lock();
    changed_.wait(lock, [&] { return next_push_ == lane.ticket; });  // frames leave in the order they came
    const bool push = flow == GST_FLOW_OK && flow_locked() == GST_FLOW_OK;
    lock.unlock();
    const GstFlowReturn pushed = deliver_(index, buffer, push);  // unlocked: downstream may block (preroll)
    if (push) flow = pushed;
    lock.lock();
    // A fatal failure sticks until reset(): later frames are dropped, submit() reports it. Others
    // (a branch unlinked, EOS downstream) go upstream once and the next frames are pushed.
    if (fatal(flow) && flow_ == GST_FLOW_OK) flow_ = flow;
    else if (flow != GST_FLOW_OK && !fatal(flow)) passing_ = flow;
    lane.buffer = nullptr;
    ++next_push_;
    changed_.notify_all();
  }
}

}  // namespace ccl_gst
