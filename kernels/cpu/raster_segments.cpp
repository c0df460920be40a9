// The CPU backend, after Imura's raster segments (docs/algorithms.md): the runs of each row
// are the unit of work. Overlapping runs of adjacent rows are united (union-find on run indices,
// linking the larger root under the smaller), statistics are summed per run, not per pixel.
#include <algorithm>
#include <string>
#include <vector>

#include "background_model.hpp"
#include "ccl/analyzer.hpp"
#include "ccl/finalize.hpp"
#include "foreground.hpp"

namespace ccl {
namespace {

struct Run {
  std::int32_t x0, x1;  // inclusive ends
};

class RasterSegmentsAnalyzer final : public Analyzer {
 public:
  const char* backend_name() const override { return "cpu"; }

  // Labelling happens in collect(), on the caller's thread (there is no device to overlap with);
  // the foreground stage, when there is one, in submit().
  void submit(const ImageView& image, const Options& options, const LabelView* labels, const MaskView* mask) override {
    if (pending_) throw Error(Error::Kind::InvalidArgument, "submit() called twice without collect()");
    validate(image, options);
    validate(image, mask);
    if (labels && labels->data == nullptr) throw Error(Error::Kind::InvalidArgument, "label map has no data");
    if (labels && labels->stride < image.width)
      throw Error(Error::Kind::InvalidArgument, "label map stride is smaller than the width");
    // The model is updated here, not in collect(): submit order is frame order for analyzers
    // sharing one model, and a reset() after submit() cannot reach a frame already submitted.
    image_ = foreground_stage_needed(options) ? foreground_mask(image, options) : image;
    options_ = options;
    if (foreground_stage_needed(options)) options_.threshold = 0;
    labels_ = labels ? *labels : LabelView{};
    mask_out_ = mask ? *mask : MaskView{};
    pending_ = true;
  }

  void set_background_model(std::shared_ptr<BackgroundModel> model) override {
    if (!model) {
      model_.reset();
      return;
    }
    auto cpu_model = std::dynamic_pointer_cast<cpu::CpuBackgroundModel>(model);
    if (!cpu_model)
      throw Error(Error::Kind::InvalidArgument, std::string("a background model of the ") + model->backend_name() +
                                                    " backend cannot be used by the cpu backend");
    model_ = std::move(cpu_model);
  }

  void collect(Result& result) override {
    if (!pending_) throw Error(Error::Kind::InvalidArgument, "collect() called without submit()");
    pending_ = false;
    const bool want_labels = labels_.data != nullptr;
    extract_runs(image_, options_.threshold);
    unite_adjacent_rows(options_.connectivity == 8 ? 1 : 0);
    number_components();
    accumulate_stats();
    finalize(stats_, options_, result, want_labels ? &final_label_ : nullptr);
    result.width = image_.width;
    result.height = image_.height;
    result.connectivity = options_.connectivity;
    if (want_labels) write_labels(image_, labels_);
    if (mask_out_.data) write_mask(image_, options_.threshold, mask_out_);
  }

 private:
  // The foreground stage into mask_ (0/1, reused), returned as the image to label with threshold 0.
  ImageView foreground_mask(const ImageView& image, const Options& options) {
    const int w = image.width, h = image.height;
    mask_.resize(std::size_t(w) * h);
    if (uses_background_model(options.foreground)) {
      if (!model_) model_ = std::make_shared<cpu::CpuBackgroundModel>();
      model_->update(image, options, mask_.data());
    } else {
      cpu::threshold_mask(image, options.threshold, mask_.data());
    }
    morphology_.open(mask_.data(), w, h, options.open_radius);
    morphology_.close(mask_.data(), w, h, options.close_radius);
    morphology_.shrink(mask_.data(), w, h, options.shrink_radius);
    return ImageView{mask_.data(), w, h, w, {}};
  }

  // Run boundaries are the positions where foreground-ness changes; recorded without branches
  // because random masks make the branch unpredictable.
  void extract_runs(const ImageView& image, std::uint8_t threshold) {
    const int w = image.width, h = image.height;
    edges_.resize(std::size_t(w) + 1);
    row_begin_.resize(std::size_t(h) + 1);
    runs_.clear();
    for (int y = 0; y < h; ++y) {
      const std::uint8_t* p = image.data + std::ptrdiff_t(y) * image.stride;
      std::int32_t* e = edges_.data();
      std::size_t n = 0;
      bool previous = false;
      for (int x = 0; x < w; ++x) {
        const bool current = p[x] > threshold;
        e[n] = x;
        n += current != previous;
        previous = current;
      }
      if (previous) e[n++] = w;
      row_begin_[y] = std::uint32_t(runs_.size());
      for (std::size_t i = 0; i < n; i += 2) runs_.push_back(Run{e[i], e[i + 1] - 1});
    }
    row_begin_[h] = std::uint32_t(runs_.size());
  }

