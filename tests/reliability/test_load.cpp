// Load: eight pipelines at once, one thread each, every frame checked against the oracle (CPU
// everywhere; CUDA where a device is usable); soaks that push many frames through one element and
// check each result, with host RSS (and device memory on the GPU) flat after warm-up.
// CCL_SOAK_FRAMES / CCL_SOAK_FRAMES_GPU override the frame counts (defaults 50000, 2000 under ASan or
// valgrind / 100000).
#include "rel_check.hpp"

namespace {

using Harness = relcheck::Harness;
using elcheck::opts;

// Runs the launches at once, one thread each, and checks every frame of each against the oracle.
void eight_at_once(const std::vector<std::string>& launches, const std::vector<ccl::Options>& options, int frames) {
  std::vector<GstElement*> pipelines;
  std::vector<std::unique_ptr<relcheck::OracleProbe>> probes;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    pipelines.push_back(relcheck::parse(launches[i]));
    ASSERT_NE(pipelines.back(), nullptr);
    probes.push_back(std::make_unique<relcheck::OracleProbe>());
    probes.back()->options = options[i];
    probes.back()->attach(pipelines.back(), "ccl");
  }
  std::vector<std::string> errors(launches.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < launches.size(); ++i)
    threads.emplace_back([&, i] {
      if (gst_element_set_state(pipelines[i], GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
        errors[i] = "cannot play";
      else
        errors[i] = relcheck::wait_eos(pipelines[i]);
      gst_element_set_state(pipelines[i], GST_STATE_NULL);
    });
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < launches.size(); ++i) {
    EXPECT_EQ(errors[i], "") << launches[i];
    EXPECT_EQ(probes[i]->frames, frames) << launches[i];
    EXPECT_EQ(probes[i]->first_failure(), "") << launches[i];
    gst_object_unref(pipelines[i]);
  }
}

const char* const kPatterns[8] = {"snow", "ball", "smpte", "circular", "checkers-8", "zone-plate", "pinwheel",
                                  "spokes"};

TEST(Load, EightPipelinesAtOnceCpu) {
  std::vector<std::string> launches;
  std::vector<ccl::Options> options;
  for (int i = 0; i < 8; ++i) {
    ccl::Options o = opts(i % 2 ? 4 : 8, 64 + 16 * i);
    o.min_area = i % 3;
    launches.push_back(std::string("videotestsrc num-buffers=16 pattern=") + kPatterns[i] +
                       " ! video/x-raw,format=" + (i % 4 == 3 ? "NV12" : "GRAY8") + ",width=" +
                       std::to_string(160 + 16 * i) + ",height=" + std::to_string(120 + 8 * i) +
                       " ! cudaccl name=ccl backend=cpu" + elcheck::props(o) + " post-messages=true ! fakesink");
    options.push_back(o);
  }
  eight_at_once(launches, options, 16);
}

TEST(Load, EightPipelinesAtOnceCuda) {
  const std::string skip = relcheck::gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  GstElementFactory* upload = gst_element_factory_find("cudaupload");
  std::vector<std::string> launches;
  std::vector<ccl::Options> options;
  for (int i = 0; i < 8; ++i) {
    ccl::Options o = opts(i % 2 ? 4 : 8, 64 + 16 * i);
    o.min_area = i % 3;
    // Even pipelines hand over CUDA memory (where nvcodec is installed), odd ones system memory.
    const bool cuda_memory = upload && i % 2 == 0;
    launches.push_back(std::string("videotestsrc num-buffers=50 pattern=") + kPatterns[i] +
                       " ! video/x-raw,format=" + (cuda_memory ? "NV12" : "GRAY8") + ",width=" +
                       std::to_string(640 + 16 * i) + ",height=" + std::to_string(360 + 8 * i) +
                       (cuda_memory ? " ! cudaupload" : "") + " ! cudaccl name=ccl backend=cuda" + elcheck::props(o) +
                       " post-messages=true" + (cuda_memory ? " ! cudadownload" : "") + " ! fakesink");
    options.push_back(o);
  }
  if (upload) gst_object_unref(upload);
  eight_at_once(launches, options, 50);
}

// Pushes `frames` frames (a ring of 8 prepared inputs) through one element with metas, ROI metas
// and messages on; checks every result; returns RSS and device memory after warm-up and at the end.
void soak(const char* backend, long frames, long max_rss_growth, long long max_device_growth) {
  // The GPU soak labels 320x240 frames of a few hundred blobs: big enough to use the device, small
  // enough in component count that 100,000 frames with ROI metas and messages fit a device session.
  const bool gpu = std::string(backend) == "cuda";
  const int w = gpu ? 320 : 96, hgt = gpu ? 240 : 64;
  Harness h("post-messages=true", backend);
  h.set_caps(elcheck::gray_caps(w, hgt));
  std::vector<GstBuffer*> inputs;
  std::vector<ccl::Result> want;
  for (int i = 0; i < 8; ++i) {
    const frames::Frame f = frames::random(w, hgt, 10 + 10 * i, gpu ? 4 + 4 * (i % 3) : 1 + i % 3, std::uint32_t(900 + i));
    inputs.push_back(elcheck::pack_default(f, GST_VIDEO_FORMAT_GRAY8));
    want.push_back(oracle::flood_fill(f, ccl::Options()).result);
  }
  const long warmup = std::min(frames / 10, 2000L);
  long rss_warm = 0, rss_end = 0;
  long long dev_warm = 0, dev_end = 0;
  int failures = 0;
  std::string first_failure;
  const gint64 t0 = g_get_monotonic_time();
  for (long n = 0; n < frames; ++n) {
    if (n == warmup) {
      rss_warm = relcheck::rss_bytes();
      dev_warm = relcheck::device_used_bytes();
    }
    GstBuffer* out = h.process(gst_buffer_ref(inputs[n % 8]));  // the element copies the shared buffer's header
    const GstCclMeta* m = out ? gst_buffer_get_ccl_meta(out) : nullptr;
    const std::string d = m ? compare::diff(elcheck::from_meta(*m), want[n % 8]) : "no output or no meta";
    if (!d.empty() && failures++ == 0) first_failure = "frame " + std::to_string(n) + ": " + d;
    if (out) gst_buffer_unref(out);
    GstMessage* msg = h.pop_ccl_message();
    if (msg) {
      gst_message_unref(msg);
    } else if (failures++ == 0) {
      first_failure = "frame " + std::to_string(n) + ": no message";
    }
  }
  const double seconds = (g_get_monotonic_time() - t0) / 1e6;
  rss_end = relcheck::rss_bytes();
  dev_end = relcheck::device_used_bytes();
  for (GstBuffer* b : inputs) gst_buffer_unref(b);
  std::printf("[ reliability ] soak %s: %ld frames %dx%d in %.1f s (%.0f fps); host RSS after %ld warm-up frames "
              "%.2f MB, at end %.2f MB (growth %+ld bytes)",
              backend, frames, w, hgt, seconds, frames / seconds, warmup, rss_warm / 1e6, rss_end / 1e6,
              rss_end - rss_warm);
  if (dev_warm >= 0) std::printf("; device used %.2f MB -> %.2f MB (growth %+lld bytes)", dev_warm / 1e6,
                                 dev_end / 1e6, dev_end - dev_warm);
  std::printf("\n");
  EXPECT_EQ(failures, 0) << first_failure;
  if (relcheck::running_under_sanitizer_or_valgrind()) return;  // their allocators keep freed memory
  EXPECT_LE(rss_end - rss_warm, max_rss_growth) << "host RSS grew";
  if (dev_warm >= 0) {
    EXPECT_LE(dev_end - dev_warm, max_device_growth) << "device memory grew";
  }
}

TEST(Load, SoakCpu) {
  const long frames = relcheck::env_long("CCL_SOAK_FRAMES", relcheck::running_under_sanitizer_or_valgrind() ? 2000 : 50000);
  soak("cpu", frames, 2 << 20, 0);
}

TEST(Load, SoakCuda) {
  const std::string skip = relcheck::gpu_skip_reason();
  if (!skip.empty()) GTEST_SKIP() << skip;
  soak("cuda", relcheck::env_long("CCL_SOAK_FRAMES_GPU", 100000), 2 << 20, 0);
}

}  // namespace
