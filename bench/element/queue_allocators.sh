#!/usr/bin/env bash
# Why the default element is slower behind a queue (issue 37): the ROI-meta bench (GStreamer alone)
# and the element bench, each with glibc's malloc and with other allocators preloaded. On the GPU host
# (repo root, packed runtime in .gpuhost, build staged by tools/stage-gpuhost.sh and unpacked):
#   bench/element/queue_allocators.sh BUILD_DIR OUT_DIR LIBJEMALLOC [LIBTCMALLOC]
# (the .so files from Debian's libjemalloc2 and libtcmalloc-minimal4: apt-get download, dpkg-deb -x).
B=${1:-build} O=${2:-.} JE=${3:?libjemalloc.so.2 path} TC=${4:-}
mkdir -p "$O"
source .gpuhost/env.sh
export GST_PLUGIN_PATH=$PWD/$B/gst
export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$PWD/$B/hostlib:$PWD/hostlib"
{ date -u; nvidia-smi -L; nproc; lscpu | grep -E "Model name"; ldd --version | head -1; } > "$O/host.txt" 2>&1
for a in glibc jemalloc tcmalloc; do
  case $a in glibc) pre= ;; jemalloc) pre=$JE ;; tcmalloc) pre=$TC; [ -n "$TC" ] || continue ;; esac
  echo "== roi-metas $a"; LD_PRELOAD=$pre timeout 60 "$B/bench/roi_metas/ccl-bench-roi-metas" --frames 3000 2>&1
done > "$O/roi-metas.txt"
for a in glibc jemalloc; do
  pre=; [ $a = jemalloc ] && pre=$JE
  LD_PRELOAD=$pre timeout 200 "$B/bench/element/ccl-bench-element" --frames 3000 > "$O/element-$a.txt" 2>&1
done
grep -E "^==|thread|queue|default\)" "$O/roi-metas.txt" "$O/element-glibc.txt" "$O/element-jemalloc.txt"
