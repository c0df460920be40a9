// ccl-bench-peers-ours: generates the protocol's MT19937 frames (tests/common/frames.hpp, the seeds of
// bench/gpu), writes each one raw to --dir for the peers (NPP, CuPy, OpenCV read the same bytes), times
// our CUDA pipeline on it and writes the component counts the peers must reproduce (DIR/counts.csv).
// Output, one line each: "bandwidth,<B/s>,<device>" (device-to-device copy, read + write),
// "na,<algorithm>,<analysis>,<why>" for variants the pipeline refuses, and
// "csv,<peer>,<size>,<conn>,<g>,<d>,<components>,<ms>,<runs>,<match>,<note>" with peer ours-device
// (labels + statistics, cudaEvent) and ours-run (whole run(): compaction and host copy too).
// With --variants also the seed papers' comparisons, device work only: peer alg-<algorithm> (each
// labelling algorithm with the default analysis flsl-cd) and ana-<analysis> (each analysis after
// the default labelling optimized-uf); match = 1 when its result equals the default's exactly,
// otherwise also a "mismatch,..." line.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "ccl/cuda_analyzer.hpp"
#include "ccl/profiling.hpp"
#include "ccl/types.hpp"
#include "copy_bandwidth.cuh"
#include "frames.hpp"

namespace {

using bench::check;
using Clock = std::chrono::steady_clock;

struct Args {
  int size = 8192;
  std::string set = "protocol";  // protocol: d = 0..100 step 10; sweep: d = 0..100 step 20
  std::vector<int> connectivities{8};
  int runs = 20;
  double budget_ms = 1000;  // per frame and figure: stop after 3 runs once this is spent
  std::string dir;          // where frames and counts.csv go; empty: write nothing
  bool variants = false;    // also try every algorithm x analysis pair once and time the papers' comparisons
};

// The seed papers' comparisons: labelling algorithms under the default analysis, analyses under the
// default labelling (the defaults themselves are ours-device).
struct Variant {
  const char* peer;
  ccl::Algorithm algorithm;
  ccl::Analysis analysis;
};
const Variant kVariants[] = {
    {"alg-8dls", ccl::Algorithm::EightDLS, ccl::Analysis::FlslCd},
    {"alg-m8dls", ccl::Algorithm::M8DLS, ccl::Analysis::FlslCd},
    {"alg-column-runs", ccl::Algorithm::ColumnRuns, ccl::Analysis::FlslCd},
    {"alg-raster-segments", ccl::Algorithm::RasterSegments, ccl::Analysis::FlslCd},
    {"ana-naive", ccl::Algorithm::OptimizedUF, ccl::Analysis::Naive},
    {"ana-flsl", ccl::Algorithm::OptimizedUF, ccl::Analysis::Flsl},
    {"ana-flsl-otf", ccl::Algorithm::OptimizedUF, ccl::Analysis::FlslOtf},
};

bool same_result(const ccl::Result& a, const ccl::Result& b) {
  return a.n_components_total == b.n_components_total && a.truncated == b.truncated &&
         a.components.size() == b.components.size() &&
         std::equal(a.components.begin(), a.components.end(), b.components.begin(),
                    [](const ccl::Component& x, const ccl::Component& y) {
                      return x.label == y.label && x.area == y.area && x.x == y.x && x.y == y.y &&
                             x.width == y.width && x.height == y.height && x.centroid_x == y.centroid_x &&
                             x.centroid_y == y.centroid_y;
                    });
}

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: ccl-bench-peers-ours [--size N] [--set protocol|sweep] [--conn 8[,4]] [--runs R] "
               "[--budget-ms MS] [--dir DIR] [--variants]\n");
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    if (s == "--variants") {
      a.variants = true;
      continue;
    }
    if (i + 1 >= argc) usage();
    const std::string v = argv[++i];
    if (s == "--size") a.size = std::atoi(v.c_str());
    else if (s == "--set") a.set = v;
    else if (s == "--runs") a.runs = std::atoi(v.c_str());
    else if (s == "--budget-ms") a.budget_ms = std::atof(v.c_str());
    else if (s == "--dir") a.dir = v;
    else if (s == "--conn") {
      a.connectivities.clear();
      for (std::size_t p = 0; p < v.size(); p = v.find(',', p) == std::string::npos ? v.size() : v.find(',', p) + 1)
        a.connectivities.push_back(std::atoi(v.c_str() + p));
    } else usage();
  }
  if (a.set != "protocol" && a.set != "sweep") usage();
  return a;
}


