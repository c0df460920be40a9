#include "ccl_zone_members.h"

void CclZoneMembers::apply(const std::vector<ccl::scene::Event>& events) {
  using Type = ccl::scene::Event::Type;
  for (const ccl::scene::Event& e : events) {
    if (e.type != Type::ZoneEnter && e.type != Type::ZoneExit) continue;
    if (e.rule >= members_.size()) members_.resize(e.rule + 1);
    if (e.type == Type::ZoneEnter)
      members_[e.rule].insert(e.track_id);
    else
      members_[e.rule].erase(e.track_id);
  }
}

void CclZoneMembers::rules_changed(const ccl::scene::Rules& old_rules, const ccl::scene::Rules& new_rules) {
  std::vector<std::set<std::uint32_t>> next(new_rules.zones.size());
  for (std::size_t i = 0; i < new_rules.zones.size(); ++i)
    for (std::size_t k = 0; k < old_rules.zones.size() && k < members_.size(); ++k)
      if (old_rules.zones[k] == new_rules.zones[i] && old_rules.normalized == new_rules.normalized) next[i] = members_[k];
  members_ = std::move(next);
}

const std::set<std::uint32_t>& CclZoneMembers::members(std::size_t zone) const {
  static const std::set<std::uint32_t> none;
  return zone < members_.size() ? members_[zone] : none;
}
