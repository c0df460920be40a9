// The CPU backend's foreground stage (Sigma-Delta motion model, clipped-square open/close) against
// the foreground oracle and the flood-fill oracle: label maps and results, frame by frame.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>

#include "ccl/foreground.hpp"
#include "core_check.hpp"
#include "foreground_oracle.hpp"

namespace {

using Sequence = std::vector<frames::Frame>;

std::string describe(const ccl::Options& o) {
  return corecheck::describe(o) + " fg=" + ccl::to_string(o.foreground) + " N=" + std::to_string(o.motion_factor) +
         " open=" + std::to_string(o.open_radius) + " close=" + std::to_string(o.close_radius);
}

ccl::Options fg_opts(ccl::Foreground fg, int conn, int open, int close, std::uint8_t factor = 4) {
  ccl::Options o = corecheck::opts(conn);
  o.foreground = fg;
  o.motion_factor = factor;
  o.open_radius = open;
  o.close_radius = close;
  return o;
}

// The oracle's side of one stream: its own Sigma-Delta state, then morphology, then flood fill.
struct OracleStream {
  oracle::SigmaDelta model;
  oracle::Mask mask;  // the last frame's, for the non-triviality checks
  oracle::Output next(const frames::Frame& f, const ccl::Options& o) {
    mask = o.foreground == ccl::Foreground::Motion ? model.next(f, o.motion_factor)
                                                   : oracle::threshold_mask(f, o.threshold);
    mask = oracle::open_close(mask, f.width, f.height, o.open_radius, o.close_radius);
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
      want.model.reset();
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
  want.model.reset();
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
