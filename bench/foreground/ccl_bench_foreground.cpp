// ccl-bench-foreground: cudaccl foreground=motion open=1 + labelling + GstCclMeta on frames already
// in CUDA memory, against OpenCV MOG2 + 3x3 open + connectedComponentsWithStats on the host's cores,
// on the same frames, in the same process.
//
// Frames: a deterministic synthetic daylight sequence (daylight_frames.hpp), K distinct
// consecutive frames per size, uploaded once into NV12 GstCudaBufferPool buffers (luma = the
// frame, chroma 128) and played in ping-pong order (0..K-1, K-2..1, ...) so the motion stays
// continuous: the element's background model and MOG2 both see one continuous stream.
// Ours: a GstHarness around cudaccl (shallow copies of the ring buffers; latency = push to the
// buffer leaving the element with its GstCclMeta; throughput = frames / wall time of the loop),
// with frames-in-flight=1 and 3, and appsrc ! cudaccl ! fakesink (rate and latency between
// cudaccl's pads). Peers: the OpenCV chain as one stream on all cores (cv::setNumThreads), and as
// N independent streams on N threads (one MOG2 each, its own copy of the frames, one OpenCV
// thread each), the aggregate "streams per server" figure.
// Before timing, a fresh element's GstCclMeta counts on frames 0..64 are compared with a host
// reference of the same foreground arithmetic (ccl/foreground.hpp, OpenCV open and CCWS): the
// counts must be identical, and frames 60..64 must hold components of area >= 50. MOG2 is a
// different model, so its counts are printed, not compared. --host-only runs the scene, the
// reference and the peers without a GPU; --cpu-element-check WxH runs this file's element code on
// cudaccl backend=cpu in system memory (a check of the benchmark, not a figure).
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/background_segm.hpp>

#include "ccl/gstcclmeta.h"
#include "daylight_frames.hpp"
#include "nv12_frame_ring.hpp"
#include "percentile.hpp"

namespace {

using bench::percentile;
using bench::ping_pong;
using Clock = std::chrono::steady_clock;
using Props = std::vector<std::pair<std::string, std::string>>;

constexpr unsigned kLargeArea = 50;  // sanity: a frame's mask must hold some components at least this big

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "ccl-bench-foreground: %s\n", what.c_str());
  std::exit(1);
}

// Sets one property from its string form and reads it back, so a property this cudaccl lacks, or a
// value it refuses, stops the run with a sentence instead of a GLib warning and wrong figures.
void set_property(GstElement* e, const std::string& name, const std::string& value) {
  GParamSpec* spec = g_object_class_find_property(G_OBJECT_GET_CLASS(e), name.c_str());
  if (!spec)
    fail("cudaccl has no property '" + name + "' (is the plugin on GST_PLUGIN_PATH built with the foreground stage?)");
  GValue wanted = G_VALUE_INIT, now = G_VALUE_INIT;
  g_value_init(&wanted, spec->value_type);
  if (!gst_value_deserialize(&wanted, value.c_str()))
    fail("cudaccl property '" + name + "' does not accept the value '" + value + "'");
  g_object_set_property(G_OBJECT(e), name.c_str(), &wanted);
  g_value_init(&now, spec->value_type);
  g_object_get_property(G_OBJECT(e), name.c_str(), &now);
  if (gst_value_compare(&wanted, &now) != GST_VALUE_EQUAL)
    fail("cudaccl property '" + name + "' did not take the value '" + value + "'");
  g_value_unset(&wanted);
  g_value_unset(&now);
}

std::string get_property(GstElement* e, const char* name) {
  GParamSpec* spec = g_object_class_find_property(G_OBJECT_GET_CLASS(e), name);
  if (!spec) return "(none)";
  GValue v = G_VALUE_INIT;
  g_value_init(&v, spec->value_type);
  g_object_get_property(G_OBJECT(e), name, &v);
  gchar* s = gst_value_serialize(&v);
  std::string text = s ? s : "?";
  g_free(s);
  g_value_unset(&v);
  return text;
}

// The element under test: backend=cuda foreground=motion open=1 (--foreground adaptive: foreground=adaptive
// and its own clean-up), GstCclMeta only unless `roi` asks for ROI metas too; motion-factor and close
// stay at their defaults.
std::string g_backend = "cuda";  // "cpu" with --cpu-element-check (system memory, no GPU)
std::string g_foreground = "motion";
bool g_chroma = false;      // --chroma: chroma=true, on frames whose ground has colour
bool g_join_parts = false;  // --join-parts: join-parts=true (the host joins each frame's parts)
std::string g_min_area;     // --min-area N: min-area=N (the recommended line's 50)
Props g_extra;              // --prop KEY=VALUE: any other property (the labelling kernels, say), in order

Props element_props(guint in_flight, bool roi = false) {
  Props props{{"backend", g_backend},
              {"foreground", g_foreground},
              {"open", g_foreground == "motion" ? "1" : "0"},
              {"attach-roi-meta", roi ? "true" : "false"},
              {"frames-in-flight", std::to_string(in_flight)}};
  if (g_chroma) props.push_back({"chroma", "true"});
  if (g_join_parts) props.push_back({"join-parts", "true"});
  if (!g_min_area.empty()) props.push_back({"min-area", g_min_area});
  props.insert(props.end(), g_extra.begin(), g_extra.end());
  return props;
}

std::string props_text(const Props& props) {
  std::string t;
  for (const auto& [k, v] : props) t += (t.empty() ? "" : " ") + k + "=" + v;
  return t;
}

