#!/bin/sh
# Line crossings and zone visits on MOT15 PETS09-S2L1 (the shared data, not in the repository): an
# independent count on the truth, the engine on the truth's ids, on the tracker's ids over the
# truth boxes, and over det.txt (its count error). Usage: bench/analytics/pets09_counts.sh [BUILD_DIR] [DATA_DIR]
set -eu
build=${1:-build}
data=${2:-$(dirname "$0")/../../../shared/data/pets09-s2l1}
"$build/bench/analytics/ccl-analytics-pets09" "$data/gt.txt" "$data/det.txt"
