#!/usr/bin/env bash
# Every benchmark of BENCHMARKS.md "Against NPP, CuPy and OpenCV" in one run on the GPU host:
# ours, NVIDIA NPP, CuPy and OpenCV on the same frames, the device copy bandwidth, the element bench,
# then CSV, tables and PNG plots (bench/peers/plot.py) in OUT. About 6 minutes on an H100 host.
#
# Here:          meson setup build-bench && ninja -C build-bench && bench/peers/stage.sh build-bench
# On the host:   bench/peers/run_all.sh OUT [smoke]   (with build-bench/stage and .gpuhost carried)
#
# Sizes and runs (best of N after a warm-up; every figure stops after min(3, N) runs once its
# per-frame budget is spent; the run count of each figure is in the CSV):
#   8192^2, full protocol (g = 1, 4, 16 x d = 0..100 step 10, + full), 4- and 8-connectivity:
#     GPU figures best of 20 within 300 ms, OpenCV best of 3 (no warm-up), NPP + info best of 1;
#     with every other labelling algorithm (under flsl-cd) and analysis (after optimized-uf) of ours,
#     device work best of 5 within 60 ms, each result checked equal to the default's;
#   size sweep 256^2..4096^2, 8-connectivity, d = 0..100 step 20 + full (19 frames per size; 8192^2
#     reuses the protocol's frames with those densities): GPU best of 20, OpenCV 5, NPP + info 3;
#   16384^2 (same 19 frames) only if the run is under 400 s by then: GPU best of 10, OpenCV and
#     NPP + info one run each; element bench with 1000 frames per figure.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
OUT=${1:?usage: run_all.sh OUT [smoke]}
MODE=${2:-full}
mkdir -p "$OUT"
LOG=$OUT/run.log
W=${TMPDIR:-/tmp}/gst-ccl-peers
rm -rf "$W" && mkdir -p "$W/frames"
tar -C "$W" -xJf build-bench/stage/peers.tar.xz
export LD_LIBRARY_PATH="$W/hostlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CUDA=${CUDA_HOME:-/usr/local/cuda}
log() { echo "$@" | tee -a "$LOG"; }

{
  echo "# run_all.sh $MODE, $(date -u '+%Y-%m-%d %H:%M UTC')"
  sed 's/^/# build: /' "$W/build/stage.txt"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | sed 's/^/# gpu: /'
  echo "# cpu: $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p')"
  echo "# nvcc: $("$CUDA/bin/nvcc" --version | tail -1)"
  python3 -c 'import numpy, cupy, cv2; print("# python: numpy", numpy.__version__, "cupy", cupy.__version__, "cv2", cv2.__version__)' 2>&1
} >> "$LOG"

# NPP ships with the host's toolkit: build its peer here, with the NPP libraries that exist.
NPPLIBS=$(for l in nppc nppial nppicc nppidei nppif nppig nppim nppist nppisu nppitc; do
  [ -e "$CUDA/lib64/lib$l.so" ] && echo "-l$l"; done)
log "# npp: $(grep -l LabelMarkersUF "$CUDA"/include/npp*.h | xargs -n1 basename | tr '\n' ' ') libs: $NPPLIBS"
"$CUDA/bin/nvcc" -O2 -std=c++17 -arch=native bench/peers/npp_bench.cu -L"$CUDA/lib64" $NPPLIBS -o "$W/npp-bench" >> "$LOG" 2>&1 \
  || log "# npp-bench did not build"

# one size: our frames and figures, then NPP, CuPy and OpenCV on the same files
bench_size() {  # size set conns runs budget_ms cpu_runs cpu_warmup npp_info_runs [extra args of ours]
  local n=$1 set=$2 conns=$3 runs=$4 budget=$5 cpu_runs=$6 cpu_warmup=$7 info_runs=$8; shift 8
  local d=$W/frames/$n
  mkdir -p "$d"
  log "# size $n: set $set, connectivity $conns, runs $runs (cpu $cpu_runs), budget $budget ms, t=${SECONDS}s"
  timeout 300 "$W/build/bench/peers/ccl-bench-peers-ours" --size "$n" --set "$set" --conn "$conns" --runs "$runs" \
    --budget-ms "$budget" --dir "$d" "$@" >> "$LOG" 2>&1 || log "# ours failed at $n (rc $?)"
  for c in ${conns//,/ }; do
    [ -x "$W/npp-bench" ] && { timeout 200 "$W/npp-bench" --dir "$d" --size "$n" --conn "$c" --runs "$runs" \
      --budget-ms "$budget" --info-runs "$info_runs" >> "$LOG" 2>&1 || log "# npp failed at $n conn $c (rc $?)"; }
  done
  timeout 200 python3 bench/peers/peers.py --dir "$d" --size "$n" --runs-gpu "$runs" --runs-cpu "$cpu_runs" \
    --cpu-warmup "$cpu_warmup" --budget-ms "$budget" >> "$LOG" 2>&1 || log "# python peers failed at $n (rc $?)"
  rm -rf "$d"
}

element() {  # frames
  log "# element bench: --frames $1, t=${SECONDS}s"
  (source .gpuhost/env.sh
   export GST_PLUGIN_PATH=$W/build/gst LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$W/hostlib"
   timeout 120 "$W/build/bench/element/ccl-bench-element" --frames "$1" 2>&1 | sed 's/^/element: /') >> "$LOG"
}

if [ "$MODE" = smoke ]; then
  bench_size 512 sweep 8,4 5 200 3 1 3 --variants
  bench_size 4096 sweep 8 5 100 3 1 1
  element 50
else
  bench_size 8192 protocol 8,4 20 300 3 0 1 --variants
  element 1000
  for n in 256 512 1024 2048 4096; do bench_size "$n" sweep 8 20 300 5 1 3; done
  if [ "$SECONDS" -lt 400 ]; then bench_size 16384 sweep 8 10 400 1 0 1
  else log "# 16384^2 skipped: ${SECONDS}s spent before it"; fi
fi
log "# measured in ${SECONDS}s; mismatches: $(grep -c '^mismatch,' "$LOG")"
python3 bench/peers/plot.py "$LOG" "$OUT" 2>&1 | tee -a "$LOG"
log "# done in ${SECONDS}s"
