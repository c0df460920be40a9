// The mask the CUDA backend hands out through MaskView equals the CPU backend's, byte for byte:
// threshold without a stage (plane 0 > t straight from the frame), threshold with open/close and
// motion (the foreground stage's plane), into a padded device buffer, into the frame's own plane,
// and on the host path (submit_host: written into the upload copy, downloaded in collect); every
// default-graph frame and the queued-by-stage ones (order=area, an area filter). fill_plane too.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gpu_harness.hpp"

namespace {

using frames::Frame;

constexpr int kPad = 5;
constexpr std::uint8_t kUntouched = 7;

enum class Where { Apart, OwnPlane, Host };
const char* where_name(Where w) {
  return w == Where::Apart ? "device buffer" : w == Where::OwnPlane ? "own plane" : "host (submit_host)";
}

// A drifting noisy background with three moving rectangles.
Frame scene_frame(int w, int h, int t) {
  Frame f = frames::blank("scene " + std::to_string(w) + "x" + std::to_string(h) + " t=" + std::to_string(t), w, h, 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.at(x, y) = std::uint8_t(50 + (x * 3 + y * 5) % 110 + (x * 7 + y * 13 + t * 29) % 5);
  for (int k = 0; k < 3; ++k)
    for (int y = 3 + 9 * k; y < std::min(h, 9 + 9 * k); ++y)
      for (int x = (5 * t + 17 * k) % w; x < std::min(w, (5 * t + 17 * k) % w + 8); ++x) f.at(x, y) = 240;
  return f;
}

struct Shown {
  std::vector<std::uint8_t> mask;  // width*height
  ccl::Result result;
  bool padding_kept = true;
};

std::vector<std::uint8_t> unpad(const std::vector<std::uint8_t>& padded, int w, int h, std::ptrdiff_t stride,
                                bool* padding_kept) {
  std::vector<std::uint8_t> v;
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) v.push_back(padded[std::size_t(y) * stride + x]);
    for (std::ptrdiff_t x = w; x < stride; ++x)
      *padding_kept = *padding_kept && padded[std::size_t(y) * stride + x] == kUntouched;
  }
  return v;
}

Shown cpu_shown(ccl::Analyzer& a, const Frame& f, const ccl::Options& o) {
  const std::ptrdiff_t stride = f.width + kPad;
  std::vector<std::uint8_t> dest(std::size_t(stride) * f.height, kUntouched);
  const ccl::MaskView view{dest.data(), stride};
  Shown s;
  a.run({f.pixels.data(), f.width, f.height, f.stride, {}}, o, s.result, nullptr, &view);
  s.mask = unpad(dest, f.width, f.height, stride, &s.padding_kept);
  return s;
}

struct GpuSide {
  gpu_test::Stream stream;
  ccl::CudaAnalyzer gpu{stream.get()};
  gpu_test::DeviceBuffer image, mask;

