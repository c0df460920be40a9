// Runs one frame through the CUDA backend, the CPU backend and the flood-fill oracle and says
// where they first differ. Device buffers are reused across frames.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "ccl/analyzer.hpp"
#include "ccl/cuda_analyzer.hpp"
#include "compare.hpp"
#include "frames.hpp"
#include "oracle.hpp"

namespace gpu_test {

// Quick mode (CCL_GPU_TEST_QUICK=1) keeps frames small, for the sanitizers.
bool quick();
// Frames compared so far, reported at exit.
extern std::size_t frames_checked;

inline void cuda_ok(cudaError_t status, const char* what) {
  ASSERT_EQ(status, cudaSuccess) << what << ": " << cudaGetErrorString(status);
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(data_); }
  void* get(std::size_t bytes) {
    if (bytes > bytes_) {
      cudaFree(data_);
      data_ = nullptr;
      bytes_ = 0;
      if (cudaMalloc(&data_, bytes) != cudaSuccess) return nullptr;
      bytes_ = bytes;
    }
    return data_;
  }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

struct Size {
  int w, h;
};

// Random thresholds (on gray frames), order, area filters and max_objects, as the sweeps use them.
inline ccl::Options random_options(std::mt19937& rng, int connectivity, bool gray) {
  ccl::Options o;
  o.connectivity = connectivity;
  const std::uint8_t thresholds[] = {0, 1, 64, 127, 200, 254, 255};
  if (gray) o.threshold = thresholds[rng() % 7];
  o.order = rng() % 2 ? ccl::Order::Area : ccl::Order::Raster;
  if (rng() % 4 == 0) {
    const std::uint32_t max_areas[] = {ccl::kUnlimited, 3, 50, 500};
    o.min_area = rng() % 20;
    o.max_area = max_areas[rng() % 4];
  }
  if (rng() % 4 == 0) {
    const std::uint32_t max_objects[] = {0, 1, 5, 100};
    o.max_objects = max_objects[rng() % 4];
  }
  return o;
}

// The sweeps' random frame: gray levels on every third seed, row padding cycling 0, 1, 7, 13 bytes.
inline frames::Frame sweep_frame(Size size, int density_percent, int g, std::uint32_t seed) {
  const int pads[] = {0, 1, 7, 13};
  return frames::random(size.w, size.h, density_percent, g, seed, pads[seed % 4], seed % 3 == 0);
}

// The sweeps: check(frame, seed) on every size x g x density (0..100 % in density_step steps), one
// seed each (advanced before each frame, so consecutive sweeps continue the sequence); stops at the
// first failure, as the first difference says enough.
template <typename Check>
void for_each_sweep_frame(const Size* sizes, std::size_t n_sizes, const int* gs, std::size_t n_gs, int density_step,
                          std::uint32_t& seed, Check&& check) {
  for (std::size_t s = 0; s < n_sizes; ++s)
    for (std::size_t gi = 0; gi < n_gs; ++gi)
      for (int d = 0; d <= 100; d += density_step) {
        ++seed;
        check(sweep_frame(sizes[s], d, gs[gi], seed), seed);
        if (::testing::Test::HasFailure()) return;
      }
}

enum class Upload { Device, Host };

// A stream of its own, blocking like the element's (CU_STREAM_DEFAULT): frames run on it as CUDA
// graphs recorded on the analyzer's private stream.
class Stream {
 public:
  Stream() { EXPECT_EQ(cudaStreamCreate(&stream_), cudaSuccess) << "cudaStreamCreate"; }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

struct Harness {
  Stream stream;
  ccl::CudaAnalyzer gpu{stream.get()};
  std::unique_ptr<ccl::Analyzer> cpu = ccl::make_cpu_analyzer();
  DeviceBuffer image, labels;

