#include "ccl/finalize.hpp"

#include <algorithm>
#include <numeric>

namespace ccl {

void finalize(const std::vector<ComponentStats>& raster_ordered, const Options& options, Result& result,
              std::vector<std::uint32_t>* final_label) {
  const std::size_t n = raster_ordered.size();
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  if (options.order == Order::Area)  // stable: equal areas keep raster order
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return raster_ordered[a].area > raster_ordered[b].area;
    });

  if (final_label) {
    final_label->assign(n, 0);
    for (std::size_t rank = 0; rank < n; ++rank) (*final_label)[order[rank]] = std::uint32_t(rank + 1);
  }

  result.n_components_total = std::uint32_t(n);
  result.truncated = false;
  result.components.clear();
  for (std::size_t rank = 0; rank < n; ++rank) {
    const ComponentStats& s = raster_ordered[order[rank]];
    if (s.area < options.min_area || s.area > options.max_area) continue;
    if (result.components.size() >= options.max_objects) {
      result.truncated = true;
      break;
    }
    result.components.push_back(make_component(s, std::uint32_t(rank + 1)));
  }
}

}  // namespace ccl
