#!/usr/bin/env python3
"""Replays rules that group components after labelling, on boxes a run wrote out, and scores them.

Two kinds of rule: a frame's components joined by their boxes alone (RULES), and joined because
they lie inside the box where one group of the frame before is predicted (FOLLOW: parts of one
object move together). Boxes come from `ccl-bench-quality --boxes FILE` (CDnet: object F1 as the
bench scores it, IoU >= 0.5, greedy best-first) and from the hard-scene tests run with
HARD_SCENE_BOXES=dir (frames after the 60-frame warm-up with a fragmented object: two or more
components mostly inside one true box, as tests/element/hard_scenes.hpp counts them). For each
pair of components on two different true objects (CDnet) or on one (hard scenes) it also prints
how far apart their boxes are. Written for the bench, independent of the plugin's code;
`--self-test` checks it on hand-made cases.

Usage: replay_grouping.py [--self-test] [--cdnet FILE...] [--hard FILE...]
"""
import collections
import sys

RULES = {"none": None}
for g in (0, 2, 4, 8):  # boxes at most g pixels apart (0: touching or overlapping)
    RULES[f"boxes within {g}"] = lambda a, b, g=g: max(gaps(a, b)) <= g
for g in (4, 8, 12):  # side by side (or stacked), sharing 80 % of the shorter one's extent
    RULES[f"aligned within {g}"] = lambda a, b, g=g: aligned(a, b, g, 0.8)


def gaps(a, b):  # boxes (x, y, w, h, ...): empty columns and rows between them (negative: overlap)
    return (max(a[0], b[0]) - min(a[0] + a[2], b[0] + b[2]), max(a[1], b[1]) - min(a[1] + a[3], b[1] + b[3]))


def aligned(a, b, g, share):
    gx, gy = gaps(a, b)
    return (gx <= g and -gy >= share * min(a[3], b[3])) or (gy <= g and -gx >= share * min(a[2], b[2]))


def iou(a, b):
    iw = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    ih = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    union = a[2] * a[3] + b[2] * b[3] - iw * ih
    return iw * ih / union if union else 0.0


def overlap(a, b):
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0


def join(boxes):  # the union box and the summed area
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
    return [x0, y0, x1 - x0, y1 - y0, sum(b[4] for b in boxes)]


def group(components, rule):
    """Joins pairs the rule accepts until none is left: the union box, the summed area."""
    boxes = [list(c) for c in components]
    joined = rule is not None
    while joined:
        joined = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                if rule(boxes[i], boxes[j]):
                    boxes[i] = join([boxes[i], boxes.pop(j)])
                    joined = True
                    break
            if joined:
                break
    return boxes


# (margin, share, max_gap, fill): a component belongs to a group of the frame before when `share`
# of its box lies in the group's box moved by its last step and grown by `margin` px, and no other
# group's covers a fifth of it; a group's parts more than `max_gap` px apart part again, and so do
# parts whose boxes cover less than `fill` of their joined box (two cars that touched once do not).
FOLLOW = [(4, 0.8, 1000, 0), (4, 0.8, 4, 0), (4, 0.8, 8, 0), (2, 0.95, 8, 0), (0, 1.0, 12, 0), (4, 0.8, 1000, 0.6),
          (4, 0.8, 1000, 0.7), (4, 0.8, 1000, 0.8), (6, 0.8, 12, 0.7)]


def linked(parts, max_gap):
    """The parts as sets whose members lie within max_gap of another member, largest area first."""
    sets = []
    for p in parts:
        near = [s for s in sets if any(max(gaps(p, q)) <= max_gap for q in s)]
        sets = [s for s in sets if s not in near] + [sum(near, []) + [p]]
    return sorted(sets, key=lambda s: -sum(c[4] for c in s))


def tiled(parts, fill):
    """The parts as one set if their boxes cover `fill` of the joined box, else one set each."""
    joined = join(parts)
    return [parts] if sum(c[2] * c[3] for c in parts) >= fill * joined[2] * joined[3] else [[c] for c in parts]


