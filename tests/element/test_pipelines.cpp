// cudaccl in real pipelines and on CUDA memory: every frame's GstCclMeta (and "ccl" message) is
// byte-identical to the CPU backend's result on the same pixels; caps changes mid-stream, several
// elements in one pipeline, several pipelines at once, CUDAMemory preferred after cudaupload, and
// context queries answered with the context adopted from upstream memory. GPU cases skip where no
// device (or no nvcodec) is usable; the CPU variants run everywhere.
#include <atomic>
#include <cstring>
#include <mutex>
#include <thread>

#include "ccl/analyzer.hpp"
#include "element_check.hpp"

#if CCL_HAVE_CUDA
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "ccl/cuda_analyzer.hpp"
#endif

namespace {

using elcheck::opts;
using elcheck::parse;

// Empty when the meta equals, byte for byte, what the CPU backend computes on `plane0` under `o`.
std::string same_as_cpu(const GstCclMeta* m, const ccl::ImageView& plane0, const ccl::Options& o) {
  if (!m) return "no GstCclMeta";
  ccl::Result want;
  ccl::make_cpu_analyzer()->run(plane0, o, want);
  std::ostringstream s;
  if (int(m->width) != want.width || int(m->height) != want.height) s << "size differs; ";
  if (int(m->connectivity) != want.connectivity) s << "connectivity differs; ";
  if (m->n_components_total != want.n_components_total) s << "n-components-total " << m->n_components_total << " != " << want.n_components_total << "; ";
  if (bool(m->truncated) != want.truncated) s << "truncated differs; ";
  if (m->n_components != want.components.size())
    s << "n-components " << m->n_components << " != " << want.components.size() << "; ";
  else
    for (guint i = 0; i < m->n_components; ++i)
      if (std::memcmp(&m->components[i], &want.components[i], sizeof(ccl::Component)) != 0 ||
          m->components[i].track_id != 0) {
        s << "component " << i << " differs; ";
        break;
      }
  return s.str();
}

// Empty when the frame's own meta (the last one attached) matches the CPU backend on its plane 0.
std::string check_buffer(GstBuffer* buffer, GstCaps* caps, const ccl::Options& o) {
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps(&info, caps)) return "no caps";
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ)) return "cannot map";  // downloads CUDA memory
  const ccl::ImageView plane0{static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)),
                              GST_VIDEO_FRAME_COMP_WIDTH(&frame, 0), GST_VIDEO_FRAME_COMP_HEIGHT(&frame, 0),
                              GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0), {}};
  // With two elements in a row the buffer carries two metas: take the one with these options.
  const GstCclMeta* mine = nullptr;
  gpointer state = nullptr;
  while (GstMeta* m = gst_buffer_iterate_meta_filtered(buffer, &state, GST_CCL_META_API_TYPE))
    if (int(reinterpret_cast<GstCclMeta*>(m)->connectivity) == o.connectivity) mine = reinterpret_cast<GstCclMeta*>(m);
  std::string d = same_as_cpu(mine, plane0, o);
  gst_video_frame_unmap(&frame);
  return d;
}

// Checks every buffer leaving one element's src pad against the CPU backend.
struct Probe {
  ccl::Options options;
  std::mutex lock;
  int frames = 0, cuda_frames = 0;
  std::vector<std::string> failures;

  static GstPadProbeReturn on_buffer(GstPad* pad, GstPadProbeInfo* info, gpointer data) {
    Probe* self = static_cast<Probe*>(data);
    GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
    GstCaps* caps = gst_pad_get_current_caps(pad);
    const bool cuda = caps && gst_caps_features_contains(gst_caps_get_features(caps, 0), "memory:CUDAMemory");
    std::string d = check_buffer(buffer, caps, self->options);
    if (caps) gst_caps_unref(caps);
    // One answer per buffer: an element downstream of another cudaccl replaces its metas.
    const guint n_ccl = gst_buffer_get_n_meta(buffer, GST_CCL_META_API_TYPE);
    const guint n_roi = gst_buffer_get_n_meta(buffer, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE);
    const GstCclMeta* meta = gst_buffer_get_ccl_meta(buffer);
    if (d.empty() && (n_ccl != 1 || !meta || n_roi != meta->n_components))
      d = std::to_string(n_ccl) + " GstCclMeta and " + std::to_string(n_roi) + " ROI metas on one buffer";
    std::lock_guard<std::mutex> g(self->lock);
    ++self->frames;
    self->cuda_frames += cuda;
    if (!d.empty() && self->failures.size() < 5) self->failures.push_back(d);
    return GST_PAD_PROBE_OK;
  }
  void attach(GstElement* pipeline, const char* name) { elcheck::add_src_probe(pipeline, name, on_buffer, this); }
};

