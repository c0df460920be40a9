// validate(): every check the engine relies on, with a message naming the rule and the field.
#include <cmath>
#include <set>
#include <string>

#include "analytics/geometry.hpp"
#include "analytics/rules.hpp"

namespace ccl::scene {

namespace {

std::string rule_label(const char* kind, const std::string& name, std::size_t index) {
  if (name.empty()) return std::string(kind) + " #" + std::to_string(index + 1);
  return std::string(kind) + " \"" + name + "\"";
}

bool finite(const Point& p) { return std::isfinite(p.x) && std::isfinite(p.y); }
bool unit(const Point& p) { return p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1; }

// "" when p is usable as the field `field` of a rule, else the problem.
std::string check_point(const Point& p, bool normalized, const std::string& field) {
  if (!finite(p)) return field + " is not finite";
  if (normalized && !unit(p)) return field + " is outside 0..1 (the rules are normalized)";
  return "";
}

}  // namespace

std::string validate(const Rules& rules) {
  std::set<std::string> names;
  for (std::size_t i = 0; i < rules.lines.size(); ++i) {
    const LineRule& l = rules.lines[i];
    const std::string label = rule_label("line", l.name, i);
    if (l.name.empty()) return label + ": \"name\" is empty";
    if (!names.insert(l.name).second) return label + ": \"name\" is used by another line";
    for (const auto& [p, field] : {std::pair<const Point&, const char*>{l.from, "\"from\""}, {l.to, "\"to\""}}) {
      const std::string problem = check_point(p, rules.normalized, field);
      if (!problem.empty()) return label + ": " + problem;
    }
    if (l.from == l.to) return label + ": \"to\" equals \"from\"";
  }
  names.clear();
  for (std::size_t i = 0; i < rules.zones.size(); ++i) {
    const ZoneRule& z = rules.zones[i];
    const std::string label = rule_label("zone", z.name, i);
    if (z.name.empty()) return label + ": \"name\" is empty";
    if (!names.insert(z.name).second) return label + ": \"name\" is used by another zone";
    if (z.polygon.size() < 3) return label + ": \"polygon\" needs at least 3 points";
    for (std::size_t k = 0; k < z.polygon.size(); ++k) {
      const std::string problem =
          check_point(z.polygon[k], rules.normalized, "\"polygon\" point " + std::to_string(k + 1));
      if (!problem.empty()) return label + ": " + problem;
    }
    bool has_area = false;  // some corner off the line through the first two distinct corners
    std::size_t second = 1;
    while (second < z.polygon.size() && z.polygon[second] == z.polygon[0]) ++second;
    for (std::size_t k = second + 1; k < z.polygon.size() && !has_area; ++k)
      has_area = geom::cross(z.polygon[0], z.polygon[second], z.polygon[k]) != 0;
    if (!has_area) return label + ": \"polygon\" has all its points on one line (no area)";
    if (!std::isfinite(z.dwell)) return label + ": \"dwell\" is not finite";
    if (!std::isfinite(z.overcrowd_time)) return label + ": \"overcrowd-time\" is not finite";
    if (z.overcrowd_time < 0) return label + ": \"overcrowd-time\" is negative";
  }
  return "";
}

}  // namespace ccl::scene
