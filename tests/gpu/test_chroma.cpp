// Options::chroma on the GPU: colour sequences (tests/common/colour_frames.hpp) through the CUDA
// backend, the CPU backend and oracle::AdaptiveChroma, the mask that is labelled compared byte for
// byte and the results in full, frame by frame: I420 and NV12 with padded rows, sizes around the
// 256x36 foreground tile and the 128x64 colour tile, odd sizes (clipped blocks), with and
// without cudaccl's morphology, device and host frames, 1080p (thousands of blocks' sums), three
// frames in flight on one model, and a stream whose chroma comes and goes, or that is reset.
#include <memory>
#include <string>
#include <vector>

#include "chroma_oracle.hpp"
#include "colour_frames.hpp"
#include "gpu_harness.hpp"

namespace {

using colour_frames::colour_options;
using colour_frames::ColourFrame;
using gpu_test::harness;
using gpu_test::Upload;

// The frame's bytes in device (or host) memory as the analyzer reads them.
struct LaidOut {
  colour_frames::ChromaBuffer chroma;  // host bytes
  gpu_test::DeviceBuffer luma_device, chroma_device;
};

struct Shown {
  ccl::Result result;
  std::vector<std::uint8_t> mask;  // width*height, 0 or 255
};

// `laid`'s view with its planes in `device`, a copy of laid.bytes.
ccl::ChromaView on_device(const colour_frames::ChromaBuffer& laid, const std::uint8_t* device) {
  ccl::ChromaView view = laid.view;
  view.u = device + (laid.view.u - laid.bytes.data());
  view.v = device + (laid.view.v - laid.bytes.data());
  return view;
}

// One frame through the harness's CUDA analyzer, its mask downloaded.
Shown run_gpu(const ColourFrame& f, const ccl::Options& o, bool nv12, int pad, bool with_chroma, Upload upload,
              LaidOut& buffers) {
  const frames::Frame& l = f.luma;
  buffers.chroma = colour_frames::lay_out(f.chroma, nv12, pad);
  ccl::ImageView image{l.pixels.data(), l.width, l.height, l.stride, with_chroma ? buffers.chroma.view : ccl::ChromaView{}};
  Shown s;
  s.mask.resize(std::size_t(l.width) * l.height);
  if (upload == Upload::Host) {
    const ccl::MaskView mask{s.mask.data(), l.width};
    harness().gpu.submit_host(image, o, &mask);
    harness().gpu.collect(s.result);
    return s;
  }
  auto* luma = static_cast<std::uint8_t*>(buffers.luma_device.get(l.pixels.size()));
  auto* chroma = static_cast<std::uint8_t*>(buffers.chroma_device.get(buffers.chroma.bytes.size()));
  auto* mask = static_cast<std::uint8_t*>(harness().image.get(s.mask.size()));
  EXPECT_TRUE(luma && chroma && mask);
  EXPECT_EQ(cudaMemcpy(luma, l.pixels.data(), l.pixels.size(), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(chroma, buffers.chroma.bytes.data(), buffers.chroma.bytes.size(), cudaMemcpyHostToDevice),
            cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  image.data = luma;
  if (with_chroma) image.chroma = on_device(buffers.chroma, chroma);
  const ccl::MaskView view{mask, l.width};
  harness().gpu.run(image, o, s.result, nullptr, &view);
  EXPECT_EQ(cudaMemcpy(s.mask.data(), mask, s.mask.size(), cudaMemcpyDeviceToHost), cudaSuccess);
  return s;
}

Shown run_cpu(ccl::Analyzer& cpu, const ColourFrame& f, const ccl::Options& o, bool nv12, int pad, bool with_chroma) {
  const frames::Frame& l = f.luma;
  const colour_frames::ChromaBuffer chroma = colour_frames::lay_out(f.chroma, nv12, pad);
  Shown s;
  s.mask.resize(std::size_t(l.width) * l.height);
  const ccl::MaskView mask{s.mask.data(), l.width};
  cpu.run({l.pixels.data(), l.width, l.height, l.stride, with_chroma ? chroma.view : ccl::ChromaView{}}, o, s.result,
          nullptr, &mask);
  return s;
}

std::size_t first_difference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

struct Layout {
  bool nv12 = false;
  int pad = 0;
  Upload upload = Upload::Device;
  bool oracle = true;  // also against oracle::AdaptiveChroma (small frames: it is brute force)
};

std::string describe(const Layout& run, const ccl::Options& o, const frames::Frame& f) {
  return f.name + " " + std::to_string(f.width) + "x" + std::to_string(f.height) + (run.nv12 ? " NV12" : " I420") +
         " pad=" + std::to_string(run.pad) + (run.upload == Upload::Host ? " host" : " device") +
         " open=" + std::to_string(o.open_radius) + " close=" + std::to_string(o.close_radius) +
         " shrink=" + std::to_string(o.shrink_radius) + " absorb=" + std::to_string(o.absorb_frames);
}

// `seq` through a fresh CUDA model, a fresh CPU analyzer and (run.oracle) the oracle; stops at the
// first frame that differs. `chroma_at(t)`: whether frame t passes its chroma. Returns the frames
// with a component.
std::size_t expect_agree(const std::vector<ColourFrame>& seq, const ccl::Options& o, const Layout& run,
                         bool (*chroma_at)(std::size_t) = nullptr) {
  harness().gpu.set_background_model(ccl::make_cuda_background_model());
  std::unique_ptr<ccl::Analyzer> cpu = ccl::make_cpu_analyzer();
  oracle::AdaptiveChroma oracle_model;
  LaidOut buffers;
  std::size_t with_components = 0;
  for (std::size_t t = 0; t < seq.size(); ++t) {
    const ColourFrame& f = seq[t];
    const bool with_chroma = !chroma_at || chroma_at(t);
    const std::string what = describe(run, o, f.luma) + (with_chroma ? "" : " (no chroma)");
    const Shown got = run_gpu(f, o, run.nv12, run.pad, with_chroma, run.upload, buffers);
    const Shown want = run_cpu(*cpu, f, o, run.nv12, run.pad, with_chroma);
    const std::size_t at = first_difference(got.mask, want.mask);
    EXPECT_EQ(at, want.mask.size()) << "GPU vs CPU mask at pixel (" << at % f.luma.width << "," << at / f.luma.width
                                    << ") of " << what;
    EXPECT_EQ(compare::diff(got.result, want.result), "") << "GPU vs CPU: " << what;
    if (run.oracle) {
      const oracle::Mask raw = oracle_model.next(f.luma, f.chroma, o.motion_factor, o.absorb_frames);
      const oracle::Mask clean =
          oracle::clean_up(raw, f.luma.width, f.luma.height, o.open_radius, o.close_radius, o.shrink_radius);
      EXPECT_EQ(colour_frames::mismatches(got.mask, clean), 0) << "GPU vs oracle: " << what;
    }
    ++gpu_test::frames_checked;
    with_components += got.result.n_components_total > 0;
    if (::testing::Test::HasFailure()) break;
  }
  return with_components;
}


TEST(ChromaForeground, StreetAgrees) {
  const int n = gpu_test::quick() ? 30 : 70;
  const gpu_test::Size sizes[] = {{96, 64}, {67, 45}, {300, 70}, {257, 61}};
  std::size_t frames = 0, with_components = 0;
  for (const gpu_test::Size size : sizes) {
    if (gpu_test::quick() && size.w > 100) continue;
    for (const bool nv12 : {false, true})
      for (const bool recipe : {false, true}) {
        const Layout run{nv12, nv12 ? 3 : 0, recipe && nv12 ? Upload::Host : Upload::Device, true};
        const auto seq = colour_frames::street(size.w, size.h, n, 7u + unsigned(size.w), run.pad);
        with_components += expect_agree(seq, colour_options(8, recipe), run);
        frames += seq.size();
        if (HasFailure()) return;
      }
  }
  EXPECT_GT(with_components, frames / 2) << "most masks came out empty: the comparisons prove little";
}

TEST(ChromaForeground, RandomColourAgrees) {
  const gpu_test::Size sizes[] = {{1, 1}, {2, 3}, {3, 2}, {33, 17}, {41, 29}, {64, 9}, {255, 33}};
  std::uint32_t seed = 0;
  for (const gpu_test::Size size : sizes)
    for (const bool nv12 : {false, true}) {
      ++seed;
      const Layout run{nv12, int(seed % 3), seed % 4 == 3 ? Upload::Host : Upload::Device, true};
      expect_agree(colour_frames::random_colour(size.w, size.h, gpu_test::quick() ? 12 : 30, seed, run.pad),
                   colour_options(int(1 + seed % 3 * 4), seed % 2 == 0), run);
      if (HasFailure()) return;
    }
}

// The filters run after the colour pass and the texture test, as the foreground stage's passes
// (the first reads the colour pass's bits): halos from 1 to 30, odd and even, in one pass, and
// beyond 30 in two or three (the second writes over the bit planes' plane).
TEST(ChromaForeground, EveryFilterHaloAgrees) {
  struct Radii {
    int open, close, shrink;
  };
  const Radii radii[] = {{0, 0, 1},  {1, 0, 0},  {0, 1, 1}, {2, 3, 1},  {3, 5, 9},   {5, 8, 0},
                         {0, 13, 0}, {15, 0, 0}, {4, 9, 3}, {10, 8, 0}, {15, 15, 15}};
  const int n = gpu_test::quick() ? 12 : 25;
  for (const Radii r : radii) {
    ccl::Options o = colour_options(6, false);
    o.open_radius = r.open, o.close_radius = r.close, o.shrink_radius = r.shrink;
    const Layout run{true, 2, Upload::Device, true};
    expect_agree(colour_frames::street(150, 70, n, 11u + unsigned(r.close), run.pad), o, run);
    if (HasFailure()) return;
  }
}

// cudaccl's recipe at 1080p against the CPU only: the chroma sums of half a million blocks must add
// up to the CPU's, or relearning and the colour gate would differ.
TEST(ChromaForeground, FullHdAgreesWithTheCpu) {
  const int n = gpu_test::quick() ? 6 : 60;
  const Layout run{true, 0, Upload::Device, false};
  EXPECT_GT(expect_agree(colour_frames::street(1920, 1080, n, 99, 0), colour_options(8, true), run), 0u);
  if (HasFailure()) return;
  expect_agree(colour_frames::random_colour(1920, 1080, gpu_test::quick() ? 5 : 10, 5, 0), colour_options(3, true),
               Layout{false, 0, Upload::Device, false});
}

// The element's frames in flight: three analyzers on three streams share one model, frames handed
// out in turn and collected two frames later, so a frame's colour pass runs while the next frames'
// luma passes do (they must leave the C and status copies it reads alone). Left to the hardware the
// colour pass mostly reads before the next luma pass writes; each colour pass starts 3 ms late
// here, so the next frame's luma pass has run by then. Equal the CPU, frame by frame (absorb-frames
// 8: C's copies matter); 1080p, and a small frame of clipped tiles.
TEST(ChromaForeground, FramesInFlightShareOneModel) {
  struct Case {
    int w, h, frames;
  };
  const Case cases[] = {{1920, 1080, gpu_test::quick() ? 8 : 40}, {257, 61, 40}};
  for (const Case c : cases) {
    const auto seq = colour_frames::street(c.w, c.h, c.frames, 41, 0);
    const ccl::Options o = colour_options(8, true);
    constexpr int kInFlight = 3;
    gpu_test::Stream streams[kInFlight];
    std::unique_ptr<ccl::CudaAnalyzer> analyzers[kInFlight];
    const std::shared_ptr<ccl::BackgroundModel> shared = ccl::make_cuda_background_model();
    ccl::delay_colour_passes(*shared, 3000);
    for (int k = 0; k < kInFlight; ++k) {
      analyzers[k] = std::make_unique<ccl::CudaAnalyzer>(streams[k].get());
      analyzers[k]->set_background_model(shared);
    }
    gpu_test::DeviceBuffer lumas[kInFlight], chromas[kInFlight], masks[kInFlight];
    std::vector<colour_frames::ChromaBuffer> laid(seq.size());
    std::vector<Shown> got(seq.size());
    auto submit = [&](std::size_t i) {
      const int k = int(i % kInFlight);
      const frames::Frame& l = seq[i].luma;
      laid[i] = colour_frames::lay_out(seq[i].chroma, true, 0);
      auto* luma = static_cast<std::uint8_t*>(lumas[k].get(l.pixels.size()));
      auto* chroma = static_cast<std::uint8_t*>(chromas[k].get(laid[i].bytes.size()));
      auto* mask = static_cast<std::uint8_t*>(masks[k].get(std::size_t(l.width) * l.height));
      ASSERT_TRUE(luma && chroma && mask);
      // On the analyzer's own stream: a copy on the default stream would wait for every stream.
      gpu_test::cuda_ok(cudaMemcpyAsync(luma, l.pixels.data(), l.pixels.size(), cudaMemcpyHostToDevice,
                                        streams[k].get()), "cudaMemcpyAsync (luma)");
      gpu_test::cuda_ok(cudaMemcpyAsync(chroma, laid[i].bytes.data(), laid[i].bytes.size(), cudaMemcpyHostToDevice,
                                        streams[k].get()), "cudaMemcpyAsync (chroma)");
      const ccl::MaskView mask_view{mask, l.width};
      analyzers[k]->submit({luma, l.width, l.height, l.stride, on_device(laid[i], chroma)}, o, nullptr, &mask_view);
    };
    auto collect = [&](std::size_t i) {
      const int k = int(i % kInFlight);
      analyzers[k]->collect(got[i].result);
      got[i].mask.resize(std::size_t(c.w) * c.h);
      gpu_test::cuda_ok(cudaMemcpyAsync(got[i].mask.data(), masks[k].get(got[i].mask.size()), got[i].mask.size(),
                                        cudaMemcpyDeviceToHost, streams[k].get()),
                        "cudaMemcpyAsync (mask)");
      gpu_test::cuda_ok(cudaStreamSynchronize(streams[k].get()), "cudaStreamSynchronize");
    };
    for (std::size_t i = 0; i < seq.size(); ++i) {
      submit(i);
      if (i >= kInFlight - 1) collect(i - (kInFlight - 1));
      if (HasFailure()) return;
    }
    for (std::size_t i = seq.size() - (kInFlight - 1); i < seq.size(); ++i) collect(i);
    EXPECT_EQ(shared->frames_seen(), seq.size());

    std::unique_ptr<ccl::Analyzer> cpu = ccl::make_cpu_analyzer();
    std::size_t with_components = 0;
    for (std::size_t i = 0; i < seq.size(); ++i) {
      const Shown want = run_cpu(*cpu, seq[i], o, true, 0, true);
      const std::string what =
          seq[i].luma.name + " " + std::to_string(c.w) + "x" + std::to_string(c.h) + " (3 in flight)";
      const std::size_t at = first_difference(got[i].mask, want.mask);
      EXPECT_EQ(at, want.mask.size()) << "GPU vs CPU mask at pixel (" << at % c.w << "," << at / c.w << ") of " << what;
      EXPECT_EQ(compare::diff(got[i].result, want.result), "") << "GPU vs CPU: " << what;
      ++gpu_test::frames_checked;
      with_components += got[i].result.n_components_total > 0;
      if (HasFailure()) return;
    }
    EXPECT_GT(with_components, seq.size() / 2) << "most masks came out empty: the comparison proves little";
  }
}

// Chroma that comes and goes (a caller that passes luma only for a while) restarts the chroma
// model on its return, as on the CPU; so do the option turned off and on, a reset, a frame of
// another size and a frame of another mode (motion) on the same model.
TEST(ChromaForeground, ChromaComesAndGoes) {
  const auto seq = colour_frames::street(67, 45, 60, 3, 1);
  const Layout run{true, 1, Upload::Device, false};
  expect_agree(seq, colour_options(8, true), run, [](std::size_t t) { return t < 12 || (t >= 18 && t != 40); });
  if (HasFailure()) return;
  const auto other_size = colour_frames::street(96, 64, 20, 4, 1);
  LaidOut buffers;
  harness().gpu.set_background_model(nullptr);
  const std::shared_ptr<ccl::BackgroundModel> model = ccl::make_cuda_background_model();
  harness().gpu.set_background_model(model);
  std::unique_ptr<ccl::Analyzer> cpu = ccl::make_cpu_analyzer();
  auto check = [&](const ColourFrame& f, const ccl::Options& o, const std::string& when) {
    const Shown got = run_gpu(f, o, true, 1, true, Upload::Device, buffers);
    const Shown want = run_cpu(*cpu, f, o, true, 1, true);
    EXPECT_EQ(first_difference(got.mask, want.mask), want.mask.size()) << f.luma.name << " " << when;
    EXPECT_EQ(compare::diff(got.result, want.result), "") << f.luma.name << " " << when;
    ++gpu_test::frames_checked;
  };
  const ccl::Options colour = colour_options(8, true);
  ccl::Options plain = colour, motion = colour;
  plain.chroma = false;
  motion.foreground = ccl::Foreground::Motion;
  for (std::size_t t = 0; t < seq.size(); ++t) {
    if (t == 30) {
      model->reset();
      cpu = ccl::make_cpu_analyzer();
    }
    const bool option_off = t >= 20 && t < 24, as_motion = t >= 50 && t < 53;
    check(seq[t], as_motion ? motion : option_off ? plain : colour,
          as_motion ? "(motion)" : option_off ? "(chroma=false)" : "(reset at 30)");
    if (t == 40)
      for (const ColourFrame& f : other_size) check(f, colour, "(another size, same model)");
    if (HasFailure()) return;
  }
}

}  // namespace
