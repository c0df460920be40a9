// The element's CUDA context: found or created as GStreamer shares them (set_context, context
// query, gst_cuda_ensure_element_context), replaced by upstream memory's own, and the streams
// engines label on.
#pragma once

#include <string>

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>

// Makes `context` current for the scope; every CUDA call happens inside one. Throws ccl::Error.
class GstCudaCclContextScope {
 public:
  explicit GstCudaCclContextScope(GstCudaContext* context);
  ~GstCudaCclContextScope();
  GstCudaCclContextScope(const GstCudaCclContextScope&) = delete;
  GstCudaCclContextScope& operator=(const GstCudaCclContextScope&) = delete;
};

// One CUstream of a context (holding a reference on it). Throws ccl::Error.
class GstCudaCclStream {
 public:
  explicit GstCudaCclStream(GstCudaContext* context);
  ~GstCudaCclStream();
  GstCudaCclStream(const GstCudaCclStream&) = delete;
  GstCudaCclStream& operator=(const GstCudaCclStream&) = delete;
  GstCudaContext* context() const { return context_; }
  CUstream handle() const { return stream_; }

 private:
  GstCudaContext* context_;
  CUstream stream_ = nullptr;
};

// The context an element shares with its neighbours (set_context, context queries) and the lock
// that guards it; it holds one reference, dropped when it is destroyed.
class GstCudaCclSharedContext {
 public:
  GstCudaCclSharedContext() { g_rec_mutex_init(&lock_); }
  ~GstCudaCclSharedContext();
  GstCudaCclSharedContext(const GstCudaCclSharedContext&) = delete;
  GstCudaCclSharedContext& operator=(const GstCudaCclSharedContext&) = delete;

  // The context `element` shares (a new reference), found or created on `device_id`; nullptr with
  // `why` in words for the user.
  GstCudaContext* ensure(GstElement* element, gint device_id, std::string* why);
  // The context shared now (a new reference), or nullptr.
  GstCudaContext* ref();
  // Makes `context` (or none) the one context queries answer with.
  void replace(GstCudaContext* context);
  // The context of `buffer`'s CUDA memory when it is not the shared one (a new reference), else nullptr.
  GstCudaContext* foreign(GstBuffer* buffer);
  // GstElement.set_context and the context query of `element`.
  void handle_set_context(GstElement* element, GstContext* context, gint device_id);
  gboolean handle_query(GstElement* element, GstQuery* query);

 private:
  GRecMutex lock_;  // recursive because gst_cuda_ensure_element_context calls set_context
  GstCudaContext* context_ = nullptr;
};
