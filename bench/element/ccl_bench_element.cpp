// ccl-bench-element: cudaccl on frames already in CUDA memory, against OpenCV on the host's cores.
//
// Per size (1920x1080, 3840x2160) and scene (random g=16 blobs at 30 % density; a few hundred
// moving discs on a noisy dark background), a ring of distinct NV12 frames is built on the host
// and uploaded once into GstCudaBufferPool buffers (upload excluded from every figure). Each frame
// is a shallow copy of a ring buffer pushed into a GstHarness around cudaccl backend=cuda sharing
// the pool's context: latency = gst_harness_push() returning, i.e. the buffer has left the element
// with its metas; throughput = frames / wall time of the whole loop (copy, push, pull, unref).
// Second measurement: the core alone on the same device frames (run() wall and cudaEvent stages),
// and the meta creation alone on its results. Peer: OpenCV connectedComponentsWithStats
// (CCL_DEFAULT, 8-connectivity, cv::setNumThreads(host cores)) on the same luma frames, with and
// without the cv::threshold that the element does itself. Third: frames/s of the default element in
// appsrc ! cudaccl ! queue ! fakesink, where buffers and their metas are freed on another thread. Before timing, every distinct frame's
// element result is checked against OpenCV (component count, and the multiset of boxes and areas).
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "ccl/gstcclmeta.h"
#include "ccl_outputs.h"
#include "core_stages.hpp"
#include "frames.hpp"
#include "nv12_frame_ring.hpp"
#include "percentile.hpp"

namespace {

using bench::percentile;
using Clock = std::chrono::steady_clock;
constexpr int kThreshold = 128;

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Random g=16 blocks at 30 % density: foreground 255, background 0 (frames::random, MT19937).
std::vector<frames::Frame> blob_frames(int w, int h, int n) {
  std::vector<frames::Frame> v;
  for (int i = 0; i < n; ++i) v.push_back(frames::random(w, h, 30, 16, 1000u + std::uint32_t(i)));
  return v;
}

// A few hundred bright discs (radius 3..40, value 170..255) moving and bouncing over a dark noisy
// background (16..70); frame i is the scene after i steps, so every frame differs.
std::vector<frames::Frame> disc_frames(int w, int h, int n, int discs) {
  struct Disc { double x, y, vx, vy; int r, v; };
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> ux(0, w), uy(0, h), uv(-6, 6);
  std::uniform_int_distribution<int> ur(3, 40), uval(170, 255), noise(16, 70);
  std::vector<Disc> d(discs);
  for (Disc& c : d) c = {ux(rng), uy(rng), uv(rng), uv(rng), ur(rng) * w / 3840 + 3, uval(rng)};
  std::vector<frames::Frame> v;
  for (int i = 0; i < n; ++i) {
    frames::Frame f = frames::blank("discs", w, h);
    for (auto& p : f.pixels) p = std::uint8_t(noise(rng));
    for (Disc& c : d) {
      const int x0 = std::max(0, int(c.x) - c.r), x1 = std::min(w - 1, int(c.x) + c.r);
      const int y0 = std::max(0, int(c.y) - c.r), y1 = std::min(h - 1, int(c.y) + c.r);
      for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x)
          if ((x - c.x) * (x - c.x) + (y - c.y) * (y - c.y) <= double(c.r) * c.r) f.at(x, y) = std::uint8_t(c.v);
      c.x += c.vx;
      c.y += c.vy;
      if (c.x < 0 || c.x >= w) c.vx = -c.vx, c.x = std::clamp(c.x, 0.0, double(w - 1));
      if (c.y < 0 || c.y >= h) c.vy = -c.vy, c.y = std::clamp(c.y, 0.0, double(h - 1));
    }
    v.push_back(std::move(f));
  }
  return v;
}

std::vector<const std::uint8_t*> lumas_of(const std::vector<frames::Frame>& fs) {
  std::vector<const std::uint8_t*> lumas;
  for (const frames::Frame& f : fs) lumas.push_back(f.pixels.data());
  return lumas;
}

