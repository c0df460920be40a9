#include "tracker/assignment.hpp"

#include <algorithm>
#include <limits>
#include <tuple>

namespace ccl::track {

void hungarian(const std::vector<double>& cost, int rows, int cols, std::vector<int>* col_of_row) {
  HungarianScratch scratch;
  hungarian(cost, rows, cols, col_of_row, &scratch);
}

void hungarian(const std::vector<double>& cost, int rows, int cols, std::vector<int>* col_of_row, HungarianScratch* s) {
  // Potentials u (rows), v (cols); p[j] = row assigned to column j (1-based, 0 = none); the classic
  // O(rows^2 cols) shortest augmenting path form.
  constexpr double kInf = std::numeric_limits<double>::infinity();
  std::vector<double>&u = s->u, &v = s->v, &min_to = s->min_to;
  std::vector<int>&p = s->p, &way = s->way;
  std::vector<char>& used = s->used;
  u.assign(std::size_t(rows) + 1, 0), v.assign(std::size_t(cols) + 1, 0), min_to.resize(std::size_t(cols) + 1);
  p.assign(std::size_t(cols) + 1, 0), way.assign(std::size_t(cols) + 1, 0), used.resize(std::size_t(cols) + 1);
  for (int i = 1; i <= rows; ++i) {
    p[0] = i;
    int j0 = 0;
    std::fill(min_to.begin(), min_to.end(), kInf);
    std::fill(used.begin(), used.end(), 0);
    do {
      used[std::size_t(j0)] = 1;
      const int i0 = p[std::size_t(j0)];
      double delta = kInf;
      int j1 = 0;
      for (int j = 1; j <= cols; ++j) {
        if (used[std::size_t(j)]) continue;
        const double reduced = cost[std::size_t(i0 - 1) * std::size_t(cols) + std::size_t(j - 1)] - u[std::size_t(i0)] - v[std::size_t(j)];
        if (reduced < min_to[std::size_t(j)]) min_to[std::size_t(j)] = reduced, way[std::size_t(j)] = j0;
        if (min_to[std::size_t(j)] < delta) delta = min_to[std::size_t(j)], j1 = j;
      }
      for (int j = 0; j <= cols; ++j) {
        if (used[std::size_t(j)]) {
          u[std::size_t(p[std::size_t(j)])] += delta;
          v[std::size_t(j)] -= delta;
        } else {
          min_to[std::size_t(j)] -= delta;
        }
      }
      j0 = j1;
    } while (p[std::size_t(j0)] != 0);
    do {
      const int j1 = way[std::size_t(j0)];
      p[std::size_t(j0)] = p[std::size_t(j1)];
      j0 = j1;
    } while (j0 != 0);
  }
  col_of_row->assign(std::size_t(rows), -1);
  for (int j = 1; j <= cols; ++j)
    if (p[std::size_t(j)] != 0) (*col_of_row)[std::size_t(p[std::size_t(j)] - 1)] = j - 1;
}

int Assignment::root(int node) {
  while (parent_[std::size_t(node)] != node) node = parent_[std::size_t(node)] = parent_[std::size_t(parent_[std::size_t(node)])];
  return node;
}

void Assignment::solve(const std::vector<Candidate>& pairs, int n_tracks, int n_detections, double unmatched,
                       std::vector<int>* detection_of_track) {
  detection_of_track->assign(std::size_t(n_tracks), -1);
  std::vector<int>& match = *detection_of_track;
  // A pair alone on its track and its detection contests nothing: taken at once (most pairs are).
  // Per-node scratch is sized once and reset where it was touched, not filled each call.
  const std::size_t nodes = std::size_t(n_tracks) + std::size_t(n_detections);
  if (pair_count_.size() < nodes) pair_count_.resize(nodes, 0), cluster_of_root_.resize(nodes, -1), parent_.resize(nodes);
  int* const count = pair_count_.data();
  for (const Candidate& c : pairs) ++count[c.track], ++count[n_tracks + c.detection];
  contested_.clear();
  for (const Candidate& c : pairs) {
    if (count[c.track] > 1 || count[n_tracks + c.detection] > 1)
      contested_.push_back(c);
    else if (c.cost < unmatched)
      match[std::size_t(c.track)] = c.detection;
  }
  for (const Candidate& c : pairs) count[c.track] = count[n_tracks + c.detection] = 0;
  if (contested_.empty()) return;
  // Clusters: connected parts of the graph whose nodes are tracks (0..n_tracks-1) and detections
  // (n_tracks + j) and whose edges are the contested pairs.
  const std::vector<Candidate>& rest = contested_;
  for (const Candidate& c : rest) parent_[std::size_t(c.track)] = c.track, parent_[std::size_t(n_tracks + c.detection)] = n_tracks + c.detection;
  for (const Candidate& c : rest) {
    const int a = root(c.track), b = root(n_tracks + c.detection);
    if (a != b) parent_[std::size_t(std::max(a, b))] = std::min(a, b);
  }
  // Clusters numbered in order of their first pair; pairs grouped by cluster, in order (stable).
  cluster_start_.assign(1, 0);
  for (const Candidate& c : rest) {
    int& cluster = cluster_of_root_[std::size_t(root(c.track))];
    if (cluster < 0) cluster = int(cluster_start_.size()) - 1, cluster_start_.push_back(0);
    ++cluster_start_[std::size_t(cluster) + 1];
  }
  for (std::size_t k = 1; k < cluster_start_.size(); ++k) cluster_start_[k] += cluster_start_[k - 1];
  by_cluster_.resize(rest.size());
  fill_.assign(cluster_start_.begin(), cluster_start_.end() - 1);
  for (std::size_t k = 0; k < rest.size(); ++k)
    by_cluster_[std::size_t(fill_[std::size_t(cluster_of_root_[std::size_t(root(rest[k].track))])]++)] = int(k);
  local_track_.resize(std::size_t(n_tracks), -1);
  local_detection_.resize(std::size_t(n_detections), -1);
  for (std::size_t cl = 0; cl + 1 < cluster_start_.size(); ++cl) {
    const int begin = cluster_start_[cl], end = cluster_start_[cl + 1];
    // One track or one detection (most clusters): the Hungarian on its single row takes the first
    // least cell in ascending column order, a cell being min(cost, unmatched) (NaN: unmatched),
    // and keeps it if it costs less than `unmatched`. The same choice without building a matrix.
    {
      const Candidate& first = rest[std::size_t(by_cluster_[std::size_t(begin)])];
      bool one_track = true, one_detection = true;
      for (int k = begin + 1; k < end; ++k) {
        const Candidate& c = rest[std::size_t(by_cluster_[std::size_t(k)])];
        one_track &= c.track == first.track, one_detection &= c.detection == first.detection;
      }
      if (one_track || one_detection) {
        int best = -1;  // the pair taken
        double best_cell = 0;
        for (int k = begin; k < end; ++k) {
          const Candidate& c = rest[std::size_t(by_cluster_[std::size_t(k)])];
          const double cell = std::min(unmatched, double(c.cost));
          const int column = one_track ? c.detection : c.track;
          if (best < 0 || cell < best_cell ||
              (cell == best_cell && column < (one_track ? rest[std::size_t(best)].detection : rest[std::size_t(best)].track)))
            best = by_cluster_[std::size_t(k)], best_cell = cell;
        }
        if (best_cell < unmatched) match[std::size_t(rest[std::size_t(best)].track)] = rest[std::size_t(best)].detection;
        continue;
      }
    }
    // The cluster's tracks and detections in ascending index, numbered locally.
    tracks_.clear(), detections_.clear();
    for (int k = begin; k < end; ++k) {
      const Candidate& c = rest[std::size_t(by_cluster_[std::size_t(k)])];
      tracks_.push_back(c.track), detections_.push_back(c.detection);
    }
    std::sort(tracks_.begin(), tracks_.end());
    tracks_.erase(std::unique(tracks_.begin(), tracks_.end()), tracks_.end());
    std::sort(detections_.begin(), detections_.end());
    detections_.erase(std::unique(detections_.begin(), detections_.end()), detections_.end());
    for (std::size_t i = 0; i < tracks_.size(); ++i) local_track_[std::size_t(tracks_[i])] = int(i);
    for (std::size_t i = 0; i < detections_.size(); ++i) local_detection_[std::size_t(detections_[i])] = int(i);
    // Rows are the smaller side. Unpaired cells cost `unmatched`: taking one means "no match".
    const bool by_track = tracks_.size() <= detections_.size();
    const int rows = int(by_track ? tracks_.size() : detections_.size());
    const int cols = int(by_track ? detections_.size() : tracks_.size());
    matrix_.assign(std::size_t(rows) * std::size_t(cols), unmatched);
    for (int k = begin; k < end; ++k) {
      const Candidate& c = rest[std::size_t(by_cluster_[std::size_t(k)])];
      const int t = local_track_[std::size_t(c.track)], d = local_detection_[std::size_t(c.detection)];
      double& cell = matrix_[by_track ? std::size_t(t) * std::size_t(cols) + std::size_t(d) : std::size_t(d) * std::size_t(cols) + std::size_t(t)];
      cell = std::min(cell, double(c.cost));
    }
    hungarian(matrix_, rows, cols, &col_of_row_, &scratch_);
    for (int r = 0; r < rows; ++r) {
      const int col = col_of_row_[std::size_t(r)];
      if (col < 0 || !(matrix_[std::size_t(r) * std::size_t(cols) + std::size_t(col)] < unmatched)) continue;
      const int t = by_track ? r : col, d = by_track ? col : r;
      match[std::size_t(tracks_[std::size_t(t)])] = detections_[std::size_t(d)];
    }
    for (int t : tracks_) local_track_[std::size_t(t)] = -1;
    for (int d : detections_) local_detection_[std::size_t(d)] = -1;
  }
  for (const Candidate& c : rest) cluster_of_root_[std::size_t(root(c.track))] = -1;
}

}  // namespace ccl::track