struct RunResult {
  bool eos = false;
  std::string error;
  int messages = 0;  // "ccl" element messages
};

// Plays `pipeline` to EOS (or error, or 60 s) counting "ccl" messages.
RunResult play(GstElement* pipeline) {
  RunResult r;
  r.error = elcheck::play_to_eos(pipeline, 60 * GST_SECOND, [&](GstMessage* m) { r.messages += gst_message_has_name(m, "ccl"); });
  r.eos = r.error.empty();
  return r;
}

std::string gpu_skip_reason() {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) return why;
  if (!elcheck::have("cudaupload") || !elcheck::have("cudadownload")) return "cudaupload/cudadownload (gst-plugins-bad nvcodec) not installed";
  return "";
#else
  return "built without CUDA";
#endif
}

// One pipeline per thread, started together; each frame of each is checked.
void several_pipelines_at_once(const std::vector<std::string>& launches, const ccl::Options& o, int frames_each,
                               bool expect_cuda) {
  std::vector<GstElement*> pipelines;
  std::vector<std::unique_ptr<Probe>> probes;
  for (const std::string& l : launches) {
    pipelines.push_back(parse(l));
    ASSERT_NE(pipelines.back(), nullptr);
    probes.push_back(std::make_unique<Probe>());
    probes.back()->options = o;
    probes.back()->attach(pipelines.back(), "ccl");
  }
  std::vector<RunResult> results(launches.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < launches.size(); ++i)
    threads.emplace_back([&, i] { results[i] = play(pipelines[i]); });
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < launches.size(); ++i) {
    EXPECT_TRUE(results[i].eos) << launches[i] << ": " << results[i].error;
    EXPECT_EQ(probes[i]->frames, frames_each) << launches[i];
    if (expect_cuda) {
      EXPECT_EQ(probes[i]->cuda_frames, frames_each) << launches[i];
    }
    EXPECT_TRUE(probes[i]->failures.empty()) << launches[i] << ": " << probes[i]->failures[0];
    gst_object_unref(pipelines[i]);
  }
}

// CPU variant, runs everywhere: four system-memory pipelines with different patterns at once.
TEST(ElementPipelines, SeveralPipelinesAtOnceCpu) {
  std::vector<std::string> launches;
  for (const char* pattern : {"snow", "ball", "smpte", "circular"})
    launches.push_back(std::string("videotestsrc num-buffers=12 pattern=") + pattern +
                       " ! video/x-raw,format=GRAY8,width=320,height=240 ! cudaccl name=ccl backend=cpu "
                       "threshold=128 post-messages=true ! fakesink");
  several_pipelines_at_once(launches, opts(8, 128), 12, false);
}

// `launch` has two cudaccl, a (8-connectivity, threshold 128) then b (4-connectivity, threshold 64),
// both posting messages: each one's output must be its own answer, every frame.
void expect_two_elements(const std::string& launch, int frames, bool cuda) {
  GstElement* p = parse(launch);
  ASSERT_NE(p, nullptr);
  Probe a, b;
  a.options = opts(8, 128);
  b.options = opts(4, 64);
  a.attach(p, "a");
  b.attach(p, "b");
  const RunResult r = play(p);
  EXPECT_TRUE(r.eos) << r.error;
  EXPECT_EQ(r.messages, 2 * frames);
  EXPECT_EQ(cuda ? a.cuda_frames : a.frames, frames);
  EXPECT_EQ(cuda ? b.cuda_frames : b.frames, frames);
  EXPECT_TRUE(a.failures.empty()) << a.failures[0];
  EXPECT_TRUE(b.failures.empty()) << b.failures[0];
  gst_object_unref(p);
}

