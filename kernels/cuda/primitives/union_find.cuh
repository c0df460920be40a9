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

// One step of a path-halving walk from i, while `walking`: i skips to its grandparent, or stops at
// the root it reached. The shortcut is an atomicMin, so it can never undo a link another thread
// just made, and a root (the only node unite() links) is never written here.
template <class T, class Slot>
__device__ void halve_step(T* parent, std::uint32_t& i, bool& walking, std::uint32_t p, std::uint32_t grandparent,
                           Slot slot) {
  if (!walking) return;
  if (p == i) {
    walking = false;
  } else if (grandparent == p) {
    i = p;
    walking = false;
  } else {
    atomicMin(parent + slot(i), grandparent);
    i = grandparent;
  }
}

// Root of i, halving the path on the way (each visited node skips to its grandparent).
template <class T, class Slot = SameSlot>
__device__ std::uint32_t find_root_compress(T* parent, std::uint32_t i, Slot slot = {}) {
  volatile T* fresh = parent;
  for (bool walking = true; walking;) {
    const std::uint32_t p = fresh[slot(i)];
    halve_step(parent, i, walking, p, p != i ? fresh[slot(p)] : p, slot);
  }
  return i;
}

// find_root_compress of a and of b, walked in step: each step of a path is a load that waits for
// the one before, so walking both at once overlaps their latencies (hundreds of cycles a step in
// global memory).
template <class T, class Slot>
__device__ void find_both_roots(T* parent, std::uint32_t& a, std::uint32_t& b, Slot slot) {
  volatile T* fresh = parent;
  bool walking_a = true, walking_b = true;
  while (walking_a || walking_b) {
    const std::uint32_t pa = walking_a ? fresh[slot(a)] : a, pb = walking_b ? fresh[slot(b)] : b;
    const std::uint32_t ga = walking_a && pa != a ? fresh[slot(pa)] : pa;
    const std::uint32_t gb = walking_b && pb != b ? fresh[slot(pb)] : pb;
    halve_step(parent, a, walking_a, pa, ga, slot);
    halve_step(parent, b, walking_b, pb, gb, slot);
  }
}

// Joins the sets of a and b by hanging the larger root under the smaller one; when another
// thread re-linked that root first, atomicMin tells us, and we join its new parent instead.
template <class T, class Slot = SameSlot>
__device__ void unite(T* parent, std::uint32_t a, std::uint32_t b, Slot slot = {}) {
  for (;;) {
    find_both_roots(parent, a, b, slot);
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
