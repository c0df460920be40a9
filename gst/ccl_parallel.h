// Runs independent per-item work (building GstStructures for thousands of components) on a few
// process-wide worker threads and the calling thread together.
#pragma once

#include <cstddef>
#include <functional>

namespace ccl_gst {

// Calls body(begin, end) over [0, n) in chunks of `chunk` items, in no particular order, and
// returns when every chunk is done. The caller takes chunks itself, so busy or absent workers
// only make it slower; below two chunks it runs inline. body must not throw.
void parallel_for(std::size_t n, std::size_t chunk, const std::function<void(std::size_t, std::size_t)>& body);

}  // namespace ccl_gst
