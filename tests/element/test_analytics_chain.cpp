// cclanalytics behind ccltracker: ccltracker's GstCclTrackLifeMeta, a crossing made while
// tentative counted once confirmed, objects in one component crossing once each (its
// GstCclTracksMeta), the real chain cclblobsrc ! cudaccl ! ccltracker ! cclanalytics
// on the daylight scene, and the same events from the CPU and the CUDA backend.
#include <gtest/gtest.h>

#include <glib/gstdio.h>
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "analytics_harness.hpp"
#include "ccl/cuda_analyzer.hpp"
#include "ccl/gstcclmeta.h"
#include "config.h"
#include "element_check.hpp"

namespace {

using namespace analytics_check;

// ccltracker ! cclanalytics (one door, x = 50, hysteresis 2) in a GstHarness, 100 x 100 GRAY8 at
// 1 frame/s: frames with hand-made GstCclMetas in, the ccl-event messages they caused out.
class TrackerAndAnalytics {
 public:
  struct Event {
    std::string what;  // event_of()
    int second;        // its timestamp
    guint64 at;        // its "at" field (the sighting that completed it)
  };

  TrackerAndAnalytics() {
    elcheck::init();
    GstElement* bin = gst_parse_bin_from_description("ccltracker min-hits=3 ! cclanalytics name=a", TRUE, nullptr);
    GstElement* analytics = gst_bin_get_by_name(GST_BIN(bin), "a");
    g_object_set(analytics, "rules", R"({"hysteresis": 2, "lines": [{"name": "door", "from": [50, 0], "to": [50, 100]}]})",
                 nullptr);
    gst_object_unref(analytics);
    bus_ = gst_bus_new();
    gst_element_set_bus(bin, bus_);
    h_ = gst_harness_new_with_element(bin, "sink", "src");
    gst_object_unref(bin);
    gst_harness_set_src_caps_str(h_, "video/x-raw,format=GRAY8,width=100,height=100,framerate=1/1");
  }
  ~TrackerAndAnalytics() {
    gst_bus_set_flushing(bus_, TRUE);
    gst_harness_teardown(h_);
    gst_object_unref(bus_);
  }

  // Frame `second` with these components; the events it caused are appended to events().
  void push(int second, const std::vector<GstCclComponent>& components) {
    GstBuffer* b = gst_buffer_new_allocate(nullptr, 100 * 100, nullptr);
    GST_BUFFER_PTS(b) = GstClockTime(second) * kSecond;
    gst_buffer_add_ccl_meta(b, 100, 100, 8, guint(components.size()), FALSE, components.data(), guint(components.size()));
    ASSERT_EQ(gst_harness_push(h_, b), GST_FLOW_OK);
    gst_buffer_unref(gst_harness_pull(h_));
    while (GstMessage* m = gst_bus_pop_filtered(bus_, GST_MESSAGE_ELEMENT)) {
      const GstStructure* s = gst_message_get_structure(m);
      Event e{event_of(s), -1, 0};
      event_of(s, &e.second);
      gst_structure_get_uint64(s, "at", &e.at);
      if (!e.what.empty()) events_.push_back(e);
      gst_message_unref(m);
    }
  }
  const std::vector<Event>& events() const { return events_; }

