// Lifecycle of cudaccl (backend=cpu, runs everywhere): a thousand NULL-PLAYING-NULL cycles, flush
// seeks and EOS in playing pipelines, flushes in a harness, and every property changed between two
// frames taking effect on the next one. Size changes mid-stream: tests/element
// ElementLayout.CapsChangeBetweenFrames (system memory) and ElementCudaMemory.CapsChangeMidStream.
#include "rel_check.hpp"

namespace {

using Harness = relcheck::Harness;
using elcheck::opts;

// One pipeline, 1000 times NULL -> PLAYING -> (EOS) -> NULL; every cycle labels its frame right.
TEST(Lifecycle, NullPlayingNullThousandTimes) {
  const int cycles = int(relcheck::env_long("CCL_LIFECYCLE_CYCLES", 1000));
  GstElement* p = relcheck::parse(
      "videotestsrc num-buffers=1 pattern=snow ! video/x-raw,format=GRAY8,width=32,height=24 ! "
      "cudaccl name=ccl backend=cpu threshold=128 ! fakesink");
  ASSERT_NE(p, nullptr);
  relcheck::OracleProbe probe;
  probe.options = opts(8, 128);
  probe.attach(p, "ccl");
  GstElement* ccl = gst_bin_get_by_name(GST_BIN(p), "ccl");
  const long rss_start = relcheck::rss_bytes();
  for (int i = 0; i < cycles; ++i) {
    ASSERT_NE(gst_element_set_state(p, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE) << "cycle " << i;
    ASSERT_EQ(relcheck::wait_eos(p), "") << "cycle " << i;
    gchar* active = nullptr;
    g_object_get(ccl, "active-backend", &active, nullptr);
    EXPECT_STREQ(active, "cpu");
    g_free(active);
    ASSERT_EQ(gst_element_set_state(p, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS) << "cycle " << i;
  }
  const long rss_end = relcheck::rss_bytes();
  std::printf("[ reliability ] %d NULL-PLAYING-NULL cycles: RSS %.1f MB -> %.1f MB\n", cycles, rss_start / 1e6,
              rss_end / 1e6);
  EXPECT_EQ(probe.frames, cycles);
  EXPECT_EQ(probe.first_failure(), "");
  gchar* active = nullptr;
  g_object_get(ccl, "active-backend", &active, nullptr);
  EXPECT_STREQ(active, "none");
  g_free(active);
  gst_object_unref(ccl);
  gst_object_unref(p);
}

// Same cycle on a bare element, also through READY and PAUSED only (start/stop without data).
TEST(Lifecycle, ElementStateCyclesWithoutData) {
  elcheck::init();
  GstElement* e = gst_element_factory_make("cudaccl", nullptr);
  ASSERT_NE(e, nullptr);
  g_object_set(e, "backend", 2 /* cpu */, nullptr);
  for (int i = 0; i < 1000; ++i) {
    const GstState to = i % 3 == 0 ? GST_STATE_READY : i % 3 == 1 ? GST_STATE_PAUSED : GST_STATE_PLAYING;
    ASSERT_NE(gst_element_set_state(e, to), GST_STATE_CHANGE_FAILURE) << i;
    ASSERT_EQ(gst_element_set_state(e, GST_STATE_NULL), GST_STATE_CHANGE_SUCCESS) << i;
  }
  gst_object_unref(e);
}

// Preroll, flush-seek to [1 s, 2 s), play to EOS, flush-seek to [0, 2 s) after EOS and play again:
// every frame is labeled right and the stream continues from the seek position.
TEST(Lifecycle, FlushSeekAndEosInAPlayingPipeline) {
  GstElement* p = relcheck::parse(
      "videotestsrc pattern=ball ! video/x-raw,format=GRAY8,width=160,height=120,framerate=30/1 ! "
      "cudaccl name=ccl backend=cpu post-messages=true ! fakesink sync=false");
  ASSERT_NE(p, nullptr);
  relcheck::OracleProbe probe;
  probe.attach(p, "ccl");
  ASSERT_NE(gst_element_set_state(p, GST_STATE_PAUSED), GST_STATE_CHANGE_FAILURE);
  ASSERT_EQ(gst_element_get_state(p, nullptr, nullptr, 10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  const int before_seek = probe.frames;
  EXPECT_GE(before_seek, 1);
  const auto seek = [&](GstClockTime start) {
    return gst_element_seek(p, 1.0, GST_FORMAT_TIME, GstSeekFlags(GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE),
                            GST_SEEK_TYPE_SET, start, GST_SEEK_TYPE_SET, 2 * GST_SECOND);
  };
  ASSERT_TRUE(seek(GST_SECOND));
  ASSERT_EQ(gst_element_get_state(p, nullptr, nullptr, 10 * GST_SECOND), GST_STATE_CHANGE_SUCCESS);
  ASSERT_NE(gst_element_set_state(p, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  ASSERT_EQ(relcheck::wait_eos(p), "");
  {
    std::lock_guard<std::mutex> g(probe.lock);
    ASSERT_GT(probe.pts.size(), std::size_t(before_seek));
    EXPECT_EQ(probe.pts[before_seek], GST_SECOND) << "first frame after the seek";
    EXPECT_EQ(probe.frames - before_seek, 30) << "frames 30..59 after seeking to 1 s";
  }
  // After EOS: seek back to the start and play the whole stream again.
  const int after_first = probe.frames;
  ASSERT_TRUE(seek(0));
  ASSERT_EQ(relcheck::wait_eos(p), "");
  EXPECT_EQ(probe.frames - after_first, 60);
  EXPECT_EQ(probe.first_failure(), "");
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(p);
}

// Flush and EOS events through a harness: frames after them are labeled as before.
TEST(Lifecycle, FlushAndEosEventsInAHarness) {
  Harness h;
  const frames::Frame a = frames::random(64, 48, 50, 1, 21), b = frames::spiral(40, 30);
  h.set_caps(elcheck::gray_caps(64, 48));
  GstBuffer* out = h.process(elcheck::pack_default(a, GST_VIDEO_FORMAT_GRAY8));
  EXPECT_EQ(elcheck::check_meta(out, a, opts(8)), "");
  if (out) gst_buffer_unref(out);

  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_flush_start()));
  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_flush_stop(TRUE)));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_segment(&segment)));
  out = h.process(elcheck::pack_default(a, GST_VIDEO_FORMAT_GRAY8));
  EXPECT_EQ(elcheck::check_meta(out, a, opts(8)), "") << "after flush";
  if (out) gst_buffer_unref(out);

  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_eos()));
  bool saw_eos = false;
  while (GstEvent* e = gst_harness_try_pull_event(h.get())) {
    saw_eos |= GST_EVENT_TYPE(e) == GST_EVENT_EOS;
    gst_event_unref(e);
  }
  EXPECT_TRUE(saw_eos) << "EOS must pass downstream";

  // A new stream after EOS (flush clears it), at another size.
  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_flush_start()));
  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_flush_stop(TRUE)));
  ASSERT_TRUE(gst_harness_push_event(h.get(), gst_event_new_segment(&segment)));
  h.set_caps(elcheck::gray_caps(40, 30));
  out = h.process(elcheck::pack_default(b, GST_VIDEO_FORMAT_GRAY8));
  EXPECT_EQ(elcheck::check_meta(out, b, opts(8)), "") << "after EOS and flush";
  if (out) gst_buffer_unref(out);
  EXPECT_FALSE(relcheck::pop_text(h.bus(), GST_MESSAGE_ERROR).found);
}

