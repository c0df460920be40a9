#include "tracker/greedy_assignment.hpp"

#include <algorithm>
#include <cstring>

namespace ccl::track {

namespace {

// The greedy order: cost, then the older track, then the earlier detection.
bool before(const Candidate& a, const Candidate& b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  if (a.track != b.track) return a.track < b.track;
  return a.detection < b.detection;
}

// Rounds of "take the locally first pairs" before the rest is sorted (each round takes at least one
// pair, usually most of what is left; chains of contested pairs need one round per link).
constexpr int kMaxRounds = 8;

// A pair's keys, (cost bits, detection) for its track and (cost bits, track) for its detection: with
// costs >= 0 (not NaN) the bits order as unsigned integers, so a minimum of keys is the first pair.
inline void keys(const Candidate& c, std::uint64_t* by_track, std::uint64_t* by_detection) {
  std::uint32_t bits;
  std::memcpy(&bits, &c.cost, 4);
  *by_track = (std::uint64_t(bits) << 32) | std::uint32_t(c.detection);
  *by_detection = (std::uint64_t(bits) << 32) | std::uint32_t(c.track);
}

// Every track's and detection's first key over c[0 .. count), as minimums into key_of_track /
// key_of_detection; true when a cost is not ordered (negative or NaN: then the keys mean nothing).
// The arrays by value (a function, not a lambda capturing by reference): otherwise every pointer is
// reloaded after every store.
bool find_firsts(const Candidate* c, std::size_t count, std::uint64_t* key_of_track, std::uint64_t* key_of_detection) {
  std::uint64_t largest = 0;  // the unordered costs' bits are the largest: one maximum finds them
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t kt, kd;
    keys(c[i], &kt, &kd);
    largest = std::max(largest, kt);
    key_of_track[c[i].track] = std::min(key_of_track[c[i].track], kt);
    key_of_detection[c[i].detection] = std::min(key_of_detection[c[i].detection], kd);
  }
  return (largest >> 32) > 0x7f800000u;
}

}  // namespace

void GreedyAssignment::assign(Candidate* candidates, std::size_t n_candidates, std::size_t n_tracks,
                              std::size_t n_detections) {
  detection_of_track_.assign(n_tracks, -1);
  track_of_detection_.assign(n_detections, -1);
  // -1 everywhere between calls (each round puts back what it set), so only growth is filled.
  if (best_of_track_.size() < n_tracks) best_of_track_.resize(n_tracks, -1);
  if (best_of_detection_.size() < n_detections) best_of_detection_.resize(n_detections, -1);
  std::int32_t* const dot = detection_of_track_.data();
  std::int32_t* const tod = track_of_detection_.data();
  std::int32_t* const bot = best_of_track_.data();
  std::int32_t* const bod = best_of_detection_.data();

  // A pair that comes first among every pair of its track and of its detection is matched by the
  // greedy pass whatever precedes it, and the pairs it excludes would be skipped by the greedy pass
  // anyway: so the greedy result is those pairs plus the greedy result over the pairs left. Rounds
  // of that, then (rarely) the plain greedy pass over the sorted rest.
  std::size_t m = n_candidates;
  // Costs are >= 0 (not NaN): their bits then order as unsigned integers, so (cost, detection) and
  // (cost, track) pack into 64-bit keys and the per-track / per-detection firsts are branch-free
  // minimums. Otherwise (never from the grid's tests) the rounds compare with before().
  constexpr std::uint64_t kNone = ~std::uint64_t(0);
  if (key_of_track_.size() < n_tracks) key_of_track_.resize(n_tracks, kNone);
  if (key_of_detection_.size() < n_detections) key_of_detection_.resize(n_detections, kNone);
  std::uint64_t* const kot = key_of_track_.data();  // kNone everywhere between calls
  std::uint64_t* const kod = key_of_detection_.data();
  // The first round, which takes nearly every pair: the firsts in one pass over the pairs, then the
  // takes in one pass over the tracks: a track's first pair is taken when it is also its detection's
  // first.
  if (find_firsts(candidates, m, kot, kod)) {
    for (std::size_t i = 0; i < m; ++i) kot[candidates[i].track] = kNone, kod[candidates[i].detection] = kNone;
  } else {
    for (std::size_t t = 0; t < n_tracks; ++t) {
      const std::uint64_t k = kot[t];
      if (k == kNone) continue;  // no pair
      const std::uint32_t d = std::uint32_t(k);
      if (kod[d] == ((k & ~std::uint64_t(0xffffffffu)) | t)) dot[t] = std::int32_t(d), tod[d] = std::int32_t(t);
    }
    std::fill(kot, kot + n_tracks, kNone);  // a fill, not a store per track in the loop
    std::fill(kod, kod + n_detections, kNone);
    // The pairs left open, few: a branch that is nearly always taken the same way beats a store per pair.
    std::size_t open = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const Candidate& c = candidates[i];
      if (dot[c.track] >= 0 || tod[c.detection] >= 0) continue;
      candidates[open++] = c;
    }
    m = open;
    // Later rounds over the few pairs left, by pair.
    for (int round = 1; m > 0 && round < kMaxRounds; ++round) {
      find_firsts(candidates, m, kot, kod);  // the costs were checked in the first round
      for (std::size_t i = 0; i < m; ++i) {
        const Candidate& c = candidates[i];
        std::uint64_t kt, kd;
        keys(c, &kt, &kd);
        const bool take = (kot[c.track] == kt) & (kod[c.detection] == kd);
        dot[c.track] = take ? c.detection : dot[c.track];
        tod[c.detection] = take ? c.track : tod[c.detection];
      }
      open = 0;
      for (std::size_t i = 0; i < m; ++i) {
        const Candidate c = candidates[i];
        kot[c.track] = kNone, kod[c.detection] = kNone;
        candidates[open] = c;
        open += (dot[c.track] < 0) & (tod[c.detection] < 0);
      }
      m = open;
    }
  }
  for (int round = 0; m > 0 && round < kMaxRounds; ++round) {
    for (std::size_t i = 0; i < m; ++i) {
      const Candidate& c = candidates[i];
      std::int32_t& bt = bot[c.track];
      std::int32_t& bd = bod[c.detection];
      if (bt < 0 || before(c, candidates[bt])) bt = std::int32_t(i);
      if (bd < 0 || before(c, candidates[bd])) bd = std::int32_t(i);
    }
    for (std::size_t i = 0; i < m; ++i) {
      const Candidate& c = candidates[i];
      if (bot[c.track] == std::int32_t(i) && bod[c.detection] == std::int32_t(i)) {
        dot[c.track] = c.detection;
        tod[c.detection] = c.track;
      }
    }
    std::size_t open = 0;
    for (std::size_t i = 0; i < m; ++i) {
      const Candidate c = candidates[i];
      bot[c.track] = -1, bod[c.detection] = -1;
      if (dot[c.track] < 0 && tod[c.detection] < 0) candidates[open++] = c;
    }
    m = open;
  }
  if (m == 0) return;
  std::sort(candidates, candidates + m, before);
  for (std::size_t i = 0; i < m; ++i) {
    const Candidate& c = candidates[i];
    if (dot[c.track] >= 0 || tod[c.detection] >= 0) continue;
    dot[c.track] = c.detection;
    tod[c.detection] = c.track;
  }
}

}  // namespace ccl::track
