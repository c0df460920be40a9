// cudaccl foreground=adaptive chroma=true on every backend: a colour street (tests/common/
// colour_frames.hpp) as NV12 through backend=cpu, then backend=cuda from system memory (uploaded,
// one and three frames in flight) and from CUDA memory (cudaupload): the same GstCclMeta and the
// same shown mask, byte for byte, with grey chroma, frame by frame; and the CPU's components are
// oracle::AdaptiveChroma's mask labelled by the flood fill.
#include <string>
#include <vector>

#include "ccl/cuda_analyzer.hpp"
#include "chroma_oracle.hpp"
#include "colour_frames.hpp"
#include "element_check.hpp"

namespace {

using colour_frames::ColourFrame;

constexpr int kW = 96, kH = 64, kFrames = 60;
const char* const kProps = "foreground=adaptive chroma=true absorb-frames=8 show-mask=true";

GstBuffer* colour_buffer(const ColourFrame& f, std::size_t i) {
  GstBuffer* b = elcheck::pack_default(f.luma, GST_VIDEO_FORMAT_NV12);
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, guint(f.luma.width), guint(f.luma.height));
  GstVideoFrame frame;
  EXPECT_TRUE(gst_video_frame_map(&frame, &info, b, GST_MAP_WRITE));
  auto* uv = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 1));
  const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 1);
  for (int cy = 0; cy < f.chroma.height; ++cy)
    for (int cx = 0; cx < f.chroma.width; ++cx) {
      uv[cy * stride + 2 * cx] = std::uint8_t(f.chroma.at_u(cx, cy));
      uv[cy * stride + 2 * cx + 1] = std::uint8_t(f.chroma.at_v(cx, cy));
    }
  gst_video_frame_unmap(&frame);
  GST_BUFFER_PTS(b) = GstClockTime(i) * GST_MSECOND;
  GST_BUFFER_DURATION(b) = GST_MSECOND;
  return b;
}

struct Shown {
  ccl::Result result;
  std::vector<std::uint8_t> luma;  // the mask, width*height
  bool chroma_grey = true;
};

Shown read_out(GstBuffer* out) {
  Shown s;
  if (!out) return s;
  if (const GstCclMeta* m = gst_buffer_get_ccl_meta(out)) s.result = elcheck::from_meta(*m);
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_NV12, kW, kH);
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, out, GST_MAP_READ)) return s;
  const auto* y = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0));
  const auto* uv = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 1));
  for (int r = 0; r < kH; ++r)
    for (int x = 0; x < kW; ++x) s.luma.push_back(y[r * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0) + x]);
  for (int r = 0; r < kH / 2; ++r)
    for (int x = 0; x < kW; ++x) s.chroma_grey &= uv[r * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 1) + x] == 128;
  gst_video_frame_unmap(&frame);
  return s;
}

// Pushes the street through `h` (its src caps set), drains, and pulls every frame.
std::vector<Shown> run(GstHarness* h, const std::vector<ColourFrame>& street) {
  for (std::size_t i = 0; i < street.size(); ++i) EXPECT_EQ(gst_harness_push(h, colour_buffer(street[i], i)), GST_FLOW_OK);
  elcheck::drain(h);
  std::vector<Shown> got;
  for (std::size_t i = 0; i < street.size(); ++i) {
    GstBuffer* out = gst_harness_pull(h);
    got.push_back(read_out(out));
    if (out) gst_buffer_unref(out);
  }
  return got;
}

std::vector<Shown> run_element(const std::string& extra, const char* backend, const std::vector<ColourFrame>& street) {
  elcheck::Harness h(std::string(kProps) + " " + extra, backend);
  h.set_caps(elcheck::caps_for("NV12", kW, kH));
  return run(h.get(), street);
}

void expect_same(const std::vector<Shown>& got, const std::vector<Shown>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(compare::diff(got[i].result, want[i].result), "") << what << " frame " << i;
    EXPECT_TRUE(got[i].luma == want[i].luma) << what << ": the shown mask differs at frame " << i;
    EXPECT_TRUE(got[i].chroma_grey) << what << ": chroma not grey at frame " << i;
    if (::testing::Test::HasFailure()) return;
  }
}

