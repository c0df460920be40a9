// cudaccl backend=cpu foreground=motion or adaptive and open/close: every frame's GstCclMeta equals the
// foreground oracle's mask labelled by the flood-fill oracle; frames in flight share one model;
// the model starts afresh on flush, caps change and DISCONT; the properties' ranges and defaults.
#include <algorithm>
#include <random>
#include <string>

#include "ccl/cuda_analyzer.hpp"

#include "element_check.hpp"
#include "foreground_oracle.hpp"

namespace {

using elcheck::Harness;

// The oracle's side of one stream: its model state, morphology, flood fill. For adaptive, the
// element's recipe (factor 3, open 1, close 2, shrink 1) as ccl/foreground.hpp states it.
struct OracleStream {
  oracle::Models models;
  ccl::Result next(const frames::Frame& f, ccl::Options o) {
    if (o.foreground == ccl::Foreground::Adaptive) {
      o.motion_factor = 3;
      o.open_radius = o.open_radius ? o.open_radius : 1;
      o.close_radius = o.close_radius ? o.close_radius : 2;
      o.shrink_radius = 1;
    }
    const oracle::Mask mask = models.next(f, o);
    ccl::Options label_opts = o;
    label_opts.threshold = 0;
    return oracle::flood_fill(oracle::mask_frame(mask, f.width, f.height), label_opts).result;
  }
};

ccl::Options motion(int conn, int open, int close, int factor = 4) {
  ccl::Options o = elcheck::opts(conn);
  o.foreground = ccl::Foreground::Motion;
  o.motion_factor = std::uint8_t(factor);
  o.open_radius = open;
  o.close_radius = close;
  return o;
}

// The launch line for `o`, the foreground properties included (defaults left out).
std::string props(const ccl::Options& o) {
  std::string s = elcheck::props(o);
  if (o.foreground == ccl::Foreground::Motion) s += " foreground=motion";
  if (o.foreground == ccl::Foreground::Adaptive) s += " foreground=adaptive";
  if (o.absorb_frames != 100) s += " absorb-frames=" + std::to_string(o.absorb_frames);
  if (o.motion_factor != 4) s += " motion-factor=" + std::to_string(o.motion_factor);
  if (o.open_radius) s += " open=" + std::to_string(o.open_radius);
  if (o.close_radius) s += " close=" + std::to_string(o.close_radius);
  return s;
}

// A noisy gradient with two bright rectangles moving across it; `seed` picks the noise and start.
std::vector<frames::Frame> scene(int w, int h, int n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> noise(-3, 3), start(0, 1000);
  const int x0 = start(rng) % w, y0 = start(rng) % h;
  std::vector<frames::Frame> v;
  for (int t = 0; t < n; ++t) {
    frames::Frame f = frames::blank("scene seed=" + std::to_string(seed) + " t=" + std::to_string(t), w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) f.at(x, y) = std::uint8_t(std::clamp(70 + (x + y) % 50 + noise(rng), 0, 255));
    for (int k = 0; k < 2; ++k) {
      const int rx = (x0 + (k + 1) * 2 * t) % w, ry = (y0 + k * h / 2) % h;
      for (int y = ry; y < std::min(h, ry + 6); ++y)
        for (int x = rx; x < std::min(w, rx + 7); ++x) f.at(x, y) = 235;
    }
    v.push_back(std::move(f));
  }
  return v;
}

GstBuffer* frame_buffer(const frames::Frame& f, int i, bool discont = false) {
  GstBuffer* b = elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8);
  GST_BUFFER_PTS(b) = GstClockTime(i) * GST_MSECOND;
  GST_BUFFER_DURATION(b) = GST_MSECOND;
  if (discont) GST_BUFFER_FLAG_SET(b, GST_BUFFER_FLAG_DISCONT);
  return b;
}

// Empty when `out`'s meta is `want`; the meta read back into `got` for the caller.
std::string check(GstBuffer* out, const frames::Frame& f, const ccl::Result& want, ccl::Result* got = nullptr) {
  if (!out) return "no buffer came out";
  const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
  if (!m) return "no GstCclMeta";
  const ccl::Result r = elcheck::from_meta(*m);
  if (got) *got = r;
  std::string d = compare::diff(r, want);
  if (r.width != f.width || r.height != f.height) d += "size differs; ";
  return d;
}

void drain(Harness& h) { elcheck::drain(h.get()); }

void flush(Harness& h) {
  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_flush_start()));
  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_flush_stop(TRUE)));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_segment(&segment)));
  while (GstBuffer* b = gst_harness_try_pull(h.get())) gst_buffer_unref(b);
}

