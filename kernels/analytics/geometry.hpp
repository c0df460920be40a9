// Exact-rule plane geometry for the analytics rules: side of a directed line, closed segment
// intersection, point in polygon (even-odd, boundary inside), box against segment and polygon.
// Doubles, no contraction (see meson.build): the same answers on every CPU.
#pragma once

#include <cstddef>

#include "analytics/rules.hpp"

namespace ccl::scene::geom {

// Axis-aligned box, closed: [x0, x1] x [y0, y1].
struct Rect {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool overlaps(const Rect& o) const { return x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1; }
  bool contains(const Point& p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
};

// (b - a) x (c - a): > 0 when c is right of a -> b on the image (y down), < 0 left, 0 on the line.
inline double cross(const Point& a, const Point& b, const Point& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// The bounding box of a segment or polygon.
Rect bounds(const Point& a, const Point& b);
Rect bounds(const Point* points, std::size_t n);

// Closed segments: touching at an end point or overlapping collinearly counts; a segment may be a
// single point (a = b).
bool segments_intersect(const Point& a, const Point& b, const Point& c, const Point& d);

// Even-odd rule; a point on an edge or corner is inside (exactly so for integer coordinates,
// otherwise up to the rounding of one cross product).
bool point_in_polygon(const Point& p, const Point* polygon, std::size_t n);

// Closed box against closed segment: any common point.
bool rect_intersects_segment(const Rect& r, const Point& a, const Point& b);

// Closed box against closed polygon (its area and boundary): any common point.
bool rect_intersects_polygon(const Rect& r, const Point* polygon, std::size_t n);

}  // namespace ccl::scene::geom
