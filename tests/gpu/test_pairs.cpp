// Every labeling algorithm with every analysis, in both connectivities: any pair must give the
// same result, so each of the 40 is checked against the CPU backend and the oracle (label map
// included) on random frames (densities 10..90 %, g 1 and 4, gray levels, thresholds, area filters,
// max_objects) and on the adversarial shapes, at 1xN, Nx1, prime and tile-straddling sizes, with
// both orders. The per-algorithm and per-analysis tests sweep deeper; this one covers the pairs.
#include <random>

#include "gpu_harness.hpp"

namespace {

using gpu_test::harness;
using gpu_test::random_options;
using gpu_test::Size;

constexpr ccl::Algorithm kAlgorithms[] = {ccl::Algorithm::OptimizedUF, ccl::Algorithm::EightDLS,
                                          ccl::Algorithm::M8DLS, ccl::Algorithm::ColumnRuns,
                                          ccl::Algorithm::RasterSegments};
constexpr ccl::Analysis kAnalyses[] = {ccl::Analysis::Naive, ccl::Analysis::Flsl, ccl::Analysis::FlslCd,
                                       ccl::Analysis::FlslOtf};

// Calls check(options) once for each algorithm x analysis x connectivity, traced; stops at the
// first failure (the first difference says enough).
template <class Check>
void for_each_pair(Check&& check) {
  for (ccl::Algorithm algorithm : kAlgorithms)
    for (ccl::Analysis analysis : kAnalyses)
      for (int connectivity : {4, 8}) {
        SCOPED_TRACE(std::string("algorithm=") + ccl::to_string(algorithm) + " analysis=" + ccl::to_string(analysis));
        ccl::Options o;
        o.algorithm = algorithm;
        o.analysis = analysis;
        o.connectivity = connectivity;
        check(o);
        if (::testing::Test::HasFailure()) return;
      }
}

TEST(Pairs, Random) {
  const Size sizes[] = {{1, 61}, {61, 1}, {37, 31}, {131, 67}, {257, 65}};
  const Size quick_sizes[] = {{1, 23}, {23, 1}, {37, 31}};
  const int densities[] = {10, 40, 60, 90};
  const int gs[] = {1, 4};
  const bool q = gpu_test::quick();
  const Size* use = q ? quick_sizes : sizes;
  const std::size_t n_sizes = q ? std::size(quick_sizes) : std::size(sizes);
  std::mt19937 rng(2468);
  std::uint32_t seed = 9000;
  for_each_pair([&](const ccl::Options& pair) {
    for (std::size_t s = 0; s < n_sizes; ++s)
      for (int g : gs)
        for (int d : densities) {
          if (q && (g != 1 || d != 60)) continue;  // quick: one frame a size
          ++seed;
          ccl::Options o = random_options(rng, pair.connectivity, seed % 3 == 0);
          o.algorithm = pair.algorithm;
          o.analysis = pair.analysis;
          o.order = seed % 2 ? ccl::Order::Area : ccl::Order::Raster;
          harness().expect_agree(gpu_test::sweep_frame(use[s], d, g, seed), o, true);
          if (::testing::Test::HasFailure()) return;
        }
  });
}

TEST(Pairs, Shapes) {
  const Size sizes[] = {{1, 45}, {45, 1}, {67, 35}, {131, 67}};
  const Size quick_sizes[] = {{35, 19}};
  const bool q = gpu_test::quick();
  const Size* use = q ? quick_sizes : sizes;
  const std::size_t n_sizes = q ? std::size(quick_sizes) : std::size(sizes);
  std::vector<frames::Frame> shapes;
  for (std::size_t s = 0; s < n_sizes; ++s) {
    std::vector<frames::Frame> all = frames::adversarial(use[s].w, use[s].h, use[s].w % 3);
    for (std::size_t i = 0; i < all.size(); i += q ? 2 : 1) shapes.push_back(std::move(all[i]));  // quick: every other
  }
  for_each_pair([&](ccl::Options o) {
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      o.order = i % 2 ? ccl::Order::Area : ccl::Order::Raster;  // 11 shapes a size: each gets both orders
      harness().expect_agree(shapes[i], o, true);
      if (::testing::Test::HasFailure()) return;
    }
  });
}

}  // namespace
