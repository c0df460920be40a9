// Trails of tracked objects for ccloverlay: per track id, the centroids of its last few frames.
// Plain C++ (no GStreamer), so tests can drive it without an element.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>

struct CclTrailPoint {
  double x, y;
};

class CclTrails {
 public:
  // Starts a frame whose trails are `length` points long (0 = none): histories are cut to their
  // last `length` points and ids unseen in more than `length` frames in a row (the frames begun
  // since their last point, this one not counted) are forgotten.
  void begin_frame(unsigned length);

  // Appends (x, y) to the history of `id` in the current frame (id 0 = untracked: ignored).
  void add(std::uint32_t id, double x, double y);

  // The history of `id`, oldest first, or nullptr when there is none.
  const std::deque<CclTrailPoint>* points(std::uint32_t id) const;

  // Number of ids with a history.
  std::size_t size() const { return histories_.size(); }

  // Forgets everything (flush, new caps, stop).
  void clear();

 private:
  struct History {
    std::deque<CclTrailPoint> points;
    std::uint64_t last_frame;  // frame number of the last point
  };
  std::unordered_map<std::uint32_t, History> histories_;
  std::uint64_t frame_ = 0;
  unsigned length_ = 0;
};