void configure(GstElement* e, GstCudaContext* context, const Props& props) {
  for (const auto& [k, v] : props) set_property(e, k, v);
  if (!context) return;  // --cpu-element-check: system memory
  GstContext* c = gst_context_new_cuda_context(context);
  gst_element_set_context(e, c);
  gst_context_unref(c);
}

std::vector<const std::uint8_t*> lumas_of(const bench::DaylightSequence& seq) {
  std::vector<const std::uint8_t*> lumas;
  for (const auto& f : seq.frames) lumas.push_back(f.data());
  return lumas;
}

// The sequence as NV12 buffers uploaded once (bench/common/nv12_frame_ring.hpp; no context: system memory).
struct Ring : bench::Nv12FrameRing {
  Ring(GstCudaContext* context, const bench::DaylightSequence& seq)
      : Nv12FrameRing(context, seq.width, seq.height, seq.stride, lumas_of(seq), g_chroma) {}
  // Frame i of the stream, ping-pong over the ring; a shallow copy sharing the CUDA memory.
  GstBuffer* frame(std::size_t i) const { return gst_buffer_copy(buffers[ping_pong(i, buffers.size())]); }
};

GstHarness* make_harness(GstCudaContext* context, const Ring& ring, const Props& props) {
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  if (!e) fail("gst_element_factory_make(cudaccl) failed (GST_PLUGIN_PATH?)");
  configure(e, context, props);
  GstBus* bus = gst_bus_new();  // so the element's error message can be quoted when a push fails
  gst_element_set_bus(e, bus);
  gst_object_unref(bus);
  GstHarness* h = gst_harness_new_with_element(e, "sink", "src");
  gst_object_unref(e);
  gst_harness_set_src_caps(h, gst_caps_ref(ring.caps));
  return h;
}

// The element's own words when a push failed: the first error on its bus.
std::string harness_error(GstHarness* h) {
  GstBus* bus = gst_element_get_bus(h->element);
  GstMessage* m = bus ? gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR) : nullptr;
  std::string text = "no error message";
  if (m) {
    GError* err = nullptr;
    gchar* debug = nullptr;
    gst_message_parse_error(m, &err, &debug);
    text = std::string(err ? err->message : "?") + (debug ? std::string(" (") + debug + ")" : "");
    if (err) g_error_free(err);
    g_free(debug);
    gst_message_unref(m);
  }
  if (bus) gst_object_unref(bus);
  return text;
}

struct Figures {
  double fps = 0, median_ms = 0, p99_ms = 0;   // latency: push (or arrival) to the buffer leaving cudaccl
  double step_median_ms = 0, step_p99_ms = 0;  // harness with frames in flight: one push-and-pull step
  double mean_components = 0;                  // GstCclMeta n_components_total, per timed frame
  int frames = 0;
  bool valid = false;
};

// cudaccl in a harness: `warmup` frames, then `n` timed, one push then one pull per step. With
// frames-in-flight=N the pull after push j returns frame j-N+1 (pushed N-1 steps earlier): its
// latency runs from its own push to that pull, so at full rate it spans N steps.
Figures time_harness(GstCudaContext* context, const Ring& ring, const Props& props, guint in_flight, int warmup,
                     int n) {
  GstHarness* h = make_harness(context, ring, props);
  std::size_t i = 0;
  const std::size_t lag = in_flight - 1;
  for (; i < lag; ++i)
    if (gst_harness_push(h, ring.frame(i)) != GST_FLOW_OK) fail("push failed: " + harness_error(h));
  for (int j = 0; j < warmup; ++j, ++i) {
    if (gst_harness_push(h, ring.frame(i)) != GST_FLOW_OK) fail("push failed: " + harness_error(h));
    gst_buffer_unref(gst_harness_pull(h));
  }
  std::vector<Clock::time_point> pushed(std::size_t(n) + lag);
  std::vector<double> latency, step;
  latency.reserve(std::size_t(n));
  step.reserve(std::size_t(n));
  double components = 0;
  int with_meta = 0;
  // The first `lag` timed pulls return warm-up frames: their latency is not counted.
  const auto start = Clock::now();
  for (int j = 0; j < n; ++j, ++i) {
    GstBuffer* in = ring.frame(i);
    const auto t = Clock::now();
    pushed[std::size_t(j)] = t;
    if (gst_harness_push(h, in) != GST_FLOW_OK) fail("push failed: " + harness_error(h));
    GstBuffer* out = gst_harness_pull(h);
    const auto done = Clock::now();
    if (!out) fail("pull returned no buffer");
    step.push_back(ms_between(t, done));
    if (std::size_t(j) >= lag) latency.push_back(ms_between(pushed[std::size_t(j) - lag], done));
    if (const GstCclMeta* m = gst_buffer_get_ccl_meta(out)) components += m->n_components_total, ++with_meta;
    gst_buffer_unref(out);
  }
  const double wall = ms_since(start);
  gst_harness_teardown(h);
  if (with_meta != n) std::printf("  WARNING: %d of %d output buffers carried no GstCclMeta\n", n - with_meta, n);
  Figures f;
  f.fps = n / wall * 1e3;
  f.median_ms = percentile(latency, 0.5), f.p99_ms = percentile(latency, 0.99);
  f.step_median_ms = percentile(step, 0.5), f.step_p99_ms = percentile(step, 0.99);
  f.mean_components = with_meta ? components / with_meta : 0;
  f.frames = n;
  f.valid = true;
  return f;
}

