#!/usr/bin/env python3
"""Turns the log of bench/peers/run_all.sh into OUT/results.csv, OUT/tables.md and PNG plots.

Gpix/s = size^2 / time; the floor is the ~6 B/px of docs/algorithms.md at the device-to-device copy bandwidth
measured in the same run, and floor fraction = floor time / measured time (1.0 = at the floor).
Per-g figures are the mean over densities of Gpix/s, as in the FLSL+CD paper (docs/algorithms.md).
usage: plot.py LOG OUT
"""
import csv
import os
import sys
from collections import defaultdict

FLOOR_BYTES_PER_PIXEL = 6.0
PEERS = ["ours-device", "ours-run", "npp", "npp-info", "cupy", "opencv"]
LABEL = {
    "ours-device": "ours, device work (labels+stats)",
    "ours-run": "ours, run() (+compaction, host copy)",
    "npp": "NPP UF (labels+compress, no stats)",
    "npp-info": "NPP UF + info (area, bbox, contours)",
    "cupy": "CuPy ndimage.label (labels only)",
    "opencv": "OpenCV CPU, all cores (labels+stats)",
}
GROUPS = ["1", "4", "16", "full"]
# The seed papers' comparisons (ours.cu --variants): device work of each labelling algorithm under
# the default analysis, and of each analysis after the default labelling; ours-device is the default pair.
LABELLERS = ["ours-device", "alg-8dls", "alg-m8dls", "alg-column-runs", "alg-raster-segments"]
ANALYSES = ["ana-naive", "ana-flsl", "ours-device", "ana-flsl-otf"]
VARIANT_LABEL = {
    "ours-device": "optimized-uf + flsl-cd (default)",
    "alg-8dls": "8dls + flsl-cd", "alg-m8dls": "m8dls + flsl-cd", "alg-column-runs": "column-runs + flsl-cd",
    "alg-raster-segments": "raster-segments + flsl-cd",
    "ana-naive": "optimized-uf + naive", "ana-flsl": "optimized-uf + flsl", "ana-flsl-otf": "optimized-uf + flsl-otf",
}
SWEEP_DENSITIES = {0, 20, 40, 60, 80, 100}


def parse(log):
    rows, bandwidth, device, na, mismatches, element, versions, latency = [], None, "", [], [], [], {}, []
    for line in open(log, errors="replace"):
        line = line.rstrip("\n")
        f = line.split(",")
        if f[0] == "csv" and len(f) >= 11:
            rows.append(dict(peer=f[1], size=int(f[2]), conn=int(f[3]), g=f[4], d=int(f[5]), components=int(f[6]),
                             ms=float(f[7]), runs=int(f[8]), match=int(f[9]), note=",".join(f[10:])))
        elif f[0] == "bandwidth":
            bandwidth = max(bandwidth or 0, float(f[1]))
            device = f[2]
        elif f[0] == "na":
            na.append(f[1:3] + [",".join(f[3:])])
        elif f[0] == "mismatch":
            mismatches.append(line)
        elif f[0] in ("npp", "cupy", "opencv"):
            versions[f[0]] = ",".join(f[1:])
        elif line.startswith("element: latency,") and not line.startswith("element: latency,width"):
            e = line[len("element: latency,"):].split(",")
            latency.append(dict(case=f"{e[0]}x{e[1]} {e[2]}", figure=e[3], us=[float(x) for x in e[4:]]))
        elif line.startswith("element: csv,") and not line.startswith("element: csv,width"):
            e = line[len("element: csv,"):].split(",")
            element.append(dict(size=f"{e[0]}x{e[1]}", scene=e[2], components=int(e[3]), median_roi=float(e[5]),
                                p99_roi=float(e[6]), median_noroi=float(e[8]), p99_noroi=float(e[9]),
                                core_median=float(e[10]), opencv_fps=float(e[11]), fps_roi=float(e[4]),
                                fps_pipeline=float(e[16]) if len(e) > 16 else float("nan")))
    for r in rows:
        px = r["size"] ** 2
        r["gpix_s"] = px / r["ms"] / 1e6
        r["floor_frac"] = (px * FLOOR_BYTES_PER_PIXEL / bandwidth * 1e3) / r["ms"] if bandwidth else float("nan")
    return rows, bandwidth, device, na, mismatches, element, versions, latency


def mean(v):
    return sum(v) / len(v) if v else float("nan")