 private:
  GstHarness* h_;
  GstBus* bus_;
  std::vector<Event> events_;
};

// A crossing made while the track was still tentative counts once ccltracker confirms it (its
// GstCclTrackLifeMeta carries the tentative boxes), at the time it happened.
TEST(CclAnalytics, TentativeCrossingCountsOnceConfirmed) {
  TrackerAndAnalytics chain;
  // A 10 x 10 box moving 6 px a frame: its bottom-centre at x = 47 (right of the door, d = 3), then
  // 53 (left): it crosses between frames 0 and 1, while tentative (confirmed at frame 2).
  for (int t = 0; t < 6; ++t) {
    const int x = 42 + 6 * t;
    chain.push(t, {{1, 100, x, 60, 10, 10, x + 4.5, 64.5, 0}});
  }
  ASSERT_EQ(chain.events().size(), 1u);
  EXPECT_EQ(chain.events()[0].what, "line-cross door 1 backward");
  EXPECT_EQ(chain.events()[0].second, 2);
  EXPECT_EQ(chain.events()[0].at, kSecond);  // the sighting that completed the crossing: frame 1
}

// Two objects walking together: two 10 x 10 boxes, one above the other, moving right 2 px a frame,
// apart (two components) in frames 0-9, where both tracks are confirmed and learn their speed, then
// touching (one 10 x 22 component) until the end. Each crosses the door in the merged component, at
// the same frame: both crossings count (ccltracker's GstCclTracksMeta places the hidden track at
// its part of the component). From the components' track ids alone the hidden one would never cross.
TEST(CclAnalytics, ObjectsInOneComponentCrossOnceEach) {
  TrackerAndAnalytics chain;
  for (int t = 0; t < 30; ++t) {
    const int x = 10 + 2 * t;
    if (t < 10)
      chain.push(t, {{1, 100, x, 20, 10, 10, x + 4.5, 24.5, 0}, {2, 100, x, 32, 10, 10, x + 4.5, 36.5, 0}});
    else
      chain.push(t, {{1, 200, x, 20, 10, 22, x + 4.5, 30.5, 0}});
  }
  const std::vector<TrackerAndAnalytics::Event>& crossings = chain.events();
  ASSERT_EQ(crossings.size(), 2u) << (crossings.empty() ? std::string("none") : crossings[0].what);
  EXPECT_NE(crossings[0].what, crossings[1].what) << "one object counted twice";
  EXPECT_EQ(crossings[0].second, crossings[1].second) << "they crossed together";
  EXPECT_GT(crossings[0].second, 9) << "while in one component";
  for (const auto& c : crossings) EXPECT_EQ(c.what.rfind("line-cross door", 0), 0u) << c.what;
  for (const auto& c : crossings) EXPECT_NE(c.what.find(" backward"), std::string::npos) << c.what;  // rightwards
}

// The real chain on the daylight scene: messages are posted and agree with each other (the counts
// are the events' tallies).
std::vector<std::string> daylight_events(const char* backend, std::map<std::string, std::string>* last_counts,
                                         int* frames) {
  const std::string rules =
      R"({"lines": [{"name": "door", "from": [320, 0], "to": [320, 360]}],)"
      R"( "zones": [{"name": "lot", "polygon": [[100, 200], [300, 200], [300, 350], [100, 350]], "dwell": 1.0}]})";
  GstElement* p = elcheck::parse(std::string("cclblobsrc scene=daylight num-buffers=150 ! cudaccl backend=") + backend +
                                 " foreground=adaptive min-area=50 ! ccltracker ! cclanalytics name=a ! fakesink");
  std::vector<std::string> events;
  *frames = 0;
  if (!p) return events;
  GstElement* analytics = gst_bin_get_by_name(GST_BIN(p), "a");
  g_object_set(analytics, "rules", rules.c_str(), nullptr);
  gst_object_unref(analytics);
  const std::string error = elcheck::play_to_eos(p, 60 * GST_SECOND, [&](GstMessage* m) {
    const GstStructure* s = gst_message_get_structure(m);
    int t = -1;
    const std::string e = event_of(s, &t);
    if (!e.empty()) events.push_back(e);
    if (gst_structure_has_name(s, "ccl-analytics")) *last_counts = counts_of(s), ++*frames;
  });
  EXPECT_EQ(error, "");
  gst_object_unref(p);
  return events;
}

TEST(CclAnalytics, DaylightChainCountsAgreeWithEvents) {
  std::map<std::string, std::string> counts;
  int frames = 0;
  const std::vector<std::string> events = daylight_events("cpu", &counts, &frames);
  EXPECT_EQ(frames, 150);
  int forward = 0, backward = 0, enters = 0, exits = 0;
  for (const std::string& e : events) {
    forward += e.rfind("line-cross door", 0) == 0 && e.find(" forward") != std::string::npos;
    backward += e.rfind("line-cross door", 0) == 0 && e.find(" backward") != std::string::npos;
    enters += e.rfind("zone-enter lot", 0) == 0;
    exits += e.rfind("zone-exit lot", 0) == 0;
  }
  std::printf("daylight, 150 frames: door %d forward, %d backward; lot %d enters, %d exits\n", forward, backward,
              enters, exits);
  EXPECT_GT(forward + backward, 0);
  EXPECT_GT(enters, 0);
  EXPECT_EQ(counts.at("door"), std::to_string(forward) + "/" + std::to_string(backward));
  EXPECT_EQ(enters, exits);  // every visit ends by EOS
}

// The same events whichever cudaccl backend labelled the frames (the GPU host runs this one).
TEST(CclAnalytics, CpuAndCudaBackendsGiveTheSameEvents) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  std::map<std::string, std::string> cpu_counts, cuda_counts;
  int cpu_frames = 0, cuda_frames = 0;
  const std::vector<std::string> cpu = daylight_events("cpu", &cpu_counts, &cpu_frames);
  const std::vector<std::string> cuda = daylight_events("cuda", &cuda_counts, &cuda_frames);
  EXPECT_EQ(cpu, cuda);
  EXPECT_EQ(cpu_counts, cuda_counts);
  EXPECT_FALSE(cpu.empty());
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}