// appsrc ! cudaccl ! fakesink sync=false, appsrc pushing as fast as it can. Rate = buffers leaving
// cudaccl per second after the warm-up; latency = a buffer's arrival on cudaccl's sink pad to its
// departure from the src pad (both on appsrc's streaming thread; buffers leave in arrival order).
Figures time_pipeline(GstCudaContext* context, const Ring& ring, const Props& props, int warmup, int n) {
  GError* error = nullptr;
  GstElement* p = gst_parse_launch(
      "appsrc name=src format=time block=true max-buffers=8 ! cudaccl name=ccl ! fakesink sync=false", &error);
  if (!p) fail(error ? error->message : "gst_parse_launch failed");
  GstElement* src = gst_bin_get_by_name(GST_BIN(p), "src");
  GstElement* ccl = gst_bin_get_by_name(GST_BIN(p), "ccl");
  g_object_set(src, "caps", ring.caps, nullptr);
  configure(ccl, context, props);
  struct Probe {
    int warm = 0, seen = 0, with_meta = 0;
    double components = 0;
    std::vector<Clock::time_point> in;
    std::vector<double> latency;
    Clock::time_point start, end;
  } probe;
  const int total = std::max(1, warmup) + n;
  probe.warm = std::max(1, warmup);
  probe.in.reserve(std::size_t(total) + 1);
  probe.latency.reserve(std::size_t(n));
  GstPad* sink = gst_element_get_static_pad(ccl, "sink");
  gst_pad_add_probe(
      sink, GST_PAD_PROBE_TYPE_BUFFER,
      [](GstPad*, GstPadProbeInfo*, gpointer d) {
        static_cast<Probe*>(d)->in.push_back(Clock::now());  // buffers leave in the order they came
        return GST_PAD_PROBE_OK;
      },
      &probe, nullptr);
  gst_object_unref(sink);
  GstPad* out = gst_element_get_static_pad(ccl, "src");
  gst_pad_add_probe(
      out, GST_PAD_PROBE_TYPE_BUFFER,
      [](GstPad*, GstPadProbeInfo* info, gpointer d) {
        auto* k = static_cast<Probe*>(d);
        const auto now = Clock::now();
        GstBuffer* b = GST_PAD_PROBE_INFO_BUFFER(info);
        if (++k->seen == k->warm) k->start = now;
        k->end = now;
        if (k->seen > k->warm) {
          if (std::size_t(k->seen) <= k->in.size())
            k->latency.push_back(ms_between(k->in[std::size_t(k->seen) - 1], now));
          if (const GstCclMeta* m = gst_buffer_get_ccl_meta(b)) k->components += m->n_components_total, ++k->with_meta;
        }
        return GST_PAD_PROBE_OK;
      },
      &probe, nullptr);
  gst_object_unref(out);
  if (gst_element_set_state(p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) fail("pipeline to PLAYING failed");
  for (int i = 0; i < total; ++i) {
    GstBuffer* b = ring.frame(std::size_t(i));
    GST_BUFFER_PTS(b) = GstClockTime(i) * GST_SECOND / 30;
    GST_BUFFER_DURATION(b) = GST_SECOND / 30;
    GST_BUFFER_OFFSET(b) = guint64(i);
    GstFlowReturn ret = GST_FLOW_OK;
    g_signal_emit_by_name(src, "push-buffer", b, &ret);
    gst_buffer_unref(b);
    if (ret != GST_FLOW_OK) fail("appsrc push-buffer failed");
  }
  GstFlowReturn ret = GST_FLOW_OK;
  g_signal_emit_by_name(src, "end-of-stream", &ret);
  GstBus* bus = gst_element_get_bus(p);
  GstMessage* m = gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  if (!m || GST_MESSAGE_TYPE(m) != GST_MESSAGE_EOS) {
    GError* err = nullptr;
    if (m && GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) gst_message_parse_error(m, &err, nullptr);
    fail(std::string("pipeline did not reach EOS: ") + (err ? err->message : "timeout"));
  }
  gst_message_unref(m);
  gst_object_unref(bus);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(ccl);
  gst_object_unref(p);
  if (probe.seen != total) fail("pipeline frame count");
  Figures f;
  f.fps = n / std::chrono::duration<double>(probe.end - probe.start).count();
  f.median_ms = percentile(probe.latency, 0.5), f.p99_ms = percentile(probe.latency, 0.99);
  f.mean_components = probe.with_meta ? probe.components / probe.with_meta : 0;
  f.frames = n;
  f.valid = true;
  return f;
}

// The foreground stage of ccl/foreground.hpp on the host (Sigma-Delta, then opening with the
// clipped square: OpenCV's default morphology border), labelled by connectedComponentsWithStats:
// the component count the element must report for the same frame, byte-identical arithmetic.
struct SigmaDeltaReference {
  int motion_factor = 4, open_radius = 1;
  std::vector<std::uint8_t> m, v;
  cv::Mat mask, opened, labels, stats, centroids;
  bool started = false;

  // Returns the components of frame `f`, in stream order.
  int apply(const std::vector<std::uint8_t>& f, int w, int h, std::size_t stride) {
    mask.create(h, w, CV_8U);
    if (!started) {
      m.resize(std::size_t(w) * std::size_t(h)), v.assign(m.size(), 2);
      for (int y = 0; y < h; ++y)
        std::memcpy(&m[std::size_t(y) * std::size_t(w)], &f[std::size_t(y) * stride], std::size_t(w));
      mask.setTo(0);
      started = true;
      return 0;
    }
    for (int y = 0; y < h; ++y) {
      std::uint8_t* out = mask.ptr<std::uint8_t>(y);
      for (int x = 0; x < w; ++x) {
        const std::size_t at = std::size_t(y) * std::size_t(w) + std::size_t(x);
        const int i = f[std::size_t(y) * stride + std::size_t(x)];
        int mm = m[at], vv = v[at];
        mm += (i > mm) - (i < mm);
        const int d = std::abs(i - mm);
        if (d != 0) {
          const int target = std::min(motion_factor * d, 255);
          vv += (target > vv) - (target < vv);
        }
        vv = std::clamp(vv, 2, 255);
        m[at] = std::uint8_t(mm), v[at] = std::uint8_t(vv);
        out[x] = d >= vv ? 255 : 0;
      }
    }
    const cv::Mat kernel =
        cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * open_radius + 1, 2 * open_radius + 1));
    if (open_radius > 0)
      cv::morphologyEx(mask, opened, cv::MORPH_OPEN, kernel);
    else
      opened = mask;
    return cv::connectedComponentsWithStats(opened, labels, stats, centroids, 8, CV_32S) - 1;
  }
  int count_large() const {
    int n = 0;
    for (int i = 1; i < stats.rows; ++i) n += stats.at<int>(i, cv::CC_STAT_AREA) >= int(kLargeArea);
    return n;
  }
};

