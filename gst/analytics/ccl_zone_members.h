// Which tracks are in which zone now, kept from the engine's enter and exit events: what the
// analytics metadata (GStreamer >= 1.24) reports per zone membership.
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "analytics/scene.hpp"

class CclZoneMembers {
 public:
  // One frame's (or end_tracks') events: enters add a track to its zone, exits remove it.
  void apply(const std::vector<ccl::scene::Event>& events);
  // New rules: a zone equal to an old one keeps its members (the engine keeps its state), others start empty.
  void rules_changed(const ccl::scene::Rules& old_rules, const ccl::scene::Rules& new_rules);
  // Track ids in zone `zone` (index into the rules' zones), ascending.
  const std::set<std::uint32_t>& members(std::size_t zone) const;
  std::size_t n_zones() const { return members_.size(); }

 private:
  std::vector<std::set<std::uint32_t>> members_;
};
