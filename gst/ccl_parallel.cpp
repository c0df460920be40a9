#include "ccl_parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace ccl_gst {
namespace {

// How long an idle worker watches for the next job before it sleeps: a sleeping worker took tens
// of microseconds to wake on the H100 host (a virtual machine), so a frame's ROI params were often
// built by the streaming thread alone; a watching one starts within a microsecond. 300 us spans the
// gap between frames at 3,000+ frames/s; at 30 frames/s it costs each worker ~1 % of a core.
constexpr auto kWatch = std::chrono::microseconds(300);

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

struct Job {
  const std::function<void(std::size_t, std::size_t)>* body;
  std::size_t n, chunk;
  std::atomic<std::size_t> next{0};
  int helpers = 0;  // workers inside take_chunks(); guarded by Pool::mutex_

  void take_chunks() {
    for (std::size_t begin; (begin = next.fetch_add(chunk)) < n;) (*body)(begin, std::min(n, begin + chunk));
  }
};

// Shared by every cudaccl in the process: one set of threads however many pipelines run.
class Pool {
 public:
  static Pool& instance() {
    static Pool pool;
    return pool;
  }

  bool has_workers() const { return !threads_.empty(); }

  // Hands the job to the workers; `caller_helps`: the caller takes chunks too, so one fewer is woken.
  void start(Job& job, bool caller_helps) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(&job);
      queued_.store(jobs_.size(), std::memory_order_release);
    }
    // Wake only as many workers as there are chunks for them: each wake-up costs tens of
    // microseconds of the worker's latency, so idle ones stay asleep.
    const std::size_t chunks = (job.n + job.chunk - 1) / job.chunk - (caller_helps ? 1 : 0);
    for (std::size_t i = 0; i < chunks && i < threads_.size(); ++i) work_ready_.notify_one();
  }

  // Takes the chunks still left, then waits for the workers still inside the job.
  void finish(Job& job) {
    job.take_chunks();
    std::unique_lock<std::mutex> lock(mutex_);
    retire(job);
    // A worker that joined late may still be finishing its chunk; the job lives on our stack.
    job_done_.wait(lock, [&] { return job.helpers == 0; });
  }

 private:
  Pool() {
    // Leave one core to the streaming thread; more than 7 helpers gain nothing for lists of
    // a few thousand components.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned workers = std::min(cores, 8u) - 1;
    // Watching costs a core per worker while it lasts: only where as many cores are left over.
    watch_ = cores >= 2 * (workers + 1);
    for (unsigned i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  void retire(Job& job) {
    jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), &job), jobs_.end());
    queued_.store(jobs_.size(), std::memory_order_release);
  }

  // Returns when a job is queued or kWatch has passed, without the lock.
  void watch_for_work() const {
    const auto until = std::chrono::steady_clock::now() + kWatch;
    while (queued_.load(std::memory_order_acquire) == 0 && std::chrono::steady_clock::now() < until) cpu_relax();
  }

  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (watch_ && jobs_.empty() && !stopping_) {
        lock.unlock();
        watch_for_work();
        lock.lock();
      }
      work_ready_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      Job& job = *jobs_.front();
      ++job.helpers;
      lock.unlock();
      job.take_chunks();
      lock.lock();
      retire(job);  // every chunk is taken: no later worker should pick it up again
      if (--job.helpers == 0) job_done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable work_ready_, job_done_;
  std::deque<Job*> jobs_;
  std::atomic<std::size_t> queued_{0};  // jobs_.size(), read by watching workers without the lock
  bool watch_ = false;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

void parallel_for(std::size_t n, std::size_t chunk, const std::function<void(std::size_t, std::size_t)>& body) {
  chunk = std::max<std::size_t>(chunk, 1);
  if (n <= chunk || !Pool::instance().has_workers()) {
    if (n > 0) body(0, n);
    return;
  }
  Job job;
  job.body = &body;
  job.n = n;
  job.chunk = chunk;
  Pool::instance().start(job, true);
  Pool::instance().finish(job);
}

struct BackgroundFor::State {
  std::function<void(std::size_t, std::size_t)> body;
  Job job;
  bool started = false, done = false;
};

BackgroundFor::BackgroundFor(std::size_t n, std::size_t chunk, std::function<void(std::size_t, std::size_t)> body)
    : state_(new State) {
  state_->body = std::move(body);
  state_->job.body = &state_->body;
  state_->job.n = n;
  state_->job.chunk = std::max<std::size_t>(chunk, 1);
  if (n > 0 && Pool::instance().has_workers()) {
    Pool::instance().start(state_->job, false);
    state_->started = true;
  }
}

BackgroundFor::~BackgroundFor() { wait(); }

void BackgroundFor::wait() {
  if (state_->done) return;
  state_->done = true;
  if (state_->started) Pool::instance().finish(state_->job);
  else state_->job.take_chunks();  // no workers: all of it here
}

}  // namespace ccl_gst