// Each property set between two frames applies to the very next frame (same pixels each time).
TEST(Lifecycle, EveryPropertyTakesEffectAtTheNextFrame) {
  frames::Frame f = frames::random(96, 64, 45, 2, 31, 5, /*gray=*/true);
  Harness h;
  h.set_caps(elcheck::gray_caps(f.width, f.height));
  ccl::Options o;
  struct Step { const char* name; const char* value; void (*apply)(ccl::Options&); };
  const Step steps[] = {
      {"connectivity", "4", [](ccl::Options& x) { x.connectivity = 4; }},
      {"threshold", "100", [](ccl::Options& x) { x.threshold = 100; }},
      {"min-area", "3", [](ccl::Options& x) { x.min_area = 3; }},
      {"max-area", "40", [](ccl::Options& x) { x.max_area = 40; }},
      {"max-objects", "5", [](ccl::Options& x) { x.max_objects = 5; }},
      {"order", "area", [](ccl::Options& x) { x.order = ccl::Order::Area; }},
      {"connectivity", "8", [](ccl::Options& x) { x.connectivity = 8; }},
      {"algorithm", "m8dls", [](ccl::Options&) {}},  // GPU-only choice: same result on the CPU
      {"analysis", "naive", [](ccl::Options&) {}},
      {"max-objects", "4294967295", [](ccl::Options& x) { x.max_objects = ccl::kUnlimited; }},
      {"threshold", "0", [](ccl::Options& x) { x.threshold = 0; }},
      {"algorithm", "column-runs", [](ccl::Options&) {}},
      {"order", "raster", [](ccl::Options& x) { x.order = ccl::Order::Raster; }},
      {"min-area", "0", [](ccl::Options& x) { x.min_area = 0; }},
      {"max-area", "4294967295", [](ccl::Options& x) { x.max_area = ccl::kUnlimited; }},
  };
  GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
  EXPECT_EQ(elcheck::check_meta(out, f, o), "") << "defaults";
  if (out) gst_buffer_unref(out);
  bool saw_truncated = false;
  for (const Step& s : steps) {
    gst_util_set_object_arg(G_OBJECT(h.element()), s.name, s.value);
    s.apply(o);
    out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
    EXPECT_EQ(elcheck::check_meta(out, f, o), "") << "after " << s.name << "=" << s.value;
    if (out) {
      saw_truncated |= gst_buffer_get_ccl_meta(out)->truncated;
      gst_buffer_unref(out);
    }
  }
  EXPECT_TRUE(saw_truncated) << "max-objects=5 should have cut the list at least once";
}

