// cudaccl show-mask=true: the frame that leaves is the mask that was labelled (plane 0: 255 where
// foreground, 0 elsewhere, after foreground and open/close, before the area filters; the other
// planes 128), computed here independently (plane 0 > threshold, the foreground oracle), with the
// GstCclMeta attached as usual; show-mask=false leaves every byte and the memory itself alone; a
// buffer held elsewhere is copied, never written; CUDA gives the CPU backend's bytes.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "element_check.hpp"
#include "foreground_oracle.hpp"

#if CCL_HAVE_CUDA
#include "ccl/cuda_analyzer.hpp"
#endif

namespace {

using elcheck::drain;
using elcheck::Harness;

// The frame as it came out: plane 0 (width*height) and how many bytes of the other planes are not 128.
struct Picture {
  std::vector<std::uint8_t> plane0;
  std::vector<std::uint8_t> chroma;  // the other planes' bytes, row padding left out
  std::size_t chroma_bytes = 0;
  std::size_t chroma_not_grey = 0;
};

Picture read_picture(GstBuffer* out, GstVideoFormat format, int w, int h) {
  Picture p;
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, guint(w), guint(h));
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, out, GST_MAP_READ)) {
    ADD_FAILURE() << "cannot map the frame that came out";
    return p;
  }
  for (int y = 0; y < h; ++y) {
    const auto* row = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)) +
                      std::ptrdiff_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
    p.plane0.insert(p.plane0.end(), row, row + w);
  }
  for (guint plane = 1; plane < GST_VIDEO_FRAME_N_PLANES(&frame); ++plane) {
    // Every format here has one component per plane but NV12's UV (2 bytes a pixel).
    const int comp = int(plane), bytes = format == GST_VIDEO_FORMAT_NV12 ? 2 : 1;
    const int pw = GST_VIDEO_FRAME_COMP_WIDTH(&frame, comp) * bytes, ph = GST_VIDEO_FRAME_COMP_HEIGHT(&frame, comp);
    for (int y = 0; y < ph; ++y) {
      const auto* row = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, plane)) +
                        std::ptrdiff_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, plane);
      p.chroma.insert(p.chroma.end(), row, row + pw);
      p.chroma_bytes += std::size_t(pw);
      p.chroma_not_grey += std::size_t(std::count_if(row, row + pw, [](std::uint8_t b) { return b != 128; }));
    }
  }
  gst_video_frame_unmap(&frame);
  return p;
}

std::vector<std::uint8_t> above(const frames::Frame& f, int threshold) {
  std::vector<std::uint8_t> v;
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) v.push_back(f.at(x, y) > threshold ? 255 : 0);
  return v;
}

std::vector<std::uint8_t> bytes(const oracle::Mask& m) {
  std::vector<std::uint8_t> v;
  for (std::uint8_t b : m) v.push_back(b ? 255 : 0);
  return v;
}

std::vector<std::uint8_t> buffer_bytes(GstBuffer* b) {
  std::vector<std::uint8_t> v(gst_buffer_get_size(b));
  gst_buffer_extract(b, 0, v.data(), v.size());
  return v;
}

GstBuffer* with_pts(GstBuffer* b, std::size_t i) {
  GST_BUFFER_PTS(b) = GstClockTime(i) * GST_MSECOND;
  GST_BUFFER_DURATION(b) = GST_MSECOND;
  return b;
}

const GstVideoFormat kFormats[] = {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_NV12,
                                   GST_VIDEO_FORMAT_Y444};

// Threshold mode without morphology: no mask plane is made, plane 0 > threshold is shown. The
// small components min-area drops are still in the mask; the meta has only the large ones.
TEST(ShowMask, ThresholdShowsPlane0AboveTheThreshold) {
  for (GstVideoFormat format : kFormats) {
    const char* name = gst_video_format_to_string(format);
    ccl::Options o = elcheck::opts(8, 100);
    o.min_area = 4;
    Harness h(elcheck::props(o) + " show-mask=true");
    h.set_caps(elcheck::caps_for(name, 46, 30));
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
      const frames::Frame f = frames::random(46, 30, 40, 1 + int(seed % 2), seed, 0, true);
      GstBuffer* out = h.process(elcheck::pack_default(f, format));
      ASSERT_NE(out, nullptr) << name;
      const Picture p = read_picture(out, format, f.width, f.height);
      EXPECT_EQ(p.plane0, above(f, 100)) << name << " " << f.name;
      EXPECT_EQ(p.chroma_not_grey, 0u) << name << ": every other-plane byte is 128";
      EXPECT_EQ(p.chroma_bytes == 0, format == GST_VIDEO_FORMAT_GRAY8) << name;
      EXPECT_EQ(elcheck::check_meta(out, f, o), "") << name << " " << f.name;
      gst_buffer_unref(out);
    }
  }
}

