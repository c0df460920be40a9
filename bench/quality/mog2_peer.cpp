#include "mog2_peer.hpp"

#include <gst/video/video.h>

#include <chrono>
#include <opencv2/imgproc.hpp>
#include <opencv2/video/background_segm.hpp>
#include <stdexcept>
#include <string>

#include "libjpeg_colour.hpp"

namespace quality {

PeerResult run_mog2_peer(const CdnetSequence& s, const std::vector<GstBuffer*>& frames, GstCaps* caps,
                         const std::vector<std::vector<Box>>& truth_boxes) {
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, caps) || GST_VIDEO_INFO_FORMAT(&info) != GST_VIDEO_FORMAT_I420)
    throw std::runtime_error("the MOG2 peer takes I420 frames");
  cv::Ptr<cv::BackgroundSubtractorMOG2> mog2 = cv::createBackgroundSubtractorMOG2();
  const cv::Mat square = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
  cv::Mat bgr(s.height, s.width, CV_8UC3), fg, moving, opened, labels, stats, centroids;
  PeerResult r;
  for (int t = 1; t <= s.frames; ++t) {
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, &info, frames[std::size_t(t - 1)], GST_MAP_READ))
      throw std::runtime_error("unreadable I420 frame " + std::to_string(t));
    const I420Planes planes{static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 0)),
                            static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 1)),
                            static_cast<const std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&frame, 2)),
                            GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 0),
                            GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 1),
                            GST_VIDEO_FRAME_PLANE_STRIDE(&frame, 2),
                            s.width,
                            s.height};
    i420_to_bgr_like_libjpeg(planes, bgr.ptr<std::uint8_t>());
    gst_video_frame_unmap(&frame);
    const auto start = std::chrono::steady_clock::now();
    mog2->apply(bgr, fg);
    cv::compare(fg, 255, moving, cv::CMP_EQ);
    cv::morphologyEx(moving, opened, cv::MORPH_OPEN, square);
    const int n = cv::connectedComponentsWithStats(opened, labels, stats, centroids, 8, CV_32S);
    r.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!s.evaluated(t)) continue;
    r.pixels.add(fg.ptr<std::uint8_t>(), s.truth_of(t), s.roi.data(), s.roi.size());  // fg is continuous
    std::vector<Box> boxes;
    for (int i = 1; i < n; ++i)
      if (stats.at<int>(i, cv::CC_STAT_AREA) >= int(kMinObjectArea))
        boxes.push_back(Box{stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP),
                            stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT)});
    r.objects.add(truth_boxes[std::size_t(t - s.first)], boxes);
  }
  return r;
}

}  // namespace quality
