// GTypes of the cudaccl enum properties, mapped one to one onto the core's enums.
#pragma once

#include <gst/gst.h>

#include "ccl/types.hpp"

enum GstCudaCclBackend { GST_CUDA_CCL_BACKEND_AUTO, GST_CUDA_CCL_BACKEND_CUDA, GST_CUDA_CCL_BACKEND_CPU };

// The backend that labels: none until the element starts.
enum GstCudaCclActiveBackend { GST_CUDA_CCL_ACTIVE_NONE, GST_CUDA_CCL_ACTIVE_CPU, GST_CUDA_CCL_ACTIVE_CUDA };
// "none", "cpu" or "cuda", as the active-backend property reads.
const char* gst_cuda_ccl_active_backend_name(GstCudaCclActiveBackend backend);

GType gst_cuda_ccl_connectivity_get_type();  // values 4 and 8
GType gst_cuda_ccl_algorithm_get_type();     // ccl::Algorithm
GType gst_cuda_ccl_analysis_get_type();      // ccl::Analysis
GType gst_cuda_ccl_order_get_type();         // ccl::Order
GType gst_cuda_ccl_backend_get_type();       // GstCudaCclBackend
GType gst_cuda_ccl_foreground_get_type();    // ccl::Foreground

#define GST_TYPE_CUDA_CCL_CONNECTIVITY (gst_cuda_ccl_connectivity_get_type())
#define GST_TYPE_CUDA_CCL_ALGORITHM (gst_cuda_ccl_algorithm_get_type())
#define GST_TYPE_CUDA_CCL_ANALYSIS (gst_cuda_ccl_analysis_get_type())
#define GST_TYPE_CUDA_CCL_ORDER (gst_cuda_ccl_order_get_type())
#define GST_TYPE_CUDA_CCL_BACKEND (gst_cuda_ccl_backend_get_type())
#define GST_TYPE_CUDA_CCL_FOREGROUND (gst_cuda_ccl_foreground_get_type())
