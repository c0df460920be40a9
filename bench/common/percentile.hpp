// The p-th percentile (0..1) of benchmark samples, nearest rank; 0 for none.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace bench {

inline double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, std::size_t(p * double(v.size() - 1) + 0.5))];
}

}  // namespace bench
