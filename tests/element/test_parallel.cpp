// The worker pool behind the ROI params and messages: every index done exactly once, whoever takes
// it, with several callers at once (several cudaccl in one process), with background jobs waited
// for or dropped, and with jobs that come faster or slower than the workers go back to sleep.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "ccl_parallel.h"

namespace {

// Counts how often each index was handed out.
struct Tally {
  explicit Tally(std::size_t n) : hits(n) {}
  std::vector<std::atomic<int>> hits;
  void body(std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) hits[i].fetch_add(1, std::memory_order_relaxed);
  }
  std::size_t wrong() const {
    std::size_t bad = 0;
    for (const auto& h : hits) bad += h.load() != 1;
    return bad;
  }
};

TEST(WorkerPool, ParallelForDoesEveryIndexOnce) {
  for (std::size_t n : {0u, 1u, 127u, 128u, 129u, 1000u, 100000u}) {
    for (std::size_t chunk : {1u, 7u, 128u}) {
      Tally t(n);
      ccl_gst::parallel_for(n, chunk, [&](std::size_t b, std::size_t e) { t.body(b, e); });
      EXPECT_EQ(t.wrong(), 0u) << "n " << n << " chunk " << chunk;
    }
  }
}

TEST(WorkerPool, ManyCallersAtOnce) {
  std::vector<std::thread> callers;
  std::atomic<int> failures{0};
  for (int c = 0; c < 6; ++c)
    callers.emplace_back([&, c] {
      for (int round = 0; round < 200; ++round) {
        const std::size_t n = 100 + std::size_t((c * 7919 + round * 104729) % 5000);
        Tally t(n);
        if (round % 2) {
          ccl_gst::parallel_for(n, 64, [&](std::size_t b, std::size_t e) { t.body(b, e); });
        } else {
          ccl_gst::BackgroundFor job(n, 64, [&](std::size_t b, std::size_t e) { t.body(b, e); });
          job.wait();
        }
        if (t.wrong()) ++failures;
      }
    });
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(failures.load(), 0);
}

// Gaps shorter and longer than the time idle workers keep watching for work.
TEST(WorkerPool, JobsAfterShortAndLongGaps) {
  for (int gap_us : {0, 50, 250, 400, 2000, 0}) {
    Tally t(3000);
    std::this_thread::sleep_for(std::chrono::microseconds(gap_us));
    {
      ccl_gst::BackgroundFor job(3000, 100, [&](std::size_t b, std::size_t e) { t.body(b, e); });
    }  // the destructor waits
    EXPECT_EQ(t.wrong(), 0u) << "after a gap of " << gap_us << " us";
  }
}

}  // namespace
