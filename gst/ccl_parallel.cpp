#include "ccl_parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace ccl_gst {
namespace {

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
    for (unsigned i = 0; i + 1 < std::min(cores, 8u); ++i) threads_.emplace_back([this] { work(); });
  }

  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    work_ready_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  void retire(Job& job) { jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), &job), jobs_.end()); }

  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
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
