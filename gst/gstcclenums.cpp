#include "gstcclenums.h"

namespace {

// Registers an enum once; `values` must outlive the type (static storage).
GType register_enum(GType* type, const char* name, const GEnumValue* values) {
  if (g_once_init_enter(type)) g_once_init_leave(type, g_enum_register_static(name, values));
  return *type;
}

}  // namespace

GType gst_cuda_ccl_connectivity_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {4, "4-connected: edge neighbours only", "4"},
      {8, "8-connected: edge and corner neighbours", "8"},
      {0, nullptr, nullptr}};
  return register_enum(&type, "GstCudaCclConnectivity", values);
}

GType gst_cuda_ccl_algorithm_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {int(ccl::Algorithm::OptimizedUF), "Optimized union-find (Chen et al.)", "optimized-uf"},
      {int(ccl::Algorithm::EightDLS), "8-directional label selection (Soh et al.)", "8dls"},
      {int(ccl::Algorithm::M8DLS), "Modified 8-directional label selection (Soh et al.)", "m8dls"},
      {int(ccl::Algorithm::ColumnRuns), "Column-wise label runs with pairwise merges (Kang et al.)", "column-runs"},
      {int(ccl::Algorithm::RasterSegments), "Raster segments (Imura)", "raster-segments"},
      {0, nullptr, nullptr}};
  return register_enum(&type, "GstCudaCclAlgorithm", values);
}

GType gst_cuda_ccl_analysis_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {int(ccl::Analysis::FlslCd), "Full-row runs with conflict detection (Lemaitre et al.)", "flsl-cd"},
      {int(ccl::Analysis::Naive), "One atomic update per pixel", "naive"},
      {int(ccl::Analysis::Flsl), "Full-row runs", "flsl"},
      {int(ccl::Analysis::FlslOtf), "Full-row runs, features computed on the fly", "flsl-otf"},
      {0, nullptr, nullptr}};
  return register_enum(&type, "GstCudaCclAnalysis", values);
}

GType gst_cuda_ccl_order_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {int(ccl::Order::Raster), "Raster order of the first pixel (as OpenCV SAUF)", "raster"},
      {int(ccl::Order::Area), "Area descending, ties in raster order", "area"},
      {0, nullptr, nullptr}};
  return register_enum(&type, "GstCudaCclOrder", values);
}

GType gst_cuda_ccl_backend_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {GST_CUDA_CCL_BACKEND_AUTO, "CUDA where a device is usable, else CPU", "auto"},
      {GST_CUDA_CCL_BACKEND_CUDA, "CUDA only; fail to start without a usable device", "cuda"},
      {GST_CUDA_CCL_BACKEND_CPU, "CPU only", "cpu"},
      {0, nullptr, nullptr}};
  return register_enum(&type, "GstCudaCclBackend", values);
}

GType gst_cuda_ccl_foreground_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {int(ccl::Foreground::Threshold), "Pixels brighter than the threshold", "threshold"},
      {int(ccl::Foreground::Motion), "Pixels departing from a per-pixel background model (Sigma-Delta)", "motion"},
      {int(ccl::Foreground::Adaptive),
       "Motion for real cameras: selective Sigma-Delta that absorbs stopped objects and relearns after light "
       "changes, with its own clean-up (open 1, close 2, shrink 1)",
       "adaptive"},
      {0, nullptr, nullptr}};
  return register_enum(&type, "GstCudaCclForeground", values);
}

const char* gst_cuda_ccl_active_backend_name(GstCudaCclActiveBackend backend) {
  switch (backend) {
    case GST_CUDA_CCL_ACTIVE_CPU: return "cpu";
    case GST_CUDA_CCL_ACTIVE_CUDA: return "cuda";
    case GST_CUDA_CCL_ACTIVE_NONE: break;
  }
  return "none";
}
