// Joins the parts of one object that the foreground cut apart (a night object's weak bands, a
// car split by a pole) into one component, by following the objects of the frame before: parts
// lying inside the box where one object of the frame before is predicted are that object. Host
// code on the component list, after the area filters, so every backend gives the same bytes.
#pragma once

#include <cstdint>
#include <vector>

#include "ccl/types.hpp"

namespace ccl {

// Why these numbers: bench/quality/replay_grouping.py's FOLLOW replays, BENCHMARKS.md.
struct PartJoinRules {
  int margin = 6;        // px the predicted box grows by on every side
  int share_in = 80;     // % of a part's box inside one predicted box makes it that object's part
  int share_other = 20;  // ... unless another predicted box holds more than this % of it
  int fill = 70;         // % of the joined box the parts' boxes must cover (else each stays itself),
  int span = 60;         // ... unless each part spans this % of its height (side by side) or width
};

// One stream's objects, followed from frame to frame. Not thread-safe: one per stream.
class PartJoiner {
 public:
  explicit PartJoiner(const PartJoinRules& rules = {}) : rules_(rules) {}

  // Forgets the objects followed: the next frame starts a new scene (caps, flush, DISCONT).
  void reset() { before_.clear(), next_family_ = 1; }

  // Replaces result.components (the parts: the area filters applied, max_objects not) by one
  // component per object, in `order`, then keeps the first `max_objects` and sets `truncated`
  // when it cut. A joined component: the union box, the summed area, the centroid of all its
  // pixels, the smallest label of its parts (in raster order, the part its first pixel is on).
  // Components whose box straddles two objects of the frame before are two objects that met: the
  // parts they break into next are not joined. n_components_total is left as it was.
  void join(Result& result, Order order, std::uint32_t max_objects);

 private:
  struct Box {
    int b[4];  // x0, y0, x1, y1; x1 and y1 exclusive
  };
  struct Object {
    Box box;
    int dx, dy;            // its last step, centre to centre
    std::uint64_t family;  // objects that came off one object share it
    bool met;              // two families met in it: its parts are not joined
  };
  struct Made {  // an object of this frame, before it becomes a Component
    Box box;
    std::uint32_t area;
    std::uint64_t sum_x, sum_y;  // of its pixels' coordinates, once it has two parts
    long covered;                // pixels its parts' boxes cover (overlaps counted twice)
    int min_w, min_h;            // its narrowest and its lowest part's
    std::uint32_t part, parts;   // its first part's index (the one with its label), how many
    int followed;                // the object of the frame before it continues, or -1
    bool whole;                  // it is all of that object (else a part that came off it)
    std::uint64_t family;
    bool met;
  };

  void index_predictions(int width, int height);
  struct Touch {  // a part against the predicted boxes
    int owner;    // the object whose box holds it alone, or -1
    int nearest;  // the object whose box holds most of it (over the share that counts), or -1
    bool mixed;   // boxes of two families hold parts of it
  };
  // Each predicted box is measured against the part once, in the first grid cell both lie in.
  Touch owner_of(const Component& part) const;
  bool one_object(const Made& made) const;
  // join()'s steps, in order.
  void find_members(const std::vector<Component>& parts);
  void make_objects(const std::vector<Component>& parts);
  void follow_objects();  // this frame's objects become the next frame's to follow
  void list_objects(Result& result, Order order, std::uint32_t max_objects);
  void join_families(const std::vector<Component>& parts);
  static void merge(Made& made, const Made& part, const std::vector<Component>& parts);
  void add_part(Made& made, const std::vector<Component>& parts, std::uint32_t i) const;
  Made single(const std::vector<Component>& parts, std::uint32_t i) const;

  PartJoinRules rules_;
  std::vector<Object> before_, now_;
  std::vector<Box> predicted_;
  // A grid of 2^shift_ px cells over the frame, each listing the predicted boxes over it.
  struct CellItem {
    Box box;
    int object;    // its index in before_
    int cx0, cy0;  // its first cell
  };
  int shift_ = 6, cols_ = 0, rows_ = 0;
  std::vector<std::uint32_t> cell_start_, cell_fill_;
  std::vector<CellItem> cell_items_;
  std::vector<Touch> touch_;  // per part
  std::uint64_t next_family_ = 1;
  std::vector<std::uint32_t> member_start_, member_fill_, members_;  // per object before: its parts
  std::vector<Made> made_;
  std::vector<int> family_slot_, next_kin_;  // per family its first Made; per Made the next of its family
  std::vector<char> kin_state_;
  std::vector<int> first_of_;          // per part: the Made it is the first part of, or -1
  std::vector<std::uint32_t> listed_;  // the Mades in the contract's order
  std::vector<Component> out_;         // the joined list, swapped with the parts' (kept for the next frame)
};

}  // namespace ccl
