#include "mot_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

namespace motmetrics {

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kThreshold = 0.5;  // CLEAR-MOT and IDF1 matching threshold (IoU)

// The rows of each frame, ids renumbered 0..n-1 in order of first appearance.
struct Frames {
  std::map<int, std::vector<std::pair<int, const Row*>>> by_frame;
  int n_ids = 0;
};

Frames group(const std::vector<Row>& rows, bool truth) {
  Frames f;
  std::map<long, int> index;
  for (const Row& r : rows) {
    if (truth && r.flag == 0) continue;  // MOT15: a gt row with flag 0 is not evaluated
    auto it = index.find(r.id);
    if (it == index.end()) it = index.emplace(r.id, f.n_ids++).first;
    f.by_frame[r.frame].emplace_back(it->second, &r);
  }
  return f;
}

}  // namespace

double iou(const Row& a, const Row& b) {
  const double iw = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x);
  const double ih = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
  if (iw <= 0 || ih <= 0) return 0;
  const double inter = iw * ih, uni = a.w * a.h + b.w * b.h - inter;
  return uni > 0 ? inter / uni : 0;
}

std::vector<int> min_cost_assignment(const std::vector<double>& cost, int rows, int cols) {
  // Square n x n (padding costs 0), then shortest augmenting paths with potentials (Kuhn-Munkres).
  const int n = std::max(rows, cols);
  auto at = [&](int r, int c) { return r < rows && c < cols ? cost[std::size_t(r) * std::size_t(cols) + std::size_t(c)] : 0.0; };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> pot_row(n + 1, 0), pot_col(n + 1, 0);
  std::vector<int> row_of_col(n + 1, -1), prev(n + 1, 0);
  for (int r = 0; r < n; ++r) {
    // Column n is the virtual start, holding the new row.
    row_of_col[n] = r;
    int col = n;
    std::vector<double> dist(n + 1, inf);
    std::vector<bool> done(n + 1, false);
    while (row_of_col[col] != -1) {
      done[col] = true;
      const int row = row_of_col[col];
      double best = inf;
      int next = -1;
      for (int c = 0; c < n; ++c) {
        if (done[c]) continue;
        const double reduced = at(row, c) - pot_row[row] - pot_col[c];
        if (reduced < dist[c]) dist[c] = reduced, prev[c] = col;
        if (dist[c] < best) best = dist[c], next = c;
      }
      for (int c = 0; c <= n; ++c) {
        if (done[c]) {
          pot_row[row_of_col[c]] += best;
          if (c < n) pot_col[c] -= best;
        } else if (c < n) {
          dist[c] -= best;
        }
      }
      col = next;
    }
    while (col != n) {
      const int p = prev[col];
      row_of_col[col] = row_of_col[p];
      col = p;
    }
    row_of_col[n] = -1;
  }
  std::vector<int> col_of_row(std::size_t(rows), -1);
  for (int c = 0; c < cols; ++c)
    if (row_of_col[c] >= 0 && row_of_col[c] < rows) col_of_row[std::size_t(row_of_col[c])] = c;
  return col_of_row;
}

