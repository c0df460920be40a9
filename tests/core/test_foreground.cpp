// The CPU backend's foreground stage (Sigma-Delta motion model, clipped-square open/close) against
// the foreground oracle and the flood-fill oracle: label maps and results, frame by frame.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <tuple>

#include "ccl/foreground.hpp"
#include "core_check.hpp"
#include "foreground_oracle.hpp"

namespace {

using Sequence = std::vector<frames::Frame>;

std::string describe(const ccl::Options& o) {
  return corecheck::describe(o) + " fg=" + ccl::to_string(o.foreground) + " N=" + std::to_string(o.motion_factor) +
         " open=" + std::to_string(o.open_radius) + " close=" + std::to_string(o.close_radius) +
         " shrink=" + std::to_string(o.shrink_radius) + " absorb=" + std::to_string(o.absorb_frames);
}

ccl::Options fg_opts(ccl::Foreground fg, int conn, int open, int close, std::uint8_t factor = 4) {
  ccl::Options o = corecheck::opts(conn);
  o.foreground = fg;
  o.motion_factor = factor;
  o.open_radius = open;
  o.close_radius = close;
  return o;
}

// The oracle's side of one stream: its own model state, then morphology, then flood fill.
struct OracleStream {
  oracle::Models models;
  oracle::Mask mask;  // the last frame's, for the non-triviality checks
  oracle::Output next(const frames::Frame& f, const ccl::Options& o) {
    mask = models.next(f, o);
    ccl::Options label_opts = o;
    label_opts.threshold = 0;
    return oracle::flood_fill(oracle::mask_frame(mask, f.width, f.height), label_opts);
  }
};

struct Output {
  ccl::Result result;
  std::vector<std::uint32_t> labels;  // width*height
};

constexpr int kLabelPad = 3;  // the label map's rows are padded too

void submit(ccl::Analyzer& a, const frames::Frame& f, const ccl::Options& o, std::vector<std::uint32_t>& map,
            ccl::LabelView& view) {
  map.assign(std::size_t(f.width + kLabelPad) * f.height, 0xFFFFFFFFu);
  view = ccl::LabelView{map.data(), f.width + kLabelPad};
  a.submit(corecheck::view(f), o, &view);
}

Output unpad(const frames::Frame& f, const std::vector<std::uint32_t>& map, ccl::Result result) {
  Output out;
  out.result = std::move(result);
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) out.labels.push_back(map[std::size_t(y) * (f.width + kLabelPad) + x]);
  return out;
}

Output run(ccl::Analyzer& a, const frames::Frame& f, const ccl::Options& o) {
  std::vector<std::uint32_t> map;
  ccl::LabelView view;
  submit(a, f, o, map, view);
  ccl::Result r;
  a.collect(r);
  return unpad(f, map, std::move(r));
}

std::string mismatch(const Output& got, const oracle::Output& want, const frames::Frame& f) {
  std::string d = compare::diff(got.result, want.result);
  if (got.result.width != f.width || got.result.height != f.height) d += "size differs; ";
  if (got.labels != want.labels) d += "label maps differ; ";
  return d;
}

struct Counts {
  std::size_t frames = 0, foreground = 0, pixels = 0;
};

// Runs the sequence through one fresh analyzer and one oracle stream; every frame must match.
Counts check_sequence(const Sequence& seq, const ccl::Options& o, const std::string& name) {
  auto a = ccl::make_cpu_analyzer();
  OracleStream want;
  Counts c;
  for (std::size_t t = 0; t < seq.size(); ++t) {
    const oracle::Output expected = want.next(seq[t], o);
    const Output got = run(*a, seq[t], o);
    EXPECT_EQ(mismatch(got, expected, seq[t]), "")
        << name << " frame " << t << " " << seq[t].name << " " << describe(o);
    ++c.frames;
    c.pixels += want.mask.size();
    for (std::uint8_t m : want.mask) c.foreground += m;
  }
  return c;
}

