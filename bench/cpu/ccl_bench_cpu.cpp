// ccl-bench-cpu: the CPU backend against single-threaded OpenCV connectedComponentsWithStats on
// the benchmark protocol's MT19937 random images (docs/algorithms.md), timed in the same run. Before
// timing, each image is checked: our components must equal OpenCV CCL_SAUF's (count, statistics,
// order) and CCL_DEFAULT's count, so both sides provably did the same work.
//
//   ccl-bench-cpu [--size N] [--runs N] [--connectivity 4|8]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

#include "ccl/analyzer.hpp"
#include "frames.hpp"

namespace {

struct Args {
  int size = 2048;
  int runs = 20;
  int connectivity = 8;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto value = [&]() -> int {
      if (i + 1 >= argc) { std::fprintf(stderr, "%s needs a value\n", k.c_str()); std::exit(2); }
      return std::atoi(argv[++i]);
    };
    if (k == "--size") a.size = value();
    else if (k == "--runs") a.runs = value();
    else if (k == "--connectivity") a.connectivity = value();
    else {
      std::fprintf(stderr, "usage: %s [--size N] [--runs N] [--connectivity 4|8]\n", argv[0]);
      std::exit(k == "--help" || k == "-h" ? 0 : 2);
    }
  }
  if (a.size < 1 || a.runs < 1 || (a.connectivity != 4 && a.connectivity != 8)) {
    std::fprintf(stderr, "bad arguments: size >= 1, runs >= 1, connectivity 4 or 8\n");
    std::exit(2);
  }
  return a;
}

// Best (minimum) wall time in milliseconds of `runs` calls after two warm-up calls.
template <class F>
double best_ms(int runs, F&& f) {
  f();
  f();
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  return best;
}

// Empty when our result equals OpenCV CCL_SAUF's component for component.
std::string differs(const ccl::Result& r, int n, const cv::Mat& stats, const cv::Mat& centroids) {
  if (r.components.size() != std::size_t(n - 1)) return "component counts differ";
  for (int i = 1; i < n; ++i) {
    const ccl::Component& c = r.components[std::size_t(i - 1)];
    const int* s = stats.ptr<int>(i);
    const double* m = centroids.ptr<double>(i);
    if (c.x != s[cv::CC_STAT_LEFT] || c.y != s[cv::CC_STAT_TOP] || c.width != s[cv::CC_STAT_WIDTH] ||
        c.height != s[cv::CC_STAT_HEIGHT] || c.area != std::uint32_t(s[cv::CC_STAT_AREA]) ||
        std::fabs(c.centroid_x - m[0]) > 1e-9 * std::fabs(m[0]) || std::fabs(c.centroid_y - m[1]) > 1e-9 * std::fabs(m[1]))
      return "component " + std::to_string(i) + " differs";
  }
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  cv::setNumThreads(1);
  auto analyzer = ccl::make_cpu_analyzer();
  ccl::Options options;
  options.connectivity = args.connectivity;

  const int n = args.size;
  std::vector<std::uint32_t> labels(std::size_t(n) * n);
  const ccl::LabelView label_view{labels.data(), n};
  ccl::Result result;
  cv::Mat cv_labels, cv_stats, cv_centroids;

  std::printf("ccl-bench-cpu: %dx%d MT19937 random images, %d-connectivity, best of %d runs after 2 warm-ups\n",
              n, n, args.connectivity, args.runs);
  std::printf("OpenCV %s, cv::setNumThreads(1); ours = backend '%s' (one thread)\n", CV_VERSION,
              analyzer->backend_name());
  std::printf("ratio = ours with label map / OpenCV CCL_SAUF (below 1: ours faster); both produce labels + stats + centroids\n\n");
  std::printf("%8s %3s %11s %12s %12s %9s %14s %10s\n", "density", "g", "components", "ours ms", "ours+lbl ms",
              "SAUF ms", "ratio lbl/SAUF", "DEFAULT ms");

  for (int g : {1, 4}) {
    double sum_ours = 0, sum_lbl = 0, sum_sauf = 0, sum_default = 0, sum_ratio = 0;
    int images = 0;
    for (int d = 0; d <= 100; d += 10) {
      const frames::Frame f = frames::random(n, n, d, g, std::uint32_t(1000 * g + d));
      const ccl::ImageView image{f.pixels.data(), f.width, f.height, f.stride, {}};
      // Foreground pixels are 255, background 0: the frame itself is OpenCV's mask (non-zero),
      // the same foreground as threshold 0.
      const cv::Mat mask(n, n, CV_8U, const_cast<std::uint8_t*>(f.pixels.data()), std::size_t(f.stride));

      analyzer->run(image, options, result, &label_view);
      const int n_sauf = cv::connectedComponentsWithStats(mask, cv_labels, cv_stats, cv_centroids,
                                                          args.connectivity, CV_32S, cv::CCL_SAUF);
      const std::string why = differs(result, n_sauf, cv_stats, cv_centroids);
      const int n_default = cv::connectedComponentsWithStats(mask, cv_labels, cv_stats, cv_centroids,
                                                             args.connectivity, CV_32S, cv::CCL_DEFAULT);
      if (!why.empty() || n_default != n_sauf) {
        std::fprintf(stderr, "MISMATCH d=%d g=%d: ours %u components, SAUF %d, DEFAULT %d (%s)\n", d, g,
                     result.n_components_total, n_sauf - 1, n_default - 1, why.c_str());
        return 1;
      }

      const double ours = best_ms(args.runs, [&] { analyzer->run(image, options, result); });
      const double lbl = best_ms(args.runs, [&] { analyzer->run(image, options, result, &label_view); });
      const double sauf = best_ms(args.runs, [&] {
        cv::connectedComponentsWithStats(mask, cv_labels, cv_stats, cv_centroids, args.connectivity, CV_32S, cv::CCL_SAUF);
      });
      const double dflt = best_ms(args.runs, [&] {
        cv::connectedComponentsWithStats(mask, cv_labels, cv_stats, cv_centroids, args.connectivity, CV_32S, cv::CCL_DEFAULT);
      });
      std::printf("%7d%% %3d %11u %12.3f %12.3f %9.3f %14.3f %10.3f\n", d, g, result.n_components_total, ours, lbl,
                  sauf, lbl / sauf, dflt);
      std::fflush(stdout);
      sum_ours += ours; sum_lbl += lbl; sum_sauf += sauf; sum_default += dflt; sum_ratio += lbl / sauf;
      ++images;
    }
    std::printf("%8s %3d %11s %12.3f %12.3f %9.3f %14.3f %10.3f\n\n", "mean", g, "", sum_ours / images,
                sum_lbl / images, sum_sauf / images, sum_ratio / images, sum_default / images);
  }
  return 0;
}
