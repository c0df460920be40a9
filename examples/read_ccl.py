#!/usr/bin/env python3
"""Reads what cudaccl produces, from Python through GObject introspection (PyGObject):
the "ccl" element messages on the bus, and the GstVideoRegionOfInterestMeta on each buffer in a
pad probe. (GstCclMeta has no introspection data; the ROI metas carry the same numbers.)

Needs PyGObject and the GStreamer typelibs (Debian: python3-gi gir1.2-gstreamer-1.0
gir1.2-gst-plugins-base-1.0) and the gst-ccl plugin on GST_PLUGIN_PATH or installed.

    python3 examples/read_ccl.py ["PIPELINE with cudaccl post-messages=true ending in fakesink name=sink"]

Exits with 0 when every frame gave a "ccl" message and its ROI metas, 1 otherwise.
"""
import sys
import threading
import warnings

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import GLib, Gst, GstVideo  # noqa: E402

DEFAULT_PIPELINE = "cclblobsrc num-buffers=3 ! cudaccl threshold=128 post-messages=true ! fakesink name=sink"
MAX_PRINTED = 3  # components printed per frame
PRINT_LOCK = threading.Lock()  # the pad probe prints from the streaming thread, messages from the main one


def say(lines):
    with PRINT_LOCK:
        print("\n".join(lines), flush=True)


def roi_metas(buffer, max_label):
    """The buffer's ROI metas. PyGObject cannot iterate a buffer's metas (gst_buffer_iterate_meta
    takes an opaque state pointer), but cudaccl gives each ROI its component label as id, so the
    metas are looked up by id, 1 upwards, until all gst_buffer_get_n_meta() of them are found."""
    wanted, found = buffer.get_n_meta(GstVideo.VideoRegionOfInterestMeta.get_info().api), []
    label = 1
    while len(found) < wanted and label <= max_label:
        roi = GstVideo.buffer_get_video_region_of_interest_meta_id(buffer, label)
        if roi is not None:
            found.append(roi)
        label += 1
    return found


def on_buffer(pad, info, frames):
    buffer = info.get_buffer()
    caps = pad.get_current_caps().get_structure(0)
    max_label = caps.get_int("width")[1] * caps.get_int("height")[1]
    rois = roi_metas(buffer, max_label)
    frames.append(len(rois))
    lines = [f"buffer at {buffer.pts / Gst.SECOND:.3f} s: {len(rois)} ROI metas"]
    for roi in rois[:MAX_PRINTED]:
        params = roi.get_param("connected-component")
        lines.append(f"  roi {GLib.quark_to_string(roi.roi_type)} id={roi.id}: box x={roi.x} y={roi.y} "
                     f"{roi.w}x{roi.h}, area {params.get_uint('area')[1]}, "
                     f"centroid ({params.get_double('centroid-x')[1]:.2f}, {params.get_double('centroid-y')[1]:.2f})")
    say(lines)
    return Gst.PadProbeReturn.OK


def print_ccl_message(structure):
    """One "ccl" message: frame times and size, counts, and the list of "component" structures."""
    _, array = structure.get_list("components")  # GST_TYPE_LIST arrives as a GValueArray
    with warnings.catch_warnings():  # GValueArray is deprecated in GLib, but it is what get_list gives
        warnings.simplefilter("ignore", DeprecationWarning)
        components = [array.get_nth(i) for i in range(array.n_values)] if array is not None else []
    lines = [f"message ccl at {structure.get_uint64('timestamp')[1] / Gst.SECOND:.3f} s, "
             f"{structure.get_int('width')[1]}x{structure.get_int('height')[1]}: "
             f"{structure.get_uint('n-components')[1]} components "
             f"({structure.get_uint('n-components-total')[1]} found, "
             f"truncated={structure.get_boolean('truncated')[1]})"]
    for c in components[:MAX_PRINTED]:
        lines.append(f"  component label={c.get_uint('label')[1]}: box x={c.get_int('x')[1]} y={c.get_int('y')[1]} "
                     f"{c.get_int('width')[1]}x{c.get_int('height')[1]}, area {c.get_uint('area')[1]}, "
                     f"centroid ({c.get_double('centroid-x')[1]:.2f}, {c.get_double('centroid-y')[1]:.2f})")
    say(lines)
    return len(components)


def main():
    Gst.init(None)
    pipeline = Gst.parse_launch(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PIPELINE)
    sink = pipeline.get_by_name("sink")
    if sink is None:
        sys.exit('the pipeline has no element named "sink"')
    frames, messages = [], []
    sink.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_buffer, frames)

    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    ok = False
    while True:
        msg = bus.timed_pop_filtered(Gst.CLOCK_TIME_NONE,
                                     Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if msg.type == Gst.MessageType.ELEMENT and msg.get_structure().get_name() == "ccl":
            messages.append(print_ccl_message(msg.get_structure()))
        elif msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            say([f"error from {msg.src.get_name()}: {err.message} ({debug})"])
            break
        elif msg.type == Gst.MessageType.EOS:
            ok = True
            break
    pipeline.set_state(Gst.State.NULL)

    say([f"{len(messages)} ccl messages, {len(frames)} buffers, "
          f"{sum(frames)} ROI metas, {sum(messages)} components in messages"])
    return 0 if ok and frames and len(messages) == len(frames) and sum(frames) == sum(messages) else 1


if __name__ == "__main__":
    sys.exit(main())
