// The scene analytics engine behind cclanalytics: tracked boxes in, line crossings, zone enters,
// exits, dwells, occupancy and overcrowding out. Plain C++, no GStreamer, no GPU, deterministic:
// the same frames give the same events on every machine and every cudaccl backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "analytics/rules.hpp"

namespace ccl::scene {

// A confirmed track seen in a frame (a component with its track id, id != 0).
struct TrackedBox {
  std::uint32_t id;
  float x, y, width, height;
};

// Where a track was in an earlier frame.
struct Sighting {
  std::int64_t time;
  float x, y, width, height;
};

// A track confirmed in this frame, with the boxes it had while still tentative (oldest first, all
// before this frame): so a crossing made while tentative counts once the track is confirmed.
struct TrackStart {
  std::uint32_t id;
  const Sighting* history;
  std::size_t n_history;
};

struct Frame {
  std::int64_t time = 0;            // stream time, ns: dwell and overcrowd-time are measured on it
  unsigned width = 0, height = 0;   // frame size: scales normalized rules and the default hysteresis
  const TrackedBox* objects = nullptr;
  std::size_t n_objects = 0;
  // Optional, from the tracker (ccltracker's GstCclTrackLifeMeta); without it tracks start with no
  // history and end after Options::forget_after frames unseen.
  const TrackStart* started = nullptr;
  std::size_t n_started = 0;
  const std::uint32_t* ended = nullptr;  // tracks that ended in this frame: they will not come back
  std::size_t n_ended = 0;
};

enum class Direction { None, Forward, Backward };

struct Event {
  enum class Type { LineCross, ZoneEnter, ZoneExit, Dwell, OvercrowdStart, OvercrowdEnd };
  Type type;
  std::uint32_t rule;        // index into rules().lines (LineCross) or rules().zones (the others)
  std::uint32_t track_id;    // 0 for OvercrowdStart / OvercrowdEnd
  Direction direction;       // LineCross only
  std::int64_t time;         // the frame that reports it
  std::int64_t at;           // when it happened: the sighting that completed a crossing or an enter
                             // (earlier than time for a track started this frame), else time
  unsigned occupancy;        // the zone's occupancy after this update (zone events), else 0
};

struct LineCounts {
  std::uint64_t forward = 0, backward = 0;  // cumulative since the rule was set
};

struct ZoneCounts {
  unsigned count = 0;          // occupancy: tracks in the zone now (an occluded track stays in until it ends)
  std::uint64_t entered = 0;   // cumulative visits since the rule was set
  bool overcrowded = false;
};

struct Options {
  // Tracks not seen for this many frames in a row end (their zone exits are reported), unless the
  // tracker's metadata ends them first. Match ccltracker's max-misses.
  unsigned forget_after = 30;
  // Half-width of the band around a line in which a track's side does not change (frame pixels;
  // < 0: 1 % of the frame's diagonal): jitter on a line never counts twice.
  double hysteresis = -1;
};

class SceneAnalytics {
 public:
  explicit SceneAnalytics(const Options& options = Options{});

  // Replaces the rules, from the next update on (rules must pass validate(), else
  // std::invalid_argument with its message). A rule equal to an old one (same kind, name and every
  // field, and the same Rules::normalized) keeps its counts and its tracks' states; others start at
  // 0; removed rules vanish without events. Clears events() (their indices were the old rules').
  void set_rules(const Rules& rules);
  const Rules& rules() const { return rules_; }
  void set_options(const Options& options);

  // One frame: the events it gives are in events(), in this order: ends (ended and forgotten tracks'
  // zone exits, by track id), then per object in input order its line crossings (by line) and its zone
  // enters, exits and dwells (by zone), then the dwells of members not seen in this frame (occluded;
  // by track id, then zone), then the zones' overcrowd starts and ends (by zone). Objects with id 0
  // are skipped. Semantics in full: kernels/analytics/README.md.
  void update(const Frame& frame);

  const std::vector<Event>& events() const { return events_; }
  const std::vector<LineCounts>& line_counts() const { return line_counts_; }  // per rules().lines
  const std::vector<ZoneCounts>& zone_counts() const { return zone_counts_; }  // per rules().zones

  // The stream ended or goes on from elsewhere: every track ends (zone exits, overcrowd ends, in
  // events()); cumulative counts are kept.
  void end_tracks(std::int64_t time);

  ~SceneAnalytics();
  SceneAnalytics(const SceneAnalytics&) = delete;
  SceneAnalytics& operator=(const SceneAnalytics&) = delete;

 private:
  struct State;  // per-track and per-rule state (scene.cpp)
  void end_slots(std::int64_t time);  // ends State::ending's tracks: their zone exits, by track id
  void overcrowd(std::int64_t time);  // the zones' overcrowd starts and ends
  void fill_occupancy();              // each zone event's occupancy: its zone's count after the update
  Options options_;
  Rules rules_;
  std::vector<Event> events_;
  std::vector<LineCounts> line_counts_;
  std::vector<ZoneCounts> zone_counts_;
  std::unique_ptr<State> state_;
};

}  // namespace ccl::scene