struct Case {
  int g, d;  // g = 0: the full frame
  std::string g_text() const { return g ? std::to_string(g) : "full"; }
  std::string file(int n) const {
    return std::to_string(n) + (g ? "_g" + std::to_string(g) + "_d" + std::to_string(d) : "_full") + ".raw";
  }
};

// Best of up to `runs` calls of `once` (returns ms), at least 3, stopping once `budget_ms` is spent.
template <class F>
std::pair<double, int> best_of(int runs, double budget_ms, F once) {
  const auto start = Clock::now();
  double best = 1e30;
  int done = 0;
  while (done < runs) {
    best = std::min(best, once());
    ++done;
    if (done >= 3 && std::chrono::duration<double, std::milli>(Clock::now() - start).count() > budget_ms) break;
  }
  return {best, done};
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  try {
    const int n = args.size;
    cudaDeviceProp prop{};
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    std::printf("bandwidth,%.0f,%s\n", bench::copy_bandwidth(std::size_t(1) << 30), prop.name);

    std::vector<Case> cases;
    for (int g : {1, 4, 16})
      for (int d = 0; d <= 100; d += args.set == "protocol" ? 10 : 20) cases.push_back({g, d});
    cases.push_back({0, 100});

    // Frame generation is sequential per frame (one MT19937 stream), so frames are made in parallel.
    std::vector<frames::Frame> images(cases.size());
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < std::max(1u, std::thread::hardware_concurrency()); ++t)
      workers.emplace_back([&] {
        for (std::size_t i; (i = next++) < cases.size();) {
          const Case& c = cases[i];
          images[i] = c.g ? frames::random(n, n, c.d, c.g, 5489u + c.g * 101 + c.d) : frames::full(n, n);
          if (!args.dir.empty()) {
            FILE* f = std::fopen((args.dir + "/" + c.file(n)).c_str(), "wb");
            if (!f || std::fwrite(images[i].pixels.data(), 1, images[i].pixels.size(), f) != images[i].pixels.size()) {
              std::fprintf(stderr, "ccl-bench-peers-ours: cannot write %s/%s\n", args.dir.c_str(), c.file(n).c_str());
              std::exit(1);
            }
            std::fclose(f);
          }
        }
      });
    for (auto& w : workers) w.join();

    ccl::CudaAnalyzer analyzer(nullptr);
    ccl::Profiling profiling(analyzer);
    analyzer.reserve(n, n);
    std::uint8_t* d_image = nullptr;
    check(cudaMalloc(&d_image, std::size_t(n) * n), "cudaMalloc");
    const ccl::ImageView view{d_image, n, n, n, {}};

    if (args.variants) {  // every algorithm and analysis the API names; the pipeline says which exist
      check(cudaMemcpy(d_image, images[0].pixels.data(), images[0].pixels.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
      for (auto algorithm : {ccl::Algorithm::OptimizedUF, ccl::Algorithm::EightDLS, ccl::Algorithm::M8DLS,
                             ccl::Algorithm::ColumnRuns, ccl::Algorithm::RasterSegments})
        for (auto analysis : {ccl::Analysis::FlslCd, ccl::Analysis::Naive, ccl::Analysis::Flsl, ccl::Analysis::FlslOtf}) {
          ccl::Options o;
          o.algorithm = algorithm;
          o.analysis = analysis;
          ccl::Result r;
          try {
            analyzer.run(view, o, r);
            std::printf("variant,%s,%s,runs\n", ccl::to_string(algorithm), ccl::to_string(analysis));
          } catch (const ccl::Error& e) {
            std::printf("na,%s,%s,%s\n", ccl::to_string(algorithm), ccl::to_string(analysis), e.what());
          }
        }
    }

    FILE* counts = args.dir.empty() ? nullptr : std::fopen((args.dir + "/counts.csv").c_str(), "w");
    if (counts) std::fprintf(counts, "file,size,conn,g,d,components\n");
    ccl::Result result;
    for (int conn : args.connectivities) {
      ccl::Options o;
      o.connectivity = conn;
      for (std::size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        check(cudaMemcpy(d_image, images[i].pixels.data(), images[i].pixels.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
        for (int w = 0; w < 2; ++w) analyzer.run(view, o, result);  // warm-up
        const std::uint32_t components = result.n_components_total;
        const auto device = best_of(args.runs, args.budget_ms, [&] {
          profiling.time_stages(true);
          profiling.queue_label_and_analyze(view, o);
          profiling.synchronize();
          profiling.time_stages(false);
          float ms = 0;
          for (const auto& s : profiling.stage_times()) ms += s.second;
          return double(ms);
        });
        const auto run = best_of(args.runs, args.budget_ms, [&] {
          const auto start = Clock::now();
          analyzer.run(view, o, result);
          return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        });
        if (result.n_components_total != components) {
          std::fprintf(stderr, "ccl-bench-peers-ours: %s gave %u then %u components\n", c.file(n).c_str(), components,
                       result.n_components_total);
          return 1;
        }
        std::printf("csv,ours-device,%d,%d,%s,%d,%u,%.4f,%d,1,labels+area+bbox+centroid\n", n, conn,
                    c.g_text().c_str(), c.d, components, device.first, device.second);
        std::printf("csv,ours-run,%d,%d,%s,%d,%u,%.4f,%d,1,labels+area+bbox+centroid+compaction+host copy\n", n, conn,
                    c.g_text().c_str(), c.d, components, run.first, run.second);
        if (counts) std::fprintf(counts, "%s,%d,%d,%s,%d,%u\n", c.file(n).c_str(), n, conn, c.g_text().c_str(), c.d, components);
        if (args.variants)
          for (const Variant& v : kVariants) {
            ccl::Options vo = o;
            vo.algorithm = v.algorithm;
            vo.analysis = v.analysis;
            ccl::Result vr;
            try {
              analyzer.run(view, vo, vr);  // warm-up and the exactness check
            } catch (const ccl::Error&) {
              continue;  // refused: already reported by an "na" line
            }
            const bool match = same_result(vr, result);
            if (!match)
              std::printf("mismatch,%s,%s,conn %d: %u components, default %u\n", v.peer, c.file(n).c_str(), conn,
                          vr.n_components_total, components);
            const auto t = best_of(std::min(args.runs, 5), std::min(args.budget_ms, 60.0), [&] {
              profiling.time_stages(true);
              profiling.queue_label_and_analyze(view, vo);
              profiling.synchronize();
              profiling.time_stages(false);
              float ms = 0;
              for (const auto& s : profiling.stage_times()) ms += s.second;
              return double(ms);
            });
            std::printf("csv,%s,%d,%d,%s,%d,%u,%.4f,%d,%d,labels+area+bbox+centroid\n", v.peer, n, conn,
                        c.g_text().c_str(), c.d, vr.n_components_total, t.first, t.second, int(match));
          }
        std::fflush(stdout);
      }
    }
    if (counts) std::fclose(counts);
    cudaFree(d_image);
  } catch (const ccl::Error& e) {
    std::fprintf(stderr, "ccl-bench-peers-ours: %s\n", e.what());
    return 1;
  }
  return 0;
}
