// ccl-bench-quality: how well cudaccl finds moving objects on real video with ground truth (issue
// 33). For each folder in CDnet layout it runs the element line on every frame from 1 (appsrc,
// I420 decoded by jpegdec, show-mask=true), reads back the mask it labelled and its GstCclMeta
// boxes, and scores them with bench/quality/scores.hpp: pixel recall, precision, F-measure and
// PWC by the CDnet 2014 rules, object recall, precision and F1 (IoU >= 0.5); then OpenCV MOG2 +
// opening + components on the same frames as the peer. With --backend both the CPU and CUDA runs
// must give the same mask bytes and components.
//
// Usage: ccl-bench-quality [--line "cudaccl ..."] [--backend cpu|cuda|both] [--boxes FILE] DIR [DIR...]
// --boxes writes every evaluated frame's truth objects and the first backend's components, one a
// line ("SEQUENCE T frame x y w h", "SEQUENCE C frame x y w h area"), to replay grouping rules on.
#include <gst/gst.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <stdexcept>
#include <string>
#include <vector>

#include "cdnet_sequence.hpp"
#include "element_run.hpp"
#include "mog2_peer.hpp"
#include "scores.hpp"

namespace {

// The line the figures use: the README's recommended line.
const char* const kDefaultLine = "cudaccl foreground=adaptive chroma=true min-area=50";

struct Args {
  std::string line = kDefaultLine;
  std::vector<const char*> backends{"cpu"};
  std::vector<std::string> dirs;
  std::string boxes;  // --boxes: where the per-frame boxes go ("" = nowhere)
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--line" || arg == "--backend" || arg == "--boxes") && i + 1 >= argc)
      throw std::runtime_error(arg + " needs a value");
    if (arg == "--line") {
      a.line = argv[++i];
    } else if (arg == "--boxes") {
      a.boxes = argv[++i];
    } else if (arg == "--backend") {
      const std::string b = argv[++i];
      if (b == "cpu")
        a.backends = {"cpu"};
      else if (b == "cuda")
        a.backends = {"cuda"};
      else if (b == "both")
        a.backends = {"cpu", "cuda"};
      else
        throw std::runtime_error("--backend must be cpu, cuda or both, not '" + b + "'");
    } else if (arg == "-h" || arg == "--help") {
      std::printf(
          "usage: ccl-bench-quality [--line \"cudaccl ...\"] [--backend cpu|cuda|both] [--boxes FILE] DIR [DIR...]\n"
          "  DIR in CDnet layout: input/inNNNNNN.jpg, groundtruth/gtNNNNNN.png, ROI.bmp, temporalROI.txt\n"
          "  default line: %s\n",
          kDefaultLine);
      std::exit(0);
    } else if (arg.rfind("--", 0) == 0) {
      throw std::runtime_error("unknown option " + arg + " (see --help)");
    } else {
      a.dirs.push_back(arg);
    }
  }
  if (a.dirs.empty()) throw std::runtime_error("no sequence folder given (see --help)");
  quality::check_line(a.line);
  return a;
}

void print_line(const std::string& sequence, const std::string& method, const quality::PixelCounts& p,
                const quality::ObjectCounts& o, int frames, double seconds) {
  std::printf(
      "%-10s %-58s pixel R %.3f P %.3f F %.3f PWC %.3f | object R %.3f P %.3f F1 %.3f (TP %llu FP %llu FN "
      "%llu) | %d frames %.0f frames/s\n",
      sequence.c_str(), method.c_str(), p.recall(), p.precision(), p.f_measure(), p.pwc(), o.recall(), o.precision(),
      o.f1(), static_cast<unsigned long long>(o.tp), static_cast<unsigned long long>(o.fp),
      static_cast<unsigned long long>(o.fn), frames, seconds > 0 ? frames / seconds : 0.0);
  std::fflush(stdout);
}

void write_boxes(std::FILE* out, const std::string& sequence, int frame, const std::vector<quality::Box>& truth,
                 const std::vector<GstCclComponent>& components) {
  for (const quality::Box& b : truth)
    std::fprintf(out, "%s T %d %d %d %d %d\n", sequence.c_str(), frame, b.x, b.y, b.width, b.height);
  for (const GstCclComponent& c : components)
    std::fprintf(out, "%s C %d %d %d %d %d %u\n", sequence.c_str(), frame, c.x, c.y, c.width, c.height, c.area);
}

