// The one interface every backend implements; the only place callers choose an algorithm.
#pragma once

#include <memory>

#include "ccl/types.hpp"

namespace ccl {

class Analyzer {
 public:
  virtual ~Analyzer() = default;
  virtual const char* backend_name() const = 0;
  // Labels one frame and fills `result` per the contract. `labels`, when given, receives the
  // label map in the same memory kind as the image (host for CPU, device for CUDA).
  virtual void run(const ImageView& image, const Options& options, Result& result,
                   const LabelView* labels = nullptr) = 0;
};

// The exact CPU backend (Imura's raster segments); always available.
std::unique_ptr<Analyzer> make_cpu_analyzer();

}  // namespace ccl
