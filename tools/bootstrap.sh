#!/usr/bin/env bash
# Installs what building gst-ccl needs (Debian bookworm packages), then configures and builds
# into ./build. Run by tools/demo.sh and tools/test.sh; safe to run again (does only what is missing).
# CCL_MESON_ARGS (e.g. -Dcuda=disabled) is passed to the first `meson setup build`. --test adds what
# only the tests use.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(meson ninja-build pkg-config g++ libglib2.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  libgtest-dev libopencv-dev valgrind libjson-glib-dev
  python3-gi gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0  # examples/read_ccl.py
  gobject-introspection libgirepository1.0-dev)  # the GstCcl-1.0 typelib (g-ir-scanner, Gst .gir files)
# a real camera's recording (OpenCV's vtest.avi) and its decoder (avdec_msmpeg4): test_real_recording.cpp
[ "${1:-}" = --test ] && packages+=(opencv-doc gstreamer1.0-libav
  mosquitto python3-paho-mqtt)  # the MQTT example's test: a real broker, a paho subscriber
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "bootstrap: run as root, or install sudo, to install: ${missing[*]}" >&2; exit 1; }
    sudo=sudo; [ -t 0 ] || sudo="sudo -n"  # without a terminal, fail instead of waiting for a password
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# nvcc is optional: with it (on PATH, or CUDA at /usr/local/cuda) the CUDA backend is built too
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
if [ ! -f build/build.ninja ]; then
  native=()
  if command -v nvcc >/dev/null; then  # header dependencies for the .cu files (tools/nvcc-with-depfile)
    printf "[binaries]\ncuda = '%s/tools/nvcc-with-depfile'\n" "$PWD" > .nvcc-native.ini
    native=(--native-file "$PWD/.nvcc-native.ini")
  fi
  meson setup build "${native[@]}" ${CCL_MESON_ARGS:-}
fi
ninja -C build
