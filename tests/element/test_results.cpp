// cudaccl backend=cpu: the GstCclMeta of every frame equals the flood-fill oracle, for every
// accepted layout (GRAY8 padded strides, GstVideoMeta strides, YUV plane 0) and every filter.
#include "element_check.hpp"

#if CCL_HAVE_CUDA
#include "ccl/cuda_analyzer.hpp"
#endif

namespace {

using elcheck::Harness;
using elcheck::opts;

// Runs each frame through one element configured for `o` and checks its meta and its pixels.
void expect_oracle(const std::vector<frames::Frame>& fs, const ccl::Options& o, const char* backend = "cpu") {
  Harness h(elcheck::props(o), backend);
  for (const frames::Frame& f : fs) {
    h.set_caps(elcheck::gray_caps(f.width, f.height));
    GstBuffer* in = elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8);
    GstBuffer* copy = gst_buffer_copy_deep(in);
    GstBuffer* out = h.process(in);
    EXPECT_EQ(elcheck::check_meta(out, f, o), "") << f.name << " " << elcheck::props(o);
    if (out) {
      GstMapInfo a, b;
      gst_buffer_map(out, &a, GST_MAP_READ);
      gst_buffer_map(copy, &b, GST_MAP_READ);
      EXPECT_TRUE(a.size == b.size && std::memcmp(a.data, b.data, a.size) == 0) << "pixels changed: " << f.name;
      gst_buffer_unmap(out, &a);
      gst_buffer_unmap(copy, &b);
      gst_buffer_unref(out);
    }
    gst_buffer_unref(copy);
  }
}

std::vector<frames::Frame> random_frames() {
  std::vector<frames::Frame> v;
  std::uint32_t seed = 1;
  for (int d : {0, 10, 30, 50, 70, 90, 100})
    for (int g : {1, 4})
      for (auto [w, h] : {std::pair{64, 48}, std::pair{33, 17}, std::pair{1, 9}, std::pair{9, 1}})
        v.push_back(frames::random(w, h, d, g, seed++));
  return v;
}

TEST(ElementOracle, Random8) { expect_oracle(random_frames(), opts(8)); }
TEST(ElementOracle, Random4) { expect_oracle(random_frames(), opts(4)); }

TEST(ElementOracle, Adversarial) {
  for (int c : {4, 8}) {
    expect_oracle(frames::adversarial(40, 30), opts(c));
    expect_oracle(frames::adversarial(7, 5), opts(c));
  }
}

TEST(ElementOracle, Threshold) {
  std::vector<frames::Frame> v;
  for (int d : {30, 60, 90}) v.push_back(frames::random(50, 37, d, 1, 100 + d, 0, true));
  for (int t : {1, 100, 200, 254, 255}) {
    expect_oracle(v, opts(8, t));
    expect_oracle(v, opts(4, t));
  }
}

TEST(ElementOracle, AreaFilters) {
  std::vector<frames::Frame> v = {frames::random(64, 64, 40, 1, 7), frames::random(64, 64, 50, 4, 8)};
  ccl::Options o = opts(8);
  o.min_area = 3;
  expect_oracle(v, o);
  o.max_area = 20;
  expect_oracle(v, o);
  o.min_area = 0;
  o.max_area = 1;
  expect_oracle(v, o);
}

TEST(ElementOracle, MaxObjectsTruncates) {
  const frames::Frame f = frames::random(64, 64, 30, 1, 9);
  for (std::uint32_t n : {0u, 1u, 5u, 100000u}) {
    ccl::Options o = opts(4);
    o.max_objects = n;
    o.min_area = 2;
    expect_oracle({f}, o);
  }
  // Independent of the oracle: 10 isolated pixels, keep 3.
  frames::Frame dots = frames::blank("dots", 40, 3);
  for (int i = 0; i < 10; ++i) dots.at(4 * i, 1) = 255;
  Harness h(" max-objects=3");
  h.set_caps(elcheck::gray_caps(40, 3));
  GstBuffer* out = h.process(elcheck::pack_default(dots, GST_VIDEO_FORMAT_GRAY8));
  ASSERT_NE(out, nullptr);
  const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->n_components_total, 10u);
  EXPECT_EQ(m->n_components, 3u);
  EXPECT_TRUE(m->truncated);
  for (guint i = 0; i < 3; ++i) {
    EXPECT_EQ(m->components[i].label, i + 1);
    EXPECT_EQ(m->components[i].x, int(4 * i));
    EXPECT_EQ(m->components[i].y, 1);
    EXPECT_EQ(m->components[i].area, 1u);
    EXPECT_EQ(m->components[i].centroid_x, 4.0 * i);
  }
  gst_buffer_unref(out);
}

