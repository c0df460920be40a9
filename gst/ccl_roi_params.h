// The "connected-component" param structures of the ROI metas, built ahead of time: blank ones
// are made on the worker threads while the GPU labels the frame, and filled in once the frame's
// components are known, so the streaming thread only writes four values per component.
#pragma once

#include <gst/gst.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "ccl/types.hpp"

namespace ccl_gst {

class BackgroundFor;

// A blank param structure with its four values found once, where it is built: filling it is then
// four stores, not four field searches in a structure that may not be in this core's cache.
struct RoiParam {
  GstStructure* structure;
  GValue *label, *area, *centroid_x, *centroid_y;
};

class RoiParamStock {
 public:
  RoiParamStock();
  ~RoiParamStock();  // waits for a build still running and frees the blank structures left
  RoiParamStock(const RoiParamStock&) = delete;
  RoiParamStock& operator=(const RoiParamStock&) = delete;

  // Starts building blank structures in the background until `n` are in stock; returns at once.
  void prepare(std::size_t n);
  // `n` blank params (the caller owns their structures): waits for prepare(), takes them from the
  // stock and builds any that are missing on all threads.
  std::vector<RoiParam> take(std::size_t n);
  // A param taken and not used comes back; its values are stale, every field is set on use.
  void give_back(const RoiParam& blank) { stock_.push_back(blank); }
  // Frees the stock beyond what a frame of `n` components could use (the scene emptied).
  void trim(std::size_t n);

 private:
  void finish_build();

  std::vector<RoiParam> stock_;     // blank, ready
  std::vector<RoiParam> building_;  // written by the background build only
  std::unique_ptr<BackgroundFor> build_;
};

// Writes `c`'s label, area and centroid into a blank param.
void roi_param_fill(const RoiParam& param, const ccl::Component& c);

}  // namespace ccl_gst