// Host only (no GPU): the reference's counts on the frames sanity() checks.
void reference_counts(const bench::DaylightSequence& seq, int settle, int check) {
  SigmaDeltaReference ref;
  std::printf(
      "  host Sigma-Delta reference (motion-factor=4 open=1, 8-conn), frames %d..%d: components total / "
      "area >= %u:",
      settle, settle + check - 1, kLargeArea);
  for (int i = 0; i < settle + check; ++i) {
    const int n =
        ref.apply(seq.frames[ping_pong(std::size_t(i), seq.frames.size())], seq.width, seq.height, seq.stride);
    if (i >= settle) std::printf(" %d/%d", n, ref.count_large());
  }
  std::printf("\n");
}

// Before timing: a fresh element on the stream's first frames; after `settle` frames (the model
// starts from frame 0 and learns), `check` frames must each hold components of area >= kLargeArea.
bool sanity(GstCudaContext* context, const Ring& ring, const bench::DaylightSequence& seq, int settle, int check,
            std::string& effective) {
  SigmaDeltaReference ref;
  int mismatches = 0;
  std::string reference_text;
  GstHarness* h = make_harness(context, ring, element_props(1));
  effective = "foreground=" + get_property(h->element, "foreground") +
              " motion-factor=" + get_property(h->element, "motion-factor") +
              " open=" + get_property(h->element, "open") + " close=" + get_property(h->element, "close") +
              " threshold=" + get_property(h->element, "threshold") +
              " connectivity=" + get_property(h->element, "connectivity");
  // The reference follows the element's own motion-factor (its default is documented as 4).
  if (const int n = std::atoi(get_property(h->element, "motion-factor").c_str()); n >= 1 && n <= 15)
    ref.motion_factor = n;
  bool ok = true;
  std::printf("  sanity, fresh element, frames %d..%d of the stream: components total / area >= %u / largest area:",
              settle, settle + check - 1, kLargeArea);
  for (int i = 0; i < settle + check; ++i) {
    GstBuffer* out = gst_harness_push_and_pull(h, ring.frame(std::size_t(i)));
    if (!out) fail("sanity: frame " + std::to_string(i) + " gave no output buffer: " + harness_error(h));
    const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
    const int expected =
        ref.apply(seq.frames[ping_pong(std::size_t(i), seq.frames.size())], seq.width, seq.height, seq.stride);
    if (m && int(m->n_components_total) != expected && g_foreground == "motion") ++mismatches;
    if (i >= settle) {
      reference_text += " " + std::to_string(expected) + "/" + std::to_string(ref.count_large());
      if (!m) {
        std::printf(" (no GstCclMeta)");
        ok = false;
      } else {
        unsigned large = 0, largest = 0;
        for (guint c = 0; c < m->n_components; ++c) {
          large += m->components[c].area >= kLargeArea;
          largest = std::max<unsigned>(largest, m->components[c].area);
        }
        std::printf(" %u/%u/%u", m->n_components_total, large, largest);
        if (large == 0) ok = false;
      }
    }
    gst_buffer_unref(out);
  }
  gst_harness_teardown(h);
  std::printf(" -> %s\n", ok ? "ok" : "SANITY FAILED (no component of that size in some frame)");
  std::printf(
      "  host Sigma-Delta reference (ccl/foreground.hpp arithmetic, motion-factor=%d open=1, OpenCV open and CCWS "
      "8-conn), same frames: components total / area >= %u:%s; element vs reference component counts on frames "
      "0..%d: %s\n",
      ref.motion_factor, kLargeArea, reference_text.c_str(), settle + check - 1,
      g_foreground != "motion" ? "not compared (the reference is foreground=motion's; tests/gpu checks adaptive)"
      : mismatches             ? ("MISMATCH on " + std::to_string(mismatches) + " frames").c_str()
                               : "identical");
  return ok;
}

// One OpenCV chain: MOG2 (default history 500, varThreshold 16, detectShadows=false) on the luma
// plane, 3x3 open, connectedComponentsWithStats 8-connectivity (CCL_DEFAULT, CV_32S labels).
struct CvChain {
  cv::Ptr<cv::BackgroundSubtractorMOG2> mog2 = cv::createBackgroundSubtractorMOG2(500, 16, false);
  cv::Mat kernel = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  cv::Mat fg, opened, labels, stats, centroids;
  int components = 0, large = 0;
  double mog2_ms = 0, open_ms = 0, ccl_ms = 0;

