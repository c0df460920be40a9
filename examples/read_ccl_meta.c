/* Reads the GstCclMeta that cudaccl attaches, in a pad probe, and prints each frame's components.
 *
 * Build against an installed gst-ccl:
 *   cc read_ccl_meta.c -o read_ccl_meta $(pkg-config --cflags --libs gstreamer-ccl-1.0)
 * Run (the pipeline must end in a sink named "sink"; without an argument it runs DEFAULT_PIPELINE):
 *   ./read_ccl_meta ["videotestsrc ! video/x-raw,format=GRAY8 ! cudaccl ! fakesink name=sink"]
 * Exits with 0 when every frame that reached the sink carried a GstCclMeta, 1 otherwise. */
#include <gst/ccl/gstcclmeta.h>
#include <gst/gst.h>

#define DEFAULT_PIPELINE                                                                \
  "cclblobsrc num-buffers=3 ! cudaccl threshold=128 ! fakesink name=sink"
#define MAX_PRINTED 5 /* components printed per frame */

typedef struct {
  guint frames, frames_with_meta;
} Counts;

static GstPadProbeReturn
on_buffer (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Counts *counts = user_data;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
  GstCclMeta *meta = gst_buffer_get_ccl_meta (buffer);
  guint i;

  counts->frames++;
  if (meta == NULL) {
    g_print ("frame at %" GST_TIME_FORMAT ": no GstCclMeta\n", GST_TIME_ARGS (GST_BUFFER_PTS (buffer)));
    return GST_PAD_PROBE_OK;
  }
  counts->frames_with_meta++;
  g_print ("frame at %" GST_TIME_FORMAT ", %ux%u, %u-connectivity: %u components reported "
      "(%u found%s)\n", GST_TIME_ARGS (GST_BUFFER_PTS (buffer)), meta->width, meta->height,
      meta->connectivity, meta->n_components, meta->n_components_total,
      meta->truncated ? ", list truncated" : "");
  for (i = 0; i < meta->n_components && i < MAX_PRINTED; i++) {
    const GstCclComponent *c = &meta->components[i];
    g_print ("  label %u: box x=%d y=%d %dx%d, area %u, centroid (%.2f, %.2f)\n", c->label, c->x, c->y,
        c->width, c->height, c->area, c->centroid_x, c->centroid_y);
  }
  if (meta->n_components > MAX_PRINTED)
    g_print ("  ... %u more\n", meta->n_components - MAX_PRINTED);
  return GST_PAD_PROBE_OK;
}

int
main (int argc, char **argv)
{
  const gchar *description = argc > 1 ? argv[1] : DEFAULT_PIPELINE;
  GError *error = NULL;
  GstElement *pipeline, *sink;
  GstPad *pad;
  GstMessage *msg;
  Counts counts = { 0, 0 };
  gboolean ok;

  gst_init (&argc, &argv);
  pipeline = gst_parse_launch (description, &error);
  if (pipeline == NULL) {
    g_printerr ("could not build the pipeline: %s\n", error->message);
    g_clear_error (&error);
    return 1;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  if (sink == NULL) {
    g_printerr ("the pipeline has no element named \"sink\"\n");
    gst_object_unref (pipeline);
    return 1;
  }
  pad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, &counts, NULL);
  gst_object_unref (pad);
  gst_object_unref (sink);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipeline), GST_CLOCK_TIME_NONE,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (!ok) {
    gchar *debug = NULL;
    gst_message_parse_error (msg, &error, &debug);
    g_printerr ("error from %s: %s (%s)\n", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), error->message,
        debug ? debug : "no details");
    g_clear_error (&error);
    g_free (debug);
  }
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);

  g_print ("%u frames, %u with GstCclMeta\n", counts.frames, counts.frames_with_meta);
  return ok && counts.frames > 0 && counts.frames_with_meta == counts.frames ? 0 : 1;
}
