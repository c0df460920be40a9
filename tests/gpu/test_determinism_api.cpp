// Determinism (100 runs of a frame, byte-identical results and label maps) and the API contract:
// argument errors, unknown variants, reservation growth, out-of-memory reporting.
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
  EXPECT_EQ(kind_of([&] { harness().gpu.run({nullptr, 4, 4, 4}, {}, r); }), ccl::Error::Kind::InvalidArgument);
  EXPECT_EQ(kind_of([&] { harness().gpu.run_host({f.pixels.data(), f.width, f.height, f.width - 1}, {}, r); }),
            ccl::Error::Kind::InvalidArgument);
  const ccl::LabelView narrow{reinterpret_cast<std::uint32_t*>(16), 3};
  EXPECT_EQ(kind_of([&] { harness().gpu.run({f.pixels.data(), f.width, f.height, f.stride}, {}, r, &narrow); }),
            ccl::Error::Kind::InvalidArgument);
  harness().expect_agree(f, {}, true);  // still usable after the errors
}

TEST(Api, ReserveGrowRelease) {
  ccl::CudaAnalyzer gpu(nullptr);
  gpu.reserve(8, 8);
  const frames::Frame big = frames::random(300, 200, 55, 2, 8, 2);
  ccl::Result r;
  gpu.run_host({big.pixels.data(), big.width, big.height, big.stride}, {}, r);  // grows past the reservation
  EXPECT_EQ(compare::diff(r, oracle::flood_fill(big, {}).result), "");
  const frames::Frame tall = frames::random(1, 5000, 55, 1, 9);
  gpu.run_host({tall.pixels.data(), tall.width, tall.height, tall.stride}, {}, r);  // fewer pixels, more rows
  EXPECT_EQ(compare::diff(r, oracle::flood_fill(tall, {}).result), "");
  gpu.release();
  gpu.run_host({big.pixels.data(), big.width, big.height, big.stride}, {}, r);
  EXPECT_EQ(compare::diff(r, oracle::flood_fill(big, {}).result), "");
}

TEST(Api, OutOfMemoryNamesTheFrame) {
  ccl::CudaAnalyzer gpu(nullptr);
  try {
    gpu.reserve(ccl::kMaxSide, ccl::kMaxSide);  // ~200 GB of scratch: more than any single GPU has
    GTEST_SKIP() << "this device had room for a 65535x65535 reservation";
  } catch (const ccl::Error& e) {
    EXPECT_EQ(e.kind(), ccl::Error::Kind::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("65535x65535"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << e.what();
  }
  const frames::Frame f = frames::random(50, 50, 50, 1, 3);
  ccl::Result r;
  gpu.run_host({f.pixels.data(), f.width, f.height, f.stride}, {}, r);  // recovers after the failure
  EXPECT_EQ(compare::diff(r, oracle::flood_fill(f, {}).result), "");
}

}  // namespace
