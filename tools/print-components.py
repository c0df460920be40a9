#!/usr/bin/env python3
"""Reads `gst-launch-1.0 -m` output on stdin and prints the components of each `ccl` message
(with --last, of the last one only: a run that warms a background model up)."""
import re
import sys

FIELD = r"{}=\((?:u?int|double)\)(-?[0-9.e+-]+)"
COMPONENT = re.compile(r"component, " + ", ".join(
    FIELD.format(f) for f in ("label", "x", "y", "width", "height", "area", "centroid-x", "centroid-y")))
HEADER = re.compile(r"ccl, timestamp=\(guint64\)(\d+).*?width=\(int\)(\d+), height=\(int\)(\d+), "
                    r"n-components=\(uint\)(\d+), n-components-total=\(uint\)(\d+), truncated=\(boolean\)(\w+)")

last_only = "--last" in sys.argv[1:]
frames = 0
report = []  # the lines of the frame not printed yet
for line in sys.stdin:
    text = line.replace("\\", "")  # nested structures are serialized as escaped strings
    header = HEADER.search(text)
    if not header:
        if "ERROR" in line or "WARNING" in line:
            print(line.rstrip(), file=sys.stderr)
        continue
    frames += 1
    report = []  # with --last, the frame before is dropped
    ts, w, h, n, total, truncated = header.groups()
    report.append(f"frame {frames} at {int(ts) / 1e9:.3f} s, {w}x{h}: {n} components reported "
          f"({total} found{', list truncated' if truncated == 'true' else ''})")
    report.append(f"  {'label':>5} {'x':>5} {'y':>5} {'width':>5} {'height':>6} {'area':>7} {'centroid':>18}")
    for c in COMPONENT.finditer(text):
        label, x, y, cw, ch, area, cx, cy = c.groups()
        report.append(f"  {label:>5} {x:>5} {y:>5} {cw:>5} {ch:>6} {area:>7}   ({float(cx):7.2f}, {float(cy):7.2f})")
    if not last_only:
        print("\n".join(report), flush=True)
        report = []
if report:
    print("\n".join(report))
if frames == 0:
    sys.exit("no ccl message seen: did the pipeline run? (see the errors above)")
