// gst_parse_launch that throws: the bench's pipelines are its own, so a failure is a bug or a
// missing plugin, reported with the description and GStreamer's reason.
#pragma once

#include <gst/gst.h>

#include <stdexcept>
#include <string>

namespace quality {

// `what` names the pipeline in the message ("the decoding pipeline").
inline GstElement* parse_launch_or_throw(const std::string& launch, const std::string& what) {
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(launch.c_str(), &error);
  if (!pipeline || error) {
    const std::string why = error ? error->message : "?";
    g_clear_error(&error);
    if (pipeline) gst_object_unref(pipeline);
    throw std::runtime_error("cannot make " + what + " '" + launch + "': " + why);
  }
  return pipeline;
}

}  // namespace quality