// A slowly drifting gradient with noise and bright rectangles moving across it.
Sequence scene(int w, int h, int n, std::uint32_t seed, int pad = 0) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> noise(-3, 3), start(0, std::max(w, h));
  const int x0 = start(rng) % std::max(w, 1), y0 = start(rng) % std::max(h, 1);
  Sequence seq;
  for (int t = 0; t < n; ++t) {
    frames::Frame f = frames::blank("scene seed=" + std::to_string(seed) + " t=" + std::to_string(t), w, h, pad);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) f.at(x, y) = std::uint8_t(std::clamp(60 + (x + y + t / 2) % 64 + noise(rng), 0, 255));
    for (int k = 0; k < 2; ++k) {  // rectangles of 5x4, moving 2 px (k=0) or 1 px (k=1) a frame
      const int rx = (x0 + (k ? t : 2 * t)) % std::max(w, 1), ry = (y0 + k * h / 2 + t / 3) % std::max(h, 1);
      for (int y = ry; y < std::min(h, ry + 4); ++y)
        for (int x = rx; x < std::min(w, rx + 5); ++x) f.at(x, y) = 230;
    }
    seq.push_back(std::move(f));
  }
  return seq;
}

Sequence noise_sequence(int w, int h, int n, std::uint32_t seed, int pad = 0) {
  Sequence seq;
  for (int t = 0; t < n; ++t) seq.push_back(corecheck::gray_noise(w, h, seed * 1000 + std::uint32_t(t), pad));
  return seq;
}

// value(x, y, t) for every pixel of every frame.
template <typename Value>
Sequence generated(const std::string& name, int w, int h, int n, Value value, int pad = 0) {
  Sequence seq;
  for (int t = 0; t < n; ++t) {
    frames::Frame f = frames::blank(name + " t=" + std::to_string(t), w, h, pad);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) f.at(x, y) = std::uint8_t(value(x, y, t));
    seq.push_back(std::move(f));
  }
  return seq;
}

const ccl::Foreground kMotion = ccl::Foreground::Motion;
const ccl::Foreground kThreshold = ccl::Foreground::Threshold;
const ccl::Foreground kAdaptive = ccl::Foreground::Adaptive;

ccl::Options adaptive_opts(int conn, int open, int close, int shrink, int absorb, std::uint8_t factor = 3) {
  ccl::Options o = fg_opts(kAdaptive, conn, open, close, factor);
  o.shrink_radius = shrink;
  o.absorb_frames = absorb;
  return o;
}

// scene() with its light changed from frame `from` on: I -> gain I + offset (a camera's exposure
// step, or an IR switch when the contrast drops and the level rises).
Sequence relit(Sequence seq, std::size_t from, double gain, double offset) {
  for (std::size_t t = from; t < seq.size(); ++t)
    for (int y = 0; y < seq[t].height; ++y)
      for (int x = 0; x < seq[t].width; ++x)
        seq[t].at(x, y) = std::uint8_t(std::clamp(int(gain * seq[t].at(x, y) + offset + 0.5), 0, 255));
  return seq;
}

TEST(Foreground, MotionScenesMatchTheOracle) {
  std::size_t foreground = 0, pixels = 0;
  for (std::uint32_t seed : {1u, 2u, 3u})
    for (int conn : {4, 8})
      for (int open : {0, 1, 2})
        for (int close : {0, 1, 3}) {
          const Sequence seq = scene(67, 45, 12, seed, seed % 2 ? 5 : 0);
          const Counts c = check_sequence(seq, fg_opts(kMotion, conn, open, close, std::uint8_t(2 + seed)), "scene");
          foreground += c.foreground;
          pixels += c.pixels;
        }
  EXPECT_GT(foreground, 0u) << "moving rectangles must be foreground";
  EXPECT_LT(foreground, pixels / 4) << "a still background must mostly be background";
}

TEST(Foreground, MotionNoiseMatchesTheOracle) {
  std::size_t foreground = 0;
  for (std::uint32_t seed : {7u, 8u})
    for (int conn : {4, 8})
      for (int factor : {1, 4, 15})
        for (int radius : {0, 1}) {
          const Counts c = check_sequence(noise_sequence(41, 33, 10, seed, 2),
                                          fg_opts(kMotion, conn, radius, radius, std::uint8_t(factor)), "noise");
          foreground += c.foreground;
        }
  EXPECT_GT(foreground, 0u);
}