Scores score(const std::vector<Row>& truth, const std::vector<Row>& results) {
  const Frames gt = group(truth, true), tr = group(results, false);
  std::vector<int> frames;
  for (const auto& [f, rows] : gt.by_frame) frames.push_back(f);
  for (const auto& [f, rows] : tr.by_frame) frames.push_back(f);
  std::sort(frames.begin(), frames.end());
  frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
  static const std::vector<std::pair<int, const Row*>> kNone;
  auto rows_of = [](const Frames& fr, int f) -> const std::vector<std::pair<int, const Row*>>& {
    auto it = fr.by_frame.find(f);
    return it == fr.by_frame.end() ? kNone : it->second;
  };
  const int G = gt.n_ids, T = tr.n_ids;
  std::vector<long> gt_count(std::size_t(G), 0), tr_count(std::size_t(T), 0);
  std::vector<double> id_matches(std::size_t(G) * std::size_t(T), 0);   // IDF1: frames with IoU >= 0.5
  std::vector<double> potential(std::size_t(G) * std::size_t(T), 0);    // HOTA: summed IoU shares
  auto cell = [T](int g, int t) { return std::size_t(g) * std::size_t(T) + std::size_t(t); };

  // Pass 1: per-id counts, IDF1's co-occurrences, HOTA's global alignment.
  for (int f : frames) {
    const auto &g = rows_of(gt, f), &t = rows_of(tr, f);
    std::vector<double> sim(g.size() * t.size());
    std::vector<double> row_sum(g.size(), 0), col_sum(t.size(), 0);
    for (std::size_t i = 0; i < g.size(); ++i)
      for (std::size_t k = 0; k < t.size(); ++k) {
        const double s = iou(*g[i].second, *t[k].second);
        sim[i * t.size() + k] = s, row_sum[i] += s, col_sum[k] += s;
        if (s >= kThreshold - kEps) id_matches[cell(g[i].first, t[k].first)] += 1;
      }
    for (std::size_t i = 0; i < g.size(); ++i)
      for (std::size_t k = 0; k < t.size(); ++k) {
        const double s = sim[i * t.size() + k], denom = row_sum[i] + col_sum[k] - s;
        if (denom > kEps) potential[cell(g[i].first, t[k].first)] += s / denom;
      }
    for (const auto& [id, row] : g) ++gt_count[std::size_t(id)];
    for (const auto& [id, row] : t) ++tr_count[std::size_t(id)];
  }
  std::vector<double> alignment(potential.size(), 0);
  for (int i = 0; i < G; ++i)
    for (int k = 0; k < T; ++k) {
      const double p = potential[cell(i, k)];
      alignment[cell(i, k)] = p / (double(gt_count[std::size_t(i)] + tr_count[std::size_t(k)]) - p);
    }

  Scores s;
  constexpr int kAlphas = 19;
  std::vector<long> hota_tp(kAlphas, 0), hota_fn(kAlphas, 0), hota_fp(kAlphas, 0);
  std::vector<double> loc_sum(kAlphas, 0);
  std::vector<std::vector<double>> match_count(kAlphas, std::vector<double>(potential.size(), 0));
  std::vector<int> last_match(std::size_t(G), -1), prev_frame_match(std::size_t(G), -1);  // tracker id
  std::vector<long> frag_count(std::size_t(G), 0);
  double motp_sum = 0;

  // Pass 2: per-frame CLEAR-MOT and HOTA matching.
  for (int f : frames) {
    const auto &g = rows_of(gt, f), &t = rows_of(tr, f);
    s.gt += long(g.size());
    const int n = int(g.size()), m = int(t.size());
    std::vector<double> sim(std::size_t(n) * std::size_t(m));
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < m; ++k) sim[std::size_t(i * m + k)] = iou(*g[std::size_t(i)].second, *t[std::size_t(k)].second);

    // CLEAR-MOT: last frame's pairs first (+1000), pairs below the threshold never.
    std::vector<double> cost(sim.size());
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < m; ++k) {
        const double v = sim[std::size_t(i * m + k)];
        double sc = v + (prev_frame_match[std::size_t(g[std::size_t(i)].first)] == t[std::size_t(k)].first ? 1000 : 0);
        if (v < kThreshold - kEps) sc = 0;
        cost[std::size_t(i * m + k)] = -sc;
      }
    const std::vector<int> clear = n && m ? min_cost_assignment(cost, n, m) : std::vector<int>(std::size_t(n), -1);
    std::vector<int> now(std::size_t(G), -1);
    long matched = 0;
    for (int i = 0; i < n; ++i) {
      const int k = clear[std::size_t(i)];
      if (k < 0 || !(-cost[std::size_t(i * m + k)] > kEps)) continue;
      const int gid = g[std::size_t(i)].first, tid = t[std::size_t(k)].first;
      ++matched;
      motp_sum += sim[std::size_t(i * m + k)];
      if (last_match[std::size_t(gid)] >= 0 && last_match[std::size_t(gid)] != tid) ++s.id_switches;
      if (prev_frame_match[std::size_t(gid)] < 0) ++frag_count[std::size_t(gid)];  // a tracked stretch begins
      last_match[std::size_t(gid)] = tid;
      now[std::size_t(gid)] = tid;
    }
    prev_frame_match = now;
    s.tp += matched, s.fn += n - matched, s.fp += m - matched;

    // HOTA: one assignment maximising alignment x similarity, then counted per threshold.
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < m; ++k)
        cost[std::size_t(i * m + k)] = -alignment[cell(g[std::size_t(i)].first, t[std::size_t(k)].first)] * sim[std::size_t(i * m + k)];
    const std::vector<int> hota = n && m ? min_cost_assignment(cost, n, m) : std::vector<int>(std::size_t(n), -1);
    for (int a = 0; a < kAlphas; ++a) {
      const double alpha = 0.05 * (a + 1);
      long tp = 0;
      for (int i = 0; i < n; ++i) {
        const int k = hota[std::size_t(i)];
        if (k < 0 || sim[std::size_t(i * m + k)] < alpha - kEps) continue;
        ++tp;
        loc_sum[std::size_t(a)] += sim[std::size_t(i * m + k)];
        match_count[std::size_t(a)][cell(g[std::size_t(i)].first, t[std::size_t(k)].first)] += 1;
      }
      hota_tp[std::size_t(a)] += tp, hota_fn[std::size_t(a)] += n - tp, hota_fp[std::size_t(a)] += m - tp;
    }
  }
  s.mota = s.gt ? double(s.tp - s.fp - s.id_switches) / double(s.gt) : 0;
  s.motp = s.tp ? motp_sum / double(s.tp) : 0;
  for (long c : frag_count) s.frag += c > 0 ? c - 1 : 0;

  // IDF1: the gt-id to tracker-id assignment with the most co-occurring frames.
  if (G && T) {
    std::vector<double> cost(id_matches.size());
    for (std::size_t k = 0; k < cost.size(); ++k) cost[k] = -id_matches[k];
    const std::vector<int> ids = min_cost_assignment(cost, G, T);
    for (int i = 0; i < G; ++i)
      if (ids[std::size_t(i)] >= 0) s.idtp += long(id_matches[cell(i, ids[std::size_t(i)])]);
  }
  long total_tr = 0;
  for (long c : tr_count) total_tr += c;
  s.idfn = s.gt - s.idtp, s.idfp = total_tr - s.idtp;
  s.idf1 = s.idtp ? double(s.idtp) / (double(s.idtp) + 0.5 * double(s.idfp) + 0.5 * double(s.idfn)) : 0;

  for (int a = 0; a < kAlphas; ++a) {
    const double tp = double(hota_tp[std::size_t(a)]);
    const double det_a = tp / std::max(1.0, tp + double(hota_fn[std::size_t(a)]) + double(hota_fp[std::size_t(a)]));
    double ass = 0;
    for (int i = 0; i < G; ++i)
      for (int k = 0; k < T; ++k) {
        const double c = match_count[std::size_t(a)][cell(i, k)];
        if (c > 0) ass += c * c / std::max(1.0, double(gt_count[std::size_t(i)] + tr_count[std::size_t(k)]) - c);
      }
    const double ass_a = ass / std::max(1.0, tp);
    s.deta += det_a / kAlphas, s.assa += ass_a / kAlphas;
    s.hota += std::sqrt(det_a * ass_a) / kAlphas;
    s.loca += (tp > 0 ? loc_sum[std::size_t(a)] / tp : 1.0) / kAlphas;  // TrackEval: 1 with no match
  }
  return s;
}

bool read_mot(const std::string& path, std::vector<Row>* rows) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    for (char& c : line)
      if (c == ',') c = ' ';
    std::istringstream fields(line);
    Row r{};
    double frame = 0, id = 0;
    if (fields >> frame >> id >> r.x >> r.y >> r.w >> r.h >> r.flag) {
      r.frame = int(frame), r.id = long(id);
      rows->push_back(r);
    }
  }
  return true;
}

}  // namespace motmetrics
