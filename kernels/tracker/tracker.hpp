// A multi-object tracker over detections (connected components, or a detector's scored boxes): no
// GStreamer, no GPU, plain portable C++. Each frame's detections get a track id by association in
// stages against the tracks' Kalman predictions (ByteTrack's strong-then-weak stages, OC-SORT's
// re-update after occlusion and direction consistency). Design, lifecycle and determinism: kernels/tracker/README.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tracker/assignment.hpp"
#include "tracker/candidates.hpp"
#include "tracker/geometry.hpp"
#include "tracker/kalman.hpp"

namespace ccl::track {

struct Options {
  std::uint32_t min_hits = 3;     // consecutive matches before a track is confirmed and gets an id (>= 1)
  std::uint32_t max_misses = 30;  // frames a confirmed track stays lost (coasting) before it ends
  float min_iou = 0.2f;           // a pair is a candidate when its IoU with the prediction reaches this ...
  float gate = 1.0f;              // ... or its centre distance <= gate x the prediction's larger side
  // Detection scores (Detection::score; components have none and count as 1): at or above
  // high_score a detection is strong (first stage, may start a track), from low_score up to it weak
  // (only continues tracks, with IoU >= 0.5), below low_score ignored.
  float high_score = 0.8f;
  float low_score = 0.1f;
  // OC-SORT's velocity direction consistency: weight of the agreement between a track's recent
  // direction and the step to a candidate (0 = off, at most 1).
  float direction_weight = 0.3f;
  // A lost track is hidden in a merged blob while this share of its predicted box lies inside a
  // detection another track took: held there, not ended by max_misses (0 = off).
  float hidden_share = 0.6f;
};

enum class TrackState {
  Tentative,  // not yet min_hits consecutive matches: id 0, not reported; one miss ends it
  Confirmed,  // has an id, matched in the last frame
  Lost,       // confirmed, unmatched for 1..max_misses frames: coasts on its prediction
};

// Lifecycle changes of confirmed tracks; times are the caller's (e.g. buffer timestamps).
struct Event {
  enum class Kind {
    Started,     // confirmed: got its id
    Lost,        // missed its first frame (coasting from now on)
    Reacquired,  // matched again while lost: keeps its id
    Ended,       // lost for more than max_misses frames, or reset()
  };
  Kind kind;
  std::uint32_t id;
  std::int64_t first_time;  // time of the track's first detection (while it was still tentative)
  std::int64_t last_time;   // time of its last matched detection
  Box box;                  // its last matched box
};

// One point of a track's trail: a matched detection's centroid, time and box (the box lets a
// consumer replay where a track was while tentative: ccltracker's GstCclTrackLifeMeta).
struct TrailPoint {
  float x, y;
  std::int64_t time;
  Box box;
};

// A live track, for callers that draw or report them.
struct Track {
  std::uint32_t id = 0;  // 0 while tentative
  TrackState state = TrackState::Tentative;
  Box box;                               // last matched detection's box (its part, in a merged blob)
  // Where it is this frame, when located(): its detection's box, or in a merged blob (a detection
  // holding several tracks) its part of it: its predicted box moved the least that fits it inside.
  Box shown;
  float centroid_x = 0, centroid_y = 0;  // last matched detection's centroid
  std::uint32_t hits = 0;    // consecutive matched frames (tentative) / total matches (confirmed)
  std::uint32_t misses = 0;  // consecutive frames without a match
  std::uint32_t exposed_misses = 0;  // of those, frames it was not hidden in a merged blob
  bool hidden = false;  // lost inside a detection another track took (a merged blob): see Options::hidden_share
  bool grouped = false;  // this frame in a detection that holds several tracks (shown = its estimated part)
  std::int32_t detection = -1;  // this frame's detection it was matched to or is hidden in; -1 none
  std::int64_t first_time = 0, last_time = 0;
  BoxFilter filter;          // the motion model now (after this frame's prediction / match)
  BoxFilter at_last_match;   // the motion model right after its last match (where recovery restarts)
  std::uint32_t trail_slot = 0, trail_head = 0, trail_size = 0;  // its ring in the Tracker's trail store

  // Confirmed and, this frame, matched or hidden in a merged blob: a tracker's output (at shown).
  bool located() const { return id != 0 && (misses == 0 || hidden); }
  Box estimate() const { return filter.box(); }  // where the model puts the object now
  float velocity_x() const { return filter.vx; }  // box centre, pixels per frame
  float velocity_y() const { return filter.vy; }
};

class Tracker {
 public:
  static constexpr std::uint32_t kTrailLength = 16;  // points kept per track

