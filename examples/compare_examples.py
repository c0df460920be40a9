#!/usr/bin/env python3
"""Test: the Python example (GstCclMeta through the GstCcl typelib) prints exactly what the C
example (GstCclMeta through the header) prints for the same pipeline, and that is not nothing.
Usage: compare_examples.py C_EXAMPLE PYTHON READ_CCL_PY PIPELINE"""
import subprocess
import sys

c_example, python, read_ccl_py, pipeline = sys.argv[1:5]
runs = {}
for name, cmd in (("C", [c_example, pipeline]), ("Python", [python, read_ccl_py, pipeline])):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    sys.stderr.write(r.stderr)
    if r.returncode != 0:
        sys.exit(f"the {name} example failed (exit {r.returncode}):\n{r.stdout}")
    runs[name] = r.stdout.splitlines()
print("\n".join(runs["Python"]))
if not any(line.startswith("  label ") for line in runs["C"]):
    sys.exit("the C example reported no components: nothing to compare")
if runs["C"] != runs["Python"]:
    for a, b in zip(runs["C"] + [""] * len(runs["Python"]), runs["Python"] + [""] * len(runs["C"])):
        if a != b:
            sys.exit(f"first difference:\n  C:      {a!r}\n  Python: {b!r}")
print(f"the C and Python examples agree on {len(runs['C'])} lines")
