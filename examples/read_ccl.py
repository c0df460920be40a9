#!/usr/bin/env python3
"""Reads what cudaccl produces, from Python through GObject introspection (PyGObject): the
GstCclMeta on each buffer in a pad probe, through the gst-ccl typelib (`from gi.repository import
GstCcl`), checked against the "ccl" element messages on the bus when the pipeline posts them.

Needs PyGObject and the GStreamer typelibs (Debian: python3-gi gir1.2-gstreamer-1.0
gir1.2-gst-plugins-base-1.0), the GstCcl-1.0 typelib and libgstcclmeta-1.0 (installed with gst-ccl
into <libdir>/girepository-1.0 and <libdir>; uninstalled: GI_TYPELIB_PATH=build/gst/ccl
LD_LIBRARY_PATH=build/gst/ccl), and the gst-ccl plugin on GST_PLUGIN_PATH or installed.

    python3 examples/read_ccl.py ["PIPELINE with cudaccl ending in fakesink name=sink"]

Prints the same lines as examples/read_ccl_meta.c (the tests compare the two). Exits with 0 when
every frame carried a GstCclMeta and every "ccl" message (if any) has the same components, 1 otherwise.
"""
import sys
import threading
import warnings

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstCcl", "1.0")
from gi.repository import Gst, GstCcl  # noqa: E402

DEFAULT_PIPELINE = "cclblobsrc num-buffers=3 ! cudaccl threshold=128 post-messages=true ! fakesink name=sink"
MAX_PRINTED = 5  # components printed per frame, as in read_ccl_meta.c
LOCK = threading.Lock()  # the pad probe runs on the streaming thread, the bus loop on the main one


def time_str(t):
    """GST_TIME_FORMAT, as the C example prints it."""
    if t == Gst.CLOCK_TIME_NONE:
        return "99:99:99.999999999"
    return f"{t // (3600 * Gst.SECOND)}:{t // (60 * Gst.SECOND) % 60:02d}:{t // Gst.SECOND % 60:02d}.{t % Gst.SECOND:09d}"


def component_tuple(c):
    return (c.label, c.x, c.y, c.width, c.height, c.area, round(c.centroid_x, 9), round(c.centroid_y, 9))


def on_buffer(_pad, info, state):
    buffer = info.get_buffer()
    meta = GstCcl.buffer_get_ccl_meta(buffer)
    lines = []
    with LOCK:
        state["frames"] += 1
        if meta is None:
            print(f"frame at {time_str(buffer.pts)}: no GstCclMeta", flush=True)
            return Gst.PadProbeReturn.OK
        state["with_meta"] += 1
        components = meta.get_components()  # copies of the entries, as GstCcl.CclComponent
        if len(components) != meta.n_components or len(components) != meta.get_n_components():
            state["errors"].append(f"get_components gave {len(components)} of {meta.n_components}")
        state["metas"][buffer.pts] = [component_tuple(c) for c in components]
        lines.append(f"frame at {time_str(buffer.pts)}, {meta.width}x{meta.height}, "
                     f"{meta.connectivity}-connectivity: {meta.n_components} components reported "
                     f"({meta.n_components_total} found{', list truncated' if meta.truncated else ''})")
        for i in range(min(meta.n_components, MAX_PRINTED)):
            c = meta.get_component(i)  # the same entry, one at a time
            lines.append(f"  label {c.label}: box x={c.x} y={c.y} {c.width}x{c.height}, area {c.area}, "
                         f"centroid ({c.centroid_x:.2f}, {c.centroid_y:.2f})")
        if meta.n_components > MAX_PRINTED:
            lines.append(f"  ... {meta.n_components - MAX_PRINTED} more")
        print("\n".join(lines), flush=True)
    return Gst.PadProbeReturn.OK


def message_components(structure):
    """The components of one "ccl" message (GST_TYPE_LIST arrives as a GValueArray)."""
    _, array = structure.get_list("components")
    with warnings.catch_warnings():  # GValueArray is deprecated in GLib, but it is what get_list gives
        warnings.simplefilter("ignore", DeprecationWarning)
        entries = [array.get_nth(i) for i in range(array.n_values)] if array is not None else []
    out = []
    for c in entries:
        out.append((c.get_uint("label")[1], c.get_int("x")[1], c.get_int("y")[1], c.get_int("width")[1],
                    c.get_int("height")[1], c.get_uint("area")[1], round(c.get_double("centroid-x")[1], 9),
                    round(c.get_double("centroid-y")[1], 9)))
    return out


def main():
    Gst.init(None)
    pipeline = Gst.parse_launch(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_PIPELINE)
    sink = pipeline.get_by_name("sink")
    if sink is None:
        sys.exit('the pipeline has no element named "sink"')
    state = {"frames": 0, "with_meta": 0, "metas": {}, "errors": []}
    sink.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, on_buffer, state)

    messages = {}
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    ok = False
    while True:
        msg = bus.timed_pop_filtered(Gst.CLOCK_TIME_NONE,
                                     Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if msg.type == Gst.MessageType.ELEMENT and msg.get_structure().get_name() == "ccl":
            s = msg.get_structure()
            messages[s.get_uint64("timestamp")[1]] = message_components(s)
        elif msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            print(f"error from {msg.src.get_name()}: {err.message} ({debug})", file=sys.stderr)
            break
        elif msg.type == Gst.MessageType.EOS:
            ok = True
            break
    pipeline.set_state(Gst.State.NULL)

    errors = state["errors"]
    for pts, components in messages.items():  # the bus message of a frame says what its meta says
        if state["metas"].get(pts) != components:
            errors.append(f"frame at {time_str(pts)}: the ccl message and GstCclMeta differ")
    for e in errors:
        print(e, file=sys.stderr)
    print(f"{state['frames']} frames, {state['with_meta']} with GstCclMeta")
    if messages and not errors:
        print(f"{len(messages)} ccl messages, the same components as GstCclMeta", file=sys.stderr)
    return 0 if ok and not errors and state["frames"] > 0 and state["with_meta"] == state["frames"] else 1


if __name__ == "__main__":
    sys.exit(main())