TEST(ElementOracle, OrderArea) {
  ccl::Options o = opts(8);
  o.order = ccl::Order::Area;
  expect_oracle(random_frames(), o);
  o.max_objects = 3;
  o.min_area = 2;
  expect_oracle({frames::random(64, 64, 40, 4, 3)}, o);
}

// Rows padded to a multiple of 4 with garbage (GstVideoInfo's default GRAY8 layout).
TEST(ElementLayout, Gray8OddWidthsDefaultStride) {
  std::vector<frames::Frame> v;
  for (int w : {1, 2, 3, 5, 6, 7, 13, 31, 61, 63}) {
    v.push_back(frames::random(w, 11, 50, 1, std::uint32_t(w)));
    v.push_back(frames::full(w, 3));
    v.push_back(frames::checkerboard(w, 5));
  }
  expect_oracle(v, opts(8));
  expect_oracle(v, opts(4));
}

// Any stride announced by a GstVideoMeta.
TEST(ElementLayout, Gray8VideoMetaStride) {
  Harness h;
  for (auto [w, stride] : {std::pair{13, 29}, std::pair{64, 100}, std::pair{7, 7}, std::pair{30, 64}}) {
    const frames::Frame f = frames::random(w, 19, 50, 1, std::uint32_t(stride));
    h.set_caps(elcheck::gray_caps(w, 19));
    GstBuffer* out = h.process(elcheck::pack_with_video_meta(f, stride));
    EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "") << "width " << w << " stride " << stride;
    if (out) gst_buffer_unref(out);
  }
}

// Plane 0 is the mask; chroma is garbage and must not matter.
TEST(ElementLayout, YuvPlane0Only) {
  const std::pair<const char*, GstVideoFormat> formats[] = {
      {"I420", GST_VIDEO_FORMAT_I420}, {"NV12", GST_VIDEO_FORMAT_NV12}, {"NV21", GST_VIDEO_FORMAT_NV21},
      {"YV12", GST_VIDEO_FORMAT_YV12}, {"Y42B", GST_VIDEO_FORMAT_Y42B}, {"Y444", GST_VIDEO_FORMAT_Y444}};
  for (const auto& [name, format] : formats) {
    Harness h(" connectivity=4");
    for (auto [w, hh] : {std::pair{64, 48}, std::pair{30, 22}, std::pair{17, 9}}) {
      const frames::Frame f = frames::random(w, hh, 45, 1, std::uint32_t(w * hh));
      h.set_caps(elcheck::caps_for(name, w, hh));
      GstBuffer* out = h.process(elcheck::pack_default(f, format));
      EXPECT_EQ(elcheck::check_meta(out, f, opts(4)), "") << name << " " << w << "x" << hh;
      if (out) gst_buffer_unref(out);
    }
  }
}

// New caps between frames: the next frame is labeled at the new size.
TEST(ElementLayout, CapsChangeBetweenFrames) {
  Harness h;
  const frames::Frame a = frames::random(64, 48, 50, 1, 1), b = frames::random(17, 9, 50, 1, 2),
                      c = frames::stairs(100, 70);
  for (const frames::Frame* f : {&a, &b, &c, &a}) {
    h.set_caps(elcheck::gray_caps(f->width, f->height));
    GstBuffer* out = h.process(elcheck::pack_default(*f, GST_VIDEO_FORMAT_GRAY8));
    EXPECT_EQ(elcheck::check_meta(out, *f, opts(8)), "") << f->name;
    if (out) gst_buffer_unref(out);
  }
}

// Properties set while playing apply to the next frame.
TEST(ElementLayout, PropertyChangeWhilePlaying) {
  Harness h;
  const frames::Frame f = frames::checkerboard(20, 10);
  h.set_caps(elcheck::gray_caps(20, 10));
  GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
  EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(gst_buffer_get_ccl_meta(out)->n_components, 1u);
  gst_buffer_unref(out);
  gst_util_set_object_arg(G_OBJECT(h.element()), "connectivity", "4");
  out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
  EXPECT_EQ(elcheck::check_meta(out, f, opts(4)), "");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(gst_buffer_get_ccl_meta(out)->n_components, 100u);
  gst_buffer_unref(out);
}

// GPU-only choices are accepted on the CPU backend and change nothing.
TEST(ElementLayout, GpuOnlyValuesOnCpu) {
  const frames::Frame f = frames::random(64, 48, 50, 1, 77);
  for (const char* extra : {" algorithm=8dls analysis=naive", " algorithm=column-runs analysis=flsl-otf"}) {
    Harness h(extra);
    h.set_caps(elcheck::gray_caps(64, 48));
    GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
    EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "") << extra;
    if (out) gst_buffer_unref(out);
  }
}