TEST(Foreground, OddSizesAndStrides) {
  const std::pair<int, int> sizes[] = {{1, 1}, {1, 40}, {40, 1}, {37, 61}, {127, 1}, {1, 131}, {33, 17}, {65, 31}};
  for (auto [w, h] : sizes)
    for (int pad : {0, 7})
      for (int conn : {4, 8})
        for (int radius : {0, 1, 2, 3, 15}) {
          check_sequence(scene(w, h, 8, std::uint32_t(w * 131 + h), pad), fg_opts(kMotion, conn, radius, 0), "scene");
          check_sequence(scene(w, h, 8, std::uint32_t(w * 7 + h), pad), fg_opts(kMotion, conn, 0, radius), "scene");
          check_sequence(noise_sequence(w, h, 3, std::uint32_t(w + h), pad), fg_opts(kThreshold, conn, radius, radius),
                         "noise");
        }
}

// Threshold mode: a mask without a model, then the same morphology.
TEST(Foreground, ThresholdWithMorphology) {
  std::size_t changed = 0;
  for (std::uint8_t threshold : {0, 100, 200})
    for (int conn : {4, 8})
      for (int open : {0, 1, 2, 3, 15})
        for (int close : {0, 1, 2, 3, 15}) {
          ccl::Options o = fg_opts(kThreshold, conn, open, close);
          o.threshold = threshold;
          const frames::Frame f = frames::random(53, 47, 55, 2, 17u + threshold, 4, true);
          check_sequence({f}, o, "random");
          if (oracle::open_close(oracle::threshold_mask(f, threshold), f.width, f.height, open, close) !=
              oracle::threshold_mask(f, threshold))
            ++changed;
        }
  EXPECT_GT(changed, 50u) << "the morphology must change most masks";
}

TEST(Foreground, AdversarialSequences) {
  const int w = 45, h = 29;
  const Sequence still = generated("still", w, h, 6, [](int x, int y, int) { return (x * 7 + y * 3) & 255; });
  const Sequence all_change =
      generated("all change", w, h, 12, [](int x, int y, int t) { return (x + y + 37 * t) & 255; });
  const Sequence flicker = generated("flicker", w, h, 12, [](int, int, int t) { return t % 2 ? 255 : 0; });
  const Sequence saturated = generated("saturated", w, h, 12, [](int x, int y, int t) {
    return ((x / 3 + y / 2 + (t > 5 ? x % 5 : 0)) % 2) ? 255 : 0;  // 0/255, part of it switching at t=6
  });
  for (int conn : {4, 8})
    for (int radius : {0, 1, 15}) {
      const ccl::Options o = fg_opts(kMotion, conn, radius, radius);
      EXPECT_EQ(check_sequence(still, o, "still").foreground, 0u) << "nothing moves";
      EXPECT_GT(check_sequence(all_change, fg_opts(kMotion, conn, 0, 0), "all change").foreground, 0u);
      check_sequence(all_change, o, "all change");
      EXPECT_GT(check_sequence(flicker, fg_opts(kMotion, conn, 0, 0), "flicker").foreground, 0u);
      check_sequence(flicker, o, "flicker");
      EXPECT_GT(check_sequence(saturated, fg_opts(kMotion, conn, 0, 0), "saturated").foreground, 0u);
      check_sequence(saturated, o, "saturated");
    }
}

// Each frame of a sequence labelled by two analyzers in turn, through one model, as the element's
// frames in flight do: the same as one analyzer.
TEST(Foreground, SharedModelEqualsOneAnalyzer) {
  const Sequence seq = scene(50, 40, 14, 5);
  for (int conn : {4, 8}) {
    const ccl::Options o = fg_opts(kMotion, conn, 1, 1);
    auto model = ccl::make_cpu_background_model();
    auto a = ccl::make_cpu_analyzer(), b = ccl::make_cpu_analyzer();
    a->set_background_model(model);
    b->set_background_model(model);
    OracleStream want;
    std::size_t foreground = 0;
    for (std::size_t t = 0; t + 1 < seq.size(); t += 2) {  // two in flight: submit both, then collect both
      std::vector<std::uint32_t> map_a, map_b;
      ccl::LabelView view_a, view_b;
      submit(*a, seq[t], o, map_a, view_a);
      submit(*b, seq[t + 1], o, map_b, view_b);
      ccl::Result ra, rb;
      a->collect(ra);
      b->collect(rb);
      const oracle::Output want_a = want.next(seq[t], o);
      for (auto m : want.mask) foreground += m;
      const oracle::Output want_b = want.next(seq[t + 1], o);
      EXPECT_EQ(mismatch(unpad(seq[t], map_a, ra), want_a, seq[t]), "") << "frame " << t;
      EXPECT_EQ(mismatch(unpad(seq[t + 1], map_b, rb), want_b, seq[t + 1]), "") << "frame " << t + 1;
    }
    EXPECT_EQ(model->frames_seen(), seq.size());
    EXPECT_GT(foreground, 0u);
  }
}