// Pushes `fs` from index `first` (frames-in-flight may hold some back: drain), pulls them all and
// checks each against `want`; the number of frames with components.
std::size_t push_and_check(Harness& h, const std::vector<frames::Frame>& fs, std::size_t first, std::size_t end,
                           OracleStream& want, const ccl::Options& o, std::vector<ccl::Result>* got = nullptr,
                           std::size_t discont_at = SIZE_MAX) {
  for (std::size_t i = first; i < end; ++i)
    EXPECT_EQ(gst_harness_push(h.get(), frame_buffer(fs[i], int(i), i == discont_at)), GST_FLOW_OK);
  drain(h);
  std::size_t with_components = 0;
  for (std::size_t i = first; i < end; ++i) {
    if (i == discont_at) want.models.reset();
    GstBuffer* out = gst_harness_pull(h.get());
    EXPECT_EQ(out ? GST_BUFFER_PTS(out) : 0, GstClockTime(i) * GST_MSECOND) << "order";
    ccl::Result r;
    EXPECT_EQ(check(out, fs[i], want.next(fs[i], o), &r), "") << fs[i].name << props(o);
    with_components += r.n_components_total > 0;
    if (got) got->push_back(r);
    if (out) gst_buffer_unref(out);
  }
  return with_components;
}

TEST(ElementForeground, MotionMatchesTheOracle) {
  const auto fs = scene(64, 48, 14, 1);
  for (int conn : {4, 8})
    for (auto [open, close] : {std::pair{0, 0}, std::pair{1, 2}, std::pair{0, 3}}) {
      const ccl::Options o = motion(conn, open, close, conn == 4 ? 3 : 4);
      Harness h(props(o));
      h.set_caps(elcheck::gray_caps(64, 48));
      OracleStream want;
      EXPECT_GT(push_and_check(h, fs, 0, fs.size(), want, o), fs.size() / 2) << "the rectangles move";
    }
}

TEST(ElementForeground, ThresholdWithMorphologyMatchesTheOracle) {
  std::vector<frames::Frame> fs;
  for (int i = 0; i < 4; ++i) fs.push_back(frames::random(61, 37, 55, 2, 40u + i, 0, true));
  for (int conn : {4, 8})
    for (int radius : {1, 2, 15}) {
      ccl::Options o = elcheck::opts(conn, 90);
      o.open_radius = radius;
      o.close_radius = radius - 1;
      Harness h(props(o));
      h.set_caps(elcheck::gray_caps(61, 37));
      OracleStream want;
      push_and_check(h, fs, 0, fs.size(), want, o);
    }
}

ccl::Options adaptive(int conn, int absorb) {
  ccl::Options o = elcheck::opts(conn);
  o.foreground = ccl::Foreground::Adaptive;
  o.absorb_frames = absorb;
  return o;
}

// foreground=adaptive, its recipe applied by the element, past the slow turns (every 16th frame)
// and absorptions (absorb-frames 5), with one and three frames in flight.
TEST(ElementForeground, AdaptiveMatchesTheOracle) {
  const auto fs = scene(64, 48, 40, 11);
  for (int conn : {4, 8})
    for (int lanes : {1, 3}) {
      const ccl::Options o = adaptive(conn, conn == 4 ? 5 : 100);
      Harness h(props(o) + " frames-in-flight=" + std::to_string(lanes));
      h.set_caps(elcheck::gray_caps(64, 48));
      OracleStream want;
      EXPECT_GT(push_and_check(h, fs, 0, fs.size(), want, o), fs.size() / 2) << "the rectangles move";
    }
}

// The engines of frames-in-flight=3 share one model fed in frame order: the answers of 1 engine.
TEST(ElementForeground, FramesInFlightShareOneModel) {
  const auto fs = scene(50, 40, 17, 2);
  const ccl::Options o = motion(8, 1, 1);
  std::vector<ccl::Result> one, three;
  for (auto [lanes, got] : {std::pair{1, &one}, std::pair{3, &three}}) {
    Harness h(props(o) + " frames-in-flight=" + std::to_string(lanes));
    h.set_caps(elcheck::gray_caps(50, 40));
    OracleStream want;
    EXPECT_GT(push_and_check(h, fs, 0, fs.size(), want, o, got), 0u);
  }
  ASSERT_EQ(one.size(), three.size());
  for (std::size_t i = 0; i < one.size(); ++i) EXPECT_EQ(compare::diff(three[i], one[i]), "") << "frame " << i;
}