// The frames as CUDA-memory NV12 buffers, uploaded once (bench/common/nv12_frame_ring.hpp).
struct Ring : bench::Nv12FrameRing {
  Ring(GstCudaContext* context, const std::vector<frames::Frame>& fs)
      : Nv12FrameRing(context, fs[0].width, fs[0].height, fs[0].stride, lumas_of(fs)) {}
  static void fail(const char* what) {
    std::fprintf(stderr, "ccl-bench-element: %s failed\n", what);
    std::exit(1);
  }
};

GstHarness* make_harness(GstCudaContext* context, const Ring& ring, bool roi, guint in_flight = 1) {
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  if (!e) Ring::fail("gst_element_factory_make(cudaccl) (GST_PLUGIN_PATH?)");
  g_object_set(e, "threshold", guint(kThreshold), "attach-roi-meta", gboolean(roi), "frames-in-flight", in_flight,
               nullptr);
  gst_util_set_object_arg(G_OBJECT(e), "backend", "cuda");
  GstContext* c = gst_context_new_cuda_context(context);
  gst_element_set_context(e, c);
  gst_context_unref(c);
  GstHarness* h = gst_harness_new_with_element(e, "sink", "src");
  gst_object_unref(e);
  gst_harness_set_src_caps(h, gst_caps_ref(ring.caps));
  return h;
}

using Box = std::tuple<int, int, int, int, unsigned>;  // x, y, w, h, area

struct Cv {
  int n = 0;
  std::vector<Box> boxes;
};

Cv opencv_ccl(const frames::Frame& f, cv::Mat& bin, cv::Mat& labels, cv::Mat& stats, cv::Mat& centroids) {
  const cv::Mat luma(f.height, f.width, CV_8U, const_cast<std::uint8_t*>(f.pixels.data()), std::size_t(f.stride));
  cv::threshold(luma, bin, kThreshold, 255, cv::THRESH_BINARY);
  Cv r;
  r.n = cv::connectedComponentsWithStats(bin, labels, stats, centroids, 8, CV_32S, cv::CCL_DEFAULT) - 1;
  for (int i = 1; i <= r.n; ++i)
    r.boxes.emplace_back(stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP),
                         stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT),
                         unsigned(stats.at<int>(i, cv::CC_STAT_AREA)));
  std::sort(r.boxes.begin(), r.boxes.end());
  return r;
}

double mean_us(const std::vector<double>& ms) { return std::accumulate(ms.begin(), ms.end(), 0.0) / ms.size() * 1e3; }

struct ElementFigures {
  double fps = 0, median_ms = 0, p99_ms = 0;
  std::vector<double> latency_ms;  // every timed frame, for the distribution
  std::vector<double> drop_ms;     // pulling the output and dropping it (its metas freed), every timed frame
};

// The latency distribution as percentiles, one line the peers plot reads:
// "latency,<w>,<h>,<scene>,<figure>,<us at each of kPercentiles>".
constexpr double kPercentiles[] = {0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99, 0.999, 1.0};
void print_distribution(int w, int h, const char* scene, const char* figure, const std::vector<double>& ms) {
  std::printf("latency,%d,%d,%s,%s", w, h, scene, figure);
  for (double p : kPercentiles) std::printf(",%.1f", percentile(ms, p) * 1e3);
  std::printf("\n");
}

ElementFigures time_element(GstCudaContext* context, const Ring& ring, bool roi, int n) {
  GstHarness* h = make_harness(context, ring, roi);
  const std::size_t k = ring.buffers.size();
  for (std::size_t i = 0; i < 2 * k; ++i) gst_buffer_unref(gst_harness_push_and_pull(h, gst_buffer_copy(ring.buffers[i % k])));
  std::vector<double> latency, drop;
  latency.reserve(std::size_t(n));
  drop.reserve(std::size_t(n));
  const auto start = Clock::now();
  for (int i = 0; i < n; ++i) {
    GstBuffer* in = gst_buffer_copy(ring.buffers[std::size_t(i) % k]);  // shallow: shares the CUDA memory
    const auto t = Clock::now();
    if (gst_harness_push(h, in) != GST_FLOW_OK) Ring::fail("push");
    latency.push_back(ms_since(t));
    const auto d = Clock::now();
    gst_buffer_unref(gst_harness_pull(h));
    drop.push_back(ms_since(d));
  }
  const double wall = ms_since(start);
  gst_harness_teardown(h);
  return {n / wall * 1e3, percentile(latency, 0.5), percentile(latency, 0.99), latency, drop};
}

