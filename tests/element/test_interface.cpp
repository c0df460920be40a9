// cudaccl's interface: ROI metas, the "ccl" message schema, caps, properties, the GstCclMeta
// library (copy, scale), backend selection and its errors. Expected values are written by hand.
#include "element_check.hpp"

#include <cmath>

#if CCL_HAVE_CUDA
#include "ccl/cuda_analyzer.hpp"
#endif

namespace {

using elcheck::Harness;
using elcheck::opts;
using elcheck::rois;

// Three components in raster order: a 3x2 block, a single pixel, an L of 4 pixels.
frames::Frame three_shapes() {
  frames::Frame f = frames::blank("three shapes", 12, 6, 3);
  for (int y = 1; y <= 2; ++y)
    for (int x = 1; x <= 3; ++x) f.at(x, y) = 255;  // area 6, box 1,1 3x2, centroid 2,1.5
  f.at(8, 1) = 200;                                  // area 1, box 8,1 1x1, centroid 8,1
  f.at(5, 3) = f.at(5, 4) = f.at(5, 5) = f.at(6, 5) = 255;  // area 4, box 5,3 2x3, centroid 5.25,4.25
  return f;
}

struct Expected {
  guint label, area;
  int x, y, w, h;
  double cx, cy;
};
const Expected kThree[] = {{1, 6, 1, 1, 3, 2, 2.0, 1.5}, {2, 1, 8, 1, 1, 1, 8.0, 1.0}, {3, 4, 5, 3, 2, 3, 5.25, 4.25}};

GstBuffer* run_three(Harness& h, GstClockTime pts = 0, GstClockTime duration = GST_CLOCK_TIME_NONE) {
  const frames::Frame f = three_shapes();
  h.set_caps(elcheck::gray_caps(f.width, f.height));
  GstBuffer* in = elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8);
  GST_BUFFER_PTS(in) = pts;
  GST_BUFFER_DURATION(in) = duration;
  return h.process(in);
}

TEST(ElementMeta, HandCheckedComponents) {
  Harness h;
  GstBuffer* out = run_three(h);
  ASSERT_NE(out, nullptr);
  const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->width, 12u);
  EXPECT_EQ(m->height, 6u);
  EXPECT_EQ(m->connectivity, 8u);
  EXPECT_EQ(m->n_components_total, 3u);
  EXPECT_FALSE(m->truncated);
  ASSERT_EQ(m->n_components, 3u);
  for (int i = 0; i < 3; ++i) {
    const GstCclComponent& c = m->components[i];
    const Expected& e = kThree[i];
    EXPECT_EQ(c.label, e.label);
    EXPECT_EQ(c.area, e.area);
    EXPECT_EQ(c.x, e.x);
    EXPECT_EQ(c.y, e.y);
    EXPECT_EQ(c.width, e.w);
    EXPECT_EQ(c.height, e.h);
    EXPECT_DOUBLE_EQ(c.centroid_x, e.cx);
    EXPECT_DOUBLE_EQ(c.centroid_y, e.cy);
  }
  gst_buffer_unref(out);
}

TEST(ElementMeta, EmptyFrameHasMetaWithNoComponents) {
  Harness h;
  const frames::Frame f = frames::blank("empty", 16, 16, 0);
  h.set_caps(elcheck::gray_caps(16, 16));
  GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
  ASSERT_NE(out, nullptr);
  const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->n_components, 0u);
  EXPECT_EQ(m->n_components_total, 0u);
  EXPECT_TRUE(rois(out).empty());
  gst_buffer_unref(out);
}

