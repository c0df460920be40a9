#include "tracker/tracker.hpp"

#include <algorithm>
#include <cmath>

namespace ccl::track {

namespace {

// A track left unmatched costs as much as the worst pair (costs are in [0, 2], the direction term
// adds up to half the direction weight).
constexpr double kUnmatched = 2.5;
// The direction a track moves in is taken over this many matches (OC-SORT's delta t).
constexpr std::uint32_t kDirectionSpan = 3;
constexpr float kPi = 3.14159265358979f;
// Weak detections continue a track only on a clear overlap (ByteTrack's second stage).
constexpr float kWeakMinIou = 0.5f;
// A track hidden in a merged blob ends after this many times max_misses frames all the same (a
// blob that never parts, or a track that was never in it).
constexpr std::uint32_t kHiddenLimit = 3;

Options sanitized(Options o) {
  o.min_hits = std::max<std::uint32_t>(o.min_hits, 1);
  o.min_iou = std::clamp(o.min_iou, 1e-6f, 1.0f);  // IoU 0 would pair boxes that do not touch
  o.gate = std::max(o.gate, 0.0f);
  o.low_score = std::min(o.low_score, o.high_score);
  o.direction_weight = std::clamp(o.direction_weight, 0.0f, 1.0f);
  return o;
}

// acos to within 7e-5 rad (Abramowitz and Stegun 4.4.45): the libm call cost more than the rest of
// a pair's direction term, and the term needs no more precision.
float fast_acos(float x) {
  const float a = std::fabs(x);
  const float r = std::sqrt(1 - a) * (1.5707288f + a * (-0.2121144f + a * (0.0742610f - 0.0187293f * a)));
  return x >= 0 ? r : kPi - r;
}

Box lerp(const Box& a, const Box& b, float s) {
  return {a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s, a.width + (b.width - a.width) * s, a.height + (b.height - a.height) * s};
}

}  // namespace

Tracker::Tracker(const Options& options) : options_(sanitized(options)) {}

void Tracker::set_options(const Options& options) { options_ = sanitized(options); }

void Tracker::reset() {
  events_.clear();
  for (const Track& t : tracks_)
    if (t.id != 0) events_.push_back(Event{Event::Kind::Ended, t.id, t.first_time, t.last_time, t.box});
  tracks_.clear();
  trail_store_.clear();
  free_slots_.clear();
}

std::uint32_t Tracker::take_id() {
  const std::uint32_t id = next_id_++;
  if (next_id_ == 0) next_id_ = 1;  // 0 means "no track"; 2^32 - 1 confirmations later ids wrap
  return id;
}

std::uint32_t Tracker::take_trail_slot() {
  if (!free_slots_.empty()) {
    const std::uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    return slot;
  }
  trail_store_.resize(trail_store_.size() + kTrailLength);
  return std::uint32_t(trail_store_.size() / kTrailLength - 1);
}

void Tracker::add_trail_point(Track& t, const Detection& d, std::int64_t time) {
  const std::uint32_t at = (t.trail_head + t.trail_size) % kTrailLength;
  trail_store_[std::size_t(t.trail_slot) * kTrailLength + at] = {d.centroid_x, d.centroid_y, time, d.box};
  if (t.trail_size < kTrailLength)
    ++t.trail_size;
  else
    t.trail_head = (t.trail_head + 1) % kTrailLength;
}

// The direction from the centroid kDirectionSpan matches back (or the oldest kept) to the last one;
// false while the track has not moved (or has one point).
bool Tracker::direction_of(const Track& t, float* ux, float* uy) const {
  if (t.trail_size < 2) return false;
  const std::uint32_t back = std::min(kDirectionSpan, t.trail_size - 1);
  const TrailPoint* ring = &trail_store_[std::size_t(t.trail_slot) * kTrailLength];
  const TrailPoint& from = ring[(t.trail_head + t.trail_size - 1 - back) % kTrailLength];
  const TrailPoint& to = ring[(t.trail_head + t.trail_size - 1) % kTrailLength];
  const float dx = to.x - from.x, dy = to.y - from.y, length = std::sqrt(dx * dx + dy * dy);
  if (!(length > 1e-3f)) return false;
  *ux = dx / length, *uy = dy / length;
  return true;
}

void Tracker::trail(const Track& track, std::vector<TrailPoint>* out) const {
  out->clear();
  for (std::uint32_t k = 0; k < track.trail_size; ++k)
    out->push_back(trail_store_[std::size_t(track.trail_slot) * kTrailLength + (track.trail_head + k) % kTrailLength]);
}

void Tracker::associate(const std::vector<int>& subset, float min_iou, bool use_gate, CandidateSearch& search) {
  if (query_track_.empty()) return;  // no pair: nothing to match
  // Written field by field: a Query built whole on the stack and copied stalled on the copy's
  // read of the smaller writes just made (no store-to-load forwarding across them).
  queries_.resize(query_track_.size());
  for (std::size_t k = 0; k < query_track_.size(); ++k) {
    // The centroid is expected where it was within the box (a component's centroid need not be
    // its box's centre).
    const Track& t = tracks_[std::size_t(query_track_[k])];
    const Box b = t.estimate();
    Query& q = queries_[k];
    q.box = b;
    q.centroid_x = b.center_x() + (t.centroid_x - t.box.center_x());
    q.centroid_y = b.center_y() + (t.centroid_y - t.box.center_y());
    q.gate_px = use_gate ? options_.gate * std::max({b.width, b.height, 1.0f}) : 0.0f;
  }
  free_detections_.clear();
  for (int j : subset)
    if (track_of_[std::size_t(j)] < 0) free_detections_.push_back(j);
  search.find(queries_, detections_, free_detections_, min_iou, &pairs_);
  // A pair alone on its track and its detection contests nothing: taken at once (most pairs are;
  // what Assignment::solve would do with it). The others go to the assignment.
  // OC-SORT's direction consistency: a contested pair whose step from the track's last centroid
  // agrees with the direction the track has been moving in costs up to weight/2 less, one against
  // it up to weight/2 more (scaled by the detection's score). Lone pairs are compared with nothing
  // but "unmatched" (which costs more than any pair): they need no direction term.
  const float weight = options_.direction_weight;
  pairs_of_track_.assign(queries_.size(), 0);
  matched_.assign(queries_.size(), -1);
  for (const Candidate& c : pairs_) ++pairs_of_track_[std::size_t(c.track)], ++pairs_of_detection_[std::size_t(c.detection)];
  // Lone pairs to matched_, the others kept (moved down in pairs_), without a branch on which
  // (about one pair in five is contested, in no order the CPU could learn). A lone pair's
  // detection has no other pair: its count is cleaned at once, the others' after.
  std::size_t n_contested = 0;
  for (std::size_t k = 0; k < pairs_.size(); ++k) {
    const Candidate c = pairs_[k];
    int& of_detection = pairs_of_detection_[std::size_t(c.detection)];
    const bool lone = (pairs_of_track_[std::size_t(c.track)] == 1) & (of_detection == 1);
    int& match = matched_[std::size_t(c.track)];
    match = lone & (c.cost < kUnmatched) ? c.detection : match;
    of_detection = lone ? 0 : of_detection;
    pairs_[n_contested] = c;
    n_contested += !lone;
  }
  pairs_.resize(n_contested);
  for (const Candidate& c : pairs_) pairs_of_detection_[std::size_t(c.detection)] = 0;  // clean for the next stage
  if (weight != 0)
    for (Candidate& c : pairs_) {
      const Track& t = tracks_[std::size_t(query_track_[std::size_t(c.track)])];
      float ux, uy;
      if (!direction_of(t, &ux, &uy)) continue;
      const Detection& d = detections_[c.detection];
      const float dx = d.centroid_x - t.centroid_x, dy = d.centroid_y - t.centroid_y;
      const float length = std::sqrt(dx * dx + dy * dy);
      if (!(length > 1e-3f)) continue;
      const float angle = fast_acos(std::clamp((dx * ux + dy * uy) / length, -1.0f, 1.0f));
      c.cost -= weight * (kPi / 2 - angle) / kPi * std::clamp(d.score, 0.0f, 1.0f);
    }
  take();
}

// Matches the contested pairs left in pairs_ (one Hungarian assignment per cluster) next to the
// lone ones already in matched_, and records every match (but a lost track's piece).
void Tracker::take() {
  if (!pairs_.empty()) {
    assignment_.solve(pairs_, int(queries_.size()), int(track_of_.size()), kUnmatched, &solved_);
    for (std::size_t k = 0; k < solved_.size(); ++k)
      if (solved_[k] >= 0) matched_[k] = solved_[k];
  }
  for (std::size_t k = 0; k < matched_.size(); ++k) {
    const int j = matched_[k];
    if (j < 0) continue;
    detection_of_[std::size_t(query_track_[k])] = j;
    track_of_[std::size_t(j)] = query_track_[k];
  }
  refuse_pieces();
}

// The match's motion update. A track found again after misses first has its model re-run from its
// last match along a straight line to the new box (OC-SORT's observation-centric re-update): the
// velocity it coasted on is replaced by the one the two observations imply.
void Tracker::match(Track& t, const Detection& d, std::int64_t time) {
  // Updated in a local copy, then stored to both filters: copying the just-updated t.filter read
  // back its fields over the smaller writes just made (no store-to-load forwarding: a stall).
  BoxFilter f = t.filter;
  if (t.misses > 0) {
    f = t.at_last_match;
    const float steps = float(t.misses + 1);
    for (std::uint32_t k = 1; k <= t.misses; ++k) {
      f.predict();
      f.update(lerp(t.box, d.box, float(k) / steps));
    }
    f.predict();
  }
  f.update(d.box);
  t.filter = f;
  t.at_last_match = f;
  t.box = d.box;
  t.centroid_x = d.centroid_x, t.centroid_y = d.centroid_y;
  t.last_time = time;
  add_trail_point(t, d, time);
}

void Tracker::update(const Detection* detections, std::size_t n, std::int64_t time, std::uint32_t* ids) {
  events_.clear();
  detections_ = detections;
  first_times_.resize(n);
  const std::size_t n_tracks = tracks_.size();

  // Detections by score: strong ones (and every unscored component) first, weak ones after.
  strong_.clear(), weak_.clear();
  for (std::size_t j = 0; j < n; ++j) {
    const float s = detections[j].score;
    if (s >= options_.high_score)
      strong_.push_back(int(j));
    else if (s >= options_.low_score)
      weak_.push_back(int(j));
  }
  detection_of_.assign(n_tracks, -1);
  track_of_.assign(n, -1);
  pairs_of_detection_.assign(n, 0);
  // Every track's prediction for this frame; the stages' tracks, ascending: confirmed and lost
  // ones ("established"), and tentative ones; and the lost ones. (One pass over the tracks.)
  established_.clear(), tentative_.clear(), lost_.clear();
  established_at_.resize(n_tracks);
  for (std::size_t i = 0; i < n_tracks; ++i) {
    Track& t = tracks_[i];
    t.filter.predict();
    established_at_[i] = t.state != TrackState::Tentative;
    (t.state == TrackState::Tentative ? tentative_ : established_).push_back(int(i));
    if (t.misses > 0) lost_.push_back(int(i));
  }
  // Those of `from` still unmatched (and confirmed, with only_confirmed), into query_track_.
  auto unmatched = [&](const std::vector<int>& from, bool only_confirmed) {
    query_track_.clear();
    for (int i : from)
      if (detection_of_[std::size_t(i)] < 0 && (!only_confirmed || tracks_[std::size_t(i)].state == TrackState::Confirmed))
        query_track_.push_back(i);
  };
  // 1. Confirmed and lost tracks' predictions against strong detections: first by overlap alone,
  //    then, for what is left, by overlap or centroid distance (the gate). A detection that overlaps
  //    a prediction goes to it before a track that is merely near (a fragment of another object);
  //    and the second search, over few tracks and detections, costs little.
  query_track_ = established_;
  associate(strong_, options_.min_iou, false, strong_search_);
  // Without a track to ask, stage 1's search still bins the strong detections: first_taken_near
  // reads its grid all frame (2,000 objects confirmed at once: 0.5 ms, not 5.3 by scans).
  if (established_.empty()) strong_search_.find({}, detections, strong_, options_.min_iou, &pairs_);
  unmatched(established_, false);
  if (options_.hidden_share > 0) hide_in_taken_blobs();
  associate(strong_, options_.min_iou, true, search_);
  // 2. Confirmed tracks still unmatched against weak detections (an occluded, low-score object).
  if (!weak_.empty()) {
    unmatched(established_, true);
    associate(weak_, kWeakMinIou, false, search_);
  }
  // 3. Tentative tracks against what strong detections are left: confirmed objects choose first,
  //    so a track started on noise cannot take a confirmed object's detection. (No stage before
  //    has matched a tentative track.)
  query_track_ = tentative_;
  associate(strong_, options_.min_iou, true, search_);

  // A track that loses its detection while its prediction lies mostly inside a detection another
  // track took has gone into a merged blob (objects that touch are one component): it is hidden,
  // not missing, and stays so while its prediction's centre stays in a detection another track
  // took (its velocity is stale: its box drifts half out over the blob's edge while its object is
  // still inside, and daylight lost such tracks). Hidden, its misses do not end it (up to
  // kHiddenLimit x max_misses) and its centre is held inside the blob, where its part will come
  // out. Only tracks matched last frame or hidden are tested (a few), each against the taken
  // detections near it.
  hidden_in_.assign(n_tracks, -1);
  merged_.clear();
  if (options_.hidden_share > 0)
    for (std::size_t i = 0; i < n_tracks; ++i) {
      const Track& t = tracks_[i];
      if (detection_of_[i] >= 0 || t.state == TrackState::Tentative || !(t.misses == 0 || t.hidden)) continue;
      const int j = blob_hiding(t);
      if (j < 0) continue;
      hidden_in_[i] = j;
      merged_.push_back(j);  // a detection that holds a hidden track is a merged blob
    }

  // Lifecycle, in track order; survivors move down in place, new tracks are appended after them.
  std::size_t kept = 0;
  // A survivor is moved down before it changes: moved after, its copy read back fields just
  // written in smaller pieces (no store-to-load forwarding: a stall per track).
  for (std::size_t i = 0; i < n_tracks; ++i) {
    const int j = detection_of_[i];
    if (j < 0) {
      const Track& t = tracks_[i];
      const bool hidden = hidden_in_[i] >= 0;
      const bool gone = hidden ? t.misses + 1 > kHiddenLimit * options_.max_misses : t.exposed_misses + 1 > options_.max_misses;
      if (t.state == TrackState::Tentative || gone) {  // (misses + 1 wraps as ++misses would)
        if (t.id != 0) events_.push_back(Event{Event::Kind::Ended, t.id, t.first_time, t.last_time, t.box});
        free_slots_.push_back(t.trail_slot);
        continue;
      }
    }
    if (kept != i) tracks_[kept] = tracks_[i];
    Track& t = tracks_[kept];
    if (j < 0) {
      ++t.misses;
      const bool was_hidden = t.hidden;
      t.hidden = t.grouped = hidden_in_[i] >= 0;
      t.detection = hidden_in_[i];
      if (t.hidden) {
        hide_in(t, detections[hidden_in_[i]].box, was_hidden);
      } else {
        ++t.exposed_misses;
      }
      if (t.state == TrackState::Confirmed) {
        t.state = TrackState::Lost;
        events_.push_back(Event{Event::Kind::Lost, t.id, t.first_time, t.last_time, t.box});
      }
    } else {
      // In a merged blob the track is measured at its part of it: the blob's box would grow it
      // over the hidden tracks' objects.
      const bool was_grouped = t.grouped;
      t.grouped = in_merge(t, j);
      t.detection = j;
      const Detection* d = &detections[j];
      Detection part;
      if (t.grouped) {
        part = part_in(t, *d, was_grouped);
        d = &part;
      }
      t.shown = d->box;
      match(t, *d, time);
      t.misses = t.exposed_misses = 0;
      t.hidden = false;
      ++t.hits;
      if (t.state == TrackState::Lost) {
        t.state = TrackState::Confirmed;
        events_.push_back(Event{Event::Kind::Reacquired, t.id, t.first_time, time, t.box});
      } else if (t.state == TrackState::Tentative && t.hits >= options_.min_hits && !inside_another(j)) {
        t.state = TrackState::Confirmed;
        t.id = take_id();
        events_.push_back(Event{Event::Kind::Started, t.id, t.first_time, time, t.box});
      }
      ids[j] = t.id;
      first_times_[std::size_t(j)] = t.first_time;
    }
    ++kept;
  }
  tracks_.resize(kept);

  // Strong detections no track took start tentative tracks (confirmed at once when min_hits is 1);
  // every other unmatched detection gets id 0.
  for (std::size_t j = 0; j < n; ++j) {
    if (track_of_[j] >= 0) continue;
    ids[j] = 0;
    first_times_[j] = time;
    if (detections[j].score < options_.high_score) continue;
    const Detection& d = detections[j];
    Track t;
    t.box = t.shown = d.box;
    t.detection = std::int32_t(j);
    t.centroid_x = d.centroid_x, t.centroid_y = d.centroid_y;
    t.filter.start(d.box);
    t.at_last_match = t.filter;
    t.hits = 1;
    t.first_time = t.last_time = time;
    t.trail_slot = take_trail_slot();
    add_trail_point(t, d, time);
    if (options_.min_hits <= 1) {
      t.state = TrackState::Confirmed;
      t.id = take_id();
      events_.push_back(Event{Event::Kind::Started, t.id, time, time, t.box});
      ids[j] = t.id;
    }
    tracks_.push_back(t);
  }
}

}  // namespace ccl::track
