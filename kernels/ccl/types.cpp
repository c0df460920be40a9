#include "ccl/types.hpp"

namespace ccl {

void validate(const ImageView& image, const Options& options) {
  auto fail = [](const std::string& why) { throw Error(Error::Kind::InvalidArgument, why); };
  if (image.width < 1 || image.height < 1)
    fail("frame size " + std::to_string(image.width) + "x" + std::to_string(image.height) +
         " is empty; width and height must be at least 1");
  if (image.width > kMaxSide || image.height > kMaxSide)
    fail("frame size " + std::to_string(image.width) + "x" + std::to_string(image.height) +
         " exceeds the supported maximum of " + std::to_string(kMaxSide) + " per side");
  if (image.stride < image.width)
    fail("row stride " + std::to_string(image.stride) + " is smaller than the width " +
         std::to_string(image.width));
  if (image.data == nullptr) fail("frame has no data");
  if (options.connectivity != 4 && options.connectivity != 8)
    fail("connectivity must be 4 or 8, not " + std::to_string(options.connectivity));
  if (std::string(to_string(options.algorithm)) == "unknown")
    fail("algorithm " + std::to_string(int(options.algorithm)) + " is not one of the named algorithms");
  if (std::string(to_string(options.analysis)) == "unknown")
    fail("analysis " + std::to_string(int(options.analysis)) + " is not one of the named analyses");
  if (std::string(to_string(options.foreground)) == "unknown")
    fail("foreground " + std::to_string(int(options.foreground)) + " is not one of the named foreground modes");
  // "<what> must be lo..hi, not <value>" for every ranged option
  const auto in_range = [&](const char* what, int value, int lo, int hi) {
    if (value < lo || value > hi)
      fail(std::string(what) + " must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", not " +
           std::to_string(value));
  };
  in_range("motion factor", options.motion_factor, 1, kMaxMotionFactor);
  in_range("open radius", options.open_radius, 0, kMaxMorphologyRadius);
  in_range("close radius", options.close_radius, 0, kMaxMorphologyRadius);
  in_range("shrink radius", options.shrink_radius, 0, kMaxMorphologyRadius);
  in_range("absorb frames", options.absorb_frames, 1, kMaxAbsorbFrames);
  const ChromaView& c = image.chroma;
  if (options.chroma && c.present()) {  // a row of (width + 1) / 2 samples, `step` bytes apart, must fit the stride
    const std::ptrdiff_t row = chroma_row_bytes(image.width, c.step);
    if (c.step < 1 || c.stride < row)
      fail("chroma sample step " + std::to_string(c.step) + " and row stride " + std::to_string(c.stride) +
           " cannot hold " + std::to_string((image.width + 1) / 2) + " samples a row (step >= 1, stride >= " +
           std::to_string(row) + ")");
  }
}

void validate(const ImageView& image, const MaskView* mask) {
  if (!mask) return;
  if (mask->data == nullptr) throw Error(Error::Kind::InvalidArgument, "mask destination has no data");
  if (mask->stride < image.width)
    throw Error(Error::Kind::InvalidArgument, "mask destination stride " + std::to_string(mask->stride) +
                                                  " is smaller than the width " + std::to_string(image.width));
}

const char* to_string(Algorithm algorithm) {
  switch (algorithm) {
    case Algorithm::OptimizedUF: return "optimized-uf";
    case Algorithm::EightDLS: return "8dls";
    case Algorithm::M8DLS: return "m8dls";
    case Algorithm::ColumnRuns: return "column-runs";
    case Algorithm::RasterSegments: return "raster-segments";
  }
  return "unknown";
}

const char* to_string(Analysis analysis) {
  switch (analysis) {
    case Analysis::FlslCd: return "flsl-cd";
    case Analysis::Naive: return "naive";
    case Analysis::Flsl: return "flsl";
    case Analysis::FlslOtf: return "flsl-otf";
  }
  return "unknown";
}

const char* to_string(Order order) { return order == Order::Area ? "area" : "raster"; }

const char* to_string(Foreground foreground) {
  switch (foreground) {
    case Foreground::Threshold: return "threshold";
    case Foreground::Motion: return "motion";
    case Foreground::Adaptive: return "adaptive";
  }
  return "unknown";
}

}  // namespace ccl
