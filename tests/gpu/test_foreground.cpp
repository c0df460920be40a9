// The foreground stage on the GPU: frame sequences through the Sigma-Delta model, the adaptive
// model (and threshold frames), opened, closed and shrunk, against the foreground oracle + the flood fill (results and
// label maps, so the masks too) and against the CPU backend; sizes around the 256x36 foreground tile, padded strides,
// every algorithm and analysis, radii 0..15, two analyzers on two streams sharing one model, reset, the host upload
// path, and the default path left untouched.
#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "foreground_oracle.hpp"
#include "gpu_harness.hpp"

namespace {

using frames::Frame;
using gpu_test::harness;

// Frame t of a named sequence kind; every kind is a function of (size, pad, t, seed) only.
enum class Kind { MovingRectangles, PureRandom, Still, AllChanging, Flicker, Saturated, Relit };
const Kind kKinds[] = {Kind::MovingRectangles, Kind::PureRandom, Kind::Still,
                       Kind::AllChanging,      Kind::Flicker,    Kind::Saturated};
const char* kind_name(Kind k) {
  switch (k) {
    case Kind::MovingRectangles: return "moving-rectangles";
    case Kind::PureRandom: return "pure-random";
    case Kind::Still: return "still";
    case Kind::AllChanging: return "all-changing";
    case Kind::Flicker: return "flicker";
    case Kind::Saturated: return "saturated";
    case Kind::Relit: return "relit";
  }
  return "?";
}

Frame sequence_frame(Kind kind, int w, int h, int pad, int t, std::uint32_t seed) {
  Frame f = frames::blank(std::string(kind_name(kind)) + " " + std::to_string(w) + "x" + std::to_string(h) + "+" +
                              std::to_string(pad) + " t=" + std::to_string(t) + " seed=" + std::to_string(seed),
                          w, h, pad);
  std::mt19937 rng(kind == Kind::Still ? seed : seed * 7919u + std::uint32_t(t));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int v = 0;
      switch (kind) {
        case Kind::MovingRectangles:  // slowly drifting noisy background, rectangles drawn below
          v = 40 + (x * 3 + y * 5) % 120 + t / 2 + int(rng() % 7) - 3;
          break;
        case Kind::Relit:  // the same, its light ramped up by 30 % over frames 12..14 (adaptive relearns)
          v = (40 + (x * 3 + y * 5) % 120 + int(rng() % 7) - 3) * (10 + std::clamp(t - 11, 0, 3)) / 10;
          break;
        case Kind::PureRandom:
        case Kind::Still: v = int(rng() % 256); break;
        case Kind::AllChanging:
          v = int((seed + std::uint32_t(x) * 3u + std::uint32_t(y) * 5u + std::uint32_t(t) * 97u) & 255u);
          break;
        case Kind::Flicker: v = (x < w / 2 ? t % 2 : (x + y + t) % 2) ? 255 : 0; break;
        case Kind::Saturated: {
          const int levels[] = {0, 1, 254, 255};
          v = levels[rng() % 4];
          break;
        }
      }
      f.at(x, y) = std::uint8_t(std::clamp(v, 0, 255));
    }
  if (kind == Kind::MovingRectangles || kind == Kind::Relit)
    for (int k = 0; k < 3; ++k) {
      const int rw = 1 + int((seed + 13u * k) % std::uint32_t(std::max(1, w / 3))),
                rh = 1 + int((seed + 7u * k) % std::uint32_t(std::max(1, h / 3)));
      const int x0 = (int(seed % 97u) + 11 * k + 3 * t * (k + 1)) % std::max(1, w),
                y0 = (int(seed % 89u) + 17 * k + 2 * t) % std::max(1, h);
      for (int y = y0; y < std::min(h, y0 + rh); ++y)
        for (int x = x0; x < std::min(w, x0 + rw); ++x) f.at(x, y) = std::uint8_t(230 - 40 * k);
    }
  return f;
}

std::vector<Frame> sequence(Kind kind, int w, int h, int pad, int n, std::uint32_t seed) {
  std::vector<Frame> s;
  for (int t = 0; t < n; ++t) s.push_back(sequence_frame(kind, w, h, pad, t, seed));
  return s;
}

