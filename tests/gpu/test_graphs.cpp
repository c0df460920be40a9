// Frames queued as CUDA graphs: a graph replays the operations captured for one frame buffer, so
// these check that a replay reads the buffer's new contents, that no graph outlives the scratch or
// host list it points at, that buffers beyond the graphs kept reuse old graphs correctly, that the
// early-gather guess follows the component count up and down (past what is gathered early, too),
// that an area filter in raster order is applied on the host to a graph's list (and on the device
// after a crowded frame), and that graphs run on the legacy default stream as well. CUDA == CPU ==
// oracle.
#include <algorithm>
#include <random>
#include <vector>

#include "gpu_harness.hpp"

namespace {

using gpu_test::cuda_ok;

// Frames in device memory of their own, each at a distinct address, uploaded once.
class DeviceFrames {
 public:
  explicit DeviceFrames(const std::vector<frames::Frame>& fs) : frames_(fs) {
    std::size_t bytes = 0;
    for (const frames::Frame& f : fs) bytes += (f.pixels.size() + 255) / 256 * 256;
    cuda_ok(cudaMalloc(&base_, bytes), "cudaMalloc");
    auto* p = static_cast<std::uint8_t*>(base_);
    for (const frames::Frame& f : fs) {
      cuda_ok(cudaMemcpy(p, f.pixels.data(), f.pixels.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
      views_.push_back({p, f.width, f.height, f.stride, {}});
      p += (f.pixels.size() + 255) / 256 * 256;
    }
    cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  ~DeviceFrames() { cudaFree(base_); }
  DeviceFrames(const DeviceFrames&) = delete;
  DeviceFrames& operator=(const DeviceFrames&) = delete;

  std::size_t size() const { return views_.size(); }
  const ccl::ImageView& view(std::size_t i) const { return views_[i]; }
  const frames::Frame& frame(std::size_t i) const { return frames_[i]; }

 private:
  std::vector<frames::Frame> frames_;
  std::vector<ccl::ImageView> views_;
  void* base_ = nullptr;
};

// `gpu`'s result on device frame i against the CPU backend and the oracle.
void expect_agree(ccl::CudaAnalyzer& gpu, const DeviceFrames& d, std::size_t i, const ccl::Options& o) {
  ccl::Result got;
  gpu.run(d.view(i), o, got);
  const ccl::Result cpu = gpu_test::harness().run_cpu(d.frame(i), o);
  EXPECT_EQ(compare::diff(got, cpu), "") << "GPU vs CPU: " << d.frame(i).name << " (frame " << i << ")";
  EXPECT_EQ(compare::diff(got, oracle::flood_fill(d.frame(i), o).result), "")
      << "GPU vs oracle: " << d.frame(i).name << " (frame " << i << ")";
  ++gpu_test::frames_checked;
}

std::vector<frames::Frame> random_frames(int n, int w, int h, std::uint32_t seed) {
  std::vector<frames::Frame> fs;
  for (int i = 0; i < n; ++i) fs.push_back(frames::random(w, h, 10 + 7 * (i % 12), 1 + i % 5, seed + std::uint32_t(i)));
  return fs;
}

TEST(Graphs, ReplayReadsTheBuffersNewContents) {
  // One buffer, its contents replaced between frames: a graph captured for it must not replay the
  // first frame's result.
  const gpu_test::Stream stream;
  ccl::CudaAnalyzer gpu(stream.get());
  const std::vector<frames::Frame> fs = {frames::random(301, 97, 40, 2, 7), frames::random(301, 97, 60, 1, 8),
                                         frames::spiral(301, 97), frames::full(301, 97)};
  gpu_test::DeviceBuffer buffer;
  auto* d = static_cast<std::uint8_t*>(buffer.get(fs[0].pixels.size()));
  ASSERT_NE(d, nullptr);
  ccl::Options o;
  o.max_objects = 8;  // the same 8 gathered whatever the count: one key, one graph, replayed
  for (int i = 0; i < 12; ++i) {
    const frames::Frame& f = fs[std::size_t(i) % fs.size()];
    cuda_ok(cudaMemcpy(d, f.pixels.data(), f.pixels.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
    cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    ccl::Result got;
    gpu.run({d, f.width, f.height, f.stride, {}}, o, got);
    EXPECT_EQ(compare::diff(got, gpu_test::harness().run_cpu(f, o)), "") << f.name << " at frame " << i;
    ++gpu_test::frames_checked;
  }
  EXPECT_EQ(gpu.graphs_kept(), 1u) << "every frame after the first replays one graph";
}

TEST(Graphs, NoneOutlivesWhatItPointsAt) {
  // The same key comes back after the scratch grew, after the segment arrays were replaced and
  // after the host list grew; a graph kept across would copy from or into freed memory.
  const gpu_test::Stream stream;
  ccl::CudaAnalyzer gpu(stream.get());
  const frames::Frame small = frames::random(200, 150, 35, 2, 41), large = frames::random(1500, 900, 35, 2, 42);
  const DeviceFrames d({small, large, frames::checkerboard(1500, 900)});
  ccl::Options pinned;  // gathers the same 16 however many components: the key repeats
  pinned.max_objects = 16;
  expect_agree(gpu, d, 0, pinned);
  expect_agree(gpu, d, 1, pinned);  // the scratch grows
  expect_agree(gpu, d, 0, pinned);
  ccl::Options segments = pinned, features = pinned;
  segments.algorithm = ccl::Algorithm::RasterSegments;
  features.analysis = ccl::Analysis::FlslOtf;  // more segment arrays: the segment arena is replaced
  expect_agree(gpu, d, 0, segments);
  expect_agree(gpu, d, 0, features);
  expect_agree(gpu, d, 0, segments);
  // The host list: the guess settles for the small frame, the checkerboard's 675,000 components
  // (4-connectivity) grow the list and the guess, and the small frame brings the guess back.
  ccl::Options four;
  four.connectivity = 4;
  for (std::size_t i : {0, 0, 2, 0, 0, 0}) expect_agree(gpu, d, i, four);
  EXPECT_GT(gpu.graphs_kept(), 0u);
}

TEST(Graphs, MoreBuffersThanGraphsKept) {
  // 80 buffers, more than the 64 graphs kept: later ones update the least recently used graph.
  const gpu_test::Stream stream;
  ccl::CudaAnalyzer gpu(stream.get());
  const DeviceFrames d(random_frames(80, 67, 45, 100));
  std::vector<std::size_t> order(d.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 rng(5);
  ccl::Options o;
  for (int lap = 0; lap < 3; ++lap) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) expect_agree(gpu, d, i, o);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(gpu.graphs_kept(), 64u);
  gpu.release();
  EXPECT_EQ(gpu.graphs_kept(), 0u) << "release() frees the graphs with the scratch they point at";
  expect_agree(gpu, d, 0, o);
}

TEST(Graphs, GuessFollowsTheCount) {
  // Component counts that jump up and down, past the 16384 components gathered early at most:
  // every frame whose count outgrows the guess takes the second gather, every new guess captures
  // anew, and the checkerboard's 153,600 components (4-connectivity) grow the host list.
  const int w = 640, h = 480;
  std::vector<frames::Frame> fs;
  for (int d : {0, 30, 2, 45, 0, 45, 10, 1, 45, 25}) fs.push_back(frames::random(w, h, d, d > 20 ? 1 : 4, std::uint32_t(300 + d)));
  fs.push_back(frames::full(w, h));
  fs.push_back(frames::checkerboard(w, h));
  fs.push_back(frames::blank("empty", w, h));
  const gpu_test::Stream stream;
  ccl::CudaAnalyzer gpu(stream.get());
  const DeviceFrames d(fs);
  ccl::Options eight, four, four_capped;
  four.connectivity = four_capped.connectivity = 4;
  four_capped.max_objects = 5000;
  std::size_t most = 0;
  for (const ccl::Options& o : {eight, four, four_capped})
    for (int lap = 0; lap < 2; ++lap)
      for (std::size_t i = 0; i < d.size(); ++i) {
        expect_agree(gpu, d, i, o);
        most = std::max(most, gpu_test::harness().run_cpu(d.frame(i), o).components.size());
      }
  EXPECT_GT(most, 16384u) << "no frame went past what is gathered early";
  EXPECT_GT(gpu.graphs_kept(), 0u);
}

TEST(Graphs, LegacyStreamRunsGraphsToo) {
  // Recorded on the analyzer's private stream, launched on the legacy default stream.
  ccl::CudaAnalyzer gpu(nullptr);
  const DeviceFrames d(random_frames(6, 129, 65, 900));
  ccl::Options o;
  for (int lap = 0; lap < 2; ++lap)
    for (std::size_t i = 0; i < d.size(); ++i) expect_agree(gpu, d, i, o);
  EXPECT_GT(gpu.graphs_kept(), 0u);
}

TEST(Graphs, OnlyWhereTheFrameNeedsNoWait) {
  // 8dls waits for the device between passes, and area order waits for the counts before the
  // sort: those frames are queued one operation at a time. An area filter in raster order is
  // applied on the host to the one graph's list.
  const gpu_test::Stream stream;
  ccl::CudaAnalyzer gpu(stream.get());
  const DeviceFrames d(random_frames(4, 97, 61, 1200));
  ccl::Options o;
  o.algorithm = ccl::Algorithm::EightDLS;
  for (std::size_t i = 0; i < d.size(); ++i) expect_agree(gpu, d, i, o);
  o.algorithm = ccl::Algorithm::OptimizedUF;
  o.order = ccl::Order::Area;
  o.min_area = 3;
  for (std::size_t i = 0; i < d.size(); ++i) expect_agree(gpu, d, i, o);
  EXPECT_EQ(gpu.graphs_kept(), 0u);
  o.order = ccl::Order::Raster;
  for (std::size_t i = 0; i < d.size(); ++i) expect_agree(gpu, d, i, o);
  EXPECT_GE(gpu.graphs_kept(), d.size()) << "an area filter in raster order: a graph per buffer";
  o.min_area = 0;
  o.algorithm = ccl::Algorithm::ColumnRuns;
  for (std::size_t i = 0; i < d.size(); ++i) expect_agree(gpu, d, i, o);
  EXPECT_GT(gpu.graphs_kept(), d.size());
}

TEST(Graphs, AreaFilterOnTheHostUntilAFrameIsCrowded) {
  // Raster order with min_area, max_area and max_objects: frames are gathered whole by one graph
  // and filtered on the host, except the frame after one of over 16384 components, which the
  // device compacts (no graph). Both give the CPU's and the oracle's lists, truncation included.
  const int w = 640, h = 480;
  std::vector<frames::Frame> fs;
  fs.push_back(frames::checkerboard(w, h));  // 153,600 components (4-connectivity)
  for (int d : {30, 2, 45, 10}) fs.push_back(frames::random(w, h, d, 4, std::uint32_t(700 + d)));  // < 16384 each
  fs.push_back(frames::blank("empty", w, h));
  const DeviceFrames d(fs);
  ccl::Options filtered, capped, narrow;
  filtered.connectivity = capped.connectivity = narrow.connectivity = 4;
  filtered.min_area = 40;
  capped.min_area = 17, capped.max_objects = 40;
  narrow.min_area = 1, narrow.max_area = 16;  // the checkerboard's squares, the random frames' single cells
  for (const ccl::Options& o : {filtered, capped, narrow}) {
    const gpu_test::Stream stream;
    ccl::CudaAnalyzer gpu(stream.get());
    expect_agree(gpu, d, 0, o);  // filtered on the host; its 153,600 components move the host list (no graph kept)
    expect_agree(gpu, d, 1, o);  // after 153,600 components: the device compacts, no graph
    EXPECT_EQ(gpu.graphs_kept(), 0u) << "the frame after a crowded one is compacted on the device";
    expect_agree(gpu, d, 1, o);
    EXPECT_EQ(gpu.graphs_kept(), 1u) << "the frame after an uncrowded one is one graph, filtered on the host";
    for (int lap = 0; lap < 2; ++lap)
      for (std::size_t i = 1; i < d.size(); ++i) expect_agree(gpu, d, i, o);
    EXPECT_GE(gpu.graphs_kept(), d.size()) << "frames after uncrowded ones filter on the host";
    expect_agree(gpu, d, 0, o);
    expect_agree(gpu, d, 2, o);
  }
}

}  // namespace
