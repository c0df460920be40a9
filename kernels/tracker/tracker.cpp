#include "tracker/tracker.hpp"

#include <emmintrin.h>  // SSE2: every x86-64

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace ccl::track {

namespace {

// Added to the cost of tentative tracks' pairs (costs are in [0, 2]): confirmed tracks choose first,
// so a fresh track started on noise cannot take a confirmed object's component.
constexpr float kTentativePenalty = 2;
// Weight of the newest displacement in the velocity estimate.
constexpr float kVelocitySmoothing = 0.5f;

// The prediction loads a track's (x, y, w, h) and (cx, cy, vx, vy) as one four-wide row each.
static_assert(offsetof(Track, box) + 16 == offsetof(Track, centroid_x) && offsetof(Track, centroid_y) == offsetof(Track, centroid_x) + 4 &&
                  offsetof(Track, velocity_x) == offsetof(Track, centroid_x) + 8 &&
                  offsetof(Track, velocity_y) == offsetof(Track, centroid_x) + 12,
              "Track's box, centroid and velocity must be contiguous");
// A match writes hits and misses as one 64-bit word, hits in the low half (x86 is little-endian).
static_assert(offsetof(Track, misses) == offsetof(Track, hits) + 4, "Track's hits and misses must be adjacent");

Options sanitized(Options o) {
  o.min_hits = std::max<std::uint32_t>(o.min_hits, 1);
  // IoU 0 would pair every box met in a grid cell: the candidate set would depend on the grid.
  o.min_iou = std::clamp(o.min_iou, 1e-6f, 1.0f);
  o.gate = std::max(o.gate, 0.0f);
  return o;
}

}  // namespace

Tracker::Tracker(const Options& options) : options_(sanitized(options)) {}

void Tracker::set_options(const Options& options) { options_ = sanitized(options); }

void Tracker::reset() {
  events_.clear();
  for (const Track& t : tracks_)
    if (t.id != 0) events_.push_back(Event{Event::Kind::Ended, t.id, t.first_time, t.last_time, t.box});
  tracks_.clear();
}

std::uint32_t Tracker::take_id() {
  const std::uint32_t id = next_id_++;
  if (next_id_ == 0) next_id_ = 1;  // 0 means "no track"; 2^32 - 1 confirmations later ids wrap
  return id;
}

void Tracker::update(const Detection* detections, std::size_t n, std::int64_t time, std::uint32_t* ids) {
  events_.clear();
  first_times_.resize(n);  // every detection's id and first time is written below, matched or not

  // The tracks and options as locals in the loops: members would be reloaded after every store.
  Track* const tracks = tracks_.data();
  const std::size_t n_tracks = tracks_.size();
  const float gate = options_.gate;
  // Constant velocity: a track that missed m frames is expected m + 1 steps past its last match.
  // Four-wide: (x, y, w, h) + (dx, dy, 0, 0) and (cx, cy, vx, vy) + (dx, dy, 0, 0), the scalar sums.
  RegionPass regions = grid_.regions(n_tracks);
  const __m128 zero = _mm_setzero_ps();
  for (std::size_t i = 0; i < n_tracks; ++i) {
    const Track& t = tracks[i];
    const __m128 motion = _mm_loadu_ps(&t.centroid_x);  // cx cy vx vy
    const __m128 shift = _mm_mul_ps(_mm_movehl_ps(zero, motion), _mm_set1_ps(float(t.misses + 1)));
    const __m128 box = _mm_add_ps(_mm_loadu_ps(&t.box.x), shift);
    const float gate_px = gate * std::max({t.box.width, t.box.height, 1.0f});
    const __m128 rest = _mm_unpacklo_ps(_mm_set_ss(gate_px), _mm_set_ss(t.id == 0 ? kTentativePenalty : 0.0f));
    regions.add(i, box, _mm_movelh_ps(_mm_add_ps(motion, shift), rest));
  }

  // A copy goes out: were the pass's own address taken, its sums would live in memory in the loop.
  const RegionPass done = regions;
  const std::size_t n_pairs = grid_.find_predicted(done, detections, n, options_.min_iou);
  assignment_.assign(grid_.pairs(), n_pairs, n_tracks, n);
  const std::int32_t* const detection_of_track = assignment_.detection_of_track().data();
  const std::int32_t* const track_of_detection = assignment_.track_of_detection().data();
  std::int64_t* const first_times = first_times_.data();
  const std::uint32_t min_hits = options_.min_hits, max_misses = options_.max_misses;

  // Survivors move down in place (same order), new tracks are appended after them.
  std::size_t kept = 0, matched = 0;
  for (std::size_t i = 0; i < n_tracks; ++i) {
    Track& t = tracks[i];
    const std::int32_t j = detection_of_track[i];
    if (j < 0) {
      if (t.id == 0) continue;  // tentative tracks need consecutive matches
      if (++t.misses > max_misses) {
        events_.push_back(Event{Event::Kind::Ended, t.id, t.first_time, t.last_time, t.box});
        continue;
      }
      if (kept != i) tracks[kept] = t;
      ++kept;
      continue;
    }
    // The match, four-wide so the track takes four stores: box; centroid and velocity; hits and
    // misses; time. The velocity is the scalar (seen - last) / steps, smoothed as v + k (new - v).
    const Detection& d = detections[j];
    const __m128 motion = _mm_loadu_ps(&t.centroid_x);  // cx cy vx vy
    const __m128 seen = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(&d.centroid_x)));  // cx cy 0 0
    const __m128 step = _mm_div_ps(_mm_sub_ps(seen, motion), _mm_set1_ps(float(t.misses + 1)));
    const __m128 last = _mm_movehl_ps(motion, motion);  // vx vy vx vy
    const bool first_step = t.hits == 1;  // no velocity estimate yet
    const __m128 velocity =
        first_step ? step : _mm_add_ps(last, _mm_mul_ps(_mm_set1_ps(kVelocitySmoothing), _mm_sub_ps(step, last)));
    _mm_storeu_ps(&t.box.x, _mm_loadu_ps(&d.box.x));
    _mm_storeu_ps(&t.centroid_x, _mm_movelh_ps(seen, velocity));
    const std::uint64_t hits_and_no_misses = std::uint32_t(t.hits + 1);
    std::memcpy(&t.hits, &hits_and_no_misses, sizeof hits_and_no_misses);
    t.last_time = time;
    if (t.id == 0 && t.hits >= min_hits) {
      t.id = take_id();
      events_.push_back(Event{Event::Kind::Started, t.id, t.first_time, time, t.box});
    }
    ids[j] = t.id;
    first_times[j] = t.first_time;
    if (kept != i) tracks[kept] = t;
    ++kept, ++matched;
  }
  tracks_.resize(kept);

  // Every unmatched detection starts a tentative track (confirmed at once when min_hits is 1); often
  // there is none.
  for (std::size_t j = 0; matched < n && j < n; ++j) {
    if (track_of_detection[j] >= 0) continue;
    const Detection& d = detections[j];
    Track t;
    t.box = d.box;
    t.centroid_x = d.centroid_x, t.centroid_y = d.centroid_y;
    t.hits = 1;
    t.first_time = t.last_time = time;
    if (options_.min_hits <= 1) {
      t.id = take_id();
      events_.push_back(Event{Event::Kind::Started, t.id, time, time, t.box});
    }
    ids[j] = t.id;
    first_times_[j] = time;  // a detection that starts a track is its first
    tracks_.push_back(t);
  }
}

}  // namespace ccl::track
