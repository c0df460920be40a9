// ccl-bench-launch-floor: what a frame shaped like the CUDA pipeline's costs with no labelling in
// it: a CUDA graph of K kernels launched the way the pipeline launches them (the first plainly, the
// rest as dependent launches), each as many blocks as LocalMergeKernel has tiles, timed from
// cudaGraphLaunch to the return of cudaStreamSynchronize on the host. Bodies: empty; one global
// load of what the kernel before stored, then a store (one round trip a kernel, the least any of
// the pipeline's kernels does); and that with the last kernel also putting a list of N components
// into pinned host memory in one of three ways (a Component store a thread; contiguous 8-byte
// words, as GatherRootsKernel does; contiguous 16-byte words), or into device memory with a copy to
// the host after the kernels. Then the round trips again, the host spinning on a pinned word the
// last kernel writes instead of calling cudaStreamSynchronize. Last, the round trips as K phases of
// one cooperative kernel, a grid-wide barrier between phases instead of a kernel boundary (what a
// persistent pipeline would pay). The time left of a frame beyond this floor is the work.
// Usage: ccl-bench-launch-floor [--width W] [--height H] [--components N] [--frames N]
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ccl/types.hpp"
#include "cuda_check.hpp"
#include "dependent_launch.cuh"
#include "label_optimized_uf.cuh"
#include "percentile.hpp"

namespace {

using ccl::cuda::check;
using Clock = std::chrono::steady_clock;

constexpr int kThreads = 256;
constexpr int kMostKernels = 4;

enum class Body { Empty, RoundTrip, HostStructs, HostWords8, HostWords16, DeviceListCopied };
constexpr Body kBodies[] = {Body::Empty, Body::RoundTrip, Body::HostStructs, Body::HostWords8, Body::HostWords16,
                            Body::DeviceListCopied};

const char* name(Body body) {
  switch (body) {
    case Body::Empty: return "empty kernels";
    case Body::RoundTrip: return "one dependent load + store each";
    case Body::HostStructs: return "+ list to host, a Component a thread";
    case Body::HostWords8: return "+ list to host, 8-byte words";
    case Body::HostWords16: return "+ list to host, 16-byte words";
    default: return "+ list to device, then cudaMemcpyAsync";
  }
}

bool writes_list(Body body) { return body != Body::Empty && body != Body::RoundTrip; }

// The list's bytes as `Word`s (whole words only), thread t taking words t, t + threads, ...: a
// warp's stores cover contiguous bytes.
template <class Word>
__device__ void put_words(ccl::Component* list, std::uint32_t n_components, std::uint32_t t, std::uint32_t threads,
                          std::uint32_t v) {
  const std::size_t n_words = n_components * sizeof(ccl::Component) / sizeof(Word);
  Word w{};
  reinterpret_cast<std::uint32_t*>(&w)[0] = v;
  for (std::size_t i = t; i < n_words; i += threads) reinterpret_cast<Word*>(list)[i] = w;
}

// The frame's end told to the host by the kernel itself: the last block to finish writes the
// frame's number into a pinned word the host spins on, instead of cudaStreamSynchronize.
struct HostSignal {
  std::uint32_t* arrivals = nullptr;       // blocks done in this frame (device memory, wraps to 0)
  std::uint32_t* frames = nullptr;         // frames done (device memory)
  volatile std::uint32_t* flag = nullptr;  // frames done, as the host sees it (pinned)

  __device__ void raise_when_last() const {
    __syncthreads();
    if (threadIdx.x != 0) return;
    __threadfence_system();  // this block's stores before its arrival
    if (atomicInc(arrivals, gridDim.x - 1) != gridDim.x - 1) return;
    const std::uint32_t done = *frames + 1;
    *frames = done;
    *flag = done;
  }
};

// Each thread reads the word the kernel before it stored for it and stores the next value, so
// every kernel waits for the one before (as the pipeline's do) and does one global round trip.
__global__ void __launch_bounds__(kThreads)
    ChainKernel(Body body, std::uint32_t* words, ccl::Component* list, std::uint32_t n_components, HostSignal signal) {
  ccl::cuda::wait_for_previous_kernel();
  if (body == Body::Empty) return;
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x, threads = gridDim.x * blockDim.x;
  const std::uint32_t v = static_cast<volatile std::uint32_t*>(words)[t] + 1;
  words[t] = v;
  if (signal.flag) signal.raise_when_last();
  if (!list) return;
  if (body == Body::HostWords8) {
    put_words<unsigned long long>(list, n_components, t, threads, v);
  } else if (body == Body::HostWords16) {
    put_words<uint4>(list, n_components, t, threads, v);
  } else if (t < n_components) {
    ccl::Component c{};
    c.label = v;
    c.area = t;
    list[t] = c;
  }
}

// The RoundTrip body's K kernels as K phases of one kernel: a grid-wide barrier between phases.
__global__ void __launch_bounds__(kThreads) PhasedKernel(int phases, std::uint32_t* words) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int p = 0; p < phases; ++p) {
    if (p > 0) cooperative_groups::this_grid().sync();
    words[t] = static_cast<volatile std::uint32_t*>(words)[t] + 1;
  }
}

