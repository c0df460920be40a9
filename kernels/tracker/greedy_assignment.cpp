#include "tracker/greedy_assignment.hpp"

#include <algorithm>

namespace ccl::track {

namespace {

// The greedy order: cost, then the older track, then the earlier detection.
bool before(const Candidate& a, const Candidate& b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  if (a.track != b.track) return a.track < b.track;
  return a.detection < b.detection;
}

}  // namespace

void GreedyAssignment::assign(Candidate* candidates, std::size_t n_candidates, std::size_t n_tracks,
                              std::size_t n_detections) {
  detection_of_track_.assign(n_tracks, -1);
  track_of_detection_.assign(n_detections, -1);
  best_of_track_.assign(n_tracks, -1);
  best_of_detection_.assign(n_detections, -1);
  const std::int32_t n = std::int32_t(n_candidates);
  for (std::int32_t i = 0; i < n; ++i) {
    const Candidate& c = candidates[std::size_t(i)];
    std::int32_t& bt = best_of_track_[std::size_t(c.track)];
    std::int32_t& bd = best_of_detection_[std::size_t(c.detection)];
    if (bt < 0 || before(c, candidates[std::size_t(bt)])) bt = i;
    if (bd < 0 || before(c, candidates[std::size_t(bd)])) bd = i;
  }
  // A pair that comes first among every pair of its track and of its detection is matched by the
  // greedy pass whatever precedes it: take those now and sort only the rest (usually a few per cent).
  for (std::int32_t i = 0; i < n; ++i) {
    const Candidate& c = candidates[std::size_t(i)];
    if (best_of_track_[std::size_t(c.track)] == i && best_of_detection_[std::size_t(c.detection)] == i) {
      detection_of_track_[std::size_t(c.track)] = c.detection;
      track_of_detection_[std::size_t(c.detection)] = c.track;
    }
  }
  std::size_t open = 0;
  for (std::size_t i = 0; i < n_candidates; ++i) {
    const Candidate c = candidates[i];
    if (detection_of_track_[std::size_t(c.track)] < 0 && track_of_detection_[std::size_t(c.detection)] < 0)
      candidates[open++] = c;
  }
  std::sort(candidates, candidates + open, before);
  for (std::size_t i = 0; i < open; ++i) {
    const Candidate& c = candidates[i];
    if (detection_of_track_[std::size_t(c.track)] >= 0 || track_of_detection_[std::size_t(c.detection)] >= 0) continue;
    detection_of_track_[std::size_t(c.track)] = c.detection;
    track_of_detection_[std::size_t(c.detection)] = c.track;
  }
}

}  // namespace ccl::track
