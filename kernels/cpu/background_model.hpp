// The host BackgroundModel of the CPU backend: M and V bytes of one stream, dense (width bytes a row).
#pragma once

#include <cstdint>
#include <vector>

#include "ccl/foreground.hpp"
#include "ccl/types.hpp"

namespace ccl::cpu {

class CpuBackgroundModel final : public BackgroundModel {
 public:
  const char* backend_name() const override { return "cpu"; }
  void reset() override { frames_seen_ = 0; }
  std::uint64_t frames_seen() const override { return frames_seen_; }

  // Updates the model with `image` and writes its motion mask (0/1, width bytes a row). The first
  // frame after a reset, or of another size, starts the model and has no foreground. Callers serialise.
  void update(const ImageView& image, int factor, std::uint8_t* mask);

 private:
  std::vector<std::uint8_t> mean_, deviation_;  // M and V
  int width_ = 0, height_ = 0;
  std::uint64_t frames_seen_ = 0;
};

}  // namespace ccl::cpu
