#include "primitives/dependent_launch.cuh"

#include <atomic>

namespace ccl::cuda {
namespace {

std::atomic<bool> switched_on{true};

// Per device: 0 not asked yet, 1 older than 9.0, 2 9.0 or newer.
constexpr int kDevicesRemembered = 64;
std::atomic<int> capability[kDevicesRemembered];

bool device_supports(int device) {
  if (device < 0 || device >= kDevicesRemembered) return false;
  int known = capability[device].load(std::memory_order_relaxed);
  if (known == 0) {
    int major = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    known = major >= 9 ? 2 : 1;
    capability[device].store(known, std::memory_order_relaxed);
  }
  return known == 2;
}

}  // namespace

bool dependent_launches() {
  if (!switched_on.load(std::memory_order_relaxed)) return false;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return device_supports(device);
}

void set_dependent_launches(bool on) { switched_on.store(on, std::memory_order_relaxed); }

}  // namespace ccl::cuda