  void apply(const cv::Mat& luma) {
    const auto t0 = Clock::now();
    mog2->apply(luma, fg);
    const auto t1 = Clock::now();
    cv::morphologyEx(fg, opened, cv::MORPH_OPEN, kernel);
    const auto t2 = Clock::now();
    components = cv::connectedComponentsWithStats(opened, labels, stats, centroids, 8, CV_32S) - 1;
    const auto t3 = Clock::now();
    mog2_ms = ms_between(t0, t1), open_ms = ms_between(t1, t2), ccl_ms = ms_between(t2, t3);
  }
  int count_large() const {
    int n = 0;
    for (int i = 1; i <= components; ++i) n += stats.at<int>(i, cv::CC_STAT_AREA) >= int(kLargeArea);
    return n;
  }
};

cv::Mat luma_of(const std::vector<std::uint8_t>& f, int w, int h, std::size_t stride) {
  return cv::Mat(h, w, CV_8U, const_cast<std::uint8_t*>(f.data()), stride);
}

struct CvFigures {
  double fps = 0, median_ms = 0, p99_ms = 0;
  double mog2_fps = 0, mog2_median_ms = 0, open_median_ms = 0, ccl_median_ms = 0;
  double mean_components = 0, mean_large = 0;
  int frames = 0, streams = 1, threads = 1;
  double per_stream_fps_min = 0, per_stream_fps_max = 0;
};

// One stream, OpenCV's own parallel_for_ over `threads` threads.
CvFigures time_cv_single(const bench::DaylightSequence& seq, int threads, int warmup, int n, double cap_s) {
  cv::setNumThreads(threads);
  CvChain chain;
  const std::size_t k = seq.frames.size();
  std::size_t i = 0;
  for (int j = 0; j < warmup; ++j, ++i)
    chain.apply(luma_of(seq.frames[ping_pong(i, k)], seq.width, seq.height, seq.stride));
  std::vector<double> total, mog2, open, ccl;
  double components = 0, large = 0;
  const auto start = Clock::now();
  int done = 0;
  for (; done < n; ++done, ++i) {
    if (done > 0 && ms_since(start) > cap_s * 1e3) break;
    chain.apply(luma_of(seq.frames[ping_pong(i, k)], seq.width, seq.height, seq.stride));
    total.push_back(chain.mog2_ms + chain.open_ms + chain.ccl_ms);
    mog2.push_back(chain.mog2_ms), open.push_back(chain.open_ms), ccl.push_back(chain.ccl_ms);
    components += chain.components, large += chain.count_large();
  }
  const double wall = ms_since(start);
  CvFigures f;
  f.fps = done / wall * 1e3;
  f.median_ms = percentile(total, 0.5), f.p99_ms = percentile(total, 0.99);
  f.mog2_fps = done / std::accumulate(mog2.begin(), mog2.end(), 0.0) * 1e3;
  f.mog2_median_ms = percentile(mog2, 0.5), f.open_median_ms = percentile(open, 0.5);
  f.ccl_median_ms = percentile(ccl, 0.5);
  f.mean_components = components / std::max(1, done), f.mean_large = large / std::max(1, done);
  f.frames = done, f.threads = cv::getNumThreads();
  return f;
}

// `streams` independent streams on as many threads, OpenCV single-threaded in each: every stream
// has its own MOG2 and its own copy of the frames, starts at its own phase of the ping-pong, warms
// up, then all start together; aggregate rate = all timed frames / wall time until the last ends.
CvFigures time_cv_streams(const bench::DaylightSequence& seq, int streams, int warmup, int n, double cap_s) {
  cv::setNumThreads(1);
  const std::size_t k = seq.frames.size(), period = k < 2 ? 1 : 2 * k - 2;
  std::mutex mutex;
  std::condition_variable cv_ready;
  int ready = 0;
  bool go = false;
  Clock::time_point start;
  struct Result {
    int frames = 0;
    double components = 0, large = 0, wall_ms = 0;
    std::vector<double> latency;
    Clock::time_point end;
  };
  std::vector<Result> results(static_cast<std::size_t>(streams));
  std::vector<std::thread> pool;
  for (int s = 0; s < streams; ++s)
    pool.emplace_back([&, s] {
      const std::vector<std::vector<std::uint8_t>> frames = seq.frames;  // this stream's own copy
      CvChain chain;
      std::size_t i = std::size_t(s) * period / std::size_t(streams);
      for (int j = 0; j < warmup; ++j, ++i)
        chain.apply(luma_of(frames[ping_pong(i, k)], seq.width, seq.height, seq.stride));
      {
        std::unique_lock<std::mutex> lock(mutex);
        if (++ready == streams) {
          go = true;
          start = Clock::now();
          cv_ready.notify_all();
        } else {
          cv_ready.wait(lock, [&] { return go; });
        }
      }
      Result& r = results[std::size_t(s)];
      r.latency.reserve(std::size_t(n));
      const auto my_start = Clock::now();
      for (; r.frames < n; ++r.frames, ++i) {
        if (r.frames > 0 && ms_since(start) > cap_s * 1e3) break;
        chain.apply(luma_of(frames[ping_pong(i, k)], seq.width, seq.height, seq.stride));
        r.latency.push_back(chain.mog2_ms + chain.open_ms + chain.ccl_ms);
        r.components += chain.components, r.large += chain.count_large();
      }
      r.end = Clock::now();
      r.wall_ms = ms_between(my_start, r.end);
    });
  for (std::thread& t : pool) t.join();
  CvFigures f;
  Clock::time_point end = start;
  std::vector<double> latency;
  double components = 0, large = 0;
  f.per_stream_fps_min = 1e300;
  for (const Result& r : results) {
    end = std::max(end, r.end);
    f.frames += r.frames;
    latency.insert(latency.end(), r.latency.begin(), r.latency.end());
    components += r.components, large += r.large;
    const double fps = r.frames / r.wall_ms * 1e3;
    f.per_stream_fps_min = std::min(f.per_stream_fps_min, fps),
    f.per_stream_fps_max = std::max(f.per_stream_fps_max, fps);
  }
  f.fps = f.frames / ms_between(start, end) * 1e3;
  f.median_ms = percentile(latency, 0.5), f.p99_ms = percentile(latency, 0.99);
  f.mean_components = components / std::max(1, f.frames), f.mean_large = large / std::max(1, f.frames);
  f.streams = streams, f.threads = 1;
  return f;
}

