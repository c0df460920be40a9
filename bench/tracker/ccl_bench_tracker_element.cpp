// ccl-bench-tracker-element: what the ccltracker element adds to a frame with N moving components
// (default 2,000; the scene of ccl-bench-tracker), on one core: push-to-pull time through a
// GstHarness around ccltracker, minus the same through identity, in one run. The buffers carry what
// cudaccl attaches (made beforehand, untimed, by the same outputs code): GstCclMeta alone
// (attach-roi-meta=false), + the ROI metas (cudaccl's default), and on GStreamer >= 1.24 builds +
// the analytics relation meta (where ccltracker adds a tracking mtd per tracked component).
// Usage: GST_PLUGIN_PATH=build/gst ccl-bench-tracker-element [components=2000] [frames=1000]
#include <gst/check/gstharness.h>
#include <gst/gst.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ccl_outputs.h"
#include "moving_boxes.hpp"
#include "percentile.hpp"

namespace {

constexpr int kWidth = 1920, kHeight = 1080;
constexpr int kWarmUp = 50;  // tracks get confirmed, allocations settle

enum class Outputs { MetaOnly, WithRoi, WithAnalytics };

const char* name_of(Outputs o) {
  switch (o) {
    case Outputs::MetaOnly: return "GstCclMeta (attach-roi-meta=false)";
    case Outputs::WithRoi: return "GstCclMeta + ROI metas (cudaccl's default)";
    default: return "GstCclMeta + ROI metas + analytics meta";
  }
}

// The frames' buffers, one at a time, each with what cudaccl would attach for its components.
class Frames {
 public:
  Frames(int n, Outputs outputs) : scene_(n, float(kWidth), float(kHeight)), outputs_(outputs) {}
  GstBuffer* next() {
    ccl::Result result;
    result.width = kWidth, result.height = kHeight, result.connectivity = 8;
    std::uint32_t label = 1;
    for (const bench::BoxComponent& c : scene_.step())
      result.components.push_back(ccl::Component{label++, std::uint32_t(c.width * c.height), c.x, c.y, c.width,
                                                 c.height, double(c.centroid_x), double(c.centroid_y)});
    result.n_components_total = std::uint32_t(result.components.size());
    GstBuffer* b = gst_buffer_new();
    GST_BUFFER_PTS(b) = GstClockTime(frame_++) * GST_SECOND / 30;
    gst_ccl_outputs_add_meta(b, result);
    if (outputs_ != Outputs::MetaOnly) gst_ccl_outputs_add_roi_metas(b, result.components);
#if CCL_HAVE_ANALYTICS
    if (outputs_ == Outputs::WithAnalytics) gst_ccl_outputs_add_analytics_meta(b, result.components);
#endif
    return b;
  }

 private:
  bench::MovingBoxes scene_;
  Outputs outputs_;
  int frame_ = 0;
};

// Median push-to-pull microseconds of `element` over `frames` frames after the warm-up; making a
// frame and freeing it are not timed.
double median_us(const char* element, int n, int frames, Outputs outputs) {
  GstHarness* h = gst_harness_new(element);
  gst_harness_set_src_caps_str(h, ("video/x-raw,format=GRAY8,width=" + std::to_string(kWidth) +
                                   ",height=" + std::to_string(kHeight) + ",framerate=30/1")
                                      .c_str());
  Frames source(n, outputs);
  std::vector<double> us;
  for (int i = 0; i < kWarmUp + frames; ++i) {
    GstBuffer* in = source.next();
    const auto t0 = std::chrono::steady_clock::now();
    GstBuffer* out = gst_harness_push_and_pull(h, in);
    const auto t1 = std::chrono::steady_clock::now();
    if (!out) {
      std::fprintf(stderr, "ccl-bench-tracker-element: %s gave no buffer (GST_PLUGIN_PATH?)\n", element);
      std::exit(1);
    }
    gst_buffer_unref(out);
    if (i >= kWarmUp) us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  gst_harness_teardown(h);
  return bench::percentile(us, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int frames = argc > 2 ? std::atoi(argv[2]) : 1000;
  bench::pin_to_one_core();
  if (GstElementFactory* f = gst_element_factory_find("ccltracker")) {
    gst_object_unref(f);
  } else {
    std::fprintf(stderr, "ccl-bench-tracker-element: no ccltracker (set GST_PLUGIN_PATH to the build's gst/)\n");
    return 1;
  }
  gchar* version = gst_version_string();
  std::printf("ccltracker element, %s, %d moving boxes in %dx%d, %d frames after %d warm-up, one core; "
              "median push-to-pull us per frame\n",
              version, n, kWidth, kHeight, frames, kWarmUp);
  g_free(version);
  std::vector<Outputs> cases = {Outputs::MetaOnly, Outputs::WithRoi};
#if CCL_HAVE_ANALYTICS
  cases.push_back(Outputs::WithAnalytics);
#endif
  for (Outputs o : cases) {
    const double tracker = median_us("ccltracker", n, frames, o);
    const double identity = median_us("identity", n, frames, o);
    std::printf("  %-48s ccltracker %8.1f   identity %6.1f   added by the tracker %8.1f\n", name_of(o), tracker,
                identity, tracker - identity);
  }
  return 0;
}