// Returns false when the backends disagree.
bool run_sequence(const Args& a, const std::string& dir, std::FILE* boxes_out) {
  bool agree = true;
  const quality::CdnetSequence s = quality::read_cdnet_sequence(dir);
  std::printf("%s: %dx%d, frames 1..%d, evaluated %d..%d (temporalROI), %zu ROI pixels\n", s.name.c_str(), s.width,
              s.height, s.frames, s.first, s.last,
              static_cast<std::size_t>(std::count_if(s.roi.begin(), s.roi.end(), [](std::uint8_t v) { return v; })));
  std::vector<std::vector<quality::Box>> truth_boxes;
  for (int t = s.first; t <= s.last; ++t)
    truth_boxes.push_back(quality::truth_objects(s.truth_of(t), s.width, s.height));

  GstCaps* caps = nullptr;
  std::vector<GstBuffer*> frames = quality::decode_frames(s, &caps);
  std::vector<quality::ElementRun> runs;
  quality::PeerResult peer;
  try {
    for (const char* backend : a.backends) {
      runs.push_back(quality::run_element(a.line, backend, frames, caps));
      const quality::ElementRun& run = runs.back();
      quality::PixelCounts pixels;
      quality::ObjectCounts objects;
      for (int t = s.first; t <= s.last; ++t) {
        pixels.add(run.masks[std::size_t(t - 1)].data(), s.truth_of(t), s.roi.data(), s.roi.size());
        std::vector<quality::Box> boxes;
        for (const GstCclComponent& c : run.components[std::size_t(t - 1)])
          boxes.push_back(quality::Box{c.x, c.y, c.width, c.height});
        objects.add(truth_boxes[std::size_t(t - s.first)], boxes);
        if (boxes_out && runs.size() == 1)
          write_boxes(boxes_out, s.name, t, truth_boxes[std::size_t(t - s.first)], run.components[std::size_t(t - 1)]);
      }
      print_line(s.name, a.line + " [" + run.active_backend + "]", pixels, objects, s.frames, run.seconds);
    }
    if (runs.size() == 2) {
      const std::string d = quality::first_difference(runs[0], runs[1]);
      if (d.empty())
        std::printf("%-10s %s and %s: masks and components byte-identical over %d frames\n", s.name.c_str(),
                    runs[0].active_backend.c_str(), runs[1].active_backend.c_str(), s.frames);
      else
        std::printf("%-10s %s and %s DIFFER: first at %s\n", s.name.c_str(), runs[0].active_backend.c_str(),
                    runs[1].active_backend.c_str(), d.c_str());
      agree = d.empty();
    }
    runs.clear();
    peer = quality::run_mog2_peer(s, frames, caps, truth_boxes);
  } catch (...) {
    for (GstBuffer* b : frames) gst_buffer_unref(b);
    gst_caps_unref(caps);
    throw;
  }
  for (GstBuffer* b : frames) gst_buffer_unref(b);
  gst_caps_unref(caps);
  print_line(s.name, "opencv mog2 (defaults) + open 3x3 + components (8, >= 50)", peer.pixels, peer.objects, s.frames,
             peer.seconds);
  return agree;
}

}  // namespace

int main(int argc, char** argv) {
  gst_init(&argc, &argv);
  try {
    const Args a = parse(argc, argv);
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::printf(
        "ccl-bench-quality %s, line \"%s\"; pixel: CDnet 2014 rules; object: truth = 8-connected gt 255 "
        ">= %u px, match at IoU >= %.1f, greedy best-first\n",
        date, a.line.c_str(), quality::kMinObjectArea, quality::kMatchIou);
    std::FILE* boxes_out = a.boxes.empty() ? nullptr : std::fopen(a.boxes.c_str(), "w");
    if (!a.boxes.empty() && !boxes_out) throw std::runtime_error("cannot write --boxes file '" + a.boxes + "'");
    bool agree = true;
    for (const std::string& dir : a.dirs) agree = run_sequence(a, dir, boxes_out) && agree;
    if (boxes_out && std::fclose(boxes_out) != 0) throw std::runtime_error("writing '" + a.boxes + "' failed");
    return agree ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ccl-bench-quality: %s\n", e.what());
    return 2;
  }
}
