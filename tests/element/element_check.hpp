// Helpers of the element tests: a cudaccl harness, frames packed into GstBuffers of every
// accepted layout, and readers that turn the element's metas back into ccl::Result for the oracle.
#pragma once

#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "ccl/cuda_analyzer.hpp"
#include "ccl/gstcclmeta.h"
#include "ccl/types.hpp"
#include "compare.hpp"
#include "frames.hpp"
#include "oracle.hpp"

namespace elcheck {

// Whether the tests run under valgrind (tools/test.sh sets CCL_UNDER_VALGRIND there): the longest
// pipelines skip themselves, as the plain and sanitizer runs play them.
inline bool under_valgrind() { return std::getenv("CCL_UNDER_VALGRIND") != nullptr; }

inline void init() {
  static bool done = false;
  if (!done) {
    gst_init(nullptr, nullptr);
    done = true;
  }
}

// Whether an installed plugin gives the element `factory`.
inline bool have(const char* factory) {
  init();
  GstElementFactory* f = gst_element_factory_find(factory);
  if (f) gst_object_unref(f);
  return f != nullptr;
}

#if CCL_HAVE_CUDA
// Why frames in CUDA memory cannot be tested here ("" when they can): no usable device, or no
// cudaupload (gst-plugins-bad nvcodec) to make them.
inline std::string cuda_memory_input_unavailable() {
  std::string why;
  if (!ccl::cuda_device_usable(&why)) return why;
  if (!have("cudaupload")) return "cudaupload (gst-plugins-bad nvcodec) not installed";
  return "";
}
#endif

// Plays `pipeline` until EOS, an error or `timeout` without a message, handing every element
// message to `on_element`, then sets it to NULL. Returns "" at EOS, otherwise what stopped it.
inline std::string play_to_eos(GstElement* pipeline, GstClockTime timeout,
                               const std::function<void(GstMessage*)>& on_element) {
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    gst_element_set_state(pipeline, GST_STATE_NULL);
    return "cannot play";
  }
  GstBus* bus = gst_element_get_bus(pipeline);
  std::string error;
  bool eos = false;
  while (error.empty() && !eos) {
    GstMessage* m =
        gst_bus_timed_pop_filtered(bus, timeout, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT));
    if (!m) {
      error = "timeout";
      break;
    }
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_EOS) eos = true;
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ELEMENT) on_element(m);
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
      GError* e = nullptr;
      gst_message_parse_error(m, &e, nullptr);
      error = e ? e->message : "error";
      g_clear_error(&e);
    }
    gst_message_unref(m);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  return error;
}

// A pipeline from a gst-launch line, or nullptr with a test failure naming the line.
inline GstElement* parse(const std::string& launch) {
  init();
  GError* error = nullptr;
  GstElement* p = gst_parse_launch(launch.c_str(), &error);
  if (!p) ADD_FAILURE() << launch << ": " << (error ? error->message : "?");
  g_clear_error(&error);
  return p;
}

// The launch-line properties that give `o` (defaults left out, so defaults are tested too).
inline std::string props(const ccl::Options& o) {
  std::ostringstream s;
  if (o.connectivity != 8) s << " connectivity=" << o.connectivity;
  if (o.threshold) s << " threshold=" << int(o.threshold);
  if (o.min_area) s << " min-area=" << o.min_area;
  if (o.max_area != ccl::kUnlimited) s << " max-area=" << o.max_area;
  if (o.max_objects != ccl::kUnlimited) s << " max-objects=" << o.max_objects;
  if (o.order == ccl::Order::Area) s << " order=area";
  return s.str();
}

inline ccl::Options opts(int connectivity, int threshold = 0) {
  ccl::Options o;
  o.connectivity = connectivity;
  o.threshold = std::uint8_t(threshold);
  return o;
}