// The CUDA backend, system memory (uploaded) and CUDA memory from cudaupload, one and three frames
// in flight: the same answers as the oracle, frame by frame.
TEST(ElementForeground, CudaBackendMatchesTheOracle) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  const auto fs = scene(97, 61, 16, 3);
  for (int lanes : {1, 3})
    for (auto [open, close] : {std::pair{0, 0}, std::pair{1, 1}, std::pair{2, 15}}) {
      const ccl::Options o = motion(lanes == 1 ? 8 : 4, open, close);
      Harness h(props(o) + " frames-in-flight=" + std::to_string(lanes), "cuda");
      h.set_caps(elcheck::gray_caps(97, 61));
      OracleStream want;
      EXPECT_GT(push_and_check(h, fs, 0, fs.size(), want, o), fs.size() / 2);
    }
  const auto long_scene = scene(97, 61, 40, 5);
  for (int lanes : {1, 3}) {
    const ccl::Options o = adaptive(8, lanes == 1 ? 5 : 100);
    Harness h(props(o) + " frames-in-flight=" + std::to_string(lanes), "cuda");
    h.set_caps(elcheck::gray_caps(97, 61));
    OracleStream want;
    EXPECT_GT(push_and_check(h, long_scene, 0, long_scene.size(), want, o), long_scene.size() / 2) << "adaptive";
  }
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