// CPU variant: two elements in one system-memory pipeline, each attaching its own meta.
TEST(ElementPipelines, TwoElementsOnePipelineCpu) {
  expect_two_elements(
      "videotestsrc num-buffers=8 pattern=snow ! video/x-raw,format=I420,width=160,height=120 ! "
      "cudaccl name=a backend=cpu threshold=128 post-messages=true ! "
      "cudaccl name=b backend=cpu threshold=64 connectivity=4 post-messages=true ! fakesink",
      8, false);
}

// With the CPU backend cudaccl lists system memory first on both pads.
TEST(ElementPipelines, CpuBackendPrefersSystemMemory) {
  elcheck::Harness h("", "cpu");
  GstPad* sink = gst_element_get_static_pad(h.element(), "sink");
  GstCaps* caps = gst_pad_query_caps(sink, nullptr);
  ASSERT_GT(gst_caps_get_size(caps), 0u);
  GstCapsFeatures* first = gst_caps_get_features(caps, 0);
  EXPECT_FALSE(first && gst_caps_features_contains(first, "memory:CUDAMemory")) << caps;
  gst_caps_unref(caps);
  gst_object_unref(sink);
}

// The pipeline: cudaupload without a CUDAMemory caps filter negotiates CUDA memory, and
// every frame's meta and message match the CPU backend; with and without post-messages.
// videotestsrc ! NV12 640x480 ! cudaupload ! cudaccl threshold=128 <props> ! cudadownload ! fakesink:
// every frame in CUDA memory and equal to the CPU backend, one message each when `messages`.
void expect_cuda_upload_pipeline(const std::string& props, int frames, bool messages) {
  GstElement* p = parse("videotestsrc num-buffers=" + std::to_string(frames) +
                        " pattern=snow ! video/x-raw,format=NV12,width=640,height=480 ! cudaupload ! cudaccl name=ccl "
                        "threshold=128 post-messages=" + (messages ? "true " : "false ") + props +
                        " ! cudadownload ! fakesink");
  ASSERT_NE(p, nullptr);
  Probe probe;
  probe.options = opts(8, 128);
  probe.attach(p, "ccl");
  const RunResult r = play(p);
  EXPECT_TRUE(r.eos) << r.error;
  EXPECT_EQ(r.messages, messages ? frames : 0);
  EXPECT_EQ(probe.frames, frames);
  EXPECT_EQ(probe.cuda_frames, frames) << "cudaccl did not get CUDA memory from cudaupload";
  EXPECT_TRUE(probe.failures.empty()) << probe.failures[0];
  gst_object_unref(p);
}

TEST(ElementPipelines, CudaUploadNegotiatesCudaMemory) {
  const std::string skip = gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  for (bool messages : {false, true}) expect_cuda_upload_pipeline("", 10, messages);
}

// System-memory pipelines still negotiate (GRAY8 has no CUDA memory) with backend=auto on a GPU.
TEST(ElementPipelines, SystemMemoryStillNegotiatesOnGpu) {
  const std::string skip = gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  GstElement* p = parse("videotestsrc num-buffers=5 pattern=ball ! video/x-raw,format=GRAY8,width=320,height=240 ! "
                        "cudaccl name=ccl ! fakesink");
  ASSERT_NE(p, nullptr);
  Probe probe;
  probe.attach(p, "ccl");
  const RunResult r = play(p);
  EXPECT_TRUE(r.eos) << r.error;
  EXPECT_EQ(probe.frames, 5);
  EXPECT_EQ(probe.cuda_frames, 0);
  EXPECT_TRUE(probe.failures.empty()) << probe.failures[0];
  gst_object_unref(p);
}

