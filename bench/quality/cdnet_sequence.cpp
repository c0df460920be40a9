#include "cdnet_sequence.hpp"

#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "parse_launch.hpp"

namespace quality {
namespace {

std::string frame_path(const std::string& dir, const char* pattern, int t) {
  char name[64];
  std::snprintf(name, sizeof name, pattern, t);
  return dir + "/" + name;
}

bool exists(const std::string& path) { return g_file_test(path.c_str(), G_FILE_TEST_IS_REGULAR); }

std::uint32_t le(const std::vector<std::uint8_t>& b, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | b[at + std::size_t(i)];
  return v;
}

// An uncompressed BMP (8-bit with a palette, 24 or 32 bits) as width*height grey values: the
// palette entry's blue byte, or the pixel's blue byte (the ROI is black and white).
std::vector<std::uint8_t> read_bmp(const std::string& path, int* width, int* height) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  const std::vector<std::uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& why) { return std::runtime_error(path + ": " + why); };
  if (b.size() < 54 || b[0] != 'B' || b[1] != 'M') throw bad("not a BMP file");
  const std::uint32_t data = le(b, 10, 4), header = le(b, 14, 4);
  const auto w = std::int32_t(le(b, 18, 4)), h = std::int32_t(le(b, 22, 4));
  const std::uint32_t bits = le(b, 28, 2), compression = le(b, 30, 4);
  if (w <= 0 || h == 0 || compression != 0 || (bits != 8 && bits != 24 && bits != 32))
    throw bad("only uncompressed 8, 24 or 32-bit BMPs are read (this one: " + std::to_string(bits) +
              " bits, compression " + std::to_string(compression) + ")");
  const int rows = h < 0 ? -h : h;
  const std::size_t stride = (std::size_t(w) * bits / 8 + 3) / 4 * 4;
  if (data + stride * rows > b.size()) throw bad("pixel data ends early");
  std::vector<std::uint8_t> grey(std::size_t(w) * rows);
  for (int y = 0; y < rows; ++y) {
    const std::size_t row = data + stride * std::size_t(h < 0 ? y : rows - 1 - y);  // bottom-up unless h < 0
    for (int x = 0; x < w; ++x) {
      std::uint8_t v;
      if (bits == 8) {
        const std::size_t entry = 14 + header + 4 * std::size_t(b[row + std::size_t(x)]);
        if (entry >= data) throw bad("palette index out of range");
        v = b[entry];
      } else {
        v = b[row + std::size_t(x) * (bits / 8)];
      }
      grey[std::size_t(y) * w + x] = v;
    }
  }
  *width = w;
  *height = rows;
  return grey;
}

// Runs `launch` (ending in an appsink named "sink") and returns every buffer, deep-copied.
std::vector<GstBuffer*> pull_all(const std::string& launch, GstCaps** caps) {
  GstElement* pipeline = quality::parse_launch_or_throw(launch, "the decoding pipeline");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  std::vector<GstBuffer*> buffers;
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  while (GstSample* sample = gst_app_sink_pull_sample(GST_APP_SINK(sink))) {
    if (caps && !*caps) *caps = gst_caps_ref(gst_sample_get_caps(sample));
    buffers.push_back(gst_buffer_copy_deep(gst_sample_get_buffer(sample)));  // frees the decoder's pool
    gst_sample_unref(sample);
  }
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* m = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  std::string why;
  if (m) {
    GError* error = nullptr;
    gst_message_parse_error(m, &error, nullptr);
    why = error ? error->message : "error";
    g_clear_error(&error);
    gst_message_unref(m);
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  if (!why.empty()) {
    for (GstBuffer* b : buffers) gst_buffer_unref(b);
    throw std::runtime_error("decoding failed (" + launch + "): " + why);
  }
  return buffers;
}

std::string multifile(const std::string& pattern, int first, int last, const char* caps) {
  gchar* location = g_strescape(pattern.c_str(), nullptr);
  std::ostringstream s;
  s << "multifilesrc location=\"" << location << "\" index=" << first << " stop-index=" << last << " caps=\"" << caps
    << ",framerate=30/1\"";
  g_free(location);
  return s.str();
}

}  // namespace

