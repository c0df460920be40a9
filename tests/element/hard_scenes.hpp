// What a cudaccl line makes of cclblobsrc's hard scenes, scored against their GstCclTruthMeta:
// false objects per frame, frames with one after each light change, shadows reported as their own
// component, how long a ghost outlives the object that stood there, objects in fragments. The
// scores are plain numbers so a test can print them now and assert bounds on them later.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "hard_frames.hpp"

namespace hard {

// Per frame, components of at least min_area (components the line itself dropped never count).
struct FrameScore {
  int false_objects = 0;       // overlap no true object's box, or lie mostly on shadows (shadows, ghosts, clutter...)
  int shadow_components = 0;   // lie mostly on a shadow (whose box touches its object's, so overlap allowed)
  int clutter_components = 0;  // overlap no true object's box and lie mostly on the swaying clutter
  int ghost_components = 0;    // lie mostly on a ghost, outside every true object's box
  int fragmented_objects = 0;  // true objects with more than one component mostly inside their box
  int merged_components = 0;   // hold most of two true objects' boxes that lie apart (join-parts' false joins)
};

struct SceneScore {
  std::string scene, line;
  int frames = 0, warm_up = 0;
  std::vector<FrameScore> per_frame;
  int frames_with_false_object = 0;  // after warm-up
  int false_objects = 0;             // summed over the frames after warm-up
  int frames_with_fragment = 0;      // after warm-up
  int frames_with_merge = 0;         // after warm-up
  // Light changes (gain-step, ir-switch): per change, the frames with a false object from its
  // first frame until the next change (or the end); the steady frames before the first change too.
  std::vector<int> change_frames, false_frames_after_change;
  int false_frames_before_first_change = 0;
  int frames_with_shadow_component = 0;  // after warm-up
  int frames_with_clutter_component = 0;
  // stopped-object: per ghost (one per stop), the frames from the object's leaving until no
  // component remains on where it stood; ghost_cleared false when one still did at the last frame.
  std::vector<int> ghost_lifetimes;
  std::vector<bool> ghost_cleared;
  int still_frames = 0, still_frames_detected = 0;  // stopped object: frames still, and with a component on it

