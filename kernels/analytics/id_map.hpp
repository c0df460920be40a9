// Track id -> slot, open addressing with linear probing: one probe sequence per object per frame,
// no allocation once the table has grown to the number of live tracks. Lookups only: the engine
// never iterates it, so its layout cannot leak into the order of events.
#pragma once

#include <cstdint>
#include <vector>

namespace ccl::scene {

class IdMap {
 public:
  static constexpr std::int32_t kNone = -1;

  // The slot of id (!= 0), or kNone.
  std::int32_t find(std::uint32_t id) const {
    if (table_.empty()) return kNone;
    for (std::size_t i = home(id);; i = (i + 1) & mask()) {
      if (table_[i].id == id) return std::int32_t(table_[i].slot);
      if (table_[i].id == 0) return kNone;
    }
  }

  // id (!= 0) must not be in the map.
  void insert(std::uint32_t id, std::uint32_t slot) {
    if ((size_ + 1) * 2 > table_.size()) grow();
    std::size_t i = home(id);
    while (table_[i].id != 0) i = (i + 1) & mask();
    table_[i] = {id, slot};
    ++size_;
  }

  void erase(std::uint32_t id) {
    if (table_.empty()) return;
    std::size_t i = home(id);
    while (table_[i].id != id) {
      if (table_[i].id == 0) return;
      i = (i + 1) & mask();
    }
    // Backward shift: pull later entries of the probe run into the hole, so no tombstones pile up.
    for (std::size_t j = (i + 1) & mask(); table_[j].id != 0; j = (j + 1) & mask()) {
      const std::size_t k = home(table_[j].id);
      const bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
      if (!stays) table_[i] = table_[j], i = j;
    }
    table_[i] = {};
    --size_;
  }

  void clear() {
    for (Entry& e : table_) e = {};
    size_ = 0;
  }

 private:
  struct Entry {
    std::uint32_t id = 0, slot = 0;
  };
  std::size_t mask() const { return table_.size() - 1; }
  // Fibonacci hashing: the top bits of id * 2^32 / phi.
  std::size_t home(std::uint32_t id) const { return std::size_t((id * 2654435769u) >> (32 - bits_)); }
  void grow() {
    std::vector<Entry> old;
    old.swap(table_);
    bits_ = old.empty() ? 6 : bits_ + 1;
    table_.assign(std::size_t(1) << bits_, Entry{});
    size_ = 0;
    for (const Entry& e : old)
      if (e.id != 0) insert(e.id, e.slot);
  }

  std::vector<Entry> table_;
  std::size_t size_ = 0;
  unsigned bits_ = 0;
};

}  // namespace ccl::scene
