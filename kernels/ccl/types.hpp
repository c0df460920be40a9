// Core value types of the gst-ccl library: what goes in (image view, options) and what comes out
// (the component list of the result contract in docs/contract.md). No GStreamer, no CUDA here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace ccl {

// The chroma of a 4:2:0 frame (NV12, I420): one U and one V sample per 2x2 luma block, (width+1)/2
// x (height+1)/2 samples, U at u[y * stride + x * step], V likewise (NV12: step 2, v = u + 1).
// Same memory kind as the luma. Only Options::chroma reads it.
struct ChromaView {
  const std::uint8_t* u = nullptr;
  const std::uint8_t* v = nullptr;
  std::ptrdiff_t stride = 0;
  int step = 1;
  bool present() const { return u != nullptr && v != nullptr; }
};

// Bytes of a chroma row from its first sample to its last, for a frame `width` pixels wide whose
// samples lie `step` bytes apart.
inline std::ptrdiff_t chroma_row_bytes(int width, int step) { return std::ptrdiff_t((width + 1) / 2 - 1) * step + 1; }

// A read-only 8-bit plane; `data` is host memory for the CPU backend, device memory for CUDA.
struct ImageView {
  const std::uint8_t* data = nullptr;
  int width = 0;
  int height = 0;
  std::ptrdiff_t stride = 0;  // bytes between the starts of two rows, >= width
  ChromaView chroma;          // none (GRAY8, or a caller that passes luma only): Options::chroma is inert
};

// Destination for a label map (0 = background, 1..N = label in the chosen order).
struct LabelView {
  std::uint32_t* data = nullptr;
  std::ptrdiff_t stride = 0;  // elements (not bytes) between the starts of two rows
};

// Destination for the mask that is labelled: 255 where foreground, 0 elsewhere (after the
// foreground stage and open/close, before the area filters), width x height bytes. It may be the
// image's own plane: it is written once the frame has been read.
struct MaskView {
  std::uint8_t* data = nullptr;
  std::ptrdiff_t stride = 0;  // bytes between the starts of two rows, >= width
};

constexpr std::uint8_t kMaskForeground = 255;  // MaskView's bytes: foreground
constexpr std::uint8_t kMaskBackground = 0;    // ... and background

enum class Order { Raster, Area };
enum class Algorithm { OptimizedUF, EightDLS, M8DLS, ColumnRuns, RasterSegments };
enum class Analysis { FlslCd, Naive, Flsl, FlslOtf };
// How plane 0 becomes the mask that is labelled (see ccl/foreground.hpp for the exact arithmetic).
enum class Foreground { Threshold, Motion, Adaptive };

constexpr std::uint32_t kUnlimited = std::numeric_limits<std::uint32_t>::max();
constexpr int kMaxSide = 65535;  // frames up to 65535 x 65535 keep pixel indices in 32 bits
constexpr int kMaxMotionFactor = 15;
constexpr int kMaxMorphologyRadius = 15;  // open/close/shrink radius; the GPU tile's halo is sized for it
constexpr int kMaxAbsorbFrames = 255;     // Foreground::Adaptive's counter is a byte

struct Options {
  int connectivity = 8;          // 4 or 8
  std::uint8_t threshold = 0;    // foreground: pixel value > threshold
  std::uint32_t min_area = 0;    // keep components with area >= min_area
  std::uint32_t max_area = kUnlimited;     // ... and area <= max_area
  std::uint32_t max_objects = kUnlimited;  // then keep the first max_objects in the chosen order
  Order order = Order::Raster;
  Algorithm algorithm = Algorithm::OptimizedUF;  // GPU only; the CPU backend always uses raster segments
  Analysis analysis = Analysis::FlslCd;          // GPU only
  // The foreground stage, before labelling (ccl/foreground.hpp). The defaults are the plain
  // threshold mask above: no model, no morphology.
  Foreground foreground = Foreground::Threshold;
  std::uint8_t motion_factor = 4;  // Sigma-Delta's N, 1..15: lower = more sensitive
  int open_radius = 0;             // binary opening, square of side 2r+1, 0..kMaxMorphologyRadius, 0 = off
  int close_radius = 0;            // binary closing after the opening, same square
  int shrink_radius = 0;           // binary erosion after the closing (parts fused by it come apart), same square
  int absorb_frames = 100;         // Foreground::Adaptive: a pixel foreground this many frames in a row, 1..255,
                                   // joins the background (a stopped object's time reported, a ghost's life)
  bool chroma = false;             // Foreground::Adaptive reads ImageView::chroma too: colour joins an
                                   // object's parts, cast shadows are background (ccl/foreground.hpp); every backend
};

// Same layout as GstCclComponent in gst/ccl/gstcclmeta.h (checked there with static_assert).
struct Component {
  std::uint32_t label;  // 1..n_components_total, in the chosen order, counted before filtering
  std::uint32_t area;
  std::int32_t x, y, width, height;
  double centroid_x, centroid_y;  // mean of the pixel coordinates, pixel centres at integers
};

struct Result {
  int width = 0;
  int height = 0;
  int connectivity = 8;
  std::uint32_t n_components_total = 0;  // before filtering
  bool truncated = false;                // max_objects cut the list
  std::vector<Component> components;     // after filtering, in the chosen order
};

// Every failure of the library is one of these; `kind` lets callers pick the user message.
class Error : public std::runtime_error {
 public:
  enum class Kind { InvalidArgument, NoDevice, OutOfMemory, DeviceFailure };
  // `cause`: the driver's own words for the failure (cudaGetErrorString), for messages to users.
  Error(Kind kind, const std::string& what, const std::string& cause = "")
      : std::runtime_error(what), kind_(kind), cause_(cause) {}
  Kind kind() const noexcept { return kind_; }
  const char* cause() const noexcept { return cause_.what(); }  // "" when the failure has none

 private:
  Kind kind_;
  std::runtime_error cause_;  // not a std::string, so copying the exception cannot throw
};

// Throws Error(InvalidArgument) with a sentence naming the bad field (a value outside the enums included).
void validate(const ImageView& image, const Options& options);
// Throws Error(InvalidArgument) when `mask` (may be null: none asked) cannot take a mask of `image`.
void validate(const ImageView& image, const MaskView* mask);

const char* to_string(Algorithm algorithm);
const char* to_string(Analysis analysis);
const char* to_string(Order order);
const char* to_string(Foreground foreground);

}  // namespace ccl
