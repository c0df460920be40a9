#include "ccl_draw.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace {

// 5x7 digits, one byte per row, bit 4 = leftmost column.
constexpr guint8 kDigitRows[10][7] = {
    {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E},  // 0
    {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E},  // 1
    {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F},  // 2
    {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E},  // 3
    {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02},  // 4
    {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E},  // 5
    {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E},  // 6
    {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},  // 7
    {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E},  // 8
    {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C},  // 9
};
constexpr gint kDigitWidth = 5, kDigitHeight = 7, kDigitAdvance = 6;

guint8 to_sample(double v) { return guint8(std::clamp(std::lround(v), 0L, 255L)); }

gint count_digits(guint value) {
  gint n = 1;
  while (value >= 10) value /= 10, n++;
  return n;
}

}  // namespace

CclPen ccl_pen_from_argb(const GstVideoInfo* info, guint32 argb) {
  const double r = ((argb >> 16) & 0xff) / 255.0, g = ((argb >> 8) & 0xff) / 255.0, b = (argb & 0xff) / 255.0;
  CclPen pen{};
  pen.alpha = guint8(argb >> 24);
  if (GST_VIDEO_INFO_IS_RGB(info)) {
    pen.value[0] = to_sample(r * 255), pen.value[1] = to_sample(g * 255), pen.value[2] = to_sample(b * 255);
    return pen;
  }
  gdouble kr, kb;
  if (!gst_video_color_matrix_get_Kr_Kb(info->colorimetry.matrix, &kr, &kb)) kr = 0.299, kb = 0.114;  // BT.601
  const double y = kr * r + (1 - kr - kb) * g + kb * b;
  const double pb = (b - y) / (2 * (1 - kb)), pr = (r - y) / (2 * (1 - kr));  // each in [-0.5, 0.5]
  gint offset[GST_VIDEO_MAX_COMPONENTS], scale[GST_VIDEO_MAX_COMPONENTS];
  gst_video_color_range_offsets(info->colorimetry.range, info->finfo, offset, scale);
  pen.value[0] = to_sample(offset[0] + y * scale[0]);
  pen.value[1] = to_sample(offset[1] + pb * scale[1]);
  pen.value[2] = to_sample(offset[2] + pr * scale[2]);
  return pen;
}

void ccl_draw_fill_rect(GstVideoFrame* frame, const CclPen& pen, gint x, gint y, gint w, gint h) {
  const gint x0 = std::max(x, 0), y0 = std::max(y, 0);
  const gint x1 = std::min<gint64>(gint64(x) + w, GST_VIDEO_FRAME_WIDTH(frame));
  const gint y1 = std::min<gint64>(gint64(y) + h, GST_VIDEO_FRAME_HEIGHT(frame));
  if (x0 >= x1 || y0 >= y1 || pen.alpha == 0) return;

  const GstVideoFormatInfo* finfo = frame->info.finfo;
  const guint n_colour = std::min(GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo), 3u);  // alpha stays as it is
  const guint a = pen.alpha;
  for (guint c = 0; c < n_colour; c++) {
    const gint ws = GST_VIDEO_FORMAT_INFO_W_SUB(finfo, c), hs = GST_VIDEO_FORMAT_INFO_H_SUB(finfo, c);
    const gint cx0 = x0 >> ws, cx1 = (x1 + (1 << ws) - 1) >> ws;
    const gint cy0 = y0 >> hs, cy1 = (y1 + (1 << hs) - 1) >> hs;
    guint8* data = static_cast<guint8*>(GST_VIDEO_FRAME_COMP_DATA(frame, c));
    const gint stride = GST_VIDEO_FRAME_COMP_STRIDE(frame, c), pstride = GST_VIDEO_FRAME_COMP_PSTRIDE(frame, c);
    const guint v = pen.value[c];
    for (gint row = cy0; row < cy1; row++) {
      guint8* p = data + gsize(row) * stride + gsize(cx0) * pstride;
      for (gint col = cx0; col < cx1; col++, p += pstride)
        *p = a == 255 ? guint8(v) : guint8((v * a + *p * (255 - a) + 127) / 255);
    }
  }
}