  Shown run(const Frame& f, const ccl::Options& o, Where where) {
    Shown s;
    if (where == Where::Host) {
      Frame plane = f;  // the frame's own host plane, padding kept
      const ccl::MaskView view{plane.pixels.data(), plane.stride};
      gpu.submit_host({plane.pixels.data(), f.width, f.height, f.stride, {}}, o, &view);
      gpu.collect(s.result);
      for (int y = 0; y < f.height; ++y) {
        for (int x = 0; x < f.width; ++x) s.mask.push_back(plane.at(x, y));
        for (int x = f.width; x < int(f.stride); ++x) s.padding_kept = s.padding_kept && plane.at(x, y) == f.at(x, y);
      }
      return s;
    }
    auto* d = static_cast<std::uint8_t*>(image.get(f.pixels.size()));
    EXPECT_NE(d, nullptr);
    gpu_test::cuda_ok(cudaMemcpy(d, f.pixels.data(), f.pixels.size(), cudaMemcpyHostToDevice), "cudaMemcpy (frame)");
    gpu_test::cuda_ok(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize");
    const std::ptrdiff_t stride = where == Where::OwnPlane ? f.stride : f.width + kPad;
    std::uint8_t* m = d;
    if (where == Where::Apart) {
      m = static_cast<std::uint8_t*>(mask.get(std::size_t(stride) * f.height));
      EXPECT_NE(m, nullptr);
      gpu_test::cuda_ok(cudaMemset(m, kUntouched, std::size_t(stride) * f.height), "cudaMemset");
    }
    const ccl::MaskView view{m, stride};
    gpu.run({d, f.width, f.height, f.stride, {}}, o, s.result, nullptr, &view);
    std::vector<std::uint8_t> host(std::size_t(stride) * f.height);
    gpu_test::cuda_ok(cudaMemcpy(host.data(), m, host.size(), cudaMemcpyDeviceToHost), "cudaMemcpy (mask)");
    if (where == Where::Apart) {
      s.mask = unpad(host, f.width, f.height, stride, &s.padding_kept);
    } else {
      for (int y = 0; y < f.height; ++y) {
        for (int x = 0; x < f.width; ++x) s.mask.push_back(host[std::size_t(y) * stride + x]);
        for (int x = f.width; x < int(stride); ++x)
          s.padding_kept = s.padding_kept && host[std::size_t(y) * stride + x] == f.at(x, y);
      }
    }
    return s;
  }
};

std::vector<ccl::Options> variants() {
  std::vector<ccl::Options> v;
  ccl::Options threshold;
  threshold.threshold = 150;
  v.push_back(threshold);  // no stage: plane 0 > t
  ccl::Options area = threshold;
  area.order = ccl::Order::Area;
  area.min_area = 10;  // queued stage by stage, compaction in collect() reads plane 0 again
  v.push_back(area);
  ccl::Options opened = threshold;
  opened.open_radius = 1;
  opened.close_radius = 2;
  v.push_back(opened);
  for (int radius : {0, 1, 15}) {
    ccl::Options motion;
    motion.foreground = ccl::Foreground::Motion;
    motion.open_radius = radius;
    motion.min_area = radius == 1 ? 20 : 0;
    v.push_back(motion);
  }
  return v;
}

std::string describe(const ccl::Options& o) {
  return std::string(ccl::to_string(o.foreground)) + " t=" + std::to_string(o.threshold) +
         " open=" + std::to_string(o.open_radius) + " close=" + std::to_string(o.close_radius) +
         " min_area=" + std::to_string(o.min_area) + " order=" + ccl::to_string(o.order);
}

TEST(MaskView, CudaEqualsCpu) {
  const int sizes[][2] = {{77, 41}, {300, 37}, {1, 1}};
  for (const auto& size : sizes)
    for (const ccl::Options& o : variants())
      for (Where where : {Where::Apart, Where::OwnPlane, Where::Host}) {
        auto cpu = ccl::make_cpu_analyzer();
        GpuSide gpu;
        std::size_t with_foreground = 0;
        for (int t = 0; t < 8; ++t) {
          const Frame f = scene_frame(size[0], size[1], t);
          const std::string what = f.name + " " + describe(o) + " into " + where_name(where);
          const Shown want = cpu_shown(*cpu, f, o);
          const Shown got = gpu.run(f, o, where);
          ASSERT_EQ(got.mask, want.mask) << what;
          EXPECT_TRUE(got.padding_kept) << what;
          EXPECT_EQ(compare::diff(got.result, want.result), "") << what;
          with_foreground += std::count(want.mask.begin(), want.mask.end(), 255) > 0;
          ++gpu_test::frames_checked;
        }
        if (size[0] > 1 && o.open_radius < 15) {  // an opening of 15 clears these small scenes
          EXPECT_GT(with_foreground, 4u) << describe(o);
        }
      }
}

TEST(MaskView, FillPlaneWritesTheRectangleOnly) {
  gpu_test::Stream stream;
  ccl::CudaAnalyzer gpu(stream.get());
  gpu_test::DeviceBuffer plane;
  const int w = 13, h = 5, stride = 16;
  auto* d = static_cast<std::uint8_t*>(plane.get(std::size_t(stride) * h));
  ASSERT_NE(d, nullptr);
  gpu_test::cuda_ok(cudaMemset(d, 0, std::size_t(stride) * h), "cudaMemset");
  gpu.fill_plane(d, stride, w, h, 128);
  gpu_test::cuda_ok(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
  std::vector<std::uint8_t> host(std::size_t(stride) * h);
  gpu_test::cuda_ok(cudaMemcpy(host.data(), d, host.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < stride; ++x) EXPECT_EQ(host[std::size_t(y) * stride + x], x < w ? 128 : 0) << x << "," << y;
}

}  // namespace
