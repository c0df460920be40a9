// Runs independent per-item work (building GstStructures for thousands of components) on a few
// process-wide worker threads and the calling thread together.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

namespace ccl_gst {

// Calls body(begin, end) over [0, n) in chunks of `chunk` items, in no particular order, and
// returns when every chunk is done. The caller takes chunks itself, so busy or absent workers
// only make it slower; below two chunks it runs inline. body must not throw.
void parallel_for(std::size_t n, std::size_t chunk, const std::function<void(std::size_t, std::size_t)>& body);

// The same work started in the background: the workers take chunks at once while the caller does
// something else (waits for the GPU); wait() takes the chunks still left on the calling thread and
// returns when all are done. The destructor waits too.
class BackgroundFor {
 public:
  BackgroundFor(std::size_t n, std::size_t chunk, std::function<void(std::size_t, std::size_t)> body);
  ~BackgroundFor();
  BackgroundFor(const BackgroundFor&) = delete;
  BackgroundFor& operator=(const BackgroundFor&) = delete;
  void wait();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ccl_gst
