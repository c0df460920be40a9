// Drawing primitives for ccloverlay: filled rectangles, box outlines, crosses, line segments and decimal numbers
// in a built-in 5x7 digit font, on mapped 8-bit system-memory video frames (any format whose
// components are 8 bits: GRAY8, I420, NV12, RGBA, BGRx, ...). Everything clips to the frame.
#pragma once

#include <gst/video/video.h>

// A color in the frame's own component values (Y'CbCr for YUV and gray, R'G'B' for RGB), with alpha.
struct CclPen {
  guint8 value[3];  // component 0..2 of the frame's format
  guint8 alpha;     // 255 = opaque
};

// Converts an ARGB color (0xAARRGGBB) into the frame's components, using its colorimetry and range.
CclPen ccl_pen_from_argb(const GstVideoInfo* info, guint32 argb);

// Fills [x, x+w) x [y, y+h); chroma samples touched by the rectangle are blended too.
void ccl_draw_fill_rect(GstVideoFrame* frame, const CclPen& pen, gint x, gint y, gint w, gint h);

// Outline of the box [x, x+w) x [y, y+h), drawn inside it, line_width pixels thick.
void ccl_draw_box(GstVideoFrame* frame, const CclPen& pen, gint x, gint y, gint w, gint h, gint line_width);

// A '+' centred on (cx, cy), arms of `arm` pixels, line_width pixels thick.
void ccl_draw_cross(GstVideoFrame* frame, const CclPen& pen, gint cx, gint cy, gint arm, gint line_width);

// A segment from (x0, y0) to (x1, y1) (Bresenham: one pixel per step along its longer axis),
// line_width pixels thick across that axis; the end pixel only with include_end, so segments of a
// polyline do not blend their shared points twice. Only steps inside the frame are walked, so the
// cost is bounded by the frame size; coordinates must lie within +-2^29.
void ccl_draw_line(GstVideoFrame* frame, const CclPen& pen, gint x0, gint y0, gint x1, gint y1, gint line_width,
                   bool include_end);

// Size in pixels of `value` written with ccl_draw_number at this scale (each font pixel scale x scale).
void ccl_number_size(guint value, gint scale, gint* width, gint* height);

// Writes `value` in decimal with its top-left corner at (x, y).
void ccl_draw_number(GstVideoFrame* frame, const CclPen& pen, gint x, gint y, guint value, gint scale);