def group_means(rows, size, conn, densities=None):
    """peer -> g -> (mean Gpix/s, mean floor fraction, frames)"""
    acc = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r["size"] == size and r["conn"] == conn and (densities is None or r["g"] == "full" or r["d"] in densities):
            acc[r["peer"]][r["g"]].append(r)
    return {p: {g: (mean([r["gpix_s"] for r in v]), mean([r["floor_frac"] for r in v]), len(v)) for g, v in gs.items()}
            for p, gs in acc.items()}


def fmt(x, digits=1):
    return "–" if x != x else f"{x:.{digits}f}"


def tables(rows, bandwidth, device, na, mismatches, element, versions):
    out = []
    floor8192 = 8192 ** 2 / (8192 ** 2 * FLOOR_BYTES_PER_PIXEL / bandwidth * 1e3) / 1e6 if bandwidth else float("nan")
    out.append(f"Device: {device}; copy bandwidth (D2D, read + write) {bandwidth / 1e9:.0f} GB/s, so the "
               f"{FLOOR_BYTES_PER_PIXEL:.0f} B/px floor is {floor8192:.0f} Gpix/s.\n")
    out.append("Peer versions: " + "; ".join(f"{k} {v}" for k, v in sorted(versions.items())) + "\n")
    for conn in (8, 4):
        m = group_means(rows, 8192, conn)
        if not m:
            continue
        out.append(f"\n8192x8192, {conn}-connectivity: mean over densities of Gpix/s (fraction of the floor)\n")
        out.append("| peer | g=1 | g=4 | g=16 | full |\n| --- | ---: | ---: | ---: | ---: |")
        for p in PEERS:
            if p in m:
                out.append(f"| {LABEL[p]} | " + " | ".join(
                    f"{fmt(m[p][g][0])} ({fmt(m[p][g][1], 2)})" if g in m[p] else "–" for g in GROUPS) + " |")
    sizes = sorted({r["size"] for r in rows if r["conn"] == 8})
    out.append("\nSize sweep, 8-connectivity: mean Gpix/s over g = 1, 4, 16 x d = 0..100 step 20 and the full "
               "frame (19 frames; floor fraction in brackets)\n")
    out.append("| size | " + " | ".join(LABEL[p] for p in PEERS) + " |\n| ---: |" + " ---: |" * len(PEERS))
    for n in sizes:
        m = group_means(rows, n, 8, SWEEP_DENSITIES)
        cells = []
        for p in PEERS:
            v = [r for r in rows if r["peer"] == p and r["size"] == n and r["conn"] == 8 and
                 (r["g"] == "full" or r["d"] in SWEEP_DENSITIES)]
            cells.append(f"{fmt(mean([r['gpix_s'] for r in v]), 2 if n < 2048 else 1)} "
                         f"({fmt(mean([r['floor_frac'] for r in v]), 3 if n < 2048 else 2)})" if v else "–")
        out.append(f"| {n}² | " + " | ".join(cells) + " |")
    # where a peer is faster than ours on the same frame
    by = {(r["peer"], r["size"], r["conn"], r["g"], r["d"]): r for r in rows}
    lose = defaultdict(list)
    for (p, n, c, g, d), r in by.items():
        if p in ("npp", "npp-info", "cupy", "opencv"):
            for ours in ("ours-device", "ours-run"):
                o = by.get((ours, n, c, g, d))
                if o and r["ms"] < o["ms"]:
                    lose[(p, ours)].append(f"{n}² c{c} g={g} d={d} ({r['ms']:.3f} vs {o['ms']:.3f} ms)")
    frames = len({(r["size"], r["conn"], r["g"], r["d"]) for r in rows if r["peer"] == "ours-run"})
    out.append(f"\nFrames where a peer is faster than ours (of {frames} frame x connectivity figures):\n")
    for p in ("npp", "npp-info", "cupy", "opencv"):
        for ours in ("ours-device", "ours-run"):
            v = lose.get((p, ours), [])
            out.append(f"- {p} faster than {ours}: {len(v)}" + (": " + "; ".join(sorted(v)[:12]) +
                                                                 (" ..." if len(v) > 12 else "") if v else ""))
    checked = defaultdict(int)
    for r in rows:
        if r["peer"] in ("npp", "cupy", "opencv"):
            checked[r["peer"]] += 1
    out.append("\nComponent counts checked against ours: " + ", ".join(f"{p} {checked[p]} figures" for p in sorted(checked))
               + f"; mismatches: {len(mismatches)}\n")
    for line in mismatches:
        out.append(f"- {line}")
    for conn in (8, 4):
        m = group_means(rows, 8192, conn)
        if not any(p.startswith(("alg-", "ana-")) for p in m):
            continue
        out.append(f"\nAlgorithms and analyses (device work), 8192x8192, {conn}-connectivity: mean Gpix/s over "
                   "densities (fraction of the floor); the slowest frame of each g in the last column\n")
        out.append("| variant | g=1 | g=4 | g=16 | full | slowest frame |\n| --- | ---: | ---: | ---: | ---: | --- |")
        for p in LABELLERS + [a for a in ANALYSES if a != "ours-device"]:
            if p not in m:
                continue
            sel = [r for r in rows if r["peer"] == p and r["size"] == 8192 and r["conn"] == conn]
            worst = min(sel, key=lambda r: r["gpix_s"])
            out.append(f"| {VARIANT_LABEL[p]} | " + " | ".join(
                f"{fmt(m[p][g][0])} ({fmt(m[p][g][1], 2)})" if g in m[p] else "–" for g in GROUPS) +
                f" | g={worst['g']} d={worst['d']}: {worst['ms']:.2f} ms |")
    if na:
        out.append("\nVariants the pipeline refuses (the API names them, the CUDA backend does not have them yet):\n")
        for a, b, why in na:
            out.append(f"- {a} + {b}: {why}")
    if element:
        out.append("\nElement (ccl-bench-element), per-frame latency in us\n")
        out.append("| frame | components | element default median / p99 | attach-roi-meta=false median / p99 | "
                   "core run() median | default fps: harness / with a queue after it | OpenCV fps (all cores) |\n"
                   "| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for e in element:
            out.append(f"| {e['size']} {e['scene']} | {e['components']} | {e['median_roi']:.1f} / {e['p99_roi']:.1f} | "
                       f"{e['median_noroi']:.1f} / {e['p99_noroi']:.1f} | {e['core_median']:.1f} | "
                       f"{e['fps_roi']:.0f} / {fmt(e['fps_pipeline'], 0)} | {e['opencv_fps']:.0f} |")
    return "\n".join(out) + "\n"


def plots(rows, bandwidth, element, latency, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    style = {"ours-device": ("C0", "o", "-"), "ours-run": ("C0", "s", "--"), "npp": ("C2", "^", "-"), "npp-info": ("C2", "x", "--"),
             "cupy": ("C1", "v", "-"), "opencv": ("C3", "D", "-")}
    written = []

    def save(fig, name):
        fig.tight_layout()
        fig.savefig(os.path.join(out_dir, name), dpi=90)
        plt.close(fig)
        written.append(name)
    for conn in (8, 4):
        sel = [r for r in rows if r["size"] == 8192 and r["conn"] == conn and r["g"] != "full"]
        if not sel:
            continue
        fig, axes = plt.subplots(1, 3, figsize=(15, 4.6), sharey=True)
        for ax, g in zip(axes, ("1", "4", "16")):
            for p in PEERS:
                v = sorted((r["d"], r["gpix_s"]) for r in sel if r["peer"] == p and r["g"] == g)
                if v:
                    c, mk, ls = style[p]
                    ax.plot([x for x, _ in v], [y for _, y in v], color=c, marker=mk, ls=ls, ms=4, label=LABEL[p])
            if bandwidth:
                ax.axhline(bandwidth / FLOOR_BYTES_PER_PIXEL / 1e9, color="grey", ls=":", label="6 B/px bandwidth floor")
            ax.set_yscale("log")
            ax.set_title(f"g = {g}")
            ax.set_xlabel("foreground density (%)")
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("throughput (Gpix/s, log)")
        axes[0].legend(fontsize=7, loc="lower left")
        fig.suptitle(f"8192x8192, {conn}-connectivity: throughput against density (best of N per frame)")
        save(fig, f"density-8192-conn{conn}.png")

    for conn in (8, 4):
        sel = [r for r in rows if r["size"] == 8192 and r["conn"] == conn and r["g"] != "full"]
        if not any(r["peer"].startswith(("alg-", "ana-")) for r in sel):
            continue
        fig, axes = plt.subplots(2, 3, figsize=(15, 8.4), sharey="row")
        for row, group in enumerate((LABELLERS, ANALYSES)):
            for ax, g in zip(axes[row], ("1", "4", "16")):
                for k, p in enumerate(group):
                    v = sorted((r["d"], r["gpix_s"]) for r in sel if r["peer"] == p and r["g"] == g)
                    if v:
                        ax.plot([x for x, _ in v], [y for _, y in v], color=f"C{k}", marker="os^vD"[k], ms=4,
                                label=VARIANT_LABEL[p])
                ax.set_yscale("log")
                ax.set_title(f"{'labelling' if row == 0 else 'feature analysis'}, g = {g}")
                ax.set_xlabel("foreground density (%)")
                ax.grid(True, which="both", alpha=0.3)
            axes[row][0].set_ylabel("device work (Gpix/s, log)")
            axes[row][0].legend(fontsize=7, loc="lower left")
        fig.suptitle(f"8192x8192, {conn}-connectivity: the seed algorithms against density (H100 device work)")
        save(fig, f"variants-8192-conn{conn}.png")

    sizes = sorted({r["size"] for r in rows if r["conn"] == 8})
    if sizes:
        fig, axes = plt.subplots(1, 4, figsize=(17, 4.4), sharey=True)
        for ax, g in zip(axes, GROUPS):
            for p in PEERS:
                xs, ys = [], []
                for n in sizes:
                    v = [r["gpix_s"] for r in rows if r["peer"] == p and r["size"] == n and r["conn"] == 8 and
                         r["g"] == g and (g == "full" or r["d"] in SWEEP_DENSITIES)]
                    if v:
                        xs.append(n)
                        ys.append(mean(v))
                if xs:
                    c, mk, ls = style[p]
                    ax.plot(xs, ys, color=c, marker=mk, ls=ls, ms=4, label=LABEL[p])
            if bandwidth:
                ax.axhline(bandwidth / FLOOR_BYTES_PER_PIXEL / 1e9, color="grey", ls=":", label="6 B/px bandwidth floor")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xticks(sizes)
            ax.set_xticklabels([str(n) for n in sizes], rotation=45, fontsize=7)
            ax.set_title("full frame" if g == "full" else f"g = {g}, mean over d = 0..100 step 20")
            ax.set_xlabel("image side (pixels)")
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("throughput (Gpix/s, log)")
        axes[0].legend(fontsize=7, loc="upper left")
        fig.suptitle("Throughput against image size, 8-connectivity")
        save(fig, "size-sweep.png")

    if latency:
        # Distribution of per-frame latency: each case's percentiles, with and without ROI metas.
        cases = list(dict.fromkeys(r["case"] for r in latency))
        fig, axes = plt.subplots(1, len(cases), figsize=(4.2 * len(cases), 4.2), sharey=True, squeeze=False)
        ticks = ["p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99", "p99.9", "max"]
        names = {"roi": "default (GstCclMeta + ROI metas)", "noroi": "attach-roi-meta=false"}
        for ax, case in zip(axes[0], cases):
            for k, fig_name in enumerate(("roi", "noroi")):
                v = [r["us"] for r in latency if r["case"] == case and r["figure"] == fig_name]
                if v:
                    ax.plot(range(len(v[0])), v[0], marker="o", ms=3, color=f"C{k}", label=names[fig_name])
            ax.set_xticks(range(len(ticks)))
            ax.set_xticklabels(ticks, rotation=60, fontsize=7)
            ax.set_yscale("log")
            ax.set_title(case, fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
        axes[0][0].set_ylabel("per-frame latency (us, log)")
        axes[0][0].legend(fontsize=7)
        fig.suptitle("cudaccl per-frame latency: percentiles over every timed frame (NV12 CUDA memory, GstHarness)")
        save(fig, "element-latency.png")
    return written


def main():
    log, out_dir = sys.argv[1], sys.argv[2]
    rows, bandwidth, device, na, mismatches, element, versions, latency = parse(log)
    with open(os.path.join(out_dir, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["peer", "size", "conn", "g", "d", "components", "ms", "runs", "match", "gpix_s", "floor_frac", "note"])
        for r in rows:
            w.writerow([r["peer"], r["size"], r["conn"], r["g"], r["d"], r["components"], f"{r['ms']:.4f}", r["runs"],
                        r["match"], f"{r['gpix_s']:.3f}", f"{r['floor_frac']:.4f}", r["note"]])
    text = tables(rows, bandwidth, device, na, mismatches, element, versions)
    open(os.path.join(out_dir, "tables.md"), "w").write(text)
    print(text)
    try:
        print("plots:", ", ".join(plots(rows, bandwidth, element, latency, out_dir)))
    except ImportError as e:
        print(f"plots skipped: {e}")


if __name__ == "__main__":
    main()