// reset() happens before a frame: frames already submitted keep the model they were submitted with.
TEST(Foreground, ResetStartsAfresh) {
  const Sequence seq = scene(48, 36, 10, 9);
  const ccl::Options o = fg_opts(kMotion, 8, 0, 0);
  auto model = ccl::make_cpu_background_model();
  EXPECT_STREQ(model->backend_name(), "cpu");
  EXPECT_EQ(model->frames_seen(), 0u);
  auto a = ccl::make_cpu_analyzer();
  a->set_background_model(model);
  OracleStream want;
  for (std::size_t t = 0; t < seq.size(); ++t) {
    if (t == 6) {
      model->reset();
      want.models.reset();
      EXPECT_EQ(model->frames_seen(), 0u);
    }
    const Output got = run(*a, seq[t], o);
    EXPECT_EQ(mismatch(got, want.next(seq[t], o), seq[t]), "") << "frame " << t;
    EXPECT_EQ(model->frames_seen(), t < 6 ? t + 1 : t - 5);
    if (t == 0 || t == 6) {
      EXPECT_EQ(got.result.n_components_total, 0u) << "the first frame only initialises";
    }
    if (t == 5) {
      EXPECT_GT(got.result.n_components_total, 0u) << "the rectangles move";
    }
  }
}

TEST(Foreground, FrameOfAnotherSizeResets) {
  const Sequence small = scene(40, 30, 6, 11), large = scene(30, 40, 6, 12);
  const ccl::Options o = fg_opts(kMotion, 8, 0, 0);
  auto a = ccl::make_cpu_analyzer();
  auto model = ccl::make_cpu_background_model();
  a->set_background_model(model);
  OracleStream want;
  for (const Sequence* seq : {&small, &large, &small})
    for (std::size_t t = 0; t < seq->size(); ++t) {
      const Output got = run(*a, (*seq)[t], o);
      EXPECT_EQ(mismatch(got, want.next((*seq)[t], o), (*seq)[t]), "") << (*seq)[t].name;
      EXPECT_EQ(model->frames_seen(), t + 1);
      if (t == 0) {
        EXPECT_EQ(got.result.n_components_total, 0u);
      }
    }
}

// Without set_background_model the analyzer keeps its own; nullptr drops it, so the next frame initialises.
TEST(Foreground, OwnModelAndDroppingIt) {
  const Sequence seq = scene(40, 30, 8, 13);
  const ccl::Options o = fg_opts(kMotion, 8, 0, 0);
  auto a = ccl::make_cpu_analyzer();
  OracleStream want;
  for (std::size_t t = 0; t < 5; ++t) EXPECT_EQ(mismatch(run(*a, seq[t], o), want.next(seq[t], o), seq[t]), "");
  a->set_background_model(nullptr);
  want.models.reset();
  for (std::size_t t = 5; t < seq.size(); ++t) {
    const Output got = run(*a, seq[t], o);
    EXPECT_EQ(mismatch(got, want.next(seq[t], o), seq[t]), "") << t;
    if (t == 5) {
      EXPECT_EQ(got.result.n_components_total, 0u);
    }
  }
}

// Threshold frames between motion frames leave the model alone.
TEST(Foreground, ThresholdFramesDoNotTouchTheModel) {
  const Sequence seq = scene(40, 30, 8, 14);
  auto a = ccl::make_cpu_analyzer();
  auto model = ccl::make_cpu_background_model();
  a->set_background_model(model);
  OracleStream want;
  for (std::size_t t = 0; t < seq.size(); ++t) {
    const ccl::Options o = fg_opts(t % 3 == 1 ? kThreshold : kMotion, 8, 1, 0);
    EXPECT_EQ(mismatch(run(*a, seq[t], o), want.next(seq[t], o), seq[t]), "") << t;
  }
  EXPECT_EQ(model->frames_seen(), 5u);
}

class ForeignModel final : public ccl::BackgroundModel {
 public:
  const char* backend_name() const override { return "cuda"; }
  void reset() override {}
  std::uint64_t frames_seen() const override { return 0; }
};