// The options the labelling of a mask takes: the foreground stage's fields dropped.
ccl::Options mask_options(ccl::Options o) {
  o.threshold = 0;
  o.foreground = ccl::Foreground::Threshold;
  o.open_radius = o.close_radius = o.shrink_radius = 0;
  return o;
}

std::string describe(const ccl::Options& o) {
  return std::string(" fg=") + ccl::to_string(o.foreground) + " N=" + std::to_string(o.motion_factor) +
         " open=" + std::to_string(o.open_radius) + " close=" + std::to_string(o.close_radius) +
         " shrink=" + std::to_string(o.shrink_radius) + " absorb=" + std::to_string(o.absorb_frames) +
         " conn=" + std::to_string(o.connectivity) + " thr=" + std::to_string(o.threshold) +
         " alg=" + ccl::to_string(o.algorithm) + " ana=" + ccl::to_string(o.analysis) +
         " order=" + ccl::to_string(o.order) + " min=" + std::to_string(o.min_area) +
         " max=" + std::to_string(o.max_area) + " objects=" + std::to_string(o.max_objects);
}

// The oracle's frame: its mask (oracle::Models), labelled by flood fill.
oracle::Output oracle_frame(oracle::Models& model, const Frame& f, const ccl::Options& o) {
  const oracle::Mask m = model.next(f, o);
  return oracle::flood_fill(oracle::mask_frame(m, f.width, f.height), mask_options(o));
}

void expect_map(const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want, int width,
                const std::string& what) {
  std::size_t bad = 0;
  while (bad < got.size() && bad < want.size() && got[bad] == want[bad]) ++bad;
  EXPECT_EQ(got.size(), want.size()) << what;
  if (bad < got.size() && bad < want.size())
    ADD_FAILURE() << "label map differs at pixel (" << bad % width << "," << bad / width << "): " << got[bad]
                  << " != " << want[bad] << " in " << what;
}

// A sequence through the harness's CUDA analyzer (a fresh model), a fresh CPU analyzer and the
// oracle: results and label maps equal, frame by frame. Stops at the first failing frame. Returns
// how many frames had any component, so callers can tell a real test from empty masks.
std::size_t expect_sequence_agrees(const std::vector<Frame>& seq, const ccl::Options& o,
                                   gpu_test::Upload upload = gpu_test::Upload::Device) {
  std::size_t with_components = 0;
  harness().gpu.set_background_model(ccl::make_cuda_background_model());
  std::unique_ptr<ccl::Analyzer> cpu = ccl::make_cpu_analyzer();
  oracle::Models model;
  for (const Frame& f : seq) {
    const std::string what = f.name + describe(o);
    std::vector<std::uint32_t> map;
    const bool with_map = upload == gpu_test::Upload::Device;
    const ccl::Result got = harness().run_gpu(f, o, with_map ? &map : nullptr, upload);
    ccl::Result cpu_result;
    cpu->run({f.pixels.data(), f.width, f.height, f.stride, {}}, o, cpu_result);
    const oracle::Output want = oracle_frame(model, f, o);
    EXPECT_EQ(compare::diff(got, want.result), "") << "GPU vs oracle: " << what;
    EXPECT_EQ(compare::diff(got, cpu_result), "") << "GPU vs CPU: " << what;
    if (with_map) expect_map(map, want.labels, f.width, what);
    ++gpu_test::frames_checked;
    with_components += got.n_components_total > 0;
    if (::testing::Test::HasFailure()) break;
  }
  return with_components;
}

struct Radii {
  int open, close;
};
// 0, 1, 2, 3 and 15 each; both in one tile pass (sum <= 15) and in two (sum > 15).
const Radii kRadii[] = {{0, 0}, {1, 0}, {0, 1},  {1, 1},  {2, 2},   {3, 0},
                        {0, 3}, {2, 3}, {15, 0}, {0, 15}, {15, 15}, {3, 15}};

// 1x1, 1xN, Nx1, primes, multiples and non-multiples of the 256x36 tile and its 32-pixel words.
const gpu_test::Size kSizes[] = {{1, 1},   {1, 37},   {41, 1},   {2, 2},    {31, 29},  {33, 65},  {64, 64},
                                 {65, 63}, {97, 101}, {130, 66}, {256, 36}, {255, 37}, {257, 73}, {300, 70}};