void ccl_draw_box(GstVideoFrame* frame, const CclPen& pen, gint x, gint y, gint w, gint h, gint line_width) {
  const gint lw_x = std::min(line_width, (w + 1) / 2), lw_y = std::min(line_width, (h + 1) / 2);
  // bottom and right edges only cover what top and left left over, so a thin box's translucent
  // pen blends each pixel once
  const gint bottom = std::min(lw_y, h - lw_y), right = std::min(lw_x, w - lw_x);
  ccl_draw_fill_rect(frame, pen, x, y, w, lw_y);                                      // top
  ccl_draw_fill_rect(frame, pen, x, y + h - bottom, w, bottom);                       // bottom
  ccl_draw_fill_rect(frame, pen, x, y + lw_y, lw_x, h - lw_y - bottom);               // left
  ccl_draw_fill_rect(frame, pen, x + w - right, y + lw_y, right, h - lw_y - bottom);  // right
}

void ccl_draw_cross(GstVideoFrame* frame, const CclPen& pen, gint cx, gint cy, gint arm, gint line_width) {
  const gint half = line_width / 2;
  ccl_draw_fill_rect(frame, pen, cx - arm, cy - half, 2 * arm + 1, line_width);
  // the vertical bar skips the centre already drawn, so a translucent pen blends each pixel once
  ccl_draw_fill_rect(frame, pen, cx - half, cy - arm, line_width, arm - half);
  ccl_draw_fill_rect(frame, pen, cx - half, cy - half + line_width, line_width, arm + 1 + half - line_width);
}

void ccl_draw_line(GstVideoFrame* frame, const CclPen& pen, gint x0, gint y0, gint x1, gint y1, gint line_width,
                   bool include_end) {
  // Walk the major axis u (one step per pixel); the minor axis v follows by exact rounding.
  const bool x_major = std::abs(gint64(x1) - x0) >= std::abs(gint64(y1) - y0);
  const gint64 u0 = x_major ? x0 : y0, v0 = x_major ? y0 : x0;
  const gint64 du = x_major ? gint64(x1) - x0 : gint64(y1) - y0, dv = x_major ? gint64(y1) - y0 : gint64(x1) - x0;
  const gint64 n = std::abs(du), su = du < 0 ? -1 : 1, sv = dv < 0 ? -1 : 1, adv = std::abs(dv);
  const gint64 last = include_end ? n : n - 1;
  const gint64 limit = x_major ? GST_VIDEO_FRAME_WIDTH(frame) : GST_VIDEO_FRAME_HEIGHT(frame);
  // the steps whose major coordinate is inside the frame (thickness only grows the minor axis)
  const gint64 k_lo = std::max<gint64>(0, su > 0 ? -u0 : u0 - (limit - 1));
  const gint64 k_hi = std::min<gint64>(last, su > 0 ? limit - 1 - u0 : u0);
  const gint half = line_width / 2;
  auto minor_at = [&](gint64 k) { return n ? v0 + sv * ((2 * k * adv + n) / (2 * n)) : v0; };
  // Steps on one minor coordinate form a run, filled as one rectangle (a translucent pen blends each
  // pixel once; a chroma sample shared by two runs of a diagonal is blended by both).
  auto fill_run = [&](gint64 k_first, gint64 k_end, gint64 v) {
    const gint64 a = u0 + su * k_first, b = u0 + su * k_end;
    const gint u = gint(std::min(a, b)), len = gint(std::abs(b - a) + 1), w = gint(v) - half;
    if (x_major)
      ccl_draw_fill_rect(frame, pen, u, w, len, line_width);
    else
      ccl_draw_fill_rect(frame, pen, w, u, line_width, len);
  };
  gint64 run_start = k_lo, run_v = minor_at(k_lo);
  for (gint64 k = k_lo + 1; k <= k_hi; k++) {
    const gint64 v = minor_at(k);
    if (v == run_v) continue;
    fill_run(run_start, k - 1, run_v);
    run_start = k, run_v = v;
  }
  if (k_lo <= k_hi) fill_run(run_start, k_hi, run_v);
}

void ccl_number_size(guint value, gint scale, gint* width, gint* height) {
  *width = (count_digits(value) * kDigitAdvance - 1) * scale;
  *height = kDigitHeight * scale;
}

void ccl_draw_number(GstVideoFrame* frame, const CclPen& pen, gint x, gint y, guint value, gint scale) {
  const gint n = count_digits(value);
  for (gint i = n - 1; i >= 0; i--, value /= 10) {
    const guint8* rows = kDigitRows[value % 10];
    const gint left = x + i * kDigitAdvance * scale;
    for (gint r = 0; r < kDigitHeight; r++)
      for (gint col = 0; col < kDigitWidth; col++)
        if (rows[r] & (0x10 >> col)) ccl_draw_fill_rect(frame, pen, left + col * scale, y + r * scale, scale, scale);
  }
}
