// Shared last step of every backend that gathers statistics on the host: order, number, filter.
#pragma once

#include <cstdint>
#include <vector>

#include "ccl/component_stats.hpp"
#include "ccl/types.hpp"

namespace ccl {

// `raster_ordered[i]` describes the component whose first pixel is the i-th in raster order.
// Fills `result` (numbering, order, filters, truncation). When `final_label` is given it receives,
// for each raster index i, the label the component carries in the chosen order (for label maps).
void finalize(const std::vector<ComponentStats>& raster_ordered, const Options& options, Result& result,
              std::vector<std::uint32_t>* final_label = nullptr);

}  // namespace ccl
