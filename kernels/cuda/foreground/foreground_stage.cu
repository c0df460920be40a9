#include "foreground/foreground_stage.cuh"

#include "foreground/chroma_pass.cuh"
#include "foreground/cuda_background_model.cuh"
#include "foreground/foreground_tiles.cuh"
#include "foreground/shadow_texture.cuh"

namespace ccl::cuda {
namespace {

// A pass's source: the 0/1 plane an earlier pass wrote.
MaskSource mask_plane(const std::uint8_t* plane, std::ptrdiff_t pitch, const ImageView& image) {
  return MaskSource{MaskSourceKind::MaskPlane, plane, pitch, image.width, image.height, 0, 0, SigmaDeltaPlanes{}};
}

// ... or the bit plane (mask_words_per_row words a row).
MaskSource bit_plane(const std::uint32_t* plane, const ImageView& image) {
  return MaskSource{MaskSourceKind::BitPlane,
                    reinterpret_cast<const std::uint8_t*>(plane),
                    std::ptrdiff_t(sizeof(std::uint32_t)) * mask_words_per_row(image.width),
                    image.width,
                    image.height,
                    0,
                    0,
                    SigmaDeltaPlanes{}};
}

}  // namespace

ImageView queue_foreground_stage(const ImageView& image, const Options& options, CudaBackgroundModel* model,
                                 const ForegroundPlanes& planes, cudaStream_t stream) {
  const bool motion = uses_background_model(options.foreground);
  if (motion && !model) throw Error(Error::Kind::InvalidArgument, "motion foreground without a background model");
  const std::ptrdiff_t pitch = mask_pitch(image.width);
  const MaskSourceKind kind = options.foreground == Foreground::Adaptive ? MaskSourceKind::Adaptive
                              : motion                                   ? MaskSourceKind::Motion
                                                                         : MaskSourceKind::Threshold;
  MaskSource source{kind,         image.data,        image.stride,          image.width,
                    image.height, options.threshold, options.motion_factor, SigmaDeltaPlanes{}};
  std::uint8_t* planes_in_turn[2] = {planes.mask, planes.spare};
  std::uint8_t* out = planes.mask;
  // As many filters per pass as the tile's halo holds, in order; passes alternate between the planes.
  const int radii[3] = {options.open_radius, options.close_radius, options.shrink_radius};
  const int halo_of[3] = {2 * radii[0], 2 * radii[1], radii[2]};
  int next = 0;
  auto take_filters = [&](int max_halo) {
    TileFilters filters;
    for (int halo = 0; next < 3 && halo + halo_of[next] <= max_halo; halo += halo_of[next], ++next)
      (next == 0 ? filters.open_radius : next == 1 ? filters.close_radius : filters.shrink_radius) = radii[next];
    return filters;
  };
  int pass = 0;
  if (motion) {
    source.model = model->begin_update(image.width, image.height, options.foreground, stream);
    source.model.absorb_frames = options.absorb_frames;
  }
  if (kind == MaskSourceKind::Adaptive) {
    const bool chroma = options.chroma && image.chroma.present();
    const ChromaModelPlanes chroma_model = model->chroma_update(chroma);
    if (chroma) {  // bit planes in the mask plane: luma alone, colour, the shadows' texture test; then the filters
      const ChromaFrame frame{image.chroma,          image.data,   image.stride, image.width, image.height,
                              options.absorb_frames, chroma_model, source.model};
      // Three bit planes of 4 ceil(w / 32) bytes a row fit in the mask plane's pitch bytes a row:
      // 12 ceil(w / 32) <= mask_pitch(w) (12 <= 16 for w <= 32, 12 k <= 32 k - 31 <= w beyond).
      const std::ptrdiff_t bit_plane_words = std::ptrdiff_t(mask_words_per_row(image.width)) * image.height;
      auto* luma_bits = reinterpret_cast<std::uint32_t*>(planes.mask);
      std::uint32_t* candidates = luma_bits + bit_plane_words;
      std::uint32_t* colour_bits = candidates + bit_plane_words;
      queue_foreground_tile_bits(source, luma_bits, stream);
      model->end_update(stream);  // the next frame's luma pass may run beside this colour pass
      model->begin_colour(stream);
      queue_chroma_pass(frame, luma_bits, candidates, colour_bits, stream);
      queue_shadow_texture(frame, candidates, colour_bits, stream);  // reads M: before end_colour
      model->end_colour(stream);
      source = bit_plane(colour_bits, image);
      pass = 1;  // into the spare
    }
  }
  // At least one pass writes the bytes (under chroma=true pass 1, into the spare, reading the colour
  // pass's bits, filters or none: next is still 0 there); take_filters steps over zero radii.
  while (pass == 0 || next < 3) {
    const TileFilters filters = take_filters(kForegroundMaxHalo);
    out = planes_in_turn[pass % 2];
    queue_foreground_tiles(source, filters, out, pitch, stream);
    if (pass == 0 && motion) model->end_update(stream);  // the model is written by the first pass only
    source = mask_plane(out, pitch, image);
    ++pass;
  }
  return ImageView{out, image.width, image.height, pitch, {}};
}

}  // namespace ccl::cuda