// Two cudaccl in one CUDA pipeline, different options, one shared context.
TEST(ElementPipelines, TwoElementsOneCudaPipeline) {
  const std::string skip = gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  expect_two_elements(
      "videotestsrc num-buffers=10 pattern=snow ! video/x-raw,format=NV12,width=320,height=240 ! cudaupload ! "
      "cudaccl name=a threshold=128 post-messages=true ! cudaccl name=b threshold=64 connectivity=4 "
      "post-messages=true ! cudadownload ! fakesink",
      10, true);
}

// Four CUDA pipelines, one thread each, at once (own contexts and streams).
TEST(ElementPipelines, SeveralCudaPipelinesAtOnce) {
  const std::string skip = gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  std::vector<std::string> launches;
  int i = 0;
  for (const char* pattern : {"snow", "ball", "smpte", "circular"})
    launches.push_back(std::string("videotestsrc num-buffers=20 pattern=") + pattern +
                       " ! video/x-raw,format=" + (i++ % 2 ? "I420" : "NV12") +
                       ",width=640,height=360 ! cudaupload ! cudaccl name=ccl backend=cuda threshold=128 "
                       "post-messages=true ! cudadownload ! fakesink");
  several_pipelines_at_once(launches, opts(8, 128), 20, true);
}

// frames-in-flight in real pipelines: every frame checked, one message each, EOS after the last.
TEST(ElementPipelines, FramesInFlightCpu) {
  several_pipelines_at_once({"videotestsrc num-buffers=30 pattern=snow ! video/x-raw,format=I420,width=320,"
                             "height=240 ! cudaccl name=ccl backend=cpu threshold=128 frames-in-flight=3 "
                             "post-messages=true ! fakesink"},
                            opts(8, 128), 30, false);
}

TEST(ElementPipelines, FramesInFlightOnCudaMemory) {
  const std::string skip = gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  expect_cuda_upload_pipeline("frames-in-flight=3", 40, true);
}

#if CCL_HAVE_CUDA

// CUDA-memory frames made by a GstCudaBufferPool on `context`, plane 0 from `f`, other bytes garbage.
class CudaFrames {
 public:
  CudaFrames(GstCudaContext* context, GstVideoFormat format, int w, int h) {
    gst_video_info_set_format(&info_, format, guint(w), guint(h));
    caps_ = gst_video_info_to_caps(&info_);
    gst_caps_set_features_simple(caps_, gst_caps_features_new("memory:CUDAMemory", nullptr));
    pool_ = gst_cuda_buffer_pool_new(context);
    GstStructure* config = gst_buffer_pool_get_config(pool_);
    gst_buffer_pool_config_set_params(config, caps_, guint(info_.size), 0, 0);
    gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    EXPECT_TRUE(gst_buffer_pool_set_config(pool_, config));
    EXPECT_TRUE(gst_buffer_pool_set_active(pool_, TRUE));
  }
  ~CudaFrames() {
    gst_buffer_pool_set_active(pool_, FALSE);
    gst_object_unref(pool_);
    gst_caps_unref(caps_);
  }
  std::string caps() const {
    gchar* s = gst_caps_to_string(caps_);
    std::string r = s;
    g_free(s);
    return r;
  }
  GstBuffer* make(const frames::Frame& f) {
    GstBuffer* buf = nullptr;
    if (gst_buffer_pool_acquire_buffer(pool_, &buf, nullptr) != GST_FLOW_OK) return nullptr;
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &info_, buf, GST_MAP_WRITE)) return buf;
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&frame); ++p)
      std::memset(GST_VIDEO_FRAME_PLANE_DATA(&frame, p), 0xC3,
                  std::size_t(GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p)) * GST_VIDEO_FRAME_COMP_HEIGHT(&frame, p));
    auto* dst = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0));
    for (int y = 0; y < f.height; ++y)
      std::memcpy(dst + std::size_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0), &f.pixels[std::size_t(y) * f.stride],
                  std::size_t(f.width));
    gst_video_frame_unmap(&frame);
    return buf;
  }

 private:
  GstVideoInfo info_;
  GstCaps* caps_;
  GstBufferPool* pool_;
};

