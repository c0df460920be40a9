// Bad input through cudaccl (backend=cpu, runs everywhere): caps it refuses say why and name the
// supported formats; buffers smaller than their caps or video meta promise give an element error,
// never a read out of bounds (the ASan and valgrind stages of tools/test.sh run these); sizes from
// 1x1 to 16384x16384 and any row stride give the oracle's (or a by-construction) result.
#include "rel_check.hpp"

namespace {

using Harness = relcheck::Harness;
using elcheck::opts;

// Pushes caps `caps` and one buffer; the flow must be not-negotiated and the element must have
// posted a warning whose text is returned.
relcheck::BusText refused(const std::string& caps, gsize buffer_size = 16) {
  Harness h;
  h.set_caps(caps);
  GstFlowReturn flow = GST_FLOW_OK;
  GstBuffer* out = h.process(gst_buffer_new_allocate(nullptr, buffer_size, nullptr), &flow);
  EXPECT_EQ(out, nullptr) << caps;
  EXPECT_EQ(flow, GST_FLOW_NOT_NEGOTIATED) << caps;
  if (out) gst_buffer_unref(out);
  return relcheck::pop_text(h.bus(), GST_MESSAGE_WARNING);
}

TEST(BadInput, UnsupportedFormatNamesTheSupportedOnes) {
  for (const char* format : {"RGB", "GRAY16_LE", "P010_10LE", "BGRx", "UYVY"}) {
    const relcheck::BusText w = refused(elcheck::caps_for(format, 16, 16));
    ASSERT_TRUE(w.found) << format << ": no warning says why the caps were refused";
    EXPECT_EQ(w.domain, GST_STREAM_ERROR) << w.message;
    EXPECT_EQ(w.code, GST_STREAM_ERROR_FORMAT) << w.message;
    EXPECT_NE(w.message.find(format), std::string::npos) << w.message;
    for (const char* supported : {"GRAY8", "NV12", "NV21", "I420", "YV12", "Y42B", "Y444"})
      EXPECT_NE(w.message.find(supported), std::string::npos) << supported << " missing in: " << w.message;
    EXPECT_NE(w.message.find("videoconvert"), std::string::npos) << "should say what to do: " << w.message;
  }
}

TEST(BadInput, OversizeRefusedSayingWhy) {
  for (const auto& [w, h] : {std::pair{65536, 16}, std::pair{16, 65536}, std::pair{100000, 100000}}) {
    const relcheck::BusText t = refused("video/x-raw,format=GRAY8,width=" + std::to_string(w) + ",height=" +
                                        std::to_string(h) + ",framerate=30/1");
    ASSERT_TRUE(t.found) << w << "x" << h << ": no warning";
    EXPECT_NE(t.message.find("65535"), std::string::npos) << t.message;
    EXPECT_NE(t.message.find(std::to_string(w == 16 ? h : w)), std::string::npos) << t.message;
  }
}

TEST(BadInput, NotVideoRefusedSayingWhy) {
  const relcheck::BusText t = refused("audio/x-raw,format=S16LE,rate=48000,channels=1,layout=interleaved");
  ASSERT_TRUE(t.found);
  EXPECT_NE(t.message.find("video/x-raw"), std::string::npos) << t.message;
}

// In a real pipeline (appsrc can offer anything) the application sees our warning, then the
// not-negotiated error.
TEST(BadInput, RefusalInAPipelineReachesTheApplication) {
  GstElement* p = relcheck::parse(
      "appsrc name=src format=time caps=video/x-raw,format=RGB,width=8,height=8,framerate=30/1 ! "
      "cudaccl backend=cpu ! fakesink");
  ASSERT_NE(p, nullptr);
  ASSERT_NE(gst_element_set_state(p, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  GstElement* src = gst_bin_get_by_name(GST_BIN(p), "src");
  GstFlowReturn flow = GST_FLOW_OK;
  GstBuffer* rgb = gst_buffer_new_allocate(nullptr, 8 * 8 * 3, nullptr);
  g_signal_emit_by_name(src, "push-buffer", rgb, &flow);  // the signal takes its own reference
  gst_buffer_unref(rgb);
  g_signal_emit_by_name(src, "end-of-stream", &flow);
  std::vector<std::string> warnings;
  const std::string error = relcheck::wait_eos(p, 10 * GST_SECOND, &warnings);
  EXPECT_FALSE(error.empty()) << "an RGB stream must not play";
  ASSERT_EQ(warnings.size(), 1u) << "one warning from cudaccl; error was: " << error;
  EXPECT_NE(warnings[0].find("GRAY8"), std::string::npos) << warnings[0];
  std::printf("[ reliability ] warning: %s\n[ reliability ] then error: %s\n", warnings[0].c_str(), error.c_str());
  gst_object_unref(src);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(p);
}

// Negotiation that succeeds (videoconvert picks a format we take) posts no warning.
TEST(BadInput, NoWarningWhenNegotiationSucceeds) {
  GstElement* p = relcheck::parse(
      "videotestsrc num-buffers=3 ! video/x-raw,format=RGB,width=64,height=48 ! videoconvert ! "
      "cudaccl backend=cpu ! fakesink");
  ASSERT_NE(p, nullptr);
  ASSERT_NE(gst_element_set_state(p, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  std::vector<std::string> warnings;
  EXPECT_EQ(relcheck::wait_eos(p, 60 * GST_SECOND, &warnings), "");
  EXPECT_TRUE(warnings.empty()) << warnings[0];
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(p);
}

// Pushes `buffer` under GRAY8 640x480 caps; expects an element error naming the sizes, then checks
// that the element still labels a good frame.
void expect_short_buffer_error(GstBuffer* buffer, gsize size) {
  Harness h;
  h.set_caps(elcheck::gray_caps(640, 480));
  GstFlowReturn flow = GST_FLOW_OK;
  GstBuffer* out = h.process(buffer, &flow);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(flow, GST_FLOW_ERROR);
  if (out) gst_buffer_unref(out);
  const relcheck::BusText e = relcheck::pop_text(h.bus(), GST_MESSAGE_ERROR);
  ASSERT_TRUE(e.found) << "no element error";
  EXPECT_EQ(e.domain, GST_STREAM_ERROR) << e.message;
  EXPECT_NE(e.message.find("640x480"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(std::to_string(size)), std::string::npos) << e.message;

  const frames::Frame f = frames::random(640, 480, 40, 4, 11);
  out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
  EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "") << "not usable after the error";
  if (out) gst_buffer_unref(out);
}

TEST(BadInput, BufferSmallerThanCapsIsAnElementError) {
  elcheck::init();
  expect_short_buffer_error(gst_buffer_new_allocate(nullptr, 1000, nullptr), 1000);
}

// A GstVideoMeta whose plane 0 (offset + stride x height) runs past the buffer: gst_video_frame_map
// does not check this, so the element must.
TEST(BadInput, VideoMetaBeyondTheBufferIsAnElementError) {
  elcheck::init();
  struct Case { gsize size, offset; gint stride; };
  for (const Case c : {Case{1000, 0, 640}, Case{640 * 480 - 1, 0, 640}, Case{640 * 480, 1, 640},
                       Case{700 * 479 + 639, 0, 700}}) {
    GstBuffer* buf = gst_buffer_new_allocate(nullptr, c.size, nullptr);
    gst_buffer_memset(buf, 0, 0xFF, c.size);
    gsize offset[GST_VIDEO_MAX_PLANES] = {c.offset};
    gint strides[GST_VIDEO_MAX_PLANES] = {c.stride};
    gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, 640, 480, 1, offset,
                                   strides);
    SCOPED_TRACE("size " + std::to_string(c.size) + " offset " + std::to_string(c.offset) + " stride " +
                 std::to_string(c.stride));
    expect_short_buffer_error(buf, c.size);
  }
}

// The exact fit with a video meta still labels.
TEST(BadInput, VideoMetaExactFitLabels) {
  const frames::Frame f = frames::random(640, 480, 50, 1, 5);
  Harness h;
  h.set_caps(elcheck::gray_caps(640, 480));
  const int stride = 700;
  GstBuffer* buf = elcheck::pack_with_video_meta(f, stride);  // stride x 480 bytes
  gst_buffer_resize(buf, 0, gsize(stride) * 479 + 640);        // last row ends at the last byte
  GstBuffer* out = h.process(buf);
  EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "");
  if (out) gst_buffer_unref(out);
}

TEST(BadInput, OneByOne) {
  for (int c : {4, 8})
    for (std::uint8_t v : {0, 1, 128, 255})
      for (int threshold : {0, 127}) {
        frames::Frame f = frames::blank("1x1", 1, 1);
        f.at(0, 0) = v;
        Harness h(elcheck::props(opts(c, threshold)));
        h.set_caps(elcheck::gray_caps(1, 1));
        GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
        EXPECT_EQ(elcheck::check_meta(out, f, opts(c, threshold)), "") << "value " << int(v) << " c " << c;
        if (out) gst_buffer_unref(out);
      }
}

// Thin frames and odd strides (video meta), every stride from width to width + 9 plus a wide one.
TEST(BadInput, AnyStride) {
  for (const auto& [w, hh] : {std::pair{1, 1}, std::pair{1, 37}, std::pair{53, 1}, std::pair{97, 31}}) {
    const frames::Frame f = frames::random(w, hh, 50, 1, std::uint32_t(w * 131 + hh));
    Harness h;
    h.set_caps(elcheck::gray_caps(w, hh));
    for (int stride : {w, w + 1, w + 2, w + 3, w + 4, w + 5, w + 6, w + 7, w + 8, w + 9, 4096}) {
      GstBuffer* out = h.process(elcheck::pack_with_video_meta(f, stride));
      EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "") << w << "x" << hh << " stride " << stride;
      if (out) gst_buffer_unref(out);
    }
  }
}

// The largest side the contract promises, with a row stride that is not the default. Four shapes
// whose statistics are known by construction (the oracle would need 1 GiB of labels).
TEST(BadInput, Largest16384x16384) {
  elcheck::init();
  const int n = 16384, stride = n + 64;
  GstBuffer* buf = gst_buffer_new_allocate(nullptr, gsize(stride) * n, nullptr);
  GstMapInfo map;
  ASSERT_TRUE(gst_buffer_map(buf, &map, GST_MAP_WRITE));
  for (int y = 0; y < n; ++y) {
    std::uint8_t* row = map.data + std::size_t(y) * stride;
    std::memset(row, 0, n);
    std::memset(row + n, 0xA5, stride - n);  // garbage past the width
  }
  auto px = [&](int x, int y) -> std::uint8_t& { return map.data[std::size_t(y) * stride + x]; };
  for (int x = 0; x < n; ++x) px(x, 0) = 255;  // 1: top row
  for (int y = 100; y < 300; ++y)
    for (int x = 100; x < 200; ++x) px(x, y) = 255;  // 2: 100x200 rectangle
  for (int i = 0; i < 10000; ++i) px(1000 + i, 1000 + i) = 255;  // 3: diagonal, one component in 8
  px(n - 1, n - 1) = 255;  // 4: last pixel
  gst_buffer_unmap(buf, &map);
  gsize offset[GST_VIDEO_MAX_PLANES] = {0};
  gint strides[GST_VIDEO_MAX_PLANES] = {stride};
  gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, n, n, 1, offset, strides);

  Harness h;
  h.set_caps(elcheck::gray_caps(n, n));
  GstBuffer* out = h.process(gst_buffer_ref(buf));
  ASSERT_NE(out, nullptr);
  const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->width, guint(n));
  EXPECT_EQ(m->height, guint(n));
  ASSERT_EQ(m->n_components_total, 4u);
  ASSERT_EQ(m->n_components, 4u);
  const GstCclComponent want[4] = {
      {1, guint32(n), 0, 0, n, 1, (n - 1) / 2.0, 0.0, 0},
      {2, 20000, 100, 100, 100, 200, 149.5, 199.5, 0},
      {3, 10000, 1000, 1000, 10000, 10000, 5999.5, 5999.5, 0},
      {4, 1, n - 1, n - 1, 1, 1, double(n - 1), double(n - 1), 0},
  };
  for (int i = 0; i < 4; ++i) {
    const GstCclComponent& c = m->components[i];
    EXPECT_EQ(c.label, want[i].label) << i;
    EXPECT_EQ(c.area, want[i].area) << i;
    EXPECT_EQ(c.x, want[i].x) << i;
    EXPECT_EQ(c.y, want[i].y) << i;
    EXPECT_EQ(c.width, want[i].width) << i;
    EXPECT_EQ(c.height, want[i].height) << i;
    EXPECT_DOUBLE_EQ(c.centroid_x, want[i].centroid_x) << i;
    EXPECT_DOUBLE_EQ(c.centroid_y, want[i].centroid_y) << i;
  }
  gst_buffer_unref(out);

  // 4-connectivity splits the diagonal into 10000 single pixels; min-area keeps the two big ones.
  g_object_set(h.element(), "connectivity", 4, "min-area", 2u, nullptr);
  out = h.process(buf);
  ASSERT_NE(out, nullptr);
  m = gst_buffer_get_ccl_meta(out);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->n_components_total, 3u + 10000u);
  ASSERT_EQ(m->n_components, 2u);
  EXPECT_EQ(m->components[0].area, guint32(n));
  EXPECT_EQ(m->components[1].area, 20000u);
  EXPECT_EQ(m->components[1].label, 2u);
  gst_buffer_unref(out);
}

}  // namespace