  std::uint32_t find(std::uint32_t i) {
    while (parent_[i] != i) {
      parent_[i] = parent_[parent_[i]];  // path halving
      i = parent_[i];
    }
    return i;
  }

  // Invariant kept by every link: parent_[i] <= i, so a root is its component's first run.
  void unite(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a < b) parent_[b] = a;
    else if (b < a) parent_[a] = b;
  }

  // Two runs of adjacent rows touch when their spans overlap (4-connectivity) or overlap once
  // widened by one pixel (8-connectivity): Imura's conditions.
  void unite_adjacent_rows(std::int32_t slack) {
    parent_.resize(runs_.size());
    for (std::uint32_t i = 0; i < runs_.size(); ++i) parent_[i] = i;
    const std::size_t h = row_begin_.size() - 1;
    for (std::size_t y = 1; y < h; ++y) {
      std::uint32_t above = row_begin_[y - 1];
      const std::uint32_t above_end = row_begin_[y];
      for (std::uint32_t i = row_begin_[y]; i < row_begin_[y + 1]; ++i) {
        const std::int32_t lo = runs_[i].x0 - slack, hi = runs_[i].x1 + slack;
        while (above < above_end && runs_[above].x1 < lo) ++above;
        std::uint32_t k = above;
        for (; k < above_end && runs_[k].x0 <= hi; ++k) unite(k, i);
        if (k > above) above = k - 1;  // the last run touched may touch the next run of this row too
      }
    }
  }

  // Roots in run order are components in raster order of their first pixel.
  void number_components() {
    component_.resize(runs_.size());
    std::uint32_t n = 0;
    for (std::uint32_t i = 0; i < runs_.size(); ++i)
      component_[i] = parent_[i] == i ? n++ : component_[find(i)];
    stats_.assign(n, ComponentStats{});
  }

  void accumulate_stats() {
    const std::size_t h = row_begin_.size() - 1;
    for (std::size_t y = 0; y < h; ++y)
      for (std::uint32_t i = row_begin_[y]; i < row_begin_[y + 1]; ++i) {
        const Run r = runs_[i];
        const std::uint32_t len = std::uint32_t(r.x1 - r.x0 + 1);
        ComponentStats& s = stats_[component_[i]];
        if (s.area == 0) {  // the root run: the component's first row
          s.left = std::uint32_t(r.x0); s.right = std::uint32_t(r.x1);
          s.top = s.bottom = std::uint32_t(y);
        } else {
          s.left = std::min(s.left, std::uint32_t(r.x0));
          s.right = std::max(s.right, std::uint32_t(r.x1));
          s.bottom = std::uint32_t(y);
        }
        s.area += len;
        s.sum_x += std::uint64_t(len) * std::uint64_t(r.x0 + r.x1) / 2;
        s.sum_y += std::uint64_t(len) * y;
      }
  }

  void write_labels(const ImageView& image, const LabelView& labels) const {
    for (int y = 0; y < image.height; ++y) {
      std::uint32_t* row = labels.data + std::ptrdiff_t(y) * labels.stride;
      std::fill(row, row + image.width, 0u);
      for (std::uint32_t i = row_begin_[y]; i < row_begin_[y + 1]; ++i)
        std::fill(row + runs_[i].x0, row + runs_[i].x1 + 1, final_label_[component_[i]]);
    }
  }

  // After labelling, so `out` may be the frame's own plane: `image` is the frame (threshold, no
  // stage) or mask_ (0/1, threshold 0).
  static void write_mask(const ImageView& image, std::uint8_t threshold, const MaskView& out) {
    for (int y = 0; y < image.height; ++y) {
      const std::uint8_t* in = image.data + std::ptrdiff_t(y) * image.stride;
      std::uint8_t* row = out.data + std::ptrdiff_t(y) * out.stride;
      for (int x = 0; x < image.width; ++x) row[x] = in[x] > threshold ? kMaskForeground : kMaskBackground;
    }
  }

  // Scratch kept between frames: the mask, run and union-find arrays are not reallocated per frame.
  std::shared_ptr<cpu::CpuBackgroundModel> model_;
  std::vector<std::uint8_t> mask_;
  cpu::SquareMorphology morphology_;
  std::vector<std::int32_t> edges_;
  std::vector<std::uint32_t> row_begin_;
  std::vector<Run> runs_;
  std::vector<std::uint32_t> parent_;
  std::vector<std::uint32_t> component_;
  std::vector<ComponentStats> stats_;
  std::vector<std::uint32_t> final_label_;
  // The frame submit() recorded, labelled by collect().
  ImageView image_;
  Options options_;
  LabelView labels_;
  MaskView mask_out_;
  bool pending_ = false;
};

}  // namespace

std::unique_ptr<Analyzer> make_cpu_analyzer() { return std::make_unique<RasterSegmentsAnalyzer>(); }

}  // namespace ccl