  // GPU result; `label_map` (if given) receives width*height final labels.
  ccl::Result run_gpu(const frames::Frame& f, const ccl::Options& o, std::vector<std::uint32_t>* label_map = nullptr,
                      Upload upload = Upload::Device) {
    ccl::Result r;
    if (upload == Upload::Host) {
      gpu.run_host({f.pixels.data(), f.width, f.height, f.stride, {}}, o, r);
      return r;
    }
    auto* d = static_cast<std::uint8_t*>(image.get(f.pixels.size()));
    EXPECT_NE(d, nullptr);
    EXPECT_EQ(cudaMemcpy(d, f.pixels.data(), f.pixels.size(), cudaMemcpyHostToDevice), cudaSuccess);
    // From pageable memory cudaMemcpy may return before the copy lands; our stream does not wait for it.
    EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
    if (!label_map) {
      gpu.run({d, f.width, f.height, f.stride, {}}, o, r);
      return r;
    }
    const std::ptrdiff_t stride = f.width + 3;  // a padded label map checks its stride is honoured
    auto* l = static_cast<std::uint32_t*>(labels.get(std::size_t(stride) * f.height * 4));
    EXPECT_NE(l, nullptr);
    const ccl::LabelView view{l, stride};
    gpu.run({d, f.width, f.height, f.stride, {}}, o, r, &view);
    label_map->resize(std::size_t(f.width) * f.height);
    EXPECT_EQ(cudaMemcpy2D(label_map->data(), f.width * 4, l, stride * 4, f.width * 4, f.height, cudaMemcpyDeviceToHost),
              cudaSuccess);
    return r;
  }

  ccl::Result run_cpu(const frames::Frame& f, const ccl::Options& o) {
    ccl::Result r;
    cpu->run({f.pixels.data(), f.width, f.height, f.stride, {}}, o, r);
    return r;
  }

  // GPU == CPU, and == oracle (results and label map) when `with_oracle`.
  void expect_agree(const frames::Frame& f, const ccl::Options& o, bool with_oracle,
                    Upload upload = Upload::Device) {
    const std::string what = f.name + " conn=" + std::to_string(o.connectivity) + " thr=" + std::to_string(o.threshold) +
                             " order=" + ccl::to_string(o.order) + " min=" + std::to_string(o.min_area) +
                             " max=" + std::to_string(o.max_area) + " objects=" + std::to_string(o.max_objects);
    std::vector<std::uint32_t> map;
    const bool with_map = with_oracle && upload == Upload::Device;
    const ccl::Result gpu_result = run_gpu(f, o, with_map ? &map : nullptr, upload);
    const ccl::Result cpu_result = run_cpu(f, o);
    EXPECT_EQ(compare::diff(gpu_result, cpu_result), "") << "GPU vs CPU: " << what;
    EXPECT_EQ(gpu_result.width, f.width);
    EXPECT_EQ(gpu_result.height, f.height);
    EXPECT_EQ(gpu_result.connectivity, o.connectivity);
    if (with_oracle) {
      const oracle::Output want = oracle::flood_fill(f, o);
      EXPECT_EQ(compare::diff(gpu_result, want.result), "") << "GPU vs oracle: " << what;
      if (with_map) {
        std::size_t bad = 0;
        while (bad < map.size() && map[bad] == want.labels[bad]) ++bad;
        EXPECT_EQ(bad, map.size()) << "label map differs at pixel (" << bad % f.width << "," << bad / f.width
                                   << "): " << map[bad] << " != " << want.labels[bad] << " in " << what;
      }
    }
    ++frames_checked;
  }
};

Harness& harness();

// One algorithm's random sweep: every sweep frame in 4- then 8-connectivity, with random options
// (gray frames on every third seed) and `algorithm`, CUDA == CPU == oracle; `rng` and `seed` go
// on from call to call. Stops at the first failure.
inline void sweep_algorithm(ccl::Algorithm algorithm, const Size* sizes, std::size_t n_sizes, const int* gs,
                            std::size_t n_gs, int density_step, std::mt19937& rng, std::uint32_t& seed) {
  for (int connectivity : {4, 8}) {
    for_each_sweep_frame(sizes, n_sizes, gs, n_gs, density_step, seed, [&](const frames::Frame& f, std::uint32_t s) {
      ccl::Options o = random_options(rng, connectivity, s % 3 == 0);
      o.algorithm = algorithm;
      harness().expect_agree(f, o, true);
    });
    if (::testing::Test::HasFailure()) return;
  }
}

}  // namespace gpu_test
