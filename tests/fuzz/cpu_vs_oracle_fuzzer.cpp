// Differential fuzzer: the CPU backend against the flood-fill oracle on frames decoded from the
// fuzzer's bytes (size, stride padding, connectivity, threshold, order, filters, pixels).
// Built as a libFuzzer target with clang (-Dfuzzer=enabled); built with replay_main.cpp otherwise,
// so the kept corpus runs as an ordinary test on every build.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "ccl/analyzer.hpp"
#include "compare.hpp"
#include "frames.hpp"
#include "oracle.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 8) return 0;
  const int w = 1 + data[0] % 96, h = 1 + data[1] % 96, pad = data[2] % 5;
  ccl::Options opt;
  opt.connectivity = (data[3] & 1) ? 8 : 4;
  opt.order = (data[3] & 2) ? ccl::Order::Area : ccl::Order::Raster;
  opt.threshold = data[4];
  opt.min_area = (data[3] & 4) ? data[5] % 8 : 0;
  opt.max_area = (data[3] & 8) ? 1 + data[6] % 64 : ccl::kUnlimited;
  opt.max_objects = (data[3] & 16) ? data[7] % 16 : ccl::kUnlimited;
  const std::uint8_t* pixels = data + 8;
  const std::size_t n = size - 8;

  frames::Frame f = frames::blank("fuzz", w, h, pad);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) f.at(x, y) = n ? pixels[(std::size_t(y) * w + x) % n] : 0;

  static auto analyzer = ccl::make_cpu_analyzer();  // reused, as the element reuses it
  ccl::Result got;
  std::vector<std::uint32_t> labels(std::size_t(w) * h);
  ccl::LabelView label_view{labels.data(), w};
  analyzer->run(ccl::ImageView{f.pixels.data(), w, h, f.stride, {}}, opt, got, &label_view);
  const oracle::Output want = oracle::flood_fill(f, opt);
  const std::string d = compare::diff(got, want.result);
  if (!d.empty() || labels != want.labels) {
    std::fprintf(stderr, "mismatch on %dx%d pad %d conn %d thr %d: %s%s\n", w, h, pad, opt.connectivity,
                 opt.threshold, d.c_str(), labels != want.labels ? " (label map differs)" : "");
    std::abort();
  }
  return 0;
}