TEST(Foreground, MotionSequences) {
  const int n_frames = gpu_test::quick() ? 3 : 6;
  std::uint32_t seed = 100;
  std::size_t radius_pick = 0, frames = 0, with_components = 0;
  for (const gpu_test::Size size : kSizes) {
    if (gpu_test::quick() && size.w * size.h > 40 * 40) continue;
    for (const Kind kind : kKinds) {
      ++seed;
      ccl::Options o;
      o.foreground = ccl::Foreground::Motion;
      o.connectivity = seed % 2 ? 4 : 8;
      o.motion_factor = std::uint8_t(1 + seed % ccl::kMaxMotionFactor);
      Radii r = kRadii[radius_pick++ % std::size(kRadii)];
      if (size.w * size.h > 10000 && (r.open == 15 || r.close == 15)) r = {2, 1};  // the brute-force oracle's time
      o.open_radius = r.open;
      o.close_radius = r.close;
      const int pads[] = {0, 3, 13};
      const std::size_t moving =
          expect_sequence_agrees(sequence(kind, size.w, size.h, pads[seed % 3], n_frames, seed), o);
      if (HasFailure()) return;
      if (kind == Kind::Still) {
        EXPECT_EQ(moving, 0u) << "a still scene has no foreground";
      }
      frames += std::size_t(n_frames);
      with_components += moving;
    }
  }
  EXPECT_GT(with_components, frames / 3) << "most masks came out empty: the comparisons prove little";
}

// Every radius on one size that is no multiple of the tile, with a padded stride.
TEST(Foreground, MotionEveryRadius) {
  std::uint32_t seed = 300;
  for (const Radii r : kRadii)
    for (int connectivity : {4, 8}) {
      ccl::Options o;
      o.foreground = ccl::Foreground::Motion;
      o.connectivity = connectivity;
      o.open_radius = r.open;
      o.close_radius = r.close;
      o.motion_factor = 2;
      expect_sequence_agrees(sequence(Kind::MovingRectangles, 141, 75, 5, 5, ++seed), o);
      if (HasFailure()) return;
    }
}

TEST(Foreground, EveryAlgorithmAndAnalysis) {
  const ccl::Algorithm algorithms[] = {ccl::Algorithm::OptimizedUF, ccl::Algorithm::EightDLS, ccl::Algorithm::M8DLS,
                                       ccl::Algorithm::ColumnRuns, ccl::Algorithm::RasterSegments};
  const ccl::Analysis analyses[] = {ccl::Analysis::FlslCd, ccl::Analysis::Naive, ccl::Analysis::Flsl,
                                    ccl::Analysis::FlslOtf};
  std::mt19937 rng(77);
  std::uint32_t seed = 500;
  for (const ccl::Algorithm algorithm : algorithms)
    for (const ccl::Analysis analysis : analyses)
      for (int connectivity : {4, 8}) {
        ccl::Options o = gpu_test::random_options(rng, connectivity, false);  // orders, area filters, max_objects
        o.algorithm = algorithm;
        o.analysis = analysis;
        const ccl::Foreground modes[] = {ccl::Foreground::Threshold, ccl::Foreground::Motion,
                                         ccl::Foreground::Adaptive};
        o.foreground = modes[seed % 3];
        o.shrink_radius = int(seed / 9 % 2);
        o.absorb_frames = 2;
        o.threshold = 120;
        o.open_radius = int(seed % 3);
        o.close_radius = int((seed / 3) % 3);
        const Kind kind = seed % 2 ? Kind::MovingRectangles : Kind::PureRandom;
        expect_sequence_agrees(sequence(kind, 97, 61, 7, 4, ++seed), o);
        if (HasFailure()) return;
      }
}

// Threshold mode with morphology (no model): gray random frames, every radius, sizes and strides.
TEST(Foreground, ThresholdWithMorphology) {
  std::uint32_t seed = 700;
  std::size_t radius_pick = 1;  // {0, 0} is the default path, tested everywhere else
  for (const gpu_test::Size size : kSizes) {
    if (gpu_test::quick() && size.w * size.h > 40 * 40) continue;
    for (int density : {10, 50, 90}) {
      ++seed;
      Radii r = kRadii[radius_pick++ % std::size(kRadii)];
      if (r.open == 0 && r.close == 0) r = kRadii[radius_pick++ % std::size(kRadii)];
      if (size.w * size.h > 10000 && (r.open == 15 || r.close == 15)) r = {1, 2};
      ccl::Options o;
      o.connectivity = seed % 2 ? 4 : 8;
      o.threshold = std::uint8_t(seed * 37 % 256);
      o.open_radius = r.open;
      o.close_radius = r.close;
      const Frame f = gpu_test::sweep_frame(size, density, 1 + int(seed % 4), seed);
      expect_sequence_agrees({f}, o);
      if (HasFailure()) return;
    }
  }
}

