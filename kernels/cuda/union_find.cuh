// Union-find over pixel indices with union by minimum: a parent is never larger than its child,
// so the root of a set is its smallest index (the component's first pixel in raster order),
// whatever order the atomics land in.
#pragma once

#include <cstdint>

namespace ccl::cuda {

// Where node i lives in the parent array: itself, unless a caller spreads nodes over banks.
struct SameSlot {
  __device__ std::uint32_t operator()(std::uint32_t i) const { return i; }
};

// `Parents` is a plain pointer for global memory read after all unions, or a volatile one while
// other threads may still link (so each step re-reads memory, not a register).
template <class Parents>
__device__ std::uint32_t find_root(Parents parent, std::uint32_t i) {
  std::uint32_t p = parent[i];
  while (p != i) {
    i = p;
    p = parent[i];
  }
  return i;
}

// Root of i, halving the path on the way (each visited node skips to its grandparent). The
// shortcut is an atomicMin, so it can never undo a link another thread just made, and a root
// (the only node unite() links) is never written here.
template <class T, class Slot = SameSlot>
__device__ std::uint32_t find_root_compress(T* parent, std::uint32_t i, Slot slot = {}) {
  volatile T* fresh = parent;
  for (;;) {
    const std::uint32_t p = fresh[slot(i)];
    if (p == i) return i;
    const std::uint32_t grandparent = fresh[slot(p)];
    if (grandparent == p) return p;
    atomicMin(parent + slot(i), grandparent);
    i = grandparent;
  }
}

// Joins the sets of a and b by hanging the larger root under the smaller one; when another
// thread re-linked that root first, atomicMin tells us, and we join its new parent instead.
template <class T, class Slot = SameSlot>
__device__ void unite(T* parent, std::uint32_t a, std::uint32_t b, Slot slot = {}) {
  for (;;) {
    a = find_root_compress(parent, a, slot);
    b = find_root_compress(parent, b, slot);
    if (a == b) return;
    if (a < b) {
      const std::uint32_t t = a;
      a = b;
      b = t;
    }
    const std::uint32_t old = atomicMin(parent + slot(a), b);
    if (old == a) return;
    a = old;
  }
}

}  // namespace ccl::cuda
