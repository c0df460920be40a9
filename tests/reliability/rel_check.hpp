// Helpers of the reliability tests: bus errors and warnings as text, pipelines whose every frame is
// checked against the flood-fill oracle, host RSS and device memory readings, GPU availability.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <string>
#include <vector>

#include "element_check.hpp"

#if CCL_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "ccl/cuda_analyzer.hpp"
#endif

namespace relcheck {

// elcheck::Harness whose bus is flushed before teardown: messages queued on the element's own bus
// hold references to the element, which holds the bus, so without this every harness leaks.
class Harness : public elcheck::Harness {
 public:
  using elcheck::Harness::Harness;
  ~Harness() { gst_bus_set_flushing(bus(), TRUE); }
};

// Empty when a CUDA device is usable, else why not (GPU cases skip with it).
inline std::string gpu_skip_reason() {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) return why;
  return "";
#else
  return "built without CUDA";
#endif
}

// Host resident set size in bytes (/proc/self/statm, second field).
inline long rss_bytes() {
  long pages = 0, resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return -1;
  if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
  std::fclose(f);
  return resident < 0 ? -1 : resident * sysconf(_SC_PAGESIZE);
}

// Device memory in use on the current device, all contexts (total - free), or -1 without CUDA.
inline long long device_used_bytes() {
#if CCL_HAVE_CUDA
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return -1;
  return (long long)(total_b - free_b);
#else
  return -1;
#endif
}

inline bool running_under_sanitizer_or_valgrind() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#else
  const char* preload = std::getenv("LD_PRELOAD");
  return (preload && std::string(preload).find("valgrind") != std::string::npos) ||
         std::getenv("CCL_UNDER_VALGRIND") != nullptr;
#endif
}

inline long env_long(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atol(v) : fallback;
}

// One error or warning message from the bus: domain/code and the user and debug texts.
struct BusText {
  bool found = false;
  GQuark domain = 0;
  int code = 0;
  std::string message, debug;
};

// The first message of `type` (GST_MESSAGE_ERROR or GST_MESSAGE_WARNING) waiting on `bus`.
inline BusText pop_text(GstBus* bus, GstMessageType type) {
  BusText t;
  GstMessage* m = gst_bus_pop_filtered(bus, type);
  if (!m) return t;
  GError* err = nullptr;
  gchar* debug = nullptr;
  if (type == GST_MESSAGE_ERROR)
    gst_message_parse_error(m, &err, &debug);
  else
    gst_message_parse_warning(m, &err, &debug);
  t.found = true;
  t.domain = err->domain;
  t.code = err->code;
  t.message = err->message ? err->message : "";
  t.debug = debug ? debug : "";
  g_error_free(err);
  g_free(debug);
  gst_message_unref(m);
  return t;
}

// Plane 0 of a mapped GRAY8/YUV frame copied into a frames::Frame, so the oracle can label it.
inline frames::Frame frame_of(GstBuffer* buffer, GstCaps* caps, std::string* error) {
  frames::Frame f;
  GstVideoInfo info;
  GstVideoFrame vf;
  if (!caps || !gst_video_info_from_caps(&info, caps)) {
    *error = "no caps";
    return f;
  }
  if (!gst_video_frame_map(&vf, &info, buffer, GST_MAP_READ)) {
    *error = "cannot map";
    return f;
  }
  f = frames::blank("pipeline frame", GST_VIDEO_FRAME_COMP_WIDTH(&vf, 0), GST_VIDEO_FRAME_COMP_HEIGHT(&vf, 0));
  const auto* src = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&vf, 0));
  const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&vf, 0);
  for (int y = 0; y < f.height; ++y) std::memcpy(&f.at(0, y), src + std::size_t(y) * stride, std::size_t(f.width));
  gst_video_frame_unmap(&vf);
  return f;
}

// Checks every buffer leaving an element's src pad against the oracle under `options`
// (read under the lock, so a test may change them between frames).
struct OracleProbe {
  std::mutex lock;
  ccl::Options options;
  int frames = 0;
  std::vector<GstClockTime> pts;
  std::vector<std::string> failures;

  static GstPadProbeReturn on_buffer(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
    auto* self = static_cast<OracleProbe*>(data);
    GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    GstCaps* caps = gst_pad_get_current_caps(pad);
    std::string error;
    const frames::Frame f = frame_of(buffer, caps, &error);
    if (caps) gst_caps_unref(caps);
    std::lock_guard<std::mutex> g(self->lock);
    std::string d = error.empty() ? elcheck::check_meta(buffer, f, self->options) : error;
    ++self->frames;
    self->pts.push_back(GST_BUFFER_PTS(buffer));
    if (!d.empty() && self->failures.size() < 5) self->failures.push_back("frame " + std::to_string(self->frames) + ": " + d);
    return GST_PAD_PROBE_OK;
  }
  void attach(GstElement* pipeline, const char* name) { elcheck::add_src_probe(pipeline, name, on_buffer, this); }
  std::string first_failure() {
    std::lock_guard<std::mutex> g(lock);
    return failures.empty() ? "" : failures[0];
  }
};

using elcheck::parse;

// Waits for EOS or an error (its text returned) on a pipeline already set to PLAYING; warnings on
// the way are appended to `warnings` when given (other messages are dropped).
inline std::string wait_eos(GstElement* pipeline, GstClockTime timeout = 60 * GST_SECOND,
                            std::vector<std::string>* warnings = nullptr) {
  GstBus* bus = gst_element_get_bus(pipeline);
  std::string r;
  for (;;) {
    GstMessage* m = gst_bus_timed_pop_filtered(
        bus, timeout, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING));
    if (!m) {
      r = "timeout";
      break;
    }
    const GstMessageType type = GST_MESSAGE_TYPE(m);
    if (type == GST_MESSAGE_WARNING || type == GST_MESSAGE_ERROR) {
      GError* e = nullptr;
      if (type == GST_MESSAGE_ERROR)
        gst_message_parse_error(m, &e, nullptr);
      else
        gst_message_parse_warning(m, &e, nullptr);
      const std::string text = e ? e->message : "?";
      g_clear_error(&e);
      if (type == GST_MESSAGE_ERROR) r = text;
      else if (warnings) warnings->push_back(text);
    }
    gst_message_unref(m);
    if (type != GST_MESSAGE_WARNING) break;
  }
  gst_object_unref(bus);
  return r;
}

}  // namespace relcheck
