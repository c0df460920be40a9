#include "ccl_backend.h"

#include <memory>
#include <string>
#include <vector>

#include "ccl_debug.h"
#include "ccl_engine.h"

#if CCL_HAVE_CUDA
#include "ccl_cuda_context.h"
#endif

#define GST_CAT_DEFAULT gst_cuda_ccl_backend_debug

using Engines = std::vector<std::unique_ptr<GstCclEngine>>;

static void use_engines(GstCudaCcl* self, GstCudaCclActiveBackend backend, Engines engines) {
  GstCudaCclPrivate* priv = self->priv;
  priv->ring->set_engines(std::move(engines));
  GST_OBJECT_LOCK(self);
  priv->active_backend = backend;
  GST_OBJECT_UNLOCK(self);
  g_object_notify(G_OBJECT(self), "active-backend");
}

// One background model for all the engines: each frame's update follows the previous frame's.
static Engines cpu_engines(guint n) {
  const std::shared_ptr<ccl::BackgroundModel> model = gst_ccl_background_model_new_cpu();
  Engines engines;
  for (guint i = 0; i < n; ++i) engines.push_back(gst_ccl_engine_new_cpu(model));
  return engines;
}

#if CCL_HAVE_CUDA
static Engines cuda_engines(GstCudaContext* context, guint n) {
  std::shared_ptr<ccl::BackgroundModel> model = gst_ccl_background_model_new_cuda(context);
  Engines engines;
  try {
    for (guint i = 0; i < n; ++i)
      engines.push_back(gst_ccl_engine_new_cuda(std::make_unique<GstCudaCclStream>(context), model));
  } catch (...) {
    engines.clear();
    GstCudaCclContextScope scope(context);  // the model's device memory is freed in its context
    model.reset();
    throw;
  }
  return engines;  // they hold the model; the last one frees it inside its context
}

void gst_cuda_ccl_move_to_context(GstCudaCcl* self, GstCudaContext* context) {
  GstCudaCclPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  const guint n = priv->frames_in_flight;
  const ccl::Options options = priv->options;
  GST_OBJECT_UNLOCK(self);
  Engines engines = cuda_engines(context, n);
  if (GST_VIDEO_INFO_FORMAT(&priv->info) != GST_VIDEO_FORMAT_UNKNOWN)
    for (auto& engine : engines)
      engine->reserve(GST_VIDEO_INFO_COMP_WIDTH(&priv->info, 0), GST_VIDEO_INFO_COMP_HEIGHT(&priv->info, 0),
                      priv->system_memory, options);
  priv->ring->set_engines(std::move(engines));
  priv->cuda_context.replace(context);
  GST_INFO_OBJECT(self, "now labelling in the upstream CUDA context %" GST_PTR_FORMAT, context);
}
#endif

gboolean gst_cuda_ccl_open_backend(GstCudaCcl* self) {
  GstCudaCclPrivate* priv = self->priv;
  GST_OBJECT_LOCK(self);
  const GstCudaCclBackend backend = priv->backend;
  const gint device_id = priv->device_id;
  const guint n = priv->frames_in_flight;
  GST_OBJECT_UNLOCK(self);

  if (backend == GST_CUDA_CCL_BACKEND_CPU) {
    GST_INFO_OBJECT(self, "using the CPU backend (backend=cpu)");
    use_engines(self, GST_CUDA_CCL_ACTIVE_CPU, cpu_engines(n));
    return TRUE;
  }

  std::string why = "the plugin was built without CUDA support";
#if CCL_HAVE_CUDA
  if (GstCudaContext* context = priv->cuda_context.ensure(GST_ELEMENT(self), device_id, &why)) {
    try {
      use_engines(self, GST_CUDA_CCL_ACTIVE_CUDA, cuda_engines(context, n));
      GST_INFO_OBJECT(self, "using the CUDA backend on %" GST_PTR_FORMAT, context);
      gst_object_unref(context);
      return TRUE;
    } catch (const ccl::Error& e) {
      why = e.what();
    }
    gst_object_unref(context);
  }
#endif
  if (backend == GST_CUDA_CCL_BACKEND_CUDA) {
    GST_ELEMENT_ERROR(self, RESOURCE, SETTINGS,
                      ("backend=cuda was requested but no usable CUDA device was found: %s. "
                       "Use backend=auto or backend=cpu to run on the CPU.",
                       why.c_str()),
                      ("cuda-device-id=%d", device_id));
    return FALSE;
  }
  GST_INFO_OBJECT(self, "using the CPU backend (backend=auto): %s", why.c_str());
  use_engines(self, GST_CUDA_CCL_ACTIVE_CPU, cpu_engines(n));
  return TRUE;
}

void gst_cuda_ccl_close_backend(GstCudaCcl* self) {
  use_engines(self, GST_CUDA_CCL_ACTIVE_NONE, {});
#if CCL_HAVE_CUDA
  self->priv->cuda_context.replace(nullptr);
#endif
}