  explicit Tracker(const Options& options = Options{});

  // Associates one frame's detections; ids[i] gets the confirmed track id of detections[i], or 0
  // (unmatched, or matched to a tentative track). `time` is stored in the tracks and events.
  void update(const Detection* detections, std::size_t n, std::int64_t time, std::uint32_t* ids);

  // Lifecycle changes of the last update (or reset), in track order (oldest first).
  const std::vector<Event>& events() const { return events_; }
  // Every live track (tentative, confirmed and lost), oldest first.
  const std::vector<Track>& tracks() const { return tracks_; }
  // Per detection of the last update: the time of its track's first detection (its own time when
  // it started a track), e.g. a GstAnalyticsTrackingMtd's first-seen.
  const std::vector<std::int64_t>& first_times() const { return first_times_; }
  // The track's trail: the centroids of its last kTrailLength matches, oldest first, into *out.
  void trail(const Track& track, std::vector<TrailPoint>* out) const;

  // Ends every track (the stream ended, or goes on from elsewhere): the confirmed and lost ones are
  // in events() as Ended, so every Started has one Ended; tentative ones vanish. Ids keep counting,
  // so an id is never given twice by one Tracker.
  void reset();

  const Options& options() const { return options_; }
  void set_options(const Options& options);

 private:
  // One association stage: the tracks query_track_ against the free detections of `subset`; the
  // matched pairs are written to detection_of_ / track_of_.
  // With use_gate, pairs by centroid distance too. `search` finds the pairs (and keeps its grid).
  void associate(const std::vector<int>& subset, float min_iou, bool use_gate, CandidateSearch& search);
  // Matches the contested pairs left in pairs_ (one Hungarian assignment per cluster) next to the
  // lone pairs already in matched_, and records the matches, but a lost track's piece
  // (refuse_pieces).
  void take();
  void match(Track& t, const Detection& d, std::int64_t time);
  void add_trail_point(Track& t, const Detection& d, std::int64_t time);
  bool direction_of(const Track& t, float* ux, float* uy) const;
  // Merged blobs and pieces (merged_blobs.cpp).
  void usual_size(const Track& t, float* width, float* height) const;
  float usual_area(const Track& t) const;
  Box no_smaller_than_usual(const Track& t) const;
  template <class Holds>
  int first_taken_near(const Box& box, bool anywhere, Holds holds);
  bool inside_another(int j);
  void refuse_pieces();
  void hide_in_taken_blobs();
  int blob_hiding(const Track& t);
  void hide_in(Track& t, const Box& blob, bool was_hidden);
  bool in_merge(const Track& t, int j) const;
  Detection part_in(Track& t, const Detection& d, bool was_grouped);
  bool steady_velocity(const Track& t, float* vx, float* vy) const;
  std::uint32_t take_id();
  std::uint32_t take_trail_slot();

  Options options_;
  std::uint32_t next_id_ = 1;
  std::vector<Track> tracks_;
  std::vector<Event> events_;
  std::vector<std::int64_t> first_times_;
  std::vector<TrailPoint> trail_store_;       // kTrailLength points per slot
  std::vector<std::uint32_t> free_slots_;     // slots of ended tracks, reused last-freed first
  // Per-frame scratch, kept so a frame allocates nothing once the sizes settled.
  const Detection* detections_ = nullptr;
  std::vector<int> detection_of_, track_of_, hidden_in_;  // per track / per detection: the match or -1
  std::vector<int> merged_;  // detections that hold a hidden track (merged blobs), this frame
  // Per track index at the frame's start: established (confirmed or lost). Read while the
  // lifecycle moves tracks down, when tracks_[i] may already be another track.
  std::vector<std::uint8_t> established_at_;
  std::vector<int> strong_, weak_, established_, tentative_, lost_, query_track_, free_detections_, matched_, solved_, pairs_of_track_, pairs_of_detection_;
  std::vector<Query> queries_;
  std::vector<Candidate> pairs_;
  CandidateSearch search_;
  // Stage 1's first search, over every strong detection: its grid stays for the frame's questions
  // of which taken detection holds a box (first_taken_near), so that none scans every detection.
  CandidateSearch strong_search_;
  std::vector<int> near_;
  Assignment assignment_;
};

}  // namespace ccl::track
