#!/usr/bin/env bash
# Installs what building gst-ccl needs (Debian bookworm packages), then configures and builds
# into ./build. Sourced by tools/demo.sh and tools/test.sh; safe to run again (does only what is missing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(meson ninja-build pkg-config g++ libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  libgtest-dev libopencv-dev valgrind
  python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0)  # the last three: examples/read_ccl.py
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# nvcc is optional: with it the CUDA backend is built too (CUDA toolkit at /usr/local/cuda)
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
[ -f build/build.ninja ] || meson setup build ${CCL_MESON_ARGS:-}
ninja -C build
