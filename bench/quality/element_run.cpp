#include "element_run.hpp"

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "parse_launch.hpp"

namespace quality {
namespace {

struct Sink {
  ElementRun* run;
  GstVideoInfo info;
  bool info_set = false;
};

GstFlowReturn on_sample(GstAppSink* appsink, gpointer data) {
  auto* sink = static_cast<Sink*>(data);
  GstSample* sample = gst_app_sink_pull_sample(appsink);
  if (!sample) return GST_FLOW_ERROR;
  if (!sink->info_set) sink->info_set = gst_video_info_from_caps(&sink->info, gst_sample_get_caps(sample));
  GstBuffer* buffer = gst_sample_get_buffer(sample);
  GstVideoFrame frame;
  std::vector<std::uint8_t> mask;
  if (sink->info_set && gst_video_frame_map(&frame, &sink->info, buffer, GST_MAP_READ)) {
    const int w = GST_VIDEO_FRAME_COMP_WIDTH(&frame, 0), h = GST_VIDEO_FRAME_COMP_HEIGHT(&frame, 0);
    mask.resize(std::size_t(w) * h);
    for (int y = 0; y < h; ++y)
      std::memcpy(&mask[std::size_t(y) * w],
                  static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)) +
                      std::ptrdiff_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0),
                  std::size_t(w));
    gst_video_frame_unmap(&frame);
  }
  std::vector<GstCclComponent> components;
  if (const GstCclMeta* meta = gst_buffer_get_ccl_meta(buffer))
    components.assign(meta->components, meta->components + meta->n_components);
  sink->run->masks.push_back(std::move(mask));
  sink->run->components.push_back(std::move(components));
  gst_sample_unref(sample);
  return GST_FLOW_OK;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string error_of(GstMessage* m) {
  GError* error = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(m, &error, &debug);
  std::string why = error ? error->message : "error";
  if (debug) why += std::string(" (") + debug + ")";
  g_clear_error(&error);
  g_free(debug);
  return why;
}

}  // namespace

void check_line(const std::string& line) {
  const std::string l = trimmed(line);
  const bool one_cudaccl =
      l.rfind("cudaccl", 0) == 0 && (l.size() == 7 || l[7] == ' ') && l.find('!') == std::string::npos;
  if (!one_cudaccl)
    throw std::runtime_error("bad --line '" + line +
                             "': give one cudaccl element with its properties, e.g. \"cudaccl foreground=motion "
                             "min-area=50\" (the harness adds appsrc, show-mask=true, backend= and appsink)");
  GError* error = nullptr;
  GstElement* e = gst_parse_launch(l.c_str(), &error);
  const std::string why = error ? error->message : "";
  g_clear_error(&error);
  if (e) gst_object_unref(e);
  if (!e || !why.empty()) throw std::runtime_error("bad --line '" + line + "': " + (why.empty() ? "?" : why));
}

ElementRun run_element(const std::string& line, const char* backend, const std::vector<GstBuffer*>& frames,
                       GstCaps* caps) {
  check_line(line);
  const std::string launch = "appsrc name=quality_src format=time block=true max-buffers=4 ! " + trimmed(line) +
                             " name=quality_ccl show-mask=true backend=" + backend +
                             " ! appsink name=quality_sink sync=false";
  GstElement* pipeline = quality::parse_launch_or_throw(launch, "the element pipeline");
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "quality_src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "quality_sink");
  GstElement* ccl = gst_bin_get_by_name(GST_BIN(pipeline), "quality_ccl");
  gst_app_src_set_caps(GST_APP_SRC(src), caps);
  ElementRun run;
  run.masks.reserve(frames.size());
  run.components.reserve(frames.size());
  Sink state{&run, {}, false};
  GstAppSinkCallbacks callbacks{};
  callbacks.new_sample = on_sample;
  gst_app_sink_set_callbacks(GST_APP_SINK(sink), &callbacks, &state, nullptr);

  GstBus* bus = gst_element_get_bus(pipeline);
  std::string failure;
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) failure = "cannot play";
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < frames.size() && failure.empty(); ++i)
    if (gst_app_src_push_buffer(GST_APP_SRC(src), gst_buffer_ref(frames[i])) != GST_FLOW_OK) break;
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  if (GstMessage* m =
          gst_bus_timed_pop_filtered(bus, GST_CLOCK_TIME_NONE, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR))) {
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) failure = error_of(m);
    gst_message_unref(m);
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  gchar* active = nullptr;
  g_object_get(ccl, "active-backend", &active, nullptr);
  run.active_backend = active ? active : "?";
  g_free(active);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(ccl);
  gst_object_unref(sink);
  gst_object_unref(src);
  gst_object_unref(pipeline);
  if (!failure.empty()) throw std::runtime_error("'" + launch + "' failed: " + failure);
  if (run.masks.size() != frames.size())
    throw std::runtime_error("'" + launch + "' gave " + std::to_string(run.masks.size()) + " of " +
                             std::to_string(frames.size()) + " frames");
  return run;
}

std::string first_difference(const ElementRun& a, const ElementRun& b) {
  const auto same = [](const GstCclComponent& x, const GstCclComponent& y) {
    return x.label == y.label && x.area == y.area && x.x == y.x && x.y == y.y && x.width == y.width &&
           x.height == y.height && std::memcmp(&x.centroid_x, &y.centroid_x, sizeof(double)) == 0 &&
           std::memcmp(&x.centroid_y, &y.centroid_y, sizeof(double)) == 0 && x.track_id == y.track_id;
  };
  const std::size_t n = std::min(a.masks.size(), b.masks.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a.masks[i] != b.masks[i]) return "frame " + std::to_string(i + 1) + ": masks differ";
    if (a.components[i].size() != b.components[i].size() ||
        !std::equal(a.components[i].begin(), a.components[i].end(), b.components[i].begin(), same))
      return "frame " + std::to_string(i + 1) + ": components differ";
  }
  if (a.masks.size() != b.masks.size()) return "frame counts differ";
  return "";
}

}  // namespace quality