// The element's frames in flight: two analyzers on two streams, one model, frames handed out in
// turn (submit A f0, submit B f1, collect A, submit A f2, collect B, ...), equal one analyzer.
TEST(Foreground, TwoStreamsShareOneModel) {
  for (const Radii r : {Radii{0, 0}, Radii{1, 2}, Radii{15, 3}})
    for (const ccl::Foreground mode : {ccl::Foreground::Motion, ccl::Foreground::Adaptive}) {
      ccl::Options o;
      o.foreground = mode;
      o.absorb_frames = 4;
      o.shrink_radius = r.close > 0 ? 1 : 0;
      o.open_radius = r.open;
      o.close_radius = r.close;
      o.motion_factor = 3;
      const int w = 131, h = 77, pad = 9;
      const std::vector<Frame> seq = sequence(mode == ccl::Foreground::Adaptive ? Kind::Relit : Kind::MovingRectangles,
                                              w, h, pad, 20, 900u + std::uint32_t(r.open));

      gpu_test::Stream streams[2];
      ccl::CudaAnalyzer a(streams[0].get()), b(streams[1].get());
      ccl::CudaAnalyzer* analyzers[2] = {&a, &b};
      const std::shared_ptr<ccl::BackgroundModel> shared = ccl::make_cuda_background_model();
      a.set_background_model(shared);
      b.set_background_model(shared);
      gpu_test::DeviceBuffer images[2], label_buffers[2];
      std::vector<ccl::Result> results(seq.size());
      std::vector<std::vector<std::uint32_t>> maps(seq.size());
      auto submit = [&](std::size_t i) {
        const int k = int(i % 2);
        const Frame& f = seq[i];
        auto* d = static_cast<std::uint8_t*>(images[k].get(f.pixels.size()));
        auto* l = static_cast<std::uint32_t*>(label_buffers[k].get(std::size_t(w) * h * 4));
        ASSERT_NE(d, nullptr);
        ASSERT_NE(l, nullptr);
        // On the analyzer's own stream, so the other stream's frame is not waited for.
        gpu_test::cuda_ok(
            cudaMemcpyAsync(d, f.pixels.data(), f.pixels.size(), cudaMemcpyHostToDevice, streams[k].get()),
            "cudaMemcpyAsync (frame)");
        const ccl::LabelView view{l, w};
        analyzers[k]->submit({d, f.width, f.height, f.stride, {}}, o, &view);
      };
      auto collect = [&](std::size_t i) {
        const int k = int(i % 2);
        analyzers[k]->collect(results[i]);
        maps[i].resize(std::size_t(w) * h);
        gpu_test::cuda_ok(cudaMemcpy(maps[i].data(), label_buffers[k].get(std::size_t(w) * h * 4), maps[i].size() * 4,
                                     cudaMemcpyDeviceToHost),
                          "cudaMemcpy (label map)");
      };
      submit(0);
      for (std::size_t i = 1; i < seq.size(); ++i) {
        submit(i);
        collect(i - 1);
        if (HasFailure()) return;
      }
      collect(seq.size() - 1);
      EXPECT_EQ(shared->frames_seen(), seq.size());

      harness().gpu.set_background_model(ccl::make_cuda_background_model());
      oracle::Models model;
      for (std::size_t i = 0; i < seq.size(); ++i) {
        const std::string what = seq[i].name + describe(o) + " (two streams)";
        std::vector<std::uint32_t> one_map;
        const ccl::Result one = harness().run_gpu(seq[i], o, &one_map);
        const oracle::Output want = oracle_frame(model, seq[i], o);
        EXPECT_EQ(compare::diff(results[i], one), "") << "two analyzers vs one: " << what;
        EXPECT_EQ(compare::diff(results[i], want.result), "") << "two analyzers vs oracle: " << what;
        expect_map(maps[i], want.labels, w, what);
        EXPECT_EQ(maps[i], one_map) << "two analyzers vs one (label map): " << what;
        ++gpu_test::frames_checked;
        if (HasFailure()) return;
      }
    }
}

