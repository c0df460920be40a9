#include "core_stages.hpp"

#include <chrono>

#include "cuda_check.hpp"
#include "pipeline.cuh"
#include "stage_timer.cuh"

namespace bench {

CoreTimes time_core(const std::vector<const std::uint8_t*>& frames, int width, int height, std::ptrdiff_t stride,
                    const ccl::Options& options, int iterations) {
  cudaStream_t stream = nullptr;
  ccl::cuda::check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  CoreTimes t;
  {
    ccl::cuda::FramePipeline pipeline(stream);
    pipeline.reserve(width, height);
    ccl::cuda::StageTimer timer;
    ccl::Result result;
    t.results.resize(frames.size());
    // Warm-up, and the result of every distinct frame: twice round, as the first lap settles the
    // guess of components gathered early, and with it the graph kept for each frame.
    for (int lap = 0; lap < 2; ++lap)
      for (std::size_t i = 0; i < frames.size(); ++i)
        pipeline.run({frames[i], width, height, stride}, options, t.results[i], nullptr, nullptr);
    for (bool graphs : {true, false}) {
      pipeline.use_graphs(graphs);
      for (int i = 0; i < iterations; ++i) {
        const ccl::ImageView view{frames[i % frames.size()], width, height, stride};
        const auto start = std::chrono::steady_clock::now();
        auto queued = start;
        pipeline.run(view, options, result, nullptr, nullptr, [&queued] { queued = std::chrono::steady_clock::now(); });
        const auto now = std::chrono::steady_clock::now();
        (graphs ? t.run_ms : t.direct_run_ms).push_back(std::chrono::duration<double, std::milli>(now - start).count());
        (graphs ? t.enqueue_ms : t.direct_enqueue_ms)
            .push_back(std::chrono::duration<double, std::milli>(queued - start).count());
      }
    }
    for (int i = 0; i < iterations; ++i) {
      pipeline.run({frames[i % frames.size()], width, height, stride}, options, result, nullptr, &timer);
      const auto stages = timer.stages();
      if (t.stage_ms.empty())
        for (const auto& s : stages) t.stage_ms.emplace_back(s.first, std::vector<double>());
      for (std::size_t k = 0; k < stages.size() && k < t.stage_ms.size(); ++k) t.stage_ms[k].second.push_back(stages[k].second);
    }
  }
  cudaStreamDestroy(stream);
  return t;
}

}  // namespace bench