// A noisy gradient with two bright rectangles moving across it.
std::vector<frames::Frame> scene(int w, int h, int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<frames::Frame> v;
  for (int t = 0; t < n; ++t) {
    frames::Frame f = frames::blank("scene t=" + std::to_string(t), w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) f.at(x, y) = std::uint8_t(70 + (x + y) % 50 + int(rng() % 7));
    for (int k = 0; k < 2; ++k)
      for (int y = 5 + 16 * k; y < std::min(h, 13 + 16 * k); ++y)
        for (int x = (4 * t + 11 * k) % w; x < std::min(w, (4 * t + 11 * k) % w + 9); ++x) f.at(x, y) = 230;
    v.push_back(std::move(f));
  }
  return v;
}

std::string motion_props(const ccl::Options& o) {
  std::string s = elcheck::props(o);
  if (o.foreground == ccl::Foreground::Motion) s += " foreground=motion";
  if (o.open_radius) s += " open=" + std::to_string(o.open_radius);
  if (o.close_radius) s += " close=" + std::to_string(o.close_radius);
  return s;
}

// Pushes `fs` (in `format`) through `h` and checks every frame's plane 0 against the oracle's mask,
// the other planes against 128 and the meta against the oracle's mask labelled; the number of frames
// with foreground.
std::size_t check_stream(GstHarness* h, const std::vector<frames::Frame>& fs, GstVideoFormat format,
                         const ccl::Options& o, const std::string& what) {
  for (std::size_t i = 0; i < fs.size(); ++i)
    EXPECT_EQ(gst_harness_push(h, with_pts(elcheck::pack_default(fs[i], format), i)), GST_FLOW_OK);
  drain(h);
  oracle::Models want;
  std::size_t with_foreground = 0;
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const frames::Frame& f = fs[i];
    GstBuffer* out = gst_harness_pull(h);
    EXPECT_NE(out, nullptr) << what;
    if (!out) return with_foreground;
    EXPECT_EQ(GST_BUFFER_PTS(out), GstClockTime(i) * GST_MSECOND) << what << ": order";
    const oracle::Mask mask = want.next(f, o);
    const Picture p = read_picture(out, format, f.width, f.height);
    EXPECT_EQ(p.plane0, bytes(mask)) << what << " " << f.name;
    EXPECT_EQ(p.chroma_not_grey, 0u) << what << " " << f.name;
    const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
    EXPECT_NE(m, nullptr) << what << ": the meta is attached as usual";
    ccl::Options label = o;
    label.threshold = 0;
    if (m) {
      EXPECT_EQ(compare::diff(elcheck::from_meta(*m),
                              oracle::flood_fill(oracle::mask_frame(mask, f.width, f.height), label).result),
                "")
          << what << " " << f.name;
    }
    with_foreground += std::count(mask.begin(), mask.end(), 1) > 0;
    gst_buffer_unref(out);
  }
  return with_foreground;
}

TEST(ShowMask, MotionShowsTheForegroundOraclesMask) {
  elcheck::init();
  const auto fs = scene(57, 40, 12, 3);
  for (int lanes : {1, 3})
    for (auto [open, close] : {std::pair{0, 0}, std::pair{1, 1}, std::pair{0, 2}}) {
      ccl::Options o = elcheck::opts(8);
      o.foreground = ccl::Foreground::Motion;
      o.open_radius = open;
      o.close_radius = close;
      o.min_area = 20;
      const std::string line =
          "cudaccl backend=cpu show-mask=true frames-in-flight=" + std::to_string(lanes) + motion_props(o);
      GstHarness* h = gst_harness_new_parse(line.c_str());
      gst_harness_set_src_caps_str(h, elcheck::caps_for("I420", 57, 40).c_str());
      EXPECT_GT(check_stream(h, fs, GST_VIDEO_FORMAT_I420, o, line), fs.size() / 2) << line;
      gst_harness_teardown(h);
    }
}