TEST(ElementRoi, OnePerComponentWithParams) {
  Harness h(" min-area=2");  // drops the single pixel: ROIs follow the filtered list
  GstBuffer* out = run_three(h);
  ASSERT_NE(out, nullptr);
  auto v = rois(out);
  ASSERT_EQ(v.size(), 2u);
  const Expected* want[] = {&kThree[0], &kThree[2]};
  for (std::size_t i = 0; i < v.size(); ++i) {
    const Expected& e = *want[i];
    EXPECT_STREQ(g_quark_to_string(v[i]->roi_type), "connected-component");
    EXPECT_EQ(v[i]->id, int(e.label));
    EXPECT_EQ(v[i]->x, guint(e.x));
    EXPECT_EQ(v[i]->y, guint(e.y));
    EXPECT_EQ(v[i]->w, guint(e.w));
    EXPECT_EQ(v[i]->h, guint(e.h));
    GstStructure* p = gst_video_region_of_interest_meta_get_param(v[i], "connected-component");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(gst_structure_n_fields(p), 4);
    guint label = 0, area = 0;
    double cx = 0, cy = 0;
    EXPECT_TRUE(gst_structure_get_uint(p, "label", &label));
    EXPECT_TRUE(gst_structure_get_uint(p, "area", &area));
    EXPECT_TRUE(gst_structure_get_double(p, "centroid-x", &cx));
    EXPECT_TRUE(gst_structure_get_double(p, "centroid-y", &cy));
    EXPECT_EQ(label, e.label);
    EXPECT_EQ(area, e.area);
    EXPECT_DOUBLE_EQ(cx, e.cx);
    EXPECT_DOUBLE_EQ(cy, e.cy);
  }
  EXPECT_EQ(gst_buffer_get_ccl_meta(out)->n_components_total, 3u);
  gst_buffer_unref(out);
}

TEST(ElementRoi, DisabledByProperty) {
  Harness h(" attach-roi-meta=false");
  GstBuffer* out = run_three(h);
  ASSERT_NE(out, nullptr);
  EXPECT_TRUE(rois(out).empty());
  EXPECT_NE(gst_buffer_get_ccl_meta(out), nullptr);
  gst_buffer_unref(out);
}

TEST(ElementMessage, NoneByDefault) {
  Harness h;
  GstBuffer* out = run_three(h);
  if (out) gst_buffer_unref(out);
  EXPECT_EQ(h.pop_ccl_message(), nullptr);
}

