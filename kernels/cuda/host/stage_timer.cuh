// Optional per-stage cudaEvent marks, so the benchmark can see where the time of a frame goes;
// production passes no timer and records nothing.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "host/cuda_check.hpp"

namespace ccl::cuda {

class StageTimer {
 public:
  StageTimer() = default;
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;
  ~StageTimer() {
    for (auto& m : marks_) cudaEventDestroy(m.event);
  }

  // Starts a new frame: the next marks reuse the events of the previous frame.
  void start(cudaStream_t stream) {
    used_ = 0;
    mark("start", stream);
  }
  void mark(const char* stage, cudaStream_t stream) {
    if (used_ == marks_.size()) {
      Mark m{stage, nullptr};
      check(cudaEventCreate(&m.event), "cudaEventCreate");
      marks_.push_back(m);
    }
    marks_[used_].stage = stage;
    check(cudaEventRecord(marks_[used_].event, stream), "cudaEventRecord");
    ++used_;
  }
  // Milliseconds per stage since the previous mark; call after the stream was synchronized.
  std::vector<std::pair<std::string, float>> stages() const {
    std::vector<std::pair<std::string, float>> out;
    for (std::size_t i = 1; i < used_; ++i) {
      float ms = 0;
      check(cudaEventElapsedTime(&ms, marks_[i - 1].event, marks_[i].event), "cudaEventElapsedTime");
      out.emplace_back(marks_[i].stage, ms);
    }
    return out;
  }

 private:
  struct Mark {
    std::string stage;
    cudaEvent_t event;
  };
  std::vector<Mark> marks_;
  std::size_t used_ = 0;
};

inline void mark(StageTimer* timer, const char* stage, cudaStream_t stream) {
  if (timer) timer->mark(stage, stream);
}

}  // namespace ccl::cuda