struct Config {
  int frames = 3000, warmup = 200;
  int ring_1080 = 120, ring_2160 = 60;
  int cv_frames = 300, cv_warmup = 30;
  int stream_frames_1080 = 60, stream_warmup_1080 = 20, stream_frames_2160 = 20, stream_warmup_2160 = 10;
  int streams = 0;       // 0: one per host core
  double cv_cap_s = 30;  // each OpenCV figure stops timing after this many seconds
  bool only_1080 = false, only_2160 = false, roi_variant = true;
  bench::DaylightParams scene;                    // --objects, --noise-sigma
  bool host_only = false;                         // no GPU: the scene, the host reference and the OpenCV peers only
  int cpu_check_width = 0, cpu_check_height = 0;  // --cpu-element-check WxH
};

bool run_size(GstCudaContext* context, int w, int h, const Config& cfg, int cores) {
  const bool big = w * h > 4000000;
  const int k = big ? cfg.ring_2160 : cfg.ring_1080;
  auto t = Clock::now();
  const bench::DaylightSequence seq = bench::make_daylight_sequence(w, h, k, cfg.scene, cores);
  const double gen_ms = ms_since(t);
  struct Row {
    std::string id, name;  // id: the csv's column, no commas
    Figures f;
  };
  std::vector<Row> ours;
  bool ok = true;
  if (!context) {  // --host-only: the scene and the peers, no element
    std::printf(
        "\n== %dx%d, synthetic daylight: %d distinct frames played ping-pong (generated in %.0f ms); "
        "host only, no element\n",
        w, h, k, gen_ms);
    reference_counts(seq, 60, 5);
  } else {
    t = Clock::now();
    Ring ring(context, seq);
    const double upload_ms = ms_since(t);
    std::printf(
        "\n== %dx%d NV12 in CUDA memory, synthetic daylight: %d distinct frames played ping-pong "
        "(generated in %.0f ms, uploaded once in %.0f ms)\n",
        w, h, k, gen_ms, upload_ms);

    std::string effective;
    ok = sanity(context, ring, seq, 60, 5, effective);
    std::printf("  element: cudaccl %s; properties read back: %s\n", props_text(element_props(1)).c_str(),
                effective.c_str());

    ours.push_back({"harness_fif1", "harness, frames-in-flight=1",
                    time_harness(context, ring, element_props(1), 1, cfg.warmup, cfg.frames)});
    ours.push_back({"harness_fif3", "harness, frames-in-flight=3",
                    time_harness(context, ring, element_props(3), 3, cfg.warmup, cfg.frames)});
    ours.push_back({"pipeline_fif1", "appsrc ! cudaccl ! fakesink, frames-in-flight=1",
                    time_pipeline(context, ring, element_props(1), cfg.warmup, cfg.frames)});
    ours.push_back({"pipeline_fif3", "appsrc ! cudaccl ! fakesink, frames-in-flight=3",
                    time_pipeline(context, ring, element_props(3), cfg.warmup, cfg.frames)});
    if (cfg.roi_variant)
      ours.push_back({"harness_fif1_roi", "harness, frames-in-flight=1, + ROI metas (attach-roi-meta=true)",
                      time_harness(context, ring, element_props(1, true), 1, cfg.warmup, cfg.frames)});
  }
  const int streams = cfg.streams > 0 ? cfg.streams : cores;
  const CvFigures single = time_cv_single(seq, cores, cfg.cv_warmup, cfg.cv_frames, cfg.cv_cap_s);
  const CvFigures multi = time_cv_streams(seq, streams, big ? cfg.stream_warmup_2160 : cfg.stream_warmup_1080,
                                          big ? cfg.stream_frames_2160 : cfg.stream_frames_1080, cfg.cv_cap_s);

  std::printf("  %-64s %9s %10s %10s %10s %8s\n", "figure", "frames/s", "median us", "p99 us", "comp/frame", "frames");
  for (const Row& r : ours)
    std::printf("  ours: %-58s %9.0f %10.1f %10.1f %10.1f %8d\n", r.name.c_str(), r.f.fps, r.f.median_ms * 1e3,
                r.f.p99_ms * 1e3, r.f.mean_components, r.f.frames);
  std::printf("  %-64s %9.1f %10.1f %10.1f %10.1f %8d\n",
              ("OpenCV MOG2+open3x3+CCWS, 1 stream, " + std::to_string(single.threads) + " threads").c_str(),
              single.fps, single.median_ms * 1e3, single.p99_ms * 1e3, single.mean_components, single.frames);
  std::printf("  %-64s %9.1f %10.1f %10s %10s %8d\n",
              ("OpenCV MOG2 alone (same run), " + std::to_string(single.threads) + " threads").c_str(), single.mog2_fps,
              single.mog2_median_ms * 1e3, "-", "-", single.frames);
  std::printf("  %-64s %9.1f %10.1f %10.1f %10.1f %8d\n",
              ("OpenCV chain, " + std::to_string(multi.streams) + " streams x 1 thread, aggregate").c_str(), multi.fps,
              multi.median_ms * 1e3, multi.p99_ms * 1e3, multi.mean_components, multi.frames);
  if (ours.size() > 1)
    std::printf(
        "  harness with frames-in-flight=3: one push-and-pull step median %.1f us, p99 %.1f us (the latency "
        "above spans 3 steps: a frame leaves 2 pushes after it came)\n",
        ours[1].f.step_median_ms * 1e3, ours[1].f.step_p99_ms * 1e3);
  std::printf(
      "  OpenCV 1 stream stages, median ms: MOG2 %.2f, open %.2f, CCWS %.2f; mean components/frame %.1f "
      "(area >= %u: %.1f); %d streams: per-stream %.1f..%.1f frames/s, mean components %.1f (area >= %u: %.1f)\n",
      single.mog2_median_ms, single.open_median_ms, single.ccl_median_ms, single.mean_components, kLargeArea,
      single.mean_large, multi.streams, multi.per_stream_fps_min, multi.per_stream_fps_max, multi.mean_components,
      kLargeArea, multi.mean_large);
  const double goal = big ? 8000 : 20000;
  std::printf("  speed-up of ours (frames/s) over the OpenCV chain:\n");
  std::printf("  %-64s %12s %14s %10s %10s\n", "", "vs 1 stream", "vs N streams", "goal fps", "goal 100x");
  for (const Row& r : ours)
    std::printf("  ours: %-58s %11.0fx %13.0fx %10s %10s\n", r.name.c_str(), r.f.fps / single.fps, r.f.fps / multi.fps,
                r.f.fps >= goal ? "met" : "NOT met",
                r.f.fps >= 100 * std::max(single.fps, multi.fps) ? "met" : "NOT met");
  std::printf(
      "  (goal: >= %.0f frames/s at this size and >= 100x the chain, taken against the better of its two "
      "figures)\n",
      goal);
  for (const Row& r : ours)
    std::printf("csv,%d,%d,%s,%.0f,%.1f,%.1f,%.1f,%.2f,%.2f,%.1f,%.1f\n", w, h, r.id.c_str(), r.f.fps,
                r.f.median_ms * 1e3, r.f.p99_ms * 1e3, r.f.mean_components, single.fps, multi.fps, r.f.fps / single.fps,
                r.f.fps / multi.fps);
  std::printf("csv_opencv,%d,%d,%d,%.2f,%.2f,%.2f,%.1f,%d,%.2f,%.2f,%.1f,%d,%d\n", w, h, single.threads, single.fps,
              single.mog2_fps, single.median_ms, single.mean_components, multi.streams, multi.fps, multi.median_ms,
              multi.mean_components, single.frames, multi.frames);
  return ok;
}

