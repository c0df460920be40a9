// ccl-bench-gpu: the CUDA backend on the protocol's images (docs/algorithms.md): square MT19937 random
// frames, density 0..100 % step 10, g in {1, 4, 16}, plus a full frame; best of --runs after a
// warm-up. Reports device work (labels + statistics, cudaEvent) and the whole run() (with
// compaction and the host copy) in Gpix/s and as a fraction of the ~6 B/px bandwidth floor at the
// device-to-device copy bandwidth measured here. --kernels adds per-stage times.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "ccl/cuda_analyzer.hpp"
#include "ccl/profiling.hpp"
#include "ccl/types.hpp"
#include "copy_bandwidth.cuh"
#include "frames.hpp"

namespace {

using bench::check;

constexpr double kFloorBytesPerPixel = 6.0;  // mask read, label write, mask re-read (docs/algorithms.md)

struct Args {
  int size = 8192;
  int connectivity = 8;
  int runs = 20;
  bool kernels = false;
  ccl::Algorithm algorithm = ccl::Algorithm::OptimizedUF;
  ccl::Analysis analysis = ccl::Analysis::FlslCd;
};

// The enum value whose to_string() is `name`; exits with the list of names otherwise.
template <class E, std::size_t N>
E named(const std::string& name, const E (&values)[N], const char* what) {
  for (E v : values)
    if (name == ccl::to_string(v)) return v;
  std::fprintf(stderr, "unknown %s '%s'; one of:", what, name.c_str());
  for (E v : values) std::fprintf(stderr, " %s", ccl::to_string(v));
  std::fprintf(stderr, "\n");
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", s.c_str());
        std::exit(2);
      }
      return std::atoi(argv[++i]);
    };
    auto text = [&] {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", s.c_str());
        std::exit(2);
      }
      return std::string(argv[++i]);
    };
    if (s == "--size") a.size = value();
    else if (s == "--connectivity") a.connectivity = value();
    else if (s == "--runs") a.runs = value();
    else if (s == "--kernels") a.kernels = true;
    else if (s == "--algorithm")
      a.algorithm = named(text(), {ccl::Algorithm::OptimizedUF, ccl::Algorithm::EightDLS, ccl::Algorithm::M8DLS,
                                   ccl::Algorithm::ColumnRuns, ccl::Algorithm::RasterSegments}, "algorithm");
    else if (s == "--analysis")
      a.analysis = named(text(), {ccl::Analysis::FlslCd, ccl::Analysis::Naive, ccl::Analysis::Flsl,
                                  ccl::Analysis::FlslOtf}, "analysis");
    else {
      std::fprintf(stderr, "usage: ccl-bench-gpu [--size N] [--connectivity 4|8] [--runs R] [--kernels]\n"
                           "                     [--algorithm NAME] [--analysis NAME]\n");
      std::exit(2);
    }
  }
  return a;
}

struct Timing {
  double device_ms = 1e30, run_ms = 1e30;
  std::vector<std::pair<std::string, float>> stages;  // of the fastest timed run()
  std::uint32_t components = 0;
};