  // The numbers issue 33 bounds, for assertions: the worst light change, the longest ghost.
  int worst_after_change() const {
    return false_frames_after_change.empty()
               ? 0
               : *std::max_element(false_frames_after_change.begin(), false_frames_after_change.end());
  }
  int longest_ghost() const {
    return ghost_lifetimes.empty() ? 0 : *std::max_element(ghost_lifetimes.begin(), ghost_lifetimes.end());
  }
};

// Pixels of box `c` inside `regions` and in none of `objects`.
inline long pixels_on(const ccl::Component& c, const std::vector<GstCclTruthRegion>& regions,
                      const std::vector<GstCclTruthBox>& objects) {
  long n = 0;
  for (int y = c.y; y < c.y + c.height; ++y)
    for (int x = c.x; x < c.x + c.width; ++x) n += inside_any(regions, x, y) && !inside_any(objects, x, y);
  return n;
}

template <typename Box>
bool overlaps(const Box& b, const ccl::Component& c) {
  return c.x < b.x + b.width && b.x < c.x + c.width && c.y < b.y + b.height && b.y < c.y + c.height;
}

inline long overlap_area(const GstCclTruthBox& b, const ccl::Component& c) {
  const long w = std::min(b.x + b.width, c.x + c.width) - std::max(b.x, c.x);
  const long h = std::min(b.y + b.height, c.y + c.height) - std::max(b.y, c.y);
  return w > 0 && h > 0 ? w * h : 0;
}

// Most of the true box inside the component's box.
inline bool holds(const ccl::Component& c, const GstCclTruthBox& b) {
  return 2 * overlap_area(b, c) > long(b.width) * b.height;
}

inline bool apart(const GstCclTruthBox& a, const GstCclTruthBox& b) {
  return a.x + a.width < b.x || b.x + b.width < a.x || a.y + a.height < b.y || b.y + b.height < a.y;
}

inline FrameScore score_frame(const Frame& f, std::uint32_t min_area) {
  FrameScore s;
  for (const ccl::Component& c : f.components) {
    if (c.area < min_area) continue;
    const long box = long(c.width) * c.height;
    bool on_object = false;
    for (const GstCclTruthBox& b : f.objects) on_object |= overlaps(b, c);
    const bool mostly_shadow = 2 * pixels_on(c, f.shadows, f.objects) > box;
    s.false_objects += !on_object || mostly_shadow;
    s.shadow_components += mostly_shadow;
    s.clutter_components += !on_object && 2 * pixels_on(c, f.clutter, f.objects) > box;
    s.ghost_components += 2 * pixels_on(c, f.ghosts, f.objects) > box;
    bool merge = false;  // objects whose boxes touch may well be one component in the mask
    for (const GstCclTruthBox& a : f.objects)
      for (const GstCclTruthBox& b : f.objects)
        merge |= &a < &b && holds(c, a) && holds(c, b) && apart(a, b);
    s.merged_components += merge;
  }
  for (const GstCclTruthBox& b : f.objects) {
    int parts = 0;
    for (const ccl::Component& c : f.components)
      parts += c.area >= min_area && 2 * overlap_area(b, c) > long(c.width) * c.height;
    s.fragmented_objects += parts > 1;
  }
  return s;
}

// Scores frames already pulled through a cudaccl line; frames before `warm_up` are the model's
// learning and count for nothing but ghosts.
inline SceneScore score(const std::vector<Frame>& frames, std::uint32_t min_area, int warm_up) {
  SceneScore s;
  s.frames = int(frames.size()), s.warm_up = warm_up;
  for (const Frame& f : frames) s.per_frame.push_back(score_frame(f, min_area));
  for (int i = warm_up; i < s.frames; ++i) {
    const FrameScore& p = s.per_frame[std::size_t(i)];
    s.frames_with_false_object += p.false_objects > 0;
    s.false_objects += p.false_objects;
    s.frames_with_fragment += p.fragmented_objects > 0;
    s.frames_with_merge += p.merged_components > 0;
    s.frames_with_shadow_component += p.shadow_components > 0;
    s.frames_with_clutter_component += p.clutter_components > 0;
  }
  // A change starts where the light differs from the frame before, which was steady.
  auto light = [&](int i) { return std::make_tuple(frames[i].gain, frames[i].offset, bool(frames[i].grey)); };
  for (int i = 1; i < s.frames; ++i)
    if (light(i) != light(i - 1) && (i < 2 || light(i - 1) == light(i - 2))) s.change_frames.push_back(i);
  for (std::size_t k = 0; k < s.change_frames.size(); ++k) {
    const int end = k + 1 < s.change_frames.size() ? s.change_frames[k + 1] : s.frames;
    int n = 0;
    for (int i = s.change_frames[k]; i < end; ++i) n += s.per_frame[std::size_t(i)].false_objects > 0;
    s.false_frames_after_change.push_back(n);
  }
  const int first_change = s.change_frames.empty() ? s.frames : s.change_frames.front();
  for (int i = warm_up; i < first_change; ++i) s.false_frames_before_first_change += s.per_frame[i].false_objects > 0;
  // Ghosts: a run of frames listing one (age 0, 1, ...); its lifetime ends after the last frame
  // with a component on it.
  int last_with_ghost = -1, run_start = -1;
  for (int i = 0; i <= s.frames; ++i) {
    const bool listed = i < s.frames && !frames[i].ghosts.empty();
    if (listed && (run_start < 0 || frames[i].ghosts.front().age == 0)) {
      if (run_start >= 0) {
        s.ghost_lifetimes.push_back(last_with_ghost < 0 ? 0 : last_with_ghost - run_start + 1);
        s.ghost_cleared.push_back(last_with_ghost < i - 1);
      }
      run_start = i, last_with_ghost = -1;
    }
    if (!listed && run_start >= 0) {
      s.ghost_lifetimes.push_back(last_with_ghost < 0 ? 0 : last_with_ghost - run_start + 1);
      s.ghost_cleared.push_back(last_with_ghost < i - 1);
      run_start = -1;
    }
    if (listed && s.per_frame[std::size_t(i)].ghost_components > 0) last_with_ghost = i;
  }
  for (const Frame& f : frames)
    for (const GstCclTruthBox& b : f.objects) {
      if (b.still == 0) continue;
      s.still_frames++;
      bool seen = false;
      for (const ccl::Component& c : f.components) seen |= c.area >= min_area && overlaps(b, c);
      s.still_frames_detected += seen;
    }
  return s;
}

// HARD_SCENE_BOXES=dir: each run's truth objects and components, one a line ("SCENE T frame x y w h",
// "SCENE C frame x y w h area"), into dir/SCENE_LINE.txt, to replay grouping rules on
// (bench/quality/replay_grouping.py).
inline void write_boxes(const std::string& dir, const std::string& scene, const std::string& line,
                        const std::vector<Frame>& frames) {
  std::string name = scene + "_" + line;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '-';
  std::ofstream out(dir + "/" + name + ".txt");
  for (std::size_t i = 0; i < frames.size(); ++i) {
    for (const GstCclTruthBox& b : frames[i].objects)
      out << scene << " T " << i << ' ' << b.x << ' ' << b.y << ' ' << b.width << ' ' << b.height << '\n';
    for (const ccl::Component& c : frames[i].components)
      out << scene << " C " << i << ' ' << c.x << ' ' << c.y << ' ' << c.width << ' ' << c.height << ' ' << c.area
          << '\n';
  }
  if (!out) ADD_FAILURE() << "cannot write the boxes of " << name << " into " << dir;
}

// Runs "cclblobsrc scene=<scene> seed=<seed> ! NV12 at w x h ! <line> ! appsink" for `n` frames
// and scores it (min_area: the line's, for components it kept).
inline SceneScore run(const std::string& scene, const std::string& line, int n, std::uint32_t min_area = 50,
                      int warm_up = 60, int w = 640, int h = 360, unsigned seed = 1) {
  const std::vector<Frame> frames =
      pull(scene, n, w, h, "NV12", "seed=" + std::to_string(seed), line + " ! ", /*pixels=*/false);
  SceneScore s = score(frames, min_area, warm_up);
  s.scene = scene, s.line = line;
  if (const char* dir = std::getenv("HARD_SCENE_BOXES")) write_boxes(dir, scene, line, frames);
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (!frames[i].has_ccl || !frames[i].has_truth) ADD_FAILURE() << scene << " frame " << i << " lacks a meta";
  return s;
}

template <typename T>
std::string list(const std::vector<T>& v) {
  std::ostringstream o;
  for (std::size_t i = 0; i < v.size(); ++i) o << (i ? "," : "") << v[i];
  return "[" + o.str() + "]";
}

// One line of the numbers, for the test log and the README.
inline std::string summary(const SceneScore& s) {
  std::ostringstream o;
  const int judged = s.frames - s.warm_up;
  o << s.scene << " | " << s.line << " | frames with a false object " << s.frames_with_false_object << "/" << judged
    << " (" << s.false_objects << " false objects) | frames with a fragmented object " << s.frames_with_fragment
    << " | with two objects in one component " << s.frames_with_merge;
  if (!s.change_frames.empty())
    o << " | light changes at " << list(s.change_frames) << ": frames with a false object after each "
      << list(s.false_frames_after_change) << " (before the first: " << s.false_frames_before_first_change << ")";
  if (s.scene == "shadows") o << " | frames with a shadow as its own component " << s.frames_with_shadow_component;
  if (s.scene == "sway") o << " | frames with a component on the swaying patch " << s.frames_with_clutter_component;
  if (s.still_frames)
    o << " | stopped object detected in " << s.still_frames_detected << "/" << s.still_frames
      << " still frames | ghost lifetimes " << list(s.ghost_lifetimes) << " frames"
      << (std::find(s.ghost_cleared.begin(), s.ghost_cleared.end(), false) != s.ghost_cleared.end()
              ? " (not cleared by the end)"
              : "");
  return o.str();
}

}  // namespace hard
