// The README's object-counting pipeline on a real camera's recording: OpenCV's vtest.avi (Debian's
// opencv-doc; a fixed camera over a walkway, pedestrians crossing, 768x576, 10 fps, 795 frames,
// MS-MPEG4v3 decoded by gst-libav's avdec_msmpeg4). No ground truth comes with it, so the test checks
// what must hold on any real scene: every frame arrives, every start has its end, ids are given once
// in order, a track id is on one component per frame and never jumps across the scene between two
// frames, walkers crossing the view keep one id for seconds, and a second run gives the same ids.
// Skips where the file or the decoder is not installed (tools/test.sh installs both). With CUDA, the
// recording as H.264 decoded by nvh264dec into CUDA memory must give the CPU backend's tracks.
#include <glib/gstdio.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "element_check.hpp"

#if CCL_HAVE_CUDA
#include "ccl/cuda_analyzer.hpp"
#endif

namespace {

constexpr const char* kDefaultRecording = "/usr/share/doc/opencv-doc/examples/data/vtest.avi";
constexpr int kRecordingFrames = 795;

struct Seen {
  guint32 id;
  float x, y, side, centroid_x, centroid_y;  // side: the box's larger side
  bool operator==(const Seen& o) const {
    return id == o.id && x == o.x && y == o.y && side == o.side && centroid_x == o.centroid_x &&
           centroid_y == o.centroid_y;
  }
};

struct TrackedRun {
  std::string error;
  std::vector<std::vector<Seen>> frames;  // per frame, its components with a track id
  std::vector<guint> components;          // per frame, how many components it has
  std::vector<std::string> messages;      // ccl-track messages, in order
  int cuda_frames = 0;                    // frames that came in CUDA memory
};

GstPadProbeReturn record_tracked(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
  TrackedRun* run = static_cast<TrackedRun*>(data);
  run->cuda_frames += elcheck::pad_carries_cuda_memory(pad);
  std::vector<Seen> frame;
  const GstCclMeta* m = gst_buffer_get_ccl_meta(GST_PAD_PROBE_INFO_BUFFER(info));
  run->components.push_back(m ? m->n_components : 0);
  if (m)
    for (guint i = 0; i < m->n_components; ++i) {
      const GstCclComponent& c = m->components[i];
      if (c.track_id == 0) continue;
      frame.push_back(Seen{c.track_id, float(c.x), float(c.y), float(std::max(c.width, c.height)), float(c.centroid_x),
                           float(c.centroid_y)});
    }
  run->frames.push_back(frame);
  return GST_PAD_PROBE_OK;
}

// The counting pipeline after `decoded` (a source and decoder), cudaccl with `backend`.
TrackedRun track(const std::string& decoded, const std::string& backend) {
  TrackedRun run;
  GstElement* pipeline = elcheck::parse(decoded + " ! cudaccl " + backend +
                                        " foreground=adaptive min-area=50 ! ccltracker name=tracker "
                                        "post-messages=true ! fakesink");
  if (!pipeline) {
    run.error = "no pipeline";
    return run;
  }
  elcheck::add_src_probe(pipeline, "tracker", record_tracked, &run);
  run.error = elcheck::play_collecting(pipeline, "ccl-track", &run.messages);
  gst_object_unref(pipeline);
  return run;
}

// The recording decoded by avdec_msmpeg4, as GRAY8.
std::string decoded_avi(const std::string& path) {
  return "filesrc location=" + path + " ! avidemux ! avdec_msmpeg4 ! videoconvert ! video/x-raw,format=GRAY8";
}

// The recording's path (CCL_REAL_RECORDING, or opencv-doc's), or "" with `why` when it cannot be read.
std::string recording(std::string* why) {
  // gst-libav's libavcodec loads libhwy, whose start-up runs an instruction valgrind cannot (SIGILL
  // on AVX-512 Xeons): under tools/test.sh's valgrind run these tests skip; its other runs cover them.
  if (elcheck::under_valgrind()) return *why = "gst-libav cannot run under valgrind", "";
  const char* override_path = std::getenv("CCL_REAL_RECORDING");
  const std::string path = override_path && *override_path ? override_path : kDefaultRecording;
  if (!g_file_test(path.c_str(), G_FILE_TEST_EXISTS)) return *why = path + " not installed (opencv-doc)", "";
  for (const char* f : {"avidemux", "avdec_msmpeg4"})
    if (!elcheck::have(f)) return *why = std::string(f) + " not installed (gstreamer1.0-libav)", "";
  return path;
}

// The ccl-track messages as (event, id, first, last) in order.
struct TrackMessage {
  std::string event;
  guint id;
  guint64 first, last;
};

std::vector<TrackMessage> parse_messages(const std::vector<std::string>& texts) {
  std::vector<TrackMessage> out;
  for (const std::string& text : texts) {
    GstStructure* s = gst_structure_from_string(text.c_str(), nullptr);
    if (!s) continue;
    TrackMessage m{gst_structure_get_string(s, "event") ? gst_structure_get_string(s, "event") : "", 0, 0, 0};
    gst_structure_get_uint(s, "id", &m.id);
    gst_structure_get_uint64(s, "first-timestamp", &m.first);
    gst_structure_get_uint64(s, "last-timestamp", &m.last);
    out.push_back(m);
    gst_structure_free(s);
  }
  return out;
}

TEST(RealRecording, PedestriansOfACameraKeepTheirIds) {
  std::string why;
  const std::string path = recording(&why);
  if (path.empty()) GTEST_SKIP() << why;
  const TrackedRun run = track(decoded_avi(path), "backend=cpu");
  ASSERT_EQ(run.error, "");
  ASSERT_EQ(int(run.frames.size()), kRecordingFrames);

  // Ids: starts number 1, 2, 3 ... in order; each started id ends once, after its start (lost and
  // re-acquired in between).
  const std::vector<TrackMessage> messages = parse_messages(run.messages);
  ASSERT_EQ(messages.size(), run.messages.size()) << "every ccl-track message parses";
  std::map<guint, guint64> started;  // id -> first timestamp
  std::set<guint> ended;
  std::vector<double> dwell_s;
  guint next = 1;
  for (const TrackMessage& m : messages) {
    if (m.event == "start") {
      EXPECT_EQ(m.id, next) << "ids are given in order, each once";
      next = m.id + 1;
      started[m.id] = m.first;
    } else if (m.event == "lost" || m.event == "reacquired") {
      // Between its start and its end a track may be lost (coasting) and found again.
      EXPECT_TRUE(started.count(m.id) && !ended.count(m.id)) << "track " << m.id << " " << m.event << " outside its life";
    } else {
      ASSERT_EQ(m.event, "end");
      ASSERT_TRUE(started.count(m.id)) << "track " << m.id << " ends without a start";
      EXPECT_TRUE(ended.insert(m.id).second) << "track " << m.id << " ends twice";
      EXPECT_LE(m.first, m.last);
      EXPECT_EQ(m.first, started[m.id]);
      dwell_s.push_back(double(m.last - m.first) / GST_SECOND);
    }
  }
  EXPECT_EQ(ended.size(), started.size()) << "every start has its end (at the latest at EOS)";

  // Per frame: a track id is on one component; between consecutive frames it moves less than twice
  // its box's larger side (walkers move a few pixels a frame at 10 fps, and the association allows
  // one side from a prediction that moved on by the track's velocity; a switch to another object jumps).
  std::map<guint32, Seen> before;
  int continued = 0;
  float worst = 0;  // the largest move between two frames, in box sides
  for (std::size_t f = 0; f < run.frames.size(); ++f) {
    std::map<guint32, Seen> now;
    for (const Seen& s : run.frames[f]) {
      EXPECT_TRUE(now.emplace(s.id, s).second) << "frame " << f << ": track " << s.id << " on two components";
      EXPECT_TRUE(started.count(s.id)) << "frame " << f << ": track " << s.id << " reported without a start message";
      const auto was = before.find(s.id);
      if (was == before.end()) continue;
      ++continued;
      const float moved = std::hypot(s.centroid_x - was->second.centroid_x, s.centroid_y - was->second.centroid_y);
      worst = std::max(worst, moved / std::max(was->second.side, s.side));
      EXPECT_LE(moved, 2 * std::max(was->second.side, s.side))
          << "frame " << f << ": track " << s.id << " jumped " << moved << " px";
    }
    before = std::move(now);
  }

  int long_tracks = 0;
  for (double d : dwell_s) long_tracks += d >= 10.0;
  std::printf("%s: %d frames, %zu tracks started (objects counted), %d of them followed 10 s or longer, %d "
              "frame-to-frame continuations (largest move %.2f box sides)\n",
              path.c_str(), kRecordingFrames, started.size(), long_tracks, continued, double(worst));
  // The walkers take 10 s and more to cross the view; a tracker that loses them every few frames
  // (ids renewed on every merge or split) has no such tracks.
  EXPECT_GE(long_tracks, 8);
  EXPECT_GE(started.size(), 20u) << "dozens of people cross the view";

  const TrackedRun again = track(decoded_avi(path), "backend=cpu");
  ASSERT_EQ(again.error, "");
  EXPECT_EQ(again.messages, run.messages) << "the same recording gives the same ids";
  ASSERT_EQ(again.frames.size(), run.frames.size());
  for (std::size_t f = 0; f < run.frames.size(); ++f) ASSERT_EQ(again.frames[f], run.frames[f]) << "frame " << f;
}

#if CCL_HAVE_CUDA
// The recording as an H.264 MP4: CCL_REAL_RECORDING_MP4 (made beforehand, e.g. for a host without
// gst-libav), else encoded by openh264enc into `dir`. "" with `why` when neither can be had.
std::string recording_as_h264(const std::string& dir, std::string* why) {
  const char* given = std::getenv("CCL_REAL_RECORDING_MP4");
  if (given && *given) return g_file_test(given, G_FILE_TEST_EXISTS) ? given : (*why = std::string(given) + " not found", "");
  const std::string avi = recording(why);
  if (avi.empty()) return "";
  for (const char* f : {"openh264enc", "mp4mux"})
    if (!elcheck::have(f)) return *why = std::string(f) + " not installed", "";
  const std::string mp4 = dir + "/vtest.mp4";
  GstElement* encode = elcheck::parse(decoded_avi(avi) + " ! videoconvert ! video/x-raw,format=I420 ! "
                                      "openh264enc bitrate=1500000 gop-size=30 ! h264parse ! mp4mux ! filesink location=" + mp4);
  if (!encode) return *why = "no encoding pipeline", "";
  const std::string error = elcheck::play_to_eos(encode, 120 * GST_SECOND, [](GstMessage*) {});
  gst_object_unref(encode);
  return error.empty() ? mp4 : (*why = "encoding failed: " + error, "");
}

TEST(RealRecording, DecodedOnTheGpuGivesTheCpuTracks) {
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  for (const char* f : {"nvh264dec", "openh264dec", "qtdemux", "h264parse"})
    if (!elcheck::have(f)) GTEST_SKIP() << f << " not installed";
  gchar* dir = g_dir_make_tmp("ccl-real-XXXXXX", nullptr);
  ASSERT_NE(dir, nullptr);
  const std::string mp4 = recording_as_h264(dir, &why);
  if (mp4.empty()) {
    g_rmdir(dir);
    g_free(dir);
    GTEST_SKIP() << why;
  }
  const std::string source = "filesrc location=" + mp4 + " ! qtdemux ! h264parse ! ";
  const TrackedRun cpu = track(source + "openh264dec", "backend=cpu");
  const TrackedRun gpu = track(source + "nvh264dec", "backend=cuda");
  if (mp4.rfind(dir, 0) == 0) g_remove(mp4.c_str());
  g_rmdir(dir);
  g_free(dir);
  ASSERT_EQ(cpu.error, "");
  ASSERT_EQ(gpu.error, "");
  ASSERT_EQ(cpu.frames.size(), std::size_t(kRecordingFrames));
  EXPECT_EQ(gpu.cuda_frames, kRecordingFrames) << "nvh264dec's frames should stay in CUDA memory";
  ASSERT_EQ(gpu.frames.size(), cpu.frames.size());
  for (std::size_t f = 0; f < cpu.frames.size(); ++f) {
    ASSERT_EQ(gpu.components[f], cpu.components[f]) << "frame " << f;
    ASSERT_EQ(gpu.frames[f], cpu.frames[f]) << "frame " << f;
  }
  EXPECT_EQ(gpu.messages, cpu.messages);
  std::printf("the recording as H.264 (%d frames): nvh264dec + CUDA backend %d tracks, openh264dec + CPU backend %d, "
              "the same components, ids and messages frame for frame\n",
              kRecordingFrames, int(gpu.messages.size() / 2), int(cpu.messages.size() / 2));
}
#endif

}  // namespace