// Steady state of cudaccl frames-in-flight=N in a harness, one push then one pull: each push
// returns the frame N-1 pushes older (labelled meanwhile), so the time per step is the host's time
// per frame; a frame leaves N-1 steps after it came.
ElementFigures time_element_in_flight(GstCudaContext* context, const Ring& ring, bool roi, guint in_flight, int n) {
  GstHarness* h = make_harness(context, ring, roi, in_flight);
  const std::size_t k = ring.buffers.size();
  for (std::size_t i = 0; i + 1 < in_flight; ++i)
    if (gst_harness_push(h, gst_buffer_copy(ring.buffers[i % k])) != GST_FLOW_OK) Ring::fail("push");
  for (std::size_t i = 0; i < 2 * k; ++i) gst_buffer_unref(gst_harness_push_and_pull(h, gst_buffer_copy(ring.buffers[i % k])));
  std::vector<double> latency;
  const auto start = Clock::now();
  for (int i = 0; i < n; ++i) {
    GstBuffer* in = gst_buffer_copy(ring.buffers[std::size_t(i) % k]);
    const auto t = Clock::now();
    if (gst_harness_push(h, in) != GST_FLOW_OK) Ring::fail("push");
    GstBuffer* out = gst_harness_pull(h);
    latency.push_back(ms_since(t));
    gst_buffer_unref(out);
  }
  const double wall = ms_since(start);
  gst_harness_teardown(h);
  return {n / wall * 1e3, percentile(latency, 0.5), percentile(latency, 0.99), latency, {}};
}

// Throughput in a deployed shape: appsrc ! cudaccl <ccl_props> [! queue] ! fakesink. A queue hands
// buffers to another thread, so freeing their metas (~0.1 us per ROI meta) overlaps with the next
// frame instead of adding to it as in the single-threaded harness. Rate = buffers leaving cudaccl per second, between the end
// of a warm-up and the n-th timed frame.
double pipeline_fps(GstCudaContext* context, const Ring& ring, int n, const std::string& ccl_props = "",
                    bool queue = true) {
  GError* error = nullptr;
  const std::string launch =
      "appsrc name=src format=time block=true max-buffers=8 ! cudaccl name=ccl backend=cuda threshold=128 " +
      ccl_props + (queue ? " ! queue max-size-buffers=8 max-size-bytes=0 max-size-time=0" : "") +
      " ! fakesink sync=false";
  GstElement* p = gst_parse_launch(launch.c_str(), &error);
  if (!p) Ring::fail(error ? error->message : "gst_parse_launch");
  GstElement* src = gst_bin_get_by_name(GST_BIN(p), "src");
  GstElement* ccl = gst_bin_get_by_name(GST_BIN(p), "ccl");
  g_object_set(src, "caps", ring.caps, nullptr);
  GstContext* c = gst_context_new_cuda_context(context);
  gst_element_set_context(ccl, c);
  gst_context_unref(c);
  struct Count {
    int warm = 0, seen = 0;
    Clock::time_point start, end;
  } count;
  count.warm = 2 * int(ring.buffers.size());
  const int total = count.warm + n;
  GstPad* out = gst_element_get_static_pad(ccl, "src");
  gst_pad_add_probe(out, GST_PAD_PROBE_TYPE_BUFFER,
                    [](GstPad*, GstPadProbeInfo*, gpointer d) {
                      auto* k = static_cast<Count*>(d);
                      if (++k->seen == k->warm) k->start = Clock::now();
                      k->end = Clock::now();
                      return GST_PAD_PROBE_OK;
                    },
                    &count, nullptr);
  gst_object_unref(out);
  if (gst_element_set_state(p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) Ring::fail("pipeline to PLAYING");
  const std::size_t k = ring.buffers.size();
  for (int i = 0; i < total; ++i) {
    GstBuffer* b = gst_buffer_copy(ring.buffers[std::size_t(i) % k]);  // shallow: shares the CUDA memory
    GST_BUFFER_PTS(b) = GstClockTime(i) * GST_SECOND / 30;
    GstFlowReturn ret = GST_FLOW_OK;
    g_signal_emit_by_name(src, "push-buffer", b, &ret);
    gst_buffer_unref(b);
    if (ret != GST_FLOW_OK) Ring::fail("appsrc push-buffer");
  }
  GstFlowReturn ret = GST_FLOW_OK;
  g_signal_emit_by_name(src, "end-of-stream", &ret);
  GstBus* bus = gst_element_get_bus(p);
  GstMessage* m = gst_bus_timed_pop_filtered(bus, 120 * GST_SECOND, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  if (!m || GST_MESSAGE_TYPE(m) != GST_MESSAGE_EOS) Ring::fail("pipeline run to EOS");
  gst_message_unref(m);
  gst_object_unref(bus);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(ccl);
  gst_object_unref(p);
  if (count.seen != total) Ring::fail("pipeline frame count");
  return n / std::chrono::duration<double>(count.end - count.start).count();
}

// The core's run() on the ring's device frames (CUDA graphs with dependent launches, as the element
// runs it) and its cudaEvent stages.
bench::CoreTimes time_core_on(GstCudaContext* context, const Ring& ring, int n) {
  std::vector<GstVideoFrame> mapped(ring.buffers.size());
  std::vector<const std::uint8_t*> device;
  for (std::size_t i = 0; i < ring.buffers.size(); ++i) {
    if (!gst_video_frame_map(&mapped[i], &ring.info, ring.buffers[i], GstMapFlags(GST_MAP_READ | GST_MAP_CUDA)))
      Ring::fail("map for CUDA");
    device.push_back(static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&mapped[i], 0)));
  }
  const std::ptrdiff_t stride = GST_VIDEO_FRAME_PLANE_STRIDE(&mapped[0], 0);
  ccl::Options options;
  options.threshold = kThreshold;
  if (!gst_cuda_context_push(context)) Ring::fail("gst_cuda_context_push");
  bench::CoreTimes core =
      bench::time_core(device, GST_VIDEO_INFO_WIDTH(&ring.info), GST_VIDEO_INFO_HEIGHT(&ring.info), stride, options, n,
                       [context] { gst_cuda_context_push(context); });
  gst_cuda_context_pop(nullptr);
  for (GstVideoFrame& f : mapped) gst_video_frame_unmap(&f);
  return core;
}