// Adaptive: long enough for the slow turns (every 16th frame), small absorb_frames so pixels join the
// background, light ramps and all-changing frames so it relearns, shrink in one and several passes.
TEST(Foreground, AdaptiveSequences) {
  const int n_frames = gpu_test::quick() ? 18 : 36;
  const Kind kinds[] = {Kind::Relit, Kind::MovingRectangles, Kind::AllChanging, Kind::Flicker, Kind::Still};
  struct Filters {
    int open, close, shrink;
  };
  const Filters filters[] = {{0, 0, 0}, {1, 2, 1}, {0, 0, 3}, {2, 3, 15}, {15, 0, 1}, {7, 7, 1}};
  std::uint32_t seed = 1100;
  std::size_t pick = 0, frames = 0, with_components = 0;
  for (const gpu_test::Size size : kSizes) {
    if (gpu_test::quick() && size.w * size.h > 40 * 40) continue;
    for (const Kind kind : kinds) {
      ++seed;
      ccl::Options o;
      o.foreground = ccl::Foreground::Adaptive;
      o.connectivity = seed % 2 ? 4 : 8;
      o.motion_factor = std::uint8_t(1 + seed % 5);
      o.absorb_frames = int(1 + seed % 3 * 7);
      Filters f = filters[pick++ % std::size(filters)];
      if (size.w * size.h > 10000 && (f.open == 15 || f.shrink == 15)) f = {1, 2, 1};  // the brute-force oracle's time
      o.open_radius = f.open;
      o.close_radius = f.close;
      o.shrink_radius = f.shrink;
      const int pads[] = {0, 3, 13};
      const std::size_t moving =
          expect_sequence_agrees(sequence(kind, size.w, size.h, pads[seed % 3], n_frames, seed), o);
      if (HasFailure()) return;
      if (kind == Kind::Still) {
        EXPECT_EQ(moving, 0u) << "a still scene has no foreground";
      }
      frames += std::size_t(n_frames);
      with_components += moving;
    }
  }
  EXPECT_GT(with_components, frames / 16) << "most masks came out empty: the comparisons prove little";
}

// The recipe cudaccl runs at 1080p (frames that span many tiles and blocks), GPU against the CPU
// backend only (the brute-force oracle would take minutes): the light sums and foreground counts of
// thousands of blocks must add up to the CPU's, or the relearning frames would differ.
TEST(Foreground, AdaptiveFullHdAgreesWithTheCpu) {
  ccl::Options o;
  o.foreground = ccl::Foreground::Adaptive;
  o = ccl::adaptive_recipe(o);
  o.absorb_frames = 5;
  o.min_area = 10;
  harness().gpu.set_background_model(ccl::make_cuda_background_model());
  std::unique_ptr<ccl::Analyzer> cpu = ccl::make_cpu_analyzer();
  std::size_t with_components = 0;
  const int n = gpu_test::quick() ? 8 : 24;
  for (int t = 0; t < n; ++t) {
    const Frame f = sequence_frame(t < n / 2 ? Kind::Relit : Kind::AllChanging, 1920, 1080, 0, t, 4242);
    const ccl::Result got = harness().run_gpu(f, o, nullptr);
    ccl::Result want;
    cpu->run({f.pixels.data(), f.width, f.height, f.stride, {}}, o, want);
    EXPECT_EQ(compare::diff(got, want), "") << f.name << describe(o);
    with_components += !want.components.empty();
    ++gpu_test::frames_checked;
    if (HasFailure()) return;
  }
  EXPECT_GT(with_components, std::size_t(n / 4));
}

