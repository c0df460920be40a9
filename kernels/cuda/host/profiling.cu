#include "ccl/profiling.hpp"

#include "host/analyzer_impl.cuh"
#include "host/cuda_check.hpp"
#include "host/stage_timer.cuh"
#include "primitives/dependent_launch.cuh"

namespace ccl {

struct Profiling::Impl {
  cuda::FramePipeline& pipeline;
  cuda::StageTimer timer;
};

Profiling::Profiling(CudaAnalyzer& analyzer) : impl_(new Impl{*analyzer.impl_, {}}) {}

Profiling::~Profiling() { impl_->pipeline.set_timer(nullptr); }

void Profiling::time_stages(bool on) { impl_->pipeline.set_timer(on ? &impl_->timer : nullptr); }

StageTimes Profiling::stage_times() const { return impl_->timer.stages(); }

void Profiling::queue_label_and_analyze(const ImageView& image, const Options& options) {
  validate(image, options);
  impl_->pipeline.label_and_analyze(image, options);
}

void Profiling::synchronize() {
  cuda::check(cudaStreamSynchronize(impl_->pipeline.stream()), "cudaStreamSynchronize");
}

void Profiling::use_graphs(bool on) { impl_->pipeline.use_graphs(on); }

void Profiling::use_dependent_launches(bool on) { cuda::set_dependent_launches(on); }

}  // namespace ccl