std::string in_flight_text(const bench::CoreTimes& core) {
  std::string text;
  for (double fps : core.in_flight_fps) text += (text.empty() ? "" : " / ") + std::to_string(long(fps + 0.5));
  return text;
}

std::string stage_medians(const bench::CoreTimes& core) {
  std::string text;
  double sum = 0;
  char item[96];
  for (const auto& s : core.stage_ms) {
    const double m = percentile(s.second, 0.5) * 1e3;
    sum += m;
    std::snprintf(item, sizeof item, " %s %.1f", s.first.c_str(), m);
    text += item;
  }
  std::snprintf(item, sizeof item, "  (sum %.1f)", sum);
  return text + item;
}

// --core-only: the core's figures alone, for comparing kernel changes quickly (no element, no OpenCV).
void run_core_case(GstCudaContext* context, const char* scene, const std::vector<frames::Frame>& fs, int n) {
  Ring ring(context, fs);
  const bench::CoreTimes core = time_core_on(context, ring, n);
  std::printf("core,%d,%d,%s,median %.1f us,p99 %.1f us,stages%s\n", fs[0].width, fs[0].height, scene,
              percentile(core.run_ms, 0.5) * 1e3, percentile(core.run_ms, 0.99) * 1e3, stage_medians(core).c_str());
  std::printf("core,%d,%d,%s,frames/s with 1 / 2 / 3 frames in flight,%s\n", fs[0].width, fs[0].height, scene,
              in_flight_text(core).c_str());
}