TEST(ElementMessage, SchemaFieldByField) {
  Harness h(" post-messages=true order=area max-objects=2");
  // The harness's segment starts at 0, so running time and stream time equal the PTS.
  GstBuffer* out = run_three(h, 2 * GST_SECOND, 40 * GST_MSECOND);
  ASSERT_NE(out, nullptr);
  gst_buffer_unref(out);
  GstMessage* msg = h.pop_ccl_message();
  ASSERT_NE(msg, nullptr);
  EXPECT_EQ(GST_MESSAGE_SRC(msg), GST_OBJECT(h.element()));
  const GstStructure* s = gst_message_get_structure(msg);
  EXPECT_EQ(gst_structure_n_fields(s), 10);
  auto u64 = [&](const char* name) {
    const GValue* v = gst_structure_get_value(s, name);
    EXPECT_TRUE(v && G_VALUE_HOLDS_UINT64(v)) << name;
    return v && G_VALUE_HOLDS_UINT64(v) ? g_value_get_uint64(v) : 0;
  };
  EXPECT_EQ(u64("timestamp"), 2 * GST_SECOND);
  EXPECT_EQ(u64("stream-time"), 2 * GST_SECOND);
  EXPECT_EQ(u64("running-time"), 2 * GST_SECOND);
  EXPECT_EQ(u64("duration"), 40 * GST_MSECOND);
  int w = 0, hh = 0;
  guint n = 0, total = 0;
  gboolean truncated = FALSE;
  EXPECT_TRUE(gst_structure_get_int(s, "width", &w));
  EXPECT_TRUE(gst_structure_get_int(s, "height", &hh));
  EXPECT_TRUE(gst_structure_get_uint(s, "n-components", &n));
  EXPECT_TRUE(gst_structure_get_uint(s, "n-components-total", &total));
  EXPECT_TRUE(gst_structure_get_boolean(s, "truncated", &truncated));
  EXPECT_EQ(w, 12);
  EXPECT_EQ(hh, 6);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(total, 3u);
  EXPECT_TRUE(truncated);
  const GValue* list = gst_structure_get_value(s, "components");
  ASSERT_NE(list, nullptr);
  ASSERT_TRUE(GST_VALUE_HOLDS_LIST(list));
  ASSERT_EQ(gst_value_list_get_size(list), 2u);
  // order=area: the block (6 px, label 1) then the L (4 px, label 2)
  const Expected want[] = {{1, 6, 1, 1, 3, 2, 2.0, 1.5}, {2, 4, 5, 3, 2, 3, 5.25, 4.25}};
  for (guint i = 0; i < 2; ++i) {
    const GValue* item = gst_value_list_get_value(list, i);
    ASSERT_TRUE(GST_VALUE_HOLDS_STRUCTURE(item));
    const GstStructure* c = gst_value_get_structure(item);
    EXPECT_TRUE(gst_structure_has_name(c, "component"));
    EXPECT_EQ(gst_structure_n_fields(c), 8);
    guint label = 0, area = 0;
    int x = -1, y = -1, cw = -1, ch = -1;
    double cx = 0, cy = 0;
    EXPECT_TRUE(gst_structure_get_uint(c, "label", &label));
    EXPECT_TRUE(gst_structure_get_int(c, "x", &x));
    EXPECT_TRUE(gst_structure_get_int(c, "y", &y));
    EXPECT_TRUE(gst_structure_get_int(c, "width", &cw));
    EXPECT_TRUE(gst_structure_get_int(c, "height", &ch));
    EXPECT_TRUE(gst_structure_get_uint(c, "area", &area));
    EXPECT_TRUE(gst_structure_get_double(c, "centroid-x", &cx));
    EXPECT_TRUE(gst_structure_get_double(c, "centroid-y", &cy));
    EXPECT_EQ(label, want[i].label);
    EXPECT_EQ(area, want[i].area);
    EXPECT_EQ(x, want[i].x);
    EXPECT_EQ(y, want[i].y);
    EXPECT_EQ(cw, want[i].w);
    EXPECT_EQ(ch, want[i].h);
    EXPECT_DOUBLE_EQ(cx, want[i].cx);
    EXPECT_DOUBLE_EQ(cy, want[i].cy);
  }
  gst_message_unref(msg);
  EXPECT_EQ(h.pop_ccl_message(), nullptr) << "one message per frame";
}

TEST(ElementCaps, RefusesUnsupported) {
  elcheck::init();
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  ASSERT_NE(e, nullptr);
  GstPad* sink = gst_element_get_static_pad(e, "sink");
  for (const char* bad : {"video/x-raw,format=RGB,width=16,height=16,framerate=30/1",
                          "video/x-raw,format=GRAY16_LE,width=16,height=16,framerate=30/1",
                          "video/x-raw,format=P010_10LE,width=16,height=16,framerate=30/1",
                          "video/x-raw,format=GRAY8,width=65536,height=16,framerate=30/1",
                          "audio/x-raw,format=S16LE,rate=48000,channels=1,layout=interleaved"}) {
    GstCaps* caps = gst_caps_from_string(bad);
    EXPECT_FALSE(gst_pad_query_accept_caps(sink, caps)) << bad;
    gst_caps_unref(caps);
  }
  for (const char* good : {"video/x-raw,format=GRAY8,width=1,height=1,framerate=0/1",
                           "video/x-raw,format=NV12,width=1920,height=1080,framerate=30/1",
                           "video/x-raw,format=Y444,width=65535,height=3,framerate=30/1"}) {
    GstCaps* caps = gst_caps_from_string(good);
    EXPECT_TRUE(gst_pad_query_accept_caps(sink, caps)) << good;
    gst_caps_unref(caps);
  }
#if !CCL_HAVE_CUDA
  GstCaps* cuda = gst_caps_from_string("video/x-raw(memory:CUDAMemory),format=NV12,width=16,height=16,framerate=30/1");
  EXPECT_FALSE(gst_pad_query_accept_caps(sink, cuda)) << "built without CUDA: no CUDA memory";
  gst_caps_unref(cuda);
#endif
  gst_object_unref(sink);
  gst_object_unref(e);
}