// ccltracker's GstCclTrackLifeMeta, read with GStreamer's public API only: the buffer that confirms
// a track lists it with its tentative matches (PTS and boxes), the one where it ends lists its id.
TEST(CclTrackLifeMeta, StartedWithTentativeBoxesAndEnded) {
  elcheck::init();
  GstHarness* h = gst_harness_new_parse("ccltracker min-hits=3 max-misses=1");
  gst_harness_set_src_caps_str(h, "video/x-raw,format=GRAY8,width=100,height=100,framerate=1/1");
  std::vector<std::string> seen;  // per buffer: "started id [t:x,y,w,h ...]; ended ids"
  for (int t = 0; t < 6; ++t) {
    GstBuffer* b = gst_buffer_new_allocate(nullptr, 100 * 100, nullptr);
    GST_BUFFER_PTS(b) = GstClockTime(t) * kSecond;
    const int x = 20 + 6 * t;
    GstCclComponent c = {1, 100, x, 30, 10, 10, x + 4.5, 34.5, 0};
    gst_buffer_add_ccl_meta(b, 100, 100, 8, t < 4 ? 1 : 0, FALSE, &c, t < 4 ? 1 : 0);  // gone from frame 4
    ASSERT_EQ(gst_harness_push(h, b), GST_FLOW_OK);
    GstBuffer* out = gst_harness_pull(h);
    std::string line;
    if (GstCustomMeta* m = gst_buffer_get_custom_meta(out, "GstCclTrackLifeMeta")) {
      const GstStructure* s = gst_custom_meta_get_structure(m);
      EXPECT_TRUE(gst_structure_has_name(s, "ccl-track-life"));
      const GValue* started = gst_structure_get_value(s, "started");
      const GValue* ended = gst_structure_get_value(s, "ended");
      for (guint i = 0; started && i < gst_value_array_get_size(started); ++i) {
        const GstStructure* track = gst_value_get_structure(gst_value_array_get_value(started, i));
        guint id = 0;
        gst_structure_get_uint(track, "id", &id);
        line += "started " + std::to_string(id);
        const GValue* times = gst_structure_get_value(track, "times");
        const GValue* boxes = gst_structure_get_value(track, "boxes");
        for (guint k = 0; k < gst_value_array_get_size(times); ++k) {
          const GValue* box = gst_value_array_get_value(boxes, k);
          line += " " + std::to_string(g_value_get_uint64(gst_value_array_get_value(times, k)) / kSecond) + ":";
          for (guint j = 0; j < 4; ++j)
            line += (j ? "," : "") + std::to_string(int(g_value_get_double(gst_value_array_get_value(box, j))));
        }
      }
      for (guint i = 0; ended && i < gst_value_array_get_size(ended); ++i)
        line += "ended " + std::to_string(g_value_get_uint(gst_value_array_get_value(ended, i)));
    }
    seen.push_back(line);
    gst_buffer_unref(out);
  }
  // Confirmed at frame 2 (min-hits 3) with its boxes of frames 0 and 1; lost at 4, ended at 5
  // (max-misses 1).
  EXPECT_EQ(seen, (std::vector<std::string>{"", "", "started 1 0:20,30,10,10 1:26,30,10,10", "", "", "ended 1"}));
  gst_harness_teardown(h);
}

}  // namespace