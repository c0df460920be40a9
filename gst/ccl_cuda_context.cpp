#include "ccl_cuda_context.h"

#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "ccl/cuda_analyzer.hpp"
#include "ccl/types.hpp"

GstCudaCclContextScope::GstCudaCclContextScope(GstCudaContext* context) {
  if (!gst_cuda_context_push(context))
    throw ccl::Error(ccl::Error::Kind::DeviceFailure, "could not make the CUDA context current");
}

GstCudaCclContextScope::~GstCudaCclContextScope() { gst_cuda_context_pop(nullptr); }

GstCudaCclStream::GstCudaCclStream(GstCudaContext* context)
    : context_(static_cast<GstCudaContext*>(gst_object_ref(context))) {
  bool created = false;
  if (gst_cuda_context_push(context_)) {
    created = gst_cuda_result(CuStreamCreate(&stream_, CU_STREAM_DEFAULT));
    gst_cuda_context_pop(nullptr);
  }
  if (!created) {
    gst_object_unref(context_);
    throw ccl::Error(ccl::Error::Kind::DeviceFailure, "could not create a CUDA stream");
  }
}

GstCudaCclStream::~GstCudaCclStream() {
  if (gst_cuda_context_push(context_)) {
    CuStreamDestroy(stream_);
    gst_cuda_context_pop(nullptr);
  }
  gst_object_unref(context_);
}

GstCudaCclSharedContext::~GstCudaCclSharedContext() {
  gst_clear_object(&context_);
  g_rec_mutex_clear(&lock_);
}

GstCudaContext* GstCudaCclSharedContext::ensure(GstElement* element, gint device_id, std::string* why) {
  if (!gst_cuda_load_library()) {
    *why = "the CUDA driver library (libcuda) could not be loaded";
    return nullptr;
  }
  if (!ccl::cuda_device_usable(why)) return nullptr;
  // Held across the search: it writes context_ directly and through set_context.
  g_rec_mutex_lock(&lock_);
  const gboolean found = gst_cuda_ensure_element_context(element, device_id, &context_);
  g_rec_mutex_unlock(&lock_);
  if (!found) {
    *why = device_id < 0 ? std::string("no CUDA context could be created")
                         : "no CUDA context could be created on device " + std::to_string(device_id);
    return nullptr;
  }
  return ref();
}

GstCudaContext* GstCudaCclSharedContext::ref() {
  g_rec_mutex_lock(&lock_);
  GstCudaContext* context = context_ ? static_cast<GstCudaContext*>(gst_object_ref(context_)) : nullptr;
  g_rec_mutex_unlock(&lock_);
  return context;
}

void GstCudaCclSharedContext::replace(GstCudaContext* context) {
  g_rec_mutex_lock(&lock_);
  GstCudaContext* old = context_;
  context_ = context ? static_cast<GstCudaContext*>(gst_object_ref(context)) : nullptr;
  g_rec_mutex_unlock(&lock_);
  if (old) gst_object_unref(old);  // outside the lock: the last unref destroys the CUDA context
}

GstCudaContext* GstCudaCclSharedContext::foreign(GstBuffer* buffer) {
  GstMemory* memory = gst_buffer_peek_memory(buffer, 0);
  if (!gst_is_cuda_memory(memory)) return nullptr;
  GstCudaContext* context = GST_CUDA_MEMORY_CAST(memory)->context;
  g_rec_mutex_lock(&lock_);
  const bool ours = context == context_;
  g_rec_mutex_unlock(&lock_);
  return ours ? nullptr : static_cast<GstCudaContext*>(gst_object_ref(context));
}

void GstCudaCclSharedContext::handle_set_context(GstElement* element, GstContext* context, gint device_id) {
  g_rec_mutex_lock(&lock_);
  gst_cuda_handle_set_context(element, context, device_id, &context_);
  g_rec_mutex_unlock(&lock_);
}

gboolean GstCudaCclSharedContext::handle_query(GstElement* element, GstQuery* query) {
  // The streaming thread may replace the context while another thread queries.
  GstCudaContext* context = ref();
  const gboolean answered = gst_cuda_handle_context_query(element, query, context);
  gst_clear_object(&context);
  return answered;
}
