// The components are numbered in raster order by row blocks of 8 rows. naive and flsl-otf
// (LinkRankRootsKernel) add up the blocks' roots by a decoupled look-back whose state the last
// block out must leave clean for the next frame; flsl-cd and flsl (LinkRankFeaturesKernel, which
// also adds up the features at the roots) leave counts per row and row block, and each block of the
// gather adds up the counts before it and zeroes the root slots it read. These run frames of very
// different heights on one fresh analyzer, so (from the second round, once the scratch stopped
// growing) a frame follows one with more row blocks, and with another analysis and order, so each
// way of numbering follows the other on what it left; frames of up to 513 row blocks, so a
// look-back may reach past one warp's window of 32 when a block runs ahead of the others (timing
// decides) and a gather block adds up hundreds of counts; and blocks that rank thousands of
// components each. CUDA == CPU == oracle, label maps included.
#include "gpu_harness.hpp"

namespace {

const ccl::Analysis kAnalyses[] = {ccl::Analysis::FlslCd, ccl::Analysis::Naive, ccl::Analysis::Flsl,
                                   ccl::Analysis::FlslOtf};

TEST(Ranking, HeightsChangeOnOneAnalyzer) {
  gpu_test::Harness h;
  const gpu_test::Size sizes[] = {{64, 2000}, {300, 9}, {17, 1}, {1, 4100}, {33, 777}, {5, 8}, {1000, 997}, {2, 263}};
  std::uint32_t seed = 900;
  for (int round = 0; round < 3; ++round)
    for (const gpu_test::Size& s : sizes)
      for (int connectivity : {4, 8}) {
        ccl::Options o;
        o.connectivity = connectivity;
        o.analysis = kAnalyses[(seed + std::uint32_t(round)) % 4];  // over the rounds, each size in both
        if (seed % 5 == 0) o.order = ccl::Order::Area;  // the root slots gathered by rank, then sorted
        h.expect_agree(frames::random(s.w, s.h, 20 + 25 * round, 1 + round, seed++), o, true);
        if (::testing::Test::HasFailure()) return;
      }
}

TEST(Ranking, ThousandsOfComponentsPerBlock) {
  gpu_test::Harness h;
  ccl::Options four;
  four.connectivity = 4;
  h.expect_agree(frames::checkerboard(4001, 37), four, true);  // 8 rows a block: ~16,000 components each
  h.expect_agree(frames::checkerboard(3, 2001), four, true);
  h.expect_agree(frames::lines(2001, 777, false), ccl::Options{}, true);
  h.expect_agree(frames::checkerboard(4001, 37), four, true);  // again, on the state the others left
}

}  // namespace
