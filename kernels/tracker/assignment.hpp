// One-to-one matching of a stage's candidate pairs with the least total cost (the Hungarian
// method, as SORT, ByteTrack and OC-SORT solve it), on each cluster of pairs that share a track or
// a detection: clusters are small (objects near each other), so a frame of thousands of pairs
// costs little, and a lone pair is taken at once.
#pragma once

#include <vector>

#include "tracker/candidates.hpp"

namespace ccl::track {

// Least-cost assignment of a dense rows x cols matrix (row-major), rows <= cols: col_of_row[r] for
// every row. Deterministic (fixed scan order, ties to the first).
void hungarian(const std::vector<double>& cost, int rows, int cols, std::vector<int>* col_of_row);

// Its working arrays, kept by a caller that solves many matrices.
struct HungarianScratch {
  std::vector<double> u, v, min_to;
  std::vector<int> p, way;
  std::vector<char> used;
};
void hungarian(const std::vector<double>& cost, int rows, int cols, std::vector<int>* col_of_row, HungarianScratch* scratch);

class Assignment {
 public:
  // detection_of_track[t] = the detection matched to query t, or -1. A track left unmatched counts
  // as the cost `unmatched`, so a pair costing more is never taken for its own sake.
  void solve(const std::vector<Candidate>& pairs, int n_tracks, int n_detections, double unmatched,
             std::vector<int>* detection_of_track);

 private:
  int root(int node);
  // Scratch kept between frames.
  std::vector<int> parent_, cluster_of_root_, cluster_start_, fill_, by_cluster_, local_track_, local_detection_;
  std::vector<int> tracks_, detections_, col_of_row_, pair_count_;
  std::vector<Candidate> contested_;
  std::vector<double> matrix_;
  HungarianScratch scratch_;
};

}  // namespace ccl::track
