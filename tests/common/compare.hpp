// Comparison of two results with a message that says where they first differ.
#pragma once

#include <cmath>
#include <sstream>
#include <string>

#include "ccl/types.hpp"

namespace compare {

inline bool close(double a, double b, double rel) {
  return std::fabs(a - b) <= rel * std::max(1.0, std::max(std::fabs(a), std::fabs(b)));
}

// Empty string when equal; centroids compared to `rel` relative tolerance (0 = bit-exact).
inline std::string diff(const ccl::Result& got, const ccl::Result& want, double rel = 0.0) {
  std::ostringstream s;
  if (got.n_components_total != want.n_components_total)
    s << "n_components_total " << got.n_components_total << " != " << want.n_components_total << "; ";
  if (got.truncated != want.truncated) s << "truncated " << got.truncated << " != " << want.truncated << "; ";
  if (got.components.size() != want.components.size())
    s << "n_components " << got.components.size() << " != " << want.components.size() << "; ";
  const std::size_t n = std::min(got.components.size(), want.components.size());
  for (std::size_t i = 0; i < n && s.tellp() == 0; ++i) {
    const ccl::Component &g = got.components[i], &w = want.components[i];
    const bool same = g.label == w.label && g.area == w.area && g.x == w.x && g.y == w.y &&
                      g.width == w.width && g.height == w.height &&
                      (rel == 0.0 ? (g.centroid_x == w.centroid_x && g.centroid_y == w.centroid_y)
                                  : (close(g.centroid_x, w.centroid_x, rel) && close(g.centroid_y, w.centroid_y, rel)));
    if (!same)
      s << "component " << i << ": got {label " << g.label << " area " << g.area << " box " << g.x << ","
        << g.y << " " << g.width << "x" << g.height << " c " << g.centroid_x << "," << g.centroid_y
        << "} want {label " << w.label << " area " << w.area << " box " << w.x << "," << w.y << " "
        << w.width << "x" << w.height << " c " << w.centroid_x << "," << w.centroid_y << "}";
  }
  return s.str();
}

}  // namespace compare