// reset() makes the next frame initialise the model (an empty mask), as does a frame of another size.
TEST(Foreground, ResetAndSizeChange) {
  ccl::Options o;
  o.foreground = ccl::Foreground::Motion;
  o.open_radius = 1;
  const std::shared_ptr<ccl::BackgroundModel> model = ccl::make_cuda_background_model();
  harness().gpu.set_background_model(model);
  EXPECT_EQ(model->frames_seen(), 0u);
  oracle::Models want_model;
  const std::vector<Frame> first = sequence(Kind::MovingRectangles, 70, 40, 2, 4, 1234);
  const std::vector<Frame> other_size = sequence(Kind::MovingRectangles, 40, 70, 0, 3, 4321);
  auto check = [&](const Frame& f) {
    std::vector<std::uint32_t> map;
    const ccl::Result got = harness().run_gpu(f, o, &map);
    const oracle::Output want = oracle_frame(want_model, f, o);
    EXPECT_EQ(compare::diff(got, want.result), "") << f.name << describe(o);
    expect_map(map, want.labels, f.width, f.name + describe(o));
    ++gpu_test::frames_checked;
  };
  for (const Frame& f : first) check(f);
  EXPECT_EQ(model->frames_seen(), first.size());
  model->reset();
  want_model.reset();
  EXPECT_EQ(model->frames_seen(), 0u);
  const ccl::Result after_reset = harness().run_gpu(first[3], o);
  EXPECT_EQ(after_reset.n_components_total, 0u) << "the first frame after a reset is background";
  want_model.next(first[3], o);
  for (std::size_t i = 0; i < 3; ++i) check(first[i]);
  for (const Frame& f : other_size) check(f);  // the oracle resets on the size change too
  EXPECT_EQ(model->frames_seen(), other_size.size());
  for (const Frame& f : first) check(f);
}

TEST(Foreground, SubmitHost) {
  ccl::Options o;
  o.foreground = ccl::Foreground::Motion;
  o.open_radius = 2;
  o.close_radius = 1;
  expect_sequence_agrees(sequence(Kind::MovingRectangles, 83, 59, 11, 6, 2024), o, gpu_test::Upload::Host);
  o.foreground = ccl::Foreground::Threshold;
  o.threshold = 100;
  o.open_radius = 0;
  o.close_radius = 3;
  expect_sequence_agrees(sequence(Kind::PureRandom, 45, 50, 3, 2, 2025), o, gpu_test::Upload::Host);
}

class OtherBackendModel final : public ccl::BackgroundModel {
 public:
  const char* backend_name() const override { return "other"; }
  void reset() override {}
  std::uint64_t frames_seen() const override { return 0; }
};

TEST(Foreground, RefusesAnotherBackendsModel) {
  gpu_test::Stream stream;
  ccl::CudaAnalyzer a(stream.get());
  try {
    a.set_background_model(std::make_shared<OtherBackendModel>());
    ADD_FAILURE() << "a model of another backend was accepted";
  } catch (const ccl::Error& e) {
    EXPECT_EQ(e.kind(), ccl::Error::Kind::InvalidArgument) << e.what();
  }
  a.set_background_model(nullptr);  // dropping the model is fine
}

// reserve() with foreground options holds the mask planes: motion frames then allocate nothing,
// and (raster order, no filter) run as CUDA graphs on the stable mask plane.
TEST(Foreground, ReservedFramesAllocateNothing) {
  gpu_test::Stream stream;
  ccl::CudaAnalyzer plain(stream.get()), a(stream.get());
  ccl::Options o;
  o.foreground = ccl::Foreground::Motion;
  o.close_radius = 2;
  plain.reserve(160, 90);
  a.reserve(160, 90, false, o);
  EXPECT_GT(a.device_bytes(), plain.device_bytes());
  const std::size_t reserved = a.device_bytes();
  gpu_test::DeviceBuffer image;
  oracle::Models model;
  for (const Frame& f : sequence(Kind::MovingRectangles, 160, 90, 0, 5, 77)) {
    auto* d = static_cast<std::uint8_t*>(image.get(f.pixels.size()));
    ASSERT_NE(d, nullptr);
    gpu_test::cuda_ok(cudaMemcpy(d, f.pixels.data(), f.pixels.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
    gpu_test::cuda_ok(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize");
    ccl::Result r;
    a.run({d, f.width, f.height, f.stride, {}}, o, r);
    EXPECT_EQ(compare::diff(r, oracle_frame(model, f, o).result), "") << f.name << describe(o);
    EXPECT_EQ(a.device_bytes(), reserved) << f.name;
    ++gpu_test::frames_checked;
  }
  EXPECT_GE(a.graphs_kept(), 1u);  // one per guess of the kept count, not one per frame
}

}  // namespace