// --cpu-element-check: no GPU. cudaccl backend=cpu on system-memory NV12 through the same code
// (properties, sanity against the host reference, harness and pipeline loops): a check of the
// benchmark itself on a machine without a GPU, not a figure to report.
bool cpu_element_check(const Config& cfg, int w, int h, int cores) {
  g_backend = "cpu";
  const bench::DaylightSequence seq = bench::make_daylight_sequence(w, h, cfg.ring_1080, cfg.scene, cores);
  Ring ring(nullptr, seq);
  std::printf("\n== %dx%d NV12 in system memory, cudaccl backend=cpu (a check of the benchmark, not a figure)\n", w, h);
  std::string effective;
  const bool ok = sanity(nullptr, ring, seq, 60, 5, effective);
  std::printf("  element: cudaccl %s; properties read back: %s\n", props_text(element_props(1)).c_str(),
              effective.c_str());
  const std::pair<const char*, Figures> rows[] = {
      {"harness, frames-in-flight=1", time_harness(nullptr, ring, element_props(1), 1, cfg.warmup, cfg.frames)},
      {"harness, frames-in-flight=3", time_harness(nullptr, ring, element_props(3), 3, cfg.warmup, cfg.frames)},
      {"appsrc ! cudaccl ! fakesink, frames-in-flight=1",
       time_pipeline(nullptr, ring, element_props(1), cfg.warmup, cfg.frames)},
      {"appsrc ! cudaccl ! fakesink, frames-in-flight=3",
       time_pipeline(nullptr, ring, element_props(3), cfg.warmup, cfg.frames)}};
  for (const auto& [name, f] : rows)
    std::printf("  cpu: %-52s %9.0f fps  median %9.1f us  p99 %9.1f us  %7.1f components/frame  (%d frames)\n", name,
                f.fps, f.median_ms * 1e3, f.p99_ms * 1e3, f.mean_components, f.frames);
  return ok;
}

std::string device_name() {
  CUdevice dev;
  char name[256] = "unknown";
  if (CuDeviceGet(&dev, 0) != CUDA_SUCCESS || CuDeviceGetName(name, sizeof name, dev) != CUDA_SUCCESS) return "unknown";
  return name;
}

void usage() {
  std::printf(
      "usage: ccl-bench-foreground [--frames N] [--warmup N] [--ring-1080 K] [--ring-2160 K] [--cv-frames N]\n"
      "  [--cv-warmup N] [--streams N] [--stream-frames-1080 N] [--stream-frames-2160 N]\n"
      "  [--stream-warmup-1080 N] [--stream-warmup-2160 N] [--cv-cap-s S]\n"
      "  [--only-1080 | --only-2160] [--no-roi-variant] [--host-only] [--cpu-element-check WxH]\n"
      "  [--objects N] [--noise-sigma S] [--foreground motion|adaptive] [--chroma] [--join-parts]\n"
      "  [--min-area N] [--prop KEY=VALUE ...]\n"
      "--host-only: no GPU; the scene, the host Sigma-Delta reference counts and the OpenCV peers\n"
      "--cpu-element-check WxH: no GPU; cudaccl backend=cpu on system memory through the benchmark's code\n");
}

}  // namespace

