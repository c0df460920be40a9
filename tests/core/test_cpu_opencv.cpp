// The CPU backend against OpenCV's connectedComponentsWithStats (CCL_SAUF, whose numbering is the
// contract's raster order of first pixel): statistics, centroids to 1e-9 relative, component
// order and the label map. A second reference, independent of the test oracle.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "core_check.hpp"

namespace {

using corecheck::opts;

bool close_rel(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b)); }

// "" when the backend's result and label map equal OpenCV's on `f`.
std::string versus_opencv(ccl::Analyzer& analyzer, const frames::Frame& f, int connectivity, std::uint8_t threshold,
                          int ccl_type) {
  const cv::Mat src(f.height, f.width, CV_8U, const_cast<std::uint8_t*>(f.pixels.data()), std::size_t(f.stride));
  cv::Mat mask, cv_labels, cv_stats, cv_centroids;
  cv::compare(src, cv::Scalar(threshold), mask, cv::CMP_GT);  // mask = pixel > threshold
  const int n = cv::connectedComponentsWithStats(mask, cv_labels, cv_stats, cv_centroids, connectivity, CV_32S,
                                                 ccl_type);

  std::vector<std::uint32_t> labels(std::size_t(f.width) * f.height, 0xFFFFFFFFu);
  ccl::LabelView lv{labels.data(), f.width};
  ccl::Result r;
  try {
    analyzer.run(corecheck::view(f), opts(connectivity, threshold), r, &lv);
  } catch (const std::exception& e) {
    return std::string("threw: ") + e.what();
  }
  if (r.n_components_total != std::uint32_t(n - 1) || r.components.size() != std::size_t(n - 1))
    return "components: ours " + std::to_string(r.n_components_total) + " total, " +
           std::to_string(r.components.size()) + " listed; OpenCV " + std::to_string(n - 1);
  if (r.truncated) return "truncated without filters";
  for (int i = 1; i < n; ++i) {
    const ccl::Component& c = r.components[std::size_t(i - 1)];
    const int* s = cv_stats.ptr<int>(i);
    const double* m = cv_centroids.ptr<double>(i);
    if (c.label != std::uint32_t(i) || c.x != s[cv::CC_STAT_LEFT] || c.y != s[cv::CC_STAT_TOP] ||
        c.width != s[cv::CC_STAT_WIDTH] || c.height != s[cv::CC_STAT_HEIGHT] ||
        c.area != std::uint32_t(s[cv::CC_STAT_AREA]) || !close_rel(c.centroid_x, m[0]) || !close_rel(c.centroid_y, m[1])) {
      std::ostringstream o;
      o.precision(17);
      o << "component " << i << ": ours {label " << c.label << " box " << c.x << "," << c.y << " " << c.width << "x"
        << c.height << " area " << c.area << " c " << c.centroid_x << "," << c.centroid_y << "} OpenCV {box "
        << s[cv::CC_STAT_LEFT] << "," << s[cv::CC_STAT_TOP] << " " << s[cv::CC_STAT_WIDTH] << "x"
        << s[cv::CC_STAT_HEIGHT] << " area " << s[cv::CC_STAT_AREA] << " c " << m[0] << "," << m[1] << "}";
      return o.str();
    }
  }
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x)
      if (labels[std::size_t(y) * f.width + x] != std::uint32_t(cv_labels.at<int>(y, x)))
        return "label map at (" + std::to_string(x) + "," + std::to_string(y) + "): ours " +
               std::to_string(labels[std::size_t(y) * f.width + x]) + " OpenCV " +
               std::to_string(cv_labels.at<int>(y, x));
  return "";
}

class Tally {
 public:
  explicit Tally(std::string test) : test_(std::move(test)) {}
  void check(ccl::Analyzer& a, const frames::Frame& f, int conn, std::uint8_t thr = 0, int type = cv::CCL_SAUF) {
    ++cases_;
    const std::string d = versus_opencv(a, f, conn, thr, type);
    if (d.empty()) return;
    const std::string msg = f.name + " (stride " + std::to_string(f.stride) + ") conn=" + std::to_string(conn) +
                            " thr=" + std::to_string(thr) + ": " + d + corecheck::ascii(f, thr);
    if (++failures_ <= 3) ADD_FAILURE() << msg;
    const std::size_t px = std::size_t(f.width) * f.height;
    if (px < smallest_px_) { smallest_px_ = px; smallest_ = msg; }
  }
  ~Tally() {
    std::cout << "[ covered  ] " << test_ << ": " << cases_ << " frame/option cases, " << failures_ << " failing\n";
    if (failures_) ADD_FAILURE() << failures_ << " of " << cases_ << " cases fail; smallest failing: " << smallest_;
  }

