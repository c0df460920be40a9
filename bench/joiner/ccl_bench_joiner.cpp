// ccl-bench-joiner: the host time of join-parts (ccl::PartJoiner) per frame, on the component
// lists the CPU backend gives for the foreground benchmark's synthetic daylight scene (the frames
// ccl-bench-foreground times on the GPU, played in the same ping-pong order), so the joiner's
// share of cudaccl's streaming thread is measured without a GPU. The lists are made first; only
// join() is timed, on a copy of each frame's list made before the clock starts.
//
//   ccl-bench-joiner [--size WxH] [--ring K] [--frames N] [--min-area N] [--passes N] [--warmup N]
//                    [--foreground adaptive|motion]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "../foreground/daylight_frames.hpp"
#include "ccl/analyzer.hpp"
#include "ccl/part_joiner.hpp"

namespace {

struct Args {
  int width = 1920, height = 1080;
  int ring = 120;       // distinct frames, played ping-pong (as ccl-bench-foreground's --ring-1080)
  int frames = 1200;    // frames labelled and joined per pass
  int min_area = 0;     // ccl-bench-foreground's line has none; the recommended line's is 50
  int passes = 5;       // the joiner runs over all frames this many times; each frame's fastest counts
  int warmup = 60;      // frames joined but not counted: the background model learns the scene
  bool motion = false;  // --foreground motion: cudaccl foreground=motion (no clean-up: thousands of parts)
};

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: ccl-bench-joiner [--size WxH] [--ring K] [--frames N] [--min-area N] [--passes N] [--warmup "
               "N]\n                        [--foreground adaptive|motion]\n");
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) usage();
    const char* v = argv[++i];
    if (k == "--size" && std::sscanf(v, "%dx%d", &a.width, &a.height) == 2) continue;
    if (k == "--ring")
      a.ring = std::atoi(v);
    else if (k == "--frames")
      a.frames = std::atoi(v);
    else if (k == "--min-area")
      a.min_area = std::atoi(v);
    else if (k == "--passes")
      a.passes = std::atoi(v);
    else if (k == "--warmup")
      a.warmup = std::atoi(v);
    else if (k == "--foreground" && (std::strcmp(v, "motion") == 0 || std::strcmp(v, "adaptive") == 0))
      a.motion = std::strcmp(v, "motion") == 0;
    else
      usage();
  }
  if (a.width < 16 || a.height < 16 || a.ring < 2 || a.frames < 1 || a.min_area < 0 || a.passes < 1 || a.warmup < 1)
    usage();
  return a;
}

// The frames' component lists, as cudaccl foreground=adaptive chroma=true (or foreground=motion)
// gives them (neutral chroma, as ccl-bench-foreground uploads), before joining.
std::vector<ccl::Result> label_frames(const Args& a, const bench::DaylightSequence& seq) {
  const std::vector<std::uint8_t> chroma(std::size_t((a.width + 1) / 2) * 2 * std::size_t((a.height + 1) / 2), 128);
  ccl::Options options;
  options.foreground = a.motion ? ccl::Foreground::Motion : ccl::Foreground::Adaptive;
  options.chroma = !a.motion;
  options.min_area = std::uint32_t(a.min_area);
  options = ccl::adaptive_recipe(options);  // the element's recipe: motion factor, open, close, shrink
  std::unique_ptr<ccl::Analyzer> analyzer = ccl::make_cpu_analyzer();
  std::vector<ccl::Result> lists(std::size_t(a.frames));
  for (int i = 0; i < a.frames; ++i) {
    ccl::ImageView image;
    image.data = seq.frames[bench::ping_pong(std::size_t(i), seq.frames.size())].data();
    image.width = a.width, image.height = a.height, image.stride = std::ptrdiff_t(seq.stride);
    image.chroma.u = chroma.data(), image.chroma.v = chroma.data() + 1;
    image.chroma.stride = std::ptrdiff_t((a.width + 1) / 2) * 2, image.chroma.step = 2;
    analyzer->run(image, options, lists[std::size_t(i)]);
  }
  return lists;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
  const bench::DaylightSequence seq = bench::make_daylight_sequence(a.width, a.height, a.ring, {}, cores);
  const std::vector<ccl::Result> lists = label_frames(a, seq);
  const std::size_t from = std::size_t(std::min(a.warmup, a.frames - 1));

  // Each frame's time is its fastest over the passes (the VM's noise is one-sided).
  std::vector<double> us(lists.size(), 1e30);
  std::vector<ccl::Result> work(lists.size());
  for (int pass = 0; pass < a.passes; ++pass) {
    ccl::PartJoiner joiner;
    for (std::size_t f = 0; f < lists.size(); ++f) {
      work[f] = lists[f];  // just before: cudaccl's list was just copied out of the engine's too
      const auto t0 = std::chrono::steady_clock::now();
      joiner.join(work[f], ccl::Order::Raster, ccl::kUnlimited);
      const auto t1 = std::chrono::steady_clock::now();
      us[f] = std::min(us[f], std::chrono::duration<double, std::micro>(t1 - t0).count());
    }
  }
  double parts = 0, objects = 0;
  for (std::size_t f = from; f < lists.size(); ++f)
    parts += double(lists[f].components.size()), objects += double(work[f].components.size());
  std::vector<double> steady(us.begin() + std::ptrdiff_t(from), us.end());
  const double mean = std::accumulate(steady.begin(), steady.end(), 0.0) / double(steady.size());
  std::sort(steady.begin(), steady.end());
  const std::size_t worst_frame =
      std::size_t(std::max_element(us.begin(), us.begin() + std::ptrdiff_t(from)) - us.begin());
  const double n = double(lists.size() - from);
  std::printf(
      "%dx%d daylight, foreground=%s, frames %zu..%d (ring %d ping-pong), min-area %d: %.1f parts -> %.1f objects a "
      "frame\n",
      a.width, a.height, a.motion ? "motion" : "adaptive chroma=true", from, a.frames - 1, a.ring, a.min_area,
      parts / n, objects / n);
  std::printf("join(): mean %.2f us, median %.2f us, p99 %.2f us a frame (each frame's fastest of %d passes)\n", mean,
              steady[steady.size() / 2], steady[steady.size() * 99 / 100], a.passes);
  std::printf("warm-up frames 0..%zu (the model learning): slowest %.0f us, frame %zu, %zu parts\n", from - 1,
              us[worst_frame], worst_frame, lists[worst_frame].components.size());
  return 0;
}
