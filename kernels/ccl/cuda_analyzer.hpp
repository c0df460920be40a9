// The CUDA backend. Declared without CUDA headers so GStreamer code compiled by the host compiler
// can use it; only built when meson's `cuda` feature found nvcc (CCL_HAVE_CUDA).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "ccl/analyzer.hpp"

struct CUstream_st;  // == cudaStream_t == CUstream

namespace ccl {

class Profiling;

// Device memory; for CudaAnalyzer. Create and use it with the analyzers' CUDA context current.
// Updates on different analyzers' streams are ordered through a CUDA event the model keeps.
std::shared_ptr<BackgroundModel> make_cuda_background_model();
// For tests: each colour pass (Options::chroma) of `model`, one of make_cuda_background_model(),
// starts about `microseconds` late, so that the next frames' luma passes run before it: the order
// its events must make harmless. 0 (the default) delays nothing.
void delay_colour_passes(BackgroundModel& model, unsigned microseconds);

// True when a CUDA device can run our kernels; otherwise `why` says what is missing.
bool cuda_device_usable(std::string* why);

class CudaAnalyzer final : public Analyzer {
 public:
  // Work is ordered on `stream` (nullptr = legacy default stream). The caller makes the CUDA
  // context current around every call (GStreamer: gst_cuda_context_push/pop).
  explicit CudaAnalyzer(CUstream_st* stream);
  ~CudaAnalyzer() override;

  const char* backend_name() const override { return "cuda"; }

  // Allocates device scratch for frames up to width x height so no frame allocates, with
  // `host_frames` also the device copy run_host() uploads into (with room for 4:2:0 chroma where
  // options.chroma and foreground=adaptive ask for it), with `options` also the arrays its
  // algorithm or analysis needs beyond the default ones (raster-segments, flsl-otf); throws
  // Error(OutOfMemory) naming the size and keeps the earlier reservation then. run() reserves by
  // itself what was not reserved: a larger frame, or the first frame of such a variant (once).
  void reserve(int width, int height, bool host_frames = false, const Options& options = {});
  // Frees all device and pinned memory; the analyzer can be reserved again.
  void release();
  // Device memory held now (scratch and upload copy), in bytes.
  std::size_t device_bytes() const;
  // CUDA graphs held for the frames seen. A frame in raster order (the default) is queued as one
  // graph kept per frame buffer and options (up to 64, then reused), an area filter applied to its
  // list on the host (the device compacts instead after a frame of over 16384 components); with
  // order=area, or an algorithm that waits for the device between passes (8dls, m8dls), each
  // operation is queued by itself. The graphs' own device memory is small and not in
  // device_bytes().
  std::size_t graphs_kept() const;

  // `image.data` is device memory. submit() queues the frame's device work up to the first wait;
  // collect() synchronizes the stream and fills `result`. `mask` (device memory, may be plane 0 of
  // `image`) gets the mask that is labelled, queued after the labelling.
  void submit(const ImageView& image, const Options& options, const LabelView* labels = nullptr,
              const MaskView* mask = nullptr) override;
  void collect(Result& result) override;
  void set_background_model(std::shared_ptr<BackgroundModel> model) override;
  // `image.data` is host memory: one async upload into reused device memory (with image.chroma's
  // rows too where options.chroma's stage reads them), then submit(). `mask` (host memory, may be
  // plane 0 of `image`) gets the mask that is labelled in collect().
  void submit_host(const ImageView& image, const Options& options, const MaskView* mask = nullptr);
  // Queues `value` into every byte of a width x height device plane (e.g. a frame's chroma planes,
  // which the element sets to neutral grey when it shows the mask), on the analyzer's stream.
  void fill_plane(std::uint8_t* data, std::ptrdiff_t stride, int width, int height, std::uint8_t value);
  // submit_host() then collect().
  void run_host(const ImageView& image, const Options& options, Result& result);

 private:
  friend class Profiling;  // the benchmarks' timings and switches (ccl/profiling.hpp)
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ccl
