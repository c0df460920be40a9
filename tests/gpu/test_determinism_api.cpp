// Determinism (100 runs of a frame, byte-identical results and label maps) and the API contract:
// argument errors, unknown variants, reservation growth, out-of-memory reporting, and the segment
// arrays of raster-segments and flsl-otf allocated once, only when a frame or reserve() asks.
#include <cstring>

#include "gpu_harness.hpp"

namespace {

using gpu_test::harness;

bool same_bytes(const ccl::Result& a, const ccl::Result& b) {
  return a.n_components_total == b.n_components_total && a.truncated == b.truncated &&
         a.components.size() == b.components.size() &&
         std::memcmp(a.components.data(), b.components.data(), a.components.size() * sizeof(ccl::Component)) == 0;
}

TEST(Determinism, HundredRuns) {
  const int n = gpu_test::quick() ? 96 : 2048;
  const frames::Frame f = frames::random(n, n, 40, 1, 99);  // below percolation: many components
  for (ccl::Order order : {ccl::Order::Raster, ccl::Order::Area}) {
    ccl::Options o;
    o.order = order;
    std::vector<std::uint32_t> first_map, map;
    const ccl::Result first = harness().run_gpu(f, o, &first_map);
    ASSERT_GT(first.components.size(), 100u);
    const int runs = gpu_test::quick() ? 3 : 100;
    for (int i = 1; i < runs; ++i) {
      const ccl::Result again = harness().run_gpu(f, o, &map);
      ASSERT_TRUE(same_bytes(again, first)) << "run " << i << " differs";
      ASSERT_TRUE(map == first_map) << "label map of run " << i << " differs";
    }
  }
}

ccl::Error::Kind kind_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ccl::Error& e) {
    return e.kind();
  }
  ADD_FAILURE() << "no ccl::Error thrown";
  return ccl::Error::Kind::DeviceFailure;
}

TEST(Api, ArgumentErrors) {
  const frames::Frame f = frames::random(40, 30, 50, 1, 5);
  auto run = [&](const ccl::Options& o) { harness().run_gpu(f, o); };
  EXPECT_STREQ(harness().gpu.backend_name(), "cuda");
  ccl::Options bad;
  bad.connectivity = 6;
  EXPECT_EQ(kind_of([&] { run(bad); }), ccl::Error::Kind::InvalidArgument);
  ccl::Options other_algorithm;
  other_algorithm.algorithm = static_cast<ccl::Algorithm>(99);  // every named algorithm is implemented
  EXPECT_EQ(kind_of([&] { run(other_algorithm); }), ccl::Error::Kind::InvalidArgument);
  ccl::Options other_analysis;
  other_analysis.analysis = static_cast<ccl::Analysis>(99);  // every named analysis is implemented
  EXPECT_EQ(kind_of([&] { run(other_analysis); }), ccl::Error::Kind::InvalidArgument);
  ccl::Result r;
  EXPECT_EQ(kind_of([&] { harness().gpu.run({nullptr, 4, 4, 4, {}}, {}, r); }), ccl::Error::Kind::InvalidArgument);
  EXPECT_EQ(kind_of([&] { harness().gpu.run_host({f.pixels.data(), f.width, f.height, f.width - 1, {}}, {}, r); }),
            ccl::Error::Kind::InvalidArgument);
  const ccl::LabelView narrow{reinterpret_cast<std::uint32_t*>(16), 3};
  EXPECT_EQ(kind_of([&] { harness().gpu.run({f.pixels.data(), f.width, f.height, f.stride, {}}, {}, r, &narrow); }),
            ccl::Error::Kind::InvalidArgument);
  harness().expect_agree(f, {}, true);  // still usable after the errors
}

TEST(Api, ReserveGrowRelease) {
  ccl::CudaAnalyzer gpu(nullptr);
  gpu.reserve(8, 8);
  const frames::Frame big = frames::random(300, 200, 55, 2, 8, 2);
  ccl::Result r;
  gpu.run_host({big.pixels.data(), big.width, big.height, big.stride, {}}, {}, r);  // grows past the reservation
  EXPECT_EQ(compare::diff(r, oracle::flood_fill(big, {}).result), "");
  const frames::Frame tall = frames::random(1, 5000, 55, 1, 9);
  gpu.run_host({tall.pixels.data(), tall.width, tall.height, tall.stride, {}}, {}, r);  // fewer pixels, more rows
  EXPECT_EQ(compare::diff(r, oracle::flood_fill(tall, {}).result), "");
  gpu.release();
  gpu.run_host({big.pixels.data(), big.width, big.height, big.stride, {}}, {}, r);
  EXPECT_EQ(compare::diff(r, oracle::flood_fill(big, {}).result), "");
}

