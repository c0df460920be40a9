// A multi-object tracker over connected components: no GStreamer, no GPU. Each frame's components
// (box, area, centroid) get a track id by box overlap and centroid distance against the tracks'
// constant-velocity predictions. Association and lifecycle are documented in kernels/tracker/README.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tracker/candidate_grid.hpp"
#include "tracker/geometry.hpp"
#include "tracker/greedy_assignment.hpp"

namespace ccl::track {

struct Options {
  std::uint32_t min_hits = 3;     // consecutive matches before a track is confirmed and gets an id (>= 1)
  std::uint32_t max_misses = 10;  // frames a confirmed track coasts on its prediction before it ends
  float min_iou = 0.1f;           // a pair is a candidate when its IoU reaches this ...
  float gate = 1.0f;              // ... or its centroid distance <= gate x the prediction's larger side
};

// A confirmed track starting or ending; times are the caller's (e.g. buffer timestamps).
struct Event {
  enum class Kind { Started, Ended };
  Kind kind;
  std::uint32_t id;
  std::int64_t first_time;  // time of the track's first detection (while it was still tentative)
  std::int64_t last_time;   // time of its last matched detection
  Box box;                  // its last matched box
};

// A live track, for callers that draw or report them.
struct Track {
  std::uint32_t id = 0;  // 0 while tentative
  Box box;               // last matched box
  float centroid_x = 0, centroid_y = 0;  // last matched centroid
  float velocity_x = 0, velocity_y = 0;  // pixels per frame
  std::uint32_t hits = 0;     // consecutive matched frames (tentative) / total matches (confirmed)
  std::uint32_t misses = 0;   // consecutive frames without a match
  std::int64_t first_time = 0, last_time = 0;
};

class Tracker {
 public:
  explicit Tracker(const Options& options = Options{});

  // Associates one frame's detections; ids[i] gets the confirmed track id of detections[i], or 0
  // (unmatched, or matched to a tentative track). `time` is stored in the tracks and events.
  void update(const Detection* detections, std::size_t n, std::int64_t time, std::uint32_t* ids);

  // Tracks confirmed or ended in the last update, in id order of confirmation / track order.
  const std::vector<Event>& events() const { return events_; }
  // Every live track (tentative and confirmed, coasting ones included), oldest first.
  const std::vector<Track>& tracks() const { return tracks_; }
  // Per detection of the last update: the time of its track's first detection (its own time when
  // it started a track), e.g. a GstAnalyticsTrackingMtd's first-seen.
  const std::vector<std::int64_t>& first_times() const { return first_times_; }

  // Ends every track (the stream ended, or goes on from elsewhere): the confirmed ones are in
  // events() as Ended, so every Started has one Ended; tentative ones vanish. Ids keep counting, so
  // an id is never given twice by one Tracker.
  void reset();

  const Options& options() const { return options_; }
  void set_options(const Options& options);

 private:
  Options options_;
  std::uint32_t next_id_ = 1;
  std::vector<Track> tracks_;
  std::vector<Event> events_;
  std::vector<std::int64_t> first_times_;
  // Scratch reused every frame, so a frame allocates nothing once the sizes settled.
  CandidateGrid grid_;
  GreedyAssignment assignment_;

  std::uint32_t take_id();
};

}  // namespace ccl::track
