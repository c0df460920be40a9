// The CPU backend's behaviour as an API: determinism, reuse of one analyzer across frames of
// different sizes and options, and refusal of invalid input with ccl::Error(InvalidArgument).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "core_check.hpp"

namespace {

using corecheck::opts;

struct Output {
  ccl::Result result;
  std::vector<std::uint32_t> labels;
};

Output run_with_labels(ccl::Analyzer& a, const frames::Frame& f, const ccl::Options& o) {
  Output r;
  r.labels.assign(std::size_t(f.width) * f.height, 0xFFFFFFFFu);
  ccl::LabelView lv{r.labels.data(), f.width};
  a.run(corecheck::view(f), o, r.result, &lv);
  return r;
}

// Byte-identical: every field, centroids compared by their bits.
std::string identical(const Output& x, const Output& y) {
  const ccl::Result &a = x.result, &b = y.result;
  if (a.width != b.width || a.height != b.height || a.connectivity != b.connectivity ||
      a.n_components_total != b.n_components_total || a.truncated != b.truncated ||
      a.components.size() != b.components.size())
    return "headers differ";
  for (std::size_t i = 0; i < a.components.size(); ++i)
    if (std::memcmp(&a.components[i], &b.components[i], sizeof(ccl::Component)) != 0)
      return "component " + std::to_string(i) + " differs";
  if (x.labels != y.labels) return "label maps differ";
  return "";
}

TEST(CpuApi, BackendName) {
  auto a = ccl::make_cpu_analyzer();
  ASSERT_NE(a->backend_name(), nullptr);
  EXPECT_GT(std::strlen(a->backend_name()), 0u);
}

TEST(CpuApi, SameFrameTwiceIsIdentical) {
  auto a = ccl::make_cpu_analyzer();
  int cases = 0;
  for (int conn : {4, 8})
    for (ccl::Order order : {ccl::Order::Raster, ccl::Order::Area})
      for (int d : {0, 30, 50, 70, 100}) {
        const frames::Frame f = frames::random(301, 203, d, 1, std::uint32_t(d + conn));
        ccl::Options o = opts(conn);
        o.order = order;
        const Output first = run_with_labels(*a, f, o), second = run_with_labels(*a, f, o);
        auto b = ccl::make_cpu_analyzer();
        const Output fresh = run_with_labels(*b, f, o);
        EXPECT_EQ(identical(first, second), "") << f.name << " " << corecheck::describe(o);
        EXPECT_EQ(identical(first, fresh), "") << f.name << " " << corecheck::describe(o);
        ++cases;
      }
  std::cout << "[ covered  ] SameFrameTwiceIsIdentical: " << cases << " frame/option cases\n";
}

TEST(CpuApi, ReusedAnalyzerEqualsFresh) {
  // Sizes grow and shrink, options change between frames: scratch state must not leak.
  struct Step { int w, h, d, g, conn; std::uint8_t thr; ccl::Order order; std::uint32_t max_objects; };
  const Step steps[] = {
      {640, 480, 50, 1, 8, 0, ccl::Order::Raster, ccl::kUnlimited},
      {3, 2, 60, 1, 8, 0, ccl::Order::Raster, ccl::kUnlimited},
      {1, 1, 100, 1, 4, 0, ccl::Order::Raster, ccl::kUnlimited},
      {1, 1, 0, 1, 4, 0, ccl::Order::Raster, ccl::kUnlimited},
      {1000, 3, 45, 1, 4, 0, ccl::Order::Area, 5},
      {3, 1000, 45, 1, 8, 100, ccl::Order::Area, ccl::kUnlimited},
      {257, 263, 70, 2, 8, 0, ccl::Order::Raster, 0},
      {640, 480, 50, 1, 8, 0, ccl::Order::Raster, ccl::kUnlimited},
      {17, 900, 30, 1, 4, 0, ccl::Order::Raster, ccl::kUnlimited},
      {2048, 16, 55, 1, 8, 200, ccl::Order::Raster, ccl::kUnlimited},
      {40, 40, 0, 1, 8, 0, ccl::Order::Area, ccl::kUnlimited},
      {40, 40, 100, 1, 4, 0, ccl::Order::Area, ccl::kUnlimited},
      {99, 101, 50, 1, 4, 0, ccl::Order::Raster, ccl::kUnlimited},
  };
  auto reused = ccl::make_cpu_analyzer();
  std::uint32_t seed = 77;
  for (int pass = 0; pass < 2; ++pass)
    for (const Step& s : steps) {
      const frames::Frame f = corecheck::repad(frames::random(s.w, s.h, s.d, s.g, seed, 0, s.thr != 0), 3, seed + 1);
      seed += 2;
      ccl::Options o = opts(s.conn, s.thr);
      o.order = s.order;
      o.max_objects = s.max_objects;
      auto fresh = ccl::make_cpu_analyzer();
      EXPECT_EQ(identical(run_with_labels(*reused, f, o), run_with_labels(*fresh, f, o)), "") << f.name << " " << corecheck::describe(o);
      EXPECT_EQ(corecheck::check(*reused, f, o), "") << f.name << " " << corecheck::describe(o);
    }
}

void expect_invalid(const std::function<void()>& call, const std::string& what) {
  try {
    call();
    ADD_FAILURE() << what << ": no exception";
  } catch (const ccl::Error& e) {
    EXPECT_EQ(e.kind(), ccl::Error::Kind::InvalidArgument) << what;
    EXPECT_GT(std::strlen(e.what()), 0u) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": threw something other than ccl::Error: " << e.what();
  } catch (...) {
    ADD_FAILURE() << what << ": threw a non-std exception";
  }
}

TEST(CpuApi, InvalidInputThrowsInvalidArgument) {
  auto a = ccl::make_cpu_analyzer();
  std::vector<std::uint8_t> pixels(64 * 64, 255);
  std::vector<std::uint32_t> labels(64 * 64, 0);
  const ccl::ImageView good{pixels.data(), 16, 16, 16, {}};
  ccl::Result r;
  auto with = [&](ccl::ImageView img, ccl::Options o, const std::string& what) {
    expect_invalid([&] { a->run(img, o, r); }, what);
    ccl::LabelView lv{labels.data(), 64};
    expect_invalid([&] { a->run(img, o, r, &lv); }, what + " (with label map)");
  };
  ccl::ImageView img = good;
  img.width = 0; with(img, opts(8), "width 0");
  img = good; img.height = 0; with(img, opts(8), "height 0");
  img = good; img.width = -3; with(img, opts(8), "negative width");
  img = good; img.height = -1; with(img, opts(8), "negative height");
  img = good; img.stride = 15; with(img, opts(8), "stride < width");
  img = good; img.stride = 0; with(img, opts(8), "stride 0");
  img = good; img.stride = -16; with(img, opts(8), "negative stride");
  img = good; img.data = nullptr; with(img, opts(8), "null data");
  with(good, opts(6), "connectivity 6");
  with(good, opts(0), "connectivity 0");
  with(good, opts(-8), "connectivity -8");
  img = good; img.width = ccl::kMaxSide + 1; img.height = 1; img.stride = ccl::kMaxSide + 1;
  with(img, opts(8), "width above kMaxSide");  // checked before any pixel is read

  // a label map that cannot hold the frame
  ccl::LabelView no_data{nullptr, 16};
  expect_invalid([&] { a->run(good, opts(8), r, &no_data); }, "label map without data");
  ccl::LabelView narrow{labels.data(), 15};
  expect_invalid([&] { a->run(good, opts(8), r, &narrow); }, "label map stride < width");

  // the analyzer still works after refusing input
  a->run(good, opts(8), r);
  EXPECT_EQ(r.n_components_total, 1u);
  ASSERT_EQ(r.components.size(), 1u);
  EXPECT_EQ(r.components[0].area, 256u);
}

}  // namespace
