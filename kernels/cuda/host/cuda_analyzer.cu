// The public CUDA backend: ccl::CudaAnalyzer is the FramePipeline on the caller's stream.
#include "ccl/cuda_analyzer.hpp"

#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "foreground/cuda_background_model.cuh"
#include "host/analyzer_impl.cuh"
#include "host/cuda_check.hpp"
#include "label/optimized_uf.cuh"

namespace ccl {

bool cuda_device_usable(std::string* why) {
  auto no = [&](const std::string& reason) {
    if (why) *why = reason;
    return false;
  };
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    return no(std::string("no usable CUDA driver or device: ") + cudaGetErrorString(status));
  }
  if (count == 0) return no("no CUDA device found");
  int device = 0, major = 0, minor = 0;
  if ((status = cudaGetDevice(&device)) != cudaSuccess ||
      (status = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device)) != cudaSuccess ||
      (status = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device)) != cudaSuccess) {
    (void)cudaGetLastError();
    return no(std::string("cannot query the CUDA device: ") + cudaGetErrorString(status));
  }
  if (major < 7)  // __match_any_sync needs Volta or newer
    return no("CUDA device " + std::to_string(device) + " has compute capability " + std::to_string(major) + "." +
              std::to_string(minor) + "; 7.0 or newer is needed");
  if ((status = cuda::probe_kernel_image()) != cudaSuccess) {
    (void)cudaGetLastError();
    return no("the CUDA kernels cannot run on device " + std::to_string(device) + " (compute capability " +
              std::to_string(major) + "." + std::to_string(minor) + "): " + cudaGetErrorString(status));
  }
  if (why) why->clear();
  return true;
}

CudaAnalyzer::CudaAnalyzer(CUstream_st* stream) {
  std::string why;
  if (!cuda_device_usable(&why)) throw Error(Error::Kind::NoDevice, why);
  impl_ = std::make_unique<Impl>(stream);
}

CudaAnalyzer::~CudaAnalyzer() = default;

void CudaAnalyzer::reserve(int width, int height, bool host_frames, const Options& options) {
  impl_->reserve(width, height, host_frames, options);
}
void CudaAnalyzer::release() { impl_->release(); }
std::size_t CudaAnalyzer::device_bytes() const { return impl_->device_bytes(); }
std::size_t CudaAnalyzer::graphs_kept() const { return impl_->graphs_kept(); }

void CudaAnalyzer::submit(const ImageView& image, const Options& options, const LabelView* labels,
                          const MaskView* mask) {
  impl_->submit(image, options, labels, mask);
}
void CudaAnalyzer::collect(Result& result) { impl_->collect(result); }
void CudaAnalyzer::set_background_model(std::shared_ptr<BackgroundModel> model) {
  auto cuda_model = std::dynamic_pointer_cast<cuda::CudaBackgroundModel>(model);
  if (model && (std::string(model->backend_name()) != "cuda" || !cuda_model))
    throw Error(Error::Kind::InvalidArgument, std::string("the CUDA analyzer cannot use a background model of the ") +
                                                  model->backend_name() + " backend");
  impl_->set_background_model(std::move(cuda_model));
}
void CudaAnalyzer::submit_host(const ImageView& image, const Options& options, const MaskView* mask) {
  impl_->submit_host(image, options, mask);
}
void CudaAnalyzer::fill_plane(std::uint8_t* data, std::ptrdiff_t stride, int width, int height, std::uint8_t value) {
  if (width < 1 || height < 1) return;
  cuda::check(
      cudaMemset2DAsync(data, std::size_t(stride), value, std::size_t(width), std::size_t(height), impl_->stream()),
      "cudaMemset2DAsync (plane fill)");
}
void CudaAnalyzer::run_host(const ImageView& image, const Options& options, Result& result) {
  impl_->run_host(image, options, result);
}

}  // namespace ccl
