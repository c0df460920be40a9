#include "ccl_trail.h"

void CclTrails::begin_frame(unsigned length) {
  frame_++;
  length_ = length;
  for (auto it = histories_.begin(); it != histories_.end();) {
    History& h = it->second;
    // Unseen in the frame_ - last_frame - 1 frames since, more than `length`: the object is gone,
    // and its memory goes with it.
    if (frame_ - h.last_frame - 1 > length_) {
      it = histories_.erase(it);
      continue;
    }
    while (h.points.size() > length_) h.points.pop_front();  // the length may have shrunk
    ++it;
  }
}

void CclTrails::add(std::uint32_t id, double x, double y) {
  if (!id || !length_) return;
  History& h = histories_[id];
  h.points.push_back({x, y});
  h.last_frame = frame_;
  if (h.points.size() > length_) h.points.pop_front();
}

const std::deque<CclTrailPoint>* CclTrails::points(std::uint32_t id) const {
  auto it = histories_.find(id);
  return it == histories_.end() ? nullptr : &it->second.points;
}

void CclTrails::clear() {
  histories_.clear();
}
