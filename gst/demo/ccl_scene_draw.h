// Draws cclanalytics' GstCclSceneMeta for ccloverlay: each line with an arrow pointing to its forward
// side and its forward count on that side, its backward count on the other; each zone's outline
// (red and twice as thick while overcrowded) with its occupancy at its corners' mean.
#pragma once

#include <gst/video/video.h>

#include "ccl_draw.h"
#include "ccl_scene_meta.h"

#define CCL_SCENE_LINE_COLOR 0xffffff00u   // yellow
#define CCL_SCENE_ZONE_COLOR 0xff00ffffu   // cyan
#define CCL_SCENE_ALERT_COLOR 0xffff0000u  // red: an overcrowded zone

void ccl_draw_scene(GstVideoFrame* frame, const CclScene& scene, const CclPen& background, gint line_width, gint scale);