int main(int argc, char** argv) {
  Config cfg;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool v = i + 1 < argc;
    if (a == "--foreground" && i + 1 < argc)
      g_foreground = argv[++i];
    else if (a == "--chroma")
      g_chroma = true;
    else if (a == "--join-parts")
      g_join_parts = true;
    else if (v && a == "--min-area")
      g_min_area = argv[++i];
    else if (v && a == "--prop" && std::strchr(argv[i + 1], '=')) {
      const std::string kv = argv[++i];
      const std::size_t eq = kv.find('=');
      g_extra.push_back({kv.substr(0, eq), kv.substr(eq + 1)});
    } else if (a == "--only-1080")
      cfg.only_1080 = true;
    else if (a == "--only-2160")
      cfg.only_2160 = true;
    else if (a == "--no-roi-variant")
      cfg.roi_variant = false;
    else if (a == "--host-only")
      cfg.host_only = true;
    else if (v && a == "--cpu-element-check" &&
             std::sscanf(argv[i + 1], "%dx%d", &cfg.cpu_check_width, &cfg.cpu_check_height) == 2)
      ++i;
    else if (v && a == "--frames")
      cfg.frames = std::atoi(argv[++i]);
    else if (v && a == "--warmup")
      cfg.warmup = std::atoi(argv[++i]);
    else if (v && a == "--ring-1080")
      cfg.ring_1080 = std::atoi(argv[++i]);
    else if (v && a == "--ring-2160")
      cfg.ring_2160 = std::atoi(argv[++i]);
    else if (v && a == "--cv-frames")
      cfg.cv_frames = std::atoi(argv[++i]);
    else if (v && a == "--cv-warmup")
      cfg.cv_warmup = std::atoi(argv[++i]);
    else if (v && a == "--streams")
      cfg.streams = std::atoi(argv[++i]);
    else if (v && a == "--stream-frames-1080")
      cfg.stream_frames_1080 = std::atoi(argv[++i]);
    else if (v && a == "--stream-frames-2160")
      cfg.stream_frames_2160 = std::atoi(argv[++i]);
    else if (v && a == "--cv-cap-s")
      cfg.cv_cap_s = std::atof(argv[++i]);
    else if (v && a == "--objects")
      cfg.scene.objects = std::atoi(argv[++i]);
    else if (v && a == "--noise-sigma")
      cfg.scene.noise_sigma = std::atof(argv[++i]);
    else if (v && a == "--stream-warmup-1080")
      cfg.stream_warmup_1080 = std::atoi(argv[++i]);
    else if (v && a == "--stream-warmup-2160")
      cfg.stream_warmup_2160 = std::atoi(argv[++i]);
    else {
      usage();
      return a == "--help" || a == "-h" ? 0 : 1;
    }
  }
  if (cfg.frames < 1 || cfg.warmup < 0 || cfg.ring_1080 < 2 || cfg.ring_2160 < 2 || cfg.cv_frames < 1) {
    usage();
    return 1;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines reach the log even if the run is cut short
  gst_init(&argc, &argv);
  if (cfg.cpu_check_width > 0 && cfg.cpu_check_height > 0)
    return cpu_element_check(cfg, cfg.cpu_check_width, cfg.cpu_check_height,
                             std::max(1, int(std::thread::hardware_concurrency())))
               ? 0
               : 2;
  GstCudaContext* context = nullptr;
  if (!cfg.host_only) {
    if (!gst_cuda_load_library()) fail("gst_cuda_load_library failed");
    gst_cuda_memory_init_once();
    context = gst_cuda_context_new(0);
    if (!context) fail("gst_cuda_context_new(0) failed");
  }
  const int cores = std::max(1, int(std::thread::hardware_concurrency()));
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::printf("ccl-bench-foreground, %s\n", date);
  std::printf("device: %s; host: %d cores; OpenCV %s; GStreamer %s\n",
              cfg.host_only ? "(host only)" : device_name().c_str(), cores, CV_VERSION, gst_version_string());
  std::printf(
      "ours: %d timed frames per figure after %d warm-up, GstCclMeta only unless said; peer: MOG2 "
      "(history 500, varThreshold 16, detectShadows=false) + morphologyEx MORPH_OPEN 3x3 + "
      "connectedComponentsWithStats 8-conn, %d frames after %d warm-up on 1 stream, and N streams x 1 thread\n",
      cfg.frames, cfg.warmup, cfg.cv_frames, cfg.cv_warmup);
  std::printf(
      "csv,width,height,figure,fps,median_us,p99_us,components,opencv_1stream_fps,opencv_nstreams_fps,"
      "speedup_1stream,speedup_nstreams\n");
  std::printf(
      "csv_opencv,width,height,threads,fps_1stream,mog2_fps_1stream,median_ms_1stream,components_1stream,"
      "streams,fps_nstreams,median_ms_nstreams,components_nstreams,frames_1stream,frames_nstreams\n");
  bool ok = true;
  if (!cfg.only_2160) ok = run_size(context, 1920, 1080, cfg, cores) && ok;
  if (!cfg.only_1080) ok = run_size(context, 3840, 2160, cfg, cores) && ok;
  if (context) gst_object_unref(context);
  return ok ? 0 : 2;
}
