// Faults: backend=auto without a usable device runs on the CPU; out of device memory (a frame too
// big for the device, and a 16384x16384 frame with most device memory taken) is an element error
// that names the frame, and the same element then labels smaller frames again; a CUDA error in the
// element's context (a kernel that traps there) is an element error naming the frame and the CUDA
// failure, after which the process goes on (backend=auto labels, backend=cuda labels or says why it
// cannot). backend=cuda without a device:
// tests/element ElementBackend.CudaWithoutDeviceFailsToStart.
#include <gtest/gtest-spi.h>

#include "rel_check.hpp"

#if CCL_HAVE_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#include "cuda_fault.hpp"
#endif

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

// Runs a short GRAY8 pipeline through cudaccl backend=<backend>; every frame that comes out is
// checked against the oracle. Returns the error text ("" at EOS) and the backend it ran on.
std::string run_after_fault(const char* backend, int* frames, std::string* active) {
  GstElement* p = relcheck::parse(std::string("videotestsrc num-buffers=4 pattern=snow ! "
                                              "video/x-raw,format=GRAY8,width=96,height=64 ! cudaccl name=ccl "
                                              "threshold=128 backend=") + backend + " ! fakesink");
  if (!p) return "no pipeline";
  relcheck::OracleProbe probe;
  probe.options = opts(8, 128);
  probe.attach(p, "ccl");
  gst_element_set_state(p, GST_STATE_PLAYING);
  const std::string error = relcheck::wait_eos(p, 30 * GST_SECOND);
  GstElement* ccl = gst_bin_get_by_name(GST_BIN(p), "ccl");
  gchar* name = nullptr;
  g_object_get(ccl, "active-backend", &name, nullptr);
  *active = name ? name : "";
  g_free(name);
  gst_object_unref(ccl);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(p);
  *frames = probe.frames;
  EXPECT_EQ(probe.first_failure(), "") << "backend=" << backend << " after the CUDA error";
  return error;
}

// CUDA documents a launch failure as possibly leaving all of the process's CUDA unusable, so
// what must hold is that the application can go on: backend=auto labels every frame (on CUDA if
// it still works, else on the CPU), and backend=cuda either labels them or stops with an element
// error that says why, never a crash or a hang.
void expect_process_still_usable() {
  int frames = 0;
  std::string active;
  const std::string auto_error = run_after_fault("auto", &frames, &active);
  EXPECT_EQ(auto_error, "") << "backend=auto after the CUDA error";
  EXPECT_EQ(frames, 4) << "backend=auto after the CUDA error";
  std::printf("[ reliability ] after the CUDA error: backend=auto labelled %d frames on %s\n", frames, active.c_str());
  const std::string cuda_error = run_after_fault("cuda", &frames, &active);
  if (cuda_error.empty()) {
    EXPECT_EQ(frames, 4) << "backend=cuda after the CUDA error";
    std::printf("[ reliability ] after the CUDA error: backend=cuda labelled %d frames on a fresh context\n", frames);
  } else {
    EXPECT_NE(cuda_error.find("CUDA"), std::string::npos) << cuda_error;
    EXPECT_NE(cuda_error, "timeout");
    std::printf("[ reliability ] after the CUDA error: backend=cuda stops with: %s\n", cuda_error.c_str());
  }
}

// Labels `good_frames` frames through an element on a GstCudaContext of the test's own, breaks that
// context with a trapping kernel, and expects the next frame to be an element error RESOURCE/FAILED
// naming the frame and the CUDA failure; the element then stops without a crash, and the process
// goes on (expect_process_still_usable). GStreamer 1.22 makes each GstCudaContext with cuCtxCreate (its
// own driver context, never the primary one), so the trap breaks only the test's context.
void expect_cuda_error_reported(int good_frames) {
  elcheck::init();
  // A re-executed process has loaded no CUDA plugin yet: gst_cuda_context_new needs the library.
  ASSERT_TRUE(gst_cuda_load_library());
  GstCudaContext* broken = gst_cuda_context_new(0);
  ASSERT_NE(broken, nullptr);
  GstContext* shared = gst_context_new_cuda_context(broken);
  const frames::Frame f = frames::random(64, 48, 50, 1, 43);
  {
    Harness h("", "cuda", shared);
    h.set_caps(elcheck::gray_caps(64, 48));  // reserves in the context while it still works
    for (int i = 0; i < good_frames; ++i) {
      GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
      EXPECT_EQ(elcheck::check_meta(out, f, opts(8)), "") << "frame " << i + 1 << ", before the fault";
      if (out) gst_buffer_unref(out);
    }
    ASSERT_TRUE(gst_cuda_context_push(broken));
    const std::string cause = relcheck::trap_in_current_context();
    gst_cuda_context_pop(nullptr);
    ASSERT_NE(cause, "") << "the trapping kernel left the CUDA context usable";
    GstFlowReturn flow = GST_FLOW_OK;
    GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8), &flow);
    EXPECT_EQ(out, nullptr);
    EXPECT_EQ(flow, GST_FLOW_ERROR);
    if (out) gst_buffer_unref(out);
    const relcheck::BusText e = relcheck::pop_text(h.bus(), GST_MESSAGE_ERROR);
    ASSERT_TRUE(e.found) << "no element error after the CUDA context broke";
    EXPECT_EQ(e.domain, GST_RESOURCE_ERROR) << e.message;
    EXPECT_EQ(e.code, GST_RESOURCE_ERROR_FAILED) << e.message;
    EXPECT_EQ(e.message, "CUDA failed while labeling frame " + std::to_string(good_frames + 1) + " (64x48): " +
                             cause + ".")
        << e.debug;
    std::printf("[ reliability ] %s (%s)\n", e.message.c_str(), e.debug.c_str());
  }  // the element stops and frees its scratch in the broken context
  gst_context_unref(shared);
  gst_object_unref(broken);  // the last reference: cuCtxDestroy
  expect_process_still_usable();
}

// Runs `scenario` and exits the process: 0 when it passed, 1 after printing its failures on stderr
// (which EXPECT_EXIT shows). _Exit: the verdict is the scenario's, not that of static destructors.
void run_and_exit(void (*scenario)(int), int arg) {
  ::testing::TestPartResultArray results;
  {
    ::testing::ScopedFakeTestPartResultReporter capture(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ALL_THREADS, &results);
    scenario(arg);
  }
  int failed = 0;
  for (int i = 0; i < results.size(); ++i) {
    const ::testing::TestPartResult& r = results.GetTestPartResult(i);
    if (!r.failed()) continue;
    ++failed;
    std::fprintf(stderr, "%s:%d: %s\n", r.file_name() ? r.file_name() : "?", r.line_number(), r.message());
  }
  std::fflush(nullptr);
  std::_Exit(failed ? 1 : 0);
}

// CUDA documents a sticky error as leaving the process unusable, so the case runs in a process of
// its own (gtest's threadsafe death-test style re-executes this binary for this one test): the
// tests after it never share a process with the broken context, whatever the driver does.
void in_own_process(void (*scenario)(int), int arg) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(run_and_exit(scenario, arg), ::testing::ExitedWithCode(0), "");
}

TEST(Faults, CudaErrorOnFirstFrameIsAnElementError) {
  const std::string skip = relcheck::gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  in_own_process(expect_cuda_error_reported, 0);
}

TEST(Faults, CudaErrorMidStreamIsAnElementError) {
  const std::string skip = relcheck::gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  in_own_process(expect_cuda_error_reported, 2);
}

#endif

}  // namespace
