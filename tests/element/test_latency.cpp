// cudaccl frames-in-flight=N in live pipelines: a frame leaves when the (N-1)th after it arrives,
// so the LATENCY query carries N-1 frame durations more than upstream's answer (nothing at N = 1 or
// at a variable framerate), the sink renders every frame on time with that latency, and neither EOS
// nor a pause of the live source stalls or loses a frame. The CPU backend, which holds frames the
// same way as the CUDA one (checked below), runs everywhere.
#include <atomic>
#include <string>

#include "element_check.hpp"

namespace {

constexpr GstClockTime kMs = GST_MSECOND;

struct Latency {
  bool ok = false;
  gboolean live = FALSE;
  GstClockTime min = 0, max = 0;
};

Latency query_latency(GstElement* element) {
  Latency l;
  GstQuery* q = gst_query_new_latency();
  l.ok = gst_element_query(element, q);
  if (l.ok) gst_query_parse_latency(q, &l.live, &l.min, &l.max);
  gst_query_unref(q);
  return l;
}

// What upstream of `name` answers on its own: the query cudaccl forwards, without cudaccl.
Latency upstream_latency(GstElement* pipeline, const char* name) {
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), name);
  GstPad* sink = gst_element_get_static_pad(e, "sink");
  Latency l;
  GstQuery* q = gst_query_new_latency();
  l.ok = gst_pad_peer_query(sink, q);
  if (l.ok) gst_query_parse_latency(q, &l.live, &l.min, &l.max);
  gst_query_unref(q);
  gst_object_unref(sink);
  gst_object_unref(e);
  return l;
}

// Frames the sink rendered (handoff), and whether their PTS only went up.
struct Rendered {
  std::atomic<int> count{0};
  std::atomic<bool> in_order{true};
  GstClockTime last = GST_CLOCK_TIME_NONE;  // the sink's streaming thread only
};

void count_rendered(GstElement* pipeline, Rendered* r) {
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  g_signal_connect(sink, "handoff", G_CALLBACK(+[](GstElement*, GstBuffer* b, GstPad*, gpointer data) {
                     auto* r = static_cast<Rendered*>(data);
                     if (GST_CLOCK_TIME_IS_VALID(r->last) && GST_BUFFER_PTS(b) <= r->last) r->in_order = false;
                     r->last = GST_BUFFER_PTS(b);
                     ++r->count;
                   }),
                   r);
  gst_object_unref(sink);
}

// Buffers the source pushed: the oracle for "no frame lost" (a live source may drop one itself
// when paused in the middle of its clock wait).
void count_pushed(GstElement* pipeline, std::atomic<int>* n) {
  elcheck::add_src_probe(pipeline, "src",
                         [](GstPad*, GstPadProbeInfo*, gpointer data) {
                           ++*static_cast<std::atomic<int>*>(data);
                           return GST_PAD_PROBE_OK;
                         },
                         n);
}

bool wait_for(const std::function<bool()>& done, int timeout_ms) {
  for (int t = 0; t < timeout_ms; t += 10) {
    if (done()) return true;
    g_usleep(10000);
  }
  return done();
}

// Plays until the sink prerolled: the live pipeline then has the latency it computed.
bool play_and_settle(GstElement* pipeline) {
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) return false;
  return gst_element_get_state(pipeline, nullptr, nullptr, 10 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS;
}

