#include "analytics/geometry.hpp"

#include <algorithm>

namespace ccl::scene::geom {

namespace {

int sign(double v) { return (v > 0) - (v < 0); }

// p lies within the bounding box of a -> b (the collinear case of segments_intersect).
bool within(const Point& a, const Point& b, const Point& p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

bool on_segment(const Point& a, const Point& b, const Point& p) { return cross(a, b, p) == 0 && within(a, b, p); }

}  // namespace

Rect bounds(const Point& a, const Point& b) {
  return {std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
}

Rect bounds(const Point* points, std::size_t n) {
  Rect r{points[0].x, points[0].y, points[0].x, points[0].y};
  for (std::size_t i = 1; i < n; ++i) {
    r.x0 = std::min(r.x0, points[i].x), r.x1 = std::max(r.x1, points[i].x);
    r.y0 = std::min(r.y0, points[i].y), r.y1 = std::max(r.y1, points[i].y);
  }
  return r;
}

bool segments_intersect(const Point& a, const Point& b, const Point& c, const Point& d) {
  if (!bounds(a, b).overlaps(bounds(c, d))) return false;
  const int o1 = sign(cross(a, b, c)), o2 = sign(cross(a, b, d));
  const int o3 = sign(cross(c, d, a)), o4 = sign(cross(c, d, b));
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;  // a proper crossing
  // Touching or collinear: an end point on the other segment.
  return (o1 == 0 && within(a, b, c)) || (o2 == 0 && within(a, b, d)) || (o3 == 0 && within(c, d, a)) ||
         (o4 == 0 && within(c, d, b));
}

bool point_in_polygon(const Point& p, const Point* polygon, std::size_t n) {
  bool inside = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Point& a = polygon[j];
    const Point& b = polygon[i];
    if (on_segment(a, b, p)) return true;  // the boundary belongs to the zone
    // Half-open in y, so a vertex on the ray is counted once.
    if ((a.y > p.y) != (b.y > p.y)) {
      // x of the edge at p.y compared with p.x, without division: sign of cross over the edge's direction.
      const double c = cross(a, b, p);
      if ((b.y > a.y) ? c > 0 : c < 0) inside = !inside;  // the edge is right of p
    }
  }
  return inside;
}

bool rect_intersects_segment(const Rect& r, const Point& a, const Point& b) {
  if (r.contains(a) || r.contains(b)) return true;
  const Point c00{r.x0, r.y0}, c10{r.x1, r.y0}, c11{r.x1, r.y1}, c01{r.x0, r.y1};
  return segments_intersect(a, b, c00, c10) || segments_intersect(a, b, c10, c11) ||
         segments_intersect(a, b, c11, c01) || segments_intersect(a, b, c01, c00);
}

bool rect_intersects_polygon(const Rect& r, const Point* polygon, std::size_t n) {
  // The box's corner inside the polygon (covers the box inside the polygon), a polygon edge
  // touching the box (covers the polygon inside the box and every partial overlap).
  if (point_in_polygon(Point{r.x0, r.y0}, polygon, n)) return true;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++)
    if (rect_intersects_segment(r, polygon[j], polygon[i])) return true;
  return false;
}

}  // namespace ccl::scene::geom
