#include "ccl/part_joiner.hpp"

#include <algorithm>
#include <cmath>

namespace ccl {
namespace {

// The grid's cells are about one per predicted box (a cell lists few boxes however many objects
// the frame before had), 8 to 256 px a side, a power of two.
int cell_shift(int width, int height, std::size_t boxes) {
  int shift = 3;
  while (shift < 8 && (std::size_t(1) << (2 * shift)) * boxes < std::size_t(width) * std::size_t(height)) ++shift;
  return shift;
}

int floor_half(int v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }  // floor(v / 2)

// The exact coordinate sum behind a centroid: area * centroid lies within 1e-3 of the integer
// sum (sums stay below 2^53), so rounding recovers it.
std::uint64_t coordinate_sum(double centroid, std::uint32_t area) {
  return std::uint64_t(std::llround(centroid * double(area)));
}

}  // namespace

void PartJoiner::index_predictions(int width, int height) {
  predicted_.clear();
  for (const Object& o : before_)
    predicted_.push_back({{o.box.b[0] + o.dx - rules_.margin, o.box.b[1] + o.dy - rules_.margin,
                           o.box.b[2] + o.dx + rules_.margin, o.box.b[3] + o.dy + rules_.margin}});
  shift_ = cell_shift(width, height, predicted_.size());
  cols_ = std::max(1, ((width - 1) >> shift_) + 1);
  rows_ = std::max(1, ((height - 1) >> shift_) + 1);
  const std::size_t cells = std::size_t(cols_) * std::size_t(rows_);
  cell_start_.assign(cells + 1, 0);
  cell_fill_.resize(cells);
  // Count, then place: each cell's predicted boxes are cell_items_[cell_start_[c], cell_start_[c + 1]).
  for (int pass = 0; pass < 2; ++pass) {
    for (std::uint32_t k = 0; k < predicted_.size(); ++k) {
      const Box& p = predicted_[k];
      if (p.b[2] <= 0 || p.b[3] <= 0 || p.b[0] >= width || p.b[1] >= height) continue;  // off the frame
      const int cx0 = std::max(0, p.b[0]) >> shift_, cy0 = std::max(0, p.b[1]) >> shift_;
      const int cx1 = std::min(cols_ - 1, (p.b[2] - 1) >> shift_), cy1 = std::min(rows_ - 1, (p.b[3] - 1) >> shift_);
      for (int cy = cy0; cy <= cy1; ++cy)
        for (int cx = cx0; cx <= cx1; ++cx) {
          const std::size_t c = std::size_t(cy) * std::size_t(cols_) + std::size_t(cx);
          if (pass == 0)
            ++cell_start_[c + 1];
          else
            cell_items_[cell_fill_[c]++] = {p, int(k), cx0, cy0};
        }
    }
    if (pass == 0) {
      for (std::size_t c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
      cell_items_.resize(cell_start_[cells]);
      std::copy(cell_start_.begin(), cell_start_.end() - 1, cell_fill_.begin());
    }
  }
}

PartJoiner::Touch PartJoiner::owner_of(const Component& part) const {
  const int box[4] = {part.x, part.y, part.x + part.width, part.y + part.height};
  const long area = long(part.width) * part.height;
  Touch t{-1, -1, false};
  int holder = -1, holders = 0, others = 0;
  long most = 0;
  const int cx0 = box[0] >> shift_, cy0 = box[1] >> shift_;
  const int cx1 = std::min(cols_ - 1, (box[2] - 1) >> shift_), cy1 = std::min(rows_ - 1, (box[3] - 1) >> shift_);
  for (int cy = cy0; cy <= cy1; ++cy)
    for (int cx = cx0; cx <= cx1; ++cx) {
      const std::size_t c = std::size_t(cy) * std::size_t(cols_) + std::size_t(cx);
      for (std::uint32_t i = cell_start_[c]; i < cell_start_[c + 1]; ++i) {
        const CellItem& p = cell_items_[i];
        // A pair is measured in one cell only, the first both lie in; most pairs do not overlap.
        const int w = std::min(box[2], p.box.b[2]) - std::max(box[0], p.box.b[0]);
        const int h = std::min(box[3], p.box.b[3]) - std::max(box[1], p.box.b[1]);
        const bool here = (std::max(cx0, p.cx0) == cx) & (std::max(cy0, p.cy0) == cy);
        const long inside = (w > 0) & (h > 0) & here ? long(w) * h : 0;
        if (100 * inside <= long(rules_.share_other) * area) continue;
        const int k = p.object;
        if (100 * inside >= long(rules_.share_in) * area)
          holder = k, ++holders;
        else
          ++others;
        if (t.nearest >= 0 && before_[std::size_t(t.nearest)].family != before_[std::size_t(k)].family) t.mixed = true;
        if (inside > most || (inside == most && k < t.nearest)) most = inside, t.nearest = k;  // any visiting order
      }
    }
  if (holders == 1 && others == 0) t.owner = holder;
  return t;
}

// Parts that fill most of their joined box, or lie side by side (each as tall as most of it) or
// stacked (each as wide), are one object's; two cars that touched once, now diagonal, are not.
bool PartJoiner::one_object(const Made& made) const {
  const long w = made.box.b[2] - made.box.b[0], h = made.box.b[3] - made.box.b[1];
  const bool aligned = 100L * made.min_h >= rules_.span * h || 100L * made.min_w >= rules_.span * w;
  return aligned || 100 * made.covered >= long(rules_.fill) * w * h;
}

// Objects of one family (the parts that came off one object) join again once they pass
// one_object(): one object's parts that parted for a frame, or reached it in separate boxes.
void PartJoiner::join_families(const std::vector<Component>& parts) {
  // Chains of Mades per family through a small open-addressed table (no sort: O(n)).
  const std::size_t n = made_.size();
  std::size_t size = 16;
  while (size < 2 * n) size *= 2;
  family_slot_.assign(size, -1);
  next_kin_.assign(n, -1);
  bool shared = false;
  for (std::size_t g = n; g-- > 0;) {  // backwards, so each chain runs in list order
    std::size_t h = std::size_t(made_[g].family * 0x9E3779B97F4A7C15ull) & (size - 1);
    while (family_slot_[h] >= 0 && made_[std::size_t(family_slot_[h])].family != made_[g].family)
      h = (h + 1) & (size - 1);
    if (family_slot_[h] >= 0) next_kin_[g] = family_slot_[h], shared = true;
    family_slot_[h] = int(g);
  }
  if (!shared) return;
  // A family's first Made decides for all of it; the others are then kept or gone.
  enum : char { kOpen, kKept, kGone };
  kin_state_.assign(n, kOpen);
  std::size_t out = 0;  // out <= g, and a chain only runs forward: writes never reach a Made unread
  for (std::size_t g = 0; g < n; ++g) {
    if (kin_state_[g] == kGone) continue;
    if (kin_state_[g] == kKept || next_kin_[g] < 0) {
      made_[out++] = made_[g];
      continue;
    }
    Made joined = made_[g];
    std::size_t largest = g;
    for (int k = next_kin_[g]; k >= 0; k = next_kin_[std::size_t(k)]) {
      merge(joined, made_[std::size_t(k)], parts);
      if (made_[std::size_t(k)].area > made_[largest].area) largest = std::size_t(k);
    }
    const bool together = one_object(joined);
    for (int k = next_kin_[g]; k >= 0; k = next_kin_[std::size_t(k)])
      kin_state_[std::size_t(k)] = together ? kGone : kKept;
    if (together) joined.followed = made_[largest].followed, joined.whole = false, joined.met = false;
    made_[out++] = together ? joined : made_[g];
  }
  made_.resize(out);
}

PartJoiner::Made PartJoiner::single(const std::vector<Component>& parts, std::uint32_t i) const {
  const Component& part = parts[i];
  Made m;
  m.box = {{part.x, part.y, part.x + part.width, part.y + part.height}};
  m.area = part.area;
  m.sum_x = m.sum_y = 0;  // summed once it joins another (merge)
  m.covered = long(part.width) * part.height;
  m.min_w = part.width, m.min_h = part.height;
  m.part = i;
  m.parts = 1;
  m.family = 0;
  m.followed = -1;
  m.whole = true;
  m.met = false;
  return m;
}

void PartJoiner::add_part(Made& made, const std::vector<Component>& parts, std::uint32_t i) const {
  merge(made, single(parts, i), parts);
}

void PartJoiner::merge(Made& made, const Made& p, const std::vector<Component>& parts) {
  // A single part's sums come from its component only now: most parts never join.
  const auto sum_x = [&](const Made& m) {
    return m.parts > 1 ? m.sum_x : coordinate_sum(parts[m.part].centroid_x, m.area);
  };
  const auto sum_y = [&](const Made& m) {
    return m.parts > 1 ? m.sum_y : coordinate_sum(parts[m.part].centroid_y, m.area);
  };
  made.sum_x = sum_x(made) + sum_x(p);
  made.sum_y = sum_y(made) + sum_y(p);
  made.box.b[0] = std::min(made.box.b[0], p.box.b[0]);
  made.box.b[1] = std::min(made.box.b[1], p.box.b[1]);
  made.box.b[2] = std::max(made.box.b[2], p.box.b[2]);
  made.box.b[3] = std::max(made.box.b[3], p.box.b[3]);
  made.part = std::min(made.part, p.part);  // the list is in label order: its smallest label's part
  made.area += p.area;
  made.covered += p.covered;
  made.min_w = std::min(made.min_w, p.min_w), made.min_h = std::min(made.min_h, p.min_h);
  made.parts += p.parts;
}

void PartJoiner::join(Result& result, Order order, std::uint32_t max_objects) {
  const std::vector<Component>& parts = result.components;
  index_predictions(result.width, result.height);
  find_members(parts);
  make_objects(parts);
  join_families(parts);
  follow_objects();
  list_objects(result, order, max_objects);
}

// Each part's object of the frame before, then each object's parts (in list order).
void PartJoiner::find_members(const std::vector<Component>& parts) {
  const std::size_t n = parts.size(), m = before_.size();
  touch_.resize(n);
  member_start_.assign(m + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    touch_[i] = owner_of(parts[i]);
    if (touch_[i].owner >= 0) ++member_start_[std::size_t(touch_[i].owner) + 1];
  }
  for (std::size_t k = 0; k < m; ++k) member_start_[k + 1] += member_start_[k];
  members_.resize(member_start_[m]);
  member_fill_.assign(member_start_.begin(), member_start_.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
    if (touch_[i].owner >= 0) members_[member_fill_[std::size_t(touch_[i].owner)]++] = std::uint32_t(i);
}

void PartJoiner::make_objects(const std::vector<Component>& parts) {
  made_.clear();
  // A part in no single object's box: two objects of different families met in it, or it carries
  // on the family whose boxes it touches (an object moving faster than the margin), or it is new.
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Touch& t = touch_[i];
    if (t.owner >= 0) continue;
    Made p = single(parts, std::uint32_t(i));
    p.met = t.mixed;
    if (t.nearest >= 0 && !t.mixed && !before_[std::size_t(t.nearest)].met) {
      p.family = before_[std::size_t(t.nearest)].family;
      p.followed = t.nearest, p.whole = false;
    } else {
      p.family = next_family_++;
    }
    made_.push_back(p);
  }
  for (std::size_t k = 0; k < before_.size(); ++k) {
    const std::uint32_t first = member_start_[k], end = member_start_[k + 1];
    if (first == end) continue;
    const Object& was = before_[k];
    Made joined = single(parts, members_[first]);
    for (std::uint32_t j = first + 1; j < end; ++j) add_part(joined, parts, members_[j]);
    // Parts that cover little of their joined box (two cars that touched once, now diagonal), or
    // of two objects that had met, stay apart; the largest carries the object on.
    if (end - first == 1 || (!was.met && one_object(joined))) {
      joined.followed = int(k), joined.family = was.family, joined.met = was.met;
      made_.push_back(joined);
      continue;
    }
    std::uint32_t largest = first;
    for (std::uint32_t j = first + 1; j < end; ++j)
      if (parts[members_[j]].area > parts[members_[largest]].area) largest = j;
    for (std::uint32_t j = first; j < end; ++j) {
      Made p = single(parts, members_[j]);
      p.whole = false;
      p.family = was.met ? next_family_++ : was.family;  // two that met part as two families
      if (j == largest) p.followed = int(k);
      made_.push_back(p);
    }
  }
}

void PartJoiner::follow_objects() {
  // The next frame follows these objects. A whole one steps as its centre did; the largest part
  // that came off one keeps its step (its own centre is not the object's), unless two had met.
  now_.clear();
  for (const Made& g : made_) {
    Object o{g.box, 0, 0, g.family, g.met};
    if (g.followed >= 0) {
      const Object& was = before_[std::size_t(g.followed)];
      if (g.whole) {
        o.dx = floor_half(g.box.b[0] + g.box.b[2] - was.box.b[0] - was.box.b[2] + 1);
        o.dy = floor_half(g.box.b[1] + g.box.b[3] - was.box.b[1] - was.box.b[3] + 1);
      } else if (!was.met) {
        o.dx = was.dx, o.dy = was.dy;
      }
    }
    now_.push_back(o);
  }
  before_.swap(now_);
}

void PartJoiner::list_objects(Result& result, Order order, std::uint32_t max_objects) {
  const std::vector<Component>& parts = result.components;
  const std::size_t n = parts.size();
  // The contract's order. The parts came in label order, so raster order is the order of each
  // object's first part (no sort); area order sorts by area, ties by label.
  listed_.clear();
  first_of_.assign(n, -1);
  for (std::size_t g = 0; g < made_.size(); ++g) first_of_[made_[g].part] = int(g);
  for (std::size_t i = 0; i < n; ++i)
    if (first_of_[i] >= 0) listed_.push_back(std::uint32_t(first_of_[i]));
  if (order == Order::Area)
    std::stable_sort(listed_.begin(), listed_.end(),
                     [this](std::uint32_t a, std::uint32_t b) { return made_[a].area > made_[b].area; });
  const std::size_t kept = std::min<std::size_t>(listed_.size(), max_objects);
  result.truncated = listed_.size() > kept;
  out_.resize(kept);
  for (std::size_t i = 0; i < kept; ++i) {
    const Made& g = made_[listed_[i]];
    Component& c = out_[i];
    if (g.parts == 1) {  // as it came, to the bit
      c = parts[g.part];
      continue;
    }
    c.label = parts[g.part].label;
    c.area = g.area;
    c.x = g.box.b[0], c.y = g.box.b[1];
    c.width = g.box.b[2] - g.box.b[0], c.height = g.box.b[3] - g.box.b[1];
    c.centroid_x = double(g.sum_x) / double(g.area);
    c.centroid_y = double(g.sum_y) / double(g.area);
  }
  result.components.swap(out_);
}

}  // namespace ccl