 private:
  std::string test_;
  int cases_ = 0, failures_ = 0;
  std::size_t smallest_px_ = std::numeric_limits<std::size_t>::max();
  std::string smallest_;
};

TEST(CpuVsOpenCV, RandomDensitiesAndGranularities) {
  auto a = ccl::make_cpu_analyzer();
  Tally t("RandomDensitiesAndGranularities");
  std::uint32_t seed = 31337;
  for (int d = 0; d <= 100; d += 10)
    for (int g : {1, 2, 4, 7, 16})
      for (int conn : {4, 8}) t.check(*a, frames::random(211, 157, d, g, seed++), conn);
  for (int conn : {4, 8}) {
    t.check(*a, frames::random(1024, 1024, 50, 1, 5), conn);
    t.check(*a, frames::random(1024, 1024, 60, 1, 6), conn);
  }
}

TEST(CpuVsOpenCV, SmallAndThinSizes) {
  auto a = ccl::make_cpu_analyzer();
  Tally t("SmallAndThinSizes");
  for (int h = 1; h <= 24; ++h)
    for (int w = 1; w <= 24; ++w)
      for (int conn : {4, 8}) t.check(*a, frames::random(w, h, 55, 1, std::uint32_t(w * 100 + h)), conn);
  for (int n : {1, 2, 3, 5, 31, 64, 127, 257, 1000, 4099})
    for (int conn : {4, 8}) {
      t.check(*a, frames::random(1, n, 50, 1, std::uint32_t(n)), conn);
      t.check(*a, frames::random(n, 1, 50, 1, std::uint32_t(n + 7)), conn);
    }
}

TEST(CpuVsOpenCV, PrimeSizesAndPaddedStrides) {
  auto a = ccl::make_cpu_analyzer();
  Tally t("PrimeSizesAndPaddedStrides");
  const int sizes[][2] = {{97, 89}, {1, 127}, {127, 1}, {251, 241}, {3, 509}, {509, 3}};
  std::uint32_t seed = 2024;
  for (const auto& s : sizes)
    for (int d : {20, 50, 80})
      for (int conn : {4, 8}) {
        const frames::Frame f = frames::random(s[0], s[1], d, 1, seed++, 0, true);
        t.check(*a, f, conn);
        for (int pad : {1, 7, 64}) {
          t.check(*a, corecheck::repad(f, pad, seed++), conn);
          t.check(*a, corecheck::repad(f, pad, seed++), conn, 127);
        }
      }
  for (std::uint8_t thr : {0, 1, 127, 254, 255})
    for (int conn : {4, 8}) t.check(*a, corecheck::gray_noise(101, 103, seed++, 5), conn, thr);
}

TEST(CpuVsOpenCV, Adversarial) {
  auto a = ccl::make_cpu_analyzer();
  Tally t("Adversarial");
  for (int h : {1, 2, 3, 5, 8, 17, 32, 33, 127})
    for (int w : {1, 2, 3, 5, 8, 17, 32, 33, 127})
      for (const auto& f : corecheck::adversarial(w, h, (w + h) % 3))
        for (int conn : {4, 8}) t.check(*a, f, conn);
  for (const auto& f : corecheck::adversarial(1021, 769, 3))
    for (int conn : {4, 8}) t.check(*a, f, conn);
}

TEST(CpuVsOpenCV, SingleThreadedOpenCV) {
  // OpenCV's parallel SAUF and its sequential one must agree with us alike.
  const int threads = cv::getNumThreads();
  cv::setNumThreads(1);
  {
    auto a = ccl::make_cpu_analyzer();
    Tally t("SingleThreadedOpenCV");
    for (int d : {30, 50, 70})
      for (int conn : {4, 8}) t.check(*a, frames::random(613, 411, d, 1, std::uint32_t(d)), conn);
  }
  cv::setNumThreads(threads);
}

}  // namespace
