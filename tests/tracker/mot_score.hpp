// The test-side CLEAR-MOT scorer: true objects against reported tracks, frame by frame.
// A true object and a track match when their boxes' IoU reaches a threshold; a match kept from the
// last frame wins over a new one; a true object matched to another track than before is an id switch.
// MOTA = 1 - (FN + FP + IDSW) / GT, GT = true objects summed over frames.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "tracker/geometry.hpp"

namespace mot {

struct Truth {
  std::uint32_t id;
  ccl::track::Box box;
};

struct Reported {
  std::uint32_t track_id;  // 0 = not reported (not scored)
  ccl::track::Box box;
};

struct Score {
  long gt = 0, fn = 0, fp = 0, id_switches = 0, matches = 0;
  double mota() const { return gt ? 1.0 - double(fn + fp + id_switches) / double(gt) : 1.0; }
};

class Scorer {
 public:
  explicit Scorer(float min_iou = 0.3f) : min_iou_(min_iou) {}

  void add_frame(const std::vector<Truth>& truth, const std::vector<Reported>& reported) {
    std::vector<bool> truth_done(truth.size()), rep_done(reported.size());
    std::map<std::uint32_t, std::uint32_t> now;
    auto match = [&](std::size_t i, std::size_t k) {
      truth_done[i] = rep_done[k] = true;
      const std::uint32_t gt = truth[i].id, tr = reported[k].track_id;
      auto before = mapping_.find(gt);
      if (before != mapping_.end() && before->second != tr) score_.id_switches++;
      now[gt] = tr;
      tracks_of_[gt].insert(tr);
      score_.matches++;
    };
    // Matches that continue the last frame's mapping first.
    for (std::size_t i = 0; i < truth.size(); ++i) {
      auto before = mapping_.find(truth[i].id);
      if (before == mapping_.end()) continue;
      for (std::size_t k = 0; k < reported.size(); ++k)
        if (!rep_done[k] && reported[k].track_id == before->second &&
            ccl::track::iou(truth[i].box, reported[k].box) >= min_iou_) {
          match(i, k);
          break;
        }
    }
    // The rest greedily by IoU, ties by order.
    std::vector<std::tuple<float, std::size_t, std::size_t>> pairs;
    for (std::size_t i = 0; i < truth.size(); ++i)
      for (std::size_t k = 0; k < reported.size(); ++k) {
        if (truth_done[i] || rep_done[k] || reported[k].track_id == 0) continue;
        const float o = ccl::track::iou(truth[i].box, reported[k].box);
        if (o >= min_iou_) pairs.emplace_back(-o, i, k);
      }
    std::sort(pairs.begin(), pairs.end());
    for (const auto& [neg, i, k] : pairs)
      if (!truth_done[i] && !rep_done[k]) match(i, k);
    for (std::size_t i = 0; i < truth.size(); ++i) score_.fn += !truth_done[i];
    for (std::size_t k = 0; k < reported.size(); ++k) score_.fp += !rep_done[k] && reported[k].track_id != 0;
    score_.gt += long(truth.size());
    for (const auto& [gt, tr] : now) mapping_[gt] = tr;
  }

  const Score& score() const { return score_; }
  // Every track id each true object was ever matched to.
  const std::map<std::uint32_t, std::set<std::uint32_t>>& tracks_of() const { return tracks_of_; }

 private:
  float min_iou_;
  Score score_;
  std::map<std::uint32_t, std::uint32_t> mapping_;  // true id -> track id of its last match
  std::map<std::uint32_t, std::set<std::uint32_t>> tracks_of_;
};

}  // namespace mot