// Pushes `f` as CUDA memory through `h` and returns the output (or nullptr).
GstBuffer* push_cuda(GstHarness* h, CudaFrames& frames, const frames::Frame& f) {
  GstBuffer* in = frames.make(f);
  if (!in) return nullptr;
  return gst_harness_push(h, in) == GST_FLOW_OK ? gst_harness_pull(h) : nullptr;
}

GstCudaContext* queried_context(GstElement* element) {
  GstQuery* q = gst_query_new_context(GST_CUDA_CONTEXT_TYPE);
  GstCudaContext* found = nullptr;
  GstPad* src = gst_element_get_static_pad(element, "src");
  const gboolean answered = gst_pad_query(src, q);
  gst_object_unref(src);
  if (answered) {
    GstContext* c = nullptr;
    gst_query_parse_context(q, &c);
    if (c) gst_structure_get(gst_context_get_structure(c), GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &found, nullptr);
  }
  gst_query_unref(q);
  return found;
}

#endif

// GstCudaBufferPool frames on a context of the test's own: the element adopts it, labels in place,
// matches the CPU backend (meta and message) and then answers context queries with that context.
TEST(ElementCudaMemory, BufferPoolInputAdoptedContextMatchesCpu) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  elcheck::init();
  ASSERT_TRUE(gst_cuda_load_library()) << "libcuda";  // run alone, no CUDA element has loaded it yet
  GstCudaContext* mine = gst_cuda_context_new(0);
  ASSERT_NE(mine, nullptr);
  elcheck::Harness cuda("threshold=100 post-messages=true", "cuda"), cpu("threshold=100 post-messages=true", "cpu");
  GstCudaContext* before = queried_context(cuda.element());
  ASSERT_NE(before, nullptr);
  EXPECT_NE(before, mine);
  gst_object_unref(before);

  std::vector<frames::Frame> fs = frames::adversarial(40, 30);
  for (int d : {10, 30, 50, 90}) fs.push_back(frames::random(130, 67, d, 4, std::uint32_t(d), 0, true));
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_Y444})
    for (const frames::Frame& f : fs) {
      CudaFrames pool(mine, format, f.width, f.height);
      cuda.set_caps(pool.caps());
      cpu.set_caps(elcheck::caps_for(gst_video_format_to_string(format), f.width, f.height));
      GstBuffer* out = push_cuda(cuda.get(), pool, f);
      GstBuffer* ref = cpu.process(elcheck::pack_default(f, format));
      ASSERT_NE(out, nullptr) << f.name;
      ASSERT_NE(ref, nullptr) << f.name;
      const GstCclMeta *a = gst_buffer_get_ccl_meta(out), *b = gst_buffer_get_ccl_meta(ref);
      ASSERT_TRUE(a && b);
      EXPECT_EQ(elcheck::check_meta(out, f, opts(8, 100)), "") << f.name;
      EXPECT_EQ(a->n_components, b->n_components) << f.name;
      EXPECT_EQ(a->n_components_total, b->n_components_total) << f.name;
      EXPECT_TRUE(a->n_components == b->n_components &&
                  std::memcmp(a->components, b->components, a->n_components * sizeof(GstCclComponent)) == 0)
          << f.name;
      GstMessage* ma = cuda.pop_ccl_message();
      GstMessage* mb = cpu.pop_ccl_message();
      ASSERT_TRUE(ma && mb) << f.name;
      EXPECT_TRUE(gst_structure_is_equal(gst_message_get_structure(ma), gst_message_get_structure(mb))) << f.name;
      gst_message_unref(ma);
      gst_message_unref(mb);
      gst_buffer_unref(out);
      gst_buffer_unref(ref);
    }
  GstCudaContext* after = queried_context(cuda.element());
  EXPECT_EQ(after, mine) << "the context query still answers with the element's first context";
  if (after) gst_object_unref(after);
  gst_object_unref(mine);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

