#!/usr/bin/env bash
# Runs ccl-bench-quality (CPU backend, the default line, MOG2 in the same run) on a CDnet-layout
# folder and writes its output to bench/results/quality-<host>-<date>.txt (and the terminal).
# Usage (repo root, after ninja -C build): [OUT=file] bench/quality/run.sh [DIR] [ccl-bench-quality options]
#   DIR defaults to ../shared/data/cdnet-highway; e.g. bench/quality/run.sh ../shared/data/cdnet-highway
#   --line "cudaccl foreground=motion open=1 min-area=50"
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
B=${BUILD_DIR:-build}
dir=${1:-../shared/data/cdnet-highway}
shift || true
bench=$B/bench/quality/ccl-bench-quality
[ -x "$bench" ] || { echo "$bench is missing: build with OpenCV and the bench option (ninja -C $B)" >&2; exit 1; }
out=${OUT:-bench/results/quality-$(hostname -s)-$(date -u +%Y-%m-%d).txt}
export GST_PLUGIN_PATH=$PWD/$B/gst
{ echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
  echo "# $bench $* $dir"
  "$bench" "$@" "$dir"; } | tee "$out"
echo "written: $out"
