// The element's CUDA context: found or created as GStreamer shares them (set_context, context
// query, gst_cuda_ensure_element_context), replaced by upstream memory's own, and the streams
// engines label on.
#pragma once

#include <string>

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>

typedef struct _GstCudaCcl GstCudaCcl;

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

// The context the element shares (a new reference), found or created on `device_id`; nullptr with
// `why` in words for the user.
GstCudaContext* gst_cuda_ccl_ensure_context(GstCudaCcl* self, gint device_id, std::string* why);

// The context the element shares now (a new reference), or nullptr.
GstCudaContext* gst_cuda_ccl_ref_context(GstCudaCcl* self);

// Makes `context` (or none) the one context queries answer with.
void gst_cuda_ccl_replace_context(GstCudaCcl* self, GstCudaContext* context);

// The context of `buffer`'s CUDA memory when it is not the element's (a new reference), else nullptr.
GstCudaContext* gst_cuda_ccl_foreign_context(GstCudaCcl* self, GstBuffer* buffer);

void gst_cuda_ccl_handle_set_context(GstCudaCcl* self, GstContext* context);
gboolean gst_cuda_ccl_handle_context_query(GstCudaCcl* self, GstQuery* query);