// Caps change mid-stream on CUDA memory: size and format change between frames, each frame right.
TEST(ElementCudaMemory, CapsChangeMidStream) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  elcheck::init();
  ASSERT_TRUE(gst_cuda_load_library()) << "libcuda";  // run alone, no CUDA element has loaded it yet
  GstCudaContext* context = gst_cuda_context_new(0);
  ASSERT_NE(context, nullptr);
  elcheck::Harness h("", "cuda");
  struct Step { GstVideoFormat format; frames::Frame f; };
  const std::vector<Step> steps = {
      {GST_VIDEO_FORMAT_NV12, frames::random(64, 48, 50, 1, 1)},
      {GST_VIDEO_FORMAT_NV12, frames::random(1920, 1080, 30, 16, 2)},
      {GST_VIDEO_FORMAT_I420, frames::random(33, 17, 50, 1, 3)},
      {GST_VIDEO_FORMAT_Y42B, frames::stairs(100, 70)},
      {GST_VIDEO_FORMAT_NV12, frames::random(3840, 2160, 30, 16, 4)},
      {GST_VIDEO_FORMAT_NV12, frames::random(64, 48, 50, 1, 1)},
  };
  for (const Step& s : steps) {
    CudaFrames pool(context, s.format, s.f.width, s.f.height);
    h.set_caps(pool.caps());
    for (int repeat = 0; repeat < 2; ++repeat) {
      GstBuffer* out = push_cuda(h.get(), pool, s.f);
      EXPECT_EQ(elcheck::check_meta(out, s.f, opts(8)), "") << s.f.name;
      if (out) gst_buffer_unref(out);
    }
  }
  gst_object_unref(context);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

// cuda-device-id picks the GPU (needs two): the element opens its context on device 1, labels
// system-memory frames there, then adopts a device-1 context of upstream CUDA memory.
TEST(ElementCudaMemory, SecondDeviceById) {
#if CCL_HAVE_CUDA
  std::string why;
  if (!ccl::cuda_device_usable(&why)) GTEST_SKIP() << why;
  elcheck::init();
  ASSERT_TRUE(gst_cuda_load_library()) << "libcuda";  // run alone, no CUDA element has loaded it yet
  GstCudaContext* second = gst_cuda_context_new(1);
  if (!second) GTEST_SKIP() << "one CUDA device: cuda-device-id=1 needs a second";
  auto device_of = [](GstCudaContext* c) {
    gint id = -1;
    if (c) g_object_get(c, "cuda-device-id", &id, nullptr);
    return id;
  };
  elcheck::Harness h("cuda-device-id=1 threshold=100", "cuda");
  GstCudaContext* own = queried_context(h.element());
  EXPECT_EQ(device_of(own), 1) << "the element's own context";
  if (own) gst_object_unref(own);

  const std::vector<frames::Frame> fs = {frames::random(640, 360, 30, 4, 11), frames::spiral(97, 61),
                                         frames::random(1, 300, 50, 1, 12)};
  for (const frames::Frame& f : fs) {
    h.set_caps(elcheck::caps_for("NV12", f.width, f.height));
    GstBuffer* out = h.process(elcheck::pack_default(f, GST_VIDEO_FORMAT_NV12));
    EXPECT_EQ(elcheck::check_meta(out, f, opts(8, 100)), "") << "system memory, " << f.name;
    if (out) gst_buffer_unref(out);
  }
  for (const frames::Frame& f : fs) {
    CudaFrames pool(second, GST_VIDEO_FORMAT_NV12, f.width, f.height);
    h.set_caps(pool.caps());
    GstBuffer* out = push_cuda(h.get(), pool, f);
    EXPECT_EQ(elcheck::check_meta(out, f, opts(8, 100)), "") << "CUDA memory on device 1, " << f.name;
    if (out) gst_buffer_unref(out);
  }
  GstCudaContext* after = queried_context(h.element());
  EXPECT_EQ(device_of(after), 1);
  if (after) gst_object_unref(after);
  gst_object_unref(second);
#else
  GTEST_SKIP() << "built without CUDA";
#endif
}

}  // namespace