CdnetSequence read_cdnet_sequence(const std::string& dir) {
  CdnetSequence s;
  s.dir = dir;
  if (!g_file_test(dir.c_str(), G_FILE_TEST_IS_DIR)) throw std::runtime_error("no such folder: " + dir);
  gchar* base = g_path_get_basename(dir.c_str());
  s.name = base;
  g_free(base);
  for (const char* sub : {"input", "groundtruth"})
    if (!g_file_test((dir + "/" + sub).c_str(), G_FILE_TEST_IS_DIR))
      throw std::runtime_error(dir + " is not in CDnet layout: no folder " + sub + "/");

  const std::string troi = dir + "/temporalROI.txt";
  std::ifstream t(troi);
  if (!t) throw std::runtime_error(dir + " is not in CDnet layout: no temporalROI.txt");
  if (!(t >> s.first >> s.last) || s.first < 1 || s.last < s.first)
    throw std::runtime_error(troi + ": expected two frame numbers 'first last' with 1 <= first <= last");

  while (exists(frame_path(dir, "input/in%06d.jpg", s.frames + 1))) ++s.frames;
  if (s.frames == 0) throw std::runtime_error(dir + "/input has no in000001.jpg");
  if (s.last > s.frames)
    throw std::runtime_error(troi + " ends at frame " + std::to_string(s.last) + " but input/ has frames 1.." +
                             std::to_string(s.frames));

  const std::string roi = dir + "/ROI.bmp";
  if (!exists(roi)) throw std::runtime_error(dir + " is not in CDnet layout: no ROI.bmp");
  s.roi = read_bmp(roi, &s.width, &s.height);

  for (int f = s.first; f <= s.last; ++f)
    if (!exists(frame_path(dir, "groundtruth/gt%06d.png", f)))
      throw std::runtime_error("missing " + frame_path(dir, "groundtruth/gt%06d.png", f) + " (frame " +
                               std::to_string(f) + " is in temporalROI.txt)");
  GstCaps* caps = nullptr;
  std::vector<GstBuffer*> truths =
      pull_all(multifile(dir + "/groundtruth/gt%06d.png", s.first, s.last, "image/png") +
                   " ! pngdec ! appsink name=sink sync=false caps=\"video/x-raw,format={GRAY8,RGB,RGBA}\"",
               &caps);
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps(&info, caps))
    throw std::runtime_error(dir + "/groundtruth: no frames decoded");
  gst_caps_unref(caps);
  if (int(truths.size()) != s.last - s.first + 1)
    throw std::runtime_error(dir + "/groundtruth: decoded " + std::to_string(truths.size()) + " of " +
                             std::to_string(s.last - s.first + 1) + " frames");
  if (GST_VIDEO_INFO_WIDTH(&info) != s.width || GST_VIDEO_INFO_HEIGHT(&info) != s.height)
    throw std::runtime_error(dir + ": groundtruth is " + std::to_string(GST_VIDEO_INFO_WIDTH(&info)) + "x" +
                             std::to_string(GST_VIDEO_INFO_HEIGHT(&info)) + " but ROI.bmp is " +
                             std::to_string(s.width) + "x" + std::to_string(s.height));
  for (GstBuffer* b : truths) {
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &info, b, GST_MAP_READ))
      throw std::runtime_error(dir + ": unreadable truth frame");
    std::vector<std::uint8_t> grey(std::size_t(s.width) * s.height);
    const int step = GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, 0);  // the first channel: R of the grey palette
    for (int y = 0; y < s.height; ++y) {
      const auto* row = static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)) +
                        std::ptrdiff_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0);
      for (int x = 0; x < s.width; ++x) grey[std::size_t(y) * s.width + x] = row[x * step];
    }
    gst_video_frame_unmap(&frame);
    gst_buffer_unref(b);
    s.truth.push_back(std::move(grey));
  }
  return s;
}

std::vector<GstBuffer*> decode_frames(const CdnetSequence& s, GstCaps** caps) {
  *caps = nullptr;
  std::vector<GstBuffer*> frames =
      pull_all(multifile(s.dir + "/input/in%06d.jpg", 1, s.frames, "image/jpeg") +
                   " ! jpegdec idct-method=islow ! appsink name=sink sync=false caps=\"video/x-raw,format=I420\"",
               caps);
  GstVideoInfo info;
  if (!*caps || !gst_video_info_from_caps(&info, *caps) || int(frames.size()) != s.frames ||
      GST_VIDEO_INFO_WIDTH(&info) != s.width || GST_VIDEO_INFO_HEIGHT(&info) != s.height) {
    for (GstBuffer* b : frames) gst_buffer_unref(b);
    if (*caps) gst_caps_unref(*caps);
    *caps = nullptr;
    throw std::runtime_error(s.dir + "/input: expected " + std::to_string(s.frames) + " frames of " +
                             std::to_string(s.width) + "x" + std::to_string(s.height) + " (the ROI's size)");
  }
  for (std::size_t i = 0; i < frames.size(); ++i) {
    GST_BUFFER_PTS(frames[i]) = gst_util_uint64_scale(i, GST_SECOND, 30);
    GST_BUFFER_DURATION(frames[i]) = gst_util_uint64_scale(1, GST_SECOND, 30);
  }
  return frames;
}

}  // namespace quality