TEST(ElementForeground, CudaMemoryMatchesTheOracle) {
#if CCL_HAVE_CUDA
  const std::string why = elcheck::cuda_memory_input_unavailable();
  if (!why.empty()) GTEST_SKIP() << why;
  const auto fs = scene(80, 45, 16, 4);
  for (int lanes : {1, 3}) {
    const ccl::Options o = motion(8, 1, 0);
    GstHarness* h = gst_harness_new_parse(("cudaupload ! video/x-raw(memory:CUDAMemory) ! cudaccl backend=cuda " +
                                           props(o) + " frames-in-flight=" + std::to_string(lanes))
                                              .c_str());
    gst_harness_set_src_caps_str(h, elcheck::caps_for("NV12", 80, 45).c_str());
    for (std::size_t i = 0; i < fs.size(); ++i) {
      GstBuffer* in = elcheck::pack_default(fs[i], GST_VIDEO_FORMAT_NV12);
      GST_BUFFER_PTS(in) = GstClockTime(i) * GST_MSECOND;
      EXPECT_EQ(gst_harness_push(h, in), GST_FLOW_OK);
    }
    elcheck::drain(h);
    OracleStream want;
    std::size_t with_components = 0;
    for (std::size_t i = 0; i < fs.size(); ++i) {
      GstBuffer* out = gst_harness_pull(h);
      ccl::Result r;
      EXPECT_EQ(check(out, fs[i], want.next(fs[i], o), &r), "") << fs[i].name << " lanes " << lanes;
      with_components += r.n_components_total > 0;
      if (out) gst_buffer_unref(out);
    }
    EXPECT_GT(with_components, fs.size() / 2);
    gst_harness_teardown(h);
  }
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

// After a flush the next frame only initialises the model (no foreground), whatever came before.
TEST(ElementForeground, FlushResetsTheModel) {
  const auto fs = scene(64, 48, 16, 3);
  for (int lanes : {1, 3}) {
    const ccl::Options o = motion(8, 0, 0);
    Harness h(props(o) + " frames-in-flight=" + std::to_string(lanes));
    h.set_caps(elcheck::gray_caps(64, 48));
    OracleStream want;
    push_and_check(h, fs, 0, 8, want, o);
    flush(h);
    want.models.reset();
    std::vector<ccl::Result> got;
    EXPECT_GT(push_and_check(h, fs, 8, fs.size(), want, o, &got), 0u);
    EXPECT_EQ(got.at(0).n_components_total, 0u) << "the first frame after a flush initialises";
  }
}

// New caps of the same size (another frame rate) still start the model afresh.
TEST(ElementForeground, CapsChangeResetsTheModel) {
  const auto fs = scene(64, 48, 14, 4);
  const ccl::Options o = motion(8, 1, 0);
  Harness h(props(o) + " frames-in-flight=2");
  h.set_caps(elcheck::gray_caps(64, 48));
  OracleStream want;
  EXPECT_GT(push_and_check(h, fs, 0, 7, want, o), 0u);
  h.set_caps("video/x-raw,format=GRAY8,width=64,height=48,framerate=25/1");
  want.models.reset();
  std::vector<ccl::Result> got;
  EXPECT_GT(push_and_check(h, fs, 7, fs.size(), want, o, &got), 0u);
  EXPECT_EQ(got.at(0).n_components_total, 0u) << "the first frame of the new caps initialises";
}

// A DISCONT buffer resets before its frame; frames in flight before it keep the old model.
TEST(ElementForeground, DiscontResetsBeforeItsFrame) {
  const auto fs = scene(64, 48, 16, 5);
  for (int lanes : {1, 3}) {
    const ccl::Options o = motion(4, 0, 1);
    Harness h(props(o) + " frames-in-flight=" + std::to_string(lanes));
    h.set_caps(elcheck::gray_caps(64, 48));
    OracleStream want;
    std::vector<ccl::Result> got;
    push_and_check(h, fs, 0, fs.size(), want, o, &got, 9);
    EXPECT_GT(got.at(8).n_components_total, 0u) << "the frame before the DISCONT still sees motion";
    EXPECT_EQ(got.at(9).n_components_total, 0u) << "the DISCONT frame initialises";
    EXPECT_GT(got.at(15).n_components_total, 0u);
  }
}

// A restart (READY and back) starts afresh too.
TEST(ElementForeground, RestartResetsTheModel) {
  const auto fs = scene(64, 48, 10, 6);
  const ccl::Options o = motion(8, 0, 0);
  Harness h(props(o));
  h.set_caps(elcheck::gray_caps(64, 48));
  OracleStream want;
  EXPECT_GT(push_and_check(h, fs, 0, 6, want, o), 0u);
  ASSERT_EQ(gst_element_set_state(h.element(), GST_STATE_READY), GST_STATE_CHANGE_SUCCESS);
  ASSERT_NE(gst_element_set_state(h.element(), GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  h.set_caps(elcheck::gray_caps(64, 48));
  want.models.reset();
  std::vector<ccl::Result> got;
  push_and_check(h, fs, 6, fs.size(), want, o, &got);
  EXPECT_EQ(got.at(0).n_components_total, 0u) << "the first frame after a restart initialises";
}

guint warnings = 0;
void count_warning(const gchar*, GLogLevelFlags, const gchar*, gpointer) { ++warnings; }

TEST(ElementForeground, PropertiesDefaultsRangesAndRefusals) {
  elcheck::init();
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  ASSERT_NE(e, nullptr);
  GObjectClass* klass = G_OBJECT_GET_CLASS(e);
  GParamSpec* fg = g_object_class_find_property(klass, "foreground");
  ASSERT_NE(fg, nullptr);
  GEnumClass* ec = G_ENUM_CLASS(g_type_class_ref(fg->value_type));
  ASSERT_EQ(ec->n_values, 3u);
  EXPECT_STREQ(ec->values[0].value_nick, "threshold");
  EXPECT_STREQ(ec->values[1].value_nick, "motion");
  EXPECT_STREQ(ec->values[2].value_nick, "adaptive");
  EXPECT_STREQ(g_type_name(fg->value_type), "GstCudaCclForeground");
  g_type_class_unref(ec);
  gint mode = -1;
  g_object_get(e, "foreground", &mode, nullptr);
  EXPECT_EQ(mode, 0);
  gst_util_set_object_arg(G_OBJECT(e), "foreground", "motion");
  g_object_get(e, "foreground", &mode, nullptr);
  EXPECT_EQ(mode, 1);

  struct Range {
    const char* name;
    guint lo, hi, def;
    std::vector<guint> refused;  // out of range (a radius has no value below 0 to try)
  };
  const Range ranges[] = {{"motion-factor", 1, 15, 4, {0, 16}},
                          {"open", 0, 15, 0, {16}},
                          {"close", 0, 15, 0, {16}},
                          {"absorb-frames", 1, 255, 100, {0, 256}}};
  // bookworm's GLib (2.74) logs the refusal as a warning, trixie's (2.84) as a critical.
  const guint handler = g_log_set_handler("GLib-GObject", GLogLevelFlags(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL),
                                          count_warning, nullptr);
  for (const Range& r : ranges) {
    auto* p = G_PARAM_SPEC_UINT(g_object_class_find_property(klass, r.name));
    ASSERT_NE(p, nullptr) << r.name;
    EXPECT_EQ(p->minimum, r.lo) << r.name;
    EXPECT_EQ(p->maximum, r.hi) << r.name;
    EXPECT_EQ(p->default_value, r.def) << r.name;
    EXPECT_NE(g_param_spec_get_blurb(G_PARAM_SPEC(p)), nullptr);
    guint value = 99;
    g_object_get(e, r.name, &value, nullptr);
    EXPECT_EQ(value, r.def) << r.name;
    g_object_set(e, r.name, r.hi, nullptr);
    g_object_get(e, r.name, &value, nullptr);
    EXPECT_EQ(value, r.hi) << r.name;
    // Out of range: GObject refuses with a warning and keeps the value.
    for (guint bad : r.refused) {
      warnings = 0;
      g_object_set(e, r.name, bad, nullptr);
      EXPECT_EQ(warnings, 1u) << r.name << "=" << bad;
      g_object_get(e, r.name, &value, nullptr);
      EXPECT_EQ(value, r.hi) << r.name << "=" << bad << " was accepted";
    }
  }
  g_log_remove_handler("GLib-GObject", handler);
  GError* error = nullptr;
  GstElement* bad = gst_parse_launch("cudaccl foreground=sideways", &error);
  EXPECT_NE(error, nullptr) << "an unknown foreground mode must be refused";
  g_clear_error(&error);
  if (bad) gst_object_unref(bad);
  gst_object_unref(e);
}

}  // namespace
