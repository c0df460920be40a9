// ccl-track-mot: runs the tracker core over a MOTChallenge det.txt and writes its located tracks
// (Track::located: matched, or hidden in a merged detection) in MOT results format (frame,id,x,y,w,h,1,-1,-1,-1), for any MOT scorer. Usage:
//   ccl-track-mot DET_TXT [--min-score S] [--out FILE] [--min-hits N] [--max-misses N]
//                 [--min-iou F] [--gate F] [--high-score F] [--low-score F] [--direction-weight F]
//                 [--boxes detection|estimate]
// Without options the tracker runs with its defaults (the ccltracker element's). --min-score drops
// detections below S before the tracker sees them. Each matched track's box is its Kalman estimate
// after its match (as ByteTrack and OC-SORT report), or with --boxes detection Track::shown (the
// matched detection's box, or its part of a merged one); a hidden track's is Track::shown.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "mot_metrics.hpp"
#include "tracker/tracker.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DET_TXT [--min-score S] [--out FILE] [tracker options]\n", argv[0]);
    return 2;
  }
  double min_score = -1e300;
  std::string out_path;
  bool estimates = true;
  ccl::track::Options options;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "%s needs a value\n", arg.c_str());
      return 2;
    }
    const char* v = argv[++i];
    if (arg == "--min-score") min_score = std::atof(v);
    else if (arg == "--out") out_path = v;
    else if (arg == "--min-hits") options.min_hits = std::uint32_t(std::atoi(v));
    else if (arg == "--max-misses") options.max_misses = std::uint32_t(std::atoi(v));
    else if (arg == "--min-iou") options.min_iou = float(std::atof(v));
    else if (arg == "--gate") options.gate = float(std::atof(v));
    else if (arg == "--high-score") options.high_score = float(std::atof(v));
    else if (arg == "--low-score") options.low_score = float(std::atof(v));
    else if (arg == "--direction-weight") options.direction_weight = float(std::atof(v));
    else if (arg == "--boxes") estimates = std::string(v) == "estimate";
    else {
      std::fprintf(stderr, "unknown option %s\n", arg.c_str());
      return 2;
    }
  }
  std::vector<motmetrics::Row> rows;
  if (!motmetrics::read_mot(argv[1], &rows)) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  std::map<int, std::vector<ccl::track::Detection>> frames;  // in the file's order within a frame
  int last_frame = 0;
  for (const motmetrics::Row& r : rows) {
    last_frame = std::max(last_frame, r.frame);
    if (r.flag < min_score) continue;
    ccl::track::Detection d;
    d.box = {float(r.x), float(r.y), float(r.w), float(r.h)};
    d.area = std::uint32_t(r.w * r.h);
    d.centroid_x = d.box.center_x(), d.centroid_y = d.box.center_y();
    d.score = float(r.flag);
    frames[r.frame].push_back(d);
  }
  FILE* out = out_path.empty() ? stdout : std::fopen(out_path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
    return 1;
  }
  ccl::track::Tracker tracker(options);
  std::vector<std::uint32_t> ids;
  static const std::vector<ccl::track::Detection> kNone;
  for (int f = 1; f <= last_frame; ++f) {  // every frame, those without detections too: tracks miss
    auto it = frames.find(f);
    const std::vector<ccl::track::Detection>& d = it == frames.end() ? kNone : it->second;
    ids.assign(d.size(), 0);
    tracker.update(d.data(), d.size(), f, ids.data());
    // Every located track: matched ones, and those hidden in a merged detection at their part of it.
    for (const ccl::track::Track& t : tracker.tracks()) {
      if (!t.located()) continue;
      const ccl::track::Box b = estimates && !t.hidden ? t.estimate() : t.shown;
      std::fprintf(out, "%d,%u,%.3f,%.3f,%.3f,%.3f,1,-1,-1,-1\n", f, t.id, double(b.x), double(b.y), double(b.width),
                   double(b.height));
    }
  }
  if (out != stdout) std::fclose(out);
  return 0;
}