void run_case(GstCudaContext* context, const char* scene, const std::vector<frames::Frame>& fs, int n, int threads) {
  const int w = fs[0].width, h = fs[0].height;
  Ring ring(context, fs);

  // 1. Same work: each distinct frame once through the element against OpenCV.
  cv::Mat bin, labels, stats, centroids;
  int mismatches = 0;
  double mean_components = 0;
  {
    GstHarness* hh = make_harness(context, ring, false);
    for (std::size_t i = 0; i < fs.size(); ++i) {
      GstBuffer* out = gst_harness_push_and_pull(hh, gst_buffer_copy(ring.buffers[i]));
      const GstCclMeta* m = out ? gst_buffer_get_ccl_meta(out) : nullptr;
      const Cv cv = opencv_ccl(fs[i], bin, labels, stats, centroids);
      std::vector<Box> mine;
      if (m)
        for (guint c = 0; c < m->n_components; ++c)
          mine.emplace_back(m->components[c].x, m->components[c].y, m->components[c].width, m->components[c].height,
                            m->components[c].area);
      std::sort(mine.begin(), mine.end());
      if (!m || int(m->n_components_total) != cv.n || mine != cv.boxes) {
        ++mismatches;
        std::printf("  MISMATCH frame %zu: element %d components, OpenCV %d\n", i, m ? int(m->n_components_total) : -1,
                    cv.n);
      }
      mean_components += cv.n;
      if (out) gst_buffer_unref(out);
    }
    gst_harness_teardown(hh);
  }
  mean_components /= double(fs.size());

  // 2. The element, with and without the ROI metas.
  const int n_roi = std::max(int(fs.size()), n / 3);  // ROI metas cost per component: fewer frames
  const ElementFigures with_roi = time_element(context, ring, true, n_roi);
  const ElementFigures meta_only = time_element(context, ring, false, n);
  const double in_pipeline_fps = pipeline_fps(context, ring, n_roi);
  // Frames in flight: throughput with appsrc pushing ahead, and the harness's time per push-and-pull step.
  struct InFlight {
    guint lanes;
    double fps_roi, fps_noroi;
    ElementFigures latency_roi, latency_noroi;
  };
  std::vector<InFlight> in_flight;
  for (guint lanes : {2u, 3u}) {
    const std::string props = "frames-in-flight=" + std::to_string(lanes);
    in_flight.push_back({lanes, pipeline_fps(context, ring, n_roi, props, false),
                         pipeline_fps(context, ring, n, props + " attach-roi-meta=false", false),
                         time_element_in_flight(context, ring, true, lanes, n_roi),
                         time_element_in_flight(context, ring, false, lanes, n)});
  }

  // 3. The core alone on the same device frames, and the meta creation alone on its results.
  const bench::CoreTimes core = time_core_on(context, ring, std::min(n, 1000));
  std::vector<double> meta_ms, roi_ms, free_ms;
  for (int i = 0; i < std::min(n, 1000); ++i) {
    const ccl::Result& r = core.results[std::size_t(i) % core.results.size()];
    GstBuffer* b = gst_buffer_new();
    auto t = Clock::now();
    gst_ccl_outputs_add_meta(b, r);
    meta_ms.push_back(ms_since(t));
    t = Clock::now();
    gst_ccl_outputs_add_roi_metas(b, r.components);
    roi_ms.push_back(ms_since(t));
    t = Clock::now();
    gst_buffer_unref(b);
    free_ms.push_back(ms_since(t));
  }

  // 4. OpenCV on the host's cores, same luma frames.
  std::vector<double> cv_ms, cv_thr_ms;
  const int cv_frames = std::max<int>(int(fs.size()), w * h > 4000000 ? 150 : 300);
  for (int i = 0; i < int(fs.size()); ++i) opencv_ccl(fs[std::size_t(i)], bin, labels, stats, centroids);  // warm-up
  const auto cv_start = Clock::now();
  for (int i = 0; i < cv_frames; ++i) {
    const frames::Frame& f = fs[std::size_t(i) % fs.size()];
    const cv::Mat luma(f.height, f.width, CV_8U, const_cast<std::uint8_t*>(f.pixels.data()), std::size_t(f.stride));
    auto t = Clock::now();
    cv::threshold(luma, bin, kThreshold, 255, cv::THRESH_BINARY);
    const double thr = ms_since(t);
    t = Clock::now();
    cv::connectedComponentsWithStats(bin, labels, stats, centroids, 8, CV_32S, cv::CCL_DEFAULT);
    const double ccl = ms_since(t);
    cv_ms.push_back(ccl);
    cv_thr_ms.push_back(thr + ccl);
  }
  const double cv_wall = ms_since(cv_start);
  const double cv_fps = 1e3 / (std::accumulate(cv_ms.begin(), cv_ms.end(), 0.0) / cv_ms.size());
  const double cv_thr_fps = cv_frames / cv_wall * 1e3;

  std::printf("\n== %dx%d NV12, %s: %zu distinct frames, mean %.0f components/frame, element vs OpenCV on every "
              "distinct frame: %s\n",
              w, h, scene, fs.size(), mean_components, mismatches ? "MISMATCH" : "identical count, boxes and areas");
  std::printf("  element (GstCclMeta + ROI metas, default)  %8.0f fps  median %7.1f us  p99 %7.1f us  (%d frames)\n",
              with_roi.fps, with_roi.median_ms * 1e3, with_roi.p99_ms * 1e3, n_roi);
  std::printf("  element (default) in appsrc ! cudaccl ! queue ! fakesink: %8.0f fps  (%d frames)\n",
              in_pipeline_fps, n_roi);
  std::printf("  element (GstCclMeta, attach-roi-meta=false) %7.0f fps  median %7.1f us  p99 %7.1f us  (%d frames)\n",
              meta_only.fps, meta_only.median_ms * 1e3, meta_only.p99_ms * 1e3, n);
  std::printf("  core run() alone, same device frames       median %7.1f us  p99 %7.1f us  (queuing the device "
              "work as a CUDA graph: median %.1f us); graphs without dependent launches median %.1f us; without "
              "graphs median %.1f us, p99 %.1f us (queuing %.1f us)\n",
              percentile(core.run_ms, 0.5) * 1e3, percentile(core.run_ms, 0.99) * 1e3,
              percentile(core.enqueue_ms, 0.5) * 1e3, percentile(core.no_overlap_run_ms, 0.5) * 1e3,
              percentile(core.direct_run_ms, 0.5) * 1e3, percentile(core.direct_run_ms, 0.99) * 1e3,
              percentile(core.direct_enqueue_ms, 0.5) * 1e3);
  for (const InFlight& f : in_flight) {
    std::printf("  frames-in-flight=%u, appsrc ! cudaccl ! fakesink: default %7.0f fps (%.1fx OpenCV), "
                "attach-roi-meta=false %7.0f fps (%.1fx OpenCV); push-and-pull step in steady state: median / p99 "
                "%.1f / %.1f us default, %.1f / %.1f us attach-roi-meta=false\n",
                f.lanes, f.fps_roi, f.fps_roi / cv_fps, f.fps_noroi, f.fps_noroi / cv_fps,
                f.latency_roi.median_ms * 1e3, f.latency_roi.p99_ms * 1e3, f.latency_noroi.median_ms * 1e3,
                f.latency_noroi.p99_ms * 1e3);
    std::printf("inflight,%d,%d,%s,%u,%.0f,%.0f,%.1f,%.1f,%.1f,%.1f,%.1f\n", w, h, scene, f.lanes, f.fps_roi,
                f.fps_noroi, f.latency_roi.median_ms * 1e3, f.latency_roi.p99_ms * 1e3,
                f.latency_noroi.median_ms * 1e3, f.latency_noroi.p99_ms * 1e3, cv_fps);
  }
  std::printf("  core stages (cudaEvent, median us):%s\n", stage_medians(core).c_str());
  std::printf("  core frames/s with 1 / 2 / 3 frames in flight (own stream, scratch and thread each): %s\n",
              in_flight_text(core).c_str());
  std::printf("  meta creation (median us): GstCclMeta %.1f, ROI metas %.1f; freeing the buffer with its metas %.1f\n",
              percentile(meta_ms, 0.5) * 1e3, percentile(roi_ms, 0.5) * 1e3, percentile(free_ms, 0.5) * 1e3);
  const auto spread = [](const std::vector<double>& ms) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f / %.1f / %.1f", percentile(ms, 0.5) * 1e3, percentile(ms, 0.9) * 1e3,
                  percentile(ms, 0.99) * 1e3);
    return std::string(text);
  };
  std::printf("  default element, p50 / p90 / p99 us: push (the latency) %s, pull and drop %s; means %.1f and %.1f\n",
              spread(with_roi.latency_ms).c_str(), spread(with_roi.drop_ms).c_str(), mean_us(with_roi.latency_ms),
              mean_us(with_roi.drop_ms));
  std::printf("  meta creation, p50 / p90 / p99 us: GstCclMeta %s, ROI metas %s, freeing %s\n",
              spread(meta_ms).c_str(), spread(roi_ms).c_str(), spread(free_ms).c_str());
  std::printf("  OpenCV CCL_DEFAULT, %d threads: CCL %8.1f fps (median %.2f ms); threshold+CCL %.1f fps (%d frames)\n",
              threads, cv_fps, percentile(cv_ms, 0.5), cv_thr_fps, cv_frames);
  std::printf("  speedup vs OpenCV CCL alone: %.1fx (default element), %.1fx (attach-roi-meta=false); vs "
              "threshold+CCL: %.1fx / %.1fx\n",
              with_roi.fps / cv_fps, meta_only.fps / cv_fps, with_roi.fps / cv_thr_fps, meta_only.fps / cv_thr_fps);
  print_distribution(w, h, scene, "roi", with_roi.latency_ms);
  print_distribution(w, h, scene, "noroi", meta_only.latency_ms);
  std::printf("csv,%d,%d,%s,%.0f,%.0f,%.1f,%.1f,%.0f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d,%.0f\n", w, h, scene,
              mean_components, with_roi.fps, with_roi.median_ms * 1e3, with_roi.p99_ms * 1e3, meta_only.fps,
              meta_only.median_ms * 1e3, meta_only.p99_ms * 1e3, percentile(core.run_ms, 0.5) * 1e3, cv_fps,
              cv_thr_fps, meta_only.fps / cv_fps, with_roi.fps / cv_fps, mismatches, in_pipeline_fps);
}

}  // namespace

