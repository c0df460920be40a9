// Which backend labels, chosen once when the element starts, and its engines: one per frame in
// flight, each with its own CUDA stream and device scratch on the CUDA backend.
#pragma once

#include <gst/gst.h>

#include "gstcudaccl-private.h"

// Chooses the backend per the `backend` property, opens its engines and sets active_backend;
// FALSE with the error posted when backend=cuda finds no usable device.
gboolean gst_cuda_ccl_open_backend(GstCudaCcl* self);

// Forgets the engines and the backend.
void gst_cuda_ccl_close_backend(GstCudaCcl* self);

#if CCL_HAVE_CUDA
// Moves the CUDA engines to `context` (upstream memory's), reserved for the negotiated frames;
// frames in flight must be finished. Throws ccl::Error and keeps the old engines then.
void gst_cuda_ccl_move_to_context(GstCudaCcl* self, GstCudaContext* context);
#endif
