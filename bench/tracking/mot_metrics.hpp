// A MOTChallenge scorer, written for the benches apart from the tracker (it shares no code with
// it): CLEAR-MOT (MOTA, MOTP, FP, FN, ID switches, Frag), IDF1 and HOTA, as TrackEval computes them
// for MOT15 (gt rows whose flag is 0 ignored, IoU similarity, matching threshold 0.5, one Hungarian
// assignment per frame; CLEAR-MOT keeps last frame's matches where they still pass).
#pragma once

#include <string>
#include <vector>

namespace motmetrics {

// One row of a MOT file: frame, id, box (left, top, width, height), and column 7 (the gt's "consider"
// flag, a detection's score, 1 in results).
struct Row {
  int frame;
  long id;
  double x, y, w, h;
  double flag = 1;
};

struct Scores {
  long gt = 0;                     // truth boxes scored (flag != 0)
  long tp = 0, fp = 0, fn = 0;     // CLEAR-MOT matches, false positives, misses
  long id_switches = 0, frag = 0;  // CLEAR-MOT
  double mota = 0, motp = 0;       // MOTP: mean IoU of the matches
  long idtp = 0, idfp = 0, idfn = 0;
  double idf1 = 0;
  double hota = 0, deta = 0, assa = 0, loca = 0;  // means over the 19 thresholds 0.05..0.95
};

double iou(const Row& a, const Row& b);

// Least-cost assignment of a rows x cols matrix (row-major): the column of each row, or -1 where
// rows > cols leaves a row without one.
std::vector<int> min_cost_assignment(const std::vector<double>& cost, int rows, int cols);

// Scores `results` against `truth` (rows in any order); truth rows with flag 0 are ignored.
Scores score(const std::vector<Row>& truth, const std::vector<Row>& results);

// Reads a MOT text file (comma-separated, >= 7 columns used); rows that do not parse are skipped.
// false when the file cannot be opened.
bool read_mot(const std::string& path, std::vector<Row>* rows);

}  // namespace motmetrics