// A harness around "cudaccl backend=<backend> <extra>" with a bus so element messages can be read;
// `context` (a shared GstCudaContext, say) is set on the element before it starts.
class Harness {
 public:
  explicit Harness(const std::string& extra = "", const char* backend = "cpu", GstContext* context = nullptr) {
    init();
    const std::string launch = std::string("cudaccl backend=") + backend + " " + extra;
    GError* error = nullptr;
    GstElement* element = gst_parse_launch(launch.c_str(), &error);  // one element, not a bin
    if (!element) ADD_FAILURE() << launch << ": " << (error ? error->message : "?");
    g_clear_error(&error);
    if (context) gst_element_set_context(element, context);
    bus_ = gst_bus_new();
    gst_element_set_bus(element, bus_);
    h_ = gst_harness_new_with_element(element, "sink", "src");  // starts it
    gst_object_unref(element);
  }
  ~Harness() {
    gst_harness_teardown(h_);
    gst_object_unref(bus_);
  }
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  GstElement* element() const { return h_->element; }
  GstHarness* get() const { return h_; }
  GstBus* bus() const { return bus_; }

  void set_caps(const std::string& caps) { gst_harness_set_src_caps_str(h_, caps.c_str()); }

  // Pushes `in` and returns the buffer that came out (nullptr when the flow was not OK).
  GstBuffer* process(GstBuffer* in, GstFlowReturn* flow = nullptr) {
    GstFlowReturn r = gst_harness_push(h_, in);
    if (flow) *flow = r;
    return r == GST_FLOW_OK ? gst_harness_pull(h_) : nullptr;
  }

  // The next element message named "ccl", or nullptr.
  GstMessage* pop_ccl_message() {
    while (GstMessage* m = gst_bus_pop_filtered(bus_, GST_MESSAGE_ELEMENT)) {
      if (gst_message_has_name(m, "ccl")) return m;
      gst_message_unref(m);
    }
    return nullptr;
  }

 private:
  GstHarness* h_ = nullptr;
  GstBus* bus_ = nullptr;
};

// Plays `pipeline` to EOS (as play_to_eos) and appends the text of every element message named
// `name` to `texts`, in order. Returns "" at EOS, otherwise what stopped it.
inline std::string play_collecting(GstElement* pipeline, const char* name, std::vector<std::string>* texts) {
  return play_to_eos(pipeline, 120 * GST_SECOND, [&](GstMessage* m) {
    const GstStructure* s = gst_message_get_structure(m);
    if (!gst_structure_has_name(s, name)) return;
    gchar* text = gst_structure_to_string(s);
    texts->push_back(text);
    g_free(text);
  });
}

// Whether the caps `pad` has now say CUDA memory (e.g. nvh264dec's frames in a pad probe).
inline bool pad_carries_cuda_memory(GstPad* pad) {
  GstCaps* caps = gst_pad_get_current_caps(pad);
  const bool cuda = caps && gst_caps_features_contains(gst_caps_get_features(caps, 0), "memory:CUDAMemory");
  if (caps) gst_caps_unref(caps);
  return cuda;
}

// Calls `on_buffer(pad, info, data)` for every buffer leaving the element `name` of `pipeline`.
inline void add_src_probe(GstElement* pipeline, const char* name, GstPadProbeCallback on_buffer, gpointer data) {
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), name);
  ASSERT_NE(e, nullptr) << name;
  GstPad* src = gst_element_get_static_pad(e, "src");
  gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, data, nullptr);
  gst_object_unref(src);
  gst_object_unref(e);
}

inline std::string gray_caps(int w, int h) {
  return "video/x-raw,format=GRAY8,width=" + std::to_string(w) + ",height=" + std::to_string(h) +
         ",framerate=30/1";
}

// A drain query from the harness's sink side: frames held in flight leave before it returns.
inline void drain(GstHarness* h) {
  GstQuery* query = gst_query_new_drain();
  gst_pad_peer_query(h->srcpad, query);
  gst_query_unref(query);
}

inline std::string caps_for(const char* format, int w, int h) {
  return "video/x-raw,format=" + std::string(format) + ",width=" + std::to_string(w) +
         ",height=" + std::to_string(h) + ",framerate=30/1";
}

// Packs plane 0 of `f` into a buffer laid out as GstVideoInfo's default for `format`; bytes outside
// the mask (row padding, chroma planes) are non-zero garbage so reading them changes the result.
inline GstBuffer* pack_default(const frames::Frame& f, GstVideoFormat format) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, guint(f.width), guint(f.height));
  GstBuffer* buf = gst_buffer_new_allocate(nullptr, info.size, nullptr);
  GstMapInfo map;
  gst_buffer_map(buf, &map, GST_MAP_WRITE);
  std::memset(map.data, 0xC3, map.size);
  for (int y = 0; y < f.height; ++y)
    std::memcpy(map.data + info.offset[0] + std::size_t(y) * info.stride[0], &f.pixels[std::size_t(y) * f.stride],
                std::size_t(f.width));
  gst_buffer_unmap(buf, &map);
  return buf;
}