Timing time_frame(ccl::CudaAnalyzer& analyzer, ccl::Profiling& profiling, const std::uint8_t* d_image, int n,
                  const ccl::Options& o, int runs) {
  const ccl::ImageView view{d_image, n, n, n, {}};
  ccl::Result result;
  Timing t;
  for (int i = 0; i < 3; ++i) analyzer.run(view, o, result);  // warm-up
  t.components = result.n_components_total;
  profiling.time_stages(true);
  for (int i = 0; i < runs; ++i) {
    profiling.queue_label_and_analyze(view, o);
    profiling.synchronize();
    float ms = 0;
    for (const auto& s : profiling.stage_times()) ms += s.second;
    t.device_ms = std::min(t.device_ms, double(ms));
  }
  profiling.time_stages(false);
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    analyzer.run(view, o, result);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    t.run_ms = std::min(t.run_ms, ms);
  }
  float best_staged = 1e30f;
  profiling.time_stages(true);
  for (int i = 0; i < runs; ++i) {  // per-stage times, from the run whose stages add up least
    analyzer.run(view, o, result);
    auto stages = profiling.stage_times();
    float sum = 0;
    for (const auto& s : stages) sum += s.second;
    if (sum < best_staged) best_staged = sum, t.stages = stages;
  }
  profiling.time_stages(false);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  try {
    const int n = args.size;
    const double pixels = double(n) * n;
    cudaDeviceProp prop{};
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    const double bandwidth = bench::copy_bandwidth(std::size_t(1) << 30);
    const double floor_ms = pixels * kFloorBytesPerPixel / bandwidth * 1e3;
    std::printf("device: %s; frame %dx%d, connectivity %d, algorithm %s, analysis %s, best of %d runs\n", prop.name, n,
                n, args.connectivity, ccl::to_string(args.algorithm), ccl::to_string(args.analysis), args.runs);
    std::printf("copy bandwidth (D2D, read+write): %.0f GB/s -> floor %.3f ms/frame = %.0f Gpix/s at %.0f B/px\n",
                bandwidth / 1e9, floor_ms, pixels / floor_ms / 1e6, kFloorBytesPerPixel);
    std::printf("csv,kind,g,density,components,device_ms,device_gpix_s,device_floor_frac,run_ms,run_gpix_s,run_floor_frac\n");

    ccl::CudaAnalyzer analyzer(nullptr);
    ccl::Profiling profiling(analyzer);
    analyzer.reserve(n, n);
    std::uint8_t* d_image = nullptr;
    check(cudaMalloc(&d_image, std::size_t(n) * n), "cudaMalloc");
    ccl::Options options;
    options.connectivity = args.connectivity;
    options.algorithm = args.algorithm;
    options.analysis = args.analysis;

    struct Case { std::string kind; int g, d; };
    std::vector<Case> cases;
    for (int g : {1, 4, 16})
      for (int d = 0; d <= 100; d += 10) cases.push_back({"random", g, d});
    cases.push_back({"full", 0, 100});

    std::map<std::string, std::vector<double>> device_gpix, run_gpix;
    std::map<std::string, std::map<std::string, double>> stage_ms;  // group -> stage -> summed ms
    std::map<std::string, int> group_frames;
    for (const Case& c : cases) {
      const frames::Frame f = c.kind == "full" ? frames::full(n, n) : frames::random(n, n, c.d, c.g, 5489u + c.g * 101 + c.d);
      check(cudaMemcpy(d_image, f.pixels.data(), f.pixels.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
      const Timing t = time_frame(analyzer, profiling, d_image, n, options, args.runs);
      const std::string group = c.kind == "full" ? "full" : "g=" + std::to_string(c.g);
      const double dg = pixels / t.device_ms / 1e6, rg = pixels / t.run_ms / 1e6;
      device_gpix[group].push_back(dg);
      run_gpix[group].push_back(rg);
      for (const auto& s : t.stages) stage_ms[group][s.first] += s.second;
      ++group_frames[group];
      std::printf("%-6s g=%-2d d=%3d%%  %9u components  device %.3f ms %6.1f Gpix/s (%.2f of floor)  run() %.3f ms %6.1f Gpix/s\n",
                  c.kind.c_str(), c.g, c.d, t.components, t.device_ms, dg, floor_ms / t.device_ms, t.run_ms, rg);
      std::printf("csv,%s,%d,%d,%u,%.4f,%.2f,%.3f,%.4f,%.2f,%.3f\n", c.kind.c_str(), c.g, c.d, t.components, t.device_ms,
                  dg, floor_ms / t.device_ms, t.run_ms, rg, floor_ms / t.run_ms);
      if (args.kernels) {
        std::printf("        stages:");
        for (const auto& s : t.stages) std::printf(" %s %.3f", s.first.c_str(), s.second);
        std::printf(" ms\n");
      }
    }
    std::printf("\nmean over densities (Gpix/s)   device work   run()   device fraction of floor\n");
    for (const std::string group : {"g=1", "g=4", "g=16", "full"}) {
      double dm = 0, rm = 0;
      for (double v : device_gpix[group]) dm += v;
      for (double v : run_gpix[group]) rm += v;
      dm /= device_gpix[group].size();
      rm /= run_gpix[group].size();
      const double floor_gpix = pixels / floor_ms / 1e6;
      std::printf("%-5s                          %8.1f   %7.1f   %.2f\n", group.c_str(), dm, rm, dm / floor_gpix);
      std::printf("csv,mean,%s,%.2f,%.2f,%.3f\n", group.c_str(), dm, rm, dm / floor_gpix);
      if (args.kernels) {
        std::printf("      mean stage ms:");
        for (const auto& s : stage_ms[group]) std::printf(" %s %.3f", s.first.c_str(), s.second / group_frames[group]);
        std::printf("\n");
      }
    }
    cudaFree(d_image);
  } catch (const ccl::Error& e) {
    std::fprintf(stderr, "ccl-bench-gpu: %s\n", e.what());
    return 1;
  }
  return 0;
}