// foreground=adaptive: the mask after its recipe (factor 3, open 1, close 2, shrink 1), worked out
// by the oracle as ccl/foreground.hpp states it; absorb-frames 4 so pixels join the background.
TEST(ShowMask, AdaptiveShowsTheRecipesMask) {
  elcheck::init();
  const auto fs = scene(57, 40, 20, 5);
  for (int lanes : {1, 3}) {
    ccl::Options o = elcheck::opts(8);
    o.foreground = ccl::Foreground::Adaptive;
    o.absorb_frames = 4;
    o.min_area = 20;
    const std::string line = "cudaccl backend=cpu show-mask=true foreground=adaptive absorb-frames=4 frames-in-flight=" +
                             std::to_string(lanes) + elcheck::props(o);
    o.motion_factor = 3;
    o.open_radius = 1;
    o.close_radius = 2;
    o.shrink_radius = 1;
    GstHarness* h = gst_harness_new_parse(line.c_str());
    gst_harness_set_src_caps_str(h, elcheck::caps_for("NV12", 57, 40).c_str());
    EXPECT_GT(check_stream(h, fs, GST_VIDEO_FORMAT_NV12, o, line), fs.size() / 2) << line;
    gst_harness_teardown(h);
  }
}

// Threshold with morphology goes through the mask plane.
TEST(ShowMask, ThresholdWithMorphologyShowsTheOpenedMask) {
  elcheck::init();
  std::vector<frames::Frame> fs;
  for (std::uint32_t i = 0; i < 3; ++i)
    fs.push_back(frames::random(41, 29, 45, 3, 70 + i));  // 3x3 blocks: some survive the opening
  ccl::Options o = elcheck::opts(4, 90);
  o.open_radius = 1;
  o.close_radius = 1;
  const std::string line = "cudaccl backend=cpu show-mask=true" + motion_props(o);
  GstHarness* h = gst_harness_new_parse(line.c_str());
  gst_harness_set_src_caps_str(h, elcheck::caps_for("NV12", 41, 29).c_str());
  EXPECT_EQ(check_stream(h, fs, GST_VIDEO_FORMAT_NV12, o, line), fs.size());
  gst_harness_teardown(h);
}

// Read-only memory: off, the frame leaves in the very same memory, every byte as it came (the
// default path maps for reading only); on, the memory is copied before it is written.
TEST(ShowMask, OffLeavesTheMemoryAndEveryByteAlone) {
  const frames::Frame f = frames::random(32, 24, 50, 1, 11, 0, true);
  for (bool show : {false, true}) {
    GstBuffer* packed = elcheck::pack_default(f, GST_VIDEO_FORMAT_I420);
    const std::vector<std::uint8_t> in = buffer_bytes(packed);
    gst_buffer_unref(packed);
    auto* data = static_cast<std::uint8_t*>(g_memdup2(in.data(), in.size()));
    GstBuffer* wrapped =
        gst_buffer_new_wrapped_full(GST_MEMORY_FLAG_READONLY, data, in.size(), 0, in.size(), data, g_free);
    Harness h(show ? "threshold=100 show-mask=true" : "threshold=100");
    h.set_caps(elcheck::caps_for("I420", 32, 24));
    GstBuffer* out = h.process(gst_buffer_ref(wrapped));  // our reference keeps `data` alive
    ASSERT_NE(out, nullptr);
    GstMapInfo map;
    ASSERT_TRUE(gst_buffer_map(out, &map, GST_MAP_READ));
    const bool same_memory = map.data == data;
    gst_buffer_unmap(out, &map);
    EXPECT_EQ(same_memory, !show) << "show-mask=" << show;
    EXPECT_EQ(std::vector<std::uint8_t>(data, data + in.size()), in) << "the read-only memory was written";
    if (show) {
      EXPECT_EQ(read_picture(out, GST_VIDEO_FORMAT_I420, 32, 24).plane0, above(f, 100));
    } else {
      EXPECT_EQ(buffer_bytes(out), in) << "pixels changed without show-mask";
    }
    EXPECT_EQ(elcheck::check_meta(out, f, elcheck::opts(8, 100)), "");
    gst_buffer_unref(out);
    gst_buffer_unref(wrapped);
  }
}

// A buffer the pusher still holds is not written: the element's writable copy is.
TEST(ShowMask, ABufferHeldElsewhereIsNotWritten) {
  const frames::Frame f = frames::random(20, 16, 50, 1, 12, 0, true);
  Harness h("threshold=60 show-mask=true");
  h.set_caps(elcheck::caps_for("NV12", 20, 16));
  GstBuffer* in = elcheck::pack_default(f, GST_VIDEO_FORMAT_NV12);
  const std::vector<std::uint8_t> before = buffer_bytes(in);
  GstBuffer* out = h.process(gst_buffer_ref(in));
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(buffer_bytes(in), before);
  EXPECT_EQ(read_picture(out, GST_VIDEO_FORMAT_NV12, 20, 16).plane0, above(f, 60));
  gst_buffer_unref(out);
  gst_buffer_unref(in);
}

