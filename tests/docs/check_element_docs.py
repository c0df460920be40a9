#!/usr/bin/env python3
"""Checks docs/elements/<element>.md against gst-inspect-1.0 for every element of the plugin.

Each page's `## Properties` table (| property | type | default | range | meaning |) must list
every property the element has (those of GStreamer's base classes may be left out), no property
it lacks, and each one's type, default and range as gst-inspect-1.0 prints them (whitespace
aside, so 1.22's and 1.26's layouts both pass). Exit 1 naming each element and property that
disagrees. Conventions: docs/elements/README.md.
"""
import argparse
import os
import re
import subprocess
import sys

# Properties of GObject, GstObject, GstBaseTransform and GstBaseSrc: a page may leave them out.
INHERITED = {"name", "parent", "qos", "blocksize", "num-buffers", "typefind", "do-timestamp", "automatic-eos"}
# A row whose meaning says this is a property of builds with gstreamer-analytics-1.0 only.
ANALYTICS_ONLY = "GStreamer >= 1.24 builds only"
TYPE_RE = re.compile(r'^(Boolean|String|Unsigned Integer64|Unsigned Integer|Integer64|Integer|Unsigned Long|Long|'
                     r'Double|Float|Enum "[^"]+"|Flags "[^"]+"|Object of type "[^"]+"|Boxed pointer of type "[^"]+")'
                     r'\.?\s*(.*)$')
ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")
NO_RANGE = "-"


def squash(text):
    return " ".join(text.split())


def inspect(*args):
    env = dict(os.environ, GST_INSPECT_NO_COLORS="1", PAGER="cat")
    run = subprocess.run(["gst-inspect-1.0", *args], capture_output=True, text=True, env=env)
    if run.returncode != 0:
        sys.exit(f"gst-inspect-1.0 {' '.join(args)} failed ({run.returncode}): {run.stderr.strip()}")
    return ANSI_RE.sub("", run.stdout)


def plugin_elements(plugin):
    """The element names `gst-inspect-1.0 PLUGIN` lists, checked against its feature count."""
    text = inspect(plugin)
    names = re.findall(r"^\s+([a-z0-9][a-z0-9_-]*): \S", text, re.M)
    count = re.search(r"\+-- (\d+) elements?", text)
    if not count or int(count.group(1)) != len(names):
        sys.exit(f"could not read the element list of plugin {plugin}: found {names}, "
                 f"gst-inspect says {count.group(0) if count else 'no element count'}")
    return names


def element_properties(element):
    """{name: (type, default, range)} from the "Element Properties:" section of gst-inspect-1.0."""
    lines = inspect(element).splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "Element Properties:")
    except StopIteration:
        return {}
    blocks, current = {}, None
    for line in lines[start + 1:]:
        if line and not line[0].isspace():
            break  # the next section
        header = re.match(r"^ {1,8}([A-Za-z][\w-]*)\s*: ", line)
        if header and len(line) - len(line.lstrip()) < 10:
            current = header.group(1)
            blocks[current] = []
        elif current:
            blocks[current].append(line.strip())
    props = {}
    for name, body in blocks.items():
        kind, default, value_range, nicks = None, None, NO_RANGE, []
        for line in body:
            typed = TYPE_RE.match(line)
            if typed and kind is None:
                kind, rest = typed.group(1), typed.group(2)
                bounded = re.match(r"Range:\s*(\S+)\s+-\s+(\S+)\s+Default:\s*(.*)$", rest)
                if bounded:
                    value_range, default = f"{bounded.group(1)} - {bounded.group(2)}", bounded.group(3)
                else:
                    plain = re.search(r"Default:\s*(.*)$", rest)
                    default = plain.group(1) if plain else NO_RANGE
                continue
            nick = re.match(r"^\((-?\w+)\):\s*(\S+)", line)
            if kind and nick and kind.split(" ")[0] in ("Enum", "Flags"):
                nicks.append(nick.group(2))
        if kind is None:
            props[name] = (None, None, None)
            continue
        if nicks:
            value_range = ", ".join(nicks)
        props[name] = (squash(kind), squash(default or NO_RANGE), squash(value_range))
    return props


def split_row(line):
    cells = re.split(r"(?<!\\)\|", line.strip())
    if cells and cells[0] == "":
        cells = cells[1:]
    if cells and cells[-1] == "":
        cells = cells[:-1]
    return [c.strip().replace("\\|", "|") for c in cells]


def unquote(cell):
    cell = cell.strip()
    if len(cell) >= 2 and cell.startswith("`") and cell.endswith("`"):
        cell = cell[1:-1]
    return squash(cell)


def doc_properties(path):
    """{name: (type, default, range, meaning)} from the page's `## Properties` table, or an error string."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == "## Properties")
    except StopIteration:
        return f"{path}: no '## Properties' heading"
    table = []
    for line in lines[start + 1:]:
        if line.startswith("#"):
            break
        if line.strip().startswith("|"):
            table.append(split_row(line))
        elif table:
            break
    if len(table) < 2 or [c.lower() for c in table[0]] != ["property", "type", "default", "range", "meaning"]:
        return f"{path}: the table under '## Properties' must start | property | type | default | range | meaning |"
    rows = {}
    for cells in table[2:]:
        if len(cells) != 5:
            return f"{path}: a row of the properties table has {len(cells)} cells, not 5: {cells}"
        name = unquote(cells[0])
        if name in rows:
            return f"{path}: property {name} is listed twice"
        rows[name] = (unquote(cells[1]), unquote(cells[2]), unquote(cells[3]) or NO_RANGE, cells[4])
    return rows


def check_element(element, docs_dir, analytics):
    path = os.path.join(docs_dir, f"{element}.md")
    if not os.path.exists(path):
        return [f"{element}: no page {path}"]
    documented = doc_properties(path)
    if isinstance(documented, str):
        return [f"{element}: {documented}"]
    actual = element_properties(element)
    errors = []
    for name, got in sorted(actual.items()):
        if name not in documented:
            if name not in INHERITED:
                errors.append(f"{element}: property `{name}` ({got[0]}) is missing from {path}")
            continue
        if got[0] is None:
            errors.append(f"{element}: property `{name}`: could not read its type from gst-inspect-1.0")
            continue
        for field, want, have in zip(("type", "default", "range"), documented[name][:3], got):
            if want != have:
                errors.append(f"{element}: property `{name}`: {field} is '{have}' (gst-inspect-1.0), "
                              f"the doc says '{want}'")
    for name, row in sorted(documented.items()):
        if name in actual:
            continue
        if ANALYTICS_ONLY in row[3] and not analytics:
            continue  # a property this build does not have, documented as such
        errors.append(f"{element}: property `{name}` is in {path} but the element has no such property")
    for name, row in sorted(documented.items()):
        if name in actual and ANALYTICS_ONLY in row[3] and not analytics:
            errors.append(f"{element}: property `{name}` is marked '{ANALYTICS_ONLY}' but this build, "
                          f"without analytics, has it")
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", required=True, help="the folder of the element pages (docs/elements)")
    parser.add_argument("--plugin", default="ccl")
    parser.add_argument("--analytics", choices=("yes", "no"), required=True,
                        help="whether the plugin was built with gstreamer-analytics-1.0")
    args = parser.parse_args()
    elements = plugin_elements(args.plugin)
    errors = []
    for element in elements:
        errors += check_element(element, args.docs, args.analytics == "yes")
    for error in errors:
        print(error)
    print(f"{len(elements)} elements ({', '.join(elements)}): "
          + (f"{len(errors)} disagreements with their docs" if errors else "every property documented as it is"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