TEST(ElementCaps, HarnessPushWithRgbIsNotNegotiated) {
  Harness h;
  gst_harness_set_src_caps_str(h.get(), "video/x-raw,format=RGB,width=4,height=4,framerate=30/1");
  GstFlowReturn flow = GST_FLOW_OK;
  GstBuffer* out = h.process(gst_buffer_new_allocate(nullptr, 48, nullptr), &flow);
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(flow, GST_FLOW_NOT_NEGOTIATED);
}

// Every property: default, a value set and read back, and the advertised range.
TEST(ElementProperties, DefaultsRoundTripsAndRanges) {
  elcheck::init();
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  ASSERT_NE(e, nullptr);
  GObjectClass* klass = G_OBJECT_GET_CLASS(e);
  struct Case {
    const char* name;
    const char* default_value;
    const char* set_value;
  };
  const Case cases[] = {
      {"connectivity", "8", "4"},          {"threshold", "0", "255"},
      {"min-area", "0", "17"},             {"max-area", "4294967295", "1000"},
      {"max-objects", "4294967295", "0"},  {"algorithm", "optimized-uf", "m8dls"},
      {"analysis", "flsl-cd", "flsl-otf"}, {"order", "raster", "area"},
      {"backend", "auto", "cpu"},          {"cuda-device-id", "-1", "3"},
      {"attach-roi-meta", "true", "false"}, {"post-messages", "false", "true"},
      {"frames-in-flight", "1", "4"},
  };
  auto read = [&](const char* name) {
    GParamSpec* p = g_object_class_find_property(klass, name);
    GValue v = G_VALUE_INIT;
    g_value_init(&v, p->value_type);
    g_object_get_property(G_OBJECT(e), name, &v);
    std::string s;
    if (G_VALUE_HOLDS_ENUM(&v)) {
      GEnumValue* ev = g_enum_get_value(G_ENUM_CLASS(g_type_class_peek(p->value_type)), g_value_get_enum(&v));
      s = ev ? ev->value_nick : "?";
    } else if (G_VALUE_HOLDS_BOOLEAN(&v)) {
      s = g_value_get_boolean(&v) ? "true" : "false";
    } else {
      gchar* str = gst_value_serialize(&v);
      s = str;
      g_free(str);
    }
    g_value_unset(&v);
    return s;
  };
  for (const Case& c : cases) {
    GParamSpec* p = g_object_class_find_property(klass, c.name);
    ASSERT_NE(p, nullptr) << c.name;
    EXPECT_TRUE(p->flags & G_PARAM_WRITABLE) << c.name;
    EXPECT_NE(g_param_spec_get_blurb(p), nullptr);
    EXPECT_EQ(read(c.name), c.default_value) << c.name;
    gst_util_set_object_arg(G_OBJECT(e), c.name, c.set_value);
    EXPECT_EQ(read(c.name), c.set_value) << c.name;
    gst_util_set_object_arg(G_OBJECT(e), c.name, c.default_value);
    EXPECT_EQ(read(c.name), c.default_value) << c.name;
  }
  auto uint_range = [&](const char* name, guint lo, guint hi) {
    auto* p = G_PARAM_SPEC_UINT(g_object_class_find_property(klass, name));
    EXPECT_EQ(p->minimum, lo) << name;
    EXPECT_EQ(p->maximum, hi) << name;
  };
  uint_range("threshold", 0, 255);
  uint_range("min-area", 0, G_MAXUINT);
  uint_range("max-area", 0, G_MAXUINT);
  uint_range("max-objects", 0, G_MAXUINT);
  uint_range("frames-in-flight", 1, 8);
  auto* dev = G_PARAM_SPEC_INT(g_object_class_find_property(klass, "cuda-device-id"));
  EXPECT_EQ(dev->minimum, -1);
  // Enum values and nicks exactly as documented.
  auto nicks = [&](const char* name) {
    GEnumClass* ec = G_ENUM_CLASS(g_type_class_ref(g_object_class_find_property(klass, name)->value_type));
    std::string s;
    for (guint i = 0; i < ec->n_values; ++i) s += std::string(s.empty() ? "" : ",") + ec->values[i].value_nick;
    g_type_class_unref(ec);
    return s;
  };
  EXPECT_EQ(nicks("connectivity"), "4,8");
  EXPECT_EQ(nicks("algorithm"), "optimized-uf,8dls,m8dls,column-runs,raster-segments");
  EXPECT_EQ(nicks("analysis"), "flsl-cd,naive,flsl,flsl-otf");
  EXPECT_EQ(nicks("order"), "raster,area");
  EXPECT_EQ(nicks("backend"), "auto,cuda,cpu");
  // connectivity=4 through the integer API as well
  g_object_set(e, "connectivity", 4, nullptr);
  EXPECT_EQ(read("connectivity"), "4");
  // The read-only one.
  GParamSpec* active = g_object_class_find_property(klass, "active-backend");
  ASSERT_NE(active, nullptr);
  EXPECT_FALSE(active->flags & G_PARAM_WRITABLE);
  EXPECT_EQ(read("active-backend"), "none");
  gst_object_unref(e);
}