// The same checks through the CUDA backend (system memory, uploaded by run_host) where a device is usable.
TEST(ElementOracle, CudaBackend) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  for (int c : {4, 8}) {
    expect_oracle(random_frames(), opts(c), "cuda");
    expect_oracle(frames::adversarial(40, 30), opts(c), "cuda");
    ccl::Options o = opts(c, 100);
    o.order = ccl::Order::Area;
    o.min_area = 2;
    o.max_objects = 7;
    expect_oracle({frames::random(64, 64, 40, 1, 5, 0, true), frames::random(61, 33, 70, 1, 6, 0, true)}, o, "cuda");
  }
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

// CUDA memory from cudaupload is labeled in place (GST_MAP_CUDA) on the context shared with it.
TEST(ElementOracle, CudaMemoryInput) {
#if CCL_HAVE_CUDA
  const std::string why = elcheck::cuda_memory_input_unavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  GstHarness* h = gst_harness_new_parse("cudaupload ! video/x-raw(memory:CUDAMemory) ! cudaccl backend=cuda");
  std::vector<frames::Frame> fs = frames::adversarial(40, 30);
  for (int d : {10, 50, 90}) fs.push_back(frames::random(63, 35, d, 1, std::uint32_t(d)));
  for (const auto& [name, format] : {std::pair{"NV12", GST_VIDEO_FORMAT_NV12}, std::pair{"I420", GST_VIDEO_FORMAT_I420}})
    for (const frames::Frame& f : fs) {
      gst_harness_set_src_caps_str(h, elcheck::caps_for(name, f.width, f.height).c_str());
      GstBuffer* out = gst_harness_push_and_pull(h, elcheck::pack_default(f, format));
      EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "") << name << " " << f.name;
      if (out) gst_buffer_unref(out);
    }
  gst_harness_teardown(h);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

// The ROI metas and the message as a ccl::Result, so compare::diff can check them like the meta.
ccl::Result from_rois(GstBuffer* out, const ccl::Result& shape) {
  ccl::Result r = shape;
  r.components = elcheck::roi_components(out);
  return r;
}

ccl::Result from_message(const GstStructure* s, const ccl::Result& shape) {
  ccl::Result r = shape;
  r.components.clear();
  const GValue* list = gst_structure_get_value(s, "components");
  for (guint i = 0; list && i < gst_value_list_get_size(list); ++i) {
    const GstStructure* p = gst_value_get_structure(gst_value_list_get_value(list, i));
    ccl::Component c{};
    if (!gst_structure_get_uint(p, "label", &c.label) || !gst_structure_get_uint(p, "area", &c.area) ||
        !gst_structure_get_int(p, "x", &c.x) || !gst_structure_get_int(p, "y", &c.y) ||
        !gst_structure_get_int(p, "width", &c.width) || !gst_structure_get_int(p, "height", &c.height) ||
        !gst_structure_get_double(p, "centroid-x", &c.centroid_x) ||
        !gst_structure_get_double(p, "centroid-y", &c.centroid_y))
      ADD_FAILURE() << "message component " << i << " lacks a field";
    r.components.push_back(c);
  }
  return r;
}

// Thousands of components: ROI params and message entries are built on several threads (ROI
// params ahead of time, from the last frame's count), yet both must list the oracle's components
// in the contract's order, field by field: a dense frame, a sparse one (the stock shrinks), dense.
TEST(ElementOracle, RoiMetasAndMessageListManyComponentsInOrder) {
  for (ccl::Order order : {ccl::Order::Raster, ccl::Order::Area}) {
    ccl::Options o = opts(8);
    o.order = order;
    Harness h(elcheck::props(o) + " post-messages=true");
    for (int density : {30, 2, 30}) {
      const frames::Frame f = frames::random(317, 211, density, 1, std::uint32_t(density + int(order)));
      const ccl::Result want = oracle::flood_fill(f, o).result;
      if (density == 30) {
        ASSERT_GT(want.components.size(), 2000u) << "the frame must need many chunks";
      }
      h.set_caps(elcheck::gray_caps(f.width, f.height));
      GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
      ASSERT_NE(out, nullptr);
      EXPECT_EQ(compare::diff(from_rois(out, want), want), "") << "ROI metas, " << f.name;
      gst_buffer_unref(out);
      GstMessage* msg = h.pop_ccl_message();
      ASSERT_NE(msg, nullptr);
      EXPECT_EQ(compare::diff(from_message(gst_message_get_structure(msg), want), want), "") << "message, " << f.name;
      gst_message_unref(msg);
    }
  }
}

}  // namespace