// The CPU's answers: oracle::AdaptiveChroma's mask, the recipe's morphology, the flood fill.
TEST(ElementChroma, CpuMatchesTheOracle) {
  const auto street = colour_frames::street(kW, kH, kFrames, 21, 0);
  const std::vector<Shown> cpu = run_element("", "cpu", street);
  oracle::AdaptiveChroma model;
  ccl::Options o = elcheck::opts(8);
  o.foreground = ccl::Foreground::Adaptive;
  o = ccl::adaptive_recipe(o);
  std::size_t with_components = 0;
  for (std::size_t i = 0; i < street.size(); ++i) {
    const oracle::Mask raw = model.next(street[i].luma, street[i].chroma, o.motion_factor, 8);
    const oracle::Mask mask = oracle::clean_up(raw, kW, kH, o.open_radius, o.close_radius, o.shrink_radius);
    ccl::Options label = o;
    label.threshold = 0;
    const ccl::Result want = oracle::flood_fill(oracle::mask_frame(mask, kW, kH), label).result;
    EXPECT_EQ(compare::diff(cpu[i].result, want), "") << street[i].luma.name;
    with_components += want.n_components_total > 0;
  }
  EXPECT_GT(with_components, street.size() / 2) << "the street's objects move";
}

// The warning cudaccl posts for the caps it was given ("" when none).
std::string warning_for(const std::string& props, const char* format) {
  elcheck::Harness h(props);
  h.set_caps(elcheck::caps_for(format, kW, kH));
  const frames::Frame f = frames::blank("grey", kW, kH);
  GstBuffer* out = h.process(elcheck::pack_default(f, gst_video_format_from_string(format)));
  if (out) gst_buffer_unref(out);
  std::string text;
  while (GstMessage* m = gst_bus_pop_filtered(h.bus(), GST_MESSAGE_WARNING)) {
    GError* error = nullptr;
    gst_message_parse_warning(m, &error, nullptr);
    text += error ? error->message : "?";
    g_clear_error(&error);
    gst_message_unref(m);
  }
  return text;
}

// chroma=true where it cannot act (no 4:2:0 colour, or another foreground) says so on the bus.
TEST(ElementChroma, WarnsWhereItHasNoEffect) {
  const std::string grey = warning_for("foreground=adaptive chroma=true", "GRAY8");
  EXPECT_NE(grey.find("chroma=true has no effect"), std::string::npos) << grey;
  EXPECT_NE(grey.find("NV12"), std::string::npos) << "should say what to use instead: " << grey;
  EXPECT_NE(warning_for("foreground=adaptive chroma=true", "Y42B").find("4:2:0"), std::string::npos);
  const std::string motion = warning_for("foreground=motion chroma=true", "NV12");
  EXPECT_NE(motion.find("foreground=adaptive"), std::string::npos) << motion;
  EXPECT_EQ(warning_for("foreground=adaptive chroma=true", "NV12"), "");
  EXPECT_EQ(warning_for("foreground=adaptive chroma=true", "I420"), "");
  EXPECT_EQ(warning_for("foreground=adaptive", "GRAY8"), "");
}

TEST(ElementChroma, CudaMatchesTheCpu) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  const auto street = colour_frames::street(kW, kH, kFrames, 21, 0);
  const std::vector<Shown> cpu = run_element("", "cpu", street);
  for (int lanes : {1, 3})
    expect_same(run_element("frames-in-flight=" + std::to_string(lanes), "cuda", street), cpu,
                "system memory, frames in flight " + std::to_string(lanes));
  why = elcheck::cuda_memory_input_unavailable();
  if (!why.empty()) GTEST_SKIP() << "CUDA memory: " << why;
  for (int lanes : {1, 3}) {
    GstHarness* h = gst_harness_new_parse((std::string("cudaupload ! video/x-raw(memory:CUDAMemory) ! cudaccl backend=cuda ") +
                                           kProps + " frames-in-flight=" + std::to_string(lanes))
                                              .c_str());
    gst_harness_set_src_caps_str(h, elcheck::caps_for("NV12", kW, kH).c_str());
    std::vector<Shown> device = run(h, street);
    gst_harness_teardown(h);
    expect_same(device, cpu, "CUDA memory, frames in flight " + std::to_string(lanes));
  }
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

}  // namespace