std::string wait_eos(GstElement* pipeline, GstClockTime timeout) {
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* m = gst_bus_timed_pop_filtered(bus, timeout, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  std::string why = !m ? "no EOS within the timeout (stalled?)" : "";
  if (m && GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
    GError* e = nullptr;
    gst_message_parse_error(m, &e, nullptr);
    why = e ? e->message : "error";
    g_clear_error(&e);
  }
  if (m) gst_message_unref(m);
  gst_object_unref(bus);
  return why;
}

// appsrc with a latency of our choosing: min 10 ms, max 300 ms. Pushes `frames` frames and plays.
struct AppsrcPipeline {
  GstElement* pipeline = nullptr;
  AppsrcPipeline(const std::string& framerate, int frames_in_flight) {
    pipeline = elcheck::parse(
        "appsrc name=src is-live=true format=time min-latency=10000000 max-latency=300000000 "
        "caps=video/x-raw,format=GRAY8,width=64,height=48,framerate=" + framerate +
        " ! cudaccl name=ccl backend=cpu frames-in-flight=" + std::to_string(frames_in_flight) +
        " ! fakesink name=sink sync=true processing-deadline=0");
  }
  ~AppsrcPipeline() {
    if (!pipeline) return;
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
  }
  // Enough frames that the first one leaves the element and the sink prerolls.
  bool play(int frames) {
    GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    for (int i = 0; i < frames; ++i) {
      GstBuffer* b = gst_buffer_new_allocate(nullptr, 64 * 48, nullptr);
      gst_buffer_memset(b, 0, 0, 64 * 48);
      GST_BUFFER_PTS(b) = GstClockTime(i) * 40 * kMs;
      GST_BUFFER_DURATION(b) = 40 * kMs;
      GstFlowReturn flow;
      g_signal_emit_by_name(src, "push-buffer", b, &flow);
      gst_buffer_unref(b);
    }
    gst_object_unref(src);
    return gst_element_get_state(pipeline, nullptr, nullptr, 10 * GST_SECOND) == GST_STATE_CHANGE_SUCCESS;
  }
};

// Expected values by hand: upstream 10 ms / 300 ms, one frame 1/25 s = 40 ms.
TEST(FramesInFlightLatency, AddsTheFramesHeldBackToMinAndMax) {
  struct Case {
    int n;
    GstClockTime min, max;
  };
  for (const Case& c : {Case{1, 10 * kMs, 300 * kMs}, Case{2, 50 * kMs, 340 * kMs}, Case{3, 90 * kMs, 380 * kMs},
                        Case{8, 290 * kMs, 580 * kMs}}) {
    AppsrcPipeline p("25/1", c.n);
    ASSERT_NE(p.pipeline, nullptr);
    ASSERT_TRUE(p.play(c.n + 1)) << "frames-in-flight=" << c.n << ": the sink did not preroll";
    const Latency l = query_latency(p.pipeline);
    ASSERT_TRUE(l.ok) << "frames-in-flight=" << c.n;
    EXPECT_TRUE(l.live);
    EXPECT_EQ(l.min, c.min) << "frames-in-flight=" << c.n;
    EXPECT_EQ(l.max, c.max) << "frames-in-flight=" << c.n;
  }
}

// 30000/1001: two frames are 2 * 1001 / 30000 s = 66 733 333.3 ns, rounded to the nanosecond.
TEST(FramesInFlightLatency, FractionalFramerate) {
  AppsrcPipeline p("30000/1001", 3);
  ASSERT_NE(p.pipeline, nullptr);
  ASSERT_TRUE(p.play(4));
  const Latency l = query_latency(p.pipeline);
  ASSERT_TRUE(l.ok);
  EXPECT_EQ(l.min, 10 * kMs + 66733333);
  EXPECT_EQ(l.max, 300 * kMs + 66733333);
}

// A variable framerate gives no frame duration: nothing is added (documented in the property).
TEST(FramesInFlightLatency, VariableFramerateAddsNothing) {
  AppsrcPipeline p("0/1", 3);
  ASSERT_NE(p.pipeline, nullptr);
  ASSERT_TRUE(p.play(4));
  const Latency l = query_latency(p.pipeline);
  ASSERT_TRUE(l.ok);
  EXPECT_EQ(l.min, 10 * kMs);
  EXPECT_EQ(l.max, 300 * kMs);
}

// The ring holds N-1 frames on the CPU backend too, so the latency added is what it holds back:
// with N = 3 nothing leaves for the first two frames, then one per frame.
TEST(FramesInFlightLatency, CpuBackendHoldsNMinusOneFrames) {
  elcheck::Harness h("frames-in-flight=3", "cpu");
  h.set_caps(elcheck::gray_caps(64, 48));
  for (int i = 0; i < 6; ++i) {
    GstBuffer* b = gst_buffer_new_allocate(nullptr, 64 * 48, nullptr);
    gst_buffer_memset(b, 0, 0, 64 * 48);
    GST_BUFFER_PTS(b) = GstClockTime(i) * 40 * kMs;
    ASSERT_EQ(gst_harness_push(h.get(), b), GST_FLOW_OK);
    EXPECT_EQ(gst_harness_buffers_in_queue(h.get()), guint(i < 2 ? 0 : i - 1)) << "after frame " << i;
  }
  while (GstBuffer* b = gst_harness_try_pull(h.get())) gst_buffer_unref(b);
}

// videotestsrc answers for itself; cudaccl adds two frames of 1/25 s on top of that answer.
TEST(FramesInFlightLatency, LiveTestSourcePlusTwoFrames) {
  GstElement* pipeline = elcheck::parse(
      "videotestsrc name=src is-live=true ! video/x-raw,format=GRAY8,width=64,height=48,framerate=25/1 ! "
      "cudaccl name=ccl backend=cpu frames-in-flight=3 ! fakesink name=sink sync=true processing-deadline=0");
  ASSERT_NE(pipeline, nullptr);
  ASSERT_TRUE(play_and_settle(pipeline));
  const Latency up = upstream_latency(pipeline, "ccl");
  const Latency l = query_latency(pipeline);
  ASSERT_TRUE(up.ok && l.ok);
  EXPECT_TRUE(up.live && l.live);
  EXPECT_EQ(l.min, up.min + 80 * kMs);
  EXPECT_EQ(l.max, GST_CLOCK_TIME_IS_VALID(up.max) ? up.max + 80 * kMs : GST_CLOCK_TIME_NONE);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}

// Every frame reaches EOS, and on time. videotestsrc pushes a frame when its clock time comes and
// says one frame (100 ms) of latency; the sink adds 20 ms (processing-deadline) and drops a frame
// whose end is more than max-lateness (40 ms) past. With three frames held back (N = 4) a frame
// arrives 300 ms after its time: 120 ms early with the 300 ms cudaccl adds, its end 80 ms late
// without them.
TEST(FramesInFlightLatency, AllFramesOutOnTimeAtEos) {
  for (int n : {1, 4}) {
    GstElement* pipeline = elcheck::parse(
        "videotestsrc name=src is-live=true num-buffers=20 pattern=snow ! "
        "video/x-raw,format=GRAY8,width=64,height=48,framerate=10/1 ! cudaccl backend=cpu threshold=128 "
        "frames-in-flight=" + std::to_string(n) +
        " ! fakesink name=sink sync=true max-lateness=40000000 signal-handoffs=true");
    ASSERT_NE(pipeline, nullptr);
    Rendered rendered;
    std::atomic<int> pushed{0};
    count_rendered(pipeline, &rendered);
    count_pushed(pipeline, &pushed);
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    EXPECT_EQ(wait_eos(pipeline, 20 * GST_SECOND), "") << "frames-in-flight=" << n;
    EXPECT_EQ(pushed.load(), 20);
    EXPECT_EQ(rendered.count.load(), 20) << "frames-in-flight=" << n << ": frames lost or dropped as late";
    EXPECT_TRUE(rendered.in_order.load());
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
  }
}

// PLAYING -> PAUSED -> PLAYING with frames held in the element: the stream goes on, and every
// frame the source pushed comes out, in order.
TEST(FramesInFlightLatency, LiveSourcePausedAndResumed) {
  GstElement* pipeline = elcheck::parse(
      "videotestsrc name=src is-live=true num-buffers=40 pattern=snow ! "
      "video/x-raw,format=GRAY8,width=64,height=48,framerate=25/1 ! cudaccl backend=cpu threshold=128 "
      "frames-in-flight=3 ! fakesink name=sink sync=true signal-handoffs=true");
  ASSERT_NE(pipeline, nullptr);
  Rendered rendered;
  std::atomic<int> pushed{0};
  count_rendered(pipeline, &rendered);
  count_pushed(pipeline, &pushed);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  ASSERT_TRUE(wait_for([&] { return rendered.count >= 10; }, 10000)) << "no frames before the pause";
  gst_element_set_state(pipeline, GST_STATE_PAUSED);
  g_usleep(300000);
  const int held = pushed - rendered.count;
  EXPECT_GE(held, 2) << "the element holds two frames while the source is paused";
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  EXPECT_EQ(wait_eos(pipeline, 20 * GST_SECOND), "");
  EXPECT_GE(pushed.load(), 38) << "the source should lose at most the frame it was waiting for";
  EXPECT_EQ(rendered.count.load(), pushed.load()) << "frames lost in the element";
  EXPECT_TRUE(rendered.in_order.load());
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}

}  // namespace