struct Args {
  int width = 1920, height = 1080, components = 252, frames = 5000;
};

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: ccl-bench-launch-floor [--width W] [--height H] [--components N] [--frames N]\n");
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 == argc) usage();  // a flag without its value
    if (!std::strcmp(argv[i], "--width")) a.width = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--height")) a.height = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--components")) a.components = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--frames")) a.frames = std::atoi(argv[i + 1]);
    else usage();
  }
  if (a.width < 1 || a.height < 1 || a.components < 0 || a.frames < 1) {
    std::fprintf(stderr, "ccl-bench-launch-floor: sizes and counts must be positive\n");
    std::exit(2);
  }
  return a;
}

// The graph of what was queued on `stream` since cudaStreamBeginCapture, ready to launch.
cudaGraphExec_t end_capture(cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  check(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  cudaGraphExec_t exec = nullptr;
  check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  cudaGraphDestroy(graph);
  return exec;
}

// The graph of `kernels` launches of ChainKernel, captured from a stream as the pipeline does.
cudaGraphExec_t capture(cudaStream_t stream, int kernels, unsigned blocks, Body body, std::uint32_t* words,
                        ccl::Component* host_list, ccl::Component* device_list, std::uint32_t n_components,
                        HostSignal signal = {}) {
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  for (int k = 0; k < kernels; ++k) {
    ccl::Component* list = nullptr;
    if (writes_list(body) && k == kernels - 1) list = body == Body::DeviceListCopied ? device_list : host_list;
    const HostSignal raise = k == kernels - 1 ? signal : HostSignal{};
    if (k == 0) {
      ChainKernel<<<blocks, kThreads, 0, stream>>>(body, words, list, n_components, raise);
      check(cudaGetLastError(), "ChainKernel");
    } else {
      check(ccl::cuda::launch_dependent(ChainKernel, dim3(blocks), dim3(kThreads), stream, body, words, list,
                                        n_components, raise),
            "ChainKernel (dependent)");
    }
  }
  if (body == Body::DeviceListCopied)
    check(cudaMemcpyAsync(host_list, device_list, n_components * sizeof(ccl::Component), cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync");
  return end_capture(stream);
}

// One cooperative launch of PhasedKernel (all blocks resident at once, as the barrier needs).
cudaGraphExec_t capture_phased(cudaStream_t stream, int phases, unsigned blocks, std::uint32_t* words) {
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  cudaLaunchAttribute cooperative[1];
  cooperative[0].id = cudaLaunchAttributeCooperative;
  cooperative[0].val.cooperative = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kThreads);
  config.stream = stream;
  config.attrs = cooperative;
  config.numAttrs = 1;
  check(cudaLaunchKernelEx(&config, PhasedKernel, phases, words), "PhasedKernel (cooperative)");
  return end_capture(stream);
}

// Median us from cudaGraphLaunch to the return of `wait_for(n)` (n counts the launches), after a
// warm-up of 200 frames.
template <class WaitFor>
double median_us(cudaStream_t stream, cudaGraphExec_t exec, int frames, WaitFor&& wait_for) {
  std::uint32_t launched = 0;
  for (int i = 0; i < 200; ++i) {
    check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch (warm-up)");
    wait_for(++launched);
  }
  std::vector<double> us;
  us.reserve(frames);
  for (int i = 0; i < frames; ++i) {
    const auto start = Clock::now();
    check(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
    wait_for(++launched);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return bench::percentile(us, 0.5);
}

double median_us(cudaStream_t stream, cudaGraphExec_t exec, int frames) {
  return median_us(stream, exec, frames,
                   [&](std::uint32_t) { check(cudaStreamSynchronize(stream), "cudaStreamSynchronize"); });
}

// The host spins on the signal's flag instead of cudaStreamSynchronize.
double median_us_signalled(cudaStream_t stream, cudaGraphExec_t exec, int frames, const HostSignal& signal) {
  const std::uint32_t before = *signal.flag;
  return median_us(stream, exec, frames, [&](std::uint32_t launched) {
    while (*signal.flag != before + launched) {
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = parse(argc, argv);
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    std::fprintf(stderr, "ccl-bench-launch-floor: no usable CUDA device\n");
    return 77;
  }
  const unsigned blocks = unsigned((args.width + ccl::cuda::kTileWidth - 1) / ccl::cuda::kTileWidth) *
                          unsigned((args.height + ccl::cuda::kTileHeight - 1) / ccl::cuda::kTileHeight);
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  std::uint32_t* words = nullptr;
  check(cudaMalloc(&words, std::size_t(blocks) * kThreads * sizeof(std::uint32_t)), "cudaMalloc");
  check(cudaMemset(words, 0, std::size_t(blocks) * kThreads * sizeof(std::uint32_t)), "cudaMemset");
  const auto n_components = std::uint32_t(std::min<unsigned>(unsigned(args.components), blocks * kThreads));
  ccl::Component *host_list = nullptr, *device_list = nullptr;
  check(cudaMallocHost(&host_list, std::size_t(n_components + 1) * sizeof(ccl::Component)), "cudaMallocHost");
  check(cudaMalloc(&device_list, std::size_t(n_components + 1) * sizeof(ccl::Component)), "cudaMalloc");

  std::printf("ccl-bench-launch-floor: %s, graphs of K kernels of %u blocks x %d threads (the tiles of a %dx%d "
              "frame), dependent launches %s; lists of %u components; %d frames each, median us from cudaGraphLaunch to "
              "the return of cudaStreamSynchronize\n",
              prop.name, blocks, kThreads, args.width, args.height,
              ccl::cuda::dependent_launches() ? "on" : "off (device older than 9.0)", n_components, args.frames);
  for (Body body : kBodies) {
    std::printf("  %-42s", name(body));
    for (int k = 1; k <= kMostKernels; ++k) {
      const cudaGraphExec_t exec = capture(stream, k, blocks, body, words, host_list, device_list, n_components);
      std::printf("  K=%d %6.1f", k, median_us(stream, exec, args.frames));
      cudaGraphExecDestroy(exec);
    }
    std::printf("\n");
  }
  HostSignal signal;
  std::uint32_t* signal_words = nullptr;
  check(cudaMalloc(&signal_words, 2 * sizeof(std::uint32_t)), "cudaMalloc");
  check(cudaMemset(signal_words, 0, 2 * sizeof(std::uint32_t)), "cudaMemset");
  std::uint32_t* host_flag = nullptr;
  check(cudaMallocHost(&host_flag, sizeof(std::uint32_t)), "cudaMallocHost");
  *host_flag = 0;
  signal.arrivals = signal_words;
  signal.frames = signal_words + 1;
  signal.flag = host_flag;
  std::printf("  %-42s", "round trips, host spins on a kernel's flag");
  for (int k = 1; k <= kMostKernels; ++k) {
    const cudaGraphExec_t exec =
        capture(stream, k, blocks, Body::RoundTrip, words, host_list, device_list, n_components, signal);
    std::printf("  K=%d %6.1f", k, median_us_signalled(stream, exec, args.frames, signal));
    cudaGraphExecDestroy(exec);
  }
  std::printf("\n");

  int resident = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, PhasedKernel, kThreads, 0), "occupancy");
  std::printf("  %-42s", "one kernel, K phases, grid barriers");
  if (unsigned(resident) * unsigned(prop.multiProcessorCount) < blocks) {
    std::printf("  (%u blocks cannot all be resident)\n", blocks);
  } else {
    for (int k = 1; k <= kMostKernels; ++k) {
      const cudaGraphExec_t exec = capture_phased(stream, k, blocks, words);
      std::printf("  K=%d %6.1f", k, median_us(stream, exec, args.frames));
      cudaGraphExecDestroy(exec);
    }
    std::printf("\n");
  }
  cudaFreeHost(host_flag);
  cudaFree(signal_words);
  cudaFreeHost(host_list);
  cudaFree(device_list);
  cudaFree(words);
  cudaStreamDestroy(stream);
  return 0;
}