TEST(ElementBackend, ActiveBackendFollowsStartAndStop) {
  elcheck::init();
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  ASSERT_NE(e, nullptr);
  g_object_set(e, "backend", 2 /* cpu */, nullptr);
  auto active = [&] {
    gchar* s = nullptr;
    g_object_get(e, "active-backend", &s, nullptr);
    std::string r = s ? s : "(null)";
    g_free(s);
    return r;
  };
  EXPECT_EQ(active(), "none");
  ASSERT_EQ(gst_element_set_state(e, GST_STATE_PAUSED), GST_STATE_CHANGE_SUCCESS);
  EXPECT_EQ(active(), "cpu");
  ASSERT_EQ(gst_element_set_state(e, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS);
  EXPECT_EQ(active(), "none");
  gst_object_unref(e);
}

TEST(ElementBackend, AutoStartsOnSomeBackend) {
  elcheck::init();
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  ASSERT_NE(e, nullptr);
  ASSERT_EQ(gst_element_set_state(e, GST_STATE_PAUSED), GST_STATE_CHANGE_SUCCESS);
  gchar* s = nullptr;
  g_object_get(e, "active-backend", &s, nullptr);
  ASSERT_NE(s, nullptr);
#if CCL_HAVE_CUDA
  const std::string want = ccl::cuda_device_usable(nullptr) ? "cuda" : "cpu";
#else
  const std::string want = "cpu";
#endif
  EXPECT_EQ(std::string(s), want);
  g_free(s);
  gst_element_set_state(e, GST_STATE_NULL);
  gst_object_unref(e);
}

// Starting `e` fails with a RESOURCE/SETTINGS error on `bus`: its message ("" when none came).
std::string start_error(GstElement* e, GstBus* bus) {
  EXPECT_EQ(gst_element_set_state(e, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
  GstMessage* msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  EXPECT_NE(msg, nullptr) << "no error message posted";
  if (!msg) return "";
  GError* err = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(msg, &err, &debug);
  EXPECT_TRUE(g_error_matches(err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS)) << err->message;
  const std::string text = err->message;
  g_error_free(err);
  g_free(debug);
  gst_message_unref(msg);
  return text;
}

TEST(ElementBackend, CudaWithoutDeviceFailsToStart) {
#if CCL_HAVE_CUDA
  std::string why;
  if (ccl::cuda_device_usable(&why)) GTEST_SKIP() << "a CUDA device is usable here";
#endif
  elcheck::init();
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  ASSERT_NE(e, nullptr);
  GstBus* bus = gst_bus_new();
  gst_element_set_bus(e, bus);
  g_object_set(e, "backend", 1 /* cuda */, nullptr);
  const std::string text = start_error(e, bus);
  EXPECT_NE(text.find("backend=cuda"), std::string::npos) << text;
  EXPECT_NE(text.find("CUDA device"), std::string::npos) << text;
  EXPECT_NE(text.find("backend=cpu"), std::string::npos) << "should say what to do instead: " << text;
  gchar* s = nullptr;
  g_object_get(e, "active-backend", &s, nullptr);
  EXPECT_STREQ(s, "none");
  g_free(s);
  gst_element_set_state(e, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(e);
}

// chroma=true runs on every backend: backend=auto picks what it picks without it.
TEST(ElementBackend, ChromaKeepsTheBackendAutoPicks) {
  elcheck::init();
  std::string picked[2];
  for (const int chroma : {0, 1}) {
    GstElement* e = gst_element_factory_make("cudaccl", nullptr);
    ASSERT_NE(e, nullptr);
    g_object_set(e, "chroma", gboolean(chroma), nullptr);
    gst_util_set_object_arg(G_OBJECT(e), "foreground", "adaptive");
    ASSERT_EQ(gst_element_set_state(e, GST_STATE_PAUSED), GST_STATE_CHANGE_SUCCESS);
    gchar* s = nullptr;
    g_object_get(e, "active-backend", &s, nullptr);
    picked[chroma] = s ? s : "";
    g_free(s);
    gst_element_set_state(e, GST_STATE_NULL);
    gst_object_unref(e);
  }
  EXPECT_EQ(picked[1], picked[0]) << "chroma=true runs on every backend";
  EXPECT_FALSE(picked[1].empty());
}

// The meta library on its own: copies deeply, rescales on a scale transform.
TEST(CclMetaLibrary, SurvivesBufferCopy) {
  Harness h;
  GstBuffer* out = run_three(h);
  ASSERT_NE(out, nullptr);
  GstBuffer* copy = gst_buffer_copy(out);
  gst_buffer_unref(out);  // the copy must not point into the original's storage
  const GstCclMeta* m = gst_buffer_get_ccl_meta(copy);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->n_components, 3u);
  EXPECT_EQ(m->n_components_total, 3u);
  EXPECT_EQ(m->width, 12u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m->components[i].label, kThree[i].label);
    EXPECT_EQ(m->components[i].area, kThree[i].area);
    EXPECT_EQ(m->components[i].x, kThree[i].x);
    EXPECT_DOUBLE_EQ(m->components[i].centroid_y, kThree[i].cy);
  }
  EXPECT_EQ(rois(copy).size(), 3u);
  gst_buffer_unref(copy);
}

TEST(CclMetaLibrary, AddCopiesTheList) {
  elcheck::init();
  GstCclComponent c[2] = {{1, 4, 0, 0, 2, 2, 0.5, 0.5, 0}, {2, 1, 5, 5, 1, 1, 5.0, 5.0, 0}};
  GstBuffer* b = gst_buffer_new();
  GstCclMeta* m = gst_buffer_add_ccl_meta(b, 10, 10, 4, 7, TRUE, c, 2);
  ASSERT_NE(m, nullptr);
  c[0].area = 99;
  EXPECT_EQ(m->components[0].area, 4u);
  EXPECT_EQ(m->n_components_total, 7u);
  EXPECT_TRUE(m->truncated);
  EXPECT_EQ(m->connectivity, 4u);
  EXPECT_EQ(gst_buffer_get_ccl_meta(b), m);
  EXPECT_TRUE(gst_meta_api_type_has_tag(GST_CCL_META_API_TYPE, g_quark_from_string(GST_META_TAG_VIDEO_STR)));
  EXPECT_TRUE(gst_meta_api_type_has_tag(GST_CCL_META_API_TYPE, g_quark_from_string(GST_META_TAG_VIDEO_SIZE_STR)));
  EXPECT_TRUE(gst_meta_api_type_has_tag(GST_CCL_META_API_TYPE,
                                        g_quark_from_string(GST_META_TAG_VIDEO_ORIENTATION_STR)));
  gst_buffer_unref(b);
}

// Boxes map edge to edge, centroids centre to centre: x' = (x + 0.5) * s - 0.5.
TEST(CclMetaLibrary, RescalesOnScaleTransform) {
  elcheck::init();
  GstCclComponent c[2] = {{1, 6, 1, 1, 3, 2, 2.0, 1.5, 0}, {2, 1, 11, 5, 1, 1, 11.0, 5.0, 0}};
  GstBuffer* src = gst_buffer_new();
  GstCclMeta* m = gst_buffer_add_ccl_meta(src, 12, 6, 8, 2, FALSE, c, 2);
  ASSERT_NE(m, nullptr);
  GstVideoInfo in, out;
  gst_video_info_set_format(&in, GST_VIDEO_FORMAT_GRAY8, 12, 6);
  gst_video_info_set_format(&out, GST_VIDEO_FORMAT_GRAY8, 24, 3);  // x2 wide, /2 high
  GstVideoMetaTransform trans = {&in, &out};
  GstBuffer* dst = gst_buffer_new();
  const GstMetaInfo* info = GST_CCL_META_INFO;
  ASSERT_TRUE(info->transform_func(dst, &m->meta, src, gst_video_meta_transform_scale_get_quark(), &trans));
  const GstCclMeta* s = gst_buffer_get_ccl_meta(dst);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->width, 24u);
  EXPECT_EQ(s->height, 3u);
  ASSERT_EQ(s->n_components, 2u);
  EXPECT_EQ(s->components[0].label, 1u);
  EXPECT_EQ(s->components[0].x, 2);
  EXPECT_EQ(s->components[0].y, 0);  // floor(0.5)
  EXPECT_EQ(s->components[0].width, 6);
  EXPECT_EQ(s->components[0].height, 2);  // rows 0.5 .. 1.5 cover rows 0 and 1
  EXPECT_EQ(s->components[0].area, 6u);   // 6 * 2 * 0.5
  EXPECT_DOUBLE_EQ(s->components[0].centroid_x, 4.5);
  EXPECT_DOUBLE_EQ(s->components[0].centroid_y, 0.5);
  EXPECT_EQ(s->components[1].x, 22);
  EXPECT_EQ(s->components[1].y, 2);
  EXPECT_EQ(s->components[1].width, 2);
  EXPECT_EQ(s->components[1].height, 1);
  EXPECT_EQ(s->components[1].area, 1u);  // at least one pixel
  EXPECT_DOUBLE_EQ(s->components[1].centroid_x, 22.5);
  EXPECT_DOUBLE_EQ(s->components[1].centroid_y, 2.25);
  // The source is untouched.
  EXPECT_EQ(m->components[0].x, 1);
  EXPECT_DOUBLE_EQ(m->components[0].centroid_x, 2.0);
  gst_buffer_unref(src);
  gst_buffer_unref(dst);
}

// Through a real videoscale, when the plugin is installed.
TEST(CclMetaLibrary, SurvivesVideoscale) {
  if (!elcheck::have("videoscale")) GTEST_SKIP() << "videoscale not installed";
  GstHarness* h = gst_harness_new_parse("cudaccl backend=cpu ! videoscale");
  gst_harness_set_sink_caps_str(h, "video/x-raw,format=GRAY8,width=24,height=12");
  const frames::Frame fr = three_shapes();
  gst_harness_set_src_caps_str(h, elcheck::gray_caps(12, 6).c_str());
  GstBuffer* out = gst_harness_push_and_pull(h, elcheck::pack_default(fr, GST_VIDEO_FORMAT_GRAY8));
  ASSERT_NE(out, nullptr);
  const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
  ASSERT_NE(m, nullptr) << "videoscale dropped the meta";
  EXPECT_EQ(m->width, 24u);
  EXPECT_EQ(m->height, 12u);
  ASSERT_EQ(m->n_components, 3u);
  EXPECT_EQ(m->components[0].x, 2);
  EXPECT_EQ(m->components[0].y, 2);
  EXPECT_EQ(m->components[0].width, 6);
  EXPECT_EQ(m->components[0].height, 4);
  EXPECT_EQ(m->components[0].area, 24u);
  EXPECT_DOUBLE_EQ(m->components[0].centroid_x, 4.5);
  EXPECT_DOUBLE_EQ(m->components[0].centroid_y, 3.5);
  gst_buffer_unref(out);
  gst_harness_teardown(h);
}

}  // namespace
