// ccl-mot-score: scores MOT results against MOT ground truth with the bench's scorer
// (mot_metrics.hpp: MOT15 rules). Usage: ccl-mot-score GT_TXT RESULTS_TXT
#include <cstdio>

#include "mot_metrics.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s GT_TXT RESULTS_TXT\n", argv[0]);
    return 2;
  }
  std::vector<motmetrics::Row> truth, results;
  if (!motmetrics::read_mot(argv[1], &truth) || !motmetrics::read_mot(argv[2], &results)) {
    std::fprintf(stderr, "cannot read %s or %s\n", argv[1], argv[2]);
    return 1;
  }
  const motmetrics::Scores s = motmetrics::score(truth, results);
  std::printf("HOTA %.1f  DetA %.1f  AssA %.1f  LocA %.1f\n", 100 * s.hota, 100 * s.deta, 100 * s.assa, 100 * s.loca);
  std::printf("MOTA %.1f  MOTP %.1f  IDF1 %.1f  IDsw %ld  Frag %ld  FP %ld  FN %ld  TP %ld  GT %ld\n", 100 * s.mota,
              100 * s.motp, 100 * s.idf1, s.id_switches, s.frag, s.fp, s.fn, s.tp, s.gt);
  std::printf("IDTP %ld  IDFP %ld  IDFN %ld\n", s.idtp, s.idfp, s.idfn);
  return 0;
}
