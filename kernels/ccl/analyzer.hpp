// The one interface every backend implements; the only place callers choose an algorithm.
#pragma once

#include <memory>

#include "ccl/foreground.hpp"
#include "ccl/types.hpp"

namespace ccl {

class Analyzer {
 public:
  virtual ~Analyzer() = default;
  virtual const char* backend_name() const = 0;
  // Starts labelling one frame: queues what needs no wait (the CPU backend only records the frame).
  // `image` and `labels` must stay valid until collect(). One frame at a time per analyzer: a
  // caller that wants several in flight keeps several analyzers. `labels`, when given, receives
  // the label map in the same memory kind as the image (host for CPU, device for CUDA); `mask`,
  // when given, the mask that is labelled (MaskView), in that memory kind too, by collect() at the
  // latest. `mask` must stay valid until collect().
  virtual void submit(const ImageView& image, const Options& options, const LabelView* labels = nullptr,
                      const MaskView* mask = nullptr) = 0;
  // Finishes the frame submit() started and fills `result` per the contract.
  virtual void collect(Result& result) = 0;
  // The model Foreground::Motion updates; of this backend, or Error(InvalidArgument). Without one,
  // the first motion frame makes the analyzer its own. nullptr drops the current one.
  virtual void set_background_model(std::shared_ptr<BackgroundModel> model) = 0;
  // Labels one frame: submit() then collect().
  void run(const ImageView& image, const Options& options, Result& result, const LabelView* labels = nullptr,
           const MaskView* mask = nullptr) {
    submit(image, options, labels, mask);
    collect(result);
  }
};

// The exact CPU backend (Imura's raster segments); always available.
std::unique_ptr<Analyzer> make_cpu_analyzer();

}  // namespace ccl
