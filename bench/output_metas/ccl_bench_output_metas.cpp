// ccl-bench-output-metas: what each of cudaccl's per-frame outputs costs the host for a frame of N
// components, measured in one run, as the element makes them (the ccl-outputs library): GstCclMeta,
// the ROI metas, and (GStreamer >= 1.24 builds) the analytics relation meta with its ODMtds, presized
// as the element makes it and, for comparison, left at GStreamer's default initial size. Each frame:
// a new buffer, attach, unref on the same thread; the median attach+free per frame is printed.
// Usage: ccl-bench-output-metas [--frames N]
#include <gst/gst.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "ccl_outputs.h"
#include "percentile.hpp"

#if CCL_HAVE_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

namespace {

using Clock = std::chrono::steady_clock;

std::vector<ccl::Component> random_components(int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pos(0, 3000), size(1, 200);
  std::vector<ccl::Component> v(std::size_t(n), ccl::Component{});
  for (int i = 0; i < n; ++i)
    v[std::size_t(i)] = {std::uint32_t(i + 1), std::uint32_t(1 + rng() % 5000), pos(rng), pos(rng), size(rng),
                         size(rng), pos(rng) + 0.5, pos(rng) + 0.25};
  return v;
}

// Median microseconds of attach + unref over `frames` new buffers.
double median_us(int frames, const std::function<void(GstBuffer*)>& attach) {
  std::vector<double> us;
  for (int i = 0; i < frames + frames / 10; ++i) {
    const Clock::time_point t0 = Clock::now();
    GstBuffer* buf = gst_buffer_new();
    attach(buf);
    gst_buffer_unref(buf);
    const double dt = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    if (i >= frames / 10) us.push_back(dt);  // the first tenth warms the allocator
  }
  return bench::percentile(us, 0.5);
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  int frames = 2000;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--frames")) frames = std::atoi(argv[++i]);
  std::printf("ccl-bench-output-metas: GStreamer %s, %d frames per figure, median us per frame "
              "(new buffer, attach, unref on one thread)\n",
              gst_version_string(), frames);
  std::printf("%10s %12s %12s %18s %22s\n", "components", "GstCclMeta", "ROI metas", "analytics meta",
              "analytics, default size");
  for (int n : {252, 415, 1592}) {
    const std::vector<ccl::Component> comps = random_components(n, std::uint32_t(n));
    ccl::Result result;
    result.width = 3840;
    result.height = 2160;
    result.n_components_total = std::uint32_t(n);
    result.components = comps;
    const double meta = median_us(frames, [&](GstBuffer* b) { gst_ccl_outputs_add_meta(b, result); });
    const double roi = median_us(frames, [&](GstBuffer* b) { gst_ccl_outputs_add_roi_metas(b, comps); });
#if CCL_HAVE_ANALYTICS
    const double analytics = median_us(frames, [&](GstBuffer* b) { gst_ccl_outputs_add_analytics_meta(b, comps); });
    const GQuark type = g_quark_from_static_string("connected-component");
    const double unsized = median_us(frames / 10 + 10, [&](GstBuffer* b) {
      GstAnalyticsRelationMeta* m = gst_buffer_add_analytics_relation_meta(b);
      for (const ccl::Component& c : comps)
        gst_analytics_relation_meta_add_od_mtd(m, type, c.x, c.y, c.width, c.height, 1.0f, nullptr);
    });
    std::printf("%10d %12.1f %12.1f %18.1f %22.1f\n", n, meta, roi, analytics, unsized);
#else
    std::printf("%10d %12.1f %12.1f %18s %22s\n", n, meta, roi, "(no analytics)", "(no analytics)");
#endif
  }
  return 0;
}