void expect_invalid(const std::function<void()>& call, const std::string& what) {
  try {
    call();
    ADD_FAILURE() << what << ": no error";
  } catch (const ccl::Error& e) {
    EXPECT_EQ(e.kind(), ccl::Error::Kind::InvalidArgument) << what;
    EXPECT_GT(std::strlen(e.what()), 0u);
  }
}

TEST(Foreground, RefusesAModelOfAnotherBackend) {
  auto a = ccl::make_cpu_analyzer();
  expect_invalid([&] { a->set_background_model(std::make_shared<ForeignModel>()); }, "foreign model");
}

TEST(Foreground, InvalidOptionsAreRefusedWithoutTouchingTheModel) {
  const frames::Frame f = corecheck::gray_noise(20, 10, 3);
  auto a = ccl::make_cpu_analyzer();
  auto model = ccl::make_cpu_background_model();
  a->set_background_model(model);
  ccl::Result r;
  a->run(corecheck::view(f), fg_opts(kMotion, 8, 0, 0), r);
  for (int factor : {0, 16})
    expect_invalid([&] { a->submit(corecheck::view(f), fg_opts(kMotion, 8, 0, 0, std::uint8_t(factor))); },
                   "motion_factor " + std::to_string(factor));
  for (int radius : {-1, 16}) {
    expect_invalid([&] { a->submit(corecheck::view(f), fg_opts(kMotion, 8, radius, 0)); },
                   "open " + std::to_string(radius));
    expect_invalid([&] { a->submit(corecheck::view(f), fg_opts(kMotion, 8, 0, radius)); },
                   "close " + std::to_string(radius));
    expect_invalid([&] { a->submit(corecheck::view(f), fg_opts(kThreshold, 8, radius, 0)); }, "threshold open");
  }
  ccl::Options bad_mode = fg_opts(kMotion, 8, 0, 0);
  bad_mode.foreground = ccl::Foreground(7);
  expect_invalid([&] { a->submit(corecheck::view(f), bad_mode); }, "foreground 7");
  EXPECT_EQ(model->frames_seen(), 1u);
  a->run(corecheck::view(f), fg_opts(kMotion, 8, 0, 0, 15), r);  // the analyzer still works
  EXPECT_EQ(model->frames_seen(), 2u);
}

}  // namespace

