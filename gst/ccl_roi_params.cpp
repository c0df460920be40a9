#include "ccl_roi_params.h"

#include <algorithm>

#include "ccl_parallel.h"
#include "ccl_quarks.h"

namespace ccl_gst {
namespace {

// The field's value, written in place: the structure is ours until it goes into a meta, and this
// skips the GValue copy and type lookups of gst_structure_id_set (most of a structure's cost).
GValue* field(GstStructure* s, GQuark name) { return const_cast<GValue*>(gst_structure_id_get_value(s, name)); }

// A copy of one blank template: gst_structure_copy sizes the field array once and copies the
// values, ~20 % cheaper than gst_structure_new_id adding the four fields one by one.
RoiParam blank() {
  static GstStructure* const tmpl = [] {
    const ComponentQuarks& q = quarks();
    return gst_structure_new_id(q.roi_type, q.label, G_TYPE_UINT, 0u, q.area, G_TYPE_UINT, 0u, q.centroid_x,
                                G_TYPE_DOUBLE, 0.0, q.centroid_y, G_TYPE_DOUBLE, 0.0, nullptr);
  }();
  const ComponentQuarks& q = quarks();
  GstStructure* s = gst_structure_copy(tmpl);  // reads the template only: safe from every worker
  return {s, field(s, q.label), field(s, q.area), field(s, q.centroid_x), field(s, q.centroid_y)};
}

constexpr std::size_t kChunk = 128;  // ~15 us of structures per chunk

}  // namespace

// Stores into the values blank() made with these types, as g_value_set_uint/double do after a type
// check each; the four checks were most of the filling time (~40 ns a component on the H100 host).
void roi_param_fill(const RoiParam& p, const ccl::Component& c) {
  p.label->data[0].v_uint = c.label;
  p.area->data[0].v_uint = c.area;
  p.centroid_x->data[0].v_double = c.centroid_x;
  p.centroid_y->data[0].v_double = c.centroid_y;
}

RoiParamStock::RoiParamStock() = default;

RoiParamStock::~RoiParamStock() {
  build_.reset();  // waits
  for (const RoiParam& p : building_) gst_structure_free(p.structure);
  for (const RoiParam& p : stock_) gst_structure_free(p.structure);
}

void RoiParamStock::prepare(std::size_t n) {
  if (build_ || n <= stock_.size()) return;
  building_.assign(n - stock_.size(), RoiParam{});
  build_ = std::make_unique<BackgroundFor>(building_.size(), kChunk, [this](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) building_[i] = blank();
  });
}

void RoiParamStock::finish_build() {
  if (!build_) return;
  build_->wait();
  build_.reset();
  stock_.insert(stock_.end(), building_.begin(), building_.end());
  building_.clear();
}

std::vector<RoiParam> RoiParamStock::take(std::size_t n) {
  finish_build();
  const std::size_t from_stock = std::min(n, stock_.size());
  std::vector<RoiParam> out(n);
  std::copy(stock_.end() - std::ptrdiff_t(from_stock), stock_.end(), out.begin());
  stock_.resize(stock_.size() - from_stock);
  // More than prepared: the rest on all threads now, as without a stock.
  parallel_for(n - from_stock, kChunk, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) out[from_stock + i] = blank();
  });
  return out;
}

void RoiParamStock::trim(std::size_t n) {
  finish_build();
  while (stock_.size() > 2 * n + kChunk) {
    gst_structure_free(stock_.back().structure);
    stock_.pop_back();
  }
}

}  // namespace ccl_gst