def follow(frames, reported, margin, share, max_gap, fill=0):
    """Each frame's groups (FOLLOW's comment), from the first frame on."""
    out, before = {}, []  # before: the groups of the frame before, (box, last step)
    for f in frames:
        predicted = [[b[0] + dx - margin, b[1] + dy - margin, b[2] + 2 * margin, b[3] + 2 * margin]
                     for b, (dx, dy) in before]
        members = collections.defaultdict(list)
        for c in reported.get(f, []):
            area = c[2] * c[3]
            holders = [k for k, p in enumerate(predicted) if overlap(c, p) >= share * area]
            others = [k for k, p in enumerate(predicted) if k not in holders and overlap(c, p) > 0.2 * area]
            members[holders[0] if len(holders) == 1 and not others else ("alone", len(members))].append(c)
        groups = []  # (box, the group of the frame before or None)
        for key, parts in members.items():
            sets = [t for s in linked(parts, max_gap) for t in tiled(s, fill)] if isinstance(key, int) else [parts]
            sets.sort(key=lambda s: -sum(c[4] for c in s))
            groups += [(join(s), key if isinstance(key, int) and i == 0 else None) for i, s in enumerate(sets)]
        step = lambda b, k: (0, 0) if k is None else (
            round(b[0] + b[2] / 2 - before[k][0][0] - before[k][0][2] / 2),
            round(b[1] + b[3] / 2 - before[k][0][1] - before[k][0][3] / 2))
        before = [(b, step(b, k)) for b, k in groups]
        out[f] = [b for b, _ in groups]
    return out


def object_f1(truth, reported):
    tp = fp = fn = 0
    for frame in sorted(set(truth) | set(reported)):
        t, r = truth.get(frame, []), reported.get(frame, [])
        pairs = sorted(((iou(a, b), i, j) for i, a in enumerate(t) for j, b in enumerate(r) if iou(a, b) >= 0.5),
                       key=lambda p: -p[0])
        used_t, used_r = set(), set()
        for _, i, j in pairs:
            if i not in used_t and j not in used_r:
                used_t.add(i), used_r.add(j)
        tp, fp, fn = tp + len(used_t), fp + len(r) - len(used_r), fn + len(t) - len(used_t)
    recall, precision = tp / max(1, tp + fn), tp / max(1, tp + fp)
    return 2 * recall * precision / (recall + precision) if recall + precision else 0.0


def parts_of(box, components):  # components mostly inside a true box
    return [c for c in components if c[4] >= 50 and 2 * overlap(box, c) > c[2] * c[3]]


def fragment_frames(truth, reported, warm_up=60):
    return sum(any(len(parts_of(b, reported.get(f, []))) > 1 for b in truth.get(f, []))
               for f in set(truth) | set(reported) if f >= warm_up)


def pair_gaps(truth, reported, cdnet):
    """Box gaps of component pairs on two different true objects (CDnet) or on one (hard scenes)."""
    d = collections.Counter()
    for f, components in reported.items():
        t = truth.get(f, [])
        if cdnet:
            best = [max(((iou(c, b), k) for k, b in enumerate(t)), default=(0, -1)) for c in components]
            for i in range(len(components)):
                for j in range(i + 1, len(components)):
                    if min(best[i][0], best[j][0]) >= 0.5 and best[i][1] != best[j][1]:
                        d[max(gaps(components[i], components[j]))] += 1
        elif f >= 60:
            for b in t:
                p = parts_of(b, components)
                for i in range(len(p)):
                    for j in range(i + 1, len(p)):
                        d[max(gaps(p[i], p[j]))] += 1
    return d


def read(path):
    truth, reported = collections.defaultdict(list), collections.defaultdict(list)
    for line in open(path):
        name, kind, frame, *v = line.split()
        box = [int(x) for x in v[:4]] + [int(v[4]) if kind == "C" else 0]  # truth boxes have no area
        (truth if kind == "T" else reported)[int(frame)].append(box)
    return name, truth, reported