namespace {

// Foreground::Adaptive against the oracle: long enough for the slow turns (every 16th frame), with
// absorptions (small absorb_frames) and light changes that make it relearn.
TEST(AdaptiveForeground, ScenesMatchTheOracle) {
  std::size_t foreground = 0, pixels = 0;
  for (std::uint32_t seed : {1u, 2u})
    for (int conn : {4, 8})
      for (auto [open, close, shrink] : {std::tuple{0, 0, 0}, std::tuple{1, 2, 1}, std::tuple{2, 3, 15}})
        for (int absorb : {1, 5, 100}) {
          const Sequence seq = relit(scene(67, 45, 40, seed, seed % 2 ? 5 : 0), 25, 1.3, -5.0);
          const Counts c = check_sequence(seq, adaptive_opts(conn, open, close, shrink, absorb, std::uint8_t(seed + 1)),
                                          "relit scene");
          foreground += c.foreground;
          pixels += c.pixels;
        }
  EXPECT_GT(foreground, 0u) << "moving rectangles must be foreground";
  EXPECT_LT(foreground, pixels / 4);
}

TEST(AdaptiveForeground, NoiseOddSizesAndAdversarialMatchTheOracle) {
  const std::pair<int, int> sizes[] = {{1, 1}, {1, 40}, {40, 1}, {37, 61}, {33, 17}};
  for (auto [w, h] : sizes)
    for (int pad : {0, 7})
      for (int radius : {0, 1, 15}) {
        check_sequence(scene(w, h, 20, std::uint32_t(w * 131 + h), pad), adaptive_opts(8, radius, 0, radius, 3), "scene");
        check_sequence(noise_sequence(w, h, 20, std::uint32_t(w + h), pad), adaptive_opts(4, 0, radius, 1, 2), "noise");
      }
  const int w = 45, h = 29;
  const Sequence all_change =
      generated("all change", w, h, 24, [](int x, int y, int t) { return (x + y + 37 * t) & 255; });
  const Sequence flicker = generated("flicker", w, h, 24, [](int, int, int t) { return t % 2 ? 255 : 0; });
  const Sequence flat = generated("flat then dark", w, h, 24, [](int, int, int t) { return t < 10 ? 200 : 3; });
  for (int conn : {4, 8})
    for (const Sequence* seq : {&all_change, &flicker, &flat})
      for (int absorb : {1, 7, 255}) check_sequence(*seq, adaptive_opts(conn, 0, 0, 0, absorb), (*seq)[0].name);
}

// The frames of `seq` (through a fresh CPU analyzer) that have at least one component.
std::vector<std::size_t> frames_with_components(const Sequence& seq, const ccl::Options& o) {
  auto a = ccl::make_cpu_analyzer();
  std::vector<std::size_t> found;
  for (std::size_t t = 0; t < seq.size(); ++t) {
    ccl::Result r;
    a->run(corecheck::view(seq[t]), o, r);
    if (!r.components.empty()) found.push_back(t);
  }
  return found;
}

std::vector<std::size_t> frame_range(std::size_t first, std::size_t last) {
  std::vector<std::size_t> v;
  for (std::size_t t = first; t <= last; ++t) v.push_back(t);
  return v;
}

// A 12x10 object appears at frame 10, stands still, and leaves at frame 50, on a still textured
// background. Worked by hand from the contract with absorb_frames A = 20: its pixels are foreground
// while C counts 1..20 (frames 10..29) and join the background when C reaches 20 (frame 30); where
// it stood, the background it left shows from frame 50 and is a ghost for the same 20 frames.
TEST(AdaptiveForeground, StoppedObjectIsReportedAndItsGhostClearedForAbsorbFrames) {
  const Sequence seq = generated("stops and leaves", 64, 48, 90, [](int x, int y, int t) {
    const bool object = t >= 10 && t < 50 && x >= 20 && x < 32 && y >= 15 && y < 25;
    return object ? 220 : 80 + (x * 5 + y * 3) % 40;
  });
  ccl::Options o = ccl::adaptive_recipe(adaptive_opts(8, 0, 0, 0, 20));
  o.min_area = 20;
  std::vector<std::size_t> want = frame_range(10, 29), ghost = frame_range(50, 69);
  want.insert(want.end(), ghost.begin(), ghost.end());
  EXPECT_EQ(frames_with_components(seq, o), want);
  // Longer than the stop: reported all along; the background it covered moved 3 levels towards it
  // (frame 10, as C was 0, and the slow turns at 16 and 32; at 48 it had stood 38 frames, past
  // kStandingFrames), which its deviation (5 by then) hides: no ghost.
  o.absorb_frames = 255;
  EXPECT_EQ(frames_with_components(seq, o), frame_range(10, 49));
}

// A faint object (110 on a flat 100) stands from frame 10 to 149, absorb_frames A = 100. Worked by
// hand from the contract (N = 3): frame 10 learns (C was 0): M = 101, V = 3, D = 9: foreground; the
// slow turns at 16 and 32 (C = 6, 22) take M to 103 and V to 5; from frame 48 on (C >= 32) it stands
// and M stays 103, so D = 7 >= 5 until C reaches A: foreground in frames 10..109 (if standing pixels
// kept learning it would fade at frame 64: M = 105, D = 5, V = 7). At 110 it is absorbed (M = 110).
// When it leaves, its place is a ghost from frame 150: M = 109, V = 6; the slow turns at 160 and 176
// (C = 10, 26) take M to 107 and V to 8, and D = 7 < 8 ends it: frames 150..175.
TEST(AdaptiveForeground, StandingObjectStaysWholeUntilAbsorbed) {
  const Sequence seq = generated("faint object stands", 64, 48, 190, [](int x, int y, int t) {
    const bool object = t >= 10 && t < 150 && x >= 10 && x < 30 && y >= 8 && y < 24;
    return object ? 110 : 100;
  });
  ccl::Options o = ccl::adaptive_recipe(adaptive_opts(8, 0, 0, 0, 100));
  o.min_area = 20;
  std::vector<std::size_t> want = frame_range(10, 109), ghost = frame_range(150, 175);
  want.insert(want.end(), ghost.begin(), ghost.end());
  EXPECT_EQ(frames_with_components(seq, o), want);
}

// A textured background with sensor noise, a bright square moving across it, and a light change
// (from frame 1) from frame 40 ramped over 3 frames. The foreground of the light change may last one frame (the
// frame the change is seen in); the model then relearns for 4 frames with the light's fit, and the
// square is found again with nothing else.
void expect_one_frame_of_light_change(double gain, double offset, const std::string& what) {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> noise(-2, 2);
  Sequence seq = generated(what, 96, 64, 80, [&](int x, int y, int t) {
    const double light = t < 40 ? 1.0 : t == 40 ? 1.0 + (gain - 1.0) / 3 : t == 41 ? 1.0 + 2 * (gain - 1.0) / 3 : gain;
    const double level = t < 40 ? 0.0 : offset * std::min(1.0, (t - 39) / 3.0);
    const int sx = (2 * t) % 96;
    const bool square = t > 0 && x >= sx && x < sx + 10 && y >= 20 && y < 30;  // not in the learnt frame 0
    const int base = square ? 235 : 60 + (x * 7 + y * 5) % 50;
    return std::clamp(int(light * base + level + 0.5) + noise(rng), 0, 255);
  });
  ccl::Options o = ccl::adaptive_recipe(adaptive_opts(8, 0, 0, 0, 100));
  o.min_area = 20;
  auto a = ccl::make_cpu_analyzer();
  std::size_t frames_with_false = 0, square_found_after = 0;
  for (std::size_t t = 0; t < seq.size(); ++t) {
    ccl::Result r;
    a->run(corecheck::view(seq[t]), o, r);
    const int sx = int(2 * t) % 96;
    bool false_object = false;
    for (const ccl::Component& c : r.components) {
      // the square's component lies within its box grown by 3 (a frame-wide one is false)
      const bool on_square = c.x >= sx - 3 && c.x + c.width <= sx + 13 && c.y >= 17 && c.y + c.height <= 33;
      false_object = false_object || !on_square;
      if (on_square && t >= 45 && sx >= 2 && sx + 10 <= 94) ++square_found_after;
    }
    if (t >= 20) frames_with_false += false_object;
  }
  EXPECT_LE(frames_with_false, 1u) << what;
  EXPECT_GE(square_found_after, 25u) << what << ": the square must be found again after relearning";
}

TEST(AdaptiveForeground, GainStepGivesAtMostOneFrameOfFalseObjects) {
  expect_one_frame_of_light_change(1.3, 0, "gain +30 %");
  expect_one_frame_of_light_change(0.7, 0, "gain -30 %");
}

TEST(AdaptiveForeground, InfraredSwitchGivesAtMostOneFrameOfFalseObjects) {
  expect_one_frame_of_light_change(0.6, 70, "IR switch: contrast down, level up");
}

// Motion and Adaptive keep different planes: a frame of the other mode starts the model afresh.
TEST(AdaptiveForeground, SwitchingModesResetsTheModel) {
  const Sequence seq = scene(40, 30, 12, 21);
  auto a = ccl::make_cpu_analyzer();
  auto model = ccl::make_cpu_background_model();
  a->set_background_model(model);
  OracleStream want;
  for (std::size_t t = 0; t < seq.size(); ++t) {
    const ccl::Options o = t < 6 ? fg_opts(kMotion, 8, 0, 0) : adaptive_opts(8, 0, 0, 0, 50);
    const Output got = run(*a, seq[t], o);
    EXPECT_EQ(mismatch(got, want.next(seq[t], o), seq[t]), "") << t;
    EXPECT_EQ(model->frames_seen(), t < 6 ? t + 1 : t - 5);
    if (t == 6) {
      EXPECT_EQ(got.result.n_components_total, 0u) << "the first adaptive frame only initialises";
    }
  }
}

TEST(AdaptiveForeground, InvalidOptionsAreRefused) {
  const frames::Frame f = corecheck::gray_noise(20, 10, 3);
  auto a = ccl::make_cpu_analyzer();
  for (int absorb : {0, 256})
    expect_invalid([&] { a->submit(corecheck::view(f), adaptive_opts(8, 0, 0, 0, absorb)); },
                   "absorb_frames " + std::to_string(absorb));
  for (int shrink : {-1, 16})
    expect_invalid([&] { a->submit(corecheck::view(f), adaptive_opts(8, 0, 0, shrink, 10)); },
                   "shrink " + std::to_string(shrink));
}

}  // namespace
