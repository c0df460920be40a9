#include "core_stages.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <cuda_runtime.h>

#include "ccl/cuda_analyzer.hpp"
#include "ccl/profiling.hpp"
#include "copy_bandwidth.cuh"

namespace bench {
namespace {

// `in_flight` host threads, each with its own stream and CudaAnalyzer, run frames k, k + in_flight,
// ... of `iterations`; frames/s from the common start to the last one's end.
double in_flight_fps(const std::vector<const std::uint8_t*>& frames, int width, int height, std::ptrdiff_t stride,
                     const ccl::Options& options, int iterations, int in_flight,
                     const std::function<void()>& enter_context) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::chrono::steady_clock::time_point start;
  std::vector<std::chrono::steady_clock::time_point> ends(static_cast<std::size_t>(in_flight));
  std::vector<std::thread> threads;
  for (int k = 0; k < in_flight; ++k)
    threads.emplace_back([&, k] {
      enter_context();
      cudaStream_t stream = nullptr;
      check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
      {
        ccl::CudaAnalyzer analyzer(stream);
        analyzer.reserve(width, height);
        ccl::Result result;
        for (int lap = 0; lap < 2; ++lap)  // settles the guess and the graph of each frame, as above
          for (const std::uint8_t* f : frames) analyzer.run({f, width, height, stride, {}}, options, result);
        ++ready;
        while (!go.load()) std::this_thread::yield();
        for (int i = k; i < iterations; i += in_flight)
          analyzer.run({frames[std::size_t(i) % frames.size()], width, height, stride, {}}, options, result);
        ends[std::size_t(k)] = std::chrono::steady_clock::now();
      }
      cudaStreamDestroy(stream);
    });
  while (ready.load() < in_flight) std::this_thread::yield();
  start = std::chrono::steady_clock::now();
  go = true;
  for (std::thread& t : threads) t.join();
  const auto end = *std::max_element(ends.begin(), ends.end());
  return iterations / std::chrono::duration<double>(end - start).count();
}

}  // namespace

CoreTimes time_core(const std::vector<const std::uint8_t*>& frames, int width, int height, std::ptrdiff_t stride,
                    const ccl::Options& options, int iterations, const std::function<void()>& enter_context) {
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  CoreTimes t;
  {
    ccl::CudaAnalyzer analyzer(stream);
    ccl::Profiling profiling(analyzer);
    analyzer.reserve(width, height);
    ccl::Result result;
    t.results.resize(frames.size());
    // Three ways to queue a frame: graphs with dependent launches (the default), graphs without,
    // and every operation by itself without either (as before graphs).
    struct Way {
      bool graphs, overlap;
      std::vector<double>* run_ms;
      std::vector<double>* enqueue_ms;
    };
    std::vector<double> ignored;
    for (const Way& way : {Way{true, true, &t.run_ms, &t.enqueue_ms}, Way{true, false, &t.no_overlap_run_ms, &ignored},
                           Way{false, false, &t.direct_run_ms, &t.direct_enqueue_ms}}) {
      ccl::Profiling::use_dependent_launches(way.overlap);
      profiling.use_graphs(way.graphs);
      analyzer.release();  // forgets the graphs captured the other way
      analyzer.reserve(width, height);
      // Warm-up, and the result of every distinct frame: twice round, as the first lap settles the
      // guess of components gathered early, and with it the graph kept for each frame.
      for (int lap = 0; lap < 2; ++lap)
        for (std::size_t i = 0; i < frames.size(); ++i)
          analyzer.run({frames[i], width, height, stride, {}}, options, t.results[i]);
      for (int i = 0; i < iterations; ++i) {
        const ccl::ImageView view{frames[i % frames.size()], width, height, stride, {}};
        const auto start = std::chrono::steady_clock::now();
        analyzer.submit(view, options);
        const auto queued = std::chrono::steady_clock::now();
        analyzer.collect(result);
        const auto now = std::chrono::steady_clock::now();
        way.run_ms->push_back(std::chrono::duration<double, std::milli>(now - start).count());
        way.enqueue_ms->push_back(std::chrono::duration<double, std::milli>(queued - start).count());
      }
    }
    ccl::Profiling::use_dependent_launches(true);
    profiling.time_stages(true);
    for (int i = 0; i < iterations; ++i) {
      analyzer.run({frames[i % frames.size()], width, height, stride, {}}, options, result);
      const auto stages = profiling.stage_times();
      if (t.stage_ms.empty())
        for (const auto& s : stages) t.stage_ms.emplace_back(s.first, std::vector<double>());
      for (std::size_t k = 0; k < stages.size() && k < t.stage_ms.size(); ++k) t.stage_ms[k].second.push_back(stages[k].second);
    }
  }
  cudaStreamDestroy(stream);
  for (int in_flight = 1; in_flight <= 3; ++in_flight)
    t.in_flight_fps.push_back(in_flight_fps(frames, width, height, stride, options, iterations, in_flight, enter_context));
  return t;
}

}  // namespace bench
