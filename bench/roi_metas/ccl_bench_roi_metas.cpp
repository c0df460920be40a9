// ccl-bench-roi-metas: what the "connected-component" ROI metas of one frame cost the host, apart
// from any GPU. Per frame, as cudaccl does it (the ccl-outputs library, on the streaming thread):
// attach the metas with their params, then drop the buffer either on the same thread (as a
// GstHarness does) or through a queue of 8 to another thread (as `cudaccl ! queue ! sink` does).
// Prints the median of each step and the frames/s the loop reached. Then GStreamer's floor for N
// bare metas without params (one allocation and one free each).
// Usage: ccl-bench-roi-metas [--components N] [--frames N]
#include <gst/gst.h>
#include <gst/video/video.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "ccl_outputs.h"
#include "percentile.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double us_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

double median(const std::vector<double>& v) { return bench::percentile(v, 0.5); }

// A queue of at most 8 buffers and the thread that drops them, like GstQueue before a sink.
class DroppingThread {
 public:
  DroppingThread() : thread_([this] { run(); }) {}
  ~DroppingThread() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  void push(GstBuffer* buffer) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < 8; });
    queue_.push_back(buffer);
    changed_.notify_all();
  }
  // Median us per buffer dropped; call after the destructor's join would be too late, so after the run.
  std::vector<double> drop_us() {
    std::lock_guard<std::mutex> lock(mutex_);
    return drop_us_;
  }

 private:
  void run() {
    for (;;) {
      GstBuffer* buffer = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return done_ || !queue_.empty(); });
        if (queue_.empty()) return;
        buffer = queue_.front();
        queue_.pop_front();
      }
      changed_.notify_all();
      const auto start = Clock::now();
      gst_buffer_unref(buffer);
      const double us = us_between(start, Clock::now());
      std::lock_guard<std::mutex> lock(mutex_);
      drop_us_.push_back(us);
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<GstBuffer*> queue_;
  std::vector<double> drop_us_;
  bool done_ = false;
  std::thread thread_;
};

void run(int n, int frames, bool other_thread) {
  std::vector<ccl::Component> components(std::size_t(n), ccl::Component{});
  for (int i = 0; i < n; ++i)
    components[std::size_t(i)] = {std::uint32_t(i + 1), std::uint32_t(100 + i), i, i, 5, 6, i + 0.5, i + 0.25};
  DroppingThread* dropper = other_thread ? new DroppingThread : nullptr;
  std::vector<double> attach, drop, frame;
  const int warm_up = 200;
  Clock::time_point start;
  for (int k = 0; k < warm_up + frames; ++k) {
    if (k == warm_up) start = Clock::now();
    GstBuffer* buffer = gst_buffer_new();
    const auto t0 = Clock::now();
    gst_ccl_outputs_add_roi_metas(buffer, components);
    const auto t1 = Clock::now();
    if (dropper) dropper->push(buffer);
    else gst_buffer_unref(buffer);
    const auto t2 = Clock::now();
    if (k < warm_up) continue;
    attach.push_back(us_between(t0, t1));
    drop.push_back(us_between(t1, t2));
    frame.push_back(us_between(t0, t2));
  }
  const double fps = frames / us_between(start, Clock::now()) * 1e6;
  if (dropper) {
    drop = dropper->drop_us();
    delete dropper;
  }
  std::printf("%5d components, dropped on %-14s attach %6.1f  drop %6.1f  frame %6.1f us  -> %6.0f frames/s\n", n,
              other_thread ? "another thread" : "this thread", median(attach), median(drop), median(frame), fps);
}

// GStreamer's floor: n bare "connected-component" ROI metas, no params, attached and dropped on
// this thread.
void run_floor(int n, int frames) {
  const GQuark roi_type = g_quark_from_static_string("connected-component");
  std::vector<double> attach, drop;
  const int warm_up = 200;
  Clock::time_point start;
  for (int k = 0; k < warm_up + frames; ++k) {
    if (k == warm_up) start = Clock::now();
    GstBuffer* buffer = gst_buffer_new();
    const auto t0 = Clock::now();
    for (int i = 0; i < n; ++i)
      gst_buffer_add_video_region_of_interest_meta_id(buffer, roi_type, guint(i), guint(i), 5, 6)->id = i + 1;
    const auto t1 = Clock::now();
    gst_buffer_unref(buffer);
    const auto t2 = Clock::now();
    if (k < warm_up) continue;
    attach.push_back(us_between(t0, t1));
    drop.push_back(us_between(t1, t2));
  }
  const double fps = frames / us_between(start, Clock::now()) * 1e6;
  std::printf("%5d components, GStreamer alone, bare metas   attach %6.1f  drop %6.1f  sum %6.1f us  -> %6.0f frames/s\n",
              n, median(attach), median(drop), median(attach) + median(drop), fps);
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  int n = 0, frames = 3000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--components")) n = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--frames")) frames = std::atoi(argv[i + 1]);
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::printf("ccl-bench-roi-metas: %d frames each, %u cores; median us per frame (drop on another thread: "
              "that thread's time per buffer)\n",
              frames, std::thread::hardware_concurrency());
  // The element benchmark's scenes' component counts at 1080p and 4K, or the one asked for.
  std::vector<int> counts{415, 252, 1592, 259};
  if (n) counts = {n};
  for (int c : counts)
    for (bool other : {false, true}) run(c, frames, other);
  for (int c : counts) run_floor(c, frames);
  return 0;
}
