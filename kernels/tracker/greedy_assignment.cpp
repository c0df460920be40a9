#include "tracker/greedy_assignment.hpp"

#include <algorithm>

namespace ccl::track {

void GreedyAssignment::assign(std::vector<Candidate>& candidates, std::size_t n_tracks, std::size_t n_detections) {
  detection_of_track_.assign(n_tracks, -1);
  track_of_detection_.assign(n_detections, -1);
  pairs_of_track_.assign(n_tracks, 0);
  pairs_of_detection_.assign(n_detections, 0);
  for (const Candidate& c : candidates) pairs_of_track_[c.track]++, pairs_of_detection_[c.detection]++;

  // A pair whose track and detection have no other candidate is matched by the greedy pass whatever
  // its place in the order: take it now and sort only the contested rest (usually a few per cent).
  std::size_t contested = 0;
  for (const Candidate& c : candidates) {
    if (pairs_of_track_[c.track] == 1 && pairs_of_detection_[c.detection] == 1) {
      detection_of_track_[c.track] = c.detection;
      track_of_detection_[c.detection] = c.track;
    } else {
      candidates[contested++] = c;
    }
  }
  candidates.resize(contested);
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.cost != b.cost) return a.cost < b.cost;
    if (a.track != b.track) return a.track < b.track;
    return a.detection < b.detection;
  });
  for (const Candidate& c : candidates) {
    if (detection_of_track_[c.track] >= 0 || track_of_detection_[c.detection] >= 0) continue;
    detection_of_track_[c.track] = c.detection;
    track_of_detection_[c.detection] = c.track;
  }
}

}  // namespace ccl::track