// Off by default; switched on and off while playing, from the next frame.
TEST(ShowMask, PropertyDefaultAndLiveToggle) {
  elcheck::init();
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  ASSERT_NE(e, nullptr);
  GParamSpec* p = g_object_class_find_property(G_OBJECT_GET_CLASS(e), "show-mask");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->value_type, G_TYPE_BOOLEAN);
  EXPECT_FALSE(G_PARAM_SPEC_BOOLEAN(p)->default_value);
  EXPECT_TRUE(p->flags & GST_PARAM_MUTABLE_PLAYING);
  gboolean on = TRUE;
  g_object_get(e, "show-mask", &on, nullptr);
  EXPECT_FALSE(on);
  gst_object_unref(e);

  const frames::Frame f = frames::random(16, 12, 50, 1, 13, 0, true);
  Harness h("threshold=50");
  h.set_caps(elcheck::gray_caps(16, 12));
  for (bool show : {false, true, false}) {
    g_object_set(h.element(), "show-mask", gboolean(show), nullptr);
    GstBuffer* in = elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8);
    const std::vector<std::uint8_t> in_bytes = buffer_bytes(in);
    GstBuffer* out = h.process(in);
    ASSERT_NE(out, nullptr);
    const std::vector<std::uint8_t> plane0 = read_picture(out, GST_VIDEO_FORMAT_GRAY8, 16, 12).plane0;
    if (show) {
      EXPECT_EQ(plane0, above(f, 50));
    } else {
      EXPECT_EQ(buffer_bytes(out), in_bytes);
    }
    gst_buffer_unref(out);
  }
}

// The CUDA backend on system memory (uploaded, the mask downloaded) and on CUDA memory from
// cudaupload (shown in place, downloaded by cudadownload): the CPU backend's bytes and metas.
TEST(ShowMask, CudaGivesTheCpuBytes) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  elcheck::init();
  const bool cuda_memory = elcheck::cuda_memory_input_unavailable().empty() && elcheck::have("cudadownload");
  const auto fs = scene(75, 44, 10, 8);
  for (const char* fg : {"threshold=120", "foreground=motion", "foreground=motion open=1 close=2",
                         "foreground=adaptive absorb-frames=4"})
    for (int lanes : {1, 3})
      for (bool device : {false, true}) {
        if (device && !cuda_memory) continue;
        const std::string props =
            std::string(" show-mask=true min-area=5 ") + fg + " frames-in-flight=" + std::to_string(lanes);
        const std::string cuda_line =
            device ? "cudaupload ! video/x-raw(memory:CUDAMemory) ! cudaccl backend=cuda" + props + " ! cudadownload"
                   : "cudaccl backend=cuda" + props;
        std::vector<Picture> outputs[2];
        std::vector<ccl::Result> metas[2];
        int k = 0;
        for (const std::string& line : {"cudaccl backend=cpu" + props, cuda_line}) {
          GstHarness* h = gst_harness_new_parse(line.c_str());
          gst_harness_set_src_caps_str(h, elcheck::caps_for("NV12", 75, 44).c_str());
          for (std::size_t i = 0; i < fs.size(); ++i)
            EXPECT_EQ(gst_harness_push(h, with_pts(elcheck::pack_default(fs[i], GST_VIDEO_FORMAT_NV12), i)),
                      GST_FLOW_OK);
          drain(h);
          for (std::size_t i = 0; i < fs.size(); ++i) {
            GstBuffer* out = gst_harness_pull(h);
            ASSERT_NE(out, nullptr) << line;
            outputs[k].push_back(
                read_picture(out, GST_VIDEO_FORMAT_NV12, 75, 44));  // cudadownload's padding is its own
            const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
            metas[k].push_back(m ? elcheck::from_meta(*m) : ccl::Result{});
            gst_buffer_unref(out);
          }
          gst_harness_teardown(h);
          ++k;
        }
        for (std::size_t i = 0; i < fs.size(); ++i) {
          EXPECT_EQ(outputs[1][i].plane0, outputs[0][i].plane0) << cuda_line << " frame " << i;
          EXPECT_EQ(outputs[1][i].chroma, outputs[0][i].chroma) << cuda_line << " frame " << i;
          EXPECT_EQ(outputs[0][i].chroma_not_grey, 0u) << "frame " << i;
          EXPECT_EQ(compare::diff(metas[1][i], metas[0][i]), "") << cuda_line << " frame " << i;
        }
      }
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

}  // namespace
