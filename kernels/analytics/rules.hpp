// Scene rules for cclanalytics: directed lines (tripwires) and polygon zones, in frame pixels or
// normalized 0..1 coordinates. Plain C++, no GStreamer: the element parses JSON into these
// (gst/analytics/ccl_rules_json.cpp); tests and benches build them directly.
#pragma once

#include <string>
#include <vector>

namespace ccl::scene {

struct Point {
  double x = 0, y = 0;
  bool operator==(const Point& o) const { return x == o.x && y == o.y; }
};

// Which point of a tracked box a rule watches.
enum class Anchor {
  BottomCenter,  // (x + w/2, y + h): where a person or car touches the ground (the default)
  Center,        // (x + w/2, y + h/2)
  Box,           // any part of the box
};

// A directed segment. A crossing is forward when the anchor passes from the left of from -> to to
// its right as drawn on the image (y down: for from=(0,0), to=(1,0), "right" is y > 0), backward
// the other way, and only through the segment itself (not its extension).
struct LineRule {
  std::string name;
  Point from, to;
  Anchor anchor = Anchor::BottomCenter;
  bool operator==(const LineRule& o) const {
    return name == o.name && from == o.from && to == o.to && anchor == o.anchor;
  }
};

// A simple polygon (at least 3 corners). dwell < 0, max_objects == 0: that event is off.
struct ZoneRule {
  std::string name;
  std::vector<Point> polygon;
  Anchor anchor = Anchor::BottomCenter;
  double dwell = -1;           // seconds in the zone before one "dwell" event per visit
  unsigned max_objects = 0;    // occupancy at or above this ...
  double overcrowd_time = 0;   // ... for at least this many seconds starts an overcrowding
  bool operator==(const ZoneRule& o) const {
    return name == o.name && polygon == o.polygon && anchor == o.anchor && dwell == o.dwell &&
           max_objects == o.max_objects && overcrowd_time == o.overcrowd_time;
  }
};

struct Rules {
  bool normalized = false;  // every coordinate in 0..1, scaled by the frame size
  std::vector<LineRule> lines;
  std::vector<ZoneRule> zones;
};

// "" when the rules are usable, else what is wrong, naming the rule and the field
// (e.g. "zone \"lot\": polygon needs at least 3 points"). Names must be unique per kind and not empty.
std::string validate(const Rules& rules);

}  // namespace ccl::scene
