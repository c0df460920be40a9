#include "foreground/foreground_stage.cuh"

#include "foreground/cuda_background_model.cuh"
#include "foreground/foreground_tiles.cuh"

namespace ccl::cuda {

ImageView queue_foreground_stage(const ImageView& image, const Options& options, CudaBackgroundModel* model,
                                 const ForegroundPlanes& planes, cudaStream_t stream) {
  const bool motion = options.foreground == Foreground::Motion;
  if (motion && !model) throw Error(Error::Kind::InvalidArgument, "motion foreground without a background model");
  const std::ptrdiff_t pitch = mask_pitch(image.width);
  MaskSource source{motion ? MaskSourceKind::Motion : MaskSourceKind::Threshold,
                    image.data,
                    image.stride,
                    image.width,
                    image.height,
                    options.threshold,
                    options.motion_factor,
                    SigmaDeltaPlanes{}};
  if (motion) source.model = model->begin_update(image.width, image.height, stream);
  const int open = options.open_radius, close = options.close_radius;
  const bool one_pass = 2 * (open + close) <= kForegroundMaxHalo;
  queue_foreground_tiles(source, open, one_pass ? close : 0, one_pass ? planes.mask : planes.spare, pitch, stream);
  if (motion) model->end_update(stream);  // the model is written by the first pass only
  if (!one_pass) {
    const MaskSource opened{MaskSourceKind::MaskPlane, planes.spare, pitch, image.width, image.height, 0, 0,
                            SigmaDeltaPlanes{}};
    queue_foreground_tiles(opened, 0, close, planes.mask, pitch, stream);
  }
  return ImageView{planes.mask, image.width, image.height, pitch};
}

}  // namespace ccl::cuda
