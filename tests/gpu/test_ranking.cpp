// The components are numbered in one launch (LinkRankFeaturesKernel for flsl-cd and flsl, which also
// adds up the features at the roots; LinkRankRootsKernel for naive and flsl-otf): the row blocks
// add up their roots by a decoupled look-back whose state must be left clean for the next frame,
// by the last block out (LinkRankRoots) or by the gather that follows (LinkRankFeatures, whose gather
// also zeroes the root slots). These run frames of very different heights on one fresh analyzer,
// so (from the second round, once the scratch stopped growing) a frame follows one with more row
// blocks and their status words, and with another analysis and order, so each way of cleaning up
// follows the other; frames of up to 513 row blocks, so a block may look back past one warp's
// window of 32 when it runs ahead of the others (timing decides); and blocks that rank thousands
// of components each. CUDA == CPU == oracle, label maps included.
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