def self_test():
    t = {1: [[0, 0, 10, 10, 0]]}
    assert abs(object_f1(t, {1: [[0, 0, 10, 10, 100]]}) - 1) < 1e-9
    assert object_f1(t, {1: [[0, 0, 4, 10, 40], [6, 0, 4, 10, 40]]}) == 0  # two halves: no match
    halves = group([[0, 0, 4, 10, 60], [6, 0, 4, 10, 60]], RULES["boxes within 2"])
    assert halves == [[0, 0, 10, 10, 120]], halves
    assert group([[0, 0, 4, 10, 60], [7, 0, 4, 10, 60]], RULES["boxes within 2"]) != halves  # 3 apart
    assert fragment_frames({60: [[0, 0, 10, 10, 0]]}, {60: [[0, 0, 4, 10, 60], [6, 0, 4, 10, 60]]}) == 1
    assert fragment_frames({60: [[0, 0, 10, 10, 0]]}, {60: [[0, 0, 4, 10, 60], [6, 0, 4, 10, 40]]}) == 0
    assert aligned([0, 0, 4, 10], [8, 1, 4, 10], 4, 0.8) and not aligned([0, 0, 4, 10], [8, 5, 4, 10], 4, 0.8)
    whole_then_halves = {1: [[0, 0, 10, 10, 100]], 2: [[1, 0, 4, 10, 40], [7, 0, 4, 10, 40]]}
    assert follow([1, 2], whole_then_halves, 2, 0.8, 4)[2] == [[1, 0, 10, 10, 80]]
    assert len(follow([1, 2], whole_then_halves, 2, 0.8, 1)[2]) == 2  # 2 apart, max_gap 1: parted
    two_then_four = {1: [[0, 0, 10, 10, 100], [30, 0, 10, 10, 100]],
                     2: [[0, 0, 4, 10, 40], [6, 0, 4, 10, 40], [30, 0, 4, 10, 40], [36, 0, 4, 10, 40]]}
    assert sorted(follow([1, 2], two_then_four, 2, 0.8, 8)[2]) == [[0, 0, 10, 10, 80], [30, 0, 10, 10, 80]]
    diagonal = {1: [[0, 0, 20, 20, 300]], 2: [[0, 0, 9, 9, 60], [11, 11, 9, 9, 60]]}  # 2 x 81 of 400
    assert len(follow([1, 2], diagonal, 2, 0.8, 8, 0.7)[2]) == 2 and len(follow([1, 2], diagonal, 2, 0.8, 8)[2]) == 1
    print("self-test passed")


def main(files):
    for cdnet, path in files:
        name, truth, reported = read(path)
        for rule_name, rule in RULES.items():
            grouped = {f: group(c, rule) for f, c in reported.items()}
            score = f"object F1 {object_f1(truth, grouped):.3f}" if cdnet else \
                f"frames with a fragmented object {fragment_frames(truth, grouped)}"
            print(f"{path}: {rule_name}: {score}")
        frames = sorted(set(truth) | set(reported))
        for margin, share, max_gap, fill in FOLLOW:
            grouped = follow(frames, reported, margin, share, max_gap, fill)
            score = f"object F1 {object_f1(truth, grouped):.3f}" if cdnet else \
                f"frames with a fragmented object {fragment_frames(truth, grouped)}"
            print(f"{path}: following the groups of the frame before (margin {margin}, share {share}, "
                  f"parts at most {max_gap} apart, covering {fill} of their box): {score}")
        d = pair_gaps(truth, reported, cdnet)
        what = "pairs on two true objects" if cdnet else "pairs on one true object"
        print(f"{path}: {what} {sum(d.values())}, boxes apart by at most " +
              ", ".join(f"{g}: {sum(v for k, v in d.items() if k <= g)}" for g in (-1, 0, 2, 4, 8, 12, 16)))


if __name__ == "__main__":
    files, cdnet = [], None
    for arg in sys.argv[1:]:
        if arg == "--self-test":
            self_test()
        elif arg in ("--cdnet", "--hard"):
            cdnet = arg == "--cdnet"
        elif cdnet is None:
            sys.exit(f"{arg}: say --cdnet or --hard before the files")
        else:
            files.append((cdnet, arg))
    main(files)
