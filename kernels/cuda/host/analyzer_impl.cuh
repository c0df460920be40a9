// ccl::CudaAnalyzer is the FramePipeline on the caller's stream; ccl::Profiling reaches it too.
#pragma once

#include "ccl/cuda_analyzer.hpp"
#include "host/pipeline.cuh"

namespace ccl {

struct CudaAnalyzer::Impl : cuda::FramePipeline {
  using FramePipeline::FramePipeline;
};

}  // namespace ccl
