// Objects that touch are one component: the tracker's rules for merged blobs (tracks hidden in
// them, the parts of them each track is measured and shown at) and for pieces of an object (a
// texture cell cut out of it, a sliver of a covered one) that must not become or feed tracks.
// Tracker's member functions, apart from its stages and lifecycle (tracker.cpp); every figure
// below is from kernels/tracker/README.md's studies.
#include <algorithm>
#include <cmath>

#include "tracker/tracker.hpp"

namespace ccl::track {

namespace {

// Whether box b holds the centre of box e (edges included).
bool holds_centre(const Box& b, const Box& e) {
  const float x = e.center_x(), y = e.center_y();
  return x >= b.x && x <= b.x + b.width && y >= b.y && y <= b.y + b.height;
}

// A detection taken larger than this share of its track's predicted area may hold another track.
constexpr float kGrown = 1.2f;
// A hidden track is shown no smaller than this share of its usual (trail's median) size: daylight
// MOTA 0.724 / 0.735 -> 0.742 / 0.753 (seeds 1 / 2); 0.9 the same, 1.0 PETS09 id switches 22 -> 26.
// The track taking a merged blob is measured at its part no smaller than this too; since then 0.9
// (element test 0.813 / 0.795 -> 0.814 / 0.800, held-out seeds 3-6 all better: 0.898 / 0.803 /
// 0.455 / 0.795 -> 0.900 / 0.809 / 0.463 / 0.798; PETS09 HOTA 48.0 -> 48.1, IDF1 71.4 -> 71.5, MOTA
// 66.7 -> 66.8); 0.85 and 0.95 harness seed 2 0.798 / 0.799, 1.0 PETS09 HOTA 46.3, IDsw 30.
constexpr float kLeastUsualSize = 0.9f;
// A tentative track whose detection lies this much inside a detection an established track took
// is a piece of that object: not confirmed (daylight MOTA seed 2 0.753 -> 0.769; PETS09 unchanged).
// 0.4, not 0.9: texture cells cut out at the edge of their object's component stick out of its box
// (seen 44 % inside), were confirmed and then hidden in the object's blob, a false track for 15-20
// frames (daylight harness, seeds 1 / 2, with the rules below: 0.808 / 0.797 -> 0.813 / 0.797; 0.3
// the same, 0.5 0.808; PETS09 unchanged).
constexpr float kInsideShare = 0.4f;
// A lost track does not take a detection smaller than this share of its usual area (the trail's
// median width x height): a piece of an object (a texture cell, a sliver of a partly covered one),
// whose box would collapse its model to a few pixels (and a lost track's gate, grown with its
// coasting size, reaches far): daylight harness 0.799 / 0.789 -> 0.813 / 0.797 with the other rules
// (0.1: 0.797 / 0.797; 0.3 and 0.4 as 0.2; alone 0.790 / 0.782 -> 0.796 / 0.789; PETS09 unchanged).
constexpr float kLeastLostArea = 0.2f;
// A track that was in a merged blob (hidden, or measured at its part) and now takes alone a
// detection larger than this many times its usual area is still in a merge whose other tracks were
// lost: measured at its part, not grown to the blob (daylight harness 0.799 / 0.797 -> 0.813 / 0.797
// with the other rules; 1.5: seed 2 0.759; 3: seed 1 0.801; PETS09 unchanged).
constexpr float kMergedArea = 2.0f;
// A track going hidden coasts on the velocity of its trail's boxes of its usual size (within this
// share of the median), taken over at least kSteadySpan frames: daylight MOTA 0.742 / 0.769 ->
// 0.766 / 0.773 (harness); PETS09 HOTA 46.4, IDF1 69.0 (span 2: IDF1 66.4).
constexpr float kSteadySize = 0.1f;
constexpr std::uint32_t kSteadySpan = 6;

// A track's part of a merged blob: its predicted box, no larger than the blob, moved the least that
// puts it inside.
Box part_of(const Box& predicted, const Box& blob) {
  const float w = std::min(predicted.width, blob.width), h = std::min(predicted.height, blob.height);
  return {std::clamp(predicted.x, blob.x, blob.x + blob.width - w), std::clamp(predicted.y, blob.y, blob.y + blob.height - h), w, h};
}

}  // namespace

// The median width and height of the track's trail's boxes: its usual size.
void Tracker::usual_size(const Track& t, float* width, float* height) const {
  float widths[kTrailLength], heights[kTrailLength];
  const TrailPoint* ring = &trail_store_[std::size_t(t.trail_slot) * kTrailLength];
  const std::uint32_t n = t.trail_size;  // >= 1: every track has its first match
  for (std::uint32_t k = 0; k < n; ++k) widths[k] = ring[k].box.width, heights[k] = ring[k].box.height;
  std::nth_element(widths, widths + n / 2, widths + n), std::nth_element(heights, heights + n / 2, heights + n);
  *width = widths[n / 2], *height = heights[n / 2];
}

float Tracker::usual_area(const Track& t) const {
  float width, height;
  usual_size(t, &width, &height);
  return width * height;
}

// The track's estimate, no narrower or lower than kLeastUsualSize x the median width and height
// of its trail's boxes. A hidden track's Kalman size runs on with the size velocity it had as it
// went into the blob (its box shrinking as the other object covered it: seen down to 1 x 1
// pixel), while the object keeps its size. (At the trail's largest size, daylight gains as much
// but PETS09-S2L1 loses: MOTA 67.0 -> 65.6, id switches 22 -> 30.)
Box Tracker::no_smaller_than_usual(const Track& t) const {
  float usual_width, usual_height;
  usual_size(t, &usual_width, &usual_height);
  const Box e = t.estimate();
  const float width = std::max(e.width, kLeastUsualSize * usual_width);
  const float height = std::max(e.height, kLeastUsualSize * usual_height);
  return {e.center_x() - width / 2, e.center_y() - height / 2, width, height};
}

// The lowest index of a detection a track took that `holds(j)`, among those that may meet `box`:
// the strong ones from stage 1's grid and every weak one (no other is ever taken). Among all taken
// ones when `anywhere` (a `holds` that an empty overlap can pass), or when stage 1 binned none (no
// finite strong detection). -1 when none.
template <class Holds>
int Tracker::first_taken_near(const Box& box, bool anywhere, Holds holds) {
  int first = -1;
  auto consider = [&](int j) {
    if ((first < 0 || j < first) && track_of_[std::size_t(j)] >= 0 && holds(j)) first = j;
  };
  if (anywhere || !strong_search_.ready()) {
    for (std::size_t j = 0; j < track_of_.size(); ++j) consider(int(j));
    return first;
  }
  near_.clear();
  strong_search_.near(box, &near_);
  for (int j : near_) consider(j);
  for (int j : weak_) consider(j);
  return first;
}

// Whether detection j's box lies (kInsideShare of it) inside the box of another detection an
// established track took: then it is a piece of that track's object (a texture cell the foreground
// cut out of it, for a few frames), not an object of its own, and its tentative track is not
// confirmed until it leaves that box. (Once confirmed, such a piece was hidden in its object's
// blob for up to kHiddenLimit x max_misses frames, a false track all along.)
bool Tracker::inside_another(int j) {
  const Box& b = detections_[j].box;
  const float need = kInsideShare * area_of(b);
  return first_taken_near(b, !(need > 0), [&](int k) {
           return k != j && intersection(b, detections_[k].box) >= need &&
                  established_at_[std::size_t(track_of_[std::size_t(k)])];
         }) >= 0;
}

// The velocity of the track's box centre from the oldest to the newest of its trail's boxes that
// have its usual size (within kSteadySize of the median width and height): views of the whole
// object, not of a part covered by another or cut by the frame's edge, whose centre moves slower
// than the object (at half its speed while it enters). False without two such boxes at least
// kSteadySpan frames apart. Frames are counted in the least time step between two of the trail's
// points (one frame: a confirmed track had consecutive matches), as the trail keeps the caller's
// times, not frame numbers.
bool Tracker::steady_velocity(const Track& t, float* vx, float* vy) const {
  float mw, mh;
  usual_size(t, &mw, &mh);
  const TrailPoint* ring = &trail_store_[std::size_t(t.trail_slot) * kTrailLength];
  const std::uint32_t n = t.trail_size;
  const TrailPoint* first = nullptr;
  const TrailPoint* last = nullptr;
  std::int64_t frame = 0;  // the least positive time step
  for (std::uint32_t k = 0; k < n; ++k) {
    const TrailPoint& p = ring[(t.trail_head + k) % kTrailLength];
    if (k > 0) {
      const std::int64_t step = p.time - ring[(t.trail_head + k - 1) % kTrailLength].time;
      if (step > 0 && (frame == 0 || step < frame)) frame = step;
    }
    if (std::fabs(p.box.width - mw) > kSteadySize * mw || std::fabs(p.box.height - mh) > kSteadySize * mh) continue;
    if (!first) first = &p;
    last = &p;
  }
  if (!first || frame == 0) return false;
  const float steps = float((last->time - first->time) / frame);
  if (steps < float(kSteadySpan)) return false;
  *vx = (last->box.center_x() - first->box.center_x()) / steps;
  *vy = (last->box.center_y() - first->box.center_y()) / steps;
  return true;
}

// A lost track refuses a piece of an object: the match is undone, the detection left to the
// stages after (a track matched in an earlier stage passes again). The frame's lost tracks are
// listed once: testing every match here cost ~1.5 us at 2,000 components; a refusal is rare.
void Tracker::refuse_pieces() {
  for (int i : lost_) {
    const int j = detection_of_[std::size_t(i)];
    if (j < 0 || !(area_of(detections_[j].box) < kLeastLostArea * usual_area(tracks_[std::size_t(i)]))) continue;
    detection_of_[std::size_t(i)] = track_of_[std::size_t(j)] = -1;
  }
}

// Between stage 1's passes: a track left unmatched whose prediction lies mostly inside a detection
// the overlap pass gave another track has gone into a merged blob: it is not offered to the gate
// (the frame's end finds it hidden there), where it took a nearby piece or another object entering
// the frame beside it (its id moved to another object). Only detections taken larger than their
// track's prediction (merges look so: a few a frame) are looked in.
void Tracker::hide_in_taken_blobs() {
  // (Only the overlap pass has run: a taken detection is one it took; its track's estimate is
  // the pass's query.)
  std::size_t left = 0;
  for (int i : query_track_) {
    const Track& t = tracks_[std::size_t(i)];
    bool in = false;
    if (t.misses == 0 || t.hidden) {
      const Box e = t.estimate();
      const float need = options_.hidden_share * area_of(e);
      in = first_taken_near(e, !(need > 0), [&](int j) {
             const Box& blob = detections_[j].box;
             return area_of(blob) > kGrown * area_of(tracks_[std::size_t(track_of_[std::size_t(j)])].estimate()) &&
                    intersection(e, blob) >= need;
           }) >= 0;
    }
    if (!in) query_track_[left++] = i;
  }
  query_track_.erase(query_track_.begin() + std::ptrdiff_t(left), query_track_.end());
}

// The taken detection an unmatched track's prediction lies in (hidden_share of it, or, already
// hidden, its centre): the merged blob it is hidden in, or -1.
int Tracker::blob_hiding(const Track& t) {
  const Box e = t.estimate();
  const float need = options_.hidden_share * area_of(e);
  return first_taken_near(e, !(need > 0), [&](int k) {
    return intersection(e, detections_[k].box) >= need || (t.hidden && holds_centre(detections_[k].box, e));
  });
}

// Hides t in `blob` this frame: its centre held inside, its part of the blob shown. Going into
// the blob, it coasts on its steady velocity: the Kalman velocity has followed its box's centre
// as the other object covered part of it.
void Tracker::hide_in(Track& t, const Box& blob, bool was_hidden) {
  t.filter.cx = std::clamp(t.filter.cx, blob.x, blob.x + blob.width);
  t.filter.cy = std::clamp(t.filter.cy, blob.y, blob.y + blob.height);
  float vx, vy;
  if (!was_hidden && steady_velocity(t, &vx, &vy)) t.filter.vx = vx, t.filter.vy = vy;
  t.shown = part_of(no_smaller_than_usual(t), blob);
}

// Whether t, matched to detection j, is in a merged blob: j holds a hidden track, or t was in a
// merge (hidden, or measured at its part) and j is far larger than it (the merge's other tracks
// were lost). Reads t's flags of the frame before.
bool Tracker::in_merge(const Track& t, int j) const {
  // (merged_ holds a few detections: a search costs less than a per-detection flag.)
  if (!merged_.empty() && std::find(merged_.begin(), merged_.end(), j) != merged_.end()) return true;
  return (t.hidden || t.grouped) && area_of(detections_[j].box) > kMergedArea * usual_area(t);
}

// The part of merged detection d that t is measured at: its prediction no smaller than its usual
// size (its Kalman size shrank on while it was hidden, and measured at that part it learned the
// shrinking anew, down to a sliver: daylight harness 0.813 / 0.766 -> 0.813 / 0.797 with the other
// rules; PETS09 IDsw 22 -> 20), moved inside d. Measured at its part, which is its prediction, its
// motion is no longer corrected while the merge lasts: entering it, the track takes its steady
// velocity, like a hidden one, and keeps its size.
Detection Tracker::part_in(Track& t, const Detection& d, bool was_grouped) {
  Detection part = d;
  part.box = part_of(no_smaller_than_usual(t), d.box);
  float vx, vy;
  if (!was_grouped && steady_velocity(t, &vx, &vy)) t.filter.vx = vx, t.filter.vy = vy, t.filter.vw = t.filter.vh = 0;
  part.centroid_x = part.box.center_x(), part.centroid_y = part.box.center_y();
  return part;
}

}  // namespace ccl::track