TEST(Api, OutOfMemoryNamesTheFrame) {
  ccl::CudaAnalyzer gpu(nullptr);
  try {
    gpu.reserve(ccl::kMaxSide, ccl::kMaxSide);  // ~240 GB of scratch: more than any single GPU has
    GTEST_SKIP() << "this device had room for a 65535x65535 reservation";
  } catch (const ccl::Error& e) {
    EXPECT_EQ(e.kind(), ccl::Error::Kind::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("65535x65535"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }
  const frames::Frame f = frames::random(50, 50, 50, 1, 3);
  ccl::Result r;
  gpu.run_host({f.pixels.data(), f.width, f.height, f.stride, {}}, {}, r);  // recovers after the failure
  EXPECT_EQ(compare::diff(r, oracle::flood_fill(f, {}).result), "");
}

// Segment arrays of raster-segments (bounds and parents, ~4 B/px) and flsl-otf (those and the run
// features, ~20 B/px): ceil(width / 2) slots a row.
std::size_t segment_bytes(int width, int height, bool features) {
  const std::size_t slots = std::size_t(height) * ((width + 1) / 2);
  return slots * (features ? 40 : 8);
}

ccl::Options variant(ccl::Algorithm algorithm, ccl::Analysis analysis, int connectivity = 8) {
  ccl::Options o;
  o.algorithm = algorithm;
  o.analysis = analysis;
  o.connectivity = connectivity;
  return o;
}

const ccl::Options kRasterSegments = variant(ccl::Algorithm::RasterSegments, ccl::Analysis::FlslCd);
const ccl::Options kFlslOtf = variant(ccl::Algorithm::OptimizedUF, ccl::Analysis::FlslOtf);

// run_host() on `gpu` gives the CPU backend's result.
void expect_cpu_result(ccl::CudaAnalyzer& gpu, const frames::Frame& f, const ccl::Options& o) {
  ccl::Result r;
  gpu.run_host({f.pixels.data(), f.width, f.height, f.stride, {}}, o, r);
  EXPECT_EQ(compare::diff(r, harness().run_cpu(f, o)), "")
      << f.name << " algorithm=" << ccl::to_string(o.algorithm) << " analysis=" << ccl::to_string(o.analysis)
      << " conn=" << o.connectivity;
}

frames::Frame variant_frame() {
  return gpu_test::quick() ? frames::random(97, 61, 55, 2, 41, 7) : frames::random(1031, 517, 55, 2, 41, 7);
}

TEST(Api, VariantArraysAllocatedOnceOnFirstUse) {
  const frames::Frame f = variant_frame();
  ccl::CudaAnalyzer gpu(nullptr);
  gpu.reserve(f.width, f.height, true);  // default options: no segment arrays
  const std::size_t plain = gpu.device_bytes();
  expect_cpu_result(gpu, f, {});
  EXPECT_EQ(gpu.device_bytes(), plain) << "the default pipeline allocated";

  expect_cpu_result(gpu, f, kRasterSegments);  // segment bounds and parents only
  const std::size_t segments = gpu.device_bytes();
  EXPECT_GE(segments - plain, segment_bytes(f.width, f.height, false));
  EXPECT_LT(segments - plain, segment_bytes(f.width, f.height, true));
  expect_cpu_result(gpu, f, kFlslOtf);  // the run features too: the segment arena grows once more
  const std::size_t otf = gpu.device_bytes();
  EXPECT_GE(otf - plain, segment_bytes(f.width, f.height, true));

  for (int connectivity : {4, 8})  // every variant and the default again: no further allocation
    for (auto algorithm : {ccl::Algorithm::OptimizedUF, ccl::Algorithm::RasterSegments, ccl::Algorithm::ColumnRuns})
      for (auto analysis : {ccl::Analysis::FlslCd, ccl::Analysis::FlslOtf}) {
        expect_cpu_result(gpu, f, variant(algorithm, analysis, connectivity));
        EXPECT_EQ(gpu.device_bytes(), otf) << ccl::to_string(algorithm) << " + " << ccl::to_string(analysis);
      }
  gpu.release();
  EXPECT_EQ(gpu.device_bytes(), 0u);
  expect_cpu_result(gpu, f, {});  // after release the default frame again holds no segment arrays
  EXPECT_EQ(gpu.device_bytes(), plain);
}

TEST(Api, VariantArraysReservedUpFront) {
  const frames::Frame f = variant_frame();
  ccl::CudaAnalyzer gpu(nullptr);
  gpu.reserve(f.width, f.height, true);
  const std::size_t plain = gpu.device_bytes();
  gpu.reserve(f.width, f.height, true, kFlslOtf);  // same size: adds only the segment arrays
  const std::size_t reserved = gpu.device_bytes();
  EXPECT_GE(reserved - plain, segment_bytes(f.width, f.height, true));
  for (const ccl::Options& o : {kFlslOtf, kRasterSegments, ccl::Options()}) {
    expect_cpu_result(gpu, f, o);
    EXPECT_EQ(gpu.device_bytes(), reserved) << "a frame allocated after reserve() with its options";
  }
}

TEST(Api, VariantArraysFollowAGrow) {
  const frames::Frame small = frames::random(33, 20, 55, 1, 42, 1);
  const frames::Frame big = variant_frame();
  ccl::CudaAnalyzer gpu(nullptr);
  gpu.reserve(small.width, small.height, true);
  expect_cpu_result(gpu, small, kFlslOtf);
  expect_cpu_result(gpu, big, {});  // grows both allocations: the segment arrays stay with the pipeline
  const std::size_t grown = gpu.device_bytes();
  for (const ccl::Options& o : {kFlslOtf, kRasterSegments}) {
    expect_cpu_result(gpu, big, o);
    expect_cpu_result(gpu, small, o);
    EXPECT_EQ(gpu.device_bytes(), grown) << "the segment arrays did not grow with the scratch";
  }
}

}  // namespace