int main(int argc, char** argv) {
  int n = 3000, ring = 32, discs = 300;
  bool core_only = false;  // --core-only: the core's run() and stages alone, for comparing kernel changes
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--core-only")) core_only = true;
    else if (has_value && !std::strcmp(argv[i], "--frames")) n = std::atoi(argv[++i]);
    else if (has_value && !std::strcmp(argv[i], "--ring")) ring = std::atoi(argv[++i]);
    else if (has_value && !std::strcmp(argv[i], "--discs")) discs = std::atoi(argv[++i]);
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // lines reach the log even if the run is cut short
  gst_init(&argc, &argv);
  if (!gst_cuda_load_library()) Ring::fail("gst_cuda_load_library");
  gst_cuda_memory_init_once();
  GstCudaContext* context = gst_cuda_context_new(0);
  if (!context) Ring::fail("gst_cuda_context_new(0)");
  const int threads = int(std::thread::hardware_concurrency());
  cv::setNumThreads(threads);
  std::printf("ccl-bench-element: %d frames per figure, ring of %d pre-uploaded NV12 CUDA buffers, threshold=%d, "
              "8-connectivity; OpenCV %s with %d threads\n",
              n, ring, kThreshold, CV_VERSION, cv::getNumThreads());
  std::printf("latency,width,height,scene,figure");
  for (double p : kPercentiles) std::printf(",p%g", p * 100);
  std::printf(" (us)\n");
  std::printf("csv,width,height,scene,components,fps,median_us,p99_us,fps_noroi,median_us_noroi,p99_us_noroi,"
              "core_median_us,opencv_fps,opencv_thr_fps,speedup_noroi,speedup_roi,mismatches,fps_pipeline\n");
  for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) {
    if (core_only) {
      run_core_case(context, "random blobs g=16 d=30%", blob_frames(w, h, ring), n);
      run_core_case(context, (std::to_string(discs) + " moving discs").c_str(), disc_frames(w, h, ring, discs), n);
      continue;
    }
    run_case(context, "random blobs g=16 d=30%", blob_frames(w, h, ring), n, threads);
    run_case(context, (std::to_string(discs) + " moving discs").c_str(), disc_frames(w, h, ring, discs), n, threads);
  }
  gst_object_unref(context);
  return 0;
}
