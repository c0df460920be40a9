// The one place a frame's runtime connectivity (4 or 8) becomes the template parameter the
// kernels are compiled for.
#pragma once

#include <type_traits>

namespace ccl::cuda {

template <int N>
using Connectivity = std::integral_constant<int, N>;

// f(Connectivity<4>{}) or f(Connectivity<8>{}); anything but 4 is 8 (validate() refused the rest).
template <class F>
decltype(auto) with_connectivity(int connectivity, F&& f) {
  if (connectivity == 4) return f(Connectivity<4>{});
  return f(Connectivity<8>{});
}

}  // namespace ccl::cuda
