// One-to-one assignment from candidate pairs: greedy by ascending cost, ties by track order then
// detection order, so the same candidates always give the same matches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tracker/candidate_grid.hpp"

namespace ccl::track {

class GreedyAssignment {
 public:
  // Fills detection_of_track / track_of_detection (-1 = unmatched). `candidates` is reordered.
  void assign(std::vector<Candidate>& candidates, std::size_t n_tracks, std::size_t n_detections) {
    assign(candidates.data(), candidates.size(), n_tracks, n_detections);
  }
  // The same over candidates[0 .. n_candidates) (reordered).
  void assign(Candidate* candidates, std::size_t n_candidates, std::size_t n_tracks, std::size_t n_detections);

  const std::vector<std::int32_t>& detection_of_track() const { return detection_of_track_; }
  const std::vector<std::int32_t>& track_of_detection() const { return track_of_detection_; }

 private:
  std::vector<std::int32_t> detection_of_track_, track_of_detection_;
  std::vector<std::int32_t> best_of_track_, best_of_detection_;  // index of the first pair in the greedy order
  std::vector<std::uint64_t> key_of_track_, key_of_detection_;   // (cost, detection) / (cost, track) of the first pair
};

}  // namespace ccl::track