// Properties changed from another thread while a pipeline streams: every frame matches the oracle
// under the options it was labeled with (read from its meta), and nothing races (ASan/valgrind).
TEST(Lifecycle, PropertyChangesFromAnotherThreadWhileStreaming) {
  GstElement* p = relcheck::parse(
      "videotestsrc num-buffers=300 pattern=snow ! video/x-raw,format=GRAY8,width=64,height=48 ! "
      "cudaccl name=ccl backend=cpu threshold=128 ! fakesink sync=false");
  ASSERT_NE(p, nullptr);
  GstElement* ccl = gst_bin_get_by_name(GST_BIN(p), "ccl");
  // The probe knows only connectivity from the meta; keep the other options fixed and flip it.
  std::atomic<int> checked{0}, failed{0};
  GstPad* src = gst_element_get_static_pad(ccl, "src");
  gst_pad_add_probe(
      src, GST_PAD_PROBE_TYPE_BUFFER,
      [](GstPad* pad, GstPadProbeInfo* info, gpointer data) -> GstPadProbeReturn {
        auto* counts = static_cast<std::pair<std::atomic<int>*, std::atomic<int>*>*>(data);
        GstBuffer* b = GST_PAD_PROBE_INFO_BUFFER(info);
        GstCaps* caps = gst_pad_get_current_caps(pad);
        std::string error;
        const frames::Frame f = relcheck::frame_of(b, caps, &error);
        if (caps) gst_caps_unref(caps);
        const GstCclMeta* m = gst_buffer_get_ccl_meta(b);
        const int c = m ? int(m->connectivity) : 8;
        if (!error.empty() || !elcheck::check_meta(b, f, opts(c, 128)).empty()) ++*counts->second;
        ++*counts->first;
        return GST_PAD_PROBE_OK;
      },
      new std::pair<std::atomic<int>*, std::atomic<int>*>(&checked, &failed),
      [](gpointer d) { delete static_cast<std::pair<std::atomic<int>*, std::atomic<int>*>*>(d); });
  gst_object_unref(src);
  ASSERT_NE(gst_element_set_state(p, GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  std::atomic<bool> done{false};
  std::thread flipper([&] {
    for (int i = 0; !done; ++i) {
      g_object_set(ccl, "connectivity", i % 2 ? 4 : 8, "attach-roi-meta", gboolean(i % 3 != 0), nullptr);
      g_usleep(200);
    }
  });
  EXPECT_EQ(relcheck::wait_eos(p), "");
  done = true;
  flipper.join();
  EXPECT_EQ(checked.load(), 300);
  EXPECT_EQ(failed.load(), 0);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(ccl);
  gst_object_unref(p);
}

}  // namespace
