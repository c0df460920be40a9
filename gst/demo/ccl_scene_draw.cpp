#include "ccl_scene_draw.h"

#include <algorithm>
#include <cmath>

namespace {

gint px(double v) { return gint(std::lround(std::clamp(v, -1e6, 1e6))); }

// `value` in a box with background, centred on (cx, cy).
void draw_count(GstVideoFrame* frame, const CclPen& pen, const CclPen& background, double cx, double cy, guint value,
                gint scale) {
  gint tw, th;
  ccl_number_size(value, scale, &tw, &th);
  const gint pad = scale, left = px(cx) - tw / 2 - pad, top = px(cy) - th / 2 - pad;
  ccl_draw_fill_rect(frame, background, left, top, tw + 2 * pad, th + 2 * pad);
  ccl_draw_number(frame, pen, left + pad, top + pad, value, scale);
}

void draw_line_rule(GstVideoFrame* frame, const CclPen& pen, const CclPen& background, const CclScene::Line& l,
                    gint lw, gint scale) {
  ccl_draw_line(frame, pen, px(l.x0), px(l.y0), px(l.x1), px(l.y1), lw, true);
  const double dx = l.x1 - l.x0, dy = l.y1 - l.y0, length = std::hypot(dx, dy);
  if (!(length > 0)) return;
  // Unit direction and the normal to its forward side (right of from -> to, y down).
  const double ux = dx / length, uy = dy / length, nx = -uy, ny = ux;
  const double mx = (l.x0 + l.x1) / 2, my = (l.y0 + l.y1) / 2;
  const double arrow = std::min(length / 3, 12.0 * scale + 8), head = arrow / 3;
  const double tx = mx + arrow * nx, ty = my + arrow * ny;
  ccl_draw_line(frame, pen, px(mx), px(my), px(tx), px(ty), lw, true);
  ccl_draw_line(frame, pen, px(tx), px(ty), px(tx - head * nx + head * ux), px(ty - head * ny + head * uy), lw, true);
  ccl_draw_line(frame, pen, px(tx), px(ty), px(tx - head * nx - head * ux), px(ty - head * ny - head * uy), lw, true);
  const double gap = arrow + 8.0 * scale;
  draw_count(frame, pen, background, mx + gap * nx + head * 2 * ux, my + gap * ny + head * 2 * uy, guint(l.forward),
             scale);
  draw_count(frame, pen, background, mx - gap * nx + head * 2 * ux, my - gap * ny + head * 2 * uy, guint(l.backward),
             scale);
}

void draw_zone(GstVideoFrame* frame, const CclPen& pen, const CclPen& alert, const CclPen& background,
               const CclScene::Zone& z, gint lw, gint scale) {
  const std::size_t n = z.polygon.size() / 2;
  if (n < 2) return;
  const CclPen& p = z.overcrowded ? alert : pen;
  const gint w = z.overcrowded ? 2 * lw : lw;
  double cx = 0, cy = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t j = (k + 1) % n;
    ccl_draw_line(frame, p, px(z.polygon[2 * k]), px(z.polygon[2 * k + 1]), px(z.polygon[2 * j]),
                  px(z.polygon[2 * j + 1]), w, false);
    cx += z.polygon[2 * k], cy += z.polygon[2 * k + 1];
  }
  draw_count(frame, p, background, cx / n, cy / n, z.count, scale);
}

}  // namespace

void ccl_draw_scene(GstVideoFrame* frame, const CclScene& scene, const CclPen& background, gint line_width, gint scale) {
  const CclPen line = ccl_pen_from_argb(&frame->info, CCL_SCENE_LINE_COLOR);
  const CclPen zone = ccl_pen_from_argb(&frame->info, CCL_SCENE_ZONE_COLOR);
  const CclPen alert = ccl_pen_from_argb(&frame->info, CCL_SCENE_ALERT_COLOR);
  for (const CclScene::Zone& z : scene.zones) draw_zone(frame, zone, alert, background, z, line_width, scale);
  for (const CclScene::Line& l : scene.lines) draw_line_rule(frame, line, background, l, line_width, scale);
}
