// Shared last step of every backend that gathers statistics on the host: order, number, filter.
#pragma once

#include <cstdint>
#include <vector>

#include "ccl/types.hpp"

namespace ccl {

// Statistics of one component, accumulated before it is numbered.
struct RawStats {
  std::uint32_t area = 0;
  std::int32_t min_x = 0, min_y = 0, max_x = 0, max_y = 0;
  std::uint64_t sum_x = 0, sum_y = 0;  // 64 bits: a 65535^2 frame overflows 32
};

// `raster_ordered[i]` describes the component whose first pixel is the i-th in raster order.
// Fills `result` (numbering, order, filters, truncation). When `final_label` is given it receives,
// for each raster index i, the label the component carries in the chosen order (for label maps).
void finalize(const std::vector<RawStats>& raster_ordered, const Options& options, Result& result,
              std::vector<std::uint32_t>* final_label = nullptr);

}  // namespace ccl
