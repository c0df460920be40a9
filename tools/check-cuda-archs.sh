#!/usr/bin/env bash
# Compiles the device code (every .cu of the CUDA backend, kernels/cuda) for the given SM
# architectures with nvcc -c (no link, no GPU needed), as the Jetson builds would: proves the kernels
# compile for Xavier (sm_72) and Orin (sm_87) without a Jetson. An architecture this nvcc cannot
# target (CUDA 13 dropped everything below sm_75, Xavier's sm_72 among them) is reported as
# skipped, not compiled. Usage: tools/check-cuda-archs.sh [ARCH...]   (default: 72 87)
# Exit status: 0 when every supported architecture compiled, 1 otherwise, 77 when none could.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$nvcc" ] || { echo "check-cuda-archs: no nvcc (on PATH or /usr/local/cuda/bin)"; exit 77; }
[ $# -gt 0 ] || set -- 72 87
version=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\),.*/\1/p')
supported=" $("$nvcc" --list-gpu-arch | tr '\n' ' ') "
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sources=(kernels/cuda/*/*.cu)
compiled=0 failed=0
for arch in "$@"; do
  if [[ $supported != *" compute_$arch "* ]]; then
    echo "sm_$arch: SKIP (nvcc $version cannot target it: it lists$(echo "$supported" | sed 's/compute_/ /g'))"
    continue
  fi
  start=$SECONDS
  # the same flags as the meson build (meson.build), two compilers at a time
  printf '%s\n' "${sources[@]}" | xargs -P 2 -I{} sh -c '
    obj="$1/$(echo "$2" | tr / _).o"
    "$0" -std=c++17 -O2 -c -gencode=arch=compute_$3,code=sm_$3 -Xcompiler=-fPIC --expt-relaxed-constexpr \
      --resource-usage -DCCL_HAVE_CUDA=1 -Ikernels/cuda -Ikernels "$2" -o "$obj" 2> "$obj.log" || { echo "  FAILED: $2"; cat "$obj.log"; exit 1; }' \
    "$nvcc" "$out" {} "$arch"
  if [ $? -eq 0 ]; then
    n=$(ls "$out"/*.o | wc -l)
    # ptxas (--resource-usage) names the architecture it compiled each kernel for
    kernels=$(cat "$out"/*.log | grep -c "Compiling entry function .* for 'sm_$arch'")
    [ "$kernels" -gt 0 ] || { echo "sm_$arch: FAILED (ptxas compiled no kernel for sm_$arch)"; failed=$((failed + 1)); continue; }
    echo "sm_$arch: OK ($n files, $kernels kernels compiled by ptxas for sm_$arch in $((SECONDS - start)) s, nvcc $version)"
    compiled=$((compiled + 1))
  else
    echo "sm_$arch: FAILED"
    failed=$((failed + 1))
  fi
  rm -f "$out"/*
done
[ $failed -eq 0 ] || exit 1
[ $compiled -gt 0 ] || exit 77
