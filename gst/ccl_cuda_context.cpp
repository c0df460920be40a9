#include "ccl_cuda_context.h"

#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "ccl/cuda_analyzer.hpp"
#include "ccl/types.hpp"
#include "gstcudaccl-private.h"

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

GstCudaContext* gst_cuda_ccl_ensure_context(GstCudaCcl* self, gint device_id, std::string* why) {
  GstCudaCclPrivate* priv = self->priv;
  if (!gst_cuda_load_library()) {
    *why = "the CUDA driver library (libcuda) could not be loaded";
    return nullptr;
  }
  if (!ccl::cuda_device_usable(why)) return nullptr;
  // Held across the search: it writes priv->context directly and through set_context.
  g_rec_mutex_lock(&priv->context_lock);
  const gboolean found = gst_cuda_ensure_element_context(GST_ELEMENT(self), device_id, &priv->context);
  g_rec_mutex_unlock(&priv->context_lock);
  if (!found) {
    *why = device_id < 0 ? std::string("no CUDA context could be created")
                         : "no CUDA context could be created on device " + std::to_string(device_id);
    return nullptr;
  }
  return gst_cuda_ccl_ref_context(self);
}

GstCudaContext* gst_cuda_ccl_ref_context(GstCudaCcl* self) {
  GstCudaCclPrivate* priv = self->priv;
  g_rec_mutex_lock(&priv->context_lock);
  GstCudaContext* context = priv->context ? static_cast<GstCudaContext*>(gst_object_ref(priv->context)) : nullptr;
  g_rec_mutex_unlock(&priv->context_lock);
  return context;
}

void gst_cuda_ccl_replace_context(GstCudaCcl* self, GstCudaContext* context) {
  GstCudaCclPrivate* priv = self->priv;
  g_rec_mutex_lock(&priv->context_lock);
  GstCudaContext* old = priv->context;
  priv->context = context ? static_cast<GstCudaContext*>(gst_object_ref(context)) : nullptr;
  g_rec_mutex_unlock(&priv->context_lock);
  if (old) gst_object_unref(old);  // outside the lock: the last unref destroys the CUDA context
}

GstCudaContext* gst_cuda_ccl_foreign_context(GstCudaCcl* self, GstBuffer* buffer) {
  GstCudaCclPrivate* priv = self->priv;
  GstMemory* memory = gst_buffer_peek_memory(buffer, 0);
  if (!gst_is_cuda_memory(memory)) return nullptr;
  GstCudaContext* context = GST_CUDA_MEMORY_CAST(memory)->context;
  g_rec_mutex_lock(&priv->context_lock);
  const bool ours = context == priv->context;
  g_rec_mutex_unlock(&priv->context_lock);
  return ours ? nullptr : static_cast<GstCudaContext*>(gst_object_ref(context));
}

void gst_cuda_ccl_handle_set_context(GstCudaCcl* self, GstContext* context) {
  GstCudaCclPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  const gint device_id = priv->device_id;
  GST_OBJECT_UNLOCK(self);
  g_rec_mutex_lock(&priv->context_lock);
  gst_cuda_handle_set_context(GST_ELEMENT(self), context, device_id, &priv->context);
  g_rec_mutex_unlock(&priv->context_lock);
}

gboolean gst_cuda_ccl_handle_context_query(GstCudaCcl* self, GstQuery* query) {
  // The streaming thread may replace the context while another thread queries.
  GstCudaContext* context = gst_cuda_ccl_ref_context(self);
  const gboolean answered = gst_cuda_handle_context_query(GST_ELEMENT(self), query, context);
  gst_clear_object(&context);
  return answered;
}