// GRAY8 with an arbitrary row stride announced by a GstVideoMeta.
inline GstBuffer* pack_with_video_meta(const frames::Frame& f, int stride) {
  const std::size_t size = std::size_t(stride) * f.height;
  GstBuffer* buf = gst_buffer_new_allocate(nullptr, size, nullptr);
  GstMapInfo map;
  gst_buffer_map(buf, &map, GST_MAP_WRITE);
  std::memset(map.data, 0x5A, map.size);
  for (int y = 0; y < f.height; ++y)
    std::memcpy(map.data + std::size_t(y) * stride, &f.pixels[std::size_t(y) * f.stride], std::size_t(f.width));
  gst_buffer_unmap(buf, &map);
  gsize offset[GST_VIDEO_MAX_PLANES] = {0};
  gint strides[GST_VIDEO_MAX_PLANES] = {stride};
  gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, guint(f.width),
                                 guint(f.height), 1, offset, strides);
  return buf;
}

// The buffer's ROI metas in the order they were attached.
inline std::vector<GstVideoRegionOfInterestMeta*> rois(GstBuffer* buf) {
  std::vector<GstVideoRegionOfInterestMeta*> v;
  gpointer state = nullptr;
  while (GstMeta* m = gst_buffer_iterate_meta_filtered(buf, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))
    v.push_back(reinterpret_cast<GstVideoRegionOfInterestMeta*>(m));
  return v;
}

// The buffer's "connected-component" ROI metas as components, in attach order (ROI metas of other
// types skipped); a test failure for any without exactly one complete "connected-component" param
// or whose id is not its label.
inline std::vector<ccl::Component> roi_components(GstBuffer* buf) {
  std::vector<ccl::Component> v;
  for (GstVideoRegionOfInterestMeta* roi : rois(buf)) {
    if (roi->roi_type != g_quark_from_string("connected-component")) continue;
    const GstStructure* p = gst_video_region_of_interest_meta_get_param(roi, "connected-component");
    ccl::Component c{};
    c.x = gint32(roi->x), c.y = gint32(roi->y), c.width = gint32(roi->w), c.height = gint32(roi->h);
    if (g_list_length(roi->params) != 1 || !p || gst_structure_n_fields(p) != 4 ||
        !gst_structure_get_uint(p, "label", &c.label) || !gst_structure_get_uint(p, "area", &c.area) ||
        !gst_structure_get_double(p, "centroid-x", &c.centroid_x) ||
        !gst_structure_get_double(p, "centroid-y", &c.centroid_y) || roi->id != gint(c.label))
      ADD_FAILURE() << "ROI meta " << v.size() << " lacks its one connected-component param or its id";
    v.push_back(c);
  }
  return v;
}

// The GstCclMeta read back as a ccl::Result, so compare::diff can check it against the oracle.
inline ccl::Result from_meta(const GstCclMeta& m) {
  ccl::Result r;
  r.width = int(m.width);
  r.height = int(m.height);
  r.connectivity = int(m.connectivity);
  r.n_components_total = m.n_components_total;
  r.truncated = m.truncated;
  for (guint i = 0; i < m.n_components; ++i) {
    const GstCclComponent& c = m.components[i];
    r.components.push_back({c.label, c.area, c.x, c.y, c.width, c.height, c.centroid_x, c.centroid_y});
  }
  return r;
}

// Empty when the buffer's meta describes `f` as the oracle does under `o`.
inline std::string check_meta(GstBuffer* out, const frames::Frame& f, const ccl::Options& o) {
  if (!out) return "no buffer came out";
  const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
  if (!m) return "no GstCclMeta on the buffer";
  std::ostringstream s;
  if (int(m->width) != f.width || int(m->height) != f.height)
    s << "meta size " << m->width << "x" << m->height << " != " << f.width << "x" << f.height << "; ";
  if (int(m->connectivity) != o.connectivity) s << "connectivity " << m->connectivity << "; ";
  s << compare::diff(from_meta(*m), oracle::flood_fill(f, o).result);
  return s.str();
}

}  // namespace elcheck
