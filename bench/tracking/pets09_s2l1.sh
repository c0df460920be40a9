#!/bin/sh
# The tracker on MOT15 PETS09-S2L1 (the shared data, not in the repository) with its default
# options, scored by the bench's scorer. Usage: bench/tracking/pets09_s2l1.sh [BUILD_DIR] [DATA_DIR]
# Extra tracker options may follow in CCL_TRACK_MOT_ARGS (for trying designs; the figures quoted
# in BENCHMARKS.md use none).
set -eu
build=${1:-build}
data=${2:-$(dirname "$0")/../../../shared/data/pets09-s2l1}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# shellcheck disable=SC2086
"$build/bench/tracking/ccl-track-mot" "$data/det.txt" --out "$out" ${CCL_TRACK_MOT_ARGS:-}
"$build/bench/tracking/ccl-mot-score" "$data/gt.txt" "$out"
