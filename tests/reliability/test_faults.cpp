// Faults: backend=auto without a usable device runs on the CPU; out of device memory (a frame too
// big for the device, and a 16384x16384 frame with most device memory taken) is an element error
// that names the frame, and the same element then labels smaller frames again. backend=cuda
// without a device: tests/element ElementBackend.CudaWithoutDeviceFailsToStart.
#include "rel_check.hpp"

namespace {

using Harness = relcheck::Harness;
using elcheck::opts;

TEST(Faults, AutoWithoutDeviceFallsBackToCpu) {
  const std::string no_gpu = relcheck::gpu_skip_reason();
  if (no_gpu.empty()) GTEST_SKIP() << "a CUDA device is usable here (ElementBackend.AutoStartsOnSomeBackend covers it)";
  Harness h("", "auto");
  gchar* active = nullptr;
  g_object_get(h.element(), "active-backend", &active, nullptr);
  EXPECT_STREQ(active, "cpu") << "no device (" << no_gpu << ") must fall back to the CPU";
  g_free(active);
  const frames::Frame f = frames::random(80, 60, 50, 1, 41);
  h.set_caps(elcheck::gray_caps(80, 60));
  GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
  EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "");
  if (out) gst_buffer_unref(out);
  EXPECT_FALSE(relcheck::pop_text(h.bus(), GST_MESSAGE_ERROR).found);
}

#if CCL_HAVE_CUDA

// Labels a small frame through `h` and checks it; the element must be usable.
void expect_small_frame_works(Harness& h, const char* when) {
  const frames::Frame f = frames::random(64, 48, 50, 1, 43);
  h.set_caps(elcheck::gray_caps(64, 48));
  GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
  EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "") << when;
  if (out) gst_buffer_unref(out);
}

// Sets caps for a w x h frame the device cannot hold: the caps are refused with an element error
// RESOURCE/NO_SPACE_LEFT that names the frame.
void expect_out_of_device_memory(Harness& h, int w, int hh) {
  h.set_caps(elcheck::gray_caps(w, hh));
  GstFlowReturn flow = GST_FLOW_OK;
  GstBuffer* out = h.process(gst_buffer_new_allocate(nullptr, 16, nullptr), &flow);
  EXPECT_EQ(out, nullptr);
  EXPECT_NE(flow, GST_FLOW_OK);
  if (out) gst_buffer_unref(out);
  const relcheck::BusText e = relcheck::pop_text(h.bus(), GST_MESSAGE_ERROR);
  ASSERT_TRUE(e.found) << "no element error for a " << w << "x" << hh << " frame";
  EXPECT_EQ(e.domain, GST_RESOURCE_ERROR) << e.message;
  EXPECT_EQ(e.code, GST_RESOURCE_ERROR_NO_SPACE_LEFT) << e.message;
  EXPECT_NE(e.message.find("Out of device memory"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find(std::to_string(w) + "x" + std::to_string(hh)), std::string::npos) << e.message;
  std::printf("[ reliability ] %dx%d: %s (%s)\n", w, hh, e.message.c_str(), e.debug.c_str());
}

TEST(Faults, FrameTooBigForTheDeviceIsAnElementError) {
  const std::string skip = relcheck::gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  Harness h("", "cuda");
  expect_small_frame_works(h, "before");
  expect_out_of_device_memory(h, 65535, 65535);  // ~200 GB of scratch
  expect_small_frame_works(h, "after the out-of-memory error");
}

TEST(Faults, LittleFreeDeviceMemoryIsAnElementError) {
  const std::string skip = relcheck::gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  Harness h("", "cuda");
  expect_small_frame_works(h, "before");
  // Take all but 256 MB of the device (a 16384x16384 frame needs > 1 GB of scratch).
  size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  void* hog = nullptr;
  const size_t leave = size_t(256) << 20;
  ASSERT_GT(free_b, leave);
  ASSERT_EQ(cudaMalloc(&hog, free_b - leave), cudaSuccess);
  std::printf("[ reliability ] took %.0f MB of %.0f MB device memory, %.0f MB left\n", (free_b - leave) / 1e6,
              total_b / 1e6, leave / 1e6);
  expect_out_of_device_memory(h, 16384, 16384);
  ASSERT_EQ(cudaFree(hog), cudaSuccess);
  expect_small_frame_works(h, "after the out-of-memory error and freeing the memory");
  // And the big frame now fits again.
  h.set_caps(elcheck::gray_caps(16384, 16384));
  GstBuffer* big = gst_buffer_new_allocate(nullptr, gsize(16384) * 16384, nullptr);
  gst_buffer_memset(big, 0, 0, gsize(16384) * 16384);
  gst_buffer_memset(big, 5 * 16384 + 7, 255, 1);
  GstBuffer* out = h.process(big);
  ASSERT_NE(out, nullptr);
  const GstCclMeta* m = gst_buffer_get_ccl_meta(out);
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->n_components, 1u);
  EXPECT_EQ(m->components[0].x, 7);
  EXPECT_EQ(m->components[0].y, 5);
  gst_buffer_unref(out);
}

#endif

}  // namespace
